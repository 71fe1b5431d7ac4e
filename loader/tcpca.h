/* SPDX-License-Identifier: GPL-2.0 */
/* The loader's internal interfaces, one section per file in loader/. */
#ifndef TCPCA_LOADER_H
#define TCPCA_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <getopt.h>
#include <linux/types.h>

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define TCPCA_NAME_MAX		16		/* TCP_CA_NAME_MAX, with the NUL */
#define TCPCA_PARAMS_MAX	32		/* tunables per algorithm (checked at build) */
#define TCPCA_DEFAULT_PIN_DIR	"/sys/fs/bpf/tcpca"
#define TCPCA_VERSION		"0.1.0"

/* algorithms.c: every algorithm embedded in this binary */
struct tcpca_param {
	const char *name;
	__u32 def, min, max;
	const char *unit;
	const char *doc;
};

/*
 * An embedded algorithm, or the table of an object's tunables read from the
 * object or its pin (tunables.c: elf_bytes and ca_name NULL, name the file
 * or NAME, on the heap: alg_free()).
 */
struct tcpca_alg {
	const char *name;				/* as in bpf/<name>.bpf.c */
	const char *ca_name;				/* registered as, by default */
	const void *(*elf_bytes)(size_t *size);		/* from its skeleton; NULL: not embedded */
	const struct tcpca_param *params;		/* field i of its params struct */
	unsigned int nparams;
	const char *(*check)(const __u32 *values);	/* consistency, NULL if fine */
	bool owned;					/* on the heap: alg_free() frees it */
};

extern const struct tcpca_alg tcpca_algs[];
extern const unsigned int tcpca_nalgs;
const struct tcpca_alg *alg_find(const char *name);

/* options.c: the command line of options.def */
enum { OPT_ALL = 256, OPT_APPLY, OPT_DRY_RUN };	/* options with a long name only */
extern struct option cli_long_options[];
extern char cli_short_options[];
void cli_tables(void);
void cli_usage(FILE *f);

/* names.c: the NAME every command takes, checked once */
bool valid_ca_name(const char *name);
int check_ca_name(const char *name);		/* 0, or -EINVAL with its error printed */

/* log.c: one line per failure; libbpf's own chatter kept for -v */
extern bool verbose;
extern const char *err_context;	/* e.g. FILE:LINE, said after "tcpca-load: " when set */
void err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void info_verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_capture_libbpf(void);
bool log_has_verifier_log(void);
void log_print_verifier_tail(void);
void log_print_libbpf_cause(void);

/* config.c: tcpca.conf(5), read and checked whole before --apply acts */
#define TCPCA_CONF_PATH		"/etc/tcpca.conf"
#define TCPCA_CONF_MAX		256		/* registrations in one file */
struct conf_entry {
	char name[TCPCA_NAME_MAX];
	const struct tcpca_alg *alg;	/* embedded, or the object's table (NULL: none) */
	char *object;			/* FILE.bpf.o, or NULL */
	bool allow;
	__u32 values[TCPCA_PARAMS_MAX];	/* alg's parameters, defaults filled in */
	int line;
};
struct tcpca_conf {
	const char *path;
	struct conf_entry *entries;
	int n;
	char default_name[TCPCA_NAME_MAX];
	int default_line;		/* 0: no default line */
};
bool is_object_path(const char *arg);
int conf_parse(FILE *f, const char *path, struct tcpca_conf *c);	/* 0, or -errno said */
int conf_read(const char *path, struct tcpca_conf *c);
const struct conf_entry *conf_find(const struct tcpca_conf *c, const char *name);
void conf_free(struct tcpca_conf *c);

/* apply.c: --apply [--dry-run] */
int tcpca_apply(const char *path, const char *pin_dir, bool dry_run);

/* kbtf.c: the kernel's BTF, read once; a struct member's index (and byte offset) */
struct btf;
struct btf_type;
const struct btf *kernel_btf(void);	/* NULL: said */
int btf_member_find(const struct btf *btf, const struct btf_type *t, const char *name, size_t *off);

/* features.c: what the running kernel offers */
enum reg_mode { REG_LINK, REG_MAP };	/* who owns a registration: its link, its map */
int kernel_reg_mode(void);		/* enum reg_mode, or -errno with the cause said */
const char *reg_mode_name(int mode);
int kernel_features(void);		/* TCPCA_KF_* (tcpca_features.h), or -errno said */
const char *kernel_features_text(int features);
const char *kernel_feature_missing(unsigned int needs, int features);	/* NULL: none */

/* kstate.c: what the kernel says of a struct_ops map or link */
#define TCPCA_BPF_F_LINK		(1U << 13)	/* BPF_F_LINK, 6.4+ */
#define TCPCA_LINK_TYPE_STRUCT_OPS	9		/* BPF_LINK_TYPE_STRUCT_OPS */
struct ops_map {
	__u32 id, btf_id;
	bool link_made;			/* created with BPF_F_LINK: a link registers it */
	bool in_use;			/* registered by its map update (before 6.4's way) */
	char map_name[TCPCA_NAME_MAX];	/* the ops table's variable: the algorithm */
	char ca_name[TCPCA_NAME_MAX];	/* tcp_congestion_ops.name */
};
int ops_map_read(int fd, struct ops_map *m);	/* -ENOTSUP: not a congestion control */
int link_ops_map(int fd, __u32 *link_id, __u32 *map_id);
bool ops_map_is_tcpca(const struct ops_map *m);
/* each(hook, its program's id, ctx) for each hook in the value of a map that
 * ops_map_read() accepted, in tcp_congestion_ops' order; stops at each()'s
 * first non-zero return */
int ops_map_hooks(int fd, int (*each)(const char *hook, __u32 prog_id, void *ctx), void *ctx);

/* fault.c: TCPCA_FAULT=STEP[:kill|:err], for the tests */
int fault(const char *step);

/* params.c: NAME=VALUE against an algorithm's table */
int params_apply(const struct tcpca_alg *alg, __u32 *values, int argc, char **argv);
void params_defaults(const struct tcpca_alg *alg, __u32 *values);
unsigned int params_carry(const struct tcpca_alg *to, __u32 *values,
			  const struct tcpca_alg *from, const __u32 *old);
void params_print(const struct tcpca_alg *alg, const __u32 *values, const char *indent);
int params_read_pinned(const char *path, __u32 *values, unsigned int n);
int params_write_pinned(const char *path, const __u32 *values, unsigned int n);

/* ops.c: an object's one tcp_congestion_ops (its struct_ops map), whatever the libbpf */
struct ops_object;
struct bpf_object;
struct bpf_map;
/* FILE.bpf.o at path, or when path is NULL the embedded alg's object */
int ops_object_read(const struct tcpca_alg *alg, const char *path, struct ops_object **o);
const char *ops_object_ca_name(const struct ops_object *o);	/* the object's own */
const char *ops_object_map_name(const struct ops_object *o);	/* the ops table's variable */
/* opened, with that CA name and access; NULL and errno if it fails */
struct bpf_object *ops_object_open(struct ops_object *o, const char *name, bool allow);
void ops_object_free(struct ops_object *o);
struct bpf_map *ops_map(struct bpf_object *obj);
int ops_fill(struct bpf_map *ops);		/* registers a map without BPF_F_LINK */
int ops_link_create(struct bpf_map *ops);	/* fills and links it: the link's fd, or -errno */
int ops_fill_unlinked(struct bpf_map *ops);	/* --replace by link: filled, no link of its own */

/* pins.c: bpffs layout <dir>/<name>/<leaf> (pins.def: PIN_LINK, PIN_OPS, ...),
 * and <dir>/<name>/next/ while --replace stages the new program */
#define PIN_NEXT	"next"
#define PIN_LEAF(id, file, doc)	extern const char PIN_##id[];
#include "pins.def"
#undef PIN_LEAF
int bpffs_prepare(const char *dir);
int pin_path(char *buf, size_t size, const char *dir, const char *name, const char *leaf);
bool pin_exists(const char *dir, const char *name);
int pin_remove(const char *dir, const char *name);
int pin_adopt(const char *dir, const char *name, const char *staged);
int pin_names(const char *dir, char names[][TCPCA_NAME_MAX], int max);

/* change.c: one writer's change to a pin directory: its lock, what it made */
#define CHANGE_MADE_MAX	16
struct dir_change {
	const char *dir;
	int lock_fd;
	int nmade;
	char made[CHANGE_MADE_MAX][TCPCA_NAME_MAX * 2 + 16];	/* NAME[/next]/leaf */
};
int change_begin(struct dir_change *c, const char *dir);	/* locks; -EBUSY after the wait */
void change_end(struct dir_change *c);				/* unlocks */
int change_mkdir(struct dir_change *c, const char *sub);
int change_pin(struct dir_change *c, int fd, const char *sub, const char *leaf);
void change_rollback(struct dir_change *c);
void change_commit(struct dir_change *c);

/* state.c: a registration under the pin directory as the kernel sees it */
struct pin_state {
	bool exists;			/* <dir>/NAME */
	int mode;			/* enum reg_mode, from the ops map's flags */
	const struct tcpca_alg *alg;	/* NULL: an object of one's own, or no ops pin */
	__u32 map_id, link_id;		/* the ops pin's map (the running one), the link pin */
	bool registered;		/* by these pins: its link, or its map in use */
	bool staged;			/* NAME/next: a --replace stopped */
	bool swapped;			/* ... after the kernel swapped its program in */
	bool incomplete;		/* no ops pin: a load stopped before its pins */
};
int pin_state(const char *dir, const char *name, struct pin_state *s);	/* -errno said */

/*
 * tunables.c, tunables_map.c: an object's own table of tunables
 * (include/tcpca_params.h).  Each returns 0 with *alg NULL where there is
 * no table, 0 with a table (free with alg_free()), or -errno with its cause
 * said.
 */
bool alg_is_embedded(const struct tcpca_alg *alg);
void alg_free(const struct tcpca_alg *alg);	/* nothing for one not owned (embedded) */
int tunables_parse(const void *data, size_t size, size_t params_size, const char *what,
		   struct tcpca_alg **alg);
bool tunables_same(const struct tcpca_alg *a, const struct tcpca_alg *b);
int obj_tunables(struct bpf_object *obj, const char *what, struct tcpca_alg **alg);
int object_tunables(const char *path, struct tcpca_alg **alg);		/* FILE.bpf.o */
int pinned_tunables(const char *dir, const char *name, struct tcpca_alg **alg);	/* -ENOENT: none */
int registered_tunables(const char *dir, const char *name, const struct pin_state *s,
			const struct tcpca_alg **alg);

/* orphans.c: registrations of tcpca objects that no pin owns */
struct orphan {
	char name[TCPCA_NAME_MAX];
	int mode;
	__u32 map_id, link_id;
	const struct tcpca_alg *alg;
};
int orphans_find(struct orphan *o, int max);	/* how many, or -errno */
int orphan_find(const char *name, struct orphan *o);	/* 1 found, 0 none, -errno */
int orphan_remove(const struct orphan *o);

/* sysctl.c: what the kernel has registered, and the default */
bool ca_registered(const char *name);
bool ca_allowed(const char *name);
const char *ca_access(const char *name);	/* allowed, restricted or unregistered */
int ca_set_default(const char *name);	/* 0 or -errno */

/* register.c */
struct load_opts {
	const char *pin_dir;
	const char *object_path;	/* FILE.bpf.o, or NULL for alg */
	const char *name;	/* CA name; NULL: the one in the object */
	bool allow;		/* TCP_CONG_NON_RESTRICTED */
	__u32 *values;		/* parameters, alg->nparams of them */
	char registered[TCPCA_NAME_MAX];	/* out: the name it got */
	int mode;				/* out: enum reg_mode */
};
/* each under a change begun on o->pin_dir */
int tcpca_register(struct dir_change *c, const struct tcpca_alg *alg, struct load_opts *o);
int tcpca_replace(struct dir_change *c, const struct tcpca_alg *alg, struct load_opts *o);
int tcpca_unregister(struct dir_change *c, const char *name);
int tcpca_recover(struct dir_change *c, const char *name);	/* a --replace that stopped */

/* show.c */
int show_counters(const char *path);
int show_hooks(const char *ops_path);		/* the pinned struct_ops map */
int show_sockets(const char *path);
int show_events(const char *path, double seconds);

#endif
