/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scalable TCP: tunables and arithmetic, shared by bpf/scalable.bpf.c and the
 * host (loader table, tests/unit/test_scalable.c).
 *
 * Tom Kelly, "Scalable TCP: Improving Performance in Highspeed Wide Area
 * Networks", ACM SIGCOMM CCR 33(2), 2003.  In congestion avoidance
 *
 *	each ACK:	cwnd += a		a = 0.01
 *	each loss:	cwnd -= b * cwnd	b = 0.125
 *
 * so the window grows by the factor 1 + a per RTT and, whatever its size,
 * regains a loss in ln(1/(1-b)) / ln(1+a) = 13.4 RTTs; a deterministic loss
 * every 1/p packets settles at a peak window of a / (b p) = 0.08 / p
 * (Reno's: 1.2 / sqrt(p)).
 *
 * Linux's net/ipv4/tcp_scalable.c writes a as "one segment per 100 segments
 * acked", the window given to tcp_cong_avoid_ai() being min(cwnd, 100): at
 * and above 100 segments that is a = 0.01 per segment, below it Reno's
 * 1/cwnd, the larger of the two (the paper's "legacy" region, which it puts
 * below 16 segments, is here below 100).  b is a shift: ssthresh = cwnd -
 * (cwnd >> 3), which is ceil(7/8 cwnd) (the paper's cwnd - ceil(cwnd/8)
 * rounds the other way), at least 2.
 *
 * The module's two constants are tunables here, with its values as defaults
 * (as HighSpeed's cap and Veno's beta are): ai_cnt and md_shift.
 */
#ifndef TCPCA_SCALABLE_H
#define TCPCA_SCALABLE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "tcpca_params.h"

/*
 * P(name, default, min, max, unit, description).  Both are read on every ACK
 * or loss, so --set acts on existing sockets at once.
 */
#define SCALABLE_PARAMS(P)							\
	P(ai_cnt, 100, 1, 1000000, "packets",					\
	  "grow one segment per this many segments acked once cwnd reaches it: a = 1/ai_cnt (per ACK)") \
	P(md_shift, 3, 1, 16, "shift",						\
	  "on loss keep cwnd - cwnd >> md_shift: b = 1/2^md_shift (per loss)")

struct scalable_params {
	SCALABLE_PARAMS(TCPCA_PARAM_FIELD)
};

#define SCALABLE_AI_CNT		100U	/* the module's TCP_SCALABLE_AI_CNT */
#define SCALABLE_MD_SHIFT	3U	/* the module's TCP_SCALABLE_MD_SCALE */

/*
 * The window handed to tcp_cong_avoid_ai(): cwnd grows by one segment per
 * this many segments acked.  min(cwnd, ai_cnt); a zero tunable reads as the
 * module's constant, a zero cwnd as 1 (no division by zero in the kfunc).
 */
static inline __u32 scalable_calc_ai_cnt(__u32 cwnd, const struct scalable_params *p)
{
	__u32 ai = p->ai_cnt ? p->ai_cnt : SCALABLE_AI_CNT;
	__u32 w = cwnd < ai ? cwnd : ai;

	return w ? w : 1;
}

/* ssthresh after a loss at cwnd: cwnd - cwnd >> md_shift, at least 2. */
static inline __u32 scalable_calc_ssthresh(__u32 cwnd, const struct scalable_params *p)
{
	__u32 shift = p->md_shift >= 1 && p->md_shift <= 31 ? p->md_shift : SCALABLE_MD_SHIFT;
	__u32 s = cwnd - (cwnd >> shift);

	return s > 2 ? s : 2;
}

#endif /* TCPCA_SCALABLE_H */
