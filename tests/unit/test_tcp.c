// SPDX-License-Identifier: GPL-2.0
/*
 * TCP's rules that the programs rely on (include/tcpca_tcp.h), case by case
 * against what include/net/tcp.h (5.18+, 6.1) decides for the same fields.
 *
 * tcp_is_cwnd_limited(): is_cwnd_limited wins everywhere; without it, only
 * slow start may still grow, and only while cwnd < 2 * max_packets_out.
 * The cases marked "5.18" are the ones the pre-5.18 rule (slow start first,
 * is_cwnd_limited ignored there) decides the other way.
 */
#include "tap.h"
#include "tcpca_tcp.h"

struct limited_case {
	__u32 is_cwnd_limited, cwnd, ssthresh, max_packets_out;
	int want;
	const char *why;
};

static const struct limited_case limited_cases[] = {
	/* slow start (cwnd < ssthresh) */
	{ 1, 20, 100,  5, 1, "slow start, flagged cwnd-limited, cwnd >= 2 * flight: grows (5.18)" },
	{ 1, 20, 100, 10, 1, "slow start, flagged, cwnd = 2 * flight: grows (5.18)" },
	{ 0, 20, 100, 11, 1, "slow start, not flagged, cwnd < 2 * flight: grows" },
	{ 0, 20, 100, 10, 0, "slow start, not flagged, cwnd = 2 * flight: holds" },
	{ 0, 20, 100,  0, 0, "slow start, nothing in flight last window: holds" },
	{ 1, 10,  0x7fffffff, 0, 1, "first window (ssthresh infinite), flagged: grows (5.18)" },
	/* congestion avoidance (cwnd >= ssthresh) */
	{ 1, 50,  50, 10, 1, "cwnd = ssthresh is not slow start; flagged: grows" },
	{ 0, 50,  50, 40, 0, "cwnd = ssthresh, not flagged, cwnd < 2 * flight: holds (no slow-start rule)" },
	{ 0, 50,  20, 49, 0, "congestion avoidance, not flagged: holds" },
	{ 1, 50,  20,  1, 1, "congestion avoidance, flagged: grows" },
	/* u32 arithmetic as the kernel's */
	{ 0, 0xfffffffeU, 0xffffffffU, 0x7fffffffU, 0, "2 * flight = 2^32 - 2, not above cwnd: holds" },
};

static void test_cwnd_limited(void)
{
	unsigned int i, n = sizeof(limited_cases) / sizeof(limited_cases[0]);

	for (i = 0; i < n; i++) {
		const struct limited_case *c = &limited_cases[i];
		int got = tcpca_cwnd_limited(c->is_cwnd_limited, c->cwnd, c->ssthresh,
					     c->max_packets_out);

		ok(got == c->want, "%s (flag=%u cwnd=%u ssthresh=%u max_packets_out=%u -> %d)",
		   c->why, c->is_cwnd_limited, c->cwnd, c->ssthresh, c->max_packets_out, got);
	}
}

static void test_current_ssthresh(void)
{
	is_u(tcpca_current_ssthresh(100, 20, 0), 75, "Open: max(ssthresh, 3/4 cwnd) = 3/4 cwnd");
	is_u(tcpca_current_ssthresh(100, 90, 0), 90, "Open: ssthresh above 3/4 cwnd stays");
	is_u(tcpca_current_ssthresh(7, 1, 0), 4, "Open: 3/4 of 7 is 7/2 + 7/4 = 3 + 1, each truncated");
	is_u(tcpca_current_ssthresh(100, 20, 1), 20, "CWR/Recovery: the ssthresh being reduced to");
	is_u(tcpca_current_ssthresh(0xffffffffU, 0, 0), 0x7fffffffU + 0x3fffffffU,
	     "no overflow at the largest cwnd");
}

int main(void)
{
	test_cwnd_limited();
	test_current_ssthresh();
	return done_testing();
}
