// SPDX-License-Identifier: GPL-2.0
/*
 * BIC arithmetic (include/bic.h) against the increase rule of Xu, Harfoush
 * and Rhee (INFOCOM 2004), per RTT:
 *
 *	cwnd <= low_window:	+1 (Reno)
 *	cwnd <  Wmax:		+(Wmax - cwnd)/B, at most Smax, at least Smin
 *				(binary search: each RTT closes 1/B of the gap)
 *	cwnd >= Wmax:		max probing: the step grows with the distance
 *				beyond Wmax (a slow start), at most Smax
 *
 * with Smax = max_increment, Smin = B/smooth_part and B = 4 (the paper's
 * pseudo-code takes B = 2; the module and the authors' Linux code take 4,
 * see include/bic.h).  bic_calc_cnt() returns cnt, the segments acked per
 * one-segment increase, so the increase per RTT is cwnd/cnt: since cnt is
 * floor(cwnd / x) for a wanted increase x, cwnd/cnt lies in
 * [x, x cwnd / (cwnd - x)] -- that bound is the tolerance used below.  The
 * module also measures the distance in whole segments: a gap of under
 * 2B segments counts as "reached" and gets Smin.
 */
#include <math.h>
#include "tap.h"
#include "bic.h"

static const struct bic_params defaults = { BIC_PARAMS(TCPCA_PARAM_INIT) };

#define ONE_PER_ACK	(1U << BIC_ACK_RATIO_SHIFT)	/* delayed_ack: one segment per ACK */

/* Increase per RTT, in segments, that cnt gives at cwnd. */
static double per_rtt(__u32 cwnd, __u32 cnt)
{
	return (double)cwnd / cnt;
}

/* The paper's rule, in floating point, on the module's integer distance. */
static double rule_inc(__u32 cwnd, __u32 wmax, const struct bic_params *p)
{
	double smin = (double)BIC_B / p->smooth_part, smax = p->max_increment, inc;

	if (cwnd <= p->low_window)
		return 1;
	if (cwnd < wmax) {
		__u32 dist = (wmax - cwnd) / BIC_B;	/* whole segments */

		inc = dist <= 1 ? smin : dist;
	} else {
		double beyond = (double)cwnd - wmax;

		inc = beyond < BIC_B ? smin : beyond / (BIC_B - 1);
	}
	if (inc > smax)
		inc = smax;
	/* before the first loss: at least 5% per RTT */
	if (wmax == 0 && inc < cwnd / (double)BIC_NO_LOSS_MAX_CNT)
		inc = cwnd / (double)BIC_NO_LOSS_MAX_CNT;
	return inc;
}

/* cwnd/floor(cwnd/x) lies in [x, x cwnd/(cwnd - x)] (x < cwnd). */
static int within_floor_bound(double got, double x, __u32 cwnd)
{
	if (x >= cwnd)
		return fabs(got - cwnd) < 1e-9;	/* cnt = 1: one segment per ACK */
	return got >= x - 1e-9 && got <= x * cwnd / (cwnd - x) + 1e-9;
}

static void test_params(void)
{
	struct bic_params p = defaults;

	ok(bic_check_params((const __u32 *)&p) == NULL, "defaults are consistent");
	is_u(p.fast_convergence, 1, "fast_convergence = 1");
	is_u(p.max_increment, 16, "max_increment = 16 (the 2005 module had 32)");
	is_u(p.low_window, 14, "low_window = 14");
	is_u(p.beta, 819, "beta = 819/1024 = 0.8");
	is_u(p.initial_ssthresh, 0, "initial_ssthresh = 0 (the kernel's)");
	is_u(p.smooth_part, 20, "smooth_part = 20");
	p.beta = 1024;
	ok(bic_check_params((const __u32 *)&p) != NULL, "beta = 1024 refused");
	p = defaults;
	p.max_increment = 0;
	ok(bic_check_params((const __u32 *)&p) != NULL, "max_increment = 0 refused");
	p = defaults;
	p.smooth_part = 0;
	ok(bic_check_params((const __u32 *)&p) != NULL, "smooth_part = 0 refused");
}

static void test_reno_region(void)
{
	__u32 cwnd, bad = 0;

	for (cwnd = 1; cwnd <= defaults.low_window; cwnd++)
		bad += bic_calc_cnt(cwnd, 1000, ONE_PER_ACK, &defaults) != cwnd;
	ok(!bad, "cwnd <= low_window: cnt = cwnd, one segment per RTT (Reno)");
	is_u(bic_calc_cnt(0, 0, ONE_PER_ACK, &defaults), 1, "cwnd 0 cannot divide by zero");
}

/* Every (Wmax, cwnd) below Wmax on a grid: increase = the rule within the floor bound. */
static void test_binary_search(void)
{
	static const __u32 wmaxes[] = { 20, 50, 100, 300, 1000, 5000, 20000, 100000 };
	unsigned int i, n = 0, bad = 0;

	for (i = 0; i < sizeof(wmaxes) / sizeof(wmaxes[0]); i++) {
		__u32 w = wmaxes[i], cwnd;

		for (cwnd = defaults.low_window + 1; cwnd < w; cwnd += 1 + cwnd / 200) {
			double got = per_rtt(cwnd, bic_calc_cnt(cwnd, w, ONE_PER_ACK, &defaults));
			double want = rule_inc(cwnd, w, &defaults);

			n++;
			if (!within_floor_bound(got, want, cwnd)) {
				bad++;
				diag("Wmax %u cwnd %u: +%.3f/RTT, rule %.3f", w, cwnd, got, want);
			}
		}
	}
	ok(!bad, "below Wmax: +(Wmax - cwnd)/4 per RTT in [Smin, Smax] (%u points, %u off)", n, bad);

	/* the three cases at one Wmax */
	ok(within_floor_bound(per_rtt(8000, bic_calc_cnt(8000, 10000, ONE_PER_ACK, &defaults)), 16, 8000),
	   "far below Wmax: additive, Smax = 16 per RTT");
	ok(within_floor_bound(per_rtt(9960, bic_calc_cnt(9960, 10000, ONE_PER_ACK, &defaults)), 10, 9960),
	   "40 below Wmax: +10 per RTT (a quarter of the gap)");
	ok(within_floor_bound(per_rtt(9995, bic_calc_cnt(9995, 10000, ONE_PER_ACK, &defaults)), 0.2, 9995),
	   "at Wmax: Smin = 4/smooth_part = 0.2 per RTT");
}

static void test_max_probing(void)
{
	static const __u32 wmaxes[] = { 20, 100, 1000, 20000 };
	unsigned int i, n = 0, bad = 0;

	for (i = 0; i < sizeof(wmaxes) / sizeof(wmaxes[0]); i++) {
		__u32 w = wmaxes[i], cwnd;

		for (cwnd = w; cwnd < w + 200; cwnd++) {
			double got = per_rtt(cwnd, bic_calc_cnt(cwnd, w, ONE_PER_ACK, &defaults));
			double want = rule_inc(cwnd, w, &defaults);

			n++;
			if (!within_floor_bound(got, want, cwnd)) {
				bad++;
				diag("Wmax %u cwnd %u: +%.3f/RTT, rule %.3f", w, cwnd, got, want);
			}
		}
	}
	ok(!bad, "above Wmax: +(cwnd - Wmax)/3 per RTT in [Smin, Smax] (%u points, %u off)", n, bad);
}

/* Past Wmax the step grows geometrically, by B/(B-1) per RTT: a slow start. */
static void test_probing_is_slow_start(void)
{
	double cwnd = 10000 + BIC_B, prev_beyond = BIC_B;
	int rtt, grew = 1, reached_smax = 0;

	for (rtt = 0; rtt < 40; rtt++) {
		__u32 c = (__u32)cwnd;
		double inc = per_rtt(c, bic_calc_cnt(c, 10000, ONE_PER_ACK, &defaults));
		double beyond;

		cwnd += inc;
		beyond = cwnd - 10000;
		if (inc < defaults.max_increment - 0.5) {
			double ratio = beyond / prev_beyond;

			/* 4/3 per RTT, less the floor of cnt and of cwnd */
			if (ratio < 1.2 || ratio > 1.4)
				grew = 0;
		} else {
			reached_smax = 1;
		}
		prev_beyond = beyond;
	}
	ok(grew, "max probing: the distance beyond Wmax grows ~4/3 per RTT (slow start)");
	ok(reached_smax, "max probing turns linear at Smax");
}

static void test_no_loss_yet(void)
{
	__u32 cwnd, bad = 0;

	for (cwnd = defaults.low_window + 1; cwnd < 1000000; cwnd += 1 + cwnd / 100) {
		__u32 cnt = bic_calc_cnt(cwnd, 0, ONE_PER_ACK, &defaults);

		bad += cnt > BIC_NO_LOSS_MAX_CNT ||
		       !within_floor_bound(per_rtt(cwnd, cnt), rule_inc(cwnd, 0, &defaults), cwnd);
	}
	ok(!bad, "before any loss: cnt <= 20, at least 5%% growth per RTT");
	is_u(bic_calc_cnt(100000, 0, ONE_PER_ACK, &defaults), 20, "cwnd 100000, no loss: cnt = 20");
	is_u(bic_calc_cnt(100000, 200000, ONE_PER_ACK, &defaults), 100000 / 16,
	     "cwnd 100000 far below Wmax: cnt = cwnd/16, no 5%% floor");
}

static void test_delayed_ack(void)
{
	__u32 cwnd, w, bad = 0, da, i;

	for (w = 100; w <= 100000; w *= 10)
		for (cwnd = 15; cwnd < 2 * w; cwnd += 1 + cwnd / 50) {
			__u32 one = bic_calc_cnt(cwnd, w, ONE_PER_ACK, &defaults);
			__u32 two = bic_calc_cnt(cwnd, w, 2 * ONE_PER_ACK, &defaults);

			bad += two != (one / 2 ? one / 2 : 1);
		}
	ok(!bad, "ACK every 2 segments: cnt halves (the module's ack-ratio compensation)");
	is_u(bic_calc_cnt(1000, 2000, 0, &defaults), bic_calc_cnt(1000, 2000, BIC_INIT_DELAYED_ACK, &defaults),
	     "delayed_ack 0 cannot divide by zero");

	/* EWMA, weight 1/16: a steady ratio s settles in [16 s, 16 s + 15] */
	for (da = BIC_INIT_DELAYED_ACK, i = 0; i < 200; i++)
		da = bic_calc_delayed_ack(da, 4);
	ok(da >= 64 && da <= 79, "4 segments per ACK: delayed_ack -> 4 << 4 (got %u)", da);
	for (i = 0; i < 200; i++)
		da = bic_calc_delayed_ack(da, 1);
	ok(da >= 16 && da <= 31, "then 1 per ACK: delayed_ack -> 1 << 4, within the truncation band (got %u)", da);
	da = bic_calc_delayed_ack(BIC_INIT_DELAYED_ACK, 1);
	is_u(da, 31, "from the initial 2 << 4, one-per-ACK samples stop at 31: truncation dead band");
}

static void test_loss(void)
{
	is_u(bic_calc_ssthresh(10, &defaults), 5, "cwnd <= low_window: ssthresh = cwnd/2");
	is_u(bic_calc_ssthresh(3, &defaults), 2, "never below 2");
	is_u(bic_calc_ssthresh(10000, &defaults), 10000 * 819 / 1024, "ssthresh = cwnd * 819/1024");
	is_u(bic_calc_wmax(10000, 0, &defaults), 10000, "first loss: Wmax = cwnd");
	is_u(bic_calc_wmax(10000, 9000, &defaults), 10000, "loss above Wmax: Wmax = cwnd");
	is_u(bic_calc_wmax(9000, 10000, &defaults), 9000 * (1024 + 819) / 2048,
	     "fast convergence: loss below Wmax sets Wmax = cwnd (1 + beta)/2");
	{
		struct bic_params p = defaults;

		p.fast_convergence = 0;
		is_u(bic_calc_wmax(9000, 10000, &p), 9000, "without fast convergence: Wmax = cwnd");
	}
}

/*
 * One RTT per step, no further loss: RTTs from the loss (cwnd = beta Wmax)
 * back to 90% of Wmax, BIC's cnt against Reno's +1 per RTT from Wmax/2.
 */
static void test_recovery_speed(void)
{
	static const __u32 wmaxes[] = { 1000, 10000, 50000 };
	unsigned int i;

	for (i = 0; i < sizeof(wmaxes) / sizeof(wmaxes[0]); i++) {
		__u32 w = wmaxes[i];
		double cwnd = bic_calc_ssthresh(w, &defaults);
		int bic_rtts = 0, reno_rtts = (int)(0.9 * w - w / 2), linger = 0;

		while (cwnd < 0.9 * w && bic_rtts < 100000) {
			cwnd += per_rtt((__u32)cwnd, bic_calc_cnt((__u32)cwnd, w, ONE_PER_ACK, &defaults));
			bic_rtts++;
		}
		ok(bic_rtts * 10 < reno_rtts,
		   "Wmax %u: back to 90%% in %d RTTs, Reno needs %d (over 10x faster)", w, bic_rtts,
		   reno_rtts);
		/* ... and then it lingers near Wmax: the plateau of the binary search */
		while (cwnd < w && linger < 100000) {
			cwnd += per_rtt((__u32)cwnd, bic_calc_cnt((__u32)cwnd, w, ONE_PER_ACK, &defaults));
			linger++;
		}
		ok(linger >= 20, "Wmax %u: then %d RTTs from 90%% to Wmax (plateau >= 20)", w, linger);
	}
}

int main(void)
{
	test_params();
	test_reno_region();
	test_binary_search();
	test_max_probing();
	test_probing_is_slow_start();
	test_no_loss_yet();
	test_delayed_ack();
	test_loss();
	test_recovery_speed();
	return done_testing();
}
