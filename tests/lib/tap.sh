# shellcheck shell=bash
# TAP helpers for the shell tests run by prove(1).
# Source it, call plan N (or done_testing at the end), then ok/is/like.
# Every test also gets a hard time limit so a hung flow can never stall CI.
# The testbed (namespaces, linkem, flows, the exit list) is not here: it is
# tools/testbed's, which the tests source beside this.

_tap_n=0
_tap_failed=0

plan() { echo "1..$1"; _tap_planned=1; }

ok() {	# ok CONDITION_EXIT_CODE DESCRIPTION
	local rc=$1; shift
	_tap_n=$((_tap_n + 1))
	if [ "$rc" -eq 0 ]; then
		echo "ok $_tap_n - $*"
	else
		echo "not ok $_tap_n - $*"
		_tap_failed=$((_tap_failed + 1))
	fi
	return "$rc"
}

pass() { ok 0 "$@"; }
fail() { ok 1 "$@"; }

is() {	# is GOT EXPECTED DESCRIPTION
	local got=$1 want=$2; shift 2
	if [ "$got" = "$want" ]; then ok 0 "$@"; else
		ok 1 "$@"; diag "got '$got', expected '$want'"; return 1; fi
}

like() {	# like GOT EREGEX DESCRIPTION
	local got=$1 re=$2; shift 2
	if printf '%s' "$got" | grep -Eq -- "$re"; then ok 0 "$@"; else
		ok 1 "$@"; diag "got '$got', expected to match /$re/"; return 1; fi
}

unlike() {	# unlike GOT EREGEX DESCRIPTION
	local got=$1 re=$2; shift 2
	if ! printf '%s' "$got" | grep -Eq -- "$re"; then ok 0 "$@"; else
		ok 1 "$@"; diag "got '$got', expected not to match /$re/"; return 1; fi
}

# cmp_ok GOT OP EXPECTED DESCRIPTION, numeric (floats allowed): OP is one of < <= > >= ==
cmp_ok() {
	local got=$1 op=$2 want=$3; shift 3
	if awk -v a="$got" -v b="$want" -v op="$op" 'BEGIN {
		if (a !~ /^-?[0-9.eE+-]+$/) exit 1
		if (op == "<") exit !(a < b); if (op == "<=") exit !(a <= b)
		if (op == ">") exit !(a > b); if (op == ">=") exit !(a >= b)
		if (op == "==") exit !(a == b); exit 1 }'; then ok 0 "$@"
	else ok 1 "$@"; diag "got '$got', expected $op $want"; return 1; fi
}

# skip DESCRIPTION REASON: a test that could not judge, and says why
skip() {
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $1 # SKIP $2"
}

# skip_unjudged DESCRIPTION WHY: a skip because the machine was too busy to
# judge (WHY says what was measured), and counted: a line in
# $TCPCA_UNJUDGED, where scripts/run-tests sets it, which fails the run when
# more than a few checks went unjudged.
skip_unjudged() {
	skip "$1" "unjudged: $2"
	[ -z "${TCPCA_UNJUDGED:-}" ] || echo "${0##*/}: $1 ($2)" >>"$TCPCA_UNJUDGED"
}

# cmp_or_skip WHY GOT OP WANT DESCRIPTION: cmp_ok, or skip_unjudged for WHY
# when WHY is set
cmp_or_skip() {
	local why=$1; shift
	if [ -n "$why" ]; then skip_unjudged "$4" "$why"; else cmp_ok "$@"; fi
}

diag() { printf '# %s\n' "$*" >&2; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
need_root() { [ "$(id -u)" -eq 0 ] || skip_all "needs root"; }
# Ends this test file as failed.  Not TAP's "Bail out!", which stops prove
# itself: one file's broken set-up must not hide the results of the rest.
bail_out() { _tap_n=$((_tap_n + 1)); echo "not ok $_tap_n - cannot go on: $*"; exit 255; }

done_testing() {
	[ -z "${_tap_planned:-}" ] && echo "1..$_tap_n"
	[ "$_tap_failed" -eq 0 ]
}

# Kill this test if it runs longer than $1 seconds, times the machine's load
# per core when that is above 1 (the one-minute load average at the start,
# at most 4x): the limit is there for a test that hangs, and a busy machine
# makes a working test slower by about that factor.  In a VM the host's load
# counts too (TCPCA_HOST_LOAD_PER_CORE, from tools/vm/run): a busy host
# slows the guest down without the guest seeing any load, and TCG itself
# makes every process start slower: three times the limit there (the
# VM's own bound, tools/vm/test, still holds).  It fails the test (a
# "not ok" and the kill), and the suite goes on.
time_limit() {
	local self=$$ limit
	limit=$(awk -v s="$1" -v n="$(nproc)" -v h="${TCPCA_HOST_LOAD_PER_CORE:-0}" \
		    -v vm="${TCPCA_THROWAWAY_KERNEL:+3}" '{ f = $1 / n
		f = f < h ? h : f; f = f < 1 ? 1 : f > 4 ? 4 : f
		printf "%d", s * f * (vm ? vm : 1) + 0.5 }' /proc/loadavg)
	# sleep must not hold our stdout open, or prove waits for it
	# shellcheck disable=SC2217 # </dev/null: the sleep holds none of our fds
	( sleep "$limit" >/dev/null 2>&1 </dev/null
	  echo "not ok - time limit of $limit s reached ($1 s at a load of 1 per core): stopped"
	  kill -TERM "$self" ) &
	_tap_watchdog=$!
	disown "$_tap_watchdog" 2>/dev/null || true
	# with tools/testbed's exit list, stopped after the cleanups (they are
	# within the limit too)
	! declare -F on_exit_last >/dev/null || on_exit_last _tap_watchdog_stop
}

# test_needs LIMIT [CMD...]: a test that needs root and each CMD (else it
# skips, saying which), stopped after LIMIT seconds at a load of 1 per core
# (time_limit).  After tools/testbed/testbed.sh, so that the watchdog stops
# after its cleanups.
test_needs() {
	local limit=$1 cmd
	shift
	need_root
	for cmd in "$@"; do
		command -v "$cmd" >/dev/null || skip_all "needs $cmd"
	done
	time_limit "$limit"
}

# the watchdog first, then its sleep
_tap_watchdog_stop() {
	local sleeper
	[ -n "${_tap_watchdog:-}" ] || return 0
	sleeper=$(pgrep -P "$_tap_watchdog")
	# shellcheck disable=SC2086 # no sleeper, or one PID
	kill "$_tap_watchdog" $sleeper 2>/dev/null
	return 0
}

# retry_once [ARGS]: for a test whose bounds depend on how busy the machine
# is.  Call it first thing, with the script's arguments: it runs the script
# again as attempt 1, its TAP held back; if that passes, its TAP is the
# result, else it is printed as diagnostics and attempt 2's is the result.
# A real fault fails both; a neighbour's burst of load rarely hits twice.
retry_once() {
	local out rc unjudged
	[ -n "${TCPCA_ATTEMPT:-}" ] && return 0
	out=$(mktemp /tmp/tcpca-attempt.XXXXXX) || exit 1
	# attempt 1's unjudged checks count only if its TAP is the result
	unjudged=$(mktemp /tmp/tcpca-attempt.XXXXXX) || exit 1
	TCPCA_ATTEMPT=1 TCPCA_UNJUDGED=${TCPCA_UNJUDGED:+$unjudged} "$BASH" "$0" "$@" >"$out"
	rc=$?
	# a script with a plan may exit 0 after a "not ok", or short of its
	# plan; prove reads the TAP, so this does too
	if [ "$rc" -eq 0 ] && { grep -Eq '^(not ok|Bail out!)' "$out" ||
		! awk '/^1\.\.[0-9]+/ { split($1, p, "."); plan = p[3] } /^(not )?ok / { n++ }
			END { exit !(plan == "" || plan == n) }' "$out"; }; then
		rc=1
	fi
	if [ "$rc" -eq 0 ]; then
		cat "$out"
		[ -z "${TCPCA_UNJUDGED:-}" ] || cat "$unjudged" >>"$TCPCA_UNJUDGED"
		rm -f "$out" "$unjudged"
		exit 0
	fi
	rm -f "$unjudged"
	diag "attempt 1 failed (exit $rc); it said:"
	sed 's/^/# attempt 1: /' "$out" >&2
	rm -f "$out"
	diag "attempt 2, whose results count:"
	TCPCA_ATTEMPT=2 exec "$BASH" "$0" "$@"
}
