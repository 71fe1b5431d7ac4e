// SPDX-License-Identifier: GPL-2.0
/*
 * --show: what an algorithm has been doing.  Counters are a per-CPU array of
 * one struct of __u64; we sum the CPUs and name each field from the map's BTF,
 * so an algorithm adds a counter without touching the loader.  How often
 * each hook ran is not among them: the kernel counts that per program
 * (run_cnt, while BPF statistics are on), and counting it again in BPF
 * was most of what a hook cost.
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

static int show_hook(const char *hook, __u32 prog_id, void *ctx)
{
	struct bpf_prog_info pi = {};
	__u32 len = sizeof(pi);
	int fd = bpf_prog_get_fd_by_id(prog_id), e = 0;

	(void)ctx;
	if (fd < 0)
		return -errno;
	if (bpf_obj_get_info_by_fd(fd, &pi, &len)) {
		e = -errno;
	} else {
		printf("  %-18s %llu", hook, (unsigned long long)pi.run_cnt);
		if (pi.run_cnt)
			printf("  (%.0f ns per call)", (double)pi.run_time_ns / pi.run_cnt);
		printf("\n");
	}
	close(fd);
	return e;
}

/*
 * The sysctl reads 0 even while a BPF_ENABLE_STATS file descriptor holds
 * the statistics on (tools/bench's way), so "off" is said as what it is.
 */
static bool stats_sysctl_off(void)
{
	FILE *f = fopen("/proc/sys/kernel/bpf_stats_enabled", "r");
	int v = -1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v == 0;
}

/* The calls of each hook of the registration, from its programs' run_cnt. */
int show_hooks(const char *ops_path)
{
	struct ops_map m;
	int fd, e;

	fd = bpf_obj_get(ops_path);
	if (fd < 0)
		return -errno;
	if ((e = ops_map_read(fd, &m)))
		goto out;
	printf("hooks (calls, the kernel's run_cnt of each program):\n");
	if (stats_sysctl_off())
		printf("  note: kernel.bpf_stats_enabled is 0, so run_cnt is 0 (or as it was when last on) "
		       "unless another process holds statistics on; turn on with "
		       "sysctl kernel.bpf_stats_enabled=1\n");
	e = ops_map_hooks(fd, show_hook, NULL);
out:
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
