#!/bin/bash
# linkem's token-bucket policer (--police RATE[:BURST]): what exceeds the
# rate is dropped on arrival, never queued, so an overloaded policer
# delivers its rate; after a pause a burst of the bucket's size passes
# whole, and of a larger one only what the bucket held and the rate brought
# in meanwhile.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
retry_once "$@"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
test_needs 40 iperf3
plan 7

PKT=1500	# IP bytes of a 1472-byte UDP payload, or a 1472-byte echo
tb_dir || bail_out "no scratch directory"

# --- 1. the rate: UDP offered at 3 x a 10 Mbit/s policer (its default
# bucket, 100 KiB), judged over 1.0-2.5 s of linkem's log, when the bucket
# has long been empty
RATE=10000000 FROM=1000 TO=2500
tb_link c s --up-police 10mbit --delay 2ms --up-log "$TB_DIR/up" || bail_out "no link"
tb_flow 0 3 0 -u -b 30M -l 1472 || bail_out "no flow"
tb_flows_wait
tb_link_stop c
# bytes arriving and leaving in the window (no --rate: a packet the
# policer passes leaves the bottleneck as it arrives)
read -r offered passed <<<"$(awk -v a="$FROM" -v b="$TO" '$1 >= a && $1 < b {
	if ($2 == "+") o += $3; if ($2 == "-") p += $3 } END { print o + 0, p + 0 }' "$TB_DIR/up")"
want=$(awk -v r="$RATE" -v a="$FROM" -v b="$TO" 'BEGIN { print r / 8 * (b - a) / 1000 }')
# In an overloaded bucket the tokens at each end of the window are under
# a packet's worth, so the window passes rate x time within a packet each
# way; linkem off the CPU for L us stamps what arrived meanwhile late and
# together, which moves up to rate x L of tokens across the window's edge
# (or wastes them, once the bucket is full): that is the rest of the slack.
late=$(tb_late_us c max)
slack=$(awk -v r="$RATE" -v l="$late" -v p=$PKT 'BEGIN { print 2 * p + r / 8 * l / 1e6 }')
diag "policer 10 Mbit/s: $passed of $offered bytes offered passed in $FROM-$TO ms; rate x time $want;" \
	"slack $slack bytes (linkem late $late us, max); police drops $(tb_stat c .up.drops.police)"
why=""
awk -v o="$offered" -v w="$want" 'BEGIN { exit !(o < 2 * w) }' &&
	why="only $offered bytes offered in the window (less than twice the rate's $want): the sender was held off the CPU"
awk -v s="$slack" -v w="$want" 'BEGIN { exit !(s > 0.05 * w) }' &&
	why="linkem ran $late us late (max): a slack of $slack bytes, over 5% of the $want judged"
cmp_or_skip "$why" "$passed" '>=' "$(awk -v w="$want" -v s="$slack" 'BEGIN { print w - s }')" \
	"an overloaded policer delivers its rate: $passed >= $want - $slack bytes"
cmp_or_skip "$why" "$passed" '<=' "$(awk -v w="$want" -v s="$slack" 'BEGIN { print w + s }')" \
	"... and no more: $passed <= $want + $slack bytes"
# from the log, so that what the delay line still held at the stop counts:
# arrivals, departures from the bottleneck, police drops, other drops
read -r in out pol other <<<"$(awk '$2 == "+" { a++ } $2 == "-" { o++ }
	$2 == "d" { if ($4 == "police") p++; else x++ } END { print a + 0, o + 0, p + 0, x + 0 }' "$TB_DIR/up")"
is "$((out + pol)):$other" "$in:0" "every packet passed or was policed, none lost otherwise ($out + $pol of $in)"

# --- 2. bursts: a 1 Mbit/s policer with a bucket of 240 ms at its rate,
# 30000 bytes (20 packets); echoes sent back to back
BUCKET=30000 BPMS=125	# bytes of the bucket; bytes per ms at 1 Mbit/s
tb_link c2 s2 --up-police 1mbit:240ms --delay 2ms --up-log "$TB_DIR/burst" || bail_out "no link"
r1=$(tb_ping 20 0 -s 1472)
tb_link_snapshot c2
pol1=$(tb_stat c2 .up.drops.police)
sleep 0.5	# the bucket refills in 240 ms
r2=$(tb_ping 60 0 -s 1472)
tb_link_stop c2
diag "burst of 20 packets: $r1; police drops $pol1"
is "$(kv received "$r1"):$pol1" "20:0" "a burst of the bucket's size (20 x $PKT bytes) passes whole"
# the second burst: arrivals 21..80 of the log; a drop follows its arrival
read -r first drops span <<<"$(awk '$2 == "+" { n++; if (n == 21) t0 = $1; if (n > 20) t1 = $1 }
	$2 == "d" && $4 == "police" && n > 20 { d++; if (!f) f = n - 20 }
	END { printf "%d %d %.3f\n", f, d, t1 - t0 }' "$TB_DIR/burst")"
passed=$((60 - drops))
# what the bucket held plus what the rate brought in while the burst arrived
most=$(awk -v b=$BUCKET -v r=$BPMS -v s="$span" -v p=$PKT 'BEGIN { print int((b + r * s) / p) }')
diag "burst of 60 packets over $span ms: $r2; first drop at packet $first, $passed passed (at most $most)"
cmp_ok "$first" '>' 20 "of a larger burst, the bucket's 20 packets pass (first drop: packet $first)"
cmp_ok "$passed" '<=' "$most" "... and only what the rate refilled besides ($passed passed, at most $most)"
is "$(kv received "$r2")" "$passed" "the echoes answered are those the policer passed"
