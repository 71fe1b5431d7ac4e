// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's BTF, read once per command (it is megabytes, and the mode
 * probe, the feature probes and the struct_ops value's layout all need it),
 * and the one member lookup the loader does in BTF.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include "tcpca.h"

/* The kernel's BTF (tests name another file: TCPCA_VMLINUX_BTF), or NULL said. */
const struct btf *kernel_btf(void)
{
	static struct btf *btf;
	static int e;
	const char *path = getenv("TCPCA_VMLINUX_BTF");

	if (btf || e)
		return btf;
	btf = path ? btf__parse(path, NULL) : btf__load_vmlinux_btf();
	if (!btf) {
		e = errno ? errno : ENOENT;
		err("cannot read the kernel's BTF: %s", strerror(e));
	}
	return btf;
}

int btf_member_find(const struct btf *btf, const struct btf_type *t, const char *name, size_t *off)
{
	const struct btf_member *m = btf_members(t);
	int i;

	for (i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), name)) {
			if (off)
				*off = btf_member_bit_offset(t, i) / 8;
			return i;
		}
	return -ENOENT;
}
