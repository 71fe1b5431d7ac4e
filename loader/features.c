// SPDX-License-Identifier: GPL-2.0
/*
 * What the running kernel can do, asked of the kernel itself rather than read
 * from its version string: distributions backport features, and a version
 * says nothing about how a kernel was configured.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "tcpca.h"
#include "tcpca_features.h"

#define CA_VALUE_TYPE	"bpf_struct_ops_tcp_congestion_ops"

static int probed_mode = -1;

/* A BTF of our own with one int in it: a struct_ops map must name a user BTF. */
static int tiny_btf_fd(void)
{
	struct btf *btf = btf__new_empty();
	int fd = -1;

	if (btf && btf__add_int(btf, "int", 4, BTF_INT_SIGNED) > 0 &&
	    !btf__load_into_kernel(btf))
		fd = dup(btf__fd(btf));
	btf__free(btf);
	return fd;
}

/*
 * BPF congestion control came with struct_ops in 5.6, which put the
 * tcp_congestion_ops value type into vmlinux BTF.  Link-based struct_ops
 * came in 6.4: only from then on does a struct_ops map accept BPF_F_LINK
 * (before, any map flag fails with EINVAL), so creating one such map answers
 * exactly the question we have.
 */
int kernel_reg_mode(void)
{
	const struct btf *vmlinux;
	int id, btf_fd, fd, e = 0;
	__s64 size;

	if (probed_mode >= 0)
		return probed_mode;
	vmlinux = kernel_btf();
	if (!vmlinux)
		return -ENOENT;
	id = btf__find_by_name_kind(vmlinux, CA_VALUE_TYPE, BTF_KIND_STRUCT);
	size = id > 0 ? btf__resolve_size(vmlinux, id) : -1;
	if (id <= 0 || size <= 0) {
		err("this kernel has no BPF congestion control (struct_ops, Linux 5.6 and later)");
		return -EOPNOTSUPP;
	}

	/* Tests run the pre-6.4 path on newer kernels too, which still accept it. */
	if (getenv("TCPCA_REGISTER_BY") && !strcmp(getenv("TCPCA_REGISTER_BY"), "map"))
		return probed_mode = REG_MAP;

	btf_fd = tiny_btf_fd();
	if (btf_fd < 0) {
		err("the kernel refused a BPF type table: %s", strerror(errno));
		return -EPERM;
	}
	LIBBPF_OPTS(bpf_map_create_opts, opts, .btf_fd = btf_fd, .map_flags = TCPCA_BPF_F_LINK,
		    .btf_vmlinux_value_type_id = id);
	fd = bpf_map_create(BPF_MAP_TYPE_STRUCT_OPS, "tcpca_probe", sizeof(__u32), size, 1, &opts);
	e = fd < 0 ? -errno : 0;
	if (fd >= 0)
		close(fd);
	close(btf_fd);
	if (e && e != -EINVAL) {
		err("cannot create a struct_ops map: %s", strerror(-e));
		return e;
	}
	probed_mode = e ? REG_MAP : REG_LINK;
	info_verbose("kernel: %s", probed_mode == REG_LINK ?
		     "struct_ops links (6.4+): registering by link" :
		     "no struct_ops links (they came in 6.4): registering by map update");
	return probed_mode;
}

const char *reg_mode_name(int mode)
{
	return mode == REG_LINK ? "link" : "map";
}

/*
 * What BPF congestion control may call on this kernel beyond 5.10's, found
 * by loading a two- or ten-instruction CA hook that makes the call: the
 * verifier accepts it exactly where the kernel allows it.  Kfunc calls came
 * in 5.13 (5.10 says "BPF_CALL uses reserved fields"), bpf_setsockopt() for
 * a CA in 5.15 ("unknown func").  The objects take the answer in their
 * tcpca_kernel (include/tcpca_features.h).
 */
#define BPF_PSEUDO_KFUNC_CALL_	2	/* absent from older uapi headers */
#define SOL_TCP_		6
#define TCP_BPF_SNDCWND_CLAMP_	1002
#define INSN(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
						.off = (o), .imm = (i) })

static int probed_features = -1;

/* Each feature: its bit, its name in TCPCA_KERNEL_WITHOUT, what it is and since when. */
static const struct feature {
	unsigned int bit;
	const char *name;
	const char *what;
} feature_table[] = {
	{ TCPCA_KF_KFUNCS, "kfuncs", "kfunc calls from a congestion control (Linux 5.13)" },
	{ TCPCA_KF_SETSOCKOPT, "setsockopt", "bpf_setsockopt from a congestion control (Linux 5.15)" },
	{ TCPCA_KF_PACING, "pacing", "stores to sk_pacing_rate and sk_pacing_status from BPF (Linux 6.0)" },
	{ TCPCA_KF_APP_LIMITED, "app_limited", "stores to tp->app_limited from BPF (Linux 6.4)" },
	/* a fact of the kernel, not a permission: not withheld by tests */
	{ TCPCA_KF_CC_ACK_FLAG, NULL, "cong_control with ack and flag arguments (Linux 6.10)" },
};

static const char *feature_what(unsigned int bit)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(feature_table); i++)
		if (feature_table[i].bit == bit)
			return feature_table[i].what;
	return "a feature this loader does not know";
}

/* 1: the kernel verified this hook of tcp_congestion_ops; 0: it refused it. */
static int hook_loads(const struct btf *vmlinux, const char *member,
		      const struct bpf_insn *insns, size_t n, unsigned int bit)
{
	char log[4096] = "";
	int ops, idx, fd;

	ops = btf__find_by_name_kind(vmlinux, "tcp_congestion_ops", BTF_KIND_STRUCT);
	idx = ops > 0 ? btf_member_find(vmlinux, btf__type_by_id(vmlinux, ops), member, NULL) : -1;
	if (idx < 0)
		return 0;
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = idx, .attach_btf_id = ops,
		    .log_buf = log, .log_size = sizeof(log), .log_level = 1);
	fd = bpf_prog_load(BPF_PROG_TYPE_STRUCT_OPS, "tcpca_probe", "GPL", insns, n, &opts);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	info_verbose("kernel: no %s (the probe's verifier log ends: %.200s)", feature_what(bit),
		     strlen(log) > 200 ? log + strlen(log) - 200 : log);
	return 0;
}

static int probe_kfuncs(const struct btf *vmlinux)
{
	int fn = btf__find_by_name_kind(vmlinux, "tcp_reno_ssthresh", BTF_KIND_FUNC);
	const struct bpf_insn insns[] = {
		INSN(BPF_LDX | BPF_MEM | BPF_DW, 1, 1, 0, 0),		/* r1 = sk */
		INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL_, 0, fn),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};

	return fn > 0 && hook_loads(vmlinux, "ssthresh", insns, 3, TCPCA_KF_KFUNCS);
}

static int probe_setsockopt(const struct btf *vmlinux)
{
	const struct bpf_insn insns[] = {
		INSN(BPF_LDX | BPF_MEM | BPF_DW, 1, 1, 0, 0),		/* r1 = sk */
		INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, 10),		/* clamp = 10 */
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 2, 0, 0, SOL_TCP_),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 3, 0, 0, TCP_BPF_SNDCWND_CLAMP_),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 4, 10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 4, 0, 0, -4),		/* &clamp */
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 5, 0, 0, 4),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_setsockopt),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};

	return hook_loads(vmlinux, "init", insns, 10, TCPCA_KF_SETSOCKOPT);
}

/*
 * A store of size bytes to field of struct type (tcp_sock, or sock at its
 * start) from a CA hook: bpf_tcp_ca.c lists the fields a CA may write, and
 * the list grew (sk_pacing_* in 6.0, app_limited in 6.4).
 */
static int probe_store(const struct btf *vmlinux, const char *type, const char *field,
		       int size, unsigned int bit)
{
	int id = btf__find_by_name_kind(vmlinux, type, BTF_KIND_STRUCT);
	const struct btf_type *t = id > 0 ? btf__type_by_id(vmlinux, id) : NULL;
	size_t at = 0;
	int off = t && btf_member_find(vmlinux, t, field, &at) >= 0 ? (int)at : -1;
	const struct bpf_insn insns[] = {
		INSN(BPF_LDX | BPF_MEM | BPF_DW, 1, 1, 0, 0),		/* r1 = sk */
		INSN(BPF_ST | BPF_MEM | (size == 8 ? BPF_DW : BPF_W), 1, 0, off, 1),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};

	return off >= 0 && hook_loads(vmlinux, "init", insns, 4, bit);
}

/* Whether tcp_congestion_ops.cong_control takes (sk, ack, flag, rs), as from 6.10. */
static int cong_control_has_ack_flag(const struct btf *vmlinux)
{
	int ops = btf__find_by_name_kind(vmlinux, "tcp_congestion_ops", BTF_KIND_STRUCT);
	const struct btf_type *t = ops > 0 ? btf__type_by_id(vmlinux, ops) : NULL;
	int i = t ? btf_member_find(vmlinux, t, "cong_control", NULL) : -1;
	const struct btf_type *fn;

	if (i < 0)
		return 0;
	fn = btf__type_by_id(vmlinux, btf_members(t)[i].type);
	while (fn && btf_is_mod(fn))
		fn = btf__type_by_id(vmlinux, fn->type);
	if (fn && btf_is_ptr(fn))
		fn = btf__type_by_id(vmlinux, fn->type);
	return fn && btf_is_func_proto(fn) && btf_vlen(fn) == 4;
}

/*
 * Tests take the older kernels' paths here too:
 * TCPCA_KERNEL_WITHOUT=kfuncs,setsockopt,pacing,app_limited.
 */
static unsigned int features_withheld(void)
{
	const char *w = getenv("TCPCA_KERNEL_WITHOUT");
	unsigned int i, mask = 0;

	for (i = 0; w && i < ARRAY_SIZE(feature_table); i++)
		if (feature_table[i].name && strstr(w, feature_table[i].name))
			mask |= feature_table[i].bit;
	return mask;
}

int kernel_features(void)
{
	const struct btf *vmlinux;

	if (probed_features >= 0)
		return probed_features;
	vmlinux = kernel_btf();
	if (!vmlinux)
		return -ENOENT;
	probed_features = (probe_kfuncs(vmlinux) ? TCPCA_KF_KFUNCS : 0) |
			  (probe_setsockopt(vmlinux) ? TCPCA_KF_SETSOCKOPT : 0) |
			  (probe_store(vmlinux, "sock", "sk_pacing_rate", 8,
				       TCPCA_KF_PACING) ? TCPCA_KF_PACING : 0) |
			  (probe_store(vmlinux, "tcp_sock", "app_limited", 4,
				       TCPCA_KF_APP_LIMITED) ? TCPCA_KF_APP_LIMITED : 0) |
			  (cong_control_has_ack_flag(vmlinux) ? TCPCA_KF_CC_ACK_FLAG : 0);
	probed_features &= ~features_withheld();
	info_verbose("kernel: %s", kernel_features_text(probed_features));
	return probed_features;
}

/* "kfuncs, bpf_setsockopt" or what stands in for them */
const char *kernel_features_text(int features)
{
	static char text[128];

	snprintf(text, sizeof(text), "%s, %s",
		 features & TCPCA_KF_KFUNCS ? "the kernel's Reno functions (kfuncs)" :
					      "BPF copies of the kernel's Reno functions (no kfuncs before 5.13)",
		 features & TCPCA_KF_SETSOCKOPT ? "bpf_setsockopt" :
						  "no bpf_setsockopt (5.15): snd_cwnd_clamp by min() only");
	return text;
}

/*
 * The first feature of needs (TCPCA_KF_* bits, an object's tcpca_needs) that
 * features lacks, said as "what it is (the first kernel that has it)"; NULL
 * when none is missing.
 */
const char *kernel_feature_missing(unsigned int needs, int features)
{
	unsigned int bit, missing = needs & ~(unsigned int)features;

	for (bit = 1; bit; bit <<= 1)
		if (missing & bit)
			return feature_what(bit);
	return NULL;
}
