/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TCP Hybla: tunables and fixed-point arithmetic, shared by bpf/hybla.bpf.c
 * and the host (loader table, tests/unit/test_hybla.c).
 *
 * Hybla (Caini & Firrincieli, 2004) normalises the window growth of a
 * long-RTT connection to that of a reference connection whose RTT is rtt0:
 *
 *	rho		= max(RTT / rtt0, 1)
 *	slow start	W += 2^rho - 1		per ACK
 *	cong. avoid.	W += rho^2 / W		per ACK
 *
 * so that W(t)/RTT evolves as it would at rtt0.  Everything is integer fixed
 * point, with the shifts of the kernel module:
 *
 *	rho_3ls		rho << 3, from srtt_us (which the stack keeps << 3 already)
 *	rho		rho_3ls >> 3, integer part
 *	rho2_7ls	rho^2 << 7 = (rho_3ls * rho_3ls) << 1
 *	increments	<< 7: the integer part goes into cwnd, the remainder
 *			(< 128) into snd_cwnd_cents, carried over to later ACKs
 *	2^rho		2^int(rho) * 2^(frac/8), the second from hybla_fraction()
 */
#ifndef TCPCA_HYBLA_H
#define TCPCA_HYBLA_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "tcpca_params.h"

/*
 * rtt0 is read whenever rho is computed: at init, when the smallest srtt seen
 * drops, and on the next ACK after --set changes it (the program notices).
 * abc is read on every ACK; keep_iw only at init.  The defaults are the
 * module's (abc=0 keep_iw=0); abc=1 keep_iw=1 make Hybla Reno at rho = 1
 * on today's stack (delayed ACKs, IW10), as its authors meant it to be.
 */
#define HYBLA_PARAMS(P)								\
	P(rtt0, 25, 1, 4294967, "ms",						\
	  "reference RTT: rho = max(min srtt / rtt0, 1); 1000*rtt0 must fit in 32 bits") \
	P(abc, 0, 0, 1, "bool",							\
	  "0: the per-ACK rules once per ACK, as the module; 1: once per segment acked (RFC 3465)") \
	P(keep_iw, 0, 0, 1, "bool",						\
	  "0: initial cwnd rho, as the module; 1: max(rho, the stack's IW)")

struct hybla_params { HYBLA_PARAMS(TCPCA_PARAM_FIELD) };

#define HYBLA_SHIFT		7		/* increments and rho^2 are << 7 */
#define HYBLA_ONE		(1U << HYBLA_SHIFT)	/* 1.0 segment, << 7 */
#define HYBLA_RHO_SHIFT		3		/* rho is kept << 3 */
#define HYBLA_RHO_3LS_MIN	(1U << HYBLA_RHO_SHIFT)	/* rho >= 1 */
#define HYBLA_RHO_3LS_MAX	46340U		/* largest x with 2 * x * x < 2^32 */
#define HYBLA_POW_INT_MAX	16U		/* 2^int(rho) capped at 2^16, as the kernel */
#define HYBLA_CWND_CLAMP	65535U		/* the module sets snd_cwnd_clamp to this */

/*
 * 2^(k/8) << 7 for k = 0..7, rounded down: 128 * 2^(k/8) is
 * 128, 139.58, 152.22, 165.99, 181.02, 197.40, 215.27, 234.75.
 * The fractional part of rho has only eight steps (rho is << 3), so eight
 * rows cover every value; the unit test rebuilds each row from pow().
 */
TCPCA_TABLE const __u32 hybla_pow2_eighths_7ls[8] = {
	128, 139, 152, 165, 181, 197, 215, 234,
};

static inline __u32 hybla_fraction(__u32 eighths)
{
	return hybla_pow2_eighths_7ls[eighths & 7];
}

/*
 * rho << 3 from a smoothed RTT.  srtt_us is the stack's tp->srtt_us, i.e.
 * microseconds << 3, so dividing it by rtt0 in microseconds yields rho << 3
 * directly.  Below 1 (RTT < rtt0) rho is 1: Hybla is then plain Reno.
 * The kernel does not bound it above; we cap it where rho2_7ls would
 * overflow 32 bits (rho ~ 5792, e.g. a 145 s RTT at rtt0 = 25 ms).
 */
static inline __u32 hybla_rho_3ls(__u32 srtt_us, __u32 rtt0_ms)
{
	__u32 rtt0_us = (rtt0_ms ? rtt0_ms : 1) * 1000U;
	__u32 r = srtt_us / rtt0_us;

	if (r < HYBLA_RHO_3LS_MIN)
		r = HYBLA_RHO_3LS_MIN;
	if (r > HYBLA_RHO_3LS_MAX)
		r = HYBLA_RHO_3LS_MAX;
	return r;
}

/* rho^2 << 7: (rho << 3)^2 is rho^2 << 6, one more shift makes it << 7. */
static inline __u32 hybla_rho2_7ls(__u32 rho_3ls)
{
	return (rho_3ls * rho_3ls) << 1;
}

/*
 * Slow-start increment per ACK, << 7: 2^rho - 1, computed as
 * 2^int(rho) * (2^frac(rho) << 7) - (1 << 7).  int(rho) is capped at 16 as
 * in the kernel, which keeps the product in 32 bits (at most 2^16 * 234).
 */
static inline __u32 hybla_ss_inc_7ls(__u32 rho_3ls)
{
	__u32 rho = rho_3ls >> HYBLA_RHO_SHIFT;

	if (rho > HYBLA_POW_INT_MAX)
		rho = HYBLA_POW_INT_MAX;
	return (1U << rho) * hybla_fraction(rho_3ls & 7) - HYBLA_ONE;
}

/* Congestion-avoidance increment per ACK, << 7: rho^2 / W. */
static inline __u32 hybla_ca_inc_7ls(__u32 rho2_7ls, __u32 cwnd)
{
	return rho2_7ls / (cwnd ? cwnd : 1);
}

/* The window as one ACK finds it and leaves it. */
struct hybla_window {
	__u32 cwnd;	/* snd_cwnd, segments */
	__u32 cnt;	/* snd_cwnd_cnt: segments acked without a whole-segment step */
	__u32 cents;	/* snd_cwnd_cents: fraction of a segment carried over, << 7, < 128 */
};

/*
 * One ACK of Hybla's growth, for 'acks' ACKs' worth (1 when counting ACKs as
 * the kernel does, the segments acked under abc).  The module adds the
 * integer part of the << 7 increment, adds the remainder to cents and then
 * moves whole segments from cents to cwnd in a while loop; since both the
 * remainder and the carried cents are below 128, at most one segment moves,
 * and a shift and a mask do the same without a loop.
 *
 * Then the module's guard for a window so large that rho^2/W rounds to 0:
 * one segment after cwnd ACKs, like Reno (with several ACKs at once, as many
 * segments as whole windows were acked).  Slow start never passes ssthresh;
 * nothing passes clamp.  Returns 1 if clamp cut the window.
 */
static inline int hybla_window_grow(struct hybla_window *w, __u32 ssthresh,
				    __u32 rho_3ls, __u32 rho2_7ls, __u32 acks, __u32 clamp)
{
	int slow_start = w->cwnd < ssthresh;
	__u64 inc, cwnd = w->cwnd;
	__u32 cents, per_ack;

	if (!acks)
		acks = 1;
	if (slow_start) {
		per_ack = hybla_ss_inc_7ls(rho_3ls);
	} else {
		per_ack = hybla_ca_inc_7ls(rho2_7ls, w->cwnd);
		if (per_ack < HYBLA_ONE)
			w->cnt += acks;
	}
	inc = (__u64)per_ack * acks;

	cwnd += inc >> HYBLA_SHIFT;
	cents = w->cents + (__u32)(inc & (HYBLA_ONE - 1));
	if (cents >= HYBLA_ONE) {
		cwnd += cents >> HYBLA_SHIFT;
		w->cnt = 0;
	}
	w->cents = cents & (HYBLA_ONE - 1);

	if (!inc && w->cwnd && w->cnt >= w->cwnd) {
		if (acks == 1) {		/* the module's step */
			cwnd++;
			w->cnt = 0;
		} else {			/* one per whole window acked */
			cwnd += w->cnt / w->cwnd;
			w->cnt %= w->cwnd;
		}
	}

	if (slow_start && cwnd > ssthresh)
		cwnd = ssthresh;
	if (cwnd > clamp) {
		w->cwnd = clamp;
		return 1;
	}
	w->cwnd = (__u32)cwnd;
	return 0;
}

/*
 * The first window: the module sets it to rho, which on today's stack is
 * below the IW of 10 whenever RTT < 10 * rtt0; keep_iw keeps the stack's
 * window as a floor so that Hybla is Reno when rho = 1.
 */
static inline __u32 hybla_init_cwnd(__u32 rho_3ls, __u32 stack_cwnd, __u32 keep_iw, __u32 clamp)
{
	__u32 cwnd = rho_3ls >> HYBLA_RHO_SHIFT;

	if (keep_iw && stack_cwnd > cwnd)
		cwnd = stack_cwnd;
	return cwnd < clamp ? cwnd : clamp;
}

#endif /* TCPCA_HYBLA_H */
