// SPDX-License-Identifier: GPL-2.0
/*
 * The bpffs side of registration.  An algorithm registered as NAME owns
 * <dir>/NAME/, holding what keeps it registered (its link, or on kernels
 * before 6.4 its struct_ops map) and the maps and iterator users inspect.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <bpf/bpf.h>
#include "tcpca.h"

#define BPF_FS_MAGIC	0xcafe4a11
#define SYS_FS_BPF	"/sys/fs/bpf"

#define PIN_LEAF(id, file, doc)	const char PIN_##id[] = file;
#include "pins.def"
#undef PIN_LEAF

static const char *const leaves[] = {
#define PIN_LEAF(id, file, doc)	PIN_##id,
#include "pins.def"
#undef PIN_LEAF
};

static bool on_bpffs(const char *path)
{
	struct statfs st;

	return statfs(path, &st) == 0 && st.f_type == BPF_FS_MAGIC;
}

/* mkdir -p, but only below a bpffs mount point */
static int mkdir_on_bpffs(const char *dir)
{
	char path[PATH_MAX], *p;

	if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	for (p = path + 1; ; p++) {
		if (*p != '/' && *p)
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(path, 0700) && errno != EEXIST)
			return -errno;
		*p = c;
		if (!c)
			break;
	}
	return 0;
}

/*
 * Mount bpffs on /sys/fs/bpf when nothing is mounted there (as systemd would
 * have); any other directory must already be on a bpffs.
 */
int bpffs_prepare(const char *dir)
{
	char parent[PATH_MAX];
	char *slash;
	int e;

	snprintf(parent, sizeof(parent), "%s", dir);
	while (access(parent, F_OK) && (slash = strrchr(parent, '/')) && slash != parent)
		*slash = '\0';

	if (!on_bpffs(parent)) {
		bool under_default = strncmp(dir, SYS_FS_BPF "/", sizeof(SYS_FS_BPF)) == 0 ||
				     strcmp(dir, SYS_FS_BPF) == 0;

		if (!under_default || on_bpffs(SYS_FS_BPF)) {
			err("%s is not on a bpf filesystem; choose a --pin-dir under one", dir);
			return -ENOTDIR;
		}
		if (mount("bpf", SYS_FS_BPF, "bpf", 0, "mode=0700")) {
			int e = -errno;	/* before err() may change it */

			err("cannot mount bpffs on " SYS_FS_BPF ": %s", strerror(-e));
			return e;
		}
	}
	e = mkdir_on_bpffs(dir);
	if (e)
		err("cannot create %s: %s", dir, strerror(-e));
	return e;
}

int pin_path(char *buf, size_t size, const char *dir, const char *name, const char *leaf)
{
	int n = leaf ? snprintf(buf, size, "%s/%s/%s", dir, name, leaf) :
		       snprintf(buf, size, "%s/%s", dir, name);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

bool pin_exists(const char *dir, const char *name)
{
	char path[PATH_MAX];

	return !pin_path(path, sizeof(path), dir, name, NULL) && access(path, F_OK) == 0;
}

/* Its leaves, then the directory: what a --replace that died left first. */
int pin_remove(const char *dir, const char *name)
{
	char path[PATH_MAX];
	unsigned int i;
	int e, removed = 0;

	if (!strchr(name, '/') && snprintf(path, sizeof(path), "%s/" PIN_NEXT, name) < (int)sizeof(path) &&
	    pin_exists(dir, path) && (e = pin_remove(dir, path)))
		return e;
	for (i = 0; i < ARRAY_SIZE(leaves); i++) {
		if ((e = pin_path(path, sizeof(path), dir, name, leaves[i])))
			return e;
		if (unlink(path)) {
			if (errno != ENOENT)
				return -errno;
		} else if (!removed++ && (e = fault("unpinning"))) {
			return e;
		}
	}
	if ((e = pin_path(path, sizeof(path), dir, name, NULL)))
		return e;
	if (rmdir(path))
		return -errno;
	return 0;
}

/*
 * The names under dir: each subdirectory with a valid name, whole or not
 * (a load that stopped before its ops pin leaves a directory without one).
 */
int pin_names(const char *dir, char names[][TCPCA_NAME_MAX], int max)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d)) && n < max) {
		if (de->d_type != DT_DIR || !valid_ca_name(de->d_name))
			continue;
		snprintf(names[n++], TCPCA_NAME_MAX, "%.15s", de->d_name);
	}
	closedir(d);
	return n;
}

/*
 * --replace: the leaves pinned under staged take the place of name's, each
 * by one rename (bpffs replaces the target), so a reader finds the old leaf
 * or the new, never none; a leaf the new object lacks goes.  The link leaf
 * is name's own: the same link, updated.  The ops leaf moves last: while
 * staged/ops exists, tcpca_recover() can tell a move to finish from one
 * never begun.
 */
static int adopt_leaf(const char *dir, const char *name, const char *staged, const char *leaf)
{
	char from[PATH_MAX], to[PATH_MAX];
	int e;

	if ((e = pin_path(from, sizeof(from), dir, staged, leaf)) ||
	    (e = pin_path(to, sizeof(to), dir, name, leaf)))
		return e;
	if (access(from, F_OK) == 0)
		e = rename(from, to) ? -errno : 0;
	else
		e = unlink(to) && errno != ENOENT ? -errno : 0;
	if (e)
		err("cannot move %s to %s: %s", from, to, strerror(-e));
	return e;
}

int pin_adopt(const char *dir, const char *name, const char *staged)
{
	char path[PATH_MAX];
	unsigned int i;
	int e;

	for (i = 0; i < ARRAY_SIZE(leaves); i++) {
		if (leaves[i] == PIN_LINK || leaves[i] == PIN_OPS)
			continue;
		if ((e = adopt_leaf(dir, name, staged, leaves[i])) ||
		    (e = fault("replace.adopting")))
			return e;
	}
	if ((e = adopt_leaf(dir, name, staged, PIN_OPS)))
		return e;
	if ((e = pin_path(path, sizeof(path), dir, staged, NULL)) || rmdir(path))
		return e ? e : -errno;
	return 0;
}
