#!/bin/bash
# linkem's one-way delay, seen by ping and by its own counters.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
retry_once "$@"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
test_needs 60
plan 9

tb_link c s --delay 20ms || bail_out "no link"
r=$(tb_ping 300 0.01)
diag "20 ms each way: $r"
cmp_ok "$(kv received "$r")" == 300 "no echo lost on a lossless link"
tb_link_stop c
p50=$(kv rtt_p50_ms "$r")
# 0.25 ms: two crossings of user space plus ICMP handling (a 5% error would
# be 2 ms), and what linkem says it was late itself
slack=$(awk -v l="$(tb_late_us c p50)" 'BEGIN { print 0.25 + l / 1000 }')
cmp_ok "$(awk -v x="$p50" 'BEGIN { print (x > 40 ? x - 40 : 40 - x) }')" '<' "$slack" \
	"ping median RTT $p50 ms is 2 x 20 ms within $slack ms"
owd=$(tb_stat c .up.owd_us.p50)
slack=$(awk -v l="$(tb_stat c .up.lateness_us.p50)" 'BEGIN { print 100 + l }')
cmp_ok "$(awk -v x="$owd" 'BEGIN { x -= 20000; print x < 0 ? -x : x }')" '<' "$slack" \
	"emulator one-way delay median $owd us is 20 ms within 100 us + its lateness ($slack us)"

# seen from outside: a UDP echo through user space at both ends across the
# link, against the same echo over a plain veth pair in the same run; what
# the link adds beyond its 2 x 20 ms must stay within 0.1 ms each way, plus
# what linkem says it was late itself
udp_echo() {	# udp_echo CLIENT_NS SERVER_NS: lkping's summary of 300 echoes
	local spid r
	ip netns exec "$2" timeout 20 "$LKPING" -l 7 &
	spid=$!
	sleep 0.2
	r=$(timeout 20 ip netns exec "$1" "$LKPING" -c 300 -i 0.01 -u 7 "$SERVER_IP")
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	echo "$r"
}
veth_pair "$(tb_ns v1)" "$(tb_ns v2)" || bail_out "no veth pair"
base=$(kv rtt_p50_ms "$(udp_echo "$(tb_ns v1)" "$(tb_ns v2)")")
outside_delay() {	# outside_delay LINK WHAT: judge an echo across LINK
	local r extra slack
	r=$(udp_echo "$TB_CLIENT_NS" "$TB_SERVER_NS")
	tb_link_stop "$1"
	diag "UDP echo, $2: veth p50 $base ms; across 20 ms each way: $r"
	extra=$(awk -v x="$(kv rtt_p50_ms "$r")" -v b="$base" 'BEGIN { printf "%.3f", x - b - 40 }')
	slack=$(awk -v l="$(tb_late_us "$1" p50)" 'BEGIN { print 0.2 + l / 1000 }')
	cmp_ok "$(awk -v x="$extra" 'BEGIN { print x < 0 ? -x : x }')" '<' "$slack" \
		"$2: UDP echo RTT beyond veth's and 2 x 20 ms: $extra ms, within 2 x 0.1 ms + linkem's lateness ($slack ms)"
}
tb_link c3 s3 --delay 20ms || bail_out "no link"
outside_delay c3 "a thread per direction"
tb_link c4 s4 --delay 20ms --threads 1 || bail_out "no link"
outside_delay c4 "one thread for both"

# asymmetric, and jitter that keeps order: the median stays put
tb_link c2 s2 --up-delay 5ms --down-delay 15ms --up-jitter 2ms || bail_out "no link"
r=$(tb_ping 300 0.01 -v)
tb_link_stop c2
p50=$(kv rtt_p50_ms "$(echo "$r" | tail -1)")
slack=$(awk -v l="$(tb_late_us c2 p50)" 'BEGIN { print 0.6 + l / 1000 }')
cmp_ok "$(awk -v x="$p50" 'BEGIN { print (x > 20 ? x - 20 : 20 - x) }')" '<' "$slack" \
	"5 ms up + 15 ms down + 2 ms jitter: median RTT $p50 ms is 20 ms within $slack ms"
# echoes were sent 10 ms apart, jitter is +-2 ms: order must hold
seqs=$(echo "$r" | sed -n 's/^seq=\([0-9]*\).*/\1/p')
is "$(echo "$seqs" | sort -n | tr '\n' ' ')" "$(echo "$seqs" | tr '\n' ' ')" \
	"replies arrive in order under jitter"
p99=$(tb_stat c2 .up.owd_us.p99)
max=$((7200 + $(jq -r '.up.lateness_us.p99 | ceil' "${TB_LINK_STATS[c2]}")))
cmp_ok "$p99" '<=' "$max" "jitter bounded: p99 one-way $p99 us <= 5 + 2 ms + linkem's lateness p99 ($max us)"
cmp_ok "$p99" '>=' 6500 "jitter applied: p99 one-way $p99 us >= 6.5 ms"
