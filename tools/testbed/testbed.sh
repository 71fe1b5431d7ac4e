# shellcheck shell=bash
# The testbed: client netns -- linkem -- server netns, iperf3 flows across
# it, per-ACK tcp_probe traces, and the metrics/plot tools; for the tests,
# the benchmark (tools/bench), tools/fidelity and
# tools/linkem/measure-capacity.sh alike.  It sources netns.sh itself when
# that is not loaded.  Its complaints go to stderr as "# ..." lines, which
# in a TAP test are diagnostics.
#
# Design, in short:
#  - namespaces are named tcpca-$RUN_ID-<name>, so concurrent runs never
#    collide; tb_ns <name> prints the real name;
#  - linkem is a child of the calling shell: its PID cannot be reused before
#    we wait for it, so killing it by PID is safe;
#  - flows differ by server port: flow i uses port TB_PORT_BASE+i, which
#    is derived from the caller's PID so concurrent runs trace only their own
#    flows; per-flow RTTs come from linkem's --port-delay PORT:TIME;
#  - every iperf3 runs under timeout(1), every wait loop is bounded.

_tb_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=netns.sh
declare -F ns_create >/dev/null || . "$_tb_here/netns.sh"

LINKEM="$TCPCA_ROOT/tools/linkem/linkem"
LKPING="$TCPCA_ROOT/tools/linkem/lkping"
FLOWSTATS="$TCPCA_ROOT/tools/flowstats"
PLOT_FLOWS="$TCPCA_ROOT/tools/plot-flows"
TB_PORT_BASE=$((20000 + ($$ % 4000) * 10))	# 10 ports per run
TB_TRACEFS=/sys/kernel/tracing
TB_PROBE_INSTANCE="$TB_TRACEFS/instances/tcpca-$RUN_ID"

declare -A TB_LINK_PID TB_LINK_STATS TB_LINK_ERR TB_FLOW_PID TB_FLOW_JSON TB_FLOW_START
declare -A TB_LINK_UP	# CLIENT -> $EPOCHREALTIME when tb_link saw its link come up
TB_SERVER_PIDS=()

# _tb_say MESSAGE: tell the caller why something failed, on stderr
_tb_say() { printf '# %s\n' "$*" >&2; }

# tb_dir: make TB_DIR, this run's scratch directory (call it directly, not
# in $(...), so the variable sticks); TB_KEEP=1 keeps it for post-mortems.
tb_dir() {
	[ -n "${TB_DIR:-}" ] && return 0
	TB_DIR=$(mktemp -d "/tmp/tcpca-$RUN_ID.XXXXXX") || return 1
	[ -n "${TB_KEEP:-}" ] || on_exit "rm -rf '$TB_DIR'"
}

# Build linkem and lkping when they are missing (a `make clean` elsewhere)
# or older than their sources (a binary without what this file reads).
# Where there is no make (the 6.1 VM runs what the host built) or no
# sources (an installed testbed: make install-testbed), the binaries there
# are used as they are.
tb_build() {
	if [ -x "$LINKEM" ] && [ -x "$LKPING" ]; then
		command -v make >/dev/null || return 0
		[ -f "$TCPCA_ROOT/tools/linkem/Makefile" ] || return 0
		make -q -C "$TCPCA_ROOT/tools/linkem" 2>/dev/null && return 0
	fi
	make -s -C "$TCPCA_ROOT/tools/linkem" >&2
}

tb_ns() { printf 'tcpca-%s-%s\n' "$RUN_ID" "$1"; }

tb_port() { echo $((TB_PORT_BASE + ${1:-0})); }

# tb_wait_for SECONDS COMMAND...: poll every 50 ms until COMMAND succeeds.
tb_wait_for() {
	local limit=$1 i; shift
	for ((i = 0; i < limit * 20; i++)); do
		"$@" && return 0
		sleep 0.05
	done
	return 1
}

# tb_link CLIENT SERVER [linkem options...]: namespaces tb_ns CLIENT and
# tb_ns SERVER joined by linkem, client 198.18.0.1, server 198.18.0.2.
# Returns once the link is up; linkem's stderr is in TB_LINK_ERR[CLIENT],
# and tb_link_mono CLIENT tells when that was.
tb_link() {
	local c=$1 s=$2; shift 2
	local cns sns dir fifo pid line
	cns=$(tb_ns "$c") sns=$(tb_ns "$s")
	tb_build || return 1
	tb_dir || return 1
	dir=$TB_DIR
	ns_create "$cns" && ns_create "$sns" || return 1
	fifo="$dir/ready-$c"
	mkfifo "$fifo" || return 1
	TB_LINK_STATS[$c]="$dir/linkem-$c.json"
	TB_LINK_ERR[$c]="$dir/linkem-$c.err"
	"$LINKEM" --stats "${TB_LINK_STATS[$c]}" --ready-fd 3 "$@" "$cns" "$sns" \
		3>"$fifo" 2>"${TB_LINK_ERR[$c]}" </dev/null &
	pid=$!
	TB_LINK_PID[$c]=$pid
	on_exit "tb_link_stop '$c'"
	# EOF instead of "ready" means linkem exited during setup
	read -r -t 10 line <"$fifo"
	# shellcheck disable=SC2034 # for the callers: wall-clock time, as iperf3's
	TB_LINK_UP[$c]=$EPOCHREALTIME	# a builtin: costs nothing
	rm -f "$fifo"
	if [ "$line" != ready ]; then
		_tb_say "linkem did not come up: $(head -c 300 "${TB_LINK_ERR[$c]}")"
		return 1
	fi
	TB_CLIENT_NS=$cns TB_SERVER_NS=$sns
}

# tb_link_mono CLIENT: the time CLIENT's link came up, which is when
# linkem's clock for --event and --trace starts, in seconds of
# CLOCK_MONOTONIC: the clock of the time_s column of tb_probe_stop's CSV.
# linkem's own epoch, from its stats (a snapshot if it has written none yet).
tb_link_mono() {
	[ -s "${TB_LINK_STATS[$1]}" ] || tb_link_snapshot "$1" || return 1
	jq -r '.epoch_mono_s' "${TB_LINK_STATS[$1]}" | awk '{ printf "%.6f\n", $1 }'
}

# tb_link_stop CLIENT: SIGTERM linkem and wait, so its stats file is final.
tb_link_stop() {
	local pid=${TB_LINK_PID[$1]:-} i
	[ -n "$pid" ] || return 0
	kill -TERM "$pid" 2>/dev/null
	for ((i = 0; i < 60; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	TB_LINK_PID[$1]=
	return 0
}

# tb_link_snapshot CLIENT: fresh counters of a running linkem (SIGUSR1).
tb_link_snapshot() {
	local f=${TB_LINK_STATS[$1]}
	rm -f "$f"
	kill -USR1 "${TB_LINK_PID[$1]}" || return 1
	tb_wait_for 3 test -s "$f"
}

# tb_stat CLIENT JQ_PATH: one number from linkem's JSON, e.g. .up.pkts_out
tb_stat() { jq -r "$2" "${TB_LINK_STATS[$1]}"; }

# tb_late_us CLIENT [QUANTILE]: how late linkem itself ran on CLIENT's
# link, in us, at QUANTILE (p50, p99 or max; default p99): its writes
# against their due times plus its wakeups against their deadlines (the
# time a packet may sit unread), up and down added.  The slack a bound on
# that link's timing is owed.  Read the stats first (tb_link_snapshot or
# tb_link_stop).
tb_late_us() {
	jq -r --arg q "${2:-p99}" '[.up, .down | .lateness_us[$q], .wakeup_us[$q]] | add | ceil' \
		"${TB_LINK_STATS[$1]}"
}

# tb_mark CLIENT: linkem's counters now, the start of an interval that
# tb_empty_share measures
tb_mark() {
	tb_link_snapshot "$1" && cp "${TB_LINK_STATS[$1]}" "${TB_LINK_STATS[$1]}.mark"
}

# tb_empty_share CLIENT [up|down]: the share of the time since tb_mark that
# the bottleneck had nothing to send (read the stats first).  A rate is
# linkem's to keep only while it has packets: an empty link waited for a
# sender (or for linkem's own reads) that the machine held off the CPU.
tb_empty_share() {
	local f=${TB_LINK_STATS[$1]}
	jq -rn --slurpfile a "$f.mark" --slurpfile b "$f" --arg d "${2:-up}" \
		'($b[0][$d].empty_ms - $a[0][$d].empty_ms) / (($b[0].elapsed_s - $a[0].elapsed_s) * 1000)'
}

# tb_busy_or_why CLIENT MAX_SHARE [up|down]: nothing if the link was empty at
# most MAX_SHARE of the time since tb_mark, else why a rate cannot be judged
tb_busy_or_why() {
	local e
	e=$(tb_empty_share "$1" "${3:-up}")
	awk -v e="$e" -v m="$2" 'BEGIN { exit !(e > m) }' || return 0
	printf 'the link sat empty %.1f%% of the time measured (more than %s%%): the machine held its sender or linkem off the CPU\n' \
		"$(awk -v e="$e" 'BEGIN { print e * 100 }')" "$(awk -v m="$2" 'BEGIN { print m * 100 }')"
}

# tb_too_late CLIENT LIMIT_US: true, and says why, when linkem on CLIENT's
# link ran more than LIMIT_US late (p50, both ways; read the stats first):
# a bound that needs linkem on time cannot be judged in this run.  A shaped
# link's p50 was 60-70 us on a quiet machine, 80-170 us beside a CPU hog.
tb_too_late() {
	local late
	late=$(tb_late_us "$1" p50)
	[ "$late" -gt "$2" ] || return 1
	echo "linkem itself ran $late us late (p50, both ways; over $2 us): the machine is too busy to judge this"
}

# tb_ping COUNT INTERVAL [lkping args]: echoes client -> server; prints the
# key=value summary (sent, received, loss, rtt_p50_ms, ...).
tb_ping() {
	local n=$1 i=$2; shift 2
	timeout $((n * ${i%.*} + 30)) ip netns exec "$TB_CLIENT_NS" \
		"$LKPING" -c "$n" -i "$i" "$@" "$SERVER_IP"
}

# tb_pct Q...: of the numbers on stdin (one per line, any order), "N P..."
# with N their count and then each Q's percentile (pct.awk: the project's
# one definition), or "0 none..." when there are none
tb_pct() { sort -g | awk -v qs="$*" -f "$_tb_here/pct.awk"; }

# kv KEY LINE: the value of KEY in a key=value line.
kv() { printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

# tb_server INDEX [SECONDS]: an iperf3 server for one test on tb_port INDEX.
tb_server() {
	local port dir pid
	port=$(tb_port "$1")
	tb_dir || return 1
	dir=$TB_DIR
	ip netns exec "$TB_SERVER_NS" timeout "${2:-60}" \
		iperf3 -s -1 -J -i 0.2 -p "$port" >"$dir/server-$1.json" 2>&1 &
	pid=$!
	TB_SERVER_PIDS+=("$pid")
	on_exit "kill $pid; wait $pid"
	tb_wait_for 5 _tb_listening "$port"
}

_tb_listening() {
	ip netns exec "$TB_SERVER_NS" ss -Hltn "sport = :$1" | grep -q .
}

# tb_flow INDEX SECONDS [START_DELAY [iperf3 client args...]]: starts an
# iperf3 client to server INDEX in the background (e.g. -C reno); its JSON
# goes to TB_FLOW_JSON[INDEX].  Collect with tb_flows_wait.
tb_flow() {
	local idx=$1 secs=$2 start=${3:-0} dir
	shift 2
	[ $# -gt 0 ] && shift
	tb_dir || return 1
	dir=$TB_DIR
	tb_server "$idx" $((secs + ${start%.*} + 30)) || return 1
	TB_FLOW_JSON[$idx]="$dir/flow-$idx.json"
	(
		sleep "$start"
		exec ip netns exec "$TB_CLIENT_NS" timeout $((secs + 20)) \
			iperf3 -c "$SERVER_IP" -p "$(tb_port "$idx")" -t "$secs" \
			-i 0.2 -J --get-server-output "$@"
	) >"${TB_FLOW_JSON[$idx]}" 2>"$dir/flow-$idx.err" &
	TB_FLOW_PID[$idx]=$!
	TB_FLOW_START[$idx]=$start
	on_exit "kill ${TB_FLOW_PID[$idx]}"
}

# tb_flows_wait: wait for every started flow; non-zero if one failed.
tb_flows_wait() {
	local i rc=0
	for i in "${!TB_FLOW_PID[@]}"; do
		wait "${TB_FLOW_PID[$i]}" || rc=1
	done
	TB_FLOW_PID=()
	return $rc
}

# tb_flow_files: "JSON@START_DELAY" per flow, for flowstats and plot-flows
tb_flow_files() {
	local i
	for i in $(printf '%s\n' "${!TB_FLOW_JSON[@]}" | sort -n); do
		printf '%s@%s\n' "${TB_FLOW_JSON[$i]}" "${TB_FLOW_START[$i]}"
	done
}

# tb_flowstats [flowstats args]: metrics of every flow of this run
tb_flowstats() {
	local args=()
	[ -s "$TB_DIR/probe.csv" ] && args+=(--probe "$TB_DIR/probe.csv")
	# shellcheck disable=SC2046 # one word per flow: JSON@DELAY, no spaces
	"$FLOWSTATS" "${args[@]}" "$@" $(tb_flow_files)
}

# tb_plot PNG: cwnd, RTT and throughput of every flow of this run
tb_plot() {
	local args=()
	[ -s "$TB_DIR/probe.csv" ] && args+=(--probe "$TB_DIR/probe.csv")
	# shellcheck disable=SC2046 # as in tb_flowstats
	"$PLOT_FLOWS" -o "$1" "${args[@]}" $(tb_flow_files)
}

# --- tcp_probe traces through a private tracefs instance ---

_tb_tracefs() {
	[ -d "$TB_TRACEFS/instances" ] ||
		mount -t tracefs nodev "$TB_TRACEFS" 2>/dev/null
	[ -d "$TB_TRACEFS/events/tcp/tcp_probe" ]
}

# tb_probe_start INDEX...: record tcp_probe for the flows' ports.  Once
# tb_probe_stop has written the CSV, it may be called again (flows one after
# another, a trace each): the instance in use stays until exit, and the new
# call takes the next free name, tcpca-$RUN_ID-2, -3, ... in TB_PROBE_INSTANCE.
tb_probe_start() {
	local inst filter="" i port dir n
	tb_dir || return 1
	dir=$TB_DIR
	_tb_tracefs || { _tb_say "no tracefs or tcp:tcp_probe"; return 1; }
	if [ -d "$TB_PROBE_INSTANCE" ]; then
		for ((n = 2; n < 100; n++)); do
			[ -d "$TB_TRACEFS/instances/tcpca-$RUN_ID-$n" ] || break
		done
		TB_PROBE_INSTANCE="$TB_TRACEFS/instances/tcpca-$RUN_ID-$n"
	fi
	inst=$TB_PROBE_INSTANCE
	for i in "$@"; do
		port=$(tb_port "$i")
		filter="${filter:+$filter || }sport == $port || dport == $port"
	done
	mkdir "$inst" || return 1
	on_exit "_tb_probe_remove '$inst'"
	echo mono >"$inst/trace_clock"	# same clock as linkem's stamps
	echo 8192 >"$inst/buffer_size_kb"
	echo "$filter" >"$inst/events/tcp/tcp_probe/filter" || return 1
	echo 1 >"$inst/events/tcp/tcp_probe/enable"
	cat "$inst/trace_pipe" >"$dir/probe.raw" &
	TB_PROBE_PID=$!
	on_exit "kill $TB_PROBE_PID; wait $TB_PROBE_PID"
}

# An instance can only be removed once its reader has gone; retry briefly.
_tb_probe_remove() {
	local i
	echo 0 >"$1/tracing_on"
	for i in $(seq 20); do
		rmdir "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# tb_probe_stop CSV: stop tracing and write
#   time_s,src,dst,sport,dport,cwnd,ssthresh,srtt_us,snd_wnd,data_len,snd_una
# one row per tcp_probe event (about one per ACK), time_s on CLOCK_MONOTONIC,
# snd_una as the kernel's 32-bit sequence number (tcpprobe.py, the one reader
# of tcp_probe lines, writes it).
# The tracepoint's ssthresh is tcp_current_ssthresh(), not tp->snd_ssthresh:
# outside recovery (i.e. outside CA_Recovery and CA_CWR) it is
# max(ssthresh, 3/4 cwnd), so it creeps up with cwnd and a change in it is not
# by itself a loss.  The raw ssthresh must come from the iterator
# (<pin>/<name>/sockets, ssthresh=).
tb_probe_stop() {
	local inst=$TB_PROBE_INSTANCE dir=$TB_DIR
	echo 0 >"$inst/events/tcp/tcp_probe/enable"
	sleep 0.2	# let the reader drain what is buffered
	kill "$TB_PROBE_PID" 2>/dev/null
	wait "$TB_PROBE_PID" 2>/dev/null
	python3 "$_tb_here/tcpprobe.py" "$dir/probe.raw" >"$1"
}
