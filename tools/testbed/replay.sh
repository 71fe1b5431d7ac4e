# shellcheck shell=bash
# Replays: a test that ran elsewhere (a VM, a Debian root) becomes a script
# here that prints its TAP and exits with its status, so that one prove
# summarises everything.

# replay_failed DIR NAME MESSAGE [FILE]: a replay DIR/NAME of one failing
# test saying MESSAGE, for a run that gave no results of its own: prove
# counts it.  FILE's lines, if given, become its diagnostics.
replay_failed() {
	mkdir -p "$1" || return
	{ printf '#!/bin/sh\necho 1..1\necho "not ok 1 - %s"\n' "$3"
	  if [ -s "${4:-}" ]; then
		printf "cat >&2 <<'@@DIAG@@'\n"
		sed 's/^/# /' "$4"
		printf '@@DIAG@@\n'
	  fi
	  printf 'exit 1\n'; } >"$1/$2" && chmod +x "$1/$2"
}
