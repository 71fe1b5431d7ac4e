// SPDX-License-Identifier: GPL-2.0
/*
 * TCP Vegas: once per RTT, Diff, the packets it keeps queued by BaseRTT and
 * the round's smallest RTT; grows below alpha, shrinks above beta.
 *
 * L. S. Brakmo, L. L. Peterson, "TCP Vegas: End to End Congestion Avoidance
 * on a Global Internet", IEEE JSAC 13(8):1465-1480, October 1995.
 * Follows net/ipv4/tcp_vegas.c (6.x).  Arithmetic: include/vegas.h.
 *
 * Departures from the module:
 *  - Diff is 64-bit: the module's u32 product wraps on a long queue.
 *  - ss_every_other=1 (off by default) gives the paper's slow start.
 *  - Each per-RTT decision also goes to --events.
 *  - No get_info: the iterator prints the same fields.
 *
 * Departures in full, and the evidence: docs/algorithms.md, "Vegas".
 */
#include "tcpca.bpf.h"
#include "tcpca_kernel.bpf.h"
#include "tcpca_params.h"
#include "vegas.bpf.h"

char _license[] SEC("license") = "GPL";

TCPCA_PARAMS(vegas_params, VEGAS_PARAMS);

#define TCPF_CA_CWR		(1 << TCP_CA_CWR)
#define TCPF_CA_Recovery	(1 << TCP_CA_Recovery)

/* The state, struct vegas_ca, and the hooks that keep its RTT filters are in
 * include/vegas.bpf.h: YeAH embeds them, as tcp_yeah.c does tcp_vegas.h's. */
TCPCA_STATE_FITS(struct vegas_ca);

void TCPCA_OPS(vegas_init, struct sock *sk)
{
	vegas_reset(sk);
}

void TCPCA_OPS(vegas_pkts_acked, struct sock *sk, const struct ack_sample *sample)
{
	vegas_rtt_sample(sk, sample);
}

/* CWR or Recovery, for tcp_current_ssthresh() (tcpca_current_ssthresh). */
static __always_inline int vegas_cwr_or_recovery(const struct sock *sk)
{
	u32 state = BPF_CORE_READ_BITFIELD(inet_csk(sk), icsk_ca_state);

	return !!((1 << state) & (TCPF_CA_CWR | TCPF_CA_Recovery));
}

/*
 * Event record kinds (tcpca-load --events): one per RTT decision with
 * v0 = Diff (packets), v1 = enum vegas_action, v2 = BaseRTT, v3 = RTT (us + 1).
 */
enum { VEGAS_EV_DECISION = 1 };

/* The once-per-RTT decision, made on the first ACK beyond beg_snd_nxt. */
static __always_inline void vegas_adjust(struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct vegas_ca *ca = inet_csk_ca(sk);
	bool slow_start = tcp_in_slow_start(tp);
	enum vegas_action action;
	struct vegas_window w;

	ca->beg_snd_nxt = tp->snd_nxt;

	if (ca->cnt_rtt < VEGAS_MIN_SAMPLES) {
		/* Most likely one delayed ACK per RTT: no basis for Vegas. */
		tcpca_reno_cong_avoid(sk, ack, acked);
		return;
	}

	ca->diff = vegas_diff(tp->snd_cwnd, ca->base_rtt, ca->min_rtt);
	action = vegas_decide(ca->diff, slow_start, &params);

	if (action == VEGAS_SLOW_START) {
		/* The paper's variant measures a fixed window every other RTT. */
		if (params.ss_every_other)
			ca->ss_hold = !ca->ss_hold;
		else
			ca->ss_hold = 0;
		if (!ca->ss_hold)
			tcpca_slow_start(tp, acked);
	} else {
		ca->ss_hold = 0;
	}
	/* cwnd, then ssthresh from it, in the module's order (vegas_step) */
	w.cwnd = tp->snd_cwnd;
	w.ssthresh = tp->snd_ssthresh;
	vegas_step(&w, action, ca->base_rtt, ca->min_rtt, tp->snd_cwnd_clamp,
		   vegas_cwr_or_recovery(sk));
	tp->snd_cwnd = w.cwnd;
	tp->snd_ssthresh = w.ssthresh;
	tcpca_event(sk, VEGAS_EV_DECISION, ca->diff, action, ca->base_rtt, ca->min_rtt);
}

void TCPCA_OPS(vegas_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct vegas_ca *ca = inet_csk_ca(sk);

	if (!ca->doing_vegas_now) {
		tcpca_reno_cong_avoid(sk, ack, acked);
		return;
	}

	if (after(ack, ca->beg_snd_nxt)) {
		vegas_adjust(sk, ack, acked);
		/* Wipe the slate clean for the next RTT. */
		ca->cnt_rtt = 0;
		ca->min_rtt = VEGAS_RTT_NONE;
	} else if (tcp_in_slow_start(tp) && !ca->ss_hold) {
		tcpca_slow_start(tp, acked);
	}
}

/* Reno's multiplicative decrease: half the window, never below two segments. */
u32 TCPCA_OPS(vegas_ssthresh, struct sock *sk)
{
	return tcpca_reno_ssthresh(sk);
}

void TCPCA_OPS(vegas_set_state, struct sock *sk, u8 new_state)
{
	tcpca_count_state(new_state);
	vegas_state(sk, new_state);
}

void TCPCA_OPS(vegas_cwnd_event, struct sock *sk, enum tcp_ca_event event)
{
	vegas_restart(sk, event);
}

u32 TCPCA_OPS(vegas_undo_cwnd, struct sock *sk)
{
	return tcpca_reno_undo_cwnd(sk);
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops vegas = {
	.init		= (void *)vegas_init,
	.pkts_acked	= (void *)vegas_pkts_acked,
	.cong_avoid	= (void *)vegas_cong_avoid,
	.ssthresh	= (void *)vegas_ssthresh,
	.set_state	= (void *)vegas_set_state,
	.cwnd_event	= (void *)vegas_cwnd_event,
	.undo_cwnd	= (void *)vegas_undo_cwnd,
	.name		= "vegas",
};

static __always_inline void vegas_print_state(struct seq_file *seq, const struct vegas_ca *ca)
{
	BPF_SEQ_PRINTF(seq, " enabled=%u base_rtt_us=%u rtt_min_this_rtt_us=%u rtt_cnt=%u",
		       ca->doing_vegas_now, ca->base_rtt, ca->min_rtt, ca->cnt_rtt);
	BPF_SEQ_PRINTF(seq, " diff_pkts=%u ss_hold=%u", ca->diff, ca->ss_hold);
}

TCPCA_SOCKETS(struct vegas_ca, vegas_print_state);
