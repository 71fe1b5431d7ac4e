// SPDX-License-Identifier: GPL-2.0
/*
 * HighSpeed TCP (Sally Floyd, RFC 3649) as a BPF program.
 *
 * Follows Linux's net/ipv4/tcp_highspeed.c.  Reno up to 38 segments; above,
 * the increase a(w) grows and the decrease b(w) shrinks with the window, from
 * (1, 0.5) at 38 to (72, 0.1) near 83000 segments, so that a flow can hold a
 * window of w segments at a loss rate of about (0.12 / w)^(1/0.835) instead
 * of Reno's (1.2 / w)^2.  The table of (window, b(w)) rows, where it comes
 * from, and the per-ACK arithmetic are in include/highspeed.h and checked row
 * by row by tests/unit/test_highspeed.c.
 *
 * Where this BPF version departs from the kernel module, and why:
 *  - snd_cwnd_clamp is not writable from BPF.  The module lowers it at init
 *    to 2^32/128 so that cwnd * md cannot overflow; here the product is
 *    computed in 64 bits, and the cap is the tunable cwnd_max (same
 *    default) applied with min(): no additive increase at or above
 *    min(snd_cwnd_clamp, cwnd_max), and a slow start that overshoots it is
 *    cut back to it.  Each cut counts in TCPCA_COUNT(cwnd_clamps).
 *  - The row search keeps the socket's row while cwnd stays in it and
 *    otherwise does a seven-step binary search with explicit index checks
 *    (the module walks row by row in two unbounded while loops, which the
 *    verifier would have to explore path by path); it finds the same row.
 *  - The state also records the window and the b(w) of the last loss
 *    (loss_cwnd, loss_md) so that the iterator shows the decrease applied;
 *    the module keeps only ai.
 *  - A set_state hook exists only to count timeouts; the module has none.
 *  - As in the module: the increase is per ACK (a(w) per cwnd ACKs, not per
 *    cwnd segments acked), slow start is the kernel's, the row used by
 *    ssthresh() is the one of the last congestion-avoidance ACK (so a loss
 *    in slow start, or one detected before the first cwnd-limited ACK after
 *    it, still halves), and undo is Reno's max(cwnd, prior_cwnd).
 */
#include "tcpca.bpf.h"
#include "tcpca_observe.bpf.h"
#include "tcpca_params.h"
#include "highspeed.h"

char _license[] SEC("license") = "GPL";

TCPCA_PARAMS(highspeed_params, HIGHSPEED_PARAMS);

struct hstcp_ca {
	u32 ai;			/* row of hstcp_aimd_vals[]: a(w) = ai + 1 segments per RTT */
	u32 loss_cwnd;		/* cwnd at the last ssthresh() call, packets; 0 = none yet */
	u32 loss_md;		/* b(w) applied at that loss, 1/256 */
};
TCPCA_STATE_FITS(struct hstcp_ca);

void TCPCA_OPS(hstcp_init, struct sock *sk)
{
	struct hstcp_ca *ca = inet_csk_ca(sk);

	TCPCA_COUNT(init);
	ca->ai = 0;
	ca->loss_cwnd = 0;
	ca->loss_md = 0;
}

/* The emulated snd_cwnd_clamp: the smaller of the socket's and cwnd_max. */
static __always_inline u32 hstcp_clamp(const struct tcp_sock *tp)
{
	u32 cap = params.cwnd_max >= 2 ? params.cwnd_max : HSTCP_CWND_MAX_DEFAULT;

	return min(tp->snd_cwnd_clamp, cap);
}

void TCPCA_OPS(hstcp_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct hstcp_ca *ca = inet_csk_ca(sk);
	u32 clamp = hstcp_clamp(tp);
	u32 cwnd, cnt;

	TCPCA_COUNT(cong_avoid);
	if (!tcp_is_cwnd_limited(sk))
		return;

	/*
	 * Keep clang from reusing the field offsets computed above as
	 * variable offsets into tp, which the verifier refuses.
	 */
	barrier_var(tp);
	if (tcp_in_slow_start(tp)) {
		tcp_slow_start(tp, acked);
		tp->snd_cwnd = tcpca_cap_cwnd(tp->snd_cwnd, clamp);
		return;
	}

	/* Keep vals[ai - 1].cwnd < cwnd <= vals[ai].cwnd (or the last row). */
	cwnd = tp->snd_cwnd;
	ca->ai = hstcp_find_ai(cwnd, ca->ai);

	/* cwnd += a(w) / cwnd per ACK */
	if (cwnd < clamp) {
		cnt = tp->snd_cwnd_cnt;
		tp->snd_cwnd = hstcp_calc_ai(cwnd, &cnt, ca->ai);
		tp->snd_cwnd_cnt = cnt;
	} else {
		tp->snd_cwnd = tcpca_cap_cwnd(cwnd, clamp);
	}
}

/* Multiplicative decrease by b(w) of the current row. */
u32 TCPCA_OPS(hstcp_ssthresh, struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct hstcp_ca *ca = inet_csk_ca(sk);

	TCPCA_COUNT(ssthresh);
	ca->loss_cwnd = tp->snd_cwnd;
	ca->loss_md = hstcp_md(ca->ai);
	return hstcp_calc_ssthresh(tp->snd_cwnd, ca->ai);
}

void TCPCA_OPS(hstcp_set_state, struct sock *sk, u8 new_state)
{
	TCPCA_COUNT(set_state);
	if (new_state == TCP_CA_Loss)
		TCPCA_COUNT(rto);
}

u32 TCPCA_OPS(hstcp_undo_cwnd, struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	TCPCA_COUNT(undo_cwnd);
	return max(tp->snd_cwnd, tp->prior_cwnd);
}

SEC(".struct_ops")
struct tcp_congestion_ops highspeed = {
	.init		= (void *)hstcp_init,
	.cong_avoid	= (void *)hstcp_cong_avoid,
	.ssthresh	= (void *)hstcp_ssthresh,
	.set_state	= (void *)hstcp_set_state,
	.undo_cwnd	= (void *)hstcp_undo_cwnd,
	.name		= "highspeed",
};

static __always_inline void hstcp_print_state(struct seq_file *seq, const struct hstcp_ca *ca)
{
	u32 ai = ca->ai < HSTCP_AIMD_ROWS ? ca->ai : HSTCP_AIMD_ROWS - 1;

	BPF_SEQ_PRINTF(seq, " ai=%u a_pkts_per_rtt=%u b_x256=%u row_max_cwnd_pkts=%u",
		       ca->ai, hstcp_ai_inc(ai), hstcp_md(ai), hstcp_aimd_vals[ai].cwnd);
	BPF_SEQ_PRINTF(seq, " loss_cwnd_pkts=%u loss_b_x256=%u", ca->loss_cwnd, ca->loss_md);
}

TCPCA_SOCKETS(struct hstcp_ca, hstcp_print_state);
