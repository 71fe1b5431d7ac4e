#!/usr/bin/env bash
# Eight writers at once on one name, round after round, by link and by map:
# three loads, two --replace, one --unload and two --apply of a file that
# names it, started together, on a name that is registered before the round
# (odd rounds) or not (even rounds).  The pin directory's lock makes them
# one at a time, so the round ends as some order of them would leave it:
# what was registered, plus the registrations they report made, less the
# unload they report, is what the kernel has (0 or 1), owned by its pins,
# whole, with no orphan; and every writer that failed says why in one line
# (besides the note that it waited for the lock).  Before the lock, four
# loads by map left the name registered with no pins in 11 of 15 rounds.
# Then the lock itself: a writer waits for it, says so, and gives up busy;
# a reader does not wait.
# TCPCA_CONC_ROUNDS: rounds per mode (default 50; 5 in the VM, where TCG
# makes each load ~20 times slower).
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/netns.sh
. "$(dirname "$0")/../tools/testbed/netns.sh"
# shellcheck source=lib/registration.sh
. "$(dirname "$0")/lib/registration.sh"
need_root
time_limit 600
use_test_pin_dir

L=("$TCPCA_LOAD" --pin-dir "$TEST_PIN_DIR")
N="${RUN_ID}c"
rounds=${TCPCA_CONC_ROUNDS:-$([ -n "${TCPCA_THROWAWAY_KERNEL:-}" ] && echo 5 || echo 50)}
# correctness, not speed: a writer waits as long as the others take
export TCPCA_LOCK_TIMEOUT=300
W=$(mktemp -d) || bail_out "no temporary directory"
on_exit "rm -rf '$W'"
printf '%s reno\n' "$N" >"$W/conf"
writers=(load load load replace replace unload apply apply)
reasons="a congestion control named '$N' is already registered; choose another with --name|nothing named '$N' is registered under $TEST_PIN_DIR"

writer() {	# writer I KIND: one writer's command; stdout, stderr and status in $W/I.*
	local args
	case $2 in
	load)    args=(--name "$N" reno) ;;
	replace) args=(--replace "$N" vegas) ;;
	unload)  args=(--unload "$N") ;;
	apply)   args=(--apply "$W/conf") ;;
	esac
	"${L[@]}" "${args[@]}" >"$W/$1.out" 2>"$W/$1.err"
	echo $? >"$W/$1.rc"
}

modes=(map)
[ "$(kernel_reg_mode)" = link ] && modes=(link map)
for by in "${modes[@]}"; do
	export TCPCA_REGISTER_BY=$by
	bad_state=0 bad_reason=0 orphans=0 made=0 unloaded=0 replaced=0 t0=$(date +%s)
	for r in $(seq "$rounds"); do
		ledger=0
		if [ $((r % 2)) -eq 1 ]; then
			"${L[@]}" --name "$N" reno >/dev/null || bail_out "$by round $r: cannot register $N"
			ledger=1
		fi
		for i in "${!writers[@]}"; do writer "$i" "${writers[i]}" & done
		wait
		for i in "${!writers[@]}"; do
			rc=$(cat "$W/$i.rc")
			if [ "$rc" -eq 0 ]; then
				case ${writers[i]} in
				load)    ledger=$((ledger + 1)) ;;
				unload)  ledger=$((ledger - 1)) unloaded=$((unloaded + 1)) ;;
				replace) replaced=$((replaced + 1)) ;;
				apply)   grep -qx "register $N reno" "$W/$i.out" && ledger=$((ledger + 1)) ;;
				esac
				continue
			fi
			said=$(grep -v "note: waiting for the lock on $TEST_PIN_DIR" "$W/$i.err")
			if [ "$(grep -c . <<<"$said")" -ne 1 ] || ! grep -Eq "^tcpca-load: ($reasons)$" <<<"$said"; then
				bad_reason=$((bad_reason + 1))
				diag "$by round $r: ${writers[i]} exited $rc and said: $said"
			fi
		done
		made=$((made + (ledger > 0)))
		registered=0
		ca_is_registered "$N" && registered=1
		truth=0
		tells_truth "$N" || truth=1	# one --list, in $truth_rows for the rest
		orphans=$((orphans + $(sed -n 2p <<<"$truth_rows" | grep -vcx -- -)))
		if [ "$ledger" != "$registered" ] || [ "$truth" != 0 ] ||
			{ [ "$registered" = 1 ] && ! is_whole "$N" "$by" "$truth_rows"; } ||
			{ [ "$registered" = 0 ] && ! is_clean "$N" "$truth_rows"; }; then
			bad_state=$((bad_state + 1))
			diag "$by round $r: made less unloaded $ledger, registered $registered; $truth_said"
		fi
		if [ "$registered" = 1 ] || ! is_clean "$N" "$truth_rows"; then
			"${L[@]}" --unload "$N" >/dev/null 2>&1
			is_clean "$N" || bail_out "$by round $r: cannot get back to clean"
		fi
	done
	diag "$by: $rounds rounds of ${#writers[@]} writers in $(( $(date +%s) - t0 )) s: $made ended registered, $unloaded unloads and $replaced replaces succeeded"
	is "$bad_state" 0 "$by: every round ends as the writers say, registered once at most, whole or clean"
	is "$orphans" 0 "$by: no orphan in $rounds rounds"
	is "$bad_reason" 0 "$by: every writer that failed said why, in one line"
	cmp_ok "$made" ">" 0 "$by: rounds ended registered (the race was run, not only unloads)"
done
unset TCPCA_REGISTER_BY

# The lock, held here (flock(1) on an fd of the directory) as a writer holds it
exec {lock}<"$TEST_PIN_DIR" && flock -x "$lock" || bail_out "cannot lock $TEST_PIN_DIR"
t0=$(date +%s%N)
said=$(TCPCA_LOCK_TIMEOUT=1 "${L[@]}" --name "$N" reno 2>&1 >/dev/null); rc=$?
waited=$(( ($(date +%s%N) - t0) / 1000000 ))
is "$rc|$said" "1|tcpca-load: note: waiting for the lock on $TEST_PIN_DIR: another tcpca-load is changing it
tcpca-load: $TEST_PIN_DIR is busy: waited 1 s for another tcpca-load's lock on it; try again" \
	"a writer finds the lock held: says it waits, then gives up, busy"
cmp_ok "$waited" ">=" 1000 "... after waiting the 1 s it was given (${waited} ms)"
is_clean "$N"; ok $? "... and changed nothing"
timeout 20 "${L[@]}" --list >/dev/null; ok $? "--list does not wait for the lock"
exec {lock}<&-
"${L[@]}" --name "$N" reno >/dev/null; ok $? "once it is free, a writer goes ahead"
"${L[@]}" --unload "$N" >/dev/null

diag "$SECONDS s in all"
done_testing
