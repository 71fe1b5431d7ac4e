# shellcheck shell=bash
# What the kernel and `tcpca-load --list` say of one registration NAME
# under the test's pin directory, for the tests that stop the loader or race
# it (loader-crash.t, loader-concurrency.t).  Needs L=(tcpca-load --pin-dir
# DIR) and TEST_PIN_DIR.

ca_is_registered() { grep -qw "$1" /proc/sys/net/ipv4/tcp_available_congestion_control; }

# list_rows NAME: --list's row of NAME under the pin directory, then its
# orphan row (PIN "(none)"), each "-" when there is none
list_rows() {
	"${L[@]}" --list | awk -v n="$1" -v d="$TEST_PIN_DIR/$1" '
		$1 == n && $NF == d { row = $0 } $1 == n && $NF == "(none)" { orphan = $0 }
		END { print (row == "" ? "-" : row); print (orphan == "" ? "-" : orphan) }'
}

# struct_ops_map_is MAP NAME BY: the kernel's map MAP carries the CA name
# NAME, and by map it is registered by its map update (in use)
struct_ops_map_is() {
	local dump
	dump=$(bpftool -j struct_ops dump id "$1" 2>/dev/null) || return 1
	grep -q "\"name\":\"$2\"" <<<"$dump" || return 1
	[ "$3" != map ] || grep -q '"state":"BPF_STRUCT_OPS_STATE_INUSE"' <<<"$dump"
}

# tells_truth NAME: --list agrees with the kernel: the directory has a row
# iff it exists; NAME is registered iff --list says so, by its pins or as
# an orphan, not both; and the map it names carries NAME (in use, by map).
# Says why not in $truth_said.
# The rows it judged stay in $truth_rows, for is_whole and is_clean.
tells_truth() {
	local name=$1 rows row orphan registered=no by_row=no by_orphan=no dir=no map by r
	rows=$(list_rows "$name")
	# shellcheck disable=SC2034 # for the caller
	truth_rows=$rows
	row=$(sed -n 1p <<<"$rows") orphan=$(sed -n 2p <<<"$rows")
	ca_is_registered "$name" && registered=yes
	[ -d "$TEST_PIN_DIR/$name" ] && dir=yes
	[ "$row" != - ] && ! awk '{ exit !($6 == "unregistered" || $6 == "incomplete") }' <<<"$row" &&
		by_row=yes
	[ "$orphan" != - ] && by_orphan=yes
	# shellcheck disable=SC2034 # for the caller's diagnostics
	truth_said="kernel: registered=$registered, directory=$dir; --list: row '$row', orphan '$orphan'"
	[ "$dir" = "$([ "$row" != - ] && echo yes || echo no)" ] || return 1
	case "$registered:$by_row:$by_orphan" in
	yes:yes:no | yes:no:yes | no:no:no) ;;
	*) return 1 ;;
	esac
	for r in "$row" "$orphan"; do
		[ "$r" != - ] || continue
		read -r _ _ by _ map _ <<<"$r"
		[ "$map" != 0 ] || continue
		if [ "$r" = "$orphan" ] || [ "$by_row" = yes ]; then
			struct_ops_map_is "$map" "$name" "$by" || return 1
		fi
	done
	return 0
}

# tells_truth_settled NAME: tells_truth, given up to 3 s for the kernel to
# drop what a killed loader's fds held (it frees links from a work item)
tells_truth_settled() {
	for _ in $(seq 30); do
		tells_truth "$1" && return 0
		sleep 0.1
	done
	return 1
}

# is_clean NAME [ROWS]: nothing of NAME anywhere: no directory, not
# registered, no orphan (ROWS: list_rows's, if just taken)
is_clean() {
	[ ! -e "$TEST_PIN_DIR/$1" ] && ! ca_is_registered "$1" &&
		[ "${2:-$(list_rows "$1")}" = "$(printf -- '-\n-')" ]
}

# is_whole NAME MODE [ROWS]: registered by its own pins, every leaf there,
# nothing staged
is_whole() {
	local d="$TEST_PIN_DIR/$1" rows=${3:-}
	[ -n "$rows" ] || rows=$(list_rows "$1")
	[ -e "$d/ops" ] && [ -e "$d/counters" ] && [ -e "$d/sockets" ] && [ -e "$d/events" ] &&
		[ ! -e "$d/next" ] && { [ "$2" = map ] || [ -e "$d/link" ]; } &&
		awk -v m="$2" 'NR == 1 { ok = $3 == m && ($6 == "restricted" || $6 == "allowed") }
			NR == 2 { ok = ok && $0 == "-" } END { exit !ok }' <<<"$rows"
}
