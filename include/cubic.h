/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CUBIC tunables and arithmetic, shared by bpf/cubic.bpf.c and the host
 * (loader table, tests/unit/test_cubic.c).  The arithmetic is that of
 * Linux's net/ipv4/tcp_cubic.c (unchanged from 6.1 to 7.3), which computes
 * the window of Ha, Rhee and Xu (2008), RFC 9438:
 *
 *	W(t) = C (t - K)^3 + W_max,	K = cbrt(W_max (1 - beta) / C)
 *
 * in fixed point: time in 1/1024 s (t, K), C = bic_scale * 10 / 1024 per s^3
 * (0.4004 with the default 41: the RFC's 0.4) taken at a reference RTT of
 * 100 ms, so that C / RTT_ref is cube_rtt_scale = bic_scale * 10 and
 * 1 / (C / RTT_ref) is cube_factor = 2^40 / (bic_scale * 10).  K is computed
 * from the window the epoch starts at (cwnd), not from beta: K =
 * cbrt((W_max - cwnd) / C).  The result of each ACK is cnt, the segments
 * acked per one-segment increase of cwnd (tcp_cong_avoid_ai()).
 *
 * TCP friendliness (RFC 9438 4.3's W_est): an emulated Reno window tcp_cwnd
 * that grows by one each cwnd * beta_scale / 8 segments acked, where
 * beta_scale = 8 (1 + beta) / (3 (1 - beta)), i.e. 3 (1 - beta) / (1 + beta)
 * segments per RTT (0.53 with beta 717/1024); cwnd follows it when it is
 * ahead of the cubic curve.
 *
 * HyStart (Ha and Rhee, "Taming the elephants", 2008; RFC 9406 describes its
 * successor HyStart++, which Linux does not run): slow start ends when the
 * ACKs of a round keep arriving closely spaced for longer than half the
 * minimum RTT (ACK train), or when the smallest RTT of a round's first 8
 * samples exceeds the minimum by an eighth of it, clamped to 4..16 ms (delay).
 */
#ifndef TCPCA_CUBIC_H
#define TCPCA_CUBIC_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "tcpca_params.h"

#define CUBIC_HYSTART_ACK_TRAIN	0x1
#define CUBIC_HYSTART_DELAY	0x2

/*
 * P(name, default, min, max, unit, description): the module's parameters
 * with its defaults.  All are read on every use, so --set acts on existing
 * sockets at their next ACK or loss, except initial_ssthresh and hystart's
 * first reset, read when a socket starts.
 */
#define CUBIC_PARAMS(P)								\
	P(fast_convergence, 1, 0, 1, "bool",					\
	  "release bandwidth faster: a loss below W_max lowers W_max further (per loss)") \
	P(beta, 717, 1, 1023, "1/1024",						\
	  "multiplicative decrease: ssthresh = cwnd * beta / 1024 (per loss)")	\
	P(initial_ssthresh, 0, 0, 0x7fffffff, "packets",			\
	  "slow start threshold of a new socket when hystart is off, 0 = the kernel's (at init)") \
	P(bic_scale, 41, 1, 1024, "1/1024",					\
	  "C of the cubic function: C = bic_scale * 10 / 1024 per s^3, 0.40 (per ACK)")	\
	P(tcp_friendliness, 1, 0, 1, "bool",					\
	  "grow at least as fast as an emulated Reno window (per ACK)")	\
	P(hystart, 1, 0, 1, "bool",						\
	  "hybrid slow start: leave slow start before the first loss (per ACK)") \
	P(hystart_detect, 3, 0, 3, "bitmask",					\
	  "HyStart signals: 1 ACK train, 2 delay increase, 3 both (per ACK)")	\
	P(hystart_low_window, 16, 0, 0x7fffffff, "packets",			\
	  "HyStart looks only at windows of at least this (per ACK)")		\
	P(hystart_ack_delta_us, 2000, 0, 1000000, "us",				\
	  "largest spacing of two ACKs of one train (per ACK)")

struct cubic_params {
	CUBIC_PARAMS(TCPCA_PARAM_FIELD)
};

#define CUBIC_BETA_SCALE	1024	/* beta is in 1/1024 */
#define CUBIC_HZ		10	/* t and K are in 1/2^10 s */
#define CUBIC_NO_LOSS_MAX_CNT	20	/* before any loss: grow at least cwnd/20 per RTT */
#define CUBIC_MIN_CNT		2	/* at most one segment per 2 acked: 1.5x per RTT */
#define CUBIC_FLAT_CNT_PER_CWND	100	/* at or above the curve: 1% of a segment per RTT */
#define CUBIC_UPDATE_INTERVAL_US 31250	/* recompute cnt at most every 1/32 s per cwnd */
#define CUBIC_HYSTART_MIN_SAMPLES 8	/* RTT samples per round for the delay signal */
#define CUBIC_HYSTART_DELAY_MIN_US 4000U
#define CUBIC_HYSTART_DELAY_MAX_US 16000U
#define CUBIC_RECOVERY_QUIET_US	1000000U /* no RTT samples for 1 s (HZ jiffies) after an epoch starts */
#define CUBIC_ACK_DELAY_MAX_US	1000U	/* hystart_ack_delay() cushion cap */

/* Reasons HyStart ended slow start (the events' v0). */
#define CUBIC_EXIT_ACK_TRAIN	1
#define CUBIC_EXIT_DELAY	2

/* include/linux/bitops.h's fls64(): 1-based index of the top set bit, 0 for 0.  Six fixed steps. */
static inline __u32 cubic_fls64(__u64 x)
{
	__u32 n = 0;

	if (!x)
		return 0;
	if (x >> 32) { n += 32; x >>= 32; }
	if (x >> 16) { n += 16; x >>= 16; }
	if (x >> 8) { n += 8; x >>= 8; }
	if (x >> 4) { n += 4; x >>= 4; }
	if (x >> 2) { n += 2; x >>= 2; }
	if (x >> 1) { n += 1; x >>= 1; }
	return n + (__u32)x;
}

/*
 * The module's cube root table (Willy Tarreau's): for x in 0..63,
 * v[x] = cbrt(x << 18) - 1, hand-refined, so that cbrt(x) ~ (v[x] + 10) >> 6.
 */
TCPCA_TABLE const __u8 cubic_root_v[64] = {
	  0,  54,  54,  54, 118, 118, 118, 118,
	123, 129, 134, 138, 143, 147, 151, 156,
	157, 161, 164, 168, 170, 173, 176, 179,
	181, 185, 187, 190, 192, 194, 197, 199,
	200, 202, 204, 206, 209, 211, 213, 215,
	217, 219, 221, 222, 224, 225, 227, 229,
	231, 232, 234, 236, 237, 239, 240, 242,
	244, 245, 246, 248, 250, 251, 252, 254,
};

/*
 * cbrt(a) as the module computes it: the table gives the top bits, scaled by
 * 2^b where 3b is about fls64(a) - 6, then one Newton-Raphson step
 * x' = (2x + a / x^2) / 3 (the module divides by x(x - 1), and by 3 as
 * * 341 / 1024).  Average error ~0.2 %; the unit test bounds it.
 */
static inline __u32 cubic_root(__u64 a)
{
	__u32 x, b, shift;
	__u64 xx;

	b = cubic_fls64(a);
	if (b < 7)	/* a in 0..63 */
		return ((__u32)cubic_root_v[(__u32)a & 63] + 35) >> 6;

	b = ((b * 84) >> 8) - 1;	/* about fls64(a) / 3 - 1 */
	shift = (__u32)(a >> (b * 3));	/* the top 6 bits or fewer */
	x = ((__u32)(((__u32)cubic_root_v[shift & 63] + 10) << b)) >> 6;

	xx = (__u64)x * (__u64)(x - 1);
	if (!xx)	/* never for a >= 64 (x >= 4); the verifier wants it */
		xx = 1;
	x = 2 * x + (__u32)(a / xx);
	return (x * 341) >> 10;
}

/* 1 / (C / RTT_ref) in the module's units: 2^40 / (bic_scale * 10). */
static inline __u64 cubic_cube_factor(const struct cubic_params *p)
{
	__u32 s = p->bic_scale ? p->bic_scale : 1;

	return (1ULL << (10 + 3 * CUBIC_HZ)) / (s * 10U);
}

/* beta_scale = 8 (1024 + beta) / 3 / (1024 - beta), integer as the module: 15 for 717. */
static inline __u32 cubic_beta_scale(const struct cubic_params *p)
{
	__u32 b = p->beta < CUBIC_BETA_SCALE ? p->beta : CUBIC_BETA_SCALE - 1;

	return 8 * (CUBIC_BETA_SCALE + b) / 3 / (CUBIC_BETA_SCALE - b);
}

/* K, in 1/1024 s: the time the curve takes from cwnd back to W_max (0 above it). */
static inline __u32 cubic_calc_k(__u32 cwnd, __u32 last_max_cwnd, const struct cubic_params *p)
{
	if (last_max_cwnd <= cwnd)
		return 0;
	return cubic_root(cubic_cube_factor(p) * (last_max_cwnd - cwnd));
}

/* The epoch's origin point: W_max if the epoch starts below it, else cwnd itself. */
static inline __u32 cubic_calc_origin(__u32 cwnd, __u32 last_max_cwnd)
{
	return last_max_cwnd <= cwnd ? cwnd : last_max_cwnd;
}

/*
 * t, in 1/1024 s: time since the epoch started, plus the minimum RTT (the
 * window the curve gives is the one wanted an RTT from now).
 */
static inline __u64 cubic_calc_t(__u32 since_epoch_us, __u32 delay_min_us)
{
	return (((__u64)since_epoch_us + delay_min_us) << CUBIC_HZ) / 1000000U;
}

/* W(t) = origin +- C/RTT_ref |t - K|^3, all u32 as the module (exact below a million packets). */
static inline __u32 cubic_calc_target(__u32 origin, __u32 k, __u64 t, const struct cubic_params *p)
{
	__u64 offs = t < k ? k - t : t - k;
	__u32 delta = (__u32)(((__u64)p->bic_scale * 10U * offs * offs * offs) >> (10 + 3 * CUBIC_HZ));

	return t < k ? origin - delta : origin + delta;
}

/* cnt that reaches target in one RTT; before any loss, at least 5 % growth per RTT. */
static inline __u32 cubic_calc_cnt(__u32 cwnd, __u32 target, __u32 last_max_cwnd)
{
	__u32 cnt;

	if (target > cwnd)
		cnt = cwnd / (target - cwnd);
	else
		cnt = CUBIC_FLAT_CNT_PER_CWND * cwnd;
	if (last_max_cwnd == 0 && cnt > CUBIC_NO_LOSS_MAX_CNT)
		cnt = CUBIC_NO_LOSS_MAX_CNT;
	return cnt;
}

/*
 * TCP friendliness: advance the emulated Reno window by the segments acked
 * (one per cwnd * beta_scale / 8), and cap cnt so that cwnd keeps up with it.
 * The module's loop "while (ack_cnt > delta) { ack_cnt -= delta; tcp_cwnd++; }"
 * as one division.
 */
static inline __u32 cubic_friendly_cnt(__u32 cnt, __u32 cwnd, __u32 *ack_cnt, __u32 *tcp_cwnd,
				       const struct cubic_params *p)
{
	__u32 per = (cwnd * cubic_beta_scale(p)) >> 3, n;

	if (!per)	/* cwnd 0 (never) */
		per = 1;
	if (*ack_cnt > per) {
		n = (*ack_cnt - 1) / per;
		*ack_cnt -= n * per;
		*tcp_cwnd += n;
	}
	if (*tcp_cwnd > cwnd) {
		__u32 max_cnt = cwnd / (*tcp_cwnd - cwnd);

		if (cnt > max_cnt)
			cnt = max_cnt;
	}
	return cnt;
}

/* W_max after a loss at cwnd: fast convergence gives bandwidth back to newcomers. */
static inline __u32 cubic_calc_wmax(__u32 cwnd, __u32 last_max_cwnd, const struct cubic_params *p)
{
	if (cwnd < last_max_cwnd && p->fast_convergence)
		return (cwnd * (CUBIC_BETA_SCALE + p->beta)) / (2 * CUBIC_BETA_SCALE);
	return cwnd;
}

/* ssthresh after a loss at cwnd: cwnd * beta, at least 2 (u32 product, as the module). */
static inline __u32 cubic_calc_ssthresh(__u32 cwnd, const struct cubic_params *p)
{
	__u32 s = (cwnd * p->beta) / CUBIC_BETA_SCALE;

	return s > 2 ? s : 2;
}

/* HyStart's delay signal: the rise over delay_min that ends slow start, us. */
static inline __u32 cubic_hystart_delay_thresh(__u32 delay_min_us)
{
	__u32 x = delay_min_us >> 3;

	if (x < CUBIC_HYSTART_DELAY_MIN_US)
		return CUBIC_HYSTART_DELAY_MIN_US;
	return x > CUBIC_HYSTART_DELAY_MAX_US ? CUBIC_HYSTART_DELAY_MAX_US : x;
}

/*
 * hystart_ack_delay(): a cushion for TSO/GRO aggregation, the time 4 GSO
 * packets of the socket's largest size (sk_gso_max_size: BIG TCP's, up to
 * 512 KB, since 5.19; 64 KB before) take at the pacing rate, at most 1 ms.
 * 0 with no pacing rate.
 */
static inline __u32 cubic_hystart_ack_delay(__u64 pacing_rate_Bps, __u32 gso_max_size)
{
	__u64 d;

	if (!pacing_rate_Bps)
		return 0;
	d = (__u64)gso_max_size * 4 * 1000000U / pacing_rate_Bps;
	return d < CUBIC_ACK_DELAY_MAX_US ? (__u32)d : CUBIC_ACK_DELAY_MAX_US;
}

/*
 * The ACK train's length that ends slow start, us: delay_min plus the
 * cushion, halved unless the socket is paced (pacing may have spread the
 * round over up to half an RTT).
 */
static inline __u32 cubic_hystart_train_thresh(__u32 delay_min_us, __u32 ack_delay_us, int paced)
{
	__u32 t = delay_min_us + ack_delay_us;

	return paced ? t : t >> 1;
}

#endif /* TCPCA_CUBIC_H */
