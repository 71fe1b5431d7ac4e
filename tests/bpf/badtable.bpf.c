// SPDX-License-Identifier: GPL-2.0
/*
 * An object whose table of tunables (.rodata.tcpca_params, written here by
 * hand instead of by TCPCA_PARAMS) lists two tunables where its
 * .data.params holds one: tests/loader-object.t checks that the loader
 * refuses it in one line and loads nothing, rather than misread its values.
 * Otherwise untabled.bpf.c's Reno.
 */
#include "tcpca.bpf.h"
#include "tcpca_params.h"

char _license[] SEC("license") = "GPL";

struct badtable_params {
	__u32 beta;
};
struct badtable_params params SEC(".data.params") = { .beta = 512 };

const struct {
	struct tcpca_tunables_head head;
	struct tcpca_tunable row[2];
} tcpca_tunables SEC(TCPCA_TUNABLES_SEC) = {
	TCPCA_TUNABLES_HEAD(2),
	{
		{ .def = 512, .min = 1, .max = 1023, .name = "beta", .unit = "1/1024",
		  .doc = "the share of cwnd kept at a loss" },
		{ .def = 0, .min = 0, .max = 1, .name = "extra", .unit = "bool",
		  .doc = "a row that .data.params has no field for" },
	},
};

void TCPCA_OPS(badtable_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (tp->snd_cwnd < tp->snd_cwnd_clamp)
		tp->snd_cwnd++;
}

u32 TCPCA_OPS(badtable_ssthresh, struct sock *sk)
{
	u32 kept = (u32)(((u64)tcp_sk(sk)->snd_cwnd * params.beta) >> 10);

	return kept > 2 ? kept : 2;
}

u32 TCPCA_OPS(badtable_undo_cwnd, struct sock *sk)
{
	return tcp_sk(sk)->snd_cwnd;
}

SEC(TCPCA_OPS_SEC)
struct tcp_congestion_ops badtable = {
	.cong_avoid	= (void *)badtable_cong_avoid,
	.ssthresh	= (void *)badtable_ssthresh,
	.undo_cwnd	= (void *)badtable_undo_cwnd,
	.name		= "tcpca_badtable",
};
