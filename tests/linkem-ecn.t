#!/bin/bash
# ECN step marking (--ecn-threshold): ECT packets that find the threshold
# waiting at the bottleneck are marked CE instead of dropped, so an ECN
# sender keeps the queue near threshold / rate; Not-ECT traffic is never
# marked and fills the droptail queue as before.
. "$(dirname "$0")/lib/tap.sh"
retry_once "$@"
. "$(dirname "$0")/../tools/testbed/testbed.sh"
test_needs 50 iperf3 jq
plan 10

# 10 Mbit/s: a 1500-byte packet every 1.2 ms, so K = 20 packets is 24 ms;
# the droptail queue behind it (200 packets) is 240 ms.
K=20 K_US=24000 QUEUE=200
LINK=(--rate 10mbit --delay 5ms --queue "$QUEUE" --ecn-threshold "$K")

# ecn_sysctl VALUE: net.ipv4.tcp_ecn in this link's two namespaces (only)
ecn_sysctl() {
	ip netns exec "$TB_CLIENT_NS" sysctl -qw net.ipv4.tcp_ecn="$1" &&
	ip netns exec "$TB_SERVER_NS" sysctl -qw net.ipv4.tcp_ecn="$1"
}

# delivered_ce: the sender's TcpExt TCPDeliveredCE (segments it learnt were CE-marked)
delivered_ce() {
	# shellcheck disable=SC2016 # an awk program: its $ are awk's
	ip netns exec "$TB_CLIENT_NS" awk '/^TcpExt:/ { if (!n) { split($0, k); n = 1 } else
		for (i = 2; i <= NF; i++) if (k[i] == "TCPDeliveredCE") print $i }' /proc/net/netstat
}

# With ECN: Reno halves on each CE echo, the queue stays at the threshold
tb_link c s "${LINK[@]}" || bail_out "no link"
ecn_sysctl 1 || bail_out "cannot set tcp_ecn in the test's namespaces"
tb_flow 0 4 0 -C reno
tb_flows_wait
dce=$(delivered_ce)
tb_link_stop c
marked=$(tb_stat c .up.ce_marked) p50=$(tb_stat c .up.qdelay_us.p50) p99=$(tb_stat c .up.qdelay_us.p99)
late=$(tb_late_us c)
diag "ECN on: $marked CE marks, $(tb_stat c .up.drops.queue) tail drops, qdelay p50 $p50 us p99 $p99 us (K/rate $K_US us), sender saw $dce CE; linkem lateness $late us"
cmp_ok "$marked" '>' 10 "ECT packets above the threshold are marked CE ($marked)"
cmp_ok "${dce:-0}" '>' 0 "the sender learns of them through ECE (TCPDeliveredCE $dce)"
cmp_ok "$(tb_stat c .up.drops.queue)" '==' 0 "no tail drop: marks, not drops, keep the queue short"
cmp_ok "$p50" '<=' $((K_US * 11 / 10 + late)) "queue delay p50 $p50 us at or below K/rate ($K_US us, +10% + $late us)"
cmp_ok "$p50" '>=' $((K_US / 5)) "queue delay p50 $p50 us not far below K/rate: the link stays busy"
cmp_ok "$p99" '<=' $((K_US * 3 + late)) "queue delay p99 $p99 us within 3 K/rate (slow start's overshoot), far from the 240 ms queue"
cmp_ok "$(tb_stat c .down.ce_marked)" '==' 0 "pure ACKs (Not-ECT) are never marked"

# Without ECN in the sender: no ECT, no mark; the droptail queue fills
tb_link c2 s2 "${LINK[@]}" || bail_out "no link"
ecn_sysctl 0 || bail_out "cannot set tcp_ecn in the test's namespaces"
tb_flow 1 4 0 -C reno
tb_flows_wait
tb_link_stop c2
marked=$(tb_stat c2 .up.ce_marked) p50=$(tb_stat c2 .up.qdelay_us.p50)
diag "ECN off: $marked CE marks, $(tb_stat c2 .up.drops.queue) tail drops, qdelay p50 $p50 us"
cmp_ok "$marked" '==' 0 "Not-ECT packets are never marked"
cmp_ok "$(tb_stat c2 .up.drops.queue)" '>' 0 "they are dropped by the queue limit only"
cmp_ok "$p50" '>' $((K_US * 3)) "and fill the queue (p50 $p50 us, beyond 3 K/rate)"
