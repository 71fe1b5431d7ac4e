/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BIC (Binary Increase Congestion control) tunables and arithmetic, shared by
 * bpf/bic.bpf.c and the host (loader table, tests/unit/test_bic.c).
 *
 * The arithmetic is that of Linux's net/ipv4/tcp_bic.c, which is the
 * per-ACK form of the per-RTT rule of Xu, Harfoush and Rhee (INFOCOM 2004):
 *
 *	below Wmax:  bic_inc = (Wmax - cwnd) / B, at most Smax, at least Smin
 *	above Wmax:  bic_inc grows with (cwnd - Wmax) ("max probing", a slow
 *	             start away from Wmax), at most Smax
 *	cwnd <= low_window: Reno, one segment per RTT
 *
 * expressed as cnt, the number of acknowledged segments per one-segment
 * increase of cwnd (cwnd grows by about cwnd / cnt per RTT).  B is 4 here
 * (the paper's pseudo-code jumps half-way, B = 2, in one RTT; the authors'
 * Linux code, which the module keeps, spreads the step over the ACKs of the
 * RTT and aims at a quarter of the distance), Smax is max_increment and Smin
 * is B / smooth_part segments per RTT.
 */
#ifndef TCPCA_BIC_H
#define TCPCA_BIC_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "tcpca_params.h"

/*
 * P(name, default, min, max, unit, description).  All are read on every
 * use, so --set acts on existing sockets at their next ACK or loss, except
 * initial_ssthresh, which is read only when a socket starts.
 */
#define BIC_PARAMS(P)								\
	P(fast_convergence, 1, 0, 1, "bool",					\
	  "release bandwidth faster: a loss below Wmax lowers Wmax further (per loss)") \
	P(max_increment, 16, 1, 65536, "packets",				\
	  "Smax: largest increase of cwnd in one RTT (per ACK)")		\
	P(low_window, 14, 0, 1000000, "packets",				\
	  "behave as Reno while cwnd is at most this (per ACK and per loss)")	\
	P(beta, 819, 1, 1023, "1/1024",						\
	  "multiplicative decrease: ssthresh = cwnd * beta / 1024 (per loss)")	\
	P(initial_ssthresh, 0, 0, 0x7fffffff, "packets",			\
	  "slow start threshold of a new socket, 0 = the kernel's (at init only)") \
	P(smooth_part, 20, 1, 1000, "RTTs",					\
	  "RTTs spent from Wmax - B to Wmax: Smin = 4 / smooth_part (per ACK)")

struct bic_params {
	BIC_PARAMS(TCPCA_PARAM_FIELD)
};

#define BIC_BETA_SCALE		1024	/* beta is in 1/1024 */
#define BIC_B			4	/* binary search: aim at 1/B of the distance to Wmax */
#define BIC_ACK_RATIO_SHIFT	4	/* delayed_ack holds packets per ACK << 4 */
#define BIC_INIT_DELAYED_ACK	(2U << BIC_ACK_RATIO_SHIFT)	/* assume an ACK every 2 */
#define BIC_NO_LOSS_MAX_CNT	20	/* before any loss: grow at least cwnd/20 per RTT */
#define BIC_UPDATE_INTERVAL_US	31250	/* recompute cnt at most every 1/32 s per cwnd */

/* Consistency beyond the ranges of BIC_PARAMS (which the loader checks first). */
static inline const char *bic_check_params(const __u32 *v)
{
	const struct bic_params *p = (const struct bic_params *)v;

	if (p->beta >= BIC_BETA_SCALE)
		return "beta must be below 1024 (cwnd must decrease on loss)";
	if (p->max_increment < 1)
		return "max_increment must be at least 1";
	if (p->smooth_part < 1)
		return "smooth_part must be at least 1";
	return 0;
}

/*
 * cnt for the window cwnd, given Wmax (last_max_cwnd, 0 before the first
 * loss) and the ACK ratio estimate delayed_ack (packets per ACK << 4):
 * cwnd then grows by one segment each cnt segments acked.
 */
static inline __u32 bic_calc_cnt(__u32 cwnd, __u32 last_max_cwnd, __u32 delayed_ack,
			    const struct bic_params *p)
{
	__u32 max_inc = p->max_increment ? p->max_increment : 1;
	__u32 smooth = p->smooth_part ? p->smooth_part : 1;
	__u64 cnt;

	/* Reno: one segment per RTT */
	if (cwnd <= p->low_window)
		return cwnd ? cwnd : 1;

	if (cwnd < last_max_cwnd) {
		/* binary search towards Wmax */
		__u32 dist = (last_max_cwnd - cwnd) / BIC_B;

		if (dist > max_inc)
			cnt = cwnd / max_inc;			/* additive: Smax per RTT */
		else if (dist <= 1)
			cnt = (__u64)cwnd * smooth / BIC_B;	/* Smin per RTT */
		else
			cnt = cwnd / dist;			/* dist per RTT */
	} else {
		/* max probing: slow start away from Wmax, then linear */
		__u64 beyond = (__u64)cwnd - last_max_cwnd;

		if (beyond < BIC_B)
			cnt = (__u64)cwnd * smooth / BIC_B;	/* Smin per RTT */
		else if (beyond < (__u64)max_inc * (BIC_B - 1))
			cnt = (__u64)cwnd * (BIC_B - 1) / beyond; /* beyond/(B-1) per RTT */
		else
			cnt = cwnd / max_inc;			/* Smax per RTT */
	}

	/* No loss seen yet (slow start exit or idle link): at least 5% per RTT. */
	if (last_max_cwnd == 0 && cnt > BIC_NO_LOSS_MAX_CNT)
		cnt = BIC_NO_LOSS_MAX_CNT;

	/* The kernel compensates for delayed ACKs: fewer ACKs, smaller cnt. */
	cnt = (cnt << BIC_ACK_RATIO_SHIFT) / (delayed_ack ? delayed_ack : BIC_INIT_DELAYED_ACK);
	if (cnt == 0)
		cnt = 1;
	return cnt > 0xffffffffULL ? 0xffffffffU : (__u32)cnt;
}

/* Wmax after a loss at cwnd: fast convergence gives bandwidth back to newcomers. */
static inline __u32 bic_calc_wmax(__u32 cwnd, __u32 last_max_cwnd, const struct bic_params *p)
{
	if (cwnd < last_max_cwnd && p->fast_convergence)
		return (__u32)((__u64)cwnd * (BIC_BETA_SCALE + p->beta) / (2 * BIC_BETA_SCALE));
	return cwnd;
}

/* ssthresh after a loss at cwnd: Reno's half below low_window, else cwnd * beta. */
static inline __u32 bic_calc_ssthresh(__u32 cwnd, const struct bic_params *p)
{
	__u32 s;

	if (cwnd <= p->low_window)
		s = cwnd >> 1;
	else
		s = (__u32)((__u64)cwnd * p->beta / BIC_BETA_SCALE);
	return s > 2 ? s : 2;
}

/* EWMA of packets per ACK, weight 1/16, in << 4 fixed point: da += sample - da/16. */
static inline __u32 bic_calc_delayed_ack(__u32 delayed_ack, __u32 pkts_acked)
{
	return delayed_ack + pkts_acked - (delayed_ack >> BIC_ACK_RATIO_SHIFT);
}

#endif /* TCPCA_BIC_H */
