// SPDX-License-Identifier: GPL-2.0
/*
 * Messages.  libbpf talks a lot, most of it useless to a user; we keep its
 * warnings in memory, show them with -v, and otherwise turn a failure into one
 * line (plus the verifier's last words when the verifier said no, or the line
 * that names the cause when something else did).
 */
#define _GNU_SOURCE		/* memmem(), vasprintf() */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "tcpca.h"

bool verbose;
const char *err_context;

static char *libbpf_log;
static size_t libbpf_log_len;

static void vline(const char *kind, const char *fmt, va_list ap)
{
	fprintf(stderr, "tcpca-load: %s%s%s", err_context ? err_context : "",
		err_context ? ": " : "", kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline("", fmt, ap);
	va_end(ap);
}

/* Something the user should know that is not a failure. */
void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline("note: ", fmt, ap);
	va_end(ap);
}

void info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* Only with -v: what the loader decided, for whoever debugs it. */
void info_verbose(const char *fmt, ...)
{
	va_list ap;

	if (!verbose)
		return;
	va_start(ap, fmt);
	vline("", fmt, ap);
	va_end(ap);
}

/* A verifier's refusal leaves its log in libbpf's output; nothing else does. */
bool log_has_verifier_log(void)
{
	return libbpf_log && strstr(libbpf_log, "-- BEGIN PROG LOAD LOG --");
}

/*
 * libbpf's last line before its closing "failed to load object": the cause,
 * e.g. a map the kernel would not create or a kernel function it lacks.
 */
void log_print_libbpf_cause(void)
{
	const char *p, *end, *cause = NULL;

	for (p = libbpf_log; !verbose && p && *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, "\n");
		if (!memmem(p, end - p, "failed to load object", 21))
			cause = p;
	}
	if (cause)
		fprintf(stderr, "tcpca-load: %.*s\n", (int)strcspn(cause, "\n"), cause);
}

static int keep_libbpf_output(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *line = NULL, *grown;
	int n;

	if (level == LIBBPF_DEBUG)
		return 0;
	n = vasprintf(&line, fmt, ap);	/* whole: the verifier's log comes as one message */
	if (n < 0)
		return 0;
	if (verbose)
		fputs(line, stderr);
	grown = realloc(libbpf_log, libbpf_log_len + n + 1);
	if (grown) {
		libbpf_log = grown;
		memcpy(libbpf_log + libbpf_log_len, line, n + 1);
		libbpf_log_len += n;
	}
	free(line);
	return 0;
}

void log_capture_libbpf(void)
{
	libbpf_set_print(keep_libbpf_output);
}

/*
 * The verifier's log ends with the instruction it refused and why: the last
 * lines before "-- END PROG LOAD LOG --" are what a developer needs first.
 */
void log_print_verifier_tail(void)
{
	const int want = 7;
	const char *begin, *end, *p;
	int lines = 0;

	if (verbose || !libbpf_log)
		return;		/* with -v the whole log is on stderr already */
	begin = strstr(libbpf_log, "-- BEGIN PROG LOAD LOG --");
	end = begin ? strstr(begin, "-- END PROG LOAD LOG --") : NULL;
	if (!end)
		return;
	begin = strchr(begin, '\n') + 1;
	while (end > begin && end[-1] != '\n')	/* the END line's "libbpf: ..." prefix */
		end--;
	for (p = end; p > begin; p--)		/* back up over the last `want` lines */
		if (p[-1] == '\n' && p != end && ++lines == want)
			break;
	fprintf(stderr, "tcpca-load: verifier log (tail; -v for all):\n");
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		int len = nl ? (int)(nl - p) : (int)(end - p);

		fprintf(stderr, "  | %.*s\n", len, p);
		p += len + 1;
	}
}
