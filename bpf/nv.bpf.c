// SPDX-License-Identifier: GPL-2.0
/*
 * TCP-NV (New Vegas): once per RTT, the largest delivery rate times min_rtt
 * is the window without a queue; cwnd is cut above it plus pad, grows below.
 *
 * L. Brakmo, "TCP-NV: An Update to TCP-Vegas", Netdev 1.1, 2016.
 * Follows net/ipv4/tcp_nv.c (6.1).  Arithmetic: include/nv.h.
 *
 * Departures from the module:
 *  - min_rtt's renewal deadline is in us of CLOCK_MONOTONIC, not jiffies.
 *  - Parameters and constants are tunables; pad_buffer <= pad, or u32 wraps.
 *  - base_rtt is a tunable: BPF_SOCK_OPS_BASE_RTT cannot be called here.
 *  - 64-bit where the module's could wrap; the growth factor stops at 31.
 *  - The last evaluation is kept for the iterator, and sent to --events.
 *  - No get_info: the iterator shows tcpvegas_info's fields and NV's.
 *
 * Departures in full, and the evidence: docs/algorithms.md, "TCP-NV".
 */
#include "tcpca.bpf.h"
#include "tcpca_kernel.bpf.h"
#include "tcpca_params.h"
#include "nv.h"

char _license[] SEC("license") = "GPL";

TCPCA_PARAMS(nv_params, NV_PARAMS);

/* The module's struct tcpnv, plus the last evaluation for the iterator. */
struct nv_ca {
	u64 min_rtt_reset_us;	/* when min_rtt_new takes over, us (CLOCK_MONOTONIC) */
	s8 cwnd_growth_factor;	/* < 0: slower than Reno (after a timeout), > 0 faster */
	u8 allow_cwnd_growth;	/* 1: cong_avoid may grow cwnd */
	u8 reset;		/* 1: restart the counters when back in Open */
	u8 catchup;		/* never set (as in the module) */
	u8 eval_call_cnt;	/* rate samples since the last decision (stops at 255) */
	u8 min_cwnd;		/* per-socket floor for deciding at all, segments (TSO) */
	u8 rtt_cnt;		/* RTTs since the last decision (stops at 255) */
	u8 last_decision;	/* enum nv_decision of the last evaluation */
	u32 last_rtt;		/* averaged RTT, us; 0 = none yet */
	u32 min_rtt;		/* min_rtt in use (the slope), us; NV_INIT_RTT = none */
	u32 min_rtt_new;	/* min_rtt of the current period, us */
	u32 base_rtt;		/* known path RTT (tunable base_rtt), us; 0 = none */
	u32 lower_bound_rtt;	/* 80% of base_rtt, us; 0 = none */
	u32 rtt_max_rate;	/* largest rate since the last decision, 100 bit/s */
	u32 rtt_start_seq;	/* the RTT ends when snd_una passes this */
	u32 last_snd_una;	/* snd_una at the last sample: bytes acked since */
	u32 no_cong_cnt;	/* uncongested decisions in a row */
	u32 last_rate;		/* rtt_max_rate at the last evaluation, 100 bit/s */
	u32 last_cwnd_by_slope;	/* the window the path holds without a queue then, segments */
};
TCPCA_STATE_FITS(struct nv_ca);

/* Counters restart after a loss or CWR ends, as at the start. */
static __always_inline void nv_reset(struct nv_ca *ca, const struct tcp_sock *tp)
{
	ca->reset = 0;
	ca->no_cong_cnt = 0;
	ca->rtt_cnt = 0;
	ca->last_rtt = 0;
	ca->rtt_max_rate = 0;
	ca->rtt_start_seq = tp->snd_una;
	ca->eval_call_cnt = 0;
	ca->last_snd_una = tp->snd_una;
}

void TCPCA_OPS(nv_init, struct sock *sk)
{
	struct nv_ca *ca = inet_csk_ca(sk);
	u32 base = params.base_rtt;

	nv_reset(ca, tcp_sk(sk));
	ca->base_rtt = base;
	ca->lower_bound_rtt = base ? nv_lower_bound(base) : 0;
	ca->allow_cwnd_growth = 1;
	ca->min_rtt_reset_us = bpf_ktime_get_ns() / NSEC_PER_USEC + 2 * USEC_PER_SEC;
	ca->min_rtt = NV_INIT_RTT;
	ca->min_rtt_new = NV_INIT_RTT;
	ca->min_cwnd = NV_MIN_CWND;
	ca->catchup = 0;
	ca->cwnd_growth_factor = 0;
	ca->last_decision = NV_WAIT;
	ca->last_rate = 0;
	ca->last_cwnd_by_slope = 0;
}

/* Event record kinds (tcpca-load --events). */
enum { NV_EV_EVAL = 1 };	/* v0 rate, v1 cwnd - cwnd_by_slope, v2 cwnd_by_slope, v3 decision */

/*
 * The end of an RTT: raise the decision floor when a single sample came
 * (TSO, coalescing: the window is too small to measure), else compare cwnd
 * with the rate's window + pad and act (include/nv.h).
 */
static __always_inline void nv_rtt_end(struct sock *sk, struct nv_ca *ca, u32 bytes_acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 mss = tp->mss_cache, cwnd = tp->snd_cwnd, by_slope, max_win;
	enum nv_decision d;
	struct nv_eval e;

	ca->rtt_start_seq = tp->snd_nxt;
	if (ca->rtt_cnt < 0xff)
		ca->rtt_cnt++;

	if (ca->eval_call_cnt == 1 && bytes_acked >= (ca->min_cwnd - 1) * mss &&
	    ca->min_cwnd < NV_TSO_CWND_BOUND + 1) {
		ca->min_cwnd = min(ca->min_cwnd + NV_MIN_CWND_GROW, NV_TSO_CWND_BOUND + 1);
		ca->rtt_start_seq = tp->snd_nxt + ca->min_cwnd * mss;
		ca->eval_call_cnt = 0;
		ca->allow_cwnd_growth = 1;
		ca->last_decision = NV_TSO;
		tcpca_event(sk, NV_EV_EVAL, ca->rtt_max_rate, 0, 0, NV_TSO);
		return;
	}

	by_slope = nv_cwnd_by_slope(ca->rtt_max_rate, ca->min_rtt, mss);
	max_win = by_slope + params.pad;

	e.cwnd = cwnd;
	e.ssthresh = tp->snd_ssthresh;
	e.no_cong_cnt = ca->no_cong_cnt;
	e.eval_call_cnt = ca->eval_call_cnt;
	e.rtt_cnt = ca->rtt_cnt;
	e.growth_factor = ca->cwnd_growth_factor;
	e.allow_growth = ca->allow_cwnd_growth;
	d = nv_evaluate(&e, max_win, &params);

	ca->last_decision = d;
	ca->last_rate = ca->rtt_max_rate;
	ca->last_cwnd_by_slope = by_slope;
	tcpca_event(sk, NV_EV_EVAL, ca->rtt_max_rate, cwnd - by_slope, by_slope, d);

	ca->allow_cwnd_growth = e.allow_growth;
	if (d != NV_DEC && d != NV_GROW)
		return;
	tp->snd_cwnd = e.cwnd;
	tp->snd_ssthresh = e.ssthresh;
	ca->no_cong_cnt = e.no_cong_cnt;
	ca->cwnd_growth_factor = e.growth_factor;
	ca->eval_call_cnt = 0;
	ca->rtt_cnt = 0;
	ca->rtt_max_rate = 0;
}

/* Every RTT sample: the averaged RTT, the rate, min_rtt; once per RTT the decision. */
void TCPCA_OPS(nv_pkts_acked, struct sock *sk, const struct ack_sample *sample)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct nv_ca *ca = inet_csk_ca(sk);
	u32 ca_state = BPF_CORE_READ_BITFIELD(&tp->inet_conn, icsk_ca_state);
	u32 avg_rtt, rate, bytes_acked, factor = params.rtt_factor;
	u64 now = tp->tcp_mstamp;

	/* ACKs of retransmitted or duplicate data carry no RTT */
	if (sample->rtt_us < 0)
		return;
	/* in recovery, loss and CWR the rates describe the repair, not the path */
	if (ca_state != TCP_CA_Open && ca_state != TCP_CA_Disorder)
		return;

	if (ca->catchup && tp->snd_cwnd >= params.min_cwnd) {
		ca->catchup = 0;
		ca->allow_cwnd_growth = 0;
	}

	bytes_acked = tp->snd_una - ca->last_snd_una;
	ca->last_snd_una = tp->snd_una;

	if (sample->in_flight == 0)
		return;

	if (factor > 0) {
		avg_rtt = nv_avg_rtt((u32)sample->rtt_us, ca->last_rtt, factor);
		if (ca->last_rtt == 0)
			ca->min_rtt = avg_rtt << 1;
		ca->last_rtt = avg_rtt;
	} else {
		avg_rtt = (u32)sample->rtt_us;
	}

	rate = nv_rate(sample->in_flight, avg_rtt);
	if (ca->rtt_max_rate < rate)
		ca->rtt_max_rate = rate;
	if (ca->eval_call_cnt < 0xff)
		ca->eval_call_cnt++;

	/* the bounds of a known base RTT act on min_rtt only */
	avg_rtt = nv_bounded_rtt(avg_rtt, ca->lower_bound_rtt, ca->base_rtt);
	if (avg_rtt < ca->min_rtt)
		ca->min_rtt = avg_rtt;
	if (avg_rtt < ca->min_rtt_new)
		ca->min_rtt_new = avg_rtt;

	/* A path that got longer: the last period's minimum takes over. */
	if (now >= ca->min_rtt_reset_us) {
		ca->min_rtt = ca->min_rtt_new;
		ca->min_rtt_new = NV_INIT_RTT;
		ca->min_rtt_reset_us = now + nv_reset_interval_us(params.reset_period,
								  bpf_get_prandom_u32());
		/* the TSO floor may be stale too */
		ca->min_cwnd = max(ca->min_cwnd / 2, NV_MIN_CWND);
	}

	if (before(ca->rtt_start_seq, tp->snd_una))
		nv_rtt_end(sk, ca, bytes_acked);
}

/* Growth only where NV's last decision allowed it; the pace by the growth factor. */
void TCPCA_OPS(nv_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct nv_ca *ca = inet_csk_ca(sk);

	if (!tcp_is_cwnd_limited(sk))
		return;
	if (!ca->allow_cwnd_growth)
		return;

	if (tcp_in_slow_start(tp)) {
		acked = tcpca_slow_start(tp, acked);
		if (!acked)
			return;
	}
	tcpca_cong_avoid_ai(tp, nv_ai_cnt(tp->snd_cwnd, ca->cwnd_growth_factor), acked);
}

/* A loss keeps loss_dec_factor/1024 (80%) of the window. */
u32 TCPCA_OPS(nv_ssthresh, struct sock *sk)
{
	TCPCA_COUNT(losses);
	return nv_loss_ssthresh(tcp_sk(sk)->snd_cwnd, params.loss_dec_factor);
}

/*
 * Leaving Open for CWR, recovery or loss stops growth and marks the counters
 * for a restart; a timeout also slows the growth that follows (a segment per
 * 2 RTTs, halving again at each further timeout down to one per 256).
 */
void TCPCA_OPS(nv_set_state, struct sock *sk, u8 new_state)
{
	struct nv_ca *ca = inet_csk_ca(sk);

	tcpca_count_state(new_state);
	if (new_state == TCP_CA_Open && ca->reset) {
		nv_reset(ca, tcp_sk(sk));
	} else if (new_state == TCP_CA_Loss || new_state == TCP_CA_CWR ||
		   new_state == TCP_CA_Recovery) {
		ca->reset = 1;
		ca->allow_cwnd_growth = 0;
		if (new_state == TCP_CA_Loss) {
			if (ca->cwnd_growth_factor > 0)
				ca->cwnd_growth_factor = 0;
			if (params.cwnd_growth_rate_neg > 0 &&
			    ca->cwnd_growth_factor > NV_GROWTH_MIN)
				ca->cwnd_growth_factor--;
		}
	}
}

u32 TCPCA_OPS(nv_undo_cwnd, struct sock *sk)
{
	return tcpca_reno_undo_cwnd(sk);
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops nv = {
	.init		= (void *)nv_init,
	.pkts_acked	= (void *)nv_pkts_acked,
	.cong_avoid	= (void *)nv_cong_avoid,
	.ssthresh	= (void *)nv_ssthresh,
	.set_state	= (void *)nv_set_state,
	.undo_cwnd	= (void *)nv_undo_cwnd,
	.name		= "nv",
};

static __always_inline void nv_print_state(struct seq_file *seq, const struct nv_ca *ca)
{
	BPF_SEQ_PRINTF(seq, " avg_rtt_us=%u nv_min_rtt_us=%u nv_min_rtt_new_us=%u nv_base_rtt_us=%u",
		       ca->last_rtt, ca->min_rtt, ca->min_rtt_new, ca->base_rtt);
	/* the rate in kbit/s: the module's unit is 100 bit/s */
	BPF_SEQ_PRINTF(seq, " rate_kbps=%u cwnd_by_slope_pkts=%u decision=%u",
		       ca->last_rate / 10, ca->last_cwnd_by_slope, ca->last_decision);
	BPF_SEQ_PRINTF(seq, " grow=%u growth_factor=%d no_cong=%u evals=%u rtts=%u min_cwnd_pkts=%u",
		       ca->allow_cwnd_growth, ca->cwnd_growth_factor, ca->no_cong_cnt,
		       ca->eval_call_cnt, ca->rtt_cnt, ca->min_cwnd);
}

TCPCA_SOCKETS(struct nv_ca, nv_print_state);
