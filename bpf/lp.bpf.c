// SPDX-License-Identifier: GPL-2.0
/*
 * TCP-LP (Low Priority): Reno that also backs off before any loss when the
 * one-way delay, read from TCP timestamps, rises (the module's arithmetic
 * keeps that from happening on today's stack: see the doc).
 *
 * A. Kuzmanovic, E. W. Knightly, "TCP-LP: low-priority service via end-point
 * congestion control", IEEE/ACM ToN 14(4):739-752, 2006.
 * Follows net/ipv4/tcp_lp.c (6.1).  Arithmetic: include/lp.h.
 *
 * Departures from the module:
 *  - The 15 % and the 3 RTTs are the tunables thresh_pct and itt_rtts.
 *  - tcp_time_stamp() is tcp_mstamp in ms, or in us on a 6.7+ us socket.
 *  - The last OWD sample and the back-offs are kept; set_state counts RTOs.
 *  - No get_info (nor in the module): the iterator and --events instead.
 *
 * Departures in full, and the evidence: docs/algorithms.md, "TCP-LP".
 */
#include "tcpca.bpf.h"
#include "tcpca_kernel.bpf.h"
#include "tcpca_params.h"
#include "lp.h"

char _license[] SEC("license") = "GPL";

TCPCA_PARAMS(lp_params, LP_PARAMS);

/* The module's struct lp, plus two fields for the iterator. */
struct lp_ca {
	u32 flag;			/* LP_VALID_RHZ | LP_VALID_OWD | LP_WITHIN_THR | LP_WITHIN_INF */
	struct lp_owd_filter owd;	/* sowd (<< 3), owd_min, owd_max, owd_max_rsv: ms ticks, relative */
	u32 remote_hz;			/* estimated rate of the peer's timestamp clock, Hz; 0 = none */
	u32 remote_ref_time;		/* the peer's TSval at the last RTT sample, its ticks */
	u32 local_ref_time;		/* the TSecr then, our ticks (ms) */
	u32 last_drop;			/* our clock at the last back-off, ms; 0 = none */
	u32 inference;			/* inference time-out, ms */
	u32 last_owd;			/* last OWD sample, ms ticks, relative (iterator) */
	u32 backoffs;			/* early-congestion back-offs on this socket (iterator) */
};
TCPCA_STATE_FITS(struct lp_ca);

/* Event record kinds (tcpca-load --events), both once per back-off. */
enum {
	LP_EV_BACKOFF = 1,	/* v0 = cwnd before, v1 = cwnd after, v2 = sowd (ms), v3 = within time-out */
	LP_EV_THRESH = 2,	/* v0 = owd_min, v1 = owd_max, v2 = threshold (ms ticks), v3 = time-out (ms) */
};

/* tcp_time_stamp_ts(): our TSval clock, ms (us on a socket with usec timestamps). */
static __always_inline u32 lp_now(const struct tcp_sock *tp)
{
	if (bpf_core_field_exists(tp->tcp_usec_ts) && BPF_CORE_READ_BITFIELD(tp, tcp_usec_ts))
		return (u32)tp->tcp_mstamp;
	return (u32)(tp->tcp_mstamp / USEC_PER_MSEC);
}

void TCPCA_OPS(lp_init, struct sock *sk)
{
	struct lp_ca *ca = inet_csk_ca(sk);

	__builtin_memset(ca, 0, sizeof(*ca));
	ca->owd.owd_min = 0xffffffff;
}

/*
 * An RTT sample: the remote HZ, then the OWD and its filter.  The reference
 * times move on every call, whether or not the estimate did.
 */
static __always_inline void lp_rtt_sample(struct tcp_sock *tp, struct lp_ca *ca)
{
	u32 tsval = tp->rx_opt.rcv_tsval, tsecr = tp->rx_opt.rcv_tsecr;
	u32 mowd = 0;

	ca->remote_hz = lp_remote_hz(ca->remote_hz, ca->remote_ref_time, ca->local_ref_time,
				     tsval, tsecr);
	ca->remote_ref_time = tsval;
	ca->local_ref_time = tsecr;
	if (ca->remote_hz) {
		ca->flag |= LP_VALID_RHZ;
		mowd = lp_owd(tsval, tsecr, ca->remote_hz);
	} else {
		ca->flag &= ~LP_VALID_RHZ;
	}
	if (!mowd) {
		ca->flag &= ~LP_VALID_OWD;
		return;
	}
	ca->flag |= LP_VALID_OWD;
	ca->last_owd = mowd;
	lp_owd_sample(&ca->owd, mowd);
}

/*
 * Every ACK: the OWD (with an RTT sample), the time-out and the two tests;
 * above the threshold, back off (halve, or 1 within the time-out) and
 * restart the filter around the smoothed OWD.
 */
void TCPCA_OPS(lp_pkts_acked, struct sock *sk, const struct ack_sample *sample)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct lp_ca *ca = inet_csk_ca(sk);
	u32 now = lp_now(tp), pct = params.thresh_pct, cwnd, thresh;
	int within_inf;

	if (sample->rtt_us > 0)
		lp_rtt_sample(tp, ca);

	ca->inference = lp_inference(ca->inference, now, tp->rx_opt.rcv_tsecr, params.itt_rtts);
	within_inf = lp_within_inference(now, ca->last_drop, ca->inference);
	if (within_inf)
		ca->flag |= LP_WITHIN_INF;
	else
		ca->flag &= ~LP_WITHIN_INF;

	if (lp_within_threshold(&ca->owd, pct)) {
		ca->flag |= LP_WITHIN_THR;
		return;
	}
	ca->flag &= ~LP_WITHIN_THR;

	cwnd = tp->snd_cwnd;
	thresh = lp_threshold(ca->owd.owd_min, ca->owd.owd_max, pct);
	tcpca_event(sk, LP_EV_THRESH, ca->owd.owd_min, ca->owd.owd_max, thresh, ca->inference);
	lp_owd_restart(&ca->owd);
	tp->snd_cwnd = lp_backoff_cwnd(cwnd, within_inf);
	ca->last_drop = now;
	ca->backoffs++;
	tcpca_event(sk, LP_EV_BACKOFF, cwnd, tp->snd_cwnd, ca->owd.sowd >> LP_SOWD_SHIFT, within_inf);
}

/* Reno's growth, except within the inference time-out: none. */
void TCPCA_OPS(lp_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct lp_ca *ca = inet_csk_ca(sk);

	if (!(ca->flag & LP_WITHIN_INF))
		tcpca_reno_cong_avoid(sk, ack, acked);
}

/* Losses are Reno's. */
u32 TCPCA_OPS(lp_ssthresh, struct sock *sk)
{
	return tcpca_reno_ssthresh(sk);
}

void TCPCA_OPS(lp_set_state, struct sock *sk, u8 new_state)
{
	tcpca_count_state(new_state);
}

u32 TCPCA_OPS(lp_undo_cwnd, struct sock *sk)
{
	return tcpca_reno_undo_cwnd(sk);
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops lp = {
	.init		= (void *)lp_init,
	.pkts_acked	= (void *)lp_pkts_acked,
	.cong_avoid	= (void *)lp_cong_avoid,
	.ssthresh	= (void *)lp_ssthresh,
	.set_state	= (void *)lp_set_state,
	.undo_cwnd	= (void *)lp_undo_cwnd,
	.name		= "lp",
};

static __always_inline void lp_print_state(struct seq_file *seq, const struct lp_ca *ca)
{
	u32 f = ca->flag;

	BPF_SEQ_PRINTF(seq, " remote_hz=%u owd_ms=%u sowd_ms=%u owd_min_ms=%u owd_max_ms=%u",
		       ca->remote_hz, ca->last_owd, ca->owd.sowd >> LP_SOWD_SHIFT,
		       ca->owd.owd_min, ca->owd.owd_max);
	BPF_SEQ_PRINTF(seq, " thresh_ms=%u inference_ms=%u last_drop_ms=%u backoffs=%u",
		       lp_threshold(ca->owd.owd_min, ca->owd.owd_max, params.thresh_pct),
		       ca->inference, ca->last_drop, ca->backoffs);
	BPF_SEQ_PRINTF(seq, " valid_rhz=%u valid_owd=%u within_thr=%u within_inf=%u",
		       !!(f & LP_VALID_RHZ), !!(f & LP_VALID_OWD), !!(f & LP_WITHIN_THR),
		       !!(f & LP_WITHIN_INF));
}

TCPCA_SOCKETS(struct lp_ca, lp_print_state);
