# SPDX-License-Identifier: GPL-2.0
"""The expectations of tools/bench/expectations.md against a run's
aggregates: the table at the end of that file says where each applies
and what it claims, expectations.py how it is checked; each is judged
per variant and, for {alg} rows, per algorithm."""
import expectations
from metrics import CENSORED, fmt

COLUMNS = ["id", "scenario", "variant", "algs", "text"]


def parse_expectations(path):
    out = []
    with open(path) as f:
        for line in f:
            if not line.startswith("| ") or line.startswith("| id ") or line.startswith("|---"):
                continue
            cols = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cols) == len(COLUMNS):
                out.append(dict(zip(COLUMNS, cols)))
    return out


def instances(e):
    """(algorithm or None, text) of one row: {alg} rows once per listed
    algorithm."""
    for alg in e["algs"].split() or [None]:
        yield alg, e["text"].replace("{alg}", alg or "")


def evaluate(path, scen, agg, missing):
    try:
        exps = parse_expectations(path)
    except OSError as e:
        return [{"id": "-", "scenario": "-", "variant": "-", "text": "expectations file unreadable: %s" % e,
                 "measured": "n/a", "verdict": "n/a"}]
    byname = {s["name"]: s for s in scen}
    results = []
    for e in exps:
        sc = byname.get(e["scenario"])
        if not sc:
            continue	# scenario not run (--only)
        run_variants = [v["name"] for v in sc["variants"]]
        for var in run_variants if e["variant"] == "*" else [e["variant"]]:
            if var in run_variants:
                results.extend(check(e, sc, var, agg, missing))
    return results


def check(e, sc, var, agg, missing):
    """The results of row E in variant VAR."""
    out = []
    cond = expectations.check_of(e["id"])
    for alg, text in instances(e):
        look = Lookup(agg, missing, sc["name"], var)
        verdict = judge(cond, alg, look) if cond else "n/a (expectations.py has no %s)" % e["id"].lower()
        out.append({"id": e["id"] + ("" if alg is None else "/" + alg), "scenario": sc["name"], "variant": var,
                    "text": text, "measured": look.measured(sc["seconds"]), "verdict": verdict})
    return out


def judge(cond, alg, look):
    """The verdict of check COND (of expectations.py) on LOOK's metrics."""
    try:
        conds = cond(look.m) if alg is None else cond(look.m, alg)
        met = bool(next(conds))
        partly = met or bool(next(conds))
        return "met" if met else ("partly" if partly else "not met")
    except LookupError as err:
        return "n/a (%s)" % err
    except (ZeroDivisionError, TypeError) as err:
        return "n/a (cannot compute: %s)" % err


class Lookup:
    """The medians of one scenario and variant; remembers every metric
    looked at (in order, the failing one too) for the report's "measured"
    column."""

    def __init__(self, agg, missing, scenario, variant):
        self.agg, self.missing, self.key = agg, missing, (scenario, variant)
        self.used = []

    def m(self, alg, metric):
        s = self.agg.get(self.key + (alg,), {}).get(metric)
        self.used.append((alg, metric, s))
        if alg in self.missing:
            raise LookupError("%s missing: %s" % (alg, self.missing[alg]))
        if s is None:
            raise LookupError("no %s for %s" % (metric, alg))
        return s["med"]

    def measured(self, seconds):
        seen, meas = set(), []
        for a, k, s in self.used:
            if (a, k) not in seen:
                seen.add((a, k))
                bound = seconds if k in CENSORED else None
                meas.append("%s %s %s" % (a, k, fmt(k, s["med"], bound) if s else "n/a"))
        return "; ".join(meas) or "n/a"
