// SPDX-License-Identifier: GPL-2.0
/*
 * Counters as one line of JSON.  Read while the threads run (SIGUSR1):
 * every counter has one writer and is an aligned u64, so a snapshot is
 * at worst a few packets stale, never torn.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "linkem.h"

const char *const drop_names[NDROP] = {
	"loss", "queue", "codel", "linkdown", "police", "pool", "write",
};

static void print_hist(FILE *f, const char *name, const struct hist *h)
{
	fprintf(f, "\"%s\":{\"n\":%llu,\"p50\":%.1f,\"p99\":%.1f,\"max\":%.1f}", name,
		(unsigned long long)h->count, hist_quantile(h, 0.5) / 1e3,
		hist_quantile(h, 0.99) / 1e3, h->max / 1e3);
}

static void print_dir(FILE *f, const struct dir *d)
{
	const struct counters *c = &d->st;
	u64 total = 0;
	int i;

	fprintf(f, "\"%s\":{\"pkts_in\":%llu,\"bytes_in\":%llu,\"pkts_out\":%llu,"
		"\"bytes_out\":%llu,\"dups\":%llu,\"late_writes\":%llu,\"ce_marked\":%llu,"
		"\"empty_ms\":%.3f,\"drops\":{",
		d->name, (unsigned long long)c->pkts_in, (unsigned long long)c->bytes_in,
		(unsigned long long)c->pkts_out, (unsigned long long)c->bytes_out,
		(unsigned long long)c->dups, (unsigned long long)c->late_writes,
		(unsigned long long)c->ce_marked, c->empty_ns / 1e6);
	for (i = 0; i < NDROP; i++) {
		fprintf(f, "\"%s\":%llu,", drop_names[i], (unsigned long long)c->drop[i]);
		total += c->drop[i];
	}
	fprintf(f, "\"total\":%llu},", (unsigned long long)total);
	print_hist(f, "qdelay_us", &c->qdelay);
	fputc(',', f);
	print_hist(f, "owd_us", &c->owd);
	fputc(',', f);
	print_hist(f, "lateness_us", &c->lateness);
	fputc(',', f);
	print_hist(f, "wakeup_us", &c->wakeup);
	fputc('}', f);
}

/*
 * The epoch every time of this run counts from (--event, --trace, the log),
 * on CLOCK_MONOTONIC, the clock of tcp_probe's stamps (trace_clock mono),
 * and the same instant on CLOCK_REALTIME (iperf3's, the shell's): a reader
 * aligns its times with ours without guessing when we started.
 */
static void print_epoch(FILE *f, u64 epoch)
{
	struct timespec real;
	u64 mono = now_ns();

	clock_gettime(CLOCK_REALTIME, &real);
	fprintf(f, "\"epoch_mono_s\":%.6f,\"epoch_real_s\":%.6f,", epoch / 1e9,
		real.tv_sec + real.tv_nsec / 1e9 - (double)(mono - epoch) / 1e9);
}

void stats_print(FILE *f, struct dir *dirs, u64 elapsed_ns, bool final)
{
	fprintf(f, "{\"elapsed_s\":%.3f,\"final\":%s,", elapsed_ns / 1e9,
		final ? "true" : "false");
	print_epoch(f, dirs[UP].epoch);
	print_dir(f, &dirs[UP]);
	fputc(',', f);
	print_dir(f, &dirs[DOWN]);
	fputs("}\n", f);
	fflush(f);
}

/* Replace the file atomically so a reader never sees half a snapshot. */
int stats_write(const char *path, struct dir *dirs, u64 elapsed_ns, bool final)
{
	char tmp[4096];
	FILE *f;

	if (!path || !strcmp(path, "-")) {
		stats_print(stderr, dirs, elapsed_ns, final);
		return 0;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp%d", path, (int)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "linkem: cannot write stats %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	stats_print(f, dirs, elapsed_ns, final);
	if (fclose(f) || rename(tmp, path)) {
		fprintf(stderr, "linkem: cannot write stats %s: %s\n", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}
