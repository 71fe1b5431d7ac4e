#!/usr/bin/env bash
# bpf_reno on live connections: ss -ti names it, the iterator lists the flow,
# counters move, and unloading it mid-transfer breaks nothing.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/netns.sh
. "$(dirname "$0")/../tools/testbed/netns.sh"
# shellcheck source=lib/flows.sh
. "$(dirname "$0")/lib/flows.sh"
need_root
time_limit 120
use_test_pin_dir
bpf_stats_on || bail_out "cannot turn on the BPF statistics: --show's hook calls would stay 0"

L=("$TCPCA_LOAD" --pin-dir "$TEST_PIN_DIR")
N="${RUN_ID}reno"
C=${RUN_ID}c S=${RUN_ID}s
veth_pair "$C" "$S" || bail_out "cannot build the namespaces"
# 40 Mbit/s and a 30 kB queue out of the client: a transfer lasts long enough to
# watch, and overflows the queue
tc -n "$C" qdisc add dev veth0 root tbf rate 40mbit burst 16k limit 30k

"${L[@]}" --name "$N" reno >/dev/null; ok $? "registers $N"

out=$(mktemp); on_exit "rm -f '$out'"
xfer_check "$C" "$S" 15000000 "$N" > "$out" &
xfer=$!
seen=""
for _ in $(seq 150); do	# up to ~15 s: python starts slowly in a TCG guest
	seen=$(nsx "$C" ss -tin dst "$SERVER_IP" | grep -o "$N" | head -n 1)
	[ -n "$seen" ] && break
	sleep 0.1
done
is "$seen" "$N" "ss -ti shows $N on the live flow"
sockets=$(nsenter --net="/run/netns/$C" cat "$TEST_PIN_DIR/$N/sockets")
like "$sockets" "^$CLIENT_IP:[0-9]+ $SERVER_IP:[0-9]+ ca_state=[0-9]+ cwnd=[1-9]" "the iterator lists the flow"
is "$(echo "$sockets" | grep -c .)" 1 "and only that flow"
is "$(cat "$TEST_PIN_DIR/$N/sockets")" "" "the host namespace has no socket on it"
like "$("${L[@]}" --show "$N" --netns "$C" | sed -n '/^sockets/{n;p}')" "^$CLIENT_IP:[0-9]+ $SERVER_IP:[0-9]+ " \
	"--show --netns lists it too"
msg=$("${L[@]}" --show "$N" --netns "nosuch$$" 2>&1 >/dev/null); rc=$?
[ $rc -ne 0 ] && [ "$msg" = "tcpca-load: cannot enter network namespace /run/netns/nosuch$$: No such file or directory" ]
ok $? "--show --netns of a namespace that does not exist: one line, non-zero exit"

# the flow may be seconds old or a few ACKs old when ss first sees it: wait
# (bounded) for the counter to pass 10 rather than read it once
for _ in $(seq 100); do
	show=$("${L[@]}" --show "$N")
	[ "$(echo "$show" | awk '$1 == "cong_avoid" { print $2 }')" -gt 10 ] 2>/dev/null && break
	sleep 0.1
done
cmp_ok "$(echo "$show" | awk '$1 == "init" { print $2 }')" ">=" 1 "--show counts the socket's init"
cmp_ok "$(echo "$show" | awk '$1 == "cong_avoid" { print $2 }')" ">" 10 "and its ACKs"

for _ in $(seq 100); do	# the 40 Mbit/s queue overflows: wait for a loss
	"${L[@]}" --show "$N" | awk '$1 == "losses" && $2 > 0 { f = 1 } END { exit !f }' && break
	sleep 0.1
done
show=$("${L[@]}" --show "$N")
losses=$(echo "$show" | awk '$1 == "losses" { print $2 }')
cmp_ok "$losses" ">" 0 "--show counts the loss (losses)"
# the counter is read before the hooks' run_cnt: a loss between the two
# makes run_cnt the larger
cmp_ok "$(echo "$show" | awk '$1 == "ssthresh" { print $2 }')" ">=" "$losses" \
	"the kernel's run_cnt of ssthresh agrees"
events=$("${L[@]}" --events "$N" 0.3)
like "$(echo "$events" | sed -n 2p)" "^[0-9]+\.[0-9]+,$CLIENT_IP:[0-9]+,$SERVER_IP:[0-9]+,1,[0-9]+,[0-9]+,[0-9]+,[0-9]+,[0-9]+," \
	"--events records the loss (kind 1)"

said=$("${L[@]}" --unload "$N" 2>&1); ok $? "unloads while the transfer runs"
# a socket still on it after --unload returned held its map all along
if nsx "$C" ss -tin dst "$SERVER_IP" | grep -q "$N"; then
	like "$said" "note: '$N' is unregistered but its struct_ops map .* sockets still running it" \
		"--unload says the running socket keeps its map"
else
	skip "--unload says the running socket keeps its map" "the transfer had ended when --unload returned"
fi
! grep -qw "$N" /proc/sys/net/ipv4/tcp_available_congestion_control
ok $? "no longer registered"
wait $xfer; ok $? "the transfer still completes intact"
is "$(cat "$out")" "ca=$N" "on the algorithm it started with"

done_testing
