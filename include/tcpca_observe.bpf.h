/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What makes a BPF algorithm inspectable, since get_info() is refused for
 * BPF: counters of rare events (tcpca_counters.h: never of hook calls, which
 * the kernel counts, where a map lookup on every ACK would cost about what
 * the hook does), the events ring, and a per-socket iterator that the
 * loader pins as <pin dir>/<name>/sockets.  Nothing here changes a window;
 * that is tcpca_kernel.bpf.h's.  In an algorithm:
 *
 *	TCPCA_COUNT(losses);				   in ssthresh
 *	tcpca_count_state(new_state);			   in set_state
 *	tcpca_event(sk, 1, diff, target, 0, 0);		   once per RTT at most
 *	TCPCA_SOCKETS(struct vegas, vegas_print_state);    after the ops table
 *
 * where vegas_print_state(seq, ca) BPF_SEQ_PRINTFs the state with units.
 */
#ifndef TCPCA_OBSERVE_BPF_H
#define TCPCA_OBSERVE_BPF_H

#include "tcpca.bpf.h"
#include "tcpca_counters.h"
#include "tcpca_events.h"
#define TCPCA_IP6_OUT			struct seq_file *
#define TCPCA_IP6_PUT(seq, fmt, args...)	BPF_SEQ_PRINTF(seq, fmt, ##args)
#include "tcpca_ip6.h"

#define AF_INET		2
#define AF_INET6	10

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct tcpca_counters);
} counters SEC(".maps");

#define TCPCA_COUNT(field)						\
	do {								\
		u32 __zero = 0;						\
		struct tcpca_counters *__c;				\
									\
		__c = bpf_map_lookup_elem(&counters, &__zero);		\
		if (__c)						\
			__c->field++;					\
	} while (0)

static __always_inline void tcpca_count_state(u8 new_state)
{
	TCPCA_COUNT(state_changes);
	if (new_state == TCP_CA_Loss)
		TCPCA_COUNT(rto);
}

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

static __always_inline void tcpca_event(const struct sock *sk, u32 kind,
					u32 v0, u32 v1, u32 v2, u32 v3)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct tcpca_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e)
		return;
	e->time_ns = bpf_ktime_get_ns();
	e->family = sk->__sk_common.skc_family;
	if (e->family == AF_INET6) {
		__builtin_memcpy(e->saddr, &sk->__sk_common.skc_v6_rcv_saddr, 16);
		__builtin_memcpy(e->daddr, &sk->__sk_common.skc_v6_daddr, 16);
	} else {
		__builtin_memcpy(e->saddr, &sk->__sk_common.skc_rcv_saddr, 4);
		__builtin_memcpy(e->daddr, &sk->__sk_common.skc_daddr, 4);
	}
	e->sport = sk->__sk_common.skc_num;
	e->dport = bpf_ntohs(sk->__sk_common.skc_dport);
	e->cwnd = tp->snd_cwnd;
	e->ssthresh = tp->snd_ssthresh;
	e->srtt_us = tp->srtt_us >> 3;
	e->kind = kind;
	e->v[0] = v0;
	e->v[1] = v1;
	e->v[2] = v2;
	e->v[3] = v3;
	bpf_ringbuf_submit(e, 0);
}

/* The name this copy was registered under; the loader writes it before load. */
const volatile char tcpca_ca_name[16] = {};

static __always_inline bool tcpca_runs_here(const struct tcp_sock *tp)
{
	const struct tcp_congestion_ops *ops = tp->inet_conn.icsk_ca_ops;
	char name[16];
	int i;

	if (!ops || bpf_probe_read_kernel(name, sizeof(name), ops->name))
		return false;
#pragma unroll
	for (i = 0; i < 16; i++) {
		if (name[i] != tcpca_ca_name[i])
			return false;
		if (!name[i])
			break;
	}
	return true;
}

/* "local peer cwnd=.. ssthresh=.. srtt_us=.. ca_state=.." then the algorithm's own fields */
static __always_inline void tcpca_print_socket(struct seq_file *seq, const struct tcp_sock *tp)
{
	const struct sock_common *skc = &tp->inet_conn.icsk_inet.sk.__sk_common;
	u16 dport = bpf_ntohs(skc->skc_dport), lport = skc->skc_num;
	u32 ca_state = BPF_CORE_READ_BITFIELD(&tp->inet_conn, icsk_ca_state);
	__u8 addr[16];

	if (skc->skc_family == AF_INET6) {	/* as ss writes it, which %pI6c does not */
		__builtin_memcpy(addr, &skc->skc_v6_rcv_saddr, 16);
		BPF_SEQ_PRINTF(seq, "[");
		tcpca_ip6_write(seq, addr);
		__builtin_memcpy(addr, &skc->skc_v6_daddr, 16);
		BPF_SEQ_PRINTF(seq, "]:%u [", lport);
		tcpca_ip6_write(seq, addr);
		BPF_SEQ_PRINTF(seq, "]:%u", dport);
	} else
		BPF_SEQ_PRINTF(seq, "%pI4:%u %pI4:%u", &skc->skc_rcv_saddr, lport,
			       &skc->skc_daddr, dport);
	BPF_SEQ_PRINTF(seq, " ca_state=%u cwnd=%u ssthresh=%u srtt_us=%u min_rtt_us=%u",
		       ca_state, tp->snd_cwnd, tp->snd_ssthresh, tp->srtt_us >> 3,
		       tp->rtt_min.s[0].v);
}

#define TCPCA_SOCKETS(state_type, print_state)				\
SEC("iter/tcp")								\
int sockets(struct bpf_iter__tcp *ctx)					\
{									\
	struct seq_file *seq = ctx->meta->seq;				\
	struct sock_common *skc = ctx->sk_common;			\
	struct tcp_sock *tp;						\
	state_type ca;							\
									\
	if (!skc)							\
		return 0;						\
	tp = bpf_skc_to_tcp_sock(skc);					\
	if (!tp || !tcpca_runs_here(tp))				\
		return 0;						\
	tcpca_print_socket(seq, tp);					\
	if (sizeof(ca) && !bpf_probe_read_kernel(&ca, sizeof(ca), tp->inet_conn.icsk_ca_priv)) \
		print_state(seq, &ca);					\
	BPF_SEQ_PRINTF(seq, "\n");					\
	return 0;							\
}

#endif
