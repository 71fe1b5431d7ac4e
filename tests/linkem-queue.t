#!/bin/bash
# Droptail limits in packets and bytes: the longest wait is limit / rate.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
retry_once "$@"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
test_needs 40 iperf3
plan 6

# 50 packets of 1500 bytes at 10 Mbit/s: 60 ms (+1.2 ms for the one on the wire)
tb_link c s --rate 10mbit --delay 5ms --queue 50 || bail_out "no link"
tb_flow 0 3 0 -C reno	# no HyStart: it fills the queue
tb_flows_wait
tb_link_stop c
max=$(tb_stat c .up.qdelay_us.max)
diag "queue 50 packets: max wait $max us, $(tb_stat c .up.drops.queue) tail drops"
cmp_ok "$max" '>=' 57000 "queue fills up to ~60 ms ($max us)"
cmp_ok "$max" '<=' 61500 "queue never exceeds 50 packets ($max us)"
cmp_ok "$(tb_stat c .up.drops.queue)" '>' 0 "tail drops once full"

# 30 kB = 20 full-size packets at 10 Mbit/s: 24 ms
tb_link c2 s2 --rate 10mbit --delay 5ms --queue 30kB || bail_out "no link"
tb_flow 1 3 0 -C reno
tb_flows_wait
tb_link_stop c2
max=$(tb_stat c2 .up.qdelay_us.max)
diag "queue 30 kB: max wait $max us"
cmp_ok "$max" '>=' 22500 "byte queue fills up to ~24 ms ($max us)"
cmp_ok "$max" '<=' 25200 "byte queue never exceeds 30 kB ($max us)"
cmp_ok "$(tb_stat c2 .up.drops.queue)" '>' 0 "tail drops once full"
