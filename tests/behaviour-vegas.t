#!/usr/bin/env bash
# Vegas on a bottleneck with a deep buffer (10 Mbit/s, RTT 20 ms, buffer
# 10 x BDP): it keeps only alpha..beta packets queued, so its RTT stays near
# the base RTT while it still fills the link; bpf_reno and cubic, measured
# the same way on identical links, fill the buffer (RTT many times the base).
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
# shellcheck source=lib/behaviour.sh
. "$(dirname "$0")/lib/behaviour.sh"
bh_setup 75 iperf3 jq

RATE=10mbit DELAY=10ms		# RTT 20 ms: BDP 25 kB = 16.7 packets of 1500 B
QUEUE=170			# packets: 10 x BDP, 204 ms of queue when full
BASE_MS=20
FLOW_S=12			# seconds per flow
SKIP_S=4			# measure RTT after start-up, from this second on
plan 14

VEGAS="${RUN_ID}vegas"
bh_register "$VEGAS" vegas || bail_out "cannot register vegas"
bh_register "${RUN_ID}reno" reno || bail_out "cannot register bpf_reno"

# run CA TAG: one flow alone on a fresh link (bh_run); the sender's tcp_probe
# trace goes to $TB_DIR/TAG.csv, iperf3's JSON to $TB_DIR/TAG.json.  For Vegas
# the iterator is sampled every 0.5 s into $TB_DIR/TAG.iter (bh_sample).
bh_during() {
	[ "$1" = "$VEGAS" ] || return 0
	bh_sample "$1" 0.5 $((FLOW_S * 2)) >>"$TB_DIR/$2.iter"
}
run() { bh_run "$1" "$2" "$FLOW_S" --rate $RATE --delay $DELAY --up-queue $QUEUE; }

# rtt TAG: "p50=<ms> p95=<ms> cwnd50=<pkts> n=<samples>" of the sender's srtt
# (tcp_probe, one sample per ACK) from SKIP_S on.  iperf3's control
# connection shares the server port: keep the busiest client port.
rtt() {
	local csv=$TB_DIR/$1.csv sport
	sport=$(awk -F, -v me="$CLIENT_IP" 'NR > 1 && $2 == me { print $4 }' "$csv" |
		sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
	awk -F, -v me="$CLIENT_IP" -v skip="$SKIP_S" -v sport="$sport" '
	NR == 1 || $2 != me || $4 != sport { next }
	t0 == "" { t0 = $1 }
	$1 - t0 >= skip { print $8 / 1000, $6 }' "$csv" >"$TB_DIR/$1.rtt"
	paste -d' ' <(cut -d' ' -f1 "$TB_DIR/$1.rtt" | tb_pct 0.5 0.95) \
		<(cut -d' ' -f2 "$TB_DIR/$1.rtt" | tb_pct 0.5) |
		awk '$1 == 0 { print "n=0"; exit } { printf "p50=%.1f p95=%.1f cwnd50=%d n=%d\n", $2, $3, $5, $1 }'
}

# qdelay P50_MS: queueing delay above the base RTT, or "none" without a sample
qdelay() { [ -n "$1" ] && awk -v p="$1" -v b=$BASE_MS 'BEGIN { print p - b }' || echo none; }

run "$VEGAS" vegas || bail_out "vegas flow failed"
run "${RUN_ID}reno" reno || bail_out "bpf_reno flow failed"
run cubic cubic || bail_out "cubic flow failed"

declare -A R G
for tag in vegas reno cubic; do
	R[$tag]=$(rtt $tag) G[$tag]=$(bh_goodput $tag)
done
diag "vegas: ${R[vegas]} goodput=${G[vegas]} Mbit/s"
diag "reno:  ${R[reno]} goodput=${G[reno]} Mbit/s"
diag "cubic: ${R[cubic]} goodput=${G[cubic]} Mbit/s"
diag "vegas state (last sample): $(tail -n 1 "$TB_DIR/vegas.iter" 2>/dev/null | cut -d' ' -f4-)"

vp50=$(kv p50 "${R[vegas]}") vp95=$(kv p95 "${R[vegas]}")
rp50=$(kv p50 "${R[reno]}") cp50=$(kv p50 "${R[cubic]}")

# Vegas: the link full (>= 85% of 10 Mbit/s) with only a few packets queued
cmp_ok "${G[vegas]}" '>=' 8.5 "vegas uses the link: goodput ${G[vegas]} Mbit/s >= 85% of 10"
cmp_ok "$(qdelay "$vp50")" '<' 10 \
	"vegas: median queueing delay below 10 ms (RTT p50 ${vp50} ms, base ${BASE_MS} ms)"
cmp_ok "$vp95" '<' $((BASE_MS + 15)) "vegas: RTT p95 ${vp95} ms stays within 15 ms of the base"

# The loss-based algorithms fill the deep buffer
cmp_ok "$(qdelay "$rp50")" '>' 50 \
	"bpf_reno fills the buffer: queueing delay > 50 ms (RTT p50 ${rp50} ms)"
cmp_ok "$(qdelay "$cp50")" '>' 50 \
	"cubic fills the buffer: queueing delay > 50 ms (RTT p50 ${cp50} ms)"
cmp_ok "${G[reno]}" '>=' 8.5 "bpf_reno uses the link too (${G[reno]} Mbit/s): the comparison is fair"
vq=$(qdelay "$vp50") rq=$(qdelay "$rp50")
cmp_ok "$(awk -v v="$vq" -v r="$rq" 'BEGIN { if (v == "none" || r == "none") print "none"; else print r / (v > 0.5 ? v : 0.5) }')" \
	'>=' 5 "vegas queues at least 5x less than bpf_reno (${vq} ms vs ${rq} ms)"

# The emulator's own view of its queue (whole flow, start-up included)
lq_v=$(tb_stat cvegas '.up.qdelay_us.p50') lq_r=$(tb_stat creno '.up.qdelay_us.p50')
ld_v=$(tb_stat cvegas '.up.drops.queue') ld_r=$(tb_stat creno '.up.drops.queue')
diag "linkem queue: vegas p50 ${lq_v} us, ${ld_v} drops; reno p50 ${lq_r} us, ${ld_r} drops"
cmp_ok "$lq_v" '<' 10000 "linkem: vegas's packets wait < 10 ms in the queue (p50 ${lq_v} us)"
cmp_ok "$lq_r" '>' 50000 "linkem: bpf_reno's packets wait > 50 ms (p50 ${lq_r} us)"
cmp_ok "$ld_v" '==' 0 "linkem: vegas never overflows the 10 x BDP buffer (${ld_v} drops; reno ${ld_r})"

# The mechanism, from the iterator: Diff within alpha..beta, BaseRTT the path's
iter=$TB_DIR/vegas.iter
n_iter=$(awk 'NR > 2*'$SKIP_S'' "$iter" | grep -c diff_pkts=)
cmp_ok "$n_iter" '>=' 10 "the iterator showed the vegas socket ($n_iter samples after ${SKIP_S} s)"
in_band=$(awk -v skip=$((2 * SKIP_S)) 'NR > skip {
	for (i = 1; i <= NF; i++) if ($i ~ /^diff_pkts=/) { split($i, a, "="); d = a[2] }
	n++; if (d <= 6) k++ } END { printf "%.2f", n ? k / n : 0 }' "$iter")
cmp_ok "$in_band" '>=' 0.8 "vegas: Diff <= beta + 2 packets in ${in_band} of the samples (alpha=2, beta=4)"
base_us=$(tail -n 1 "$iter" | tr ' ' '\n' | sed -n 's/^base_rtt_us=//p')
cmp_ok "$base_us" '<' $((BASE_MS * 1000 + 3000)) "vegas: BaseRTT ${base_us} us is the path's 20 ms (+ < 3 ms)"
cmp_ok "$base_us" '>=' $((BASE_MS * 1000)) "vegas: BaseRTT is not below the emulated delay"
done_testing
