// SPDX-License-Identifier: GPL-2.0
/*
 * Hybla's fixed-point arithmetic (include/hybla.h) against the paper's
 * formulas in floating point:
 *
 *	rho = max(RTT / rtt0, 1), slow start 2^rho - 1 per ACK, CA rho^2 / W per ACK
 *
 * and the loop-free window update against a straightforward per-ACK model of
 * the module's rules (with its while loop), and against Reno at rho = 1.
 */
#include <math.h>
#include <stdlib.h>
#include "tcpca_params.h"
#include "hybla.h"
#include "tap.h"

#define INF_SSTHRESH	0x7fffffffU

static double rho_exact(double rtt_ms, double rtt0_ms)
{
	return fmax(rtt_ms / rtt0_ms, 1.0);
}

/* The stack keeps srtt_us << 3. */
static __u32 srtt_us_of_ms(double rtt_ms)
{
	return (__u32)llround(rtt_ms * 1000.0 * 8.0);
}

static void test_fraction_table(void)
{
	int k;

	for (k = 0; k < 8; k++) {
		double exact = 128.0 * pow(2.0, k / 8.0);

		is_u(hybla_fraction(k), (__u32)floor(exact),
		     "table row %d: 2^(%d/8) << 7 = floor(%.3f)", k, k, exact);
	}
	is_u(hybla_fraction(8), hybla_fraction(0), "index wraps at 8 (bounded lookup)");
}

static void test_rho(void)
{
	const __u32 rtt0s[] = { 25, 10, 50 };
	int worst_int = 0, worst_frac = 0, worst_rho2 = 0, n = 0;
	unsigned int i;
	int ms;

	for (i = 0; i < sizeof(rtt0s) / sizeof(rtt0s[0]); i++) {
		for (ms = 10; ms <= 700; ms++) {
			double r = rho_exact(ms, rtt0s[i]);
			__u32 r3 = hybla_rho_3ls(srtt_us_of_ms(ms), rtt0s[i]);
			__u32 r2 = hybla_rho2_7ls(r3);

			n++;
			/* integer part exact; << 3 is floor(8 rho); error < 1/8 */
			worst_int += (r3 >> 3) != (__u32)floor(r);
			worst_frac += r3 != (__u32)floor(8.0 * r + 1e-9) ||
				      fabs(r3 / 8.0 - r) >= 0.125;
			/* rho^2 << 7 is exactly (rho_3ls / 8)^2 * 128 */
			worst_rho2 += fabs(r2 / 128.0 - (r3 / 8.0) * (r3 / 8.0)) > 1e-9 ||
				      r2 / 128.0 > r * r + 1e-9;
		}
	}
	ok(!worst_int, "rho integer part = floor(max(RTT/rtt0, 1)) for RTT 10..700 ms, rtt0 10/25/50 (%d cases, %d off)",
	   n, worst_int);
	ok(!worst_frac, "rho << 3 = floor(8 rho), within 1/8 of rho (%d off)", worst_frac);
	ok(!worst_rho2, "rho^2 << 7 = (rho<<3)^2 << 1 exactly, never above rho^2 (%d off)", worst_rho2);

	is_u(hybla_rho_3ls(srtt_us_of_ms(600), 25), 192, "600 ms at rtt0 = 25 ms: rho = 24 (192 << 3)");
	is_u(hybla_rho2_7ls(192), 576U << 7, "rho = 24: rho^2 = 576 (<< 7)");
	is_u(hybla_rho_3ls(srtt_us_of_ms(10), 25), 8, "10 ms: rho = 1");
	is_u(hybla_rho_3ls(srtt_us_of_ms(25), 25), 8, "RTT = rtt0: rho = 1");
	is_u(hybla_rho_3ls(srtt_us_of_ms(37.5), 25), 12, "37.5 ms: rho = 1.5 (12 << 3)");
	is_u(hybla_rho_3ls(0, 25), 8, "no RTT sample yet: rho = 1");
	is_u(hybla_rho_3ls(srtt_us_of_ms(600), 0), 4800, "rtt0 = 0 is taken as 1 ms (no division by zero)");
	is_u(hybla_rho_3ls(0xffffffffU, 1), HYBLA_RHO_3LS_MAX, "rho << 3 capped where rho^2 << 7 would overflow");
	ok(2ULL * HYBLA_RHO_3LS_MAX * HYBLA_RHO_3LS_MAX <= 0xffffffffULL &&
	   2ULL * (HYBLA_RHO_3LS_MAX + 1) * (HYBLA_RHO_3LS_MAX + 1) > 0xffffffffULL,
	   "the cap is the largest rho_3ls whose rho^2 << 7 fits 32 bits");
}

static void test_ss_increment(void)
{
	int bad = 0, r3;

	/* rho from 1 to 16 in steps of 1/8: 2^rho - 1, the table floors 2^frac */
	for (r3 = 8; r3 <= 16 * 8; r3++) {
		double rho = r3 / 8.0, exact = pow(2.0, rho) - 1.0;
		double got = hybla_ss_inc_7ls(r3) / 128.0;
		/* floor of 2^frac << 7 costs < 1/128 of 2^frac, times 2^int */
		double bound = pow(2.0, floor(rho)) / 128.0;

		if (got > exact + 1e-9 || exact - got >= bound) {
			bad++;
			diag("rho %.3f: got %.4f, 2^rho - 1 = %.4f", rho, got, exact);
		}
	}
	ok(!bad, "slow start: 2^rho - 1 for rho 1..16 in 1/8 steps, below by < 2^int(rho)/128 (%d off)", bad);
	is_u(hybla_ss_inc_7ls(8), 128, "rho = 1: one segment per ACK, as Reno");
	is_u(hybla_ss_inc_7ls(16), 3 * 128, "rho = 2: three segments per ACK");
	is_u(hybla_ss_inc_7ls(12), 2 * 181 - 128, "rho = 1.5: 2 * 181/128 - 1 = 1.828 (2^1.5 - 1 = 1.828)");
	is_u(hybla_ss_inc_7ls(192), (1U << 16) * 128 - 128, "rho = 24: 2^int capped at 2^16, as the kernel");
	is_u(hybla_ss_inc_7ls(HYBLA_RHO_3LS_MAX), (1U << 16) * hybla_fraction(HYBLA_RHO_3LS_MAX & 7) - 128,
	     "largest rho: fits 32 bits");
}

static void test_ca_increment(void)
{
	const __u32 r3s[] = { 8, 12, 16, 40, 100, 192, 280 };
	int bad = 0;
	unsigned int i;
	__u32 w;

	for (i = 0; i < sizeof(r3s) / sizeof(r3s[0]); i++) {
		double rho = r3s[i] / 8.0;

		for (w = 1; w <= 20000; w++) {
			double exact = rho * rho / w;
			double got = hybla_ca_inc_7ls(hybla_rho2_7ls(r3s[i]), w) / 128.0;

			/* rounded down to 1/128 of a segment */
			if (got > exact + 1e-9 || exact - got >= 1.0 / 128)
				bad++;
		}
	}
	ok(!bad, "CA: rho^2/W for rho 1..35 and W 1..20000, below by < 1/128 segment (%d off)", bad);
	is_u(hybla_ca_inc_7ls(576U << 7, 100), (576U << 7) / 100, "rho = 24, W = 100: 5.76 segments per ACK");
	is_u(hybla_ca_inc_7ls(128, 0), 128, "W = 0 is taken as 1 (no division by zero)");
}

/*
 * The module's rules applied ACK by ACK, written plainly (with the loop) as
 * the reference for the loop-free hybla_window_grow().
 */
static void model_one_ack(struct hybla_window *w, __u32 ssthresh, __u32 r3, __u32 clamp)
{
	__u32 rho = r3 >> 3, inc, odd;
	int ss = w->cwnd < ssthresh;

	if (ss) {
		inc = (1U << (rho < 16 ? rho : 16)) * hybla_fraction(r3 & 7) - 128;
	} else {
		inc = hybla_rho2_7ls(r3) / w->cwnd;
		if (inc < 128)
			w->cnt++;
	}
	odd = inc % 128;
	w->cwnd += inc / 128;
	w->cents += odd;
	while (w->cents >= 128) {
		w->cwnd++;
		w->cents -= 128;
		w->cnt = 0;
	}
	if (inc == 0 && odd == 0 && w->cnt >= w->cwnd) {
		w->cwnd++;
		w->cnt = 0;
	}
	if (ss && w->cwnd > ssthresh)
		w->cwnd = ssthresh;
	if (w->cwnd > clamp)
		w->cwnd = clamp;
}

static void test_grow_matches_module(void)
{
	const __u32 r3s[] = { 8, 9, 12, 15, 16, 23, 40, 99, 192 };
	int mismatches = 0, cents_bad = 0, steps = 0;
	unsigned int i;

	srand(42);
	for (i = 0; i < sizeof(r3s) / sizeof(r3s[0]); i++) {
		struct hybla_window a = { .cwnd = 2 + rand() % 300, .cnt = 0, .cents = rand() % 128 };
		struct hybla_window b = a;
		__u32 ssthresh = 2 + rand() % 1000;
		int k;

		for (k = 0; k < 200000; k++) {
			steps++;
			hybla_window_grow(&a, ssthresh, r3s[i], hybla_rho2_7ls(r3s[i]), 1, HYBLA_CWND_CLAMP);
			model_one_ack(&b, ssthresh, r3s[i], HYBLA_CWND_CLAMP);
			if (a.cwnd != b.cwnd || a.cnt != b.cnt || a.cents != b.cents) {
				if (!mismatches++)
					diag("rho_3ls %u step %d: got cwnd %u cnt %u cents %u, module %u %u %u",
					     r3s[i], k, a.cwnd, a.cnt, a.cents, b.cwnd, b.cnt, b.cents);
				b = a;
			}
			cents_bad += a.cents >= 128;
			/* now and then a loss: halve, as the stack would */
			if (rand() % 5000 == 0) {
				ssthresh = a.cwnd / 2 > 2 ? a.cwnd / 2 : 2;
				a.cwnd = b.cwnd = ssthresh;
			}
		}
	}
	ok(!mismatches, "one ACK at a time (abc=0): identical to the module's rules with its while loop (%d steps, %d off)",
	   steps, mismatches);
	ok(!cents_bad, "carried fraction stays below one segment (<< 7 < 128)");
}

/* Reno as the stack has it: tcp_slow_start() then tcp_cong_avoid_ai(). */
static void reno_ack(__u32 *cwnd, __u32 *cnt, __u32 ssthresh, __u32 acked)
{
	if (*cwnd < ssthresh) {
		__u32 c = *cwnd + acked < ssthresh ? *cwnd + acked : ssthresh;

		acked -= c - *cwnd;
		*cwnd = c;
		if (!acked)
			return;
	}
	if (*cnt >= *cwnd) {
		*cnt = 0;
		(*cwnd)++;
	}
	*cnt += acked;
	if (*cnt >= *cwnd) {
		__u32 delta = *cnt / *cwnd;

		*cnt -= delta * *cwnd;
		*cwnd += delta;
	}
}

/* cwnd after 'rtts' windows of ACKs of 'per_ack' segments each */
static void run_rtts(int hybla, __u32 r3, __u32 *cwnd, __u32 ssthresh, __u32 per_ack, int rtts)
{
	struct hybla_window w = { .cwnd = *cwnd };
	__u32 cnt = 0;
	int r;

	for (r = 0; r < rtts; r++) {
		__u32 window = hybla ? w.cwnd : *cwnd, acked;

		for (acked = 0; acked < window; acked += per_ack) {
			if (hybla)
				hybla_window_grow(&w, ssthresh, r3, hybla_rho2_7ls(r3), per_ack,
						  HYBLA_CWND_CLAMP);
			else
				reno_ack(cwnd, &cnt, ssthresh, per_ack);
		}
	}
	if (hybla)
		*cwnd = w.cwnd;
}

static void test_reno_at_rho_1(void)
{
	__u32 per_ack, start;

	for (per_ack = 1; per_ack <= 2; per_ack++) {
		__u32 h = 10, r = 10;

		run_rtts(1, 8, &h, INF_SSTHRESH, per_ack, 5);
		run_rtts(0, 8, &r, INF_SSTHRESH, per_ack, 5);
		is_u(h, r, "rho = 1, abc, %u segment(s) per ACK: slow start from 10 over 5 RTTs as Reno (%u)",
		     per_ack, r);
	}
	/*
	 * CA: Reno adds 1 per RTT.  Hybla at rho = 1 rounds 1/W per ACK down to
	 * a multiple of 1/128 (the module's rounding), so between W = 8 and
	 * 128 it adds floor(128/W) * W / 128 per RTT: 1 at W = 8, 16, 32, 64,
	 * 0.5 just above 64; from W = 128 the module's guard makes it Reno.
	 */
	for (start = 10; start <= 400; start *= 2) {
		__u32 h = start, r = start;
		double hr, rr;

		run_rtts(1, 8, &h, 2, 2, 40);
		run_rtts(0, 8, &r, 2, 2, 40);
		hr = (h - start) / 40.0;
		rr = (r - start) / 40.0;
		ok(fabs(rr - 1.0) < 0.05 && hr <= rr + 0.05 &&
		   (start >= 160 ? fabs(hr - rr) < 0.05 : hr >= 0.5),
		   "rho = 1, CA from W = %u, delayed ACKs: %.2f segments/RTT vs Reno %.2f", start, hr, rr);
	}
}

static void test_growth_at_rho_24(void)
{
	struct hybla_window w = { .cwnd = 24 };
	__u32 r3 = 192, r = 24, before;
	double per_rtt;

	/* slow start: the first ACK alone adds 2^16 - 1 (capped) */
	hybla_window_grow(&w, INF_SSTHRESH, r3, hybla_rho2_7ls(r3), 1, 0xffffffffU);
	is_u(w.cwnd, 24 + 65535, "rho = 24, slow start: one ACK adds 2^16 - 1 segments (the kernel's cap)");
	w.cwnd = 24;
	ok(hybla_window_grow(&w, INF_SSTHRESH, r3, hybla_rho2_7ls(r3), 1, HYBLA_CWND_CLAMP) == 1 &&
	   w.cwnd == HYBLA_CWND_CLAMP, "... and the 65535 clamp holds it, reported as a clamp");
	w = (struct hybla_window){ .cwnd = 24 };
	hybla_window_grow(&w, 1000, r3, hybla_rho2_7ls(r3), 40, HYBLA_CWND_CLAMP);
	is_u(w.cwnd, 1000, "slow start stops at ssthresh, even for a 40-segment ACK (no 32-bit overflow)");

	/* CA at W = 5000: rho^2 = 576 segments per RTT, vs 1 for Reno */
	w = (struct hybla_window){ .cwnd = 5000 };
	before = w.cwnd;
	run_rtts(1, r3, &w.cwnd, 2, 1, 1);
	per_rtt = w.cwnd - before;
	ok(per_rtt > 576 * 0.85 && per_rtt < 576 * 1.01,
	   "rho = 24, CA at W = 5000: +%.0f segments in one RTT (rho^2 = 576, compounding makes it less)", per_rtt);
	r = 5000;
	run_rtts(0, r3, &r, 2, 1, 1);
	is_u(r - 5000, 1, "... Reno: +1");

	/* per ACK, abc: 2 segments acked count as two ACKs */
	w = (struct hybla_window){ .cwnd = 1000 };
	hybla_window_grow(&w, 2, r3, hybla_rho2_7ls(r3), 2, HYBLA_CWND_CLAMP);
	is_u(w.cwnd * 128 + w.cents, 1000 * 128 + 2 * ((576U << 7) / 1000),
	     "CA, abc, 2 segments acked: 2 * rho^2/W (<< 7) added");
}

static void test_init_cwnd(void)
{
	is_u(hybla_init_cwnd(192, 10, 1, HYBLA_CWND_CLAMP), 24, "init at rho = 24: cwnd = rho");
	is_u(hybla_init_cwnd(8, 10, 1, HYBLA_CWND_CLAMP), 10, "init at rho = 1, keep_iw: the stack's IW10");
	is_u(hybla_init_cwnd(8, 10, 0, HYBLA_CWND_CLAMP), 1, "init at rho = 1, keep_iw=0: rho as the module");
	is_u(hybla_init_cwnd(HYBLA_RHO_3LS_MAX, 10, 1, HYBLA_CWND_CLAMP), HYBLA_RHO_3LS_MAX >> 3,
	     "init at the largest rho: below the clamp");
	is_u(hybla_init_cwnd(HYBLA_RHO_3LS_MAX, 10, 1, 100), 100, "init: clamped");
}

/* The largest of a tunable's range, from the table the loader checks against. */
#define PARAM_MAX(name, def, lo, hi, unit, doc) .name = (hi),

static void test_params(void)
{
	struct hybla_params p = { HYBLA_PARAMS(TCPCA_PARAM_INIT) };
	struct hybla_params hi = { HYBLA_PARAMS(PARAM_MAX) };
	__u32 srtts[] = { 8, 80000, 800000 * 8, 0xffffffffU };
	unsigned int i, bad = 0;

	is_u(p.rtt0, 25, "default rtt0 = 25 ms, the module's");
	ok(p.abc == 0 && p.keep_iw == 0, "defaults abc=0 keep_iw=0: the module's behaviour");
	/*
	 * rho at the largest rtt0 the loader accepts: rtt0 * 1000 must not
	 * wrap, or rho would come out huge instead of 1.
	 */
	for (i = 0; i < sizeof(srtts) / sizeof(srtts[0]); i++) {
		double want = floor(srtts[i] / (hi.rtt0 * 1000.0));
		__u32 got = hybla_rho_3ls(srtts[i], hi.rtt0);

		if (want < HYBLA_RHO_3LS_MIN)
			want = HYBLA_RHO_3LS_MIN;
		bad += got != (__u32)want;
	}
	ok(!bad, "rho at the largest rtt0 (%u ms) is exact for srtt up to 2^32 - 1", hi.rtt0);
	is_u(hybla_rho_3ls(0xffffffffU, 1), 4294967295U / 1000 < HYBLA_RHO_3LS_MAX ?
	     4294967295U / 1000 : HYBLA_RHO_3LS_MAX, "rho at the smallest rtt0 is capped, not wrapped");
}

int main(void)
{
	test_fraction_table();
	test_rho();
	test_ss_increment();
	test_ca_increment();
	test_grow_matches_module();
	test_reno_at_rho_1();
	test_growth_at_rho_24();
	test_init_cwnd();
	test_params();
	return done_testing();
}
