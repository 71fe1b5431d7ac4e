// SPDX-License-Identifier: GPL-2.0
/*
 * include/dctcp.h against the closed forms of Alizadeh et al. (SIGCOMM
 * 2010, section 3.1; RFC 8257 section 3.3 and 3.4), computed here in
 * floating point:
 *
 *	alpha <- (1 - g) alpha + g F,	g = 1/16, F = marked / delivered
 *	cwnd  <- cwnd (1 - alpha / 2)
 *
 * The fixed point (alpha in 1/1024) may differ from them only by its
 * truncations: under one 1024th per window each way, so at most 16 1024ths
 * of accumulated drift at g = 1/16 (the errors decay as (1 - g)^n), as
 * long as alpha stays at or above 2^shift_g / 1024.  Below that the module
 * (and so include/dctcp.h) subtracts all of alpha each window: it snaps to 0
 * without marks, and under light marking stays at g F instead of growing to
 * F; both are asserted below as the module's behaviour, not the paper's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "dctcp.h"

#define G	(1.0 / 16)

static double paper_alpha(double alpha, double f, double g)
{
	return (1 - g) * alpha + g * f;
}

/* Hand-checked single windows: (alpha, delivered, marked, shift_g) -> alpha'. */
static void test_alpha_rows(void)
{
	static const struct { __u32 alpha, delivered, ce, shift_g, want; const char *what; } rows[] = {
		{ 1024, 100, 0, 4, 960, "no mark: alpha * 15/16 (1024 -> 960)" },
		{ 1024, 100, 100, 4, 1024, "every packet marked: alpha stays 1" },
		{ 0, 100, 50, 4, 32, "half marked from 0: g F = 1/32 (32/1024)" },
		{ 0, 100, 100, 4, 64, "all marked from 0: g = 1/16 (64/1024)" },
		{ 512, 10, 1, 4, 486, "512 * 15/16 + (1/10)/16: 480 + 6.4, truncated" },
		{ 15, 100, 0, 4, 0, "alpha below 2^shift_g, no mark: the module's snap to 0" },
		{ 16, 100, 0, 4, 15, "alpha = 2^shift_g, no mark: 16 - 1" },
		{ 0, 100, 0, 4, 0, "0 stays 0" },
		{ 700, 100, 30, 0, 307, "shift_g = 0 (g = 1): alpha = F = 0.3 exactly (307.2)" },
		{ 0, 0, 5, 4, 320, "marks with nothing delivered: divides by 1, as the module" },
		{ 1000, 100, 100, 1, 1012, "shift_g = 1, all marked: 1000 / 2 + 512" },
		{ 1023, 100, 100, 4, 1024, "all marked from 1023: 960 + 64, at the cap" },
		{ 0, 10000000, 10000000, 1, 512, "10 M segments, all marked, g = 1/2: 512 (the module's u32 wraps here)" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		is_u(dctcp_alpha_next(rows[i].alpha, rows[i].delivered, rows[i].ce, rows[i].shift_g),
		     rows[i].want, "alpha: %s", rows[i].what);
}

/*
 * Long random runs of windows: the fixed point tracks the paper's EWMA while
 * alpha stays at or above 2^shift_g / 1024 (here from 1024, with at least
 * 5% of every window marked: alpha >= ~50/1024).
 */
static void test_alpha_ewma(void)
{
	double worst = 0, a_paper = 1, err;
	__u32 a = DCTCP_MAX_ALPHA;
	int n, bad = 0;

	srand(7);
	for (n = 0; n < 20000; n++) {
		__u32 delivered = 20 + rand() % 400;
		/* phases: light (5-10%), heavy (5-100%), all marked */
		__u32 phase = (n / 500) % 3, lo = delivered / 20;
		__u32 ce = phase == 0 ? lo + rand() % (delivered / 20 + 1) :
			   phase == 1 ? lo + rand() % (delivered - lo + 1) : delivered;

		a = dctcp_alpha_next(a, delivered, ce, 4);
		a_paper = paper_alpha(a_paper, (double)ce / delivered, G);
		err = fabs(a - a_paper * 1024);
		if (err > worst)
			worst = err;
		if (err > 16.0 + 1e-9)
			bad++;
	}
	ok(!bad, "20000 random windows (5-100%% marked): fixed point within 16/1024 of the paper's EWMA (worst %.2f)",
	   worst);

	/* constant F = 0.1 from alpha = 1 (alpha_on_init): the EWMA converges to F */
	a = DCTCP_MAX_ALPHA;
	for (n = 0; n < 300; n++)
		a = dctcp_alpha_next(a, 1000, 100, 4);
	ok(fabs(a - 102.4) <= 16, "F = 0.1 for 300 windows from 1: alpha %u/1024 ~ 0.1 (102.4)", a);

	/* decay from 1 with no marks: (15/16)^n, truncation aside */
	a = DCTCP_MAX_ALPHA;
	for (n = 0; n < 40; n++)
		a = dctcp_alpha_next(a, 100, 0, 4);
	ok(fabs(a - 1024 * pow(15.0 / 16, 40)) <= 16,
	   "40 windows without a mark: alpha %u ~ 1024 (15/16)^40 = %.1f", a, 1024 * pow(15.0 / 16, 40));
	for (n = 0; n < 100; n++)
		a = dctcp_alpha_next(a, 100, 0, 4);
	is_u(a, 0, "and reaches 0 (the module's snap), where the paper's EWMA only tends to it");

	/*
	 * The other side of that snap, kept from the module: from alpha below
	 * 2^shift_g, a window whose g F is below 2^shift_g / 1024 (F < 1/4 at
	 * g = 1/16) lifts alpha only to g F, and the next window snaps that to
	 * 0 before adding g F again: alpha stays at g F instead of growing to
	 * F.  At F = 0.1 from 0: 6/1024 for good, where the paper reaches
	 * 102/1024; from F = 1/4 on it grows as the paper's.
	 */
	a = 0;
	for (n = 0; n < 300; n++)
		a = dctcp_alpha_next(a, 1000, 100, 4);
	a_paper = 0;
	for (n = 0; n < 300; n++)
		a_paper = paper_alpha(a_paper, 0.1, G);
	is_u(a, 6, "F = 0.1 from alpha 0: stuck at g F = 6/1024 (the paper: %.1f/1024)", a_paper * 1024);
	a = 0;
	for (n = 0; n < 300; n++)
		a = dctcp_alpha_next(a, 1000, 250, 4);
	ok(fabs((double)a - 256) <= 16, "F = 0.25 from alpha 0: grows to ~F as the paper's (%u/1024)", a);

	/* other gains: g = 1/2^k for k = 1..9 against the paper, one step each */
	bad = 0;
	for (n = 1; n <= 9; n++) {
		double g = 1.0 / (1 << n), want = paper_alpha(0.5, 0.25, g) * 1024;
		__u32 got = dctcp_alpha_next(512, 400, 100, n);

		if (fabs(got - want) > 1.0 + 1e-9) {
			diag("shift_g %d: got %u, paper %.2f", n, got, want);
			bad++;
		}
	}
	ok(!bad, "shift_g 1..9: one window from 0.5 at F = 0.25 within 1/1024 of the paper");
	/* shift_g = 10, the module's largest: every alpha below 1 is below 2^10 / 1024 */
	is_u(dctcp_alpha_next(512, 400, 100, 10), 0,
	     "shift_g 10: alpha 0.5 snaps to 0 in one window (g F = 100/400 truncates to 0; the paper: 511.75)");
}

/* cwnd (1 - alpha/2): the module cuts floor(cwnd alpha / 2048), so the result is the ceiling. */
static void test_ssthresh(void)
{
	static const struct { __u32 cwnd, alpha, want; const char *what; } rows[] = {
		{ 100, 1024, 50, "alpha = 1 halves" },
		{ 11, 1024, 6, "alpha = 1, odd cwnd: 11 - 5 (Reno's half would be 5)" },
		{ 100, 0, 100, "alpha = 0: no cut" },
		{ 100, 64, 97, "alpha = 1/16: 100 * (1 - 1/32) = 96.875, rounded up" },
		{ 3, 1024, 2, "floor of 2 segments" },
		{ 2, 1024, 2, "never below 2" },
		{ 1, 0, 2, "a 1-segment cwnd (after an RTO) asks for 2, as max(.., 2U) does" },
		{ 4000000000U, 512, 3000000000U, "4e9 segments at 1/2: no 32-bit wrap (the module's would)" },
	};
	unsigned int i;
	int bad = 0;
	__u32 cwnd, alpha;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		is_u(dctcp_ssthresh_of(rows[i].cwnd, rows[i].alpha), rows[i].want, "ssthresh: %s",
		     rows[i].what);
	for (cwnd = 2; cwnd <= 3000; cwnd += 7) {
		for (alpha = 0; alpha <= 1024; alpha += 3) {
			double paper = cwnd * (1 - alpha / 1024.0 / 2);
			__u32 want = (__u32)ceil(paper - 1e-9);

			if (want < 2)
				want = 2;
			if (dctcp_ssthresh_of(cwnd, alpha) != want) {
				if (bad++ < 5)
					diag("cwnd %u alpha %u: got %u, paper %.3f", cwnd, alpha,
					     dctcp_ssthresh_of(cwnd, alpha), paper);
			}
		}
	}
	ok(!bad, "cwnd 2..3000 x alpha 0..1024: ceil(cwnd (1 - alpha/2)), floor 2");
	is_u(dctcp_loss_ssthresh(100), 50, "a loss halves (Reno)");
	is_u(dctcp_loss_ssthresh(3), 2, "a loss: floor of 2");
}

/* The claim the algorithm rests on: alpha ~ F, so a window with a fraction F marked cuts F/2. */
static void test_proportional(void)
{
	__u32 a = DCTCP_MAX_ALPHA, w;
	int n;

	for (n = 0; n < 300; n++)
		a = dctcp_alpha_next(a, 100, 20, 4);	/* 20% of every window marked */
	w = dctcp_ssthresh_of(1000, a);
	ok(w >= 890 && w <= 910, "20%% marked for good: a cut of ~10%% (1000 -> %u, alpha %u/1024)", w, a);
}

int main(void)
{
	test_alpha_rows();
	test_alpha_ewma();
	test_ssthresh();
	test_proportional();
	return done_testing();
}
