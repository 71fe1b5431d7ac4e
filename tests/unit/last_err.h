/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loader's err() for unit tests of its pure parts: the last error line
 * is kept in last_err for the test to check, not printed.
 */
#ifndef TCPCA_TEST_LAST_ERR_H
#define TCPCA_TEST_LAST_ERR_H

#include <stdarg.h>
#include <stdio.h>

static char last_err[512];
const char *err_context;	/* as log.c says it: "CONTEXT: message" */

void err(const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (err_context)
		n = snprintf(last_err, sizeof(last_err), "%s: ", err_context);
	va_start(ap, fmt);
	vsnprintf(last_err + n, sizeof(last_err) - n, fmt, ap);
	va_end(ap);
}

#endif /* TCPCA_TEST_LAST_ERR_H */
