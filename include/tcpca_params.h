/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tunables, described once for both sides.  An algorithm lists its tunables
 * in an X-macro in include/<alg>.h, one row per tunable:
 *
 *	#define VEGAS_PARAMS(P) \
 *		P(alpha, 2, 1, 1000, "packets", "fewest packets to keep queued in the path")
 *
 * (name, default, min, max, unit, description), and derives its struct:
 *
 *	struct vegas_params { VEGAS_PARAMS(TCPCA_PARAM_FIELD) };
 *
 * The BPF program holds the values in a global of that type in section
 * ".data.params" (TCPCA_PARAMS below), which the loader pins as
 * <pin dir>/<name>/params; the loader builds its name/range/help table from
 * the same list.  Every tunable is a __u32, so field i sits at offset 4 * i.
 */
#ifndef TCPCA_PARAMS_H
#define TCPCA_PARAMS_H

#define TCPCA_PARAM_FIELD(name, def, lo, hi, unit, doc)	__u32 name;
#define TCPCA_PARAM_INIT(name, def, lo, hi, unit, doc)	.name = (def),

/* In a BPF program: the tunables with their defaults, read on every use. */
#define TCPCA_PARAMS(type, LIST) \
	struct type params SEC(".data.params") = { LIST(TCPCA_PARAM_INIT) }

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
