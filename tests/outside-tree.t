#!/usr/bin/env bash
# An algorithm of one's own, from the installed packages only: tcpca and
# tcpca-dev unpacked into a throwaway root (dpkg -x of the .debs that
# tests/package.t built, where they are of the tree as it is now; else
# make install install-dev into it, what debian/rules does), the template
# copied into an empty directory and built with the tree hidden (a tmpfs
# over it, in a mount namespace of the build's own), then every command of
# docs/writing-an-algorithm.md as the guide writes it (the guide's copy in
# the root is read, and must hold no command this test did not run), in a
# namespace of the test's, under the test's name and pin directory:
# load with a parameter, --list, a transfer, --show, --events, --set,
# a quick bench scenario with the installed tcpca-testbed, --unload.  Then a transfer over linkem with loss, during which --set
# changes the tunable: --events shows the decrease follow it.  About 30 s.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source=../tools/testbed/netns.sh
. "$(dirname "$0")/../tools/testbed/netns.sh"
# shellcheck source=lib/flows.sh
. "$(dirname "$0")/lib/flows.sh"
# shellcheck source=../tools/testbed/testbed.sh
. "$(dirname "$0")/../tools/testbed/testbed.sh"
# shellcheck source=lib/debs.sh
. "$(dirname "$0")/lib/debs.sh"
need_root
for t in make clang bpftool iperf3 nsenter unshare strings pkg-config python3; do
	command -v "$t" >/dev/null || skip_all "needs $t (scripts/install-deps)"
done
time_limit 300

W=$(mktemp -d /tmp/tcpca-outside.XXXXXX) || bail_out "no temporary directory"
on_exit "rm -rf '$W'"
R=$W/root	# what the packages install
RL=$R/usr/sbin/tcpca-load
N=${RUN_ID}myreno	# the guide's "myreno", under the test's own name
on_exit "[ ! -x '$RL' ] || '$RL' --pin-dir '$TEST_PIN_DIR' --unload --all; rmdir '$TEST_PIN_DIR'"

if debs_fresh; then
	how="dpkg -x of $DEB_DIR's tcpca, tcpca-dev and tcpca-testbed"
	for d in "$DEB_DIR"/tcpca_*.deb "$DEB_DIR"/tcpca-dev_*.deb "$DEB_DIR"/tcpca-testbed_*.deb; do
		dpkg -x "$d" "$R" || break
	done
else
	how="make install install-dev install-testbed (no packages of the tree as it is: tests/package.t keeps them)"
	make -s -C "$TCPCA_ROOT" install install-dev install-testbed DESTDIR="$R" PREFIX=/usr >"$W/install.log" 2>&1
fi
[ -x "$RL" ] && [ -f "$R/usr/share/tcpca/tcpca.mk" ] && [ -f "$R/usr/include/tcpca/vmlinux.h" ] &&
	[ -x "$R/usr/bin/tcpca-bench" ]
ok $? "installed into $R: $how" || bail_out "nothing installed ($(tail -n 3 "$W/install.log" 2>/dev/null))"
# dh_compress makes it .md.gz in the package
GUIDE=$R/usr/share/doc/tcpca-dev/writing-an-algorithm.md
[ -f "$GUIDE" ] || GUIDE=$GUIDE.gz

G=${RUN_ID}g	# the guide's commands run in this namespace
ns_create "$G" || bail_out "cannot make namespace $G"

# The guide's commands, run as it writes them: while guide() runs one,
# these stand in for the installed programs, with the test's pin directory
# and name, in the test's namespace (nsenter, not ip netns exec, which
# hides bpffs), paths in /usr/ taken in the root; make with the source
# tree hidden.  Elsewhere (the testbed builds linkem) they are themselves.
in_guide=0
mapped() {	# the arguments, "myreno" (a CA's name here) as the test's name, /usr/... in the root
	local a
	for a in "$@"; do
		case $a in
		myreno) printf '%s\0' "$N" ;;
		/usr/*) printf '%s\0' "$R$a" ;;
		*) printf '%s\0' "$a" ;;
		esac
	done
}
tcpca-load() {
	[ "$in_guide" = 1 ] || { command tcpca-load "$@"; return; }
	local args
	mapfile -d '' args < <(mapped "$@")
	nsenter --net="/run/netns/$G" "$RL" --pin-dir "$TEST_PIN_DIR" "${args[@]}"
}
iperf3() {
	[ "$in_guide" = 1 ] || { command iperf3 "$@"; return; }
	local args
	mapfile -d '' args < <(mapped "$@")
	nsenter --net="/run/netns/$G" timeout 60 iperf3 "${args[@]}"
}
cp() {	# only the template's path: "myreno" is a directory here
	[ "$in_guide" = 1 ] || { command cp "$@"; return; }
	command cp "${@/#\/usr\//$R/usr/}"
}
pkg-config() {
	[ "$in_guide" = 1 ] || { command pkg-config "$@"; return; }
	PKG_CONFIG_PATH="$R/usr/share/pkgconfig" command pkg-config --define-prefix "$@"
}
tcpca-bench() {	# the installed one, with the installed loader on PATH
	[ "$in_guide" = 1 ] || { command tcpca-bench "$@"; return; }
	PATH="$R/usr/sbin:$R/usr/bin:$PATH" "$R/usr/bin/tcpca-bench" "$@"
}
make() {
	[ "$in_guide" = 1 ] || { command make "$@"; return; }
	# shellcheck disable=SC2016 # $1 is the inner shell's: the tree
	unshare --mount --propagation private -- sh -c 'mount -t tmpfs tcpca-hidden "$1" && shift && exec make "$@"' \
		sh "$TCPCA_ROOT" TCPCA_MK="$R/usr/share/tcpca/tcpca.mk" "$@"
}

# guide LINE: run LINE as the guide has it; its output in $out, noted as run
ran=()
guide_n=0
guide() {
	guide_n=$((guide_n + 1))
	ran+=("$1")
	in_guide=1
	eval "$1" >"$W/out.$guide_n" 2>&1
	local rc=$?
	in_guide=0
	out=$(cat "$W/out.$guide_n")
	return $rc
}

cd "$W" || bail_out "cannot enter $W"
guide "cp -r /usr/share/tcpca/template myreno"
ok $? "the template copied out of the root"
guide "cd myreno"
ok $? "... into $W/myreno, outside the tree"
guide "make"
ok $? "make builds it with the tree hidden: tcpca-dev's files alone" || diag "$out"
[ -f myreno.bpf.o ]; ok $? "... into myreno.bpf.o"
headers=$(strings -a myreno.bpf.o | grep -c "^$R/usr/include/tcpca/")
cmp_ok "$headers" ">" 0 "... from the root's headers, as its BTF says"
is "$(strings -a myreno.bpf.o | grep -cF "$TCPCA_ROOT")" 0 "... and names nothing of the tree"
# the guide's build without make, by tcpca.pc: the same object
command cp myreno.bpf.o "$W/made.bpf.o"
# shellcheck disable=SC2016 # the guide's line, expanded when run
guide 'clang $(pkg-config --variable=bpf_cflags tcpca) $(pkg-config --cflags tcpca) -c myreno.bpf.c -o myreno.clang.o' &&
	guide "bpftool gen object myreno.bpf.o myreno.clang.o" && guide "rm myreno.clang.o"
ok $? "the guide's build by pkg-config (tcpca.pc) runs" || diag "$out"
cmp -s myreno.bpf.o "$W/made.bpf.o"
ok $? "... and makes the same object as tcpca.mk"

# -- from here, what waits on tcpca-load reading an object's tunables: the
# parameter at load, --show's parameters, --set
guide "tcpca-load --name myreno ./myreno.bpf.o beta=717"
if ! ok $? "registers as $N with beta=717"; then
	diag "$out"
	# the rest can still be looked at, with the object's own default
	"$RL" --pin-dir "$TEST_PIN_DIR" --name "$N" ./myreno.bpf.o >/dev/null ||
		bail_out "$N does not register even without its parameter"
fi
guide "tcpca-load --list"
like "$out" "^$N +" "--list shows $N"

guide "iperf3 -s -1 -D"
ok $? "an iperf3 server in $G"
guide "iperf3 -c 127.0.0.1 -C myreno -t 10 -b 200M &"
# --show, until it sees the transfer's socket (iperf3 may start late)
for _ in $(seq 40); do
	guide "tcpca-load --show myreno"
	grep -q " rounds=" <<<"$out" && break
	sleep 0.25
done
printf '%s\n' "$out" | sed 's/^/# --show: /' >&2	# what the guide's reader sees
like "$out" "127\.0\.0\.1:[0-9]+ 127\.0\.0\.1:5201 .* rounds=[0-9]+" \
	"--show lists the transfer's socket, with the template's own field"
like "$out" "^counters:" "--show has the counters"
is "$(awk '$1 == "beta" { print $2 }' <<<"$out")" 717 "--show: beta 717, as loaded"
guide "tcpca-load --events myreno 2 | head -n 5"
printf '%s\n' "$out" | sed 's/^/# --events: /' >&2
is "$(head -n 1 <<<"$out")" "time_s,local,peer,kind,cwnd,ssthresh,srtt_us,v0,v1,v2,v3" "--events writes its CSV"
is "$(awk -F, 'NR > 1 && $4 == 1 { print $9 }' <<<"$out" | sort -u)" 717 \
	"... a round's record per round trip, carrying beta 717"
guide "tcpca-load --set myreno beta=600"
ok $? "--set myreno beta=600" || diag "$out"
guide "tcpca-load --show myreno"
is "$(awk '$1 == "beta" { print $2 }' <<<"$out")" 600 "--show: beta 600 after --set"

guide "tcpca-bench --quick --only wireless --alg myreno=./myreno.bpf.o --out bench"
ok $? "the installed tcpca-bench runs the wireless scenario on it" || diag "$(tail -n 5 <<<"$out")"
[ -s bench/report.md ]; ok $? "... its report in bench/report.md"
is "$(awk -F, '$3 == "myreno" { print $1, $2, $7 }' bench/results.csv 2>/dev/null)" "wireless loss1 ok" \
	"... and myreno's flow in bench/results.csv, carried"
is "$(awk -F, 'NR > 1 { print $3 }' bench/results.csv 2>/dev/null | sort | tr '\n' ' ')" \
	"bbr bpf_reno cubic myreno reno " "... beside bpf_reno, reno, cubic and bbr"

# Not in the guide: a path with loss, so that the decrease is seen at work,
# and --set halfway through a transfer.  8 MB at 20 Mbit/s is 3.2 s.
tb_link c s --rate 20mbit --delay 5ms --loss 1% --seed 7 || bail_out "cannot start the emulated link"
# the reader first: what the ring holds of the loopback transfer drained,
# so that this one's records find room
"$RL" --pin-dir "$TEST_PIN_DIR" --events "$N" 60 >"$W/events.csv" 2>&1 & events=$!
on_exit "kill $events"
sleep 0.5
xfer_check "$TB_CLIENT_NS" "$TB_SERVER_NS" 8000000 "$N" >"$W/xfer" & x=$!
# once it has run a little: its python may take a second to start
for _ in $(seq 100); do
	[ -n "$(nsx "$TB_CLIENT_NS" ss -Htn state established dst "$SERVER_IP")" ] && break
	sleep 0.1
done
sleep 0.5
"$RL" --pin-dir "$TEST_PIN_DIR" --set "$N" beta=300
ok $? "--set beta=300 during a transfer"
wait $x; ok $? "8 MB intact over linkem with 1% loss"
is "$(cat "$W/xfer")" "ca=$N" "... the sender on $N"
sleep 0.5	# the last ACKs' records
kill -TERM $events; wait $events
ev=$(awk -F, 'NR > 1 && $2 ~ /^198\.18\.0\.1:/' "$W/events.csv")
# beta as the rounds carry it, each change once: 600 until --set, then 300
is "$(awk -F, '$4 == 1 && $9 != last { printf "%s ", $9; last = $9 }' <<<"$ev")" "600 300 " \
	"--events: the rounds' beta went from 600 to 300 with --set"
losses=$(awk -F, '$4 == 2' <<<"$ev" | wc -l)
cmp_ok "$losses" ">" 0 "--events: losses recorded"
bad=$(awk -F, '$4 == 2 { s = int($8 * $10 / 1024); if (s < 2) s = 2; if ($9 != s) print }' <<<"$ev")
is "$bad" "" "... each setting ssthresh to beta/1024 of cwnd, with the beta then in force"
shown=$("$RL" --pin-dir "$TEST_PIN_DIR" --show "$N" | awk '$1 == "losses" { print $2 }')
cmp_ok "${shown:-0}" ">=" "$losses" "--show counts the losses (TCPCA_COUNT)"
tb_link_stop c

guide "tcpca-load --unload myreno"
ok $? "--unload myreno"
! grep -qw "$N" /proc/sys/net/ipv4/tcp_available_congestion_control && [ ! -e "$TEST_PIN_DIR/$N" ]
ok $? "... leaves nothing registered or pinned"

# every command the guide shows, and no other, is one run here
commands=$(zcat -f "$GUIDE" | awk '/^```sh$/ { on = 1; next } /^```/ { on = 0 } on && NF && !/^#/' |
	   sed 's/[[:space:]]\{2,\}#.*$//' | sort -u)
[ -n "$commands" ]; ok $? "the installed guide has commands"
is "$commands" "$(printf '%s\n' "${ran[@]}" | sort -u)" "... each of them run here as written"

done_testing
