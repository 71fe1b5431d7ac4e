#!/bin/bash
# The testbed as installed tools: `make install install-testbed` into a
# throwaway DESTDIR, then the installed tcpca-bench, run from a directory
# outside the tree with the installed tcpca-load on PATH, measures an
# object of the user's own (build/reno.bpf.o, as mycc.bpf.o) in the
# shortest scenario (lowprio, --quick: three 8 s cells at once) and writes
# its report, CSV and environment naming it, in ./results; it leaves no
# registration behind, nothing in the installed tree, and uninstalling
# removes what was installed.  Structure only: no figure is judged.
# About 15 s.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/netns.sh
. "$(dirname "$0")/../tools/testbed/netns.sh"
need_root
for t in iperf3 jq python3 make; do
	command -v "$t" >/dev/null || skip_all "needs $t (scripts/install-deps)"
done
obj="$TCPCA_ROOT/build/reno.bpf.o"
[ -f "$obj" ] && [ -x "$TCPCA_LOAD" ] || skip_all "needs make first ($obj, $TCPCA_LOAD)"
time_limit 120
plan 17

W=$(mktemp -d /tmp/tcpca-bench-object.XXXXXX) || bail_out "no temporary directory"
on_exit "rm -rf '$W'"
D=$W/root
make -s -C "$TCPCA_ROOT" install install-testbed DESTDIR="$D" PREFIX=/usr >"$W/make.log" 2>&1
ok $? "make install install-testbed DESTDIR=... PREFIX=/usr" || sed 's/^/# /' "$W/make.log" >&2
for f in usr/bin/tcpca-bench usr/bin/linkem usr/sbin/tcpca-load; do
	[ -x "$D/$f" ]; ok $? "it installs /$f"
done
[ -f "$D/usr/share/man/man1/linkem.1" ] && [ -f "$D/usr/share/man/man1/tcpca-bench.1" ]
ok $? "... and the man pages linkem(1), tcpca-bench(1)"

mkdir "$W/obj" "$W/work" && cp "$obj" "$W/obj/mycc.bpf.o"
touch "$W/before"
(cd "$W/work" && PATH="$D/usr/sbin:$D/usr/bin:$PATH" \
	tcpca-bench --quick --only lowprio --alg "$W/obj/mycc.bpf.o") >"$W/out" 2>"$W/err"
rc=$?
ok $rc "tcpca-bench --quick --only lowprio --alg mycc.bpf.o runs, from $W/work" ||
	tail -n 15 "$W/err" | sed 's/^/# /' >&2
run=$(tail -n 1 "$W/out")
like "$run" "^$W/work/results/[0-9-]+$" "... its results in ./results/<timestamp>"
[ "$(readlink "$W/work/results/latest")" = "$(basename "$run")" ]
ok $? "... and results/latest names them"

report=$run/report.md csv=$run/results.csv
like "$(cat "$report" 2>/dev/null)" "mycc" "report.md names mycc"
is "$(head -n 1 "$csv" 2>/dev/null | cut -d, -f1-7)" "scenario,variant,algorithm,ca_name,repetition,seconds,status" \
	"results.csv has its columns"
row=$(awk -F, '$1 == "lowprio" && $3 == "mycc"' "$csv" 2>/dev/null)
like "$row" "^lowprio,vs-reno,mycc,b[0-9]+u0,1,8,ok," "... and a row of mycc's, which carried its flow"
is "$(awk -F, 'NR > 1 { print $3 }' "$csv" 2>/dev/null | sort | tr '\n' ' ')" "bpf_reno mycc reno " \
	"... beside the scenario's baselines, not its own algorithm (lp)"
like "$(cat "$run/environment.md" 2>/dev/null)" "\| mycc \| \`$W/obj/mycc.bpf.o\`" "environment.md names the object"
grep -q "^$(sha256sum <"$obj" | cut -d' ' -f1)  $W/obj/mycc.bpf.o$" "$run/sources.sha256" 2>/dev/null
ok $? "sources.sha256 holds its checksum"

ca=$(echo "$row" | cut -d, -f4)
avail=" $(cat /proc/sys/net/ipv4/tcp_available_congestion_control) "
[ -n "$ca" ] && [[ $avail != *" $ca "* ]]
ok $? "its registration ($ca) is gone after the run"
is "$(find "$D" -newer "$W/before" | head -n 5)" "" "the run wrote nothing into the installed tree"

make -s -C "$TCPCA_ROOT" uninstall uninstall-testbed DESTDIR="$D" PREFIX=/usr >"$W/make.log" 2>&1
is "$(cd "$D" && find . -type f -o -type l | sort | tr '\n' ' ')" "./etc/tcpca.conf " \
	"make uninstall uninstall-testbed leaves only the administrator's /etc/tcpca.conf"
