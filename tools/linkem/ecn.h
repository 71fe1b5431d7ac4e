/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ECN marking (RFC 3168 section 5): the two low bits of the IPv4 TOS byte
 * or the IPv6 Traffic Class are the ECN field, 00 Not-ECT, 10 ECT(0),
 * 01 ECT(1), 11 CE.  A router that would signal congestion sets an ECT
 * packet's field to CE instead of dropping it, and leaves Not-ECT packets
 * alone (they can only be dropped).  Pure functions on the packet bytes, so
 * tests/unit/test_linkem_ecn.c checks them without root.
 */
#ifndef LINKEM_ECN_H
#define LINKEM_ECN_H

#include "linkem.h"

#define ECN_MASK	3
#define ECN_NOT_ECT	0
#define ECN_ECT1	1
#define ECN_ECT0	2
#define ECN_CE		3

/* The ECN field of an IPv4 or IPv6 packet; -1 if it is neither or too short. */
static inline int ecn_field(const u8 *p, u32 len)
{
	if (len >= 20 && (p[0] >> 4) == 4)
		return p[1] & ECN_MASK;
	if (len >= 40 && (p[0] >> 4) == 6)
		return (p[1] >> 4) & ECN_MASK;
	return -1;
}

/*
 * One's-complement header checksum after a 16-bit word of the header changed
 * from old to new, without summing the header again: RFC 1624 eqn. 3,
 * HC' = ~(~HC + ~m + m').
 */
static inline u16 csum_replace16(u16 check, u16 old, u16 new)
{
	u32 sum = (u16)~check + (u16)~old + (u32)new;

	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (u16)~sum;
}

/*
 * ECT(0) or ECT(1) becomes CE; the IPv4 header checksum follows (IPv6 has
 * none).  True if the packet was marked; Not-ECT, CE already, and what is
 * not IP are left as they are.
 */
static inline bool ecn_mark_ce(u8 *p, u32 len)
{
	int f = ecn_field(p, len);

	if (f != ECN_ECT0 && f != ECN_ECT1)
		return false;
	if ((p[0] >> 4) == 4) {
		/* TOS is the low byte of the header's first 16-bit word */
		u16 old = p[0] << 8 | p[1], new = old | ECN_CE;
		u16 check = csum_replace16(p[10] << 8 | p[11], old, new);

		p[1] |= ECN_CE;
		p[10] = check >> 8;
		p[11] = check & 0xff;
	} else {
		p[1] |= ECN_CE << 4;
	}
	return true;
}

#endif
