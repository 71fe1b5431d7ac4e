// SPDX-License-Identifier: GPL-2.0
/*
 * HighSpeed TCP arithmetic (include/highspeed.h) against RFC 3649.
 *
 * Formulas (RFC 3649 section 5 and appendix B), w_low = 38, w_high = 83000,
 * p_high = 1e-7, b_high = 0.1:
 *	b(w) = (b_high - 0.5)(ln w - ln w_low)/(ln w_high - ln w_low) + 0.5
 *	p(w) = 0.078 / w^1.2		(the RFC's form of w = 0.12 / p^0.835)
 *	a(w) = w^2 p(w) 2 b(w) / (2 - b(w))
 *
 * Tolerances, and why the module's numbers differ from the formulas:
 *  - cwnd column: row i is the RFC's integer window at which a(w) = i + 1;
 *    the RFC rounded its windows, so a(w_i) is i + 1 within 0.05 (measured
 *    worst 0.047).  Row 0 is Reno by definition (a = 1, b = 0.5) and is
 *    checked as such.
 *  - md column: exactly floor(256 b(w_i)) — the module truncates, so its
 *    decrease is never larger than the RFC's, by less than 1/256.
 *  - response function: an AIMD with increase a and decrease b settles at
 *    w = sqrt(a (2 - b) / (2 b p)); with each row's (a, b) and the p that
 *    w = 0.12 / p^0.835 gives at w_i, this lands within 3% of w_i (measured
 *    worst 1.8%; p(w) = 0.078/w^1.2 itself is within 3.5% of the exact
 *    response function over 38..83000).
 *  - between two rows the module applies the upper row (the larger a, the
 *    smaller b), up to one segment per RTT more than the formula; this
 *    matters only at small windows, so the simulated response function is
 *    held to 8% for p <= 1e-5 (w >= 1800) and only to "not below" above.
 */
#include <math.h>
#include <stdlib.h>
#include "tap.h"
#include "highspeed.h"

#define W_LOW	38.0
#define W_HIGH	83000.0
#define B_HIGH	0.1

static double rfc_b(double w)
{
	return (B_HIGH - 0.5) * (log(w) - log(W_LOW)) / (log(W_HIGH) - log(W_LOW)) + 0.5;
}

static double rfc_p(double w)
{
	return 0.078 / pow(w, 1.2);
}

static double rfc_a(double w)
{
	double b = rfc_b(w);

	return w * w * rfc_p(w) * 2 * b / (2 - b);
}

/* The response function solved for p: w = 0.12 / p^0.835. */
static double response_p(double w)
{
	return pow(0.12 / w, 1 / 0.835);
}

static double response_w(double p)
{
	return 0.12 / pow(p, 0.835);
}

/* The module's search, row by row, as reference for hstcp_find_ai(). */
static __u32 module_find_ai(__u32 cwnd, __u32 ai)
{
	if (cwnd > hstcp_aimd_vals[ai].cwnd) {
		while (cwnd > hstcp_aimd_vals[ai].cwnd && ai < HSTCP_AIMD_ROWS - 1)
			ai++;
	} else if (ai && cwnd <= hstcp_aimd_vals[ai - 1].cwnd) {
		while (ai && cwnd <= hstcp_aimd_vals[ai - 1].cwnd)
			ai--;
	}
	return ai;
}

static void test_table_shape(void)
{
	int i, sorted = 1, md_monotone = 1;

	is_u(HSTCP_AIMD_ROWS, 72, "72 rows: a(w) = 1 .. 72 segments per RTT");
	is_u(hstcp_aimd_vals[0].cwnd, HSTCP_W_LOW, "row 0 ends at w_low = 38");
	is_u(hstcp_aimd_vals[0].md, 128, "row 0 is Reno: b = 128/256 = 0.5");
	is_u(hstcp_ai_inc(0), 1, "row 0 is Reno: a = 1");
	for (i = 1; i < HSTCP_AIMD_ROWS; i++) {
		sorted &= hstcp_aimd_vals[i].cwnd > hstcp_aimd_vals[i - 1].cwnd;
		md_monotone &= hstcp_aimd_vals[i].md <= hstcp_aimd_vals[i - 1].md;
	}
	ok(sorted, "windows strictly increase");
	ok(md_monotone, "b(w) never increases with w");
	ok(hstcp_aimd_vals[HSTCP_AIMD_ROWS - 2].cwnd > W_HIGH &&
	   hstcp_aimd_vals[HSTCP_AIMD_ROWS - 3].cwnd < W_HIGH,
	   "the table reaches just past w_high = 83000");
}

static void test_rows_against_rfc(void)
{
	double worst_a = 0, worst_resp = 0;
	int i, bad_a = 0, bad_md = 0, bad_resp = 0;

	for (i = 1; i < HSTCP_AIMD_ROWS; i++) {
		double w = hstcp_aimd_vals[i].cwnd;
		double a = rfc_a(w), da = fabs(a - (i + 1));
		unsigned int md_want = (unsigned int)floor(256 * rfc_b(w) + 1e-9);
		double b = hstcp_aimd_vals[i].md / 256.0;
		double w_resp = sqrt(hstcp_ai_inc(i) * (2 - b) / (2 * b * response_p(w)));
		double dr = fabs(w_resp / w - 1);

		if (da > worst_a)
			worst_a = da;
		if (dr > worst_resp)
			worst_resp = dr;
		if (da > 0.05) {
			bad_a++;
			diag("row %d w=%u: a(w)=%.3f, table says %d", i, hstcp_aimd_vals[i].cwnd, a, i + 1);
		}
		if (hstcp_aimd_vals[i].md != md_want) {
			bad_md++;
			diag("row %d w=%u: md=%u, floor(256 b(w))=%u (256 b = %.3f)", i,
			     hstcp_aimd_vals[i].cwnd, hstcp_aimd_vals[i].md, md_want, 256 * rfc_b(w));
		}
		if (dr > 0.03) {
			bad_resp++;
			diag("row %d w=%u: AIMD(a=%u, b=%.3f) settles at %.0f", i,
			     hstcp_aimd_vals[i].cwnd, hstcp_ai_inc(i), b, w_resp);
		}
	}
	ok(!bad_a, "every row: a(w_i) = i + 1 within 0.05 (worst %.3f)", worst_a);
	ok(!bad_md, "every row: md = floor(256 b(w_i))");
	ok(!bad_resp, "every row: (a, b) meet w = 0.12/p^0.835 within 3%% (worst %.1f%%)",
	   100 * worst_resp);
	ok(fabs(rfc_b(W_HIGH) - B_HIGH) < 1e-12 && fabs(rfc_b(W_LOW) - 0.5) < 1e-12,
	   "b(w) runs from 0.5 at w_low to b_high at w_high");
	ok(fabs(response_p(W_HIGH) / 1e-7 - 1) < 0.03, "w_high = 83000 at p_high = 1e-7 (%.3g)",
	   response_p(W_HIGH));
	ok(fabs(response_p(W_LOW) / 1e-3 - 1) < 0.03, "w_low = 38 at p_low = 1e-3, Reno's point (%.3g)",
	   response_p(W_LOW));
}

static void test_p_forms_agree(void)
{
	double w, worst = 0;

	for (w = W_LOW; w <= W_HIGH; w *= 1.1) {
		double d = fabs(response_w(rfc_p(w)) / w - 1);

		if (d > worst)
			worst = d;
	}
	ok(worst < 0.035, "p(w) = 0.078/w^1.2 inverts w = 0.12/p^0.835 within 3.5%% (worst %.1f%%)",
	   100 * worst);
}

static void test_find_ai(void)
{
	static const __u32 starts[] = { 0, 1, 17, 35, 70, 71, 72, 1000 };
	__u32 cwnd, prev = 0, bad = 0, bad_walk = 0;
	unsigned int s;

	for (cwnd = 1; cwnd <= 100000; cwnd++) {
		for (s = 0; s < sizeof(starts) / sizeof(starts[0]); s++) {
			__u32 start = starts[s] < HSTCP_AIMD_ROWS ? starts[s] : HSTCP_AIMD_ROWS - 1;

			if (hstcp_find_ai(cwnd, starts[s]) != module_find_ai(cwnd, start))
				bad++;
		}
		/* The common case: the socket's row of the previous ACK. */
		if (hstcp_find_ai(cwnd, prev) != module_find_ai(cwnd, prev))
			bad_walk++;
		prev = hstcp_find_ai(cwnd, prev);
	}
	ok(!bad, "row search = the module's walk, cwnd 1..100000 from 8 start rows (%u differ)", bad);
	ok(!bad_walk, "row search from the previous ACK's row = the module's (%u differ)", bad_walk);
	is_u(hstcp_find_ai(38, 5), 0, "cwnd 38 is Reno (row 0)");
	is_u(hstcp_find_ai(39, 0), 1, "cwnd 39 is row 1");
	is_u(hstcp_find_ai(89053, 0), 71, "cwnd 89053 is the last row");
	is_u(hstcp_find_ai(0xffffffffU, 3), 71, "beyond the table: the last row");
}

static void test_ssthresh(void)
{
	int i, bad = 0;

	for (i = 0; i < HSTCP_AIMD_ROWS; i++) {
		__u32 cwnd = hstcp_aimd_vals[i].cwnd;
		double got = (double)hstcp_calc_ssthresh(cwnd, i) / cwnd;
		double want = 1 - rfc_b(cwnd);

		/* truncation of md (< 1/256) and of the product (< 1/cwnd) */
		if (got < want - 1e-9 || got > want + 1.0 / 256 + 1.0 / cwnd) {
			bad++;
			diag("row %d: ssthresh/cwnd = %.4f, 1 - b(w) = %.4f", i, got, want);
		}
	}
	ok(!bad, "ssthresh/cwnd = 1 - b(w) within 1/256 + 1/cwnd at every row");
	is_u(hstcp_calc_ssthresh(20, 0), 10, "Reno region halves");
	is_u(hstcp_calc_ssthresh(3, 0), 2, "never below 2");
	is_u(hstcp_calc_ssthresh(89053, 71), 89053 - (89053 * 24 >> 8), "large w: cwnd - cwnd*md/256");
	is_u(hstcp_calc_ssthresh(HSTCP_CWND_MAX_DEFAULT, 0),
	     HSTCP_CWND_MAX_DEFAULT - (HSTCP_CWND_MAX_DEFAULT >> 1), "no overflow at cwnd_max");
}

static void test_increase(void)
{
	static const __u32 rows[] = { 0, 1, 10, 40, 71 };
	unsigned int r;

	for (r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		__u32 ai = rows[r], cwnd = hstcp_aimd_vals[ai].cwnd - (ai ? 0 : 10), start = cwnd;
		__u32 cnt = 0, acks = cwnd, k;

		/* one RTT = cwnd ACKs of one segment each, at the row's a(w) */
		for (k = 0; k < acks; k++)
			cwnd = hstcp_calc_ai(cwnd, &cnt, ai);
		/* cwnd grows during the RTT, so the last step may fall in the next */
		ok(cwnd - start == ai + 1 || cwnd - start == ai,
		   "row %u: one window of ACKs adds a(w) = %u segments, or one less (got %u)",
		   ai, ai + 1, cwnd - start);
	}
}

/*
 * Deterministic loss every 1/p segments, one RTT per step: the average
 * window must follow w = 0.12 / p^0.835.
 */
static double simulate(double p)
{
	double sent = 0, sum = 0, budget = 1 / p;
	__u32 cwnd = 38, ai = 0;
	long n;

	for (n = 0; n < 200000; n++) {
		ai = hstcp_find_ai(cwnd, ai);
		cwnd += hstcp_ai_inc(ai);
		sent += cwnd;
		sum += cwnd;
		if (sent >= budget) {
			sent -= budget;
			cwnd = hstcp_calc_ssthresh(cwnd, hstcp_find_ai(cwnd, ai));
		}
	}
	return sum / n;
}

static void test_response_function(void)
{
	static const double ps[] = { 1e-3, 1e-4, 1e-5, 1e-6, 1e-7 };
	unsigned int i;

	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		double got = simulate(ps[i]), want = response_w(ps[i]);

		if (ps[i] <= 1e-5)
			ok(fabs(got / want - 1) < 0.08,
			   "p=%.0e: average window %.0f vs 0.12/p^0.835 = %.0f (within 8%%)", ps[i],
			   got, want);
		else
			ok(got >= want * 0.97,
			   "p=%.0e: average window %.0f, not below 0.12/p^0.835 = %.0f (upper-row a(w))",
			   ps[i], got, want);
	}
	/* and far above Reno's 1.22/sqrt(p) where it matters */
	ok(simulate(1e-7) > 10 * sqrt(1.5 / 1e-7) / 2,
	   "p=1e-7: over 5x Reno's deterministic window %.0f", sqrt(1.5 / 1e-7));
}

static void test_params(void)
{
	struct highspeed_params p = { HIGHSPEED_PARAMS(TCPCA_PARAM_INIT) };

	ok(highspeed_check_params((const __u32 *)&p) == NULL, "defaults are consistent");
	is_u(p.cwnd_max, 0xffffffffU / 128, "cwnd_max defaults to the module's 2^32/128");
	p.cwnd_max = 1;
	ok(highspeed_check_params((const __u32 *)&p) != NULL, "cwnd_max=1 refused");
}

int main(void)
{
	test_table_shape();
	test_rows_against_rfc();
	test_p_forms_agree();
	test_find_ai();
	test_ssthresh();
	test_increase();
	test_response_function();
	test_params();
	return done_testing();
}
