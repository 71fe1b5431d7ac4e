// SPDX-License-Identifier: GPL-2.0
/*
 * CAIA Delay-Gradient (CDG): backs off with a probability that grows with the
 * RTT's gradient, keeping the queue short without a loss; a shadow window
 * keeps it from losing out to loss-based flows.
 *
 * D.A. Hayes and G. Armitage, "Revisiting TCP congestion control using delay
 * gradients", IFIP Networking 2011.
 * Follows net/ipv4/tcp_cdg.c (6.1).  Arithmetic: include/cdg.h.
 *
 * Departures from the module:
 *  - The gradient window is socket storage: it does not fit icsk_ca_priv.
 *  - window is read at a socket's start: a live socket's sums stay consistent.
 *  - The back-off's CWR is emulated by PRR: tcp_enter_cwr() is no kfunc.
 *  - HyStart's exits go to --events: BPF cannot write MIB counters.
 *  - Signed divisions on magnitudes: clang's BPF target has no signed /.
 *  - get_random_u32() is bpf_get_prandom_u32().
 *  - No get_info: the iterator and --events show the state.
 *
 * Departures in full, and the evidence: docs/algorithms.md, "CDG".
 */
#include "tcpca.bpf.h"
#include "tcpca_kernel.bpf.h"
#include "tcpca_params.h"
#include "cdg.h"

char _license[] SEC("license") = "GPL";

TCPCA_PARAMS(cdg_params, CDG_PARAMS);

/* The module's struct cdg without its gradients pointer, plus the CWR emulation. */
struct cdg_ca {
	struct cdg_minmax rtt;		/* this round's smallest and largest RTT, us; 0 = none */
	struct cdg_minmax rtt_prev;	/* the previous round's, us */
	struct cdg_window win;		/* the gradient window's sums (us) and tail */
	u8 state;			/* CDG_UNKNOWN, _NONFULL, _FULL, _BACKOFF */
	u8 delack;			/* delayed-ACK filter: 0..CDG_DELACK_MAX */
	u8 slots;			/* 1: the window is in socket storage; 0: none */
	u8 cwr;				/* 1 while the back-off's cwnd reduction runs */
	u16 window;			/* this socket's window, rounds (power of two) */
	u16 backoff_cnt;		/* back-offs since one was seen to work */
	u16 sample_cnt;			/* HyStart delay test: samples this round */
	u32 rtt_seq;			/* the round ends when an ACK passes this sequence */
	u32 shadow_wnd;			/* shadow window, packets */
	s32 delay_min;			/* HyStart: smallest round minimum RTT, us */
	u32 last_ack;			/* HyStart: time of the train's last ACK, us */
	u32 round_start;		/* HyStart: time of the train's first ACK, us */
	u32 cwr_high_seq;		/* the reduction ends when snd_una passes this */
	u32 prior_cwnd;			/* cwnd when it started, packets */
	u32 cwr_delivered;		/* tp->delivered then, segments */
	u32 cwr_segs_out;		/* tp->data_segs_out then, segments */
	s32 grad;			/* the last round's gradient (window sum, extrapolated), us */
	u32 backoffs;			/* delay back-offs taken (for the iterator) */
};
TCPCA_STATE_FITS(struct cdg_ca);

/* The gradient window: up to CDG_WINDOW_MAX rounds' min/max gradients, us. */
struct cdg_slots {
	struct cdg_minmax g[CDG_WINDOW_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct cdg_slots);
} cdg_slots SEC(".maps");

/* Event record kinds (tcpca-load --events). */
enum {
	CDG_EV_LOSS = 1,	/* v0 = cwnd, v1 = new ssthresh, v2 = shadow_wnd, v3 = state */
	CDG_EV_BACKOFF = 2,	/* v0 = gradient (us), v1 = P[backoff] (ppm),
				 * v2 = 0 kept / 1 backed off / 2 skipped (ineffectual),
				 * v3 = backoff_cnt */
	CDG_EV_HYSTART = 3,	/* v0 = cwnd, v1 = 1 ACK train / 2 delay, v2 = delay_min, v3 = round min (us) */
	CDG_EV_NO_WINDOW = 4,	/* socket storage refused: v0 = window */
};

static __always_inline u32 cdg_window_of(u32 w)
{
	return w && w <= CDG_WINDOW_MAX && !(w & (w - 1)) ? w : 1;
}

static __always_inline void cdg_clear_slots(struct cdg_slots *s, u32 window)
{
	u32 i;

	for (i = 0; i < CDG_WINDOW_MAX && i < window; i++) {
		barrier();	/* a loop, not a memset call (BPF has none) */
		s->g[i].min = 0;
		s->g[i].max = 0;
	}
}

void TCPCA_OPS(cdg_init, struct sock *sk)
{
	struct cdg_ca *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	struct cdg_slots *s = NULL;

	ca->window = cdg_window_of(params.window);
	/* as the module's kcalloc, only when there is a window to keep */
	if (ca->window > 1) {
		s = bpf_sk_storage_get(&cdg_slots, sk, NULL, BPF_SK_STORAGE_GET_F_CREATE);
		if (s)
			cdg_clear_slots(s, ca->window);	/* a value left by an earlier CA life */
		else
			tcpca_event(sk, CDG_EV_NO_WINDOW, ca->window, 0, 0, 0);
	}
	ca->slots = s != NULL;
	ca->rtt_seq = tp->snd_nxt;
	ca->shadow_wnd = tp->snd_cwnd;
}

/* Each RTT sample into the round's min and max, delayed ACKs filtered (Hayes, TR 100219A). */
void TCPCA_OPS(cdg_pkts_acked, struct sock *sk, const struct ack_sample *sample)
{
	struct cdg_ca *ca = inet_csk_ca(sk);
	s32 rtt = sample->rtt_us;

	if (rtt <= 0)
		return;
	/*
	 * After ACKs of several segments, a one-segment ACK is likely a delayed
	 * one: its RTT includes the receiver's timer, so it may only lower a
	 * minimum that exists, and never raise the maximum.
	 */
	if (tcp_sk(sk)->sacked_out == 0) {
		if (sample->pkts_acked == 1 && ca->delack) {
			ca->rtt.min = min(ca->rtt.min, rtt);
			ca->delack--;
			return;
		}
		if (sample->pkts_acked > 1 && ca->delack < CDG_DELACK_MAX)
			ca->delack++;
	}
	ca->rtt.min = ca->rtt.min ? min(ca->rtt.min, rtt) : rtt;
	ca->rtt.max = max(ca->rtt.max, rtt);
}

/* Hybrid slow start (Ha et al., as tcp_cubic's, with the module's changes). */
static __always_inline void cdg_hystart_update(struct sock *sk, struct cdg_ca *ca)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 detect = params.hystart_detect;

	if (ca->rtt.min && (!ca->delay_min || ca->rtt.min < ca->delay_min))
		ca->delay_min = ca->rtt.min;
	if (ca->delay_min == 0)
		return;

	if (detect & CDG_HYSTART_TRAIN) {
		u32 now_us = (u32)tp->tcp_mstamp;

		if (ca->last_ack == 0 || !tcp_is_cwnd_limited(sk)) {
			ca->last_ack = now_us;
			ca->round_start = now_us;
		} else if (before(now_us, ca->last_ack + CDG_HYSTART_GAP_US)) {
			ca->last_ack = now_us;
			if (after(now_us, ca->round_start + cdg_train_us(ca->delay_min))) {
				tp->snd_ssthresh = tp->snd_cwnd;
				tcpca_event(sk, CDG_EV_HYSTART, tp->snd_cwnd, CDG_HYSTART_TRAIN,
					    ca->delay_min, ca->rtt.min);
				return;
			}
		}
	}

	if (detect & CDG_HYSTART_DELAY) {
		if (ca->sample_cnt < CDG_HYSTART_SAMPLES) {
			ca->sample_cnt++;
		} else if (ca->rtt.min > cdg_delay_thresh(ca->delay_min)) {
			tp->snd_ssthresh = tp->snd_cwnd;
			tcpca_event(sk, CDG_EV_HYSTART, tp->snd_cwnd, CDG_HYSTART_DELAY,
				    ca->delay_min, ca->rtt.min);
		}
	}
}

/* The round's gradients into the window; the gradient the back-off reads. */
static __always_inline s32 cdg_grad(struct sock *sk, struct cdg_ca *ca)
{
	struct cdg_minmax g = {
		.min = ca->rtt.min - ca->rtt_prev.min,
		.max = ca->rtt.max - ca->rtt_prev.max,
	};
	struct cdg_slots *s = NULL;
	s32 grad;

	if (ca->slots)
		s = bpf_sk_storage_get(&cdg_slots, sk, NULL, 0);
	grad = cdg_window_push(&ca->win, s ? s->g : NULL, ca->window, &g);
	if (cdg_effectual(&g))
		ca->backoff_cnt = 0;
	if (params.use_tolerance)
		ca->state = cdg_tolerance_state(&g, ca->state);
	ca->grad = grad;
	return grad;
}

/* What tcp_enter_cwr() does from Open, as far as BPF may (docs/algorithms.md, "CDG"). */
static __always_inline void cdg_enter_cwr(struct tcp_sock *tp, struct cdg_ca *ca)
{
	ca->cwr = 1;
	ca->cwr_high_seq = tp->snd_nxt;
	ca->prior_cwnd = tp->snd_cwnd;
	ca->cwr_delivered = tp->delivered;
	ca->cwr_segs_out = tp->data_segs_out;
	tp->snd_cwnd_cnt = 0;
	tp->snd_ssthresh = cdg_backoff_ssthresh(tp->snd_cwnd, params.backoff_beta);
}

/* One ACK of the reduction: PRR towards ssthresh. */
static __always_inline void cdg_cwr_step(struct tcp_sock *tp, const struct cdg_ca *ca, u32 acked)
{
	u32 in_flight = tp->packets_out - (tp->sacked_out + tp->lost_out) + tp->retrans_out;

	if (!acked)
		return;
	tp->snd_cwnd = cdg_prr_cwnd(tp->snd_ssthresh, ca->prior_cwnd,
				    tp->delivered - ca->cwr_delivered,
				    tp->data_segs_out - ca->cwr_segs_out, in_flight, acked);
}

/* CA_EVENT_COMPLETE_CWR: a fresh round starts from the samples taken during it. */
static __always_inline void cdg_complete_cwr(struct tcp_sock *tp, struct cdg_ca *ca)
{
	ca->cwr = 0;
	ca->state = CDG_UNKNOWN;
	ca->rtt_seq = tp->snd_nxt;
	ca->rtt_prev = ca->rtt;
	ca->rtt.min = 0;
	ca->rtt.max = 0;
}

/*
 * The end of the emulated CWR, as tcp_end_cwnd_reduction() and the event;
 * but for snd_cwnd_stamp, which 6.1 does not let BPF write.
 */
static __always_inline void cdg_end_cwr(struct tcp_sock *tp, struct cdg_ca *ca)
{
	if (tp->snd_ssthresh < TCP_INFINITE_SSTHRESH)
		tp->snd_cwnd = tp->snd_ssthresh;
	cdg_complete_cwr(tp, ca);
}

/* A positive gradient: back off with P = 1 - exp(-g/G), unless ineffectual. */
static __always_inline bool cdg_backoff(struct sock *sk, struct cdg_ca *ca, s32 grad)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 factor = params.backoff_factor, ineff = params.use_ineff;
	u32 ppm = cdg_backoff_ppm(grad, factor);

	if (!cdg_backoff_draw(bpf_get_prandom_u32(), grad, factor)) {
		tcpca_event(sk, CDG_EV_BACKOFF, grad, ppm, 0, ca->backoff_cnt);
		return false;
	}
	if (ineff) {
		ca->backoff_cnt++;
		if (ca->backoff_cnt > ineff) {
			tcpca_event(sk, CDG_EV_BACKOFF, grad, ppm, 2, ca->backoff_cnt);
			return false;
		}
	}
	ca->shadow_wnd = max(ca->shadow_wnd, tp->snd_cwnd);
	ca->state = CDG_BACKOFF;
	ca->backoffs++;
	cdg_enter_cwr(tp, ca);
	tcpca_event(sk, CDG_EV_BACKOFF, grad, ppm, 1, ca->backoff_cnt);
	return true;
}

/* The module's cong_avoid, which the stack calls only in Open and Disorder. */
void TCPCA_OPS(cdg_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct cdg_ca *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	u32 prior_cwnd;

	if (ca->cwr) {
		if (!after(ack, ca->cwr_high_seq)) {
			cdg_cwr_step(tp, ca, acked);
			return;
		}
		cdg_end_cwr(tp, ca);
	}

	if (tcp_in_slow_start(tp) && params.hystart_detect)
		cdg_hystart_update(sk, ca);

	if (after(ack, ca->rtt_seq) && (ca->rtt.min || ca->rtt.max)) {
		s32 grad = 0;

		if (ca->rtt_prev.min || ca->rtt_prev.max)
			grad = cdg_grad(sk, ca);
		ca->rtt_seq = tp->snd_nxt;
		ca->rtt_prev = ca->rtt;
		ca->rtt.min = 0;
		ca->rtt.max = 0;
		ca->last_ack = 0;
		ca->sample_cnt = 0;
		if (grad > 0 && cdg_backoff(sk, ca, grad))
			return;
	}

	if (!tcp_is_cwnd_limited(sk)) {
		ca->shadow_wnd = min(ca->shadow_wnd, tp->snd_cwnd);
		return;
	}
	prior_cwnd = tp->snd_cwnd;
	tcpca_reno_cong_avoid(sk, ack, acked);
	ca->shadow_wnd = cdg_shadow_grow(ca->shadow_wnd, tp->snd_cwnd - prior_cwnd);
}

u32 TCPCA_OPS(cdg_ssthresh, struct sock *sk)
{
	struct cdg_ca *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	u32 cwnd = tp->snd_cwnd, s;

	TCPCA_COUNT(losses);
	if (ca->cwr) {
		/* the module's socket would still be in CWR and not ask: keep its target */
		ca->cwr = 0;
		s = max(tp->snd_ssthresh, 2U);
	} else {
		s = cdg_loss_ssthresh(cwnd, ca->state, &ca->shadow_wnd, params.backoff_beta,
				 params.use_shadow, params.use_tolerance);
	}
	tcpca_event(sk, CDG_EV_LOSS, cwnd, s, ca->shadow_wnd, ca->state);
	return s;
}

void TCPCA_OPS(cdg_cwnd_event, struct sock *sk, enum tcp_ca_event ev)
{
	struct cdg_ca *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	struct cdg_slots *s = NULL;
	u16 window;
	u8 slots;

	switch (ev) {
	case CA_EVENT_CWND_RESTART:
		/* after idle: everything learnt is stale, the window's storage kept */
		window = ca->window;
		slots = ca->slots;
		if (slots)
			s = bpf_sk_storage_get(&cdg_slots, sk, NULL, 0);
		if (s)
			cdg_clear_slots(s, window);
		__builtin_memset(ca, 0, sizeof(*ca));
		ca->window = window;
		ca->slots = slots;
		ca->rtt_seq = tp->snd_nxt;
		ca->shadow_wnd = tp->snd_cwnd;
		break;
	case CA_EVENT_COMPLETE_CWR:
		cdg_complete_cwr(tp, ca);
		break;
	default:
		break;
	}
}

u32 TCPCA_OPS(cdg_undo_cwnd, struct sock *sk)
{
	return tcpca_reno_undo_cwnd(sk);
}

/* The socket leaves CDG (closes, or another CA is set): free its window. */
void TCPCA_OPS(cdg_release, struct sock *sk)
{
	const struct cdg_ca *ca = inet_csk_ca(sk);

	if (ca->slots)
		bpf_sk_storage_delete(&cdg_slots, sk);
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops cdg = {
	.init		= (void *)cdg_init,
	.pkts_acked	= (void *)cdg_pkts_acked,
	.cong_avoid	= (void *)cdg_cong_avoid,
	.ssthresh	= (void *)cdg_ssthresh,
	.cwnd_event	= (void *)cdg_cwnd_event,
	.undo_cwnd	= (void *)cdg_undo_cwnd,
	.release	= (void *)cdg_release,
	.name		= "cdg",
};

static __always_inline void cdg_print_state(struct seq_file *seq, const struct cdg_ca *ca)
{
	BPF_SEQ_PRINTF(seq, " window=%u slots=%u state=%u grad_us=%d gsum_min_us=%d gsum_max_us=%d",
		       ca->window, ca->slots, ca->state, ca->grad, ca->win.sum.min,
		       ca->win.sum.max);
	BPF_SEQ_PRINTF(seq, " rtt_min_us=%d rtt_max_us=%d prev_min_us=%d prev_max_us=%d",
		       ca->rtt.min, ca->rtt.max, ca->rtt_prev.min, ca->rtt_prev.max);
	BPF_SEQ_PRINTF(seq, " delay_min_us=%d shadow_pkts=%u backoffs=%u backoff_cnt=%u cwr=%u",
		       ca->delay_min, ca->shadow_wnd, ca->backoffs, ca->backoff_cnt, ca->cwr);
}

TCPCA_SOCKETS(struct cdg_ca, cdg_print_state);
