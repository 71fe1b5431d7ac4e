// SPDX-License-Identifier: GPL-2.0
/*
 * include/vegas.h against Brakmo & Peterson's definitions in floating point:
 * Diff = (cwnd/BaseRTT - cwnd/RTT) * BaseRTT, scaled by RTT/BaseRTT as the
 * kernel module computes it, target = cwnd * BaseRTT / RTT, and the
 * once-per-RTT rule (alpha, beta, gamma).
 */
#include <math.h>
#include <stdio.h>
#include "tap.h"
#include "vegas.h"

static const struct vegas_params defaults = {
	.alpha = 2, .beta = 4, .gamma = 1, .ss_every_other = 0,
};

/* The paper: expected and actual rates (segments/us), their gap in packets. */
static double paper_diff(double cwnd, double base, double rtt)
{
	double expected = cwnd / base, actual = cwnd / rtt;

	return (expected - actual) * base;
}

static void test_diff_rows(void)
{
	/* cwnd, base_rtt_us, rtt_us */
	static const __u32 rows[][3] = {
		{ 10, 20000, 20000 },	/* no queue */
		{ 10, 20000, 19000 },	/* rtt below base (new minimum pending): 0 */
		{ 20, 20000, 22000 },	/* 10% queueing: 1.8 packets */
		{ 20, 20000, 24000 },	/* 3.33 */
		{ 17, 20001, 25001 },	/* not round */
		{ 100, 20000, 21000 },	/* 4.76 */
		{ 100, 20000, 40000 },	/* buffer as big as the BDP: 50 */
		{ 1000, 1000, 1001 },	/* 0.999: truncates to 0 */
		{ 1000, 1000, 1002 },	/* 1.996 */
		{ 2, 50, 5000000 },	/* huge RTT spike */
		{ 65535, 100, 0x7ffffffe },
		{ 0x7fffffff, 10000, 10001 }, /* u64 needed: cwnd * delta > 2^32 */
		{ 0xffffffff, 1, 0x7fffffff },
	};
	unsigned int i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		__u32 cwnd = rows[i][0], base = rows[i][1], rtt = rows[i][2];
		double module = rtt > base ? paper_diff(cwnd, base, rtt) * rtt / base : 0;
		double want = fmin(floor(module + 1e-9), 4294967295.0);
		__u32 got = vegas_diff(cwnd, base, rtt);

		/* exact integer division vs floating point: equal, or off by the last ulp */
		ok(fabs(got - want) <= (want > 1e6 ? want * 1e-9 + 1 : 0),
		   "diff(cwnd=%u, base=%u us, rtt=%u us) = %u: paper's Diff %.3f x RTT/BaseRTT = %.3f",
		   cwnd, base, rtt, got, paper_diff(cwnd, base, rtt), module);
	}
	is_u(vegas_diff(10, 20000, 0), 0, "diff with no RTT sample (rtt 0) is 0");
}

static void test_target_rows(void)
{
	static const __u32 rows[][3] = {
		{ 10, 20000, 20000 },
		{ 20, 20000, 22000 },
		{ 64, 20000, 40000 },
		{ 33, 12345, 54321 },
		{ 0x7fffffff, 10000, 10001 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		__u32 cwnd = rows[i][0], base = rows[i][1], rtt = rows[i][2];
		double want = floor((double)cwnd * base / rtt + 1e-9);
		__u32 got = vegas_target_cwnd(cwnd, base, rtt);

		ok(fabs(got - want) <= (want > 1e6 ? 1 : 0),
		   "target(cwnd=%u, base=%u, rtt=%u) = %u, cwnd*base/rtt = %.3f",
		   cwnd, base, rtt, got, (double)cwnd * base / rtt);
		/* Diff and target agree: target = cwnd - ceil(paper diff) */
		is_u(got, cwnd - (__u32)ceil(paper_diff(cwnd, base, rtt) - 1e-9),
		     "target = cwnd - ceil(Diff) for row %u", i);
	}
	is_u(vegas_target_cwnd(10, 30000, 20000), 10, "rtt below base: target is cwnd");
	is_u(vegas_target_cwnd(10, 20000, 0), 10, "no RTT sample: target is cwnd");
}

static void test_decide(void)
{
	struct vegas_params p = defaults;
	__u32 d;

	/* congestion avoidance: < alpha up, > beta down, between: hold */
	for (d = 0; d <= 8; d++) {
		enum vegas_action want = d < 2 ? VEGAS_INCREASE : d > 4 ? VEGAS_DECREASE : VEGAS_HOLD;

		is_u(vegas_decide(d, 0, &p), want, "CA with diff=%u: %s", d,
		     want == VEGAS_INCREASE ? "increase" : want == VEGAS_DECREASE ? "decrease" : "hold");
	}
	/* slow start: leave once diff > gamma */
	is_u(vegas_decide(0, 1, &p), VEGAS_SLOW_START, "SS, diff 0: keep slow start");
	is_u(vegas_decide(1, 1, &p), VEGAS_SLOW_START, "SS, diff == gamma: keep slow start");
	is_u(vegas_decide(2, 1, &p), VEGAS_SS_EXIT, "SS, diff > gamma: leave slow start");

	p.alpha = p.beta = 3;
	is_u(vegas_decide(3, 0, &p), VEGAS_HOLD, "alpha == beta == diff: hold");
	is_u(vegas_decide(2, 0, &p), VEGAS_INCREASE, "alpha == beta > diff: increase");
	is_u(vegas_decide(4, 0, &p), VEGAS_DECREASE, "alpha == beta < diff: decrease");
	p.gamma = 0;
	is_u(vegas_decide(1, 1, &p), VEGAS_SS_EXIT, "gamma 0: any queue ends slow start");
}

static void test_next_cwnd(void)
{
	/* slow start exit: the window of the actual rate, + 1 for truncation */
	is_u(vegas_next_cwnd(40, 20000, 30000, VEGAS_SS_EXIT, ~0U), 27,
	     "SS exit at cwnd 40, rtt 1.5 base: 40*2/3 = 26 (+1) = 27");
	is_u(vegas_next_cwnd(10, 20000, 20100, VEGAS_SS_EXIT, ~0U), 10,
	     "SS exit never raises cwnd (target+1 = 10 >= cwnd)");
	is_u(vegas_next_cwnd(2, 20000, 2000000, VEGAS_SS_EXIT, ~0U), 2,
	     "SS exit never below 2 segments");
	is_u(vegas_next_cwnd(20, 1, 2, VEGAS_INCREASE, ~0U), 21, "increase: + 1");
	is_u(vegas_next_cwnd(20, 1, 2, VEGAS_DECREASE, ~0U), 19, "decrease: - 1");
	is_u(vegas_next_cwnd(2, 1, 2, VEGAS_DECREASE, ~0U), 2, "decrease stops at 2");
	is_u(vegas_next_cwnd(20, 1, 2, VEGAS_HOLD, ~0U), 20, "hold");
	is_u(vegas_next_cwnd(20, 1, 2, VEGAS_INCREASE, 20), 20, "clamp honoured");
}

/*
 * A fluid model of one Vegas flow on a bottleneck of C packets per base RTT:
 * the queue is cwnd - C once cwnd > C and the RTT grows with it
 * (rounded up to a microsecond), so Diff equals the queue exactly.  From any
 * start, once-per-RTT steps must bring the queue into [alpha, beta].
 */
static void test_equilibrium(void)
{
	const __u32 base = 20000, bdp = 17;	/* 10 Mbit/s x 20 ms ~ 17 segments */
	__u32 start, cwnd, rtt, diff, n;

	for (start = 2; start <= 120; start += 17) {
		cwnd = start;
		for (n = 0; n < 400; n++) {
			rtt = cwnd > bdp ? (base * cwnd + bdp - 1) / bdp : base;
			diff = vegas_diff(cwnd, base, rtt);
			cwnd = vegas_next_cwnd(cwnd, base, rtt, vegas_decide(diff, 0, &defaults), ~0U);
		}
		rtt = cwnd > bdp ? (base * cwnd + bdp - 1) / bdp : base;
		diff = vegas_diff(cwnd, base, rtt);
		ok(diff >= defaults.alpha && diff <= defaults.beta && cwnd > bdp,
		   "from cwnd %u the fluid model settles at cwnd %u, queue %u packets, diff %u (alpha..beta)",
		   start, cwnd, cwnd - bdp, diff);
	}
}

static void test_check_params(void)
{
	struct vegas_params p = defaults;

	ok(vegas_check_params((const __u32 *)&p) == 0, "defaults are consistent");
	p.alpha = 5;
	ok(vegas_check_params((const __u32 *)&p) != 0, "alpha 5 > beta 4 is refused");
	p.beta = 5;
	ok(vegas_check_params((const __u32 *)&p) == 0, "alpha == beta is allowed");
	is_u(sizeof(struct vegas_params), 4 * 4, "four __u32 tunables, in table order");
}

int main(void)
{
	test_diff_rows();
	test_target_rows();
	test_decide();
	test_next_cwnd();
	test_equilibrium();
	test_check_params();
	return done_testing();
}
