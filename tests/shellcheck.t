#!/usr/bin/env bash
# Shellcheck finds nothing in the shell code of scripts/, tests/, .ci/, the
# testbed (tools/testbed, tools/linkem/measure-capacity.sh, the installed
# bench's --alg parser and wrapper), tools/distro and tools/vm: an
# exception is a `# shellcheck disable=SCxxxx # why` beside its line, or in
# .shellcheckrc with its reason.  No root needed.
# shellcheck source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
command -v shellcheck >/dev/null || skip_all "needs shellcheck (scripts/install-deps)"
cd "$(dirname "$0")/.." || bail_out "no repository"
plan 1

# scripts/ holds Python too (gen-docs): the shell ones are those whose #! says so
shell_scripts=()
for f in scripts/*; do
	head -n 1 "$f" | grep -Eq '^#!.*(ba|da|k)?sh( |$)' && shell_scripts+=("$f")
done
files=(.ci/run "${shell_scripts[@]}" tests/*.t tests/lib/*.sh tools/testbed/*.sh tools/linkem/measure-capacity.sh
       tools/distro/* tools/vm/* tools/bench/lib/algspec.sh tools/bench/tcpca-bench.in)
# a few files a process, on every core: each file alone takes seconds
out=$(printf '%s\0' "${files[@]}" | xargs -0 -n 6 -P "$(nproc)" shellcheck -f gcc 2>&1)
is "$out" "" "shellcheck finds nothing in ${#files[@]} files"
