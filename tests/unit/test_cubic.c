// SPDX-License-Identifier: GPL-2.0
/*
 * CUBIC arithmetic (include/cubic.h) against closed forms in floating point,
 * from Ha, Rhee and Xu (2008) and RFC 9438:
 *
 *	W(t)  = C (t - K)^3 + W_max			(RFC 9438 eq. 1)
 *	K     = cbrt((W_max - cwnd_epoch) / C)		(eq. 2, with cwnd_epoch = beta W_max)
 *	W_est grows 3 (1 - beta) / (1 + beta) per RTT	(eq. 4, TCP friendliness)
 *	W_max = cwnd (1 + beta) / 2 after a loss below the last W_max (fast convergence, 4.7)
 *	ssthresh = beta cwnd				(4.6)
 *
 * with C = bic_scale * 10 / 1024 and beta = 717 / 1024 (the module's), and
 * HyStart's thresholds as Ha and Rhee's paper and the module state them.
 */
#include <math.h>
#include "tap.h"
#include "cubic.h"

static const struct cubic_params defaults = { CUBIC_PARAMS(TCPCA_PARAM_INIT) };

static double c_of(const struct cubic_params *p)
{
	return p->bic_scale * 10.0 / 1024;
}

static double beta_of(const struct cubic_params *p)
{
	return p->beta / 1024.0;
}

static void test_params(void)
{
	const struct cubic_params *p = &defaults;

	is_u(p->fast_convergence, 1, "fast_convergence = 1");
	is_u(p->beta, 717, "beta = 717/1024 = 0.70 (RFC 9438: 0.7)");
	is_u(p->initial_ssthresh, 0, "initial_ssthresh = 0 (the kernel's)");
	is_u(p->bic_scale, 41, "bic_scale = 41: C = 0.40 (RFC 9438: 0.4)");
	ok(fabs(c_of(p) - 0.4) < 0.001, "C = %.4f", c_of(p));
	is_u(p->tcp_friendliness, 1, "tcp_friendliness = 1");
	is_u(p->hystart, 1, "hystart = 1");
	is_u(p->hystart_detect, CUBIC_HYSTART_ACK_TRAIN | CUBIC_HYSTART_DELAY, "hystart_detect = 3 (both)");
	is_u(p->hystart_low_window, 16, "hystart_low_window = 16");
	is_u(p->hystart_ack_delta_us, 2000, "hystart_ack_delta_us = 2000");
}

static void test_fls64(void)
{
	int bad = 0, i;

	for (i = 0; i < 64; i++) {
		__u64 x = 1ULL << i;

		bad += cubic_fls64(x) != (__u32)i + 1;
		bad += cubic_fls64(x | (x >> 1) | 1) != (__u32)i + 1;
	}
	ok(cubic_fls64(0) == 0 && !bad, "fls64: 0 -> 0, and the top bit of every power of two");
}

/*
 * The cube root: the module states an average error of about 0.2 %.  Its
 * result is an integer from a 6-bit table and one Newton step, so the bound
 * that holds over the whole u64 range is 1 + 0.2 % of the root; above 2^30
 * (every K: a = 2^40 / 410 * (W_max - cwnd) >= 2.7e9) the relative error
 * alone stays below 0.2 %.
 */
static void test_cube_root(void)
{
	double worst = 0, worst_rel = 0, sum_rel = 0;
	unsigned long long a, worst_a = 0;
	long n = 0, n_rel = 0;
	int exact = 1;

	for (a = 0; a < 64; a++)	/* the table alone: within half a unit of the root (rounded) */
		exact &= fabs(cubic_root(a) - cbrt((double)a)) <= 0.53;
	ok(exact, "a < 64: the table's root within 0.53 of cbrt(a)");

	for (a = 64; a < ~0ULL - (~0ULL >> 15); a += 1 + a / 50021) {	/* to 2^64, ~2 million points */
		double r = cbrt((double)a), x = cubic_root(a), d = fabs(x - r) - (1 + 0.002 * r);

		if (d > worst) {
			worst = d;
			worst_a = a;
		}
		if (a >= (1ULL << 30)) {
			double rel = fabs(x - r) / r;

			sum_rel += rel;
			n_rel++;
			if (rel > worst_rel)
				worst_rel = rel;
		}
		n++;
	}
	ok(worst <= 0, "|cubic_root(a) - cbrt(a)| <= 1 + 0.2%% cbrt(a) at %ld points 64..2^64%s", n,
	   worst > 0 ? " (fails)" : "");
	if (worst > 0)
		diag("worst at %llu: %u vs %.3f", worst_a, cubic_root(worst_a), cbrt((double)worst_a));
	ok(worst_rel < 0.002, "a >= 2^30: relative error at most %.4f%% (< 0.2%%)", 100 * worst_rel);
	ok(sum_rel / n_rel < 0.00195, "a >= 2^30: mean relative error %.4f%% (the module: ~0.195%%)",
	   100 * sum_rel / n_rel);
	is_u(cubic_root(1000), 10, "cbrt(1000) = 10");
	is_u(cubic_root(1000000000000ULL), 9999, "cbrt(10^12) = 9999 (10000, -0.01%%)");
}

/* K against cbrt((W_max - cwnd) / C), seconds. */
static void test_k(void)
{
	static const __u32 wmax[] = { 20, 100, 1000, 10000, 100000, 1000000 };
	struct cubic_params p = defaults;
	int bad = 0, n = 0;
	unsigned i, s;

	for (s = 0; s < 3; s++) {
		p.bic_scale = (const __u32[]){ 41, 10, 1024 }[s];
		for (i = 0; i < sizeof(wmax) / sizeof(wmax[0]); i++) {
			__u32 cwnd = (__u32)(wmax[i] * beta_of(&p));
			double want = cbrt((wmax[i] - cwnd) / c_of(&p));
			double got = cubic_calc_k(cwnd, wmax[i], &p) / 1024.0;

			n++;
			if (fabs(got - want) > 0.002 * want + 2 / 1024.0) {
				bad++;
				diag("bic_scale %u W_max %u cwnd %u: K %.4f s, want %.4f", p.bic_scale,
				     wmax[i], cwnd, got, want);
			}
		}
	}
	ok(!bad, "K = cbrt((W_max - cwnd)/C) within 0.2%% + 2 ms, %d cases (C 0.40, 0.10, 10)", n);
	p = defaults;
	ok(fabs(cubic_calc_k(700, 1000, &p) / 1024.0 - 9.0865) < 0.02,
	   "W_max 1000, cwnd 700: K = %.3f s (RFC 9438: cbrt(300/0.4) = 9.09)",
	   cubic_calc_k(700, 1000, &p) / 1024.0);
	is_u(cubic_calc_k(1000, 1000, &p), 0, "epoch at W_max: K = 0");
	is_u(cubic_calc_k(1200, 1000, &p), 0, "epoch above W_max: K = 0");
	is_u(cubic_calc_origin(700, 1000), 1000, "origin = W_max below it");
	is_u(cubic_calc_origin(1200, 1000), 1200, "origin = cwnd above W_max");
	is_u(cubic_calc_origin(1200, 0), 1200, "origin = cwnd before any loss");
}

/* t: (elapsed + min RTT) in 1/1024 s. */
static void test_t(void)
{
	ok(cubic_calc_t(0, 0) == 0 && cubic_calc_t(1000000, 0) == 1024 &&
	   cubic_calc_t(900000, 100000) == 1024, "t: 1 s = 1024, delay_min added");
	ok(cubic_calc_t(0xffffffffU, 0xffffffffU) == (((__u64)0xffffffffU * 2) << 10) / 1000000,
	   "t: no overflow at the u32 limits (%llu)",
	   (unsigned long long)cubic_calc_t(0xffffffffU, 0xffffffffU));
}

/* W(t) = C (t - K)^3 + W_max on either side of K, to a packet. */
static void test_w(void)
{
	static const __u32 wmax[] = { 100, 1000, 10000, 100000, 999999 };
	const struct cubic_params *p = &defaults;
	int bad = 0, n = 0;
	unsigned i;

	for (i = 0; i < sizeof(wmax) / sizeof(wmax[0]); i++) {
		__u32 cwnd = (__u32)(wmax[i] * beta_of(p)), k = cubic_calc_k(cwnd, wmax[i], p);
		__u64 t;

		/* 0 .. 2K + 2 s in steps of 1/64 s */
		for (t = 0; t <= 2 * (__u64)k + 2048; t += 16) {
			double ts = t / 1024.0, ks = k / 1024.0;
			double want = c_of(p) * pow(ts - ks, 3) + wmax[i];
			__u32 got = cubic_calc_target(wmax[i], k, t, p);

			n++;
			if (fabs(got - want) > 1.0) {
				if (bad++ < 3)
					diag("W_max %u t %.3f: W %u, want %.2f", wmax[i], ts, got, want);
			}
		}
	}
	ok(!bad, "W(t) within 1 packet of C (t - K)^3 + W_max, %d points (W_max 100 to 10^6)", n);
	is_u(cubic_calc_target(1000, 1024, 1024, p), 1000, "W(K) = W_max");
}

/* cnt gives at least the wanted increase per RTT (cwnd / floor(cwnd / x) >= x). */
static void test_cnt(void)
{
	int bad = 0, n = 0;
	__u32 cwnd, inc;

	for (cwnd = 2; cwnd < 200000; cwnd += 1 + cwnd / 13)
		for (inc = 1; inc < cwnd; inc += 1 + inc / 3) {
			__u32 cnt = cubic_calc_cnt(cwnd, cwnd + inc, 5);
			double per_rtt = (double)cwnd / cnt;

			n++;
			bad += cnt == 0 || per_rtt < inc - 1e-9 || per_rtt > inc * (double)cwnd / (cwnd - inc) + 1e-9;
		}
	ok(!bad, "cnt reaches the target in one RTT (floor bound), %d cases", n);
	is_u(cubic_calc_cnt(500, 500, 5), 50000, "at the target: 100 cwnd (1%% of a packet per RTT)");
	is_u(cubic_calc_cnt(500, 400, 5), 50000, "above the target: 100 cwnd");
	is_u(cubic_calc_cnt(500, 500, 0), 20, "before any loss: at most 20 (5%% per RTT)");
	is_u(cubic_calc_cnt(500, 1000, 0), 1, "before any loss, far below: 1 (the cap of 2 is the caller's)");
}

/* The emulated Reno window: 3 (1 - beta) / (1 + beta) per RTT. */
static void test_friendliness(void)
{
	const struct cubic_params *p = &defaults;
	double alpha = 3 * (1 - beta_of(p)) / (1 + beta_of(p));
	__u32 cwnd = 1000, ack_cnt = 0, tcp_cwnd = cwnd, cnt, r, a;

	is_u(cubic_beta_scale(p), 15, "beta_scale = 15 (8 (1024 + 717) / 3 / 307, integer)");
	for (r = 0; r < 100; r++)	/* 100 RTTs of one-segment ACKs at a fixed cwnd */
		for (a = 0; a < cwnd; a++) {
			ack_cnt++;
			cnt = cubic_friendly_cnt(1000000, cwnd, &ack_cnt, &tcp_cwnd, p);
		}
	ok(fabs((tcp_cwnd - cwnd) / 100.0 - alpha) < 0.01 * alpha + 0.01,
	   "W_est grew %.3f per RTT; RFC 9438: 3(1-beta)/(1+beta) = %.3f", (tcp_cwnd - cwnd) / 100.0, alpha);
	is_u(cnt, cwnd / (tcp_cwnd - cwnd), "cnt capped at cwnd / (W_est - cwnd) once W_est is ahead");

	/* the module's loop and the division agree, acks in bulk (stretch ACKs) */
	{
		__u32 k, ok_all = 1;

		for (k = 0; k < 5000; k += 7) {
			__u32 ac = k, tc = 10, per = (cwnd * 15) >> 3, lac = k, ltc = 10;

			while (lac > per) {
				lac -= per;
				ltc++;
			}
			cubic_friendly_cnt(100, cwnd, &ac, &tc, p);
			ok_all &= ac == lac && tc == ltc;
		}
		ok(ok_all, "one division = the module's while loop, ack_cnt 0..5000");
	}
	ack_cnt = 5, tcp_cwnd = 10;
	is_u(cubic_friendly_cnt(77, 1000, &ack_cnt, &tcp_cwnd, p), 77, "W_est behind: cnt unchanged");
}

static void test_loss(void)
{
	struct cubic_params p = defaults;
	int bad = 0;
	__u32 cwnd;

	for (cwnd = 1; cwnd < 2000000; cwnd += 1 + cwnd / 7) {
		double want = floor(cwnd * beta_of(&p));

		bad += cubic_calc_ssthresh(cwnd, &p) != (want > 2 ? want : 2);
		bad += cubic_calc_wmax(cwnd, cwnd + 1, &p) != (__u32)floor(cwnd * (1 + beta_of(&p)) / 2);
		bad += cubic_calc_wmax(cwnd, cwnd, &p) != cwnd;
	}
	ok(!bad, "ssthresh = max(beta cwnd, 2); W_max = cwnd (1 + beta)/2 below the last, else cwnd");
	p.fast_convergence = 0;
	is_u(cubic_calc_wmax(500, 1000, &p), 500, "no fast convergence: W_max = cwnd");
	is_u(cubic_calc_ssthresh(1000, &defaults), 700, "1000 -> 700");
}

/* HyStart: the delay rise clamp(delay_min/8, 4, 16 ms); the train d/2 (+ cushion). */
static void test_hystart(void)
{
	static const struct { __u32 d, want; } rise[] = {
		{ 1000, 4000 }, { 32000, 4000 }, { 40000, 5000 }, { 100000, 12500 },
		{ 128000, 16000 }, { 600000, 16000 },
	};
	unsigned i;
	int bad = 0;

	for (i = 0; i < sizeof(rise) / sizeof(rise[0]); i++) {
		double want = fmin(fmax(rise[i].d / 8.0, 4000), 16000);

		bad += cubic_hystart_delay_thresh(rise[i].d) != rise[i].want ||
		       fabs(cubic_hystart_delay_thresh(rise[i].d) - want) > 1;
	}
	ok(!bad, "delay rise = clamp(delay_min / 8, 4 ms, 16 ms)");
	/* 4 GSO packets at the pacing rate, at most 1 ms */
	is_u(cubic_hystart_ack_delay(0, 65536), 0, "ack delay: no pacing rate, no cushion");
	is_u(cubic_hystart_ack_delay(1250000000ULL, 65536), 209,
	     "ack delay: 64 KB GSO at 10 Gbit/s = 4 * 65536 / 1.25e9 s = 209 us");
	is_u(cubic_hystart_ack_delay(1250000000ULL, 185000), 592,
	     "ack delay: BIG TCP 185 KB GSO at 10 Gbit/s = 592 us (GSO_MAX_SIZE would give 209)");
	is_u(cubic_hystart_ack_delay(12500000ULL, 65536), 1000, "ack delay: capped at 1 ms (100 Mbit/s)");
	is_u(cubic_hystart_train_thresh(40000, 1000, 0), 20500, "train: unpaced, (delay_min + cushion) / 2");
	is_u(cubic_hystart_train_thresh(40000, 1000, 1), 41000, "train: paced, delay_min + cushion");
}

/*
 * One epoch, ACK by ACK at a fixed RTT, through include/cubic.h the way
 * cubic_update() and tcp_cong_avoid_ai() use it: cwnd tracks W(t) and
 * reaches W_max at t = K.
 */
static void test_epoch(void)
{
	struct cubic_params p = defaults;
	const double rtt = 0.1;
	const __u32 wmax = 1000;
	__u32 cwnd = cubic_calc_ssthresh(wmax, &p), k = cubic_calc_k(cwnd, wmax, &p);
	__u32 origin = cubic_calc_origin(cwnd, wmax), cnt_acc = 0, r, a;
	double worst = 0, reach = -1;

	p.tcp_friendliness = 0;
	for (r = 0; r < 200; r++) {
		double ts = r * rtt, w = c_of(&p) * pow(ts - k / 1024.0, 3) + wmax;
		__u32 n = cwnd;

		if (ts < 2 * k / 1024.0 && fabs(cwnd - w) > worst)
			worst = fabs(cwnd - w);
		if (reach < 0 && cwnd >= wmax)
			reach = ts;
		for (a = 0; a < n; a++) {	/* one ACK per segment, spread over the RTT */
			__u32 us = (__u32)((ts + rtt * a / n) * 1e6);
			__u32 cnt = cubic_calc_cnt(cwnd, cubic_calc_target(origin, k, cubic_calc_t(us, 100000), &p), wmax);

			cnt = cnt > CUBIC_MIN_CNT ? cnt : CUBIC_MIN_CNT;
			if (++cnt_acc >= cnt) {	/* tcp_cong_avoid_ai() */
				cnt_acc = 0;
				cwnd++;
			}
		}
	}
	ok(worst < 0.02 * wmax, "epoch from 700 to W_max 1000, 100 ms RTT: cwnd within %.1f packets of W(t) (< 2%%)", worst);
	/*
	 * The curve truncates toward W_max, so the target is W_max once
	 * C (K - t - RTT)^3 < 1 packet: from K - cbrt(1/C) - RTT on.
	 */
	{
		double at = k / 1024.0 - cbrt(1 / c_of(&p)) - rtt;

		ok(fabs(reach - at) <= 2 * rtt,
		   "cwnd reaches W_max at %.2f s: K - cbrt(1/C) - RTT = %.2f s (K %.2f s), within 2 RTTs",
		   reach, at, k / 1024.0);
	}
}

int main(void)
{
	test_params();
	test_fls64();
	test_cube_root();
	test_k();
	test_t();
	test_w();
	test_cnt();
	test_friendliness();
	test_loss();
	test_hystart();
	test_epoch();
	return done_testing();
}
