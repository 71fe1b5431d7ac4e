#!/usr/bin/env bash
# In a tools/distro root: the README's first command, ./scripts/setup, as a
# new user of that release runs it.  It installs the release's packages
# (scripts/install-deps --guest), builds without a warning and registers
# hybla in the kernel, which the root shares with the host: so hybla must
# not be registered before (nothing of someone else's is touched), and is
# unloaded after, on every exit path.  Says which toolchain it built with.
# shellcheck source=../../tests/lib/tap.sh
. "$(dirname "$0")/../../tests/lib/tap.sh"
# shellcheck source=../testbed/netns.sh
. "$(dirname "$0")/../testbed/netns.sh"
need_root
time_limit 1200		# the first run installs ~150 packages
cd "$TCPCA_ROOT" || bail_out "no tree at $TCPCA_ROOT"

available() { tr '[:blank:]' '\n' </proc/sys/net/ipv4/tcp_available_congestion_control | grep -qx "$1"; }
available hybla && bail_out "hybla is registered in this kernel already, not by this test"
on_exit "! available hybla || '$TCPCA_LOAD' --unload hybla >/dev/null"

said=$(./scripts/setup 2>&1)
if ! ok $? "./scripts/setup exits 0"; then
	printf '%s\n' "$said" | tail -n 30 | sed 's/^/# /' >&2
fi
is "$(printf '%s\n' "$said" | grep -E ': warning:')" "" "... and its build says no warning"
like "$said" "registered hybla as 'hybla' \(restricted\) by (link|map), pinned at /sys/fs/bpf/tcpca/hybla" \
	"... and registers hybla"
available hybla; ok $? "hybla is in the kernel's tcp_available_congestion_control"
like "$("$TCPCA_LOAD" --list)" "
hybla +hybla +(link|map) " "tcpca-load --list shows it registered"

diag "toolchain: $(clang --version | head -n 1); libbpf-dev $(dpkg-query -W -f='${Version}' libbpf-dev);" \
	"$(bpftool version | head -n 1); gcc $(gcc -dumpfullversion)"

"$TCPCA_LOAD" --unload hybla >/dev/null; ok $? "tcpca-load --unload hybla"
! available hybla; ok $? "... and hybla is gone from the kernel"
done_testing
