// SPDX-License-Identifier: GPL-2.0
/*
 * The one check of a NAME given on the command line, for every command that
 * takes one (load's --name, --unload, --show, --set, --events): a name is a
 * congestion control's name in the kernel and a directory under the pin
 * directory at once, so it must fit TCP_CA_NAME_MAX and be a single path
 * component that stays in that directory.  No dots: bpffs refuses any name
 * with one (EPERM, kernel/bpf/inode.c keeps them for its own files), so a
 * dotted name could be registered nowhere, and "." and ".." go with them.
 */
#include <errno.h>
#include <string.h>
#include "tcpca.h"

static const char ca_name_chars[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";

bool valid_ca_name(const char *name)
{
	size_t len = strlen(name);

	return len > 0 && len < TCPCA_NAME_MAX && strspn(name, ca_name_chars) == len;
}

int check_ca_name(const char *name)
{
	if (valid_ca_name(name))
		return 0;
	err("invalid name '%s': 1 to %d characters of [A-Za-z0-9_] (bpffs refuses '.' in names)",
	    name, TCPCA_NAME_MAX - 1);
	return -EINVAL;
}
