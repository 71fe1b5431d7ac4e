/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CAIA Delay-Gradient (CDG): tunables and arithmetic, shared by
 * bpf/cdg.bpf.c and the host (loader table, tests/unit/test_cdg.c).
 *
 * D.A. Hayes and G. Armitage, "Revisiting TCP congestion control using delay
 * gradients", IFIP Networking 2011.  Once per RTT CDG takes the smallest and
 * the largest RTT sample of the round, and their change since the previous
 * round: the delay gradients g_min and g_max.  Smoothed over a moving window
 * of a rounds, the paper's gradient is (rtt_latest - rtt_oldest) / a; Linux's
 * net/ipv4/tcp_cdg.c keeps the window's sum instead (the division by a is
 * folded into the back-off factor).  A rising delay means a growing queue,
 * and CDG backs off (cwnd * beta, beta = 0.7) with the probability
 *
 *	P[backoff] = 1 - exp(-g / G)
 *
 * which the module writes as 1 - exp(-g_sum * backoff_factor * 1e-6), i.e.
 * backoff_factor = 1e6 / (G * a) for g_sum in us: the default 42 with a = 8
 * is the paper's G = 3 ms (1e6 / 42 / 8 = 2976 us).  exp() is a table of
 * 16 factors e^-(2^k * 256e-6) in 16 bits and a linear first step (the
 * module's nexp_u32, cdg_nexp below): within 2.1e-5 of exp() (test_cdg),
 * so P is the paper's within 21 ppm.
 *
 * Two heuristics let CDG coexist with loss-based flows (the paper's §4):
 *  - ineffectual back-off: after use_ineff back-offs that did not make
 *    either gradient fall by 32 us or more, CDG stops backing off on delay
 *    (a competing loss-based flow keeps the queue up whatever CDG does)
 *    until a back-off is seen to work again;
 *  - the shadow window: what cwnd would have been without the delay
 *    back-offs (it grows with cwnd and is not cut by them); at a loss,
 *    ssthresh = max(shadow / 2, cwnd / 2), so a flow that yielded to delay
 *    does not lose twice.  Held within 2 cwnd (cwnd when app-limited).
 * With use_tolerance, a loss while the gradients say the queue is not full
 * (g_min rising but not g_max: FULL; both rising, or g_max falling:
 * NONFULL) is taken for a non-congestive one and does not reduce cwnd.
 *
 * The module's seven module_params are the tunables here, with its defaults
 * and ranges; window is read when a socket starts (the module's is fixed at
 * load), the others on every use.
 */
#ifndef TCPCA_CDG_H
#define TCPCA_CDG_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "tcpca_params.h"

/*
 * The largest window: the module's bound, and the size of the per-socket
 * gradient array that the BPF program keeps in socket storage (2 KiB).
 */
#define CDG_WINDOW_MAX		256U

/*
 * P(name, default, min, max, unit, description).  window is read at a
 * socket's init, so --set acts on new sockets only; the others on every use.
 */
#define CDG_PARAMS(P)								\
	P(window, 8, 1, CDG_WINDOW_MAX, "rounds",				\
	  "gradient moving window, a power of two (read at a socket's start)")	\
	P(backoff_beta, 724, 0, 1024, "1/1024",					\
	  "multiplicative decrease of a delay back-off: cwnd * beta / 1024 (0.7071)") \
	P(backoff_factor, 42, 0, 65535, "1e-6/us",				\
	  "P[backoff] = 1 - exp(-g_sum * factor / 1e6): 1e6 / (G * window), G in us") \
	P(hystart_detect, 3, 0, 3, "bits",					\
	  "hybrid slow start: 1 ACK train, 2 delay increase, 3 both, 0 none")	\
	P(use_ineff, 5, 0, 65535, "back-offs",					\
	  "stop backing off after this many ineffectual ones (0: never stop)")	\
	P(use_shadow, 1, 0, 1, "bool",						\
	  "loss: ssthresh from the shadow window, which delay back-offs do not cut") \
	P(use_tolerance, 0, 0, 1, "bool",					\
	  "loss while the gradients say the queue is not full: keep cwnd")

struct cdg_params {
	CDG_PARAMS(TCPCA_PARAM_FIELD)
};

/* window indexes an array by "& (window - 1)": a power of two. */
static inline const char *cdg_check_params(const __u32 *v)
{
	__u32 window = v[0];

	if (window == 0 || (window & (window - 1)))
		return "window must be a power of two (1, 2, 4, ... 256)";
	return 0;
}

/* The module's state values (its enum cdg_state). */
#define CDG_UNKNOWN		0
#define CDG_NONFULL		1	/* tolerance: the gradients say the queue is not full */
#define CDG_FULL		2	/* tolerance: ... that it is */
#define CDG_BACKOFF		3	/* a delay back-off asked for the cut */

#define CDG_EFFECTUAL_US	(-32)	/* a gradient sum this low: the back-off worked */
#define CDG_TOLERANCE_US	64	/* tolerance rounds the gradients to this */
#define CDG_BETA_ONE		1024U	/* backoff_beta's 1.0 */
#define CDG_DELACK_MAX		5	/* the delayed-ACK filter's count saturates here */
#define CDG_HYSTART_TRAIN	1	/* hystart_detect's bits */
#define CDG_HYSTART_DELAY	2
#define CDG_HYSTART_GAP_US	3000U	/* ACKs closer than this form a train */
#define CDG_HYSTART_MIN_US	125U	/* floor of both HyStart thresholds */
#define CDG_HYSTART_SAMPLES	8	/* rounds' first samples before the delay test */

#define CDG_U32_MAX		0xffffffffU

/* One round's RTT extremes, or one slot's gradients, in us. */
struct cdg_minmax {
	__s32 min;
	__s32 max;
};

/* The moving window's sums and position; its slots live elsewhere. */
struct cdg_window {
	struct cdg_minmax sum;	/* sum of the slots' gradients, us */
	__u8 tail;		/* the slot the next round overwrites */
	__u8 filled;		/* every slot written once (before: extrapolate) */
};

/* e^-(256e-6 * 2^k) * 65536 - 1, k = 0..15: cdg_nexp's factors */
TCPCA_TABLE const __u16 cdg_nexp_f[16] = {
	65518, 65501, 65468, 65401, 65267, 65001, 64470, 63422,
	61378, 57484, 50423, 38795, 22965, 8047, 987, 14,
};

/*
 * exp(-ux / 1e6) * (2^32 - 1), the module's approximation: the low 8 bits of
 * ux linearly (1 - x is within 3.3e-8 of e^-x for x < 256e-6), each higher
 * bit k by the factor e^-(256e-6 * 2^k) in 16 bits.  0 from ux >= 2^24
 * (e^-16.8 < 1e-7).  The factors are the module's, so the probabilities are
 * its own to the last bit.
 */
static inline __u32 cdg_nexp(__u32 ux)
{
	__u32 high = ux >> 8, res;
	int k;

	if (high > 0xffff)
		return 0;
	res = CDG_U32_MAX - (ux & 0xff) * (CDG_U32_MAX / 1000000);
	for (k = 0; k < 16; k++)
		if (high & (1U << k))
			res = (__u32)(((__u64)res * (cdg_nexp_f[k] + 1U)) >> 16);
	return res;
}

/*
 * Whether a uniform 32-bit random number rnd calls for a back-off at the
 * gradient grad (us, > 0): rnd > exp(-grad * factor / 1e6) * 2^32, so with
 * the probability 1 - e^(-g/G).  The product is the module's u32 (it wraps
 * only beyond 100 s of gradient).
 */
static inline int cdg_backoff_draw(__u32 rnd, __u32 grad, __u32 factor)
{
	return rnd > cdg_nexp(grad * factor);
}

/* The back-off probability in parts per million, for --events. */
static inline __u32 cdg_backoff_ppm(__u32 grad, __u32 factor)
{
	return 1000000U - (__u32)(((__u64)cdg_nexp(grad * factor) * 1000000U + (1ULL << 31)) >> 32);
}

/* a / b for b > 0, truncating toward zero as C does (BPF has no signed /). */
static inline __s32 cdg_sdiv(__s32 a, __u32 b)
{
	__u32 m = a < 0 ? -(__u32)a : (__u32)a;

	m /= b;
	return a < 0 ? -(__s32)m : (__s32)m;
}

/* The kernel's DIV_ROUND_CLOSEST(x, 64): halves away from zero. */
static inline __s32 cdg_round_tolerance(__s32 x)
{
	__u32 m = x < 0 ? -(__u32)x : (__u32)x;

	m = (m + CDG_TOLERANCE_US / 2) / CDG_TOLERANCE_US;
	return x < 0 ? -(__s32)m : (__s32)m;
}

/*
 * A round's gradients g (us: this round's min and max RTT less the last
 * round's) into the window of `window` slots (NULL: none, as when the module's
 * allocation failed).  On return g holds the window's sums (the round's own
 * without slots) and the result is the gradient the back-off reads: the sum
 * of g_min where that rises, else of g_max, scaled up to a whole window while
 * the window is still filling (and always without slots, window > 1).
 * window is a power of two <= CDG_WINDOW_MAX.
 */
static inline __s32 cdg_window_push(struct cdg_window *w, struct cdg_minmax *slots,
				    __u32 window, struct cdg_minmax *g)
{
	__u32 i = w->tail & (window - 1) & (CDG_WINDOW_MAX - 1);
	__s32 grad;

	if (slots) {
		w->sum.min += g->min - slots[i].min;
		w->sum.max += g->max - slots[i].max;
		slots[i] = *g;
		w->tail = (i + 1) & (window - 1);
		*g = w->sum;
	}
	grad = g->min > 0 ? g->min : g->max;
	if (!w->filled) {
		if (!slots && window > 1)
			grad = (__s32)((__u32)grad * window);
		else if (w->tail == 0)
			w->filled = 1;
		else
			grad = cdg_sdiv((__s32)((__u32)grad * window), w->tail);
	}
	return grad;
}

/* A back-off was effectual when either gradient sum fell by 32 us or more. */
static inline int cdg_effectual(const struct cdg_minmax *g)
{
	return g->min <= CDG_EFFECTUAL_US || g->max <= CDG_EFFECTUAL_US;
}

/*
 * use_tolerance's reading of the gradient sums, rounded to 64 us: min rising
 * and max not: the queue is full (max pinned by the buffer); both rising, or
 * max falling: not full.  Otherwise the state stays as it is.
 */
static inline __u8 cdg_tolerance_state(const struct cdg_minmax *g, __u8 state)
{
	__s32 gmin = cdg_round_tolerance(g->min), gmax = cdg_round_tolerance(g->max);

	if (gmin > 0 && gmax <= 0)
		return CDG_FULL;
	if ((gmin > 0 && gmax > 0) || gmax < 0)
		return CDG_NONFULL;
	return state;
}

/* The delay back-off's ssthresh: cwnd * min(beta, 1) in 1/1024, at least 2. */
static inline __u32 cdg_backoff_ssthresh(__u32 cwnd, __u32 beta)
{
	__u32 s;

	if (beta > CDG_BETA_ONE)
		beta = CDG_BETA_ONE;
	s = (__u32)(((__u64)cwnd * beta) >> 10);
	return s > 2 ? s : 2;
}

/*
 * ssthresh when the stack asks (a loss, or the back-off itself): the back-off
 * cut; a tolerated loss keeps cwnd; else half the shadow window (which this
 * also leaves in *shadow, held within cwnd), or half cwnd if more.
 */
static inline __u32 cdg_loss_ssthresh(__u32 cwnd, __u8 state, __u32 *shadow, __u32 beta,
				 __u32 use_shadow, __u32 use_tolerance)
{
	__u32 s = cwnd >> 1;

	if (state == CDG_BACKOFF)
		return cdg_backoff_ssthresh(cwnd, beta);
	if (state == CDG_NONFULL && use_tolerance)
		return cwnd;
	*shadow = (*shadow >> 1) < cwnd ? *shadow >> 1 : cwnd;
	if (use_shadow && *shadow > s)
		s = *shadow;
	return s > 2 ? s : 2;
}

/* The shadow window follows cwnd's growth, saturating rather than wrapping. */
static inline __u32 cdg_shadow_grow(__u32 shadow, __u32 incr)
{
	return shadow + incr < shadow ? shadow : shadow + incr;
}

/* HyStart's ACK train: longer than half the smallest RTT, at least 125 us. */
static inline __u32 cdg_train_us(__s32 delay_min)
{
	__u32 half = (__u32)delay_min / 2;

	return half > CDG_HYSTART_MIN_US ? half : CDG_HYSTART_MIN_US;
}

/* HyStart's delay test: a round's min RTT above 9/8 of the smallest (>= 125 us). */
static inline __s32 cdg_delay_thresh(__s32 delay_min)
{
	__u32 t = (__u32)delay_min + (__u32)delay_min / 8;

	return (__s32)(t > CDG_HYSTART_MIN_US ? t : CDG_HYSTART_MIN_US);
}

/*
 * One ACK of the cwnd reduction that the module's tcp_enter_cwr() starts
 * (the stack's PRR, RFC 6937, as 6.1's tcp_cwnd_reduction()), which BPF
 * cannot enter: the new cwnd from the target ssthresh, the cwnd at the
 * reduction's start, the segments delivered and sent since, the segments in
 * flight now and this ACK's newly delivered ones.  Above ssthresh in flight:
 * send ssthresh/prior_cwnd of what was delivered (proportional); at or below:
 * slow start back towards ssthresh (PRR-SSRB, one extra per ACK).  At least
 * one segment until one went out.  6.1 adds the extra only on an ACK that
 * advanced snd_una and marked nothing newly lost; in Open, where the
 * emulation runs, cong_avoid is called only on ACKs that acked data (or,
 * past the reordering sysctl, SACKed it: then the extra is one too many), and
 * a newly lost segment would have left Open, so that holds at nearly every call.
 */
static inline __u32 cdg_prr_cwnd(__u32 ssthresh, __u32 prior_cwnd, __u32 delivered,
				 __u32 out, __u32 in_flight, __u32 newly)
{
	__s64 delta = (__s64)ssthresh - in_flight, sndcnt;

	if (prior_cwnd == 0)
		return ssthresh;
	if (delta < 0) {
		sndcnt = (__s64)(((__u64)ssthresh * delivered + prior_cwnd - 1) / prior_cwnd) -
			 (__s64)out;
	} else {
		sndcnt = (__s64)delivered - (__s64)out;
		if (sndcnt < (__s64)newly)
			sndcnt = newly;
		sndcnt++;
		if (sndcnt > delta)
			sndcnt = delta;
	}
	if (sndcnt < (out ? 0 : 1))
		sndcnt = out ? 0 : 1;
	return in_flight + (__u32)sndcnt;
}

#endif /* TCPCA_CDG_H */
