// SPDX-License-Identifier: GPL-2.0
/*
 * What the running kernel can do, asked of the kernel itself rather than read
 * from its version string: distributions backport features, and a version
 * says nothing about how a kernel was configured.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "tcpca.h"

#ifndef BPF_F_LINK
#define BPF_F_LINK	(1U << 13)
#endif
#define CA_VALUE_TYPE	"bpf_struct_ops_tcp_congestion_ops"

static int probed_mode = -1;

/* A BTF of our own with one int in it: a struct_ops map must name a user BTF. */
static int tiny_btf_fd(void)
{
	struct btf *btf = btf__new_empty();
	int fd = -1;

	if (btf && btf__add_int(btf, "int", 4, BTF_INT_SIGNED) > 0 &&
	    !btf__load_into_kernel(btf))
		fd = dup(btf__fd(btf));
	btf__free(btf);
	return fd;
}

/*
 * BPF congestion control came with struct_ops in 5.6, which put the
 * tcp_congestion_ops value type into vmlinux BTF.  Link-based struct_ops
 * came in 6.4: only from then on does a struct_ops map accept BPF_F_LINK
 * (before, any map flag fails with EINVAL), so creating one such map answers
 * exactly the question we have.
 */
int kernel_reg_mode(void)
{
	struct btf *vmlinux;
	int id, btf_fd, fd, e = 0;
	__s64 size;

	if (probed_mode >= 0)
		return probed_mode;
	vmlinux = getenv("TCPCA_VMLINUX_BTF") ? btf__parse(getenv("TCPCA_VMLINUX_BTF"), NULL) :
					       btf__load_vmlinux_btf();
	if (!vmlinux) {
		err("cannot read the kernel's BTF: %s", strerror(errno));
		return -ENOENT;
	}
	id = btf__find_by_name_kind(vmlinux, CA_VALUE_TYPE, BTF_KIND_STRUCT);
	size = id > 0 ? btf__resolve_size(vmlinux, id) : -1;
	btf__free(vmlinux);
	if (id <= 0 || size <= 0) {
		err("this kernel has no BPF congestion control (struct_ops, Linux 5.6 and later)");
		return -EOPNOTSUPP;
	}

	/* Tests run the pre-6.4 path on newer kernels too, which still accept it. */
	if (getenv("TCPCA_REGISTER_BY") && !strcmp(getenv("TCPCA_REGISTER_BY"), "map"))
		return probed_mode = REG_MAP;

	btf_fd = tiny_btf_fd();
	if (btf_fd < 0) {
		err("the kernel refused a BPF type table: %s", strerror(errno));
		return -EPERM;
	}
	LIBBPF_OPTS(bpf_map_create_opts, opts, .btf_fd = btf_fd, .map_flags = BPF_F_LINK,
		    .btf_vmlinux_value_type_id = id);
	fd = bpf_map_create(BPF_MAP_TYPE_STRUCT_OPS, "tcpca_probe", sizeof(__u32), size, 1, &opts);
	e = fd < 0 ? -errno : 0;
	if (fd >= 0)
		close(fd);
	close(btf_fd);
	if (e && e != -EINVAL) {
		err("cannot create a struct_ops map: %s", strerror(-e));
		return e;
	}
	probed_mode = e ? REG_MAP : REG_LINK;
	info_verbose("kernel: %s", probed_mode == REG_LINK ?
		     "struct_ops links (6.4+): registering by link" :
		     "no struct_ops links (they came in 6.4): registering by map update");
	return probed_mode;
}

const char *reg_mode_name(int mode)
{
	return mode == REG_LINK ? "link" : "map";
}
