#!/usr/bin/env bash
# In a tools/distro root: the README's first command, ./scripts/setup, as a
# new user of that release runs it.  It installs the release's packages
# (scripts/install-deps --guest), builds without a warning and registers
# hybla in the kernel, which the root shares with the host, and is
# unloaded after, on every exit path.  A hybla registered already (a host
# that ran setup itself) is left alone: setup then registers it under a
# name and pin dir of this test's own.  Says which toolchain it built with.
# shellcheck source=../../tests/lib/tap.sh
. "$(dirname "$0")/../../tests/lib/tap.sh"
# shellcheck source=../testbed/netns.sh
. "$(dirname "$0")/../testbed/netns.sh"
need_root
time_limit 1200		# the first run installs ~150 packages
cd "$TCPCA_ROOT" || bail_out "no tree at $TCPCA_ROOT"

available() { tr '[:blank:]' '\n' </proc/sys/net/ipv4/tcp_available_congestion_control | grep -qx "$1"; }
name=hybla pin_dir=/sys/fs/bpf/tcpca args=()
if available hybla; then
	name=${RUN_ID}hybla pin_dir=$TEST_PIN_DIR
	args=(hybla --name "$name" --pin-dir "$pin_dir")
	use_test_pin_dir
	diag "hybla is registered already, not by this test: ./scripts/setup ${args[*]}"
fi
on_exit "! available '$name' || '$TCPCA_LOAD' --pin-dir '$pin_dir' --unload '$name' >/dev/null"

said=$(./scripts/setup "${args[@]}" 2>&1)
if ! ok $? "./scripts/setup exits 0"; then
	printf '%s\n' "$said" | tail -n 30 | sed 's/^/# /' >&2
fi
is "$(printf '%s\n' "$said" | grep -E ': warning:')" "" "... and its build says no warning"
like "$said" "registered hybla as '$name' \(restricted\) by (link|map), pinned at $pin_dir/$name" \
	"... and registers hybla as '$name'"
available "$name"; ok $? "'$name' is in the kernel's tcp_available_congestion_control"
like "$("$TCPCA_LOAD" --pin-dir "$pin_dir" --list)" "
$name +hybla +(link|map) " "tcpca-load --list shows it registered"

diag "toolchain: $(clang --version | head -n 1); libbpf-dev $(dpkg-query -W -f='${Version}' libbpf-dev);" \
	"$(bpftool version | head -n 1); gcc $(gcc -dumpfullversion)"

"$TCPCA_LOAD" --pin-dir "$pin_dir" --unload "$name" >/dev/null; ok $? "tcpca-load --unload $name"
! available "$name"; ok $? "... and '$name' is gone from the kernel"
done_testing
