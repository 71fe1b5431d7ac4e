/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TCP Vegas: tunables and the once-per-RTT arithmetic, shared by
 * bpf/vegas.bpf.c and the host (loader table, tests/unit/test_vegas.c).
 *
 * Brakmo & Peterson (IEEE JSAC 13(8), 1995) compare the rate the window
 * would give on an empty path with the rate it actually gets:
 *
 *	Expected = cwnd / BaseRTT	Actual = cwnd / RTT
 *	Diff     = (Expected - Actual) * BaseRTT = cwnd * (RTT - BaseRTT) / RTT
 *
 * Diff, in packets, is the part of the window that sits in queues.  Vegas
 * keeps it between alpha and beta in congestion avoidance (one segment more
 * per RTT below alpha, one less above beta) and leaves slow start as soon as
 * it exceeds gamma, setting cwnd to the window that matches the actual rate,
 * target = cwnd * BaseRTT / RTT, plus one segment for the truncation.
 *
 * RTTs are microseconds, as in today's kernel module; the arithmetic is u64
 * with unsigned divisors only (the BPF side is built by clang 14, which
 * rejects signed division).  The module computes Diff's product
 * cwnd * (RTT - BaseRTT) in u32, which wraps once it reaches 2^32 (e.g.
 * 1000 packets and 4.3 s of queueing delay, or 43,000 packets and 100 ms):
 * the wrapped Diff is small, so the module then grows a window that is
 * badly over the path.  Here it is 64-bit, a deliberate departure.
 */
#ifndef TCPCA_VEGAS_H
#define TCPCA_VEGAS_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "tcpca_params.h"
#include "tcpca_tcp.h"

/*
 * P(name, default, min, max, unit, description).  alpha, beta and gamma are
 * read at every once-per-RTT decision, so --set acts on existing sockets
 * from their next RTT; so does ss_every_other.
 */
#define VEGAS_PARAMS(P)								\
	P(alpha, 2, 0, 65535, "packets",					\
	  "grow cwnd by one per RTT while fewer than this many packets are queued") \
	P(beta, 4, 0, 65535, "packets",						\
	  "shrink cwnd by one per RTT while more than this many packets are queued") \
	P(gamma, 1, 0, 65535, "packets",					\
	  "leave slow start once more than this many packets are queued")	\
	P(ss_every_other, 0, 0, 1, "bool",					\
	  "1: the paper's slow start, doubling only every other RTT; 0: every RTT as the kernel")

struct vegas_params {
	VEGAS_PARAMS(TCPCA_PARAM_FIELD)
};

/* Consistency beyond the ranges of VEGAS_PARAMS (which the loader checks first). */
static inline const char *vegas_check_params(const __u32 *v)
{
	const struct vegas_params *p = (const struct vegas_params *)v;

	if (p->alpha > p->beta)
		return "alpha must not exceed beta";
	return 0;
}

#define VEGAS_RTT_NONE		0x7fffffffU	/* no RTT sample yet (min filters start here) */
#define VEGAS_MIN_SAMPLES	3		/* fewer samples in an RTT: act as Reno */

/*
 * Diff in whole packets, the module's formula
 * cwnd * (rtt - base_rtt) / base_rtt, truncated, but without the module's
 * u32 wrap of the product (see the top of this file); 0 when rtt is not
 * above base_rtt (no queue seen) or there is no sample.  The paper's
 * (Expected - Actual) * BaseRTT divides by rtt instead; the module's form is
 * that times rtt / base_rtt, so it reaches alpha and beta at a slightly
 * smaller queue.  Saturates at 2^32 - 1 on absurd RTT spikes.
 */
static inline __u32 vegas_diff(__u32 cwnd, __u32 base_rtt, __u32 rtt)
{
	__u64 d;

	if (rtt == 0 || base_rtt == 0 || rtt <= base_rtt)
		return 0;
	d = (__u64)cwnd * (rtt - base_rtt) / (__u64)base_rtt;
	return d > 0xffffffffULL ? 0xffffffffU : (__u32)d;
}

/* The window that sends at the actual rate: cwnd * base_rtt / rtt, truncated. */
static inline __u32 vegas_target_cwnd(__u32 cwnd, __u32 base_rtt, __u32 rtt)
{
	__u64 t;

	if (rtt == 0 || base_rtt >= rtt)
		return cwnd;
	t = (__u64)cwnd * base_rtt / (__u64)rtt;
	return (__u32)t;	/* t < cwnd */
}

/* What the once-per-RTT decision does to cwnd. */
enum vegas_action {
	VEGAS_SLOW_START,	/* keep doubling */
	VEGAS_SS_EXIT,		/* leave slow start: cwnd = min(cwnd, target + 1) */
	VEGAS_INCREASE,		/* congestion avoidance: cwnd + 1 */
	VEGAS_HOLD,		/* alpha <= diff <= beta: keep cwnd */
	VEGAS_DECREASE,		/* cwnd - 1 */
};

static inline enum vegas_action vegas_decide(__u32 diff, int in_slow_start,
					     const struct vegas_params *p)
{
	if (in_slow_start)
		return diff > p->gamma ? VEGAS_SS_EXIT : VEGAS_SLOW_START;
	if (diff > p->beta)
		return VEGAS_DECREASE;
	if (diff < p->alpha)
		return VEGAS_INCREASE;
	return VEGAS_HOLD;
}

/* The part of the socket the once-per-RTT step changes. */
struct vegas_window {
	__u32 cwnd;		/* snd_cwnd, segments */
	__u32 ssthresh;		/* snd_ssthresh, segments */
};

/*
 * The once-per-RTT step on cwnd and ssthresh, in the module's order
 * (tcp_vegas_cong_avoid):
 *  1. the action: leaving slow start sets cwnd = min(cwnd, target + 1) and
 *     then ssthresh = min(ssthresh, that new cwnd); a decrease takes one
 *     segment and then sets ssthresh = min(ssthresh, that new cwnd), before
 *     the floor below (so a decrease from 2 leaves ssthresh at 1); an
 *     increase adds one; hold and slow start (whose growth is the kernel's
 *     tcp_slow_start(), applied before this) leave both;
 *  2. cwnd at least 2, else at most clamp;
 *  3. ssthresh = tcp_current_ssthresh() of the result (cwr_or_recovery is
 *     whether the socket is in CWR or Recovery).
 */
static inline void vegas_step(struct vegas_window *w, enum vegas_action a, __u32 base_rtt,
			      __u32 rtt, __u32 clamp, int cwr_or_recovery)
{
	__u32 target;

	switch (a) {
	case VEGAS_SS_EXIT:
		target = vegas_target_cwnd(w->cwnd, base_rtt, rtt) + 1;
		if (target < w->cwnd)
			w->cwnd = target;
		if (w->cwnd < w->ssthresh)
			w->ssthresh = w->cwnd;
		break;
	case VEGAS_DECREASE:
		w->cwnd--;
		if (w->cwnd < w->ssthresh)
			w->ssthresh = w->cwnd;
		break;
	case VEGAS_INCREASE:
		w->cwnd++;
		break;
	default:
		break;
	}
	if (w->cwnd < 2)
		w->cwnd = 2;
	else if (w->cwnd > clamp)
		w->cwnd = clamp;
	w->ssthresh = tcpca_current_ssthresh(w->cwnd, w->ssthresh, cwr_or_recovery);
}

#endif /* TCPCA_VEGAS_H */
