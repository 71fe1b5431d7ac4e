// SPDX-License-Identifier: GPL-2.0
/*
 * TCP Westwood+: Reno's probing, but after a loss ssthresh (and cwnd when
 * recovery ends) is the pipe its bandwidth estimate implies, BWE x RTTmin.
 *
 * L. A. Grieco, S. Mascolo, "Performance evaluation and comparison of
 * Westwood+, New Reno and Vegas TCP congestion control", ACM CCR 34(2), 2004;
 * S. Mascolo, C. Casetti, M. Gerla, M. Y. Sanadidi, R. Wang, "TCP Westwood:
 * bandwidth estimation for enhanced transport over wireless links",
 * MobiCom 2001.
 * Follows net/ipv4/tcp_westwood.c (6.x).  Arithmetic: include/westwood.h.
 *
 * Departures from the module:
 *  - Time in us of tcp_mstamp, not jiffies: the 50 ms window exact.
 *  - The 50 ms floor is the tunable win_min_ms.
 *  - cwnd set as recovery ends stays under the socket's clamp.
 *  - pipe_pkts is kept: the iterator shows what the next loss will set.
 *
 * Departures in full, and the evidence: docs/algorithms.md, "Westwood+".
 */
#include "tcpca.bpf.h"
#include "tcpca_kernel.bpf.h"
#include "tcpca_params.h"
#include "westwood.h"

char _license[] SEC("license") = "GPL";

TCPCA_PARAMS(westwood_params, WESTWOOD_PARAMS);

struct westwood_ca {
	u32 bw_ns_est;		/* first filter stage, bytes/us << 16 */
	u32 bw_est;		/* BWE, second stage, bytes/us << 16 */
	u32 rtt_win_sx;		/* start of this sampling window, us (low 32 bits of tcp_mstamp) */
	u32 bk;			/* bytes acked in this sampling window */
	u32 snd_una;		/* snd_una at the last ACK seen, sequence number */
	u32 cumul_ack;		/* bytes the last ACK accounted for */
	u32 accounted;		/* bytes credited by dupACKs, not yet covered by a cumulative ACK */
	u32 rtt;		/* last RTT sample, us */
	u32 rtt_min;		/* smallest RTT since init or since the last RTO, us */
	u32 pipe_pkts;		/* BWE x RTTmin / mss at the last filter update, packets */
	u8 first_ack;		/* 1 until the first ACK: snd_una is then re-read */
	u8 reset_rtt_min;	/* 1: the next RTT sample replaces rtt_min */
};
TCPCA_STATE_FITS(struct westwood_ca);

static __always_inline u32 westwood_now_us(const struct tcp_sock *tp)
{
	return (u32)tp->tcp_mstamp;
}

void TCPCA_OPS(westwood_init, struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct westwood_ca *w = inet_csk_ca(sk);

	w->bk = 0;
	w->bw_ns_est = 0;
	w->bw_est = 0;
	w->accounted = 0;
	w->cumul_ack = 0;
	w->pipe_pkts = 0;
	w->reset_rtt_min = 1;
	w->rtt_min = w->rtt = WESTWOOD_INIT_RTT_US;
	w->rtt_win_sx = westwood_now_us(tp);
	w->snd_una = tp->snd_una;
	w->first_ack = 1;
}

/* Westwood+ only keeps the last RTT sample. */
void TCPCA_OPS(westwood_pkts_acked, struct sock *sk, const struct ack_sample *sample)
{
	struct westwood_ca *w = inet_csk_ca(sk);

	if (sample->rtt_us > 0)
		w->rtt = (u32)sample->rtt_us;
}

/*
 * Close the sampling window once it is longer than max(RTT, win_min): turn
 * the bytes acked in it into a bandwidth sample and filter it.  Shorter
 * windows (a LAN) keep accumulating; rates measured over a few ms are noise.
 */
static __always_inline void westwood_update_window(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct westwood_ca *w = inet_csk_ca(sk);
	u32 now = westwood_now_us(tp);
	u32 delta = now - w->rtt_win_sx;

	/* The first ACK: snd_una may have moved since init (the SYN). */
	if (w->first_ack) {
		w->snd_una = tp->snd_una;
		w->first_ack = 0;
	}

	if (w->rtt && delta > westwood_window_us(w->rtt, params.win_min_ms)) {
		westwood_filter(&w->bw_ns_est, &w->bw_est, westwood_bw_sample(w->bk, delta));
		w->pipe_pkts = westwood_bw_rttmin(w->bw_est, w->rtt_min, tp->mss_cache);
		w->bk = 0;
		w->rtt_win_sx = now;
	}
}

static __always_inline void westwood_update_rtt_min(struct westwood_ca *w)
{
	if (w->reset_rtt_min) {
		w->rtt_min = w->rtt;
		w->reset_rtt_min = 0;
	} else {
		w->rtt_min = min(w->rtt, w->rtt_min);
	}
}

/*
 * Every ACK.  On the fast path (in-order ACK, header prediction) the bytes
 * acked are simply how far snd_una moved.  On the slow path (dupACKs, SACK,
 * partial ACKs) westwood_acked_count() credits a segment per dupACK and takes
 * it back from the cumulative ACK that follows.
 */
void TCPCA_OPS(westwood_in_ack_event, struct sock *sk, u32 flags)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct westwood_ca *w = inet_csk_ca(sk);

	westwood_update_window(sk);
	if (flags & CA_ACK_SLOWPATH) {
		w->cumul_ack = westwood_acked_count(tp->snd_una - w->snd_una, &w->accounted,
						    tp->mss_cache);
		w->bk += w->cumul_ack;
	} else {
		w->bk += tp->snd_una - w->snd_una;
	}
	w->snd_una = tp->snd_una;
	westwood_update_rtt_min(w);
}

/* Reno's probing: Westwood+ differs only in what it does after a loss. */
void TCPCA_OPS(westwood_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	tcpca_reno_cong_avoid(sk, ack, acked);
}

/* Reno's, as the module's: the Westwood+ values come with cwnd_event below. */
u32 TCPCA_OPS(westwood_ssthresh, struct sock *sk)
{
	return tcpca_reno_ssthresh(sk);
}

void TCPCA_OPS(westwood_set_state, struct sock *sk, u8 new_state)
{
	tcpca_count_state(new_state);
}

static __always_inline u32 westwood_pipe(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct westwood_ca *w = inet_csk_ca(sk);

	w->pipe_pkts = westwood_bw_rttmin(w->bw_est, w->rtt_min, tp->mss_cache);
	return w->pipe_pkts;
}

void TCPCA_OPS(westwood_cwnd_event, struct sock *sk, enum tcp_ca_event event)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct westwood_ca *w = inet_csk_ca(sk);

	switch (event) {
	case CA_EVENT_COMPLETE_CWR:
		/* Recovery or CWR is over: continue from the estimated pipe. */
		tp->snd_ssthresh = westwood_pipe(sk);
		tp->snd_cwnd = tcpca_cap_cwnd(tp->snd_ssthresh, tp->snd_cwnd_clamp);
		break;
	case CA_EVENT_LOSS:
		/* RTO: slow start again up to the estimated pipe. */
		tp->snd_ssthresh = westwood_pipe(sk);
		/* The path may have changed: the next sample starts rtt_min over. */
		w->reset_rtt_min = 1;
		break;
	default:
		break;
	}
}

u32 TCPCA_OPS(westwood_undo_cwnd, struct sock *sk)
{
	return tcpca_reno_undo_cwnd(sk);
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops westwood = {
	.init		= (void *)westwood_init,
	.pkts_acked	= (void *)westwood_pkts_acked,
	.in_ack_event	= (void *)westwood_in_ack_event,
	.cong_avoid	= (void *)westwood_cong_avoid,
	.ssthresh	= (void *)westwood_ssthresh,
	.set_state	= (void *)westwood_set_state,
	.cwnd_event	= (void *)westwood_cwnd_event,
	.undo_cwnd	= (void *)westwood_undo_cwnd,
	.name		= "westwood",
};

/* 16.16 bytes/us to kbit/s: x * 8 * 10^6 / 2^16 / 10^3 = x * 125 / 1024. */
static __always_inline void westwood_print_state(struct seq_file *seq,
						 const struct westwood_ca *w)
{
	u64 bw_kbps = (u64)w->bw_est * 125 / 1024;
	u64 bw_ns_kbps = (u64)w->bw_ns_est * 125 / 1024;

	BPF_SEQ_PRINTF(seq, " bw_est_kbps=%llu bw_ns_est_kbps=%llu bw_est_Bpus_x65536=%u",
		       bw_kbps, bw_ns_kbps, w->bw_est);
	BPF_SEQ_PRINTF(seq, " rtt_us=%u rtt_min_us=%u pipe_pkts=%u bk_bytes=%u accounted_bytes=%u",
		       w->rtt, w->rtt_min, w->pipe_pkts, w->bk, w->accounted);
}

TCPCA_SOCKETS(struct westwood_ca, westwood_print_state);
