# SPDX-License-Identifier: GPL-2.0
"""A run directory's results: RUNDIR/algorithms.txt, every
cells/<scenario>/<variant>/<alg>/rep<N>/cell.json with its metrics, the
BPF cost scenario's paired ratios, and one results.csv row per cell."""
import csv
import json
import os

import paired
from metrics import INF, PAIRED, cell_metrics, pair_ratios

CSV_FIRST = ["scenario", "variant", "algorithm", "ca_name", "repetition", "seconds", "status"]


def load_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def read_algorithms(rundir):
    """({alg: kernel ca name}, {alg: why it is missing})."""
    canames, missing = {}, {}
    with open(os.path.join(rundir, "algorithms.txt")) as f:
        for line in f:
            parts = line.rstrip("\n").split(" ", 2)
            if parts[0] == "ca":
                canames[parts[1]] = parts[2]
            elif parts[0] == "missing":
                missing[parts[1]] = parts[2]
    return canames, missing


def collect(rundir, scen, canames, missing):
    """results.csv's rows; {(scenario, variant, alg): [(rep, metrics, cell
    or None)]}; {(scenario, variant, alg): why there is nothing}."""
    rows, cells, notes = [], {}, {}
    for sc in scen:
        status = {}
        for var in sc["variants"]:
            for alg in sc["algs"]:
                key = (sc["name"], var["name"], alg)
                if alg in missing:
                    notes[key] = missing[alg]
                    continue
                cells[key] = []
                for rep in range(1, sc["reps"] + 1):
                    cell, status[key + (rep,)] = load_cell(rundir, key, rep)
                    cells[key].append((rep, cell_metrics(sc, cell) if cell else {}, cell))
        add_paired(sc, cells)
        rows += [csv_row(sc, key, rep, m, cell, status[key + (rep,)], canames)
                 for key in cells if key[0] == sc["name"] for rep, m, cell in cells[key]]
    return rows, cells, notes


def load_cell(rundir, key, rep):
    """(cell or None, status) of one repetition."""
    d = os.path.join(rundir, "cells", *key, "rep%d" % rep)
    try:
        with open(os.path.join(d, "cell.json")) as f:
            cell = json.load(f)
    except (OSError, ValueError):
        return None, "no result (see %s/cell.log)" % os.path.relpath(d, rundir)
    errs = [fl.get("error") for fl in cell["flows"] if not fl.get("ok")]
    return cell, ("flow failed: %s" % "; ".join(str(e) for e in errs)) if errs else "ok"


def add_paired(sc, cells):
    """Of every pair of the scenario, the copy's metrics ÷ the original's
    per back-to-back run (same repetition) into the copy's metrics, and
    sc["paired"][variant][copy][ratio]: their median with its interval."""
    pairs = paired.pairs_of(sc)
    if not pairs:
        return
    sc["paired"] = {}
    for var in sc["variants"]:
        sc["paired"][var["name"]] = {}
        for copy, orig in pairs:
            b = {r: m for r, m, _ in cells.get((sc["name"], var["name"], copy), [])}
            n = {r: m for r, m, _ in cells.get((sc["name"], var["name"], orig), [])}
            for r, m in b.items():
                if r in n:
                    pair_ratios(m, n[r])
            sc["paired"][var["name"]][copy] = {k: paired.ratio_interval([m.get(k) for m in b.values()])
                                               for k in PAIRED}
    sc["metrics"] = sc["metrics"] + list(PAIRED)


def csv_row(sc, key, rep, m, cell, status, canames):
    up = ((cell or {}).get("link") or {}).get("up") or {}
    late = (up.get("lateness_us") or {}).get("p99")
    return {
        "scenario": key[0], "variant": key[1], "algorithm": key[2],
        "ca_name": canames.get(key[2], ""), "repetition": rep,
        "seconds": sc["seconds"], "status": status,
        **{k: ("inf" if v == INF else ("" if v is None else "%.6g" % v)) for k, v in m.items()},
        "linkem_lateness_p99_us": "" if late is None else late,
        "linkem_drops_queue": (up.get("drops") or {}).get("queue", ""),
        "linkem_drops_loss": (up.get("drops") or {}).get("loss", ""),
        "loadavg_start": (cell or {}).get("env", {}).get("loadavg_start", "").split(" ")[0],
    }


def write_csv(rundir, rows):
    extra = sorted(set(k for r in rows for k in r) - set(CSV_FIRST))
    with open(os.path.join(rundir, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIRST + extra, restval="")
        w.writeheader()
        for r in rows:
            w.writerow(r)
