#!/usr/bin/env bash
# Load and faults, per algorithm: 200 concurrent connections of 50 kB each
# (tools/xfer send-many, every stream checked byte for byte at the far end)
# through linkem with 1 % loss, 2 % reordering, 1 % duplication and a
# 300 ms blackout (1 s after the first SYN), and the algorithm unloaded while
# they are in flight.
# Every stream must arrive intact and every socket keep its algorithm to
# the end (a socket holds its ops until it closes); afterwards nothing of
# it is registered or pinned.  Counts and times are reported.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
# shellcheck source=lib/flows.sh
. "$(dirname "$0")/lib/flows.sh"
need_root
time_limit 600
use_test_pin_dir
tb_build || bail_out "cannot build linkem"

CONNS=200 BYTES=50000
# in a VM (tools/vm/init) a quarter: each connection's process work is
# ten times dearer under TCG, and the faults are the same
[ -n "${TCPCA_THROWAWAY_KERNEL:-}" ] && CONNS=50
L=("$TCPCA_LOAD" --pin-dir "$TEST_PIN_DIR")
algs=${TCPCA_TEST_ALGS:-$("$TCPCA_LOAD" --list | awk 'NR > 1 && NF == 0 { exit } NR > 1 { print $1 }')}
# in a VM, one algorithm of each way of reaching the kernel: Reno's
# functions (reno), the clamp by setsockopt (hybla), socket storage (cdg),
# ECN (dctcp), cong_control and pacing (bbr; refused before 6.0)
if [ -z "${TCPCA_TEST_ALGS:-}" ] && [ -n "${TCPCA_THROWAWAY_KERNEL:-}" ]; then
	algs=$(echo "$algs" | grep -xE 'reno|hybla|cdg|dctcp|bbr')
fi
[ -n "$algs" ] || bail_out "tcpca-load --list shows no algorithm"

registered() { grep -qw "$1" /proc/sys/net/ipv4/tcp_available_congestion_control; }

i=0 lost=0 down=0 dups=0
for alg in $algs; do
	i=$((i + 1))
	name="${RUN_ID}f${alg:0:6}"
	if ! said=$("${L[@]}" --name "$name" "$alg" 2>&1 >/dev/null); then
		need=$(too_old_for "$said")	# bbr before 6.0: refused, as it should be
		if [ -n "$need" ]; then
			skip "$alg: registers" "this kernel is older than Linux $need: $said"
		else
			fail "$alg: registers"; diag "$said"
		fi
		continue
	fi
	tb_link "c$i" "s$i" --rate 50mbit --delay 10ms --queue 300 --loss 1% --reorder 2% \
		--dup 1% --event +1s:down:300ms --seed "$i" || bail_out "no link"
	t_up=$(date +%s.%N)
	srv="$TB_DIR/serve-$i" snd="$TB_DIR/send-$i" peer=$(needs_ecn "$alg" && echo "$name")
	nsx "$TB_SERVER_NS" timeout 150 "$XFER" serve-many "$SERVER_IP" "$(tb_port 0)" "$CONNS" "$BYTES" \
		${peer:+"$peer"} >"$srv" 2>&1 &
	spid=$!
	on_exit "kill $spid"
	tb_wait_for 5 grep -qs listening "$srv" || bail_out "$alg: no receiver"
	nsx "$TB_CLIENT_NS" timeout 150 "$XFER" send-many "$SERVER_IP" "$(tb_port 0)" "$CONNS" "$BYTES" \
		"$name" >"$snd" 2>&1 &
	cpid=$!
	on_exit "kill $cpid"
	# unload once every socket has it and data is moving
	tb_wait_for 30 grep -qs started "$snd"
	t_start=$(date +%s.%N)
	sleep 0.5
	"${L[@]}" --unload "$name"
	ok $? "$alg: unloaded with $CONNS connections in flight"
	wait "$cpid" "$spid"
	tb_link_stop "c$i"
	s=$(tail -n 1 "$srv") c=$(tail -n 1 "$snd")
	diag "$alg: started $(awk -v a="$t_up" -v b="$t_start" 'BEGIN { printf "%.2f", b - a }') s after the link; sender: $c; receiver: $s; linkem: $(tb_stat "c$i" .up.drops.loss) lost," \
		"$(tb_stat "c$i" .up.drops.linkdown) in the blackout, $(tb_stat "c$i" .up.dups) duplicated"
	is "$(kv intact "$s") $(kv bad "$s")" "$CONNS 0" "$alg: all $CONNS streams arrived intact"
	is "$(kv "done" "$c") $(kv failed "$c")" "$CONNS 0" "$alg: all $CONNS senders saw their stream through"
	if [ -n "$peer" ]; then
		# a SYN resent after the blackout carries no ECN (tcp_ecn_fallback), and
		# without ECN the socket goes to reno, as the module goes to dctcp-reno
		fell=$(kv ca_seen "$c" | tr , '\n' | awk -F: '$1 == "reno" { print $2 }')
		is "$(( $(kv ca_kept "$c") + ${fell:-0} ))" "$CONNS" \
			"$alg: every socket ran it to the end, unloaded or not, or fell back to reno without ECN (${fell:-0})"
	else
		is "$(kv ca_kept "$c")" "$CONNS" "$alg: every socket ran it to the end, unloaded or not"
	fi
	lost=$((lost + $(tb_stat "c$i" .up.drops.loss))) down=$((down + $(tb_stat "c$i" .up.drops.linkdown)))
	dups=$((dups + $(tb_stat "c$i" .up.dups)))
	! registered "$name"; ok $? "$alg: no longer registered"
	is "$(ls -A "$TEST_PIN_DIR" 2>/dev/null)" "" "$alg: nothing pinned"
done
# the faults happened (over all links: a link whose streams all ended within
# 1 s of the first SYN met no blackout)
cmp_ok "$lost" '>' 0 "linkem lost packets"
cmp_ok "$down" '>' 0 "linkem's blackout dropped packets"
cmp_ok "$dups" '>' 0 "linkem duplicated packets"

done_testing
