// SPDX-License-Identifier: GPL-2.0
/*
 * NAME=VALUE parameters, checked against the algorithm's table (range) and
 * its check function (consistency) before anything reaches the kernel.
 * Pure: tests/unit/test_params.c runs it without root (params_map.c has
 * the pinned map's I/O).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tcpca.h"

void params_defaults(const struct tcpca_alg *alg, __u32 *values)
{
	unsigned int i;

	for (i = 0; i < alg->nparams; i++)
		values[i] = alg->params[i].def;
}

static int param_index(const struct tcpca_alg *alg, const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < alg->nparams; i++)
		if (strlen(alg->params[i].name) == len && !strncmp(alg->params[i].name, name, len))
			return i;
	return -1;
}

static void known_params(const struct tcpca_alg *alg, char *buf, size_t size)
{
	unsigned int i;
	size_t n = 0;

	buf[0] = '\0';
	for (i = 0; i < alg->nparams && n < size; i++)
		n += snprintf(buf + n, size - n, "%s%s", i ? ", " : "", alg->params[i].name);
	if (!alg->nparams)
		snprintf(buf, size, "none");
}

int params_apply(const struct tcpca_alg *alg, __u32 *values, int argc, char **argv)
{
	const char *why;
	char known[256];
	int i;

	for (i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		const struct tcpca_param *p;
		unsigned long long v;
		char *end;
		int idx;

		if (!eq || eq == argv[i]) {
			err("'%s' is not PARAM=VALUE", argv[i]);
			return -EINVAL;
		}
		idx = param_index(alg, argv[i], eq - argv[i]);
		if (idx < 0) {
			known_params(alg, known, sizeof(known));
			err("%s has no parameter '%.*s' (parameters: %s)", alg->name,
			    (int)(eq - argv[i]), argv[i], known);
			return -EINVAL;
		}
		p = &alg->params[idx];
		/* decimal digits only: strtoull would read 010 as 8, 0x10,
		 * " 5" and "+5" too */
		errno = 0;
		v = strtoull(eq + 1, &end, 10);
		if (errno || !isdigit((unsigned char)eq[1]) || *end) {
			err("%s: '%s' is not a number", p->name, eq + 1);
			return -EINVAL;
		}
		if (v < p->min || v > p->max) {
			err("%s=%llu is out of range [%u, %u]", p->name, v, p->min, p->max);
			return -ERANGE;
		}
		values[idx] = v;
	}
	if (alg->check && (why = alg->check(values))) {
		err("%s: %s", alg->name, why);
		return -EINVAL;
	}
	return 0;
}

/*
 * --replace: a parameter the old registration had keeps its value in the new
 * one when the new algorithm has a parameter of that name and the value is in
 * its range; the others start at their defaults.  Returns how many carried.
 */
unsigned int params_carry(const struct tcpca_alg *to, __u32 *values,
			  const struct tcpca_alg *from, const __u32 *old)
{
	unsigned int i, carried = 0;

	params_defaults(to, values);
	for (i = 0; from && i < from->nparams; i++) {
		const char *name = from->params[i].name;
		int idx = param_index(to, name, strlen(name));

		if (idx < 0 || old[i] < to->params[idx].min || old[i] > to->params[idx].max)
			continue;
		values[idx] = old[i];
		carried++;
	}
	return carried;
}

void params_print(const struct tcpca_alg *alg, const __u32 *values, const char *indent)
{
	unsigned int i;

	for (i = 0; i < alg->nparams; i++) {
		const struct tcpca_param *p = &alg->params[i];

		printf("%s%-18s %10u %-8s [%u..%u] %s\n", indent, p->name, values[i],
		       p->unit, p->min, p->max, p->doc);
	}
}
