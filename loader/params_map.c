// SPDX-License-Identifier: GPL-2.0
/*
 * The values live in the program's ".data.params" map: set before load,
 * and read/modified/written whole through the pinned map afterwards.
 */
#include <errno.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "tcpca.h"

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
