# SPDX-License-Identifier: GPL-2.0
"""Synthetic runs for the expectations' verdicts: there is no stored run
to replay, so each seed draws every metric of every algorithm in every
scenario the table names, from values on a common grid (so that the
table's thresholds and ties are hit), with censored times, missing
metrics and missing algorithms among them.  bench_verdicts.txt holds, per
expectation, a digest of its verdicts and "measured" cells over SEEDS;
test_bench_verdicts.py compares.  Rewrite it (python3 bench_sample.py)
only when an expectation is meant to change."""
import hashlib
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../tools/bench/lib"))
import expect  # noqa: E402
from metrics import CENSORED, INF  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "bench_verdicts.txt")
TABLE = os.path.join(HERE, "../../tools/bench/expectations.md")
SEEDS = range(200)

VARIANTS = {"geo": ["loss0", "loss0.5"], "wireless": ["loss0.1", "loss1", "loss3"], "deepbuffer": ["10xBDP"],
            "datacentre": ["k20"], "longfat": ["loss1e-5"], "fairness": ["same-rtt", "rtt-3x", "vs-cubic"],
            "lowprio": ["vs-reno"], "cellular": ["trace"], "bpfcost": ["veth"]}
ALGS = ["reno", "bpf_reno", "cubic", "bpf_cubic", "hybla", "bbr", "westwood", "vegas", "cdg", "dctcp", "bic",
        "highspeed", "scalable", "htcp", "illinois", "yeah", "veno", "nv", "lp"]
BASE = {"goodput_mbps": 5.0, "util": 0.9, "t90_s": 4.0, "rtt_p50_ms": 40.0, "rtt_p95_ms": 100.0,
        "recovery_s": 8.0, "jain": 0.9, "share0": 0.5, "tput_ratio": 1.0, "cpu_ratio": 1.0,
        "proc_cpu_ratio": 1.0, "cg_cpu_ratio": 1.0}
# drawn from a stream of their own after the others, so that adding them
# left the verdicts recorded before as they were
LATER_ALGS = ["bpf_bbr"]
GRID = [0, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 1, 1.05, 1.1, 1.15, 1.2, 1.3, 1.5, 2, 3, 4]


def summary(v):
    return {"med": v, "lo": v, "hi": v, "n": 3}


def draw(rnd, metric):
    """A metric's summary, or None when it was not measured."""
    x = rnd.random()
    if x < 0.03:
        return None
    if metric in CENSORED and x < 0.15:
        return summary(INF)
    return summary(BASE[metric] * rnd.choice(GRID))


def sample(seed):
    """(scen, agg, missing) of one synthetic run."""
    rnd = random.Random(seed)
    scen = [{"name": sc, "seconds": 20, "variants": [{"name": v} for v in vs]} for sc, vs in VARIANTS.items()]
    agg = {}
    for sc, vs in VARIANTS.items():
        for v in vs:
            for a in ALGS:
                drawn = {k: draw(rnd, k) for k in BASE}
                agg[(sc, v, a)] = {k: s for k, s in drawn.items() if s is not None}
    missing = {a: "not built" for a in ALGS if rnd.random() < 0.02}
    later = random.Random("later %d" % seed)
    for sc, vs in VARIANTS.items():
        for v in vs:
            for a in LATER_ALGS:
                drawn = {k: draw(later, k) for k in BASE}
                agg[(sc, v, a)] = {k: s for k, s in drawn.items() if s is not None}
    missing.update({a: "not built" for a in LATER_ALGS if later.random() < 0.02})
    return scen, agg, missing


def digests():
    """{expectation id and variant: (verdict counts, digest of every verdict and measured cell)}."""
    per = {}
    for seed in SEEDS:
        scen, agg, missing = sample(seed)
        for c in expect.evaluate(TABLE, scen, agg, missing):
            per.setdefault("%s %s" % (c["id"], c["variant"]), []).append((c["verdict"], c["measured"]))
    out = {}
    for key, cells in per.items():
        counts = {}
        for verdict, _ in cells:
            v = verdict.split(" (")[0]
            counts[v] = counts.get(v, 0) + 1
        h = hashlib.sha256(repr(cells).encode()).hexdigest()[:16]
        out[key] = (", ".join("%s=%d" % kv for kv in sorted(counts.items())), h)
    return out


def read_golden():
    out = {}
    with open(GOLDEN) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                key, rest = line.rstrip("\n").split("\t", 1)
                counts, h = rest.split("\t")
                out[key] = (counts, h)
    return out


if __name__ == "__main__":
    with open(GOLDEN, "w") as f:
        f.write("# expectation variant<TAB>verdicts over %d synthetic runs<TAB>digest (bench_sample.py)\n" % len(SEEDS))
        for key, (counts, h) in sorted(digests().items()):
            f.write("%s\t%s\t%s\n" % (key, counts, h))
