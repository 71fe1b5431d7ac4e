/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TCP's own rules that congestion-control hooks rely on, as pure functions of
 * the socket fields they read.  In the kernel they are static inlines of
 * include/net/tcp.h, which a BPF program cannot call; include/tcpca.bpf.h
 * wraps them for the programs, and tests/unit/test_tcp.c checks them, so the
 * rule lives in one place that both the BPF side and the host compile.
 */
#ifndef TCPCA_TCP_H
#define TCPCA_TCP_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/*
 * tcp_is_cwnd_limited(), the rule of Linux 5.18 and later (6.1 has it): the
 * window may grow when the stack found the flow limited by cwnd
 * (tp->is_cwnd_limited, set when the flight filled cwnd during the last
 * window), and, in slow start, also while cwnd is below twice the largest
 * flight of the last window (tp->max_packets_out), so that slow start can
 * double a window that the sender did not quite fill.  Kernels before 5.18
 * tested slow start first and ignored is_cwnd_limited there.
 */
static inline int tcpca_cwnd_limited(__u32 is_cwnd_limited, __u32 cwnd, __u32 ssthresh,
				     __u32 max_packets_out)
{
	if (is_cwnd_limited)
		return 1;
	if (cwnd < ssthresh)		/* tcp_in_slow_start() */
		return cwnd < 2 * max_packets_out;
	return 0;
}

/*
 * tcp_current_ssthresh(): in CWR or Recovery the ssthresh being reduced
 * towards; otherwise the larger of ssthresh and 3/4 of cwnd (what the window
 * would come back to after a reduction started now).
 */
static inline __u32 tcpca_current_ssthresh(__u32 cwnd, __u32 ssthresh, int cwr_or_recovery)
{
	__u32 three_quarters = (cwnd >> 1) + (cwnd >> 2);

	if (cwr_or_recovery)
		return ssthresh;
	return ssthresh > three_quarters ? ssthresh : three_quarters;
}

/*
 * The window a Reno-style update works on: the four tcp_sock fields that
 * tcp_slow_start() and tcp_cong_avoid_ai() read and write.
 */
struct tcpca_window {
	__u32 cwnd;	/* snd_cwnd */
	__u32 cnt;	/* snd_cwnd_cnt */
	__u32 ssthresh;	/* snd_ssthresh */
	__u32 clamp;	/* snd_cwnd_clamp */
};

/*
 * tcp_slow_start() (net/ipv4/tcp_cong.c): cwnd grows by the segments acked
 * but stops at ssthresh; what is left of acked goes on to congestion
 * avoidance.  The clamp caps the result.  In u32 arithmetic, as the kernel's.
 */
static inline __u32 tcpca_slow_start_rule(struct tcpca_window *w, __u32 acked)
{
	__u32 cwnd = w->cwnd + acked < w->ssthresh ? w->cwnd + acked : w->ssthresh;

	acked -= cwnd - w->cwnd;
	w->cwnd = cwnd < w->clamp ? cwnd : w->clamp;
	return acked;
}

/*
 * tcp_cong_avoid_ai(): one segment more per w segments acked, the credit
 * kept in cnt.  Credit gathered at a larger w is paid out as one segment
 * first.  w = 0, which would divide by zero in the kernel, counts as 1.
 */
static inline void tcpca_cong_avoid_ai_rule(struct tcpca_window *w, __u32 per, __u32 acked)
{
	if (!per)
		per = 1;
	if (w->cnt >= per) {
		w->cnt = 0;
		w->cwnd++;
	}
	w->cnt += acked;
	if (w->cnt >= per) {
		__u32 delta = w->cnt / per;

		w->cnt -= delta * per;
		w->cwnd += delta;
	}
	if (w->cwnd > w->clamp)
		w->cwnd = w->clamp;
}

#endif /* TCPCA_TCP_H */
