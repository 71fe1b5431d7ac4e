/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel lends a congestion control: Reno's parts, which the modules
 * share by pointing their ops at the kernel's functions, and snd_cwnd_clamp,
 * which only bpf_setsockopt() can set (tcpca_cap_cwnd() the fallback).  Each
 * is the kernel's own where the kernel exports it (kfuncs from 5.13,
 * bpf_setsockopt from 5.15), so that an algorithm behaves as the module does
 * on that kernel; before that, a BPF copy of the same rule
 * (include/tcpca_tcp.h, unit-tested).  Which one runs
 * is decided at load time by tcpca_kernel (include/tcpca_features.h): the
 * verifier never sees a call the kernel cannot make.
 */
#ifndef TCPCA_KERNEL_BPF_H
#define TCPCA_KERNEL_BPF_H

#include "tcpca_observe.bpf.h"
#include "tcpca_features.h"

/* Written by the loader before load; all of it where nobody says otherwise. */
const volatile __u32 tcpca_kernel = TCPCA_KF_ALL;

/*
 * What an algorithm cannot do without (TCPCA_KF_* bits): the loader refuses
 * it, naming the first missing feature, where the kernel lacks one.
 */
#define TCPCA_NEEDS(features)	const volatile __u32 tcpca_needs = (features)

static __always_inline bool tcpca_have(__u32 feature)
{
	return tcpca_kernel & feature;
}

static __always_inline struct tcpca_window tcpca_window_of(const struct tcp_sock *tp)
{
	return (struct tcpca_window){ .cwnd = tp->snd_cwnd, .cnt = tp->snd_cwnd_cnt,
				      .ssthresh = tp->snd_ssthresh, .clamp = tp->snd_cwnd_clamp };
}

static __always_inline u32 tcpca_slow_start(struct tcp_sock *tp, u32 acked)
{
	struct tcpca_window w;

	if (tcpca_have(TCPCA_KF_KFUNCS))
		return tcp_slow_start(tp, acked);
	w = tcpca_window_of(tp);
	acked = tcpca_slow_start_rule(&w, acked);
	tp->snd_cwnd = w.cwnd;
	return acked;
}

static __always_inline void tcpca_cong_avoid_ai(struct tcp_sock *tp, u32 per, u32 acked)
{
	struct tcpca_window w;

	if (tcpca_have(TCPCA_KF_KFUNCS)) {
		tcp_cong_avoid_ai(tp, per, acked);
		return;
	}
	w = tcpca_window_of(tp);
	tcpca_cong_avoid_ai_rule(&w, per, acked);
	tp->snd_cwnd = w.cwnd;
	tp->snd_cwnd_cnt = w.cnt;
}

/*
 * How the Reno family's cong_avoid begins: no growth unless cwnd is what
 * limits the sender, then slow start up to ssthresh.  True when the caller's
 * own congestion avoidance goes on, with what slow start left of the ACK's
 * segments in *acked.
 */
static __always_inline bool tcpca_slow_start_first(struct sock *sk, u32 *acked)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (!tcp_is_cwnd_limited(sk))
		return false;
	if (tcp_in_slow_start(tp)) {
		*acked = tcpca_slow_start(tp, *acked);
		if (!*acked)
			return false;
	}
	return true;
}

static __always_inline void tcpca_reno_cong_avoid(struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (tcpca_have(TCPCA_KF_KFUNCS)) {
		tcp_reno_cong_avoid(sk, ack, acked);
		return;
	}
	if (tcpca_slow_start_first(sk, &acked))
		tcpca_cong_avoid_ai(tp, tp->snd_cwnd, acked);
}

/* The two Reno hooks an algorithm may use as its own, each a rare event counted. */
static __always_inline u32 tcpca_reno_ssthresh(struct sock *sk)
{
	TCPCA_COUNT(losses);
	if (tcpca_have(TCPCA_KF_KFUNCS))
		return tcp_reno_ssthresh(sk);
	return max(tcp_sk(sk)->snd_cwnd >> 1U, 2U);
}

static __always_inline u32 tcpca_reno_undo_cwnd(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	TCPCA_COUNT(undos);
	if (tcpca_have(TCPCA_KF_KFUNCS))
		return tcp_reno_undo_cwnd(sk);
	return max(tp->snd_cwnd, tp->prior_cwnd);
}

/*
 * snd_cwnd_clamp cannot be stored to by a BPF CA, but bpf_setsockopt(SOL_TCP,
 * TCP_BPF_SNDCWND_CLAMP) sets it from every tcp_congestion_ops hook except
 * release (net/ipv4/bpf_tcp_ca.c, 5.15+).  That option also sets
 * snd_ssthresh to the same value, which a module's "tp->snd_cwnd_clamp = x"
 * does not do, so ssthresh is put back (it is writable).  Where the call
 * fails or the kernel has no bpf_setsockopt for a CA, the program still caps
 * cwnd with tcpca_cap_cwnd(), so the clamp holds for the algorithm's own
 * updates if not for the stack's.  Counted as clamp_set / clamp_set_failed.
 */
#define SOL_TCP		6
#define EOPNOTSUPP	95

static __always_inline int tcpca_set_cwnd_clamp(struct sock *sk, u32 clamp)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 ssthresh = tp->snd_ssthresh;
	int val = (int)clamp, err = -EOPNOTSUPP;

	if (tp->snd_cwnd_clamp == clamp)
		return 0;
	if (tcpca_have(TCPCA_KF_SETSOCKOPT)) {
		err = bpf_setsockopt(sk, SOL_TCP, TCP_BPF_SNDCWND_CLAMP, &val, sizeof(val));
		tp->snd_ssthresh = ssthresh;
	}
	if (err)
		TCPCA_COUNT(clamp_set_failed);
	else
		TCPCA_COUNT(clamp_set);
	return err;
}

/*
 * The min() fallback for the above, and the cap for a tunable changed at run
 * time: caps cwnd at cap, counting each cut.
 */
static __always_inline u32 tcpca_cap_cwnd(u32 cwnd, u32 cap)
{
	if (cwnd <= cap)
		return cwnd;
	TCPCA_COUNT(cwnd_clamps);
	return cap;
}

#endif /* TCPCA_KERNEL_BPF_H */
