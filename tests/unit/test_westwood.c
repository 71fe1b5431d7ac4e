// SPDX-License-Identifier: GPL-2.0
/*
 * include/westwood.h against Westwood+'s definitions in floating point: the
 * bandwidth sample in bytes/us (16.16), the two-stage 7/8 low-pass filter and
 * its convergence, BWE x RTTmin in segments, and the dupACK accounting.
 */
#include <math.h>
#include <stdio.h>
#include "tap.h"
#include "westwood.h"

#define ONE	65536.0		/* 1 byte/us in the 16.16 representation */

/* bit/s -> 16.16 bytes/us, as a double */
static double fp_of_bps(double bps)
{
	return bps / 8.0 / 1e6 * ONE;
}

static void test_units(void)
{
	/* 10 Mbit/s for 50 ms: 62500 bytes; 1.25 bytes/us = 81920 */
	is_u(westwood_bw_sample(62500, 50000), 81920, "62500 B in 50 ms = 10 Mbit/s = 1.25 B/us = 81920");
	is_u(westwood_bw_sample(1448, 1000000), 94, "one segment a second: 1448 B/s = 94 (16.16 B/us)");
	is_u(westwood_bw_sample(125000000, 100000), 81920000,
	     "10 Gbit/s over 100 ms: 1250 B/us = 81920000");
	is_u(westwood_bw_sample(0xffffffff, 1), 0xffffffff, "absurd rate saturates, no wrap");
	is_u(westwood_bw_sample(1000, 0), 0, "empty interval: sample 0");

	/* within 1/65536 B/us of the exact rate, over a range of rates */
	{
		static const double mbps[] = { 0.064, 1, 2, 10, 20, 100, 1000, 10000, 40000 };
		unsigned int i;

		for (i = 0; i < sizeof(mbps) / sizeof(mbps[0]); i++) {
			__u32 interval = 73013;	/* us, not round */
			__u32 bytes = (__u32)(mbps[i] * 1e6 / 8 * interval / 1e6);
			double want = (double)bytes / interval * ONE;
			__u32 got = westwood_bw_sample(bytes, interval);

			ok(fabs(got - want) < 1.0, "%g Mbit/s: sample %u, exact %.2f", mbps[i], got, want);
		}
	}
}

static void test_filter(void)
{
	__u32 ns = 0, est = 0, target = (__u32)fp_of_bps(10e6);
	double fns, fest;
	int k, ok_all = 1;

	is_u(westwood_do_filter(800, 0), 700, "7/8 a + 1/8 b: (7*800 + 0)/8 = 700");
	is_u(westwood_do_filter(0, 800), 100, "(0 + 800)/8 = 100");
	is_u(westwood_do_filter(0xffffffff, 0xffffffff), 0xffffffff, "no overflow at the top (u64)");

	/* first sample fills both stages */
	westwood_filter(&ns, &est, target);
	is_u(ns, target, "first sample: bw_ns_est = sample");
	is_u(est, target, "first sample: bw_est = sample");

	/* step from 10 to 2 Mbit/s: integer filter tracks the floating-point one */
	fns = fest = target;
	for (k = 1; k <= 60; k++) {
		__u32 s = (__u32)fp_of_bps(2e6);

		westwood_filter(&ns, &est, s);
		fns = (7 * fns + s) / 8;
		fest = (7 * fest + fns) / 8;
		if (fabs(ns - fns) > 8 || fabs(est - fest) > 16)
			ok_all = 0;
		if (k == 8 || k == 16 || k == 60)
			diag("after %d samples: bw_est %.3f Mbit/s (float %.3f)", k,
			     est / ONE * 8, fest / ONE * 8);
	}
	ok(ok_all, "step 10 -> 2 Mbit/s: both stages within truncation of the float filter for 60 samples");
	/* closed form of the two cascaded poles at 7/8: error E (7/8)^k (1 + k/8) */
	ok(fabs(est / ONE * 8 - (2 + 8 * pow(7.0 / 8, 60) * (1 + 60.0 / 8))) < 0.002,
	   "after 60 samples bw_est = 2 + 8 (7/8)^60 (1 + 60/8) = %.4f Mbit/s (%.4f)",
	   2 + 8 * pow(7.0 / 8, 60) * (1 + 60.0 / 8), est / ONE * 8);
	for (; k <= 100; k++)
		westwood_filter(&ns, &est, (__u32)fp_of_bps(2e6));
	ok(fabs(est / ONE * 8 - 2.0) < 0.002,
	   "after 100 samples (5 s of 50 ms windows) bw_est is 2 Mbit/s to 0.1%% (%.4f)", est / ONE * 8);

	/* two-stage response: after 8 samples the second stage has covered less than the first */
	{
		__u32 a = 0, b = 0;

		westwood_filter(&a, &b, (__u32)fp_of_bps(1e6));	/* prime at 1 */
		for (k = 0; k < 8; k++)
			westwood_filter(&a, &b, (__u32)fp_of_bps(9e6));
		/* float: stage 1 = 9 - 8(7/8)^8, stage 2 lags further */
		ok(a > b && b > (__u32)fp_of_bps(1e6), "second stage lags the first (%.3f > %.3f Mbit/s)",
		   a / ONE * 8, b / ONE * 8);
		ok(fabs(a / ONE * 8 - (9 - 8 * pow(7.0 / 8, 8))) < 0.001,
		   "stage 1 after 8 steps = 9 - 8 (7/8)^8 = %.4f Mbit/s", 9 - 8 * pow(7.0 / 8, 8));
	}

	/* a constant input is a fixed point (no drift from truncation) */
	ns = est = 0;
	for (k = 0; k < 100; k++)
		westwood_filter(&ns, &est, 81920);
	ok(ns == 81920 && est == 81920, "constant input stays exact: %u %u", ns, est);
}

static void test_bw_rttmin(void)
{
	__u32 bw10 = westwood_bw_sample(62500, 50000);	/* 10 Mbit/s */

	/* 10 Mbit/s x 50 ms = 62500 B = 43.16 segments of 1448 B */
	is_u(westwood_bw_rttmin(bw10, 50000, 1448), 43, "10 Mbit/s x 50 ms / 1448 B = 43");
	is_u(westwood_bw_rttmin(bw10, 20000, 1448), 17, "10 Mbit/s x 20 ms / 1448 B = 17");
	is_u(westwood_bw_rttmin(bw10, 50000, 1460), 42, "mss 1460: 42");
	is_u(westwood_bw_rttmin(0, 50000, 1448), 2, "no estimate: 2 segments");
	is_u(westwood_bw_rttmin(bw10, 100, 1448), 2, "tiny pipe: at least 2");
	is_u(westwood_bw_rttmin(bw10, 50000, 0), 2, "mss 0 guarded");
	{
		/* 10 Gbit/s x 200 ms / 1448: 172651 segments, needs u64 */
		__u32 bw = (__u32)fp_of_bps(10e9);
		double want = 10e9 / 8 * 0.2 / 1448;
		__u32 got = westwood_bw_rttmin(bw, 200000, 1448);

		ok(fabs(got - want) < 1.5, "10 Gbit/s x 200 ms = %u segments (%.1f)", got, want);
	}
	is_u(westwood_bw_rttmin(0xffffffff, 0xffffffff, 1), 0x7fffffff, "saturates at 2^31-1");
}

static void test_acked_count(void)
{
	__u32 acc = 0, mss = 1000, sum = 0;
	int i;

	is_u(westwood_acked_count(2000, &acc, mss), 2000, "cumulative ACK of 2 segments, nothing accounted: 2000");
	is_u(acc, 0, "... accounted stays 0");
	/* three dupACKs: one segment each, remembered */
	for (i = 0; i < 3; i++)
		sum += westwood_acked_count(0, &acc, mss);
	is_u(sum, 3000, "3 dupACKs credit 3 segments");
	is_u(acc, 3000, "... and remember them");
	/* then the retransmission fills the hole: cumulative ACK of 5 segments */
	is_u(westwood_acked_count(5000, &acc, mss), 2000, "ACK of 5 after 3 dupACKs counts the 2 not yet credited");
	is_u(acc, 0, "... accounted back to 0");
	/* total = bytes really acked */
	ok(sum + 2000 == 5000, "dupACKs + cumulative ACK = 5000 bytes, each counted once");

	/* partial ACK smaller than what dupACKs credited */
	acc = 0;
	for (i = 0; i < 4; i++)
		westwood_acked_count(0, &acc, mss);
	is_u(westwood_acked_count(2500, &acc, mss), mss, "partial ACK covered by dupACKs: one segment");
	is_u(acc, 1500, "... the rest stays accounted");
	is_u(westwood_acked_count(1000, &acc, mss), 1000, "a one-segment ACK is taken as it is");
	is_u(acc, 1500, "... and does not pay back");
}

/* The largest of a tunable's range, from the table the loader checks against. */
#define PARAM_MAX(name, def, lo, hi, unit, doc) .name = (hi),
#define PARAM_MIN(name, def, lo, hi, unit, doc) .name = (lo),

static void test_window(void)
{
	struct westwood_params def = { WESTWOOD_PARAMS(TCPCA_PARAM_INIT) };
	struct westwood_params hi = { WESTWOOD_PARAMS(PARAM_MAX) };
	struct westwood_params lo = { WESTWOOD_PARAMS(PARAM_MIN) };

	/* net/ipv4/tcp_westwood.c: TCP_WESTWOOD_RTT_MIN = HZ/20, INIT_RTT = 20*HZ */
	is_u(westwood_window_us(0, def.win_min_ms), 50000, "default window floor: the module's HZ/20 = 50 ms");
	is_u(WESTWOOD_INIT_RTT_US, 20000000, "RTT before the first sample: the module's 20*HZ = 20 s");
	is_u(westwood_window_us(80000, def.win_min_ms), 80000, "RTT 80 ms above the floor: window = RTT");
	is_u(westwood_window_us(20000, def.win_min_ms), 50000, "RTT 20 ms below the floor: window = 50 ms");
	is_u(westwood_window_us(0, hi.win_min_ms), (unsigned long long)hi.win_min_ms * 1000,
	     "largest win_min_ms the loader accepts (%u) in us does not wrap", hi.win_min_ms);
	ok(westwood_window_us(0, lo.win_min_ms) > 0, "smallest win_min_ms (%u) gives a non-empty window",
	   lo.win_min_ms);
}

int main(void)
{
	test_units();
	test_filter();
	test_bw_rttmin();
	test_acked_count();
	test_window();
	return done_testing();
}
