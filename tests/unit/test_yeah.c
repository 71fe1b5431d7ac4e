// SPDX-License-Identifier: GPL-2.0
/*
 * include/yeah.h against Baiocchi, Castellani & Vacirca (PFLDnet 2007) in
 * floating point: the queue estimate Q = cwnd (RTT - BaseRTT) / RTT, the mode
 * (fast while Q <= alpha and the delay <= BaseRTT / phy), precautionary
 * decongestion (give up Q, at most half, not below the Reno estimate), the
 * loss rule (give up the queue, clamped to [cwnd/8, cwnd/2]; half after rho
 * slow RTTs), and a closed loop over a fixed bottleneck: the queue YeAH keeps
 * stays near alpha and the link stays full.
 */
#include <math.h>
#include <stdio.h>
#include "tap.h"
#include "yeah.h"

static const struct yeah_params defaults = {
	.alpha = 80, .gamma = 1, .delta = 3, .epsilon = 1, .phy = 8, .rho = 16, .zeta = 50,
};

static double paper_q(double cwnd, double base, double rtt)
{
	return cwnd * (rtt - base) / rtt;
}

static void test_queue_rows(void)
{
	/* cwnd, base_rtt_us, rtt_us */
	static const __u32 rows[][3] = {
		{ 100, 100000, 100000 },	/* no queue */
		{ 1000, 100000, 108000 },	/* 74.07 */
		{ 1080, 100000, 108000 },	/* exactly 80 */
		{ 1200, 100000, 120000 },	/* 200 */
		{ 10, 20001, 40001 },		/* 5 */
		{ 3000000, 100000, 100001 },	/* 29.99: the product needs 64 bits */
		{ 0xffffffff, 1000, 2000 },	/* half of 2^32 - 1 */
	};
	unsigned int i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		double q = paper_q(rows[i][0], rows[i][1], rows[i][2]);

		is_u(yeah_queue(rows[i][0], rows[i][1], rows[i][2]), (__u32)floor(q + 1e-9),
		     "Q(cwnd=%u, base=%u us, rtt=%u us) = floor(%.3f)", rows[i][0], rows[i][1],
		     rows[i][2], q);
	}
	is_u(yeah_queue(100, 50000, 40000), 0, "an RTT below BaseRTT (not in use) reads as no queue");
}

/* One step from a fresh state (reno_count 2, fast) at this window and RTT. */
static struct yeah_window step_from(__u32 cwnd, __u32 base, __u32 rtt, __u32 *cut)
{
	struct yeah_window w = { .cwnd = cwnd, .ssthresh = 0x7fffffff, .reno_count = 2 };

	*cut = yeah_rtt_step(&w, base, rtt, &defaults);
	return w;
}

static void test_mode(void)
{
	/* cwnd, rtt (base 100 ms) */
	static const __u32 rows[][2] = {
		{ 1000, 100000 }, { 1000, 108000 }, { 1000, 109000 }, { 2000, 104500 },
		{ 100, 112000 }, { 100, 113000 }, { 50, 180000 }, { 5000, 101000 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		double q = paper_q(rows[i][0], 100000, rows[i][1]);
		double delay = rows[i][1] - 100000.0;
		int slow = q > 80 || delay > 100000.0 / 8;
		__u32 cut;
		struct yeah_window w = step_from(rows[i][0], 100000, rows[i][1], &cut);

		ok((w.doing_reno_now != 0) == slow,
		   "cwnd %u, RTT %u us over 100 ms: Q %.1f, delay %.1f ms -> %s", rows[i][0],
		   rows[i][1], q, delay / 1000, slow ? "slow" : "fast");
		ok((cut != 0) == (q > 80), "... decongests only above alpha (cut %u)", cut);
	}
}

static void test_decongestion(void)
{
	struct yeah_window w;
	__u32 cut;
	double q;

	/* 1000 segments at 120 ms over 100 ms: Q = 166, given up at once */
	w = step_from(1000, 100000, 120000, &cut);
	q = floor(paper_q(1000, 100000, 120000));
	is_u(w.cwnd, 1000 - (__u32)q, "decongestion: cwnd 1000 - Q %.0f", q);
	is_u(w.ssthresh, w.cwnd, "... and ssthresh = the new cwnd (no slow start back into the queue)");
	is_u(w.reno_count, w.cwnd / 2, "... first slow RTT: the Reno estimate is half the window");
	is_u(w.last_q, (__u32)q, "... Q kept for the next loss");

	/* a queue of more than half the window: at most half is given up */
	w = step_from(200, 100000, 250000, &cut);
	is_u(w.cwnd, 100, "Q 120 of cwnd 200: cut to half, not by Q");

	/* not below the competing Reno flow's window */
	w = (struct yeah_window){ .cwnd = 1000, .reno_count = 900, .doing_reno_now = 3 };
	cut = yeah_rtt_step(&w, 100000, 120000, &defaults);
	is_u(w.cwnd, 900, "decongestion stops at reno_count 900");
	is_u(w.reno_count, 901, "... and a further slow RTT grows the estimate by one");
	is_u(w.doing_reno_now, 4, "... slow RTTs counted");

	/* at or below reno_count: slow, but no cut */
	w = (struct yeah_window){ .cwnd = 800, .ssthresh = 7, .reno_count = 900 };
	cut = yeah_rtt_step(&w, 100000, 200000, &defaults);
	ok(cut == 0 && w.cwnd == 800 && w.ssthresh == 7, "cwnd 800 <= reno_count 900: no cut");

	/* gamma 2 gives up half the queue */
	{
		struct yeah_params p = defaults;

		p.gamma = 2;
		w = (struct yeah_window){ .cwnd = 1000, .reno_count = 2 };
		yeah_rtt_step(&w, 100000, 120000, &p);
		is_u(w.cwnd, 1000 - 166 / 2, "gamma 2: half the queue given up");
	}
}

static void test_reno_count(void)
{
	struct yeah_window w = { .cwnd = 1000, .reno_count = 777, .doing_reno_now = 5 };
	int i;

	for (i = 0; i < 50; i++)
		yeah_rtt_step(&w, 100000, 100000, &defaults);
	ok(w.reno_count == 777 && w.doing_reno_now == 0 && w.fast_count == 50,
	   "50 fast RTTs keep the Reno estimate (%u), fast mode", w.reno_count);
	yeah_rtt_step(&w, 100000, 100000, &defaults);
	ok(w.reno_count == 2 && w.fast_count == 0, "the 51st (> zeta) forgets it: reno_count 2");
	is_u(yeah_loss_reno_count(777), 388, "a loss halves the estimate");
	is_u(yeah_loss_reno_count(5), 2, "... never below 2");
}

static void test_ssthresh(void)
{
	/* cwnd, last_q, slow RTTs */
	static const __u32 rows[][3] = {
		{ 1000, 0, 0 },		/* empty queue: lose 1/8 */
		{ 1000, 50, 0 },	/* below cwnd/8: still 1/8 */
		{ 1000, 300, 0 },	/* the queue */
		{ 1000, 700, 0 },	/* more than half: half */
		{ 1000, 0, 15 },	/* 15 slow RTTs: still fast's rule */
		{ 1000, 0, 16 },	/* rho: competing with Reno, half */
		{ 3, 0, 0 },
		{ 2, 5, 0 },
		{ 1, 0, 0 },
		{ 0x80000000U, 0, 0 },	/* beyond int: the module's clamp keeps it away */
	};
	unsigned int i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		double cwnd = rows[i][0], q = rows[i][1], r;
		__u32 got = yeah_calc_ssthresh(rows[i][0], rows[i][1], rows[i][2], &defaults);

		if (rows[i][2] >= 16) {
			r = fmax(floor(cwnd / 2), 2);
		} else {
			r = fmin(q, fmax(floor(cwnd / 2), 2));
			r = fmax(r, floor(cwnd / 8));
		}
		is_u(got, (__u32)fmax(cwnd - r, 2), "ssthresh(cwnd %u, Q %u, %u slow RTTs) = %.0f - %.0f",
		     rows[i][0], rows[i][1], rows[i][2], cwnd, r);
	}
}

/*
 * A closed loop: one YeAH flow alone on a bottleneck of B = 1000 segments
 * per RTT (BaseRTT 100 ms) with a buffer larger than any window here.  Per
 * RTT: grow (fast: cwnd / 100; slow: one segment), then the step with the
 * RTT that window causes.  The paper's claim: the queue stays near alpha
 * (decongestion gives it back within an RTT) while the link stays full.
 */
static void test_closed_loop(void)
{
	const double B = 1000, base = 100000;
	struct yeah_window w = { .cwnd = 1000, .ssthresh = 0x7fffffff, .reno_count = 2 };
	__u32 max_q = 0, min_cwnd = 0xffffffff, cuts = 0, fast = 0;
	int i;

	for (i = 0; i < 2000; i++) {
		__u32 rtt;

		w.cwnd += w.doing_reno_now ? 1 : w.cwnd / 100;
		rtt = (__u32)(base * fmax(1.0, w.cwnd / B));
		cuts += yeah_rtt_step(&w, (__u32)base, rtt, &defaults) != 0;
		fast += !w.doing_reno_now;
		if (i >= 100) {
			if (w.last_q > max_q)
				max_q = w.last_q;
			if (w.cwnd < min_cwnd)
				min_cwnd = w.cwnd;
		}
	}
	diag("closed loop: %u decongestions in 2000 RTTs, %u fast, largest queue %u, smallest cwnd %u",
	     cuts, fast, max_q, min_cwnd);
	ok(max_q <= 80 + 11, "the queue stays within alpha + one RTT's growth (largest %u)", max_q);
	ok(min_cwnd >= B, "decongestion never empties the link (smallest cwnd %u >= %.0f)", min_cwnd, B);
	ok(cuts >= 100, "it decongests again and again (%u times)", cuts);
	ok(fast >= 1000, "and is fast (Scalable) most of the time (%u of 2000 RTTs)", fast);
}

int main(void)
{
	test_queue_rows();
	test_mode();
	test_decongestion();
	test_reno_count();
	test_ssthresh();
	test_closed_loop();
	return done_testing();
}
