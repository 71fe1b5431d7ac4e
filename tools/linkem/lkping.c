// SPDX-License-Identifier: GPL-2.0
/*
 * lkping: a minimal echo client for the testbed (the machine has no
 * ping).  Sends COUNT echoes at a fixed interval without waiting for
 * replies, so loss and delay measurements do not couple, then prints one
 * summary line of key=value.  ICMP by default (the reply comes from the
 * peer's kernel); with -u PORT, UDP datagrams to an lkping -l PORT on the
 * peer, which sends each back as it is: a path through user space at
 * both ends, as a TCP flow's.
 *
 *   lkping [-c COUNT] [-i SECONDS] [-s BYTES] [-W SECONDS] [-v] [-u PORT] ADDR
 *   lkping -l PORT			(UDP echo server, until killed)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "pct.h"

#define MAX_COUNT 65536		/* one echo per 16-bit sequence number */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static uint16_t csum(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t sum = 0;

	for (; len > 1; len -= 2, p += 2)
		sum += p[0] << 8 | p[1];
	if (len)
		sum += p[0] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons(~sum);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t *sent_at, *rtt;
static int count = 10, size = 56, verbose, received;
static uint16_t ident;
static int udp_port;	/* 0: ICMP */

static void send_echo(int sk, struct sockaddr_in *dst, int seq)
{
	uint8_t buf[65536];
	struct icmphdr *h = (struct icmphdr *)buf;

	if (udp_port) {	/* payload: ident, sequence */
		uint16_t *w = (uint16_t *)buf;
		size_t len = size < 4 ? 4 : size;

		memset(buf, 0, len);
		w[0] = htons(ident);
		w[1] = htons(seq);
		sent_at[seq] = now_ns();
		if (sendto(sk, buf, len, 0, (struct sockaddr *)dst, sizeof(*dst)) < 0)
			sent_at[seq] = 0;
		return;
	}
	memset(buf, 0, sizeof(*h) + size);
	h->type = ICMP_ECHO;
	h->un.echo.id = htons(ident);
	h->un.echo.sequence = htons(seq);
	h->checksum = csum(buf, sizeof(*h) + size);
	sent_at[seq] = now_ns();
	if (sendto(sk, buf, sizeof(*h) + size, 0, (struct sockaddr *)dst, sizeof(*dst)) < 0)
		sent_at[seq] = 0;
}

static void recv_echoes(int sk)
{
	uint8_t buf[65536];

	for (;;) {
		ssize_t n = recv(sk, buf, sizeof(buf), MSG_DONTWAIT);
		uint64_t t = now_ns();
		struct iphdr *ip = (struct iphdr *)buf;
		struct icmphdr *h;
		int seq;

		if (n < 0)
			return;
		if (udp_port) {
			uint16_t *w = (uint16_t *)buf;

			if (n < 4 || ntohs(w[0]) != ident)
				continue;
			seq = ntohs(w[1]);
		} else {
			if (n < (ssize_t)(ip->ihl * 4 + sizeof(*h)))
				continue;
			h = (struct icmphdr *)(buf + ip->ihl * 4);
			seq = ntohs(h->un.echo.sequence);
			if (h->type != ICMP_ECHOREPLY || ntohs(h->un.echo.id) != ident)
				continue;
		}
		if (seq >= count || !sent_at[seq] || rtt[seq])
			continue;
		rtt[seq] = t - sent_at[seq];
		received++;
		if (verbose)
			printf("seq=%d rtt_us=%.1f\n", seq, rtt[seq] / 1e3);
	}
}

/* Wait for replies until deadline, returning early once all are in. */
static void wait_until(int sk, uint64_t deadline, int until_all)
{
	struct pollfd p = { .fd = sk, .events = POLLIN };

	for (;;) {
		uint64_t t = now_ns();
		struct timespec ts;

		if (t >= deadline || (until_all && received == count))
			return;
		ts.tv_sec = (deadline - t) / 1000000000ULL;
		ts.tv_nsec = (deadline - t) % 1000000000ULL;
		if (ppoll(&p, 1, &ts, NULL) > 0)
			recv_echoes(sk);
	}
}

static double sorted_value(const void *ctx, uint64_t k)
{
	return ((const uint64_t *)ctx)[k];
}

static void summary(void)
{
	uint64_t *v = calloc(count, sizeof(*v));
	double sum = 0;
	int n = 0, i;

	if (!v) {
		fprintf(stderr, "lkping: out of memory\n");
		exit(2);
	}

	for (i = 0; i < count; i++)
		if (rtt[i]) {
			v[n++] = rtt[i];
			sum += rtt[i];
		}
	qsort(v, n, sizeof(*v), cmp_u64);
	printf("sent=%d received=%d loss=%.4f", count, received,
	       1.0 - (double)received / count);
	if (n)
		printf(" rtt_min_ms=%.3f rtt_p50_ms=%.3f rtt_avg_ms=%.3f rtt_p99_ms=%.3f rtt_max_ms=%.3f",
		       v[0] / 1e6, pct_ranked(0.5, n, sorted_value, v) / 1e6, sum / n / 1e6,
		       pct_ranked(0.99, n, sorted_value, v) / 1e6, v[n - 1] / 1e6);
	printf("\n");
	free(v);
}

/* -l PORT: send every datagram back to where it came from. */
static int echo_server(int port)
{
	struct sockaddr_in me = { .sin_family = AF_INET, .sin_port = htons(port) };
	uint8_t buf[65536];
	int sk = socket(AF_INET, SOCK_DGRAM, 0);

	if (sk < 0 || bind(sk, (struct sockaddr *)&me, sizeof(me)) < 0) {
		fprintf(stderr, "lkping: UDP port %d: %s\n", port, strerror(errno));
		return 2;
	}
	for (;;) {
		struct sockaddr_in from;
		socklen_t fl = sizeof(from);
		ssize_t n = recvfrom(sk, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);

		if (n >= 0)
			sendto(sk, buf, n, 0, (struct sockaddr *)&from, fl);
	}
}

static int port_arg(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	return *s && !*end && v > 0 && v < 65536 ? (int)v : -1;
}

int main(int argc, char **argv)
{
	double interval = 0.01, wait_s = 2;
	struct sockaddr_in dst = { .sin_family = AF_INET };
	uint64_t start;
	int sk, opt, i;

	while ((opt = getopt(argc, argv, "c:i:s:W:vu:l:")) != -1) {
		switch (opt) {
		case 'u':
			if ((udp_port = port_arg(optarg)) < 0)
				goto bad;
			dst.sin_port = htons(udp_port);
			break;
		case 'l':
			if (port_arg(optarg) < 0 || optind != argc)
				goto bad;
			return echo_server(port_arg(optarg));
		case 'c': count = atoi(optarg); break;
		case 'i': interval = atof(optarg); break;
		case 's': size = atoi(optarg); break;
		case 'W': wait_s = atof(optarg); break;
		case 'v': verbose = 1; break;
		default: goto bad;
		}
	}
	if (optind != argc - 1 || count < 1 || count > MAX_COUNT || size < 0 ||
	    size > 65000 || interval < 0 || wait_s < 0 ||
	    inet_pton(AF_INET, argv[optind], &dst.sin_addr) != 1)
		goto bad;
	sk = udp_port ? socket(AF_INET, SOCK_DGRAM, 0) : socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	if (sk < 0) {
		fprintf(stderr, udp_port ? "lkping: UDP socket: %s\n" : "lkping: raw socket: %s (needs root)\n", strerror(errno));
		return 2;
	}
	ident = getpid() & 0xffff;
	sent_at = calloc(count, sizeof(*sent_at));
	rtt = calloc(count, sizeof(*rtt));
	if (!sent_at || !rtt) {
		fprintf(stderr, "lkping: out of memory\n");
		return 2;
	}
	start = now_ns();
	for (i = 0; i < count; i++) {
		send_echo(sk, &dst, i);
		wait_until(sk, start + (uint64_t)((i + 1) * interval * 1e9), 0);
	}
	wait_until(sk, now_ns() + (uint64_t)(wait_s * 1e9), 1);
	summary();
	return 0;
bad:
	fprintf(stderr, "usage: lkping [-c COUNT (1..65536)] [-i SECONDS] [-s BYTES] [-W SECONDS] [-v] [-u PORT] ADDR\n"
			"       lkping -l PORT\n");
	return 2;
}
