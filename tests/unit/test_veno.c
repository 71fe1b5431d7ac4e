// SPDX-License-Identifier: GPL-2.0
/*
 * include/veno.h against Fu & Liew's definitions (IEEE JSAC 2003) in
 * floating point: the backlog N = (cwnd/BaseRTT - cwnd/RTT) * BaseRTT, the
 * loss rule (N < beta: random, ssthresh = 4/5 cwnd; else congestive, 1/2),
 * and the growth in congestion avoidance (one segment per RTT below beta,
 * one every other RTT at or above it), with the module's half-packet
 * rounding shown where it moves the paper's threshold.
 */
#include <math.h>
#include <stdio.h>
#include "tap.h"
#include "veno.h"

static const __u32 beta = 3;	/* the paper's and the module's */

/* The paper's backlog estimate, in packets. */
static double paper_n(double cwnd, double base, double rtt)
{
	return (cwnd / base - cwnd / rtt) * base;
}

static void test_diff_rows(void)
{
	/* cwnd, base_rtt_us, rtt_us (the +1 of the samples is already in) */
	static const __u32 rows[][3] = {
		{ 10, 50000, 50000 },	/* no queue: 0 */
		{ 20, 50001, 50501 },	/* 0.198 packets */
		{ 43, 50000, 53000 },	/* 2.43 */
		{ 43, 50000, 54000 },	/* 3.19 */
		{ 86, 50000, 100000 },	/* a BDP queued: 43 */
		{ 17, 20001, 25001 },
		{ 1000, 1000, 1001 },	/* 0.999 */
		{ 1000, 1000, 1002 },	/* 1.996 */
		{ 3, 100, 5000000 },	/* huge spike: nearly the whole window */
		{ 100, 20000, VENO_RTT_NONE },	/* no sample on this ACK: as huge */
		{ 0x7fffffff, 10000, 10001 },	/* needs 64 bits */
	};
	unsigned int i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		__u32 cwnd = rows[i][0], base = rows[i][1], rtt = rows[i][2];
		double n = paper_n(cwnd, base, rtt);
		/* the module's value: 2N rounded up (1e-9: exact multiples stay) */
		double want = ceil(2 * n - 1e-9);
		__u32 got = veno_diff(cwnd, base, rtt);

		ok(fabs(got - want) <= (want > 1e6 ? want * 1e-9 + 1 : 0),
		   "diff(cwnd=%u, base=%u us, rtt=%u us) = %u half packets: paper's N = %.3f",
		   cwnd, base, rtt, got, n);
		/* and within half a packet of N itself */
		ok(got / 2.0 >= n - 1e-9 && got / 2.0 < n + 0.5 + 1e-9,
		   "... %u/2 is N rounded up to the half packet", got);
	}
	is_u(veno_diff(10, 50000, 0), 0, "rtt 0 (impossible): diff 0, no division by zero");
}

/*
 * The decision by the paper (N < beta: random) and by the module
 * (ceil(2N) < 2 beta), for queues around beta: they agree outside
 * (beta - 1/2, beta) and the module calls congestion inside.
 */
static void test_decision(void)
{
	const __u32 cwnd = 60, base = 50000;
	/* queues in packets: the RTT that makes N exactly q is base*cwnd/(cwnd-q) */
	static const double queues[] = { 0, 1, 2, 2.4, 2.5, 2.6, 2.9, 3, 3.2, 4, 10, 40 };
	unsigned int i;

	for (i = 0; i < sizeof(queues) / sizeof(queues[0]); i++) {
		double q = queues[i];
		__u32 rtt = (__u32)floor(base * cwnd / (cwnd - q) + 0.5);
		double n = paper_n(cwnd, base, rtt);
		int paper = !(n < beta);
		int module = veno_congestive(veno_diff(cwnd, base, rtt), beta);

		if (n > beta - 0.5 + 1e-9 && n < beta - 1e-9)
			ok(module == 1 && paper == 0,
			   "N = %.3f in (beta - 1/2, beta): the module calls congestion, the paper random loss",
			   n);
		else
			ok(module == paper, "N = %.3f: %s, as the paper says", n,
			   paper ? "congestive" : "random loss");
	}
	ok(veno_congestive(0, 0), "beta 0: every loss congestive (Reno)");
	ok(!veno_congestive(131069, 65535), "beta 65535: N of 65534.5 packets still random");
}

static void test_ssthresh(void)
{
	static const __u32 windows[] = { 2, 3, 4, 5, 7, 10, 11, 43, 86, 99, 1000, 12345, 1u << 30,
					 0xffffffffu };
	unsigned int i;

	for (i = 0; i < sizeof(windows) / sizeof(windows[0]); i++) {
		__u32 w = windows[i];
		double random = fmax(floor(w * 0.8), 2), cong = fmax(floor(w * 0.5), 2);

		is_u(veno_calc_ssthresh(w, 0, beta), (__u32)random,
		     "random loss at cwnd %u: ssthresh = max(4/5 cwnd, 2) = %.0f", w, random);
		is_u(veno_calc_ssthresh(w, 2 * beta, beta), (__u32)cong,
		     "congestive loss at cwnd %u: ssthresh = max(cwnd / 2, 2) = %.0f", w, cong);
	}
	/* the departure: the module's u32 4 * cwnd wraps above 2^30 */
	ok((__u32)((1u << 30) * 4u / 5u) != veno_calc_ssthresh(1u << 30, 0, beta),
	   "at cwnd 2^30 the module's u32 product wraps (%u), ours does not (%u)",
	   (__u32)((1u << 30) * 4u / 5u), veno_calc_ssthresh(1u << 30, 0, beta));
}

/*
 * Congestion avoidance over many RTTs, an ACK per segment, against the
 * paper: +1 per RTT when N < beta (the stack's tcp_cong_avoid_ai(), modelled
 * here as the kernel's Reno rule), +1 every other RTT when N >= beta
 * (veno_congestive_ai).  An RTT is the ACKs of one window.
 */
static void reno_ai(struct veno_window *w, __u32 acked)	/* tcp_cong_avoid_ai(w = cwnd) */
{
	__u32 wnd = w->cwnd;

	if (w->cwnd_cnt >= wnd) {
		w->cwnd_cnt = 0;
		w->cwnd++;
	}
	w->cwnd_cnt += acked;
	if (w->cwnd_cnt >= wnd) {
		w->cwnd += w->cwnd_cnt / wnd;
		w->cwnd_cnt -= (w->cwnd_cnt / wnd) * wnd;
	}
}

static double growth_per_rtt(__u32 start, int congestive, __u32 rtts, __u32 acked_per_ack)
{
	struct veno_window w = { .cwnd = start, .cwnd_cnt = 0 };
	__u32 inc = 1, r, a;

	for (r = 0; r < rtts; r++) {
		__u32 acks = w.cwnd / acked_per_ack;

		for (a = 0; a < acks; a++) {
			if (congestive)
				veno_congestive_ai(&w, &inc, acked_per_ack, ~0U);
			else
				reno_ai(&w, acked_per_ack);
		}
	}
	return (double)(w.cwnd - start) / rtts;
}

static void test_growth(void)
{
	static const __u32 starts[] = { 20, 50, 200, 1000 };
	unsigned int i;

	for (i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		__u32 s = starts[i], rtts = 400;
		double g = growth_per_rtt(s, 0, rtts, 1), h = growth_per_rtt(s, 1, rtts, 1);
		/* the module skips the crossing ACK: a step every cwnd + 1 segments */
		double w_mid = s + rtts / 4.0, want_h = 0.5 * w_mid / (w_mid + 1);

		ok(fabs(g - 1) < 0.05, "N < beta from cwnd %u: %.3f segments per RTT (paper: 1)", s, g);
		ok(fabs(h - want_h) < 0.03 && fabs(h - 0.5) < 0.06,
		   "N >= beta from cwnd %u: %.3f segments per RTT (paper: 1/2; cwnd/(cwnd+1) of it: %.3f)",
		   s, h, want_h);
	}
	/* delayed ACKs (2 segments each): still 1/2 per RTT */
	{
		double h = growth_per_rtt(100, 1, 400, 2);

		ok(fabs(h - 0.5) < 0.06, "N >= beta, an ACK per 2 segments: %.3f segments per RTT", h);
	}
	/* the step alternates: exactly one growth per two thresholds crossed */
	{
		struct veno_window w = { .cwnd = 10, .cwnd_cnt = 10 };
		__u32 inc = 1;

		veno_congestive_ai(&w, &inc, 1, ~0U);
		ok(w.cwnd == 11 && w.cwnd_cnt == 0 && inc == 0, "first threshold: cwnd 10 -> 11");
		w.cwnd_cnt = 11;
		veno_congestive_ai(&w, &inc, 1, ~0U);
		ok(w.cwnd == 11 && w.cwnd_cnt == 0 && inc == 1, "second: held at 11");
		w.cwnd_cnt = 11;
		veno_congestive_ai(&w, &inc, 1, 11);
		ok(w.cwnd == 11 && inc == 1, "third at the clamp 11: held, the next step may grow");
		veno_congestive_ai(&w, &inc, 3, ~0U);
		is_u(w.cwnd_cnt, 3, "below the threshold the count adds the ACK's segments");
	}
}

/*
 * The paper's claim in numbers: with random losses at rate p and no queue,
 * AIMD(a, b) (a segments per RTT, a loss takes b of the window) runs a
 * sawtooth from (1 - b) W to W in b W / a RTTs, sending 1/p segments per
 * tooth: (b W / a + 1) (1 - b/2) W = 1/p, mean window (1 - b/2) W.  Veno at
 * random losses is AIMD(1, 1/5), Reno AIMD(1, 1/2), Veno in the congestive
 * state AIMD(1/2, 1/2).  A deterministic sawtooth with the code's ssthresh
 * (integer, so a little below the closed form) against that.
 */
static double sawtooth_mean(double a, double b, double p)
{
	/* (b/a)(1 - b/2) W^2 + (1 - b/2) W - 1/p = 0 */
	double A = b / a * (1 - b / 2), B = 1 - b / 2, W = (-B + sqrt(B * B + 4 * A / p)) / (2 * A);

	return (1 - b / 2) * W;
}

static void test_sawtooth(void)
{
	const double p = 0.01;
	/* growth per RTT, diff at the losses (0: random, 2 beta: congestive) */
	static const struct { double a; __u32 diff; double b; const char *what; } cases[] = {
		{ 1, 0, 0.2, "Veno, random losses" },
		{ 1, 2 * 3, 0.5, "Reno (halving, +1 per RTT)" },
		{ 0.5, 2 * 3, 0.5, "Veno, congestive losses" },
	};
	double mean[3];
	unsigned int k;

	for (k = 0; k < 3; k++) {
		double cw = 10, sent = 0, sum = 0, rtts = 0, next = 1 / p, want;
		int i;

		for (i = 0; i < 200000; i++) {
			sent += cw;
			sum += cw;
			rtts++;
			if (sent >= next) {
				next += 1 / p;
				cw = veno_calc_ssthresh((__u32)cw, cases[k].diff, beta);
			} else {
				cw += cases[k].a;
			}
		}
		mean[k] = sum / rtts;
		want = sawtooth_mean(cases[k].a, cases[k].b, p);
		ok(fabs(mean[k] - want) / want < 0.07,
		   "%s at p = 1%%: mean cwnd %.2f, AIMD(%.1f, %.1f) predicts %.2f",
		   cases[k].what, mean[k], cases[k].a, cases[k].b, want);
	}
	ok(mean[0] / mean[1] > 1.5,
	   "random losses: Veno's window %.2fx Reno's (closed form %.2fx)", mean[0] / mean[1],
	   sawtooth_mean(1, 0.2, p) / sawtooth_mean(1, 0.5, p));
}

static void test_params(void)
{
	is_u(sizeof(struct veno_params), 4, "one __u32 tunable");
}

int main(void)
{
	test_diff_rows();
	test_decision();
	test_ssthresh();
	test_growth();
	test_sawtooth();
	test_params();
	return done_testing();
}
