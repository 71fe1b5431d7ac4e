// SPDX-License-Identifier: GPL-2.0
/*
 * H-TCP arithmetic (include/htcp.h) against Leith & Shorten's closed form
 * (PFLDnet 2004/2005), in floating point:
 *
 *	alpha(D) = 1 for D <= D_L = 1 s, else 1 + 10 (D - D_L) + ((D - D_L)/2)^2
 *	alpha    = 2 (1 - beta) alpha(D) (RTTmin / 100 ms), the ratio in [0.1, 2]
 *	beta     = RTTmin / RTTmax within [0.5, 0.8]; 0.5 when the peak
 *	           throughput B moved, |B(k+1) - B(k)| / B(k) > 0.2
 *	cwnd    += alpha per RTT; on a loss cwnd *= beta
 *
 * The module evaluates these in integers (<< 7 fixed point, truncating), so
 * each check allows exactly the truncation the fixed point implies and no
 * more.  The recovery test integrates dW/dt = alpha(t) / RTT numerically and
 * compares with a per-ACK run of the header's functions.
 */
#include <math.h>
#include "tap.h"
#include "htcp.h"

static const struct htcp_params defaults = { HTCP_PARAMS(TCPCA_PARAM_INIT) };

/* The paper's alpha(Delta), Delta in s. */
static double paper_factor(double delta)
{
	double d = delta - 1.0;

	return delta <= 1.0 ? 1.0 : 1 + 10 * d + (d / 2) * (d / 2);
}

/* The paper's RTT scaling: RTTmin / 100 ms within [0.1, 2]. */
static double paper_rtt_ratio(double rtt_s)
{
	return fmin(fmax(rtt_s / 0.1, 0.1), 2.0);
}

static double paper_beta(double rtt_min, double rtt_max)
{
	return fmin(fmax(rtt_min / rtt_max, 0.5), 0.8);
}

/* The module's alpha(Delta) at HZ = 250, with its 32-bit (diff/2)^2. */
static __u32 module_factor_jiffies(__u32 diff)
{
	const __u32 hz = 250;
	__u32 f = 1;

	if (diff > hz) {
		diff -= hz;
		f = 1 + (10 * diff + ((diff / 2) * (diff / 2) / hz)) / hz;
	}
	return f;
}

static void test_params(void)
{
	is_u(defaults.use_rtt_scaling, 1, "use_rtt_scaling = 1 (the module's)");
	is_u(defaults.use_bandwidth_switch, 1, "use_bandwidth_switch = 1 (the module's)");
	ok(fabs(HTCP_BETA_MIN / 128.0 - 0.5) < 1e-12, "beta floor 64/128 = 0.5");
	ok(HTCP_BETA_MAX / 128.0 <= 0.8 && HTCP_BETA_MAX / 128.0 > 0.8 - 1.0 / 128,
	   "beta ceiling 102/128 = 0.797: 0.8 rounded down in 1/128");
}

static void test_factor(void)
{
	__u32 ms, bad = 0, n = 0;

	for (ms = 0; ms <= 3600000; ms += ms < 20000 ? 7 : 997) {
		double want = paper_factor(ms / 1000.0);
		__u32 got = htcp_calc_factor(ms);

		n++;
		/*
		 * the integer divisions truncate: the last one by up to 1, and
		 * (D - 1)/2 in whole ms by up to (D - 1)/2e6 (D in ms)
		 */
		if (got > want + 1e-6 || got < want - 1 - (ms / 2e6) - 1e-6) {
			if (bad++ < 5)
				diag("Delta %u ms: alpha(Delta) %u, paper %.3f", ms, got, want);
		}
	}
	ok(!bad, "alpha(Delta) = 1 + 10 (D - 1) + ((D - 1)/2)^2, truncated, D = 0..3600 s (%u points, %u off)",
	   n, bad);
	is_u(htcp_calc_factor(1000), 1, "D = 1 s: 1 (Reno's increase until D_L)");
	is_u(htcp_calc_factor(2000), 11, "D = 2 s: 1 + 10 + 0.25 -> 11");
	is_u(htcp_calc_factor(5000), 45, "D = 5 s: 1 + 40 + 4 = 45");
	is_u(htcp_calc_factor(11000), 126, "D = 11 s: 1 + 100 + 25 = 126");
	/* the module at HZ=250 wraps (diff/2)^2 past 2^32 after 524 s */
	{
		__u32 ours = htcp_calc_factor(600000), mod = module_factor_jiffies(600 * 250);
		double want = paper_factor(600);

		ok(fabs(ours - want) <= 1, "D = 600 s: %u, the paper's %.0f (no wrap)", ours, want);
		ok(mod < want / 2, "... where the module's 32-bit arithmetic has wrapped to %u", mod);
	}
	is_u(htcp_calc_factor(0xffffffffU), HTCP_FACTOR_MAX, "capped at 2^24 (D > 2.3 h)");
	ok(htcp_calc_factor(8100000) < HTCP_FACTOR_MAX && htcp_calc_factor(8200000) == HTCP_FACTOR_MAX,
	   "the cap is reached between 2.25 and 2.28 h without a loss");
}

/* alpha << 7 against 2 (1 - beta) alpha(D) (RTTmin / 100 ms). */
static void test_alpha(void)
{
	static const __u32 rtts_us[] = { 2000, 10000, 20000, 50000, 80000, 99000, 100000,
					 101000, 120000, 150000, 200000, 300000, 1000000 };
	static const __u32 deltas_ms[] = { 500, 3000, 11000, 31000 };
	struct htcp_params noscale = defaults;
	unsigned int i, j, bad = 0, n = 0;
	__u32 beta;

	/* without RTT scaling: exactly 2 (1 - beta) alpha(D) in 1/128 */
	noscale.use_rtt_scaling = 0;
	for (beta = HTCP_BETA_MIN; beta <= HTCP_BETA_MAX; beta++)
		for (j = 0; j < sizeof(deltas_ms) / sizeof(deltas_ms[0]); j++) {
			double want = 2 * (1 - beta / 128.0) * htcp_calc_factor(deltas_ms[j]);
			__u32 got = htcp_calc_alpha(deltas_ms[j], 100000, beta, &noscale);

			n++;
			bad += fabs(got / 128.0 - want) > 1e-9;
		}
	ok(!bad, "no RTT scaling: alpha = 2 (1 - beta) alpha(D) exactly, beta 0.5..0.8 (%u cases)", n);
	is_u(htcp_calc_alpha(0, 0, HTCP_BETA_MIN, &defaults), 128,
	     "beta 0.5, D < 1 s, no RTT yet: alpha = 1.0 (Reno)");
	is_u(htcp_calc_alpha(0, 100000, 102, &noscale), 2 * 26,
	     "beta 0.8: alpha = 2 x 0.2 = 0.4 segments/RTT (friendly to Reno at that beta)");

	/*
	 * RTT scaling: the module's ratio is 8 / floor(8 x 100 ms / RTTmin), so
	 * it is within 1/(s - 1) (s = 8 x 100 ms / RTTmin) above the paper's;
	 * the scaled alpha(D) is truncated, and kept at least 1 (the paper has
	 * no such floor: at RTTmin 10 ms and D < 1 s it would be 0.1).
	 */
	bad = n = 0;
	for (i = 0; i < sizeof(rtts_us) / sizeof(rtts_us[0]); i++)
		for (j = 0; j < sizeof(deltas_ms) / sizeof(deltas_ms[0]); j++) {
			double r = rtts_us[i] / 1e6, s = 0.8 / r;
			double want = fmax(paper_factor(deltas_ms[j] / 1000.0) * paper_rtt_ratio(r), 1);
			double got = htcp_calc_alpha(deltas_ms[j], rtts_us[i], HTCP_BETA_MIN, &defaults) / 128.0;
			double tol = (s > 4 && s < 80 ? 1 / (s - 1) : 0) + 1.0 / paper_factor(deltas_ms[j] / 1000.0);

			n++;
			if (got < want * (1 - 1e-9) - 1.0 || got > want * (1 + tol) + 1e-9) {
				if (bad++ < 5)
					diag("RTT %u us D %u ms: alpha %.3f, paper %.3f", rtts_us[i], deltas_ms[j], got, want);
			}
		}
	ok(!bad, "RTT scaling: alpha = alpha(D) RTTmin / 100 ms, ratio in [0.1, 2], within the truncation (%u cases)", n);
	is_u(htcp_calc_alpha(11000, 100000, HTCP_BETA_MIN, &defaults), 126 * 128,
	     "RTTmin 100 ms: no change (126 segments/RTT at D = 11 s)");
	is_u(htcp_calc_alpha(11000, 200000, HTCP_BETA_MIN, &defaults), 2 * 126 * 128,
	     "RTTmin 200 ms: twice");
	is_u(htcp_calc_alpha(11000, 1000000, HTCP_BETA_MIN, &defaults), 2 * 126 * 128,
	     "RTTmin 1 s: capped at twice");
	is_u(htcp_calc_alpha(11000, 10000, HTCP_BETA_MIN, &defaults), (126 * 8 / 80) * 128,
	     "RTTmin 10 ms: a tenth (truncated)");
	/* past the factor's cap, RTT scaling doubles it: 2 x 2^25 x 64 = 2^32 */
	is_u(htcp_calc_alpha(3 * 3600 * 1000, 250000, HTCP_BETA_MIN, &defaults), HTCP_ALPHA_MAX,
	     "RTTmin 250 ms, beta 0.5, 3 h without a loss: alpha saturates (not 2^32 wrapped to 1.0)");
	ok(htcp_calc_alpha(3 * 3600 * 1000, 250000, HTCP_BETA_MIN, &defaults) >=
	   htcp_calc_alpha(2 * 3600 * 1000, 250000, HTCP_BETA_MIN, &defaults),
	   "RTTmin 250 ms: alpha never falls as Delta grows (2 h -> 3 h)");
}

static void test_beta(void)
{
	__u32 mn, mx, bad = 0, n = 0, ms, rule;

	for (mn = 10001; mn <= 1000000; mn += 1 + mn / 7)
		for (mx = mn; mx <= 4 * mn; mx += 1 + mn / 13) {
			double want = paper_beta(mn, mx);
			__u32 sw = 1, got = htcp_calc_beta(mn, mx, 0, &sw, &rule);

			n++;
			/* floor in 1/128; the 0.8 ceiling is 102/128 */
			if (got / 128.0 > want + 1e-12 || got / 128.0 < want - 1.0 / 128 || !sw ||
			    rule != HTCP_BETA_FROM_RTT) {
				if (bad++ < 5)
					diag("RTT %u..%u us: beta %u/128, paper %.4f", mn, mx, got, want);
			}
		}
	ok(!bad, "beta = RTTmin/RTTmax within [0.5, 0.8], to 1/128 (%u pairs, %u off)", n, bad);
	ms = 1;
	is_u(htcp_calc_beta(100000, 140000, 0, &ms, &rule), 91, "100/140 ms: beta 91/128 = 0.711");
	ms = 0;
	is_u(htcp_calc_beta(100000, 140000, 0, &ms, &rule), HTCP_BETA_MIN, "first event (modeswitch off): 0.5 ...");
	is_u(ms, 1, "... and modeswitch on for the next");
	is_u(rule, HTCP_BETA_MODESWITCH, "... by the modeswitch rule");
	ms = 1;
	is_u(htcp_calc_beta(10000, 11000, 0, &ms, &rule), HTCP_BETA_MIN, "RTTmin 10 ms: 0.5 (too short to trust)");
	ms = 1;
	is_u(htcp_calc_beta(100000, 0, 0, &ms, &rule), HTCP_BETA_MIN, "no RTTmax yet: 0.5");
	ms = 1;
	is_u(htcp_calc_beta(100000, 110000, 1, &ms, &rule), HTCP_BETA_MIN, "bandwidth moved: 0.5 ...");
	is_u(ms, 0, "... and modeswitch off");
	is_u(rule, HTCP_BETA_BW_SWITCH, "... by the bandwidth switch");
}

/* The switch fires when |B(k+1) - B(k)| / B(k) > 0.2. */
static void test_bandwidth_switch(void)
{
	__u32 old, bad = 0, n = 0;
	int k;

	for (old = 100; old <= 10000000; old += 1 + old / 3)
		for (k = 0; k <= 300; k++) {
			__u32 mx = (__u32)((__u64)old * k / 200);
			int want = fabs(((double)mx - old) / old) > 0.2 + 1e-12;

			n++;
			bad += htcp_bw_moved(mx, old) != want;
		}
	ok(!bad, "bandwidth switch: fires iff |B - B_old| / B_old > 0.2 (%u cases, %u off)", n, bad);
	ok(!htcp_bw_moved(0, 0), "no throughput yet: no switch");
	ok(htcp_bw_moved(1, 0), "from none to some: a switch");
	is_u(htcp_calc_bw(1000, 100000), 10000, "1000 segments in 100 ms: 10000/s");
	is_u(htcp_calc_bw(5, 0), 0, "zero interval: 0, no division");
	is_u(htcp_calc_bi(1000, 2000), 1250, "Bi = (3 Bi + sample) / 4");
}

static void test_rtt_tracking(void)
{
	is_u(htcp_calc_max_rtt(0, 100000, 100000), 100000, "RTTmax starts at RTTmin");
	is_u(htcp_calc_max_rtt(100000, 100000, 119000), 119000, "follows a rise of 19 ms");
	is_u(htcp_calc_max_rtt(100000, 100000, 121000), 100000, "ignores a jump of 21 ms (an outlier)");
	is_u(htcp_calc_max_rtt(150000, 100000, 120000), 150000, "never falls with a sample");
	is_u(htcp_fade_max_rtt(200000, 100000), 195000, "each event: RTTmin + 0.95 (RTTmax - RTTmin)");
	is_u(htcp_fade_max_rtt(90000, 100000), 90000, "RTTmax below RTTmin: left alone");
	is_u(htcp_calc_ssthresh(1000, 91), 710, "ssthresh = cwnd x 91/128");
	is_u(htcp_calc_ssthresh(3, 64), 2, "never below 2");
	is_u(htcp_calc_ssthresh(100000000, 102), 79687500, "no overflow at 1e8 segments");
}

/*
 * After a loss at w: time back to 90% of w, per-ACK run of the header's
 * functions (the module's cong_avoid rule) against dW/dt = alpha(t) / RTT.
 */
static double paper_recovery(double w, double beta, double rtt)
{
	double t = 0, cw = beta * w, dt = 1e-4;

	while (cw < 0.9 * w && t < 1000) {
		double a = 2 * (1 - beta) * paper_factor(t) * paper_rtt_ratio(rtt);

		cw += a / rtt * dt;
		t += dt;
	}
	return t;
}

static double sim_recovery(__u32 w, __u32 beta, __u32 rtt_us)
{
	__u32 cwnd = htcp_calc_ssthresh(w, beta), cnt = 0, alpha;
	double t = 0;

	/* as after ssthresh() when Delta restarts: alpha from D = 0 */
	alpha = htcp_calc_alpha(0, rtt_us, beta, &defaults);
	while (cwnd < 0.9 * w && t < 1000) {
		t += rtt_us / 1e6 / cwnd;	/* one ACK of one segment */
		if (htcp_ai_due(cnt, alpha, cwnd)) {
			cwnd++;
			cnt = 0;
			alpha = htcp_calc_alpha((__u32)(t * 1000), rtt_us, beta, &defaults);
		} else {
			cnt++;
		}
	}
	return t;
}

static void test_recovery(void)
{
	static const struct { __u32 w, beta, rtt_us; } c[] = {
		{ 1000, 64, 100000 }, { 1000, 91, 100000 }, { 1000, 102, 100000 },
		{ 10000, 80, 100000 }, { 10000, 102, 50000 }, { 100000, 64, 200000 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		double want = paper_recovery(c[i].w, c[i].beta / 128.0, c[i].rtt_us / 1e6);
		double got = sim_recovery(c[i].w, c[i].beta, c[i].rtt_us);
		double reno = (0.9 - 0.5) * c[i].w * c[i].rtt_us / 1e6;

		/* integer alpha, +1 ACK per increase: a little slower, within 10% */
		ok(got >= want * 0.97 && got <= want * 1.10,
		   "w %u beta %u/128 RTT %u ms: 90%% regained in %.2f s, paper %.2f s (Reno %.0f s)",
		   c[i].w, c[i].beta, c[i].rtt_us / 1000, got, want, reno);
	}
}

/* At most one segment per ACK, however large alpha. */
static void test_one_per_ack(void)
{
	__u32 cwnd = 1000, cnt = 0, acks, alpha = htcp_calc_alpha(3600000, 200000, 64, &defaults);

	for (acks = 0; acks < 1000; acks++) {
		if (htcp_ai_due(cnt, alpha, cwnd)) {
			cwnd++;
			cnt = 0;
		} else {
			cnt++;
		}
	}
	ok(cwnd <= 1500 && cwnd >= 1400,
	   "alpha of %u segments/RTT: cwnd 1000 -> %u in 1000 ACKs (at most +1 per ACK, with the count's 1-ACK lag)",
	   alpha >> 7, cwnd);
}

int main(void)
{
	test_params();
	test_factor();
	test_alpha();
	test_beta();
	test_bandwidth_switch();
	test_rtt_tracking();
	test_recovery();
	test_one_per_ack();
	return done_testing();
}
