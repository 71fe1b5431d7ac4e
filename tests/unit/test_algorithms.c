// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's table of algorithms (bpf/algorithms.tab, built into
 * algorithms.inc) against the objects it embeds: each object's one ops table
 * is the variable named as its source, and its .name is the table's default
 * name, so that what --list promises is what a load registers; each default
 * name is one the loader accepts; each tunable's default lies in its range
 * and the defaults pass the algorithm's check; and each object describes its
 * own tunables (.rodata.tcpca_params, include/tcpca_params.h) exactly as
 * the loader's compiled table does, so that the convention an object from
 * elsewhere follows is proven on every embedded one.  No root, no kernel.
 */
#include <string.h>
#include <bpf/libbpf.h>
#include "../../loader/algorithms.c"
#include "../../loader/ops.c"
#include "../../loader/kbtf.c"
#include "../../loader/names.c"
#include "../../loader/tunables.c"
#include "../../loader/tunables_map.c"
#include "../../loader/pins.c"
#include "../../loader/fault.c"
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

/* Which row first differs, for the diagnostics: -1 none. */
static int first_difference(const struct tcpca_alg *a, const struct tcpca_alg *b)
{
	unsigned int i;

	for (i = 0; i < a->nparams && i < b->nparams; i++) {
		struct tcpca_alg one_a = { .params = &a->params[i], .nparams = 1 };
		struct tcpca_alg one_b = { .params = &b->params[i], .nparams = 1 };

		if (!tunables_same(&one_a, &one_b))
			return i;
	}
	return a->nparams == b->nparams ? -1 : (int)i;
}

/* The table the object carries, read as the loader reads an object's. */
static void test_own_table(const struct tcpca_alg *a)
{
	struct tcpca_alg *own = NULL;
	struct bpf_object *obj;
	const void *bytes;
	size_t size;
	int e, row;

	bytes = a->elf_bytes(&size);
	obj = bpf_object__open_mem(bytes, size, NULL);
	if (!ok(obj != NULL, "%s: libbpf opens its object", a->name))
		return;
	last_err[0] = '\0';
	e = obj_tunables(obj, a->name, &own);
	if (ok(!e && own, "%s: its object carries a table of its tunables (%s)", a->name,
	       e ? last_err : own ? "found" : "no " TCPCA_TUNABLES_SEC)) {
		ok(tunables_same(own, a), "%s: the object's table is the loader's: %u tunables, "
		   "each with the same name, default, range, unit and description", a->name,
		   a->nparams);
		if ((row = first_difference(own, a)) >= 0)
			diag("first difference at row %d of %u (object) / %u (loader): '%s' / '%s'", row,
			     own->nparams, a->nparams, row < (int)own->nparams ? own->params[row].name : "-",
			     row < (int)a->nparams ? a->params[row].name : "-");
	}
	alg_free(own);
	bpf_object__close(obj);
}

int main(void)
{
	unsigned int i, j, unique = 1;

	libbpf_set_print(quiet);
	ok(tcpca_nalgs > 0, "the table has algorithms (%u)", tcpca_nalgs);
	for (i = 0; i < tcpca_nalgs; i++) {
		test_alg(&tcpca_algs[i]);
		test_own_table(&tcpca_algs[i]);
		for (j = 0; j < i; j++)
			unique &= strcmp(tcpca_algs[i].ca_name, tcpca_algs[j].ca_name) != 0;
	}
	ok(unique, "no two algorithms share a default name");
	ok(alg_find("reno") && !strcmp(alg_find("reno")->ca_name, "bpf_reno") && !alg_find("bpf_reno"),
	   "alg_find finds by source name: reno, registered as bpf_reno");
	return done_testing();
}
