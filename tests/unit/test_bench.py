#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The benchmark's reducers (tools/bench/lib), without root or a run:
percentiles, loss events with their time to regain 90 % of the window,
the 50 ms series, a trace's capacity, time to 90 % of capacity, the
median; the expectations' evaluator (expr.py: what it computes, what it
refuses) and every row of tools/bench/expectations.md through it.
Expected values are worked out by hand in the comments.  TAP."""
import os
import sys
import tempfile

from tap import done, ok

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../tools/bench/lib"))
import reduce  # noqa: E402
import metrics  # noqa: E402
import expr  # noqa: E402
import expect  # noqa: E402
import paired  # noqa: E402
import hookcost  # noqa: E402



def near(a, b, eps=1e-9):
    return a is not None and abs(a - b) <= eps


# pct: linear interpolation between closest ranks
ok(near(reduce.pct([1, 2, 3, 4], 0.5), 2.5), "p50 of 1..4 is 2.5", reduce.pct([1, 2, 3, 4], 0.5))
ok(near(reduce.pct([10, 0, 5], 1.0), 10), "p100 is the largest, input unsorted")
ok(near(reduce.pct(list(range(101)), 0.99), 99), "p99 of 0..100 is 99")
ok(reduce.pct([], 0.5) is None, "no values, no percentile")
ok(metrics.median([3, 1, 2]) == 2 and metrics.median([4, 1, 3, 2]) == 2.5 and metrics.median([]) is None,
   "median: odd, even, empty")

# A sender at cwnd 100 (RTT 100 ms), cut to 50 at t = 1 s, growing one
# segment per 10 ms from 1.1 s: back at 90 = 0.9 W0 at 1.1 + 0.4 = 1.5 s,
# so recovery_s = 0.5.  Rows: (t, cwnd, ssthresh, srtt_us, acked).
INF = reduce.INF_SSTHRESH
rows = [(0.9 + i * 0.01, 100, INF, 100000, 0) for i in range(10)]
rows += [(1.0, 50, 50, 100000, 0)]
rows += [(1.1 + i * 0.01, 50 + i, 50, 100000, 0) for i in range(60)]
ev = reduce.loss_events(rows, end_t=3.0)
ok(len(ev) == 1, "one loss event", ev)
e = ev[0]
ok(e["w0"] == 100 and e["ssthresh"] == 50, "W0 = 100 before it, ssthresh 50 after", e)
ok(near(e["recovery_s"], 0.5, 1e-6), "recovery to 90 % of W0 in 0.5 s", e["recovery_s"])
ok(e["first"] and near(e["t"], 0.1, 1e-6), "flagged first, 0.1 s after the first row", e)
ok(near(e["avail_s"], 2.0, 1e-6), "observable until the flow ends: 2 s", e["avail_s"])

# a second cut 50 ms after the first is the same episode (< 2 RTTs)
rows2 = rows[:11] + [(1.05, 40, 40, 100000, 0)] + rows[11:]
ok(len(reduce.loss_events(rows2, 3.0)) == 1, "two cuts within 2 RTTs are one event")
# never regaining 90 %: censored, recovery None
flat = rows[:11] + [(1.1 + i * 0.01, 50, 50, 100000, 0) for i in range(50)]
ok(reduce.loss_events(flat, 3.0)[0]["recovery_s"] is None, "no regain: recovery censored (None)")

# series: 50 ms bins hold the last cwnd and the mean srtt
s = reduce.series([(0.0, 10, INF, 1000, 0), (0.02, 12, INF, 3000, 100), (0.06, 20, 15, 5000, 200)])
ok(s["t"] == [0.05, 0.1], "two 50 ms bins", s["t"])
ok(s["cwnd"] == [12, 20] and s["ssthresh"] == [None, 15], "last cwnd; infinite ssthresh as None", s)
ok(s["srtt_ms"] == [2.0, 5.0] and s["acked"] == [100, 200], "mean srtt per bin, last acked", s)

# a trace: 2 opportunities per 1 ms loop = 2 x 1500 B per ms = 24 Mbit/s
with tempfile.NamedTemporaryFile("w", suffix=".trace", delete=False) as f:
    f.write("# two per millisecond\n1\n1\n")
ok(near(metrics.trace_capacity_mbit(f.name), 24.0, 1e-9), "2 per ms is 24 Mbit/s, '#' lines skipped as linkem does",
   metrics.trace_capacity_mbit(f.name))
with open(f.name, "w") as g:
    g.write("10\n20\n30\n40\n")	# 4 per 40 ms = 1.2 Mbit/s; over 0.02 s: 2 of them
ok(near(metrics.trace_capacity_mbit(f.name, seconds=0.02), 2 * 12000 / 0.02 / 1e6),
   "the first 20 ms hold 2 opportunities", metrics.trace_capacity_mbit(f.name, seconds=0.02))
os.unlink(f.name)

# t90: receiver intervals of 0.2 s; 10 Mbit/s capacity -> target 0.9 x
# 10e6 x 1448/1500 / 8 B/s = 1,086,000 B per 1 s window.  At 0.25 MB per
# 0.2 s (1.25 MB/s) from 1 s on, the window ending at 2.0 s is the first full one
rx = [[round(0.2 * (i + 1), 3), 0 if i < 5 else 250000] for i in range(20)]
ok(near(metrics.t90({"rx": rx}, 10.0), 2.0), "t90: the first 1 s window at 90 % ends at 2.0 s",
   metrics.t90({"rx": rx}, 10.0))
ok(metrics.t90({"rx": [[0.2 * (i + 1), 1000] for i in range(20)]}, 10.0) is None, "never at 90 %: None")

# paired ratios: the median and the sign test's interval.  Bin(16, 1/2):
# P(<= 3) = 697/65536, so x(4)..x(13) covers 1 - 2 x 0.010635 = 97.87 %,
# and x(5)..x(12) only 92.3 %: k = 4.  Sixteen ratios 1.01 .. 1.16 in steps
# of 0.01 plus nothing below 1: median (1.08 + 1.09)/2, interval
# [1.04, 1.13], distinguishable; one outlier at 3.0 in place of 1.16 moves
# neither end
r = [1.01 + 0.01 * i for i in range(16)]
iv = paired.ratio_interval(r)
ok(near(iv["ratio"], 1.085) and near(iv["lo"], 1.04) and near(iv["hi"], 1.13) and iv["differs"]
   and abs(iv["cover"] - 0.97873) < 1e-4, "16 pairs: median, x(4)..x(13), 97.9 %", iv)
iv2 = paired.ratio_interval(r[:-1] + [3.0])
ok(near(iv2["lo"], iv["lo"]) and near(iv2["hi"], iv["hi"]), "an outlier moves neither end", iv2)
iv = paired.ratio_interval([1.1, 1 / 1.1, 0.98, 1.03])
ok(near(iv["lo"], 1 / 1.1) and near(iv["hi"], 1.1) and not iv["differs"] and near(iv["cover"], 0.875),
   "4 pairs: the range, covering 87.5 %, holds 1", iv)
ok(paired.ratio_interval([1.0]) is None and paired.order_k(20) == (6, 1 - 2 * 21700 / 2 ** 20),
   "one pair: no interval; 20 pairs: x(6)..x(15)")
# hook cost: names to hooks; 1000 ACKs, 500 cong_avoid calls at 100 ns and
# 1000 pkts_acked at 50 ns -> 100 ns per ACK over 1.5 calls; floor 40 ns:
# bound 1.2 x 1.5 x 40 = 72 -> flagged
ok(hookcost.hook_of("westwood_in_ack_event") == "in_ack_event" and hookcost.hook_of("dctcp_update_alpha") == "dctcp_update_alpha",
   "program names to hooks")
p = hookcost.pooled([{"acct": {"acks": 1000, "progs": {"x_cong_avoid": {"ns": 50000, "cnt": 500},
                                                       "x_pkts_acked": {"ns": 50000, "cnt": 1000}}}}])
ns, calls, bound, flagged = hookcost.judge(p, 40)
ok(near(ns, 100) and near(calls, 1.5) and near(bound, 72) and flagged, "per-ACK cost, calls, bound, flag", (ns, calls, bound))
# the same algorithm with a counted baseline of 60 ns: bound 1.2 x 1.5 x 60
# = 108 -> the counters' cost; of 50 ns: 90 -> left to EXPLAINED
ok(hookcost.verdict("x", p, 40, 60)[1:] == (True, True), "flag within the counted bound is explained")
ok(hookcost.verdict("x", p, 40, 50)[1:] == (True, False) and "unexplained" in hookcost.verdict("x", p, 40, 50)[0],
   "flag beyond the counted bound, not in EXPLAINED: unexplained")
ok(hookcost.verdict("counted", p, 40, 50)[1] is False and hookcost.verdict("x", p, 100, None)[0] == "ok",
   "baselines and algorithms under the floor bound are not flagged")

# the expectations' evaluator: an expectation is parsed (ast, mode
# "eval") and only the whitelist is run; s = summary of a metric
def s(med, lo=None, hi=None):
    return {"med": med, "lo": med if lo is None else lo, "hi": med if hi is None else hi, "n": 3}


AGG = {("sc", "v", "a"): {"x": s(2.0, 1.0, 4.0), "zero": s(0.0), "t": s(metrics.INF)},
       ("sc", "v", "b"): {"x": s(3.0)}}


def lookup(missing=None):
    return expect.Lookup(AGG, missing or {}, "sc", "v")


def ev(text, look=None):
    return expr.run(expr.parse(text, expect.ARITY, "T1 met if"), (look or lookup()).funcs)


def refused(text):
    """The ExprError's message, or None when TEXT was accepted."""
    try:
        expr.parse(text, expect.ARITY, "T1 met if")
    except expr.ExprError as e:
        return str(e)
    return None


ok(ev("1 + 2 * 3 - 4 / 8") == 6.5 and ev("7 / 2") == 3.5 and ev("-m('a','x')") == -2.0 and ev("- -3") == 3,
   "+ - * / and unary minus, with Python's precedence")
ok([ev(x) for x in ("1 < 2", "2 <= 2", "3 > 2", "2 >= 3", "2 == 2.0", "2 != 2", "'a' == 'a'")]
   == [True, True, True, False, True, False, True], "each comparison; string literals")
ok(ev("1 and 0") == 0 and ev("0 or 3") == 3 and ev("not 0") is True and ev("not (1 and 2)") is False,
   "and / or give the deciding operand, not negates")
ok(ev("m('a','x') == 2 and lo('a','x') == 1 and hi('a','x') == 4 and m('b','x') == 3"), "m, lo, hi: median, min, max")
ok(ev("inf > 1e300") and ev("fin(m('a','x'))") and not ev("fin(m('a','t'))") and not ev("fin(inf)")
   and ev("abs(m('a','x') - m('b','x')) == 1"), "inf, fin(), abs()")
ok(ev("1 <= m('a','x') <= 3") and not ev("1 <= m('a','x') <= 1.5") and not ev("3 <= m('a','x') <= 5")
   and ev("0 < 1 < 2 < 3 != 4"), "chained comparisons: every link must hold")
look = lookup()
ok(ev("3 < m('a','x') < m('a','nope')", look) is False and [u[:2] for u in look.used] == [("a", "x")],
   "a failed link stops the chain: the next metric is not looked up", look.used)
look = lookup()
ok(ev("m('a','x') > 5 and m('a','nope') > 0", look) is False and len(look.used) == 1,
   "and stops at the first false operand", look.used)
for text, what in (("__import__('os')", "only calls of"), ("m('a','x').real", "attribute access"),
                   ("(lambda: 1)()", "only calls of"), ("lambda: 1", "a lambda"),
                   ("m('a','x')[0]", "a subscript"), ("open('/etc/passwd')", "only calls of"),
                   ("x > 1", "unknown name 'x'"), ("m > 1", "'m' is a function"),
                   ("m('a') > 1", "m() takes 2 argument(s), not 1"), ("m(a='a', metric='x')", "plain arguments"),
                   ("2 ** 3", "**"), ("True", "constant True"), ("1 if 1 else 0", "if-else"),
                   ("1 in [1]", "in is not allowed"), ("+1", "unary +"), ("m('a','x') >= ", "not an expression"),
                   ("1" + " + 1" * 400, "longer than"), ("(" * 1000 + "1" + ")" * 1000, "not an expression")):
    why = refused(text)
    ok(why is not None and why.startswith("T1 met if: ") and what in why, "refused: %s (%s)" % (text, what), why)
look = lookup()
v = expect.judge("G9", "m('a','x') > 0 or __import__('os').system('false')", "1", look)
ok(v.startswith("n/a (bad expression: G9 met if: ") and look.used == [],
   "a refused part: n/a naming the expectation, nothing of it run", v)
v = expect.judge("G9", "m('a','x') > 0", "m('a',", lookup())
ok(v.startswith("n/a (bad expression: G9 partly if: not an expression"), "partly if is checked even when met", v)
look = lookup()
v = expect.judge("G1", "m('a','x') >= 1 and m('b','rtt') < 5", "1", look)
ok(v == "n/a (no rtt for b)" and look.measured(10) == "a x 2; b rtt n/a",
   "a missing metric: n/a with the reason; measured lists what was looked at", (v, look.measured(10)))
v = expect.judge("G1", "m('c','x') > 1", "1", lookup({"c": "not built"}))
ok(v == "n/a (c missing: not built)", "a missing algorithm: n/a with the reason", v)
v = expect.judge("G1", "m('a','x') / m('a','zero') > 1", "1", lookup())
ok(v == "n/a (cannot compute: float division by zero)", "division by zero: n/a", v)
ok([expect.judge("G1", met, part, lookup()) for met, part in
    (("m('a','x') >= 2", "0"), ("m('a','x') > 2", "m('a','x') > 1"), ("m('a','x') > 2", "m('a','x') > 3"))]
   == ["met", "partly", "not met"], "met, partly, not met")

# every row of the table parses, and runs with every metric at 1
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../tools/bench/expectations.md")
rows = expect.parse_expectations(path)
ones = {"m": lambda a, k: 1.0, "lo": lambda a, k: 1.0, "hi": lambda a, k: 1.0, "fin": lambda x: True, "abs": abs}
bad = []
for e in rows:
    for alg, met_x, part_x, _ in expect.instances(e):
        try:
            for tree in expect.compile_row(e["id"], met_x, part_x):
                expr.run(tree, ones)
        except (expr.ExprError, ZeroDivisionError, TypeError) as err:
            bad.append("%s/%s: %s" % (e["id"], alg, err))
ok(len(rows) >= 30 and not bad, "all %d rows of expectations.md parse and run" % len(rows), bad)

done()
