#!/usr/bin/env bash
# In a tools/distro root, after setup.t: the rest of the build (the unit
# tests and the objects the loader's tests feed it) with this release's
# toolchain, without a warning.
# shellcheck source=../../tests/lib/tap.sh
. "$(dirname "$0")/../../tests/lib/tap.sh"
# shellcheck source=../testbed/netns.sh
. "$(dirname "$0")/../testbed/netns.sh"
time_limit 600
cd "$TCPCA_ROOT" || bail_out "no tree at $TCPCA_ROOT"
said=$(make -s all unit 2>&1)
if ! ok $? "make all unit"; then
	printf '%s\n' "$said" | tail -n 30 | sed 's/^/# /' >&2
fi
is "$(printf '%s\n' "$said" | grep -E ': warning:')" "" "... says no warning"
[ -x tcpca-load ]; ok $? "... and leaves ./tcpca-load"
done_testing
