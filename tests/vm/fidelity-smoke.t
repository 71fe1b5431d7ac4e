#!/usr/bin/env bash
# make fidelity in small: reno against bpf_reno, the deterministic scenario
# only, quick (3 repetitions of 6 s each), and the verdict asserted.  In the
# Debian 6.1 VM when tools/vm/run exists (FIDELITY_SMOKE_LOCAL=1: on this
# kernel instead), else on this kernel, where reno is built in as it is
# everywhere.  Only reno: the one pair every kernel has, and the one whose
# deterministic scenario repeats itself closely enough that a FAIL means a
# difference (docs/fidelity.md: tolerance).  Run with: prove tests/vm/
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../../tools/testbed/netns.sh"
need_root
for c in python3 gnuplot iperf3; do command -v "$c" >/dev/null || skip_all "needs $c"; done
[ -x "$TCPCA_LOAD" ] || bail_out "build tcpca-load first (make)"
time_limit 600
plan 6

out=$(mktemp -d /tmp/tcpca-fidelity-smoke.XXXXXX)
on_exit "rm -rf '$out'"
where=()
if [ ! -x "$TCPCA_ROOT/tools/vm/run" ] || [ -n "${FIDELITY_SMOKE_LOCAL:-}" ]; then
	where=(--local)
fi
diag "running ${where[*]:-in the VM}"
"$TCPCA_ROOT/tools/fidelity/run" --no-build "${where[@]}" --quick --algs reno --only det \
	--reps 3 --timeout 480 --out "$out/r" >"$out/log" 2>&1
rc=$?
[ $rc -le 1 ]
ok $? "tools/fidelity/run completed (status $rc)" || diag "$(tail -n 5 "$out/log")"
test -s "$out/r/report.md"
ok $? "report.md written"
test -s "$out/r/plots/det-reno.png"
ok $? "overlaid cwnd plot written"
n=$(ls "$out"/r/det/reno/native-*.csv "$out"/r/det/reno/ours-*.csv 2>/dev/null | wc -l)
is "$n" 6 "three native and three bpf_reno traces"
v=$(awk -F, '$1 == "reno" && $2 == "ours" && $3 == "det" { print $4 }' "$out/r/verdicts.csv" 2>/dev/null)
is "$v" PASS "reno vs bpf_reno: the deterministic scenario passes" ||
	diag "$(grep -A 12 'reno — det' "$out/r/report.md" | grep '|')"
v=$(awk -F, '$1 == "reno" && $2 == "ours" && $3 == "reps" { print $4 }' "$out/r/verdicts.csv" 2>/dev/null)
is "$v" PASS "reno vs bpf_reno: goodput and RTT over the repetitions pass"
done_testing
