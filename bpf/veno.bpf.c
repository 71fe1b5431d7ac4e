// SPDX-License-Identifier: GPL-2.0
/*
 * TCP Veno: Reno that reads the Vegas backlog N to tell a random loss (cut
 * by 1/5) from a congestive one (1/2), and grows slower when N is large.
 *
 * C. P. Fu, S. C. Liew, "TCP Veno: TCP Enhancement for Transmission over
 * Wireless Access Networks", IEEE JSAC 21(2):216-228, February 2003.
 * Follows net/ipv4/tcp_veno.c (6.x).  Arithmetic: include/veno.h.
 *
 * Departures from the module:
 *  - beta (3 packets) is a tunable, with the module's value.
 *  - The last estimate's rtt is kept: the module resets its minrtt per ACK.
 *  - The loss ssthresh is 64-bit: the module's u32 cwnd * 4 wraps.
 *  - Each loss decision goes to --events; no get_info, the iterator instead.
 *
 * Departures in full, and the evidence: docs/algorithms.md, "Veno".
 */
#include "tcpca.bpf.h"
#include "tcpca_kernel.bpf.h"
#include "tcpca_params.h"
#include "veno.h"

char _license[] SEC("license") = "GPL";

TCPCA_PARAMS(veno_params, VENO_PARAMS);

/* The module's struct veno, plus the RTT of the last estimate. */
struct veno_ca {
	u8 doing_veno_now;	/* 1 in TCP_CA_Open; 0 = plain Reno (CWR, recovery, loss) */
	u16 cnt_rtt;		/* RTT samples seen (never reset, as in the module) */
	u32 min_rtt;		/* smallest RTT of this ACK (+1), us; VENO_RTT_NONE = none */
	u32 base_rtt;		/* smallest RTT ever seen (+1), us; VENO_RTT_NONE = none */
	u32 inc;		/* congestive state: 1 = the next window's worth of ACKs grows cwnd */
	u32 diff;		/* last N, 1/2 packets (ssthresh reads it at a loss) */
	u32 rtt;		/* RTT of that estimate (+1), us (for the iterator) */
};
TCPCA_STATE_FITS(struct veno_ca);

/* Veno restarts after recovery and an RTO: a fresh RTT filter. */
static __always_inline void veno_enable(struct veno_ca *ca)
{
	ca->doing_veno_now = 1;
	ca->min_rtt = VENO_RTT_NONE;
}

/* A new connection, or a restart after idle: BaseRTT is learnt again. */
static __always_inline void veno_reset(struct veno_ca *ca)
{
	ca->base_rtt = VENO_RTT_NONE;
	ca->inc = 1;
	veno_enable(ca);
}

void TCPCA_OPS(veno_init, struct sock *sk)
{
	veno_reset(inet_csk_ca(sk));
}

/* Two minimum filters: over all time (BaseRTT) and over this ACK. */
void TCPCA_OPS(veno_pkts_acked, struct sock *sk, const struct ack_sample *sample)
{
	struct veno_ca *ca = inet_csk_ca(sk);
	u32 vrtt;

	if (sample->rtt_us < 0)
		return;
	vrtt = (u32)sample->rtt_us + 1;		/* never 0 */
	if (vrtt < ca->base_rtt)
		ca->base_rtt = vrtt;
	if (vrtt < ca->min_rtt)
		ca->min_rtt = vrtt;
	ca->cnt_rtt++;
}

/* Reno's growth below beta, one segment every other RTT at or above it. */
static __always_inline void veno_grow(struct sock *sk, struct veno_ca *ca, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct veno_window w;

	ca->rtt = ca->min_rtt;
	ca->diff = veno_diff(tp->snd_cwnd, ca->base_rtt, ca->min_rtt);

	if (tcp_in_slow_start(tp)) {
		acked = tcpca_slow_start(tp, acked);
		if (!acked)
			goto done;
	}
	if (!veno_congestive(ca->diff, params.beta)) {
		tcpca_cong_avoid_ai(tp, tp->snd_cwnd, acked);
	} else {
		w.cwnd = tp->snd_cwnd;
		w.cwnd_cnt = tp->snd_cwnd_cnt;
		veno_congestive_ai(&w, &ca->inc, acked, tp->snd_cwnd_clamp);
		tp->snd_cwnd = w.cwnd;
		tp->snd_cwnd_cnt = w.cwnd_cnt;
	}
done:
	if (tp->snd_cwnd < 2)
		tp->snd_cwnd = 2;
	else if (tp->snd_cwnd > tp->snd_cwnd_clamp)
		tp->snd_cwnd = tp->snd_cwnd_clamp;
}

void TCPCA_OPS(veno_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct veno_ca *ca = inet_csk_ca(sk);

	if (!ca->doing_veno_now) {
		tcpca_reno_cong_avoid(sk, ack, acked);
		return;
	}
	if (!tcp_is_cwnd_limited(sk))
		return;

	if (ca->cnt_rtt < VENO_MIN_SAMPLES)
		tcpca_reno_cong_avoid(sk, ack, acked);	/* too few samples to judge */
	else
		veno_grow(sk, ca, acked);
	/* The next ACK's samples start a fresh filter. */
	ca->min_rtt = VENO_RTT_NONE;
}

/* Event record kinds (tcpca-load --events). */
enum { VENO_EV_LOSS = 1 };	/* v0 = cwnd, v1 = new ssthresh, v2 = diff (1/2 pkts), v3 = congestive */

/* The loss: random (cut by 1/5) or congestive (halve), by the last N. */
u32 TCPCA_OPS(veno_ssthresh, struct sock *sk)
{
	const struct veno_ca *ca = inet_csk_ca(sk);
	u32 cwnd = tcp_sk(sk)->snd_cwnd, beta = params.beta;
	u32 ssthresh = veno_calc_ssthresh(cwnd, ca->diff, beta);

	TCPCA_COUNT(losses);
	tcpca_event(sk, VENO_EV_LOSS, cwnd, ssthresh, ca->diff, veno_congestive(ca->diff, beta));
	return ssthresh;
}

/* Veno only in Open; during CWR, recovery and loss the stack's Reno rules. */
void TCPCA_OPS(veno_set_state, struct sock *sk, u8 new_state)
{
	struct veno_ca *ca = inet_csk_ca(sk);

	tcpca_count_state(new_state);
	if (new_state == TCP_CA_Open)
		veno_enable(ca);
	else
		ca->doing_veno_now = 0;
}

/* Restart after idle: the old BaseRTT says nothing now. */
void TCPCA_OPS(veno_cwnd_event, struct sock *sk, enum tcp_ca_event event)
{
	if (event == CA_EVENT_CWND_RESTART || event == CA_EVENT_TX_START)
		veno_reset(inet_csk_ca(sk));
}

u32 TCPCA_OPS(veno_undo_cwnd, struct sock *sk)
{
	return tcpca_reno_undo_cwnd(sk);
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops veno = {
	.init		= (void *)veno_init,
	.pkts_acked	= (void *)veno_pkts_acked,
	.cong_avoid	= (void *)veno_cong_avoid,
	.ssthresh	= (void *)veno_ssthresh,
	.set_state	= (void *)veno_set_state,
	.cwnd_event	= (void *)veno_cwnd_event,
	.undo_cwnd	= (void *)veno_undo_cwnd,
	.name		= "veno",
};

static __always_inline void veno_print_state(struct seq_file *seq, const struct veno_ca *ca)
{
	BPF_SEQ_PRINTF(seq, " enabled=%u base_rtt_us=%u rtt_us=%u rtt_cnt=%u",
		       ca->doing_veno_now, ca->base_rtt, ca->rtt, ca->cnt_rtt);
	BPF_SEQ_PRINTF(seq, " diff_half_pkts=%u congestive=%u inc=%u", ca->diff,
		       veno_congestive(ca->diff, params.beta), ca->inc);
}

TCPCA_SOCKETS(struct veno_ca, veno_print_state);
