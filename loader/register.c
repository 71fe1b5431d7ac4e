// SPDX-License-Identifier: GPL-2.0
/*
 * Registration, in one of two ways depending on the kernel (features.c):
 *
 * 6.4+, by link: BPF_F_LINK on the struct_ops map, then a
 * BPF_LINK_TYPE_STRUCT_OPS link, pinned.  The pinned link is then the single
 * thing that keeps the algorithm registered: unlinking it unregisters, no
 * separate "unregister" call that a crash could skip, bpftool shows it as a
 * link owned by the pin, and bpf_link_update() can later swap a new version
 * in under the same name.  The flag is ours to set or clear, by the kernel;
 * the link is libbpf's to make where it can (ops.c).
 *
 * Before 6.4, by map: updating the map's one element registers, and the
 * registration then lasts until the element is deleted, whoever holds the
 * map.  The pinned map is its owner; --unload deletes the element.
 *
 * Either way nothing is registered without an owner in bpffs, at every
 * failure point (see register_by_link() and register_by_map()).  Each
 * function here runs inside one change to the pin directory (change.c):
 * under its lock, checks and all, pinning through it, and on failure
 * removing what it pinned, which is never another's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "tcpca.h"
#include "tcpca_params.h"

#ifndef BPF_F_LINK
#define BPF_F_LINK		(1U << 13)
#endif

/* Where the object's .rodata holds the variable var (size bytes at least), or NULL. */
static char *rodata_var(struct bpf_object *obj, const char *var_name, size_t want)
{
	const struct btf *btf = bpf_object__btf(obj);
	const struct btf_var_secinfo *vi;
	const struct btf_type *sec;
	struct bpf_map *map;
	size_t size;
	char *data;
	int id, i;

	map = bpf_object__find_map_by_name(obj, ".rodata");
	id = btf ? btf__find_by_name_kind(btf, ".rodata", BTF_KIND_DATASEC) : -1;
	if (!map || id < 0)
		return NULL;
	data = (char *)bpf_map__initial_value(map, &size);
	sec = btf__type_by_id(btf, id);
	vi = btf_var_secinfos(sec);
	for (i = 0; i < btf_vlen(sec); i++, vi++) {
		const struct btf_type *var = btf__type_by_id(btf, vi->type);

		if (!strcmp(btf__name_by_offset(btf, var->name_off), var_name))
			return data && vi->offset + want <= size && vi->size >= want ?
			       data + vi->offset : NULL;
	}
	return NULL;
}

/*
 * What the program learns before load: the name it runs under (its iterator
 * shows only sockets running this CA), and what this kernel lets it call
 * (include/tcpca_kernel.bpf.h).  An object without these variables has
 * nothing to learn.
 */
static int set_rodata(struct bpf_object *obj, const char *name)
{
	char *ca_name = rodata_var(obj, "tcpca_ca_name", TCPCA_NAME_MAX);
	char *kernel = rodata_var(obj, "tcpca_kernel", sizeof(__u32));
	char *needs = rodata_var(obj, "tcpca_needs", sizeof(__u32));
	int features = kernel_features();
	__u32 needed = 0;
	const char *missing;

	if (features < 0)
		return features;
	if (needs)
		memcpy(&needed, needs, sizeof(needed));
	missing = kernel_feature_missing(needed, features);
	if (missing) {
		err("%s needs %s, which this kernel lacks", name, missing);
		return -EOPNOTSUPP;
	}
	if (ca_name)
		strncpy(ca_name, name, TCPCA_NAME_MAX);
	if (kernel)
		memcpy(kernel, &features, sizeof(__u32));
	return 0;
}

static int set_params(struct bpf_object *obj, const struct tcpca_alg *alg, const __u32 *values)
{
	struct bpf_map *map;

	if (!alg || !alg->nparams)
		return 0;
	map = bpf_object__find_map_by_name(obj, ".data.params");
	if (!map || bpf_map__value_size(map) != alg->nparams * sizeof(__u32)) {
		err("%s: its .data.params does not match its parameter table", alg->name);
		return -EPROTO;
	}
	return bpf_map__set_initial_value(map, values, alg->nparams * sizeof(__u32));
}

static int pin_extras(struct dir_change *c, struct bpf_object *obj, const char *sub)
{
	static const struct { const char *map, *leaf; } maps[] = {
		{ ".data.params", PIN_PARAMS }, { "counters", PIN_COUNTERS }, { "events", PIN_EVENTS },
		{ TCPCA_TUNABLES_SEC, PIN_TUNABLES },
	};
	struct bpf_program *prog;
	struct bpf_link *iter;
	unsigned int i;
	int e;

	for (i = 0; i < ARRAY_SIZE(maps); i++) {
		struct bpf_map *m = bpf_object__find_map_by_name(obj, maps[i].map);

		if (m && (e = change_pin(c, bpf_map__fd(m), sub, maps[i].leaf)))
			return e;
	}
	bpf_object__for_each_program(prog, obj) {
		if (bpf_program__type(prog) != BPF_PROG_TYPE_TRACING ||
		    strncmp(bpf_program__section_name(prog), "iter/", 5))
			continue;
		iter = bpf_program__attach_iter(prog, NULL);
		if (!iter) {
			e = -errno;
			err("cannot attach the socket iterator: %s", strerror(-e));
			return e;
		}
		e = change_pin(c, bpf_link__fd(iter), sub, PIN_SOCKETS);
		bpf_link__destroy(iter);	/* the pin holds it now */
		if (e)
			return e;
	}
	return 0;
}

static int load_object(struct bpf_object *obj, const char *what)
{
	int e = bpf_object__load(obj);

	if (!e)
		return 0;
	if (e == -EPERM) {
		err("loading %s: operation not permitted (needs CAP_BPF and CAP_NET_ADMIN)", what);
	} else if (log_has_verifier_log()) {
		err("the kernel's verifier rejected %s (%s)", what, strerror(-e));
		log_print_verifier_tail();
	} else {
		err("loading %s failed: %s", what, strerror(-e));
		log_print_libbpf_cause();
	}
	return e;
}

/*
 * An object that does not describe its tunables (include/tcpca_params.h)
 * runs with the values it was built with: said once it runs, so that the
 * user knows why --set and --show will offer none.
 */
static void note_no_table(const struct tcpca_alg *alg, const struct load_opts *o)
{
	if (!alg && o->object_path)
		note("%s has no tunables table (" TCPCA_TUNABLES_SEC "): loaded without parameters",
		     o->object_path);
}

static void say_register_failed(int e, const char *what, const char *name)
{
	if (e == -EEXIST)
		err("a congestion control named '%s' is already registered; choose another with --name", name);
	else
		err("registering %s as '%s' failed: %s", what, name, strerror(-e));
}

/*
 * Registered from ops_link_create() on, but owned by an fd of ours until the
 * link is pinned: if anything fails, or we die, before the pin, closing that
 * fd unregisters.  The link is pinned last of all the leaves, so a
 * directory with a link holds a whole registration.
 */
static int register_by_link(struct dir_change *c, struct bpf_map *ops, const char *name,
			    const char *what)
{
	int link_fd = ops_link_create(ops), e;

	if (link_fd < 0) {
		say_register_failed(link_fd, what, name);
		return link_fd;
	}
	if (!(e = fault("load.linked")))
		e = change_pin(c, link_fd, name, PIN_LINK);
	close(link_fd);		/* the pin keeps it, or closing unregisters */
	return e;
}

/*
 * The map update registers for good, so it comes last: everything is pinned
 * first.  A failure before it removes the pins; a crash before it leaves
 * pins of nothing registered, which --unload removes and --apply replaces;
 * after it, the pinned map owns the registration.
 */
static int register_by_map(struct bpf_map *ops, const char *name, const char *what)
{
	int e = ops_fill(ops);

	if (e)
		say_register_failed(e, what, name);
	return e;
}

/*
 * The object as it will run: its CA name and access, its parameters and
 * iterator name set, BPF_F_LINK as the kernel registers (an ops table in
 * ".struct_ops.link" has it, one in ".struct_ops" not), loaded (verified).
 */
static int load_ops_object(const struct tcpca_alg *alg, struct ops_object *im, const char *name,
			   const struct load_opts *o, int mode, struct bpf_object **objp)
{
	const char *what = alg ? alg->name : o->object_path;
	struct bpf_object *obj;
	struct bpf_map *ops;
	__u32 flags;
	int e;

	*objp = obj = ops_object_open(im, name, o->allow);
	if (!obj) {
		e = -errno;
		err("cannot open the BPF object of %s: %s", what, strerror(-e));
		return e;
	}
	ops = ops_map(obj);
	flags = bpf_map__map_flags(ops);
	flags = mode == REG_LINK ? flags | BPF_F_LINK : flags & ~BPF_F_LINK;
	if ((e = bpf_map__set_map_flags(ops, flags)) ||
	    (e = set_params(obj, alg, o->values)) || (e = set_rodata(obj, name)) ||
	    (e = load_object(obj, what)))
		return e;
	return 0;
}

int tcpca_register(struct dir_change *c, const struct tcpca_alg *alg, struct load_opts *o)
{
	const char *what = alg ? alg->name : o->object_path;
	struct bpf_object *obj = NULL;
	struct bpf_map *ops;
	struct ops_object *im = NULL;
	char name[TCPCA_NAME_MAX];
	int mode, e;

	mode = e = kernel_reg_mode();
	if (mode < 0)
		return e;
	e = ops_object_read(alg, o->object_path, &im);
	if (e)
		goto out;
	if (o->name || alg_is_embedded(alg))
		snprintf(name, sizeof(name), "%s", o->name ? o->name : alg->ca_name);
	else
		snprintf(name, sizeof(name), "%s", ops_object_ca_name(im));
	/* an object's own name becomes a pin directory too: the same check */
	if (!o->name && (e = check_ca_name(name)))
		goto out;
	if (ca_registered(name)) {
		err("a congestion control named '%s' is already registered; choose another with --name", name);
		e = -EEXIST;
		goto out;
	}
	if (pin_exists(o->pin_dir, name)) {
		err("%s/%s already exists; unload it first (--unload %s)", o->pin_dir, name, name);
		e = -EEXIST;
		goto out;
	}
	if ((e = load_ops_object(alg, im, name, o, mode, &obj)) || (e = fault("load.verified")))
		goto out;
	/* one pass: its directory, the leaves, the ops map, the registration */
	ops = ops_map(obj);
	if ((e = change_mkdir(c, name)) || (e = fault("load.dir")) ||
	    (e = pin_extras(c, obj, name)) || (e = change_pin(c, bpf_map__fd(ops), name, PIN_OPS)) ||
	    (e = fault("load.pinned")) ||
	    (e = mode == REG_LINK ? register_by_link(c, ops, name, what) :
				    register_by_map(ops, name, what))) {
		change_rollback(c);
		goto out;
	}
	change_commit(c);
	snprintf(o->registered, sizeof(o->registered), "%s", name);
	o->mode = mode;
	note_no_table(alg, o);
	e = fault("load.registered");
out:
	bpf_object__close(obj);
	ops_object_free(im);
	return e;
}

/*
 * After unregistering: the struct_ops map normally goes within tens of ms
 * (given 2 s here).
 * It stays while sockets still run the algorithm (each holds a reference
 * until it closes), and for good when a network namespace was refused it as
 * its default: tcp_set_default_congestion_control()'s -EPERM branch never
 * drops the reference it took (net/ipv4/tcp_cong.c: Debian's 6.1; its 6.12
 * and 7.3 let the map go, functional.t asks the kernel).  Said,
 * not an error: the name is gone either way.
 */
static void note_outliving_map(const char *name, __u32 map_id)
{
	int i, fd = -1;

	for (i = 0; i < 200; i++) {
		fd = bpf_map_get_fd_by_id(map_id);
		if (fd < 0)
			return;
		close(fd);
		usleep(10 * 1000);
	}
	note("'%s' is unregistered but its struct_ops map (id %u) is still loaded: sockets "
	     "still running it keep it until they close; if none do, the kernel kept the reference "
	     "a namespace took when it refused '%s' as its default (see tcpca-load(8), BUGS; "
	     "use --allow for namespaces)", name, map_id, name);
}

/* the kernel drops the last link reference from a work item: give it a moment */
static bool name_gone(const char *name)
{
	for (int i = 0; i < 200 && ca_registered(name); i++)
		usleep(10 * 1000);
	return !ca_registered(name);
}

/*
 * A --replace that stopped (killed: its lock went with it, so nobody is
 * still at work on it) left NAME/next/.  If the kernel made its swap, the
 * staged pins are what runs: their move is finished.  If not, they hold
 * nothing registered and go.
 */
int tcpca_recover(struct dir_change *c, const char *name)
{
	char staged[TCPCA_NAME_MAX + sizeof("/" PIN_NEXT)];
	struct pin_state s;
	int e;

	if ((e = pin_state(c->dir, name, &s)) || !s.staged)
		return e;
	snprintf(staged, sizeof(staged), "%s/" PIN_NEXT, name);
	if (s.swapped) {
		note("finishing a --replace of '%s' that stopped after its swap: moving %s/%s into place",
		     name, c->dir, staged);
		return pin_adopt(c->dir, name, staged);
	}
	note("removing %s/%s, left by a --replace of '%s' that stopped before its swap", c->dir,
	     staged, name);
	if ((e = pin_remove(c->dir, staged)))
		err("cannot remove %s/%s: %s", c->dir, staged, strerror(-e));
	return e;
}

/*
 * By map: deleting the element unregisters; ENOENT or EINPROGRESS: it was
 * not registered (pins a stopped load left) or is on its way out.  By link:
 * removing the link's pin, its last holder.  Then the rest of the pins.
 */
int tcpca_unregister(struct dir_change *c, const char *name)
{
	char path[PATH_MAX];
	struct pin_state s;
	__u32 zero = 0;
	int fd, e;

	if ((e = tcpca_recover(c, name)) || (e = pin_state(c->dir, name, &s)))
		return e;
	if (!s.exists) {
		err("nothing named '%s' is registered under %s", name, c->dir);
		return -ENOENT;
	}
	if (s.map_id && s.mode == REG_MAP && s.registered) {
		if ((e = pin_path(path, sizeof(path), c->dir, name, PIN_OPS)) ||
		    (fd = bpf_obj_get(path)) < 0) {
			e = e ? e : -errno;
			err("cannot open %s: %s", path, strerror(-e));
			return e;
		}
		if (bpf_map_delete_elem(fd, &zero) && errno != ENOENT && errno != EINPROGRESS) {
			e = -errno;
			err("cannot unregister '%s' (deleting its struct_ops element): %s", name,
			    strerror(-e));
		}
		close(fd);
		if (e)
			return e;
	}
	if (s.link_id && !pin_path(path, sizeof(path), c->dir, name, PIN_LINK) &&
	    unlink(path) && errno != ENOENT) {
		e = -errno;
		err("cannot remove %s: %s", path, strerror(-e));
		return e;
	}
	if ((e = fault("unload.unregistered")))
		return e;
	if ((e = pin_remove(c->dir, name))) {
		err("cannot remove %s/%s: %s", c->dir, name, strerror(-e));
		return e;
	}
	if (s.registered && !name_gone(name)) {
		err("'%s' is still registered: another process holds its link", name);
		return -EBUSY;
	}
	if (s.map_id && s.registered)
		note_outliving_map(name, s.map_id);
	return 0;
}

/*
 * --replace.  The new object is loaded, filled and pinned beside the old one,
 * in <dir>/NAME/next/, before anything changes: any failure up to the swap
 * leaves the old registration as it was, and removes what it staged.  Then
 * the kernel swaps, and the staged leaves are renamed over the old ones (the
 * link leaf stays: it is the same link).  From the swap on the new program
 * runs: a failure to move the pins is then said as what is left to do, not
 * reported as a failed replace (tcpca_recover() finishes the move).
 *
 * By link (6.4+): bpf_link_update() moves the pinned link to the new map,
 * and the kernel (tcp_update_congestion_control()) adds the new ops before
 * it removes the old, under the one name: no moment without it.
 * BPF_F_REPLACE names the map read here, which the lock keeps current.
 *
 * By map (before 6.4): no link to update, so the old element is deleted and
 * the new one registered; in between the name is missing, for as long as the
 * delete's RCU grace period and one map update take.  That gap is measured
 * and said.  A failure after the delete leaves NAME unregistered
 * and says so: the old map cannot be registered again.
 */
static int swap_by_link(struct bpf_map *ops, int old_fd, const char *dir, const char *name)
{
	char path[PATH_MAX];
	int link_fd, e;

	if ((e = pin_path(path, sizeof(path), dir, name, PIN_LINK)) ||
	    (link_fd = bpf_obj_get(path)) < 0) {
		e = e ? e : -errno;
		err("cannot open %s: %s", path, strerror(-e));
		return e;
	}
	LIBBPF_OPTS(bpf_link_update_opts, opts, .flags = BPF_F_REPLACE, .old_prog_fd = old_fd);
	if (bpf_link_update(link_fd, bpf_map__fd(ops), &opts)) {
		e = -errno;
		err("the kernel refused to swap the new program in under '%s': %s", name, strerror(-e));
	}
	close(link_fd);
	return e;
}

static __u64 now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (__u64)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int swap_by_map(struct bpf_map *ops, int old_fd, const char *name, const char *what,
		       __u64 *gap_ns)
{
	__u32 zero = 0;
	__u64 t0 = now_ns();
	int e;

	if (bpf_map_delete_elem(old_fd, &zero) && errno != ENOENT && errno != EINPROGRESS) {
		e = -errno;
		err("cannot unregister the old '%s' (deleting its struct_ops element): %s", name,
		    strerror(-e));
		return e;
	}
	/* from here on the old registration is gone for good; the pins move
	 * after the new one registers, so that the gap is the kernel's alone */
	if ((e = fault("replace.unregistered")) || (e = ops_fill(ops))) {
		err("'%s' is unregistered: registering %s in its place failed (%s); "
		    "--apply or --unload then load registers it again", name, what, strerror(-e));
		return e;
	}
	*gap_ns = now_ns() - t0;
	return 0;
}

int tcpca_replace(struct dir_change *c, const struct tcpca_alg *alg, struct load_opts *o)
{
	const char *what = alg ? alg->name : o->object_path, *name = o->name;
	char staged[TCPCA_NAME_MAX + sizeof("/" PIN_NEXT)], path[PATH_MAX];
	struct bpf_object *obj = NULL;
	struct bpf_map *ops;
	struct pin_state s;
	struct ops_object *im = NULL;
	__u64 gap_ns = 0;
	int e, old_fd = -1;

	if ((e = kernel_reg_mode()) < 0 || (e = tcpca_recover(c, name)) ||
	    (e = pin_state(c->dir, name, &s)))
		return e;
	if (!s.exists) {
		err("nothing named '%s' is registered under %s", name, c->dir);
		return -ENOENT;
	}
	if (!s.registered) {
		err("'%s' has pins under %s but is not registered; --unload it, then load (or --apply)",
		    name, c->dir);
		return -ENOENT;
	}
	snprintf(staged, sizeof(staged), "%s/" PIN_NEXT, name);
	if ((e = pin_path(path, sizeof(path), c->dir, name, PIN_OPS)) ||
	    (old_fd = bpf_obj_get(path)) < 0) {
		e = e ? e : -errno;
		err("cannot open %s: %s", path, strerror(-e));
		return e;
	}
	if ((e = ops_object_read(alg, o->object_path, &im)) ||
	    (e = load_ops_object(alg, im, name, o, s.mode, &obj)) || (e = fault("replace.verified")))
		goto out;
	ops = ops_map(obj);
	if (s.mode == REG_LINK && (e = ops_fill_unlinked(ops))) {
		err("cannot fill the struct_ops map of %s: %s", what, strerror(-e));
		goto out;
	}
	if ((e = change_mkdir(c, staged)) || (e = pin_extras(c, obj, staged)) ||
	    (e = change_pin(c, bpf_map__fd(ops), staged, PIN_OPS)) || (e = fault("replace.staged")) ||
	    (e = s.mode == REG_LINK ? swap_by_link(ops, old_fd, c->dir, name) :
				      swap_by_map(ops, old_fd, name, what, &gap_ns))) {
		change_rollback(c);	/* what it staged; the old pins stay as they were */
		goto out;
	}
	/* swapped: the staged pins are the registration's now, whatever follows */
	change_commit(c);
	snprintf(o->registered, sizeof(o->registered), "%s", name);
	o->mode = s.mode;
	note_no_table(alg, o);
	if (s.mode == REG_MAP)
		note("registered by map (no struct_ops links before Linux 6.4): '%s' was "
		     "unregistered for %.3f ms while the new program took its place; a socket that "
		     "selected it then got ENOENT", name, gap_ns / 1e6);
	if ((e = fault("replace.swapped")))
		goto out;
	if (pin_adopt(c->dir, name, staged))
		note("'%s' now runs %s, but its pins are not all in place: some are still in %s/%s; "
		     "the next --replace, --unload or --apply under %s moves them", name, what,
		     c->dir, staged, c->dir);
out:
	close(old_fd);
	bpf_object__close(obj);
	ops_object_free(im);
	return e;
}
