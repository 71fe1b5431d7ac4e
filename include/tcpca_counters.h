/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-algorithm event counters, shared by BPF and user space: only what the
 * kernel does not count itself.  How often each hook ran is the kernel's
 * run_cnt of its program (tcpca-load --show reads it, while BPF statistics
 * are on), so no hook counts its own calls: the ACK path touches no map for
 * this, and these are incremented on rare paths only (a loss, an undo, a
 * state change, a clamp).  One per-CPU value, so no locks or atomics;
 * readers sum the CPUs (tcpca-load --show, or bpftool map dump pinned
 * <pin>/counters).  Field names are read from BTF by the loader: add a
 * field, it shows up.  None is named as a hook is, so --show's rows stay
 * unique.
 */
#ifndef TCPCA_COUNTERS_H
#define TCPCA_COUNTERS_H

struct tcpca_counters {
	__u64 losses;		/* ssthresh asked for: loss, ECN or RTO events */
	__u64 undos;		/* spurious-loss undos (undo_cwnd) */
	__u64 state_changes;	/* set_state calls: entries to a CA state */
	__u64 rto;		/* set_state(TCP_CA_Loss): retransmission timeouts */
	__u64 cwnd_clamps;	/* times the algorithm cut cwnd to its clamp itself */
	__u64 clamp_set;	/* sockets whose snd_cwnd_clamp was set as the module sets it */
	__u64 clamp_set_failed;	/* ... where bpf_setsockopt refused it (min() only) */
};

#endif
