// SPDX-License-Identifier: GPL-2.0
/*
 * HighSpeed TCP arithmetic (include/highspeed.h) against RFC 3649 and against
 * the module's own table (its 72 rows are written out below as data).
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

/*
 * net/ipv4/tcp_highspeed.c's hstcp_aimd_vals[] (Linux 6.1), as data: { window, a(w) = row + 1, md = b(w) << 8 }.  The module
 * has 72 rows; include/highspeed.h must hold exactly these, in this order.
 */
static const struct { __u32 cwnd, a, md; } kernel_rows[] = {
	{    38,  1, 128 }, {   118,  2, 112 }, {   221,  3, 104 },
	{   347,  4,  98 }, {   495,  5,  93 }, {   663,  6,  89 },
	{   851,  7,  86 }, {  1058,  8,  83 }, {  1284,  9,  81 },
	{  1529, 10,  78 }, {  1793, 11,  76 }, {  2076, 12,  74 },
	{  2378, 13,  72 }, {  2699, 14,  71 }, {  3039, 15,  69 },
	{  3399, 16,  68 }, {  3778, 17,  66 }, {  4177, 18,  65 },
	{  4596, 19,  64 }, {  5036, 20,  62 }, {  5497, 21,  61 },
	{  5979, 22,  60 }, {  6483, 23,  59 }, {  7009, 24,  58 },
	{  7558, 25,  57 }, {  8130, 26,  56 }, {  8726, 27,  55 },
	{  9346, 28,  54 }, {  9991, 29,  53 }, { 10661, 30,  52 },
	{ 11358, 31,  52 }, { 12082, 32,  51 }, { 12834, 33,  50 },
	{ 13614, 34,  49 }, { 14424, 35,  48 }, { 15265, 36,  48 },
	{ 16137, 37,  47 }, { 17042, 38,  46 }, { 17981, 39,  45 },
	{ 18955, 40,  45 }, { 19965, 41,  44 }, { 21013, 42,  43 },
	{ 22101, 43,  43 }, { 23230, 44,  42 }, { 24402, 45,  41 },
	{ 25618, 46,  41 }, { 26881, 47,  40 }, { 28193, 48,  39 },
	{ 29557, 49,  39 }, { 30975, 50,  38 }, { 32450, 51,  38 },
	{ 33986, 52,  37 }, { 35586, 53,  36 }, { 37253, 54,  36 },
	{ 38992, 55,  35 }, { 40808, 56,  35 }, { 42707, 57,  34 },
	{ 44694, 58,  33 }, { 46776, 59,  33 }, { 48961, 60,  32 },
	{ 51258, 61,  32 }, { 53677, 62,  31 }, { 56230, 63,  30 },
	{ 58932, 64,  30 }, { 61799, 65,  29 }, { 64851, 66,  28 },
	{ 68113, 67,  28 }, { 71617, 68,  27 }, { 75401, 69,  26 },
	{ 79517, 70,  26 }, { 84035, 71,  25 }, { 89053, 72,  24 },
};
#define KERNEL_ROWS (sizeof(kernel_rows) / sizeof(kernel_rows[0]))

/*
 * The module's search, row by row over the module's rows, as the reference
 * for hstcp_find_ai() (which searches include/highspeed.h's padded table).
 */
static __u32 module_find_ai(__u32 cwnd, __u32 ai)
{
	if (cwnd > kernel_rows[ai].cwnd) {
		while (cwnd > kernel_rows[ai].cwnd && ai < KERNEL_ROWS - 1)
			ai++;
	} else if (ai && cwnd <= kernel_rows[ai - 1].cwnd) {
		while (ai && cwnd <= kernel_rows[ai - 1].cwnd)
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
}

/* The table is the module's, row for row; the padding is above every window. */
static void test_kernel_rows(void)
{
	unsigned int i, bad = 0, pad_bad = 0;

	is_u(KERNEL_ROWS, HSTCP_AIMD_ROWS, "as many rows as the module (%u)", (unsigned int)KERNEL_ROWS);
	for (i = 0; i < KERNEL_ROWS && i < HSTCP_AIMD_ROWS; i++) {
		if (hstcp_aimd_vals[i].cwnd != kernel_rows[i].cwnd ||
		    hstcp_aimd_vals[i].md != kernel_rows[i].md || hstcp_ai_inc(i) != kernel_rows[i].a) {
			bad++;
			diag("row %u: {%u, a=%u, md=%u}, the module's {%u, a=%u, md=%u}", i,
			     hstcp_aimd_vals[i].cwnd, hstcp_ai_inc(i), hstcp_aimd_vals[i].md,
			     kernel_rows[i].cwnd, kernel_rows[i].a, kernel_rows[i].md);
		}
	}
	ok(!bad, "every row equals the module's {cwnd, a, md} (%u differ)", bad);
	for (i = HSTCP_AIMD_ROWS; i < HSTCP_AIMD_SLOTS; i++)
		pad_bad += hstcp_aimd_vals[i].cwnd != 0xffffffffU;
	ok(!pad_bad, "slots %u..%u are padding at the largest window", HSTCP_AIMD_ROWS,
	   HSTCP_AIMD_SLOTS - 1);
	ok(hstcp_slot(HSTCP_AIMD_SLOTS + 5) == &hstcp_aimd_vals[5], "slot indices wrap (masked), never overrun");
	ok(hstcp_row(1000) == &hstcp_aimd_vals[HSTCP_AIMD_ROWS - 1] &&
	   hstcp_md(HSTCP_AIMD_ROWS) == kernel_rows[KERNEL_ROWS - 1].md,
	   "a row beyond the table reads as the last row, not as padding");
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
	test_kernel_rows();
	test_find_ai();
	test_ssthresh();
	test_increase();
	test_response_function();
	test_params();
	return done_testing();
}
