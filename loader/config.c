// SPDX-License-Identifier: GPL-2.0
/*
 * /etc/tcpca.conf (tcpca.conf(5)): one registration a line,
 *
 *	NAME ALG|FILE.bpf.o [allow] [PARAM=VALUE ...]
 *	default NAME
 *
 * with '#' comments.  The whole file is read and checked here before
 * --apply looks at the kernel, so that a bad file changes nothing; each
 * refusal is one line naming FILE:LINE.  An object's line is checked
 * against the table of tunables the object carries (object_tunables(),
 * which opens the file; no kernel).  Otherwise pure (no kernel, no root):
 * tests/unit/test_config.c runs it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tcpca.h"

#define CONF_LINE_MAX	4096		/* longer is not a configuration file */
#define CONF_WORDS_MAX	(TCPCA_PARAMS_MAX + 4)	/* NAME ALG allow and the parameters */
#define CONF_SPACE	" \t\r\n"

bool is_object_path(const char *arg)
{
	size_t len = strlen(arg);

	return strchr(arg, '/') || (len > 2 && !strcmp(arg + len - 2, ".o"));
}

void conf_free(struct tcpca_conf *c)
{
	for (int i = 0; i < c->n; i++) {
		free(c->entries[i].object);
		alg_free(c->entries[i].alg);	/* an object's table; never an embedded one */
	}
	free(c->entries);
	c->entries = NULL;
	c->n = 0;
}

const struct conf_entry *conf_find(const struct tcpca_conf *c, const char *name)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->entries[i].name, name))
			return &c->entries[i];
	return NULL;
}

/* Errors of parts shared with the command line (names, parameters) say
 * where they are through err_context, so they need no second wording. */
static int parse_entry(struct tcpca_conf *c, char **w, int nw, int line)
{
	const struct conf_entry *dup;
	struct conf_entry *e;
	char *params[CONF_WORDS_MAX];
	int i, np = 0;

	if (check_ca_name(w[0]))
		return -EINVAL;
	if ((dup = conf_find(c, w[0]))) {
		err("'%s' is registered twice (first on line %d)", w[0], dup->line);
		return -EINVAL;
	}
	if (c->n >= TCPCA_CONF_MAX) {
		err("more than %d registrations", TCPCA_CONF_MAX);
		return -E2BIG;
	}
	/* kept even if the rest of the line is wrong: a default or a duplicate
	 * naming it is then no second error */
	e = &c->entries[c->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", w[0]);
	e->line = line;
	if (nw < 2) {
		err("'%s' needs an algorithm: NAME ALG|FILE.bpf.o [allow] [PARAM=VALUE ...]", w[0]);
		return -EINVAL;
	}
	if (is_object_path(w[1])) {
		struct tcpca_alg *table;
		int r;

		if (!(e->object = strdup(w[1])))
			return -ENOMEM;
		if ((r = object_tunables(e->object, &table)))
			return r;
		e->alg = table;
	} else if (!(e->alg = alg_find(w[1]))) {
		err("unknown algorithm '%s' (tcpca-load --list shows them)", w[1]);
		return -ENOENT;
	}
	for (i = 2; i < nw; i++) {
		if (!strcmp(w[i], "allow")) {
			if (e->allow) {
				err("'allow' given twice");
				return -EINVAL;
			}
			e->allow = true;
		} else if (!strchr(w[i], '=')) {
			err("'%s' is neither 'allow' nor PARAM=VALUE", w[i]);
			return -EINVAL;
		} else {
			params[np++] = w[i];
		}
	}
	if (e->object && !e->alg && np) {
		err("%s has no tunables table (.rodata.tcpca_params): it takes no PARAM=VALUE",
		    e->object);
		return -EINVAL;
	}
	if (e->alg) {
		params_defaults(e->alg, e->values);
		if (params_apply(e->alg, e->values, np, params))
			return -EINVAL;
	}
	return 0;
}

static int parse_default(struct tcpca_conf *c, char **w, int nw, int line)
{
	if (c->default_line) {
		err("a second 'default' (the first is on line %d)", c->default_line);
		return -EINVAL;
	}
	if (nw != 2) {
		err("'default' takes one NAME, of a registration in this file");
		return -EINVAL;
	}
	if (check_ca_name(w[1]))
		return -EINVAL;
	snprintf(c->default_name, sizeof(c->default_name), "%s", w[1]);
	c->default_line = line;
	return 0;
}

/* Splits at blanks, after cutting a comment; returns the number of words. */
static int split(char *s, char **w, int max)
{
	char *save = NULL, *t;
	int n = 0;

	s[strcspn(s, "#")] = '\0';
	for (t = strtok_r(s, CONF_SPACE, &save); t; t = strtok_r(NULL, CONF_SPACE, &save)) {
		if (n == max)
			return -1;
		w[n++] = t;
	}
	return n;
}

int conf_parse(FILE *f, const char *path, struct tcpca_conf *c)
{
	char where[PATH_MAX + 16], *buf = NULL, *w[CONF_WORDS_MAX];
	const char *saved = err_context;
	size_t size = 0;
	ssize_t len;
	int line = 0, nw, e = 0;

	memset(c, 0, sizeof(*c));
	c->path = path;
	if (!(c->entries = calloc(TCPCA_CONF_MAX, sizeof(*c->entries))))
		return -ENOMEM;
	err_context = where;
	/* every bad line is said, not only the first: one edit fixes them all */
	while ((len = getline(&buf, &size, f)) >= 0) {
		int r = 0;

		snprintf(where, sizeof(where), "%s:%d", path, ++line);
		if (len > CONF_LINE_MAX) {
			err("line longer than %d characters", CONF_LINE_MAX);
			r = -E2BIG;
		} else if (memchr(buf, '\0', len)) {
			err("a NUL byte: not a text file");
			r = -EINVAL;
		} else if ((nw = split(buf, w, CONF_WORDS_MAX)) < 0) {
			err("more than %d words", CONF_WORDS_MAX);
			r = -E2BIG;
		} else if (nw > 0) {
			r = strcmp(w[0], "default") ? parse_entry(c, w, nw, line) :
						      parse_default(c, w, nw, line);
		}
		if (r && !e)
			e = r;
		if (r == -ENOMEM)
			break;
	}
	free(buf);
	if (!e && ferror(f)) {
		err_context = path;
		err("cannot read: %s", strerror(EIO));
		e = -EIO;
	}
	if (c->default_line && !conf_find(c, c->default_name)) {
		snprintf(where, sizeof(where), "%s:%d", path, c->default_line);
		err("default '%s' is not registered by this file (add a line for it)",
		    c->default_name);
		e = -ENOENT;
	}
	err_context = saved;
	if (e)
		conf_free(c);
	return e;
}

int conf_read(const char *path, struct tcpca_conf *c)
{
	FILE *f = fopen(path, "r");
	int e;

	if (!f) {
		e = -errno;
		err("cannot open %s: %s", path, strerror(-e));
		return e;
	}
	e = conf_parse(f, path, c);
	fclose(f);
	return e;
}
