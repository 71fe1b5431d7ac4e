/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An IPv6 address as text, as inet_ntop() and so ss(8) write it (RFC 5952:
 * lower-case hex without leading zeros, the longest run of two or more zero
 * groups as "::", the first of equal runs; ::ffff:a.b.c.d for an IPv4-mapped
 * one).  bpf_seq_printf() has no such conversion (%pI6c prints every group
 * with its leading zeros), so the sockets iterator writes the text a piece
 * at a time, each group with %x.  The includer says where the pieces go:
 * TCPCA_IP6_OUT is the sink's type, TCPCA_IP6_PUT(out, fmt, ...) writes one
 * (BPF_SEQ_PRINTF in the iterator; in the unit test, which holds this
 * against inet_ntop(), an snprintf into a buffer).  No write position
 * depends on the address: the verifier's paths are the zero runs' places,
 * not every digit's (a text built in a buffer made each load verify for
 * half a second).
 */
#ifndef TCPCA_IP6_H
#define TCPCA_IP6_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* in BPF, every index into the address a constant, as the verifier wants */
#ifdef __bpf__
#define TCPCA_IP6_UNROLL	_Pragma("unroll")
#else
#define TCPCA_IP6_UNROLL
#endif

#define TCPCA_IP6_GROUP(a, i)	((__u32)(a)[2 * (i)] << 8 | (a)[2 * (i) + 1])

/*
 * Like the C library, ::ffff:0:0/96 and an address of 96 zero bits then a
 * non-zero seventh group (::a.b.c.d, the old IPv4-compatible form) end in
 * dotted IPv4.
 */
static inline __attribute__((always_inline)) void tcpca_ip6_write(TCPCA_IP6_OUT out, const __u8 *a)
{
	int best = -1, best_len = 1, run = 0, i;
	int v4;

	TCPCA_IP6_UNROLL
	for (i = 0; i < 8; i++) {
		run = TCPCA_IP6_GROUP(a, i) ? 0 : run + 1;
		if (run > best_len) {
			best_len = run;
			best = i - run + 1;
		}
	}
	v4 = best == 0 && (best_len == 6 || (best_len == 5 && TCPCA_IP6_GROUP(a, 5) == 0xffff));
	TCPCA_IP6_UNROLL
	for (i = 0; i < 8; i++) {
		if (best >= 0 && i >= best && i < best + best_len) {
			if (i == best && best + best_len == 8)
				TCPCA_IP6_PUT(out, "::");
			else if (i == best)
				TCPCA_IP6_PUT(out, ":");
			continue;
		}
		if (i > 0)
			TCPCA_IP6_PUT(out, ":");
		if (v4 && i == 6) {
			TCPCA_IP6_PUT(out, "%u.%u.%u.%u", a[12], a[13], a[14], a[15]);
			break;
		}
		TCPCA_IP6_PUT(out, "%x", TCPCA_IP6_GROUP(a, i));
	}
}

#endif /* TCPCA_IP6_H */
