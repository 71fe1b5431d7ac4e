/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-algorithm event counters, shared by BPF and user space.  One per-CPU
 * value, so the ACK path increments without locks or atomics; readers sum the
 * CPUs (tcpca-load --show, or bpftool map dump pinned <pin>/counters).
 * Field names are read from BTF by the loader: add a field, it shows up.
 */
#ifndef TCPCA_COUNTERS_H
#define TCPCA_COUNTERS_H

struct tcpca_counters {
	__u64 init;		/* sockets that started on this CA */
	__u64 cong_avoid;	/* hook calls, one field per hook */
	__u64 pkts_acked;
	__u64 ssthresh;		/* = loss or ECN events: the kernel asks for a new ssthresh */
	__u64 set_state;
	__u64 cwnd_event;
	__u64 in_ack_event;
	__u64 undo_cwnd;	/* = spurious-loss undos */
	__u64 rto;		/* set_state(TCP_CA_Loss): retransmission timeouts */
	__u64 cwnd_clamps;	/* times the algorithm cut cwnd to its clamp itself */
	__u64 clamp_set;	/* sockets whose snd_cwnd_clamp was set as the module sets it */
	__u64 clamp_set_failed;	/* ... where bpf_setsockopt refused it (min() only) */
	__u64 cong_control;	/* hook calls, of an algorithm that has it instead of cong_avoid */
};

#endif
