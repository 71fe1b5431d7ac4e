#!/bin/bash
# Mahimahi trace playback: a backlogged link delivers 1500 bytes per
# opportunity listed in the trace, in the same milliseconds.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
retry_once "$@"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
test_needs 40 iperf3
TRACE=${TCPCA_TRACES:-$TCPCA_ROOT/tools/traces}/TMobile-LTE-short.down
[ -r "$TRACE" ] || skip_all "no trace at $TRACE"
plan 4

tb_dir
# downlink: the server sends (-R) 1500-byte UDP packets faster than the trace
tb_link c s --down-trace "$TRACE" --down-log "$TB_DIR/down" || bail_out "no link"
tb_flow 0 3 0 -R -u -b 100M -l 1472
# a link left without packets falls short of the trace by no fault of its
# own (0.53 once, with a CPU hog beside it): judged only if it was busy
sleep 1
tb_mark c
sleep 1.5
tb_link_snapshot c
why=$(tb_busy_or_why c 0.01 down)
diag "the downlink sat empty $(tb_empty_share c down) of 1.0-2.5 s"
tb_flows_wait
tb_link_stop c

# compare the window 1.0 s .. 2.5 s, when the queue is surely backlogged
got=$(awk '$2 == "-" && $1 >= 1000 && $1 < 2500 { b += $3 } END { print b }' "$TB_DIR/down")
# the trace's opportunities in [1000, 2500) ms, counted by linkem's own reader
opps() { "$LINKEM" --trace-info "$TRACE" --duration "$1" | jq .window_opportunities; }
want=$(( ($(opps 2499ms) - $(opps 999ms)) * 1500 ))
diag "delivered $got bytes in 1.0-2.5 s; the trace offers $want"
r=$(awk -v g="$got" -v w="$want" 'BEGIN { print g / w }')
cmp_or_skip "$why" "$r" '>' 0.99 "delivered rate matches the trace within 1% ($r)"
cmp_or_skip "$why" "$r" '<' 1.01 "delivered rate matches the trace within 1% ($r)"

# and against the trace's mean, on a trace made here: 2 opportunities
# every 1 ms = 24 Mbit/s, delivered by TCP
printf '1\n1\n' >"$TB_DIR/24mbit"
tb_link c2 s2 --trace "$TB_DIR/24mbit" --queue 100 || bail_out "no link"
tb_flow 1 3
sleep 1
tb_mark c2
tb_flows_wait
tb_link_snapshot c2
why=$(tb_busy_or_why c2 0.02)
got=$(jq '[.intervals[5:][] | .sum.bits_per_second] | add / length' "${TB_FLOW_JSON[1]}")
r=$(awk -v g="$got" 'BEGIN { print g / (24e6 * 1448 / 1500) }')
diag "24 Mbit/s trace: TCP goodput $got bit/s"
cmp_or_skip "$why" "$r" '>' 0.97 "TCP over a 24 Mbit/s trace gets its mean ($r)"
cmp_or_skip "$why" "$r" '<' 1.02 "and no more ($r)"
