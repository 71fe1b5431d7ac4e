#!/bin/bash
# Find the highest rate linkem sustains with accurate timing on this
# machine: one TCP flow (iperf3, 4 s) per rate step over a 1 ms one-way
# delay link; a step passes when goodput >= 97% of rate x 1448/1500 and
# linkem's timing holds: the 99th percentile of how late a packet's write
# to the egress TUN came after its due time is at most 0.1 ms (queueing
# delay is the flow's doing, not an emulator error, so it is not counted).
# linkem_cores: linkem's CPU time (both threads) / the step's wall time.
#   usage: [LINKEM_CPU=N] tools/linkem/measure-capacity.sh [RATE_MBIT...]
case ${1:-} in -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
# shellcheck source=../testbed/testbed.sh
. "$(dirname "$0")/../testbed/testbed.sh"
[ "$(id -u)" -eq 0 ] || { echo "measure-capacity: needs root" >&2; exit 1; }
# utime + stime of a process, in clock ticks
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
rates=("$@")
[ ${#rates[@]} -gt 0 ] || rates=(100 200 400 600 800 1000 1200 1500)

printf '%-10s %-14s %-8s %-12s %-12s %-12s %-8s %-13s %s\n' rate_mbit goodput_mbit ratio \
	owd_p50_us late_p50_us late_p99_us retrans linkem_cores verdict
best=0 n=0
for r in "${rates[@]}"; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # LINKEM_OPTS: extra linkem options, split
	tb_link "c$n" "s$n" --rate "${r}mbit" --delay 1ms --queue 1000 ${LINKEM_OPTS:-} || exit 1
	pid=${TB_LINK_PID[c$n]}
	# LINKEM_CPU=N: both of linkem's threads on that one CPU
	[ -z "${LINKEM_CPU:-}" ] || taskset -a -p -c "$LINKEM_CPU" "$pid" >/dev/null || exit 1
	t0=$EPOCHREALTIME c0=$(cpu_ticks "$pid")
	tb_flow "$n" 4
	tb_flows_wait
	cores=$(awk -v c0="$c0" -v c1="$(cpu_ticks "$pid")" -v t0="$t0" -v t1="$EPOCHREALTIME" \
		-v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", (c1 - c0) / hz / (t1 - t0) }')
	tb_link_stop "c$n"
	got=$(jq '[.intervals[5:][] | .sum.bits_per_second] | add / length / 1e6' "${TB_FLOW_JSON[$n]}")
	retr=$(jq '.end.sum_sent.retransmits' "${TB_FLOW_JSON[$n]}")
	owd=$(tb_stat "c$n" .up.owd_us.p50)
	late=$(tb_stat "c$n" .up.lateness_us.p99)
	ratio=$(awk -v g="$got" -v r="$r" 'BEGIN { printf "%.4f", g / (r * 1448 / 1500) }')
	late50=$(tb_stat "c$n" .up.lateness_us.p50)
	verdict=$(awk -v q="$ratio" -v l="$late" 'BEGIN {
		print (q >= 0.97 && l <= 100) ? "ok" : "FAIL" }')
	printf '%-10s %-14.1f %-8s %-12s %-12s %-12s %-8s %-13s %s\n' "$r" "$got" "$ratio" "$owd" \
		"$late50" "$late" "$retr" "$cores" "$verdict"
	[ "$verdict" = ok ] && best=$r
	ip netns del "$(tb_ns "c$n")" 2>/dev/null; ip netns del "$(tb_ns "s$n")" 2>/dev/null
done
echo "highest rate sustained with accurate timing: ${best} Mbit/s"
