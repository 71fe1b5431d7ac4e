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
 * rejects signed division).
 */
#ifndef TCPCA_VEGAS_H
#define TCPCA_VEGAS_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "tcpca_params.h"

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
 * Diff in whole packets, as the kernel module computes it:
 * cwnd * (rtt - base_rtt) / base_rtt, truncated; 0 when rtt is not above
 * base_rtt (no queue seen) or there is no sample.  The paper's
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

/*
 * cwnd after the once-per-RTT decision (slow start's own growth is the
 * kernel's tcp_slow_start, not this), at least 2 segments, at most clamp.
 */
static inline __u32 vegas_next_cwnd(__u32 cwnd, __u32 base_rtt, __u32 rtt,
				    enum vegas_action a, __u32 clamp)
{
	__u32 target;

	switch (a) {
	case VEGAS_SS_EXIT:
		target = vegas_target_cwnd(cwnd, base_rtt, rtt) + 1;
		if (target < cwnd)
			cwnd = target;
		break;
	case VEGAS_INCREASE:
		cwnd++;
		break;
	case VEGAS_DECREASE:
		cwnd--;
		break;
	default:
		break;
	}
	if (cwnd < 2)
		cwnd = 2;
	if (cwnd > clamp)
		cwnd = clamp;
	return cwnd;
}

#endif /* TCPCA_VEGAS_H */
