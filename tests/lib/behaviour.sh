# shellcheck shell=bash
# What the tests/behaviour-<alg>.t share: their setup, registering the
# algorithms, one flow alone on a fresh emulated link with its traces, the
# iterator read from the client namespace, and the search of a tcp_probe
# trace for a loss in congestion avoidance.  Source it after tap.sh and
# tools/testbed/testbed.sh (it sources them itself when they are not loaded).
# Files a test keeps per run TAG live in TB_DIR: TAG.csv, TAG.json, ...

_bh_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tap.sh
declare -F ok >/dev/null || . "$_bh_here/tap.sh"
# shellcheck source=../../tools/testbed/testbed.sh
declare -F tb_link >/dev/null || . "$_bh_here/../../tools/testbed/testbed.sh"

# bh_setup SECONDS [COMMAND...]: the start of a behaviour test.  Runs it a
# second time if the first fails (retry_once: its bounds are on timing and
# rates of a shared machine), skips it unless run as root with every
# COMMAND on PATH, kills each attempt after SECONDS,
# unloads at exit what it registers in TEST_PIN_DIR, and makes TB_DIR (named
# in a diag line when TB_KEEP keeps it).  Call it directly, not in $(...).
# Prints nothing else.
bh_setup() {
	local limit=$1
	shift
	# shellcheck disable=SC2119 # behaviour tests take no arguments
	retry_once
	test_needs "$limit" "$@"
	use_test_pin_dir
	tb_dir || bail_out "no scratch directory"
	[ -n "${TB_KEEP:-}" ] && diag "scratch: $TB_DIR"
	return 0
}

# bh_register NAME ALG [PARAM=VALUE...]: registers ./tcpca-load's algorithm
# ALG as NAME in TEST_PIN_DIR, with those tunables.  Prints nothing; the
# loader's exit status.
bh_register() {
	local name=$1 alg=$2
	shift 2
	"$TCPCA_LOAD" --pin-dir "$TEST_PIN_DIR" --name "$name" "$alg" "$@" >/dev/null
}

# bh_sockets NAME [NETNS]: the iterator lines of our algorithm NAME (one per
# socket: "src dst key=value..."), as seen from NETNS (default
# TB_CLIENT_NS, the current link's client).  Prints them.
bh_sockets() {
	nsenter --net="/run/netns/${2:-$TB_CLIENT_NS}" cat "$TEST_PIN_DIR/$1/sockets"
}

# bh_busiest: of the iterator lines on stdin, prints the client's (CLIENT_IP)
# socket with the largest cwnd: the data connection, should iperf3's control
# one show up too.  Prints nothing when there is none.
bh_busiest() {
	awk -v me="$CLIENT_IP" 'index($1, me ":") == 1 {
		for (i = 3; i <= NF; i++) if ($i ~ /^cwnd=/) c = substr($i, 6) + 0
		if (best == "" || c > bc) { best = $0; bc = c }
	} END { if (best != "") print best }'
}

# bh_sample NAME INTERVAL COUNT: samples the iterator of NAME COUNT times,
# INTERVAL seconds apart (the first after one INTERVAL), in TB_CLIENT_NS.
# Prints "I <bh_busiest's line>" per sample, I = 0..COUNT-1; nothing for a
# sample that found no socket.
bh_sample() {
	local i
	for ((i = 0; i < $3; i++)); do
		sleep "$2"
		bh_sockets "$1" | bh_busiest | sed "s/^/$i /"
	done
}

# bh_big_buffers: in the current link's namespaces, socket buffers (sender's
# tcp_wmem, receiver's tcp_rmem, up to 32 MiB) large enough that only the
# link limits the window.  Prints nothing; non-zero if a sysctl failed.
bh_big_buffers() {
	ip netns exec "$TB_CLIENT_NS" sysctl -qw net.ipv4.tcp_wmem="4096 65536 33554432" &&
	ip netns exec "$TB_SERVER_NS" sysctl -qw net.ipv4.tcp_rmem="4096 131072 33554432"
}

# bh_run CA TAG SECONDS [linkem options...]: one iperf3 flow (flow 0, -C CA)
# for SECONDS, alone on a fresh link tb_link cTAG sTAG [linkem options].
# Two hooks, each called only when the test defines the function:
#   bh_on_link CA TAG   once the link is up, before the trace and the flow
#                       start (e.g. bh_big_buffers); its failure fails the run
#   bh_during CA TAG    while the flow runs (sleep, read the iterator); its
#                       status is ignored, and it should end within SECONDS
# Leaves the sender's and receiver's tcp_probe rows in $TB_DIR/TAG.csv
# (tb_probe_stop's columns), iperf3's JSON in $TB_DIR/TAG.json, and the
# link's final counters for tb_stat cTAG.  Prints nothing; non-zero if a
# step failed.
bh_run() {
	local ca=$1 tag=$2 secs=$3
	shift 3
	tb_link "c$tag" "s$tag" "$@" || return 1
	if declare -F bh_on_link >/dev/null; then
		bh_on_link "$ca" "$tag" || return 1
	fi
	tb_probe_start 0 || return 1
	tb_flow 0 "$secs" 0 -C "$ca" || return 1
	declare -F bh_during >/dev/null && bh_during "$ca" "$tag"
	tb_flows_wait || return 1
	tb_probe_stop "$TB_DIR/$tag.csv"
	cp "${TB_FLOW_JSON[0]}" "$TB_DIR/$tag.json"
	tb_link_stop "c$tag"
	unset 'TB_FLOW_JSON[0]'
}

# bh_keep_flows TAG: stop the link cTAG and keep each flow's iperf3 JSON as
# TAG-<flow>.json, for bh_rate.
bh_keep_flows() {
	local i
	tb_link_stop "c$1"
	for i in "${!TB_FLOW_JSON[@]}"; do
		cp "${TB_FLOW_JSON[$i]}" "$TB_DIR/$1-$i.json"
	done
	TB_FLOW_JSON=()
}

# bh_rate TAG-FLOW FROM TO: that flow's mean Mbit/s at the receiver over
# [FROM, TO) s
bh_rate() {
	jq -r --argjson a "$2" --argjson b "$3" '[.server_output_json.intervals[].sum |
		select(.start >= $a and .start < $b) | .bits_per_second] |
		if length > 0 then add / length / 1e6 else 0 end' "$TB_DIR/$1.json"
}

# bh_run_blackout CA TAG SECONDS AT [linkem options...]: bh_run with a 3 ms
# blackout of the data direction (linkem --up-event ATs:down:3ms) AT seconds
# after the link is up: one scheduled loss event.  Prints a diag line of what
# linkem dropped in the blackout and at the queue; non-zero if bh_run failed.
bh_run_blackout() {
	local ca=$1 tag=$2 secs=$3 at=$4
	shift 4
	bh_run "$ca" "$tag" "$secs" "$@" --up-event "${at}s:down:3ms" || return 1
	diag "$tag: linkem dropped $(tb_stat "c$tag" .up.drops.linkdown) in the blackout, $(tb_stat "c$tag" .up.drops.queue) at the queue"
}

# bh_judged RESULT HIT: whether a control flow of bh_run_blackout can be
# judged: it found a loss in congestion avoidance (RESULT not empty or
# "none"), or the blackout dropped some of its packets (HIT > 0), so that
# finding none is its failure.  A flow the blackout dropped nothing of (after
# the start-up's losses it was still in a timeout's slow start, its few
# packets a burst per RTT, or the machine stalled it; seen only on a loaded
# machine) has no loss to judge, and its checks skip with BH_UNJUDGED.
# shellcheck disable=SC2034 # read by the tests that source this
BH_UNJUDGED="the blackout dropped nothing of its flow: no loss in congestion avoidance to judge"
bh_judged() { { [ -n "$1" ] && [ "$1" != none ]; } || [ "${2:-0}" -gt 0 ]; }

# bh_control_loss WHO RESULT HIT: the first check of such a control flow:
# its loss in congestion avoidance was found, or skipped with BH_UNJUDGED.
bh_control_loss() {
	if bh_judged "$2" "$3"; then
		[ -n "$2" ] && [ "$2" != none ]; ok $? "$1: a loss in congestion avoidance after the drop"
	else
		skip_unjudged "$1: a loss in congestion avoidance after the drop" "$BH_UNJUDGED"
	fi
}

# bh_goodput TAG: prints the Mbit/s received over the whole flow of bh_run TAG.
bh_goodput() {
	jq -r '.end.sum_received.bits_per_second / 1e6' "$TB_DIR/$1.json"
}

# bh_ca_loss TAG AT AWK: runs awk over the sender's rows (src CLIENT_IP) of
# $TB_DIR/TAG.csv from bh_run, finding the first loss in congestion
# avoidance (ssthresh finite before and after) at or after AT seconds from
# the moment link cTAG came up, less 0.5 s of margin.  AWK, pattern-action
# pairs with an END, is run on each row after the search and sees
#   t (s), cw, ss (cwnd and ssthresh, segments), rtt (srtt, s) of the row;
#   from the loss on: ev = 1, te (its time), w (cwnd before it), ss_new
#   (ssthresh after it); t85, t90: s from te until cwnd, having fallen below
#   85% (90%) of w, is back at 85% (90%) of w, "-" until then;
#   last_cw, last_ss: the previous row's, end: the last row's t (in END).
# Prints what AWK prints.  tcp_probe's ssthresh is tcp_current_ssthresh()
# (see tb_probe_stop): outside recovery it follows 3/4 cwnd, so rows where
# it just does that are not losses.
bh_ca_loss() {
	awk -F, -v t_drop="$(tb_link_mono "c$1" | awk -v at="$2" '{ print $1 + at }')" \
		-v me="$CLIENT_IP" '
	NR == 1 || $2 != me { next }
	{ t = $1; cw = $6; ss = $7; rtt = $8 / 1e6; creep = int(cw / 2) + int(cw / 4) }
	!ev && last_ss != "" && ss != last_ss && last_ss < 2147483647 && ss < 2147483647 &&
	(ss < creep - 1 || ss > creep + 1) && t >= t_drop - 0.5 {
		ev = 1; te = t; w = last_cw; ss_new = ss; t85 = t90 = "-"
	}
	ev && cw < 0.85 * w { d85 = 1 }
	ev && cw < 0.9 * w { d90 = 1 }
	ev && d85 && t85 == "-" && cw >= 0.85 * w { t85 = sprintf("%.2f", t - te) }
	ev && d90 && t90 == "-" && cw >= 0.9 * w { t90 = sprintf("%.2f", t - te) }
	'"$3"'
	{ last_ss = ss; last_cw = cw; end = t }' "$TB_DIR/$1.csv"
}

# bh_losses NAME TAG [FROM_S]: the loss records (kind 1) of our algorithm
# NAME's client sockets since the last call (the ring keeps them until read),
# from FROM_S seconds after link cTAG came up on (default: all), as
# "cwnd ssthresh v2 v3" lines in $TB_DIR/TAG.loss (v2, v3: the algorithm's,
# bpf_reno's 0 0).  Prints nothing.
bh_losses() {
	local from=0
	[ -z "${3:-}" ] || from=$(tb_link_mono "c$2" | awk -v s="$3" '{ print $1 + s }')
	"$TCPCA_LOAD" --pin-dir "$TEST_PIN_DIR" --events "$1" 0.3 |
		awk -F, -v me="$CLIENT_IP:" -v from="$from" \
		'NR > 1 && index($2, me) == 1 && $4 == 1 && $1 >= from { print $8, $9, $10, $11 }' \
		>"$TB_DIR/$2.loss"
}

# bh_ratios TAG: ssthresh / cwnd of each record of bh_losses TAG, a line each.
bh_ratios() { awk '$1 > 0 { printf "%.3f\n", $2 / $1 }' "$TB_DIR/$1.loss"; }

# bh_median: the median of the numbers on stdin (tb_pct's p50: the mean of
# the middle two of an even count), "none" without any.
bh_median() { tb_pct 0.5 | awk '{ print $2 }'; }
