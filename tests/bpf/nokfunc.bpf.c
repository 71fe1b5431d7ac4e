// SPDX-License-Identifier: GPL-2.0
/*
 * A congestion control that needs a kernel function no kernel has: stands for
 * a program that needs a kfunc of a newer kernel.  It fails before the
 * verifier sees it, and tests/loader-errors.t checks that tcpca-load says what
 * is missing instead of blaming the verifier.
 */
#include "tcpca.bpf.h"

char _license[] SEC("license") = "GPL";

extern void tcpca_no_such_kfunc(struct sock *sk) __ksym;

void TCPCA_OPS(nokfunc_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	tcpca_no_such_kfunc(sk);
}

u32 TCPCA_OPS(nokfunc_ssthresh, struct sock *sk)
{
	return 2;
}

u32 TCPCA_OPS(nokfunc_undo_cwnd, struct sock *sk)
{
	return tcp_sk(sk)->snd_cwnd;
}

SEC(".struct_ops")
struct tcp_congestion_ops nokfunc = {
	.cong_avoid	= (void *)nokfunc_cong_avoid,
	.ssthresh	= (void *)nokfunc_ssthresh,
	.undo_cwnd	= (void *)nokfunc_undo_cwnd,
	.name		= "tcpca_nokfunc",
};
