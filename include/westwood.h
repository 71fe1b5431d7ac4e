/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TCP Westwood+: tunables and the bandwidth estimator, shared by
 * bpf/westwood.bpf.c and the host (loader table, tests/unit/test_westwood.c).
 *
 * Westwood+ (Grieco & Mascolo, ACM CCR 2004; Mascolo et al., MobiCom 2001)
 * measures the rate at which ACKs report delivered bytes: once per sampling
 * window of T = max(RTT, win_min) it takes the sample b_k = acked bytes / T
 * and runs it through two constant-coefficient low-pass filters in a row,
 *
 *	bw_ns_est = 7/8 bw_ns_est + 1/8 b_k
 *	bw_est    = 7/8 bw_est    + 1/8 bw_ns_est
 *
 * (the first sample fills both).  After a loss, instead of halving, it sets
 * ssthresh (and, at the end of recovery, cwnd) to the pipe size this
 * estimate implies, BWE x RTTmin / mss, at least 2 segments.
 *
 * Units here: time in microseconds (the kernel module counts jiffies), and
 * bandwidth in bytes per microsecond as 16.16 fixed point, kept in a u32:
 * 1 unit = 1/65536 byte/us (about 15 byte/s), range up to 65536 byte/us
 * (about 524 Gbit/s).  The module's bytes per jiffy would be 5000 at
 * 10 Mbit/s and HZ=250; 16.16 byte/us is 81920 there, finer and independent
 * of HZ.  All arithmetic is u64 with unsigned divisors.
 */
#ifndef TCPCA_WESTWOOD_H
#define TCPCA_WESTWOOD_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "tcpca_params.h"

/*
 * P(name, default, min, max, unit, description).  win_min_ms is read at
 * every ACK (when the stack tells whether the sampling window is over), so
 * --set acts on existing sockets at once.
 */
#define WESTWOOD_PARAMS(P)							\
	P(win_min_ms, 50, 1, 10000, "ms",					\
	  "shortest bandwidth sampling window; the window is max(RTT, this)")

struct westwood_params {
	WESTWOOD_PARAMS(TCPCA_PARAM_FIELD)
};

/*
 * The sampling window, us: max(RTT, win_min_ms), the module's
 * max(rtt, TCP_WESTWOOD_RTT_MIN); win_min_ms * 1000 must fit in 32 bits
 * for every value the loader accepts.
 */
static inline __u32 westwood_window_us(__u32 rtt_us, __u32 win_min_ms)
{
	__u32 win_min_us = win_min_ms * 1000U;

	return rtt_us > win_min_us ? rtt_us : win_min_us;
}

#define WESTWOOD_BW_SHIFT	16		/* bandwidth: bytes/us << 16 */
#define WESTWOOD_INIT_RTT_US	20000000U	/* 20 s until a real RTT sample arrives */
#define WESTWOOD_MIN_SSTHRESH	2U		/* packets */

/* One stage of the low-pass filter: (7 a + b) / 8. */
static inline __u32 westwood_do_filter(__u32 a, __u32 b)
{
	return (__u32)((7ULL * a + b) >> 3);
}

/* The sample b_k: bytes acked over interval_us, in bytes/us << 16 (saturating). */
static inline __u32 westwood_bw_sample(__u32 bytes, __u32 interval_us)
{
	__u64 bw;

	if (interval_us == 0)
		return 0;
	bw = ((__u64)bytes << WESTWOOD_BW_SHIFT) / (__u64)interval_us;
	return bw > 0xffffffffULL ? 0xffffffffU : (__u32)bw;
}

/*
 * Feed one sample into both stages.  An empty filter (both stages 0, as
 * after init) takes the first sample as it is instead of ramping up from 0.
 */
static inline void westwood_filter(__u32 *bw_ns_est, __u32 *bw_est, __u32 sample)
{
	if (*bw_ns_est == 0 && *bw_est == 0) {
		*bw_ns_est = sample;
		*bw_est = sample;
	} else {
		*bw_ns_est = westwood_do_filter(*bw_ns_est, sample);
		*bw_est = westwood_do_filter(*bw_est, *bw_ns_est);
	}
}

/* The pipe size BWE x RTTmin in segments of mss bytes, at least 2. */
static inline __u32 westwood_bw_rttmin(__u32 bw_est, __u32 rtt_min_us, __u32 mss)
{
	__u64 pkts;

	if (mss == 0)
		return WESTWOOD_MIN_SSTHRESH;
	pkts = (((__u64)bw_est * rtt_min_us) >> WESTWOOD_BW_SHIFT) / (__u64)mss;
	if (pkts < WESTWOOD_MIN_SSTHRESH)
		return WESTWOOD_MIN_SSTHRESH;
	return pkts > 0x7fffffffULL ? 0x7fffffffU : (__u32)pkts;
}

/*
 * The bytes an ACK on the slow path accounts for.  cumul is how far it moved
 * snd_una; *accounted the bytes already credited for duplicate ACKs that
 * did not move it.  A duplicate ACK (cumul 0) reports one segment that left
 * the network, credited now and remembered; a cumulative ACK larger than a
 * segment then pays back what its dupACKs already credited, so each byte is
 * counted once; it still counts at least one segment.
 */
static inline __u32 westwood_acked_count(__u32 cumul, __u32 *accounted, __u32 mss)
{
	if (cumul == 0) {
		*accounted += mss;
		cumul = mss;
	}
	if (cumul > mss) {
		if (*accounted >= cumul) {
			*accounted -= cumul;
			cumul = mss;
		} else {
			cumul -= *accounted;
			*accounted = 0;
		}
	}
	return cumul;
}

#endif /* TCPCA_WESTWOOD_H */
