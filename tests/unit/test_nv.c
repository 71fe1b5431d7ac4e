// SPDX-License-Identifier: GPL-2.0
/*
 * include/nv.h against TCP-NV's rules as Brakmo describes them (Netdev 1.1,
 * 2016) and the module documents them, computed here in floating point:
 * the rate of a sample (bytes over the averaged RTT), the window the path
 * holds at that rate without a queue (rate x min_rtt / mss), the congestion
 * test (the queue cwnd - that window above pad packets; room at or below
 * pad - pad_buffer), the decrease (30% of the excess over window + pad, all
 * of a small one), ssthresh at congestion (window + pad) and at a loss
 * (80%), the gates on samples and RTTs, the growth pace, the min_rtt
 * renewal period; and a closed loop on a fluid link that the design says
 * should stay full with about pad packets queued.
 */
#include <math.h>
#include <stdio.h>
#include "tap.h"
#include "nv.h"

static const struct nv_params defaults = { NV_PARAMS(TCPCA_PARAM_INIT) };

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_defaults(void)
{
	/* the module's values (tcp_nv.c, 6.1) */
	is_u(defaults.pad, 10, "pad: 10 packets");
	is_u(defaults.pad_buffer, 2, "pad_buffer: 2 packets");
	is_u(defaults.reset_period, 5, "reset_period: 5 s");
	is_u(defaults.min_cwnd, 2, "min_cwnd: 2 packets");
	is_u(defaults.base_rtt, 0, "base_rtt: none (no sock_ops program)");
	ok(fabs(defaults.cong_dec_mult / 128.0 - 0.30) < 0.005,
	   "cong_dec_mult %u/128 = %.4f: the module's 30%%, truncated", defaults.cong_dec_mult,
	   defaults.cong_dec_mult / 128.0);
	is_u(defaults.ssthresh_factor, 8, "ssthresh_factor 8/8: ssthresh = window + pad");
	is_u(defaults.rtt_factor, 128, "rtt_factor 128/256: half old, half new");
	ok(fabs(defaults.loss_dec_factor / 1024.0 - 0.80) < 0.001,
	   "loss_dec_factor %u/1024 = %.4f: 80%%", defaults.loss_dec_factor,
	   defaults.loss_dec_factor / 1024.0);
	is_u(defaults.dec_eval_min_calls, 60, "60 samples before a decrease");
	is_u(defaults.inc_eval_min_calls, 20, "20 before growth");
	is_u(defaults.ssthresh_eval_min_calls, 30, "30 before slow start ends");
	is_u(defaults.stop_rtt_cnt, 10, "growth stops after 10 congested RTTs short of samples");
	is_u(defaults.rtt_min_cnt, 2, "2 RTTs between decisions");
	ok(nv_check_params((const __u32 *)&defaults) == 0, "the defaults pass the loader's check");
	{
		struct nv_params p = defaults;

		p.pad_buffer = p.pad + 1;
		ok(nv_check_params((const __u32 *)&p) != 0, "pad_buffer above pad is refused");
	}
}

static void test_avg_rtt(void)
{
	static const __u32 rows[][3] = {	/* sample, last, factor */
		{ 20000, 24000, 128 }, { 100, 300, 128 }, { 5000, 1000, 64 },
		{ 5000, 1000, 256 }, { 123457, 98765, 200 }, { 0xfffffff0u, 0xfffffff0u, 128 },
	};
	unsigned int i;

	for (i = 0; i < N(rows); i++) {
		double f = rows[i][2] / 256.0;
		double want = floor(rows[i][0] * f + rows[i][1] * (1 - f));

		is_u(nv_avg_rtt(rows[i][0], rows[i][1], rows[i][2]), (__u32)want,
		     "avg of sample %u us and average %u us, weight %u/256: %.0f us", rows[i][0],
		     rows[i][1], rows[i][2], want);
	}
	is_u(nv_avg_rtt(777, 0, 128), 777, "no average yet: the sample");
	is_u(nv_avg_rtt(777, 5000, 0), 777, "weight 0 (no averaging): the sample");
}

static void test_rate_and_window(void)
{
	/* delivered segments of 1448 B over an RTT; the rate in Mbit/s, the window at min_rtt */
	static const struct { double segs, rtt_ms, min_rtt_ms; } rows[] = {
		{ 10, 20, 20 }, { 173, 20, 20 }, { 200, 23.5, 20 }, { 35, 0.1, 0.05 },
		{ 8, 0.05, 0.05 }, { 1000, 100, 40 }, { 3, 600, 600 },
	};
	const __u32 mss = 1448;
	unsigned int i;

	for (i = 0; i < N(rows); i++) {
		double bytes = rows[i].segs * mss, rtt_us = rows[i].rtt_ms * 1000;
		double bps = bytes * 8 / (rtt_us / 1e6);
		__u32 rate = nv_rate((__u32)bytes, (__u32)rtt_us);
		/* the window that carries bps over min_rtt, in segments */
		double w = bps * (rows[i].min_rtt_ms / 1000) / 8 / mss;

		ok(fabs(rate - bps / 100) <= 1, "%.0f segments over %.2f ms: %.3f Mbit/s = %u x 100 bit/s",
		   rows[i].segs, rows[i].rtt_ms, bps / 1e6, rate);
		ok(fabs(nv_cwnd_by_slope(rate, (__u32)(rows[i].min_rtt_ms * 1000), mss) - floor(w)) <= 1,
		   "... held without a queue at min_rtt %.2f ms: %.2f segments (got %u)",
		   rows[i].min_rtt_ms, w, nv_cwnd_by_slope(rate, (__u32)(rows[i].min_rtt_ms * 1000), mss));
	}
	is_u(nv_rate(1448, 0), 1448 * 80000u, "RTT 0 reads as 1 us (no division by zero)");
	is_u(nv_cwnd_by_slope(123456, 20000, 0), 0, "mss 0: window 0 (no division by zero)");
	/* the Vegas identity: at the path's own rate the window is the BDP */
	is_u(nv_cwnd_by_slope(nv_rate(100 * 1448, 25000), 25000, 1448), 100,
	     "100 segments per 25 ms RTT at min_rtt 25 ms: 100 segments, no queue");
}

static void test_bounds(void)
{
	__u32 base = 50000, lower = nv_lower_bound(base);

	ok(fabs(lower - 0.8 * base) <= 0.01 * base, "lower bound %u us: 80%% of base %u us", lower, base);
	is_u(nv_bounded_rtt(30000, lower, base), lower, "an RTT below 80%% of base reads as 80%%");
	is_u(nv_bounded_rtt(45000, lower, base), 45000, "one inside stays");
	is_u(nv_bounded_rtt(90000, lower, base), base, "one above base reads as base");
	is_u(nv_bounded_rtt(90000, 0, 0), 90000, "no base RTT: unbounded");
}

/* The design's congestion test: the queue, cwnd - rate x min_rtt, against pad. */
static void test_decision(void)
{
	const __u32 mss = 1448, min_rtt = 20000, bdp = 100;
	const __u32 rate = nv_rate(bdp * mss, min_rtt);	/* the path's own rate */
	unsigned int q;

	for (q = 0; q <= 20; q++) {
		struct nv_eval e = { .cwnd = bdp + q, .ssthresh = 500, .eval_call_cnt = 60,
				     .rtt_cnt = 2, .allow_growth = 1 };
		__u32 max_win = nv_cwnd_by_slope(rate, min_rtt, mss) + defaults.pad;
		enum nv_decision d = nv_evaluate(&e, max_win, &defaults);
		const char *want = q > defaults.pad ? "decrease" :
				   q <= defaults.pad - defaults.pad_buffer ? "grow" : "hold";
		enum nv_decision wd = q > defaults.pad ? NV_DEC :
				      q <= defaults.pad - defaults.pad_buffer ? NV_GROW : NV_HOLD;

		ok(d == wd, "%u packets queued (pad %u, pad_buffer %u): %s", q, defaults.pad,
		   defaults.pad_buffer, want);
	}
}

/* The decrease: 30% of the excess over window + pad, at least 2; small excess: all of it. */
static void test_decrease(void)
{
	static const __u32 rows[][2] = {	/* cwnd, max_win */
		{ 110, 110 }, { 111, 110 }, { 112, 110 }, { 113, 110 }, { 116, 110 }, { 117, 110 },
		{ 120, 110 }, { 200, 110 }, { 1000, 110 }, { 5000, 14 }, { 300000, 20000 },
	};
	unsigned int i;

	for (i = 0; i < N(rows); i++) {
		double cwnd = rows[i][0], mw = rows[i][1], ex = cwnd - mw, want;

		if (ex <= 0)
			want = cwnd;
		else if (ex <= 2)
			want = mw;
		else
			want = cwnd - fmax(2, floor(ex * 0.296875));	/* 38/128 */
		is_u(nv_decrease(rows[i][0], rows[i][1], defaults.cong_dec_mult), (__u32)want,
		     "cwnd %u over window + pad %u: excess %.0f -> cwnd %.0f", rows[i][0], rows[i][1],
		     ex, want);
	}
	is_u(nv_decrease(112, 110, 0), 112, "mult 0, excess 2: kept (the module's rule)");
	is_u(nv_decrease(200, 110, 128), 110, "mult 128: the whole excess");
	/* repeated decisions close the gap geometrically: 0.703^k of it */
	{
		__u32 cwnd = 410, k;

		for (k = 0; k < 30 && cwnd > 110; k++)
			cwnd = nv_decrease(cwnd, 110, defaults.cong_dec_mult);
		ok(cwnd == 110 && k >= 10 && k <= 16,
		   "an excess of 300 is gone after %u decisions (0.7^k x 300 <= 2 at k = 14, then all)", k);
	}
}

static void test_evaluate_rules(void)
{
	struct nv_params p = defaults;
	struct nv_eval e;
	enum nv_decision d;

	/* congestion, too few RTTs */
	e = (struct nv_eval){ .cwnd = 200, .ssthresh = 300, .eval_call_cnt = 200, .rtt_cnt = 1,
			      .allow_growth = 1 };
	ok(nv_evaluate(&e, 110, &p) == NV_WAIT && e.cwnd == 200, "congested after 1 RTT: wait");
	/* slow start: 30 samples are enough */
	e = (struct nv_eval){ .cwnd = 200, .ssthresh = NV_INFINITE_SSTHRESH, .eval_call_cnt = 29,
			      .rtt_cnt = 2, .allow_growth = 1 };
	ok(nv_evaluate(&e, 110, &p) == NV_WAIT, "slow start, 29 samples: wait");
	e.eval_call_cnt = 30;
	d = nv_evaluate(&e, 110, &p);
	ok(d == NV_DEC && e.ssthresh == 110 && e.cwnd == 200 - 26 && !e.allow_growth,
	   "slow start, 30 samples: ssthresh = window + pad (110), cwnd 200 -> 174, growth off (%u, %u)",
	   e.ssthresh, e.cwnd);
	ok(e.eval_call_cnt == 0 && e.rtt_cnt == 0, "... the counts restart");
	/* congestion avoidance needs 60 */
	e = (struct nv_eval){ .cwnd = 200, .ssthresh = 150, .eval_call_cnt = 59, .rtt_cnt = 10,
			      .allow_growth = 1 };
	ok(nv_evaluate(&e, 110, &p) == NV_WAIT && e.allow_growth,
	   "59 samples, 10 RTTs: wait, growth continues");
	e.rtt_cnt = 11;
	ok(nv_evaluate(&e, 110, &p) == NV_STOP && !e.allow_growth && e.cwnd == 200,
	   "59 samples, 11 RTTs: growth stops, cwnd kept");
	e.eval_call_cnt = 60;
	ok(nv_evaluate(&e, 110, &p) == NV_DEC && e.cwnd == 174, "60 samples: decrease");
	/* room needs 20 */
	e = (struct nv_eval){ .cwnd = 100, .ssthresh = 150, .eval_call_cnt = 19, .rtt_cnt = 1 };
	ok(nv_evaluate(&e, 110, &p) == NV_WAIT && !e.allow_growth, "room, 19 samples: wait");
	e.eval_call_cnt = 20;
	ok(nv_evaluate(&e, 110, &p) == NV_GROW && e.allow_growth && e.no_cong_cnt == 1,
	   "room, 20 samples: grow");
	/* the floor */
	e = (struct nv_eval){ .cwnd = 1, .ssthresh = 150, .eval_call_cnt = 20 };
	p.min_cwnd = 2;
	nv_evaluate(&e, 110, &p);
	is_u(e.cwnd, 2, "a decision never leaves cwnd below min_cwnd");
	/* growth factor after timeouts: back up one step per 8 uncongested RTTs beyond the 8th */
	{
		unsigned int k, steps = 0;

		e = (struct nv_eval){ .cwnd = 50, .ssthresh = 150, .growth_factor = -3 };
		for (k = 0; k < 40; k++) {
			int before = e.growth_factor;

			e.eval_call_cnt = 20;
			nv_evaluate(&e, 110, &defaults);
			steps += e.growth_factor != before;
		}
		ok(e.growth_factor == 0 && steps == 3,
		   "growth factor -3 back to 0 (Reno) in 3 steps of 9 uncongested RTTs (%d, %u)",
		   e.growth_factor, steps);
	}
	/* a decrease resets a positive factor */
	e = (struct nv_eval){ .cwnd = 200, .ssthresh = 150, .eval_call_cnt = 60, .rtt_cnt = 2,
			      .growth_factor = 3 };
	nv_evaluate(&e, 110, &defaults);
	ok(e.growth_factor == 0, "congestion brings a faster-than-Reno factor back to 0");
}

/* Growth per RTT from the window handed to tcp_cong_avoid_ai(): cwnd / ai_cnt. */
static void test_growth(void)
{
	static const int factors[] = { -8, -3, -1, 0, 1, 2 };
	const __u32 cwnd = 1000;
	unsigned int i;

	for (i = 0; i < N(factors); i++) {
		double want = factors[i] <= 0 ? pow(2, factors[i]) : fmin(cwnd / 4.0, pow(2, factors[i]));
		double got = (double)cwnd / nv_ai_cnt(cwnd, factors[i]);

		ok(fabs(got - want) < 1e-9, "growth factor %d: %.4f segments per RTT", factors[i], want);
	}
	is_u(nv_ai_cnt(2, 0), 4, "below 4 segments Reno's window is 4 (a segment per 4 acked)");
	is_u(nv_ai_cnt(1u << 28, -8), 0xffffffffu, "cwnd 2^28 << 8: capped, not wrapped");
	is_u(nv_ai_cnt(1000, 40), 4, "a factor beyond 31 is 31's: max(4, ..)");
}

static void test_loss(void)
{
	static const __u32 windows[] = { 2, 3, 4, 5, 10, 11, 100, 173, 1000, 12345, 1u << 30, 0xffffffffu };
	unsigned int i;

	for (i = 0; i < N(windows); i++) {
		double want = fmax(floor(windows[i] * (819.0 / 1024)), 2);

		is_u(nv_loss_ssthresh(windows[i], defaults.loss_dec_factor), (__u32)want,
		     "loss at cwnd %u: ssthresh %.0f (80%%, at least 2)", windows[i], want);
	}
}

static void test_reset_interval(void)
{
	double lo = nv_reset_interval_us(5, 0) / 1e6, hi = nv_reset_interval_us(5, 255) / 1e6;

	ok(fabs(lo - 3.75) < 1e-6, "min_rtt renewed after 0.75 x 5 s at the least (%.4f s)", lo);
	ok(fabs(hi - 5 * 639.0 / 512) < 1e-6 && hi < 6.25,
	   "... and 1.248 x 5 s at the most (%.4f s)", hi);
	ok(nv_reset_interval_us(86400, 255) > 86400ULL * 1000000, "a day's period in 64 bits");
}

/*
 * A fluid model: one NV flow on a link of bdp segments per min_rtt with an
 * unbounded buffer, an evaluation per RTT with cwnd/2 samples (delayed
 * ACKs).  The design's claim: the link stays full (cwnd >= bdp) and the
 * queue, cwnd - bdp, settles within pad (+ one RTT's growth).
 */
static void test_closed_loop(void)
{
	const __u32 mss = 1448, bdp = 170, base_us = 20000;
	struct nv_eval e = { .cwnd = 10, .ssthresh = NV_INFINITE_SSTHRESH, .allow_growth = 1 };
	__u32 r, qmax = 0, qmin = ~0u, wmin = ~0u, decs = 0;
	double qsum = 0;

	for (r = 0; r < 600; r++) {
		__u32 q = e.cwnd > bdp ? e.cwnd - bdp : 0;
		__u32 rtt = base_us + (__u32)((__u64)q * base_us / bdp);
		/* the segments delivered in an RTT: the window, or what the link carries */
		__u32 rate = nv_rate((e.cwnd < bdp + q ? e.cwnd : bdp + q) * mss, rtt);
		__u32 max_win = nv_cwnd_by_slope(rate, base_us, mss) + defaults.pad;
		enum nv_decision d;

		e.eval_call_cnt += e.cwnd / 2;
		if (e.eval_call_cnt > 255)
			e.eval_call_cnt = 255;
		e.rtt_cnt++;
		d = nv_evaluate(&e, max_win, &defaults);
		decs += d == NV_DEC;
		if (r >= 300) {
			q = e.cwnd > bdp ? e.cwnd - bdp : 0;
			qmax = q > qmax ? q : qmax;
			qmin = q < qmin ? q : qmin;
			wmin = e.cwnd < wmin ? e.cwnd : wmin;
			qsum += q;
		}
		if (!e.allow_growth)
			continue;
		if (e.cwnd < e.ssthresh)
			e.cwnd = e.cwnd * 2 < e.ssthresh ? e.cwnd * 2 : e.ssthresh;
		else
			e.cwnd += e.cwnd / nv_ai_cnt(e.cwnd, e.growth_factor);
	}
	diag("closed loop, RTTs 300-600: queue %u..%u (mean %.1f) packets, cwnd >= %u, %u decreases",
	     qmin, qmax, qsum / 300, wmin, decs);
	ok(wmin >= bdp, "the link stays full: cwnd never below the BDP (%u >= %u)", wmin, bdp);
	ok(qmax <= defaults.pad + 2, "the queue stays within pad + 2 (%u <= %u)", qmax, defaults.pad + 2);
	ok(e.ssthresh != NV_INFINITE_SSTHRESH && e.ssthresh <= bdp + defaults.pad + 2,
	   "slow start ended by NV's test at the rate's window + pad (ssthresh %u)", e.ssthresh);
	ok(decs >= 1, "congestion was acted on (%u decreases)", decs);
}

int main(void)
{
	test_defaults();
	test_avg_rtt();
	test_rate_and_window();
	test_bounds();
	test_decision();
	test_decrease();
	test_evaluate_rules();
	test_growth();
	test_loss();
	test_reset_interval();
	test_closed_loop();
	return done_testing();
}
