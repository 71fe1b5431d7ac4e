/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TCP Illinois: tunables and arithmetic, shared by bpf/illinois.bpf.c and
 * the host (loader table, tests/unit/test_illinois.c).
 *
 * Liu, Basar and Srikant (Performance Evaluation 65(6-7), 2008; VALUETOOLS
 * 2006) keep Reno's loss-driven AIMD but let the queueing delay choose its
 * two constants.  With da the average queueing delay of the last RTT
 * (average RTT - BaseRTT) and dm the largest queueing delay seen
 * (max RTT - BaseRTT):
 *
 *	alpha(da) = alpha_max			da <= d1 = dm / 100
 *	          = k1 / (k2 + da)		above, falling to alpha_min at dm,
 *	  k1 = (dm - d1) amin amax / (amax - amin), k2 = (dm - d1) amin / (amax - amin) - d1
 *	beta(da)  = beta_min			da <= d2 = dm / 10
 *	          = linear from beta_min to beta_max between d2 and d3 = 8 dm / 10
 *	          = beta_max			da >= d3
 *
 * alpha_max = 10, alpha_min = 0.3, beta_min = 1/8, beta_max = 1/2: cwnd
 * grows by alpha segments per RTT and loses beta of itself on a loss.  An
 * empty queue so grows ten times faster than Reno and backs off by an
 * eighth; a full one grows at 0.3 per RTT and halves.
 *
 * As in Linux's net/ipv4/tcp_illinois.c: alpha is in 1/128 (alpha_min is
 * 38/128 = 0.297), beta in 1/64; RTT samples are capped at 2^32 / (10 * 128)
 * us (3.36 s) so that the u32 products below cannot wrap; below win_thresh
 * segments the constants are Reno's (1 and 1/2); after the queue has once
 * been above d1, alpha returns to alpha_max only after theta RTTs in a row
 * below it; a timeout resets both to Reno's.
 */
#ifndef TCPCA_ILLINOIS_H
#define TCPCA_ILLINOIS_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "tcpca_params.h"

/*
 * P(name, default, min, max, unit, description).  Both are read at every
 * once-per-RTT update, so --set acts on existing sockets from their next RTT.
 */
#define ILLINOIS_PARAMS(P)							\
	P(win_thresh, 15, 0, 0x7fffffff, "packets",				\
	  "below this cwnd alpha and beta are Reno's (1 and 1/2) (per RTT)")	\
	P(theta, 5, 0, 255, "RTTs",						\
	  "RTTs in a row with a low delay before alpha returns to its maximum (per RTT)")

struct illinois_params {
	ILLINOIS_PARAMS(TCPCA_PARAM_FIELD)
};

/* Nothing to check beyond the ranges of ILLINOIS_PARAMS. */
static inline const char *illinois_check_params(const __u32 *v)
{
	(void)v;
	return 0;
}

#define ILLINOIS_ALPHA_SHIFT	7
#define ILLINOIS_ALPHA_SCALE	(1U << ILLINOIS_ALPHA_SHIFT)
#define ILLINOIS_ALPHA_MIN	((3 * ILLINOIS_ALPHA_SCALE) / 10)	/* 38/128 ~ 0.3 */
#define ILLINOIS_ALPHA_MAX	(10 * ILLINOIS_ALPHA_SCALE)		/* 10 */
#define ILLINOIS_ALPHA_BASE	ILLINOIS_ALPHA_SCALE			/* 1, Reno's */
#define ILLINOIS_RTT_MAX	(0xffffffffU / ILLINOIS_ALPHA_MAX)	/* us: 3.36 s */

#define ILLINOIS_BETA_SHIFT	6
#define ILLINOIS_BETA_SCALE	(1U << ILLINOIS_BETA_SHIFT)
#define ILLINOIS_BETA_MIN	(ILLINOIS_BETA_SCALE / 8)		/* 1/8 */
#define ILLINOIS_BETA_MAX	(ILLINOIS_BETA_SCALE / 2)		/* 1/2 */
#define ILLINOIS_BETA_BASE	ILLINOIS_BETA_MAX			/* Reno's */

#define ILLINOIS_RTT_NONE	0x7fffffffU	/* no RTT sample yet (base_rtt starts here) */

/* An RTT sample as kept: capped at ILLINOIS_RTT_MAX (us). */
static inline __u32 illinois_rtt_sample(__u32 rtt_us)
{
	return rtt_us > ILLINOIS_RTT_MAX ? ILLINOIS_RTT_MAX : rtt_us;
}

/* da: this RTT's average sample less BaseRTT, us (cnt > 0; 0 otherwise). */
static inline __u32 illinois_avg_delay(__u64 sum_rtt, __u32 cnt, __u32 base_rtt)
{
	if (cnt == 0)
		return 0;
	return (__u32)(sum_rtt / (__u64)cnt) - base_rtt;
}

/* What alpha() reads and writes besides da and dm. */
struct illinois_alpha_state {
	__u32 alpha;		/* current alpha, 1/128 */
	__u32 rtt_above;	/* 1 once da went above d1 (until theta low RTTs) */
	__u32 rtt_low;		/* RTTs in a row with da <= d1 since (u8 in the module) */
};

/*
 * The curve alone: alpha in 1/128 for a queueing delay da above
 * d1 = dm / 100 (so dm - d1 > 0), k1 / (k2 + da) in the module's form
 * (dm - d1) amax / ((dm - d1) + (da - d1) (amax - amin) / amin).  da <= dm.
 */
static inline __u32 illinois_alpha_curve(__u32 da, __u32 dm)
{
	__u32 d1 = dm / 100;
	__u64 num, den;

	if (da <= d1)
		return ILLINOIS_ALPHA_MAX;
	dm -= d1;
	da -= d1;
	num = (__u64)dm * ILLINOIS_ALPHA_MAX;
	den = (__u64)dm + (__u64)da * (ILLINOIS_ALPHA_MAX - ILLINOIS_ALPHA_MIN) / ILLINOIS_ALPHA_MIN;
	return (__u32)(num / den);	/* den >= dm - d1 + 1 > 0 */
}

/*
 * alpha for this RTT, with the module's hysteresis: at a low delay
 * (da <= d1) alpha_max if the delay never rose since the last reset,
 * otherwise the current alpha until theta such RTTs in a row, then
 * alpha_max (and the hysteresis starts over).
 */
static inline __u32 illinois_alpha(struct illinois_alpha_state *s, __u32 da, __u32 dm,
				   __u32 theta)
{
	if (da <= dm / 100) {
		if (!s->rtt_above)
			return ILLINOIS_ALPHA_MAX;
		s->rtt_low = (s->rtt_low + 1) & 0xff;	/* u8, as in the module */
		if (s->rtt_low < theta)
			return s->alpha;
		s->rtt_low = 0;
		s->rtt_above = 0;
		return ILLINOIS_ALPHA_MAX;
	}
	s->rtt_above = 1;
	return illinois_alpha_curve(da, dm);
}

/* beta in 1/64: 1/8 up to d2 = dm/10, 1/2 from d3 = 8 dm/10, linear between. */
static inline __u32 illinois_beta(__u32 da, __u32 dm)
{
	__u32 d2 = dm / 10, d3 = (8 * dm) / 10;

	if (da <= d2)
		return ILLINOIS_BETA_MIN;
	if (da >= d3 || d3 <= d2)
		return ILLINOIS_BETA_MAX;
	return (__u32)(((__u64)ILLINOIS_BETA_MIN * d3 + (__u64)(ILLINOIS_BETA_MAX - ILLINOIS_BETA_MIN) * da -
			(__u64)ILLINOIS_BETA_MAX * d2) / (d3 - d2));
}

/* The part of the socket the additive increase changes. */
struct illinois_window {
	__u32 cwnd;		/* snd_cwnd, segments */
	__u32 cwnd_cnt;		/* snd_cwnd_cnt, segments acked since the last increase */
};

/*
 * Congestion avoidance per ACK of acked segments: cwnd += alpha / cwnd, as
 * the module does it: once cwnd_cnt * alpha reaches cwnd (in 1/128), cwnd
 * grows by the whole segments that makes and the count restarts; at most
 * to clamp.  So alpha/128 segments per RTT.
 */
static inline void illinois_ai(struct illinois_window *w, __u32 acked, __u32 alpha, __u32 clamp)
{
	__u32 delta;

	w->cwnd_cnt += acked;
	delta = (__u32)(((__u64)w->cwnd_cnt * alpha) >> ILLINOIS_ALPHA_SHIFT);
	if (w->cwnd && delta >= w->cwnd) {
		__u32 c = w->cwnd + delta / w->cwnd;

		w->cwnd = c < clamp ? c : clamp;
		w->cwnd_cnt = 0;
	}
}

/* ssthresh after a loss: cwnd less beta of it, never below 2 segments. */
static inline __u32 illinois_calc_ssthresh(__u32 cwnd, __u32 beta)
{
	__u32 decr = (__u32)(((__u64)cwnd * beta) >> ILLINOIS_BETA_SHIFT);

	return cwnd - decr > 2 ? cwnd - decr : 2;
}

#endif /* TCPCA_ILLINOIS_H */
