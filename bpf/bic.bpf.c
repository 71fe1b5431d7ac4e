// SPDX-License-Identifier: GPL-2.0
/*
 * BIC: after a loss, a binary search for the window at which it happened,
 * then probing beyond it; Reno at small windows.
 *
 * L. Xu, K. Harfoush, I. Rhee, "Binary Increase Congestion Control (BIC) for
 * Fast Long-Distance Networks", IEEE INFOCOM 2004.
 * Follows net/ipv4/tcp_bic.c (6.x).  Arithmetic: include/bic.h.
 *
 * Departures from the module:
 *  - cnt's 1/32 s is of tcp_mstamp, not HZ/32 jiffies: HZ needs the config.
 *  - epoch_start (in ms) and loss_cwnd are kept for the iterator only.
 *  - No get_info (the module has none): the iterator shows the state.
 *
 * Departures in full, and the evidence: docs/algorithms.md, "BIC".
 */
#include "tcpca.bpf.h"
#include "tcpca_kernel.bpf.h"
#include "tcpca_params.h"
#include "bic.h"

char _license[] SEC("license") = "GPL";

TCPCA_PARAMS(bic_params, BIC_PARAMS);

/* vmlinux.h already has "struct bictcp" (CUBIC's), hence the name. */
struct bic_ca {
	u32 cnt;		/* segments acked per one-segment increase of cwnd */
	u32 last_max_cwnd;	/* Wmax: cwnd before the last loss (less with fast convergence), packets; 0 = none yet */
	u32 loss_cwnd;		/* cwnd at the last ssthresh() call, packets (for the iterator) */
	u32 last_cwnd;		/* cwnd when cnt was last computed, packets */
	u32 last_time;		/* when cnt was last computed, us (low 32 bits of tcp_mstamp) */
	u32 epoch_start;	/* start of the current epoch (first CA ACK after a loss), ms; 0 = none */
	u32 delayed_ack;	/* packets per ACK, EWMA, << BIC_ACK_RATIO_SHIFT */
};
TCPCA_STATE_FITS(struct bic_ca);

/* Forget everything learnt (loss_cwnd is only shown, and stays). */
static __always_inline void bic_reset(struct bic_ca *ca)
{
	ca->cnt = 0;
	ca->last_max_cwnd = 0;
	ca->last_cwnd = 0;
	ca->last_time = 0;
	ca->epoch_start = 0;
	ca->delayed_ack = BIC_INIT_DELAYED_ACK;
}

void TCPCA_OPS(bic_init, struct sock *sk)
{
	struct bic_ca *ca = inet_csk_ca(sk);

	bic_reset(ca);
	ca->loss_cwnd = 0;
	if (params.initial_ssthresh)
		tcp_sk(sk)->snd_ssthresh = params.initial_ssthresh;
}

/* Packets per ACK, tracked only while nothing is being recovered. */
void TCPCA_OPS(bic_pkts_acked, struct sock *sk, const struct ack_sample *sample)
{
	struct bic_ca *ca = inet_csk_ca(sk);

	if (BPF_CORE_READ_BITFIELD(inet_csk(sk), icsk_ca_state) == TCP_CA_Open)
		ca->delayed_ack = bic_calc_delayed_ack(ca->delayed_ack, sample->pkts_acked);
}

/* Recompute cnt when cwnd changed, or every 1/32 s while it stays put. */
static __always_inline void bic_update(struct bic_ca *ca, const struct tcp_sock *tp)
{
	u32 cwnd = tp->snd_cwnd;
	u32 now_us = (u32)tp->tcp_mstamp;

	if (ca->last_cwnd == cwnd && now_us - ca->last_time <= BIC_UPDATE_INTERVAL_US)
		return;
	ca->last_cwnd = cwnd;
	ca->last_time = now_us;
	if (ca->epoch_start == 0)
		ca->epoch_start = (u32)(tp->tcp_mstamp / USEC_PER_MSEC) | 1;
	ca->cnt = bic_calc_cnt(cwnd, ca->last_max_cwnd, ca->delayed_ack, &params);
}

void TCPCA_OPS(bic_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bic_ca *ca = inet_csk_ca(sk);

	if (!tcpca_slow_start_first(sk, &acked))
		return;
	bic_update(ca, tp);
	tcpca_cong_avoid_ai(tp, ca->cnt, acked);
}

/* A loss: remember where it happened (Wmax) and back off by beta. */
u32 TCPCA_OPS(bic_ssthresh, struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct bic_ca *ca = inet_csk_ca(sk);
	u32 cwnd = tp->snd_cwnd;

	TCPCA_COUNT(losses);
	ca->epoch_start = 0;
	ca->last_max_cwnd = bic_calc_wmax(cwnd, ca->last_max_cwnd, &params);
	ca->loss_cwnd = cwnd;
	return bic_calc_ssthresh(cwnd, &params);
}

/* A timeout starts over from scratch, as after a connection's start. */
void TCPCA_OPS(bic_set_state, struct sock *sk, u8 new_state)
{
	tcpca_count_state(new_state);
	if (new_state == TCP_CA_Loss)
		bic_reset(inet_csk_ca(sk));
}

/* As the module: Reno's undo, max(cwnd, prior_cwnd). */
u32 TCPCA_OPS(bic_undo_cwnd, struct sock *sk)
{
	return tcpca_reno_undo_cwnd(sk);
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops bic = {
	.init		= (void *)bic_init,
	.pkts_acked	= (void *)bic_pkts_acked,
	.cong_avoid	= (void *)bic_cong_avoid,
	.ssthresh	= (void *)bic_ssthresh,
	.set_state	= (void *)bic_set_state,
	.undo_cwnd	= (void *)bic_undo_cwnd,
	.name		= "bic",
};

static __always_inline void bic_print_state(struct seq_file *seq, const struct bic_ca *ca)
{
	BPF_SEQ_PRINTF(seq, " cnt_pkts=%u last_max_cwnd_pkts=%u loss_cwnd_pkts=%u last_cwnd_pkts=%u",
		       ca->cnt, ca->last_max_cwnd, ca->loss_cwnd, ca->last_cwnd);
	BPF_SEQ_PRINTF(seq, " epoch_start_ms=%u delayed_ack_x16=%u", ca->epoch_start,
		       ca->delayed_ack);
}

TCPCA_SOCKETS(struct bic_ca, bic_print_state);
