// SPDX-License-Identifier: GPL-2.0
/*
 * The sockets iterator's IPv6 text (include/tcpca_ip6.h) against the C
 * library's inet_ntop(), which ss(8) prints with: fixed cases, every
 * placement of zero runs over eight groups, and random addresses.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "tap.h"

/* the iterator's pieces, each appended to a buffer */
struct text {
	char s[64];
	size_t n;
};
#define TCPCA_IP6_OUT			struct text *
#define TCPCA_IP6_PUT(t, fmt, args...)	\
	((t)->n += snprintf((t)->s + (t)->n, sizeof((t)->s) - (t)->n, fmt, ##args))
#include "tcpca_ip6.h"

static int same_as_libc(const __u8 *a, char *got, char *want)
{
	struct text t = { .n = 0 };

	tcpca_ip6_write(&t, a);
	inet_ntop(AF_INET6, a, want, INET6_ADDRSTRLEN);
	strcpy(got, t.s);
	return !strcmp(got, want);
}

static void check(const char *text)
{
	char got[64], want[INET6_ADDRSTRLEN];
	__u8 a[16];

	inet_pton(AF_INET6, text, a);
	ok(same_as_libc(a, got, want), "%s -> %s (inet_ntop: %s)", text, got, want);
}

int main(void)
{
	char got[64], want[INET6_ADDRSTRLEN];
	unsigned int mask, i, bad = 0, n = 0;
	__u8 a[16];

	check("::");
	check("::1");
	check("1::");
	check("2001:2::1");
	check("fd00:198:18::1");
	check("2001:db8:0:1:1:1:1:1");		/* one zero group stays "0" */
	check("2001:db8:0:0:1:0:0:1");		/* equal runs: the first */
	check("2001:0:0:1:0:0:0:1");		/* the longer run, second */
	check("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff");
	check("::ffff:198.18.0.1");		/* IPv4-mapped */
	check("::ffff:0.0.0.0");
	check("::fffe:c612:1");
	check("0:0:0:0:0:ffff:0:1");
	check("::2");				/* the C library: ::0.0.0.2 */
	check("::a07:0");

	/* every pattern of zero and non-zero groups */
	for (mask = 0; mask < 256; mask++) {
		for (i = 0; i < 8; i++) {
			a[2 * i] = mask & (1U << i) ? 0x0a : 0;
			a[2 * i + 1] = mask & (1U << i) ? (__u8)(i + 1) : 0;
		}
		n++;
		if (!same_as_libc(a, got, want) && bad++ < 5)
			diag("mask %02x: %s, inet_ntop %s", mask, got, want);
	}
	srandom(1);
	for (i = 0; i < 20000; i++) {
		unsigned int j;

		for (j = 0; j < 16; j++)	/* groups often zero, digits often few */
			a[j] = random() % 3 ? 0 : (__u8)(random() >> (random() % 8));
		n++;
		if (!same_as_libc(a, got, want) && bad++ < 5)
			diag("random: %s, inet_ntop %s", got, want);
	}
	ok(!bad, "%u generated addresses as inet_ntop writes them (%u differ)", n, bad);
	return done_testing();
}
