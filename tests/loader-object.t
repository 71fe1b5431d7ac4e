#!/usr/bin/env bash
# An object built outside bpf/ is first-class when it describes its tunables
# (docs/object-convention.md): tests/bpf/outside.bpf.c, Reno with its
# decrease a tunable (beta), loads as FILE.bpf.o with beta=VALUE (a value out
# of range refused, nothing left), --show explains beta, --set changes it
# (read back from the pinned params and seen by the running program),
# --replace carries it, and tcpca.conf gives it as for an embedded
# algorithm.  Its counters, events and sockets iterator are pinned and read
# as the embedded ones' are.  tests/bpf/untabled.bpf.c, which predates the
# convention, loads as before with a one-line note, and PARAM=VALUE for it
# is one line of refusal; tests/bpf/badtable.bpf.c, whose table disagrees
# with its values, is refused.  Only the test's own names and pin directory; the
# host's congestion-control sysctls are never written.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/netns.sh
. "$(dirname "$0")/../tools/testbed/netns.sh"
# shellcheck source=lib/flows.sh
. "$(dirname "$0")/lib/flows.sh"
test_needs 180 bpftool	# reads the pinned params back as a user would
use_test_pin_dir

L=("$TCPCA_LOAD" --pin-dir "$TEST_PIN_DIR")
OBJ="$TCPCA_ROOT/build/tests/outside.bpf.o"
UNT="$TCPCA_ROOT/build/tests/untabled.bpf.o"
[ -f "$OBJ" ] && [ -f "$UNT" ] || bail_out "no $OBJ or $UNT: make unit builds them"
N="${RUN_ID}o" X="${RUN_ID}x" U="${RUN_ID}u" A="${RUN_ID}a" B="${RUN_ID}b"
DIR=$(mktemp -d "/tmp/tcpca-$RUN_ID.XXXXXX") || bail_out "no temporary directory"
on_exit "rm -rf '$DIR'"
host_default=$(cat /proc/sys/net/ipv4/tcp_congestion_control)
NOTE_UNT="$UNT has no tunables table (.rodata.tcpca_params)"

# run ARGS...: tcpca-load's stdout in $out, stderr in $errs, exit status in $rc
run() { out=$("${L[@]}" "$@" 2>"$DIR/err"); rc=$?; errs=$(cat "$DIR/err"); }
# the value of beta in NAME's pinned params, as bpftool reads it (by BTF)
pinned_beta() {
	bpftool -j map dump pinned "$TEST_PIN_DIR/$1/params" | grep -o '"beta":[0-9]*' | cut -d: -f2
}
registered() { grep -qw "$1" /proc/sys/net/ipv4/tcp_available_congestion_control; }
# a column of --list's row for NAME under the pin directory
list_field() { "${L[@]}" --list | awk -v n="$1" -v c="$2" '$1 == n && $NF ~ "/" n "$" { print $c }'; }
# nothing of NAME: not registered, no pin directory
gone() { ! registered "$1" && [ ! -e "$TEST_PIN_DIR/$1" ]; }

# Loading, with a parameter and out of range
run --name "$N" "$OBJ" beta=700
is "$rc|$errs" "0|" "loads $OBJ with beta=700, and says nothing on stderr"
like "$out" "^registered $OBJ as '$N' \(restricted\) by (link|map), pinned at $TEST_PIN_DIR/$N$" \
	"... one line on stdout"
is "$(pinned_beta "$N")" 700 "... beta=700 is in its pinned params"
for leaf in params tunables counters events sockets ops; do
	[ -e "$TEST_PIN_DIR/$N/$leaf" ]; ok $? "... $leaf is pinned"
done
is "$(list_field "$N" 2)" "(object)" "--list shows it as an object"

run --name "$X" "$OBJ" beta=1024
is "$rc|$errs" "1|tcpca-load: beta=1024 is out of range [1, 1023]" \
	"beta=1024: refused in one line, exit 1"
gone "$X"; ok $? "... and nothing of $X is registered or pinned"
run --name "$X" "$OBJ" gamma=1
is "$rc|$errs" "1|tcpca-load: $OBJ has no parameter 'gamma' (parameters: beta)" \
	"an unknown parameter: refused in one line, naming the one it has"
gone "$X"; ok $? "... and nothing of $X is left"
BAD="$TCPCA_ROOT/build/tests/badtable.bpf.o"
run --name "$X" "$BAD"
is "$rc|$errs" "1|tcpca-load: $BAD: its table lists 2 tunables but its .data.params holds 1 (of 4 bytes each)" \
	"a table that disagrees with its .data.params: refused in one line, exit 1"
gone "$X"; ok $? "... and nothing of $X is left"

# --show and --set
run --show "$N"
is "$rc" 0 "--show succeeds"
like "$out" "^$N: algorithm \(object\), registered by " "... names it an object"
is "$(echo "$out" | sed -n '/^parameters:$/{n;p}')" \
	"  beta                      700 1/1024   [1..1023] the share of cwnd kept at a loss: 512 halves it, as Reno" \
	"... lists beta: its value, unit, range and description"
like "$(echo "$out" | sed -n '/^counters:$/{n;p}')" "^  losses +0$" "... and its counters"
run --set "$N" beta=300
is "$rc|$errs" "0|" "--set beta=300 succeeds"
is "$(pinned_beta "$N")" 300 "... and the pinned params say 300"
like "$("${L[@]}" --show "$N")" "^  beta +300 1/1024 " "... as --show does"
run --set "$N" beta=0
is "$rc|$errs" "1|tcpca-load: beta=0 is out of range [1, 1023]" "--set beta=0: refused in one line"
is "$(pinned_beta "$N")" 300 "... beta is still 300"
run --set "$N" alpha=1
is "$rc|$errs" "1|tcpca-load: $N has no parameter 'alpha' (parameters: beta)" \
	"--set of a parameter it lacks: refused in one line"

# The running program reads what --set wrote: its iterator prints beta, and
# each loss it records (--events, kind 1) carries the beta it used.
C=${RUN_ID}c S=${RUN_ID}s
veth_pair "$C" "$S" || bail_out "cannot build the namespaces"
tc -n "$C" qdisc add dev veth0 root tbf rate 40mbit burst 16k limit 30k	# a queue that overflows
xfer_check "$C" "$S" 15000000 "$N" >"$DIR/xfer" &
xfer=$!
sockets=""
for _ in $(seq 150); do
	sockets=$(nsenter --net="/run/netns/$C" cat "$TEST_PIN_DIR/$N/sockets" 2>/dev/null)
	[ -n "$sockets" ] && break
	sleep 0.1
done
like "$sockets" "^$CLIENT_IP:[0-9]+ $SERVER_IP:[0-9]+ ca_state=[0-9]+ cwnd=[1-9].* cuts=[0-9]+ beta=300$" \
	"its sockets iterator lists the flow, with beta=300"
for _ in $(seq 100); do
	"${L[@]}" --show "$N" | awk '$1 == "losses" && $2 > 0 { f = 1 } END { exit !f }' && break
	sleep 0.1
done
cmp_ok "$("${L[@]}" --show "$N" | awk '$1 == "losses" { print $2 }')" ">" 0 "its counters count the losses"
for _ in 1 2 3; do
	loss=$("${L[@]}" --events "$N" 0.3 | awk -F, 'NR > 1 && $4 == 1 { print; exit }')
	[ -n "$loss" ] && break
done
like "$loss" "^[0-9.]+,$CLIENT_IP:[0-9]+,$SERVER_IP:[0-9]+,1,[0-9]+,[0-9]+,[0-9]+,[0-9]+,300," \
	"--events records a loss, decided with beta=300"
wait "$xfer"; ok $? "the transfer completes intact"
is "$(cat "$DIR/xfer")" "ca=$N" "... on $N"

# --replace: beta carried, or given
map_before=$(list_field "$N" 5)
run --replace "$N" "$OBJ"
is "$rc" 0 "--replace $N by the same object succeeds"
like "$out" "^replaced '$N': \(object\) \(map $map_before\) now runs $OBJ \(map [0-9]+\)" "... says so"
is "$(pinned_beta "$N")" 300 "... beta=300 carried over"
run --replace "$N" "$OBJ" beta=900
is "$rc:$(pinned_beta "$N")" "0:900" "--replace with beta=900: given wins"
map_before=$(list_field "$N" 5)
run --replace "$N" "$OBJ" beta=5000
is "$rc|$errs" "1|tcpca-load: beta=5000 is out of range [1, 1023]" "--replace with beta=5000: refused in one line"
is "$(list_field "$N" 5):$(pinned_beta "$N")" "$map_before:900" "... the old program and its beta stay"
[ ! -e "$TEST_PIN_DIR/$N/next" ]; ok $? "... nothing staged is left"
run --replace "$N" vegas
is "$rc:$(list_field "$N" 2):$(pinned_beta "$N")" "0:vegas:900" \
	"--replace by an embedded algorithm: beta=900 carried into Vegas's beta, by name"
run --replace "$N" vegas beta=2000
run --replace "$N" "$OBJ"
is "$rc:$(pinned_beta "$N")" "0:512" "... and back from Vegas's beta=2000: out of range here, so the default"
run --unload "$N"
is "$rc" 0 "unloads $N"
gone "$N"; ok $? "... nothing of it left"

# An object without the table
run --name "$U" "$UNT"
is "$rc|$errs" "0|tcpca-load: note: $NOTE_UNT: loaded without parameters" \
	"untabled.bpf.o loads, with one line saying it has no table"
like "$out" "^registered $UNT as '$U' " "... and registers as before"
[ -e "$TEST_PIN_DIR/$U/params" ] && [ ! -e "$TEST_PIN_DIR/$U/tunables" ]
ok $? "... its .data.params pinned, no tunables"
run --show "$U"
is "$rc:$(echo "$out" | grep '^parameters')" "0:parameters: unknown (an object without a tunables table)" \
	"--show says its parameters are unknown"
run --set "$U" min_cwnd=3
is "$rc|$errs" "1|tcpca-load: '$U' runs an object without a tunables table (.rodata.tcpca_params): it has no known parameters" \
	"--set: refused in one line"
run --name "$X" "$UNT" min_cwnd=3
is "$rc|$errs" "1|tcpca-load: $NOTE_UNT: it takes no PARAM=VALUE" \
	"loading it with PARAM=VALUE: refused in one line, exit 1"
gone "$X"; ok $? "... and nothing of $X is left"
"${L[@]}" --unload "$U" >/dev/null; ok $? "unloads $U"

# tcpca.conf: the object's parameters as an embedded algorithm's
printf '%s %s beta=600\n%s %s\n' "$A" "$OBJ" "$B" "$UNT" >"$DIR/one.conf"
run --apply "$DIR/one.conf"
is "$rc" 0 "--apply of a file with the object, beta=600, and the untabled one succeeds"
is "$out" "register $A $OBJ beta=600
register $B $UNT" "... registers both, saying beta=600"
is "$errs" "tcpca-load: $DIR/one.conf:2: note: $NOTE_UNT: loaded without parameters" \
	"... and notes, at its line, the object without a table"
is "$(pinned_beta "$A")" 600 "... $A has beta=600 pinned"
run --apply "$DIR/one.conf"
is "$rc|$out" "0|nothing to change: the kernel matches $DIR/one.conf" "a second --apply changes nothing"
map_before=$(list_field "$A" 5)
sed -i "s/beta=600/beta=650/" "$DIR/one.conf"
run --apply "$DIR/one.conf"
is "$rc|$out" "0|set $A: beta 600 -> 650" "beta=650 in the file: retuned in place"
is "$(list_field "$A" 5):$(pinned_beta "$A")" "$map_before:650" "... the same map, beta=650"
printf '%s %s beta=0\n' "$A" "$OBJ" >"$DIR/bad.conf"
run --apply "$DIR/bad.conf"
is "$rc|$out|$errs" "1||tcpca-load: $DIR/bad.conf:1: beta=0 is out of range [1, 1023]" \
	"beta=0 in a file: refused at its line, nothing done"
printf '%s %s min_cwnd=3\n' "$B" "$UNT" >"$DIR/bad.conf"
run --apply "$DIR/bad.conf"
is "$rc|$out|$errs" "1||tcpca-load: $DIR/bad.conf:1: $NOTE_UNT: it takes no PARAM=VALUE" \
	"a parameter for the untabled object in a file: refused at its line"
is "$(pinned_beta "$A")" 650 "... $A untouched"
: >"$DIR/empty.conf"
run --apply "$DIR/empty.conf"
is "$rc|$(printf '%s\n' "$out" | sort | paste -sd ' ')" "0|unload $A unload $B" "an empty file unloads both"
gone "$A" && gone "$B"; ok $? "... nothing left"

is "$(cat /proc/sys/net/ipv4/tcp_congestion_control)" "$host_default" \
	"the host's tcp_congestion_control was never changed"
done_testing
