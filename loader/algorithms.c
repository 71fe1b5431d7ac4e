// SPDX-License-Identifier: GPL-2.0
/*
 * The algorithms built into tcpca-load.  Adding one: write bpf/<name>.bpf.c
 * (and include/<name>.h if it has tunables), then add its line below.
 */
#include <string.h>
#include "tcpca.h"
#include "tcpca_params.h"
#include "algorithms.inc"	/* every build/<name>.skel.h */

#define PARAM_ROW(name, def, lo, hi, unit, doc) { #name, def, lo, hi, unit, doc },

#define ALG(n)		{ .name = #n, .elf_bytes = n##_bpf__elf_bytes }
#define ALG_TUNABLE(n, LIST, check_fn) \
	{ .name = #n, .elf_bytes = n##_bpf__elf_bytes, \
	  .params = (const struct tcpca_param[]){ LIST(PARAM_ROW) }, \
	  .nparams = sizeof((const struct tcpca_param[]){ LIST(PARAM_ROW) }) / \
		     sizeof(struct tcpca_param), \
	  .check = check_fn }

const struct tcpca_alg tcpca_algs[] = {
	ALG(reno),
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
