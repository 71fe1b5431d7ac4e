/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the libbpf we build with does for us, by version: where it is older
 * the loader does the same by hand (loader/ops.c, and nowhere else).  Debian
 * 12 has libbpf 1.1, Ubuntu 24.04 1.3, Debian 13 1.5.  Both sides include
 * this, the BPF programs (for the section their ops table goes in) and the
 * loader.
 */
#ifndef TCPCA_LIBBPF_H
#define TCPCA_LIBBPF_H

#include <bpf/libbpf_version.h>

#define TCPCA_LIBBPF_AT_LEAST(major, minor) \
	(LIBBPF_MAJOR_VERSION > (major) || \
	 (LIBBPF_MAJOR_VERSION == (major) && LIBBPF_MINOR_VERSION >= (minor)))

/*
 * 1.2: the ".struct_ops.link" section (a struct_ops map created with
 * BPF_F_LINK), and bpf_map__attach_struct_ops() creating the link of such a
 * map (1.1 only updates its element, which registers nothing then).
 */
#define TCPCA_LIBBPF_OPS_LINK	TCPCA_LIBBPF_AT_LEAST(1, 2)

/*
 * 1.4: a struct_ops map's data between open and load, where the CA name and
 * flags are (bpf_map__initial_value(); 1.1 to 1.3 return NULL for it).
 */
#define TCPCA_LIBBPF_OPS_DATA	TCPCA_LIBBPF_AT_LEAST(1, 4)

#if TCPCA_LIBBPF_OPS_LINK
#define TCPCA_OPS_SEC	".struct_ops.link"
#else
#define TCPCA_OPS_SEC	".struct_ops"
#endif

#endif /* TCPCA_LIBBPF_H */
