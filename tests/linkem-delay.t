#!/bin/bash
# linkem's one-way delay, seen by ping and by its own counters.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
retry_once "$@"
# shellcheck source=lib/netns.sh
. "$(dirname "$0")/lib/netns.sh"
# shellcheck source=lib/testbed.sh
. "$(dirname "$0")/lib/testbed.sh"
need_root
time_limit 40
plan 7

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
