// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection, for tests/loader-crash.t only: TCPCA_FAULT=STEP[:kill|:err|:stop]
 * stops the loader at the named step of a change to the pin directory, by
 * SIGKILL (a crash: nothing of ours runs after it), by an error return
 * (the failure path runs), or with :stop by SIGSTOP (a loader that hangs
 * there, holding what it holds).  The steps are the points between two changes
 * that a crash can separate; README.md ("What a crash leaves") says what
 * each leaves behind.  Unset, it costs a getenv per step.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tcpca.h"

int fault(const char *step)
{
	const char *f = getenv("TCPCA_FAULT");
	size_t n = strlen(step);

	if (!f || strncmp(f, step, n) || (f[n] && f[n] != ':'))
		return 0;
	if (f[n] && !strcmp(f + n + 1, "err")) {
		err("fault injected at %s", step);
		return -EIO;
	}
	fflush(NULL);
	if (f[n] && !strcmp(f + n + 1, "stop"))
		return raise(SIGSTOP);
	raise(SIGKILL);
	return -EINTR;	/* not reached */
}
