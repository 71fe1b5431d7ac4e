// SPDX-License-Identifier: GPL-2.0
/*
 * One TUN device inside a named network namespace.  The device is not
 * persistent, so the kernel removes it when linkem's fd closes: every
 * exit path, even SIGKILL, cleans it up.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include "linkem.h"

static int set_addr(int sk, struct ifreq *ifr, unsigned long req, in_addr_t a)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)&ifr->ifr_addr;

	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = a;
	return ioctl(sk, req, ifr);
}

static int parse_cidr(const char *cidr, in_addr_t *addr, in_addr_t *mask)
{
	char buf[32];
	char *slash, *end;
	long len = 32;

	if (strlen(cidr) >= sizeof(buf))
		return -1;
	strcpy(buf, cidr);
	slash = strchr(buf, '/');
	if (slash) {
		*slash = 0;
		len = strtol(slash + 1, &end, 10);
		if (*end || end == slash + 1 || len < 1 || len > 32)
			return -1;
	}
	if (inet_pton(AF_INET, buf, addr) != 1)
		return -1;
	*mask = htonl(len == 32 ? 0xffffffffU : ~(0xffffffffU >> len));
	return 0;
}

/*
 * No IPv6 on the device: router solicitations and MLD reports would be
 * extra packets on the link and shift the seeded loss pattern.  The
 * write lands in the namespace we are in; best effort.
 */
static void disable_ipv6(const char *dev)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/disable_ipv6", dev);
	f = fopen(path, "w");
	if (f) {
		fputs("1\n", f);
		fclose(f);
	}
}

/* Address, MTU, queue length, up: done here so no shell step can race us. */
static int configure(const char *ns, const char *dev, const char *cidr,
		     int mtu, int txqlen)
{
	struct ifreq ifr;
	in_addr_t addr = 0, mask = 0;
	int sk, rc = -1;

	if (cidr && parse_cidr(cidr, &addr, &mask)) {
		fprintf(stderr, "linkem: bad address '%s' (want A.B.C.D/LEN)\n", cidr);
		return -1;
	}
	sk = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sk < 0)
		goto err;
	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, dev, IFNAMSIZ - 1);
	ifr.ifr_mtu = mtu;
	if (ioctl(sk, SIOCSIFMTU, &ifr))
		goto err;
	ifr.ifr_qlen = txqlen;
	if (txqlen && ioctl(sk, SIOCSIFTXQLEN, &ifr))
		goto err;
	if (cidr && (set_addr(sk, &ifr, SIOCSIFADDR, addr) ||
		     set_addr(sk, &ifr, SIOCSIFNETMASK, mask)))
		goto err;
	disable_ipv6(dev);
	if (ioctl(sk, SIOCGIFFLAGS, &ifr))
		goto err;
	ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
	if (ioctl(sk, SIOCSIFFLAGS, &ifr))
		goto err;
	rc = 0;
err:
	if (rc)
		fprintf(stderr, "linkem: cannot configure %s in namespace %s: %s\n",
			dev, ns, strerror(errno));
	if (sk >= 0)
		close(sk);
	return rc;
}

static int create_tun(const char *ns, const char *dev)
{
	struct ifreq ifr;
	int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "linkem: cannot open /dev/net/tun: %s%s\n",
			strerror(errno), errno == EACCES || errno == EPERM ?
			" (needs root / CAP_NET_ADMIN)" : "");
		return -1;
	}
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
	strncpy(ifr.ifr_name, dev, IFNAMSIZ - 1);
	if (ioctl(fd, TUNSETIFF, &ifr)) {
		fprintf(stderr, "linkem: cannot create TUN %s in namespace %s: %s\n",
			dev, ns, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* Enter /run/netns/NS, create and configure the device, come back. */
int tun_open_in_ns(const char *ns, const char *dev, const char *cidr,
		   int mtu, int txqlen)
{
	char path[4096];
	int self, target, fd = -1;

	snprintf(path, sizeof(path), "%s%s", strchr(ns, '/') ? "" : "/run/netns/", ns);
	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	target = open(path, O_RDONLY | O_CLOEXEC);
	if (self < 0 || target < 0) {
		fprintf(stderr, "linkem: no network namespace '%s' (%s): %s\n",
			ns, path, strerror(errno));
		goto out;
	}
	if (setns(target, CLONE_NEWNET)) {
		fprintf(stderr, "linkem: cannot enter namespace %s: %s%s\n", ns,
			strerror(errno), errno == EPERM ? " (needs root)" : "");
		goto out;
	}
	fd = create_tun(ns, dev);
	if (fd >= 0 && configure(ns, dev, cidr, mtu, txqlen)) {
		close(fd);
		fd = -1;
	}
	if (setns(self, CLONE_NEWNET)) {
		fprintf(stderr, "linkem: cannot return to own namespace: %s\n",
			strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
out:
	if (self >= 0)
		close(self);
	if (target >= 0)
		close(target);
	return fd;
}
