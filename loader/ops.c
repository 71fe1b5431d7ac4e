// SPDX-License-Identifier: GPL-2.0
/*
 * An object's one tcp_congestion_ops, i.e. its struct_ops map: found, given
 * its CA name and flags before load, and registered by link.
 *
 * This is the one place where the loader does by hand what an older libbpf
 * cannot do (include/tcpca_libbpf.h says which version does what):
 *
 * - The CA name and flags are in the map's data.  libbpf 1.4 and later give
 *   it between open and load (bpf_map__initial_value()).  Before 1.4 there is
 *   no way to it, so they are changed where libbpf reads them from: the
 *   ops table's section, in our private copy of the ELF image, at offsets
 *   taken from the object's own BTF.
 * - A map created with BPF_F_LINK is registered by a link.  From 1.2 on,
 *   bpf_map__attach_struct_ops() fills the map and creates the link; 1.1
 *   only fills it, and the link is created with bpf_link_create().
 *
 * Both ways give the same result, and tests/ run on both (Debian 12's
 * libbpf 1.1 on the host, Debian 13's 1.5 in tools/distro/test trixie).
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "tcpca.h"
#include "tcpca_libbpf.h"

#define CONG_NON_RESTRICTED	0x1	/* TCP_CONG_NON_RESTRICTED */

struct ops_object {
	void *elf;			/* our copy of the object */
	size_t size;
	char map_name[64];		/* the ops table's variable */
	char ca_name[TCPCA_NAME_MAX];	/* as the object has it */
	size_t name_off, flags_off;	/* in the map's data (1.4+), or in elf */
#if TCPCA_LIBBPF_OPS_DATA
	struct bpf_object *obj;		/* opened, until ops_object_open() hands it out */
#endif
};

struct bpf_map *ops_map(struct bpf_object *obj)
{
	struct bpf_map *map;

	bpf_object__for_each_map(map, obj)
		if (bpf_map__type(map) == BPF_MAP_TYPE_STRUCT_OPS)
			return map;
	return NULL;
}

/* Where name and flags sit in a tcp_congestion_ops of size bytes at most. */
static int ops_members(const struct btf *btf, __u32 type_id, size_t size, struct ops_object *o)
{
	const struct btf_type *ops = btf__type_by_id(btf, btf__resolve_type(btf, type_id));

	if (!ops || !btf_is_struct(ops) ||
	    strcmp(btf__name_by_offset(btf, ops->name_off), "tcp_congestion_ops") ||
	    btf_member_find(btf, ops, "name", &o->name_off) < 0 ||
	    btf_member_find(btf, ops, "flags", &o->flags_off) < 0 ||
	    o->name_off + TCPCA_NAME_MAX > size || o->flags_off + sizeof(__u32) > size)
		return -ENOENT;
	return 0;
}

static void ops_data_set(char *data, const struct ops_object *o, const char *name, bool allow)
{
	__u32 *flags = (__u32 *)(data + o->flags_off);

	memset(data + o->name_off, 0, TCPCA_NAME_MAX);
	memcpy(data + o->name_off, name, strnlen(name, TCPCA_NAME_MAX - 1));
	*flags = allow ? (*flags | CONG_NON_RESTRICTED) : (*flags & ~CONG_NON_RESTRICTED);
}

#if TCPCA_LIBBPF_OPS_DATA
/* The object opened, its one struct_ops map a tcp_congestion_ops. */
static int ops_find(struct ops_object *o)
{
	struct bpf_map *map, *ops = NULL;
	const struct btf *btf;
	size_t size;
	char *data;

	o->obj = bpf_object__open_mem(o->elf, o->size, NULL);
	if (!o->obj)
		return -errno;
	bpf_object__for_each_map(map, o->obj) {
		if (bpf_map__type(map) != BPF_MAP_TYPE_STRUCT_OPS)
			continue;
		if (ops)
			return -E2BIG;	/* one algorithm per object */
		ops = map;
	}
	btf = bpf_object__btf(o->obj);
	if (!ops || !btf || !(data = bpf_map__initial_value(ops, &size)) ||
	    ops_members(btf, bpf_map__btf_value_type_id(ops), size, o))
		return -ENOENT;
	snprintf(o->map_name, sizeof(o->map_name), "%s", bpf_map__name(ops));
	snprintf(o->ca_name, sizeof(o->ca_name), "%.15s", data + o->name_off);
	return 0;
}

struct bpf_object *ops_object_open(struct ops_object *o, const char *name, bool allow)
{
	struct bpf_object *obj = o->obj;
	size_t size;

	ops_data_set(bpf_map__initial_value(ops_map(obj), &size), o, name, allow);
	o->obj = NULL;	/* the caller's now */
	return obj;
}
#else
/* File offset and size of the named section's data, checked to lie inside the image. */
static int section_find(const void *elf, size_t size, const char *want, size_t *off, size_t *len)
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

		if (name + strlen(want) + 1 > size || strcmp((const char *)elf + name, want))
			continue;
		if (sh[i].sh_offset + sh[i].sh_size > size)
			return -EINVAL;
		*off = sh[i].sh_offset;
		*len = sh[i].sh_size;
		return 0;
	}
	return -ENOENT;
}

/*
 * The ops table in its section of the image (".struct_ops", or with 1.2 and
 * 1.3 ".struct_ops.link" too): its BTF gives the variable, i.e. the map's
 * name, and where in the section it starts.
 */
static int ops_find(struct ops_object *o)
{
	static const char *const secs[] = {
		".struct_ops",
#if TCPCA_LIBBPF_OPS_LINK
		".struct_ops.link",
#endif
	};
	const struct btf_var_secinfo *vi = NULL;
	const struct btf_type *sec, *var;
	size_t sec_off = 0, sec_len = 0;
	struct bpf_object *obj;
	const struct btf *btf;
	unsigned int i;
	int id, err = -ENOENT;

	obj = bpf_object__open_mem(o->elf, o->size, NULL);
	if (!obj)
		return -errno;
	btf = bpf_object__btf(obj);
	for (i = 0; btf && i < ARRAY_SIZE(secs); i++) {
		id = btf__find_by_name_kind(btf, secs[i], BTF_KIND_DATASEC);
		if (id < 0 || section_find(o->elf, o->size, secs[i], &sec_off, &sec_len))
			continue;
		sec = btf__type_by_id(btf, id);
		if (vi || btf_vlen(sec) != 1) {	/* one algorithm per object */
			err = -E2BIG;
			goto out;
		}
		vi = btf_var_secinfos(sec);
	}
#if !TCPCA_LIBBPF_OPS_LINK
	if (!vi && !section_find(o->elf, o->size, ".struct_ops.link", &sec_off, &sec_len)) {
		err = -EPROTONOSUPPORT;
		goto out;
	}
#endif
	if (!vi || vi->offset > sec_len)
		goto out;
	var = btf__type_by_id(btf, vi->type);
	if (ops_members(btf, var->type, sec_len - vi->offset, o))
		goto out;
	o->name_off += sec_off + vi->offset;
	o->flags_off += sec_off + vi->offset;
	snprintf(o->map_name, sizeof(o->map_name), "%s", btf__name_by_offset(btf, var->name_off));
	snprintf(o->ca_name, sizeof(o->ca_name), "%.15s", (char *)o->elf + o->name_off);
	err = 0;
out:
	bpf_object__close(obj);
	return err;
}

struct bpf_object *ops_object_open(struct ops_object *o, const char *name, bool allow)
{
	ops_data_set(o->elf, o, name, allow);
	return bpf_object__open_mem(o->elf, o->size, NULL);
}
#endif

#if TCPCA_LIBBPF_OPS_LINK
int ops_link_create(struct bpf_map *ops)
{
	struct bpf_link *link = bpf_map__attach_struct_ops(ops);
	int fd;

	if (!link)
		return -errno;
	fd = bpf_link__fd(link);
	bpf_link__disconnect(link);	/* the fd is the caller's: closing it unregisters */
	bpf_link__destroy(link);
	return fd;
}

/*
 * libbpf fills a BPF_F_LINK map and links it in one call.  Here the name is
 * held by the registration being replaced, so the kernel refuses the link
 * (EEXIST) after the fill, which is all we want.  Had it made one, the name
 * was free: that link goes, and so does the replace.
 */
int ops_fill_unlinked(struct bpf_map *ops)
{
	struct bpf_link *link = bpf_map__attach_struct_ops(ops);

	if (!link)
		return errno == EEXIST ? 0 : -errno;
	bpf_link__destroy(link);
	return -ENOENT;
}
#else
#define ATTACH_STRUCT_OPS	44	/* BPF_STRUCT_OPS, 6.4+: Debian 12's headers predate it */

int ops_link_create(struct bpf_map *ops)
{
	int fd, e = ops_fill(ops);

	if (e)
		return e;
	fd = bpf_link_create(bpf_map__fd(ops), 0, ATTACH_STRUCT_OPS, NULL);
	return fd < 0 ? -errno : fd;
}

int ops_fill_unlinked(struct bpf_map *ops)
{
	return ops_fill(ops);
}
#endif

/*
 * Fills the map's value with the programs' fds: registers a map without
 * BPF_F_LINK (every libbpf), and with 1.1 only fills one with it.
 */
int ops_fill(struct bpf_map *ops)
{
	struct bpf_link *st_link = bpf_map__attach_struct_ops(ops);

	if (!st_link)
		return -errno;
	bpf_link__disconnect(st_link);	/* destroying it must not unregister */
	bpf_link__destroy(st_link);
	return 0;
}

int ops_object_read(const struct tcpca_alg *alg, const char *path, struct ops_object **op)
{
	struct ops_object *o = calloc(1, sizeof(*o));
	const void *bytes;
	FILE *f;

	*op = o;
	if (!o)
		return -ENOMEM;
	if (!path) {	/* embedded; an object's alg is only its table of tunables */
		bytes = alg->elf_bytes(&o->size);
		o->elf = malloc(o->size);
		if (!o->elf)
			return -ENOMEM;
		memcpy(o->elf, bytes, o->size);
	} else {
		long end;

		if (!(f = fopen(path, "rb"))) {
			int e = -errno;	/* before err() may change it */

			err("cannot open %s: %s", path, strerror(-e));
			return e;
		}
		if (fseek(f, 0, SEEK_END) || (end = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
			fclose(f);
			err("cannot read %s: not a regular file", path);
			return -EIO;
		}
		o->size = (size_t)end;
		o->elf = malloc(o->size ? o->size : 1);
		if (!o->elf || fread(o->elf, 1, o->size, f) != o->size) {
			fclose(f);
			err("cannot read %s", path);
			return -EIO;
		}
		fclose(f);
	}
	switch (ops_find(o)) {
	case 0:
		return 0;
	case -EPROTONOSUPPORT:
		err("%s has its ops table in .struct_ops.link, which tcpca-load's libbpf (%s) predates "
		    "(1.2+ reads it)", alg ? alg->name : path, libbpf_version_string());
		return -ENOEXEC;
	default:
		err("%s holds no single tcp_congestion_ops table in .struct_ops", alg ? alg->name : path);
		return -ENOEXEC;
	}
}

const char *ops_object_ca_name(const struct ops_object *o)
{
	return o->ca_name;
}

const char *ops_object_map_name(const struct ops_object *o)
{
	return o->map_name;
}

void ops_object_free(struct ops_object *o)
{
	if (!o)
		return;
#if TCPCA_LIBBPF_OPS_DATA
	bpf_object__close(o->obj);
#endif
	free(o->elf);
	free(o);
}
