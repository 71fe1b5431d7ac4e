// SPDX-License-Identifier: GPL-2.0
/*
 * tcpca-load: register tcpca's BPF congestion-control algorithms under the
 * names sysctl net.ipv4.tcp_congestion_control and TCP_CONGESTION expect,
 * and inspect, retune and remove them.
 */
#define _GNU_SOURCE		/* setns() */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sched.h>
#include <unistd.h>
#include "tcpca.h"

#define MAX_REGISTERED	256

enum command { LOAD, REPLACE, UNLOAD, LIST, SHOW, SET, EVENTS, APPLY };


static int need_privileges(void)
{
	const char *btf = getenv("TCPCA_VMLINUX_BTF");	/* tests point it elsewhere */

	if (geteuid() != 0) {
		err("must be run as root (needs CAP_BPF, CAP_NET_ADMIN and CAP_SYS_ADMIN)");
		return -EPERM;
	}
	if (!btf)
		btf = "/sys/kernel/btf/vmlinux";
	if (access(btf, R_OK)) {
		err("no kernel BTF at %s: the kernel needs CONFIG_DEBUG_INFO_BTF=y", btf);
		return -ENOENT;
	}
	return 0;
}

/*
 * ALG|FILE.bpf.o [PARAM=VALUE ...], as loading and --replace take it: an
 * embedded algorithm, or an object (o->object_path) with the table of
 * tunables it carries (*alg, to alg_free(): include/tcpca_params.h) or none
 * (*alg NULL); defaults and the values given in o->values.
 */
static int parse_program(int argc, char **argv, const struct tcpca_alg **alg, struct load_opts *o)
{
	struct tcpca_alg *table;
	int e;

	*alg = NULL;
	if (is_object_path(argv[0])) {
		o->object_path = argv[0];
		log_capture_libbpf();	/* opening it is libbpf's: its chatter kept for -v */
		if ((e = object_tunables(argv[0], &table)))
			return e;
		if (!table && argc > 1) {
			err("%s has no tunables table (.rodata.tcpca_params): it takes no PARAM=VALUE",
			    argv[0]);
			return -EINVAL;
		}
		if (!table)
			return 0;
		*alg = table;
	} else if (!(*alg = alg_find(argv[0]))) {
		err("unknown algorithm '%s' (tcpca-load --list shows them)", argv[0]);
		return -ENOENT;
	}
	params_defaults(*alg, o->values);
	return params_apply(*alg, o->values, argc - 1, argv + 1) ? -EINVAL : 0;
}

static int cmd_load(const char *pin_dir, const char *name, bool allow, int argc, char **argv)
{
	const struct tcpca_alg *alg = NULL;
	const char *path;
	__u32 values[TCPCA_PARAMS_MAX];
	struct load_opts o = { .pin_dir = pin_dir, .name = name, .allow = allow, .values = values };
	struct dir_change c;
	int e;

	if (argc < 1) {
		err("which algorithm? (tcpca-load --list shows them)");
		return -EINVAL;
	}
	if ((e = parse_program(argc, argv, &alg, &o)))
		goto out;
	path = o.object_path;
	e = -EINVAL;
	if (name && check_ca_name(name))
		goto out;
	if ((e = need_privileges()) || (e = bpffs_prepare(pin_dir)))
		goto out;
	log_capture_libbpf();
	if ((e = change_begin(&c, pin_dir)))
		goto out;
	e = tcpca_register(&c, alg, &o);
	change_end(&c);
	if (!e)
		info("registered %s as '%s'%s by %s, pinned at %s/%s", path ? path : alg->name,
		     o.registered, allow ? " (allowed to all)" : " (restricted)", reg_mode_name(o.mode),
		     pin_dir, o.registered);
out:
	alg_free(alg);
	return e;
}

/* NAME's pins, or the orphan of that name that no pin owns */
static int unload_one(struct dir_change *c, const char *name)
{
	struct orphan o;
	int e;

	if (pin_exists(c->dir, name))
		return tcpca_unregister(c, name);
	if ((e = orphan_find(name, &o)) < 0) {
		err("cannot look for an orphan named '%s': %s", name, strerror(-e));
		return e;
	}
	if (!e) {
		err("nothing named '%s' is registered under %s", name, c->dir);
		return -ENOENT;
	}
	if ((e = orphan_remove(&o)))
		return e;
	info("unregistered the orphan '%s' (%s %u), which no pin owned", name,
	     o.mode == REG_LINK ? "link" : "map", o.mode == REG_LINK ? o.link_id : o.map_id);
	return 0;
}

static int cmd_unload(const char *pin_dir, bool all, int argc, char **argv)
{
	char names[MAX_REGISTERED][TCPCA_NAME_MAX];
	struct dir_change c;
	int i, n, e, failed = 0;

	if ((e = need_privileges()))
		return e;
	if (!all && argc < 1) {
		err("--unload needs NAME... or --all");
		return -EINVAL;
	}
	for (i = 0; i < argc; i++)
		if ((e = check_ca_name(argv[i])))
			return e;
	if (all && access(pin_dir, F_OK) && errno == ENOENT)
		return 0;	/* no directory: nothing under it */
	if ((e = bpffs_prepare(pin_dir)) || (e = change_begin(&c, pin_dir)))
		return e;
	if (all) {
		if ((n = pin_names(pin_dir, names, MAX_REGISTERED)) < 0) {
			err("cannot read %s: %s", pin_dir, strerror(-n));
			failed = n;
		}
		for (i = 0; i < n; i++)
			if ((e = tcpca_unregister(&c, names[i])))
				failed = e;
	}
	for (i = 0; i < argc; i++)
		if ((e = unload_one(&c, argv[i])))
			failed = e;
	change_end(&c);
	return failed;
}

/* One row of --list: NAME ALGORITHM BY LINK MAP ACCESS PIN */
static void list_row(const char *name, const struct tcpca_alg *a, int mode, __u32 link_id,
		     __u32 map_id, const char *access, const char *dir)
{
	printf("%-16s %-10s %-5s %-8u %-8u %-12s ", name, a ? a->name : "(object)",
	       reg_mode_name(mode), link_id, map_id, access);
	if (dir)
		printf("%s/%s\n", dir, name);
	else
		printf("(none)\n");
}

static int cmd_list(const char *pin_dir)
{
	char names[MAX_REGISTERED][TCPCA_NAME_MAX];
	__u32 values[TCPCA_PARAMS_MAX];
	struct orphan orphans[MAX_REGISTERED];
	struct pin_state s;
	unsigned int i, j;
	int n, no, failed = 0;

	printf("%-10s %-16s %s\n", "ALGORITHM", "DEFAULT NAME", "PARAMETERS (defaults)");
	for (i = 0; i < tcpca_nalgs; i++) {
		const struct tcpca_alg *a = &tcpca_algs[i];

		printf("%-10s %-16s", a->name, a->ca_name);
		params_defaults(a, values);
		for (j = 0; j < a->nparams; j++)
			printf(" %s=%u", a->params[j].name, values[j]);
		printf("%s\n", a->nparams ? "" : " -");
	}
	if (geteuid() != 0)
		return 0;
	n = kernel_features();
	if (n >= 0 && kernel_reg_mode() >= 0)
		printf("\nthis kernel: registers by %s; %s\n", reg_mode_name(kernel_reg_mode()),
		       kernel_features_text(n));
	n = pin_names(pin_dir, names, MAX_REGISTERED);
	printf("\nregistered under %s:\n", pin_dir);
	if (n < 0) {
		err("cannot read %s: %s", pin_dir, strerror(-n));
		failed = n;
	}
	if (n <= 0)
		printf("  (none)\n");
	else
		printf("%-16s %-10s %-5s %-8s %-8s %-12s %s\n", "NAME", "ALGORITHM", "BY", "LINK", "MAP",
		       "ACCESS", "PIN");
	for (i = 0; i < (unsigned int)(n > 0 ? n : 0); i++) {
		int e = pin_state(pin_dir, names[i], &s);

		if (e) {
			failed = e;
			continue;
		}
		list_row(names[i], s.alg, s.mode, s.link_id, s.map_id,
			 s.incomplete && !s.registered ? "incomplete" :
			 s.registered ? ca_access(names[i]) : "unregistered", pin_dir);
		if (s.staged)
			printf("  %s: a --replace stopped %s its swap; the next writer under this "
			       "directory %s %s/%s/" PIN_NEXT "\n", names[i], s.swapped ? "after" : "before",
			       s.swapped ? "moves into place" : "removes", pin_dir, names[i]);
	}
	no = orphans_find(orphans, MAX_REGISTERED);
	if (no < 0) {
		err("cannot look for orphans: %s", strerror(-no));
		return no;
	}
	if (no > 0)
		printf("\norphans: registered by tcpca objects, owned by no pin (--unload NAME or "
		       "--apply removes them):\n");
	for (i = 0; i < (unsigned int)no; i++)
		list_row(orphans[i].name, orphans[i].alg, orphans[i].mode, orphans[i].link_id,
			 orphans[i].map_id, ca_access(orphans[i].name), NULL);
	return failed;
}

/* The commands that act on a registered NAME start here. */
static int need_registered(const char *pin_dir, const char *name)
{
	if (check_ca_name(name))
		return -EINVAL;
	if (need_privileges())
		return -EPERM;
	if (!pin_exists(pin_dir, name)) {
		err("nothing named '%s' is registered under %s", name, pin_dir);
		return -ENOENT;
	}
	return 0;
}

/* <dir>/NAME/leaf, or -ENAMETOOLONG said */
static int leaf_path(char *buf, size_t size, const char *dir, const char *name, const char *leaf)
{
	int e = pin_path(buf, size, dir, name, leaf);

	if (e)
		err("%s/%s/%s: %s", dir, name, leaf, strerror(-e));
	return e;
}

/*
 * --replace NAME ALG|FILE.bpf.o [PARAM=VALUE ...]: what the user gives is
 * checked before anything is read from the kernel; the old registration's
 * parameters are the starting point of the new one's where the names agree
 * (either one an embedded algorithm or an object with a table of tunables).
 * Read under the lock: nobody changes them between here and the swap.
 */
static int cmd_replace(const char *pin_dir, int argc, char **argv)
{
	const struct tcpca_alg *alg = NULL, *from = NULL;
	__u32 values[TCPCA_PARAMS_MAX], old[TCPCA_PARAMS_MAX];
	struct load_opts o = { .pin_dir = pin_dir, .values = values };
	struct pin_state before, after;
	struct dir_change c = { .lock_fd = -1 };
	char path[PATH_MAX];
	int e;

	if (argc < 2) {
		err("--replace needs NAME and ALG|FILE.bpf.o");
		return -EINVAL;
	}
	o.name = argv[0];
	if ((e = parse_program(argc - 1, argv + 1, &alg, &o)) || (e = need_registered(pin_dir, o.name)))
		goto out;
	log_capture_libbpf();
	if ((e = change_begin(&c, pin_dir)))
		goto out;
	if ((e = tcpca_recover(&c, o.name)) || (e = pin_state(pin_dir, o.name, &before)))
		goto out;
	if (!before.exists) {
		err("nothing named '%s' is registered under %s", o.name, pin_dir);
		e = -ENOENT;
		goto out;
	}
	if (alg) {
		if ((e = leaf_path(path, sizeof(path), pin_dir, o.name, PIN_PARAMS)) ||
		    (e = registered_tunables(pin_dir, o.name, &before, &from)))
			goto out;
		if (from && from->nparams && (e = params_read_pinned(path, old, from->nparams))) {
			err("cannot read %s: %s", path, strerror(-e));
			goto out;
		}
		params_carry(alg, values, from && from->nparams ? from : NULL, old);
		if (params_apply(alg, values, argc - 2, argv + 2)) {
			e = -EINVAL;
			goto out;
		}
	}
	o.allow = ca_allowed(o.name);
	if ((e = tcpca_replace(&c, alg, &o)))
		goto out;
	if (pin_state(pin_dir, o.name, &after))
		after.map_id = 0;
	info("replaced '%s': %s (map %u) now runs %s (map %u), by %s%s; sockets on the old "
	     "program keep it until they close", o.name, before.alg ? before.alg->name : "(object)",
	     before.map_id, o.object_path ? o.object_path : alg->name, after.map_id,
	     reg_mode_name(o.mode), o.mode == REG_LINK ? ", with no gap" : "");
out:
	change_end(&c);
	alg_free(from);
	alg_free(alg);
	return e;
}

static int cmd_set(const char *pin_dir, int argc, char **argv)
{
	const struct tcpca_alg *alg = NULL;
	char path[PATH_MAX];
	__u32 values[TCPCA_PARAMS_MAX];
	struct pin_state s;
	struct dir_change c;
	int e;

	if (argc < 2) {
		err("--set needs NAME and PARAM=VALUE");
		return -EINVAL;
	}
	if ((e = need_registered(pin_dir, argv[0])) ||
	    (e = leaf_path(path, sizeof(path), pin_dir, argv[0], PIN_PARAMS)))
		return e;
	if ((e = change_begin(&c, pin_dir)))
		return e;
	if ((e = tcpca_recover(&c, argv[0])) || (e = pin_state(pin_dir, argv[0], &s)))
		goto out;
	e = -ENOENT;
	if (!s.exists) {
		err("nothing named '%s' is registered under %s", argv[0], pin_dir);
		goto out;
	}
	if ((e = registered_tunables(pin_dir, argv[0], &s, &alg)))
		goto out;
	e = -EINVAL;
	if (!alg) {
		err("'%s' runs an object without a tunables table (.rodata.tcpca_params): it has no "
		    "known parameters", argv[0]);
		goto out;
	}
	if (!alg->nparams) {
		err("%s has no parameters", alg->name);
		goto out;
	}
	if ((e = params_read_pinned(path, values, alg->nparams))) {
		err("cannot read %s: %s", path, strerror(-e));
		goto out;
	}
	if (params_apply(alg, values, argc - 1, argv + 1)) {
		e = -EINVAL;
		goto out;
	}
	if ((e = params_write_pinned(path, values, alg->nparams)))
		err("cannot write %s: %s", path, strerror(-e));
out:
	change_end(&c);
	alg_free(alg);
	return e;
}

/* The iterator shows the sockets of the namespace its reader is in. */
static int enter_netns(const char *ns)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), strchr(ns, '/') ? "%s" : "/run/netns/%s", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET)) {
		err("cannot enter network namespace %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * A part of --show that could not be read: said, and the exit status says
 * so too.  An object of one's own may lack a part (no pin): that is no failure.
 */
static bool show_failed(const char *path, int e)
{
	if (!e || e == -ENOENT)
		return false;
	err("cannot read %s: %s", path, strerror(-e));
	return true;
}

static int cmd_show(const char *pin_dir, const char *netns, int argc, char **argv)
{
	const struct tcpca_alg *alg = NULL;
	char path[PATH_MAX];
	__u32 values[TCPCA_PARAMS_MAX];
	struct pin_state s;
	bool failed = false;

	if (argc != 1) {
		err("--show needs exactly one NAME");
		return -EINVAL;
	}
	if (need_registered(pin_dir, argv[0]))
		return -ENOENT;
	if (pin_state(pin_dir, argv[0], &s))
		return -1;
	printf("%s: algorithm %s, registered by %s, link %u, map %u, %s\n", argv[0],
	       s.alg ? s.alg->name : "(object)", reg_mode_name(s.mode), s.link_id, s.map_id,
	       s.registered ? ca_access(argv[0]) : s.incomplete ? "incomplete" : "unregistered");
	if (leaf_path(path, sizeof(path), pin_dir, argv[0], PIN_PARAMS))
		return -1;
	if (registered_tunables(pin_dir, argv[0], &s, &alg)) {
		failed = true;
	} else if (!alg) {
		printf("parameters: unknown (an object without a tunables table)\n");
	} else if (alg->nparams) {
		if (show_failed(path, params_read_pinned(path, values, alg->nparams))) {
			failed = true;
		} else {
			printf("parameters:\n");
			params_print(alg, values, "  ");
		}
	}
	alg_free(alg);
	if (leaf_path(path, sizeof(path), pin_dir, argv[0], PIN_COUNTERS))
		return -1;
	failed |= show_failed(path, show_counters(path));
	if (leaf_path(path, sizeof(path), pin_dir, argv[0], PIN_OPS))
		return -1;
	failed |= show_failed(path, show_hooks(path));
	if (leaf_path(path, sizeof(path), pin_dir, argv[0], PIN_SOCKETS))
		return -1;
	if (netns && enter_netns(netns))
		return -1;
	failed |= show_failed(path, show_sockets(path));
	return failed ? -1 : 0;
}

static int cmd_events(const char *pin_dir, int argc, char **argv)
{
	char path[PATH_MAX], *end = NULL;
	double seconds = 0;

	if (argc < 1 || argc > 2) {
		err("--events needs NAME and optionally SECONDS");
		return -EINVAL;
	}
	if (argc == 2 && ((seconds = strtod(argv[1], &end)) <= 0 || *end)) {
		err("'%s' is not a number of seconds", argv[1]);
		return -EINVAL;
	}
	if (need_registered(pin_dir, argv[0]) ||
	    leaf_path(path, sizeof(path), pin_dir, argv[0], PIN_EVENTS))
		return -ENOENT;
	return show_events(path, seconds);
}

/*
 * --apply [FILE]: tcpca.conf(5).  The sysctl it sets is the default of the
 * network namespace this command runs in, or of NS with --netns: setns()
 * changes only the network namespace, so bpffs stays in sight (where
 * `ip netns exec` remounts /sys).
 */
static int cmd_apply(const char *pin_dir, const char *netns, bool dry_run, int argc, char **argv)
{
	if (argc > 1) {
		err("--apply takes one FILE (default " TCPCA_CONF_PATH ")");
		return -EINVAL;
	}
	if (need_privileges() || (netns && enter_netns(netns)))
		return -EPERM;
	return tcpca_apply(argc ? argv[0] : TCPCA_CONF_PATH, pin_dir, dry_run);
}

int main(int argc, char **argv)
{
	enum command cmd = LOAD;
	const char *pin_dir = TCPCA_DEFAULT_PIN_DIR, *name = NULL, *netns = NULL;
	bool allow = false, all = false, dry_run = false;
	int c, ncmd = 0;

	cli_tables();
	while ((c = getopt_long(argc, argv, cli_short_options, cli_long_options, NULL)) != -1) {
		switch (c) {
		case 'n': name = optarg; break;
		case 'a': allow = true; break;
		case 'p': pin_dir = optarg; break;
		case 'r': cmd = REPLACE; ncmd++; break;
		case 'u': cmd = UNLOAD; ncmd++; break;
		case OPT_ALL: all = true; break;
		case 'l': cmd = LIST; ncmd++; break;
		case 's': cmd = SHOW; ncmd++; break;
		case 'S': cmd = SET; ncmd++; break;
		case 'e': cmd = EVENTS; ncmd++; break;
		case 'N': netns = optarg; break;
		case OPT_APPLY: cmd = APPLY; ncmd++; break;
		case OPT_DRY_RUN: dry_run = true; break;
		case 'v': verbose = true; break;
		case 'h': cli_usage(stdout); return 0;
		case 'V': printf("tcpca-load " TCPCA_VERSION "\n"); return 0;
		default:
			fprintf(stderr, "Try 'tcpca-load --help'.\n");
			return 2;
		}
	}
	if (ncmd > 1) {
		err("--replace, --unload, --list, --show, --set, --events and --apply exclude each other");
		return 2;
	}
	if ((name || allow) && cmd != LOAD) {
		err("--name and --allow apply to loading only");
		return 2;
	}
	if (netns && cmd != SHOW && cmd != APPLY) {
		err("--netns goes with --show or --apply");
		return 2;
	}
	if (all && cmd != UNLOAD) {
		err("--all goes with --unload");
		return 2;
	}
	if (dry_run && cmd != APPLY) {
		err("--dry-run goes with --apply");
		return 2;
	}
	argc -= optind;
	argv += optind;
	switch (cmd) {
	case LOAD:   return cmd_load(pin_dir, name, allow, argc, argv) ? 1 : 0;
	case REPLACE: return cmd_replace(pin_dir, argc, argv) ? 1 : 0;
	case UNLOAD: return cmd_unload(pin_dir, all, argc, argv) ? 1 : 0;
	case LIST:   return cmd_list(pin_dir) ? 1 : 0;
	case SHOW:   return cmd_show(pin_dir, netns, argc, argv) ? 1 : 0;
	case SET:    return cmd_set(pin_dir, argc, argv) ? 1 : 0;
	case EVENTS: return cmd_events(pin_dir, argc, argv) ? 1 : 0;
	case APPLY:  return cmd_apply(pin_dir, netns, dry_run, argc, argv) ? 1 : 0;
	}
	return 1;
}
