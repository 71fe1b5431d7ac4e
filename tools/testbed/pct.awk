# The project's percentile, for awk and the shell (tools/testbed/pct.py is
# the same in Python, tools/linkem/pct.h in C): linear interpolation between
# the closest ranks.  Of values sorted ascending, at rank i = q (n - 1)
# counted from 0: the value at floor(i) plus the fraction of i times the
# step to the next value.  p0 is the least, p100 the greatest, p50 the
# usual median.  Plain POSIX awk (mawk, busybox): no asort.
#
# pct(V, N, Q): of V[1..N], sorted ascending.  As a library:
#   awk -f tools/testbed/pct.awk -f yours.awk
# As a program (testbed.sh tb_pct), with -v qs="Q...": the values on stdin,
# sorted ascending, one per line; prints "N P..." (N the count, then one
# percentile per Q), or "0 none..." when there are none.

function pct(v, n, q,   i, lo) {
	i = q * (n - 1) + 1
	lo = int(i)
	if (lo >= n)
		return v[n]
	return v[lo] + (v[lo + 1] - v[lo]) * (i - lo)
}

qs != "" { _pct_v[++_pct_n] = $1 + 0 }

END {
	if (qs == "")
		exit
	_pct_k = split(qs, _pct_q, " ")
	printf "%d", _pct_n
	for (_pct_j = 1; _pct_j <= _pct_k; _pct_j++)
		if (_pct_n)
			printf " %.10g", pct(_pct_v, _pct_n, _pct_q[_pct_j])
		else
			printf " none"
	printf "\n"
}
