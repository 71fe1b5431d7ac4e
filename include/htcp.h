/* SPDX-License-Identifier: GPL-2.0 */
/*
 * H-TCP: tunables and arithmetic, shared by bpf/htcp.bpf.c and the host
 * (loader table, tests/unit/test_htcp.c).
 *
 * R. N. Shorten, D. J. Leith, "H-TCP: TCP for high-speed and long-distance
 * networks", PFLDnet 2004 (and D. Leith, R. Shorten, Y. Lee, "H-TCP: A
 * framework for congestion control in high-speed and long-distance
 * networks", PFLDnet 2005).  AIMD whose increase grows with the time Delta
 * since the last congestion event and whose decrease follows the queue:
 *
 *	alpha(Delta) = 1					Delta <= Delta_L = 1 s
 *	             = 1 + 10 (Delta - Delta_L) + ((Delta - Delta_L) / 2)^2
 *	alpha        = 2 (1 - beta) alpha(Delta)		(Reno-friendly at beta)
 *	alpha       *= RTTmin / 100 ms, the ratio within [0.1, 2]	(RTT scaling)
 *	beta         = RTTmin / RTTmax within [0.5, 0.8], or 0.5 when the
 *	               largest throughput seen since the last congestion event
 *	               differs by more than 20% from the one before
 *	               (bandwidth switch)
 *
 * cwnd grows by alpha segments per RTT and is multiplied by beta on a loss.
 *
 * Linux's net/ipv4/tcp_htcp.c keeps alpha and beta in << 7 fixed point
 * (beta 64..102, i.e. 0.5..0.797), counts time in jiffies and evaluates
 * alpha(Delta) in integers, truncating after each step; beta falls back to
 * 0.5 also for RTTmin <= 10 ms, and at the first congestion event after a
 * bandwidth switch (or the connection's start) it is 0.5 once ("modeswitch")
 * before the RTT ratio applies.  Here times are in microseconds (RTTs) and
 * milliseconds (Delta) instead of jiffies: the same formulas without the
 * 4 ms (HZ=250) rounding of every RTT, and alpha(Delta) in 64 bits, where the
 * module's ((diff/2)^2 in 32 bits) wraps after 524 s without a loss at
 * HZ=250.  tests/unit/test_htcp.c checks each function against the formulas
 * above in floating point.
 */
#ifndef TCPCA_HTCP_H
#define TCPCA_HTCP_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "tcpca_params.h"

/*
 * P(name, default, min, max, unit, description): the module's parameters.
 * Read on every use, so --set acts on existing sockets at their next ACK
 * or loss.
 */
#define HTCP_PARAMS(P)								\
	P(use_rtt_scaling, 1, 0, 1, "bool",					\
	  "scale the increase alpha by RTTmin / 100 ms, within [0.1, 2] (per increase)") \
	P(use_bandwidth_switch, 1, 0, 1, "bool",				\
	  "back off by 0.5 when the peak throughput moved by over 20% since the last loss (per ACK and per loss)")

struct htcp_params {
	HTCP_PARAMS(TCPCA_PARAM_FIELD)
};

#define HTCP_SHIFT		7		/* alpha and beta are << 7 */
#define HTCP_ALPHA_BASE		(1U << HTCP_SHIFT)	/* 1.0 */
#define HTCP_BETA_MIN		(1U << (HTCP_SHIFT - 1))	/* 0.5 */
#define HTCP_BETA_MAX		102U		/* 0.8, as 102/128 = 0.797 */
#define HTCP_DELTA_L_MS		1000U		/* Delta_L: Reno's increase for 1 s after a loss */
#define HTCP_RTT_JUMP_US	20000U		/* RTTmax follows samples at most 20 ms above it */
#define HTCP_BETA_RTT_MIN_US	10000U		/* RTTmin at or below 10 ms: beta = 0.5 */
#define HTCP_RTT_REF_US		100000U		/* RTT scaling is relative to 100 ms */
#define HTCP_SCALE_MIN		4U		/* 100 ms / RTTmin, << 3, within [0.5, 10] */
#define HTCP_SCALE_MAX		80U
#define HTCP_FACTOR_MAX		(1U << 24)	/* alpha(Delta) after ~2.3 h without a loss */
#define HTCP_ALPHA_MAX		0xffffffffU	/* alpha saturates here instead of wrapping */
#define HTCP_MAX_RTT_FADE	95U		/* RTTmax keeps 95% of its excess over RTTmin per loss */
#define HTCP_CCOUNT_RESET	3U		/* bandwidth: restart the estimate within 3 RTTmin of a loss */

/*
 * alpha(Delta), the paper's increase before the 2 (1 - beta) and RTT factors,
 * for Delta = cong_ms milliseconds since the last congestion event: 1 up to
 * Delta_L, then 1 + 10 d + (d/2)^2 with d = Delta - Delta_L in seconds,
 * truncated as the module does (d/2 in ms, then each division).
 */
static inline __u32 htcp_calc_factor(__u32 cong_ms)
{
	__u64 d, half, f;

	if (cong_ms <= HTCP_DELTA_L_MS)
		return 1;
	d = cong_ms - HTCP_DELTA_L_MS;
	half = d / 2;
	f = 1 + (10 * d + half * half / 1000) / 1000;
	return f < HTCP_FACTOR_MAX ? (__u32)f : HTCP_FACTOR_MAX;
}

/*
 * RTT scaling, << 3: 100 ms / RTTmin, within [0.5, 10] (the increase is then
 * multiplied by RTTmin / 100 ms within [0.1, 2]).  Truncated as the module's.
 */
static inline __u32 htcp_calc_scale(__u32 min_rtt_us)
{
	__u32 scale = min_rtt_us ? (HTCP_RTT_REF_US << 3) / min_rtt_us : HTCP_SCALE_MAX;

	if (scale < HTCP_SCALE_MIN)
		return HTCP_SCALE_MIN;
	return scale > HTCP_SCALE_MAX ? HTCP_SCALE_MAX : scale;
}

/*
 * alpha << 7, the increase in segments per RTT: 2 (1 - beta) alpha(Delta),
 * times RTTmin / 100 ms with use_rtt_scaling once RTTmin is known.  In 64
 * bits and saturated: RTT scaling doubles a capped factor to 2^25, and
 * 2 x 2^25 x 64 (beta 0.5) is 2^32, which would wrap to 0 and so to 1.0.
 */
static inline __u32 htcp_calc_alpha(__u32 cong_ms, __u32 min_rtt_us, __u32 beta,
				    const struct htcp_params *p)
{
	__u32 factor = htcp_calc_factor(cong_ms);
	__u64 alpha;

	if (p->use_rtt_scaling && min_rtt_us) {
		factor = (factor << 3) / htcp_calc_scale(min_rtt_us);
		if (!factor)
			factor = 1;
	}
	if (beta > HTCP_ALPHA_BASE)
		beta = HTCP_ALPHA_BASE;
	alpha = 2ULL * factor * (HTCP_ALPHA_BASE - beta);
	if (!alpha)
		return HTCP_ALPHA_BASE;
	return alpha < HTCP_ALPHA_MAX ? (__u32)alpha : HTCP_ALPHA_MAX;
}

/* The bandwidth switch: the peak throughput left [0.8, 1.2] x the previous one. */
static inline int htcp_bw_moved(__u32 max_b, __u32 old_max_b)
{
	__u64 five = 5ULL * max_b;

	return five < 4ULL * old_max_b || five > 6ULL * old_max_b;
}

/* Which rule set beta (the event kind of bpf/htcp.bpf.c's losses). */
enum htcp_beta_rule {
	HTCP_BETA_FROM_RTT = 1,		/* RTTmin / RTTmax, clamped */
	HTCP_BETA_BW_SWITCH = 2,	/* 0.5: the peak throughput moved by over 20% */
	HTCP_BETA_MODESWITCH = 3,	/* 0.5: first event since start or a switch, RTTmin <= 10 ms */
};

/*
 * beta << 7 at a congestion event, and the next modeswitch: 0.5 (and
 * modeswitch off) if the bandwidth switch fired; otherwise RTTmin/RTTmax
 * within [0.5, 0.8] if modeswitch is on, RTTmin > 10 ms and RTTmax is known,
 * else 0.5 with modeswitch turned on for the next event.  *rule says which.
 */
static inline __u32 htcp_calc_beta(__u32 min_rtt_us, __u32 max_rtt_us, int bw_moved,
				   __u32 *modeswitch, __u32 *rule)
{
	__u32 beta;

	if (bw_moved) {
		*modeswitch = 0;
		*rule = HTCP_BETA_BW_SWITCH;
		return HTCP_BETA_MIN;
	}
	if (!*modeswitch || min_rtt_us <= HTCP_BETA_RTT_MIN_US || !max_rtt_us) {
		*modeswitch = 1;
		*rule = HTCP_BETA_MODESWITCH;
		return HTCP_BETA_MIN;
	}
	*rule = HTCP_BETA_FROM_RTT;
	beta = (__u32)(((__u64)min_rtt_us << HTCP_SHIFT) / max_rtt_us);
	if (beta < HTCP_BETA_MIN)
		return HTCP_BETA_MIN;
	return beta > HTCP_BETA_MAX ? HTCP_BETA_MAX : beta;
}

/* ssthresh after a loss at cwnd: cwnd * beta, at least 2. */
static inline __u32 htcp_calc_ssthresh(__u32 cwnd, __u32 beta)
{
	__u64 s = ((__u64)cwnd * beta) >> HTCP_SHIFT;

	return s > 2 ? (__u32)s : 2;
}

/* RTTmax after a sample (in Open only): follows rises of at most 20 ms. */
static inline __u32 htcp_calc_max_rtt(__u32 max_rtt_us, __u32 min_rtt_us, __u32 rtt_us)
{
	if (max_rtt_us < min_rtt_us)
		max_rtt_us = min_rtt_us;
	if (max_rtt_us < rtt_us && rtt_us - max_rtt_us <= HTCP_RTT_JUMP_US)
		max_rtt_us = rtt_us;
	return max_rtt_us;
}

/* RTTmax after a congestion event: 95% of its excess over RTTmin remains. */
static inline __u32 htcp_fade_max_rtt(__u32 max_rtt_us, __u32 min_rtt_us)
{
	if (min_rtt_us && max_rtt_us > min_rtt_us)
		return min_rtt_us + (__u32)((__u64)(max_rtt_us - min_rtt_us) * HTCP_MAX_RTT_FADE / 100);
	return max_rtt_us;
}

/* Throughput of pkts segments acked over interval_us, segments per second. */
static inline __u32 htcp_calc_bw(__u32 pkts, __u32 interval_us)
{
	__u64 b;

	if (!interval_us)
		return 0;
	b = (__u64)pkts * 1000000 / interval_us;
	return b > 0xffffffffULL ? 0xffffffffU : (__u32)b;
}

/* The throughput estimate's moving average: Bi = (3 Bi + sample) / 4. */
static inline __u32 htcp_calc_bi(__u32 bi, __u32 sample)
{
	return (__u32)((3ULL * bi + sample) / 4);
}

/*
 * Congestion avoidance: cwnd grows by one once snd_cwnd_cnt * alpha reaches
 * cwnd (<< 7), i.e. by alpha per cwnd segments acked; the count is of
 * segments per ACK in Open (pkts_acked), 1 per ACK otherwise.
 */
static inline int htcp_ai_due(__u32 cwnd_cnt, __u32 alpha, __u32 cwnd)
{
	return (((__u64)cwnd_cnt * alpha) >> HTCP_SHIFT) >= cwnd;
}

#endif /* TCPCA_HTCP_H */
