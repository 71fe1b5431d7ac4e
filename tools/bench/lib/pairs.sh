# shellcheck shell=bash
# The serial order of one repetition of a paired scenario (SC_PAIRED=1,
# tools/bench/run): each pair back to back, the BPF copy first in odd
# repetitions and the kernel's own first in even ones, so that what drifts
# between the two runs of a pair (the load coming or going, caches warming)
# falls on each side equally often and cancels in the pairs' median.
#
#   pair_order REP COPY:ORIGINAL...    one algorithm a line
pair_order() {
	local rep=$1 p
	shift
	for p in "$@"; do
		if [ $((rep % 2)) = 1 ]; then
			printf '%s\n' "${p%%:*}" "${p#*:}"
		else
			printf '%s\n' "${p#*:}" "${p%%:*}"
		fi
	done
}
