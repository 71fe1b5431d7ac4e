// SPDX-License-Identifier: GPL-2.0
/*
 * Messages.  libbpf talks a lot, most of it useless to a user; we keep all of
 * it in memory, show it with -v, and otherwise turn a failure into one line
 * (plus the verifier's last words when the verifier said no).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "tcpca.h"

bool verbose;

static char *libbpf_log;
static size_t libbpf_log_len;

void err(const char *fmt, ...)
{
	va_list ap;

	fputs("tcpca-load: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static int keep_libbpf_output(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[4096];
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	char *grown;

	if (n < 0)
		return 0;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	if (verbose && level != LIBBPF_DEBUG)
		fputs(line, stderr);
	grown = realloc(libbpf_log, libbpf_log_len + n + 1);
	if (!grown)
		return 0;
	libbpf_log = grown;
	memcpy(libbpf_log + libbpf_log_len, line, n + 1);
	libbpf_log_len += n;
	return 0;
}

void log_capture_libbpf(void)
{
	libbpf_set_print(keep_libbpf_output);
}

/*
 * The verifier's log ends with the instruction it refused and why; the last
 * few lines before "-- END PROG LOAD LOG --" are what a developer needs.
 */
void log_print_verifier_tail(void)
{
	const int want = 6;
	char *end, *p;
	int lines = 0;

	if (!libbpf_log || !(end = strstr(libbpf_log, "-- END PROG LOAD LOG --")))
		return;
	/* back up over "libbpf: prog 'x': " prefix of the END line */
	while (end > libbpf_log && end[-1] != '\n')
		end--;
	for (p = end; p > libbpf_log; p--) {
		if (p[-1] == '\n' && p != end && ++lines > want)
			break;
		if (strncmp(p, "-- BEGIN PROG LOAD LOG --", 25) == 0) {
			p = strchr(p, '\n') + 1;
			break;
		}
	}
	if (verbose)
		return;		/* the whole log is already on stderr */
	fprintf(stderr, "tcpca-load: verifier log (tail; -v for all):\n");
	while (p < end) {
		char *nl = memchr(p, '\n', end - p);
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		fprintf(stderr, "  | %.*s\n", (int)len, p);
		p += len + 1;
	}
}
