// SPDX-License-Identifier: GPL-2.0
/*
 * include/lp.h against Kuzmanovic & Knightly's definitions (IEEE/ACM ToN
 * 2006) worked out here in floating point or by other means: the early
 * congestion threshold owd_min + delta (owd_max - owd_min), delta = 0.15;
 * the smoothed OWD 7/8 old + 1/8 new; the maximum that forgets the largest
 * sample; the remote clock rate; the inference time-out of 3 RTTs; the
 * back-off (half, or 1 within the time-out).  Then what the module's 32-bit
 * arithmetic makes of them, where it departs from the paper: the rate
 * estimate from whole-ms steps, the integer 1000 / remote_hz, the wrap of
 * sowd << 3, and a connection without timestamps.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "tap.h"
#include "lp.h"

static void test_threshold(void)
{
	static const __u32 rows[][2] = {	/* owd_min, owd_max, ms */
		{ 20, 20 }, { 20, 21 }, { 20, 26 }, { 20, 27 }, { 20, 80 }, { 15, 75 },
		{ 100, 1100 }, { 0, 99 }, { 1000000, 1000333 }, { 5, 286331153 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		double lo = rows[i][0], hi = rows[i][1];
		double want = floor(lo + 0.15 * (hi - lo) + 1e-9);

		is_u(lp_threshold(rows[i][0], rows[i][1], LP_THRESH_PCT), (__u32)want,
		     "threshold(min %u, max %u ms) = floor(min + 0.15 (max - min)) = %.0f",
		     rows[i][0], rows[i][1], want);
	}
	is_u(lp_threshold(40, 90, 0), 40, "delta 0: the threshold is owd_min");
	is_u(lp_threshold(40, 90, 100), 90, "delta 1: the threshold is owd_max");
	/* the module's 15 * (max - min) is 32-bit: beyond 2^32 / 15 it wraps */
	{
		__u32 lo = 0, hi = 300000000;
		double exact = 0.15 * hi;

		ok(fabs(lp_threshold(lo, hi, 15) - exact) > 1e6,
		   "a range of 3e8 ticks: the module's 15 * range wraps (%u, the paper's %.0f)",
		   lp_threshold(lo, hi, 15), exact);
	}
	/* fresh filter (min 2^32 - 1, max 0): 15 * (0 - min) is 15, / 100 is 0 */
	is_u(lp_threshold(0xffffffff, 0, 15), 0xffffffff,
	     "no sample yet: threshold 2^32 - 1, every smoothed OWD is below it");
}

/* sowd against s_n = d + (s_0 - d) (7/8)^n, to within a tick of truncation */
static void test_smoothing(void)
{
	static const __u32 d0s[] = { 20, 100, 3000, 1000000 };
	static const __u32 steps[] = { 0, 1, 7, 30, 250 };
	unsigned int i, j, n;

	for (i = 0; i < sizeof(d0s) / sizeof(d0s[0]); i++) {
		for (j = 0; j < sizeof(steps) / sizeof(steps[0]); j++) {
			struct lp_owd_filter f = { .owd_min = 0xffffffff };
			__u32 d0 = d0s[i], d1 = d0 + steps[j];
			int worst = 0;

			lp_owd_sample(&f, d0);
			for (n = 1; n <= 60; n++) {
				double want = d1 + (double)(d0 - (double)d1) * pow(7.0 / 8, n);
				int err;

				lp_owd_sample(&f, d1);
				err = (int)lrint(fabs((f.sowd >> LP_SOWD_SHIFT) - want));
				worst = err > worst ? err : worst;
			}
			ok(worst <= 1, "OWD %u then %u ms for 60 samples: sowd follows d1 + (d0 - d1) (7/8)^n within %d tick",
			   d0, d1, worst);
		}
	}
	/* a 100-tick rise from 20: above the 15% threshold after the samples
	 * that (7/8)^n < 0.85 takes: n = ceil(ln 0.85 / ln 7/8) = 2 */
	{
		struct lp_owd_filter f = { .owd_min = 0xffffffff };
		int want = (int)ceil(log(0.85) / log(7.0 / 8)), n = 0;

		lp_owd_sample(&f, 20);
		lp_owd_sample(&f, 20);
		f.owd_max = f.owd_max_rsv = 120;	/* a range seen before */
		while (lp_within_threshold(&f, LP_THRESH_PCT) && n < 100) {
			lp_owd_sample(&f, 120);
			n++;
		}
		is_u(n, want, "OWD 20 -> 120 ms with max 120: early congestion after %d samples (ceil(ln 0.85 / ln 7/8))",
		     want);
	}
}

static int cmp_desc(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * owd_max "forgets the max of the max": the second largest sample, the
 * first one counting twice (it fills both slots), and owd_min the least.
 */
static void test_minmax(void)
{
	unsigned int trial, i;
	int bad = 0;

	srand(42);
	for (trial = 0; trial < 2000; trial++) {
		struct lp_owd_filter f = { .owd_min = 0xffffffff };
		__u32 s[42], n = 2 + rand() % 40, lo = ~0U;

		for (i = 0; i < n; i++) {
			s[i + 1] = 1 + rand() % (trial % 2 ? 50 : 100000);
			lp_owd_sample(&f, s[i + 1]);
			lo = s[i + 1] < lo ? s[i + 1] : lo;
		}
		s[0] = s[1];
		qsort(s, n + 1, sizeof(s[0]), cmp_desc);
		if (f.owd_max != s[1] || f.owd_max_rsv != s[0] || f.owd_min != lo) {
			if (!bad)
				diag("trial %u: max %u rsv %u min %u, want %u %u %u", trial,
				     f.owd_max, f.owd_max_rsv, f.owd_min, s[1], s[0], lo);
			bad++;
		}
	}
	ok(!bad, "2000 random runs: owd_max the second largest (first sample twice), rsv the largest, min the least (%d wrong)",
	   bad);
}

/*
 * The remote HZ from clean clocks: ACKs dt of our ms apart, the peer's clock
 * at hz, so each ACK moves TSval by dt * hz / 1000 (exact here).  The first
 * estimate is that ratio; a wrong start decays by 63/64 per ACK.
 */
static void test_remote_hz(void)
{
	static const __u32 hzs[] = { 1000, 250, 100, 10 };
	unsigned int i, n;

	for (i = 0; i < sizeof(hzs) / sizeof(hzs[0]); i++) {
		__u32 hz = hzs[i], dt = 100, rhz = 0, tsval = 777, tsecr = 5000, rv = 0, re = 0;

		for (n = 0; n < 20; n++) {
			rhz = lp_remote_hz(rhz, rv, re, tsval, tsecr);
			rv = tsval;
			re = tsecr;
			tsval += dt * hz / 1000;
			tsecr += dt;
		}
		is_u(rhz, hz, "a peer at %u Hz, ACKs 100 ms apart: remote HZ %u", hz, hz);
	}
	{
		/* from 2000 Hz, ACKs of a 1000 Hz peer: 1000 + 1000 (63/64)^n */
		__u32 rhz = 2000, worst = 0;

		for (n = 1; n <= 200; n++) {
			double want = 1000 + 1000 * pow(63.0 / 64, n);
			__u32 err;

			rhz = lp_remote_hz(rhz, 100 * n, 100 * n, 100 * n + 10, 100 * n + 10);
			err = (__u32)lrint(fabs(rhz - want));
			worst = err > worst ? err : worst;
		}
		ok(worst <= 63, "a wrong estimate (2000 Hz) decays as 1000 + 1000 (63/64)^n: within %u Hz (truncation, < 64)",
		   worst);
	}
	is_u(lp_remote_hz(1000, 0, 5, 10, 20), 1000, "no reference TSval yet: the estimate stays");
	is_u(lp_remote_hz(1000, 10, 20, 10, 25), 1000, "TSval did not move: the estimate stays");
	is_u(lp_remote_hz(1000, 10, 20, 15, 20), 1000, "TSecr did not move: the estimate stays");
	is_u(lp_remote_hz(0, 0, 0, 0, 0), 0, "no timestamps (all 0): no estimate, ever");
}

/*
 * What the module's estimate reads for a 1000 Hz peer at a real ACK rate:
 * every ACK moves each clock by whole ms, ACKs 2.3 ms apart at both ends
 * but not in step (the TSecr echoes sends an RTT older), so the per-ACK
 * ratio is 2/2, 3/2, 2/3, 3/3 ...; its mean is above 1 (Jensen).  Measured
 * on 6.18: 1030-1520 Hz on a 15 Mbit/s flow.
 */
static void test_remote_hz_bias(void)
{
	__u32 rhz = 0, rv = 0, re = 0, n, above = 0;
	double tr = 0.4, ts = 0.9, mean = 0;
	__u32 last_v = 0, last_e = 0, ratios = 0;

	for (n = 0; n < 4000; n++) {
		__u32 tsval = 1000000 + (__u32)floor(tr), tsecr = 3000 + (__u32)floor(ts);

		if (n && tsval != last_v && tsecr != last_e) {
			mean += 1000.0 * (tsval - last_v) / (tsecr - last_e);
			ratios++;
		}
		rhz = lp_remote_hz(rhz, rv, re, tsval, tsecr);
		rv = last_v = tsval;
		re = last_e = tsecr;
		tr += 2.3;
		ts += 2.3 + 0.9 * sin(n * 0.7);		/* the sends' spacing wanders */
		above += n > 1000 && rhz > 1000;
	}
	mean /= ratios;
	ok(mean > 1000 && rhz > 1000,
	   "a 1000 Hz peer, ACKs 2.3 ms apart: mean per-ACK ratio %.0f Hz, the module's estimate %u Hz (above 1000)",
	   mean, rhz);
	ok(above > 2500, "... above 1000 Hz on %u of the last 3000 ACKs: the integer 1000 / remote_hz is 0 there",
	   above);
}

static void test_owd(void)
{
	/* paper: OWD = receive time (peer's clock) - send time (ours) */
	__u32 offset = 123456, sent = 400000, owd_ms;

	for (owd_ms = 10; owd_ms <= 130; owd_ms += 40) {
		__u32 tsval = sent + owd_ms + offset;

		is_u(lp_owd(tsval, sent, 1000), owd_ms + offset,
		     "1000 Hz peer: sample = OWD %u ms + the clocks' offset", owd_ms);
	}
	/* a 250 Hz peer: its ticks times 4 */
	is_u(lp_owd(100000 + 5, 400000, 250), 400020 - 400000,
	     "250 Hz peer: TSval x 4 - TSecr");
	is_u(LP_TS_HZ / 500, 2, "estimate 500 Hz: factor 2");
	is_u(LP_TS_HZ / 501, 1, "estimate 501 Hz: factor 1");
	is_u(LP_TS_HZ / 1000, 1, "estimate 1000 Hz: factor 1");
	is_u(lp_owd(5000, 7000, 1001), (__u32)-7000,
	     "estimate 1001 Hz: factor 0, the sample is -TSecr mod 2^32 (%u)", (__u32)-7000);
	is_u(lp_owd(5, 10, 0), 0, "no remote HZ: no sample");
	/* a negative difference wraps, as the module's u32 */
	is_u(lp_owd(1000, 1020, 1000), (__u32)-20, "TSval below TSecr: 2^32 - 20");
	/* sowd << 3 in 32 bits: an OWD of 2^29 ticks or more wraps */
	{
		struct lp_owd_filter f = { .owd_min = 0xffffffff };
		__u32 big = (1U << 29) + 1000;

		lp_owd_sample(&f, big);
		ok((f.sowd >> LP_SOWD_SHIFT) != big,
		   "an OWD of 2^29 + 1000 ticks (a random offset does so 7 times in 8): sowd reads %u",
		   f.sowd >> LP_SOWD_SHIFT);
		ok(lp_within_threshold(&f, LP_THRESH_PCT),
		   "... below its own sample, so never above the threshold");
		f = (struct lp_owd_filter){ .owd_min = 0xffffffff };
		lp_owd_sample(&f, 1000);
		ok(!lp_within_threshold(&f, LP_THRESH_PCT),
		   "an OWD below 2^29: the first sample is itself an indication (sowd = min = max = threshold)");
	}
}

static void test_inference_backoff(void)
{
	is_u(lp_inference(0, 10050, 10000, LP_ITT_RTTS), 150, "time-out: 3 x RTT (50 ms) = 150 ms");
	is_u(lp_inference(0, 10050, 10000, 5), 250, "itt_rtts 5: 250 ms");
	is_u(lp_inference(77, 10000, 10000, 3), 77, "RTT 0: the last time-out stays");
	is_u(lp_inference(77, 10000, 10005, 3), 77, "TSecr ahead of now: the last stays");
	is_u(lp_inference(0, 123456, 0, 3), 370368,
	     "no timestamps (TSecr 0): 3 x our clock, in ms since boot");
	ok(!lp_within_inference(500, 0, 1000), "no back-off yet: not within the time-out");
	ok(lp_within_inference(1149, 1000, 150), "149 ms after a back-off, time-out 150: within");
	ok(!lp_within_inference(1150, 1000, 150), "150 ms after: over");
	ok(lp_within_inference(5, 0xfffffff0, 150), "across the clock's wrap: within");
	is_u(lp_backoff_cwnd(40, 0), 20, "early congestion after the time-out: cwnd 40 -> 20");
	is_u(lp_backoff_cwnd(41, 0), 20, "cwnd 41 -> 20");
	is_u(lp_backoff_cwnd(1, 0), 1, "cwnd 1 -> 1 (never 0)");
	is_u(lp_backoff_cwnd(40, 1), 1, "within the time-out: cwnd 40 -> 1");
	{
		struct lp_owd_filter f = { .sowd = 60 << 3, .owd_min = 20, .owd_max = 90 };

		lp_owd_restart(&f);
		ok(f.owd_min == 60 && f.owd_max == 120 && f.owd_max_rsv == 120,
		   "after a back-off at sowd 60: min 60, max 120, the next threshold 69");
	}
}

/*
 * The module's pkts_acked over a flow, as bpf/lp.bpf.c runs it: every ACK
 * carries an RTT sample.  Returns the number of back-offs.
 */
struct lp_model {
	struct lp_owd_filter f;
	__u32 remote_hz, rv, re, last_drop, inference, cwnd, owd;
};

static int model_ack(struct lp_model *m, __u32 now, __u32 tsval, __u32 tsecr, int known_hz)
{
	__u32 owd = 0;
	int inf;

	if (known_hz)	/* the paper's: the peer's clock rate is known */
		m->remote_hz = 1000;
	else
		m->remote_hz = lp_remote_hz(m->remote_hz, m->rv, m->re, tsval, tsecr);
	m->rv = tsval;
	m->re = tsecr;
	if (m->remote_hz)
		owd = lp_owd(tsval, tsecr, m->remote_hz);
	if (owd)
		lp_owd_sample(&m->f, owd);
	m->owd = owd;
	m->inference = lp_inference(m->inference, now, tsecr, LP_ITT_RTTS);
	inf = lp_within_inference(now, m->last_drop, m->inference);
	if (lp_within_threshold(&m->f, LP_THRESH_PCT))
		return 0;
	lp_owd_restart(&m->f);
	m->cwnd = lp_backoff_cwnd(m->cwnd, inf);
	m->last_drop = now;
	return 1;
}

static void test_closed_loop(void)
{
	struct lp_model m = { .f = { .owd_min = 0xffffffff }, .cwnd = 50 };
	__u32 t, n = 0, first = 0;

	/* no timestamps: TSval = TSecr = 0 on every ACK, for 60 s */
	for (t = 100000; t < 160000; t += 2)
		n += model_ack(&m, t, 0, 0, 0);
	is_u(n, 0, "no timestamps: 30000 ACKs, no back-off (Reno)");

	/*
	 * Synchronised 1000 Hz clocks, ACKs every 4 ms in step, OWD 20 ms,
	 * then a queue building at 1 ms per 10 ACKs from 2 s, the clock rate
	 * known: the paper's LP.  After the first sample's indication (see
	 * test_owd), the restart puts the threshold at 23 ms, and the next
	 * indication comes once the smoothed OWD passes it: the OWD at
	 * 23-25 ms (the smoothing lags by some 7 samples, 0.7 ms).
	 */
	m = (struct lp_model){ .f = { .owd_min = 0xffffffff }, .cwnd = 50 };
	n = 0;
	for (t = 1000; t < 4000; t += 4) {
		__u32 owd = 20 + (t > 2000 ? (t - 2000) / 40 : 0);

		if (model_ack(&m, t, t - 20 + owd, t - 20, 1) && n++ == 1)
			first = t;
	}
	ok(first > 2000 && 20 + (first - 2000) / 40 >= 23 && 20 + (first - 2000) / 40 <= 25,
	   "clock rate known: the second back-off once the OWD has risen 15%% above 20 ms: at %u ms (%u back-offs in 3 s)",
	   20 + (first - 2000) / 40, n);
	is_u(m.cwnd, 1, "... and the queue still growing within the time-out: cwnd 1");

	/*
	 * The same with the module's estimate: each 1 ms rise of the OWD moves
	 * TSval 5 ms against TSecr's 4, which reads as a 1250 Hz peer; the
	 * estimate passes 1000 Hz at the first rise, the factor becomes 0 and
	 * the sample -TSecr: near 2^32, where sowd << 3 wraps.
	 */
	m = (struct lp_model){ .f = { .owd_min = 0xffffffff }, .cwnd = 50 };
	for (t = 1000; t < 2044; t += 4)
		model_ack(&m, t, t - 20 + 20 + (t > 2000 ? (t - 2000) / 40 : 0), t - 20, 0);
	ok(m.remote_hz > 1000 && m.owd == (__u32)-(2040 - 20),
	   "module's estimate: the first 1 ms rise of the OWD reads as %u Hz, and the sample becomes -TSecr (%u)",
	   m.remote_hz, m.owd);
}

int main(void)
{
	test_threshold();
	test_smoothing();
	test_minmax();
	test_remote_hz();
	test_remote_hz_bias();
	test_owd();
	test_inference_backoff();
	test_closed_loop();
	return done_testing();
}
