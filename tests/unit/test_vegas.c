// SPDX-License-Identifier: GPL-2.0
/*
 * include/vegas.h against Brakmo & Peterson's definitions in floating point:
 * Diff = (cwnd/BaseRTT - cwnd/RTT) * BaseRTT, scaled by RTT/BaseRTT as the
 * kernel module's formula has it, target = cwnd * BaseRTT / RTT, the
 * once-per-RTT rule (alpha, beta, gamma), and the module's order of the
 * cwnd and ssthresh updates in that step.
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

/* One once-per-RTT step from (cwnd, ssthresh), Open state, no clamp. */
static struct vegas_window step(__u32 cwnd, __u32 ssthresh, enum vegas_action a, __u32 base,
				__u32 rtt)
{
	struct vegas_window w = { .cwnd = cwnd, .ssthresh = ssthresh };

	vegas_step(&w, a, base, rtt, ~0U, 0);
	return w;
}

static void test_step_cwnd(void)
{
	/* slow start exit: the window of the actual rate, + 1 for truncation */
	is_u(step(40, ~0U >> 1, VEGAS_SS_EXIT, 20000, 30000).cwnd, 27,
	     "SS exit at cwnd 40, rtt 1.5 base: 40*2/3 = 26 (+1) = 27");
	is_u(step(10, ~0U >> 1, VEGAS_SS_EXIT, 20000, 20100).cwnd, 10,
	     "SS exit never raises cwnd (target+1 = 10 >= cwnd)");
	is_u(step(2, ~0U >> 1, VEGAS_SS_EXIT, 20000, 2000000).cwnd, 2,
	     "SS exit never below 2 segments");
	is_u(step(20, 10, VEGAS_INCREASE, 1, 2).cwnd, 21, "increase: + 1");
	is_u(step(20, 10, VEGAS_DECREASE, 1, 2).cwnd, 19, "decrease: - 1");
	is_u(step(2, 10, VEGAS_DECREASE, 1, 2).cwnd, 2, "decrease stops at 2");
	is_u(step(20, 10, VEGAS_HOLD, 1, 2).cwnd, 20, "hold");
	{
		struct vegas_window w = { .cwnd = 20, .ssthresh = 10 };

		vegas_step(&w, VEGAS_INCREASE, 1, 2, 20, 0);
		is_u(w.cwnd, 20, "the socket's clamp is honoured");
	}
}

/*
 * tcp_vegas_cong_avoid() sets ssthresh from the cwnd it has just changed,
 * before the 2-segment floor, and then takes tcp_current_ssthresh() (Open:
 * max(ssthresh, 3/4 cwnd)).  Each case below comes out differently if the
 * order is changed (ssthresh from the old cwnd, or from the floored one, or
 * without the final tcp_current_ssthresh()).
 */
static void test_step_ssthresh(void)
{
	struct vegas_window w;

	w = step(100, 0x7fffffff, VEGAS_SS_EXIT, 20000, 33000);
	/* target = 100 * 20000 / 33000 = 60, + 1 */
	is_u(w.cwnd, 61, "SS exit from 100 at rtt 1.65 base: cwnd 61");
	is_u(w.ssthresh, 61, "... ssthresh = the new cwnd 61 (not the old 100), 3/4 of it is below");

	w = step(40, 30, VEGAS_DECREASE, 1, 2);
	is_u(w.ssthresh, 30, "CA decrease 40 -> 39, ssthresh 30: min(30, 39) = 30, then max(30, 3/4 of 39 = 28) = 30");

	w = step(40, 45, VEGAS_DECREASE, 1, 2);
	is_u(w.ssthresh, 39, "decrease 40 -> 39 below ssthresh 45: ssthresh follows the new cwnd (39)");

	w = step(2, 20, VEGAS_DECREASE, 1, 2);
	is_u(w.cwnd, 2, "decrease from 2: cwnd floored back to 2");
	is_u(w.ssthresh, 1, "... but ssthresh took the unfloored 1 first; max(1, 3/4 of 2 = 1) = 1");

	w = step(40, 10, VEGAS_INCREASE, 1, 2);
	is_u(w.ssthresh, 30, "increase 40 -> 41 leaves ssthresh 10, then max(10, 3/4 of 41 = 30) = 30");

	w = step(40, 10, VEGAS_HOLD, 1, 2);
	is_u(w.ssthresh, 30, "hold: ssthresh = tcp_current_ssthresh() = 3/4 of 40");

	w = (struct vegas_window){ .cwnd = 40, .ssthresh = 10 };
	vegas_step(&w, VEGAS_HOLD, 1, 2, ~0U, 1);
	is_u(w.ssthresh, 10, "in CWR/Recovery tcp_current_ssthresh() is ssthresh itself");
}

/*
 * The one place the arithmetic departs from the module on purpose: the
 * module's u32 product cwnd * (rtt - base) wraps at 2^32.
 */
static __u32 module_diff(__u32 cwnd, __u32 base, __u32 rtt)
{
	return cwnd * (rtt - base) / base;	/* u32, as tcp_vegas.c */
}

static void test_diff_departure(void)
{
	ok(vegas_diff(100, 20000, 30000) == module_diff(100, 20000, 30000) &&
	   vegas_diff(4000, 20000, 1000000) == module_diff(4000, 20000, 1000000),
	   "below 2^32 the module's Diff and ours are equal (%u, %u)",
	   vegas_diff(100, 20000, 30000), vegas_diff(4000, 20000, 1000000));
	/* 1000 packets, 4.3 s queueing: 4.3e9 > 2^32 */
	is_u(vegas_diff(1000, 100000, 4400000), 43000, "1000 packets at 44x BaseRTT: Diff 43000");
	ok(module_diff(1000, 100000, 4400000) < 100,
	   "... where the module's product wraps and reads %u queued packets",
	   module_diff(1000, 100000, 4400000));
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
			cwnd = step(cwnd, 2, vegas_decide(diff, 0, &defaults), base, rtt).cwnd;
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
	test_step_cwnd();
	test_step_ssthresh();
	test_diff_departure();
	test_equilibrium();
	test_check_params();
	return done_testing();
}
