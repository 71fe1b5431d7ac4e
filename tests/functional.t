#!/usr/bin/env bash
# Every embedded algorithm: registers, is listed by the kernel, carries data
# intact when chosen per socket (TCP_CONGESTION) and as a namespace's default
# (only with --allow), over IPv6 too (the iterator and --events naming the
# ends as ss does), and unregisters without leaving anything behind.
# Registered both ways the kernel allows: by link (6.4+, what the loader picks
# there) and by map update (what it picks before 6.4; still accepted later).
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/netns.sh
. "$(dirname "$0")/../tools/testbed/netns.sh"
# shellcheck source=lib/flows.sh
. "$(dirname "$0")/lib/flows.sh"
need_root
time_limit 600
use_test_pin_dir
bpf_stats_on || bail_out "cannot turn on the BPF statistics: --show's hook calls would stay 0"

available() { tr '[:blank:]' '\n' < /proc/sys/net/ipv4/tcp_available_congestion_control | grep -qx "$1"; }
allowed() { tr '[:blank:]' '\n' < /proc/sys/net/ipv4/tcp_allowed_congestion_control | grep -qx "$1"; }

C=${RUN_ID}c S=${RUN_ID}s
veth_pair "$C" "$S" || bail_out "cannot build the namespaces"
veth6_pair "$C" "$S" 20mbit || bail_out "cannot build the IPv6 link"

# v6_check ALG NAME PEER: a 4 MB transfer over IPv6 (1.6 s at 20 Mbit/s),
# during which the iterator shows its socket's addresses as ss does; and
# any --events record of it names the same two ends.
v6_check() {
	local alg=$1 name=$2 peer=$3 x ssline itline ev
	XFER_TO=$SERVER_IP6 xfer_check "$C" "$S" 4000000 "$name" "$peer" >/dev/null & x=$!
	# until both see the socket, or the transfer ends (its python may take
	# seconds to start on a busy machine); 600 x 0.05 s at the most
	for _ in $(seq 600); do
		ssline=$(nsx "$C" ss -Htn state established dst "[$SERVER_IP6]" | awk '{ print $3, $4; exit }')
		itline=$(nsenter --net="/run/netns/$C" cat "$TEST_PIN_DIR/$name/sockets" |
			 awk -v c="[$CLIENT_IP6]" 'index($1, c) == 1 { print $1, $2; exit }')
		{ [ -n "$ssline" ] && [ -n "$itline" ]; } || ! kill -0 $x 2>/dev/null && break
		sleep 0.05
	done
	[ -n "$ssline" ]; ok $? "$alg: ss saw the IPv6 transfer's socket (${ssline:-none})"
	wait $x; ok $? "$alg: 4 MB intact over IPv6"
	is "$itline" "$ssline" "$alg: the iterator writes the IPv6 ends as ss does"
	ev=$($TCPCA_LOAD --pin-dir "$TEST_PIN_DIR" --events "$name" 0.3 | awk -F, 'NR > 1 { print $2, $3 }' |
	     grep -F "[$CLIENT_IP6]:" | sort -u | head -n 1)
	case $alg in
	dctcp|vegas)	# a record per window (dctcp) or RTT (vegas), every socket
		is "$ev" "${ssline:-(no socket seen)}" "$alg: --events names the IPv6 ends as ss does" ;;
	*)	[ -z "$ev" ] || is "$ev" "$ssline" "$alg: --events names the IPv6 ends as ss does" ;;
	esac
}
algs=$("$TCPCA_LOAD" --list | awk 'NR > 1 && NF == 0 { exit } NR > 1 { print $1 }')
[ -n "$algs" ] || bail_out "tcpca-load --list shows no algorithm"

kernel_by=$(kernel_reg_mode)
modes="$kernel_by"
# on a link kernel, by map forced too: on the host, not again in each VM
# (minutes under TCG)
[ "$kernel_by" = link ] && [ -z "${TCPCA_THROWAWAY_KERNEL:-}" ] && modes="link map"

for by in $modes; do
for alg in $algs; do
	name="${RUN_ID}${by:0:1}${alg:0:6}"
	forced=$([ "$by" = "$kernel_by" ] || echo "env TCPCA_REGISTER_BY=$by")
	load="$forced $TCPCA_LOAD --pin-dir $TEST_PIN_DIR --name $name"
	owner=$([ "$by" = link ] && echo link || echo ops)

	said=$($load "$alg" 2>&1 >/dev/null)
	st=$?
	# refused for a feature this kernel is older than (bbr before 6.0):
	# what it should do here (tests/loader-kernel.t checks the refusal)
	need=$(too_old_for "$said")
	if [ "$st" -ne 0 ] && [ -n "$need" ]; then
		skip "$alg by $by: registers as $name" "this kernel is older than Linux $need: $said"
		continue
	fi
	[ -z "$said" ] || diag "$said"
	ok "$st" "$alg by $by: registers as $name"
	is "$($TCPCA_LOAD --pin-dir "$TEST_PIN_DIR" --list | awk -v n="$name" '$1 == n { print $3 }')" \
		"$by" "$alg by $by: --list says so${forced:+ (forced)}"
	available "$name"; ok $? "$alg by $by: listed in tcp_available_congestion_control"
	! allowed "$name"; ok $? "$alg by $by: restricted without --allow"
	[ -e "$TEST_PIN_DIR/$name/$owner" ]; ok $? "$alg by $by: its owner ($owner) pinned in the test pin dir"

	peer=$(needs_ecn "$alg" && echo "$name")
	ca=$(xfer_check "$C" "$S" 4000000 "$name" "$peer")
	ok $? "$alg by $by: 4 MB intact when selected by setsockopt${peer:+ at both ends}"
	is "$ca" "ca=$name" "$alg by $by: the socket runs $name"
	show=$($TCPCA_LOAD --pin-dir "$TEST_PIN_DIR" --show "$name")
	ok $? "$alg by $by: --show NAME"
	is "$(echo "$show" | head -n 1 | awk '{ print $3 }')" "$alg," "$alg by $by: --show names the algorithm"
	cmp_ok "$(echo "$show" | awk '$1 == "init" { print $2 }')" ">=" 1 \
		"$alg by $by: --show counts the transfer's socket (init)"
	cmp_ok "$(echo "$show" | awk '$1 == "cong_avoid" || $1 == "cong_control" || $1 == "pkts_acked" { n += $2 } END { print n + 0 }')" ">" 0 \
		"$alg by $by: --show counts its ACKs (cong_avoid or cong_control, + pkts_acked)"
	# in a VM (minutes under TCG) over IPv6 only those whose records --events
	# checks, and reno: the path is the kernel's, the same for all
	if [ "$by" = "$kernel_by" ] && { [ -z "${TCPCA_THROWAWAY_KERNEL:-}" ] ||
	     [[ $alg =~ ^(reno|dctcp|vegas)$ ]]; }; then
		v6_check "$alg" "$name" "$peer"
	fi
	if [ -n "$peer" ]; then	# the module switches to dctcp-reno; BPF can only pick reno
		ca=$(xfer_check "$C" "$S" 1000000 "$name")
		ok $? "$alg by $by: 1 MB intact against a peer without it"
		if kernel_has_ca_setsockopt; then
			is "$ca" "ca=reno" "$alg by $by: without ECN the socket falls back to reno"
		else	# no bpf_setsockopt to switch with: dctcp-reno's rules in the program
			is "$ca" "ca=$name" "$alg by $by: without ECN the socket stays (no bpf_setsockopt before 5.15)"
		fi
	fi

	# The refusal leaks the reference the kernel took for it (tcpca-load(8),
	# BUGS): its map stays loaded until reboot.  So once per run, with Reno's
	# small object, and --unload must say so; and only on a kernel that ends
	# with the run (the 6.1 VM, tools/vm/init), so that running the tests
	# leaves the host's kernel as it was.
	refused=""
	if [ "$alg" = reno ] && [ "$by" = "$kernel_by" ] && [ -n "${TCPCA_THROWAWAY_KERNEL:-}" ]; then
		! nsx "$C" sysctl -qw net.ipv4.tcp_congestion_control="$name" 2>/dev/null
		ok $? "$alg by $by: a restricted CA cannot become a namespace default"
		refused=1
	elif [ "$alg" = reno ] && [ "$by" = "$kernel_by" ]; then
		skip "$alg by $by: a restricted CA cannot become a namespace default" \
			"the refusal leaks its map until reboot (kernel bug): checked in the VM only"
	fi

	map_id=$(bpftool -j map show pinned "$TEST_PIN_DIR/$name/ops" 2>/dev/null | jq -r .id)
	said=$($TCPCA_LOAD --pin-dir "$TEST_PIN_DIR" --unload "$name" 2>&1)
	ok $? "$alg by $by: unloads"
	! available "$name" && [ ! -e "$TEST_PIN_DIR/$name" ]
	ok $? "$alg by $by: nothing left registered or pinned"
	# Whether the refusal kept its reference is the kernel's doing: Debian's
	# 6.1.0-57 keeps it, 6.12.118 and 7.3.4 drop it.  --unload must say which.
	if [ -n "$refused" ] && bpftool map show id "${map_id:-0}" >/dev/null 2>&1; then
		like "$said" "note: '$name' is unregistered but its struct_ops map \(id $map_id\) is still loaded" \
			"$alg by $by: --unload says the refused default's map outlives it"
	elif [ -n "$refused" ]; then
		is "$said" "" "$alg by $by: --unload has nothing to say (this kernel let the refused default's map go)"
	else
		is "$said" "" "$alg by $by: --unload has nothing to say (its map is gone)"
	fi

	$load --allow "$alg" >/dev/null
	allowed "$name"; ok $? "$alg by $by: --allow makes it non-restricted"
	nsx "$C" sysctl -qw net.ipv4.tcp_congestion_control="$name"
	ok $? "$alg by $by: becomes the client namespace's default"
	ca=$(xfer_check "$C" "$S" 4000000 "" "$peer")
	ok $? "$alg by $by: 4 MB intact as the namespace default"
	is "$ca" "ca=$name" "$alg by $by: an unconfigured socket runs $name"
	nsx "$C" sysctl -qw net.ipv4.tcp_congestion_control=reno
	$TCPCA_LOAD --pin-dir "$TEST_PIN_DIR" --unload "$name"
	! available "$name"; ok $? "$alg by $by: unloads after --allow"
done
done

done_testing
