// SPDX-License-Identifier: GPL-2.0
/*
 * Where an object's table of tunables is found: in FILE.bpf.o before
 * anything is loaded (its .rodata.tcpca_params, which libbpf gives after
 * open, without a kernel), and for a registration in its pinned copy
 * <pin dir>/NAME/tunables, so that --set and --show need no file.
 * tunables.c checks and reads what is found.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "tcpca.h"
#include "tcpca_params.h"

int obj_tunables(struct bpf_object *obj, const char *what, struct tcpca_alg **alg)
{
	struct bpf_map *table = bpf_object__find_map_by_name(obj, TCPCA_TUNABLES_SEC);
	struct bpf_map *params = bpf_object__find_map_by_name(obj, ".data.params");
	const void *data;
	size_t size = 0;

	*alg = NULL;
	if (!table)
		return 0;
	data = bpf_map__initial_value(table, &size);
	if (!data) {
		err("%s: cannot read its " TCPCA_TUNABLES_SEC, what);
		return -EPROTO;
	}
	return tunables_parse(data, size, params ? bpf_map__value_size(params) : 0, what, alg);
}

int object_tunables(const char *path, struct tcpca_alg **alg)
{
	struct bpf_object *obj;
	FILE *f;
	int e;

	*alg = NULL;
	/* said as ops_object_read() says it, which would otherwise say it first */
	if (!(f = fopen(path, "rb"))) {
		e = -errno;
		err("cannot open %s: %s", path, strerror(-e));
		return e;
	}
	fclose(f);
	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		char why[128];

		e = -errno;
		libbpf_strerror(e, why, sizeof(why));	/* it has errnos of its own */
		err("cannot open %s as a BPF object: %s", path, why);
		return e;
	}
	e = obj_tunables(obj, path, alg);
	bpf_object__close(obj);
	return e;
}

/* The value size of a pinned map, 0 when there is no such pin. */
static int pinned_value_size(const char *path, size_t *size)
{
	struct bpf_map_info mi = {};
	__u32 len = sizeof(mi);
	int fd = bpf_obj_get(path), e = 0;

	*size = 0;
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (bpf_obj_get_info_by_fd(fd, &mi, &len))
		e = -errno;
	else
		*size = mi.value_size;
	close(fd);
	return e;
}

int pinned_tunables(const char *dir, const char *name, struct tcpca_alg **alg)
{
	char path[PATH_MAX], params[PATH_MAX];
	struct bpf_map_info mi = {};
	__u32 len = sizeof(mi), zero = 0;
	size_t params_size;
	void *data = NULL;
	int fd, e;

	*alg = NULL;
	if ((e = pin_path(path, sizeof(path), dir, name, PIN_TUNABLES)) ||
	    (e = pin_path(params, sizeof(params), dir, name, PIN_PARAMS)))
		return e;
	if ((fd = bpf_obj_get(path)) < 0)
		return -errno;		/* -ENOENT: not pinned, no error */
	if (bpf_obj_get_info_by_fd(fd, &mi, &len) || !(data = malloc(mi.value_size ? mi.value_size : 1)) ||
	    bpf_map_lookup_elem(fd, &zero, data) || (e = pinned_value_size(params, &params_size))) {
		e = e ? e : -errno;
		err("cannot read %s: %s", path, strerror(-e));
	} else {
		e = tunables_parse(data, mi.value_size, params_size, name, alg);
	}
	free(data);
	close(fd);
	return e;
}

/*
 * The table of what runs as NAME (s: its pin_state): the pinned one, or
 * the embedded algorithm's whose ops table has that name when it says the
 * same (the embedded one has a check of the values together, which no
 * object can carry); the embedded one alone for a registration pinned
 * before tables were (an older loader).  NULL: an object without a table.
 * Free with alg_free().
 */
int registered_tunables(const char *dir, const char *name, const struct pin_state *s,
			const struct tcpca_alg **alg)
{
	struct tcpca_alg *pinned;
	int e = pinned_tunables(dir, name, &pinned);

	*alg = NULL;
	if (e == -ENOENT) {
		*alg = s->alg;
		return 0;
	}
	if (e)
		return e;
	if (s->alg && tunables_same(s->alg, pinned)) {
		alg_free(pinned);
		*alg = s->alg;
	} else {
		*alg = pinned;
	}
	return 0;
}
