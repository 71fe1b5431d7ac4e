// SPDX-License-Identifier: GPL-2.0
/*
 * linkem: emulate a link between network namespaces A and B.
 * One thread per direction moves packets; the main thread only waits
 * for signals, so stats and shutdown never race the packet path.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "linkem.h"

void usage(FILE *f)
{
	fputs(
"usage: linkem [OPTIONS] NS_A NS_B\n"
"Joins network namespaces NS_A and NS_B (names in /run/netns, or paths)\n"
"through a TUN device in each.  'up' is A->B, 'down' is B->A.\n"
"Link options, each also as --up-X / --down-X for one direction:\n"
"  --rate RATE          bit/s: 10mbit, 1.5gbit, 800kbit, 1000000; inf (default)\n"
"  --trace FILE         Mahimahi trace instead of a fixed rate\n"
"  --delay TIME         one-way delay: 20ms, 150us, 1s (bare number: ms)\n"
"  --jitter TIME        uniform +-TIME on top of the delay, keeps order\n"
"  --jitter-reorder     let jitter reorder packets\n"
"  --loss P             i.i.d. loss: 0.01 or 1%\n"
"  --gilbert P,R[,B[,G]] Gilbert-Elliott: P good->bad, R bad->good,\n"
"                       loss B in bad (default 1), G in good (default 0)\n"
"  --queue N|BYTES      droptail limit: 100 (packets), 30kB, 64KiB, 20000B\n"
"  --codel TARGET[,INTERVAL]  CoDel at the bottleneck (interval 100ms)\n"
"  --ecn-threshold N|BYTES  mark ECT packets CE that find N (BYTES) waiting\n"
"  --police RATE[:BURST]  token-bucket policer before the queue: drops (never\n"
"                       queues) what exceeds RATE; BURST, the bucket, in bytes\n"
"                       (30000, 30kB, 64KiB) or time at RATE (40ms); default\n"
"                       100KiB (tc-police(8)'s example); at least the MTU\n"
"  --reorder P          chance a packet skips the delay line\n"
"  --dup P              chance a packet is duplicated\n"
"  --port-delay PORT:TIME  packets from/to PORT use this delay instead\n"
"  --event T:down:DUR | T:rate:RATE | T:delay:TIME | T:loss:P\n"
"                       T from the start; +T from the direction's first packet\n"
"  --log FILE           per-packet log (--log P writes P.up and P.down)\n"
"Global options:\n"
"  --seed N             PRNG seed (default 1)\n"
"  --mtu N              TUN MTU (default 1500)\n"
"  --dev-a NAME, --dev-b NAME   device names (default linkem0)\n"
"  --addr-a CIDR, --addr-b CIDR addresses (default 198.18.0.1/24, .2/24;\n"
"                       'none' leaves the device unconfigured, but up)\n"
"  --stats FILE         JSON counters on exit and SIGUSR1 (default stderr)\n"
"  --pidfile FILE       write the PID once the link is up\n"
"  --ready-fd N         write \"ready\\n\" to fd N once the link is up\n"
"  --duration TIME      exit after TIME\n"
"  --spin TIME          busy-poll this close to a deadline (default 50us)\n"
"  --pool N             packet slots per direction (default 65536)\n"
"  --threads 1|2        one thread per direction (default 2), or one for both\n"
"  --txqlen N           TUN transmit queue length (default 1000)\n"
"\n"
"linkem --trace-info FILE [--duration TIME]: FILE's capacity as one line of\n"
"JSON: opportunities, period_s, mean_bps over the whole trace, and with\n"
"--duration window_s, window_opportunities, window_bps over its first TIME\n"
"(loops included); no root needed.\n", f);
}

static int open_devices(struct conf *c, int fd[NDIR])
{
	int i;

	for (i = UP; i < NDIR; i++) {
		fd[i] = tun_open_in_ns(c->ns[i], c->dev[i], c->addr[i], c->mtu,
				       c->txqlen);
		if (fd[i] < 0)
			return -1;
	}
	return 0;
}

static int write_pidfile(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f)) {
		fprintf(stderr, "linkem: cannot write pidfile %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

static void signal_ready(int fd)
{
	if (fd < 0)
		return;
	if (write(fd, "ready\n", 6) != 6)
		fprintf(stderr, "linkem: cannot write to ready fd %d: %s\n", fd,
			strerror(errno));
	close(fd);
}

/* Wait for INT/TERM/HUP or the duration; SIGUSR1 dumps stats. */
static void wait_signals(struct conf *c, struct dir *dirs, u64 epoch,
			 const sigset_t *set)
{
	for (;;) {
		struct timespec ts = { .tv_sec = 1 };
		u64 now = now_ns();
		int sig;

		if (c->duration_ns) {
			u64 end = epoch + c->duration_ns;

			if (now >= end)
				return;
			if (end - now < NSEC_PER_SEC) {
				ts.tv_sec = 0;
				ts.tv_nsec = end - now;
			}
		}
		sig = sigtimedwait(set, NULL, &ts);
		if (sig == SIGUSR1)
			stats_write(c->stats_path, dirs, now_ns() - epoch, false);
		else if (sig > 0)
			return;
	}
}

static int run(struct conf *c, int fd[NDIR])
{
	static struct dir dirs[NDIR];
	static volatile bool stop;
	pthread_t th[NDIR];
	int started = 0, rc = 0, i;
	sigset_t set;
	u64 epoch;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGUSR1);
	for (i = UP; i < NDIR; i++) {
		rc = dir_init(&dirs[i], i, c, fd[i], fd[!i], &stop);
		if (rc) {
			if (rc == -1)
				fprintf(stderr, "linkem: out of memory for a %u-slot pool\n",
					c->pool);
			goto out;
		}
	}
	if (c->pidfile && write_pidfile(c->pidfile)) {
		rc = -1;
		goto out;
	}
	epoch = now_ns();
	for (i = UP; i < NDIR; i++)
		dir_start(&dirs[i], epoch);
	for (; started < c->threads; started++) {
		if (pthread_create(&th[started], NULL, c->threads == 1 ? dirs_run : dir_run,
				   &dirs[started])) {
			fprintf(stderr, "linkem: cannot start a thread\n");
			rc = -1;
			goto join;
		}
	}
	signal_ready(c->ready_fd);
	wait_signals(c, dirs, epoch, &set);
join:
	stop = true;
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	if (started == c->threads && stats_write(c->stats_path, dirs, now_ns() - epoch, true))
		rc = -1;
	if (c->pidfile)
		unlink(c->pidfile);
out:
	for (i = UP; i < NDIR; i++)
		dir_free(&dirs[i]);
	return rc;
}

int main(int argc, char **argv)
{
	struct conf c;
	int fd[NDIR] = { -1, -1 };
	sigset_t set;
	int rc;

	rc = parse_args(&c, argc, argv);
	if (rc == 2)
		return trace_info(c.trace_info, c.duration_ns, stdout) ? 2 : 0;
	if (rc)
		return rc > 0 ? 0 : 2;
	if (geteuid() != 0) {
		fprintf(stderr, "linkem: needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN for setns)\n");
		return 1;
	}
	/* block before any thread exists so only sigtimedwait sees them;
	 * a signal during setup then ends the run through the same path */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (open_devices(&c, fd))
		rc = 1;
	else if (run(&c, fd))
		rc = 1;
	if (fd[UP] >= 0)
		close(fd[UP]);
	if (fd[DOWN] >= 0)
		close(fd[DOWN]);
	return rc;
}
