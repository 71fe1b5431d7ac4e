// SPDX-License-Identifier: GPL-2.0
/*
 * An object that predates the tunables convention: its values sit in
 * ".data.params" as every tcpca algorithm's do, but it carries no table
 * describing them (.rodata.tcpca_params, include/tcpca_params.h).
 * tests/loader-object.t: it loads as before, with a one-line note that it
 * does so without parameters, and refuses PARAM=VALUE in one line.  Reno's
 * halving and growth by one per ACK, without kernel functions, so that it
 * loads on any kernel with BPF congestion control.
 */
#include "tcpca.bpf.h"

char _license[] SEC("license") = "GPL";

struct untabled_params {
	__u32 min_cwnd;
};
struct untabled_params params SEC(".data.params") = { .min_cwnd = 2 };

void TCPCA_OPS(untabled_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (tp->snd_cwnd < tp->snd_cwnd_clamp)
		tp->snd_cwnd++;
}

u32 TCPCA_OPS(untabled_ssthresh, struct sock *sk)
{
	u32 half = tcp_sk(sk)->snd_cwnd >> 1;

	return half > params.min_cwnd ? half : params.min_cwnd;
}

u32 TCPCA_OPS(untabled_undo_cwnd, struct sock *sk)
{
	return tcp_sk(sk)->snd_cwnd;
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops untabled = {
	.cong_avoid	= (void *)untabled_cong_avoid,
	.ssthresh	= (void *)untabled_ssthresh,
	.undo_cwnd	= (void *)untabled_undo_cwnd,
	.name		= "tcpca_untabled",
};
