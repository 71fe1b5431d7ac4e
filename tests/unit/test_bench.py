#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The benchmark's reducers (tools/bench/lib), without root or a run:
percentiles, loss events with their time to regain 90 % of the window,
the 50 ms series, a trace's capacity, time to 90 % of capacity, the
median; the BPF cost's pairs (which copy of which kernel algorithm, their
order, their ratios and the report's lines); the expectations' judge
(expect.py) and checks (expectations.py), one for every row of
tools/bench/expectations.md.
Expected values are worked out by hand in the comments.  TAP."""
import os
import subprocess
import sys
import tempfile

from tap import done, ok

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../tools/bench/lib"))
import reduce  # noqa: E402
import metrics  # noqa: E402
import expect  # noqa: E402
import expectations  # noqa: E402
import paired  # noqa: E402
import hookcost  # noqa: E402
import results  # noqa: E402
import markdown  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..")


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
# the same algorithm with a tuned baseline of 60 ns: bound 1.2 x 1.5 x 60
# = 108 -> the tunables' cost; of 50 ns: 90 -> left to EXPLAINED
ok(hookcost.verdict("x", p, 40, 60)[1:] == (True, True), "flag within the tuned bound is explained")
ok(hookcost.verdict("x", p, 40, 50)[1:] == (True, False) and "unexplained" in hookcost.verdict("x", p, 40, 50)[0],
   "flag beyond the tuned bound, not in EXPLAINED: unexplained")
ok(hookcost.verdict("tuned", p, 40, 50)[1] is False and hookcost.verdict("x", p, 100, None)[0] == "ok",
   "baselines and algorithms under the floor bound are not flagged")

# --- the BPF cost's pairs ---

def algorithms(*fields, tab=None):
    env = dict(os.environ, TCPCA_ALGORITHMS_TAB=tab) if tab else None
    out = subprocess.run([os.path.join(ROOT, "scripts/algorithms")] + list(fields), env=env,
                         capture_output=True, text=True, check=True).stdout
    return [tuple(line.split()) for line in out.splitlines()]


# copy_of: the source of a row named bpf_<source>, else -
copies = {n: k for n, k in algorithms("name", "copy_of")}
ok(copies["bpf_reno"] == "reno" and copies["bpf_cubic"] == "cubic" and copies["bpf_bbr"] == "bbr"
   and copies["vegas"] == "-" and copies["bic"] == "-",
   "copy_of: bpf_reno, bpf_cubic, bpf_bbr copy the kernel's own", copies)
with tempfile.NamedTemporaryFile("w", suffix=".tab", delete=False) as f:
    f.write("# source name params check bench fidelity at_init\n"
            "foo bpf_foo - - x - -\nbar bar - - x - -\nbaz bpf_qux - - - - -\n")
ok(algorithms("source", "copy_of", tab=f.name) == [("foo", "foo"), ("bar", "-"), ("baz", "-")]
   and algorithms("--in", "copy_of", "foo", "name", tab=f.name) == [("bpf_foo",)],
   "copy_of is the rule, not a list: bpf_<source> only; --in takes it too")
os.unlink(f.name)

# the runner's bpfcost: every copy whose line names it, each followed by its original
line = [ln for ln in subprocess.run([os.path.join(ROOT, "tools/bench/run"), "--list"], capture_output=True,
                                    text=True, check=True).stdout.splitlines() if ln.startswith("bpfcost ")]
algs = line[0].split("(")[-1].split(";")[0].split() if line else []
named = [n for n, in algorithms("--in", "bench", "bpfcost", "name")]
ok(algs[0::2] == named and algs[1::2] == [copies[n] for n in named] and "bpf_bbr" in named
   and "bpf_cubic" in named and "bpf_reno" in named, "bpfcost runs bpf_reno, bpf_cubic and bpf_bbr, "
   "each followed by the kernel's own", line)


def pair_order(rep, *pairs):
    sh = '. "%s/tools/bench/lib/pairs.sh"; pair_order "$@"' % ROOT
    return subprocess.run(["bash", "-c", sh, "-", str(rep)] + list(pairs), capture_output=True, text=True,
                          check=True).stdout.split()


ok(pair_order(1, "bpf_cubic:cubic", "bpf_bbr:bbr") == ["bpf_cubic", "cubic", "bpf_bbr", "bbr"]
   and pair_order(2, "bpf_cubic:cubic", "bpf_bbr:bbr") == ["cubic", "bpf_cubic", "bbr", "bpf_bbr"]
   and pair_order(3, "a:b") == ["a", "b"], "pairs back to back, the order in each alternating per repetition")

# pairs of the manifest; a run from before the manifest held them had bpf_reno and reno
ok(paired.pairs_of({"kind": "veth", "algs": ["bpf_cubic", "cubic"], "pairs": [["bpf_cubic", "cubic"]]})
   == [("bpf_cubic", "cubic")] and paired.pairs_of({"kind": "veth", "algs": ["bpf_reno", "reno"]})
   == [("bpf_reno", "reno")] and paired.pairs_of({"kind": "veth", "algs": ["bpf_reno"], "pairs": []}) == [],
   "pairs: the manifest's; older runs bpf_reno and reno; hookcost none")

# ratios per pair: six repetitions; bpf_cubic at 0.9, 1.0, 1.1, 1.2, 1.3 and
# 1.4 times cubic's goodput (median 1.15, range: fewer than 6 pairs give no
# 95 %); bpf_bbr's CPU per GB 2x bbr's in every repetition but the 6th,
# whose bbr cell failed: five ratios of 2
def cell(gp, cg):
    return {"goodput_mbps": gp, "cg_cpu_s_per_gb": cg}


SC = {"name": "bpfcost", "kind": "veth", "variants": [{"name": "veth"}], "metrics": ["goodput_mbps"],
      "algs": ["bpf_cubic", "cubic", "bpf_bbr", "bbr"], "pairs": [["bpf_cubic", "cubic"], ["bpf_bbr", "bbr"]]}
CELLS = {("bpfcost", "veth", "cubic"): [(r, cell(1000.0, 0.5), {}) for r in range(1, 7)],
         ("bpfcost", "veth", "bpf_cubic"): [(r, cell(1000.0 * (0.8 + 0.1 * r), 0.5), {}) for r in range(1, 7)],
         ("bpfcost", "veth", "bbr"): [(r, cell(500.0, 0.4) if r < 6 else {}, {}) for r in range(1, 7)],
         ("bpfcost", "veth", "bpf_bbr"): [(r, cell(500.0, 0.8), {}) for r in range(1, 7)]}
results.add_paired(SC, CELLS)
ivc, ivb = SC["paired"]["veth"]["bpf_cubic"], SC["paired"]["veth"]["bpf_bbr"]
ok(near(ivc["tput_ratio"]["ratio"], 1.15) and near(ivc["tput_ratio"]["lo"], 0.9) and ivc["tput_ratio"]["n"] == 6
   and near(ivc["cg_cpu_ratio"]["ratio"], 1.0), "bpf_cubic ÷ cubic per repetition: median and interval", ivc)
ok(ivb["cg_cpu_ratio"]["n"] == 5 and near(ivb["cg_cpu_ratio"]["ratio"], 2.0) and ivb["cg_cpu_ratio"]["differs"]
   and "tput_ratio" not in CELLS[("bpfcost", "veth", "bpf_bbr")][5][1],
   "bpf_bbr ÷ bbr: the repetition without bbr gives no ratio", ivb)
ok("tput_ratio" not in CELLS[("bpfcost", "veth", "cubic")][0][1] and "tput_ratio" in SC["metrics"],
   "the ratios go to the copy, not the original; the scenario's columns gain them")
heads = markdown.bpfcost_headlines(SC)
ok([h[0].split(" (")[0] for h in heads] == ["BPF cost: bpf_cubic ÷ cubic throughput",
                                            "BPF cost: bpf_cubic ÷ cubic CPU per GB",
                                            "BPF cost: bpf_bbr ÷ bbr throughput",
                                            "BPF cost: bpf_bbr ÷ bbr CPU per GB"]
   and heads[3][1].startswith("2.000 [2.000–2.000]")
   and "bpf_bbr's CPU per GB (cell's cgroup) is 100.0 % higher" in heads[3][1]
   and "not distinguishable" in heads[1][1], "a headline line per pair and ratio, naming the copy", heads)
ok(markdown.cell_text(SC, "tput_ratio", None, None, "bbr", []) == "n/a (the reference)"
   and markdown.cell_text(SC, "tput_ratio", None, None, "bpf_bbr", [(1, {}, None)]) == "n/a (run failed)",
   "the originals' ratio columns say they are the reference")
ok(len(markdown.paired_lines(SC, "veth")) == 2 * len(metrics.PAIRED) + 1
   and markdown.paired_lines(SC, "veth")[0].startswith("- bpf_cubic ÷ cubic, throughput, median of the pairs: 1.150"),
   "the scenario's section: every ratio of every pair", markdown.paired_lines(SC, "veth"))

# the expectations' judge: a check yields "met if", then "partly if";
# s = summary of a metric
def s(med, lo=None, hi=None):
    return {"med": med, "lo": med if lo is None else lo, "hi": med if hi is None else hi, "n": 3}


AGG = {("sc", "v", "a"): {"x": s(2.0, 1.0, 4.0), "zero": s(0.0), "t": s(metrics.INF)},
       ("sc", "v", "b"): {"x": s(3.0)}}


def lookup(missing=None):
    return expect.Lookup(AGG, missing or {}, "sc", "v")


def conds(met, partly):
    """A check from two functions of m."""
    def check(m):
        yield met(m)
        yield partly(m)
    return check


ok(lookup().m("a", "x") == 2 and lookup().m("b", "x") == 3 and not expectations.fin(lookup().m("a", "t"))
   and expectations.fin(lookup().m("a", "x")), "m is the median; fin() is false for a censored time")
look = lookup()
v = expect.judge(conds(lambda m: m("a", "x") >= 1 and m("b", "rtt") < 5, lambda m: True), None, look)
ok(v == "n/a (no rtt for b)" and look.measured(10) == "a x 2; b rtt n/a",
   "a missing metric: n/a with the reason; measured lists what was looked at", (v, look.measured(10)))
v = expect.judge(conds(lambda m: m("c", "x") > 1, lambda m: True), None, lookup({"c": "not built"}))
ok(v == "n/a (c missing: not built)", "a missing algorithm: n/a with the reason", v)
v = expect.judge(conds(lambda m: m("a", "x") / m("a", "zero") > 1, lambda m: True), None, lookup())
ok(v == "n/a (cannot compute: float division by zero)", "division by zero: n/a", v)
ok([expect.judge(conds(met, part), None, lookup()) for met, part in
    ((lambda m: m("a", "x") >= 2, lambda m: False), (lambda m: m("a", "x") > 2, lambda m: m("a", "x") > 1),
     (lambda m: m("a", "x") > 2, lambda m: m("a", "x") > 3))]
   == ["met", "partly", "not met"], "met, partly, not met")
look = lookup()
ok(expect.judge(conds(lambda m: m("a", "x") > 1, lambda m: m("b", "x") > 1), None, look) == "met"
   and look.measured(10) == "a x 2", "met: the partly condition is not computed, so not listed", look.measured(10))

# real checks, on a run of their own: each row's condition as the table states it
RUN = {("geo", "loss0.5", "reno"): {"goodput_mbps": s(1.0)}, ("geo", "loss0.5", "cubic"): {"goodput_mbps": s(2.0)},
       ("geo", "loss0.5", "hybla"): {"goodput_mbps": s(2.0)},
       ("longfat", "l", "cubic"): {"goodput_mbps": s(10.0), "recovery_s": s(4.0)},
       ("longfat", "l", "bpf_cubic"): {"goodput_mbps": s(11.0), "recovery_s": s(metrics.INF)},
       ("longfat", "l", "reno"): {"recovery_s": s(12.0)}, ("longfat", "l", "scalable"): {"recovery_s": s(5.0)},
       ("fairness", "f", "bpf_reno"): {"share0": s(0.3)}, ("fairness", "f", "reno"): {"share0": s(0.45)},
       ("bpfcost", "veth", "bpf_bbr"): {"tput_ratio": s(0.93), "cg_cpu_ratio": s(1.04)}}


def verdict(eid, scenario, variant, alg=None):
    look = expect.Lookup(RUN, {}, scenario, variant)
    return expect.judge(expectations.check_of(eid), alg, look), look.measured(20)


ok(verdict("G4", "geo", "loss0.5") == ("partly", "reno goodput_mbps 1.00; cubic goodput_mbps 2.00; hybla goodput_mbps 2.00"),
   "G4: CUBIC above Reno but not below Hybla is partly", verdict("G4", "geo", "loss0.5"))
ok(verdict("G3", "geo", "loss0.5")[0] == "partly" and verdict("G5", "geo", "loss0.5")[0] == "n/a (no goodput_mbps for bbr)",
   "G3: Hybla at 2x Reno is partly; G5 without BBR is n/a")
ok(verdict("L9", "longfat", "l")[0] == "partly", "L9: bpf_cubic's censored recovery leaves it partly", verdict("L9", "longfat", "l"))
ok(verdict("L7", "longfat", "l", "scalable")[0] == "met" and verdict("L5", "longfat", "l")[0] == "met",
   "L7 for scalable (5 s <= 0.5 x 12 s), L5 (Reno 12 s)")
ok(verdict("F5", "fairness", "f")[0] == "partly", "F5: shares 0.15 apart is partly", verdict("F5", "fairness", "f"))
ok(verdict("B5", "bpfcost", "veth", "bpf_bbr") == ("partly", "bpf_bbr tput_ratio 0.930")
   and verdict("B6", "bpfcost", "veth", "bpf_bbr")[0] == "met", "B5, B6: bpf_bbr's own ratios (÷ bbr)",
   verdict("B5", "bpfcost", "veth", "bpf_bbr"))
ok(expectations.check_of("Z1") is None and expectations.check_of("fin") is None and expectations.check_of("GP") is None,
   "only an id names a check")
row = expect.check({"id": "Z1", "algs": "", "text": "t"}, {"name": "sc", "seconds": 10}, "v", AGG, {})
ok([r["verdict"] for r in row] == ["n/a (expectations.py has no z1)"], "a row without its check: n/a saying so", row)

# every row of the table has a check, which runs with every metric at 1;
# every check has a row
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../tools/bench/expectations.md")
rows = expect.parse_expectations(path)
bad = []
for e in rows:
    check = expectations.check_of(e["id"])
    for alg, _ in expect.instances(e):
        try:
            met, partly = check(lambda a, k: 1.0) if alg is None else check(lambda a, k: 1.0, alg)
        except Exception as err:
            bad.append("%s/%s: %r" % (e["id"], alg, err))
ok(len(rows) >= 30 and not bad, "all %d rows of expectations.md have a check that runs" % len(rows), bad)
named = {e["id"].lower() for e in rows}
checks = {n for n in dir(expectations) if expectations.check_of(n.upper()) and n == n.lower()}
ok(checks == named, "every check of expectations.py has its row", sorted(checks ^ named))

# --alg (tools/bench/lib/algspec.sh): a name the bench knows, or an object
# under its file's name or a label; never one of the bench's own names
ALGSPEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../tools/bench/lib/algspec.sh")
KNOWN = "reno cubic bbr floor bpf_reno bpf_cubic vegas"


def alg_spec(spec, cwd):
    r = subprocess.run(["bash", "-c", '. "$0"; alg_spec "$1" "$2"', ALGSPEC, spec, KNOWN],
                       capture_output=True, text=True, cwd=cwd)
    return r.returncode, r.stdout.rstrip("\n"), r.stderr


with tempfile.TemporaryDirectory() as tmp:
    for f in ("mycc.bpf.o", "reno.bpf.o", "plain.o"):
        open(os.path.join(tmp, f), "w").close()
    ok(alg_spec("vegas", tmp)[:2] == (0, "vegas") and alg_spec("cubic", tmp)[:2] == (0, "cubic"),
       "a known name is itself (cubic the kernel's)")
    rc, out, err = alg_spec("nosuch", tmp)
    ok(rc == 1 and "no algorithm 'nosuch'" in err, "an unknown name is refused, saying so", err)
    ok(alg_spec("mycc.bpf.o", tmp)[:2] == (0, "mycc\t%s/mycc.bpf.o" % tmp),
       "FILE.bpf.o: labelled mycc, the path made absolute", alg_spec("mycc.bpf.o", tmp))
    ok(alg_spec("./plain.o", tmp)[1] == "plain\t%s/plain.o" % tmp, "FILE.o and ./FILE: labelled by the name less .o")
    rc, out, err = alg_spec("reno.bpf.o", tmp)
    ok(rc == 1 and "OTHERNAME=reno.bpf.o" in err, "an object called reno is not taken for the kernel's", err)
    ok(alg_spec("myreno=reno.bpf.o", tmp)[:2] == (0, "myreno\t%s/reno.bpf.o" % tmp), "... LABEL=FILE names it")
    ok(alg_spec("a b=mycc.bpf.o", tmp)[0] == 1 and alg_spec("x=missing.bpf.o", tmp)[0] == 1,
       "a label outside [A-Za-z0-9_.-], a file that is not there: refused")

done()
