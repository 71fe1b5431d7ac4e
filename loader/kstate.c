// SPDX-License-Identifier: GPL-2.0
/*
 * What the kernel itself says about a registration, rather than what the
 * pins or the CA-name sysctl suggest: whether a struct_ops map is in use,
 * the CA name in its value, which map a struct_ops link runs, and whether a
 * struct_ops map was made by a tcpca object.
 *
 * The value's layout comes from vmlinux BTF (struct
 * bpf_struct_ops_tcp_congestion_ops): 6.1 has refcnt and state inline,
 * later kernels (6.18 here) wrap them in a "common" member.  Either way the state is
 * INUSE (1) from the map update that registers until the element's delete
 * that unregisters; a map made for a link (BPF_F_LINK) is READY instead,
 * and registered while a link runs it.  Where the data member holds a hook,
 * the value read back holds its program's id (kernel/bpf/bpf_struct_ops.c
 * writes prog->aux->id there), which is how --show finds each hook's
 * run_cnt.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "tcpca.h"

#define STATE_INUSE	1	/* enum bpf_struct_ops_state BPF_STRUCT_OPS_STATE_INUSE */

static struct {
	bool done;
	int err;
	__u32 value_type_id;	/* in vmlinux BTF */
	__u32 value_size, data_type_id;
	size_t state_off, name_off, data_off;
} layout;

/* The type of member name of struct t, and its byte offset; -ENOENT if none. */
static int member_at(const struct btf *btf, const struct btf_type *t, const char *name, size_t *off)
{
	int i = btf_member_find(btf, t, name, off);

	return i < 0 ? i : (int)btf_members(t)[i].type;
}

static int layout_read(void)
{
	const struct btf_type *v, *t;
	const struct btf *btf;
	size_t common = 0, data = 0, off = 0;
	int id, tid;

	if (layout.done)
		return layout.err;
	layout.done = true;
	layout.err = -EPROTO;
	if (!(btf = kernel_btf()))
		return layout.err = -ENOENT;
	id = btf__find_by_name_kind(btf, "bpf_struct_ops_tcp_congestion_ops", BTF_KIND_STRUCT);
	if (id <= 0 || !(v = btf__type_by_id(btf, id)))
		goto out;
	layout.value_type_id = id;
	layout.value_size = v->size;
	if ((tid = member_at(btf, v, "state", &off)) > 0) {		/* 6.1 */
		layout.state_off = off;
	} else if ((tid = member_at(btf, v, "common", &common)) > 0 &&
		   (t = btf__type_by_id(btf, btf__resolve_type(btf, tid))) && btf_is_struct(t) &&
		   member_at(btf, t, "state", &off) > 0) {
		layout.state_off = common + off;
	} else {
		goto out;
	}
	if ((tid = member_at(btf, v, "data", &data)) <= 0 ||
	    !(t = btf__type_by_id(btf, btf__resolve_type(btf, tid))) || !btf_is_struct(t) ||
	    member_at(btf, t, "name", &off) <= 0)
		goto out;
	layout.name_off = data + off;
	layout.data_off = data;
	layout.data_type_id = btf__resolve_type(btf, tid);
	layout.err = 0;
out:
	return layout.err;
}

int ops_map_read(int fd, struct ops_map *m)
{
	struct bpf_map_info mi = {};
	__u32 len = sizeof(mi), zero = 0;
	char *value;
	int e;

	memset(m, 0, sizeof(*m));
	if ((e = layout_read()))
		return e;
	if (bpf_obj_get_info_by_fd(fd, &mi, &len))
		return -errno;
	if (mi.type != BPF_MAP_TYPE_STRUCT_OPS || mi.btf_vmlinux_value_type_id != layout.value_type_id ||
	    mi.value_size != layout.value_size)
		return -ENOTSUP;	/* not a congestion control */
	m->id = mi.id;
	m->btf_id = mi.btf_id;
	m->link_made = mi.map_flags & TCPCA_BPF_F_LINK;
	snprintf(m->map_name, sizeof(m->map_name), "%s", mi.name);
	if (!(value = calloc(1, mi.value_size)))
		return -ENOMEM;
	if (bpf_map_lookup_elem(fd, &zero, value)) {
		e = -errno;
	} else {
		__u32 state;

		memcpy(&state, value + layout.state_off, sizeof(state));
		m->in_use = state == STATE_INUSE;
		memcpy(m->ca_name, value + layout.name_off, TCPCA_NAME_MAX - 1);
	}
	free(value);
	return e;
}

/* A member of tcp_congestion_ops that is a hook: a pointer to a function. */
static bool is_hook(const struct btf *btf, __u32 type_id)
{
	const struct btf_type *t = btf__type_by_id(btf, type_id);

	while (t && btf_is_mod(t))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_ptr(t))
		return false;
	t = btf__type_by_id(btf, t->type);
	return t && btf_is_func_proto(t);
}

int ops_map_hooks(int fd, int (*each)(const char *hook, __u32 prog_id, void *ctx), void *ctx)
{
	const struct btf_member *m;
	const struct btf_type *t;
	const struct btf *btf;
	__u32 zero = 0;
	char *value;
	int i, e;

	if ((e = layout_read()))
		return e;
	btf = kernel_btf();
	t = btf__type_by_id(btf, layout.data_type_id);
	if (!(value = calloc(1, layout.value_size)))
		return -ENOMEM;
	if (bpf_map_lookup_elem(fd, &zero, value)) {
		e = -errno;
		goto out;
	}
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t) && !e; i++, m++) {
		__u64 id;

		if (!is_hook(btf, m->type))
			continue;
		memcpy(&id, value + layout.data_off + btf_member_bit_offset(t, i) / 8, sizeof(id));
		if (id)
			e = each(btf__name_by_offset(btf, m->name_off), (__u32)id, ctx);
	}
out:
	free(value);
	return e;
}

/*
 * Since 6.4 a struct_ops link's info names its map: struct_ops.map_id, the
 * first word of the union after type, id and prog_id (8-aligned: offset 16).
 * The headers of older systems lack the member, so it is read by offset.
 */
int link_ops_map(int fd, __u32 *link_id, __u32 *map_id)
{
	union {
		struct bpf_link_info li;
		__u32 w[32];
	} u = {};
	__u32 len = sizeof(u);

	*map_id = 0;
	if (bpf_obj_get_info_by_fd(fd, &u.li, &len))
		return -errno;
	if (link_id)
		*link_id = u.li.id;
	if (u.li.type != TCPCA_LINK_TYPE_STRUCT_OPS)
		return -ENOTSUP;
	*map_id = u.w[4];
	return 0;
}

/*
 * A tcpca object carries tcpca_ca_name (include/tcpca_observe.bpf.h, which
 * every algorithm includes for its socket iterator; the loader writes the
 * CA name into it): the map's BTF, which is its object's, names that
 * variable.  Kernels keep a loaded object's BTF whole, 5.2 on.
 */
bool ops_map_is_tcpca(const struct ops_map *m)
{
	struct btf *btf;
	bool ours;

	if (!m->btf_id || !(btf = btf__load_from_kernel_by_id(m->btf_id)))
		return false;
	ours = btf__find_by_name_kind(btf, "tcpca_ca_name", BTF_KIND_VAR) > 0;
	btf__free(btf);
	return ours;
}
