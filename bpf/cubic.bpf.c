// SPDX-License-Identifier: GPL-2.0
/*
 * CUBIC: after a loss the window follows a cubic of the time since it,
 * W(t) = C (t - K)^3 + W_max, never slower than Reno; HyStart ends slow start.
 *
 * S. Ha, I. Rhee, L. Xu, "CUBIC: A New TCP-Friendly High-Speed TCP Variant",
 * ACM SIGOPS OSR 42(5), 2008; RFC 9438.  HyStart: S. Ha, I. Rhee, "Taming
 * the Elephants: New TCP Slow Start", 2008.
 * Follows net/ipv4/tcp_cubic.c (6.1, 6.12, 7.3).  Arithmetic: include/cubic.h.
 *
 * Departures from the module:
 *  - Time in us of tcp_mstamp, not jiffies: HZ needs the kernel's config file.
 *  - Idle restart counts from the last ACK: lsndtime is in jiffies.
 *  - beta and bic_scale are read on use, so --set acts at once.
 *  - The friendliness loop is one division: the same result.
 *  - loss_cwnd and last_ack_in are kept beyond the module's state.
 *  - No get_info: the iterator and --events show the state.
 *
 * Departures in full, and the evidence: docs/algorithms.md, "CUBIC".
 */
#include "tcpca.bpf.h"
#include "tcpca_kernel.bpf.h"
#include "tcpca_params.h"
#include "cubic.h"

char _license[] SEC("license") = "GPL";

TCPCA_PARAMS(cubic_params, CUBIC_PARAMS);

/* vmlinux.h already has "struct bictcp" (the module's), hence the name. */
struct cubic_ca {
	/* reset on every RTO (the module's bictcp_reset()) */
	u32 cnt;		/* segments acked per one-segment increase of cwnd */
	u32 last_max_cwnd;	/* W_max: cwnd before the last loss (less with fast convergence), packets */
	u32 last_cwnd;		/* cwnd when cnt was last computed, packets */
	u32 last_time;		/* when cnt was last computed, us */
	u32 origin;		/* the curve's plateau: W_max, or cwnd if the epoch starts above it, packets */
	u32 k;			/* time from the epoch's start to the plateau, 1/1024 s */
	u32 delay_min;		/* smallest RTT seen, us */
	u32 epoch_start;	/* first CA ACK after a reduction, us; 0 = no epoch */
	u32 ack_cnt;		/* segments acked not yet turned into tcp_cwnd growth */
	u32 tcp_cwnd;		/* the emulated Reno window, packets */
	/* HyStart, reset each round */
	u8 sample_cnt;		/* RTT samples taken this round (up to 8) */
	u8 found;		/* slow start ended by HyStart: no more checks */
	u16 pad;
	u32 round_start;	/* start of this round, us */
	u32 end_seq;		/* snd_nxt at the round's start: the round ends when it is acked */
	u32 last_ack;		/* last ACK of the current train, us */
	u32 curr_rtt;		/* smallest RTT of this round's first samples, us */
	/* ours */
	u32 loss_cwnd;		/* cwnd at the last ssthresh() call, packets */
	u32 last_ack_in;	/* last ACK that acked data, us (idle restart) */
};
TCPCA_STATE_FITS(struct cubic_ca);

/* Events (--events): v0..v3 per kind. */
#define CUBIC_EV_REDUCTION	1	/* cwnd at the loss, W_max, ssthresh, fast convergence 0/1 */
#define CUBIC_EV_EPOCH		2	/* K in ms, origin, cwnd at the start, W_max */
#define CUBIC_EV_HYSTART	3	/* reason (1 train, 2 delay), measured us, threshold us, delay_min us */

static __always_inline u32 cubic_now(const struct tcp_sock *tp)
{
	return (u32)tp->tcp_mstamp;
}

/* The module's bictcp_reset(): everything up to the HyStart part. */
static __always_inline void cubic_reset(struct cubic_ca *ca)
{
	ca->cnt = 0;
	ca->last_max_cwnd = 0;
	ca->last_cwnd = 0;
	ca->last_time = 0;
	ca->origin = 0;
	ca->k = 0;
	ca->delay_min = 0;
	ca->epoch_start = 0;
	ca->ack_cnt = 0;
	ca->tcp_cwnd = 0;
	ca->found = 0;
}

/* A new HyStart round starts now and ends when what is in flight is acked. */
static __always_inline void cubic_hystart_reset(struct cubic_ca *ca, const struct tcp_sock *tp)
{
	ca->round_start = ca->last_ack = cubic_now(tp);
	ca->end_seq = tp->snd_nxt;
	ca->curr_rtt = ~0U;
	ca->sample_cnt = 0;
}

void TCPCA_OPS(cubic_init, struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct cubic_ca *ca = inet_csk_ca(sk);

	cubic_reset(ca);
	if (params.hystart)
		cubic_hystart_reset(ca, tp);
	if (!params.hystart && params.initial_ssthresh)
		tp->snd_ssthresh = params.initial_ssthresh;
}

/* HyStart, once per RTT sample in slow start: has this round shown the exit point? */
static __always_inline void cubic_hystart_update(struct sock *sk, struct cubic_ca *ca, u32 delay)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 cwnd = tp->snd_cwnd, now, threshold;

	if (after(tp->snd_una, ca->end_seq))
		cubic_hystart_reset(ca, tp);

	if (cwnd < params.hystart_low_window)
		return;

	if (params.hystart_detect & CUBIC_HYSTART_ACK_TRAIN) {
		now = cubic_now(tp);
		/* ACKs closer than hystart_ack_delta_us are one train */
		if ((s32)(now - ca->last_ack) <= (s32)params.hystart_ack_delta_us) {
			ca->last_ack = now;
			threshold = cubic_hystart_train_thresh(ca->delay_min,
				cubic_hystart_ack_delay(sk->sk_pacing_rate, sk->sk_gso_max_size),
				sk->sk_pacing_status != SK_PACING_NONE);
			if ((s32)(now - ca->round_start) > (s32)threshold) {
				ca->found = 1;
				tp->snd_ssthresh = cwnd;
				tcpca_event(sk, CUBIC_EV_HYSTART, CUBIC_EXIT_ACK_TRAIN,
					    now - ca->round_start, threshold, ca->delay_min);
			}
		}
	}

	if (params.hystart_detect & CUBIC_HYSTART_DELAY) {
		if (ca->curr_rtt > delay)
			ca->curr_rtt = delay;
		if (ca->sample_cnt < CUBIC_HYSTART_MIN_SAMPLES) {
			ca->sample_cnt++;
		} else {
			threshold = ca->delay_min + cubic_hystart_delay_thresh(ca->delay_min);
			if (ca->curr_rtt > threshold) {
				ca->found = 1;
				tp->snd_ssthresh = cwnd;
				tcpca_event(sk, CUBIC_EV_HYSTART, CUBIC_EXIT_DELAY, ca->curr_rtt,
					    threshold, ca->delay_min);
			}
		}
	}
}

/* Every ACK that acks data: its time for the idle rule, its RTT for delay_min and HyStart. */
void TCPCA_OPS(cubic_pkts_acked, struct sock *sk, const struct ack_sample *sample)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct cubic_ca *ca = inet_csk_ca(sk);
	u32 now = cubic_now(tp), delay;

	ca->last_ack_in = now;
	/* duplicates carry no timestamp */
	if (sample->rtt_us < 0)
		return;
	/* RTTs right after a reduction still hold the recovery's queue */
	if (ca->epoch_start && (s32)(now - ca->epoch_start) < (s32)CUBIC_RECOVERY_QUIET_US)
		return;

	delay = sample->rtt_us ? (u32)sample->rtt_us : 1;
	if (ca->delay_min == 0 || ca->delay_min > delay)
		ca->delay_min = delay;

	if (!ca->found && tcp_in_slow_start(tp) && params.hystart)
		cubic_hystart_update(sk, ca, delay);
}

/* The module's bictcp_update(): cnt for this ACK from the cubic curve and Reno's. */
static __always_inline void cubic_update(struct sock *sk, struct cubic_ca *ca, u32 cwnd, u32 acked)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	u32 now = cubic_now(tp), since;
	u64 t;

	ca->ack_cnt += acked;

	if (ca->last_cwnd == cwnd && (s32)(now - ca->last_time) <= (s32)CUBIC_UPDATE_INTERVAL_US)
		return;
	/* the curve at most once per clock tick; the Reno side every time */
	if (ca->epoch_start && now == ca->last_time)
		goto friendliness;

	ca->last_cwnd = cwnd;
	ca->last_time = now;

	if (ca->epoch_start == 0) {
		ca->epoch_start = now ? now : 1;
		ca->ack_cnt = acked;
		ca->tcp_cwnd = cwnd;
		ca->k = cubic_calc_k(cwnd, ca->last_max_cwnd, &params);
		ca->origin = cubic_calc_origin(cwnd, ca->last_max_cwnd);
		tcpca_event(sk, CUBIC_EV_EPOCH, (u32)(((u64)ca->k * 1000) >> CUBIC_HZ),
			    ca->origin, cwnd, ca->last_max_cwnd);
	}

	/* the module's (s32) jiffies difference; never negative unless the clock is */
	since = (s32)(now - ca->epoch_start) > 0 ? now - ca->epoch_start : 0;
	t = cubic_calc_t(since, ca->delay_min);
	ca->cnt = cubic_calc_cnt(cwnd, cubic_calc_target(ca->origin, ca->k, t, &params),
				 ca->last_max_cwnd);

friendliness:
	if (params.tcp_friendliness)
		ca->cnt = cubic_friendly_cnt(ca->cnt, cwnd, &ca->ack_cnt, &ca->tcp_cwnd, &params);
	ca->cnt = max(ca->cnt, (u32)CUBIC_MIN_CNT);
}

void TCPCA_OPS(cubic_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct cubic_ca *ca = inet_csk_ca(sk);

	if (!tcpca_slow_start_first(sk, &acked))
		return;
	cubic_update(sk, ca, tp->snd_cwnd, acked);
	tcpca_cong_avoid_ai(tp, ca->cnt, acked);
}

/* A loss: W_max (with fast convergence) and the new epoch's ssthresh. */
u32 TCPCA_OPS(cubic_ssthresh, struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct cubic_ca *ca = inet_csk_ca(sk);
	u32 cwnd = tp->snd_cwnd, ssthresh;
	bool fast = cwnd < ca->last_max_cwnd && params.fast_convergence;

	TCPCA_COUNT(losses);
	ca->epoch_start = 0;
	ca->last_max_cwnd = cubic_calc_wmax(cwnd, ca->last_max_cwnd, &params);
	ca->loss_cwnd = cwnd;
	ssthresh = cubic_calc_ssthresh(cwnd, &params);
	tcpca_event(sk, CUBIC_EV_REDUCTION, cwnd, ca->last_max_cwnd, ssthresh, fast);
	return ssthresh;
}

/* A timeout forgets everything, HyStart starts a new round. */
void TCPCA_OPS(cubic_set_state, struct sock *sk, u8 new_state)
{
	struct cubic_ca *ca = inet_csk_ca(sk);

	tcpca_count_state(new_state);
	if (new_state == TCP_CA_Loss) {
		cubic_reset(ca);
		cubic_hystart_reset(ca, tcp_sk(sk));
	}
}

/* Back from idle: move the epoch on by the idle time, so the curve resumes where it was. */
void TCPCA_OPS(cubic_cwnd_event, struct sock *sk, enum tcp_ca_event event)
{
	struct cubic_ca *ca = inet_csk_ca(sk);
	u32 now, idle;

	if (event != CA_EVENT_TX_START)
		return;
	now = cubic_now(tcp_sk(sk));
	idle = now - ca->last_ack_in;
	if (ca->epoch_start && (s32)idle > 0) {
		ca->epoch_start += idle;
		if (after(ca->epoch_start, now))
			ca->epoch_start = now;
		if (!ca->epoch_start)
			ca->epoch_start = 1;
	}
}

/* As the module: Reno's undo, max(cwnd, prior_cwnd). */
u32 TCPCA_OPS(cubic_undo_cwnd, struct sock *sk)
{
	return tcpca_reno_undo_cwnd(sk);
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops cubic = {
	.init		= (void *)cubic_init,
	.pkts_acked	= (void *)cubic_pkts_acked,
	.cong_avoid	= (void *)cubic_cong_avoid,
	.ssthresh	= (void *)cubic_ssthresh,
	.set_state	= (void *)cubic_set_state,
	.cwnd_event	= (void *)cubic_cwnd_event,
	.undo_cwnd	= (void *)cubic_undo_cwnd,
	.name		= "bpf_cubic",
};

static __always_inline void cubic_print_state(struct seq_file *seq, const struct cubic_ca *ca)
{
	BPF_SEQ_PRINTF(seq, " cnt_pkts=%u last_max_cwnd_pkts=%u loss_cwnd_pkts=%u origin_pkts=%u",
		       ca->cnt, ca->last_max_cwnd, ca->loss_cwnd, ca->origin);
	BPF_SEQ_PRINTF(seq, " k_ms=%u epoch_start_us=%u tcp_cwnd_pkts=%u ack_cnt_pkts=%u",
		       (u32)(((u64)ca->k * 1000) >> CUBIC_HZ), ca->epoch_start, ca->tcp_cwnd,
		       ca->ack_cnt);
	BPF_SEQ_PRINTF(seq, " delay_min_us=%u hystart_found=%u round_curr_rtt_us=%u round_samples=%u",
		       ca->delay_min, ca->found, ca->curr_rtt, ca->sample_cnt);
}

TCPCA_SOCKETS(struct cubic_ca, cubic_print_state);
