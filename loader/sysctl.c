// SPDX-License-Identifier: GPL-2.0
/*
 * What the kernel says is registered, read from its sysctls; and the one
 * sysctl written, the default of a tcpca.conf "default" line (--apply).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "tcpca.h"

static bool listed(const char *file, const char *name)
{
	char word[TCPCA_NAME_MAX + 1];
	bool found = false;
	FILE *f = fopen(file, "r");

	if (!f)
		return false;
	while (!found && fscanf(f, "%16s", word) == 1)
		found = strcmp(word, name) == 0;
	fclose(f);
	return found;
}

bool ca_registered(const char *name)
{
	return listed("/proc/sys/net/ipv4/tcp_available_congestion_control", name);
}

bool ca_allowed(const char *name)
{
	return listed("/proc/sys/net/ipv4/tcp_allowed_congestion_control", name);
}

/* For listings: a pinned name that a crash left unregistered says so. */
const char *ca_access(const char *name)
{
	if (!ca_registered(name))
		return "unregistered";
	return ca_allowed(name) ? "allowed" : "restricted";
}

int ca_set_default(const char *name)
{
	FILE *f = fopen("/proc/sys/net/ipv4/tcp_congestion_control", "w");
	int e = 0;

	if (!f)
		return -errno;
	if (fputs(name, f) == EOF)
		e = -errno;
	if (fclose(f) && !e)
		e = -errno;
	return e;
}
