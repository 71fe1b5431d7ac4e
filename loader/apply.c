// SPDX-License-Identifier: GPL-2.0
/*
 * --apply [FILE]: make what is registered under the pin directory match
 * tcpca.conf(5).  In two steps, so that a file the kernel's state makes
 * wrong (a name the kernel already has, a default this namespace may not
 * take) changes nothing either:
 *
 *  plan:    compare every line with what is pinned and registered, and
 *           every pinned name with the file; refuse with FILE:LINE, or
 *           list the changes;
 *  execute: make them in the file's order, the default after them and the
 *           unloads last (a default leaves the old one before it goes), and
 *           print each as it is made.
 *
 * A registration whose algorithm, object or access differs is replaced
 * (tcpca_replace: no gap by link); one whose parameters alone differ is
 * retuned in place as --set does, which reaches its sockets at their next
 * ACK and keeps its counters.  A change that fails is said and the others
 * still made (at boot, one object the kernel refuses must not keep the
 * rest away); the exit status says so.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include "tcpca.h"

enum kind { ORPHAN, REGISTER, REREGISTER, REPLACE, SET, DEFAULT, UNLOAD };

struct change {
	enum kind kind;
	const struct conf_entry *e;		/* NULL for UNLOAD and DEFAULT */
	char name[TCPCA_NAME_MAX];
	const struct tcpca_alg *old_alg;	/* REPLACE, SET */
	bool old_allow;
	__u32 old[TCPCA_PARAMS_MAX];
	char old_default[TCPCA_NAME_MAX];
	struct orphan orphan;			/* ORPHAN */
	bool failed;
};

struct plan {
	struct change *ch;
	int n;
	int errors;
};

static struct change *add(struct plan *p, enum kind kind, const struct conf_entry *e,
			  const char *name)
{
	struct change *c = &p->ch[p->n++];

	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->e = e;
	snprintf(c->name, sizeof(c->name), "%.15s", name);
	return c;
}

static void where(const struct tcpca_conf *conf, int line, char *buf, size_t size)
{
	snprintf(buf, size, "%s:%d", conf->path, line);
	err_context = buf;
}

/*
 * A non-init network namespace may only make a non-restricted algorithm its
 * default (EPERM, and the kernel then keeps a reference to it for good:
 * tcpca-load(8), BUGS), so --apply refuses that before trying.  kthreadd
 * (pid 2) lives in the initial namespace; in a PID namespace pid 2 is
 * someone else, so pid 1's is asked instead.  1: init, 0: not, -1: unknown.
 */
static int in_init_netns(void)
{
	struct stat self, init;
	char comm[32] = "";
	FILE *f = fopen("/proc/2/comm", "r");
	const char *ref = "/proc/1/ns/net";

	if (f) {
		if (fgets(comm, sizeof(comm), f) && !strcmp(comm, "kthreadd\n"))
			ref = "/proc/2/ns/net";
		fclose(f);
	}
	if (stat("/proc/self/ns/net", &self) || stat(ref, &init))
		return -1;
	return self.st_ino == init.st_ino && self.st_dev == init.st_dev;
}

/* The ops table's variable in FILE.bpf.o: the name its struct_ops map gets. */
static int object_ops_name(const char *path, char *buf, size_t size)
{
	struct ops_object *o;
	int e = ops_object_read(NULL, path, &o);

	/* the kernel keeps BPF_OBJ_NAME_LEN - 1 characters of a map's name */
	if (!e)
		snprintf(buf, size, "%.15s", ops_object_map_name(o));
	ops_object_free(o);
	return e;
}

static int pinned_map_name(const char *pin_dir, const char *name, char *buf, size_t size)
{
	struct bpf_map_info mi = {};
	__u32 len = sizeof(mi);
	char path[PATH_MAX];
	int fd, e = 0;

	if ((e = pin_path(path, sizeof(path), pin_dir, name, PIN_OPS)) ||
	    (fd = bpf_obj_get(path)) < 0)
		return e ? e : -errno;
	if (bpf_obj_get_info_by_fd(fd, &mi, &len))
		e = -errno;
	else
		snprintf(buf, size, "%s", mi.name);
	close(fd);
	return e;
}

static bool is_orphan(const struct plan *p, const char *name)
{
	for (int i = 0; i < p->n; i++)
		if (p->ch[i].kind == ORPHAN && !strcmp(p->ch[i].name, name))
			return true;
	return false;
}

/* 1: what runs as the line's NAME has the table of tunables of its object, 0: not, -errno said */
static int same_tunables(const char *pin_dir, const struct pin_state *s, const struct conf_entry *e)
{
	const struct tcpca_alg *have;
	int r = registered_tunables(pin_dir, e->name, s, &have);

	if (r)
		return r;
	r = have && tunables_same(have, e->alg);
	alg_free(have);
	return r;
}

/* One line of the file against what is registered under its name. */
static void plan_entry(struct plan *p, const char *pin_dir, const struct conf_entry *e)
{
	char want[TCPCA_NAME_MAX] = "", have[TCPCA_NAME_MAX] = "", path[PATH_MAX];
	const struct tcpca_alg *alg;
	struct pin_state s;
	struct change *c;
	__u32 old[TCPCA_PARAMS_MAX];
	int r;

	if (e->object && object_ops_name(e->object, want, sizeof(want))) {
		p->errors++;
		return;
	}
	if (pin_state(pin_dir, e->name, &s)) {
		p->errors++;
		return;
	}
	if (!s.exists) {
		if (ca_registered(e->name) && !is_orphan(p, e->name)) {
			err("'%s' is already registered, not by tcpca under %s (the kernel's own, or "
			    "another loader's or pin directory's): choose another name", e->name, pin_dir);
			p->errors++;
			return;
		}
		add(p, REGISTER, e, e->name);
		return;
	}
	if (!s.registered || s.incomplete) {	/* pins a crash left of nothing registered */
		add(p, REREGISTER, e, e->name);
		return;
	}
	/* An object is told by its ops table's name, which is all the kernel keeps of
	 * it: one rebuilt under the same name is not seen (--replace swaps it in). */
	alg = s.alg;
	if (e->object && (r = pinned_map_name(pin_dir, e->name, have, sizeof(have)))) {
		err("cannot read the struct_ops map pinned for '%s': %s", e->name, strerror(-r));
		p->errors++;
		return;
	}
	if ((e->object ? strcmp(want, have) != 0 : e->alg != alg) ||
	    e->allow != ca_allowed(e->name)) {
		c = add(p, REPLACE, e, e->name);
		c->old_alg = alg;
		c->old_allow = ca_allowed(e->name);
		return;
	}
	if (!e->alg || !e->alg->nparams)
		return;
	/* the same ops table's name, but another table of tunables: another build of it */
	if (e->object && (r = same_tunables(pin_dir, &s, e)) <= 0) {
		if (r < 0) {
			p->errors++;
			return;
		}
		c = add(p, REPLACE, e, e->name);
		c->old_alg = alg;
		c->old_allow = ca_allowed(e->name);
		return;
	}
	if ((r = pin_path(path, sizeof(path), pin_dir, e->name, PIN_PARAMS)) ||
	    (r = params_read_pinned(path, old, e->alg->nparams))) {
		err("cannot read %s/%s/%s: %s", pin_dir, e->name, PIN_PARAMS, strerror(-r));
		p->errors++;
		return;
	}
	if (memcmp(old, e->values, e->alg->nparams * sizeof(__u32))) {
		c = add(p, SET, e, e->name);
		c->old_alg = alg;
		memcpy(c->old, old, sizeof(old));
	}
}

static int read_default(char *buf, size_t size)
{
	FILE *f = fopen("/proc/sys/net/ipv4/tcp_congestion_control", "r");
	int ok, e;

	if (!f)
		return -errno;
	errno = 0;
	ok = fgets(buf, size, f) != NULL;
	e = errno ? -errno : -EIO;	/* an empty read is no errno of its own */
	fclose(f);
	if (!ok)
		return e;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static void plan_default(struct plan *p, const struct tcpca_conf *conf)
{
	const struct conf_entry *e = conf_find(conf, conf->default_name);
	char cur[TCPCA_NAME_MAX + 2];
	struct change *c;
	int r;

	if ((r = read_default(cur, sizeof(cur)))) {
		err("cannot read net.ipv4.tcp_congestion_control: %s", strerror(-r));
		p->errors++;
		return;
	}
	if (!strcmp(cur, conf->default_name))
		return;
	if (!e->allow && in_init_netns() != 1) {
		err("this is not the initial network namespace (or it cannot be told), where only "
		    "an allowed algorithm can be the default: add 'allow' to line %d", e->line);
		p->errors++;
		return;
	}
	c = add(p, DEFAULT, e, conf->default_name);
	snprintf(c->old_default, sizeof(c->old_default), "%.15s", cur);
}

static int plan_make(struct plan *p, const struct tcpca_conf *conf, const char *pin_dir)
{
	static char names[TCPCA_CONF_MAX * 2][TCPCA_NAME_MAX];
	static struct orphan orphans[TCPCA_CONF_MAX];
	char ctx[PATH_MAX + 16], cur[TCPCA_NAME_MAX + 2] = "";
	int i, n, r;

	/* first: what no pin owns goes (by map; a link no pin holds is a
	 * process's, which may be another directory's loader at work) */
	n = orphans_find(orphans, ARRAY_SIZE(orphans));
	if (n < 0) {
		err("cannot look for orphans: %s", strerror(-n));
		p->errors++;
	}
	for (i = 0; i < n; i++) {
		if (orphans[i].mode == REG_LINK) {
			note("'%s' is registered by link %u, which no pin holds: a process holds it, and "
			     "it goes when that process ends (--unload %s detaches it)", orphans[i].name,
			     orphans[i].link_id, orphans[i].name);
			continue;
		}
		add(p, ORPHAN, NULL, orphans[i].name)->orphan = orphans[i];
	}
	for (i = 0; i < conf->n; i++) {
		where(conf, conf->entries[i].line, ctx, sizeof(ctx));
		plan_entry(p, pin_dir, &conf->entries[i]);
	}
	if (conf->default_line) {
		where(conf, conf->default_line, ctx, sizeof(ctx));
		plan_default(p, conf);
	}
	err_context = conf->path;
	n = pin_names(pin_dir, names, ARRAY_SIZE(names));
	if (n < 0) {
		err("cannot read %s: %s", pin_dir, strerror(-n));
		p->errors++;
	}
	if (n > 0 && (r = read_default(cur, sizeof(cur)))) {
		err("cannot read net.ipv4.tcp_congestion_control: %s", strerror(-r));
		p->errors++;
	}
	for (i = 0; i < n; i++) {
		if (conf_find(conf, names[i]))
			continue;
		/* the kernel would keep it as this namespace's default, unregistered */
		if (!strcmp(names[i], cur) && !conf->default_line) {
			err("'%s' is this network namespace's default congestion control: to remove "
			    "it, name another with a 'default' line", names[i]);
			p->errors++;
			continue;
		}
		add(p, UNLOAD, NULL, names[i]);
	}
	err_context = NULL;
	return p->errors ? -EINVAL : 0;
}

static const char *access_name(bool allow)
{
	return allow ? "allowed" : "restricted";
}

static const char *what(const struct tcpca_alg *alg, const struct conf_entry *e)
{
	return alg ? alg->name : e && e->object ? e->object : "(object)";
}

/* The change as one line, in the words of the file where it has them. */
static void describe(const struct change *c, char *buf, size_t size)
{
	const struct conf_entry *e = c->e;
	const char *sep;
	size_t n = 0;
	unsigned int i;

	switch (c->kind) {
	case ORPHAN:
		snprintf(buf, size, "remove orphan %s: %s map %u, registered and owned by no pin",
			 c->name, what(c->orphan.alg, NULL), c->orphan.map_id);
		break;
	case REGISTER:
	case REREGISTER:
		n = snprintf(buf, size, "register %s %s%s", c->name, what(e->alg, e),
			     e->allow ? " allow" : "");
		for (i = 0; e->alg && i < e->alg->nparams && n < size; i++)
			if (e->values[i] != e->alg->params[i].def)
				n += snprintf(buf + n, size - n, " %s=%u",
					      e->alg->params[i].name, e->values[i]);
		if (c->kind == REREGISTER && n < size)
			snprintf(buf + n, size - n, " (its pins held nothing registered)");
		break;
	case REPLACE:
		snprintf(buf, size, "replace %s: %s %s -> %s %s", c->name, what(c->old_alg, NULL),
			 access_name(c->old_allow), what(e->alg, e), access_name(e->allow));
		break;
	case SET:
		n = snprintf(buf, size, "set %s:", c->name);
		for (i = 0, sep = ""; i < e->alg->nparams && n < size; i++) {
			if (e->values[i] == c->old[i])
				continue;
			n += snprintf(buf + n, size - n, "%s %s %u -> %u", sep,
				      e->alg->params[i].name, c->old[i], e->values[i]);
			sep = ",";
		}
		break;
	case DEFAULT:
		snprintf(buf, size, "default %s -> %s", c->old_default, c->name);
		break;
	case UNLOAD:
		snprintf(buf, size, "unload %s", c->name);
		break;
	}
}

static int execute(struct dir_change *dc, const struct change *c, const char *pin_dir)
{
	const struct conf_entry *e = c->e;
	__u32 values[TCPCA_PARAMS_MAX];
	struct load_opts o = { .pin_dir = pin_dir, .name = c->name, .values = values };
	char path[PATH_MAX];
	int r;

	if (e) {
		memcpy(values, e->values, sizeof(values));
		o.object_path = e->object;
		o.allow = e->allow;
	}
	switch (c->kind) {
	case ORPHAN:
		return orphan_remove(&c->orphan);
	case REREGISTER:
		if ((r = tcpca_unregister(dc, c->name)))
			return r;
		/* fall through */
	case REGISTER:
		return tcpca_register(dc, e->alg, &o);
	case REPLACE:
		return tcpca_replace(dc, e->alg, &o);
	case SET:
		if ((r = pin_path(path, sizeof(path), pin_dir, c->name, PIN_PARAMS)) ||
		    (r = params_write_pinned(path, e->values, e->alg->nparams)))
			err("cannot write %s/%s/%s: %s", pin_dir, c->name, PIN_PARAMS, strerror(-r));
		return r;
	case DEFAULT:
		if ((r = ca_set_default(c->name)))
			err("cannot set net.ipv4.tcp_congestion_control to '%s': %s", c->name,
			    strerror(-r));
		return r;
	case UNLOAD:
		return tcpca_unregister(dc, c->name);
	}
	return -EINVAL;
}

/* The default waits for its registration: a failed one would make it fail too. */
static bool depends_failed(const struct plan *p, const struct change *c)
{
	for (int i = 0; c->kind == DEFAULT && i < p->n; i++)
		if (p->ch[i].failed && p->ch[i].e == c->e && &p->ch[i] != c)
			return true;
	return false;
}

int tcpca_apply(const char *path, const char *pin_dir, bool dry_run)
{
	static char names[TCPCA_CONF_MAX * 2][TCPCA_NAME_MAX];
	struct dir_change dc = { .lock_fd = -1 };
	struct tcpca_conf conf;
	struct plan p = {};
	char line[1024], ctx[PATH_MAX + 16];
	int i, n, failed = 0, e;

	log_capture_libbpf();	/* the file's objects are opened as it is read */
	if ((e = conf_read(path, &conf)))
		return e;
	if (!(p.ch = calloc(TCPCA_CONF_MAX * 4 + 1, sizeof(*p.ch)))) {
		conf_free(&conf);
		return -ENOMEM;
	}
	/* a dry run only reads: no lock, and what a stopped --replace left is planned as it is */
	if (!dry_run) {
		if ((e = bpffs_prepare(pin_dir)) || (e = change_begin(&dc, pin_dir)))
			goto out;
		n = pin_names(pin_dir, names, ARRAY_SIZE(names));
		for (i = 0; i < n; i++)
			if ((e = tcpca_recover(&dc, names[i])))
				goto out;
	}
	if ((e = plan_make(&p, &conf, pin_dir)) || (!dry_run && (e = fault("apply.planned"))))
		goto out;
	for (i = 0; i < p.n; i++) {
		struct change *c = &p.ch[i];

		describe(c, line, sizeof(line));
		if (dry_run) {
			info("%s", line);
			continue;
		}
		if (c->e)
			where(&conf, c->kind == DEFAULT ? conf.default_line : c->e->line, ctx, sizeof(ctx));
		if (depends_failed(&p, c)) {
			err("not made: %s (its registration failed)", line);
			c->failed = true;
		} else if (execute(&dc, c, pin_dir)) {
			c->failed = true;
		} else {
			info("%s", line);
			if ((e = fault("apply.changed")))
				goto out;
		}
		err_context = NULL;
		fflush(stdout);
		failed += c->failed;
	}
	if (!p.n)
		info("nothing to change: the kernel matches %s", path);
	else if (dry_run)
		info("dry run: %d change%s not made", p.n, p.n == 1 ? "" : "s");
	if (failed) {
		err("%s: %d of %d changes failed; the others were made", path, failed, p.n);
		e = -EIO;
	}
out:
	change_end(&dc);
	err_context = NULL;
	free(p.ch);
	conf_free(&conf);
	return e;
}
