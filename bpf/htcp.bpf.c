// SPDX-License-Identifier: GPL-2.0
/*
 * H-TCP: Reno for a second after a loss, then an increase per RTT that grows
 * with the time since it; a loss keeps RTTmin / RTTmax within [0.5, 0.8].
 *
 * Shorten & Leith, PFLDnet 2004.
 * Follows net/ipv4/tcp_htcp.c.  Arithmetic: include/htcp.h.
 *
 * Departures from the module:
 *  - Time in us and ms of tcp_mstamp, not jiffies: the formulas unrounded.
 *  - alpha(Delta) is 64-bit, capped at 2^24: the module's wraps after 524 s.
 *  - pkts_acked is 32 bits (the module's u16 truncates); beta is a word.
 *  - The last loss's window is kept for the iterator; each loss to --events.
 *
 * Departures in full, and the evidence: docs/algorithms.md, "H-TCP".
 */
#include "tcpca.bpf.h"
#include "tcpca_kernel.bpf.h"
#include "tcpca_params.h"
#include "htcp.h"

char _license[] SEC("license") = "GPL";

TCPCA_PARAMS(htcp_params, HTCP_PARAMS);

/* Named apart from the module's "struct htcp". */
struct htcp_ca {
	u32 alpha;		/* increase per RTT, segments << 7 */
	u32 beta;		/* decrease factor at the next loss, << 7 (64..102) */
	u32 modeswitch;		/* 1: beta may follow RTTmin/RTTmax at the next event */
	u32 pkts_acked;		/* segments of the last ACK in Open: what it adds to snd_cwnd_cnt */
	u32 packetcount;	/* segments acked since lasttime (throughput sample) */
	u32 min_rtt;		/* RTTmin, us; 0 = no sample yet */
	u32 max_rtt;		/* RTTmax, us (in Open, rises of at most 20 ms) */
	u32 last_cong;		/* start of Delta: last congestion event (or its end), ms */
	u32 undo_last_cong;	/* last_cong before the current event, ms; 0 = nothing to undo */
	u32 undo_max_rtt;	/* max_rtt then, us */
	u32 undo_old_maxb;	/* old_maxb then, segments/s */
	u32 minb;		/* smallest throughput estimate since the last event, segments/s */
	u32 maxb;		/* largest one, segments/s */
	u32 old_maxb;		/* maxb at the previous congestion event, segments/s */
	u32 bi;			/* throughput estimate (EWMA 1/4), segments/s */
	u32 lasttime;		/* start of the throughput sample, us (low 32 bits of tcp_mstamp) */
	u32 loss_cwnd;		/* cwnd at the last ssthresh() call, packets (iterator only) */
};
TCPCA_STATE_FITS(struct htcp_ca);

/*
 * Event records (tcpca-load --events), one per loss: kind = the rule that set
 * beta (enum htcp_beta_rule: 1 RTTmin/RTTmax, 2 bandwidth switch, 3
 * modeswitch), v0 = cwnd, v1 = beta << 7, v2 = RTTmin us, v3 = RTTmax us
 * (before the fade).
 */

static __always_inline u32 htcp_now_ms(const struct tcp_sock *tp)
{
	return (u32)(tp->tcp_mstamp / USEC_PER_MSEC);
}

/* Delta: ms since the last congestion event. */
static __always_inline u32 htcp_cong_time(const struct htcp_ca *ca, const struct tcp_sock *tp)
{
	return htcp_now_ms(tp) - ca->last_cong;
}

static __always_inline void htcp_alpha_update(struct htcp_ca *ca, const struct tcp_sock *tp)
{
	ca->alpha = htcp_calc_alpha(htcp_cong_time(ca, tp), ca->min_rtt, ca->beta, &params);
}

/* A congestion event starts: keep what undo would restore, restart Delta. */
static __always_inline void htcp_reset(struct htcp_ca *ca, const struct tcp_sock *tp)
{
	ca->undo_last_cong = ca->last_cong;
	ca->undo_max_rtt = ca->max_rtt;
	ca->undo_old_maxb = ca->old_maxb;
	ca->last_cong = htcp_now_ms(tp);
}

void TCPCA_OPS(htcp_init, struct sock *sk)
{
	struct htcp_ca *ca = inet_csk_ca(sk);

	__builtin_memset(ca, 0, sizeof(*ca));
	ca->alpha = HTCP_ALPHA_BASE;
	ca->beta = HTCP_BETA_MIN;
	ca->pkts_acked = 1;
	ca->last_cong = htcp_now_ms(tcp_sk(sk));
}

/* RTTmin ever, RTTmax in Open; then the throughput, once per RTTmin or more. */
void TCPCA_OPS(htcp_pkts_acked, struct sock *sk, const struct ack_sample *sample)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct htcp_ca *ca = inet_csk_ca(sk);
	u32 state = BPF_CORE_READ_BITFIELD(inet_csk(sk), icsk_ca_state);
	u32 now = (u32)tp->tcp_mstamp, cwnd = tp->snd_cwnd, alpha_pkts;

	if (state == TCP_CA_Open)
		ca->pkts_acked = sample->pkts_acked;

	if (sample->rtt_us > 0) {
		u32 rtt = (u32)sample->rtt_us;

		if (!ca->min_rtt || rtt < ca->min_rtt)
			ca->min_rtt = rtt;
		if (state == TCP_CA_Open)
			ca->max_rtt = htcp_calc_max_rtt(ca->max_rtt, ca->min_rtt, rtt);
	}

	if (!params.use_bandwidth_switch)
		return;

	if (state != TCP_CA_Open && state != TCP_CA_Disorder) {
		ca->packetcount = 0;
		ca->lasttime = now;
		return;
	}

	ca->packetcount += sample->pkts_acked;
	alpha_pkts = ca->alpha >> HTCP_SHIFT;
	/* a window's worth (less one RTT's increase), over at least RTTmin */
	if (ca->packetcount >= cwnd - (alpha_pkts ? alpha_pkts : 1) &&
	    now - ca->lasttime >= ca->min_rtt && ca->min_rtt > 0) {
		u32 cur = htcp_calc_bw(ca->packetcount, now - ca->lasttime);
		u64 ccount = (u64)htcp_cong_time(ca, tp) * USEC_PER_MSEC / ca->min_rtt;

		if (ccount <= HTCP_CCOUNT_RESET) {
			/* just after a backoff: start over */
			ca->minb = cur;
			ca->maxb = cur;
			ca->bi = cur;
		} else {
			ca->bi = htcp_calc_bi(ca->bi, cur);
			if (ca->bi > ca->maxb)
				ca->maxb = ca->bi;
			if (ca->minb > ca->maxb)
				ca->minb = ca->maxb;
		}
		ca->packetcount = 0;
		ca->lasttime = now;
	}
}

void TCPCA_OPS(htcp_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct htcp_ca *ca = inet_csk_ca(sk);

	if (!tcp_is_cwnd_limited(sk))
		return;

	if (tcp_in_slow_start(tp)) {
		tcpca_slow_start(tp, acked);
		return;
	}

	/* cwnd += alpha / cwnd per segment acked, one segment at a time */
	if (htcp_ai_due(tp->snd_cwnd_cnt, ca->alpha, tp->snd_cwnd)) {
		if (tp->snd_cwnd < tp->snd_cwnd_clamp)
			tp->snd_cwnd = tp->snd_cwnd + 1;
		tp->snd_cwnd_cnt = 0;
		htcp_alpha_update(ca, tp);
	} else {
		tp->snd_cwnd_cnt = tp->snd_cwnd_cnt + ca->pkts_acked;
	}
	ca->pkts_acked = 1;
}

/*
 * A congestion event: beta from this epoch's RTTs (or 0.5), alpha for it,
 * RTTmax fading towards RTTmin; the window is multiplied by beta.
 */
u32 TCPCA_OPS(htcp_ssthresh, struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct htcp_ca *ca = inet_csk_ca(sk);
	u32 min_rtt = ca->min_rtt, max_rtt = ca->max_rtt, cwnd = tp->snd_cwnd;
	u32 modeswitch = ca->modeswitch, rule;
	int moved = 0;

	TCPCA_COUNT(losses);
	if (params.use_bandwidth_switch) {
		moved = htcp_bw_moved(ca->maxb, ca->old_maxb);
		ca->old_maxb = ca->maxb;
	}
	ca->beta = htcp_calc_beta(min_rtt, max_rtt, moved, &modeswitch, &rule);
	ca->modeswitch = modeswitch;
	htcp_alpha_update(ca, tp);
	ca->max_rtt = htcp_fade_max_rtt(max_rtt, min_rtt);

	ca->loss_cwnd = cwnd;
	tcpca_event(sk, rule, cwnd, ca->beta, min_rtt, max_rtt);
	return htcp_calc_ssthresh(cwnd, ca->beta);
}

/* Delta restarts when an event begins, and again when an undone one ends. */
void TCPCA_OPS(htcp_set_state, struct sock *sk, u8 new_state)
{
	struct htcp_ca *ca = inet_csk_ca(sk);
	const struct tcp_sock *tp = tcp_sk(sk);

	tcpca_count_state(new_state);
	switch (new_state) {
	case TCP_CA_Open:
		if (ca->undo_last_cong) {
			ca->last_cong = htcp_now_ms(tp);
			ca->undo_last_cong = 0;
		}
		break;
	case TCP_CA_Loss:
	case TCP_CA_CWR:
	case TCP_CA_Recovery:
		htcp_reset(ca, tp);
		break;
	}
}

/* A spurious event: its Delta, RTTmax and peak throughput come back. */
u32 TCPCA_OPS(htcp_undo_cwnd, struct sock *sk)
{
	struct htcp_ca *ca = inet_csk_ca(sk);

	if (ca->undo_last_cong) {
		ca->last_cong = ca->undo_last_cong;
		ca->max_rtt = ca->undo_max_rtt;
		ca->old_maxb = ca->undo_old_maxb;
		ca->undo_last_cong = 0;
	}
	return tcpca_reno_undo_cwnd(sk);
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops htcp = {
	.init		= (void *)htcp_init,
	.pkts_acked	= (void *)htcp_pkts_acked,
	.cong_avoid	= (void *)htcp_cong_avoid,
	.ssthresh	= (void *)htcp_ssthresh,
	.set_state	= (void *)htcp_set_state,
	.undo_cwnd	= (void *)htcp_undo_cwnd,
	.name		= "htcp",
};

static __always_inline void htcp_print_state(struct seq_file *seq, const struct htcp_ca *ca)
{
	u32 now_ms = (u32)(bpf_ktime_get_ns() / (NSEC_PER_USEC * USEC_PER_MSEC));

	BPF_SEQ_PRINTF(seq, " alpha_x128=%u beta_x128=%u modeswitch=%u since_cong_ms=%u",
		       ca->alpha, ca->beta, ca->modeswitch, now_ms - ca->last_cong);
	BPF_SEQ_PRINTF(seq, " rtt_min_us=%u rtt_max_us=%u loss_cwnd_pkts=%u", ca->min_rtt,
		       ca->max_rtt, ca->loss_cwnd);
	BPF_SEQ_PRINTF(seq, " bw_pps=%u bw_max_pps=%u bw_min_pps=%u bw_old_max_pps=%u",
		       ca->bi, ca->maxb, ca->minb, ca->old_maxb);
}

TCPCA_SOCKETS(struct htcp_ca, htcp_print_state);
