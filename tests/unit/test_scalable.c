// SPDX-License-Identifier: GPL-2.0
/*
 * Scalable TCP arithmetic (include/scalable.h) against Kelly's closed form
 * (SIGCOMM CCR 33(2), 2003), in floating point:
 *
 *	per segment acked:	cwnd += a,  a = 0.01	(above the legacy region)
 *	per loss:		cwnd -= b cwnd,  b = 0.125
 *	=> +1% per RTT, a loss regained in ln(1/(1-b)) / ln(1+a) = 13.42 RTTs at
 *	   any window, and a deterministic loss every 1/p segments peaks at
 *	   w = a / (b p) (a window of w sends w b / a segments between losses)
 *
 * The kernel's growth is tcp_cong_avoid_ai(tp, min(cwnd, 100), acked); the
 * model below is that function's rule (include/net/tcp.h, net/ipv4/tcp_cong.c)
 * written from its definition, so the test drives the header's numbers
 * through the same integer accounting as the kernel.
 */
#include <math.h>
#include "tap.h"
#include "scalable.h"

static const struct scalable_params defaults = { SCALABLE_PARAMS(TCPCA_PARAM_INIT) };

static const double KELLY_A = 0.01, KELLY_B = 0.125;

/* tcp_cong_avoid_ai(): one segment per w acked, the remainder carried. */
struct win {
	__u32 cwnd, cnt;
};

static void cong_avoid_ai(struct win *s, __u32 w, __u32 acked)
{
	if (s->cnt >= w) {
		s->cnt = 0;
		s->cwnd++;
	}
	s->cnt += acked;
	if (s->cnt >= w) {
		__u32 delta = s->cnt / w;

		s->cnt -= delta * w;
		s->cwnd += delta;
	}
}

/* One RTT in congestion avoidance: cwnd segments acked, per_ack at a time. */
static void one_rtt(struct win *s, __u32 per_ack, const struct scalable_params *p)
{
	__u32 left = s->cwnd;

	while (left) {
		__u32 n = left < per_ack ? left : per_ack;

		cong_avoid_ai(s, scalable_calc_ai_cnt(s->cwnd, p), n);
		left -= n;
	}
}

static void test_params(void)
{
	is_u(defaults.ai_cnt, 100, "ai_cnt = 100 (the module's TCP_SCALABLE_AI_CNT: a = 0.01)");
	is_u(defaults.md_shift, 3, "md_shift = 3 (the module's TCP_SCALABLE_MD_SCALE: b = 1/8)");
	ok(fabs(1.0 / defaults.ai_cnt - KELLY_A) < 1e-12, "1/ai_cnt is Kelly's a = 0.01");
	ok(fabs(1.0 / (1U << defaults.md_shift) - KELLY_B) < 1e-12, "2^-md_shift is Kelly's b = 0.125");
}

static void test_ssthresh(void)
{
	__u32 cwnd, bad = 0, far = 0;

	for (cwnd = 0; cwnd <= 2000000; cwnd += cwnd < 1000 ? 1 : 1 + cwnd / 1000) {
		double kelly = (1 - KELLY_B) * cwnd;		/* what remains */
		double want = fmax(ceil(kelly - 1e-9), 2);	/* the module rounds up */
		__u32 got = scalable_calc_ssthresh(cwnd, &defaults);

		if (got != want) {
			if (bad++ < 5)
				diag("cwnd %u: ssthresh %u, ceil(7/8 cwnd) = %.0f", cwnd, got, want);
		}
		far += cwnd >= 16 && fabs(got - kelly) >= 1;
	}
	ok(!bad, "ssthresh = max(ceil((1 - b) cwnd), 2) for cwnd 0..2e6 (%u off)", bad);
	ok(!far, "... within one segment of Kelly's (1 - b) cwnd");
	is_u(scalable_calc_ssthresh(1000, &defaults), 875, "cwnd 1000: ssthresh 875");
	is_u(scalable_calc_ssthresh(1001, &defaults), 876, "cwnd 1001: ssthresh 876 (rounds up)");
	is_u(scalable_calc_ssthresh(2, &defaults), 2, "never below 2");
}

/* Increase per RTT: max(1, a cwnd) segments, integer increments. */
static void test_increase(void)
{
	__u32 cwnd, bad = 0, n = 0;

	for (cwnd = 2; cwnd <= 200000; cwnd += 1 + cwnd / 50) {
		struct win s = { cwnd, 0 };
		double want = fmax(1.0, KELLY_A * cwnd);
		int r, rtts = 4;
		double got;

		for (r = 0; r < rtts; r++)
			one_rtt(&s, 1, &defaults);
		/* geometric above 100: compare with (1 + a)^rtts, else Reno's +1 */
		if (cwnd >= 100)
			want = cwnd * (pow(1 + KELLY_A, rtts) - 1) / rtts;
		got = (double)(s.cwnd - cwnd) / rtts;
		n++;
		/* integer increments: within one segment per RTT of the rule */
		if (fabs(got - want) > 1.0 + 1e-9) {
			if (bad++ < 5)
				diag("cwnd %u: +%.2f/RTT, rule %.2f", cwnd, got, want);
		}
	}
	ok(!bad, "per RTT: +max(1, a cwnd) segments, within 1 (%u windows, %u off)", n, bad);

	{
		struct win s = { 10000, 0 };

		one_rtt(&s, 1, &defaults);
		is_u(s.cwnd, 10100, "cwnd 10000, one segment per ACK: +100 in an RTT (+1%%)");
		s.cwnd = 10000, s.cnt = 0;
		one_rtt(&s, 2, &defaults);
		is_u(s.cwnd, 10100, "... the same with an ACK every 2 segments (counts segments)");
		s.cwnd = 50, s.cnt = 0;
		one_rtt(&s, 1, &defaults);
		is_u(s.cwnd, 51, "cwnd 50: Reno's +1 per RTT (1/cwnd > a)");
	}
	{
		struct scalable_params p = defaults;
		struct win s = { 10000, 0 };

		p.ai_cnt = 50;
		one_rtt(&s, 1, &p);
		is_u(s.cwnd, 10200, "ai_cnt = 50: +2%% per RTT");
		is_u(scalable_calc_ai_cnt(0, &p), 1, "cwnd 0 gives no zero divisor");
		p.ai_cnt = 0;
		is_u(scalable_calc_ai_cnt(1000, &p), 100, "ai_cnt 0 reads as the module's 100");
	}
}

/* RTTs from a loss at w back to w: 13.4 at any window (Reno: w/2). */
static void test_recovery(void)
{
	static const __u32 ws[] = { 200, 1000, 10000, 100000, 1000000 };
	double kelly = log(1 / (1 - KELLY_B)) / log(1 + KELLY_A);
	unsigned int i;

	for (i = 0; i < sizeof(ws) / sizeof(ws[0]); i++) {
		struct win s = { scalable_calc_ssthresh(ws[i], &defaults), 0 };
		int rtts = 0;

		while (s.cwnd < ws[i] && rtts < 100000) {
			one_rtt(&s, 1, &defaults);
			rtts++;
		}
		/* integer increments lag by up to one segment per RTT */
		ok(rtts >= floor(kelly) && rtts <= ceil(kelly) + 1 + (ws[i] < 2000 ? 2 : 0),
		   "w %u: back to w in %d RTTs, Kelly %.2f (Reno %u)", ws[i], rtts, kelly, ws[i] / 2);
	}
}

/* A loss every 1/p segments: the peak window settles at a / (b p). */
static void test_response(void)
{
	static const double ps[] = { 1e-4, 1e-5, 1e-6 };
	unsigned int i;

	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		__u64 every = (__u64)(1 / ps[i] + 0.5), sent = 0;
		struct win s = { 1000, 0 };
		double want = KELLY_A / (KELLY_B * ps[i]), peaks = 0;
		int losses = 0;

		while (losses < 300) {
			cong_avoid_ai(&s, scalable_calc_ai_cnt(s.cwnd, &defaults), 1);
			if (++sent % every)
				continue;
			if (++losses > 100)	/* settled */
				peaks += s.cwnd;
			s.cwnd = scalable_calc_ssthresh(s.cwnd, &defaults);
			s.cnt = 0;
		}
		peaks /= 200;
		ok(fabs(peaks / want - 1) < 0.03, "p = %g: peak window %.0f, Kelly a/(b p) = %.0f", ps[i],
		   peaks, want);
	}
}

int main(void)
{
	test_params();
	test_ssthresh();
	test_increase();
	test_recovery();
	test_response();
	return done_testing();
}
