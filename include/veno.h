/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TCP Veno: tunables and arithmetic, shared by bpf/veno.bpf.c and the host
 * (loader table, tests/unit/test_veno.c).
 *
 * Fu and Liew (IEEE JSAC 21(2), 2003) use the Vegas estimate of the packets
 * a flow keeps in the bottleneck queue,
 *
 *	N = (Expected - Actual) * BaseRTT = (cwnd/BaseRTT - cwnd/RTT) * BaseRTT
 *
 * not to steer the window (as Vegas does) but to tell what a loss means:
 * with N < beta the queue is nearly empty, so the loss was random (a
 * wireless link's), and the window loses only a fifth; with N >= beta the
 * path is congested and the window is halved as Reno's.  In congestion
 * avoidance the window grows by one segment per RTT while N < beta and by
 * one every other RTT once N >= beta, so that it stays longer near the
 * point of congestion.
 *
 * Linux's net/ipv4/tcp_veno.c computes N in half packets (one bit of
 * fraction): the target window cwnd * BaseRTT / RTT is truncated in that
 * unit and subtracted from 2 * cwnd, which makes the module's N equal to
 * ceil(2 N) / 2.  So the module's "N < beta" is "2 N <= 2 beta - 1", i.e.
 * N <= beta - 1/2: a queue of 2.5 to 3 packets already counts as
 * congestion, half a packet earlier than the paper's rule.  That is the
 * module's behaviour and is kept (tests/unit/test_veno.c shows the band).
 *
 * The module's beta is a constant (3 packets); like HighSpeed's cwnd cap it
 * is a tunable here, with the module's value as its default.
 */
#ifndef TCPCA_VENO_H
#define TCPCA_VENO_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "tcpca_params.h"

/*
 * P(name, default, min, max, unit, description).  beta is read on every
 * ACK and at every loss, so --set acts on existing sockets at once.
 */
#define VENO_PARAMS(P)								\
	P(beta, 3, 0, 65535, "packets",						\
	  "queued packets from which Veno sees congestion: halve on loss, grow every other RTT; below: cut 1/5")

struct veno_params {
	VENO_PARAMS(TCPCA_PARAM_FIELD)
};

#define VENO_SHIFT		1		/* diff is in 1/2 packet */
#define VENO_RTT_NONE		0x7fffffffU	/* no RTT sample (the min filters start here) */
#define VENO_MIN_SAMPLES	3		/* fewer samples ever: act as Reno */

/*
 * The module's N in half packets: 2 * cwnd - floor(2 * cwnd * base_rtt / rtt),
 * which is ceil(2 N) for the paper's N.  RTTs in us (+1, as the samples are
 * kept); rtt is never below base_rtt in use (both come from the same
 * samples), and a missing sample (VENO_RTT_NONE) reads as a queue of nearly
 * the whole window, as in the module.  0 if rtt is 0.
 */
static inline __u32 veno_diff(__u32 cwnd, __u32 base_rtt, __u32 rtt)
{
	__u64 target;

	if (rtt == 0)
		return 0;
	target = ((__u64)cwnd * base_rtt << VENO_SHIFT) / (__u64)rtt;
	return (__u32)(((__u64)cwnd << VENO_SHIFT) - target);
}

/* Congestive state: diff (half packets) at or above beta (packets). */
static inline int veno_congestive(__u32 diff, __u32 beta)
{
	return diff >= (beta << VENO_SHIFT);
}

/*
 * The new ssthresh at a loss: a random loss (not congestive) keeps 4/5 of
 * the window, a congestive one half, never below 2 segments.  64-bit
 * product (the module's u32 cwnd * 4 wraps beyond 2^30 segments).
 */
static inline __u32 veno_calc_ssthresh(__u32 cwnd, __u32 diff, __u32 beta)
{
	__u32 s;

	if (veno_congestive(diff, beta))
		s = cwnd >> 1;
	else
		s = (__u32)((__u64)cwnd * 4 / 5);
	return s > 2 ? s : 2;
}

/* The part of the socket the congestive-state growth changes. */
struct veno_window {
	__u32 cwnd;		/* snd_cwnd, segments */
	__u32 cwnd_cnt;		/* snd_cwnd_cnt, segments acked since the last step */
};

/*
 * Congestion avoidance in the congestive state, per ACK of acked segments:
 * once a window's worth has been acked (cwnd_cnt >= cwnd) a step is taken
 * and the count restarts (that ACK's segments are not counted, as in the
 * module); the steps alternate between "grow by one" (unless at clamp) and
 * "wait", so cwnd grows by one segment every other RTT.  *inc says whether
 * the next step grows.
 */
static inline void veno_congestive_ai(struct veno_window *w, __u32 *inc, __u32 acked,
				      __u32 clamp)
{
	if (w->cwnd_cnt >= w->cwnd) {
		if (*inc && w->cwnd < clamp) {
			w->cwnd++;
			*inc = 0;
		} else {
			*inc = 1;
		}
		w->cwnd_cnt = 0;
	} else {
		w->cwnd_cnt += acked;
	}
}

#endif /* TCPCA_VENO_H */
