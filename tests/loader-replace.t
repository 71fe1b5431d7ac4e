#!/usr/bin/env bash
# --replace under load: a loop of new connections that choose NAME by
# setsockopt(TCP_CONGESTION) runs through two swaps, and transfers already
# running on the old program finish intact on it.  By link (6.4+) not one
# try may fail; by map (before 6.4) the name is missing for the gap the
# loader reports, and a try that falls into it is refused with ENOENT only.
# Then every way a replace can be refused leaves the registration as it was.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/netns.sh
. "$(dirname "$0")/../tools/testbed/netns.sh"
# shellcheck source=lib/flows.sh
. "$(dirname "$0")/lib/flows.sh"
need_root
time_limit 240
use_test_pin_dir
bpf_stats_on || bail_out "cannot turn on the BPF statistics: --show's hook calls would stay 0"

L=("$TCPCA_LOAD" --pin-dir "$TEST_PIN_DIR")
C=${RUN_ID}c S=${RUN_ID}s
veth_pair "$C" "$S" || bail_out "cannot build the namespaces"
# 40 Mbit/s out of the client: the transfers outlast both swaps
tc -n "$C" qdisc add dev veth0 root tbf rate 40mbit burst 16k limit 30k

# shown NAME KEY: the value --show prints for a parameter, counter or hook
shown() { "${L[@]}" --show "$1" | awk -v k="$2" '$1 == k { print $2 }'; }
list_field() {	# list_field NAME COLUMN: a column of --list's row for NAME
	"${L[@]}" --list | awk -v n="$1" -v c="$2" '$1 == n && $NF ~ "/" n "$" { print $c }'
}
# wait_inits NAME N: until the program registered as NAME has started N
# sockets (bounded: 30 s): each program counts from zero
wait_inits() {
	local i
	for i in $(seq 300); do
		[ "$(shown "$1" init)" -ge "$2" ] 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

modes=(map)
[ "$(kernel_reg_mode)" = link ] && modes=(link map)
for by in "${modes[@]}"; do
	N=${RUN_ID}r$by port=$((20000 + RANDOM % 20000))
	stop=$(mktemp -u) churned=$(mktemp) x1=$(mktemp) x2=$(mktemp) sunk=$(mktemp)
	on_exit "rm -f '$stop' '$churned' '$x1' '$x2' '$sunk'"
	TCPCA_REGISTER_BY=$by "${L[@]}" --name "$N" vegas alpha=3 >/dev/null
	ok $? "$by: registers $N as vegas alpha=3"

	nsx "$S" timeout 200 "$XFER" sink "$SERVER_IP" "$port" 180 >"$sunk" &
	sink=$!
	xfer_check "$C" "$S" 12000000 "$N" >"$x1" &
	t1=$!
	xfer_check "$C" "$S" 12000000 "$N" >"$x2" &
	t2=$!
	# the churn's first try must find the sink listening: python starts in
	# ~0.1 s here, in seconds in a VM under TCG on a busy machine
	for _ in $(seq 300); do grep -qs listening "$sunk" && break; sleep 0.1; done
	grep -qs listening "$sunk" || bail_out "$by: the sink did not listen within 30 s"
	nsx "$C" timeout 200 "$XFER" churn "$SERVER_IP" "$port" "$N" 180 "$stop" >"$churned" &
	churn=$!
	wait_inits "$N" 20; ok $? "$by: vegas has started 20 sockets (the churn's and the transfers')"
	link_before=$(list_field "$N" 4)

	said=$("${L[@]}" --replace "$N" vegas beta=6 2>&1); ok $? "$by: replaces $N by vegas beta=6 under load"
	if [ "$by" = link ]; then
		like "$said" "^replaced '$N': vegas \(map [0-9]+\) now runs vegas \(map [0-9]+\), by link, with no gap" \
			"$by: says there was no gap"
	else
		like "$said" "note: registered by map .*'$N' was unregistered for [0-9]+\.[0-9]{3} ms" \
			"$by: says how long the name was missing"
	fi
	gaps=$(echo "$said" | grep -o 'unregistered for [0-9.]* ms' | awk '{ print $3 }')
	is "$(shown "$N" alpha) $(shown "$N" beta)" "3 6" "$by: alpha=3 carried over, beta=6 as given"
	wait_inits "$N" 10; ok $? "$by: new sockets start on the new program"

	said=$("${L[@]}" --replace "$N" reno 2>&1); ok $? "$by: replaces $N by reno"
	gaps="$gaps $(echo "$said" | grep -o 'unregistered for [0-9.]* ms' | awk '{ print $3 }')"
	is "$(list_field "$N" 2) $(list_field "$N" 6)" "reno restricted" "$by: --list: reno, still restricted"
	[ "$by" = link ] && is "$(list_field "$N" 4)" "$link_before" "$by: the same link, updated"
	wait_inits "$N" 10; ok $? "$by: and then on reno"
	touch "$stop"
	wait "$churn"
	read -r tries okc refused failed errors _ run try <"$churned"
	diag "$by: $(cat "$churned")${gaps:+; gaps said by the loader (ms): $gaps}"
	cmp_ok "${okc#ok=}" ">=" 30 "$by: the churn connected many times through both swaps"
	is "$failed" "failed=0" "$by: no connection failed once its CA was set"
	if [ "$by" = link ]; then
		is "$refused" "refused=0" "$by: no setsockopt(TCP_CONGESTION) was refused ($tries)"
	else
		like "$errors" "^errors=(-|ENOENT:[0-9]+)$" "$by: a refused setsockopt was ENOENT ($refused)"
		# the churn's clock starts a try before its setsockopt and stops
		# after it: a run of refusals may overhang the gap by a try each side
		longest=$(echo "$gaps" | tr ' ' '\n' | sort -g | tail -n 1)
		cmp_ok "${run#refused_run_ms=}" "<=" "$(awk -v g="$longest" -v t="${try#try_ms=}" \
			'BEGIN { print g + 2 * t }')" \
			"$by: refused only within the gap the loader reported ($longest ms, + 2 x $try)"
	fi
	wait "$t1"; ok $? "$by: transfer 1 in flight finished intact"
	wait "$t2"; ok $? "$by: transfer 2 in flight finished intact"
	is "$(cat "$x1") $(cat "$x2")" "ca=$N ca=$N" "$by: both on $N throughout"
	kill "$sink" 2>/dev/null; wait "$sink" 2>/dev/null
	[ ! -e "$TEST_PIN_DIR/$N/next" ]; ok $? "$by: nothing staged is left"
	"${L[@]}" --unload "$N" >/dev/null 2>&1; ok $? "$by: unloads"
done

# Refusals: each one line, non-zero, and the registration untouched.
N=${RUN_ID}rx
"${L[@]}" --name "$N" vegas alpha=3 >/dev/null || bail_out "cannot register $N"
map_before=$(list_field "$N" 5)
refuse() {	# refuse DESCRIPTION EXPECTED_LINE ARGS...
	local what=$1 want=$2 msg rc
	shift 2
	msg=$("${L[@]}" "$@" 2>&1 >/dev/null); rc=$?
	is "$rc:$msg" "1:$want" "$what: one line, exit 1"
	is "$(list_field "$N" 5):$(shown "$N" alpha)" "$map_before:3" "$what: $N unchanged"
	[ ! -e "$TEST_PIN_DIR/$N/next" ]; ok $? "$what: nothing staged is left"
}
refuse "not registered" "tcpca-load: nothing named 'nosuch$$' is registered under $TEST_PIN_DIR" \
	--replace "nosuch$$" reno
refuse "unknown algorithm" "tcpca-load: unknown algorithm 'nosuch' (tcpca-load --list shows them)" \
	--replace "$N" nosuch
refuse "bad parameter" "tcpca-load: alpha: '1x' is not a number" \
	--replace "$N" vegas alpha=1x
refuse "no algorithm" "tcpca-load: --replace needs NAME and ALG|FILE.bpf.o" --replace "$N"
refuse "bad name" "tcpca-load: invalid name '../x': 1 to 15 characters of [A-Za-z0-9_] (bpffs refuses '.' in names)" \
	--replace ../x reno
msg=$("${L[@]}" --replace "$N" "$TCPCA_ROOT/build/tests/broken.bpf.o" 2>&1 >/dev/null); rc=$?
[ $rc -ne 0 ] && [[ "$msg" == "tcpca-load: the kernel's verifier rejected "* ]]
ok $? "a program the verifier refuses: exit $rc, '${msg%%$'\n'*}'"
is "$(list_field "$N" 5):$(list_field "$N" 2)" "$map_before:vegas" "... $N still runs the old program"
[ ! -e "$TEST_PIN_DIR/$N/next" ]; ok $? "... nothing staged is left"
xfer_check "$C" "$S" 200000 "$N" >/dev/null; ok $? "... and carries a transfer"

done_testing
