// SPDX-License-Identifier: GPL-2.0
/*
 * linkem's ECN marking without root: the header bits RFC 3168 defines
 * (ECT(0) 10, ECT(1) 01 -> CE 11; Not-ECT 00 and CE untouched), the IPv4
 * header checksum after the change, checked by summing the whole header
 * again here (RFC 791's definition, not the incremental RFC 1624 update
 * under test), IPv6's Traffic Class, and the step threshold at the
 * bottleneck queue's arrival (enqueue() of tools/linkem/link.c, driven
 * with a hand-made direction and no TUN device).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../../tools/linkem/opts.c"
#include "../../tools/linkem/trace.c"
#include "../../tools/linkem/hist.c"
#include "../../tools/linkem/link.c"
#include "../../tools/linkem/police.c"
#include "../../tools/linkem/stats.c"
#include "tap.h"

void usage(FILE *f)	/* main.c's, which this test does not link */
{
	fputs("usage\n", f);
}

/* RFC 791: the one's complement of the one's complement sum of the header's words. */
static u16 ip_checksum(const u8 *h, int ihl_bytes)
{
	u32 sum = 0;
	int i;

	for (i = 0; i < ihl_bytes; i += 2)
		if (i != 10)
			sum += h[i] << 8 | h[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (u16)~sum;
}

static int ip_checksum_ok(const u8 *h)
{
	return ip_checksum(h, 20) == (h[10] << 8 | h[11]);
}

/* A 20-byte IPv4 header (TCP, 198.18.0.1 -> 198.18.0.2) with TOS tos and id id. */
static void ipv4(u8 *h, u8 tos, u16 id)
{
	u16 c;

	memset(h, 0, 20);
	h[0] = 0x45;
	h[1] = tos;
	h[2] = 1500 >> 8;
	h[3] = 1500 & 0xff;
	h[4] = id >> 8;
	h[5] = id & 0xff;
	h[6] = 0x40;		/* DF */
	h[8] = 64;
	h[9] = 6;
	h[12] = 198, h[13] = 18, h[14] = 0, h[15] = 1;
	h[16] = 198, h[17] = 18, h[18] = 0, h[19] = 2;
	c = ip_checksum(h, 20);
	h[10] = c >> 8;
	h[11] = c & 0xff;
}

static void test_ipv4(void)
{
	static const struct { u8 tos; int marks; const char *what; } cases[] = {
		{ 0x02, 1, "ECT(0)" }, { 0x01, 1, "ECT(1)" }, { 0x00, 0, "Not-ECT" },
		{ 0x03, 0, "CE already" }, { 0xb8 | 0x02, 1, "ECT(0) with DSCP EF" },
		{ 0xb8, 0, "Not-ECT with DSCP EF" },
	};
	u8 h[20], before[20];
	unsigned int i, id, bad = 0;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ipv4(h, cases[i].tos, 0x1234);
		memcpy(before, h, 20);
		ok(ecn_mark_ce(h, sizeof(h)) == cases[i].marks, "%s: %s", cases[i].what,
		   cases[i].marks ? "marked" : "not marked");
		if (cases[i].marks) {
			is_u(h[1], (u8)(cases[i].tos | 3), "%s: TOS 0x%02x -> 0x%02x (DSCP kept, ECN = CE)",
			     cases[i].what, cases[i].tos, cases[i].tos | 3);
			ok(ip_checksum_ok(h), "%s: header checksum valid after marking (0x%02x%02x)",
			   cases[i].what, h[10], h[11]);
			h[1] = before[1];
			h[10] = before[10];
			h[11] = before[11];
		}
		ok(!memcmp(h, before, 20), "%s: no other byte changed", cases[i].what);
	}
	/* every id: the checksum's carries and its 0x0000/0xffff forms */
	for (id = 0; id < 65536; id++) {
		ipv4(h, id & 1 ? 0x01 : 0x02, id);
		if (!ecn_mark_ce(h, sizeof(h)) || (h[1] & 3) != 3 || !ip_checksum_ok(h))
			bad++;
	}
	is_u(bad, 0, "65536 headers (every id): marked with a valid checksum");
	ok(!ecn_mark_ce(h, 19), "a truncated IPv4 header is left alone");
}

static void test_ipv6(void)
{
	u8 h[40], before[40];

	memset(h, 0, sizeof(h));
	h[0] = 0x60 | 0x0b;	/* version 6, Traffic Class high nibble 0xb */
	h[1] = 0x20 | 0x05;	/* Traffic Class 0xb2: ECN 10 (ECT(0)); flow label 0x5.. */
	h[6] = 6;
	h[7] = 64;
	memcpy(before, h, sizeof(h));
	ok(ecn_field(h, sizeof(h)) == ECN_ECT0, "IPv6: ECT(0) read from the Traffic Class");
	ok(ecn_mark_ce(h, sizeof(h)), "IPv6 ECT(0) is marked");
	is_u(h[1], 0x35, "IPv6: Traffic Class ECN bits 11, flow label untouched");
	is_u(h[0], before[0], "IPv6: version and DSCP untouched");
	h[1] = 0x05;		/* Not-ECT */
	ok(!ecn_mark_ce(h, sizeof(h)) && h[1] == 0x05, "IPv6 Not-ECT is left alone");
	h[0] = 0x50;
	ok(!ecn_mark_ce(h, sizeof(h)), "neither IPv4 nor IPv6: left alone");
}

/*
 * The step threshold: at 12 Mbit/s a 1500-byte packet takes 1 ms.  Packets
 * all arriving at t = 0: the first goes on the wire, the rest wait; with
 * --ecn-threshold 3 the packets that find 3 or more waiting (the 5th on)
 * are marked, Not-ECT ones are not, and the queue limit still drops.
 */
static struct dir *make_dir(struct conf *c, u64 ecn_pkts, u64 ecn_bytes, u64 limit)
{
	static volatile bool stop;
	struct dir *d = calloc(1, sizeof(*d));

	memset(c, 0, sizeof(*c));
	c->mtu = 1500;
	c->pool = 64;
	c->seed = 1;
	c->d[UP].rate_bps = 12000000;
	c->d[UP].ecn_pkts = ecn_pkts;
	c->d[UP].ecn_bytes = ecn_bytes;
	c->d[UP].limit_pkts = limit;
	if (!d || dir_init(d, UP, c, -1, -1, &stop))
		return NULL;
	dir_start(d, 1);
	return d;
}

static u32 arrive(struct dir *d, u8 tos)
{
	u32 idx;
	struct slot *s;

	if (slot_alloc(d, &idx))
		return ~0U;
	s = slot_of(d, idx);
	s->len = 1500;
	memset(s->data, 0, s->len);
	ipv4(s->data, tos, (u16)idx);
	on_arrival(d, idx, 1);
	return idx;
}

static void test_threshold(void)
{
	static struct conf c;
	struct dir *d = make_dir(&c, 3, 0, 0);
	u32 idx[10];
	int i, marked_ok = 1, sum_ok = 1;

	if (!ok(d != NULL, "a direction without devices"))
		return;
	for (i = 0; i < 10; i++)
		idx[i] = arrive(d, i == 6 ? 0x00 : 0x02);	/* the 7th is Not-ECT */
	for (i = 0; i < 10; i++) {
		u8 *p = slot_of(d, idx[i])->data;
		int want = i >= 4 && i != 6;

		if (((p[1] & 3) == 3) != want) {
			diag("packet %d (found %d waiting): ECN %u", i + 1, i > 0 ? i - 1 : 0, p[1] & 3);
			marked_ok = 0;
		}
		sum_ok &= ip_checksum_ok(p);
	}
	ok(marked_ok, "threshold 3: packets that find >= 3 waiting are CE, earlier ones and Not-ECT not");
	is_u(d->st.ce_marked, 5, "ce_marked counts the 5 marked packets");
	ok(sum_ok, "every queued packet's header checksum is valid");
	is_u(d->st.drop[DROP_QUEUE], 0, "no drop: ECN marks instead");
	is_u(ring_len(&d->q), 10, "all 10 queued");
	dir_free(d);
	free(d);

	/* bytes: 4500 B = 3 full-size packets waiting, the same packets */
	d = make_dir(&c, 0, 4500, 0);
	for (i = 0; i < 10; i++)
		idx[i] = arrive(d, 0x01);
	is_u(d->st.ce_marked, 6, "threshold 4500B: 6 of 10 ECT(1) packets found >= 4500 bytes waiting");
	dir_free(d);
	free(d);

	/* a queue limit of 5 above the threshold of 3: marks from 3 waiting, drops from 5 */
	d = make_dir(&c, 3, 0, 5);
	for (i = 0; i < 10; i++)
		arrive(d, 0x02);
	is_u(d->st.ce_marked, 2, "threshold 3, queue 5: the 5th and 6th marked");
	is_u(d->st.drop[DROP_QUEUE], 4, "and the queue limit still drops ECT packets (4)");
	dir_free(d);
	free(d);

	/* off: nothing marked */
	d = make_dir(&c, 0, 0, 0);
	for (i = 0; i < 10; i++)
		arrive(d, 0x02);
	is_u(d->st.ce_marked, 0, "without --ecn-threshold nothing is marked");
	dir_free(d);
	free(d);
}

static int args(struct conf *c, const char *line)
{
	static char buf[512];	/* conf keeps pointers into it */
	char *argv[32], *tok, *save;
	int argc = 0;

	snprintf(buf, sizeof(buf), "linkem %s a b", line);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 31; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	optind = 0;	/* glibc: start getopt afresh */
	return parse_args(c, argc, argv);
}

static void test_option(void)
{
	static struct conf c;

	ok(!args(&c, "--ecn-threshold 20") && c.d[UP].ecn_pkts == 20 &&
	   c.d[DOWN].ecn_pkts == 20 && !c.d[UP].ecn_bytes, "--ecn-threshold 20: packets, both directions");
	ok(!args(&c, "--up-ecn-threshold 30kB") && c.d[UP].ecn_bytes == 30000 &&
	   !c.d[UP].ecn_pkts && !c.d[DOWN].ecn_bytes && !c.d[DOWN].ecn_pkts,
	   "--up-ecn-threshold 30kB: bytes, up only");
	ok(!args(&c, "--ecn-threshold 10 --down-ecn-threshold 64KiB") && c.d[UP].ecn_pkts == 10 &&
	   c.d[DOWN].ecn_bytes == 65536 && !c.d[DOWN].ecn_pkts, "later wins, per direction");
	fclose(stderr);		/* the refusals' messages */
	ok(args(&c, "--ecn-threshold 0") < 0, "threshold 0 is refused");
	ok(args(&c, "--ecn-threshold 1.5") < 0, "a fraction of a packet is refused");
	ok(args(&c, "--ecn-threshold 20ms") < 0, "a time is refused");
}

int main(void)
{
	test_ipv4();
	test_ipv6();
	test_threshold();
	test_option();
	return done_testing();
}
