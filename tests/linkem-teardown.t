#!/bin/bash
# Nothing survives a test: not after success, not after a signal, not
# after linkem itself is killed.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
test_needs 40 iperf3
plan 8

tb_dir
lib=$(cd "$(dirname "$0")/lib" && pwd)
testbed=$(cd "$(dirname "$0")/../tools/testbed" && pwd)

# a child test that builds a link, starts a flow and a probe, then waits
# to be killed; it prints its RUN_ID and linkem's PID first
cat >"$TB_DIR/child.sh" <<CHILD
. "$lib/tap.sh"; . "$testbed/netns.sh"; . "$testbed/testbed.sh"
tb_link c s --rate 50mbit --delay 5ms || exit 1
tb_probe_start 0
tb_flow 0 20
echo "\$RUN_ID \${TB_LINK_PID[c]} \$TB_PROBE_INSTANCE"
sleep 30 & wait
CHILD

leftovers() {	# RUN_ID LINKEM_PID PROBE_INSTANCE: what is left, one word each
	ip netns list | grep -q "tcpca-$1-" && echo netns
	kill -0 "$2" 2>/dev/null && echo linkem
	[ -d "$3" ] && echo tracefs
	pgrep -f "tcpca-$1-" >/dev/null && echo processes
	compgen -G "/tmp/tcpca-$1.*" >/dev/null && echo tmpdir
	true
}

for sig in TERM INT; do
	# a background job starts with SIGINT ignored; give it back
	env --default-signal=INT bash "$TB_DIR/child.sh" >"$TB_DIR/child.out" 2>"$TB_DIR/child.err" &
	child=$!
	on_exit "kill $child"	# should this test bail out early
	tb_wait_for 10 test -s "$TB_DIR/child.out"
	read -r rid lpid inst <"$TB_DIR/child.out"
	ok $? "child test is up (run $rid, linkem $lpid)"
	sleep 1
	kill -"$sig" "$child"
	wait "$child"
	tb_wait_for 3 test -z "$(leftovers "$rid" "$lpid" "$inst")"
	is "$(leftovers "$rid" "$lpid" "$inst" | tr '\n' ' ')" "" \
		"after SIG$sig: no namespace, linkem, tracefs instance, process or tmpdir left"
	: >"$TB_DIR/child.out"
done

# SIGKILL gives linkem no chance to clean up; the kernel removes the
# non-persistent TUN devices with its last fd anyway
tb_link c s || bail_out "no link"
cns=$TB_CLIENT_NS sns=$TB_SERVER_NS
ip -n "$cns" link show linkem0 >/dev/null
ok $? "TUN device exists while linkem runs"
kill -KILL "${TB_LINK_PID[c]}"
wait "${TB_LINK_PID[c]}" 2>/dev/null
tb_wait_for 3 eval "! ip -n '$cns' link show linkem0 >/dev/null 2>&1 && ! ip -n '$sns' link show linkem0 >/dev/null 2>&1"
ok $? "after SIGKILL no TUN device is left in either namespace"

# SIGINT is a clean exit with final counters
tb_link c2 s2 || bail_out "no link"
kill -INT "${TB_LINK_PID[c2]}"
wait "${TB_LINK_PID[c2]}"
is "$?" 0 "linkem exits 0 on SIGINT"
is "$(tb_stat c2 .final)" true "and writes its final counters"
