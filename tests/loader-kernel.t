#!/usr/bin/env bash
# One object for every kernel: what the loader finds this kernel lets a CA
# call (kfuncs from 5.13, bpf_setsockopt from 5.15) is what the kernel's
# version says, and an object loaded without them carries no such call and
# still carries data.  TCPCA_KERNEL_WITHOUT takes the old kernels' path on
# a new one, so that the BPF copies of the kernel's functions run here too.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/netns.sh
. "$(dirname "$0")/../tools/testbed/netns.sh"
# shellcheck source=lib/flows.sh
. "$(dirname "$0")/lib/flows.sh"
need_root
time_limit 180
use_test_pin_dir
bpf_stats_on || bail_out "cannot turn on the BPF statistics: --show's hook calls would stay 0"

L=("$TCPCA_LOAD" --pin-dir "$TEST_PIN_DIR")
line=$("${L[@]}" --list | grep '^this kernel:')
like "$line" "registers by $(kernel_reg_mode);" "--list: registers by $(kernel_reg_mode) here"
if kernel_has_kfuncs; then
	like "$line" "the kernel's Reno functions \(kfuncs\)" "--list: kfuncs on $(uname -r)"
else
	like "$line" "BPF copies of the kernel's Reno functions" "--list: no kfuncs on $(uname -r)"
fi
if kernel_has_ca_setsockopt; then
	like "$line" "bpf_setsockopt$" "--list: bpf_setsockopt on $(uname -r)"
else
	like "$line" "no bpf_setsockopt" "--list: no bpf_setsockopt on $(uname -r)"
fi
like "$(TCPCA_KERNEL_WITHOUT=kfuncs,setsockopt "${L[@]}" --list | grep '^this kernel:')" \
	"BPF copies .*, no bpf_setsockopt" "--list: TCPCA_KERNEL_WITHOUT withholds both"

# calls NAME: the calls in the verified code of every hook of NAME's ops
calls() {
	local map id
	map=$("${L[@]}" --list | awk -v n="$1" '$1 == n { print $5 }')
	for id in $(bpftool struct_ops dump id "$map" | grep -o 'prog_id:[0-9]*' | cut -d: -f2); do
		bpftool prog dump xlated id "$id" | grep -o 'call [a-z_]*'
	done | sort -u | paste -sd ' '
}

C=${RUN_ID}c S=${RUN_ID}s
veth_pair "$C" "$S" || bail_out "cannot build the namespaces"

# hybla: tcp_reno_cong_avoid, tcp_reno_ssthresh and the clamp by setsockopt
for way in old new; do
	name="${RUN_ID}${way}"
	env=()
	# shellcheck disable=SC2054 # one word: the variable's value is a comma list
	[ "$way" = old ] && env=(env TCPCA_KERNEL_WITHOUT=kfuncs,setsockopt)
	"${env[@]}" "${L[@]}" --name "$name" hybla >/dev/null
	ok $? "hybla, the $way kernels' way: registers"
	got=$(calls "$name")
	if [ "$way" = old ] || ! kernel_has_kfuncs; then
		unlike "$got" "call tcp_" "hybla, the $way kernels' way: no kfunc call in its code ($got)"
	else
		like "$got" "call tcp_reno_cong_avoid" "hybla, the $way kernels' way: calls the kernel's tcp_reno_cong_avoid"
	fi
	if [ "$way" = old ] || ! kernel_has_ca_setsockopt; then
		unlike "$got" "setsockopt" "hybla, the $way kernels' way: no bpf_setsockopt in its code"
	else
		like "$got" "setsockopt" "hybla, the $way kernels' way: sets the clamp by bpf_setsockopt"
	fi
	ca=$(xfer_check "$C" "$S" 4000000 "$name")
	ok $? "hybla, the $way kernels' way: 4 MB intact"
	is "$ca" "ca=$name" "hybla, the $way kernels' way: the socket runs it"
	show=$("${L[@]}" --show "$name")
	if [ "$way" = old ] || ! kernel_has_ca_setsockopt; then
		cmp_ok "$(echo "$show" | awk '$1 == "clamp_set_failed" { print $2 }')" ">=" 1 \
			"hybla, the $way kernels' way: the clamp by min() only (clamp_set_failed)"
	else
		cmp_ok "$(echo "$show" | awk '$1 == "clamp_set" { print $2 }')" ">=" 1 \
			"hybla, the $way kernels' way: the clamp set (clamp_set)"
	fi
	cmp_ok "$(echo "$show" | awk '$1 == "cong_avoid" { print $2 }')" ">" 0 \
		"hybla, the $way kernels' way: its ACKs counted"
	"${L[@]}" --unload "$name" >/dev/null
	ok $? "hybla, the $way kernels' way: unloads"
done

# bbr needs pacing (stores to sk_pacing_rate, 6.0): registered where the
# kernel has it, refused in one line naming it where not (5.10), and where
# it is withheld; its cong_control reads rs where this kernel passes it
# (argument 3 from 6.10, 1 before: ctx + 24 or ctx + 8).
# refusal NAME WHAT [env VAR=VALUE]: loading bbr as NAME is refused
refusal() {
	local name=$1 what=$2 out
	shift 2
	out=$("$@" "${L[@]}" --name "$name" bbr 2>&1 >/dev/null)
	is "$?:$(echo "$out" | wc -l)" "1:1" "bbr $what: refused, in one line"
	like "$out" "needs stores to sk_pacing_rate and sk_pacing_status from BPF \(Linux 6\.0\)" \
		"bbr $what: the line names the missing feature and its first kernel ($out)"
	[ ! -e "$TEST_PIN_DIR/$name" ] && ! grep -qw "$name" /proc/sys/net/ipv4/tcp_available_congestion_control
	ok $? "bbr $what: nothing registered or pinned"
}
# rs_read NAME: the offset of the context read that follows the test of
# TCPCA_KF_CC_ACK_FLAG (16) in NAME's verified cong_control: the verifier
# removed the branch not taken, so one read, straight after the test
rs_read() {
	local map id
	map=$("${L[@]}" --list | awk -v n="$1" '$1 == n { print $5 }')
	for id in $(bpftool struct_ops dump id "$map" | grep -o 'prog_id:[0-9]*' | cut -d: -f2); do
		bpftool prog show id "$id" | grep -q 'name bbr_cong_contro' || continue
		bpftool prog dump xlated id "$id" | grep -v '^;' |
			awk '/&= 16$/ { f = 1; next } f && /= \*\(u64 \*\)\(r[0-9] \+[0-9]+\)/ {
				sub(/.*\+/, ""); sub(/\).*/, ""); print; exit }'
	done
}
name="${RUN_ID}bbr"
if kernel_has_ca_pacing; then
	"${L[@]}" --name "$name" bbr >/dev/null
	ok $? "bbr: registers on $(uname -r), which has pacing stores"
	ld=$(rs_read "$name")
	if kernel_has_cc_ack_flag; then
		is "$ld" 24 "bbr: cong_control reads rs as argument 3 (ctx + 24) on 6.10+, the other read gone"
	else
		is "$ld" 8 "bbr: cong_control reads rs as argument 1 (ctx + 8) before 6.10, the other read gone"
	fi
	ca=$(xfer_check "$C" "$S" 4000000 "$name")
	ok $? "bbr: 4 MB intact"
	is "$ca" "ca=$name" "bbr: the socket runs it"
	"${L[@]}" --unload "$name" >/dev/null
	refusal "${RUN_ID}bbrw" "with pacing withheld (TCPCA_KERNEL_WITHOUT=pacing)" env TCPCA_KERNEL_WITHOUT=pacing
	env TCPCA_KERNEL_WITHOUT=app_limited "${L[@]}" --name "$name" bbr >/dev/null
	ok $? "bbr: registers without app_limited stores too (the 6.1 way)"
	ca=$(xfer_check "$C" "$S" 1000000 "$name")
	ok $? "bbr, the 6.1 way: 1 MB intact"
	"${L[@]}" --unload "$name" >/dev/null
else
	refusal "$name" "on $(uname -r)" env
fi
done_testing
