/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decision records an algorithm may emit (e.g. Vegas' per-RTT diff and the
 * adjustment it chose) into its "events" ring buffer, for
 * `tcpca-load --events NAME` to write as CSV.  Emitted at most once per RTT
 * per socket by convention: never per ACK.  When nobody reads, the buffer
 * fills and further records are dropped, which costs almost nothing.
 */
#ifndef TCPCA_EVENTS_H
#define TCPCA_EVENTS_H

struct tcpca_event {
	__u64 time_ns;		/* bpf_ktime_get_ns() */
	__u8 saddr[16];		/* network byte order: IPv6, or IPv4 in the first 4 bytes */
	__u8 daddr[16];
	__u16 family;		/* AF_INET or AF_INET6 */
	__u16 sport, dport;	/* host byte order */
	__u16 pad;
	__u32 cwnd;		/* packets, after the decision */
	__u32 ssthresh;		/* packets */
	__u32 srtt_us;
	__u32 kind;		/* algorithm-defined, documented next to its TCPCA_EVENT() */
	__u32 v[4];		/* algorithm-defined values */
};

#endif
