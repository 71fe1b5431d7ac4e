// SPDX-License-Identifier: GPL-2.0
/*
 * linkem's pure parts, without root or a TUN device: the option parser,
 * the Mahimahi trace reader, the histogram's quantiles, and CoDel's drop
 * schedule against RFC 8289's control law (interval / sqrt(count), and on
 * re-entry count - lastcount), computed here independently; the policer's
 * token bucket against the bytes its rate and burst allow.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "../../tools/linkem/opts.c"
#include "../../tools/linkem/trace.c"
#include "../../tools/linkem/hist.c"
#include "../../tools/linkem/link.c"
#include "../../tools/linkem/police.c"
#include "../../tools/linkem/stats.c"
#include "tap.h"

void usage(FILE *f)	/* main.c's, which this test does not link */
{
	fputs("usage\n", f);
}

static int args(struct conf *c, const char *line)
{
	static char buf[512];	/* conf keeps pointers into it */
	char *argv[32], *tok, *save;
	int argc = 0;

	snprintf(buf, sizeof(buf), "linkem %s", line);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 31; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	optind = 0;	/* glibc: start getopt afresh */
	return parse_args(c, argc, argv);
}

static void test_options(void)
{
	static struct conf c;
	u64 v;
	u32 p;

	is_u(parse_rate("10mbit", &v), 0, "10mbit parses");
	is_u(v, 10000000, "10mbit is 10^7 bit/s");
	ok(!parse_rate("1.5Gbit", &v) && v == 1500000000, "1.5Gbit, case-insensitive");
	ok(!parse_rate("unlimited", &v) && v == 0, "unlimited is rate 0");
	ok(parse_rate("10parsecs", &v) < 0, "an unknown unit is refused");
	ok(parse_rate("-1mbit", &v) < 0, "a negative rate is refused");
	ok(parse_rate("500bit", &v) < 0, "below 1 kbit/s is refused");
	ok(!parse_time("20", &v) && v == 20 * NSEC_PER_MSEC, "a bare time is ms");
	ok(!parse_time("1.5s", &v) && v == 1500 * NSEC_PER_MSEC, "1.5s");
	ok(!parse_time("250us", &v) && v == 250 * NSEC_PER_USEC, "250us");
	ok(parse_time("2h", &v) < 0, "hours are not a unit");
	ok(!parse_prob("1%", &p) && p == (u32)llround(0.01 * 4294967296.0), "1%% is 0.01 of 2^32");
	ok(!parse_prob("0.25", &p) && p == 1U << 30, "0.25 without a percent sign");
	ok(!parse_prob("100%", &p) && p == PROB_ONE, "100%% is certain");
	ok(parse_prob("101%", &p) < 0 && parse_prob("x", &p) < 0 && parse_prob("", &p) < 0,
	   "101%%, x and nothing are refused");

	is_u(args(&c, "--rate 20mbit --up-delay 5ms --down-delay 15ms --down-loss 1% "
		 "--queue 30kB --seed 010 nsA nsB"), 0, "a full command line parses");
	ok(c.d[UP].rate_bps == 20000000 && c.d[DOWN].rate_bps == 20000000, "--rate sets both directions");
	ok(c.d[UP].delay_ns == 5 * NSEC_PER_MSEC && c.d[DOWN].delay_ns == 15 * NSEC_PER_MSEC,
	   "--up-delay and --down-delay set one each");
	ok(c.d[UP].loss == 0 && c.d[DOWN].loss == (u32)llround(0.01 * 4294967296.0),
	   "--down-loss only down");
	ok(c.d[UP].limit_bytes == 30000 && c.d[UP].limit_pkts == 0, "--queue 30kB is a byte limit");
	is_u(c.seed, 10, "--seed 010 is ten: decimal, not octal");
	ok(!strcmp(c.ns[UP], "nsA") && !strcmp(c.ns[DOWN], "nsB"), "the two namespaces, A then B");
	is_u(args(&c, "--delay 10ms --up-delay 1ms a b"), 0, "a later, narrower option ...");
	ok(c.d[UP].delay_ns == NSEC_PER_MSEC && c.d[DOWN].delay_ns == 10 * NSEC_PER_MSEC, "... wins");
	ok(!args(&c, "--queue 100 a b") && c.d[UP].limit_pkts == 100, "--queue 100 is packets");

	ok(!args(&c, "--event +1500ms:down:300ms a b") && c.d[UP].nev == 1 && c.d[DOWN].nev == 1 &&
	   c.d[UP].ev[0].after_first && c.d[UP].ev[0].at_ns == 1500 * NSEC_PER_MSEC &&
	   c.d[DOWN].ev[0].arg == 300 * NSEC_PER_MSEC, "--event +1500ms: from the first packet, both ways");
	ok(!args(&c, "--event 2s:loss:1% a b") && !c.d[UP].ev[0].after_first, "--event 2s: from the start");
	ok(args(&c, "--event 1s:down:1s --event +3s:loss:1% a b") < 0,
	   "events on both clocks in one direction are refused");
	ok(args(&c, "--seed 0x10 a b") < 0, "--seed 0x10 is refused");
	ok(args(&c, "--rate fast a b") < 0, "--rate fast is refused");
	ok(args(&c, "--no-such-option a b") < 0, "an unknown option is refused");
	ok(args(&c, "--delay 5ms onlyone") < 0, "one namespace is refused");
	ok(args(&c, "--mtu 100 a b") < 0, "an MTU below 576 is refused");

	ok(!args(&c, "--up-police 5mbit a b") && c.d[UP].police_bps == 5000000 &&
	   c.d[UP].police_burst == 102400 && !c.d[DOWN].police_bps,
	   "--up-police 5mbit: up only, tc-police(8)'s example bucket of 100 KiB");
	ok(!args(&c, "--police 5mbit:40ms a b") && c.d[DOWN].police_burst == 25000,
	   "a burst as time: 40 ms at 5 Mbit/s is 25000 bytes");
	ok(!args(&c, "--police 5mbit:30kB a b") && c.d[UP].police_burst == 30000 &&
	   !args(&c, "--police 5mbit:64KiB a b") && c.d[UP].police_burst == 65536 &&
	   !args(&c, "--police 5mbit:3000 a b") && c.d[UP].police_burst == 3000,
	   "a burst in bytes: 30kB, 64KiB, a bare number");
	ok(args(&c, "--police 5mbit:1000 a b") < 0 && args(&c, "--police 5mbit:1ms a b") < 0,
	   "a bucket smaller than the MTU is refused (1000 bytes; 1 ms is 625)");
	ok(!args(&c, "--police 5mbit:1000 --mtu 576 a b"), "... but fits a smaller MTU");
	ok(args(&c, "--police 5mbit:3x a b") < 0 && args(&c, "--police 5mbit:2GB a b") < 0,
	   "an unknown burst unit and a bucket over 1 GB are refused");
	ok(!args(&c, "--police inf a b") && !c.d[UP].police_bps, "--police inf: no policer");
}

static const char *write_file(const char *body)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/tcpca-test-trace.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, body, strlen(body)) != (ssize_t)strlen(body))
		return NULL;
	close(fd);
	return path;
}

static int load(struct trace *t, const char *body)
{
	const char *path = write_file(body);
	int rc;

	memset(t, 0, sizeof(*t));
	rc = path ? trace_load(t, path) : -2;
	if (path)
		unlink(path);
	return rc;
}

static void test_trace(void)
{
	struct trace t;

	/* 4 opportunities in a 10 ms loop, two of them at 5 ms */
	is_u(load(&t, "# a comment\n1\n5\n5\n\n10\n"), 0, "a trace with a comment, a blank and a repeat loads");
	is_u(t.n, 4, "4 opportunities");
	is_u(t.period_ns, 10 * NSEC_PER_MSEC, "the loop is the last timestamp, 10 ms");
	is_u(trace_opportunity_ns(&t, 2), 5 * NSEC_PER_MSEC, "opportunity 2 at 5 ms");
	is_u(trace_opportunity_ns(&t, 5), 15 * NSEC_PER_MSEC, "opportunity 5 is the second loop's 5 ms");
	is_u(trace_first_at_or_after(&t, 2 * NSEC_PER_MSEC), 1, "after 2 ms: the first at 5 ms");
	is_u(trace_first_at_or_after(&t, 5 * NSEC_PER_MSEC), 1, "at 5 ms: the first of the two");
	is_u(trace_first_at_or_after(&t, 10 * NSEC_PER_MSEC + 1), 4, "past one loop: the next loop's first (11 ms)");
	/* 4 x 1500 bytes each 10 ms: 4.8 Mbit/s */
	ok(fabs(trace_mean_bps(&t) - 4.8e6) < 1, "mean rate 4.8 Mbit/s (%.0f)", trace_mean_bps(&t));
	/* --trace-info's window: what a flow starting with the link meets */
	is_u(trace_opportunities_by(&t, 0), 0, "none by 0 ms");
	is_u(trace_opportunities_by(&t, 5 * NSEC_PER_MSEC), 3, "3 by 5 ms (both at 5 ms count)");
	is_u(trace_opportunities_by(&t, 10 * NSEC_PER_MSEC), 4, "4 by the end of the loop");
	is_u(trace_opportunities_by(&t, 15 * NSEC_PER_MSEC), 7, "7 by 15 ms: the second loop's 11, 15, 15");
	free(t.ms);
	ok(load(&t, "5\n3\n") < 0, "a decreasing timestamp is refused");
	ok(load(&t, "5\nfive\n") < 0, "a word is refused");
	ok(load(&t, "# nothing\n") < 0, "an empty trace is refused");
	ok(load(&t, "0\n0\n") < 0, "a trace lasting 0 ms is refused");
}

static void test_hist(void)
{
	static struct hist h;
	u64 i, q;

	for (i = 0; i < 1000; i++)
		hist_add(&h, i);
	is_u(hist_quantile(&h, 0.5), 499, "exact below 1024: p50 of 0..999 is 499.5, 499 in whole ns");
	is_u(hist_quantile(&h, 0.0), 0, "p0 is the least");
	is_u(h.max, 999, "max 999");
	memset(&h, 0, sizeof(h));
	for (i = 1; i <= 100000; i++)
		hist_add(&h, i * 1000);		/* 1 us .. 100 ms */
	q = hist_quantile(&h, 0.99);
	ok(fabs((double)q / 99001000.0 - 1) < 0.001, "p99 of 1..100000 us within 0.1%% (%llu ns)",
	   (unsigned long long)q);
	q = hist_quantile(&h, 0.5);
	ok(fabs((double)q / 50000500.0 - 1) < 0.001, "p50 within 0.1%% (%llu ns)", (unsigned long long)q);
	ok(hist_quantile(&h, 1.0) <= h.max, "p100 never exceeds the max");
	memset(&h, 0, sizeof(h));
	is_u(hist_quantile(&h, 0.5), 0, "an empty histogram's quantile is 0");
}

/*
 * CoDel with target 5 ms, interval 100 ms, a standing queue of 10 ms
 * sojourn from t = 0, seen at every 1 ms tick.  RFC 8289: the first drop
 * one interval after the sojourn went above target, then drop n + 1 at
 * drop n's schedule + interval / sqrt(n + 1).
 */
#define MS(x)	((u64)(x) * NSEC_PER_MSEC)

static void test_codel(void)
{
	static struct dir_conf cf = {
		.codel = true, .codel_target_ns = MS(5), .codel_interval_ns = MS(100),
	};
	static struct dir d;
	double next = 0, want[16];
	int n = 0, i, bad = 0;
	u64 t, last_drop = 0;

	d.cf = &cf;
	d.q_bytes = 10 * TRACE_MTU;
	want[0] = 100;		/* ms */
	want[1] = 200;		/* count 1: interval / sqrt(1) */
	next = 200;
	for (i = 2; i < 16; i++) {
		next += 100 / sqrt(i);
		want[i] = ceil(next);	/* seen at the first tick at or after */
	}
	for (t = 0; t <= MS(1000) && n < 16; t += MS(1)) {
		if (codel_drop(&d, MS(10), t)) {
			if (fabs((double)t / 1e6 - want[n]) > 0.5) {
				diag("drop %d at %.0f ms, RFC 8289 says %.0f", n + 1, t / 1e6, want[n]);
				bad++;
			}
			n++;
			last_drop = t;
		}
	}
	ok(n >= 10 && !bad, "%d drops, each at the control law's time", n);
	is_u(d.cd_count, (u32)n, "count is the number of drops in this dropping state");

	/* below target for 20 ms: out of the dropping state, no drops */
	for (i = 0, t = last_drop + MS(1); i < 20; i++, t += MS(1))
		bad += codel_drop(&d, MS(1), t);
	ok(!bad && !d.cd_dropping, "below target: no drop, the dropping state ends");

	/* above target again: after one interval, a drop, and the new state
	 * starts at count - lastcount (n - 1), since the last was recent */
	for (; !codel_drop(&d, MS(10), t) && t < last_drop + MS(500); t += MS(1))
		;
	ok(d.cd_dropping, "above target again: dropping again");
	is_u(d.cd_count, (u32)n - 1, "re-entry resumes at count - lastcount");
	next = (double)t / 1e6 + 100 / sqrt(n - 1);
	ok(fabs((double)d.cd_drop_next / 1e6 - next) < 0.01, "next drop at interval / sqrt(count) (%.2f ms)",
	   next - (double)t / 1e6);

	/* out again before that next drop, and back after one interval: the
	 * schedule is less than 16 intervals behind, so again count -
	 * lastcount */
	n = d.cd_count;
	t += MS(1);
	codel_drop(&d, MS(1), t);
	d.cd_count = n + 5;	/* as if 5 more drops had followed */
	for (t += MS(1); !codel_drop(&d, MS(10), t) && t < MS(5000); t += MS(1))
		;
	is_u(d.cd_count, 5, "and again: count - lastcount (5)");
}

/*
 * The bucket: full at the start; then over any stretch of back-to-back
 * arrivals it passes the burst plus what the rate brings in, never more,
 * and at most one packet less.
 */
static void test_police(void)
{
	static struct dir_conf cf;
	static struct dir d;
	u64 t, passed = 0, sent = 0;
	int i;

	cf.police_bps = 8000000;	/* 1 byte per us */
	cf.police_burst = 15000;
	d.cf = &cf;
	police_start(&d, 0);
	for (i = 0; i < 10; i++)
		passed += police_pass(&d, 1500, 0) ? 1 : 0;
	is_u(passed, 10, "a burst of the bucket's size (10 x 1500 bytes at once) passes whole");
	ok(!police_pass(&d, 1500, 0) && !police_pass(&d, 40, 0), "then nothing, however small");
	ok(!police_pass(&d, 1500, 1499 * NSEC_PER_USEC) && police_pass(&d, 1500, 1500 * NSEC_PER_USEC),
	   "1500 bytes at 8 Mbit/s: a packet again 1.5 ms later, not before");
	/* 10 s of 3000-byte arrivals every 2 ms (12 Mbit/s offered) */
	passed = 0;
	for (t = 2 * NSEC_PER_MSEC; t <= 10 * NSEC_PER_SEC; t += 2 * NSEC_PER_MSEC) {
		sent += 3000;
		passed += police_pass(&d, 1500, t) ? 1500 : 0;
		passed += police_pass(&d, 1500, t) ? 1500 : 0;
	}
	ok(passed <= 10000000 + 1500 && passed + 1500 >= 10000000 - 1500,
	   "offered 12 Mbit/s for 10 s, it passes 8 Mbit/s: %llu of 10000000 bytes",
	   (unsigned long long)passed);
	/* an idle hour fills the bucket and no more (and does not overflow) */
	t += 3600 * NSEC_PER_SEC;
	for (passed = 0, i = 0; i < 20; i++)
		passed += police_pass(&d, 1500, t) ? 1 : 0;
	is_u(passed, 10, "after an idle hour, the burst again and no more");
	cf.police_bps = 1000000000000ULL;	/* 1 Tbit/s, a 1 GB bucket */
	cf.police_burst = 1000000000;
	police_start(&d, 0);
	ok(police_pass(&d, 1500, 3600 * NSEC_PER_SEC) && d.pol_tokens < 8000000000000000000ULL,
	   "the largest rate and bucket over an hour's gap: no overflow");
	cf.police_bps = 0;
	ok(police_pass(&d, 9000, 0), "no rate: no policer");
}

int main(void)
{
	/* the refusals tested here print linkem's one-line errors */
	if (!getenv("TEST_VERBOSE"))
		freopen("/dev/null", "w", stderr);
	test_options();
	test_trace();
	test_hist();
	test_codel();
	test_police();
	return done_testing();
}
