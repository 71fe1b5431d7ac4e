// SPDX-License-Identifier: GPL-2.0
/*
 * Command line.  Every link option exists three times: --X sets both
 * directions, --up-X only A->B, --down-X only B->A; later ones win.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "linkem.h"

struct unit {
	const char *name;
	double mult;
};

static const struct unit rate_units[] = {
	{ "", 1 }, { "bit", 1 }, { "k", 1e3 }, { "kbit", 1e3 },
	{ "m", 1e6 }, { "mbit", 1e6 }, { "g", 1e9 }, { "gbit", 1e9 }, { NULL, 0 }
};

static const struct unit time_units[] = {
	{ "", 1e6 }, { "ms", 1e6 }, { "s", 1e9 }, { "us", 1e3 }, { "ns", 1 },
	{ NULL, 0 }
};

/* A non-negative decimal number followed by one of the units. */
static int parse_scaled(const char *s, const struct unit *u, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	for (; u->name; u++) {
		if (!strcasecmp(end, u->name)) {
			*out = v * u->mult;
			return 0;
		}
	}
	return -1;
}

int parse_rate(const char *s, u64 *bps)
{
	double v;

	if (!strcasecmp(s, "inf") || !strcasecmp(s, "unlimited")) {
		*bps = 0;
		return 0;
	}
	if (parse_scaled(s, rate_units, &v) || v > 1e12 || (v > 0 && v < 1000))
		return -1;
	*bps = (u64)llround(v);
	return 0;
}

int parse_time(const char *s, u64 *ns)
{
	double v;

	if (parse_scaled(s, time_units, &v) || v > 3600e9)
		return -1;
	*ns = (u64)llround(v);
	return 0;
}

int parse_prob(const char *s, u32 *p)
{
	size_t n = strlen(s);
	bool percent;
	char buf[64];
	char *end;
	double v;

	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n + 1);
	percent = buf[n - 1] == '%';
	if (percent)
		buf[n - 1] = 0;
	errno = 0;
	v = strtod(buf, &end);
	if (errno || end == buf || *end || !(v >= 0))
		return -1;
	if (percent)
		v /= 100;
	if (v > 1)
		return -1;
	*p = v >= 1 ? PROB_ONE : (u32)llround(v * 4294967296.0);
	return 0;
}

/* 100, 100p, 100pkts: packets; 30000B, 30kB, 1MB, 64KiB: bytes. */
static int parse_queue(const char *s, u64 *pkts, u64 *bytes)
{
	static const struct unit qunits[] = {
		{ "b", 1 }, { "bytes", 1 }, { "kb", 1e3 }, { "mb", 1e6 },
		{ "kib", 1024 }, { "mib", 1048576 }, { NULL, 0 }
	};
	static const struct unit punits[] = {
		{ "", 1 }, { "p", 1 }, { "pkts", 1 }, { "packets", 1 }, { NULL, 0 }
	};
	double v;

	if (!parse_scaled(s, punits, &v) && v == floor(v) && v < 1e9) {
		*pkts = v;
		*bytes = 0;
		return 0;
	}
	if (!parse_scaled(s, qunits, &v) && v < 1e12) {
		*bytes = v;
		*pkts = 0;
		return 0;
	}
	return -1;
}

/*
 * --police RATE[:BURST]: BURST in bytes (a bare number, or B, kB, MB, KiB,
 * MiB as --queue's) or as time at RATE (ms, s, us); by default tc-police(8)'s
 * example bucket, "burst 100k", which tc reads as 100 KiB.
 */
#define POLICE_BURST_DEFAULT	102400
#define POLICE_BURST_MAX	1000000000ULL	/* keeps bits x 10^9 in a u64 */

static int parse_police(char *s, struct dir_conf *d)
{
	static const struct unit bunits[] = {
		{ "", 1 }, { "b", 1 }, { "bytes", 1 }, { "kb", 1e3 }, { "mb", 1e6 },
		{ "kib", 1024 }, { "mib", 1048576 }, { NULL, 0 }
	};
	static const struct unit tunits[] = {
		{ "ms", 1e6 }, { "s", 1e9 }, { "us", 1e3 }, { NULL, 0 }
	};
	char *colon = strchr(s, ':');
	double v;

	if (colon)
		*colon++ = 0;
	if (parse_rate(s, &d->police_bps))
		return -1;
	if (!colon) {
		d->police_burst = POLICE_BURST_DEFAULT;
	} else if (!parse_scaled(colon, bunits, &v)) {
		d->police_burst = (u64)llround(v);
	} else if (!parse_scaled(colon, tunits, &v)) {
		/* ns x bit/s / 8e9: bytes the rate brings in that time */
		d->police_burst = (u64)llround(v / 1e9 * d->police_bps / 8);
	} else {
		return -1;
	}
	return d->police_burst <= POLICE_BURST_MAX ? 0 : -1;
}

static int parse_uint(const char *s, u64 max, u64 *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);	/* decimal only: 010 is ten */
	if (errno || !isdigit((unsigned char)s[0]) || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

/* "A,B[,C[,D]]" of probabilities */
static int parse_prob_list(char *s, u32 *p, int min, int max)
{
	int n = 0;
	char *tok, *save = NULL;

	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == max || parse_prob(tok, &p[n]))
			return -1;
		n++;
	}
	return n >= min ? 0 : -1;
}

static int parse_event(char *s, struct dir_conf *d)
{
	char *at = s, *kind, *arg;
	struct event *e;

	kind = strchr(at, ':');
	if (!kind || d->nev == MAX_EVENTS)
		return -1;
	*kind++ = 0;
	arg = strchr(kind, ':');
	if (!arg)
		return -1;
	*arg++ = 0;
	e = &d->ev[d->nev];
	e->after_first = *at == '+';
	/* one clock per direction, so that its events keep their order */
	if (d->nev && e->after_first != d->ev[0].after_first)
		return -1;
	if (parse_time(at + e->after_first, &e->at_ns))
		return -1;
	if (!strcmp(kind, "down")) {
		e->type = EV_DOWN;
		if (parse_time(arg, &e->arg))
			return -1;
	} else if (!strcmp(kind, "rate")) {
		e->type = EV_RATE;
		if (parse_rate(arg, &e->arg))
			return -1;
	} else if (!strcmp(kind, "delay")) {
		e->type = EV_DELAY;
		if (parse_time(arg, &e->arg))
			return -1;
	} else if (!strcmp(kind, "loss")) {
		u32 p;

		e->type = EV_LOSS;
		if (parse_prob(arg, &p))
			return -1;
		e->arg = p;
	} else {
		return -1;
	}
	d->nev++;
	return 0;
}

static int parse_port_delay(char *s, struct dir_conf *d)
{
	char *colon = strchr(s, ':');
	u64 port;
	struct delay_class *k;

	if (!colon || d->ncls == MAX_CLASSES)
		return -1;
	*colon = 0;
	k = &d->cls[d->ncls];
	if (parse_uint(s, 65535, &port) || !port ||
	    parse_time(colon + 1, &k->delay_ns))
		return -1;
	k->port = port;
	d->ncls++;
	return 0;
}

enum link_opt {
	L_RATE, L_TRACE, L_DELAY, L_JITTER, L_JREORDER, L_LOSS, L_GILBERT,
	L_QUEUE, L_CODEL, L_REORDER, L_DUP, L_PORTDELAY, L_EVENT, L_LOG,
	L_ECN, L_POLICE, NLINK
};

static const struct {
	const char *name;
	int has_arg;
} link_opts[NLINK] = {
	[L_RATE] = { "rate", 1 }, [L_TRACE] = { "trace", 1 },
	[L_DELAY] = { "delay", 1 }, [L_JITTER] = { "jitter", 1 },
	[L_JREORDER] = { "jitter-reorder", 0 }, [L_LOSS] = { "loss", 1 },
	[L_GILBERT] = { "gilbert", 1 }, [L_QUEUE] = { "queue", 1 },
	[L_CODEL] = { "codel", 1 }, [L_REORDER] = { "reorder", 1 },
	[L_DUP] = { "dup", 1 }, [L_PORTDELAY] = { "port-delay", 1 },
	[L_EVENT] = { "event", 1 }, [L_LOG] = { "log", 1 },
	[L_ECN] = { "ecn-threshold", 1 }, [L_POLICE] = { "police", 1 },
};

enum global_opt {
	G_SEED = 1000, G_MTU, G_DEVA, G_DEVB, G_ADDRA, G_ADDRB, G_STATS,
	G_PIDFILE, G_READY, G_DURATION, G_SPIN, G_POOL, G_TXQLEN, G_THREADS, G_HELP,
	G_TRACE_INFO,
};

static const struct option global_opts[] = {
	{ "seed", 1, NULL, G_SEED }, { "mtu", 1, NULL, G_MTU },
	{ "dev-a", 1, NULL, G_DEVA }, { "dev-b", 1, NULL, G_DEVB },
	{ "addr-a", 1, NULL, G_ADDRA }, { "addr-b", 1, NULL, G_ADDRB },
	{ "stats", 1, NULL, G_STATS }, { "pidfile", 1, NULL, G_PIDFILE },
	{ "ready-fd", 1, NULL, G_READY }, { "duration", 1, NULL, G_DURATION },
	{ "spin", 1, NULL, G_SPIN }, { "pool", 1, NULL, G_POOL },
	{ "txqlen", 1, NULL, G_TXQLEN }, { "threads", 1, NULL, G_THREADS },
	{ "help", 0, NULL, G_HELP }, { "trace-info", 1, NULL, G_TRACE_INFO },
};

#define NGLOBAL (sizeof(global_opts) / sizeof(global_opts[0]))

static char link_names[NLINK][3][32];

/* val = opt * 4 + variant, variant 0: both, 1: up, 2: down */
static struct option *build_options(void)
{
	static struct option o[NLINK * 3 + NGLOBAL + 1];
	static const char *prefix[3] = { "", "up-", "down-" };
	size_t i, n = 0;
	int v;

	for (i = 0; i < NLINK; i++) {
		for (v = 0; v < 3; v++) {
			snprintf(link_names[i][v], sizeof(link_names[i][v]), "%s%s",
				 prefix[v], link_opts[i].name);
			o[n].name = link_names[i][v];
			o[n].has_arg = link_opts[i].has_arg;
			o[n].flag = NULL;
			o[n].val = i * 4 + v;
			n++;
		}
	}
	for (i = 0; i < NGLOBAL; i++)
		o[n++] = global_opts[i];
	memset(&o[n], 0, sizeof(o[n]));
	return o;
}

static int apply_link_opt(struct conf *c, struct dir_conf *d, int opt,
			  const char *arg, int variant)
{
	char buf[512];
	u32 p[4];

	if (arg && strlen(arg) >= sizeof(buf))
		return -1;
	if (arg)
		strcpy(buf, arg);
	switch (opt) {
	case L_RATE:
		d->trace.n = 0;
		return parse_rate(arg, &d->rate_bps);
	case L_TRACE:
		free(d->trace.ms);
		memset(&d->trace, 0, sizeof(d->trace));
		return trace_load(&d->trace, arg) ? -2 : 0;
	case L_DELAY:
		return parse_time(arg, &d->delay_ns);
	case L_JITTER:
		return parse_time(arg, &d->jitter_ns);
	case L_JREORDER:
		d->jitter_reorder = true;
		return 0;
	case L_LOSS:
		return parse_prob(arg, &d->loss);
	case L_GILBERT:
		p[2] = PROB_ONE;	/* loss in the bad state */
		p[3] = 0;		/* loss in the good state */
		if (parse_prob_list(buf, p, 2, 4))
			return -1;
		d->ge = true;
		d->ge_p = p[0];
		d->ge_r = p[1];
		d->ge_loss_bad = p[2];
		d->ge_loss_good = p[3];
		return 0;
	case L_QUEUE:
		return parse_queue(arg, &d->limit_pkts, &d->limit_bytes);
	case L_CODEL: {
		char *comma = strchr(buf, ',');

		d->codel_interval_ns = 100 * NSEC_PER_MSEC;
		if (comma) {
			*comma = 0;
			if (parse_time(comma + 1, &d->codel_interval_ns) ||
			    !d->codel_interval_ns)
				return -1;
		}
		d->codel = true;
		return parse_time(buf, &d->codel_target_ns);
	}
	case L_ECN:
		/* the queue's forms; 0 would mark every ECT packet: refused */
		if (parse_queue(arg, &d->ecn_pkts, &d->ecn_bytes) ||
		    (!d->ecn_pkts && !d->ecn_bytes))
			return -1;
		return 0;
	case L_POLICE:
		return parse_police(buf, d);
	case L_REORDER:
		return parse_prob(arg, &d->reorder);
	case L_DUP:
		return parse_prob(arg, &d->dup);
	case L_PORTDELAY:
		return parse_port_delay(buf, d);
	case L_EVENT:
		return parse_event(buf, d);
	case L_LOG:
		if (variant == 0) {
			/* --log PREFIX: PREFIX.up and PREFIX.down */
			char *path = malloc(strlen(arg) + 8);

			if (!path)
				return -1;
			sprintf(path, "%s.%s", arg, d == &c->d[UP] ? "up" : "down");
			d->log_path = path;
		} else {
			d->log_path = arg;
		}
		return 0;
	}
	return -1;
}

static int apply_global_opt(struct conf *c, int opt, const char *arg)
{
	u64 v;

	switch (opt) {
	case G_SEED:
		return parse_uint(arg, UINT64_MAX, &c->seed);
	case G_MTU:
		if (parse_uint(arg, 9000, &v) || v < 576)
			return -1;
		c->mtu = v;
		return 0;
	case G_DEVA:
	case G_DEVB:
		if (!*arg || strlen(arg) > 15)
			return -1;
		c->dev[opt == G_DEVA ? UP : DOWN] = arg;
		return 0;
	case G_ADDRA:
	case G_ADDRB:
		c->addr[opt == G_ADDRA ? UP : DOWN] =
			strcmp(arg, "none") ? arg : NULL;
		return 0;
	case G_STATS:
		c->stats_path = arg;
		return 0;
	case G_PIDFILE:
		c->pidfile = arg;
		return 0;
	case G_READY:
		if (parse_uint(arg, 1024, &v) || v < 3)
			return -1;
		c->ready_fd = v;
		return 0;
	case G_DURATION:
		return parse_time(arg, &c->duration_ns);
	case G_SPIN:
		return parse_time(arg, &c->spin_ns);
	case G_POOL:
		if (parse_uint(arg, 1 << 22, &v) || v < 64)
			return -1;
		c->pool = v;
		return 0;
	case G_THREADS:
		if (parse_uint(arg, 2, &v) || v < 1)
			return -1;
		c->threads = v;
		return 0;
	case G_TXQLEN:
		if (parse_uint(arg, 1 << 20, &v))
			return -1;
		c->txqlen = v;
		return 0;
	case G_TRACE_INFO:
		c->trace_info = arg;
		return 0;
	}
	return -1;
}

static int apply_opt(struct conf *c, int val, const char *arg, const char *name)
{
	int rc = 0, opt = val / 4, variant = val % 4, i;

	if (val >= 1000)
		rc = apply_global_opt(c, val, arg);
	else
		for (i = UP; i < NDIR && rc == 0; i++)
			if (variant == 0 || variant == i + 1)
				rc = apply_link_opt(c, &c->d[i], opt, arg, variant);
	if (rc == -1)
		fprintf(stderr, "linkem: bad value for --%s: '%s'\n", name,
			arg ? arg : "");
	return rc;
}

static void conf_defaults(struct conf *c)
{
	memset(c, 0, sizeof(*c));
	c->dev[UP] = c->dev[DOWN] = "linkem0";
	c->addr[UP] = "198.18.0.1/24";
	c->addr[DOWN] = "198.18.0.2/24";
	c->mtu = 1500;
	c->seed = 1;
	c->ready_fd = -1;
	c->spin_ns = 50 * NSEC_PER_USEC;
	c->pool = 65536;
	c->txqlen = 1000;
	c->threads = 2;
}

/* 0: run; 1: --help printed; 2: --trace-info asked; -1: error already reported */
int parse_args(struct conf *c, int argc, char **argv)
{
	struct option *o = build_options();
	int val, idx;

	conf_defaults(c);
	opterr = 0;
	while ((val = getopt_long(argc, argv, "+h", o, &idx)) != -1) {
		if (val == '?') {
			fprintf(stderr, "linkem: unknown option or missing value: '%s' (try --help)\n",
				argv[optind - 1]);
			return -1;
		}
		if (val == 'h' || val == G_HELP) {
			usage(stdout);
			return 1;
		}
		if (apply_opt(c, val, optarg, o[idx].name))
			return -1;
	}
	if (c->trace_info) {
		if (argc - optind) {
			fprintf(stderr, "linkem: --trace-info takes no namespaces (try --help)\n");
			return -1;
		}
		return 2;
	}
	if (argc - optind != 2) {
		fprintf(stderr, "linkem: need exactly two namespaces, A and B (try --help)\n");
		return -1;
	}
	for (idx = UP; idx < NDIR; idx++) {
		/* a bucket that cannot hold one full-size packet drops every
		 * one of them: a typo, not a link */
		if (c->d[idx].police_bps && c->d[idx].police_burst < (u64)c->mtu) {
			fprintf(stderr, "linkem: the %s direction's --police burst of %llu bytes is less than the MTU (%d): no full-size packet would pass\n",
				idx == UP ? "up" : "down",
				(unsigned long long)c->d[idx].police_burst, c->mtu);
			return -1;
		}
	}
	c->ns[UP] = argv[optind];
	c->ns[DOWN] = argv[optind + 1];
	return 0;
}
