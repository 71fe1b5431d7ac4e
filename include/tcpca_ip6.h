/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An IPv6 address as text, as inet_ntop() and so ss(8) write it (RFC 5952:
 * lower-case hex without leading zeros, the longest run of two or more zero
 * groups as "::", the first of equal runs; ::ffff:a.b.c.d for an IPv4-mapped
 * one).  bpf_seq_printf() has no such conversion (%pI6c prints every group
 * in full), so the sockets iterator writes the text itself (inlined: a BPF
 * subprogram may not hand back its caller's stack); the host's unit
 * test holds it against inet_ntop().  Loops have constant bounds and every
 * index is masked into the buffer, as the verifier needs.
 */
#ifndef TCPCA_IP6_H
#define TCPCA_IP6_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif


#define TCPCA_IP6_STR	64	/* a power of two above the 46 bytes of the longest text */
#define TCPCA_IP6_MASK	(TCPCA_IP6_STR - 1)

static inline __attribute__((always_inline)) unsigned int tcpca_put_hex(char *out, unsigned int n, __u32 group)
{
	int shift, started = 0;

	for (shift = 12; shift >= 0; shift -= 4) {
		__u32 digit = (group >> shift) & 0xf;

		if (digit || started || shift == 0) {
			out[n++ & TCPCA_IP6_MASK] = digit < 10 ? '0' + digit : 'a' + digit - 10;
			started = 1;
		}
	}
	return n;
}

static inline __attribute__((always_inline)) unsigned int tcpca_put_dec(char *out, unsigned int n, __u32 byte)
{
	if (byte >= 100)
		out[n++ & TCPCA_IP6_MASK] = '0' + byte / 100;
	if (byte >= 10)
		out[n++ & TCPCA_IP6_MASK] = '0' + byte / 10 % 10;
	out[n++ & TCPCA_IP6_MASK] = '0' + byte % 10;
	return n;
}

/*
 * out: TCPCA_IP6_STR bytes, NUL-terminated text on return.  Like the C
 * library, ::ffff:0:0/96 and an address of 96 zero bits then a non-zero
 * seventh group (::a.b.c.d, the old IPv4-compatible form) end in dotted IPv4.
 */
static inline __attribute__((always_inline)) void tcpca_ip6_format(char *out, const __u8 *a)
{
	int best = -1, best_len = 1, run = 0, i;
	unsigned int n = 0;
	int v4;

	for (i = 0; i < 8; i++) {
		run = a[2 * i] || a[2 * i + 1] ? 0 : run + 1;
		if (run > best_len) {
			best_len = run;
			best = i - run + 1;
		}
	}
	v4 = best == 0 && (best_len == 6 || (best_len == 5 && a[10] == 0xff && a[11] == 0xff));
	for (i = 0; i < 8; i++) {
		if (best >= 0 && i >= best && i < best + best_len) {
			if (i == best)
				out[n++ & TCPCA_IP6_MASK] = ':';
			if (i == best + best_len - 1 && i == 7)
				out[n++ & TCPCA_IP6_MASK] = ':';
			continue;
		}
		if (i > 0)
			out[n++ & TCPCA_IP6_MASK] = ':';
		if (v4 && i == 6) {
			n = tcpca_put_dec(out, n, a[12]);
			out[n++ & TCPCA_IP6_MASK] = '.';
			n = tcpca_put_dec(out, n, a[13]);
			out[n++ & TCPCA_IP6_MASK] = '.';
			n = tcpca_put_dec(out, n, a[14]);
			out[n++ & TCPCA_IP6_MASK] = '.';
			n = tcpca_put_dec(out, n, a[15]);
			break;
		}
		n = tcpca_put_hex(out, n, (__u32)a[2 * i] << 8 | a[2 * i + 1]);
	}
	out[n & TCPCA_IP6_MASK] = 0;
}

#endif /* TCPCA_IP6_H */
