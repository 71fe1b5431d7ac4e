# SPDX-License-Identifier: GPL-2.0
"""The project's percentile, in Python (tools/testbed/pct.awk is the same
for shell and awk, tools/linkem/pct.h for C).

pct(values, q), q in [0, 1]: linear interpolation between the closest
ranks.  Sorted ascending v[0..n-1], i = q (n - 1): v[floor(i)] plus the
fraction of i times the step to the next value.  numpy's default; p0 is
the least, p100 the greatest, p50 the usual median.  None when empty.
"""


def pct(values, q):
    if not values:
        return None
    s = sorted(values)
    i = q * (len(s) - 1)
    lo = int(i)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (i - lo)
