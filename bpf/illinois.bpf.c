// SPDX-License-Identifier: GPL-2.0
/*
 * TCP Illinois: loss drives an AIMD whose constants the queueing delay sets
 * once per RTT (alpha 10 to 0.3 segments per RTT, beta 1/8 to 1/2).
 *
 * S. Liu, T. Basar, R. Srikant, "TCP-Illinois: A Loss and Delay-Based
 * Congestion Control Algorithm for High-Speed Networks", VALUETOOLS 2006 and
 * Performance Evaluation 65(6-7):417-440, 2008.
 * Follows net/ipv4/tcp_illinois.c (6.x).  Arithmetic: include/illinois.h.
 *
 * Departures from the module:
 *  - theta is limited to 0..255: the module counts RTTs in a u8.
 *  - The sample sum's do_div is a u64 division; the products are 64-bit.
 *  - da and dm of the last update are kept for the iterator.
 *  - No get_info: the iterator and --events show the state.
 *
 * Departures in full, and the evidence: docs/algorithms.md, "Illinois".
 */
#include "tcpca.bpf.h"
#include "tcpca_kernel.bpf.h"
#include "tcpca_params.h"
#include "illinois.h"

char _license[] SEC("license") = "GPL";

TCPCA_PARAMS(illinois_params, ILLINOIS_PARAMS);

/* The module's struct illinois, plus da and dm for the iterator. */
struct illinois_ca {
	u64 sum_rtt;		/* sum of this RTT's samples, us */
	u16 cnt_rtt;		/* samples this RTT */
	u32 base_rtt;		/* smallest sample ever, us; ILLINOIS_RTT_NONE = none */
	u32 max_rtt;		/* largest sample ever, us (capped at ILLINOIS_RTT_MAX) */
	u32 end_seq;		/* sequence number: the RTT ends when it is acked */
	u32 alpha;		/* additive increase, segments per RTT in 1/128 */
	u32 beta;		/* multiplicative decrease, fraction of cwnd in 1/64 */
	u16 acked;		/* segments acked by the current ACK (pkts_acked) */
	u8 rtt_above;		/* 1 once the delay went above d1 (alpha's hysteresis) */
	u8 rtt_low;		/* RTTs in a row with the delay at most d1 since */
	u32 da;			/* average queueing delay at the last update, us */
	u32 dm;			/* largest queueing delay at the last update, us */
};
TCPCA_STATE_FITS(struct illinois_ca);

/* A new RTT: its end, and empty sums. */
static __always_inline void illinois_rtt_reset(struct sock *sk, struct illinois_ca *ca)
{
	ca->end_seq = tcp_sk(sk)->snd_nxt;
	ca->cnt_rtt = 0;
	ca->sum_rtt = 0;
}

void TCPCA_OPS(illinois_init, struct sock *sk)
{
	struct illinois_ca *ca = inet_csk_ca(sk);

	ca->alpha = ILLINOIS_ALPHA_MAX;
	ca->beta = ILLINOIS_BETA_BASE;
	ca->base_rtt = ILLINOIS_RTT_NONE;
	ca->max_rtt = 0;
	ca->acked = 0;
	ca->rtt_low = 0;
	ca->rtt_above = 0;
	ca->da = 0;
	ca->dm = 0;
	illinois_rtt_reset(sk, ca);
}

/* Per ACK: its segment count, and its RTT into the min, max and sum. */
void TCPCA_OPS(illinois_pkts_acked, struct sock *sk, const struct ack_sample *sample)
{
	struct illinois_ca *ca = inet_csk_ca(sk);
	u32 rtt;

	ca->acked = (u16)sample->pkts_acked;
	if (sample->rtt_us < 0)
		return;				/* no sample (duplicate ACK) */
	rtt = illinois_rtt_sample((u32)sample->rtt_us);
	if (rtt < ca->base_rtt)
		ca->base_rtt = rtt;
	if (rtt > ca->max_rtt)
		ca->max_rtt = rtt;
	ca->cnt_rtt++;
	ca->sum_rtt += rtt;
}

/* Once per RTT: alpha and beta from this RTT's delay. */
static __always_inline void illinois_update(struct sock *sk, struct illinois_ca *ca)
{
	if (tcp_sk(sk)->snd_cwnd < params.win_thresh) {
		ca->alpha = ILLINOIS_ALPHA_BASE;
		ca->beta = ILLINOIS_BETA_BASE;
	} else if (ca->cnt_rtt > 0) {
		struct illinois_alpha_state s = {
			.alpha = ca->alpha, .rtt_above = ca->rtt_above, .rtt_low = ca->rtt_low,
		};
		u32 dm = ca->max_rtt - ca->base_rtt;
		u32 da = illinois_avg_delay(ca->sum_rtt, ca->cnt_rtt, ca->base_rtt);

		ca->alpha = illinois_alpha(&s, da, dm, params.theta);
		ca->rtt_above = s.rtt_above;
		ca->rtt_low = s.rtt_low;
		ca->beta = illinois_beta(da, dm);
		ca->da = da;
		ca->dm = dm;
	}
	illinois_rtt_reset(sk, ca);
}

void TCPCA_OPS(illinois_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct illinois_ca *ca = inet_csk_ca(sk);
	struct illinois_window w;

	if (after(ack, ca->end_seq))
		illinois_update(sk, ca);

	if (!tcp_is_cwnd_limited(sk))
		return;

	if (tcp_in_slow_start(tp)) {
		tcpca_slow_start(tp, acked);
		return;
	}
	/* cwnd += alpha / cwnd, counting the segments pkts_acked() saw */
	w.cwnd = tp->snd_cwnd;
	w.cwnd_cnt = tp->snd_cwnd_cnt;
	illinois_ai(&w, ca->acked, ca->alpha, tp->snd_cwnd_clamp);
	ca->acked = 1;
	tp->snd_cwnd = w.cwnd;
	tp->snd_cwnd_cnt = w.cwnd_cnt;
}

/* Event record kinds (tcpca-load --events). */
enum { ILLINOIS_EV_LOSS = 1 };	/* v0 = cwnd, v1 = new ssthresh, v2 = beta/64, v3 = alpha/128 */

/* Multiplicative decrease by this RTT's beta. */
u32 TCPCA_OPS(illinois_ssthresh, struct sock *sk)
{
	const struct illinois_ca *ca = inet_csk_ca(sk);
	u32 cwnd = tcp_sk(sk)->snd_cwnd, ssthresh = illinois_calc_ssthresh(cwnd, ca->beta);

	TCPCA_COUNT(losses);
	tcpca_event(sk, ILLINOIS_EV_LOSS, cwnd, ssthresh, ca->beta, ca->alpha);
	return ssthresh;
}

/* A timeout: Reno's constants, and the delay history of alpha forgotten. */
void TCPCA_OPS(illinois_set_state, struct sock *sk, u8 new_state)
{
	struct illinois_ca *ca = inet_csk_ca(sk);

	tcpca_count_state(new_state);
	if (new_state == TCP_CA_Loss) {
		ca->alpha = ILLINOIS_ALPHA_BASE;
		ca->beta = ILLINOIS_BETA_BASE;
		ca->rtt_low = 0;
		ca->rtt_above = 0;
		illinois_rtt_reset(sk, ca);
	}
}

u32 TCPCA_OPS(illinois_undo_cwnd, struct sock *sk)
{
	return tcpca_reno_undo_cwnd(sk);
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops illinois = {
	.init		= (void *)illinois_init,
	.pkts_acked	= (void *)illinois_pkts_acked,
	.cong_avoid	= (void *)illinois_cong_avoid,
	.ssthresh	= (void *)illinois_ssthresh,
	.set_state	= (void *)illinois_set_state,
	.undo_cwnd	= (void *)illinois_undo_cwnd,
	.name		= "illinois",
};

static __always_inline void illinois_print_state(struct seq_file *seq, const struct illinois_ca *ca)
{
	u64 avg = ca->cnt_rtt ? ca->sum_rtt / (u64)ca->cnt_rtt : 0;

	BPF_SEQ_PRINTF(seq, " alpha_x128=%u beta_x64=%u base_rtt_us=%u max_rtt_us=%u",
		       ca->alpha, ca->beta, ca->base_rtt, ca->max_rtt);
	BPF_SEQ_PRINTF(seq, " rtt_cnt=%u avg_rtt_us=%llu da_us=%u dm_us=%u", ca->cnt_rtt, avg,
		       ca->da, ca->dm);
	BPF_SEQ_PRINTF(seq, " rtt_above=%u rtt_low=%u acked_pkts=%u", ca->rtt_above, ca->rtt_low,
		       ca->acked);
}

TCPCA_SOCKETS(struct illinois_ca, illinois_print_state);
