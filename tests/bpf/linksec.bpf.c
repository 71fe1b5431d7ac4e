// SPDX-License-Identifier: GPL-2.0
/*
 * A congestion control whose ops table sits in ".struct_ops.link", libbpf
 * 1.2's section for a struct_ops map registered by link, whatever libbpf
 * builds it.  tests/loader-errors.t: a tcpca-load built with libbpf 1.2 or
 * later registers it; one built with 1.1 says in one line that its libbpf
 * predates the section.  Reno's halving and a window that grows by one per
 * ACK, without kernel functions: it must load on any kernel with BPF
 * congestion control.
 */
#include "tcpca.bpf.h"

char _license[] SEC("license") = "GPL";

void TCPCA_OPS(linksec_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (tp->snd_cwnd < tp->snd_cwnd_clamp)
		tp->snd_cwnd++;
}

u32 TCPCA_OPS(linksec_ssthresh, struct sock *sk)
{
	u32 half = tcp_sk(sk)->snd_cwnd >> 1;

	return half > 2 ? half : 2;
}

u32 TCPCA_OPS(linksec_undo_cwnd, struct sock *sk)
{
	return tcp_sk(sk)->snd_cwnd;
}

SEC(".struct_ops.link")
struct tcp_congestion_ops linksec = {
	.cong_avoid	= (void *)linksec_cong_avoid,
	.ssthresh	= (void *)linksec_ssthresh,
	.undo_cwnd	= (void *)linksec_undo_cwnd,
	.name		= "tcpca_linksec",
};
