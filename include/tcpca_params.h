/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tunables, described once for both sides.  An algorithm lists its tunables
 * in an X-macro in include/<alg>.h (or in its own .bpf.c), one row per
 * tunable:
 *
 *	#define VEGAS_PARAMS(P) \
 *		P(alpha, 2, 1, 1000, "packets", "fewest packets to keep queued in the path")
 *
 * (name, default, min, max, unit, description), and derives its struct:
 *
 *	struct vegas_params { VEGAS_PARAMS(TCPCA_PARAM_FIELD) };
 *
 * The BPF program then writes TCPCA_PARAMS(vegas_params, VEGAS_PARAMS);
 * which puts two things in the object:
 *
 *  - the values, a global "params" of that type in section ".data.params",
 *    read by the program on every use; the loader pins the map as
 *    <pin dir>/<name>/params and --set writes it.  Every tunable is a __u32,
 *    so field i sits at offset 4 * i.
 *  - their description, "tcpca_tunables" in section ".rodata.tcpca_params":
 *    a head (struct tcpca_tunables_head) and one struct tcpca_tunable per
 *    row, in the same order, with default, min and max evaluated by the
 *    compiler and the strings in fixed-size arrays.  libbpf makes the
 *    section a read-only map, so the loader reads it after open without
 *    parsing ELF, and pins it as <pin dir>/<name>/tunables, from where
 *    --set and --show find the table of a registration whose file is gone.
 *
 * That is the whole convention (docs/object-convention.md): an object built
 * outside this tree that follows it gets range-checked PARAM=VALUE, --set,
 * --show, --replace's carry and tcpca.conf parameters as the embedded
 * algorithms do.  An algorithm without tunables writes "TCPCA_NO_PARAMS;" to
 * say so (a table of no rows, where no table at all means "not known").
 * The loader's own table of each embedded algorithm is built from the same
 * X-macro on the host; tests/unit/test_algorithms checks the two agree.
 */
#ifndef TCPCA_PARAMS_H
#define TCPCA_PARAMS_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define TCPCA_PARAM_FIELD(name, def, lo, hi, unit, doc)	__u32 name;
#define TCPCA_PARAM_INIT(name, def, lo, hi, unit, doc)	.name = (def),

/*
 * The table's layout, shared by the BPF side and the loader.  The string
 * sizes include the NUL, which the build checks for (a longer string is a
 * compile error below) and the loader checks again (a table made some other
 * way).  Version 1 is this layout; the loader refuses any other.
 */
#define TCPCA_TUNABLES_SEC	".rodata.tcpca_params"
#define TCPCA_TUNABLES_MAGIC	0x70616374U	/* "tcap" in memory, little-endian */
#define TCPCA_TUNABLES_VERSION	1
#define TCPCA_TUNABLE_NAME_LEN	32
#define TCPCA_TUNABLE_UNIT_LEN	16
#define TCPCA_TUNABLE_DOC_LEN	160

struct tcpca_tunables_head {
	__u32 magic;		/* TCPCA_TUNABLES_MAGIC */
	__u32 version;		/* TCPCA_TUNABLES_VERSION */
	__u32 count;		/* rows that follow: the fields of .data.params */
	__u32 row_size;		/* sizeof(struct tcpca_tunable) */
};

struct tcpca_tunable {
	__u32 def, min, max;
	char name[TCPCA_TUNABLE_NAME_LEN];	/* the field's name in .data.params */
	char unit[TCPCA_TUNABLE_UNIT_LEN];
	char doc[TCPCA_TUNABLE_DOC_LEN];
};

#define TCPCA_TUNABLES_HEAD(n) \
	{ TCPCA_TUNABLES_MAGIC, TCPCA_TUNABLES_VERSION, (n), sizeof(struct tcpca_tunable) }

/* Parameters are named _x: a designator .def next to a parameter def would be replaced too. */
#define TCPCA_PARAM_ONE(_n, _def, _lo, _hi, _unit, _doc)	+ 1
#define TCPCA_PARAM_ROW(_n, _def, _lo, _hi, _unit, _doc) \
	{ .def = (_def), .min = (_lo), .max = (_hi), .name = #_n, .unit = _unit, .doc = _doc },
/* What the loader would refuse, refused at build time (sizes with the NUL) */
#define TCPCA_PARAM_CHECK(_n, _def, _lo, _hi, _unit, _doc) \
	_Static_assert((unsigned long long)(_lo) <= (unsigned long long)(_def) && \
		       (unsigned long long)(_def) <= (unsigned long long)(_hi) && \
		       (unsigned long long)(_hi) <= 0xffffffffULL, \
		       "tunable " #_n ": needs min <= default <= max <= 2^32 - 1"); \
	_Static_assert(sizeof(#_n) <= TCPCA_TUNABLE_NAME_LEN, \
		       "tunable " #_n ": name longer than 31 characters"); \
	_Static_assert(sizeof(_unit) <= TCPCA_TUNABLE_UNIT_LEN, \
		       "tunable " #_n ": unit longer than 15 characters"); \
	_Static_assert(sizeof(_doc) <= TCPCA_TUNABLE_DOC_LEN, \
		       "tunable " #_n ": description longer than 159 characters");

/*
 * In a BPF program: the tunables with their defaults, read on every use, and
 * their description.  The table's struct is anonymous, so that bpftool's
 * skeleton spells it out in full (a named one would have to be defined on
 * the host before the skeleton); it is a global, as TCPCA_TABLE explains.
 */
#define TCPCA_PARAMS(type, LIST) \
	LIST(TCPCA_PARAM_CHECK) \
	const struct { \
		struct tcpca_tunables_head head; \
		struct tcpca_tunable row[0 LIST(TCPCA_PARAM_ONE)]; \
	} tcpca_tunables SEC(TCPCA_TUNABLES_SEC) = { \
		TCPCA_TUNABLES_HEAD(0 LIST(TCPCA_PARAM_ONE)), { LIST(TCPCA_PARAM_ROW) } \
	}; \
	struct type params SEC(".data.params") = { LIST(TCPCA_PARAM_INIT) }

/* An algorithm with no tunables says so: a table of no rows, and no .data.params. */
#define TCPCA_NO_PARAMS \
	const struct tcpca_tunables_head tcpca_tunables SEC(TCPCA_TUNABLES_SEC) = \
		TCPCA_TUNABLES_HEAD(0)

/*
 * A constant table an algorithm's arithmetic shares with the host tests:
 *
 *	TCPCA_TABLE const __u32 table[8] = { ... };
 *
 * In BPF the table has external linkage.  A static const array of 4 to 32
 * bytes whose address nothing compares is a mergeable constant to clang: it
 * goes to a .rodata.cstN section that clang 14's BTF records at offset 0 of
 * .rodata, over other variables, and the kernel refuses the BTF; forcing it
 * into ".rodata" with a section attribute makes clang 19 emit a second,
 * mergeable section of that name, which bpftool 7.5's skeleton turns into a
 * duplicate member.  A global keeps its own address, so both put it in
 * .rodata proper.  On the host it stays static: several test programs
 * include the same header.
 */
#ifdef __VMLINUX_H__
#define TCPCA_TABLE	__attribute__((unused))
#else
#define TCPCA_TABLE	static __attribute__((unused))
#endif

#endif /* TCPCA_PARAMS_H */
