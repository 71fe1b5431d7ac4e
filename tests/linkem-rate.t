#!/bin/bash
# linkem's rate, through TCP goodput and its own delivery counters.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
retry_once "$@"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
test_needs 90 iperf3
plan 4

# TCP payload per 1500-byte packet with timestamps: 1500 - 20 - 20 - 12
PAYLOAD=$(awk 'BEGIN { print 1448 / 1500 }')

# goodput IDX: mean bit/s of flow IDX after its first second (slow start
# is the sender's, not the link's)
goodput() { jq '[.intervals[5:][] | .sum.bits_per_second] | add / length' "${TB_FLOW_JSON[$1]}"; }

# What this machine moves through linkem right now with no rate set: a
# rate it cannot reach is not linkem's to meet, and is skipped.
tb_link c0 s0 --delay 2ms --queue 200 || bail_out "no link"
tb_flow 0 3 || bail_out "no flow"
tb_flows_wait
unshaped=$(goodput 0)
tb_link_stop c0
diag "unshaped: goodput $unshaped bit/s, linkem late $(tb_late_us c0 p50) us (p50, lateness + wakeup, both ways)"

check_rate() {	# RATE_BPS LABEL IDX CLIENT
	local rate=$1 label=$2 got want r why
	want=$(awk -v r="$rate" -v p="$PAYLOAD" 'BEGIN { print r * p }')
	tb_flow "$3" 4 || return 1
	sleep 1	# the goodput skips the first second too
	tb_mark "$4"
	tb_flows_wait
	tb_link_snapshot "$4"
	got=$(goodput "$3")
	diag "$label: goodput $got bit/s, link rate x 1448/1500 = $want; link empty $(tb_empty_share "$4") of the time, linkem late $(tb_late_us "$4" p50) us (p50)"
	r=$(awk -v g="$got" -v w="$want" 'BEGIN { print g / w }')
	if awk -v u="$unshaped" -v w="$want" 'BEGIN { exit !(u < 1.25 * w) }'; then
		skip_unjudged "$label: goodput >= 97% of expected" "the machine moved only $unshaped bit/s unshaped"
		skip_unjudged "$label: goodput <= 102% of expected" "the machine moved only $unshaped bit/s unshaped"
		return 0
	fi
	# a link left without packets is short of its rate by no fault of its
	# own: 0.84-0.96 once, with a CPU hog beside it
	why=$(tb_busy_or_why "$4" 0.02)
	cmp_or_skip "$why" "$r" '>=' 0.97 "$label: goodput >= 97% of expected ($r)"
	cmp_or_skip "$why" "$r" '<=' 1.02 "$label: goodput <= 102% of expected ($r)"
}

tb_link c s --rate 20mbit --delay 5ms --queue 60 || bail_out "no link"
check_rate 20000000 "20 Mbit/s" 1 c
tb_link_stop c
tb_link c2 s2 --rate 200mbit --delay 2ms --queue 200 || bail_out "no link"
check_rate 200000000 "200 Mbit/s" 2 c2
