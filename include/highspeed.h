/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HighSpeed TCP (RFC 3649) tunables, table and arithmetic, shared by
 * bpf/highspeed.bpf.c and the host (loader table, tests/unit/test_highspeed.c).
 *
 * RFC 3649 keeps Reno's AIMD up to w_low = 38 segments and above it makes the
 * increase a(w) (segments per RTT) and the decrease b(w) (fraction of cwnd
 * removed on a loss) functions of the window, chosen so that the steady state
 * follows the response function
 *
 *	w = 0.12 / p^0.835		(p = loss rate; Reno's is 1.2 / p^0.5)
 *
 * through (w_low = 38, p_low = 1e-3) and (w_high = 83000, p_high = 1e-7):
 *
 *	b(w) = (b_high - 0.5) (ln w - ln w_low) / (ln w_high - ln w_low) + 0.5,
 *	       b_high = 0.1
 *	p(w) = 0.078 / w^1.2		(the RFC's rounded inverse of the above)
 *	a(w) = w^2 p(w) 2 b(w) / (2 - b(w))
 *
 * (a deterministic AIMD with increase a and decrease b averages
 * w = sqrt(a (2 - b) / (2 b p)); solving for a gives the last line).
 *
 * Like Linux's net/ipv4/tcp_highspeed.c we do not evaluate these at run
 * time: hstcp_aimd_vals[] lists, for a = 1, 2, ..., 72, the window w at which
 * a(w) reaches a (RFC 3649 appendix B), with b(w) there in 1/256.  Row i
 * applies while vals[i-1].cwnd < cwnd <= vals[i].cwnd: the window then grows
 * by i + 1 segments per RTT and loses b = md/256 of itself on a loss.  The
 * md column is b(w) * 256 rounded down (so the kernel's decrease is never
 * larger than the RFC's), the cwnd column is the RFC's own integer w, within
 * 0.05 segments/RTT of a(w) = i + 1.  tests/unit/test_highspeed.c checks every
 * row against the formulas above, and against the module's literal rows.
 *
 * The table has HSTCP_AIMD_SLOTS = 128 slots: the module's 72 rows, then
 * rows at the largest u32 window that no search ever stops beyond.  Every
 * index into it is masked with 127 (after barrier_var(), so the compiler
 * cannot prove the mask redundant and drop it), which any verifier accepts
 * as in bounds without having to relate a compare on one register to an
 * access through another; the 6.1 verifier cannot, and refused the earlier
 * compare-guarded search.
 */
#ifndef TCPCA_HIGHSPEED_H
#define TCPCA_HIGHSPEED_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "tcpca_params.h"

/*
 * P(name, default, min, max, unit, description).  Read on every ACK, so
 * --set acts on existing sockets.
 */
#define HSTCP_CWND_MAX_DEFAULT	(0xffffffffU / 128)	/* the module's snd_cwnd_clamp cap */

#define HIGHSPEED_PARAMS(P)							\
	P(cwnd_max, HSTCP_CWND_MAX_DEFAULT, 2, HSTCP_CWND_MAX_DEFAULT, "packets", \
	  "largest cwnd HighSpeed grows to (the module caps snd_cwnd_clamp at 2^32/128) (per ACK)")

struct highspeed_params {
	HIGHSPEED_PARAMS(TCPCA_PARAM_FIELD)
};

static inline const char *highspeed_check_params(const __u32 *v)
{
	const struct highspeed_params *p = (const struct highspeed_params *)v;

	if (p->cwnd_max < 2)
		return "cwnd_max must be at least 2";
	return 0;
}

#define HSTCP_MD_SHIFT	8		/* md is b(w) in 1/256 */
#define HSTCP_W_LOW	38		/* Reno at or below this window */
#define HSTCP_AIMD_ROWS	72		/* the module's table */
#define HSTCP_AIMD_SLOTS	128		/* a power of two above it: indices are masked */

/* Stops the compiler from knowing a value's range (bpf_helpers.h has it for BPF). */
#ifndef barrier_var
#define barrier_var(var) __asm__ __volatile__("" : "=r"(var) : "0"(var))
#endif

struct hstcp_aimd_val {
	__u32 cwnd;	/* upper end of the row's window range, packets */
	__u32 md;	/* b(w) << HSTCP_MD_SHIFT: fraction of cwnd removed on loss */
};

/* Row i: a(w) = i + 1 segments per RTT; the comment is b(w). */
static const struct hstcp_aimd_val hstcp_aimd_vals[HSTCP_AIMD_SLOTS] = {
	{    38, 128 }, /* 0.50 */	{   118, 112 }, /* 0.44 */
	{   221, 104 }, /* 0.41 */	{   347,  98 }, /* 0.38 */
	{   495,  93 }, /* 0.37 */	{   663,  89 }, /* 0.35 */
	{   851,  86 }, /* 0.34 */	{  1058,  83 }, /* 0.33 */
	{  1284,  81 }, /* 0.32 */	{  1529,  78 }, /* 0.31 */
	{  1793,  76 }, /* 0.30 */	{  2076,  74 }, /* 0.29 */
	{  2378,  72 }, /* 0.28 */	{  2699,  71 }, /* 0.28 */
	{  3039,  69 }, /* 0.27 */	{  3399,  68 }, /* 0.27 */
	{  3778,  66 }, /* 0.26 */	{  4177,  65 }, /* 0.26 */
	{  4596,  64 }, /* 0.25 */	{  5036,  62 }, /* 0.25 */
	{  5497,  61 }, /* 0.24 */	{  5979,  60 }, /* 0.24 */
	{  6483,  59 }, /* 0.23 */	{  7009,  58 }, /* 0.23 */
	{  7558,  57 }, /* 0.22 */	{  8130,  56 }, /* 0.22 */
	{  8726,  55 }, /* 0.22 */	{  9346,  54 }, /* 0.21 */
	{  9991,  53 }, /* 0.21 */	{ 10661,  52 }, /* 0.21 */
	{ 11358,  52 }, /* 0.20 */	{ 12082,  51 }, /* 0.20 */
	{ 12834,  50 }, /* 0.20 */	{ 13614,  49 }, /* 0.19 */
	{ 14424,  48 }, /* 0.19 */	{ 15265,  48 }, /* 0.19 */
	{ 16137,  47 }, /* 0.19 */	{ 17042,  46 }, /* 0.18 */
	{ 17981,  45 }, /* 0.18 */	{ 18955,  45 }, /* 0.18 */
	{ 19965,  44 }, /* 0.17 */	{ 21013,  43 }, /* 0.17 */
	{ 22101,  43 }, /* 0.17 */	{ 23230,  42 }, /* 0.17 */
	{ 24402,  41 }, /* 0.16 */	{ 25618,  41 }, /* 0.16 */
	{ 26881,  40 }, /* 0.16 */	{ 28193,  39 }, /* 0.16 */
	{ 29557,  39 }, /* 0.15 */	{ 30975,  38 }, /* 0.15 */
	{ 32450,  38 }, /* 0.15 */	{ 33986,  37 }, /* 0.15 */
	{ 35586,  36 }, /* 0.14 */	{ 37253,  36 }, /* 0.14 */
	{ 38992,  35 }, /* 0.14 */	{ 40808,  35 }, /* 0.14 */
	{ 42707,  34 }, /* 0.13 */	{ 44694,  33 }, /* 0.13 */
	{ 46776,  33 }, /* 0.13 */	{ 48961,  32 }, /* 0.13 */
	{ 51258,  32 }, /* 0.13 */	{ 53677,  31 }, /* 0.12 */
	{ 56230,  30 }, /* 0.12 */	{ 58932,  30 }, /* 0.12 */
	{ 61799,  29 }, /* 0.12 */	{ 64851,  28 }, /* 0.11 */
	{ 68113,  28 }, /* 0.11 */	{ 71617,  27 }, /* 0.11 */
	{ 75401,  26 }, /* 0.10 */	{ 79517,  26 }, /* 0.10 */
	{ 84035,  25 }, /* 0.10 */	{ 89053,  24 }, /* 0.10 */
	/* padding: never the result of a search, never read as a row */
	[HSTCP_AIMD_ROWS ... HSTCP_AIMD_SLOTS - 1] = { 0xffffffffU, 0 },
};

/* Slot i of the table, for any i: the index is masked, never compared. */
static inline const struct hstcp_aimd_val *hstcp_slot(__u32 i)
{
	barrier_var(i);
	return &hstcp_aimd_vals[i & (HSTCP_AIMD_SLOTS - 1)];
}

/* Row ai, ai beyond the table read as the last row. */
static inline const struct hstcp_aimd_val *hstcp_row(__u32 ai)
{
	return hstcp_slot(ai < HSTCP_AIMD_ROWS ? ai : HSTCP_AIMD_ROWS - 1);
}

/*
 * The row for cwnd: the i with vals[i - 1].cwnd < cwnd <= vals[i].cwnd (row 0
 * for the smallest windows, the last row beyond the table), which is the
 * number of rows whose window is below cwnd, at most the last row.  The
 * socket's previous row ai is kept when cwnd is still in it, the common case
 * (the window moves one segment at a time); otherwise a binary search of
 * seven halving steps over the 128 slots (the padding is above any cwnd, so
 * the count stops at 72): a fixed, loop-free replacement for the module's
 * row-by-row while loops, with the same result (tests/unit/test_highspeed.c
 * compares the two for every cwnd up to 100,000 from several start rows).
 */
static inline __u32 hstcp_find_ai(__u32 cwnd, __u32 ai)
{
	__u32 i = 0, step;

	if (ai < HSTCP_AIMD_ROWS &&
	    (ai == HSTCP_AIMD_ROWS - 1 || cwnd <= hstcp_slot(ai)->cwnd) &&
	    (ai == 0 || cwnd > hstcp_slot(ai - 1)->cwnd))
		return ai;

	/* i = how many of the first i + step slots are below cwnd, halving step */
	for (step = HSTCP_AIMD_SLOTS / 2; step > 0; step >>= 1)
		if (hstcp_slot(i + step - 1)->cwnd < cwnd)
			i += step;
	return i < HSTCP_AIMD_ROWS ? i : HSTCP_AIMD_ROWS - 1;
}

/* a(w): segments per RTT in row ai. */
static inline __u32 hstcp_ai_inc(__u32 ai)
{
	return (ai < HSTCP_AIMD_ROWS ? ai : HSTCP_AIMD_ROWS - 1) + 1;
}

/* b(w) << 8 in row ai. */
static inline __u32 hstcp_md(__u32 ai)
{
	return hstcp_row(ai)->md;
}

/* ssthresh after a loss at cwnd in row ai: cwnd (1 - b(w)), at least 2. */
static inline __u32 hstcp_calc_ssthresh(__u32 cwnd, __u32 ai)
{
	__u64 cut = ((__u64)cwnd * hstcp_md(ai)) >> HSTCP_MD_SHIFT;
	__u32 s = cwnd - (__u32)cut;

	return s > 2 ? s : 2;
}

/*
 * Additive increase, per ACK: cwnd_cnt += a(w); each time it reaches cwnd,
 * cwnd grows by one segment.  So a(w) segments per cwnd ACKs.  Returns the
 * new cwnd and updates *cwnd_cnt.
 */
static inline __u32 hstcp_calc_ai(__u32 cwnd, __u32 *cwnd_cnt, __u32 ai)
{
	*cwnd_cnt += hstcp_ai_inc(ai);
	if (*cwnd_cnt >= cwnd) {
		*cwnd_cnt -= cwnd;
		cwnd++;
	}
	return cwnd;
}

#endif /* TCPCA_HIGHSPEED_H */
