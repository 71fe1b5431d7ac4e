/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a kernel offers a BPF congestion control beyond what 5.10 offers.
 * The loader probes the running kernel (loader/features.c) and writes the
 * set into each object's .rodata variable tcpca_kernel before load; the
 * verifier reads it as a constant and drops the branch a kernel cannot
 * take, so one object carries both ways (include/tcpca_kernel.bpf.h).
 */
#ifndef TCPCA_FEATURES_H
#define TCPCA_FEATURES_H

#define TCPCA_KF_KFUNCS		(1U << 0)	/* tcp_reno_*, tcp_slow_start, tcp_cong_avoid_ai: 5.13 */
#define TCPCA_KF_SETSOCKOPT	(1U << 1)	/* bpf_setsockopt() from a CA: 5.15 */
#define TCPCA_KF_ALL		(TCPCA_KF_KFUNCS | TCPCA_KF_SETSOCKOPT)

#endif /* TCPCA_FEATURES_H */
