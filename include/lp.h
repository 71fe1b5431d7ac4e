/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TCP-LP: tunables and arithmetic, shared by bpf/lp.bpf.c and the host
 * (loader table, tests/unit/test_lp.c).
 *
 * Kuzmanovic and Knightly, "TCP-LP: low-priority service via end-point
 * congestion control", IEEE/ACM ToN 14(4), 2006.  A low-priority flow uses
 * only the capacity others leave: it watches the one-way delay (OWD) of its
 * packets, from the TCP timestamps (the peer's TSval against the TSecr it
 * echoes), and takes a smoothed OWD above
 *
 *	owd_min + delta * (owd_max - owd_min)		delta = 0.15
 *
 * as an early congestion indication, before any queue overflows: it then
 * halves its window and starts an inference time-out of 3 RTTs; a second
 * indication within it means the other flows are still there, and the
 * window drops to one segment.  Until the time-out ends the window does not
 * grow; after it, Reno's rules again.  The smoothing is the RTT estimator's,
 * sowd = 7/8 sowd + 1/8 sample.
 *
 * Linux's net/ipv4/tcp_lp.c, which this follows, works on the timestamp
 * clocks themselves.  It estimates the peer's clock rate ("remote HZ") as
 * TCP_TS_HZ x (change of TSval) / (change of TSecr) between successive ACKs,
 * smoothed by 1/64, and takes as OWD
 *
 *	TSval x (1000 / remote_hz) - TSecr		(mod 2^32)
 *
 * i.e. the peer's clock in ms, less our sending time, plus whatever offset
 * lies between the two clocks.  Everything is 32-bit unsigned as in the
 * module, and the module's arithmetic is kept exactly, wraps included
 * (tests/unit/test_lp.c shows where they bite):
 *  - 1000 / remote_hz is an integer: 1 for an estimate of 501..1000 Hz, 0
 *    above 1000 Hz, where the "OWD" becomes -TSecr (mod 2^32);
 *  - the smoothed OWD is kept << 3 in 32 bits, so it wraps once an OWD
 *    reaches 2^29 ticks; since Linux 4.10 each connection's timestamps
 *    start at a random offset, so the OWD's offset (the peer's clock less
 *    ours) is a random 32-bit number and does so 7 times in 8;
 *  - the threshold's 15 * (owd_max - owd_min) wraps above 2^32 / 15.
 *
 * The module has no parameters; its two constants are tunables here, with
 * its values as defaults (as Veno's beta and Scalable's a, b are): delta in
 * percent and the inference time-out in RTTs.
 */
#ifndef TCPCA_LP_H
#define TCPCA_LP_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "tcpca_params.h"

/*
 * P(name, default, min, max, unit, description).  Both are read on every
 * ACK, so --set acts on existing sockets at once.
 */
#define LP_PARAMS(P)								\
	P(thresh_pct, 15, 0, 100, "percent",					\
	  "early congestion once the smoothed OWD exceeds owd_min + this share of owd_max - owd_min (the paper's delta)") \
	P(itt_rtts, 3, 1, 1000, "RTTs",						\
	  "inference time-out after a back-off: no growth, and a second indication within it sets cwnd to 1")

struct lp_params {
	LP_PARAMS(TCPCA_PARAM_FIELD)
};

#define LP_TS_HZ	1000U	/* TCP_TS_HZ: our timestamp clock, and the OWD's unit */
#define LP_THRESH_PCT	15U	/* the module's 15 / 100 */
#define LP_ITT_RTTS	3U	/* the module's 3 * delta */
#define LP_RHZ_SHIFT	6	/* remote HZ smoothed by 1/64 */
#define LP_SOWD_SHIFT	3	/* smoothed OWD kept << 3, smoothed by 1/8 */

/* The module's flags (its struct lp's flag word). */
enum {
	LP_VALID_RHZ	= 1 << 0,	/* a remote HZ has been estimated */
	LP_VALID_OWD	= 1 << 1,	/* the last OWD sample was not 0 */
	LP_WITHIN_THR	= 1 << 3,	/* smoothed OWD below the threshold */
	LP_WITHIN_INF	= 1 << 4,	/* within the inference time-out of the last back-off */
};

/*
 * The remote HZ after an ACK carrying TSval tsval and TSecr tsecr, the last
 * ones being ref_tsval and ref_tsecr (0: none yet): the rate of the peer's
 * clock against ours, 1000 x dTSval / dTSecr, smoothed by 1/64.  An ACK that
 * moved neither clock (or only one) leaves it.  As in the module, 1000 x
 * dTSval is taken mod 2^32 and the estimate before smoothing is read << 6 in
 * 32 bits.  0 means not (yet) valid.
 */
static inline __u32 lp_remote_hz(__u32 remote_hz, __u32 ref_tsval, __u32 ref_tsecr,
				 __u32 tsval, __u32 tsecr)
{
	__s64 rhz = (__u32)(remote_hz << LP_RHZ_SHIFT);
	__s64 m;

	if (ref_tsval == 0 || ref_tsecr == 0 || tsval == ref_tsval || tsecr == ref_tsecr)
		return (__u32)(rhz >> LP_RHZ_SHIFT);
	m = (__u32)(LP_TS_HZ * (tsval - ref_tsval)) / (__u32)(tsecr - ref_tsecr);
	if (rhz > 0)
		rhz += m - (rhz >> LP_RHZ_SHIFT);
	else
		rhz = m << LP_RHZ_SHIFT;
	return (__u32)(rhz >> LP_RHZ_SHIFT);
}

/*
 * An OWD sample in ticks of 1 ms, relative (offset by the difference of the
 * two clocks), as the module takes it: the peer's TSval times the integer
 * 1000 / remote_hz (0 above 1000 Hz), less our TSecr, mod 2^32.  0 without a
 * remote HZ.
 */
static inline __u32 lp_owd(__u32 tsval, __u32 tsecr, __u32 remote_hz)
{
	if (remote_hz == 0)
		return 0;
	return tsval * (LP_TS_HZ / remote_hz) - tsecr * (LP_TS_HZ / LP_TS_HZ);
}

/* What the OWD samples have shown, in ticks (the module's fields). */
struct lp_owd_filter {
	__u32 sowd;		/* smoothed OWD << 3 (mod 2^32); 0 = no sample yet */
	__u32 owd_min;		/* smallest sample since the last back-off */
	__u32 owd_max;		/* largest but one (the largest is forgotten) */
	__u32 owd_max_rsv;	/* largest */
};

/*
 * One valid sample: the minimum; the maximum that forgets the largest
 * sample (owd_max trails one record behind owd_max_rsv, so a single spike
 * does not raise the threshold); sowd = 7/8 sowd + 1/8 sample, in 32 bits.
 */
static inline void lp_owd_sample(struct lp_owd_filter *f, __u32 mowd)
{
	if (mowd < f->owd_min)
		f->owd_min = mowd;
	if (mowd > f->owd_max) {
		if (mowd > f->owd_max_rsv) {
			f->owd_max = f->owd_max_rsv ? f->owd_max_rsv : mowd;
			f->owd_max_rsv = mowd;
		} else {
			f->owd_max = mowd;
		}
	}
	if (f->sowd)
		f->sowd += mowd - (f->sowd >> LP_SOWD_SHIFT);
	else
		f->sowd = mowd << LP_SOWD_SHIFT;
}

/* The early-congestion threshold: owd_min + pct% of the range, in 32 bits. */
static inline __u32 lp_threshold(__u32 owd_min, __u32 owd_max, __u32 pct)
{
	return owd_min + pct * (owd_max - owd_min) / 100;
}

/* Below the threshold: no early congestion. */
static inline int lp_within_threshold(const struct lp_owd_filter *f, __u32 pct)
{
	return f->sowd >> LP_SOWD_SHIFT < lp_threshold(f->owd_min, f->owd_max, pct);
}

/*
 * After a back-off the filter restarts around the smoothed OWD s: min at s,
 * max at 2 s, so the next indication needs the OWD 15% of s above s (the
 * module's FIXME: the paper keeps min and max).  That reads s as an OWD from
 * 0, which holds for the OWD of the paper's synchronised clocks, not for the
 * relative OWD the module measures.
 */
static inline void lp_owd_restart(struct lp_owd_filter *f)
{
	f->owd_min = f->sowd >> LP_SOWD_SHIFT;
	f->owd_max = f->sowd >> (LP_SOWD_SHIFT - 1);
	f->owd_max_rsv = f->owd_max;
}

/*
 * The inference time-out, in ticks: rtts x (now - TSecr), the RTT of the
 * segment this ACK echoes, when that is positive; else the last one.
 */
static inline __u32 lp_inference(__u32 inference, __u32 now, __u32 tsecr, __u32 rtts)
{
	__u32 delta = now - tsecr;

	return (__s32)delta > 0 ? rtts * delta : inference;
}

/* Within the time-out of a back-off at last_drop (0: none yet). */
static inline int lp_within_inference(__u32 now, __u32 last_drop, __u32 inference)
{
	return last_drop && now - last_drop < inference;
}

/* The window after an early indication: 1 within the time-out, else half. */
static inline __u32 lp_backoff_cwnd(__u32 cwnd, int within_inference)
{
	if (within_inference)
		return 1;
	return cwnd >> 1 > 1 ? cwnd >> 1 : 1;
}

#endif /* TCPCA_LP_H */
