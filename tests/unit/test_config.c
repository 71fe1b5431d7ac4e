// SPDX-License-Identifier: GPL-2.0
/*
 * tcpca.conf(5)'s parser (loader/config.c): what a good file yields, and
 * every refusal with its FILE:LINE, against two algorithms (Vegas, with
 * tunables and a consistency check; Reno, without) and objects with and
 * without a table of tunables (object_tunables() stands in for the files).
 * No root, no kernel.
 */
#define _GNU_SOURCE		/* fmemopen */
#include <stdio.h>
#include "../../loader/config.c"
#include "../../loader/params.c"
#include "../../loader/names.c"
#include "../../loader/tunables.c"
#include "vegas.h"
#include "tap.h"
#include "last_err.h"

#define PARAM_ROW(name, def, lo, hi, unit, doc) { #name, def, lo, hi, unit, doc },

static const struct tcpca_param vegas_rows[] = { VEGAS_PARAMS(PARAM_ROW) };
static const struct tcpca_alg algs[] = {
	{ .name = "vegas", .params = vegas_rows, .nparams = ARRAY_SIZE(vegas_rows),
	  .check = vegas_check_params },
	{ .name = "reno" },
};

const struct tcpca_alg *alg_find(const char *name)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(algs); i++)
		if (!strcmp(algs[i].name, name))
			return &algs[i];
	return NULL;
}

/*
 * The objects the files name: /opt/cc/tuned.bpf.o carries a table of one
 * tunable, gain; a path under /nonexistent/ is missing; any other has none.
 */
#define TUNED_PARAMS(P)	P(gain, 4, 1, 16, "packets", "how much")
int object_tunables(const char *path, struct tcpca_alg **alg)
{
	static const struct {
		struct tcpca_tunables_head head;
		struct tcpca_tunable row[1];
	} tuned = { TCPCA_TUNABLES_HEAD(1), { TUNED_PARAMS(TCPCA_PARAM_ROW) } };

	*alg = NULL;
	if (!strncmp(path, "/nonexistent/", 13)) {
		err("cannot open %s: %s", path, strerror(ENOENT));
		return -ENOENT;
	}
	if (strcmp(path, "/opt/cc/tuned.bpf.o"))
		return 0;
	return tunables_parse(&tuned, sizeof(tuned), sizeof(__u32), path, alg);
}

enum { ALPHA, BETA, GAMMA, SS_EVERY_OTHER };

static int parse_len(const char *text, size_t len, struct tcpca_conf *c)
{
	FILE *f = fmemopen((void *)text, len, "r");
	int e;

	last_err[0] = '\0';
	e = conf_parse(f, "t.conf", c);
	fclose(f);
	return e;
}

static int parse(const char *text, struct tcpca_conf *c)
{
	return parse_len(text, strlen(text), c);
}

/* TEXT is refused, and the (last) error line is WANT, FILE:LINE first */
static void refused(const char *what, const char *text, const char *want)
{
	struct tcpca_conf c;
	int e = parse(text, &c);

	ok(e < 0 && !strcmp(last_err, want), "%s: '%s'", what, last_err);
	if (strcmp(last_err, want))
		diag("wanted '%s'", want);
	ok(c.n == 0 && !c.entries, "... and nothing of it is kept");
}

int main(void)
{
	struct tcpca_conf c;
	const struct conf_entry *e;

	/* a good file */
	is_u(parse("# tcpca.conf\n"
		   "\n"
		   "   vegas vegas alpha=1 beta=3   # comment\n"
		   "web\tvegas allow gamma=2\n"
		   "bpf_reno reno allow\n"
		   "mine /opt/cc/my.bpf.o\n"
		   "default web\n"
		   "tuned /opt/cc/tuned.bpf.o allow gain=9\n"
		   "plain /opt/cc/tuned.bpf.o\n", &c), 0, "a good file is read");
	is_u(c.n, 6, "... six registrations");
	e = conf_find(&c, "vegas");
	ok(e && e->alg == &algs[0] && !e->allow && e->line == 3 && e->values[ALPHA] == 1 &&
	   e->values[BETA] == 3 && e->values[GAMMA] == 1 && e->values[SS_EVERY_OTHER] == 0,
	   "vegas: restricted, line 3, alpha=1 beta=3 and the other defaults");
	e = conf_find(&c, "web");
	ok(e && e->alg == &algs[0] && e->allow && e->line == 4 && e->values[ALPHA] == 2 &&
	   e->values[GAMMA] == 2, "web: vegas, allowed, gamma=2, tab-separated");
	e = conf_find(&c, "bpf_reno");
	ok(e && e->alg == &algs[1] && e->allow && !e->object, "bpf_reno: reno, allowed");
	e = conf_find(&c, "mine");
	ok(e && !e->alg && e->object && !strcmp(e->object, "/opt/cc/my.bpf.o") && e->line == 6,
	   "mine: an object, by its path");
	e = conf_find(&c, "tuned");
	ok(e && e->alg && e->alg->nparams == 1 && e->object && e->allow && e->values[0] == 9,
	   "tuned: an object with its table, allowed, gain=9");
	e = conf_find(&c, "plain");
	ok(e && e->alg && e->object && e->values[0] == 4, "plain: the same object, gain at its default 4");
	ok(c.default_line == 7 && !strcmp(c.default_name, "web"), "default web, line 7");
	ok(!conf_find(&c, "cubic"), "a name not in the file is not found");
	conf_free(&c);

	is_u(parse("", &c), 0, "an empty file is a good file");
	ok(c.n == 0 && c.default_line == 0, "... with nothing in it");
	conf_free(&c);
	is_u(parse("# only comments\n\t\n#default x\n", &c), 0, "comments and blank lines only");
	conf_free(&c);
	is_u(parse("r reno", &c), 0, "no newline at the end");
	ok(c.n == 1 && c.entries[0].line == 1, "... the line is read");
	conf_free(&c);
	is_u(parse("a.o.d rel.o\n", &c) < 0, 1, "a bad name before an object is refused");
	conf_free(&c);
	is_u(parse("x ./rel.bpf.o\n", &c), 0, "a relative object path");
	conf_free(&c);

	/* every refusal, with its line */
	refused("unknown algorithm", "v vegas\n\nx cubic\n",
		"t.conf:3: unknown algorithm 'cubic' (tcpca-load --list shows them)");
	refused("unknown parameter", "v vegas foo=1\n",
		"t.conf:1: vegas has no parameter 'foo' (parameters: alpha, beta, gamma, ss_every_other)");
	refused("parameter of an algorithm without any", "#\nr reno alpha=1\n",
		"t.conf:2: reno has no parameter 'alpha' (parameters: none)");
	refused("value out of range", "v vegas alpha=65536\n",
		"t.conf:1: alpha=65536 is out of range [0, 65535]");
	refused("value not a number", "v vegas alpha=0x10\n", "t.conf:1: alpha: '0x10' is not a number");
	refused("value empty", "v vegas alpha=\n", "t.conf:1: alpha: '' is not a number");
	refused("values inconsistent", "\n\nv vegas alpha=5 beta=3\n",
		"t.conf:3: vegas: alpha must not exceed beta");
	refused("PARAM=VALUE without PARAM", "v vegas =3\n", "t.conf:1: '=3' is not PARAM=VALUE");
	refused("a word that is neither", "v vegas allowed\n",
		"t.conf:1: 'allowed' is neither 'allow' nor PARAM=VALUE");
	refused("allow twice", "v vegas allow allow\n", "t.conf:1: 'allow' given twice");
	refused("parameters for an object without a table", "o /x/y.bpf.o alpha=1\n",
		"t.conf:1: /x/y.bpf.o has no tunables table (.rodata.tcpca_params): it takes no PARAM=VALUE");
	refused("an object's parameter out of its range", "\no /opt/cc/tuned.bpf.o gain=17\n",
		"t.conf:2: gain=17 is out of range [1, 16]");
	refused("a parameter an object's table lacks", "o /opt/cc/tuned.bpf.o alpha=1\n",
		"t.conf:1: /opt/cc/tuned.bpf.o has no parameter 'alpha' (parameters: gain)");
	refused("a missing object", "o /nonexistent/x.bpf.o\n",
		"t.conf:1: cannot open /nonexistent/x.bpf.o: No such file or directory");
	refused("a name without an algorithm", "v vegas\nlonely\n",
		"t.conf:2: 'lonely' needs an algorithm: NAME ALG|FILE.bpf.o [allow] [PARAM=VALUE ...]");
	refused("name too long", "abcdefghijklmnop vegas\n",
		"t.conf:1: invalid name 'abcdefghijklmnop': 1 to 15 characters of [A-Za-z0-9_] "
		"(bpffs refuses '.' in names)");
	refused("name with a dot", "a.b vegas\n",
		"t.conf:1: invalid name 'a.b': 1 to 15 characters of [A-Za-z0-9_] (bpffs refuses '.' in names)");
	refused("name '..'", ".. vegas\n",
		"t.conf:1: invalid name '..': 1 to 15 characters of [A-Za-z0-9_] (bpffs refuses '.' in names)");
	refused("name with a slash", "a/b vegas\n",
		"t.conf:1: invalid name 'a/b': 1 to 15 characters of [A-Za-z0-9_] (bpffs refuses '.' in names)");
	refused("duplicate name", "v vegas\nr reno\n# again\nv reno allow\n",
		"t.conf:4: 'v' is registered twice (first on line 1)");
	refused("default without a name", "v vegas\ndefault\n",
		"t.conf:2: 'default' takes one NAME, of a registration in this file");
	refused("default with two names", "v vegas\ndefault v w\n",
		"t.conf:2: 'default' takes one NAME, of a registration in this file");
	refused("default with a bad name", "default a.b\n",
		"t.conf:1: invalid name 'a.b': 1 to 15 characters of [A-Za-z0-9_] (bpffs refuses '.' in names)");
	refused("two defaults", "v vegas\nw vegas\ndefault v\ndefault w\n",
		"t.conf:4: a second 'default' (the first is on line 3)");
	refused("default not in the file", "v vegas\ndefault cubic\nw vegas\n",
		"t.conf:2: default 'cubic' is not registered by this file (add a line for it)");
	refused("default before its line is fine, after a bad one no second error",
		"default v\nv nosuch\n", "t.conf:2: unknown algorithm 'nosuch' (tcpca-load --list shows them)");
	is_u(parse_len("v vegas\nw ve\0gas\n", 17, &c) < 0, 1, "a NUL byte is refused");
	ok(!strcmp(last_err, "t.conf:2: a NUL byte: not a text file"), "... with its line: %s", last_err);
	{
		static char big[5000];

		memset(big, ' ', sizeof(big) - 2);
		memcpy(big, "v vegas", 7);
		big[sizeof(big) - 2] = '\n';
		refused("a line too long", big, "t.conf:1: line longer than 4096 characters");
	}
	{
		static char many[1024] = "v vegas";

		for (int i = 0; i < TCPCA_PARAMS_MAX + 4; i++)
			strcat(many, " alpha=1");
		strcat(many, "\n");
		refused("too many words", many, "t.conf:1: more than 36 words");
	}

	/* every bad line is said: the last one is the one kept, the first fails the file */
	is_u(parse("x nosuch\ny vegas alpha=9\nz reno\n", &c) < 0, 1,
	     "two bad lines, one good: the file is refused");
	ok(strstr(last_err, "t.conf:2: vegas: alpha must not exceed beta") != NULL,
	   "... and the second bad line is said too: %s", last_err);
	return done_testing();
}
