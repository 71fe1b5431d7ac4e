#!/bin/bash
# One measurement cell of the benchmark: a fresh link (or veth pair), one or
# two iperf3 flows across it, tcp_probe for the senders, linkem's counters,
# CPU counters; then tools/bench/lib/reduce.py turns the raw files into
# OUTDIR/cell.json and deletes what is bulky.
#
#   cell.sh OUTDIR KIND SECONDS PORT_BASE "LINK OPTIONS" CA0 [CA1]
#
# KIND  single  one flow of CA0 over linkem
#       pair    flow 0 CA0 and flow 1 CA1 together over the same linkem
#       veth    one flow of CA0 over an unshaped veth pair (BPF cost): also
#               the flow's CPU time (accounting.sh) and, with
#               BENCH_BPF_STATS=1 and CA0 registered in BENCH_PIN_DIR, its programs'
#               run time (kernel BPF statistics), over oneway.py
# In LINK OPTIONS, {P0} and {P1} become the server ports of flows 0 and 1
# (for --port-delay).  Run by tools/bench/run under timeout(1); everything
# this creates (namespaces, linkem, iperf3, the tracefs instance) is torn
# down by tools/testbed's on_exit list on every exit path, signals included.
set -u
out=$1 kind=$2 secs=$3 port_base=$4 linkopts=$5 ca0=$6 ca1=${7:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)

. "$root/tools/testbed/testbed.sh"
. "$here/accounting.sh"

mkdir -p "$out" || exit 1
# shellcheck disable=SC2034 # both are read by testbed.sh
TB_DIR=$out			# keep everything in the cell's directory
# shellcheck disable=SC2034
TB_PORT_BASE=$port_base		# 61000+: outside the tests' and the ephemeral range
p0=$(tb_port 0) p1=$(tb_port 1)
linkopts=${linkopts//\{P0\}/$p0}
linkopts=${linkopts//\{P1\}/$p1}

# /proc/stat "cpu" line: user nice system idle iowait irq softirq steal
cpu_line() { sed -n 's/^cpu  *//p' /proc/stat; }

# Stop tcp_probe without testbed's CSV conversion: reduce.py reads the raw
# lines through the same reader (tools/testbed/tcpprobe.py), as it needs
# sock_cookie, which the CSV drops.
probe_stop() {
	echo 0 >"$TB_PROBE_INSTANCE/events/tcp/tcp_probe/enable"
	sleep 0.2
	kill "$TB_PROBE_PID" 2>/dev/null
	wait "$TB_PROBE_PID" 2>/dev/null
}

{
	echo "kind=$kind"
	echo "seconds=$secs"
	echo "ca0=$ca0"
	echo "ca1=$ca1"
	echo "port0=$p0"
	echo "port1=$p1"
	echo "linkopts=$linkopts"
	echo "loadavg_start=$(cut -d' ' -f1-3 /proc/loadavg)"
	echo "netns_count_start=$(ip netns list | wc -l)"
} >"$out/cell.env"

if [ "$kind" = veth ]; then
	TB_CLIENT_NS=$(tb_ns c) TB_SERVER_NS=$(tb_ns s)
	veth_pair "$TB_CLIENT_NS" "$TB_SERVER_NS" || { echo "veth_pair failed" >&2; exit 1; }
	# shellcheck disable=SC2317 # called through tb_wait_for
	carrier() { ip -n "$1" link show veth0 | grep -q LOWER_UP; }
	tb_wait_for 5 carrier "$TB_CLIENT_NS" && tb_wait_for 5 carrier "$TB_SERVER_NS" ||
		{ echo "veth pair has no carrier" >&2; exit 1; }
else
	# shellcheck disable=SC2086 # word splitting of the options is intended
	tb_link c s $linkopts || { echo "linkem did not start" >&2; exit 1; }
fi
# Hosts that negotiate ECN, where the scenario says so (BENCH_ECN_HOSTS, a
# data centre's): tcp_ecn=1 at both ends (iperf3 chooses its algorithm after
# connect(), so the SYN asks for ECN only by the sysctl), and the receiver
# runs CA0 too, since Linux answers an ECT SYN with ECN only from a listener
# whose algorithm needs it when that one does (DCTCP).  The bench registers
# its algorithms allowed, so they may be the server namespace's default; a
# built-in the host does not allow (cubic, here) needs no ECN and is left out.
if [ "${BENCH_ECN_HOSTS:-0}" = 1 ]; then
	ip netns exec "$TB_CLIENT_NS" sysctl -qw net.ipv4.tcp_ecn=1 &&
	ip netns exec "$TB_SERVER_NS" sysctl -qw net.ipv4.tcp_ecn=1 ||
		{ echo "cannot turn ECN on in the cell's namespaces" >&2; exit 1; }
	ip netns exec "$TB_SERVER_NS" sysctl -qw net.ipv4.tcp_congestion_control="$ca0" 2>/dev/null
	echo "receiver_ca=$(ip netns exec "$TB_SERVER_NS" sysctl -n net.ipv4.tcp_congestion_control)" >>"$out/cell.env"
fi

probes=0
[ "$kind" = pair ] && probes="0 1"
# shellcheck disable=SC2086
if [ "$kind" != veth ] && tb_probe_start $probes; then
	# senders only: the client's sockets, whose destination is a server port
	f="dport == $p0"
	[ "$kind" = pair ] && f="$f || dport == $p1"
	echo "$f" >"$TB_PROBE_INSTANCE/events/tcp/tcp_probe/filter"
	probing=1
else
	probing=0
fi

cg=0 btf=""
if [ "$kind" = veth ]; then
	cg_make && cg=1
	[ "${BENCH_BPF_STATS:-0}" = 1 ] && [ -n "${BENCH_PIN_DIR:-}" ] &&
		btf=$(prog_btf_id "$BENCH_PIN_DIR" "$ca0")
fi
snapshot() {	# snapshot start|end
	echo "cpu_$1=$(cpu_line)" >>"$out/cell.env"
	echo "t_$1=$(date +%s.%N)" >>"$out/cell.env"
	[ "$kind" = veth ] || return 0
	echo "segs_$1=$(tcp_segs "$TB_CLIENT_NS")" >>"$out/cell.env"
	[ $cg = 0 ] || echo "cg_ns_$1=$(cg_usage_ns)" >>"$out/cell.env"
	[ -z "$btf" ] || prog_stats "$btf" >"$out/progs-$1.json"
}
# With its programs' statistics counted, the flow is oneway.py's: iperf3's
# server would run CA0 on the receiving socket too.
oneway_flow() {
	local spid
	ip netns exec "$TB_SERVER_NS" timeout $((secs + 30)) \
		python3 "$here/oneway.py" recv "$SERVER_IP" "$p0" "$ca0" >"$out/flow-0.json" 2>"$out/flow-0.err" &
	spid=$!
	on_exit "kill $spid"
	tb_wait_for 5 _tb_listening "$p0" || return 1
	ip netns exec "$TB_CLIENT_NS" timeout $((secs + 20)) \
		python3 "$here/oneway.py" send "$SERVER_IP" "$p0" "$secs" "$ca0" 2>>"$out/flow-0.err" || return 1
	wait "$spid"
}
snapshot start
rc=0
[ $cg = 0 ] || cg_enter
if [ -n "$btf" ]; then
	oneway_flow || rc=1
else
	tb_flow 0 "$secs" 0 -C "$ca0" || rc=1
	if [ "$kind" = pair ]; then
		tb_flow 1 "$secs" 0 -C "$ca1" || rc=1
	fi
fi
[ $cg = 0 ] || cg_leave
tb_flows_wait || rc=1
for pid in "${TB_SERVER_PIDS[@]}"; do wait "$pid"; done	# iperf3 -s -1 ends after its one test
snapshot end
[ "$probing" = 1 ] && probe_stop
if [ "$kind" != veth ]; then
	tb_link_stop c
fi
{
	echo "loadavg_end=$(cut -d' ' -f1-3 /proc/loadavg)"
	echo "flows_rc=$rc"
} >>"$out/cell.env"

python3 "$here/reduce.py" "$out" || rc=1
exit $rc
