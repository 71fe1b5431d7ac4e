#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""report.py RUNDIR EXPECTATIONS.md QUICK: results.csv, report.md and plots/.

Reads RUNDIR/scenarios.jsonl (written by tools/bench/run), RUNDIR/algorithms.txt
and every RUNDIR/cells/<scenario>/<variant>/<alg>/rep<N>/cell.json (reduce.py).
The work is done by results.py (reading the cells, results.csv), metrics.py (per cell,
over repetitions), expect.py with expectations.py (the expectations), plots.py and
markdown.py (report.md)."""
import os
import sys

from results import collect, load_jsonl, read_algorithms, write_csv
from expect import evaluate
from markdown import write_report
from metrics import aggregate
from plots import make_plots


def main(rundir, expectations, quick):
    scen = load_jsonl(os.path.join(rundir, "scenarios.jsonl"))
    canames, missing = read_algorithms(rundir)
    rows, cells, notes = collect(rundir, scen, canames, missing)
    agg = aggregate(cells)
    write_csv(rundir, rows)
    plots = make_plots(rundir, scen, cells)
    checks = evaluate(expectations, scen, agg, missing)
    write_report(rundir, scen, agg, cells, notes, missing, checks, plots, quick, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "0"))
