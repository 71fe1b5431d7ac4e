/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The project's percentile, in C (tools/testbed/pct.py and pct.awk are the
 * same): linear interpolation between the closest ranks.  Of n values
 * sorted ascending, at rank i = q (n - 1) counted from 0: the value at
 * floor(i) plus the fraction of i times the step to the next one.  p0 is
 * the least, p100 the greatest, p50 the usual median.  The values come
 * through value(ctx, k), the k-th smallest, so that a histogram answers
 * by the same rule as a sorted array.
 */
#ifndef LINKEM_PCT_H
#define LINKEM_PCT_H

#include <stdint.h>

static inline double pct_ranked(double q, uint64_t n,
				double (*value)(const void *ctx, uint64_t k),
				const void *ctx)
{
	double i, lo_v;
	uint64_t lo;

	if (!n)
		return 0;
	i = q * (double)(n - 1);
	lo = (uint64_t)i;
	if (lo >= n - 1)
		return value(ctx, n - 1);
	lo_v = value(ctx, lo);
	return lo_v + (value(ctx, lo + 1) - lo_v) * (i - (double)lo);
}

#endif
