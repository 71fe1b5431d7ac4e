# shellcheck shell=bash
# Integrity-checked transfers between the namespaces of veth_pair (netns.sh).

XFER="$TCPCA_ROOT/tools/xfer"

# needs_ecn ALG: the algorithm is flagged TCP_CONG_NEEDS_ECN, so its peer
# must run one too: Linux answers an ECT SYN with ECN only from a listener
# whose CA needs it (tcp_ecn_create_request), and without ECN it falls back.
needs_ecn() { [ "$1" = dctcp ]; }

# xfer_check CLIENT_NS SERVER_NS BYTES [CA [SERVER_CA]]: send BYTES, print
# the sender's "ca=NAME" and return 0 only if the receiver's hash and count
# match the sender's.  To SERVER_IP, or to XFER_TO (e.g. SERVER_IP6) if set.
xfer_check() {
	local c=$1 s=$2 bytes=$3 ca=${4:-} sca=${5:-} port=$((20000 + RANDOM % 20000))
	local SERVER_IP=${XFER_TO:-$SERVER_IP}
	local out got sent
	out=$(mktemp)
	on_exit "rm -f '$out'"
	nsx "$s" timeout 60 "$XFER" serve "$SERVER_IP" "$port" ${sca:+"$sca"} > "$out" &
	local srv=$!
	for _ in $(seq 50); do grep -q listening "$out" && break; sleep 0.05; done
	sent=$(nsx "$c" timeout 60 "$XFER" send "$SERVER_IP" "$port" "$bytes" ${ca:+"$ca"}) || { kill "$srv" 2>/dev/null; return 1; }
	wait "$srv"
	got=$(grep bytes= "$out")
	echo "${sent##* }"
	[ -n "$got" ] && [ "${sent% ca=*}" = "$got" ]
}

# bpf_stats_on: the kernel's BPF statistics on until the test exits, so that
# --show's hook calls (each program's run_cnt, counted only while they are
# on) count the transfers.  Held by build/bench/bpf-stats-on, a
# BPF_ENABLE_STATS descriptor: the kernel counts the holders, so tests side
# by side and the bench nest, and whatever ends the test ends it.  Without
# that helper, kernel.bpf_stats_enabled is set to 1 and put back at exit: a
# global switch, harmless (a few ns per program run) but not nested, so a
# test beside it may see it go off early.  Non-zero if neither works: the
# counts would stay 0, and a test must not pass on them.
bpf_stats_on() {
	local helper=$TCPCA_ROOT/build/bench/bpf-stats-on said pid old i
	if [ -x "$helper" ]; then
		said=$(mktemp)
		"$helper" >"$said" 2>&1 &
		pid=$!
		on_exit "kill $pid; rm -f '$said'"
		for ((i = 0; i < 50; i++)); do
			grep -qx on "$said" && return 0
			kill -0 $pid 2>/dev/null || break
			sleep 0.1
		done
		diag "bpf-stats-on: $(cat "$said")"
		return 1
	fi
	old=$(cat /proc/sys/kernel/bpf_stats_enabled) || return 1
	on_exit "echo $old > /proc/sys/kernel/bpf_stats_enabled"
	echo 1 > /proc/sys/kernel/bpf_stats_enabled
}
