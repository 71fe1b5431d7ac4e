// SPDX-License-Identifier: GPL-2.0
/*
 * One change to a pin directory, from start to end: it holds the
 * directory's lock, pins and creates through here (each pin it makes is
 * recorded), and on failure removes exactly those, newest first, and
 * nothing another process made.
 *
 * The lock is flock(2) on the pin directory itself: bpffs holds no regular
 * files, so there is no lock file to make (nor one to leave behind), and
 * the kernel drops the lock when its holder dies, however it dies.  Every
 * command that writes (load, --replace, --unload, --set, --apply) takes it
 * before it looks at what is pinned and keeps it until it is done; readers
 * (--list, --show, --events) never take it.  A second writer waits
 * TCPCA_LOCK_TIMEOUT seconds (default 10), saying so, then gives up with
 * EBUSY.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <bpf/bpf.h>
#include "tcpca.h"

#define LOCK_TIMEOUT_S	10

static void on_alarm(int sig)
{
	(void)sig;	/* only to interrupt flock() */
}

static double lock_timeout(void)
{
	const char *s = getenv("TCPCA_LOCK_TIMEOUT");
	char *end;
	double t = s ? strtod(s, &end) : LOCK_TIMEOUT_S;

	return s && (*end || t < 0) ? LOCK_TIMEOUT_S : t;
}

/* flock(fd), or after `timeout` s of waiting -EBUSY */
static int lock_wait(int fd, const char *dir, double timeout)
{
	struct sigaction sa = { .sa_handler = on_alarm }, old;	/* no SA_RESTART */
	struct itimerval it = {}, none = {};
	int e = 0;

	if (!flock(fd, LOCK_EX | LOCK_NB))
		return 0;
	if (errno != EWOULDBLOCK)
		return -errno;
	note("waiting for the lock on %s: another tcpca-load is changing it", dir);
	fflush(stderr);
	it.it_value.tv_sec = (time_t)timeout;
	it.it_value.tv_usec = (suseconds_t)((timeout - (double)(time_t)timeout) * 1e6);
	if (!it.it_value.tv_sec && !it.it_value.tv_usec)
		it.it_value.tv_usec = 1;
	sigaction(SIGALRM, &sa, &old);
	setitimer(ITIMER_REAL, &it, NULL);
	if (flock(fd, LOCK_EX))
		e = errno == EINTR ? -EBUSY : -errno;
	setitimer(ITIMER_REAL, &none, NULL);
	sigaction(SIGALRM, &old, NULL);
	return e;
}

/*
 * Locked, the directory must still be the one at `dir`: another writer may
 * have removed it (the tests' cleanup does) while we waited.
 */
int change_begin(struct dir_change *c, const char *dir)
{
	struct stat a, b;
	int e = 0, i;

	memset(c, 0, sizeof(*c));
	c->dir = dir;
	c->lock_fd = -1;
	for (i = 0; i < 5; i++) {
		c->lock_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (c->lock_fd < 0) {
			e = -errno;
			err("cannot open %s: %s", dir, strerror(-e));
			return e;
		}
		if ((e = lock_wait(c->lock_fd, dir, lock_timeout()))) {
			if (e == -EBUSY)
				err("%s is busy: waited %g s for another tcpca-load's lock on it; "
				    "try again", dir, lock_timeout());
			else
				err("cannot lock %s: %s", dir, strerror(-e));
			break;
		}
		if (!fstat(c->lock_fd, &a) && !stat(dir, &b) && a.st_ino == b.st_ino &&
		    a.st_dev == b.st_dev)
			return fault("locked");
		close(c->lock_fd);
		c->lock_fd = -1;
		if ((e = bpffs_prepare(dir)))
			return e;
	}
	if (!e)
		e = -EAGAIN;
	close(c->lock_fd);
	c->lock_fd = -1;
	return e;
}

/* The change is done: what it made stays. */
void change_end(struct dir_change *c)
{
	c->nmade = 0;
	if (c->lock_fd >= 0)
		close(c->lock_fd);	/* releases the lock */
	c->lock_fd = -1;
}

static int record(struct dir_change *c, const char *rel)
{
	if (c->nmade == CHANGE_MADE_MAX)
		return -E2BIG;
	snprintf(c->made[c->nmade++], sizeof(c->made[0]), "%s", rel);
	return 0;
}

int change_mkdir(struct dir_change *c, const char *sub)
{
	char path[PATH_MAX];
	int e = pin_path(path, sizeof(path), c->dir, sub, NULL);

	if (!e && mkdir(path, 0700))
		e = -errno;
	if (!e)
		e = record(c, sub);
	if (e)
		err("cannot create %s: %s", path, strerror(-e));
	return e;
}

int change_pin(struct dir_change *c, int fd, const char *sub, const char *leaf)
{
	char path[PATH_MAX], rel[sizeof(c->made[0])];
	int e = pin_path(path, sizeof(path), c->dir, sub, leaf);

	if (!e && bpf_obj_pin(fd, path))
		e = -errno;
	if (!e) {
		snprintf(rel, sizeof(rel), "%s/%s", sub, leaf);
		e = record(c, rel);
	}
	if (e)
		err("cannot pin %s: %s", path, strerror(-e));
	return e;
}

/* Removes what this change made, newest first: a directory after its leaves. */
void change_rollback(struct dir_change *c)
{
	char path[PATH_MAX];

	while (c->nmade > 0) {
		const char *rel = c->made[--c->nmade];

		if (snprintf(path, sizeof(path), "%s/%s", c->dir, rel) >= (int)sizeof(path))
			continue;
		if (unlink(path) && (errno == EISDIR || errno == EPERM))
			rmdir(path);	/* a directory it made: its leaves went first */
	}
}

/* Committed: what was made is the registration's from here on, never rolled back. */
void change_commit(struct dir_change *c)
{
	c->nmade = 0;
}
