# shellcheck shell=bash
# Replays: a test that ran elsewhere (a VM, a Debian root) becomes a script
# here that prints its TAP and exits with its status, so that one prove
# summarises everything.

# replay_failed DIR NAME MESSAGE: a replay DIR/NAME of one failing test
# saying MESSAGE, for a run that gave no results of its own: prove counts it.
replay_failed() {
	mkdir -p "$1" &&
	printf '#!/bin/sh\necho 1..1\necho "not ok 1 - %s"\nexit 1\n' "$3" >"$1/$2" &&
	chmod +x "$1/$2"
}
