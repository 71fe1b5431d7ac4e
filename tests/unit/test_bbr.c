// SPDX-License-Identifier: GPL-2.0
/*
 * include/bbr.h against BBR's definitions (Cardwell et al., ACM Queue 2016;
 * the constants of tcp_bbr.c) computed here independently: the windowed max
 * filter against a brute-force max over the samples it may still hold, the
 * gain cycle's gains and its random start, the BDP and the target cwnd in
 * floating point, the pacing rate from bw and gain in bit/s, the TSO budget,
 * STARTUP's exit test, the long-term (policer) tests, the ACK aggregation
 * room, and ProbeRTT's timing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "bbr.h"

static const struct bbr_params defaults = { BBR_PARAMS(TCPCA_PARAM_INIT) };

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define UNIT_BW	16777216.0	/* one packet per us in packets/us << 24 */

/* packets/s -> packets/us << 24 */
static __u32 bw_of_pps(double pps)
{
	return (__u32)(pps / 1e6 * UNIT_BW);
}

static void test_defaults(void)
{
	is_u(defaults.min_rtt_win_sec, 10, "min_rtt window: 10 s (bbr_min_rtt_win_sec)");
	is_u(defaults.probe_rtt_mode_ms, 200, "ProbeRTT: 200 ms (bbr_probe_rtt_mode_ms)");
	is_u(defaults.cwnd_gain, 512, "PROBE_BW cwnd gain 2.0 (bbr_cwnd_gain)");
	is_u(defaults.extra_acked_gain, 256, "extra_acked gain 1.0 (bbr_extra_acked_gain)");
	ok(fabs(BBR_HIGH_GAIN / 256.0 - 2.0 / log(2.0)) < 1.0 / 256,
	   "high gain %u/256 = %.4f ~ 2/ln 2 = %.4f", BBR_HIGH_GAIN, BBR_HIGH_GAIN / 256.0,
	   2.0 / log(2.0));
	ok(BBR_HIGH_GAIN / 256.0 >= 2.0 / log(2.0), "the high gain is rounded up: it still doubles per round");
	ok(fabs(BBR_DRAIN_GAIN / 256.0 - log(2.0) / 2.0) < 1.0 / 256,
	   "drain gain %u/256 ~ ln 2 / 2 = %.4f", BBR_DRAIN_GAIN, log(2.0) / 2.0);
	is_u(BBR_BW_RTTS, 10, "the bw filter spans 10 rounds");
}

/* ---- the gain cycle ---- */

static void test_gain_cycle(void)
{
	static const double paper[8] = { 1.25, 0.75, 1, 1, 1, 1, 1, 1 };
	double sum = 0;
	int i, seen[8] = { 0 }, all_ok = 1;

	for (i = 0; i < 8; i++) {
		ok(fabs(bbr_cycle_gain(i) / 256.0 - paper[i]) < 1e-9, "phase %d: gain %.2f", i, paper[i]);
		sum += bbr_cycle_gain(i) / 256.0;
	}
	ok(fabs(sum / 8 - 1.0) < 1e-9, "the cycle's mean gain is 1.0: bw is probed, not exceeded");
	is_u(bbr_cycle_gain(9), bbr_cycle_gain(1), "the phase index wraps at 8");
	for (i = 0; i < 7000; i++) {
		__u32 p = bbr_cycle_start((__u32)rand());

		if (p > 7)
			all_ok = 0;
		else
			seen[p]++;
	}
	ok(all_ok && seen[1] == 0, "a fresh cycle never starts in the 3/4 phase");
	for (i = 0; i < 8; i++)
		if (i != 1 && (seen[i] < 800 || seen[i] > 1200))
			all_ok = 0;
	ok(all_ok, "it starts in each of the 7 other phases about equally (of 7000: %d %d %d %d %d %d %d)",
	   seen[0], seen[2], seen[3], seen[4], seen[5], seen[6], seen[7]);
	is_u(bbr_cycle_start(0), 0, "r = 0: 7 - 0, advanced: phase 0 (5/4)");
	is_u(bbr_cycle_start(6), 2, "r = 6: 7 - 6, advanced: phase 2");
}

/* ---- the windowed max filter ---- */

/*
 * Against its definition: after each sample, the estimate is a sample taken
 * at most win rounds ago, at least as large as every sample since then, and
 * never below the largest sample of the last win/4 rounds (the
 * sub-windows keep a fresh candidate).
 */
static void test_minmax(void)
{
	struct bbr_minmax m;
	static __u32 t_of[4000], v_of[4000];
	int n = 0, k, bad_window = 0, bad_max = 0, bad_recent = 0, run;
	__u32 win = BBR_BW_RTTS;

	bbr_minmax_reset(&m, 0, 0);
	is_u(bbr_minmax_running_max(&m, win, 1, 100), 100, "first sample: the max");
	is_u(bbr_minmax_running_max(&m, win, 2, 50), 100, "a smaller one: max stays");
	is_u(bbr_minmax_running_max(&m, win, 3, 200), 200, "a larger one replaces it at once");
	/* 200 at round 3 expires after round 13; 50s in between keep candidates */
	for (k = 4; k <= 13; k++)
		bbr_minmax_running_max(&m, win, k, 60);
	is_u(m.s[0].v, 200, "still 200 at round 13 (10 rounds after)");
	is_u(bbr_minmax_running_max(&m, win, 14, 60), 60, "round 14: 200 has aged out, the next best (60)");

	/* random walks of a rate, one or several samples per round */
	srand(7);
	for (run = 0; run < 20; run++) {
		__u32 t = 1000 * run, v = 1000;

		bbr_minmax_reset(&m, t, 0);
		n = 0;
		for (k = 0; k < 4000; k++) {
			__u32 est, since, best = 0, recent = 0;
			int j;

			t += rand() % 3 == 0;		/* several samples per round */
			if (rand() % 50 == 0)
				v = 200 + rand() % 2000;	/* jumps */
			else
				v = v + rand() % 41 - 20 > 10 ? v + rand() % 41 - 20 : 10;
			est = bbr_minmax_running_max(&m, win, t, v);
			t_of[n] = t;
			v_of[n++] = v;
			since = m.s[0].t;
			if (t - since > win)
				bad_window++;
			for (j = n - 1; j >= 0 && t_of[j] >= since; j--)
				if (v_of[j] > best)
					best = v_of[j];
			for (j = n - 1; j >= 0 && t - t_of[j] <= win / 4; j--)
				if (v_of[j] > recent)
					recent = v_of[j];
			if (est != best)
				bad_max++;
			if (est < recent)
				bad_recent++;
		}
	}
	is_u(bad_window, 0, "random walks: the estimate is never older than the window (10 rounds)");
	is_u(bad_max, 0, "random walks: it is the max of every sample since it was taken");
	is_u(bad_recent, 0, "random walks: never below the largest of the last 2 rounds");
}

/* ---- bdp, cwnd target, pacing ---- */

static void test_bdp(void)
{
	/* 10 Mbit/s of 1514-byte frames (1448 B of payload): 825.6 pps; RTT 40 ms */
	double pps = 10e6 / 8 / 1514, rtt = 0.040;
	__u32 bw = bw_of_pps(pps);
	static const __u32 gains[] = { 256, 320, 192, 512, 739, 88 };
	unsigned int i;

	for (i = 0; i < N(gains); i++) {
		double want = ceil(pps * rtt * gains[i] / 256.0);
		__u32 got = bbr_bdp(bw, 40000, gains[i]);

		ok(fabs(got - want) <= 1, "bdp at gain %.3f: %u packets, exact %.2f rounded up", gains[i] / 256.0,
		   got, pps * rtt * gains[i] / 256.0);
	}
	is_u(bbr_bdp(bw, BBR_NO_RTT, 512), 10, "no RTT sample yet: the initial window");
	is_u(bbr_bdp(bw_of_pps(1e6), 1000, 256), 1000, "1 Mpps x 1 ms = 1000 packets");
	is_u(bbr_bdp(1, 1, 256), 1, "a tiny bdp rounds up to 1, not 0");
	/* target cwnd at 10 Mbit/s, 40 ms, in PROBE_BW: 2 BDP + 3 TSO bursts of 2, even, +2 in phase 0 */
	{
		__u32 bdp2 = bbr_bdp(bw, 40000, 512);
		__u32 want = (__u32)(2 * ceil(pps * rtt) + 6);

		want += want & 1;
		ok(abs((int)bbr_quantization_budget(bdp2, 2, 0) - (int)want) <= 2,
		   "PROBE_BW cwnd target %u ~ 2 x BDP + 3 x 2 TSO = %u", bbr_quantization_budget(bdp2, 2, 0), want);
		is_u(bbr_quantization_budget(bdp2, 2, 1), bbr_quantization_budget(bdp2, 2, 0) + 2,
		     "two more packets in the 5/4 phase");
		is_u(bbr_quantization_budget(7, 1, 0) % 2, 0, "the target is even (7 + 3 = 10)");
		is_u(bbr_quantization_budget(8, 1, 0), 12, "8 + 3 = 11, rounded up to 12");
	}
}

static void test_pacing(void)
{
	static const double mbps[] = { 0.5, 1, 10, 100, 1000, 10000 };
	static const __u32 gains[] = { 256, 739, 88, 320, 192 };
	unsigned int i, j;

	for (i = 0; i < N(mbps); i++)
		for (j = 0; j < N(gains); j++) {
			double pps = mbps[i] * 1e6 / 8 / 1448;
			double want = pps * 1448 * gains[j] / 256.0 * 0.99;	/* bytes/s, 1% margin */
			__u64 got = bbr_pacing_rate(bw_of_pps(pps), 1448, gains[j], ~0ULL);

			ok(fabs(got - want) / want < 0.001, "%g Mbit/s x %.3f: %llu B/s, exact %.0f", mbps[i],
			   gains[j] / 256.0, (unsigned long long)got, want);
		}
	is_u(bbr_pacing_rate(bw_of_pps(1e6), 1448, 256, 1000000), 1000000, "capped at sk_max_pacing_rate");
	/* the initial rate: cwnd 10 over the SYN's RTT, times the high gain */
	{
		double want = 10 / 0.040 * 1448 * BBR_HIGH_GAIN / 256.0 * 0.99;
		__u64 got = bbr_pacing_rate(bbr_bw_from_rtt(10, 40000), 1448, BBR_HIGH_GAIN, ~0ULL);

		ok(fabs(got - want) / want < 0.001, "initial pacing: 10 packets per 40 ms x 2.89 = %llu B/s (%.0f)",
		   (unsigned long long)got, want);
	}
	is_u(bbr_bw_sample(10, 1000), (__u64)(10.0 / 1000 * UNIT_BW), "10 packets in 1 ms: 0.01 packets/us << 24");
	is_u(bbr_bw_sample(10, 0), 0, "an empty interval gives no sample");
}

static void test_tso(void)
{
	is_u(bbr_min_tso_segs_for(149999), 1, "below 1.2 Mbit/s of pacing: 1 segment per burst");
	is_u(bbr_min_tso_segs_for(150000), 2, "from 1.2 Mbit/s: 2");
	/* 10 Mbit/s = 1.25 MB/s >> 10 = 1220 bytes: less than a segment, so the minimum */
	is_u(bbr_tso_segs_goal_for(1250000, 10, 1448), 2, "10 Mbit/s: 1 ms is under a segment: 2");
	/* 100 Mbit/s: 12207 bytes per ms = 8 segments */
	is_u(bbr_tso_segs_goal_for(12500000, 10, 1448), 8, "100 Mbit/s: 1 ms of data = 8 segments");
	is_u(bbr_tso_segs_goal_for(10000000000ULL, 10, 1448), BBR_GSO_MAX_BYTES / 1448,
	     "10 GB/s: capped by the 64 KB GSO limit (45 segments)");
	is_u(bbr_tso_segs_goal_for(10000000000ULL, 10, 100), 0x7f, "and by 127 segments");
}

/* ---- STARTUP, policer, aggregation, in flight at EDT ---- */

static void test_full_bw(void)
{
	__u32 full = bw_of_pps(1000);

	ok(bbr_bw_grew(bw_of_pps(1250), full), "bw x 1.25: still growing");
	ok(!bbr_bw_grew(bw_of_pps(1240), full), "bw x 1.24: not growing (a round counts towards exit)");
	ok(bbr_bw_grew(0, 0), "no bw yet: growing (the first round sets full_bw)");
	/* STARTUP's rate doubles per round at 2/ln 2: 3 rounds without 25% after the pipe fills */
	is_u(BBR_FULL_BW_CNT, 3, "the pipe is full after 3 rounds without 25% growth");
}

static void test_lt(void)
{
	__u32 a = bw_of_pps(1000);

	ok(bbr_lt_bw_alike(bw_of_pps(1120), a, 1448), "12% apart: the same policer rate (1/8)");
	ok(!bbr_lt_bw_alike(bw_of_pps(1130), a, 1448), "13% apart: not");
	/* 4 kbit/s = 500 B/s: 0.3 packets/s of 1448 B, less the 1% margin */
	ok(bbr_lt_bw_alike(bw_of_pps(0.3), bw_of_pps(0.05), 1448), "within 4 kbit/s (0.3 vs 0.05 pps) alike");
	ok(!bbr_lt_bw_alike(bw_of_pps(2.0), bw_of_pps(0.5), 1448), "1.5 pps = 17 kbit/s apart: not");
	ok(bbr_lt_lossy(20, 100), "20% lost: an interval ends (>= 50/256 = 19.5%)");
	ok(!bbr_lt_lossy(19, 100), "19%: not yet");
	ok(!bbr_lt_lossy(5, 0), "nothing delivered: no interval");
}

/* At a bw the fixed point holds exactly: 1/1024 packet per us (976.5625 pps). */
static void test_aggregation(void)
{
	__u32 bw = 1U << 14;	/* 1/1024 packet/us */

	is_u(bbr_expected_acked(bw, 10240), 10, "976.6 pps for 10.24 ms: 10 packets expected");
	is_u(bbr_expected_acked(bw, 10239), 9, "a us less: 9 (rounded down, as the module)");
	is_u(bbr_aggregation_cwnd(bw, 30, 256), 30, "30 extra packets at gain 1: 30");
	is_u(bbr_aggregation_cwnd(bw, 30, 128), 15, "at gain 0.5: 15");
	is_u(bbr_aggregation_cwnd(bw, 300, 256), 97, "capped at 100 ms of bw (97.66 packets)");
	is_u(bbr_in_net_at_edt(20, bw, 5120, 0), 15, "20 in flight, 5.12 ms (5 packets) until the next departure: 15 left");
	is_u(bbr_in_net_at_edt(20, bw, 5120, 2), 17, "probing up: the next burst (2) counts");
	is_u(bbr_in_net_at_edt(3, bw, 50000, 0), 0, "all delivered by then: 0");
}

/* ---- ProbeRTT timing ---- */

static void test_probe_rtt(void)
{
	__u32 stamp = 123456, win = 10 * 1000;

	/* min_rtt expires strictly after stamp + 10 s; ProbeRTT ends strictly after its 200 ms */
	ok(!bbr_after(stamp + win, stamp + win), "at stamp + 10 s: not yet expired");
	ok(bbr_after(stamp + win + 1, stamp + win), "a ms later: expired");
	ok(!bbr_after(stamp + 200, stamp + 200) && bbr_after(stamp + 201, stamp + 200),
	   "ProbeRTT at 4 packets ends after 200 ms, at 201");
	ok(bbr_after(5, 0xfffffff0U), "across the 2^32 ms wrap (49.7 days)");
	ok(!bbr_after(0xfffffff0U, 5), "and not the other way");
	ok(bbr_after(stamp + 3600 * 1000, stamp), "the longest window (3600 s) compares right");
}

int main(void)
{
	test_defaults();
	test_gain_cycle();
	test_minmax();
	test_bdp();
	test_pacing();
	test_tso();
	test_full_bw();
	test_lt();
	test_aggregation();
	test_probe_rtt();
	return done_testing();
}
