// SPDX-License-Identifier: GPL-2.0
/*
 * BBR (v1): paces at the bottleneck rate it measures and keeps about two
 * bandwidth-delay products in flight; neither loss nor delay is its signal.
 *
 * N. Cardwell, Y. Cheng, C. S. Gunn, S. Hassas Yeganeh, V. Jacobson, "BBR:
 * Congestion-Based Congestion Control", ACM Queue 14(5), 2016.
 * Follows net/ipv4/tcp_bbr.c (6.1 to 6.18).  Arithmetic: include/bbr.h.
 *
 * Departures from the module:
 *  - cong_control reads its raw context: the signature changed in 6.10.
 *  - Needs the pacing stores of 6.0: the loader refuses older kernels.
 *  - No app_limited store before 6.4: ProbeRTT's samples may enter the filter.
 *  - Whole bytes for the module's bit-fields, with the same ranges.
 *  - get_random_u32_below(7) is bpf_get_prandom_u32() % 7.
 *  - ms of tcp_mstamp, not jiffies: HZ needs the kernel's config file.
 *  - Four constants are tunables, with the module's values.
 *  - No get_info: the iterator and --events show the state.
 *
 * Departures in full, and the evidence: docs/algorithms.md, "BBR".
 */
#include "tcpca.bpf.h"
#include "tcpca_kernel.bpf.h"
#include "tcpca_params.h"
#include "bbr.h"

char _license[] SEC("license") = "GPL";

TCPCA_PARAMS(bbr_params, BBR_PARAMS);
TCPCA_NEEDS(TCPCA_KF_PACING);

/* Event record kinds (tcpca-load --events). */
enum {
	/* v0 new mode, v1 old mode (enum bbr_ca_mode), v2 bw kbit/s, v3 min_rtt us */
	BBR_EV_MODE = 1,
	/* v0 cycle phase (0..7), v1 pacing gain (1/256), v2 bw kbit/s, v3 pacing rate kbit/s */
	BBR_EV_PHASE = 2,
};

struct bbr_ca {
	u32 min_rtt_us;			/* smallest RTT of the min_rtt window, us */
	u32 min_rtt_stamp;		/* when min_rtt_us was taken, ms */
	u32 probe_rtt_done_stamp;	/* when ProbeRTT may end, ms; 0: not yet at 4 packets */
	struct bbr_minmax bw;		/* max delivery rate of BBR_BW_RTTS rounds, packets/us << 24 */
	u32 rtt_cnt;			/* rounds (packet-timed round trips) since init */
	u32 next_rtt_delivered;		/* tp->delivered at which this round ends */
	u32 lt_bw;			/* long-term (policed) rate, packets/us << 24 */
	u32 lt_last_delivered;		/* tp->delivered when the lt interval began */
	u32 lt_last_stamp;		/* tp->delivered_mstamp then, ms */
	u32 lt_last_lost;		/* tp->lost then, packets */
	u32 prior_cwnd;			/* cwnd before recovery or ProbeRTT, packets */
	u32 full_bw;			/* bw at the last 25% growth in STARTUP, packets/us << 24 */
	u32 ack_epoch_acked;		/* packets (S)ACKed in this aggregation epoch */
	u64 cycle_mstamp;		/* start of this gain-cycle phase, us */
	u64 ack_epoch_mstamp;		/* start of this aggregation epoch, us */
	u16 extra_acked[2];		/* most excess packets ACKed in an epoch, two 5-round slots */
	u16 pacing_gain;		/* 1/256 */
	u16 cwnd_gain;			/* 1/256 */
	u8 mode;			/* enum bbr_ca_mode */
	u8 prev_ca_state;		/* icsk_ca_state at the previous ACK */
	u8 cycle_idx;			/* phase of the gain cycle, 0..7 */
	u8 lt_rtt_cnt;			/* rounds in this lt interval */
	u8 full_bw_cnt;			/* rounds in STARTUP without 25% growth */
	u8 extra_acked_win_rtts;	/* age of the current extra_acked slot, rounds */
	u8 extra_acked_win_idx;		/* current extra_acked slot, 0 or 1 */
	u8 packet_conservation:1,	/* first round of recovery: send what is acked */
	   round_start:1,		/* this ACK started a round */
	   idle_restart:1,		/* restarting after idle, until data is acked */
	   probe_rtt_round_done:1,	/* a round has passed at 4 packets in ProbeRTT */
	   lt_is_sampling:1,		/* an lt interval is being measured */
	   lt_use_bw:1,			/* policed: lt_bw is the bw estimate */
	   full_bw_reached:1,		/* STARTUP found the pipe full */
	   has_seen_rtt:1;		/* the pacing rate has been set from an RTT */
};
TCPCA_STATE_FITS(struct bbr_ca);

/* The clock of min_rtt's age and ProbeRTT's end: ms (the module's jiffies; see the top). */
static __always_inline u32 bbr_now_ms(const struct tcp_sock *tp)
{
	return (u32)(tp->tcp_mstamp / USEC_PER_MSEC);
}

/* include/net/tcp.h's tcp_packets_in_flight(). */
static __always_inline u32 bbr_packets_in_flight(const struct tcp_sock *tp)
{
	return tp->packets_out - (tp->sacked_out + tp->lost_out) + tp->retrans_out;
}

static __always_inline u32 bbr_max_bw(const struct bbr_ca *bbr)
{
	return bbr->bw.s[0].v;
}

/* The bw the model uses: the policer's rate when one was found. */
static __always_inline u32 bbr_bw(const struct bbr_ca *bbr)
{
	return bbr->lt_use_bw ? bbr->lt_bw : bbr_max_bw(bbr);
}

static __always_inline u32 bbr_extra_acked(const struct bbr_ca *bbr)
{
	return max(bbr->extra_acked[0], bbr->extra_acked[1]);
}

/*
 * The current slot of extra_acked, by branches: the verifier refuses a
 * variable offset into the socket, which extra_acked[idx] would be.
 */
static __always_inline u32 bbr_extra_acked_slot(const struct bbr_ca *bbr)
{
	return bbr->extra_acked_win_idx ? bbr->extra_acked[1] : bbr->extra_acked[0];
}

static __always_inline void bbr_set_extra_acked_slot(struct bbr_ca *bbr, u32 v)
{
	if (bbr->extra_acked_win_idx)
		bbr->extra_acked[1] = v;
	else
		bbr->extra_acked[0] = v;
}

/* bw (packets/us << 24) in kbit/s for the records: x * mss * 8e6 >> 24 / 1000. */
static __always_inline u32 bbr_kbps(const struct sock *sk, u32 bw)
{
	return (u32)(((u64)bw * tcp_sk(sk)->mss_cache * 8000) >> BBR_BW_SCALE);
}

static __always_inline void bbr_note(struct sock *sk, u8 old_mode, u8 old_idx)
{
	struct bbr_ca *bbr = inet_csk_ca(sk);

	if (bbr->mode != old_mode)
		tcpca_event(sk, BBR_EV_MODE, bbr->mode, old_mode, bbr_kbps(sk, bbr_bw(bbr)),
			    bbr->min_rtt_us);
	else if (bbr->mode == BBR_MODE_PROBE_BW && bbr->cycle_idx != old_idx)
		tcpca_event(sk, BBR_EV_PHASE, bbr->cycle_idx, bbr->pacing_gain,
			    bbr_kbps(sk, bbr_bw(bbr)), (u32)(sk->sk_pacing_rate * 8 / 1000));
}

static __always_inline void bbr_init_pacing_rate_from_rtt(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_ca *bbr = inet_csk_ca(sk);
	u32 rtt_us = USEC_PER_MSEC;	/* nominal, until an RTT is measured */

	if (tp->srtt_us) {
		rtt_us = max(tp->srtt_us >> 3, 1U);
		bbr->has_seen_rtt = 1;
	}
	sk->sk_pacing_rate = bbr_pacing_rate(bbr_bw_from_rtt(tp->snd_cwnd, rtt_us), tp->mss_cache,
					     BBR_HIGH_GAIN, sk->sk_max_pacing_rate);
}

/* Pace at gain x bw; in STARTUP only ever faster (bw is still an underestimate). */
static __always_inline void bbr_set_pacing_rate(struct sock *sk, u32 bw, u32 gain)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_ca *bbr = inet_csk_ca(sk);
	u64 rate = bbr_pacing_rate(bw, tp->mss_cache, gain, sk->sk_max_pacing_rate);

	if (!bbr->has_seen_rtt && tp->srtt_us)
		bbr_init_pacing_rate_from_rtt(sk);
	if (bbr->full_bw_reached || rate > sk->sk_pacing_rate)
		sk->sk_pacing_rate = rate;
}

static __always_inline u32 bbr_tso_segs_goal(const struct sock *sk)
{
	return bbr_tso_segs_goal_for(sk->sk_pacing_rate, sk->sk_pacing_shift,
				     tcp_sk(sk)->mss_cache);
}

/* Remember a cwnd to come back to after recovery or ProbeRTT. */
static __always_inline void bbr_save_cwnd(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_ca *bbr = inet_csk_ca(sk);

	if (bbr->prev_ca_state < TCP_CA_Recovery && bbr->mode != BBR_MODE_PROBE_RTT)
		bbr->prior_cwnd = tp->snd_cwnd;
	else	/* recovery or ProbeRTT cut it: keep the larger */
		bbr->prior_cwnd = max(bbr->prior_cwnd, tp->snd_cwnd);
}

static __always_inline u32 bbr_inflight(struct sock *sk, u32 bw, u32 gain)
{
	const struct bbr_ca *bbr = inet_csk_ca(sk);

	return bbr_quantization_budget(bbr_bdp(bw, bbr->min_rtt_us, gain), bbr_tso_segs_goal(sk),
				       bbr->mode == BBR_MODE_PROBE_BW && bbr->cycle_idx == 0);
}

/* In flight when the next packet leaves, which the pacer may hold back. */
static __always_inline u32 bbr_packets_in_net_at_edt(struct sock *sk, u32 inflight_now)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	const struct bbr_ca *bbr = inet_csk_ca(sk);
	u64 now_ns = tp->tcp_clock_cache, edt_ns = max(tp->tcp_wstamp_ns, now_ns);

	return bbr_in_net_at_edt(inflight_now, bbr_bw(bbr), (edt_ns - now_ns) / NSEC_PER_USEC,
				 bbr->pacing_gain > BBR_UNIT ? bbr_tso_segs_goal(sk) : 0);
}

static __always_inline u32 bbr_ack_aggregation_cwnd(const struct bbr_ca *bbr)
{
	if (!params.extra_acked_gain || !bbr->full_bw_reached)
		return 0;
	return bbr_aggregation_cwnd(bbr_bw(bbr), bbr_extra_acked(bbr), params.extra_acked_gain);
}

/*
 * Recovery: the first round sends one packet per packet acked (packet
 * conservation), from what is in flight; losses come off cwnd; leaving
 * recovery puts back the cwnd saved at its start.  True while conserving.
 */
static __always_inline bool bbr_set_cwnd_to_recover_or_restore(struct sock *sk,
							       const struct rate_sample *rs,
							       u32 acked, u32 *new_cwnd)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_ca *bbr = inet_csk_ca(sk);
	u8 prev_state = bbr->prev_ca_state;
	u8 state = BPF_CORE_READ_BITFIELD(&tp->inet_conn, icsk_ca_state);
	u32 cwnd = tp->snd_cwnd;
	int losses = rs->losses;

	if (losses > 0)
		cwnd = (s32)(cwnd - losses) > 1 ? cwnd - losses : 1;

	if (state == TCP_CA_Recovery && prev_state != TCP_CA_Recovery) {
		bbr->packet_conservation = 1;
		bbr->next_rtt_delivered = tp->delivered;	/* a round starts now */
		/* drop what the application, TSQ or TSO deferral left unused */
		cwnd = bbr_packets_in_flight(tp) + acked;
	} else if (prev_state >= TCP_CA_Recovery && state < TCP_CA_Recovery) {
		cwnd = max(cwnd, bbr->prior_cwnd);
		bbr->packet_conservation = 0;
	}
	bbr->prev_ca_state = state;

	if (bbr->packet_conservation) {
		*new_cwnd = max(cwnd, bbr_packets_in_flight(tp) + acked);
		return true;
	}
	*new_cwnd = cwnd;
	return false;
}

/*
 * cwnd grows by what is acked towards the target gain x BDP (+ aggregation
 * room); once the pipe was found full it is also cut down to the target.
 */
static __always_inline void bbr_set_cwnd(struct sock *sk, const struct rate_sample *rs,
					 u32 acked, u32 bw, u32 gain)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_ca *bbr = inet_csk_ca(sk);
	u32 cwnd = tp->snd_cwnd, target;

	if (!acked)
		goto done;
	if (bbr_set_cwnd_to_recover_or_restore(sk, rs, acked, &cwnd))
		goto done;

	target = bbr_bdp(bw, bbr->min_rtt_us, gain) + bbr_ack_aggregation_cwnd(bbr);
	target = bbr_quantization_budget(target, bbr_tso_segs_goal(sk),
					 bbr->mode == BBR_MODE_PROBE_BW && bbr->cycle_idx == 0);
	if (bbr->full_bw_reached)
		cwnd = min(cwnd + acked, target);
	else if (cwnd < target || tp->delivered < TCP_INIT_CWND)
		cwnd = cwnd + acked;
	cwnd = max(cwnd, (u32)BBR_CWND_MIN_TARGET);
done:
	tp->snd_cwnd = min(cwnd, tp->snd_cwnd_clamp);
	if (bbr->mode == BBR_MODE_PROBE_RTT)
		tp->snd_cwnd = min(tp->snd_cwnd, (u32)BBR_CWND_MIN_TARGET);
}

/*
 * A phase lasts one min_rtt; the 5/4 phase also until its inflight target
 * is reached (or a loss says it won't fit), the 3/4 one ends early once the
 * queue is drained.
 */
static __always_inline bool bbr_is_next_cycle_phase(struct sock *sk, const struct rate_sample *rs)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	const struct bbr_ca *bbr = inet_csk_ca(sk);
	s64 elapsed = tp->delivered_mstamp - bbr->cycle_mstamp;
	bool full_length = elapsed > 0 && (u64)elapsed > bbr->min_rtt_us;
	u32 inflight;

	if (bbr->pacing_gain == BBR_UNIT)
		return full_length;
	inflight = bbr_packets_in_net_at_edt(sk, rs->prior_in_flight);
	if (bbr->pacing_gain > BBR_UNIT)
		return full_length &&
		       (rs->losses || inflight >= bbr_inflight(sk, bbr_max_bw(bbr), bbr->pacing_gain));
	return full_length || inflight <= bbr_inflight(sk, bbr_max_bw(bbr), BBR_UNIT);
}

static __always_inline void bbr_advance_cycle_phase(struct sock *sk)
{
	struct bbr_ca *bbr = inet_csk_ca(sk);

	bbr->cycle_idx = (bbr->cycle_idx + 1) & (BBR_CYCLE_LEN - 1);
	bbr->cycle_mstamp = tcp_sk(sk)->delivered_mstamp;
}

static __always_inline void bbr_update_cycle_phase(struct sock *sk, const struct rate_sample *rs)
{
	struct bbr_ca *bbr = inet_csk_ca(sk);

	if (bbr->mode == BBR_MODE_PROBE_BW && bbr_is_next_cycle_phase(sk, rs))
		bbr_advance_cycle_phase(sk);
}

static __always_inline void bbr_reset_probe_bw_mode(struct sock *sk)
{
	struct bbr_ca *bbr = inet_csk_ca(sk);

	bbr->mode = BBR_MODE_PROBE_BW;
	bbr->cycle_idx = bbr_cycle_start(bpf_get_prandom_u32());
	bbr->cycle_mstamp = tcp_sk(sk)->delivered_mstamp;
}

static __always_inline void bbr_reset_mode(struct sock *sk)
{
	struct bbr_ca *bbr = inet_csk_ca(sk);

	if (!bbr->full_bw_reached)
		bbr->mode = BBR_MODE_STARTUP;
	else
		bbr_reset_probe_bw_mode(sk);
}

static __always_inline void bbr_reset_lt_bw_sampling_interval(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_ca *bbr = inet_csk_ca(sk);

	bbr->lt_last_stamp = (u32)(tp->delivered_mstamp / USEC_PER_MSEC);
	bbr->lt_last_delivered = tp->delivered;
	bbr->lt_last_lost = tp->lost;
	bbr->lt_rtt_cnt = 0;
}

static __always_inline void bbr_reset_lt_bw_sampling(struct sock *sk)
{
	struct bbr_ca *bbr = inet_csk_ca(sk);

	bbr->lt_bw = 0;
	bbr->lt_use_bw = 0;
	bbr->lt_is_sampling = 0;
	bbr_reset_lt_bw_sampling_interval(sk);
}

/* An lt interval ended at rate bw: two alike in a row mean a policer. */
static __always_inline void bbr_lt_bw_interval_done(struct sock *sk, u32 bw)
{
	struct bbr_ca *bbr = inet_csk_ca(sk);

	if (bbr->lt_bw && bbr_lt_bw_alike(bw, bbr->lt_bw, tcp_sk(sk)->mss_cache)) {
		bbr->lt_bw = (bw + bbr->lt_bw) >> 1;
		bbr->lt_use_bw = 1;
		bbr->pacing_gain = BBR_UNIT;	/* no probing above the policer */
		bbr->lt_rtt_cnt = 0;
		return;
	}
	bbr->lt_bw = bw;
	bbr_reset_lt_bw_sampling_interval(sk);
}

/*
 * Token-bucket policers: intervals of 4 to 16 rounds that each start and
 * end with a loss and lose >= 20% give a rate; two consecutive alike rates
 * become the bw estimate for 48 rounds.
 */
static __always_inline void bbr_lt_bw_sampling(struct sock *sk, int losses, bool app_limited)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_ca *bbr = inet_csk_ca(sk);
	u32 lost, delivered, t;

	if (bbr->lt_use_bw) {
		if (bbr->mode == BBR_MODE_PROBE_BW && bbr->round_start &&
		    ++bbr->lt_rtt_cnt >= BBR_LT_BW_MAX_RTTS) {
			bbr_reset_lt_bw_sampling(sk);
			bbr_reset_probe_bw_mode(sk);
		}
		return;
	}
	/* Start at a loss: the policer's bucket is empty then. */
	if (!bbr->lt_is_sampling) {
		if (!losses)
			return;
		bbr_reset_lt_bw_sampling_interval(sk);
		bbr->lt_is_sampling = 1;
	}
	if (app_limited) {
		bbr_reset_lt_bw_sampling(sk);
		return;
	}
	if (bbr->round_start)
		bbr->lt_rtt_cnt++;
	if (bbr->lt_rtt_cnt < BBR_LT_INTVL_MIN_RTTS)
		return;
	if (bbr->lt_rtt_cnt > 4 * BBR_LT_INTVL_MIN_RTTS) {
		bbr_reset_lt_bw_sampling(sk);
		return;
	}
	if (!losses)
		return;
	lost = tp->lost - bbr->lt_last_lost;
	delivered = tp->delivered - bbr->lt_last_delivered;
	if (!bbr_lt_lossy(lost, delivered))
		return;
	t = (u32)(tp->delivered_mstamp / USEC_PER_MSEC) - bbr->lt_last_stamp;
	if ((s32)t < 1)
		return;		/* under a ms: wait */
	if (t >= ~0U / USEC_PER_MSEC) {
		bbr_reset_lt_bw_sampling(sk);
		return;
	}
	bbr_lt_bw_interval_done(sk, (u32)bbr_bw_sample(delivered, (u64)t * USEC_PER_MSEC));
}

static __always_inline void bbr_update_bw(struct sock *sk, const struct rate_sample *rs)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_ca *bbr = inet_csk_ca(sk);
	long interval_us = rs->interval_us;
	s32 delivered = rs->delivered;
	u32 bw;

	bbr->round_start = 0;
	if (delivered < 0 || interval_us <= 0)
		return;		/* not a valid sample */
	if (!before(rs->prior_delivered, bbr->next_rtt_delivered)) {
		bbr->next_rtt_delivered = tp->delivered;
		bbr->rtt_cnt++;
		bbr->round_start = 1;
		bbr->packet_conservation = 0;
	}
	bbr_lt_bw_sampling(sk, rs->losses, rs->is_app_limited);

	/* An application-limited sample counts only when it raises the max. */
	bw = (u32)bbr_bw_sample((u32)delivered, (u64)interval_us);
	if (!rs->is_app_limited || bw >= bbr_max_bw(bbr))
		bbr_minmax_running_max(&bbr->bw, BBR_BW_RTTS, bbr->rtt_cnt, bw);
}

/*
 * ACK aggregation (Wi-Fi, GRO, delayed ACKs): the most packets ACKed in an
 * epoch beyond what bw would deliver in it, the max of two 5-round slots.
 */
static __always_inline void bbr_update_ack_aggregation(struct sock *sk, const struct rate_sample *rs)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_ca *bbr = inet_csk_ca(sk);
	u32 acked = rs->acked_sacked, epoch_us, expected, extra;
	s64 elapsed;

	if (!params.extra_acked_gain || (s32)acked <= 0 || rs->delivered < 0 ||
	    rs->interval_us <= 0)
		return;
	if (bbr->round_start) {
		bbr->extra_acked_win_rtts = min(0x1F, bbr->extra_acked_win_rtts + 1);
		if (bbr->extra_acked_win_rtts >= BBR_EXTRA_ACKED_WIN_RTTS) {
			bbr->extra_acked_win_rtts = 0;
			bbr->extra_acked_win_idx = !bbr->extra_acked_win_idx;
			bbr_set_extra_acked_slot(bbr, 0);
		}
	}
	elapsed = tp->delivered_mstamp - bbr->ack_epoch_mstamp;
	epoch_us = elapsed > 0 ? (u32)elapsed : 0;
	expected = bbr_expected_acked(bbr_bw(bbr), epoch_us);
	/* Slower than bw, or a very long epoch: start a new one. */
	if (bbr->ack_epoch_acked <= expected ||
	    bbr->ack_epoch_acked + acked >= BBR_ACK_EPOCH_RESET) {
		bbr->ack_epoch_acked = 0;
		bbr->ack_epoch_mstamp = tp->delivered_mstamp;
		expected = 0;
	}
	bbr->ack_epoch_acked = min(0xFFFFFU, bbr->ack_epoch_acked + acked);
	extra = min(bbr->ack_epoch_acked - expected, tp->snd_cwnd);
	if (extra > bbr_extra_acked_slot(bbr))
		bbr_set_extra_acked_slot(bbr, extra);
}

/* STARTUP's exit: three rounds without 25% more bw (app-limited rounds don't count). */
static __always_inline void bbr_check_full_bw_reached(struct sock *sk, const struct rate_sample *rs)
{
	struct bbr_ca *bbr = inet_csk_ca(sk);

	if (bbr->full_bw_reached || !bbr->round_start || rs->is_app_limited)
		return;
	if (bbr_bw_grew(bbr_max_bw(bbr), bbr->full_bw)) {
		bbr->full_bw = bbr_max_bw(bbr);
		bbr->full_bw_cnt = 0;
		return;
	}
	++bbr->full_bw_cnt;
	bbr->full_bw_reached = bbr->full_bw_cnt >= BBR_FULL_BW_CNT;
}

static __always_inline void bbr_check_drain(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_ca *bbr = inet_csk_ca(sk);

	if (bbr->mode == BBR_MODE_STARTUP && bbr->full_bw_reached) {
		bbr->mode = BBR_MODE_DRAIN;
		tp->snd_ssthresh = bbr_inflight(sk, bbr_max_bw(bbr), BBR_UNIT);
	}
	if (bbr->mode == BBR_MODE_DRAIN &&
	    bbr_packets_in_net_at_edt(sk, bbr_packets_in_flight(tp)) <=
	    bbr_inflight(sk, bbr_max_bw(bbr), BBR_UNIT))
		bbr_reset_probe_bw_mode(sk);	/* the queue is drained */
}

static __always_inline void bbr_check_probe_rtt_done(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_ca *bbr = inet_csk_ca(sk);
	u32 now = bbr_now_ms(tp);

	if (!(bbr->probe_rtt_done_stamp && bbr_after(now, bbr->probe_rtt_done_stamp)))
		return;
	bbr->min_rtt_stamp = now;	/* the next ProbeRTT in min_rtt_win_sec */
	tp->snd_cwnd = max(tp->snd_cwnd, bbr->prior_cwnd);
	bbr_reset_mode(sk);
}

/*
 * min_rtt: the smallest RTT sample, or any (not delayed-ACK) sample once
 * the window has expired.  On expiry, ProbeRTT: 4 packets in flight for
 * probe_rtt_mode_ms and at least a round, so that every BBR flow of a
 * bottleneck drains the queue at about the same time.
 */
static __always_inline void bbr_update_min_rtt(struct sock *sk, const struct rate_sample *rs)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_ca *bbr = inet_csk_ca(sk);
	u32 now = bbr_now_ms(tp);
	long rtt_us = rs->rtt_us;
	bool expired;

	expired = bbr_after(now, bbr->min_rtt_stamp + params.min_rtt_win_sec * 1000);
	if (rtt_us >= 0 &&
	    ((u64)rtt_us < bbr->min_rtt_us || (expired && !rs->is_ack_delayed))) {
		bbr->min_rtt_us = (u32)rtt_us;
		bbr->min_rtt_stamp = now;
	}

	if (params.probe_rtt_mode_ms > 0 && expired && !bbr->idle_restart &&
	    bbr->mode != BBR_MODE_PROBE_RTT) {
		bbr->mode = BBR_MODE_PROBE_RTT;
		bbr_save_cwnd(sk);
		bbr->probe_rtt_done_stamp = 0;
	}

	if (bbr->mode == BBR_MODE_PROBE_RTT) {
		u32 inflight = bbr_packets_in_flight(tp);

		/* Its low-rate samples are not the path's (6.4+: see the top). */
		if (tcpca_have(TCPCA_KF_APP_LIMITED))
			tp->app_limited = (tp->delivered + inflight) ? : 1;
		if (!bbr->probe_rtt_done_stamp && inflight <= BBR_CWND_MIN_TARGET) {
			bbr->probe_rtt_done_stamp = now + params.probe_rtt_mode_ms;
			bbr->probe_rtt_round_done = 0;
			bbr->next_rtt_delivered = tp->delivered;
		} else if (bbr->probe_rtt_done_stamp) {
			if (bbr->round_start)
				bbr->probe_rtt_round_done = 1;
			if (bbr->probe_rtt_round_done)
				bbr_check_probe_rtt_done(sk);
		}
	}
	if (rs->delivered > 0)
		bbr->idle_restart = 0;
}

static __always_inline void bbr_update_gains(struct bbr_ca *bbr)
{
	switch (bbr->mode) {
	case BBR_MODE_STARTUP:
		bbr->pacing_gain = BBR_HIGH_GAIN;
		bbr->cwnd_gain = BBR_HIGH_GAIN;
		break;
	case BBR_MODE_DRAIN:
		bbr->pacing_gain = BBR_DRAIN_GAIN;
		bbr->cwnd_gain = BBR_HIGH_GAIN;		/* keep cwnd while draining */
		break;
	case BBR_MODE_PROBE_BW:
		bbr->pacing_gain = bbr->lt_use_bw ? BBR_UNIT : bbr_cycle_gain(bbr->cycle_idx);
		bbr->cwnd_gain = params.cwnd_gain;
		break;
	default:	/* PROBE_RTT */
		bbr->pacing_gain = BBR_UNIT;
		bbr->cwnd_gain = BBR_UNIT;
		break;
	}
}

static __always_inline void bbr_main(struct sock *sk, const struct rate_sample *rs)
{
	struct bbr_ca *bbr = inet_csk_ca(sk);
	u8 old_mode = bbr->mode, old_idx = bbr->cycle_idx;
	u32 bw;

	bbr_update_bw(sk, rs);
	bbr_update_ack_aggregation(sk, rs);
	bbr_update_cycle_phase(sk, rs);
	bbr_check_full_bw_reached(sk, rs);
	bbr_check_drain(sk);
	bbr_update_min_rtt(sk, rs);
	bbr_update_gains(bbr);

	bw = bbr_bw(bbr);
	bbr_set_pacing_rate(sk, bw, bbr->pacing_gain);
	bbr_set_cwnd(sk, rs, rs->acked_sacked, bw, bbr->cwnd_gain);
	bbr_note(sk, old_mode, old_idx);
}

void TCPCA_OPS(bbr_init, struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_ca *bbr = inet_csk_ca(sk);

	__builtin_memset(bbr, 0, sizeof(*bbr));
	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;
	bbr->next_rtt_delivered = tp->delivered;
	bbr->prev_ca_state = TCP_CA_Open;
	bbr->min_rtt_us = tp->rtt_min.s[0].v;	/* tcp_min_rtt(): ~0U before any sample */
	bbr->min_rtt_stamp = bbr_now_ms(tp);
	bbr_minmax_reset(&bbr->bw, 0, 0);
	bbr_init_pacing_rate_from_rtt(sk);
	bbr_reset_lt_bw_sampling(sk);
	bbr->mode = BBR_MODE_STARTUP;
	bbr->ack_epoch_mstamp = tp->tcp_mstamp;
	/* The module's cmpxchg: pace in TCP unless a qdisc (fq) already does. */
	if (sk->sk_pacing_status == SK_PACING_NONE)
		sk->sk_pacing_status = SK_PACING_NEEDED;
}

/*
 * cong_control on the raw context: rs is argument 1 before 6.10 and 3 from
 * then on.  The branch this kernel cannot take is dead code to the
 * verifier, which checks context reads only where they can run; each read
 * is one instruction of its own (asm), since clang would otherwise make one
 * read at a computed offset, which the verifier refuses.
 */
static __always_inline const struct rate_sample *bbr_rs_arg(unsigned long long *ctx)
{
	const struct rate_sample *rs;

	if (tcpca_have(TCPCA_KF_CC_ACK_FLAG))
		asm volatile("%0 = *(u64 *)(%1 + 24)" : "=r"(rs) : "r"(ctx));
	else
		asm volatile("%0 = *(u64 *)(%1 + 8)" : "=r"(rs) : "r"(ctx));
	return rs;
}

SEC("struct_ops/bbr_cong_control")
void bbr_cong_control(unsigned long long *ctx)
{
	bbr_main((struct sock *)ctx[0], bbr_rs_arg(ctx));
}

/* A loss: note the cwnd to restore; ssthresh stays (BBR does not use it). */
u32 TCPCA_OPS(bbr_ssthresh, struct sock *sk)
{
	TCPCA_COUNT(losses);
	bbr_save_cwnd(sk);
	return tcp_sk(sk)->snd_ssthresh;
}

/* A timeout ends a round and is a loss to the policer detector. */
void TCPCA_OPS(bbr_set_state, struct sock *sk, u8 new_state)
{
	struct bbr_ca *bbr = inet_csk_ca(sk);

	tcpca_count_state(new_state);
	if (new_state == TCP_CA_Loss) {
		bbr->prev_ca_state = TCP_CA_Loss;
		bbr->full_bw = 0;
		bbr->round_start = 1;
		bbr_lt_bw_sampling(sk, 1, false);
	}
}

/* Restarting from idle: pace at bw, not above it, until data is acked. */
void TCPCA_OPS(bbr_cwnd_event, struct sock *sk, enum tcp_ca_event event)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct bbr_ca *bbr = inet_csk_ca(sk);
	u8 old_mode = bbr->mode;

	if (event != CA_EVENT_TX_START || !tp->app_limited)
		return;
	bbr->idle_restart = 1;
	bbr->ack_epoch_mstamp = tp->tcp_mstamp;
	bbr->ack_epoch_acked = 0;
	if (bbr->mode == BBR_MODE_PROBE_BW)
		bbr_set_pacing_rate(sk, bbr_bw(bbr), BBR_UNIT);
	else if (bbr->mode == BBR_MODE_PROBE_RTT)
		bbr_check_probe_rtt_done(sk);
	bbr_note(sk, old_mode, bbr->cycle_idx);
}

/* The loss was spurious: STARTUP's full-pipe and the policer's evidence start over. */
u32 TCPCA_OPS(bbr_undo_cwnd, struct sock *sk)
{
	struct bbr_ca *bbr = inet_csk_ca(sk);

	TCPCA_COUNT(undos);
	bbr->full_bw = 0;
	bbr->full_bw_cnt = 0;
	bbr_reset_lt_bw_sampling(sk);
	return tcp_sk(sk)->snd_cwnd;
}

u32 TCPCA_OPS(bbr_min_tso_segs, struct sock *sk)
{
	return bbr_min_tso_segs_for(sk->sk_pacing_rate);
}

/* Socket buffers for 3 x cwnd: pacing keeps more data queued in the host. */
u32 TCPCA_OPS(bbr_sndbuf_expand, struct sock *sk)
{
	return 3;
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops bbr = {
	.init		= (void *)bbr_init,
	.cong_control	= (void *)bbr_cong_control,
	.ssthresh	= (void *)bbr_ssthresh,
	.set_state	= (void *)bbr_set_state,
	.cwnd_event	= (void *)bbr_cwnd_event,
	.undo_cwnd	= (void *)bbr_undo_cwnd,
	.min_tso_segs	= (void *)bbr_min_tso_segs,
	.sndbuf_expand	= (void *)bbr_sndbuf_expand,
	.name		= "bpf_bbr",
};

static __always_inline void bbr_print_state(struct seq_file *seq, const struct bbr_ca *bbr)
{
	u32 bw = bbr->lt_use_bw ? bbr->lt_bw : bbr->bw.s[0].v;

	BPF_SEQ_PRINTF(seq, " mode=%s cycle_idx=%u pacing_gain_x256=%u cwnd_gain_x256=%u",
		       bbr->mode == BBR_MODE_STARTUP ? "STARTUP" : bbr->mode == BBR_MODE_DRAIN ? "DRAIN" :
		       bbr->mode == BBR_MODE_PROBE_BW ? "PROBE_BW" : "PROBE_RTT", bbr->cycle_idx, bbr->pacing_gain, bbr->cwnd_gain);
	/* bw in packets/us << 24 as packets/s: x * 10^6 >> 24 */
	BPF_SEQ_PRINTF(seq, " bw_pps=%llu max_bw_pps=%llu bbr_min_rtt_us=%u rtt_cnt=%u",
		       ((u64)bw * USEC_PER_SEC) >> BBR_BW_SCALE,
		       ((u64)bbr->bw.s[0].v * USEC_PER_SEC) >> BBR_BW_SCALE, bbr->min_rtt_us,
		       bbr->rtt_cnt);
	BPF_SEQ_PRINTF(seq, " full_bw_reached=%u full_bw_cnt=%u prior_cwnd=%u extra_acked_pkts=%u",
		       bbr->full_bw_reached, bbr->full_bw_cnt, bbr->prior_cwnd,
		       max(bbr->extra_acked[0], bbr->extra_acked[1]));
	BPF_SEQ_PRINTF(seq, " lt_use_bw=%u lt_bw_pps=%llu lt_rtt_cnt=%u packet_conservation=%u idle_restart=%u",
		       bbr->lt_use_bw, ((u64)bbr->lt_bw * USEC_PER_SEC) >> BBR_BW_SCALE,
		       bbr->lt_rtt_cnt, bbr->packet_conservation, bbr->idle_restart);
}

TCPCA_SOCKETS(struct bbr_ca, bbr_print_state);
