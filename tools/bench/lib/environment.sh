#!/bin/bash
# environment.sh OUTDIR LOADER QUICK: environment.md of a benchmark run on stdout.
set -u
out=$1 loader=$2 quick=$3
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)

first() { "$@" 2>&1 | head -1; }
ver() { command -v "$1" >/dev/null && first "$@" || echo "n/a (not installed)"; }

libbpf=$(pkg-config --modversion libbpf 2>/dev/null ||
	dpkg-query -W -f '${Version}' libbpf-dev 2>/dev/null || echo "n/a (no pkg-config or dpkg entry)")
commit=$(git -C "$root" rev-parse HEAD 2>/dev/null || echo "n/a (not a git checkout)")
dirty=$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null | wc -l)

cat <<EOF
# Environment

| item | value |
|---|---|
| date (UTC) | $(date -u '+%Y-%m-%d %H:%M:%S') |
| mode | $([ "$quick" = 1 ] && echo "quick (--quick: 1 repetition, short flows)" || echo full) |
| host | $(uname -n) |
| nproc | $(nproc) |
| CPU | $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1) |
| memory | $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) |
| kernel (uname -r) | $(uname -r) |
| clang | $(ver clang --version) |
| libbpf | $libbpf |
| bpftool | $(ver bpftool version) |
| iperf3 | $(ver iperf3 --version) |
| python3 | $(ver python3 --version) |
| gnuplot | $(ver gnuplot --version) |
| git commit | $commit$([ "$dirty" -gt 0 ] && echo " (+ $dirty modified tracked files)") |
| loader | $loader ($(first "$loader" --version)) |
| algorithm sources | sha256 of bpf/*.bpf.c and include/*.h (a checkout's) and of the --alg objects, at the start: [sources.sha256](sources.sha256) |
| host tcp_congestion_control (read only, never changed) | $(cat /proc/sys/net/ipv4/tcp_congestion_control) |
| load average at the end | $(cut -d' ' -f1-3 /proc/loadavg) |

## Algorithms

| logical name | registered as / why not |
|---|---|
EOF
# "object LABEL FILE": LABEL is an object given with --alg, not the loader's
declare -A object=()
while read -r what name rest; do
	[ "$what" = object ] && object[$name]=$rest
done <"$out/algorithms.txt"
while read -r what name rest; do
	if [ "$what" = ca ] && [ -n "${object[$name]:-}" ]; then
		echo "| $name | \`${object[$name]}\` (--alg; sha256 in sources.sha256), registered as \`$rest\` (--allow, pin dir of this run) |"
	elif [ "$what" = ca ]; then
		case $name in reno|cubic|bbr) echo "| $name | kernel built-in \`$rest\` |" ;;
		*) echo "| $name | tcpca BPF struct_ops, registered as \`$rest\` (--allow, pin dir of this run) |" ;; esac
	elif [ "$what" = missing ]; then
		echo "| $name | n/a ($rest) |"
	fi
done <"$out/algorithms.txt"

cat <<EOF

## Links (linkem settings per scenario)

Every cell gets its own linkem between two fresh namespaces (client 198.18.0.1,
server 198.18.0.2); the options below are passed verbatim (plus \`--seed\`,
the same for every algorithm of one variant and repetition, so every
algorithm meets the same i.i.d. loss pattern). \`up\` is the data direction.

| scenario | variant | linkem options | flow length | repetitions |
|---|---|---|---|---|
EOF
jq -r '. as $s | .variants[] | "| \($s.name) | \(.name) | `\($s.link) \(.extra)` | \($s.seconds) s | \($s.reps) |"' \
	"$out/scenarios.jsonl"

cat <<'EOF'

## Noise

Other work ran on this machine during the run (2 cores, shared). Per cell,
`cells/*/*/*/rep*/cell.env` records the load average before and after and
the number of network namespaces present (ours and others'); linkem's own
lateness (how late packets left against their schedule) is in
`linkem-c.json` and summarised in report.md.
EOF
