#!/bin/bash
# linkem's rate, through TCP goodput and its own delivery counters.
. "$(dirname "$0")/lib/tap.sh"
retry_once "$@"
. "$(dirname "$0")/lib/netns.sh"
. "$(dirname "$0")/lib/testbed.sh"
need_root
command -v iperf3 >/dev/null || skip_all "needs iperf3"
time_limit 60
plan 4

# TCP payload per 1500-byte packet with timestamps: 1500 - 20 - 20 - 12
PAYLOAD=$(awk 'BEGIN { print 1448 / 1500 }')

check_rate() {	# RATE_BPS LABEL
	local rate=$1 label=$2 got want
	tb_flow 0 4 || return 1
	tb_flows_wait
	# skip the first second: slow start is the sender's, not the link's
	got=$(jq '[.intervals[5:][] | .sum.bits_per_second] | add / length' "${TB_FLOW_JSON[0]}")
	want=$(awk -v r="$rate" -v p="$PAYLOAD" 'BEGIN { print r * p }')
	diag "$label: goodput $got bit/s, link rate x 1448/1500 = $want"
	cmp_ok "$(awk -v g="$got" -v w="$want" 'BEGIN { print g / w }')" '>=' 0.97 "$label: goodput >= 97% of expected"
	cmp_ok "$(awk -v g="$got" -v w="$want" 'BEGIN { print g / w }')" '<=' 1.02 "$label: goodput <= 102% of expected"
}

tb_link c s --rate 20mbit --delay 5ms --queue 60 || bail_out "no link"
check_rate 20000000 "20 Mbit/s"
tb_link_stop c
tb_link c2 s2 --rate 200mbit --delay 2ms --queue 200 || bail_out "no link"
check_rate 200000000 "200 Mbit/s"
