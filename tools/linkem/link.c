// SPDX-License-Identifier: GPL-2.0
/*
 * One direction of the link, run by its own thread:
 *
 *   ingress TUN -> loss -> policer -> bottleneck queue (rate or trace, droptail/CoDel)
 *               -> delay line (per port class, jitter; reorder = express)
 *               -> egress TUN
 *
 * The bottleneck works in virtual time: a packet's service start and end
 * come from its arrival stamp and the previous packet's end, never from
 * when this thread happened to wake up.  Only the final write to the
 * egress TUN depends on the timer.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "linkem.h"
#include "ring.h"
#include "ecn.h"

#define READ_BATCH	64
#define MAX_SLEEP_NS	(50 * NSEC_PER_MSEC)	/* re-check the stop flag */
#define LATE_NS		(100 * NSEC_PER_USEC)

static inline struct slot *slot_of(struct dir *d, u32 idx)
{
	return (struct slot *)(d->pool + (size_t)idx * d->slot_size);
}

static int slot_alloc(struct dir *d, u32 *idx)
{
	if (!d->nfree)
		return -1;
	*idx = d->freelist[--d->nfree];
	return 0;
}

static void slot_free(struct dir *d, u32 idx)
{
	d->freelist[d->nfree++] = idx;
}

static double rel_ms(struct dir *d, u64 t)
{
	return (double)(t - d->epoch) / NSEC_PER_MSEC;
}

static void drop(struct dir *d, u32 idx, enum drop_cause why, u64 t)
{
	struct slot *s = slot_of(d, idx);

	d->st.drop[why]++;
	if (d->log)
		fprintf(d->log, "%.3f d %u %s\n", rel_ms(d, t), s->len, drop_names[why]);
	slot_free(d, idx);
}

/* --- scheduled events --- */

static int ev_cmp(const void *a, const void *b)
{
	const struct event *x = a, *y = b;

	return x->at_ns < y->at_ns ? -1 : x->at_ns > y->at_ns;
}

/* When an event is due; never, for "+T", before the first packet. */
static u64 event_due(const struct dir *d, const struct event *e)
{
	if (!e->after_first)
		return d->epoch + e->at_ns;
	return d->first_ns ? d->first_ns + e->at_ns : UINT64_MAX;
}

static void apply_events(struct dir *d, u64 t)
{
	struct dir_conf *cf = d->cf;

	while (d->next_ev < cf->nev && event_due(d, &cf->ev[d->next_ev]) <= t) {
		struct event *e = &cf->ev[d->next_ev++];

		switch (e->type) {
		case EV_DOWN:
			d->down_from = event_due(d, e);
			d->down_until = d->down_from + e->arg;
			break;
		case EV_RATE:
			d->rate_bps = e->arg;
			d->use_trace = false;
			break;
		case EV_DELAY:
			d->delay_ns = e->arg;
			break;
		case EV_LOSS:
			d->loss = e->arg;
			break;
		}
	}
}

static bool link_down_at(struct dir *d, u64 t)
{
	return t >= d->down_from && t < d->down_until;
}

/* --- the bottleneck's service time --- */

static u64 tx_ns(struct dir *d, u32 len)
{
	u64 num = (u64)len * 8 * NSEC_PER_SEC + d->tx_rem;

	d->tx_rem = num % d->rate_bps;
	return num / d->rate_bps;
}

static void serve_fixed(struct dir *d, u32 len, u64 arr)
{
	u64 start = arr > d->link_free ? arr : d->link_free;

	if (link_down_at(d, start))
		start = d->down_until;
	d->head_start = start;
	d->head_done = d->rate_bps ? start + tx_ns(d, len) : start;
	d->link_free = d->head_done;
}

static u64 opp_abs(struct dir *d, u64 idx)
{
	return d->epoch + trace_opportunity_ns(&d->cf->trace, idx);
}

/* Move the cursor to a usable opportunity at or after t. */
static void opp_seek(struct dir *d, u64 t)
{
	const struct trace *tr = &d->cf->trace;

	if (!d->opp_left) {
		d->opp_idx++;
		d->opp_left = TRACE_MTU;
	}
	if (opp_abs(d, d->opp_idx) < t) {
		d->opp_idx = trace_first_at_or_after(tr, t - d->epoch);
		d->opp_left = TRACE_MTU;
	}
	if (link_down_at(d, opp_abs(d, d->opp_idx))) {
		d->opp_idx = trace_first_at_or_after(tr, d->down_until - d->epoch);
		d->opp_left = TRACE_MTU;
	}
}

/* Each opportunity carries 1500 bytes; a packet may span several. */
static void serve_trace(struct dir *d, u32 len, u64 arr)
{
	u32 need = len;

	opp_seek(d, arr);
	d->head_start = opp_abs(d, d->opp_idx);
	for (;;) {
		u32 take = need < d->opp_left ? need : d->opp_left;

		need -= take;
		d->opp_left -= take;
		if (!need)
			break;
		opp_seek(d, 0);
	}
	d->head_done = opp_abs(d, d->opp_idx);
}

/* --- CoDel, RFC 8289, decided when a packet reaches the head --- */

static u64 codel_next(struct dir *d, u64 t)
{
	/* interval / sqrt(count), in floating point: off the per-packet path
	 * except while dropping */
	double k = 1.0 / __builtin_sqrt((double)d->cd_count);

	return t + (u64)((double)d->cf->codel_interval_ns * k);
}

static bool codel_ok_to_drop(struct dir *d, u64 sojourn, u64 t)
{
	if (sojourn < d->cf->codel_target_ns || d->q_bytes <= TRACE_MTU) {
		d->cd_first_above = 0;
		return false;
	}
	if (!d->cd_first_above) {
		d->cd_first_above = t + d->cf->codel_interval_ns;
		return false;
	}
	return t >= d->cd_first_above;
}

static bool codel_drop(struct dir *d, u64 sojourn, u64 t)
{
	bool ok = codel_ok_to_drop(d, sojourn, t);
	u32 delta;

	if (d->cd_dropping) {
		if (!ok) {
			d->cd_dropping = false;
			return false;
		}
		if (t >= d->cd_drop_next) {
			d->cd_count++;
			d->cd_drop_next = codel_next(d, d->cd_drop_next);
			return true;
		}
		return false;
	}
	if (!ok)
		return false;
	d->cd_dropping = true;
	/* back soon after a dropping state: resume at the rate that state
	 * added (RFC 8289 section 5.5: count - lastcount), not from 1 */
	delta = d->cd_count - d->cd_last_count;
	/* signed: drop_next may still be ahead, which counts as recent */
	if (delta > 1 && (int64_t)(t - d->cd_drop_next) < (int64_t)(16 * d->cf->codel_interval_ns))
		d->cd_count = delta;
	else
		d->cd_count = 1;
	d->cd_last_count = d->cd_count;
	d->cd_drop_next = codel_next(d, t);
	return true;
}

/*
 * Compute when the head of the queue is served, the link being free from t;
 * CoDel may drop heads.
 */
static void start_head(struct dir *d, u64 t)
{
	while (!ring_empty(&d->q)) {
		u32 idx = ring_peek(&d->q);
		struct slot *s = slot_of(d, idx);

		if (d->use_trace)
			serve_trace(d, s->len, s->t_arr);
		else
			serve_fixed(d, s->len, s->t_arr);
		if (d->cf->codel && codel_drop(d, d->head_start - s->t_arr, d->head_start)) {
			ring_pop(&d->q);
			d->q_bytes -= s->len;
			/* the dropped packet's service never happened */
			if (!d->use_trace)
				d->link_free = d->head_start;
			drop(d, idx, DROP_CODEL, d->head_start);
			continue;
		}
		d->head_started = true;
		return;
	}
	d->head_started = false;
	d->empty_from = t;
}

/* --- delay lines --- */

static u64 class_delay(struct dir *d, int c)
{
	if (c == 0)
		return d->delay_ns;
	if (c <= d->cf->ncls)
		return d->cf->cls[c - 1].delay_ns;
	return 0;	/* express: reordered ahead of the delay line */
}

/* Insert keeping t_out order; O(1) unless jitter may reorder. */
static void delay_push(struct dir *d, struct ring *r, u32 idx)
{
	u64 out = slot_of(d, idx)->t_out;
	u32 pos = r->tail;

	while (pos != r->head && slot_of(d, ring_at(r, pos - 1))->t_out > out) {
		r->v[pos & r->mask] = ring_at(r, pos - 1);
		pos--;
	}
	r->v[pos & r->mask] = idx;
	r->tail++;
}

static void to_delay_line(struct dir *d, u32 idx)
{
	struct slot *s = slot_of(d, idx);
	int c = s->cls;
	u64 out = s->t_dep + class_delay(d, c);
	u64 j = d->cf->jitter_ns;

	if (j && c != d->ncls_q - 1) {
		u64 r = rng_next(&d->rng) % (2 * j + 1);

		out = out + r >= j + s->t_dep ? out + r - j : s->t_dep;
	}
	if (!d->cf->jitter_reorder && out < d->cls_last_out[c])
		out = d->cls_last_out[c];
	d->cls_last_out[c] = out;
	s->t_out = out;
	delay_push(d, &d->cls_q[c], idx);
}

/* Packets whose transmission ended by t leave the bottleneck. */
static void advance(struct dir *d, u64 t)
{
	while (d->head_started && d->head_done <= t) {
		u32 idx = ring_pop(&d->q);
		struct slot *s = slot_of(d, idx);

		d->q_bytes -= s->len;
		s->t_dep = d->head_done;
		hist_add(&d->st.qdelay, d->head_start - s->t_arr);
		if (d->log)
			fprintf(d->log, "%.3f - %u %.3f\n", rel_ms(d, s->t_dep), s->len,
				(double)(s->t_dep - s->t_arr) / NSEC_PER_MSEC);
		to_delay_line(d, idx);
		start_head(d, s->t_dep);
	}
}

/* --- ingress --- */

static int classify(struct dir *d, const struct slot *s)
{
	const u8 *p = s->data;
	u32 ihl;
	u16 sport, dport;
	int i;

	if (!d->cf->ncls || s->len < 20 || (p[0] >> 4) != 4)
		return 0;
	ihl = (p[0] & 15) * 4;
	if ((p[9] != 6 && p[9] != 17) || s->len < ihl + 4)
		return 0;
	sport = p[ihl] << 8 | p[ihl + 1];
	dport = p[ihl + 2] << 8 | p[ihl + 3];
	for (i = 0; i < d->cf->ncls; i++)
		if (d->cf->cls[i].port == sport || d->cf->cls[i].port == dport)
			return i + 1;
	return 0;
}

static bool lose(struct dir *d)
{
	struct dir_conf *cf = d->cf;
	bool lost = rng_chance(&d->rng, d->loss);

	if (cf->ge) {
		if (rng_chance(&d->rng, d->ge_bad ? cf->ge_r : cf->ge_p))
			d->ge_bad = !d->ge_bad;
		if (rng_chance(&d->rng, d->ge_bad ? cf->ge_loss_bad : cf->ge_loss_good))
			lost = true;
	}
	return lost;
}

static void enqueue(struct dir *d, u32 idx, u64 t)
{
	struct slot *s = slot_of(d, idx);
	u64 waiting = ring_len(&d->q), wbytes = d->q_bytes;

	/* the packet in service is on the wire, not in the queue */
	if (d->head_started && d->head_start <= t) {
		waiting--;
		wbytes -= slot_of(d, ring_peek(&d->q))->len;
	}
	if ((d->cf->limit_pkts && waiting >= d->cf->limit_pkts) ||
	    (d->cf->limit_bytes && wbytes + s->len > d->cf->limit_bytes)) {
		drop(d, idx, DROP_QUEUE, t);
		return;
	}
	/* ECN step marking on the instantaneous queue at arrival, as DCTCP's
	 * switches do: it will wait at least the threshold's transmission time */
	if (((d->cf->ecn_pkts && waiting >= d->cf->ecn_pkts) ||
	     (d->cf->ecn_bytes && wbytes >= d->cf->ecn_bytes)) &&
	    ecn_mark_ce(s->data, s->len))
		d->st.ce_marked++;
	ring_push(&d->q, idx);
	d->q_bytes += s->len;
	if (!d->head_started) {
		/* the time it had nothing to send: a rate missed while never
		 * empty is linkem's own fault, one missed while empty is not */
		if (t > d->empty_from)
			d->st.empty_ns += t - d->empty_from;
		start_head(d, t);
	}
}

static void on_arrival(struct dir *d, u32 idx, u64 t)
{
	struct slot *s = slot_of(d, idx);
	u32 copy;

	s->t_arr = t;
	d->st.pkts_in++;
	d->st.bytes_in += s->len;
	if (d->log)
		fprintf(d->log, "%.3f + %u\n", rel_ms(d, t), s->len);
	if (link_down_at(d, t)) {
		drop(d, idx, DROP_LINKDOWN, t);
		return;
	}
	if (lose(d)) {
		drop(d, idx, DROP_LOSS, t);
		return;
	}
	/* after the random loss: a packet lost before the policer takes
	 * none of its tokens */
	if (!police_pass(d, s->len, t)) {
		drop(d, idx, DROP_POLICE, t);
		return;
	}
	s->cls = rng_chance(&d->rng, d->cf->reorder) ? d->ncls_q - 1 : classify(d, s);
	if (rng_chance(&d->rng, d->cf->dup) && !slot_alloc(d, &copy)) {
		memcpy(slot_of(d, copy), s, sizeof(*s) + s->len);
		d->st.dups++;
		enqueue(d, idx, t);
		enqueue(d, copy, t);
		return;
	}
	enqueue(d, idx, t);
}

static void drain_ingress(struct dir *d)
{
	int n;

	for (n = 0; n < READ_BATCH; n++) {
		u32 idx;
		struct slot *s;
		ssize_t len;
		u64 t;

		if (slot_alloc(d, &idx)) {
			/* keep reading so the sender sees a drop, not a stall;
			 * one sink per thread: both directions may be here */
			static __thread u8 sink[65536];

			if (read(d->in_fd, sink, sizeof(sink)) <= 0)
				return;
			d->st.pkts_in++;
			d->st.drop[DROP_POOL]++;
			continue;
		}
		s = slot_of(d, idx);
		len = read(d->in_fd, s->data, d->slot_size - sizeof(*s));
		if (len <= 0) {
			slot_free(d, idx);
			return;
		}
		t = now_ns();
		s->len = len;
		if (!d->first_ns)
			d->first_ns = t;
		apply_events(d, t);
		advance(d, t);
		on_arrival(d, idx, t);
	}
}

/* --- egress --- */

static struct ring *due_line(struct dir *d, u64 *when)
{
	struct ring *best = NULL;
	u64 t = UINT64_MAX;
	int c;

	for (c = 0; c < d->ncls_q; c++) {
		struct ring *r = &d->cls_q[c];
		u64 out;

		if (ring_empty(r))
			continue;
		out = slot_of(d, ring_peek(r))->t_out;
		if (out < t) {
			t = out;
			best = r;
		}
	}
	*when = t;
	return best;
}

static void emit_due(struct dir *d, u64 now)
{
	u64 when;
	struct ring *r;

	while ((r = due_line(d, &when)) && when <= now) {
		u32 idx = ring_pop(r);
		struct slot *s = slot_of(d, idx);
		/* stamped before the write: the write runs the receiver's
		 * stack in our context, which is not link delay */
		u64 t = now_ns();

		if (write(d->out_fd, s->data, s->len) != (ssize_t)s->len) {
			drop(d, idx, DROP_WRITE, t);
			continue;
		}
		d->st.pkts_out++;
		d->st.bytes_out += s->len;
		hist_add(&d->st.owd, t - s->t_arr);
		hist_add(&d->st.lateness, t - s->t_out);
		if (t - s->t_out > LATE_NS)
			d->st.late_writes++;
		slot_free(d, idx);
		now = now_ns();
	}
}

static u64 next_deadline(struct dir *d)
{
	u64 t;

	due_line(d, &t);
	if (d->head_started && d->head_done < t)
		t = d->head_done;
	if (d->next_ev < d->cf->nev && event_due(d, &d->cf->ev[d->next_ev]) < t)
		t = event_due(d, &d->cf->ev[d->next_ev]);
	return t;
}

/*
 * Sleep on the ingress fds of the n directions this thread serves until
 * the next deadline; the last spin_ns are spent polling instead, because
 * a timer wakeup lands tens of microseconds late on a VM.
 */
static void wait_for(struct dir *d, int n, u64 now, u64 next)
{
	struct pollfd pfd[NDIR];
	u64 gap = next - now;
	struct timespec ts;
	int i;

	for (i = 0; i < n; i++)
		pfd[i] = (struct pollfd){ .fd = d[i].in_fd, .events = POLLIN };
	if (gap <= d->spin_ns) {
		while (now_ns() < next)
			if (poll(pfd, n, 0) > 0)
				return;
		return;
	}
	gap -= d->spin_ns;
	if (gap > MAX_SLEEP_NS)
		gap = MAX_SLEEP_NS;
	ts.tv_sec = gap / NSEC_PER_SEC;
	ts.tv_nsec = gap % NSEC_PER_SEC;
	/* how late the scheduler runs us, which no packet time shows: a
	 * packet waits that long in the TUN queue before we read it */
	if (ppoll(pfd, n, &ts, NULL) == 0) {
		u64 late = now_ns() - (now + gap);

		hist_add(&d->st.wakeup, (int64_t)late > 0 ? late : 0);
	}
}

/* One pass over a direction; its next deadline. */
static u64 dir_step(struct dir *d)
{
	u64 now;

	apply_events(d, now_ns());
	drain_ingress(d);
	now = now_ns();
	advance(d, now);
	emit_due(d, now);
	return next_deadline(d);
}

static void *serve(struct dir *d, int n)
{
	int i;

	prctl(PR_SET_TIMERSLACK, 1UL);
	while (!*d->stop) {
		u64 now, next = UINT64_MAX;

		for (i = 0; i < n; i++) {
			u64 t = dir_step(&d[i]);

			if (t < next)
				next = t;
		}
		now = now_ns();
		if (next > now)
			wait_for(d, n, now, next);
	}
	for (i = 0; i < n; i++)
		if (d[i].log)
			fflush(d[i].log);
	return NULL;
}

/* A thread per direction... */
void *dir_run(void *arg)
{
	return serve(arg, 1);
}

/* ... or one for both (--threads 1): arg is dirs[NDIR].  On one core two
 * spinning threads take turns by time slice, and a packet waits for the
 * other's slice to end; one thread spins once for both. */
void *dirs_run(void *arg)
{
	return serve(arg, NDIR);
}

/* --- setup --- */

int dir_init(struct dir *d, enum dir_id id, struct conf *c, int in_fd,
	     int out_fd, volatile bool *stop)
{
	struct dir_conf *cf = &c->d[id];
	u32 i;
	int k;

	memset(d, 0, sizeof(*d));
	d->id = id;
	d->name = id == UP ? "up" : "down";
	d->cf = cf;
	d->in_fd = in_fd;
	d->out_fd = out_fd;
	d->stop = stop;
	d->spin_ns = c->spin_ns;
	d->slot_size = (sizeof(struct slot) + c->mtu + 63) & ~63U;
	d->nslots = c->pool;
	/* untouched pages cost nothing, so a deep pool is cheap */
	d->pool = mmap(NULL, (size_t)d->nslots * d->slot_size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	d->freelist = calloc(d->nslots, sizeof(*d->freelist));
	if (d->pool == MAP_FAILED || !d->freelist)
		return -1;
	for (i = 0; i < d->nslots; i++)
		d->freelist[i] = d->nslots - 1 - i;
	d->nfree = d->nslots;
	d->ncls_q = cf->ncls + 2;
	if (ring_init(&d->q, d->nslots))
		return -1;
	for (k = 0; k < d->ncls_q; k++)
		if (ring_init(&d->cls_q[k], d->nslots))
			return -1;
	qsort(cf->ev, cf->nev, sizeof(cf->ev[0]), ev_cmp);
	d->rate_bps = cf->rate_bps;
	d->use_trace = cf->trace.n > 0;
	d->opp_left = TRACE_MTU;
	d->delay_ns = cf->delay_ns;
	d->loss = cf->loss;
	rng_seed(&d->rng, c->seed * 2 + id);
	if (cf->log_path) {
		d->log = fopen(cf->log_path, "w");
		if (!d->log) {
			fprintf(stderr, "linkem: cannot write log %s: %s\n",
				cf->log_path, strerror(errno));
			return -2;
		}
		setvbuf(d->log, NULL, _IOFBF, 1 << 20);
	}
	return 0;
}

/* The clock starts when the link is ready: traces and events count from here. */
void dir_start(struct dir *d, u64 epoch)
{
	d->epoch = epoch;
	d->link_free = epoch;
	d->empty_from = epoch;
	police_start(d, epoch);
	if (d->log)
		fprintf(d->log, "# linkem %s log, times in ms from start\n# base timestamp: 0\n",
			d->name);
}

void dir_free(struct dir *d)
{
	int k;

	if (d->log)
		fclose(d->log);
	d->log = NULL;
	free(d->freelist);
	free(d->q.v);
	for (k = 0; k < d->ncls_q; k++)
		free(d->cls_q[k].v);
	if (d->pool && d->pool != MAP_FAILED)
		munmap(d->pool, (size_t)d->nslots * d->slot_size);
}
