// SPDX-License-Identifier: GPL-2.0
/*
 * Registrations that a tcpca object made and that no pin owns: before
 * this loader took a lock, two loads of one name by map update could leave
 * one (one loader's failure path removed the other's pins), and a user's
 * `rm -r` of a pin directory still can.  By map update (before 6.4) such a
 * registration lasts until someone deletes its map's element; nothing in
 * bpffs leads to it any more.
 *
 * Found by walking the kernel's struct_ops maps (bpf_map_get_next_id):
 * a congestion control's map whose BTF names tcpca_ca_name (kstate.c) is a
 * tcpca object's.  It is owned if a pin anywhere on a bpffs mounted in this
 * mount namespace leads to it (its map pinned, by map; its link pinned, by
 * link), not only under one pin directory: another directory's
 * registrations are that directory's business, never an orphan here.
 *
 * A link that no pin holds is held by a process's fd (a loader between
 * bpf_link_create() and its pin, or one stopped there) and goes when that
 * process ends; --unload NAME detaches it where the kernel can (6.18 can).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include "tcpca.h"

#define WALK_DEPTH	8

struct idset {
	__u32 *id;
	int n, size;
};

static void idset_add(struct idset *s, __u32 id)
{
	if (!id)
		return;
	if (s->n == s->size) {
		__u32 *grown = realloc(s->id, (s->size * 2 + 64) * sizeof(*s->id));

		if (!grown)
			return;		/* then it looks unowned: see the second walk */
		s->id = grown;
		s->size = s->size * 2 + 64;
	}
	s->id[s->n++] = id;
}

static bool idset_has(const struct idset *s, __u32 id)
{
	for (int i = 0; i < s->n; i++)
		if (s->id[i] == id)
			return true;
	return false;
}

/* The ids a pinned object names in its fdinfo: a map's, or a link's and its struct_ops map's. */
static void note_pin(const char *path, struct idset *maps, struct idset *links)
{
	char info[64], line[128];
	unsigned int id;
	FILE *f;
	int fd = bpf_obj_get(path);

	if (fd < 0)
		return;
	snprintf(info, sizeof(info), "/proc/self/fdinfo/%d", fd);
	if ((f = fopen(info, "r"))) {
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "link_id: %u", &id) == 1)
				idset_add(links, id);
			else if (sscanf(line, "map_id: %u", &id) == 1)
				idset_add(maps, id);
		}
		fclose(f);
	}
	close(fd);
}

static void walk(const char *dir, int depth, struct idset *maps, struct idset *links)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (depth > WALK_DEPTH || !(d = opendir(dir)))
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path))
			continue;
		if (de->d_type == DT_DIR)
			walk(path, depth + 1, maps, links);
		else if (de->d_type == DT_REG)
			note_pin(path, maps, links);
	}
	closedir(d);
}

/* Every bpffs mounted here: /proc/self/mountinfo's 5th field, type after " - ". */
static void owned(struct idset *maps, struct idset *links)
{
	char line[4096], point[PATH_MAX], type[32];
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *sep;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!(sep = strstr(line, " - ")) || sscanf(sep, " - %31s", type) != 1 ||
		    strcmp(type, "bpf") || sscanf(line, "%*s %*s %*s %*s %4095s", point) != 1)
			continue;
		walk(point, 0, maps, links);	/* mountinfo escapes blanks as \040: such a path is skipped */
	}
	fclose(f);
}

/* struct_ops links: link id, map id pairs */
static void struct_ops_links(struct idset *link_ids, struct idset *map_ids)
{
	__u32 id = 0, map_id, link_id;
	int fd;

	while (!bpf_link_get_next_id(id, &id)) {
		if ((fd = bpf_link_get_fd_by_id(id)) < 0)
			continue;
		if (!link_ops_map(fd, &link_id, &map_id) && map_id) {
			idset_add(link_ids, link_id);
			idset_add(map_ids, map_id);
		}
		close(fd);
	}
}

static int find(struct orphan *o, int max, const char *name)
{
	struct idset maps = {}, links = {}, so_links = {}, so_maps = {};
	struct ops_map m;
	__u32 id = 0;
	int fd, e, n = 0;

	owned(&maps, &links);
	struct_ops_links(&so_links, &so_maps);
	while (n < max && !bpf_map_get_next_id(id, &id)) {
		__u32 link_id = 0;
		bool orphan;

		if ((fd = bpf_map_get_fd_by_id(id)) < 0)
			continue;
		e = ops_map_read(fd, &m);
		close(fd);
		if (e || (name && strcmp(m.ca_name, name)))
			continue;
		if (m.link_made) {
			for (int i = 0; i < so_maps.n && !link_id; i++)
				if (so_maps.id[i] == m.id)
					link_id = so_links.id[i];
			orphan = link_id && !idset_has(&links, link_id);
		} else {
			orphan = m.in_use && !idset_has(&maps, m.id);
		}
		if (!orphan || !ops_map_is_tcpca(&m))	/* its BTF read only when it matters */
			continue;
		memset(&o[n], 0, sizeof(o[n]));
		snprintf(o[n].name, sizeof(o[n].name), "%s", m.ca_name);
		o[n].mode = m.link_made ? REG_LINK : REG_MAP;
		o[n].map_id = m.id;
		o[n].link_id = link_id;
		o[n].alg = alg_find(m.map_name);
		n++;
	}
	free(maps.id);
	free(links.id);
	free(so_links.id);
	free(so_maps.id);
	return n;
}

int orphans_find(struct orphan *o, int max)
{
	return find(o, max, NULL);
}

int orphan_find(const char *name, struct orphan *o)
{
	return find(o, 1, name);
}

/*
 * By map: deleting the element unregisters (what --unload does with a
 * pinned map).  By link: detaching it, which older kernels refuse.
 * Asked again just before: a rename in another pin directory may have
 * hidden a pin from the first walk.
 */
int orphan_remove(const struct orphan *o)
{
	struct orphan again;
	__u32 zero = 0;
	int fd, e = 0;

	if (orphan_find(o->name, &again) != 1 || again.map_id != o->map_id) {
		err("'%s' (map %u) is no longer an orphan: left as it is", o->name, o->map_id);
		return -EAGAIN;
	}
	fd = o->mode == REG_LINK ? bpf_link_get_fd_by_id(o->link_id) : bpf_map_get_fd_by_id(o->map_id);
	if (fd < 0) {
		e = -errno;
		err("cannot open the orphan '%s' (%s %u): %s", o->name, o->mode == REG_LINK ? "link" : "map",
		    o->mode == REG_LINK ? o->link_id : o->map_id, strerror(-e));
		return e;
	}
	if (o->mode == REG_MAP ? bpf_map_delete_elem(fd, &zero) : bpf_link_detach(fd)) {
		e = -errno;
		if (o->mode == REG_LINK && (e == -EOPNOTSUPP || e == -EINVAL))
			err("cannot detach the link %u of the orphan '%s': this kernel cannot detach "
			    "struct_ops links; it goes when the process holding it ends",
			    o->link_id, o->name);
		else
			err("cannot unregister the orphan '%s' (%s): %s", o->name,
			    o->mode == REG_MAP ? "deleting its struct_ops element" : "detaching its link",
			    strerror(-e));
	}
	close(fd);
	return e;
}
