#!/bin/bash
# i.i.d. and Gilbert-Elliott loss, duplication, link-down events.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
retry_once "$@"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
test_needs 60 iperf3
plan 8

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { print a / b }'; }

# ~50000 UDP datagrams: 3 sigma of a 10% loss estimate is 4% of it
tb_link c s --up-loss 10% --seed 3 || bail_out "no link"
tb_flow 0 2 0 -u -b 250M -l 1000
tb_flows_wait
tb_link_stop c
n=$(tb_stat c .up.pkts_in) lost=$(tb_stat c .up.drops.loss)
p=$(ratio "$lost" "$n")
diag "i.i.d. 10%: $lost of $n lost"
cmp_ok "$n" '>=' 30000 "enough samples ($n)"
cmp_ok "$(ratio "$p" 0.10)" '>' 0.955 "i.i.d. loss rate $p >= 10% - 4.5%"
cmp_ok "$(ratio "$p" 0.10)" '<' 1.045 "i.i.d. loss rate $p <= 10% + 4.5%"

# Gilbert-Elliott: p = 1% good->bad, r = 25% bad->good, all lost when bad:
# loss = p / (p + r) = 3.85%, bursts of 1/r = 4 packets on average
tb_link c2 s2 --up-gilbert 1%,25% --seed 5 --up-log "$TB_DIR/ge" || bail_out "no link"
tb_flow 1 2 0 -u -b 250M -l 1000
tb_flows_wait
tb_link_stop c2
n=$(tb_stat c2 .up.pkts_in) lost=$(tb_stat c2 .up.drops.loss)
p=$(ratio "$lost" "$n")
# an ingress drop is logged right after its arrival: "+" then "d"
burst=$(awk '$2 == "+" { if (seen && !dropped && run) { runs++; sum += run; run = 0 }
		seen = 1; dropped = 0 }
	$2 == "d" { dropped = 1; run++ }
	END { print runs ? sum / runs : 0 }' "$TB_DIR/ge")
diag "Gilbert-Elliott: $lost of $n lost, mean burst $burst"
cmp_ok "$(ratio "$p" 0.0385)" '>' 0.85 "GE loss rate $p near 3.85%"
cmp_ok "$(ratio "$p" 0.0385)" '<' 1.15 "GE loss rate $p near 3.85%"
cmp_ok "$burst" '>' 3.2 "GE losses come in bursts (mean $burst, i.i.d. would be ~1)"

# the link goes down for 500 ms at t = 1 s: 50 of the 10-ms echoes vanish
tb_link c3 s3 --event 1s:down:500ms --up-dup 20% || bail_out "no link"
r=$(tb_ping 200 0.01)
tb_link_stop c3
down=$(tb_stat c3 .up.drops.linkdown)
diag "link down 500 ms: $r; linkdown drops $down"
cmp_ok "$(awk -v x="$(kv received "$r")" 'BEGIN { d = 150 - x; print d < 0 ? -d : d }')" '<=' 2 \
	"500 ms blackout loses 50 of 200 echoes"
dups=$(tb_stat c3 .up.dups) in=$(tb_stat c3 .up.pkts_in)
cmp_ok "$dups" '>' 0 "20% duplication made $dups copies of $in"
