// SPDX-License-Identifier: GPL-2.0
/*
 * An object's own table of tunables (include/tcpca_params.h, read by
 * loader/tunables.c and tunables_map.c): a good table becomes the loader's
 * struct tcpca_alg; every way a table can be malformed (not a table, another
 * version, a row count that disagrees with its size or with .data.params, a
 * default outside its range, a string without its NUL, a name twice, too
 * many rows) is refused in one line naming the object; and the test objects
 * tests/bpf/outside.bpf.c (which follows the convention),
 * tests/bpf/untabled.bpf.c (which predates it) and badtable.bpf.c (whose
 * table is wrong) read as they should.  No
 * root, no kernel.
 */
#include <errno.h>
#include <limits.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "../../loader/tunables.c"
#include "../../loader/tunables_map.c"
#include "../../loader/params.c"
#include "../../loader/pins.c"
#include "../../loader/fault.c"
#include "../../loader/names.c"
#include "tap.h"
#include "last_err.h"

#define TWO_PARAMS(P) \
	P(beta, 512, 1, 1023, "1/1024", "kept at a loss") \
	P(gamma, 0, 0, 5, "packets", "a second one")

/* as TCPCA_PARAMS lays it out in an object */
struct two_table {
	struct tcpca_tunables_head head;
	struct tcpca_tunable row[2];
};

static struct two_table good(void)
{
	return (struct two_table){ TCPCA_TUNABLES_HEAD(2), { TWO_PARAMS(TCPCA_PARAM_ROW) } };
}

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

/* The table is refused, in one line that says WANT (a part of it). */
static void refused(const char *what, const void *data, size_t size, size_t params_size,
		    const char *want)
{
	struct tcpca_alg *a = (struct tcpca_alg *)1;
	int e;

	last_err[0] = '\0';
	e = tunables_parse(data, size, params_size, "x.bpf.o", &a);
	ok(e < 0 && !a && strstr(last_err, want) && !strncmp(last_err, "x.bpf.o: ", 9),
	   "%s: refused, '%s'", what, last_err);
	if (!strstr(last_err, want))
		diag("wanted '%s' in it", want);
}

static void test_good(void)
{
	struct two_table t = good();
	struct tcpca_alg *a = NULL, *b = NULL;

	ok(tunables_parse(&t, sizeof(t), 2 * sizeof(__u32), "x.bpf.o", &a) == 0 && a,
	   "a good table of two rows is read");
	if (!a)
		return;
	ok(a->nparams == 2 && !strcmp(a->name, "x.bpf.o") && !alg_is_embedded(a) && !a->check,
	   "... as a table named after its object, not embedded, with no check");
	ok(!strcmp(a->params[0].name, "beta") && a->params[0].def == 512 && a->params[0].min == 1 &&
	   a->params[0].max == 1023 && !strcmp(a->params[0].unit, "1/1024") &&
	   !strcmp(a->params[0].doc, "kept at a loss"), "... row 0: beta 512 [1..1023] 1/1024, its doc");
	ok(!strcmp(a->params[1].name, "gamma") && a->params[1].max == 5, "... row 1: gamma");
	ok(tunables_same(a, a), "tunables_same: a table is itself");
	t.row[1].doc[0] = 'A';
	ok(tunables_parse(&t, sizeof(t), 2 * sizeof(__u32), "y", &b) == 0 && !tunables_same(a, b),
	   "... not one whose description differs");
	alg_free(b);
	t = good();
	t.head.count = 1;
	ok(tunables_parse(&t, sizeof(t.head) + sizeof(t.row[0]), sizeof(__u32), "y", &b) == 0 &&
	   !tunables_same(a, b), "... nor one with fewer rows");
	alg_free(b);
	alg_free(a);

	struct tcpca_tunables_head none = TCPCA_TUNABLES_HEAD(0);

	ok(tunables_parse(&none, sizeof(none), 0, "z", &a) == 0 && a && a->nparams == 0,
	   "TCPCA_NO_PARAMS's table: no rows, no .data.params: a table of none");
	alg_free(a);
}

static void test_malformed(void)
{
	struct two_table t = good();
	static char many[sizeof(struct tcpca_tunables_head) + 33 * sizeof(struct tcpca_tunable)];
	struct tcpca_tunables_head *h = (struct tcpca_tunables_head *)many;

	refused("too short for a head", &t, 8, 8, "is not a table of tunables");
	t.head.magic++;
	refused("another magic", &t, sizeof(t), 8, "is not a table of tunables");
	t = good();
	t.head.version = 2;
	refused("version 2", &t, sizeof(t), 8, "version 2 with rows of 220 bytes; this loader reads version 1");
	t = good();
	t.head.row_size = 200;
	refused("rows of another size", &t, sizeof(t), 8, "rows of 200 bytes");
	t = good();
	t.head.count = 3;
	refused("a count its size disagrees with", &t, sizeof(t), 12, "says 3 rows but holds 456 bytes");
	t = good();
	refused("a count .data.params disagrees with", &t, sizeof(t), 12,
		"lists 2 tunables but its .data.params holds 3");
	refused("rows but no .data.params", &t, sizeof(t), 0,
		"lists 2 tunables but its .data.params holds 0");
	t.row[1].def = 6;
	refused("a default above its max", &t, sizeof(t), 8,
		"tunable 'gamma' of its table has its default 6 outside [0, 5]");
	t = good();
	t.row[0].min = 600;
	refused("a default below its min", &t, sizeof(t), 8, "default 512 outside [600, 1023]");
	t = good();
	memset(t.row[0].name, 'a', sizeof(t.row[0].name));
	refused("a name without its NUL", &t, sizeof(t), 8, "tunable 0 of its table has an unterminated name");
	t = good();
	t.row[1].name[0] = '\0';
	refused("an empty name", &t, sizeof(t), 8, "tunable 1 of its table has no name");
	t = good();
	memset(t.row[1].unit, 'u', sizeof(t.row[1].unit));
	refused("a unit without its NUL", &t, sizeof(t), 8, "tunable 'gamma' of its table has an unterminated unit");
	t = good();
	memset(t.row[0].doc, 'd', sizeof(t.row[0].doc));
	refused("a description without its NUL", &t, sizeof(t), 8,
		"tunable 'beta' of its table has an unterminated description");
	t = good();
	strcpy(t.row[1].name, "beta");
	refused("a name twice", &t, sizeof(t), 8, "lists the tunable 'beta' twice");
	*h = (struct tcpca_tunables_head)TCPCA_TUNABLES_HEAD(33);
	refused("more rows than the loader holds", many, sizeof(many), 33 * 4, "lists 33 tunables; at most 32");
}

/* build/tests/NAME, beside this test's build/unit/ (argv[0]: no /proc in a bare root) */
static const char *self;

static const char *test_object(const char *name)
{
	static char path[PATH_MAX];
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", self);
	snprintf(path, sizeof(path), "%s/../tests/%s", dirname(dir), name);
	return path;
}

static void test_objects(void)
{
	struct tcpca_alg *a = NULL;
	__u32 v[TCPCA_PARAMS_MAX];
	char *args[] = { "beta=2000", "nosuch=1", "beta=700" };
	const char *path = test_object("outside.bpf.o");

	last_err[0] = '\0';
	if (ok(object_tunables(path, &a) == 0 && a, "outside.bpf.o: its table is read%s%s", *last_err ? ": " : "", last_err)) {
		ok(a->nparams == 1 && !strcmp(a->params[0].name, "beta") && a->params[0].def == 512 &&
		   a->params[0].min == 1 && a->params[0].max == 1023 &&
		   !strcmp(a->params[0].unit, "1/1024") && strstr(a->params[0].doc, "halves it"),
		   "... beta, 512 in [1, 1023], in 1/1024, with its description");
		ok(!strcmp(a->name, path), "... named by its path, as the loader's messages name it");
		params_defaults(a, v);
		ok(params_apply(a, v, 1, &args[0]) == -ERANGE &&
		   !strcmp(last_err, "beta=2000 is out of range [1, 1023]"),
		   "... beta=2000 is out of its range: '%s'", last_err);
		ok(params_apply(a, v, 1, &args[1]) == -EINVAL && strstr(last_err, "has no parameter 'nosuch' (parameters: beta)"),
		   "... an unknown name lists its one parameter: '%s'", last_err);
		ok(params_apply(a, v, 1, &args[2]) == 0 && v[0] == 700, "... beta=700 is taken");
	}
	alg_free(a);
	a = (struct tcpca_alg *)1;
	ok(object_tunables(test_object("untabled.bpf.o"), &a) == 0 && !a,
	   "untabled.bpf.o: no table, and no error (it loads without parameters)");
	last_err[0] = '\0';
	ok(object_tunables(test_object("badtable.bpf.o"), &a) == -EPROTO && !a &&
	   strstr(last_err, "badtable.bpf.o: its table lists 2 tunables but its .data.params holds 1"),
	   "badtable.bpf.o: its table and its .data.params disagree: '%s'", last_err);
	ok(object_tunables("/nonexistent/x.bpf.o", &a) == -ENOENT &&
	   !strcmp(last_err, "cannot open /nonexistent/x.bpf.o: No such file or directory"),
	   "a missing file: '%s'", last_err);
	ok(object_tunables(self, &a) < 0 && !strncmp(last_err, "cannot open ", 12) &&
	   strstr(last_err, " as a BPF object: "), "a file that is no BPF object (this test): '%s'",
	   last_err);
}

int main(int argc, char **argv)
{
	(void)argc;
	self = argv[0];
	libbpf_set_print(quiet);
	test_good();
	test_malformed();
	test_objects();
	return done_testing();
}
