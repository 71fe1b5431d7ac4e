// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-stats-on: keeps the kernel's BPF run-time statistics (run_time_ns,
 * run_cnt of every program) on for as long as it runs, and prints "on" once
 * they are.
 *
 * It holds a BPF_ENABLE_STATS file descriptor rather than writing
 * kernel.bpf_stats_enabled: the kernel turns the statistics off when the
 * last such descriptor closes, so whatever ends this process (a signal,
 * SIGKILL, or its parent dying, through PDEATHSIG) ends the statistics with
 * it, and the sysctl is never written.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <bpf/bpf.h>

int main(void)
{
	int fd;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() == 1)
		return 1;	/* no parent to outlive */
	fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (fd < 0) {
		fprintf(stderr, "bpf-stats-on: cannot enable BPF statistics: %s\n", strerror(errno));
		return 1;
	}
	printf("on\n");
	fflush(stdout);
	for (;;)
		pause();
}
