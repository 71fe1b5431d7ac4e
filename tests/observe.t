#!/usr/bin/env bash
# Every embedded algorithm can be looked into: the pinned iterator lists
# exactly the sockets running it with plausible values (min RTT near the
# emulated 20 ms), counters move, and --set changes a tunable visibly
# (tcpca-load --show and bpftool agree).  Where the kernel registers by link,
# every other algorithm is registered by map update instead, so that both
# ways are looked into.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
retry_once "$@"
# shellcheck source=../tools/testbed/netns.sh
. "$(dirname "$0")/../tools/testbed/netns.sh"
# shellcheck source=lib/flows.sh
. "$(dirname "$0")/lib/flows.sh"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
need_root
time_limit 300
use_test_pin_dir
bpf_stats_on || bail_out "cannot turn on the BPF statistics: --show's hook calls would stay 0"

tb_link c s --rate 50mbit --delay 10ms --queue 100 || bail_out "cannot start the emulated link"
C=$(tb_ns c) S=$(tb_ns s)
L=("$TCPCA_LOAD" --pin-dir "$TEST_PIN_DIR")
algs=$("$TCPCA_LOAD" --list | awk 'NR > 1 && NF == 0 { exit } NR > 1 { print $1 }')

# counter NAME ROW: a counter or a hook's calls; 0 for a hook NAME has not
counter() { "${L[@]}" --show "$1" | awk -v k="$2" '$1 == k { n = $2 } END { print n + 0 }'; }

i=0
for alg in $algs; do
	name="${RUN_ID}${alg:0:6}"
	by=$(kernel_reg_mode); [ $((i++ % 2)) -eq 1 ] && by=map
	TCPCA_REGISTER_BY=$by "${L[@]}" --name "$name" "$alg" >/dev/null || { fail "$alg: registers by $by"; continue; }
	diag "$alg: registered by $by"

	# two transfers sharing the 50 Mbit/s bottleneck, ~3 s together (one
	# alone takes 1.6 s: the margin for a sender that starts late)
	peer=$(needs_ecn "$alg" && echo "$name")
	xfer_check "$C" "$S" 10000000 "$name" "$peer" >/dev/null & a=$!
	xfer_check "$C" "$S" 10000000 "$name" "$peer" >/dev/null & b=$!
	# both connections up (an RTT measured): on a busy machine a sender
	# may start a second late, and until its handshake ends srtt_us is 0
	lines=""
	for _ in $(seq 100); do
		lines=$(nsenter --net="/run/netns/$C" cat "$TEST_PIN_DIR/$name/sockets")
		[ "$(echo "$lines" | grep "^$CLIENT_IP" | grep -vc " srtt_us=0 ")" -eq 2 ] && break
		sleep 0.1
	done
	sleep 0.5
	lines=$(nsenter --net="/run/netns/$C" cat "$TEST_PIN_DIR/$name/sockets")
	is "$(echo "$lines" | grep -c .)" 2 "$alg: the iterator lists exactly the two sockets"
	# the minimum RTT is at least the link's 20 ms and, for a socket whose
	# handshake met the other's full queue (one sender started late on a busy
	# machine), at most 20 ms + that queue (100 packets at 50 Mbit/s: 24 ms)
	# + 5 ms + as late as linkem was itself (p99, both ways) so far
	tb_link_snapshot c
	late=$(tb_late_us c p99)
	# shellcheck disable=SC2046 # own=0 or own=1, one word
	bad=$(echo "$lines" | awk -v max=$((20000 + 24000 + 5000 + late)) '{
		for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		if (!(v["cwnd"] > 0 && v["srtt_us"] >= 20000 && v["srtt_us"] < 200000 &&
		      v["min_rtt_us"] >= 20000 && v["min_rtt_us"] < max && (NF > 7 || own == 0))) print }' \
		own=$([ "$alg" = reno ] && echo 0 || echo 1))
	desc="$alg: cwnd > 0, min RTT from the link's 20 ms to 20 ms + its full queue's 24 ms + 5 ms (+ linkem's $late us late), srtt above 20 ms, own fields shown"
	if [ "$late" -gt 20000 ]; then
		skip_unjudged "$desc" "linkem itself was $late us late: it cannot judge a 20 ms RTT"
	else
		is "$bad" "" "$desc"
	fi
	diag "$alg: $(echo "$lines" | head -n 1)"

	wait $a; ok $? "$alg: first transfer intact"
	wait $b; ok $? "$alg: second transfer intact"
	cmp_ok "$(counter "$name" init)" ">=" 2 "$alg: init counted for both sockets"
	cmp_ok "$(($(counter "$name" cong_avoid) + $(counter "$name" cong_control)))" ">" 100 \
		"$alg: ACKs counted (cong_avoid, or cong_control where it has that)"
	if [ "$alg" = vegas ]; then	# one record per RTT decision, kept until read
		cmp_ok "$("${L[@]}" --events "$name" 0.3 | grep -c "^[0-9.]*,$CLIENT_IP:[0-9]*,$SERVER_IP:[0-9]*,1,")" \
			">=" 20 "$alg: --events has its per-RTT decisions"
	fi

	# --set: move the first tunable that accepts a neighbouring value
	# shellcheck disable=SC2046 # NAME VALUE RANGE triples, one word each
	set -- $("${L[@]}" --show "$name" | awk '/^parameters:/ { p = 1; next } p && /^  / { print $1, $2, $4 } /^counters:/ { exit }')
	changed=""
	while [ $# -ge 3 ] && [ -z "$changed" ]; do
		p=$1 v=$2 range=${3#[}; hi=${range#*..}; hi=${hi%]}
		new=$((v < hi ? v + 1 : v - 1))
		"${L[@]}" --set "$name" "$p=$new" 2>/dev/null && changed="$p=$new"
		shift 3
	done
	if "${L[@]}" --show "$name" | grep -q "^parameters:"; then
		[ -n "$changed" ]; ok $? "$alg: --set $changed accepted"
		p=${changed%=*} new=${changed#*=}
		is "$("${L[@]}" --show "$name" | awk -v k="$p" '$1 == k { print $2; exit }')" "$new" "$alg: --show reports $p=$new"
		is "$(bpftool -j map dump pinned "$TEST_PIN_DIR/$name/params" | jq ".[0].formatted.value[\".data.params\"][0].params.$p")" \
			"$new" "$alg: bpftool reads $p=$new by its BTF name"
	fi
	"${L[@]}" --unload "$name"
done

done_testing
