// SPDX-License-Identifier: GPL-2.0
/*
 * --show: what an algorithm has been doing.  Counters are a per-CPU array of
 * one struct of __u64; we sum the CPUs and name each field from the map's BTF,
 * so an algorithm adds a counter without touching the loader.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "tcpca.h"

int show_counters(const char *path)
{
	struct bpf_map_info mi = {};
	__u32 len = sizeof(mi), zero = 0;
	const struct btf_type *t;
	const struct btf_member *m;
	struct btf *btf = NULL;
	int fd, ncpu, i, cpu, e = 0;
	__u64 *vals = NULL;
	size_t stride;

	fd = bpf_obj_get(path);
	if (fd < 0)
		return -errno;
	ncpu = libbpf_num_possible_cpus();
	if (bpf_obj_get_info_by_fd(fd, &mi, &len) || !mi.btf_id || ncpu <= 0 ||
	    !(btf = btf__load_from_kernel_by_id(mi.btf_id))) {
		e = -EPROTO;
		goto out;
	}
	stride = (mi.value_size + 7) & ~7UL;	/* per-CPU values are 8-byte aligned */
	vals = calloc(ncpu, stride);
	if (!vals || bpf_map_lookup_elem(fd, &zero, vals)) {
		e = -errno;
		goto out;
	}
	t = btf__type_by_id(btf, btf__resolve_type(btf, mi.btf_value_type_id));
	if (!t || !btf_is_struct(t)) {
		e = -EPROTO;
		goto out;
	}
	printf("counters:\n");
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		size_t off = btf_member_bit_offset(t, i) / 8;
		__u64 sum = 0;

		for (cpu = 0; cpu < ncpu; cpu++)
			sum += *(__u64 *)((char *)vals + cpu * stride + off);
		printf("  %-18s %llu\n", btf__name_by_offset(btf, m->name_off), (unsigned long long)sum);
	}
out:
	free(vals);
	btf__free(btf);
	close(fd);
	return e;
}

/* Reading the pinned iterator runs it: one line per socket on this CA. */
int show_sockets(const char *path)
{
	char buf[4096];
	size_t n;
	bool any = false;
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	printf("sockets (this network namespace):\n");
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		fwrite(buf, 1, n, stdout);
		any = true;
	}
	if (!any)
		printf("  (none)\n");
	fclose(f);
	return 0;
}
