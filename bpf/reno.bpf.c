// SPDX-License-Identifier: GPL-2.0
/*
 * TCP Reno (RFC 5681) as a BPF program: slow start, additive increase of one
 * segment per RTT, halve on loss.  It behaves as the kernel's built-in "reno"
 * and registers as "bpf_reno" beside it, so the two can be measured side by
 * side: the difference is what running congestion control in BPF costs.
 *
 * Follows net/ipv4/tcp_cong.c's tcp_reno_*().  No departures but those
 * common to every algorithm: docs/algorithms.md, the top and "Reno".
 *
 * It is also the template for every other algorithm in bpf/: state struct,
 * hooks in the order a connection meets them, ops table last.
 */
#include "tcpca.bpf.h"
#include "tcpca_kernel.bpf.h"
#include "tcpca_params.h"

char _license[] SEC("license") = "GPL";

/* No tunables, and said so: the loader then knows there are none to offer. */
TCPCA_NO_PARAMS;

/* Reno keeps no state of its own. */
struct reno_state {
};
TCPCA_STATE_FITS(struct reno_state);

/*
 * Reno needs no init (the kernel's has none).  This one does nothing but
 * run, once per connection, so that its run_cnt counts the sockets that
 * start on bpf_reno, as every other algorithm's init does (tcpca-load
 * --show, tests/functional.t).
 */
void TCPCA_OPS(reno_init, struct sock *sk)
{
}

/* Called on every ACK that advances snd_una, with the segments it acked. */
void TCPCA_OPS(reno_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (!tcpca_slow_start_first(sk, &acked))
		return;
	tcpca_cong_avoid_ai(tp, tp->snd_cwnd, acked);
}

/* Event record kinds (tcpca-load --events). */
enum { RENO_EV_LOSS = 1 };	/* v0 = cwnd at the loss, v1 = new ssthresh */

/*
 * Multiplicative decrease: half the window, never below two segments.  The
 * arithmetic is spelled out here and in undo, where the other programs call
 * the kernel's (tcpca_reno_ssthresh()): bpf_reno is what a whole algorithm
 * in BPF costs, against the kfunc-only floor of make bench's hookcost.
 */
u32 TCPCA_OPS(reno_ssthresh, struct sock *sk)
{
	u32 cwnd = tcp_sk(sk)->snd_cwnd, ssthresh = max(cwnd >> 1U, 2U);

	TCPCA_COUNT(losses);
	tcpca_event(sk, RENO_EV_LOSS, cwnd, ssthresh, 0, 0);
	return ssthresh;
}

/* A loss that ends in a timeout is worth counting apart. */
void TCPCA_OPS(reno_set_state, struct sock *sk, u8 new_state)
{
	tcpca_count_state(new_state);
}

u32 TCPCA_OPS(reno_undo_cwnd, struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	TCPCA_COUNT(undos);
	return max(tp->snd_cwnd, tp->prior_cwnd);
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops reno = {
	.init		= (void *)reno_init,
	.cong_avoid	= (void *)reno_cong_avoid,
	.ssthresh	= (void *)reno_ssthresh,
	.set_state	= (void *)reno_set_state,
	.undo_cwnd	= (void *)reno_undo_cwnd,
	.name		= "bpf_reno",
};

static __always_inline void reno_print_state(struct seq_file *seq, const struct reno_state *ca)
{
}

TCPCA_SOCKETS(struct reno_state, reno_print_state);
