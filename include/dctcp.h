/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DCTCP: tunables and the arithmetic, shared by bpf/dctcp.bpf.c and the host
 * (loader table, tests/unit/test_dctcp.c).
 *
 * Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010, section 3.1: the
 * sender keeps alpha, an estimate of the fraction of its packets that the
 * network marked CE, updated once per window of data,
 *
 *	alpha <- (1 - g) * alpha + g * F	F: the fraction marked in that window
 *
 * and on congestion (an ECN echo) cuts its window in proportion,
 *
 *	cwnd <- cwnd * (1 - alpha / 2)
 *
 * so a few marks shave a little off the window and a window of marks halves it
 * as Reno would (RFC 8257 section 3.3 and 3.4 restate both).  As in Linux's
 * net/ipv4/tcp_dctcp.c, alpha is fixed point with DCTCP_MAX_ALPHA = 1024
 * standing for 1, and g = 1 / 2^shift_g.  F comes from the stack's own counts:
 * tp->delivered and tp->delivered_ce, the segments delivered and those the
 * receiver echoed as CE-marked.
 *
 * Where this arithmetic departs from the module: the module computes
 * delivered_ce << (10 - shift_g) and cwnd * alpha in 32 bits (they wrap after
 * 4 M marked segments in one window, or a 4 M-segment cwnd); here both are
 * 64-bit.  Unreachable on real paths, so no behaviour differs.
 */
#ifndef TCPCA_DCTCP_H
#define TCPCA_DCTCP_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "tcpca_params.h"

#define DCTCP_MAX_ALPHA		1024U	/* alpha = 1 in fixed point */
#define DCTCP_ALPHA_SHIFT	10	/* log2(DCTCP_MAX_ALPHA) */

/*
 * P(name, default, min, max, unit, description): the module's parameters,
 * dctcp_shift_g and dctcp_alpha_on_init, with its defaults and ranges, and
 * the pre-4.20 module's dctcp_clamp_alpha_on_loss (off, as 6.1 behaves).
 * shift_g and clamp_alpha_on_loss are read at each use, so --set acts on
 * existing sockets at their next window / loss; alpha_on_init on new sockets
 * only.
 */
#define DCTCP_PARAMS(P)								\
	P(shift_g, 4, 0, 10, "log2",						\
	  "alpha's EWMA gain g = 1/2^shift_g per window of data (4: g = 1/16)")	\
	P(alpha_on_init, 1024, 0, 1024, "1/1024",				\
	  "alpha of a new connection (1024 = 1: its first mark halves cwnd; new sockets only)") \
	P(clamp_alpha_on_loss, 0, 0, 1, "bool",					\
	  "1: an RTO (TCP_CA_Loss) sets alpha to 1, as the module did before Linux 4.20")

struct dctcp_params {
	DCTCP_PARAMS(TCPCA_PARAM_FIELD)
};

/*
 * One window's update of alpha (fixed point, 1024 = 1), the module's integer
 * form of alpha <- (1 - g) alpha + g F:
 *  - alpha * (1 - g) is alpha - (alpha >> shift_g); once alpha >> shift_g is
 *    0 (alpha below 2^shift_g) the module subtracts alpha itself
 *    (min_not_zero), so alpha snaps to 0 instead of lingering at a few
 *    1024ths with no mark;
 *  - g F * 1024 = (delivered_ce << (10 - shift_g)) / delivered, truncated,
 *    added only when something was marked, and alpha capped at 1024.
 */
static inline __u32 dctcp_alpha_next(__u32 alpha, __u32 delivered, __u32 delivered_ce,
				     __u32 shift_g)
{
	__u32 decay;
	__u64 gf;

	if (shift_g > DCTCP_ALPHA_SHIFT)	/* the loader refuses it; stay defined */
		shift_g = DCTCP_ALPHA_SHIFT;
	decay = alpha >> shift_g;
	alpha -= decay ? decay : alpha;
	if (delivered_ce) {
		gf = ((__u64)delivered_ce << (DCTCP_ALPHA_SHIFT - shift_g)) /
		     (__u64)(delivered ? delivered : 1);
		gf += alpha;
		alpha = gf > DCTCP_MAX_ALPHA ? DCTCP_MAX_ALPHA : (__u32)gf;
	}
	return alpha;
}

/*
 * The ECN reduction: cwnd * (1 - alpha / 2) = cwnd - cwnd * alpha / 2048,
 * the subtracted part truncated (so the result rounds up), never below 2.
 */
static inline __u32 dctcp_ssthresh_of(__u32 cwnd, __u32 alpha)
{
	__u64 cut = ((__u64)cwnd * alpha) >> (DCTCP_ALPHA_SHIFT + 1);

	/* cut <= cwnd / 2 for alpha <= 1024; the test keeps it defined beyond */
	if (cut + 2 >= cwnd)
		return 2;
	return cwnd - (__u32)cut;
}

/* A loss: halve, as Reno (the module's dctcp_react_to_loss). */
static inline __u32 dctcp_loss_ssthresh(__u32 cwnd)
{
	__u32 w = cwnd >> 1;

	return w > 2 ? w : 2;
}

#endif /* TCPCA_DCTCP_H */
