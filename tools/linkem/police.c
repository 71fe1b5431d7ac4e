// SPDX-License-Identifier: GPL-2.0
/*
 * A token-bucket policer at the link's entrance (--police RATE[:BURST]),
 * as tc's police action with "conform-exceed drop": tokens accrue at RATE
 * up to BURST bytes; a packet that finds fewer tokens than its length is
 * dropped on arrival, one that finds enough takes them and goes on to the
 * bottleneck.  Nothing waits here: that is what makes it a policer and
 * --rate a shaper.
 *
 * Tokens are kept in bits x 10^9, so that a nanosecond adds exactly
 * rate_bps of them: no rounding drifts the rate over a long run.
 */
#include "linkem.h"

static u64 bucket_full(const struct dir *d)
{
	return d->cf->police_burst * 8 * NSEC_PER_SEC;
}

/* The bucket starts full, as tc's does: the first BURST bytes pass. */
void police_start(struct dir *d, u64 epoch)
{
	d->pol_tokens = bucket_full(d);
	d->pol_last = epoch;
}

/* Whether a packet of len bytes arriving at t conforms; takes its tokens. */
bool police_pass(struct dir *d, u32 len, u64 t)
{
	u64 rate = d->cf->police_bps, full = bucket_full(d);
	u64 cost = (u64)len * 8 * NSEC_PER_SEC;

	if (!rate)
		return true;
	if (t > d->pol_last) {
		u64 dt = t - d->pol_last, room = full - d->pol_tokens;

		/* a gap long enough to fill the bucket fills it; only a
		 * shorter one is multiplied, which cannot overflow */
		if (dt > room / rate)
			d->pol_tokens = full;
		else
			d->pol_tokens += dt * rate;
		d->pol_last = t;
	}
	if (d->pol_tokens < cost)
		return false;
	d->pol_tokens -= cost;
	return true;
}
