/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linkem: a user-space link emulator joining two network namespaces
 * through one TUN device in each.  Shared types of all its files.
 */
#ifndef LINKEM_H
#define LINKEM_H

#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>
#include <time.h>

typedef uint64_t u64;
typedef uint32_t u32;
typedef uint16_t u16;
typedef uint8_t u8;

#define NSEC_PER_SEC	1000000000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_USEC	1000ULL

#define MAX_CLASSES	8	/* port-keyed delay classes per direction */
#define MAX_EVENTS	64	/* scheduled events per direction */
#define TRACE_MTU	1500	/* bytes per Mahimahi delivery opportunity */

enum dir_id { UP, DOWN, NDIR };	/* UP: namespace A -> B, DOWN: B -> A */

enum drop_cause {
	DROP_LOSS,	/* i.i.d. or Gilbert-Elliott */
	DROP_QUEUE,	/* droptail limit */
	DROP_CODEL,
	DROP_LINKDOWN,
	DROP_POLICE,	/* token bucket empty (--police) */
	DROP_POOL,	/* packet pool exhausted */
	DROP_WRITE,	/* write to the egress TUN failed */
	NDROP
};
extern const char *const drop_names[NDROP];	/* as the stats and the log name them */

/* --- deterministic PRNG: splitmix64 seeds xorshift64* --- */
struct rng {
	u64 s;
};

static inline u64 splitmix64(u64 *x)
{
	u64 z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline void rng_seed(struct rng *r, u64 seed)
{
	r->s = splitmix64(&seed);
	if (!r->s)
		r->s = 1;
}

static inline u64 rng_next(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

/* Probabilities are kept as 2^-32 fixed point so a draw is one compare. */
static inline bool rng_chance(struct rng *r, u32 p)
{
	return p && (u32)(rng_next(r) >> 32) < p;
}
#define PROB_ONE	0xffffffffU

/* --- Mahimahi trace: delivery opportunities in ms, looping --- */
struct trace {
	const char *path;
	u32 *ms;		/* sorted opportunity timestamps */
	u32 n;
	u64 period_ns;		/* last timestamp; the trace repeats after it */
};

int trace_load(struct trace *t, const char *path);
u64 trace_opportunity_ns(const struct trace *t, u64 idx);
u64 trace_first_at_or_after(const struct trace *t, u64 t_ns);
double trace_mean_bps(const struct trace *t);
u64 trace_opportunities_by(const struct trace *t, u64 t_ns);
int trace_info(const char *path, u64 window_ns, FILE *f);

/* --- log-linear histogram of nanosecond values (~0.1% resolution) --- */
#define HIST_SUB	1024
#define HIST_BUCKETS	(64 * HIST_SUB)
struct hist {
	u64 count;
	u64 max;
	u64 b[HIST_BUCKETS];
};

void hist_add(struct hist *h, u64 v);
u64 hist_quantile(const struct hist *h, double q);

/* --- configuration of one direction --- */
enum ev_type { EV_DOWN, EV_RATE, EV_DELAY, EV_LOSS };

struct event {
	u64 at_ns;		/* from the moment the link is ready, */
	bool after_first;	/* or from the direction's first packet */
	enum ev_type type;
	u64 arg;		/* duration ns, rate bit/s, delay ns, or loss p */
};

struct delay_class {
	u16 port;		/* matched as TCP/UDP source or destination port */
	u64 delay_ns;
};

struct dir_conf {
	u64 rate_bps;		/* 0: unlimited */
	struct trace trace;	/* used when trace.n > 0 */
	u64 delay_ns;
	u64 jitter_ns;
	bool jitter_reorder;	/* let jitter reorder packets */
	u32 loss;		/* i.i.d. probability, PROB_ONE scale */
	bool ge;		/* Gilbert-Elliott loss model enabled */
	u32 ge_p, ge_r;		/* good->bad, bad->good per packet */
	u32 ge_loss_good, ge_loss_bad;
	u64 police_bps;		/* token-bucket policer's rate; 0: none */
	u64 police_burst;	/* its bucket, bytes */
	u64 limit_pkts;		/* 0: no limit */
	u64 limit_bytes;
	u64 ecn_pkts;		/* CE-mark ECT packets that find this many waiting; 0: off */
	u64 ecn_bytes;		/* the same in bytes */
	bool codel;
	u64 codel_target_ns, codel_interval_ns;
	u32 reorder;		/* chance to skip the delay line */
	u32 dup;
	struct delay_class cls[MAX_CLASSES];
	int ncls;
	struct event ev[MAX_EVENTS];
	int nev;
	const char *log_path;
};

struct conf {
	const char *ns[NDIR];		/* A and B */
	const char *dev[NDIR];
	const char *addr[NDIR];		/* CIDR or NULL to leave unconfigured */
	int mtu;
	u64 seed;
	const char *stats_path;
	const char *pidfile;
	int ready_fd;
	u64 duration_ns;		/* 0: run until a signal */
	u64 spin_ns;			/* busy-poll this close to a deadline */
	int threads;			/* 2: one per direction; 1: one for both */
	u32 pool;			/* packet slots per direction */
	int txqlen;
	const char *trace_info;		/* --trace-info: report, do not run */
	struct dir_conf d[NDIR];
};

int parse_args(struct conf *c, int argc, char **argv);
int parse_rate(const char *s, u64 *bps);
int parse_time(const char *s, u64 *ns);
int parse_prob(const char *s, u32 *p);
void usage(FILE *f);

/* --- TUN devices --- */
int tun_open_in_ns(const char *ns, const char *dev, const char *cidr,
		   int mtu, int txqlen);

/* --- the per-direction engine --- */
struct slot {
	u64 t_arr;	/* read from the ingress TUN */
	u64 t_dep;	/* left the bottleneck */
	u64 t_out;	/* due at the egress TUN */
	u32 len;
	u8 cls;		/* delay class chosen at ingress */
	u8 pad[3];
	u8 data[];
};

struct ring {		/* FIFO of slot indices, size a power of two */
	u32 *v;
	u32 mask;
	u32 head, tail;	/* head: next out; tail: next in */
};

struct counters {
	u64 pkts_in, bytes_in;
	u64 pkts_out, bytes_out;
	u64 dups;
	u64 ce_marked;		/* ECT packets turned CE (--ecn-threshold) */
	u64 drop[NDROP];
	u64 late_writes;	/* written more than 100 us after t_out */
	u64 empty_ns;		/* the bottleneck had nothing to send */
	struct hist qdelay;	/* wait in the bottleneck queue */
	struct hist owd;	/* ingress read to egress write */
	struct hist lateness;	/* egress write - t_out */
	struct hist wakeup;	/* a timed sleep's end - its deadline */
};

struct dir {
	enum dir_id id;
	const char *name;
	struct dir_conf *cf;
	int in_fd, out_fd;
	u64 epoch;		/* CLOCK_MONOTONIC at ready */
	u64 first_ns;		/* ... at the first packet in; 0 before it */
	u64 spin_ns;

	u8 *pool;
	u32 slot_size, nslots;
	u32 *freelist, nfree;

	struct ring q;		/* bottleneck queue; q.head may be in service */
	u64 q_bytes;
	bool head_started;	/* service of q's head computed */
	u64 empty_from;		/* !head_started: since when */
	u64 head_start, head_done;

	struct ring cls_q[MAX_CLASSES + 2];	/* delay lines; +default +express */
	u64 cls_last_out[MAX_CLASSES + 2];
	int ncls_q;

	/* the link's state */
	u64 rate_bps;
	bool use_trace;
	u64 link_free;		/* fixed rate: end of the last transmission */
	u64 tx_rem;		/* fractional ns carried between packets */
	u64 opp_idx;		/* trace: current opportunity */
	u32 opp_left;		/* bytes left in it */
	u64 down_from, down_until;
	u64 delay_ns;
	u32 loss;
	bool ge_bad;
	u64 pol_tokens;		/* policer: bits x 10^9 (rate_bps per ns) */
	u64 pol_last;		/* ... as of this arrival */
	int next_ev;

	/* CoDel (RFC 8289) */
	bool cd_dropping;
	u64 cd_first_above, cd_drop_next;
	u32 cd_count, cd_last_count;

	struct rng rng;
	FILE *log;
	struct counters st;
	volatile bool *stop;
};

int dir_init(struct dir *d, enum dir_id id, struct conf *c, int in_fd,
	     int out_fd, volatile bool *stop);
void dir_start(struct dir *d, u64 epoch);
void *dir_run(void *arg);
void *dirs_run(void *arg);
void dir_free(struct dir *d);

void police_start(struct dir *d, u64 epoch);
bool police_pass(struct dir *d, u32 len, u64 t);

void stats_print(FILE *f, struct dir *dirs, u64 elapsed_ns, bool final);
int stats_write(const char *path, struct dir *dirs, u64 elapsed_ns, bool final);

static inline u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

#endif
