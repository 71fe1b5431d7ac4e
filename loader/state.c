// SPDX-License-Identifier: GPL-2.0
/*
 * A registration under the pin directory, read from the kernel through its
 * pins: which map runs, and whether these pins hold it registered.  The
 * CA-name sysctl cannot say that: the name may be registered by another
 * map (an orphan, another directory's) while these pins hold nothing.
 * --list, --show, --replace, --unload and --apply all start from here.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "tcpca.h"

/* fd of the pin, -ENOENT if there is none, or -errno said */
static int open_pin(const char *dir, const char *name, const char *leaf)
{
	char path[PATH_MAX];
	int fd, e = pin_path(path, sizeof(path), dir, name, leaf);

	if (e || (fd = bpf_obj_get(path)) < 0) {
		e = e ? e : -errno;
		if (e != -ENOENT)
			err("cannot open %s: %s", path, strerror(-e));
		return e;
	}
	return fd;
}

static int read_ops_pin(const char *dir, const char *name, struct ops_map *m)
{
	int fd = open_pin(dir, name, PIN_OPS), e;

	if (fd < 0)
		return fd;
	if ((e = ops_map_read(fd, m)))
		err("cannot read the struct_ops map pinned at %s/%s/%s: %s", dir, name, PIN_OPS,
		    e == -ENOTSUP ? "not a congestion control" : strerror(-e));
	close(fd);
	return e;
}

int pin_state(const char *dir, const char *name, struct pin_state *s)
{
	char staged[TCPCA_NAME_MAX + sizeof("/" PIN_NEXT)];
	struct ops_map ops, next;
	__u32 link_map = 0;
	int fd, e;

	memset(s, 0, sizeof(*s));
	s->mode = REG_MAP;
	if (!(s->exists = pin_exists(dir, name)))
		return 0;
	if ((e = read_ops_pin(dir, name, &ops)) == -ENOENT)
		s->incomplete = true;
	else if (e)
		return e;
	else {
		s->map_id = ops.id;
		s->alg = alg_find(ops.map_name);
		s->mode = ops.link_made ? REG_LINK : REG_MAP;
		s->registered = ops.in_use;
	}
	if ((fd = open_pin(dir, name, PIN_LINK)) >= 0) {
		e = link_ops_map(fd, &s->link_id, &link_map);
		close(fd);
		if (e) {
			err("cannot read the link pinned at %s/%s/%s: %s", dir, name, PIN_LINK, strerror(-e));
			return e;
		}
		s->mode = REG_LINK;
		s->registered = link_map != 0;	/* 0: detached */
	} else if (fd != -ENOENT) {
		return fd;
	}
	snprintf(staged, sizeof(staged), "%s/" PIN_NEXT, name);
	if (!(s->staged = pin_exists(dir, staged)))
		return 0;
	if ((e = read_ops_pin(dir, staged, &next)) == -ENOENT)
		return 0;	/* stopped while staging: nothing swapped */
	if (e)
		return e;
	s->swapped = s->mode == REG_LINK ? link_map == next.id : next.in_use;
	if (s->swapped) {	/* the staged map is the one that runs */
		s->map_id = next.id;
		s->alg = alg_find(next.map_name);
		s->registered = true;
	}
	return 0;
}
