// SPDX-License-Identifier: GPL-2.0
/*
 * TCP Hybla: scales Reno's growth by rho = RTT / rtt0, so that a long-RTT
 * (satellite) flow's window grows in time as one at rtt0 does.
 *
 * C. Caini, R. Firrincieli, "TCP Hybla: a TCP enhancement for heterogeneous
 * networks", International Journal of Satellite Communications and
 * Networking 22(5), 547-566, 2004.
 * Follows today's net/ipv4/tcp_hybla.c.  Arithmetic: include/hybla.h.
 *
 * Departures from the module:
 *  - init sets snd_cwnd_clamp by bpf_setsockopt, and never raises it.
 *  - The carry loop is a shift and a mask: both addends are below 128.
 *  - abc=1 (off by default) counts segments acked, not ACKs (RFC 3465).
 *  - keep_iw=1 (off by default) starts at max(rho, IW10), not rho.
 *  - rho is also set when init had no RTT, or rtt0 changed: else it stays 1.
 *  - rho << 3 is capped at 46340, so that rho^2 << 7 fits 32 bits.
 *  - No get_info: the iterator shows the state.
 *
 * Departures in full, and the evidence: docs/algorithms.md, "Hybla".
 */
#include "tcpca.bpf.h"
#include "tcpca_kernel.bpf.h"
#include "tcpca_params.h"
#include "hybla.h"

char _license[] SEC("license") = "GPL";

TCPCA_PARAMS(hybla_params, HYBLA_PARAMS);

/* Per-socket state (struct hybla in the module; vmlinux.h may have that name). */
struct hybla_ca {
	u8	hybla_en;	/* 1 in TCP_CA_Open: Hybla's rules; else Reno's */
	u32	snd_cwnd_cents;	/* fraction of a segment not yet added, << 7, < 128 */
	u32	rho;		/* integer part of rho, >= 1 */
	u32	rho2;		/* integer part of rho^2 */
	u32	rho_3ls;	/* rho << 3 */
	u32	rho2_7ls;	/* rho^2 << 7 */
	u32	minrtt_us;	/* smallest tp->srtt_us seen: microseconds << 3 */
	u32	rtt0_ms;	/* the rtt0 rho was computed with, ms */
};
TCPCA_STATE_FITS(struct hybla_ca);

/* rho and its derived forms from the smallest smoothed RTT (srtt_us, << 3). */
static __always_inline void hybla_recalc_param(struct hybla_ca *ca, u32 srtt_us)
{
	u32 rtt0 = params.rtt0;

	ca->rtt0_ms = rtt0;
	ca->rho_3ls = hybla_rho_3ls(srtt_us, rtt0);	/* treats rtt0 = 0 as 1 */
	ca->rho = ca->rho_3ls >> HYBLA_RHO_SHIFT;
	ca->rho2_7ls = hybla_rho2_7ls(ca->rho_3ls);
	ca->rho2 = ca->rho2_7ls >> HYBLA_SHIFT;
}

/* The module's snd_cwnd_clamp = 65535, or the socket's if lower. */
static __always_inline u32 hybla_clamp(const struct tcp_sock *tp)
{
	return min(tp->snd_cwnd_clamp, HYBLA_CWND_CLAMP);
}

static __always_inline void hybla_apply_clamp(struct tcp_sock *tp)
{
	tp->snd_cwnd = tcpca_cap_cwnd(tp->snd_cwnd, hybla_clamp(tp));
}

/*
 * The stack has already set the initial window (IW10) and, for an active
 * open, srtt_us from the SYN/SYN-ACK exchange.
 */
void TCPCA_OPS(hybla_init, struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct hybla_ca *ca = inet_csk_ca(sk);
	u32 cwnd;

	ca->snd_cwnd_cents = 0;
	ca->hybla_en = 1;
	/* the module's snd_cwnd_clamp = 65535, never raising a lower clamp */
	tcpca_set_cwnd_clamp(sk, hybla_clamp(tp));
	hybla_recalc_param(ca, tp->srtt_us);
	ca->minrtt_us = tp->srtt_us;

	cwnd = hybla_init_cwnd(ca->rho_3ls, tp->snd_cwnd, params.keep_iw, hybla_clamp(tp));
	if (cwnd < ca->rho)
		TCPCA_COUNT(cwnd_clamps);
	tp->snd_cwnd = cwnd;
}

/* Called on every ACK that advances snd_una, with the segments it acked. */
void TCPCA_OPS(hybla_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct hybla_ca *ca = inet_csk_ca(sk);
	struct hybla_window w;

	/* A lower srtt (or the first one) means a new rho; so does a new rtt0. */
	if (tp->srtt_us && (!ca->minrtt_us || tp->srtt_us < ca->minrtt_us)) {
		hybla_recalc_param(ca, tp->srtt_us);
		ca->minrtt_us = tp->srtt_us;
	} else if (ca->rtt0_ms != params.rtt0) {
		hybla_recalc_param(ca, ca->minrtt_us);
	}

	if (!tcp_is_cwnd_limited(sk))
		return;

	if (!ca->hybla_en) {
		tcpca_reno_cong_avoid(sk, ack, acked);
		hybla_apply_clamp(tp);
		return;
	}

	w.cwnd = tp->snd_cwnd;
	w.cnt = tp->snd_cwnd_cnt;
	w.cents = ca->snd_cwnd_cents;
	if (hybla_window_grow(&w, tp->snd_ssthresh, ca->rho_3ls, ca->rho2_7ls,
			      params.abc ? acked : 1, hybla_clamp(tp)))
		TCPCA_COUNT(cwnd_clamps);
	tp->snd_cwnd = w.cwnd;
	tp->snd_cwnd_cnt = w.cnt;
	ca->snd_cwnd_cents = w.cents;
}

/* Multiplicative decrease as Reno: half the window, never below two segments. */
u32 TCPCA_OPS(hybla_ssthresh, struct sock *sk)
{
	return tcpca_reno_ssthresh(sk);
}

/* Hybla's rules hold only in Open; recovery, loss and disorder grow as Reno. */
void TCPCA_OPS(hybla_set_state, struct sock *sk, u8 new_state)
{
	struct hybla_ca *ca = inet_csk_ca(sk);

	tcpca_count_state(new_state);
	ca->hybla_en = new_state == TCP_CA_Open;
}

/* As Reno: a spurious loss gives back the window held before it. */
u32 TCPCA_OPS(hybla_undo_cwnd, struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	TCPCA_COUNT(undos);
	return min(max(tp->snd_cwnd, tp->prior_cwnd), hybla_clamp(tp));
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops hybla = {
	.init		= (void *)hybla_init,
	.cong_avoid	= (void *)hybla_cong_avoid,
	.ssthresh	= (void *)hybla_ssthresh,
	.set_state	= (void *)hybla_set_state,
	.undo_cwnd	= (void *)hybla_undo_cwnd,
	.name		= "hybla",
};

static __always_inline void hybla_print_state(struct seq_file *seq, const struct hybla_ca *ca)
{
	BPF_SEQ_PRINTF(seq, " hybla_en=%u rho=%u rho_3ls=%u rho2=%u rho2_7ls=%u",
		       ca->hybla_en, ca->rho, ca->rho_3ls, ca->rho2, ca->rho2_7ls);
	BPF_SEQ_PRINTF(seq, " cwnd_cents_7ls=%u min_srtt_us=%u rtt0_ms=%u",
		       ca->snd_cwnd_cents, ca->minrtt_us >> 3, ca->rtt0_ms);
}

TCPCA_SOCKETS(struct hybla_ca, hybla_print_state);
