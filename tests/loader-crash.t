#!/usr/bin/env bash
# The loader stopped at every step of a change (TCPCA_FAULT=STEP:kill, a
# crash; STEP:err, the failure path), in load, --replace, --unload and
# --apply, by link and by map: the stop happens at that step, --list then
# tells the truth (what is registered, by which pins or as an orphan, and
# which map runs), --apply brings the registration back whole, and
# --unload leaves nothing behind.  Then an orphan made by hand (pins removed
# under a registration by map): --list shows it, --unload NAME and --apply
# remove it.  An ops pin that is not a struct_ops map: an error.
# TCPCA_CRASH_HOW chooses the ways to stop: "kill err" by default, "kill"
# in the VM (tools/vm: TCG makes the whole 274 s there, kill alone ~140 s;
# the error paths are the same code on the host by map).
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/netns.sh
. "$(dirname "$0")/../tools/testbed/netns.sh"
# shellcheck source=lib/registration.sh
. "$(dirname "$0")/lib/registration.sh"
need_root
time_limit 400
use_test_pin_dir

L=("$TCPCA_LOAD" --pin-dir "$TEST_PIN_DIR")
N="${RUN_ID}x"
conf=$(mktemp) errf=$(mktemp)
on_exit "rm -f '$conf' '$errf'"
printf '%s reno\n' "$N" >"$conf"
read -ra hows <<<"${TCPCA_CRASH_HOW:-$([ -n "${TCPCA_THROWAWAY_KERNEL:-}" ] && echo kill || echo kill err)}"

# the steps of each command (loader/*.c: fault("...")); "locked" is every
# writer's first
declare -A steps=(
	[load]="locked load.verified load.dir load.pinned load.linked load.registered"
	[replace]="locked replace.verified replace.staged replace.unregistered replace.swapped replace.adopting"
	[unload]="locked unload.unregistered unpinning"
	[apply]="locked apply.planned load.pinned apply.changed"
)

# stopped HOW STEP COMMAND...: runs it stopped at STEP; true if it stopped
# there.  After the kernel's swap a replace is done, and an error moving
# its pins is a warning with what is left to do, not a failure.
stopped() {
	local how=$1 step=$2 rc; shift 2
	# the shell's "Killed" goes to the substitution's stderr
	rc=$( { TCPCA_FAULT="$step:$how" "$@" >/dev/null 2>"$errf"; echo $?; } 2>/dev/null)
	if [ "$how" = kill ]; then
		[ "$rc" -eq 137 ]
	elif [ "$step" = replace.adopting ]; then
		[ "$rc" -eq 0 ] && grep -q "fault injected at $step\$" "$errf" &&
			grep -q "now runs vegas, but its pins are not all in place" "$errf"
	else
		[ "$rc" -ne 0 ] && grep -q "fault injected at $step\$" "$errf"
	fi
}

modes=(map)
[ "$(kernel_reg_mode)" = link ] && modes=(link map)
stops=0
for by in "${modes[@]}"; do
	export TCPCA_REGISTER_BY=$by
	for cmd in load replace unload apply; do
		for step in ${steps[$cmd]}; do
			# by link nothing is unregistered before the swap; by map nothing is linked
			[ "$by" = link ] && [ "$step" = replace.unregistered ] && continue
			[ "$by" = map ] && [ "$step" = load.linked ] && continue
			for how in "${hows[@]}"; do
				what="$by: $cmd stopped at $step ($how)"
				case $cmd in
				load)    set -- "${L[@]}" --name "$N" reno ;;
				replace) "${L[@]}" --name "$N" reno >/dev/null || bail_out "$what: cannot set up"
					 set -- "${L[@]}" --replace "$N" vegas ;;
				unload)  "${L[@]}" --name "$N" reno >/dev/null || bail_out "$what: cannot set up"
					 set -- "${L[@]}" --unload "$N" ;;
				apply)   set -- "${L[@]}" --apply "$conf" ;;
				esac
				if ! stopped "$how" "$step" "$@"; then
					fail "$what: stops there"
					diag "it said: $(cat "$errf")"
				else
					stops=$((stops + 1))
					tells_truth_settled "$N"; ok $? "$what: --list tells the truth" ||
						diag "$truth_said"
				fi
				out=$("${L[@]}" --apply "$conf" 2>&1); rc=$?
				is_whole "$N" "$by"; ok $? "$what: --apply makes it whole" ||
					diag "exit $rc: $out; --list: $(list_rows "$N" | paste -sd '|')"
				out=$("${L[@]}" --unload "$N" 2>&1); rc=$?
				is_clean "$N"; ok $? "$what: --unload leaves nothing" ||
					diag "exit $rc: $out; --list: $(list_rows "$N" | paste -sd '|')"
				# never go on from a dirty state: the next case would judge this one's leftovers
				is_clean "$N" || bail_out "$N not clean after $what"
			done
		done
	done
done
unset TCPCA_REGISTER_BY
diag "stops: $stops (${hows[*]} at each step; ${modes[*]})"

# An orphan by map: its pins removed by hand under a registration.
orphan() {
	TCPCA_REGISTER_BY=map "${L[@]}" --name "$N" vegas >/dev/null &&
		rm -r "${TEST_PIN_DIR:?}/$N"
}
orphan || bail_out "cannot register $N by map"
rows=$(list_rows "$N")
like "$(sed -n 2p <<<"$rows")" "^$N +vegas +map +0 +[0-9]+ +restricted +\(none\)$" \
	"an orphan by map: --list shows it, PIN (none)"
like "$("${L[@]}" --list)" "orphans: registered by tcpca objects, owned by no pin" "... under its heading"
out=$("${L[@]}" --unload "$N" 2>&1)
like "$out" "^unregistered the orphan '$N' \(map [0-9]+\), which no pin owned$" "--unload $N removes it"
is_clean "$N"; ok $? "... and nothing of it is left"
orphan || bail_out "cannot register $N by map"
out=$("${L[@]}" --apply "$conf" 2>&1)
like "$out" "^remove orphan $N: vegas map [0-9]+, registered and owned by no pin
register $N reno$" "--apply removes an orphan of a name it registers, then registers it"
is_whole "$N" "$(kernel_reg_mode)"; ok $? "... whole"
"${L[@]}" --unload "$N" >/dev/null
orphan || bail_out "cannot register $N by map"
out=$("${L[@]}" --apply /dev/null 2>&1)
like "$out" "^remove orphan $N: vegas map [0-9]+, registered and owned by no pin$" \
	"--apply of a file without it removes it too"
is_clean "$N"; ok $? "... and nothing of it is left"

# An ops pin that is not a struct_ops map is an error, not "unregistered":
# --unload stops there and leaves the registration as it is
TCPCA_REGISTER_BY=map "${L[@]}" --name "$N" reno >/dev/null || bail_out "cannot register $N by map"
d="$TEST_PIN_DIR/$N"
mv "$d/ops" "$d/kept" && mv "$d/counters" "$d/ops" || bail_out "cannot move pins in $d"
out=$("${L[@]}" --unload "$N" 2>&1); rc=$?
is "$rc|$out" "1|tcpca-load: cannot read the struct_ops map pinned at $d/ops: not a congestion control" \
	"an ops pin that is no struct_ops map: --unload says so and fails"
ca_is_registered "$N"; ok $? "... and leaves $N registered"
mv "$d/ops" "$d/counters" && mv "$d/kept" "$d/ops" || bail_out "cannot move pins back in $d"
"${L[@]}" --unload "$N" >/dev/null; is_clean "$N"; ok $? "... which unloads once its pins are right"

if [ "$(kernel_reg_mode)" = link ]; then
	# A link that only a process holds (a loader stopped between
	# bpf_link_create() and its pin, holding the lock): a reader shows it;
	# --unload from another directory detaches it, where the kernel can.
	TCPCA_FAULT=load.linked:stop "${L[@]}" --name "$N" reno >/dev/null 2>&1 &
	held=$!
	for _ in $(seq 100); do ca_is_registered "$N" && break; sleep 0.1; done
	like "$(list_rows "$N" | sed -n 2p)" "^$N +reno +link +[1-9][0-9]* +[0-9]+ +restricted +\(none\)$" \
		"a link held by a stopped loader only: --list shows it as an orphan"
	out=$("$TCPCA_LOAD" --pin-dir "$TEST_PIN_DIR-o" --unload "$N" 2>&1); rc=$?
	rmdir "$TEST_PIN_DIR-o" 2>/dev/null
	if [ $rc -eq 0 ]; then
		like "$out" "^unregistered the orphan '$N' \(link [0-9]+\), which no pin owned$" \
			"--unload $N (another directory: this one is locked) detaches it"
		tells_truth_settled "$N"; ok $? "... and --list agrees" || diag "$truth_said"
	else
		like "$out" "cannot detach the link [0-9]+ of the orphan '$N': this kernel cannot" \
			"--unload $N says this kernel cannot detach it"
	fi
	kill -KILL "$held"; wait "$held" 2>/dev/null
	"${L[@]}" --unload "$N" >/dev/null 2>&1
	for _ in $(seq 30); do is_clean "$N" && break; sleep 0.1; done
	is_clean "$N"; ok $? "... and once the loader is gone nothing of it is left"
fi

diag "$SECONDS s in all"
done_testing
