// SPDX-License-Identifier: GPL-2.0
/*
 * YeAH-TCP: Scalable's growth while its queue (by Vegas's RTT filters) is
 * small, else Reno's and giving the queue back; a loss costs only that queue.
 *
 * A. Baiocchi, A. P. Castellani, F. Vacirca, "YeAH-TCP: Yet Another Highspeed
 * TCP", PFLDnet 2007.
 * Follows net/ipv4/tcp_yeah.c (6.x).  Arithmetic: include/yeah.h; the Vegas
 * part is include/vegas.bpf.h, as the module's is tcp_vegas.h.
 *
 * Departures from the module:
 *  - The constants are tunables, with the module's values.
 *  - snd_cwnd_clamp is not lowered to 2^25: the products here are 64-bit.
 *  - beg_snd_una and beg_snd_cwnd (never read) are dropped; cnt_rtt is u32.
 *  - Each loss and decongestion goes to --events; no get_info, the iterator.
 *
 * Departures in full, and the evidence: docs/algorithms.md, "YeAH-TCP".
 */
#include "tcpca.bpf.h"
#include "tcpca_kernel.bpf.h"
#include "tcpca_params.h"
#include "vegas.bpf.h"
#include "yeah.h"

char _license[] SEC("license") = "GPL";

TCPCA_PARAMS(yeah_params, YEAH_PARAMS);

/* The module's struct yeah: Vegas's state first, then YeAH's. */
struct yeah_ca {
	struct vegas_ca vegas;	/* must be first: include/vegas.bpf.h's hooks use it */
	u32 last_q;		/* packets queued at the last per-RTT step */
	u32 doing_reno_now;	/* slow RTTs in a row; 0 = fast mode (Scalable growth) */
	u32 reno_count;		/* the window of a competing Reno flow, estimated, segments */
	u32 fast_count;		/* fast RTTs since reno_count was last reset */
};
TCPCA_STATE_FITS(struct yeah_ca);

void TCPCA_OPS(yeah_init, struct sock *sk)
{
	struct yeah_ca *ca = inet_csk_ca(sk);

	vegas_reset(sk);
	ca->doing_reno_now = 0;
	ca->last_q = 0;
	ca->reno_count = 2;
}

void TCPCA_OPS(yeah_pkts_acked, struct sock *sk, const struct ack_sample *sample)
{
	vegas_rtt_sample(sk, sample);
}

/* Event record kinds (tcpca-load --events). */
enum {
	YEAH_EV_LOSS = 1,	/* v0 = cwnd, v1 = new ssthresh, v2 = last queue, v3 = slow RTTs */
	YEAH_EV_DECONGEST = 2,	/* v0 = cwnd before, v1 = after, v2 = queue, v3 = reno_count */
};

/* The end of an RTT: the mode for the next, and decongestion. */
static __always_inline void yeah_rtt_end(struct sock *sk, struct yeah_ca *ca)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct yeah_window w;
	u32 cut;

	w.cwnd = tp->snd_cwnd;
	w.ssthresh = tp->snd_ssthresh;
	w.reno_count = ca->reno_count;
	w.doing_reno_now = ca->doing_reno_now;
	w.fast_count = ca->fast_count;
	w.last_q = ca->last_q;
	cut = yeah_rtt_step(&w, ca->vegas.base_rtt, ca->vegas.min_rtt, &params);
	if (cut) {
		tcpca_event(sk, YEAH_EV_DECONGEST, tp->snd_cwnd, w.cwnd, w.last_q, w.reno_count);
		tp->snd_cwnd = w.cwnd;
		tp->snd_ssthresh = w.ssthresh;
	}
	ca->reno_count = w.reno_count;
	ca->doing_reno_now = w.doing_reno_now;
	ca->fast_count = w.fast_count;
	ca->last_q = w.last_q;
}

void TCPCA_OPS(yeah_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct yeah_ca *ca = inet_csk_ca(sk);

	if (!tcp_is_cwnd_limited(sk))
		return;

	if (tcp_in_slow_start(tp)) {
		acked = tcpca_slow_start(tp, acked);
		if (!acked)
			goto rtt_end;
	}
	if (!ca->doing_reno_now)
		tcpca_cong_avoid_ai(tp, min(tp->snd_cwnd, YEAH_AI_CNT), acked);	/* Scalable */
	else
		tcpca_cong_avoid_ai(tp, tp->snd_cwnd, acked);			/* Reno */

rtt_end:
	if (!after(ack, ca->vegas.beg_snd_nxt))
		return;
	/* Three samples: at least one not from a delayed ACK. */
	if (ca->vegas.cnt_rtt >= YEAH_MIN_SAMPLES)
		yeah_rtt_end(sk, ca);
	ca->vegas.beg_snd_nxt = tp->snd_nxt;
	ca->vegas.cnt_rtt = 0;
	ca->vegas.min_rtt = VEGAS_RTT_NONE;
}

/* The loss: give back the queue, or halve when competing with Reno. */
u32 TCPCA_OPS(yeah_ssthresh, struct sock *sk)
{
	struct yeah_ca *ca = inet_csk_ca(sk);
	u32 cwnd = tcp_sk(sk)->snd_cwnd;
	u32 ssthresh = yeah_calc_ssthresh(cwnd, ca->last_q, ca->doing_reno_now, &params);

	TCPCA_COUNT(losses);
	tcpca_event(sk, YEAH_EV_LOSS, cwnd, ssthresh, ca->last_q, ca->doing_reno_now);
	ca->fast_count = 0;
	ca->reno_count = yeah_loss_reno_count(ca->reno_count);
	return ssthresh;
}

void TCPCA_OPS(yeah_set_state, struct sock *sk, u8 new_state)
{
	tcpca_count_state(new_state);
	vegas_state(sk, new_state);
}

void TCPCA_OPS(yeah_cwnd_event, struct sock *sk, enum tcp_ca_event event)
{
	vegas_restart(sk, event);
}

u32 TCPCA_OPS(yeah_undo_cwnd, struct sock *sk)
{
	return tcpca_reno_undo_cwnd(sk);
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops yeah = {
	.init		= (void *)yeah_init,
	.pkts_acked	= (void *)yeah_pkts_acked,
	.cong_avoid	= (void *)yeah_cong_avoid,
	.ssthresh	= (void *)yeah_ssthresh,
	.set_state	= (void *)yeah_set_state,
	.cwnd_event	= (void *)yeah_cwnd_event,
	.undo_cwnd	= (void *)yeah_undo_cwnd,
	.name		= "yeah",
};

static __always_inline void yeah_print_state(struct seq_file *seq, const struct yeah_ca *ca)
{
	BPF_SEQ_PRINTF(seq, " enabled=%u base_rtt_us=%u rtt_min_this_rtt_us=%u rtt_cnt=%u",
		       ca->vegas.doing_vegas_now, ca->vegas.base_rtt, ca->vegas.min_rtt,
		       ca->vegas.cnt_rtt);
	BPF_SEQ_PRINTF(seq, " queue_pkts=%u slow_rtts=%u reno_count=%u fast_count=%u",
		       ca->last_q, ca->doing_reno_now, ca->reno_count, ca->fast_count);
}

TCPCA_SOCKETS(struct yeah_ca, yeah_print_state);
