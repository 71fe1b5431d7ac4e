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

/*
 * The BPF copies of tcp_slow_start() and tcp_cong_avoid_ai() that kernels
 * without the kfuncs (before 5.13) run, against what the kernel's do.
 */
static void test_slow_start(void)
{
	struct tcpca_window w = { .cwnd = 10, .ssthresh = 100, .clamp = 1000 };

	is_u(tcpca_slow_start_rule(&w, 4), 0, "slow start: all 4 acked used");
	is_u(w.cwnd, 14, "slow start: cwnd 10 + 4");
	w = (struct tcpca_window){ .cwnd = 10, .ssthresh = 15, .clamp = 1000 };
	is_u(tcpca_slow_start_rule(&w, 8), 3, "slow start: 3 of 8 left over at ssthresh 15");
	is_u(w.cwnd, 15, "slow start: stops at ssthresh");
	w = (struct tcpca_window){ .cwnd = 10, .ssthresh = 100, .clamp = 12 };
	is_u(tcpca_slow_start_rule(&w, 8), 0, "slow start under a clamp: acked counted to ssthresh");
	is_u(w.cwnd, 12, "slow start: the clamp caps cwnd");
	w = (struct tcpca_window){ .cwnd = 20, .ssthresh = 15, .clamp = 1000 };
	is_u(tcpca_slow_start_rule(&w, 2), 7, "above ssthresh: acked grows by cwnd - ssthresh (u32, as the kernel)");
	is_u(w.cwnd, 15, "above ssthresh: cwnd set to ssthresh");
}

static void test_cong_avoid_ai(void)
{
	struct tcpca_window w = { .cwnd = 10, .ssthresh = 5, .clamp = 1000 };
	unsigned int acks = 0;

	/* one segment acked per ACK, w = cwnd: Reno's one segment per window */
	while (w.cwnd == 10 && acks < 100) {
		tcpca_cong_avoid_ai_rule(&w, w.cwnd, 1);
		acks++;
	}
	is_u(acks, 10, "w = cwnd = 10: the 10th ACK of one segment adds one");
	is_u(w.cnt, 0, "... and the credit is spent");
	while (w.cwnd == 11 && acks < 100) {
		tcpca_cong_avoid_ai_rule(&w, w.cwnd, 1);
		acks++;
	}
	is_u(acks, 21, "then 11 more at cwnd 11");

	w = (struct tcpca_window){ .cwnd = 10, .clamp = 1000 };
	tcpca_cong_avoid_ai_rule(&w, 10, 25);
	ok(w.cwnd == 12 && w.cnt == 5, "a stretch ACK of 25 at w 10: +2, 5 credited (cwnd %u cnt %u)",
	   w.cwnd, w.cnt);
	w = (struct tcpca_window){ .cwnd = 10, .cnt = 15, .clamp = 1000 };
	tcpca_cong_avoid_ai_rule(&w, 10, 3);
	ok(w.cwnd == 11 && w.cnt == 3, "credit 15 from a larger w: +1 and reset, then 3 credited (cwnd %u cnt %u)",
	   w.cwnd, w.cnt);
	w = (struct tcpca_window){ .cwnd = 50, .cnt = 49, .clamp = 50 };
	tcpca_cong_avoid_ai_rule(&w, 50, 1);
	ok(w.cwnd == 50 && w.cnt == 0, "at the clamp: the credit is spent, cwnd stays (cwnd %u cnt %u)",
	   w.cwnd, w.cnt);
	w = (struct tcpca_window){ .cwnd = 7, .clamp = 1000 };
	tcpca_cong_avoid_ai_rule(&w, 0, 2);
	ok(w.cwnd == 9 && w.cnt == 0, "w = 0 counts as 1 (cwnd %u cnt %u)", w.cwnd, w.cnt);
}

int main(void)
{
	test_cwnd_limited();
	test_current_ssthresh();
	test_slow_start();
	test_cong_avoid_ai();
	return done_testing();
}
