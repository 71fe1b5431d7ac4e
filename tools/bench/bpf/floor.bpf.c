// SPDX-License-Identifier: GPL-2.0
/*
 * The baselines of the benchmark's hook-cost scenario.  Built twice:
 *
 *  - floor.bpf.o: each required hook does nothing but call the kernel's own
 *    Reno through its kfunc, so cong_avoid's run time is what a hook costs
 *    before it does work of its own (the trampoline, the call, the kernel's
 *    Reno, the accounting of the BPF statistics), and, being the only hook
 *    an ACK meets, it also pays for bringing its code and data into cache;
 *  - empty.bpf.o (-DTCPCA_EMPTY_HOOK): the same, with an in_ack_event that
 *    returns at once, which the kernel calls just before cong_avoid: its run
 *    time is entering a hook plus the accounting, and cong_avoid's, right
 *    after it, is the floor's with the trampoline's cache already warm;
 *  - tuned.bpf.o (-DTCPCA_TUNED_HOOK): the floor's cong_avoid reading a
 *    tunable, as the per-ACK hooks of the algorithms with tunables do: a map
 *    value the ACK touches for the first time.  No hook in bpf/ counts its
 *    own calls (the kernel's run_cnt does), so no baseline counts either.
 *
 * floor and empty keep no state and read no tunable.
 */
#include "tcpca.bpf.h"

#ifdef TCPCA_TUNED_HOOK
/* a tunable's place: .data, as TCPCA_PARAMS puts them (not .rodata, which
 * the verifier would fold into the code) */
__u32 floor_acked_max = ~0U;
#define ACKED(acked)	((acked) < floor_acked_max ? (acked) : floor_acked_max)
#else
#define ACKED(acked)	(acked)
#endif

char _license[] SEC("license") = "GPL";

void TCPCA_OPS(floor_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	tcp_reno_cong_avoid(sk, ack, ACKED(acked));
}

#ifdef TCPCA_EMPTY_HOOK
void TCPCA_OPS(floor_in_ack_event, struct sock *sk, u32 flags)
{
}
#endif

u32 TCPCA_OPS(floor_ssthresh, struct sock *sk)
{
	return tcp_reno_ssthresh(sk);
}

u32 TCPCA_OPS(floor_undo_cwnd, struct sock *sk)
{
	return tcp_reno_undo_cwnd(sk);
}

SEC(".struct_ops")
struct tcp_congestion_ops kfunc_floor = {
	.cong_avoid	= (void *)floor_cong_avoid,
#ifdef TCPCA_EMPTY_HOOK
	.in_ack_event	= (void *)floor_in_ack_event,
#endif
	.ssthresh	= (void *)floor_ssthresh,
	.undo_cwnd	= (void *)floor_undo_cwnd,
	.name		= "tcpca_floor",
};
