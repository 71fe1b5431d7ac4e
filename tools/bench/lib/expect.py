# SPDX-License-Identifier: GPL-2.0
"""The expectations of tools/bench/expectations.md against a run's
aggregates: the table at the end of that file is the one place they are
written; each "met if" / "partly if" cell is checked by expr.py (no
eval) and judged per variant and, for {alg} rows, per algorithm."""
import expr
from metrics import CENSORED, fmt

COLUMNS = ["id", "scenario", "variant", "algs", "text", "met", "partly"]
ARITY = {"m": 2, "lo": 2, "hi": 2, "fin": 1, "abs": 1}


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
    """(algorithm or None, met if, partly if, text) of one row: {alg} rows
    once per listed algorithm."""
    for alg in e["algs"].split() or [None]:
        sub = alg or ""
        yield alg, e["met"].replace("{alg}", sub), e["partly"].replace("{alg}", sub), e["text"].replace("{alg}", sub)


def compile_row(eid, met_x, part_x):
    """The two checked trees, or raises expr.ExprError naming EID."""
    return (expr.parse(met_x, ARITY, "%s met if" % eid),
            expr.parse(part_x, ARITY, "%s partly if" % eid))


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
    for alg, met_x, part_x, text in instances(e):
        eid = e["id"] + ("" if alg is None else "/" + alg)
        look = Lookup(agg, missing, sc["name"], var)
        verdict = judge(eid, met_x, part_x, look)
        out.append({"id": eid, "scenario": sc["name"], "variant": var, "text": text,
                    "measured": look.measured(sc["seconds"]), "verdict": verdict, "met_if": met_x})
    return out


def judge(eid, met_x, part_x, look):
    try:
        met_t, part_t = compile_row(eid, met_x, part_x)
        met = bool(expr.run(met_t, look.funcs))
        partly = met or bool(expr.run(part_t, look.funcs))
        return "met" if met else ("partly" if partly else "not met")
    except expr.ExprError as err:
        return "n/a (bad expression: %s)" % err
    except LookupError as err:
        return "n/a (%s)" % err
    except (ZeroDivisionError, TypeError) as err:
        return "n/a (cannot compute: %s)" % err


class Lookup:
    """m/lo/hi/fin/abs of one scenario and variant; remembers every metric
    looked at (in order, the failing one too) for the report's "measured"
    column."""

    def __init__(self, agg, missing, scenario, variant):
        self.agg, self.missing, self.key = agg, missing, (scenario, variant)
        self.used = []
        self.funcs = {"m": self.m, "lo": lambda a, k: self.m(a, k, "lo"), "hi": lambda a, k: self.m(a, k, "hi"),
                      "fin": lambda x: x is not None and x != expr.INF, "abs": abs}

    def m(self, alg, metric, which="med"):
        s = self.agg.get(self.key + (alg,), {}).get(metric)
        self.used.append((alg, metric, s))
        if alg in self.missing:
            raise LookupError("%s missing: %s" % (alg, self.missing[alg]))
        if s is None:
            raise LookupError("no %s for %s" % (metric, alg))
        return s[which]

    def measured(self, seconds):
        seen, meas = set(), []
        for a, k, s in self.used:
            if (a, k) not in seen:
                seen.add((a, k))
                bound = seconds if k in CENSORED else None
                meas.append("%s %s %s" % (a, k, fmt(k, s["med"], bound) if s else "n/a"))
        return "; ".join(meas) or "n/a"
