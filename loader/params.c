// SPDX-License-Identifier: GPL-2.0
/*
 * NAME=VALUE parameters, checked against the algorithm's table (range) and
 * its check function (consistency) before anything reaches the kernel.  The
 * values live in the program's ".data.params" map: set before load, and
 * read/modified/written whole through the pinned map afterwards.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
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
		errno = 0;
		v = strtoull(eq + 1, &end, 0);
		if (errno || end == eq + 1 || *end || eq[1] == '-') {
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

void params_print(const struct tcpca_alg *alg, const __u32 *values, const char *indent)
{
	unsigned int i;

	for (i = 0; i < alg->nparams; i++) {
		const struct tcpca_param *p = &alg->params[i];

		printf("%s%-18s %10u %-8s [%u..%u] %s\n", indent, p->name, values[i],
		       p->unit, p->min, p->max, p->doc);
	}
}

/* The map holds one value: the params struct, n __u32 in table order. */
static int open_params(const char *path, unsigned int n)
{
	struct bpf_map_info mi = {};
	__u32 len = sizeof(mi);
	int fd = bpf_obj_get(path);

	if (fd < 0)
		return -errno;
	if (bpf_obj_get_info_by_fd(fd, &mi, &len) || mi.value_size != n * sizeof(__u32)) {
		close(fd);
		return -EPROTO;
	}
	return fd;
}

int params_read_pinned(const char *path, __u32 *values, unsigned int n)
{
	int fd = open_params(path, n), zero = 0, e = 0;

	if (fd < 0)
		return fd;
	if (bpf_map_lookup_elem(fd, &zero, values))
		e = -errno;
	close(fd);
	return e;
}

int params_write_pinned(const char *path, const __u32 *values, unsigned int n)
{
	int fd = open_params(path, n), zero = 0, e = 0;

	if (fd < 0)
		return fd;
	if (bpf_map_update_elem(fd, &zero, values, BPF_ANY))
		e = -errno;
	close(fd);
	return e;
}
