// SPDX-License-Identifier: GPL-2.0
/*
 * Scalable TCP: from 100 segments up, +1 % per RTT and -1/8 per loss, so a
 * loss is regained in some 13 RTTs at any window; Reno below.
 *
 * Tom Kelly, SIGCOMM CCR 2003.
 * Follows net/ipv4/tcp_scalable.c.  Arithmetic: include/scalable.h.
 *
 * Departures from the module:
 *  - ai_cnt and md_shift are tunables (the module's constants), read on use.
 *  - The last loss's window and ssthresh are kept, and sent to --events.
 *  - init and set_state exist only for that record and the counters.
 *
 * Departures in full, and the evidence: docs/algorithms.md, "Scalable TCP".
 */
#include "tcpca.bpf.h"
#include "tcpca_kernel.bpf.h"
#include "tcpca_params.h"
#include "scalable.h"

char _license[] SEC("license") = "GPL";

TCPCA_PARAMS(scalable_params, SCALABLE_PARAMS);

struct scalable_ca {
	u32 loss_cwnd;		/* cwnd at the last ssthresh() call, packets; 0 = none yet */
	u32 loss_ssthresh;	/* what that call returned, packets */
	u32 losses;		/* ssthresh() calls on this socket */
};
TCPCA_STATE_FITS(struct scalable_ca);

/* Event record kinds (tcpca-load --events). */
enum { SCALABLE_EV_LOSS = 1 };	/* v0 = cwnd at the loss, v1 = new ssthresh */

void TCPCA_OPS(scalable_init, struct sock *sk)
{
	struct scalable_ca *ca = inet_csk_ca(sk);

	ca->loss_cwnd = 0;
	ca->loss_ssthresh = 0;
	ca->losses = 0;
}

/* Slow start, then one segment per min(cwnd, ai_cnt) segments acked. */
void TCPCA_OPS(scalable_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (!tcpca_slow_start_first(sk, &acked))
		return;
	tcpca_cong_avoid_ai(tp, scalable_calc_ai_cnt(tp->snd_cwnd, &params), acked);
}

/* Multiplicative decrease by b = 1/2^md_shift (1/8). */
u32 TCPCA_OPS(scalable_ssthresh, struct sock *sk)
{
	struct scalable_ca *ca = inet_csk_ca(sk);
	u32 cwnd = tcp_sk(sk)->snd_cwnd, ssthresh = scalable_calc_ssthresh(cwnd, &params);

	TCPCA_COUNT(losses);
	ca->loss_cwnd = cwnd;
	ca->loss_ssthresh = ssthresh;
	ca->losses++;
	tcpca_event(sk, SCALABLE_EV_LOSS, cwnd, ssthresh, 0, 0);
	return ssthresh;
}

void TCPCA_OPS(scalable_set_state, struct sock *sk, u8 new_state)
{
	tcpca_count_state(new_state);
}

/* As the module: Reno's undo, max(cwnd, prior_cwnd). */
u32 TCPCA_OPS(scalable_undo_cwnd, struct sock *sk)
{
	return tcpca_reno_undo_cwnd(sk);
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops scalable = {
	.init		= (void *)scalable_init,
	.cong_avoid	= (void *)scalable_cong_avoid,
	.ssthresh	= (void *)scalable_ssthresh,
	.set_state	= (void *)scalable_set_state,
	.undo_cwnd	= (void *)scalable_undo_cwnd,
	.name		= "scalable",
};

static __always_inline void scalable_print_state(struct seq_file *seq, const struct scalable_ca *ca)
{
	BPF_SEQ_PRINTF(seq, " ai_cnt_pkts=%u loss_cwnd_pkts=%u loss_ssthresh_pkts=%u losses=%u",
		       params.ai_cnt, ca->loss_cwnd, ca->loss_ssthresh, ca->losses);
}

TCPCA_SOCKETS(struct scalable_ca, scalable_print_state);
