// SPDX-License-Identifier: GPL-2.0
/*
 * include/illinois.h against Liu, Basar & Srikant's definitions in floating
 * point: alpha(da) = k1 / (k2 + da) between alpha_max = 10 (da <= d1 =
 * dm/100) and alpha_min = 0.3 (da = dm), beta(da) linear from 1/8 at
 * d2 = dm/10 to 1/2 at d3 = 8 dm/10, the additive increase of alpha
 * segments per RTT, ssthresh = (1 - beta) cwnd, and the module's hysteresis
 * (theta low-delay RTTs before alpha returns to alpha_max).
 */
#include <math.h>
#include <stdio.h>
#include "tap.h"
#include "illinois.h"

#define AMAX	10.0
#define AMIN	0.3
#define BMIN	0.125
#define BMAX	0.5

/* The paper's alpha, from k1 and k2 as it defines them. */
static double paper_alpha(double da, double dm)
{
	double d1 = dm / 100, k1, k2;

	if (da <= d1)
		return AMAX;
	k1 = (dm - d1) * AMIN * AMAX / (AMAX - AMIN);
	k2 = (dm - d1) * AMIN / (AMAX - AMIN) - d1;
	return k1 / (k2 + da);
}

static double paper_beta(double da, double dm)
{
	double d2 = dm / 10, d3 = 8 * dm / 10;

	if (da <= d2)
		return BMIN;
	if (da >= d3)
		return BMAX;
	return BMIN + (BMAX - BMIN) * (da - d2) / (d3 - d2);
}

static void test_alpha_curve(void)
{
	static const __u32 dms[] = { 1000, 20000, 100000, 333333, ILLINOIS_RTT_MAX };
	static const double fracs[] = { 0, 0.005, 0.01, 0.011, 0.02, 0.05, 0.1, 0.2, 0.35, 0.5,
					0.8, 0.99, 1 };
	unsigned int i, j;

	for (i = 0; i < sizeof(dms) / sizeof(dms[0]); i++) {
		for (j = 0; j < sizeof(fracs) / sizeof(fracs[0]); j++) {
			__u32 dm = dms[i], da = (__u32)(fracs[j] * dm);
			double want = paper_alpha(da, dm);
			double got = illinois_alpha_curve(da, dm) / 128.0;
			/*
			 * 1/128 of truncation, and the module's alpha_min is
			 * 38/128 = 0.297, not 0.3: up to 1.1 % lower where the
			 * curve nears it.  d1 = dm/100 truncated: 1 us.
			 */
			double tol = 1 / 128.0 + 0.011 * want + (dm < 10000 ? 0.05 * want : 0);

			ok(fabs(got - want) <= tol,
			   "alpha(da = %u us, dm = %u us) = %.4f, paper %.4f", da, dm, got, want);
		}
	}
	is_u(illinois_alpha_curve(0, 100000), 1280, "no queueing delay: alpha 10 (1280/128)");
	is_u(illinois_alpha_curve(100000, 100000), 38, "da = dm: alpha_min, 38/128");
	is_u(illinois_alpha_curve(1, 0), 0, "da 1 above dm 0 (impossible in use): 0, as the module, no division by zero");
}

static void test_beta_curve(void)
{
	static const __u32 dms[] = { 1000, 20000, 100000, 333333, ILLINOIS_RTT_MAX };
	static const double fracs[] = { 0, 0.05, 0.1, 0.101, 0.2, 0.3, 0.45, 0.6, 0.7, 0.79, 0.8,
					0.9, 1 };
	unsigned int i, j;

	for (i = 0; i < sizeof(dms) / sizeof(dms[0]); i++) {
		for (j = 0; j < sizeof(fracs) / sizeof(fracs[0]); j++) {
			__u32 dm = dms[i], da = (__u32)(fracs[j] * dm);
			double want = paper_beta(da, dm), got = illinois_beta(da, dm) / 64.0;

			ok(fabs(got - want) <= 1 / 64.0 + 1e-3,
			   "beta(da = %u us, dm = %u us) = %.4f, paper %.4f", da, dm, got, want);
		}
	}
	is_u(illinois_beta(0, 0), 8, "dm 0: beta_min");
	is_u(illinois_beta(1, 2), 32, "d3 <= d2 (dm 2 us): beta_max");
}

/* The hysteresis of alpha: theta RTTs in a row below d1 before alpha_max again. */
static void test_alpha_hysteresis(void)
{
	struct illinois_alpha_state s = { .alpha = 1280, .rtt_above = 0, .rtt_low = 0 };
	const __u32 dm = 100000, theta = 5;
	__u32 a, i;

	is_u(illinois_alpha(&s, 0, dm, theta), 1280, "never above d1: alpha_max");
	a = illinois_alpha(&s, 50000, dm, theta);
	s.alpha = a;
	ok(a < 128 && s.rtt_above == 1, "half the largest delay: alpha %u/128 below 1, rtt_above set", a);
	for (i = 1; i < theta; i++)
		is_u(illinois_alpha(&s, 0, dm, theta), a, "low RTT %u of %u: alpha kept at %u", i, theta, a);
	is_u(illinois_alpha(&s, 0, dm, theta), 1280, "low RTT %u: alpha_max again", theta);
	ok(s.rtt_above == 0 && s.rtt_low == 0, "... and the hysteresis starts over");
	s.alpha = illinois_alpha(&s, 50000, dm, theta);
	illinois_alpha(&s, 0, dm, theta);
	illinois_alpha(&s, 0, dm, theta);
	illinois_alpha(&s, 50000, dm, theta);
	is_u(s.rtt_low, 2, "a high RTT in between does not reset the count (as the module)");
	s.rtt_low = 255;
	s.rtt_above = 1;
	s.alpha = 77;
	is_u(illinois_alpha(&s, 0, dm, 0), 1280, "theta 0: the first low RTT (count wraps to 0, as the u8) returns alpha_max");
}

/* Additive increase: cwnd ACKs of one segment per RTT, growth per RTT = alpha. */
static double ai_per_rtt(__u32 cwnd, __u32 alpha, __u32 rtts, __u32 per_ack)
{
	struct illinois_window w = { .cwnd = cwnd, .cwnd_cnt = 0 };
	__u32 r, a;

	for (r = 0; r < rtts; r++)
		for (a = 0; a < w.cwnd / per_ack; a++)
			illinois_ai(&w, per_ack, alpha, ~0U);
	return (double)(w.cwnd - cwnd) / rtts;
}

static void test_ai(void)
{
	static const __u32 alphas[] = { 38, 64, 128, 300, 640, 1280 };
	static const __u32 windows[] = { 100, 500, 3000 };
	unsigned int i, j;

	for (i = 0; i < sizeof(alphas) / sizeof(alphas[0]); i++) {
		for (j = 0; j < sizeof(windows) / sizeof(windows[0]); j++) {
			double want = alphas[i] / 128.0, got = ai_per_rtt(windows[j], alphas[i], 20, 1);

			/* a step needs ceil(128 cwnd / alpha) ACKs: a little below alpha */
			ok(got <= want + 1e-9 && got >= want * 0.9 - 0.02,
			   "alpha %.3f from cwnd %u: %.3f segments per RTT", want, windows[j], got);
		}
	}
	{
		double got = ai_per_rtt(500, 1280, 20, 2);

		ok(fabs(got - 10) < 1, "alpha 10 behind delayed ACKs (2 segments each): %.2f per RTT", got);
	}
	{
		struct illinois_window w = { .cwnd = 100, .cwnd_cnt = 9 };

		illinois_ai(&w, 1, 1280, 100);
		ok(w.cwnd == 100 && w.cwnd_cnt == 0, "the clamp holds (cwnd %u)", w.cwnd);
	}
}

static void test_ssthresh(void)
{
	static const __u32 windows[] = { 2, 3, 10, 15, 64, 100, 863, 5000, 100000 };
	static const __u32 betas[] = { 8, 16, 20, 32 };
	unsigned int i, j;

	for (i = 0; i < sizeof(windows) / sizeof(windows[0]); i++) {
		for (j = 0; j < sizeof(betas) / sizeof(betas[0]); j++) {
			__u32 w = windows[i], b = betas[j];
			double want = fmax(w * (1 - b / 64.0), 2);
			__u32 got = illinois_calc_ssthresh(w, b);

			/* the module truncates the decrease: ssthresh rounds up */
			ok(got >= want - 1e-9 && got < want + 1, "cwnd %u, beta %u/64: ssthresh %u, (1 - beta) cwnd = %.2f",
			   w, b, got, want);
		}
	}
	/* the paper's two ends, with its numbers */
	is_u(illinois_calc_ssthresh(800, illinois_beta(0, 100000)), 700,
	     "empty queue: beta 1/8, 800 -> 700 (0.875)");
	is_u(illinois_calc_ssthresh(800, illinois_beta(90000, 100000)), 400,
	     "queue near its largest: beta 1/2, 800 -> 400");
}

static void test_samples(void)
{
	is_u(illinois_rtt_sample(100000), 100000, "a 100 ms sample is kept");
	is_u(illinois_rtt_sample(5000000), ILLINOIS_RTT_MAX, "a 5 s sample is capped at 3.36 s");
	ok((__u64)ILLINOIS_RTT_MAX * ILLINOIS_ALPHA_MAX <= 0xffffffffULL,
	   "the cap keeps the module's u32 product dm * alpha_max from wrapping");
	is_u(illinois_avg_delay(3 * 100500ULL, 3, 100000), 500, "da: average 100.5 ms over a 100 ms base");
	is_u(illinois_avg_delay(0, 0, 100000), 0, "no sample: da 0, no division by zero");
}

static void test_check_params(void)
{
	struct illinois_params p = { .win_thresh = 15, .theta = 5 };

	ok(illinois_check_params((const __u32 *)&p) == 0, "defaults are consistent");
	is_u(sizeof(struct illinois_params), 8, "two __u32 tunables");
}

int main(void)
{
	test_alpha_curve();
	test_beta_curve();
	test_alpha_hysteresis();
	test_ai();
	test_ssthresh();
	test_samples();
	test_check_params();
	return done_testing();
}
