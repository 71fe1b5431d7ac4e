// SPDX-License-Identifier: GPL-2.0
/*
 * include/cdg.h against Hayes & Armitage (IFIP Networking 2011) in floating
 * point: the back-off probability P = 1 - e^(-g/G) (the module's integer
 * e^-x, its factor form and the draw's frequency), the moving-window
 * gradient (rtt_latest - rtt_oldest over the window, extrapolated while it
 * fills), the effectual and tolerance readings of the sums, the back-off
 * and loss ssthresh with the shadow window, HyStart's thresholds, and the
 * PRR that stands in for tcp_enter_cwr (RFC 6937: one RTT of ACKs sends
 * ssthresh segments).
 */
#include <math.h>
#include <stdio.h>
#include "tap.h"
#include "cdg.h"

static const double two32 = 4294967295.0;

/* e^-x by the module's method must stay close to libm's over its range. */
static void test_nexp(void)
{
	static const __u32 ux[] = {
		0, 1, 100, 255, 256, 257, 1000, 2976, 3000, 10000, 65535, 100000,
		333333, 1000000, 2000000, 5000000, 10000000, 16777215,
	};
	double worst = 0;
	unsigned int i;
	__u32 x;

	for (i = 0; i < sizeof(ux) / sizeof(ux[0]); i++) {
		double want = exp(-(double)ux[i] * 1e-6), got = cdg_nexp(ux[i]) / two32;

		ok(fabs(got - want) < 2.5e-5, "nexp(%u): %.7f vs exp(-%.6f) = %.7f", ux[i], got,
		   ux[i] * 1e-6, want);
	}
	/* every 997th value up to the cut-off: at most 2.04e-5 (at 339139, seen exhaustively) */
	for (x = 0; x < (1U << 24); x += 997) {
		double e = fabs(cdg_nexp(x) / two32 - exp(-(double)x * 1e-6));

		if (e > worst)
			worst = e;
	}
	ok(worst < 2.5e-5, "nexp within %.2g of exp() over [0, 2^24) (every 997th)", worst);
	is_u(cdg_nexp(1U << 24), 0, "nexp: cut off at 2^24 us (e^-16.8 < 1e-7)");
	is_u(cdg_nexp(0xffffffffU), 0, "nexp: and beyond");
	ok(cdg_nexp(0) == 0xffffffffU, "nexp(0) = 1: no back-off without a gradient");
	for (x = 1, i = 1; x < (1U << 24); x = x * 3 + 1)
		i &= cdg_nexp(x) <= cdg_nexp(x - 1);
	ok(i, "nexp never rises with x (sampled)");
}

/*
 * The paper: P = 1 - exp(-g/G), g the window-smoothed gradient
 * (sum / window).  The module: 1 - exp(-sum * factor / 1e6), factor
 * 1e6 / (G * window): 42 at window 8 is G = 2976 us, the paper's 3 ms
 * within 0.8%.
 */
static void test_probability(void)
{
	static const __s32 sums[] = { 1, 50, 200, 1000, 2381, 5000, 23810, 100000 };
	const double window = 8, G = 1e6 / (42 * window);
	unsigned int i;

	ok(fabs(G - 3000) / 3000 < 0.01, "factor 42 at window 8 is G = %.0f us (paper: 3 ms)", G);
	for (i = 0; i < sizeof(sums) / sizeof(sums[0]); i++) {
		double g = sums[i] / window;
		double paper = 1 - exp(-g / G), paper3 = 1 - exp(-g / 3000);
		double got = cdg_backoff_ppm(sums[i], 42) / 1e6;

		ok(fabs(got - paper) < 3e-5,
		   "P[backoff] at a gradient sum of %d us (g = %.1f us/round): %.6f vs 1 - e^(-g/G) = %.6f",
		   sums[i], g, got, paper);
		ok(fabs(got - paper3) <= 0.01 * paper3 + 3e-5,
		   "... within 1%% of the paper's G = 3 ms (%.6f)", paper3);
	}
	is_u(cdg_backoff_ppm(1000, 0), 0, "factor 0: never back off");
}

/* The draw against a uniform sweep of 2^16 random numbers: its frequency is P. */
static void test_draw(void)
{
	static const __u32 sums[] = { 100, 1000, 5000, 30000 };
	unsigned int i, k;

	for (i = 0; i < sizeof(sums) / sizeof(sums[0]); i++) {
		double p = 1 - exp(-(double)sums[i] * 42 * 1e-6);
		unsigned int hits = 0;

		for (k = 0; k < 65536; k++)
			hits += cdg_backoff_draw((k << 16) | (k & 0xffff), sums[i], 42);
		ok(fabs(hits / 65536.0 - p) < 1.0 / 65536 * 2 + 2e-5,
		   "draw at sum %u us backs off in %.5f of a uniform sweep (P = %.5f)", sums[i],
		   hits / 65536.0, p);
	}
	ok(!cdg_backoff_draw(0xffffffffU, 0, 42), "gradient 0: even the largest draw keeps cwnd");
}

/* A tiny LCG, so that the sequences below are the same on every run. */
static __u32 lcg(__u32 *s)
{
	*s = *s * 1664525U + 1013904223U;
	return *s >> 8;
}

/*
 * Rounds of (min, max) RTTs through cdg_window_push.  The paper's gradient
 * over a window of a rounds is the change of the RTT across it,
 * rtt[n] - rtt[n - a] (the sum of the a latest gradients, the module
 * keeping the sum, not the mean); while fewer than a gradients exist the
 * module scales what there is by a / count.  g_min is used when it rises,
 * else g_max.
 */
static int run_window(__u32 window, int use_slots, unsigned int rounds, __u32 seed)
{
	static __s32 rmin[600], rmax[600];
	struct cdg_minmax slots[CDG_WINDOW_MAX] = { { 0, 0 } };
	struct cdg_window w = { { 0, 0 }, 0, 0 };
	unsigned int n, bad = 0;
	__u32 s = seed;

	rmin[0] = 20000 + lcg(&s) % 3000;
	rmax[0] = rmin[0] + lcg(&s) % 5000;
	for (n = 1; n <= rounds; n++) {
		struct cdg_minmax g;
		double want_min, want_max, want;
		unsigned int have = n < window ? n : window, back = n - have;
		__s32 got;

		/* a random walk, sometimes rising steadily (a queue), sometimes draining */
		rmin[n] = rmin[n - 1] + (__s32)(lcg(&s) % 2001) - (n % 50 < 25 ? 700 : 1300);
		if (rmin[n] < 1000)
			rmin[n] = 1000;
		rmax[n] = rmin[n] + (__s32)(lcg(&s) % 6000);
		g.min = rmin[n] - rmin[n - 1];
		g.max = rmax[n] - rmax[n - 1];
		got = cdg_window_push(&w, use_slots ? slots : NULL, window, &g);

		if (use_slots) {
			want_min = rmin[n] - rmin[back];
			want_max = rmax[n] - rmax[back];
		} else {
			want_min = rmin[n] - rmin[n - 1];
			want_max = rmax[n] - rmax[n - 1];
		}
		bad += g.min != (__s32)want_min || g.max != (__s32)want_max;
		want = want_min > 0 ? want_min : want_max;
		if (!use_slots && window > 1)
			want *= window;
		else if (have < window)
			want = want * window / have;
		bad += fabs(got - trunc(want)) > 0;
		if (bad == 1 && n) {
			diag("round %u: got %d (sums %d %d), want %.1f (%.0f %.0f)", n, got, g.min,
			     g.max, want, want_min, want_max);
			bad++;
		}
	}
	return bad == 0;
}

static void test_window(void)
{
	static const __u32 windows[] = { 1, 2, 8, 64, 256 };
	unsigned int i;

	for (i = 0; i < sizeof(windows) / sizeof(windows[0]); i++) {
		ok(run_window(windows[i], 1, 599, 7 + i),
		   "window %u: the sums are rtt[n] - rtt[n - window], extrapolated x window/n while filling (599 rounds)",
		   windows[i]);
		ok(run_window(windows[i], 0, 300, 11 + i),
		   "window %u without slots (a failed allocation): the round's gradient x window",
		   windows[i]);
	}
}

/* A steady ramp: every round 500 us more: the window-8 gradient is 4000 us. */
static void test_ramp(void)
{
	struct cdg_minmax slots[CDG_WINDOW_MAX] = { { 0, 0 } };
	struct cdg_window w = { { 0, 0 }, 0, 0 };
	__s32 got = 0;
	int k, first = 0;

	for (k = 1; k <= 20; k++) {
		struct cdg_minmax g = { 500, 500 };

		got = cdg_window_push(&w, slots, 8, &g);
		if (k == 1)
			first = got;
	}
	is_u(first, 4000, "ramp of 500 us/round: extrapolated from the first round to 8 x 500");
	is_u(got, 4000, "ramp of 500 us/round: window sum 8 x 500 once filled");
	ok(w.filled && w.tail == 20 % 8, "window filled, tail at round 20 mod 8 (%u)", w.tail);
	ok(fabs(cdg_backoff_ppm(got, 42) / 1e6 - (1 - exp(-0.168))) < 2.5e-5,
	   "P[backoff] at that ramp: %u ppm, 1 - e^(-4000 x 42e-6) = %.6f", cdg_backoff_ppm(got, 42),
	   1 - exp(-0.168));
}

static void test_signed(void)
{
	static const __s32 xs[] = { 0, 1, 31, 32, 33, 63, 64, 95, 96, 97, 1000, -1, -31, -32,
				    -33, -96, -97, -1000, 2147483647, -2147483647 };
	unsigned int i, bad = 0;

	for (i = 0; i < sizeof(xs) / sizeof(xs[0]); i++) {
		__s32 want = (__s32)lround(xs[i] / 64.0);	/* halves away from zero */

		bad += cdg_round_tolerance(xs[i]) != want;
		bad += cdg_sdiv(xs[i], 3) != xs[i] / 3 || cdg_sdiv(xs[i], 7) != xs[i] / 7;
	}
	ok(bad == 0, "rounding to 64 us halves away from zero (DIV_ROUND_CLOSEST); sdiv as C's /");
}

static void test_readings(void)
{
	struct cdg_minmax g;

	g = (struct cdg_minmax){ -32, 500 };
	ok(cdg_effectual(&g), "g_min -32 us: the back-off worked");
	g = (struct cdg_minmax){ 100, -40 };
	ok(cdg_effectual(&g), "g_max -40 us: the back-off worked");
	g = (struct cdg_minmax){ -31, -31 };
	ok(!cdg_effectual(&g), "-31 us both: not yet");

	g = (struct cdg_minmax){ 200, 0 };
	is_u(cdg_tolerance_state(&g, CDG_UNKNOWN), CDG_FULL, "min rising, max flat: full queue");
	g = (struct cdg_minmax){ 200, 300 };
	is_u(cdg_tolerance_state(&g, CDG_FULL), CDG_NONFULL, "both rising: not full");
	g = (struct cdg_minmax){ 0, -100 };
	is_u(cdg_tolerance_state(&g, CDG_FULL), CDG_NONFULL, "max falling: not full");
	g = (struct cdg_minmax){ 31, 500 };
	is_u(cdg_tolerance_state(&g, CDG_FULL), CDG_FULL, "min within 32 us of flat: state kept");
	g = (struct cdg_minmax){ 32, 31 };
	is_u(cdg_tolerance_state(&g, CDG_NONFULL), CDG_FULL, "min 32 us rounds to 1, max 31 to 0: full");
}

static void test_ssthresh(void)
{
	static const __u32 cwnds[] = { 2, 3, 4, 10, 100, 1000, 123457, 0x7fffffff };
	unsigned int i, bad = 0;
	__u32 shadow;

	for (i = 0; i < sizeof(cwnds) / sizeof(cwnds[0]); i++) {
		double want = floor(cwnds[i] * (724 / 1024.0));

		bad += cdg_backoff_ssthresh(cwnds[i], 724) != (want < 2 ? 2 : want);
	}
	ok(bad == 0, "back-off: ssthresh = floor(cwnd x 724/1024) (0.7071), at least 2");
	is_u(cdg_backoff_ssthresh(100, 2000), 100, "beta above 1024 counts as 1.0");

	shadow = 300;
	is_u(cdg_loss_ssthresh(100, CDG_UNKNOWN, &shadow, 724, 1, 0), 100,
	     "loss with a shadow of 300 (3 x cwnd): min(300/2, 100) = 100 > cwnd/2");
	is_u(shadow, 100, "... and the shadow is now that");
	shadow = 120;
	is_u(cdg_loss_ssthresh(100, CDG_UNKNOWN, &shadow, 724, 1, 0), 60,
	     "shadow 120: 60 > 50");
	shadow = 300;
	is_u(cdg_loss_ssthresh(100, CDG_UNKNOWN, &shadow, 724, 0, 0), 50,
	     "use_shadow=0: Reno's half");
	shadow = 300;
	is_u(cdg_loss_ssthresh(100, CDG_NONFULL, &shadow, 724, 1, 1), 100,
	     "use_tolerance and a queue not full: cwnd kept");
	is_u(shadow, 300, "... shadow untouched");
	is_u(cdg_loss_ssthresh(100, CDG_NONFULL, &shadow, 724, 1, 0), 100,
	     "tolerance off: the same state is a loss (shadow 150 > 100: cwnd)");
	is_u(cdg_loss_ssthresh(100, CDG_BACKOFF, &shadow, 724, 1, 0), 70,
	     "state BACKOFF: the delay cut");
	shadow = 0;
	is_u(cdg_loss_ssthresh(3, CDG_UNKNOWN, &shadow, 724, 1, 0), 2, "at least 2");
	is_u(cdg_shadow_grow(0xfffffff0U, 0x20), 0xfffffff0U, "shadow growth never wraps");
	is_u(cdg_shadow_grow(10, 1), 11, "shadow grows with cwnd");
}

static void test_hystart(void)
{
	is_u(cdg_train_us(20000), 10000, "ACK train: half the 20 ms base RTT");
	is_u(cdg_train_us(100), 125, "... at least 125 us");
	is_u(cdg_delay_thresh(20000), 22500, "delay: 9/8 of 20 ms");
	is_u(cdg_delay_thresh(80), 125, "... at least 125 us");
}

/*
 * PRR (RFC 6937): over the ACKs of one window after the reduction starts,
 * the sender sends ceil(ssthresh * delivered / prior_cwnd) in total and
 * ends with ssthresh in flight; below ssthresh it regrows by slow start.
 */
static void test_prr(void)
{
	const __u32 prior = 100, ss = 70;
	__u32 in_flight = prior, delivered = 0, out = 0, cwnd = prior, k, worst = 0;

	for (k = 0; k < prior; k++) {
		__u32 send;
		double ideal;

		in_flight--;
		delivered++;
		cwnd = cdg_prr_cwnd(ss, prior, delivered, out, in_flight, 1);
		send = cwnd > in_flight ? cwnd - in_flight : 0;
		out += send;
		in_flight += send;
		ideal = ceil((double)ss * delivered / prior);
		if (fabs(out - ideal) > worst)
			worst = (__u32)fabs(out - ideal);	/* SSRB's +1 near the end */
	}
	is_u(out, ss, "PRR: one window of ACKs sends ssthresh = 70 of prior 100");
	is_u(in_flight, ss, "... leaving 70 in flight");
	ok(worst <= 1, "... at every ACK within one segment of ceil(ssthresh x delivered / prior) sent");

	/* a burst of losses left 40 in flight, below ssthresh 70: regrow */
	is_u(cdg_prr_cwnd(70, 100, 10, 8, 40, 2), 40 + 3,
	     "below ssthresh: max(delivered - sent, newly delivered) + 1 (PRR-SSRB)");
	is_u(cdg_prr_cwnd(70, 100, 10, 0, 40, 2), 40 + 11, "... the 10 delivered and unsent + 1");
	is_u(cdg_prr_cwnd(70, 100, 10, 0, 69, 2), 70, "... never above ssthresh");
	is_u(cdg_prr_cwnd(70, 100, 1, 0, 99, 1), 100,
	     "first ACK, nothing sent yet: one segment may go");
}

static void test_params(void)
{
	__u32 v[7] = { 8, 724, 42, 3, 5, 1, 0 };
	unsigned int w, bad = 0;

	for (w = 1; w <= CDG_WINDOW_MAX; w++) {
		v[0] = w;
		bad += (cdg_check_params(v) == 0) != ((w & (w - 1)) == 0);
	}
	ok(bad == 0, "check: window 1..256 accepted exactly when a power of two");
	v[0] = 0;
	ok(cdg_check_params(v) != 0, "check: window 0 refused");
	ok(CDG_WINDOW_MAX == 256 && (CDG_WINDOW_MAX & (CDG_WINDOW_MAX - 1)) == 0,
	   "the compile-time window bound is the module's 256, a power of two (the index mask)");
	ok((__u32)(0.7071 * 1024) == 724, "backoff_beta's default is the module's 0.7071 * 1024");
}

int main(void)
{
	test_nexp();
	test_probability();
	test_draw();
	test_window();
	test_ramp();
	test_signed();
	test_readings();
	test_ssthresh();
	test_hystart();
	test_prr();
	test_params();
	return done_testing();
}
