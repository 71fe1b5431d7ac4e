// SPDX-License-Identifier: GPL-2.0
/*
 * libbpf 1.1 gives no way to change a struct_ops map's data between open and
 * load (bpf_map__initial_value() is NULL for it), yet the CA's name and flags
 * are in that data.  So we change them where libbpf reads them from: the
 * object's ".struct_ops" section, in a private copy of the ELF image.  The
 * offsets come from the object's own BTF, not from assumptions.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "tcpca.h"

static const char OPS_SEC[] = ".struct_ops";

/* File offset of the section's data, after checking it lies inside the image. */
static int section_offset(const void *elf, size_t size, const char *want, size_t *off, size_t *len)
{
	const Elf64_Ehdr *eh = elf;
	const Elf64_Shdr *sh, *strtab;
	unsigned int i;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shstrndx >= eh->e_shnum ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) > size)
		return -EINVAL;
	sh = (const Elf64_Shdr *)((const char *)elf + eh->e_shoff);
	strtab = &sh[eh->e_shstrndx];
	for (i = 0; i < eh->e_shnum; i++) {
		size_t name = strtab->sh_offset + sh[i].sh_name;

		if (name + sizeof(OPS_SEC) > size || strcmp((const char *)elf + name, want))
			continue;
		if (sh[i].sh_offset + sh[i].sh_size > size)
			return -EINVAL;
		*off = sh[i].sh_offset;
		*len = sh[i].sh_size;
		return 0;
	}
	return -ENOENT;
}

static int member_offset(const struct btf *btf, const struct btf_type *t, const char *name, size_t *off)
{
	const struct btf_member *m = btf_members(t);
	unsigned int i;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		if (strcmp(btf__name_by_offset(btf, m->name_off), name) == 0) {
			*off = btf_member_bit_offset(t, i) / 8;
			return 0;
		}
	}
	return -ENOENT;
}

int ops_layout_find(const void *elf, size_t size, struct ops_layout *l)
{
	struct bpf_object *obj;
	const struct btf *btf;
	const struct btf_type *sec, *ops, *var;
	const struct btf_var_secinfo *vi;
	size_t sec_off, sec_len, name_off, flags_off;
	int id, err = -ENOENT;

	obj = bpf_object__open_mem(elf, size, NULL);
	if (!obj)
		return -errno;
	btf = bpf_object__btf(obj);
	if (!btf || section_offset(elf, size, OPS_SEC, &sec_off, &sec_len))
		goto out;
	id = btf__find_by_name_kind(btf, OPS_SEC, BTF_KIND_DATASEC);
	if (id < 0)
		goto out;
	sec = btf__type_by_id(btf, id);
	/* one algorithm per object: one ops table in the section */
	if (btf_vlen(sec) != 1) {
		err = -E2BIG;
		goto out;
	}
	vi = btf_var_secinfos(sec);
	var = btf__type_by_id(btf, vi->type);
	ops = btf__type_by_id(btf, btf__resolve_type(btf, var->type));
	if (!ops || !btf_is_struct(ops) ||
	    strcmp(btf__name_by_offset(btf, ops->name_off), "tcp_congestion_ops") ||
	    member_offset(btf, ops, "name", &name_off) ||
	    member_offset(btf, ops, "flags", &flags_off) ||
	    vi->offset + flags_off + sizeof(__u32) > sec_len)
		goto out;
	l->name_off = sec_off + vi->offset + name_off;
	l->flags_off = sec_off + vi->offset + flags_off;
	snprintf(l->ops_var, sizeof(l->ops_var), "%s", btf__name_by_offset(btf, var->name_off));
	err = 0;
out:
	bpf_object__close(obj);
	return err;
}
