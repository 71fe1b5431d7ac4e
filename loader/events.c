// SPDX-License-Identifier: GPL-2.0
/*
 * --events NAME [SECONDS]: the algorithm's decision records as CSV on stdout,
 * until SIGINT/SIGTERM or SECONDS have passed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "tcpca.h"
#include "tcpca_events.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int print_event(void *ctx, void *data, size_t size)
{
	const struct tcpca_event *e = data;
	int v6 = e->family == AF_INET6;
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];

	(void)ctx;
	if (size < sizeof(*e))
		return 0;
	inet_ntop(v6 ? AF_INET6 : AF_INET, e->saddr, src, sizeof(src));
	inet_ntop(v6 ? AF_INET6 : AF_INET, e->daddr, dst, sizeof(dst));
	/* as ss writes them: [v6]:port */
	printf("%llu.%09llu,%s%s%s:%u,%s%s%s:%u,%u,%u,%u,%u,%u,%u,%u,%u\n",
	       (unsigned long long)(e->time_ns / 1000000000),
	       (unsigned long long)(e->time_ns % 1000000000),
	       v6 ? "[" : "", src, v6 ? "]" : "", e->sport, v6 ? "[" : "", dst, v6 ? "]" : "",
	       e->dport, e->kind, e->cwnd, e->ssthresh, e->srtt_us,
	       e->v[0], e->v[1], e->v[2], e->v[3]);
	return 0;
}

int show_events(const char *path, double seconds)
{
	struct timespec start, now;
	struct ring_buffer *rb;
	int fd = bpf_obj_get(path);

	if (fd < 0) {
		int e = -errno;	/* before err() may change it */

		err("%s: %s", path, strerror(-e));
		return e;
	}
	rb = ring_buffer__new(fd, print_event, NULL, NULL);
	if (!rb) {
		err("cannot read the ring buffer %s", path);
		close(fd);
		return -EIO;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("time_s,local,peer,kind,cwnd,ssthresh,srtt_us,v0,v1,v2,v3\n");
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (!stop) {
		if (ring_buffer__poll(rb, 100) < 0 && errno != EINTR)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (seconds > 0 && (now.tv_sec - start.tv_sec) +
		    (now.tv_nsec - start.tv_nsec) / 1e9 >= seconds)
			break;
	}
	ring_buffer__free(rb);
	close(fd);
	return 0;
}
