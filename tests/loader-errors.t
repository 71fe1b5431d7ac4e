#!/usr/bin/env bash
# Every way tcpca-load can be misused: one clear line on stderr, a non-zero
# exit, and nothing registered or pinned afterwards.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/netns.sh
. "$(dirname "$0")/../tools/testbed/netns.sh"
need_root
time_limit 120
use_test_pin_dir

L=("$TCPCA_LOAD" --pin-dir "$TEST_PIN_DIR")
N="${RUN_ID}err"
before=$(cat /proc/sys/net/ipv4/tcp_available_congestion_control)

# expect_error DESCRIPTION REGEX COMMAND...: non-zero exit, first stderr line matches
expect_error() {
	local what=$1 re=$2 rc; shift 2
	local errf first
	errf=$(mktemp)
	"$@" >/dev/null 2>"$errf"; rc=$?
	first=$(head -n 1 "$errf")
	rm -f "$errf"
	if [ "$rc" -ne 0 ] && printf '%s' "$first" | grep -Eq -- "$re"; then
		ok 0 "$what"
	else
		ok 1 "$what"; diag "exit $rc, stderr: $first"
	fi
}

# Of the names registered since the start, those this test could have made:
# its own (RUN_ID) and the algorithms' defaults.  Others' tests running at
# the same time register under their own RUN_IDs, which are not counted.
ours=$( { echo "$RUN_ID.*"; "$TCPCA_LOAD" --list | awk 'NR > 1 && NF == 0 { exit } NR > 1 { print $2 }'; } |
	paste -sd '|')
new_ours() {
	comm -13 <(tr ' ' '\n' <<<"$before" | sort) \
		<(tr ' ' '\n' </proc/sys/net/ipv4/tcp_available_congestion_control | sort) |
		grep -Ex "$ours" | paste -sd ' '
}
nothing_left() {
	is "$(new_ours)" "" "$1: nothing registered"
	is "$(ls -A "$TEST_PIN_DIR" 2>/dev/null)" "" "$1: nothing pinned"
}

expect_error "unknown algorithm" "^tcpca-load: unknown algorithm 'nosuch'" "${L[@]}" --name "$N" nosuch
expect_error "unknown parameter" "has no parameter 'foo'" "${L[@]}" --name "$N" reno foo=1
expect_error "parameter without a value" "is not PARAM=VALUE" "${L[@]}" --name "$N" reno foo
tunable=$("$TCPCA_LOAD" --list | awk 'NR > 1 && NF == 0 { exit } /=/ { print $1, $3; exit }')
if [ -n "$tunable" ]; then
	# shellcheck disable=SC2086 # two words: the algorithm, its first NAME=VALUE
	set -- $tunable; p=${2%%=*}
	expect_error "$1: $p out of range" "$p=4294967296 is out of range|$p: '4294967296' is not a number" \
		"${L[@]}" --name "$N" "$1" "$p=4294967296"
	expect_error "$1: $p not a number" "$p: 'x' is not a number" "${L[@]}" --name "$N" "$1" "$p=x"
else
	pass "# SKIP no tunable algorithm embedded"; pass "# SKIP no tunable algorithm embedded"
fi
expect_error "vegas: alpha above beta" "vegas: alpha must not exceed beta" "${L[@]}" --name "$N" vegas alpha=5 beta=3
expect_error "hybla: rtt0=0" "rtt0=0 is out of range \[1, " "${L[@]}" --name "$N" hybla rtt0=0
expect_error "bic: beta=1024 (no decrease)" "beta=1024 is out of range" "${L[@]}" --name "$N" bic beta=1024
expect_error "name too long" "invalid name 'abcdefghijklmnop'" "${L[@]}" --name abcdefghijklmnop reno
expect_error "name with a bad character" "invalid name 'a-b'" "${L[@]}" --name a-b reno
expect_error "name of the kernel's own reno" "named 'reno' is already registered; choose another with --name" \
	"${L[@]}" --name reno reno
expect_error "name '.' (the pin directory itself)" "invalid name '\\.'" "${L[@]}" --name . reno
expect_error "name '..' (its parent)" "invalid name '\\.\\.'" "${L[@]}" --name .. reno
nothing_left "after bad arguments"

# A NAME is one entry of its pin directory, for every command: none reaches
# a registration in another directory through it
OTHER="${TEST_PIN_DIR}-other"
on_exit "'$TCPCA_LOAD' --pin-dir '$OTHER' --unload --all; rmdir '$OTHER' 2>/dev/null"
"$TCPCA_LOAD" --pin-dir "$OTHER" --name "$N" reno >/dev/null
ok $? "a registration in another pin directory, $OTHER"
up="../${OTHER##*/}/$N"
expect_error "--unload $up is refused" "invalid name '\\.\\./" "${L[@]}" --unload "$up"
expect_error "--show $up is refused" "invalid name '\\.\\./" "${L[@]}" --show "$up"
expect_error "--set $up is refused" "invalid name '\\.\\./" "${L[@]}" --set "$up" x=1
expect_error "--events $up is refused" "invalid name '\\.\\./" "${L[@]}" --events "$up" 1
expect_error "--unload .. is refused" "invalid name '\\.\\.'" "${L[@]}" --unload ..
expect_error "--show . is refused" "invalid name '\\.'" "${L[@]}" --show .
grep -qw "$N" /proc/sys/net/ipv4/tcp_available_congestion_control
ok $? "... and the other directory's registration is still there"
"$TCPCA_LOAD" --pin-dir "$OTHER" --unload "$N" && rmdir "$OTHER"
ok $? "it unloads from its own directory"
nothing_left "after the names that leave their directory"

"${L[@]}" --name "$N" reno >/dev/null; ok $? "a first registration succeeds"
expect_error "the same name twice" "named '$N' is already registered" "${L[@]}" --name "$N" reno
"${L[@]}" --unload "$N"; ok $? "and unloads"

"${L[@]}" --name "$N" vegas >/dev/null; ok $? "vegas registers"
expect_error "--set refuses alpha above the running beta" "vegas: alpha must not exceed beta" "${L[@]}" --set "$N" alpha=9
like "$("${L[@]}" --show "$N")" "alpha +2 packets" "and leaves alpha as it was"
expect_error "--set of an unknown parameter" "vegas has no parameter 'delta'" "${L[@]}" --set "$N" delta=1
"${L[@]}" --set "$N" beta=9 alpha=9; ok $? "--set checks the values together: alpha=9 with beta=9 is fine"
"${L[@]}" --unload "$N"

expect_error "not root" "must be run as root" \
	setpriv --reuid=65534 --regid=65534 --clear-groups "${L[@]}" --name "$N" reno
expect_error "no kernel BTF" "no kernel BTF at /nonexistent" \
	env TCPCA_VMLINUX_BTF=/nonexistent "${L[@]}" --name "$N" reno
expect_error "pin dir not on bpffs" "is not on a bpf filesystem" \
	"$TCPCA_LOAD" --pin-dir /tmp/tcpca-not-bpffs-$$ --name "$N" reno
expect_error "bpffs missing and not mountable" "cannot mount bpffs on /sys/fs/bpf" \
	unshare -m sh -c "umount /sys/fs/bpf && exec setpriv --bounding-set=-sys_admin \
		$TCPCA_LOAD --pin-dir /sys/fs/bpf/tcpca-test-$$ --name $N reno"
nothing_left "after privilege and filesystem errors"

# The loader mounts bpffs itself where none is mounted (private mount namespace).
out=$(unshare -m sh -c "umount /sys/fs/bpf && $TCPCA_LOAD --pin-dir /sys/fs/bpf/t --name $N reno &&
	mountpoint -q /sys/fs/bpf && $TCPCA_LOAD --pin-dir /sys/fs/bpf/t --unload $N && echo fine" 2>&1)
is "$out" "$(printf 'registered reno as %s (restricted) by %s, pinned at /sys/fs/bpf/t/%s\nfine' "'$N'" "$(kernel_reg_mode)" "$N")" \
	"mounts bpffs on /sys/fs/bpf when it is missing"

# The verifier refuses a program that writes snd_cwnd_clamp (make unit builds it).
obj="$TCPCA_ROOT/build/tests/broken.bpf.o"
[ -f "$obj" ]; ok $? "the broken object is built"
errs=$("${L[@]}" --name "$N" "$obj" 2>&1 >/dev/null); rc=$?
[ $rc -ne 0 ]; ok $? "verifier rejection exits non-zero"
like "$(echo "$errs" | head -n 1)" "^tcpca-load: the kernel's verifier rejected" "says the verifier rejected it"
like "$errs" "snd_cwnd_clamp|no write support|access beyond" "shows the verifier's reason"
cmp_ok "$(echo "$errs" | wc -l)" "<=" 10 "shows only the tail of the log"
cmp_ok "$("${L[@]}" -v --name "$N" "$obj" 2>&1 | wc -l)" ">" 10 "-v shows the whole log"
nothing_left "after a verifier rejection"

# What the kernel lacks is named as such, never blamed on the verifier.
expect_error "a kernel without BPF congestion control" \
	"has no BPF congestion control \(struct_ops, Linux 5.6 and later\)" \
	env TCPCA_VMLINUX_BTF="$TCPCA_ROOT/build/reno.bpf.o" "${L[@]}" --name "$N" reno
errs=$("${L[@]}" --name "$N" "$TCPCA_ROOT/build/tests/nokfunc.bpf.o" 2>&1 >/dev/null); rc=$?
[ $rc -ne 0 ]; ok $? "a missing kernel function: exits non-zero"
like "$(echo "$errs" | head -n 1)" "^tcpca-load: loading .*nokfunc.bpf.o failed" "says loading failed, not the verifier"
like "$errs" "tcpca_no_such_kfunc" "and names what is missing"
nothing_left "after missing kernel features"

# An ops table in .struct_ops.link: a loader whose libbpf is 1.2+ (its
# build put our own tables there too, TCPCA_OPS_SEC) registers it; one built
# with 1.1 refuses it in one line that names its libbpf.
obj="$TCPCA_ROOT/build/tests/linksec.bpf.o"
if grep -qa '\.struct_ops\.link' "$TCPCA_ROOT/build/reno.bpf.o"; then
	"${L[@]}" --name "$N" "$obj" >/dev/null; ok $? ".struct_ops.link: registers (libbpf 1.2+)"
	"${L[@]}" --unload "$N" >/dev/null; ok $? "... and unloads"
else
	expect_error ".struct_ops.link: refused, with the libbpf that predates it (1.1)" \
		"^tcpca-load: .*linksec.bpf.o has its ops table in .struct_ops.link, which tcpca-load's libbpf \(v1\.[01]\) predates" \
		"${L[@]}" --name "$N" "$obj"
fi
nothing_left "after an object in .struct_ops.link"

# Registering by map update (the pre-6.4 way) fails as cleanly.
expect_error "by map: the same name twice" "named '$N' is already registered" \
	sh -c "${L[*]} --name $N reno >/dev/null && TCPCA_REGISTER_BY=map ${L[*]} --name $N reno"
"${L[@]}" --unload "$N"
env TCPCA_REGISTER_BY=map "${L[@]}" --name "$N" reno >/dev/null; ok $? "by map: registers"
# What a loader that died before its map update leaves: pins, nothing registered.
map_id=$("${L[@]}" --list | awk -v n="$N" '$1 == n { print $5 }')
bpftool struct_ops unregister id "$map_id" >/dev/null 2>&1
like "$("${L[@]}" --list | awk -v n="$N" '$1 == n')" " map .* unregistered " "by map: --list shows pins of nothing registered"
"${L[@]}" --unload "$N"; ok $? "by map: --unload removes them"
nothing_left "by map: after unloading"

expect_error "unload an unknown name" "nothing named 'nosuch' is registered" "${L[@]}" --unload nosuch
expect_error "show an unknown name" "nothing named 'nosuch' is registered" "${L[@]}" --show nosuch
expect_error "set on an unknown name" "nothing named 'nosuch' is registered" "${L[@]}" --set nosuch a=1
expect_error "--unload without names" "needs NAME... or --all" "${L[@]}" --unload
expect_error "two commands at once" "exclude each other" "${L[@]}" --list --unload x
expect_error "no algorithm" "which algorithm" "${L[@]}"
expect_error "--netns without --show" "--netns goes with --show" "${L[@]}" --netns x --list
"$TCPCA_LOAD" --help | grep -q "^Usage: tcpca-load"; ok $? "--help prints the usage"
like "$("$TCPCA_LOAD" --version)" "^tcpca-load [0-9]+\.[0-9]+" "--version"
nothing_left "at the end"

done_testing
