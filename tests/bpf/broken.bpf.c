// SPDX-License-Identifier: GPL-2.0
/*
 * A congestion control the verifier must refuse: it writes snd_cwnd_clamp,
 * which bpf_tcp_ca.c does not let a BPF CA write.  tests/loader-errors.t
 * checks that tcpca-load reports the rejection and leaves nothing behind.
 */
#include "tcpca.bpf.h"

char _license[] SEC("license") = "GPL";

void TCPCA_OPS(broken_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	tcp_sk(sk)->snd_cwnd_clamp = 4;
}

u32 TCPCA_OPS(broken_ssthresh, struct sock *sk)
{
	return 2;
}

u32 TCPCA_OPS(broken_undo_cwnd, struct sock *sk)
{
	return tcp_sk(sk)->snd_cwnd;
}

SEC(".struct_ops")
struct tcp_congestion_ops broken = {
	.cong_avoid	= (void *)broken_cong_avoid,
	.ssthresh	= (void *)broken_ssthresh,
	.undo_cwnd	= (void *)broken_undo_cwnd,
	.name		= "tcpca_broken",
};
