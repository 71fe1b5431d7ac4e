// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's table of algorithms (bpf/algorithms.tab, built into
 * algorithms.inc) against the objects it embeds: each object's one ops table
 * is the variable named as its source, and its .name is the table's default
 * name, so that what --list promises is what a load registers; each default
 * name is one the loader accepts; each tunable's default lies in its range
 * and the defaults pass the algorithm's check.  No root, no kernel.
 */
#include <string.h>
#include <bpf/libbpf.h>
#include "../../loader/algorithms.c"
#include "../../loader/ops.c"
#include "../../loader/kbtf.c"
#include "../../loader/names.c"
#include "tap.h"
#include "last_err.h"

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

static void test_alg(const struct tcpca_alg *a)
{
	__u32 values[TCPCA_PARAMS_MAX];
	struct ops_object *o;
	unsigned int i, in_range = 1;

	if (!ok(ops_object_read(a, NULL, &o) == 0, "%s: one ops table in %s", a->name, TCPCA_OPS_SEC)) {
		ops_object_free(o);
		return;
	}
	ok(!strcmp(ops_object_map_name(o), a->name), "%s: the ops table is the variable '%s' (got '%s')",
	   a->name, a->name, ops_object_map_name(o));
	ok(!strcmp(ops_object_ca_name(o), a->ca_name),
	   "%s: the object's .name is '%s', as the table says (got '%s')", a->name, a->ca_name,
	   ops_object_ca_name(o));
	ops_object_free(o);
	ok(valid_ca_name(a->ca_name), "%s: '%s' is a name the loader accepts", a->name, a->ca_name);
	for (i = 0; i < a->nparams; i++) {
		values[i] = a->params[i].def;
		in_range &= a->params[i].min <= a->params[i].def && a->params[i].def <= a->params[i].max;
	}
	ok(in_range, "%s: every default lies in its range", a->name);
	if (a->check)
		ok(a->check(values) == NULL, "%s: the defaults pass its check", a->name);
}

int main(void)
{
	unsigned int i, j, unique = 1;

	libbpf_set_print(quiet);
	ok(tcpca_nalgs > 0, "the table has algorithms (%u)", tcpca_nalgs);
	for (i = 0; i < tcpca_nalgs; i++) {
		test_alg(&tcpca_algs[i]);
		for (j = 0; j < i; j++)
			unique &= strcmp(tcpca_algs[i].ca_name, tcpca_algs[j].ca_name) != 0;
	}
	ok(unique, "no two algorithms share a default name");
	ok(alg_find("reno") && !strcmp(alg_find("reno")->ca_name, "bpf_reno") && !alg_find("bpf_reno"),
	   "alg_find finds by source name: reno, registered as bpf_reno");
	return done_testing();
}
