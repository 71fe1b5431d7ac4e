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
 * A constant table an algorithm's arithmetic shares with the host tests: in
 * BPF it must sit in .rodata proper, since clang puts a small const array in
 * a mergeable .rodata.cstN section and records it at offset 0 of .rodata in
 * BTF, where it overlaps other variables and the kernel refuses the BTF.
 */
#ifdef __VMLINUX_H__
#define TCPCA_RODATA	__attribute__((section(".rodata"), unused))
#else
#define TCPCA_RODATA	__attribute__((unused))
#endif

#endif /* TCPCA_PARAMS_H */
