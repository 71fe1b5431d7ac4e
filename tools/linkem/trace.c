// SPDX-License-Identifier: GPL-2.0
/*
 * Mahimahi link traces: one line per 1500-byte delivery opportunity, the
 * number a timestamp in ms; repeats allowed; the trace loops after its
 * last timestamp.  Read in place, never copied.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "linkem.h"

static int trace_push(struct trace *t, u32 *cap, u32 v)
{
	if (t->n == *cap) {
		u32 ncap = *cap ? *cap * 2 : 4096;
		u32 *p = realloc(t->ms, ncap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		t->ms = p;
		*cap = ncap;
	}
	t->ms[t->n++] = v;
	return 0;
}

int trace_load(struct trace *t, const char *path)
{
	char line[64];
	u32 cap = 0, lineno = 0;
	FILE *f = fopen(path, "r");

	t->path = path;
	if (!f) {
		fprintf(stderr, "linkem: cannot read trace %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *end;
		unsigned long v;

		lineno++;
		if (line[0] == '\n' || line[0] == '#')
			continue;
		errno = 0;
		v = strtoul(line, &end, 10);
		if (errno || end == line || (*end && *end != '\n' && *end != '\r') ||
		    v > 0xffffffffUL || (t->n && v < t->ms[t->n - 1])) {
			fprintf(stderr, "linkem: %s:%u: not a non-decreasing ms timestamp\n",
				path, lineno);
			fclose(f);
			return -1;
		}
		if (trace_push(t, &cap, v)) {
			fprintf(stderr, "linkem: %s: out of memory\n", path);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	if (!t->n || !t->ms[t->n - 1]) {
		fprintf(stderr, "linkem: %s: trace is empty or lasts 0 ms\n", path);
		return -1;
	}
	t->period_ns = (u64)t->ms[t->n - 1] * NSEC_PER_MSEC;
	return 0;
}

/* Opportunity number idx counts across loops of the trace. */
u64 trace_opportunity_ns(const struct trace *t, u64 idx)
{
	return (idx / t->n) * t->period_ns + (u64)t->ms[idx % t->n] * NSEC_PER_MSEC;
}

/* The first opportunity at or after t_ns, by binary search in its loop. */
u64 trace_first_at_or_after(const struct trace *t, u64 t_ns)
{
	u64 loop = t_ns / t->period_ns;
	u64 within = t_ns - loop * t->period_ns;
	u32 lo = 0, hi = t->n;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if ((u64)t->ms[mid] * NSEC_PER_MSEC < within)
			lo = mid + 1;
		else
			hi = mid;
	}
	return loop * t->n + lo;	/* lo == n rolls into the next loop */
}

double trace_mean_bps(const struct trace *t)
{
	return (double)t->n * TRACE_MTU * 8 / ((double)t->period_ns / NSEC_PER_SEC);
}

/* Opportunities at or before t_ns from the start, the loops included. */
u64 trace_opportunities_by(const struct trace *t, u64 t_ns)
{
	return trace_first_at_or_after(t, t_ns + 1);
}

/*
 * --trace-info: a trace's capacity as this reader sees it, so that no
 * other program parses the format with rules of its own.  With a window,
 * also the mean over its first window_ns: what a flow that starts with the
 * link meets, as every run starts the trace afresh.
 */
int trace_info(const char *path, u64 window_ns, FILE *f)
{
	struct trace t = { 0 };

	if (trace_load(&t, path))
		return -1;
	fprintf(f, "{\"opportunities\":%u,\"period_s\":%.3f,\"mean_bps\":%.0f",
		t.n, t.period_ns / 1e9, trace_mean_bps(&t));
	if (window_ns) {
		u64 n = trace_opportunities_by(&t, window_ns);

		fprintf(f, ",\"window_s\":%.3f,\"window_opportunities\":%llu,\"window_bps\":%.0f",
			window_ns / 1e9, (unsigned long long)n,
			(double)n * TRACE_MTU * 8 / (window_ns / 1e9));
	}
	fputs("}\n", f);
	free(t.ms);
	return 0;
}
