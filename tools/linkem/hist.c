// SPDX-License-Identifier: GPL-2.0
/*
 * Log-linear histogram: exact below HIST_SUB ns, then HIST_SUB buckets
 * per power of two.  Fixed size, so recording a packet never allocates.
 */
#include "linkem.h"
#include "pct.h"

#define SUB_BITS	__builtin_ctz(HIST_SUB)

static u32 bucket_of(u64 v)
{
	int msb;

	if (v < HIST_SUB)
		return v;
	msb = 63 - __builtin_clzll(v);
	/* keep the SUB_BITS bits below the leading one */
	return (msb - SUB_BITS + 1) * HIST_SUB +
	       ((v >> (msb - SUB_BITS)) & (HIST_SUB - 1));
}

static u64 bucket_low(u32 b)
{
	u32 e = b / HIST_SUB, m = b % HIST_SUB;

	if (!e)
		return m;
	return ((u64)(HIST_SUB + m)) << (e - 1);
}

void hist_add(struct hist *h, u64 v)
{
	u32 b = bucket_of(v);

	if (b >= HIST_BUCKETS)
		b = HIST_BUCKETS - 1;
	h->b[b]++;
	h->count++;
	if (v > h->max)
		h->max = v;
}

/* The k-th smallest value recorded (from 0), as its bucket's midpoint. */
static double hist_value(const void *ctx, u64 k)
{
	const struct hist *h = ctx;
	u64 seen = 0;
	u32 b;

	for (b = 0; b < HIST_BUCKETS; b++) {
		seen += h->b[b];
		if (seen > k) {
			u64 lo = bucket_low(b), hi = bucket_low(b + 1);
			u64 mid = lo + (hi - lo) / 2;

			return mid > h->max ? h->max : mid;
		}
	}
	return h->max;
}

/* Quantile q by the project's rule (pct.h), in whole ns; 0 when empty. */
u64 hist_quantile(const struct hist *h, double q)
{
	return pct_ranked(q, h->count, hist_value, h);
}
