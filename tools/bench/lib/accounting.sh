# What a veth cell counts besides its flows, sourced by cell.sh:
#  - the CPU time of the cell's own processes (both iperf3s, and the ACK
#    and data processing that softirqs do on their behalf), through a
#    cgroup of its own: cgroup v2's cpu.stat, else v1's cpuacct;
#  - the run time and run count of each program of one registration of
#    ours (kernel BPF statistics, when tools/bench/run has turned them on);
#  - the client namespace's TCP segments in and out (the sender's ACKs in).
# Softirq work that the kernel defers to ksoftirqd is not in the cgroup's
# figure; this kernel has no IRQ_TIME_ACCOUNTING, so softirq work done in a
# task's context is charged to that task.

# cg_make: a fresh cgroup for this cell in CG_DIR (CG_HOME: where the cell's
# shell returns to); on_exit removes it.  Non-zero when there is none.
cg_make() {
	if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
		CG_HOME=/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/self/cgroup)
		CG_DIR=$CG_HOME/tcpca-bench-$BASHPID
	elif [ -f /sys/fs/cgroup/cpuacct/cpuacct.usage ]; then
		CG_HOME=/sys/fs/cgroup/cpuacct$(sed -n 's/^[0-9]*:\([^:]*,\)\{0,1\}cpuacct\(,[^:]*\)\{0,1\}://p' /proc/self/cgroup)
		CG_DIR=$CG_HOME/tcpca-bench-$BASHPID
	else
		return 1
	fi
	mkdir "$CG_DIR" || return 1
	on_exit cg_remove
}

# cg_enter / cg_leave: move the cell's shell (and so what it starts) in, out.
cg_enter() { echo "$BASHPID" >"$CG_DIR/cgroup.procs"; }
cg_leave() { echo "$BASHPID" >"$CG_HOME/cgroup.procs"; }

cg_remove() {	# the killed flows may take a moment to leave
	local i
	cg_leave 2>/dev/null
	for ((i = 0; i < 50; i++)); do
		rmdir "$CG_DIR" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

cg_usage_ns() {
	if [ -f "$CG_DIR/cpuacct.usage" ]; then
		cat "$CG_DIR/cpuacct.usage"
	else
		awk '$1 == "usage_usec" { printf "%d000\n", $2 }' "$CG_DIR/cpu.stat"
	fi
}

# prog_btf_id PIN_DIR NAME: the BTF of the object NAME was loaded from; its
# programs, and no one else's, carry the same BTF id.
prog_btf_id() {
	bpftool -j map show pinned "$1/$2/ops" 2>/dev/null | jq -e '.btf_id'
}

# prog_stats BTF_ID: [{name, ns, cnt}] of the programs loaded with that BTF
prog_stats() {
	bpftool -j prog show | jq -c --argjson b "$1" \
		'[.[] | select(.btf_id == $b) | {name, ns: (.run_time_ns // 0), cnt: (.run_cnt // 0)}]'
}

# tcp_segs NS: "InSegs OutSegs" of the namespace's TCP
tcp_segs() {
	ip netns exec "$1" awk '$1 == "Tcp:" && !h { for (i = 2; i <= NF; i++) c[$i] = i; h = 1; next }
		$1 == "Tcp:" { print $c["InSegs"], $c["OutSegs"] }' /proc/net/snmp
}
