#!/usr/bin/env bash
# Every embedded algorithm: registers, is listed by the kernel, carries data
# intact when chosen per socket (TCP_CONGESTION) and as a namespace's default
# (only with --allow), and unregisters without leaving anything behind.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/netns.sh"
. "$(dirname "$0")/lib/flows.sh"
need_root
time_limit 240
use_test_pin_dir

available() { tr ' \t' '\n\n' < /proc/sys/net/ipv4/tcp_available_congestion_control | grep -qx "$1"; }
allowed() { tr ' \t' '\n\n' < /proc/sys/net/ipv4/tcp_allowed_congestion_control | grep -qx "$1"; }

C=${RUN_ID}c S=${RUN_ID}s
veth_pair "$C" "$S" || bail_out "cannot build the namespaces"
algs=$("$TCPCA_LOAD" --list | awk 'NR > 1 && NF == 0 { exit } NR > 1 { print $1 }')
[ -n "$algs" ] || bail_out "tcpca-load --list shows no algorithm"

for alg in $algs; do
	name="${RUN_ID}${alg:0:6}"
	load="$TCPCA_LOAD --pin-dir $TEST_PIN_DIR --name $name"

	$load "$alg" >/dev/null
	ok $? "$alg: registers as $name"
	available "$name"; ok $? "$alg: listed in tcp_available_congestion_control"
	! allowed "$name"; ok $? "$alg: restricted without --allow"
	[ -e "$TEST_PIN_DIR/$name/link" ]; ok $? "$alg: link pinned in the test pin dir"

	ca=$(xfer_check "$C" "$S" 4000000 "$name")
	ok $? "$alg: 4 MB intact when selected by setsockopt"
	is "$ca" "ca=$name" "$alg: the socket runs $name"

	! nsx "$C" sysctl -qw net.ipv4.tcp_congestion_control="$name" 2>/dev/null
	ok $? "$alg: a restricted CA cannot become a namespace default"

	$TCPCA_LOAD --pin-dir "$TEST_PIN_DIR" --unload "$name"
	ok $? "$alg: unloads"
	! available "$name" && [ ! -e "$TEST_PIN_DIR/$name" ]
	ok $? "$alg: nothing left registered or pinned"

	$load --allow "$alg" >/dev/null
	allowed "$name"; ok $? "$alg: --allow makes it non-restricted"
	nsx "$C" sysctl -qw net.ipv4.tcp_congestion_control="$name"
	ok $? "$alg: becomes the client namespace's default"
	ca=$(xfer_check "$C" "$S" 4000000)
	ok $? "$alg: 4 MB intact as the namespace default"
	is "$ca" "ca=$name" "$alg: an unconfigured socket runs $name"
	nsx "$C" sysctl -qw net.ipv4.tcp_congestion_control=reno
	$TCPCA_LOAD --pin-dir "$TEST_PIN_DIR" --unload "$name"
	! available "$name"; ok $? "$alg: unloads after --allow"
done

done_testing
