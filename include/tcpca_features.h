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
#define TCPCA_KF_PACING		(1U << 2)	/* stores to sk_pacing_rate, sk_pacing_status: 6.0 */
#define TCPCA_KF_APP_LIMITED	(1U << 3)	/* stores to tp->app_limited: 6.4 */
#define TCPCA_KF_CC_ACK_FLAG	(1U << 4)	/* cong_control(sk, ack, flag, rs), not (sk, rs): 6.10 */
#define TCPCA_KF_ALL		(TCPCA_KF_KFUNCS | TCPCA_KF_SETSOCKOPT | TCPCA_KF_PACING | \
				 TCPCA_KF_APP_LIMITED | TCPCA_KF_CC_ACK_FLAG)

#endif /* TCPCA_FEATURES_H */
