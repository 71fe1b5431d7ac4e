/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BBR (v1): tunables and arithmetic, shared by bpf/bbr.bpf.c and the host
 * (loader table, tests/unit/test_bbr.c).
 *
 * N. Cardwell, Y. Cheng, C. S. Gunn, S. Hassas Yeganeh, V. Jacobson, "BBR:
 * Congestion-Based Congestion Control", ACM Queue 14(5), 2016.  BBR models
 * the path by two numbers: the bottleneck bandwidth, the largest delivery
 * rate of the last ten round trips (a windowed max filter), and the
 * propagation delay, the smallest RTT of the last ten seconds.  It paces at
 * pacing_gain x bw and allows cwnd_gain x bw x min_rtt in flight:
 *
 *	STARTUP    gains 2/ln 2 = 2.885 until bw stops growing by 25% for
 *	           three rounds;
 *	DRAIN      pacing 1/2.885 until what is in flight is one BDP;
 *	PROBE_BW   pacing gains 5/4, 3/4, 1 x 6 (one phase per min_rtt), cwnd 2;
 *	PROBE_RTT  every 10 s without a new min_rtt: 4 packets in flight for
 *	           max(200 ms, one round), then back.
 *
 * Units, as in Linux's net/ipv4/tcp_bbr.c: bandwidth in packets per us
 * << 24 (BBR_BW_UNIT is one packet per us), gains in 1/256 (BBR_UNIT is
 * 1.0), time in us, and in ms for min_rtt's age and ProbeRTT's end (the
 * module's jiffies: see bpf/bbr.bpf.c).
 */
#ifndef TCPCA_BBR_H
#define TCPCA_BBR_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "tcpca_params.h"

/*
 * P(name, default, min, max, unit, description).  The module's constants
 * a user is most likely to try other values of; each is read where the
 * module reads its constant (every ACK), so --set acts on existing sockets.
 */
#define BBR_PARAMS(P)								\
	P(min_rtt_win_sec, 10, 1, 3600, "s",					\
	  "min_rtt expires after this long without a lower sample: then ProbeRTT") \
	P(probe_rtt_mode_ms, 200, 0, 10000, "ms",				\
	  "ProbeRTT holds 4 packets in flight at least this long (0: no ProbeRTT)") \
	P(cwnd_gain, 512, 256, 2048, "1/256",					\
	  "cwnd in PROBE_BW, in BDPs x 256")					\
	P(extra_acked_gain, 256, 0, 1024, "1/256",				\
	  "share of the ACK aggregation estimate added to cwnd (0: none)")

struct bbr_params {
	BBR_PARAMS(TCPCA_PARAM_FIELD)
};

#define BBR_BW_SCALE		24
#define BBR_BW_UNIT		(1ULL << BBR_BW_SCALE)	/* 1 packet per us */
#define BBR_SCALE		8
#define BBR_UNIT		(1U << BBR_SCALE)	/* gain 1.0 */

/* 2/ln(2) rounded up: the smallest gain that doubles the rate each round. */
#define BBR_HIGH_GAIN		(BBR_UNIT * 2885 / 1000 + 1)	/* 739 */
#define BBR_DRAIN_GAIN		(BBR_UNIT * 1000 / 2885)	/* 88, its inverse */
#define BBR_CYCLE_LEN		8	/* phases of the PROBE_BW gain cycle */
#define BBR_CYCLE_RAND		7	/* a cycle starts at a random phase but the 3/4 one */
#define BBR_BW_RTTS		(BBR_CYCLE_LEN + 2)	/* the bw filter's window, rounds */
#define BBR_CWND_MIN_TARGET	4	/* packets: ProbeRTT's cwnd, and cwnd's floor */
#define BBR_FULL_BW_THRESH	(BBR_UNIT * 5 / 4)	/* bw grew if by 25%... */
#define BBR_FULL_BW_CNT		3	/* ...and the pipe is full after 3 rounds without */
#define BBR_MIN_TSO_RATE	1200000	/* bit/s: below, 1 segment per TSO burst */
#define BBR_PACING_MARGIN_PCT	1	/* pace 1% below the rate, to keep queues short */
#define BBR_INIT_CWND		10	/* TCP_INIT_CWND: cwnd cap before any RTT sample */
#define BBR_NO_RTT		0xffffffffU	/* min_rtt_us before the first sample */

/* Long-term (policer) sampling. */
#define BBR_LT_INTVL_MIN_RTTS	4	/* an interval lasts at least 4 rounds */
#define BBR_LT_LOSS_THRESH	50	/* ...and ends with a loss rate >= 50/256 (20%) */
#define BBR_LT_BW_RATIO		(BBR_UNIT / 8)	/* two intervals within 1/8 of... */
#define BBR_LT_BW_DIFF		(4000 / 8)	/* ...or 4 kbit/s (in bytes/s) of each other */
#define BBR_LT_BW_MAX_RTTS	48	/* use lt_bw for 48 rounds, then probe again */

/* ACK aggregation. */
#define BBR_EXTRA_ACKED_WIN_RTTS	5	/* each of two slots covers 5 rounds */
#define BBR_ACK_EPOCH_RESET		(1U << 20)	/* packets: restart an epoch this long */
#define BBR_EXTRA_ACKED_MAX_US		(100 * 1000)	/* cap: 100 ms at bw */

/*
 * TSO burst size: the kernel's tcp_tso_autosize() without the device's
 * limit, bounded by GSO_LEGACY_MAX_SIZE - 1 - MAX_TCP_HEADER, where
 * MAX_TCP_HEADER is 320 bytes in Debian's x86 configuration (128 + a 128-byte
 * link header + 48 for tunnels, cache-aligned).  It matters only above
 * ~530 Mbit/s (pacing_rate >> 10 beyond 65215 bytes).
 */
#define BBR_GSO_MAX_BYTES	(65536U - 1 - 320)

enum bbr_ca_mode {
	BBR_MODE_STARTUP,	/* double the rate each round until the pipe is full */
	BBR_MODE_DRAIN,		/* empty the queue STARTUP made */
	BBR_MODE_PROBE_BW,	/* cycle the pacing gain around the estimated bw */
	BBR_MODE_PROBE_RTT,	/* 4 packets in flight, to see the path's own RTT */
};

/* The PROBE_BW pacing gain of phase idx: 5/4, 3/4, then 1 six times. */
static inline __u32 bbr_cycle_gain(__u32 idx)
{
	switch (idx & (BBR_CYCLE_LEN - 1)) {
	case 0:
		return BBR_UNIT * 5 / 4;
	case 1:
		return BBR_UNIT * 3 / 4;
	default:
		return BBR_UNIT;
	}
}

/*
 * The phase a fresh gain cycle starts in, from a random r: the module picks
 * CYCLE_LEN - 1 - r (r uniform below CYCLE_RAND) and advances once, so any
 * phase but 1 (3/4: no point draining a queue we have not built).
 */
static inline __u32 bbr_cycle_start(__u32 r)
{
	return (BBR_CYCLE_LEN - 1 - r % BBR_CYCLE_RAND + 1) & (BBR_CYCLE_LEN - 1);
}

/*
 * A windowed max filter (Kathleen Nichols' algorithm, Linux's
 * lib/win_minmax.c): the best, second-best and third-best samples of the
 * window, each from a later sub-window, so that when the best one ages out
 * the next is at hand.  Time t here is BBR's round count; the window is in
 * rounds.  The estimate s[0].v is the largest sample since s[0].t, and
 * s[0].t is at most win rounds ago.
 */
struct bbr_minmax_sample {
	__u32 t;	/* rounds */
	__u32 v;	/* bw, packets/us << 24 */
};

struct bbr_minmax {
	struct bbr_minmax_sample s[3];
};

static inline __u32 bbr_minmax_reset(struct bbr_minmax *m, __u32 t, __u32 v)
{
	m->s[0].t = m->s[1].t = m->s[2].t = t;
	m->s[0].v = m->s[1].v = m->s[2].v = v;
	return v;
}

/* Age the three choices by the new sample's time. */
static inline __u32 bbr_minmax_subwin(struct bbr_minmax *m, __u32 win, __u32 t, __u32 v)
{
	__u32 dt = t - m->s[0].t;

	if (dt > win) {
		/* The best is out of the window: the others move up. */
		m->s[0] = m->s[1];
		m->s[1] = m->s[2];
		m->s[2].t = t;
		m->s[2].v = v;
		if (t - m->s[0].t > win) {	/* the second too */
			m->s[0] = m->s[1];
			m->s[1] = m->s[2];
		}
	} else if (m->s[1].t == m->s[0].t && dt > win / 4) {
		/* A quarter of the window without a second choice: this one. */
		m->s[1].t = m->s[2].t = t;
		m->s[1].v = m->s[2].v = v;
	} else if (m->s[2].t == m->s[1].t && dt > win / 2) {
		/* Half of it without a third. */
		m->s[2].t = t;
		m->s[2].v = v;
	}
	return m->s[0].v;
}

static inline __u32 bbr_minmax_running_max(struct bbr_minmax *m, __u32 win, __u32 t, __u32 v)
{
	if (v >= m->s[0].v || t - m->s[2].t > win)
		return bbr_minmax_reset(m, t, v);
	if (v >= m->s[1].v) {
		m->s[1].t = m->s[2].t = t;
		m->s[1].v = m->s[2].v = v;
	} else if (v >= m->s[2].v) {
		m->s[2].t = t;
		m->s[2].v = v;
	}
	return bbr_minmax_subwin(m, win, t, v);
}

/* A delivery-rate sample: delivered packets over interval_us, packets/us << 24. */
static inline __u64 bbr_bw_sample(__u32 delivered, __u64 interval_us)
{
	return interval_us ? ((__u64)delivered << BBR_BW_SCALE) / interval_us : 0;
}

/*
 * A rate in packets/us << 24 times gain/256 as bytes per second, less the
 * pacing margin.  The order of the operations is the module's (it decides
 * the rounding).
 */
static inline __u64 bbr_rate_bytes_per_sec(__u64 rate, __u32 mss, __u32 gain)
{
	rate *= mss;
	rate *= gain;
	rate >>= BBR_SCALE;
	rate *= 1000000 / 100 * (100 - BBR_PACING_MARGIN_PCT);
	return rate >> BBR_BW_SCALE;
}

/* The pacing rate for bw at gain, bytes/s, at most the socket's maximum. */
static inline __u64 bbr_pacing_rate(__u32 bw, __u32 mss, __u32 gain, __u64 max_rate)
{
	__u64 rate = bbr_rate_bytes_per_sec(bw, mss, gain);

	return rate < max_rate ? rate : max_rate;
}

/* Before any bw sample: cwnd packets per RTT (1 ms when none measured yet). */
static inline __u32 bbr_bw_from_rtt(__u32 cwnd, __u32 rtt_us)
{
	return (__u32)(((__u64)cwnd << BBR_BW_SCALE) / (rtt_us ? rtt_us : 1));
}

/*
 * gain x bw x min_rtt in packets, rounded up (rounding down would shrink
 * cwnd a little every round); the initial window until an RTT is known.
 */
static inline __u32 bbr_bdp(__u32 bw, __u32 min_rtt_us, __u32 gain)
{
	__u64 w;

	if (min_rtt_us == BBR_NO_RTT)
		return BBR_INIT_CWND;
	w = (__u64)bw * min_rtt_us;
	return (__u32)((((w * gain) >> BBR_SCALE) + BBR_BW_UNIT - 1) / BBR_BW_UNIT);
}

/*
 * Room for the end hosts' batching: three TSO bursts, an even number of
 * packets (delayed ACKs), and two more in the 5/4 phase so that it really
 * puts more in flight than one BDP.
 */
static inline __u32 bbr_quantization_budget(__u32 cwnd, __u32 tso_segs, int probing_up)
{
	cwnd += 3 * tso_segs;
	cwnd = (cwnd + 1) & ~1U;
	if (probing_up)
		cwnd += 2;
	return cwnd;
}

/* Segments per TSO burst: 1 below 1.2 Mbit/s of pacing, else 2. */
static inline __u32 bbr_min_tso_segs_for(__u64 pacing_rate)
{
	return pacing_rate < (BBR_MIN_TSO_RATE >> 3) ? 1 : 2;
}

/* The burst the stack will build: ~1 ms of pacing (rate >> shift), in segments, at most 127. */
static inline __u32 bbr_tso_segs_goal_for(__u64 pacing_rate, __u32 pacing_shift, __u32 mss)
{
	__u64 bytes = pacing_shift < 64 ? pacing_rate >> pacing_shift : 0;
	__u32 segs, min_segs = bbr_min_tso_segs_for(pacing_rate);

	if (bytes > BBR_GSO_MAX_BYTES)
		bytes = BBR_GSO_MAX_BYTES;
	segs = mss ? (__u32)(bytes / mss) : 0;
	if (segs < min_segs)
		segs = min_segs;
	return segs < 0x7f ? segs : 0x7f;
}

/*
 * Packets in the network when the next packet leaves (the stack may hold it
 * until its earliest departure time): what is in flight now, plus the burst
 * about to go when probing up, less what bw delivers meanwhile.
 */
static inline __u32 bbr_in_net_at_edt(__u32 inflight, __u32 bw, __u64 wait_us, __u32 burst)
{
	__u64 delivered = ((__u64)bw * wait_us) >> BBR_BW_SCALE;

	inflight += burst;
	return delivered >= inflight ? 0 : inflight - (__u32)delivered;
}

/* Did bw grow by 25% over full_bw (the pipe is not full yet)? */
static inline int bbr_bw_grew(__u32 max_bw, __u32 full_bw)
{
	return max_bw >= (__u32)(((__u64)full_bw * BBR_FULL_BW_THRESH) >> BBR_SCALE);
}

/* Packets the aggregation estimate adds to cwnd: gain x extra, at most 100 ms at bw. */
static inline __u32 bbr_aggregation_cwnd(__u32 bw, __u32 extra_acked, __u32 gain)
{
	__u32 cap = (__u32)(((__u64)bw * BBR_EXTRA_ACKED_MAX_US) / BBR_BW_UNIT);
	__u32 aggr = (gain * extra_acked) >> BBR_SCALE;

	return aggr < cap ? aggr : cap;
}

/* Packets bw delivers in epoch_us: what an ACK epoch should have acked. */
static inline __u32 bbr_expected_acked(__u32 bw, __u32 epoch_us)
{
	return (__u32)(((__u64)bw * epoch_us) / BBR_BW_UNIT);
}

/*
 * Are two long-term samples (packets/us << 24) the same rate, a policer's?
 * Within 1/8 of the older one, or within 4 kbit/s.
 */
static inline int bbr_lt_bw_alike(__u32 bw, __u32 lt_bw, __u32 mss)
{
	__u32 diff = bw > lt_bw ? bw - lt_bw : lt_bw - bw;

	return (__u64)diff * BBR_UNIT <= (__u64)BBR_LT_BW_RATIO * lt_bw ||
	       bbr_rate_bytes_per_sec(diff, mss, BBR_UNIT) <= BBR_LT_BW_DIFF;
}

/* Did an interval lose enough (lost/delivered >= 50/256) to end it? */
static inline int bbr_lt_lossy(__u32 lost, __u32 delivered)
{
	return delivered && (__u64)lost * BBR_UNIT >= (__u64)BBR_LT_LOSS_THRESH * delivered;
}

/* Is time a (ms) after time b, mod 2^32 (the kernel's time_after())? */
static inline int bbr_after(__u32 a, __u32 b)
{
	return (__s32)(b - a) < 0;
}

#endif /* TCPCA_BBR_H */
