#!/bin/bash
# Bad input: one clear line on stderr, a non-zero exit, nothing left behind.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
test_needs 30
plan 24

tb_build || bail_out "cannot build linkem"
tb_dir
A=$(tb_ns a) B=$(tb_ns b)
ns_create "$A" && ns_create "$B" || bail_out "no namespaces"

refuses() {	# EREGEX LINKEM_ARGS...: exit != 0, one stderr line matching
	local re=$1 rc err; shift
	timeout 10 "${RUNAS[@]}" "$LINKEM" "$@" 2>"$TB_DIR/err" >/dev/null
	rc=$?
	err=$(cat "$TB_DIR/err")
	cmp_ok "$rc" '>' 0 "refused: linkem $* (exit $rc)"
	like "$(wc -l <"$TB_DIR/err") $err" "^1 .*$re" "  one line: $err"
}

refuses 'unknown option' --bogus "$A" "$B"
refuses "bad value for --rate: '10mbits'" --rate 10mbits "$A" "$B"
refuses "bad value for --up-loss" --up-loss 120% "$A" "$B"
refuses "cannot read trace /nonexistent/trace" --trace /nonexistent/trace "$A" "$B"
refuses "no network namespace 'tcpca-$RUN_ID-missing'" "$A" "$(tb_ns missing)"
refuses "need exactly two namespaces" "$A"
refuses "bad value for --threads: '3'" --threads 3 "$A" "$B"
refuses "bad value for --up-police: '5mbit:3x'" --up-police 5mbit:3x "$A" "$B"
refuses "police burst of 1000 bytes is less than the MTU" --police 5mbit:1000 "$A" "$B"
printf 'x\n' >"$TB_DIR/badtrace"
refuses "badtrace:1: not a non-decreasing ms timestamp" --trace "$TB_DIR/badtrace" "$A" "$B"
RUNAS=(setpriv --reuid=65534 --regid=65534 --clear-groups)
refuses 'needs root' "$A" "$B"
RUNAS=()

# A's device was made before B was found missing: it must be gone again
ip -n "$A" link show linkem0 >/dev/null 2>&1
is "$?" 1 "no TUN device left in $A after the failed start"
pgrep -x linkem -P $$ >/dev/null
is "$?" 1 "no linkem of ours left running"
