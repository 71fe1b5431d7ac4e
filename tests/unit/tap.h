/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal TAP for the host unit tests: ok(), is_u(), diag(), done_testing(). */
#ifndef TCPCA_TAP_H
#define TCPCA_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_n, tap_failed;

static inline int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	tap_failed += !cond;
	return cond;
}

static inline void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

#define is_u(got, want, ...) \
	(ok((got) == (want), __VA_ARGS__) || (diag("got %llu, expected %llu", \
	 (unsigned long long)(got), (unsigned long long)(want)), 0))

static inline int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}

#endif
