/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TCP-NV (New Vegas): tunables and arithmetic, shared by bpf/nv.bpf.c and the
 * host (loader table, tests/unit/test_nv.c).
 *
 * Lawrence Brakmo, "TCP-NV: An Update to TCP-Vegas", Netdev 1.1, 2016.  NV
 * is Vegas re-thought for data centres (tens of us of RTT, Gbit/s links,
 * TSO and interrupt coalescing that make single RTT samples useless):
 *  - each ACK gives a rate sample, the bytes delivered since the acked
 *    segment left over the (averaged) RTT it took; the largest of an RTT is
 *    the flow's rate r;
 *  - the smallest averaged RTT of the last few seconds, min_rtt, is the
 *    path's; r * min_rtt is the window the path holds without a queue
 *    (cwnd_by_slope, in segments);
 *  - once per RTT, after enough samples: cwnd above cwnd_by_slope + pad
 *    means more than pad packets queued, congestion: the window gives up
 *    cong_dec_mult (30%) of the excess (all of it when the excess is at
 *    most 2) and growth stops; cwnd at most cwnd_by_slope + pad - pad_buffer
 *    lets it grow (Reno's one segment per RTT by default); in between
 *    nothing changes;
 *  - a loss keeps loss_dec_factor (80%) of the window as ssthresh;
 *  - min_rtt is refreshed every reset_period seconds (+-25%, random) to the
 *    smallest of the period just ended, so a path that got longer is
 *    followed.
 *
 * Linux's net/ipv4/tcp_nv.c (6.1) has three module parameters, nv_pad,
 * nv_reset_period and nv_min_cwnd, and a dozen more constants as file
 * statics; all are tunables here with the module's values as defaults (as
 * Veno's beta and YeAH's constants are).  base_rtt stands in for what the
 * module asks a cgroup sock_ops program at init (BPF_SOCK_OPS_BASE_RTT,
 * which a struct_ops program cannot call): 0, the module's value when no
 * such program answers, leaves the RTT unbounded.
 */
#ifndef TCPCA_NV_H
#define TCPCA_NV_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "tcpca_params.h"

/*
 * P(name, default, min, max, unit, description).  All but base_rtt (read at
 * init) are read on each ACK, evaluation or loss, so --set acts on existing
 * sockets at once.  The per-RTT counts compare with the module's u8
 * counters, which stop at 255: a larger value would never be reached.
 */
#define NV_PARAMS(P)								\
	P(pad, 10, 0, 65535, "packets",						\
	  "queued packets NV allows: cwnd above the rate's window + pad is congestion") \
	P(pad_buffer, 2, 0, 65535, "packets",					\
	  "grow only while cwnd is at least this far below the rate's window + pad") \
	P(reset_period, 5, 1, 86400, "s",					\
	  "min_rtt is renewed every this many seconds (x 0.75..1.25, random)") \
	P(min_cwnd, 2, 1, 65535, "packets",					\
	  "NV never decreases cwnd below this without a loss")			\
	P(base_rtt, 0, 0, 100000000, "us",					\
	  "known path RTT (the module's BPF_SOCK_OPS_BASE_RTT): min_rtt kept within [0.8, 1] x it; 0 = unknown") \
	P(cong_dec_mult, 38, 0, 128, "1/128",					\
	  "on congestion cwnd gives up this share of its excess over the rate's window + pad") \
	P(ssthresh_factor, 8, 1, 255, "1/8",					\
	  "on congestion ssthresh = this x (rate's window + pad) / 8")	\
	P(rtt_factor, 128, 0, 256, "1/256",					\
	  "weight of a new RTT sample in the average (0 = no averaging)")	\
	P(loss_dec_factor, 819, 1, 1024, "1/1024",				\
	  "on a loss ssthresh = this x cwnd / 1024")				\
	P(cwnd_growth_rate_neg, 8, 0, 255, "evaluations",			\
	  "after a timeout, growth below Reno's doubles after this many uncongested RTTs (0 = never)") \
	P(cwnd_growth_rate_pos, 0, 0, 255, "evaluations",			\
	  "growth above Reno's doubles after this many uncongested RTTs (0 = never: Reno's)") \
	P(dec_eval_min_calls, 60, 0, 255, "ACKs",				\
	  "rate samples needed before a decrease")				\
	P(inc_eval_min_calls, 20, 0, 255, "ACKs",				\
	  "rate samples needed before growth is allowed again")		\
	P(ssthresh_eval_min_calls, 30, 0, 255, "ACKs",				\
	  "rate samples needed before congestion ends slow start")		\
	P(stop_rtt_cnt, 10, 0, 255, "RTTs",					\
	  "with too few samples, growth stops after this many RTTs of congestion") \
	P(rtt_min_cnt, 2, 0, 255, "RTTs",					\
	  "RTTs since the last decision before congestion may be acted on")

struct nv_params {
	NV_PARAMS(TCPCA_PARAM_FIELD)
};

/*
 * "cwnd <= max_win - pad_buffer" in the module is u32 arithmetic: with
 * pad_buffer above pad it wraps for a small rate, and every evaluation
 * would grow the window.  The module's values never do that; refuse it.
 */
static inline const char *nv_check_params(const __u32 *v)
{
	const struct nv_params *p = (const struct nv_params *)v;

	if (p->pad_buffer > p->pad)
		return "pad_buffer must not exceed pad";
	return 0;
}

#define NV_INIT_RTT		0xffffffffU	/* min_rtt filters start here: no sample */
#define NV_MIN_CWND		4U	/* the per-socket decision floor starts here */
#define NV_MIN_CWND_GROW	2U	/* ... and grows by this for TSO/coalescing */
#define NV_TSO_CWND_BOUND	80U	/* ... up to this + 1 */
#define NV_RATE_UNIT		80000ULL	/* bytes/us x this = the rate in 100 bit/s */
#define NV_GROWTH_MIN		(-8)	/* slowest growth: a segment per 2^8 RTTs */
#define NV_GROWTH_MAX		31	/* fastest: cwnd >> 31, i.e. max(4, ..) per ACK */

/*
 * The moving average of the RTT, us: weight factor/256 for the new sample.
 * last 0 (no average yet) or factor 0 (none wanted) take the sample.
 */
static inline __u32 nv_avg_rtt(__u32 sample_us, __u32 last_us, __u32 factor)
{
	if (factor == 0 || last_us == 0)
		return sample_us;
	if (factor > 256)
		factor = 256;
	return (__u32)(((__u64)sample_us * factor + (__u64)last_us * (256 - factor)) >> 8);
}

/*
 * The rate of one sample, in 100 bit/s: the bytes delivered while the acked
 * segment was in flight over the averaged RTT.  A 0 RTT reads as 1 us, as in
 * the module.  Truncated to 32 bits as the module's (429 Gbit/s).
 */
static inline __u32 nv_rate(__u32 delivered_bytes, __u32 avg_rtt_us)
{
	return (__u32)((__u64)delivered_bytes * NV_RATE_UNIT / (avg_rtt_us ? avg_rtt_us : 1));
}

/* The lower bound on the RTT that a known base RTT sets: 205/256 = 80% of it. */
static inline __u32 nv_lower_bound(__u32 base_rtt_us)
{
	return (__u32)(((__u64)base_rtt_us * 205) >> 8);
}

/* An averaged RTT kept within [lower, base] where those are known (non-zero). */
static inline __u32 nv_bounded_rtt(__u32 rtt_us, __u32 lower_us, __u32 base_us)
{
	if (lower_us && rtt_us < lower_us)
		return lower_us;
	if (base_us && rtt_us > base_us)
		return base_us;
	return rtt_us;
}

/*
 * The window, in segments, that carries rate (100 bit/s) over min_rtt (us)
 * without a queue: rate x min_rtt / (80000 x mss), truncated.  0 for mss 0.
 */
static inline __u32 nv_cwnd_by_slope(__u32 rate, __u32 min_rtt_us, __u32 mss)
{
	if (!mss)
		return 0;
	return (__u32)((__u64)rate * min_rtt_us / (NV_RATE_UNIT * mss));
}

/*
 * The time to the next renewal of min_rtt, us: reset_period seconds scaled
 * by (384 + rand) / 512 for rand in 0..255, i.e. 0.75 to 1.248 of it.
 */
static inline __u64 nv_reset_interval_us(__u32 period_s, __u32 rand8)
{
	return (__u64)period_s * (384 + (rand8 & 0xff)) * 1000000ULL >> 9;
}

/*
 * The window given to tcp_cong_avoid_ai(): cwnd grows one segment per this
 * many acked.  factor 0 is Reno's (max(4, cwnd)); each step up halves it
 * (at least 4), each step down doubles it.  64-bit: the module's u32
 * cwnd << 8 wraps beyond 2^24 segments; capped at 2^32 - 1.
 */
static inline __u32 nv_ai_cnt(__u32 cwnd, int factor)
{
	__u64 w;

	if (factor < 0) {
		if (factor < NV_GROWTH_MIN)
			factor = NV_GROWTH_MIN;
		w = (__u64)cwnd << -factor;
		return w > 0xffffffffULL ? 0xffffffffU : (__u32)w;
	}
	if (factor > NV_GROWTH_MAX)
		factor = NV_GROWTH_MAX;
	w = cwnd >> factor;
	return w > 4 ? (__u32)w : 4;
}

/* ssthresh at a loss: loss_dec_factor/1024 of cwnd, at least 2; 64-bit. */
static inline __u32 nv_loss_ssthresh(__u32 cwnd, __u32 loss_dec_factor)
{
	__u32 s = (__u32)(((__u64)cwnd * loss_dec_factor) >> 10);

	return s > 2 ? s : 2;
}

/*
 * cwnd after congestion is acted on, with max_win = cwnd_by_slope + pad:
 * an excess above 2 loses mult/128 of it (at least 2 segments), a smaller
 * one all of it (none when mult is 0).  mult <= 128 (the tunable's range)
 * keeps the result at or above max_win; it is clamped there regardless.
 */
static inline __u32 nv_decrease(__u32 cwnd, __u32 max_win, __u32 mult)
{
	__u64 dec;

	if (cwnd <= max_win)
		return cwnd;
	if (cwnd - max_win > 2) {
		dec = ((__u64)(cwnd - max_win) * mult) >> 7;
		if (dec < 2)
			dec = 2;
		if (dec > cwnd - max_win)
			dec = cwnd - max_win;
		return cwnd - (__u32)dec;
	}
	return mult ? max_win : cwnd;
}

/* The outcome of one per-RTT evaluation (--events v3, the iterator). */
enum nv_decision {
	NV_WAIT = 0,		/* congested or room, but too few samples or RTTs yet */
	NV_DEC = 1,		/* congestion: cwnd decreased, growth stopped */
	NV_GROW = 2,		/* room: growth allowed */
	NV_HOLD = 3,		/* within pad_buffer of max_win: nothing changes */
	NV_TSO = 4,		/* one sample in an RTT: the decision floor raised instead */
	NV_STOP = 5,		/* congested, too few samples, but long enough: growth stopped */
};

/* What the per-RTT evaluation reads and changes. */
struct nv_eval {
	__u32 cwnd;		/* snd_cwnd, segments */
	__u32 ssthresh;		/* snd_ssthresh, segments */
	__u32 no_cong_cnt;	/* uncongested evaluations in a row */
	__u32 eval_call_cnt;	/* rate samples since the last decision */
	__u32 rtt_cnt;		/* RTTs since the last decision */
	int growth_factor;	/* cwnd_growth_factor: < 0 slower than Reno, > 0 faster */
	int allow_growth;	/* 1: cong_avoid may grow cwnd */
};

#define NV_INFINITE_SSTHRESH	0x7fffffffU

/*
 * The evaluation once an RTT has ended (and the TSO check passed), max_win
 * being cwnd_by_slope + pad: congestion (cwnd > max_win) acted on once
 * there were rtt_min_cnt RTTs and enough samples (fewer in slow start),
 * room (cwnd <= max_win - pad_buffer) once there were enough samples.  A
 * decision restarts the counts and leaves cwnd at least min_cwnd.
 */
static inline enum nv_decision nv_evaluate(struct nv_eval *e, __u32 max_win,
					   const struct nv_params *p)
{
	enum nv_decision d;

	if (e->cwnd > max_win) {
		if (e->rtt_cnt < p->rtt_min_cnt)
			return NV_WAIT;
		if (e->ssthresh == NV_INFINITE_SSTHRESH) {
			if (e->eval_call_cnt < p->ssthresh_eval_min_calls)
				return NV_WAIT;
		} else if (e->eval_call_cnt < p->dec_eval_min_calls) {
			if (e->allow_growth && e->rtt_cnt > p->stop_rtt_cnt) {
				e->allow_growth = 0;
				return NV_STOP;
			}
			return NV_WAIT;
		}
		e->allow_growth = 0;
		e->ssthresh = (__u32)(((__u64)p->ssthresh_factor * max_win) >> 3);
		e->cwnd = nv_decrease(e->cwnd, max_win, p->cong_dec_mult);
		if (e->growth_factor > 0)
			e->growth_factor = 0;
		e->no_cong_cnt = 0;
		d = NV_DEC;
	} else if (max_win >= p->pad_buffer && e->cwnd <= max_win - p->pad_buffer) {
		if (e->eval_call_cnt < p->inc_eval_min_calls)
			return NV_WAIT;
		e->allow_growth = 1;
		e->no_cong_cnt++;
		if (e->growth_factor < 0 && p->cwnd_growth_rate_neg > 0 &&
		    e->no_cong_cnt > p->cwnd_growth_rate_neg) {
			e->growth_factor++;
			e->no_cong_cnt = 0;
		} else if (e->growth_factor >= 0 && p->cwnd_growth_rate_pos > 0 &&
			   e->no_cong_cnt > p->cwnd_growth_rate_pos) {
			if (e->growth_factor < NV_GROWTH_MAX)
				e->growth_factor++;
			e->no_cong_cnt = 0;
		}
		d = NV_GROW;
	} else {
		return NV_HOLD;
	}
	e->eval_call_cnt = 0;
	e->rtt_cnt = 0;
	if (e->cwnd < p->min_cwnd)
		e->cwnd = p->min_cwnd;
	return d;
}

#endif /* TCPCA_NV_H */
