#!/usr/bin/env bash
# H-TCP on a long fat pipe (100 Mbit/s x 100 ms, buffer 0.6 BDP), side by
# side with bpf_reno and the kernel's cubic on identical links, with the
# same scheduled drop 5 s in.  At that loss H-TCP multiplies its window by
# beta = RTTmin/RTTmax (~100/160 ms with this buffer; within [0.5, 0.8], or
# 0.5 when its bandwidth switch fires), and from one second after the loss
# its increase grows as 1 + 10 (D - 1) + ((D - 1)/2)^2 per RTT: it regains
# the lost window within seconds, where Reno adds one segment per RTT.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
# shellcheck source=lib/behaviour.sh
. "$(dirname "$0")/lib/behaviour.sh"
bh_setup 90 iperf3 jq

RATE=100mbit DELAY=50ms
QUEUE=500		# packets: 0.6 BDP (BDP = 100e6 * 0.1 / 8 / 1500 = 833), 60 ms of queue
FLOW_S=11		# seconds per flow
LOSS_AT=5		# s after the link is up: a 3 ms blackout of the data direction
plan 14

HT=${RUN_ID}htcp
bh_register "$HT" htcp || bail_out "cannot register htcp"
bh_register "${RUN_ID}reno" reno || bail_out "cannot register bpf_reno"

# H-TCP's loss records (kind = the rule that set beta, v0 = cwnd, v1 = beta
# << 7, v2 = RTTmin us, v3 = RTTmax us) from --events, while its flow runs
bh_on_link() {
	bh_big_buffers || return 1
	[ "$2" = htcp ] || return 0
	"$TCPCA_LOAD" --pin-dir "$TEST_PIN_DIR" --events "$HT" $((FLOW_S + 3)) >"$TB_DIR/htcp.events" &
	EV_PID=$!
	on_exit "kill $EV_PID 2>/dev/null"
}
run() { bh_run_blackout "$1" "$2" "$FLOW_S" "$LOSS_AT" --rate $RATE --delay $DELAY --queue $QUEUE; }

# loss TAG: the first loss in congestion avoidance at or after the drop
# (bh_ca_loss): w (cwnd before), ss (ssthresh after), md = ss/w, te (when),
# t85/t90 (s back to 85/90% of w, "-": not within the trace); and the last
# reduction of that burst: a second one within 1 s, before the window grew
# back, when the blackout and the queue's overflow were two congestion events
# (the module halves twice too), tl/sl (when, ssthresh after), grown4
# (segments the window grew in the 4 s after tl: the last sample then, not the
# best, which would be the window still held in Recovery), and regained4 (the
# share of the lost window w - ss that growth is)
loss() {
	bh_ca_loss "$1" "$LOSS_AT" '
	ev && tl == "" { tl = te; sl = ss_new }
	ev && t <= te + 1 && ss < sl && (ss < creep - 1 || ss > creep + 1) { tl = t; sl = ss }
	ev && t <= tl + 4 { cw4 = cw }
	END {
		if (!ev) { print "none"; exit }
		printf "w=%d ss=%d md=%.3f te=%.3f t85=%s t90=%s tl=%.3f sl=%d grown4=%d regained4=%.3f seen=%.2f\n",
		       w, ss_new, ss_new / w, te, t85, t90, tl - te, sl, cw4 - sl, (cw4 - sl) / (w - sl), end - te
	}'
}
absdiff() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; print d < 0 ? -d : d }'; }

run "$HT" htcp || bail_out "htcp flow failed"
wait "$EV_PID" 2>/dev/null
run "${RUN_ID}reno" reno || bail_out "bpf_reno flow failed"
run cubic cubic || bail_out "cubic flow failed"

h=$(loss htcp) r=$(loss reno) c=$(loss cubic)
diag "htcp:  $h"
diag "reno:  $r"
diag "cubic: $c"
[ "$h" != none ]; ok $? "htcp: a loss in congestion avoidance after the drop"
# the controls only where the blackout reached their flows (bh_judged)
why_r="" why_c=""
bh_judged "$r" "$(tb_stat creno .up.drops.linkdown)" || why_r=$BH_UNJUDGED
bh_judged "$c" "$(tb_stat ccubic .up.drops.linkdown)" || why_c=$BH_UNJUDGED
bh_control_loss bpf_reno "$r" "$(tb_stat creno .up.drops.linkdown)"
[ "$c" != none ]; ok $? "cubic: a loss in congestion avoidance after the drop"

# H-TCP's own record of that loss: the event closest in time to it
hw=$(kv w "$h") hmd=$(kv md "$h")
e=$(awk -F, -v te="$(kv te "$h")" 'NR > 1 && $4 >= 1 && $4 <= 3 {
	d = $1 - te; if (d < 0) d = -d
	if (best == "" || d < bd) { bd = d; best = sprintf("rule=%d cwnd=%d beta=%d rtt_min_us=%d rtt_max_us=%d dt=%.3f", $4, $8, $9, $10, $11, d) }
} END { print best }' "$TB_DIR/htcp.events")
diag "htcp's record of it: ${e:-none} ($(($(wc -l <"$TB_DIR/htcp.events") - 1)) losses recorded)"
beta=$(awk -v b="$(kv beta "$e")" 'BEGIN { printf "%.3f", b / 128 }')
cmp_ok "$hw" '>=' 700 "htcp: the window at the loss is near the pipe's 1333 segments (${hw})"
cmp_ok "$(absdiff "$(kv dt "$e")" 0)" '<' 0.3 "htcp: its --events record of the loss is within 0.3 s of it"
cmp_ok "$(absdiff "$hmd" "$beta")" '<' 0.02 "htcp: ssthresh/cwnd at the loss = its beta ($hmd vs $(kv beta "$e")/128 = $beta)"
awk -v m="$hmd" 'BEGIN { exit !(m >= 0.48 && m <= 0.82) }'
ok $? "htcp: the decrease is within [0.5, 0.8] ($hmd; bpf_reno 0.5)"
# beta from the RTTs when that rule applied; the RTTs within what the link allows
mn=$(kv rtt_min_us "$e") mx=$(kv rtt_max_us "$e")
if [ "$(kv rule "$e")" = 1 ]; then
	want=$(awk -v a="$mn" -v b="$mx" 'BEGIN { r = a / b; printf "%.3f", r < 0.5 ? 0.5 : r > 0.797 ? 0.797 : r }')
	cmp_ok "$(absdiff "$beta" "$want")" '<=' 0.008 "htcp: beta = RTTmin/RTTmax = $mn/$mx us -> $want (got $beta)"
else
	is "$beta" 0.500 "htcp: beta 0.5 by rule $(kv rule "$e") (2: bandwidth switch, 3: modeswitch), not from the RTTs"
fi
# RTTmin: the 100 ms path; RTTmax: at most the path plus the 60 ms queue
# plus 30 ms of host and delayed-ACK slack, plus as late as linkem ran (p99,
# both ways; 196 ms seen once on a quiet machine)
late=$(tb_late_us chtcp p99)
awk -v a="$mn" -v b="$mx" -v l="$late" 'BEGIN { exit !(a >= 99000 && a <= 115000 && b >= a && b <= 190000 + l) }'
ok $? "htcp: RTTmin $mn us and RTTmax $mx us within the link's 100..160 ms (+30 ms slack + linkem's $late us late)"

# The increase: from 1 s after the loss alpha(D) = 1 + 10 (D - 1) + ((D - 1)/2)^2
# segments per RTT; integrated to 4 s that is ~50 segment-RTTs, ~410 segments
# with the first second's at the 120-130 ms RTT this queue gives; Reno adds
# ~35.  Counted in segments from the last reduction, not as a share of the
# window lost, which a second halving makes deeper.
cmp_ok "$(kv grown4 "$h")" '>=' 300 "htcp: grows at least 300 segments in the 4 s after its last reduction ($(kv grown4 "$h"), $(kv regained4 "$h") of the window lost)"
cmp_or_skip "$why_r" "$(awk -v h="$(kv grown4 "$h")" -v r="$(kv grown4 "$r")" 'BEGIN { print h / (r > 1 ? r : 1) }')" \
	'>=' 5 "htcp grows at least 5x the segments bpf_reno does in 4 s ($(kv grown4 "$h") vs $(kv grown4 "$r"))"
ht=$(kv t90 "$h") rt=$(kv t90 "$r")
desc="htcp is back at 90% of its window after ${ht} s; bpf_reno $([ "$rt" = - ] && echo "not within $(kv seen "$r") s" || echo "after $rt s"); cubic $(kv t90 "$c") s"
if [ -z "$why_r" ]; then
	[ "$ht" != - ] && { [ "$rt" = - ] || awk -v h="$ht" -v r="$rt" 'BEGIN { exit !(r > 2 * h) }'; }
	ok $? "$desc"
else
	skip_unjudged "$desc" "$why_r"
fi
diag "bpf_reno would need ~$(awk -v w="$(kv w "$r")" 'BEGIN { printf "%.0f", 0.4 * w * 0.13 }') s at one segment per ~130 ms RTT"

cmp_or_skip "$why_r" "$(absdiff "$(kv md "$r")" 0.5)" '<' 0.03 "bpf_reno: ssthresh/cwnd at the loss = 1/2 ($(kv md "$r"))"
cmp_or_skip "$why_c" "$(absdiff "$(kv md "$c")" 0.7)" '<' 0.03 "cubic (the kernel's, as a control): ssthresh/cwnd = 0.7 ($(kv md "$c"))"
done_testing
