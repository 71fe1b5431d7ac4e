#!/usr/bin/env bash
# tcpca-load --apply FILE (tcpca.conf(5)) under the test's own pin
# directory: a first run registers and sets the default, a second changes
# nothing, a changed file makes exactly the changes it implies (set,
# replace, register, default, unload), --dry-run makes none, and a bad file
# is refused with its line and changes nothing.  The default is only ever
# set inside a namespace of the test's own (nsenter --net=, which keeps
# bpffs in sight where `ip netns exec` remounts /sys): the host's
# tcp_congestion_control is read, never written.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/netns.sh
. "$(dirname "$0")/../tools/testbed/netns.sh"
need_root
time_limit 180
use_test_pin_dir

L=("$TCPCA_LOAD" --pin-dir "$TEST_PIN_DIR")
NS="tcpca-$RUN_ID-apply"
ns_create "$NS" || bail_out "cannot create namespace $NS"
inns() { nsenter --net="/run/netns/$NS" "$@"; }
ns_default() { inns cat /proc/sys/net/ipv4/tcp_congestion_control; }
host_default=$(cat /proc/sys/net/ipv4/tcp_congestion_control)
host_allowed=$(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)
ns_was=$(ns_default)

A="${RUN_ID}a" B="${RUN_ID}b" C="${RUN_ID}c" D="${RUN_ID}d" E="${RUN_ID}e" O="${RUN_ID}o"
OBJ="$TCPCA_ROOT/build/reno.bpf.o"
DIR=$(mktemp -d "/tmp/tcpca-$RUN_ID.XXXXXX") || bail_out "no temporary directory"
on_exit "rm -rf '$DIR'"

# what is registered under the pin directory: name, algorithm, access, link and map ids
state() { "${L[@]}" --list | awk -v d="$TEST_PIN_DIR/" 'index($NF, d) == 1 { print $1, $2, $6, $4, $5 }' | sort; }

# apply [--dry-run] FILE [in]: stdout in $out, stderr in $errs, exit status in $rc
apply() {
	local where=()
	[ "${*: -1}" = in ] && { where=(nsenter --net="/run/netns/$NS"); set -- "${@:1:$#-1}"; }
	out=$("${where[@]}" "${L[@]}" --apply "$@" 2>"$DIR/err"); rc=$?
	errs=$(cat "$DIR/err")
}

cat >"$DIR/one.conf" <<EOF
# the first configuration
$A vegas alpha=1
$B	hybla allow	# the namespace's default: allowed
$C reno
$E highspeed
$O $OBJ
default $B
EOF

apply --dry-run "$DIR/one.conf" in
is "$rc" 0 "--dry-run of a first file succeeds"
is "$out" "register $A vegas alpha=1
register $B hybla allow
register $C reno
register $E highspeed
register $O $OBJ
default $ns_was -> $B
dry run: 6 changes not made" "... and lists the six changes it would make"
is "$(state)" "" "... and registers nothing"
is "$(ns_default)" "$ns_was" "... nor changes the namespace's default"

apply "$DIR/one.conf" in
is "$rc" 0 "a first --apply succeeds"
is "$out" "register $A vegas alpha=1
register $B hybla allow
register $C reno
register $E highspeed
register $O $OBJ
default $ns_was -> $B" "... one line per change"
is "$errs" "" "... nothing on stderr"
like "$(state)" "^$A vegas restricted .*
$B hybla allowed .*
$C reno restricted .*
$E highspeed restricted .*
$O reno restricted" "... all five registered, with their access"
is "$(ns_default)" "$B" "... and $B is the namespace's default"
is "$(cat /proc/sys/net/ipv4/tcp_congestion_control)" "$host_default" "... not the host's"
like "$("${L[@]}" --show "$A")" "alpha +1 " "... vegas runs with alpha=1"

before=$(state)
apply "$DIR/one.conf" in
is "$rc" 0 "a second --apply of the same file succeeds"
is "$out" "nothing to change: the kernel matches $DIR/one.conf" "... and says nothing changed"
is "$(state)" "$before" "... the same registrations, link and map ids"

cat >"$DIR/two.conf" <<EOF
$A vegas alpha=2 beta=5
$B hybla allow
$C westwood
$D bic allow
$O $OBJ allow
default $D
EOF
apply --dry-run "$DIR/two.conf" in
expected="set $A: alpha 1 -> 2, beta 4 -> 5
replace $C: reno restricted -> westwood restricted
register $D bic allow
replace $O: reno restricted -> $OBJ allowed
default $B -> $D
unload $E"
is "$rc" 0 "--dry-run of a changed file succeeds"
is "$out" "$expected
dry run: 6 changes not made" "... and lists set, replace, register, replace (access), default, unload"
is "$(state)" "$before" "... and changes no registration"
like "$("${L[@]}" --show "$A")" "alpha +1 " "... nor a parameter"
is "$(ns_default)" "$B" "... nor the default"

apply "$DIR/two.conf" in
is "$rc" 0 "--apply of the changed file succeeds"
is "$out" "$expected" "... with exactly those lines"
like "$(state)" "^$A vegas restricted .*
$B hybla allowed .*
$C westwood restricted .*
$D bic allowed .*
$O reno allowed" "... $C runs westwood, $D is there, $O is allowed, $E is gone"
is "$(state | awk -v a="$A" '$1 == a')" "$(printf '%s\n' "$before" | awk -v a="$A" '$1 == a')" \
	"... $A was retuned in place (same link and map)"
like "$("${L[@]}" --show "$A")" "alpha +2 .*
.*beta +5 " "... to alpha=2 beta=5"
is "$(ns_default)" "$D" "... and $D is the namespace's default"

after=$(state)
apply "$DIR/two.conf" in
is "$out" "nothing to change: the kernel matches $DIR/two.conf" "a second run of it changes nothing"
is "$(state)" "$after" "... the same registrations"

# --netns NS: the same as running in NS (a dry run first: were it the host's
# namespace, the default line would be the host's to change)
apply --netns "$NS" --dry-run "$DIR/two.conf"
is "$rc $out" "0 nothing to change: the kernel matches $DIR/two.conf" \
	"--apply --netns $NS compares with $NS's default"
sed "s/^default .*/default $B/" "$DIR/two.conf" >"$DIR/three.conf"
apply --netns "$NS" --dry-run "$DIR/three.conf"
if is "$out" "default $D -> $B
dry run: 1 change not made" "... a dry run of another default names $NS's"; then
	apply --netns "$NS" "$DIR/three.conf"
	is "$rc $out" "0 default $D -> $B" "... and --apply --netns $NS sets it"
	is "$(ns_default)" "$B" "... in $NS"
	apply --netns "$NS" "$DIR/two.conf"
	is "$rc $out" "0 default $B -> $D" "... and back"
else
	skip "--apply --netns $NS" "its dry run did not look at $NS"
fi
is "$(cat /proc/sys/net/ipv4/tcp_congestion_control)" "$host_default" "... not the host's"

# A bad file: refused whole, with the line, before anything changes.
# expect_refused DESCRIPTION REGEX [in]: for $DIR/bad.conf
expect_refused() {
	local what=$1 re=$2; shift 2
	apply "$DIR/bad.conf" "$@"
	if [ "$rc" -ne 0 ] && [ -z "$out" ] && printf '%s' "$errs" | head -n 1 | grep -Eq -- "$re"; then
		pass "$what"
	else
		fail "$what"; diag "exit $rc, stdout '$out', stderr '$errs'"
	fi
	is "$(state)" "$after" "... and nothing changed"
}
cat >"$DIR/bad.conf" <<EOF
$A vegas
$C reno
$B hybla allow alpha=3
default $B
EOF
expect_refused "an unknown parameter on line 3" \
	"^tcpca-load: $DIR/bad.conf:3: hybla has no parameter 'alpha'" in
printf '%s vegas alpha=9\n%s nosuch\n' "$A" "$B" >"$DIR/bad.conf"
expect_refused "inconsistent values on line 1 (and an unknown algorithm on 2)" \
	"^tcpca-load: $DIR/bad.conf:1: vegas: alpha must not exceed beta" in
like "$errs" "bad.conf:2: unknown algorithm 'nosuch'" "... both lines said"
printf '%s vegas\n%s vegas\n' "$A" "$A" >"$DIR/bad.conf"
expect_refused "a duplicate name" "^tcpca-load: $DIR/bad.conf:2: '$A' is registered twice \(first on line 1\)" in
printf '%s vegas\ndefault %s\n' "$A" "$B" >"$DIR/bad.conf"
expect_refused "a default not in the file" "^tcpca-load: $DIR/bad.conf:2: default '$B' is not registered by this file" in
printf '%s vegas\n%s.x reno\n' "$A" "$B" >"$DIR/bad.conf"
expect_refused "a bad name" "^tcpca-load: $DIR/bad.conf:2: invalid name '$B\\.x'" in
printf '%s vegas\n%s bic allow\n\nreno reno\n' "$A" "$D" >"$DIR/bad.conf"
expect_refused "a name the kernel has (found while planning)" \
	"^tcpca-load: $DIR/bad.conf:4: 'reno' is already registered, not by tcpca" in
printf '%s vegas\n%s /nonexistent/x.bpf.o\n' "$A" "$B" >"$DIR/bad.conf"
expect_refused "a missing object" "^tcpca-load: $DIR/bad.conf:2: cannot open /nonexistent/x.bpf.o" in
printf '%s vegas\n%s bic allow\ndefault %s\n' "$A" "$D" "$A" >"$DIR/bad.conf"
expect_refused "a restricted default in a namespace (EPERM, and the kernel's leak)" \
	"^tcpca-load: $DIR/bad.conf:3: this is not the initial network namespace.*add 'allow' to line 1" in
printf '%s vegas\n' "$A" >"$DIR/bad.conf"
expect_refused "removing the namespace's default without naming another" \
	"^tcpca-load: $DIR/bad.conf: '$D' is this network namespace's default congestion control" in
is "$(ns_default)" "$D" "the namespace's default is still $D"

# From the host's namespace, a file without a default line never touches
# the host's sysctl: everything goes
: >"$DIR/empty.conf"
apply "$DIR/empty.conf"
is "$rc" 0 "an empty file, applied from the host's namespace, succeeds"
is "$(printf '%s\n' "$out" | sort)" "$(printf 'unload %s\n' "$A" "$B" "$C" "$D" "$O" | sort)" \
	"... and unloads all five"
is "$(state)" "" "... nothing is left registered"
# The same by map update, the only way before Linux 6.4 (forced here on a newer kernel)
M="${RUN_ID}m"
printf '%s vegas\n' "$M" >"$DIR/map.conf"
TCPCA_REGISTER_BY=map apply "$DIR/map.conf"
is "$rc $out" "0 register $M vegas" "by map: a first --apply registers"
like "$(state)" "^$M vegas restricted 0 " "... by map (no link)"
TCPCA_REGISTER_BY=map apply "$DIR/map.conf"
is "$out" "nothing to change: the kernel matches $DIR/map.conf" "... a second run changes nothing"
printf '%s hybla allow rtt0=50\n' "$M" >"$DIR/map.conf"
TCPCA_REGISTER_BY=map apply "$DIR/map.conf"
is "$rc $out" "0 replace $M: vegas restricted -> hybla allowed" "... a changed line replaces it"
like "$errs" "^tcpca-load: $DIR/map.conf:1: note: registered by map .* '$M' was unregistered for [0-9.]+ ms" \
	"... and says for how long the name was missing"
like "$("${L[@]}" --show "$M")" "rtt0 +50 " "... with the file's parameters"
apply "$DIR/empty.conf"
is "$rc $out" "0 unload $M" "... and an empty file unloads it"

is "$(cat /proc/sys/net/ipv4/tcp_congestion_control)" "$host_default" \
	"the host's tcp_congestion_control was never changed"
# others may register and unload meanwhile: what was allowed and is still
# there is still allowed, and nothing of this test's is
lost=$(comm -23 <(tr ' ' '\n' <<<"$host_allowed" | sort) \
	<(tr ' ' '\n' </proc/sys/net/ipv4/tcp_allowed_congestion_control | sort) |
	grep -Fxf <(tr ' ' '\n' </proc/sys/net/ipv4/tcp_available_congestion_control))
ours=$(tr ' ' '\n' </proc/sys/net/ipv4/tcp_allowed_congestion_control | grep "^$RUN_ID")
is "$lost$ours" "" "the host's tcp_allowed_congestion_control is as it was (was: $host_allowed)"
done_testing
