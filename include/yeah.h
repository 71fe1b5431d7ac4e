/* SPDX-License-Identifier: GPL-2.0 */
/*
 * YeAH-TCP: tunables and arithmetic, shared by bpf/yeah.bpf.c and the host
 * (loader table, tests/unit/test_yeah.c).
 *
 * A. Baiocchi, A. P. Castellani, F. Vacirca, "YeAH-TCP: Yet Another Highspeed
 * TCP", PFLDnet 2007.  YeAH runs in one of two modes, chosen once per RTT
 * from the Vegas estimate of the packets this flow keeps queued,
 *
 *	Q = cwnd * (RTT - BaseRTT) / RTT,
 *
 * and from the queueing delay RTT - BaseRTT itself:
 *  - Fast (Q <= alpha and a delay at most BaseRTT / phy): the window grows as
 *    Scalable TCP's, a segment per 100 acked (Reno's 1/cwnd below 100);
 *  - Slow (either above): Reno's growth, and when Q > alpha the window gives
 *    up Q / gamma packets (at most cwnd >> epsilon, and not below
 *    reno_count, the estimate of a competing Reno flow's window) at once:
 *    "precautionary decongestion", which empties the queue it built.
 * At a loss the window keeps all but the queue it had, Q (between
 * cwnd >> delta and half of it), unless it has been slow for rho RTTs in a
 * row: then it is competing with Reno flows, and halves as they do.
 * reno_count follows the competing flow: halved at every loss, grown by one
 * per slow RTT, reset to 2 after zeta fast RTTs.
 *
 * Linux's net/ipv4/tcp_yeah.c has these as constants (TCP_YEAH_ALPHA 80,
 * GAMMA 1, DELTA 3, EPSILON 1, PHY 8, RHO 16, ZETA 50); they are tunables
 * here with those defaults, as Veno's beta is.
 */
#ifndef TCPCA_YEAH_H
#define TCPCA_YEAH_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "tcpca_params.h"

/*
 * P(name, default, min, max, unit, description).  All are read once per RTT
 * or at a loss, so --set acts on existing sockets at once.
 */
#define YEAH_PARAMS(P)								\
	P(alpha, 80, 1, 1000000, "packets",					\
	  "queue from which YeAH goes slow (Reno) and gives the queue back (decongestion)") \
	P(gamma, 1, 1, 1024, "divisor",						\
	  "decongestion gives up queue / gamma packets per RTT")		\
	P(delta, 3, 1, 16, "shift",						\
	  "a loss in fast mode cuts at least cwnd >> delta")			\
	P(epsilon, 1, 1, 16, "shift",						\
	  "decongestion gives up at most cwnd >> epsilon per RTT")		\
	P(phy, 8, 1, 1024, "divisor",						\
	  "queueing delay above BaseRTT / phy is slow mode")			\
	P(rho, 16, 1, 16777215, "RTTs",						\
	  "slow RTTs in a row after which a loss halves cwnd (competing Reno flows)") \
	P(zeta, 50, 1, 1000000, "RTTs",						\
	  "fast RTTs after which the competing Reno window is forgotten (reno_count = 2)")

struct yeah_params {
	YEAH_PARAMS(TCPCA_PARAM_FIELD)
};

/* Nothing to check beyond the ranges of YEAH_PARAMS. */
static inline const char *yeah_check_params(const __u32 *v)
{
	(void)v;
	return 0;
}

#define YEAH_AI_CNT		100U		/* Scalable's TCP_SCALABLE_AI_CNT */
#define YEAH_SLOW_MAX		0xffffffU	/* the module's cap on doing_reno_now */
#define YEAH_MIN_SAMPLES	3		/* fewer samples in an RTT: no decision */

/*
 * Q, the packets queued: cwnd * (rtt - base_rtt) / rtt, truncated, in 64
 * bits as the module's.  RTTs in us (+1, as the samples are kept); rtt is
 * never below base_rtt in use (both come from the same samples).
 */
static inline __u32 yeah_queue(__u32 cwnd, __u32 base_rtt, __u32 rtt)
{
	if (rtt <= base_rtt)
		return 0;
	return (__u32)((__u64)cwnd * (rtt - base_rtt) / rtt);
}

/* What the once-per-RTT step reads and changes. */
struct yeah_window {
	__u32 cwnd;		/* snd_cwnd, segments */
	__u32 ssthresh;		/* snd_ssthresh, segments (set by decongestion) */
	__u32 reno_count;	/* the competing Reno flow's window, estimated */
	__u32 doing_reno_now;	/* slow RTTs in a row (0 = fast mode) */
	__u32 fast_count;	/* fast RTTs since reno_count was last reset */
	__u32 last_q;		/* Q of this RTT, packets (the next loss reads it) */
};

/*
 * The end of an RTT with enough samples (the module's do_vegas block):
 * mode, decongestion, reno_count.  Returns the packets decongestion gave up
 * (0: none).  The caller has already grown cwnd for this ACK, as the module
 * does before it.
 */
static inline __u32 yeah_rtt_step(struct yeah_window *w, __u32 base_rtt, __u32 rtt,
				  const struct yeah_params *p)
{
	__u32 queue = yeah_queue(w->cwnd, base_rtt, rtt), cut = 0;

	if (queue > p->alpha || rtt - base_rtt > base_rtt / p->phy) {
		if (queue > p->alpha && w->cwnd > w->reno_count) {
			__u32 r = queue / p->gamma, most = w->cwnd >> p->epsilon;

			r = r < most ? r : most;
			cut = w->cwnd - r < w->reno_count ? w->cwnd - w->reno_count : r;
			w->cwnd -= cut;
			w->ssthresh = w->cwnd;
		}
		if (w->reno_count <= 2)
			w->reno_count = w->cwnd >> 1 > 2 ? w->cwnd >> 1 : 2;
		else
			w->reno_count++;
		if (w->doing_reno_now < YEAH_SLOW_MAX)
			w->doing_reno_now++;
	} else {
		if (++w->fast_count > p->zeta) {
			w->reno_count = 2;
			w->fast_count = 0;
		}
		w->doing_reno_now = 0;
	}
	w->last_q = queue;
	return cut;
}

/*
 * ssthresh after a loss at cwnd: give back the queue last measured, between
 * cwnd >> delta and half the window (at least 2), or half the window after
 * rho slow RTTs in a row; at least 2.  Signed and 64-bit where the module
 * is int (the same below its 2^25-segment clamp).
 */
static inline __u32 yeah_calc_ssthresh(__u32 cwnd, __u32 last_q, __u32 doing_reno_now,
				       const struct yeah_params *p)
{
	__u32 half = cwnd >> 1 > 2 ? cwnd >> 1 : 2, r;
	__s64 s;

	if (doing_reno_now < p->rho) {
		r = last_q < half ? last_q : half;
		if (r < cwnd >> p->delta)
			r = cwnd >> p->delta;
	} else {
		r = half;
	}
	s = (__s64)cwnd - r;
	return s > 2 ? (__u32)s : 2;
}

/* reno_count after a loss: the competing flow halved too (at least 2). */
static inline __u32 yeah_loss_reno_count(__u32 reno_count)
{
	return reno_count >> 1 > 2 ? reno_count >> 1 : 2;
}

#endif /* TCPCA_YEAH_H */
