// SPDX-License-Identifier: GPL-2.0
/*
 * HighSpeed TCP: Reno up to 38 segments; above, the increase a(w) grows and
 * the decrease b(w) shrinks with the window, by RFC 3649's table.
 *
 * S. Floyd, RFC 3649, 2003.
 * Follows net/ipv4/tcp_highspeed.c.  Table and arithmetic: include/highspeed.h.
 *
 * Departures from the module:
 *  - init sets snd_cwnd_clamp by bpf_setsockopt: BPF cannot store to it.
 *  - The cap is the tunable cwnd_max (the module's 2^32/128); --set reaches
 *    live sockets.
 *  - The row: a bounded, masked binary search, which 6.1's verifier accepts.
 *  - loss_cwnd and loss_md are kept for the iterator.
 *  - set_state only counts timeouts; the module has none.
 *
 * Departures in full, and the evidence: docs/algorithms.md, "HighSpeed TCP".
 */
#include "tcpca.bpf.h"
#include "tcpca_kernel.bpf.h"
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

/* The cap of cwnd_max, whatever --set wrote. */
static __always_inline u32 hstcp_cwnd_max(void)
{
	return params.cwnd_max >= 2 ? params.cwnd_max : HSTCP_CWND_MAX_DEFAULT;
}

void TCPCA_OPS(hstcp_init, struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct hstcp_ca *ca = inet_csk_ca(sk);

	ca->ai = 0;
	ca->loss_cwnd = 0;
	ca->loss_md = 0;

	/* Ensure the MD arithmetic works, as the module does (never raises it). */
	tcpca_set_cwnd_clamp(sk, min(tp->snd_cwnd_clamp, hstcp_cwnd_max()));
}

void TCPCA_OPS(hstcp_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct hstcp_ca *ca = inet_csk_ca(sk);
	u32 clamp = min(tp->snd_cwnd_clamp, hstcp_cwnd_max());
	u32 cwnd, cnt;

	if (!tcp_is_cwnd_limited(sk))
		return;

	/*
	 * Keep clang from reusing the field offsets computed above as
	 * variable offsets into tp, which the verifier refuses.
	 */
	barrier_var(tp);
	cwnd = tp->snd_cwnd;
	if (tcp_in_slow_start(tp)) {
		/* held at the cap, never cut below where it was */
		tcpca_slow_start(tp, acked);
		tp->snd_cwnd = tcpca_cap_cwnd(tp->snd_cwnd, max(cwnd, clamp));
		return;
	}

	/* Keep vals[ai - 1].cwnd < cwnd <= vals[ai].cwnd (or the last row). */
	ca->ai = hstcp_find_ai(cwnd, ca->ai);

	/* cwnd += a(w) / cwnd per ACK, below the clamp only */
	if (cwnd < clamp) {
		cnt = tp->snd_cwnd_cnt;
		tp->snd_cwnd = hstcp_calc_ai(cwnd, &cnt, ca->ai);
		tp->snd_cwnd_cnt = cnt;
	}
}

/* Multiplicative decrease by b(w) of the current row. */
u32 TCPCA_OPS(hstcp_ssthresh, struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct hstcp_ca *ca = inet_csk_ca(sk);

	TCPCA_COUNT(losses);
	ca->loss_cwnd = tp->snd_cwnd;
	ca->loss_md = hstcp_md(ca->ai);
	return hstcp_calc_ssthresh(tp->snd_cwnd, ca->ai);
}

void TCPCA_OPS(hstcp_set_state, struct sock *sk, u8 new_state)
{
	tcpca_count_state(new_state);
}

u32 TCPCA_OPS(hstcp_undo_cwnd, struct sock *sk)
{
	return tcpca_reno_undo_cwnd(sk);
}

SEC(TCPCA_OPS_SEC)
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
	BPF_SEQ_PRINTF(seq, " ai=%u a_pkts_per_rtt=%u b_x256=%u row_max_cwnd_pkts=%u",
		       ca->ai, hstcp_ai_inc(ca->ai), hstcp_md(ca->ai), hstcp_row(ca->ai)->cwnd);
	BPF_SEQ_PRINTF(seq, " loss_cwnd_pkts=%u loss_b_x256=%u", ca->loss_cwnd, ca->loss_md);
}

TCPCA_SOCKETS(struct hstcp_ca, hstcp_print_state);
