/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every tcpca congestion-control program needs: the kernel's types
 * (vmlinux.h), the socket casts and TCP predicates that are static inlines in
 * the kernel (so not visible to BPF), the kfuncs bpf_tcp_ca.c exports, and the
 * constants vmlinux.h lacks because they are #defines.
 */
#ifndef TCPCA_BPF_H
#define TCPCA_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include "tcpca_tcp.h"
#include "tcpca_libbpf.h"	/* TCPCA_OPS_SEC: the ops table's section */

#define TCPCA_OPS(name, args...) SEC("struct_ops/" #name) BPF_PROG(name, ##args)

/* include/net/tcp.h */
#define TCP_INFINITE_SSTHRESH	0x7fffffff
#define TCP_CONG_NON_RESTRICTED	0x1
#define TCP_INIT_CWND		10
#define TCP_CA_PRIV_SIZE	(13 * sizeof(u64))	/* icsk_ca_priv[] */
#define USEC_PER_MSEC		1000U
#define USEC_PER_SEC		1000000UL
#define NSEC_PER_USEC		1000UL
#define BITS_PER_LONG		64

/* The state of every algorithm lives in icsk_ca_priv; prove it fits. */
#define TCPCA_STATE_FITS(type) \
	_Static_assert(sizeof(type) <= TCP_CA_PRIV_SIZE, #type " exceeds icsk_ca_priv")

static __always_inline struct tcp_sock *tcp_sk(const struct sock *sk)
{
	return (struct tcp_sock *)sk;
}

static __always_inline struct inet_connection_sock *inet_csk(const struct sock *sk)
{
	return (struct inet_connection_sock *)sk;
}

static __always_inline void *inet_csk_ca(const struct sock *sk)
{
	return (void *)inet_csk(sk)->icsk_ca_priv;
}

static __always_inline bool tcp_in_slow_start(const struct tcp_sock *tp)
{
	return tp->snd_cwnd < tp->snd_ssthresh;
}

/*
 * include/net/tcp.h's tcp_is_cwnd_limited() as of 5.18 (and so 6.1): true if
 * the stack marked the flow cwnd-limited, else, in slow start only, while
 * cwnd < 2 * max_packets_out.  The rule itself is tcpca_cwnd_limited()
 * (tcpca_tcp.h, unit-tested); both fields exist in every kernel we load on
 * (5.10 to 7.3), so they are read by CO-RE without a fallback.  On 5.10,
 * whose own rule is the older one, tcpca still applies this one.
 */
static __always_inline bool tcp_is_cwnd_limited(const struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	return tcpca_cwnd_limited(BPF_CORE_READ_BITFIELD(tp, is_cwnd_limited),
				  tp->snd_cwnd, tp->snd_ssthresh, tp->max_packets_out);
}

/* include/net/tcp.h's before() and after(): sequence numbers mod 2^32. */
static __always_inline bool before(u32 seq1, u32 seq2)
{
	return (s32)(seq1 - seq2) < 0;
}

static __always_inline bool after(u32 seq1, u32 seq2)
{
	return before(seq2, seq1);
}

#ifndef min
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#endif
#define min_t(t, a, b) min((t)(a), (t)(b))
#define max_t(t, a, b) max((t)(a), (t)(b))

/*
 * Exported by net/ipv4/bpf_tcp_ca.c as kfuncs from 5.13 on.  Algorithms call
 * them through include/tcpca_kernel.bpf.h, which has a BPF copy of each for
 * older kernels; the hook-cost bench's floor calls them as they are.
 */
extern __u32 tcp_slow_start(struct tcp_sock *tp, __u32 acked) __ksym;
extern void tcp_cong_avoid_ai(struct tcp_sock *tp, __u32 w, __u32 acked) __ksym;
extern __u32 tcp_reno_ssthresh(struct sock *sk) __ksym;
extern void tcp_reno_cong_avoid(struct sock *sk, __u32 ack, __u32 acked) __ksym;
extern __u32 tcp_reno_undo_cwnd(struct sock *sk) __ksym;

#endif /* TCPCA_BPF_H */
