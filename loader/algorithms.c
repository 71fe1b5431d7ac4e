// SPDX-License-Identifier: GPL-2.0
/*
 * The algorithms built into tcpca-load, as bpf/algorithms.tab declares them
 * (the Makefile turns it into algorithms.inc).
 */
#include <string.h>
#include "tcpca.h"
#include "tcpca_params.h"
#include "algorithms.inc"	/* skeletons, parameter lists, TCPCA_ALGORITHMS */

#define PARAM_ROW(name, def, lo, hi, unit, doc) { #name, def, lo, hi, unit, doc },

#define ALG(src, ca)	{ .name = #src, .ca_name = ca, .elf_bytes = src##_bpf__elf_bytes },
#define ALG_TUNABLE(src, ca, LIST, check_fn) \
	{ .name = #src, .ca_name = ca, .elf_bytes = src##_bpf__elf_bytes, \
	  .params = (const struct tcpca_param[]){ LIST(PARAM_ROW) }, \
	  .nparams = NPARAMS(LIST), \
	  .check = check_fn },

#define NPARAMS(LIST) \
	(sizeof((const struct tcpca_param[]){ LIST(PARAM_ROW) }) / sizeof(struct tcpca_param))

/*
 * At build time: the ops table of bpf/<src>.bpf.c is the variable <src> (the
 * skeleton has no such map otherwise, and this fails to compile), since that
 * is the struct_ops map's name by which pin_alg() knows a registration; and
 * every command keeps an algorithm's values in a __u32[TCPCA_PARAMS_MAX].
 */
#define ALG_CHECK(src, ca) \
	_Static_assert(sizeof(((struct src##_bpf *)0)->maps.src), \
		       "bpf/" #src ".bpf.c: the ops table must be the variable " #src);
#define ALG_TUNABLE_CHECK(src, ca, LIST, check_fn) \
	ALG_CHECK(src, ca) \
	_Static_assert(NPARAMS(LIST) <= TCPCA_PARAMS_MAX, #src ": more tunables than TCPCA_PARAMS_MAX");
TCPCA_ALGORITHMS(ALG_CHECK, ALG_TUNABLE_CHECK)

const struct tcpca_alg tcpca_algs[] = {
	TCPCA_ALGORITHMS(ALG, ALG_TUNABLE)
};

const unsigned int tcpca_nalgs = ARRAY_SIZE(tcpca_algs);

const struct tcpca_alg *alg_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < tcpca_nalgs; i++)
		if (!strcmp(tcpca_algs[i].name, name))
			return &tcpca_algs[i];
	return NULL;
}
