#!/usr/bin/env python3
"""report.py RUNDIR EXPECTATIONS.md QUICK: results.csv, report.md and plots/.

Reads RUNDIR/scenarios.jsonl (written by tools/bench/run), RUNDIR/algorithms.txt
and every RUNDIR/cells/<scenario>/<variant>/<alg>/rep<N>/cell.json (reduce.py).
"""
import csv
import glob
import json
import math
import os
import re
import shutil
import subprocess
import sys

import hookcost
import linkem_trace
import paired

INF = float("inf")
PAYLOAD = 1448.0 / 1500.0	# TCP payload per 1500-byte packet (with timestamps)

# metric -> (column title, format, lower is better?)
METRICS = {
    "goodput_mbps": ("goodput Mbit/s", "%.2f"),
    "util": ("utilisation", "%.2f"),
    "t90_s": ("time to 90 % s", "%.1f"),
    "rtt_p50_ms": ("RTT p50 ms", "%.0f"),
    "rtt_p95_ms": ("RTT p95 ms", "%.0f"),
    "retrans": ("retrans", "%.0f"),
    "recovery_s": ("recovery s", "%.1f"),
    "loss_events": ("loss episodes counted", "%.0f"),
    "max_cwnd": ("max cwnd pkts", "%.0f"),
    "jain": ("Jain", "%.3f"),
    "share0": ("share flow 0", "%.2f"),
    "goodput0_mbps": ("flow 0 Mbit/s", "%.2f"),
    "goodput1_mbps": ("flow 1 Mbit/s", "%.2f"),
    "sys_cpu_s_per_gb": ("CPU s/GB (machine)", "%.2f"),
    "sender_cpu_s_per_gb": ("CPU s/GB (sender)", "%.3f"),
    "proc_cpu_s_per_gb": ("CPU s/GB (iperf3 sender+receiver)", "%.3f"),
    "proc_cpu_ratio": ("CPU/GB sender+receiver ÷ reno (paired)", "%.3f"),
    "tput_ratio": ("throughput ÷ reno (paired)", "%.3f"),
    "cpu_ratio": ("CPU/GB ÷ reno (paired)", "%.3f"),
    "cg_cpu_s_per_gb": ("CPU s/GB (cell's cgroup)", "%.3f"),
    "cg_cpu_ratio": ("CPU/GB cgroup ÷ reno (paired)", "%.3f"),
    "bpf_ns_per_ack": ("BPF ns per ACK", "%.0f"),
}
PAIRED = ("tput_ratio", "cg_cpu_ratio", "cpu_ratio", "proc_cpu_ratio")
CENSORED = {"t90_s", "recovery_s"}
MIN_OBS_S = 5.0		# recovery episodes censored sooner than this are left out	# None = did not happen within the flow


def load_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def trace_capacity_mbit(path, seconds=None):
    """The trace's mean rate over the first SECONDS (what a flow starting
    with the link meets), or over the whole trace: linkem's own reading."""
    return linkem_trace.capacity_mbit(path, seconds)


def capacity(sc):
    if sc["rate_mbit"] == "trace":
        return trace_capacity_mbit(sc["trace"], sc["seconds"])
    try:
        return float(sc["rate_mbit"])
    except ValueError:
        return None


def t90(flow, cap_mbit, window=1.0):
    """First time the receiver's goodput over WINDOW s reaches 90 % of the
    payload capacity, from the flow's start (iperf3's first interval)."""
    rx = flow.get("rx") or []
    if not rx or not cap_mbit:
        return None
    target = 0.9 * cap_mbit * PAYLOAD * 1e6 / 8 * window	# bytes per window
    cum, pts = 0, [(0.0, 0)]
    for end, b in rx:
        cum += b
        pts.append((end, cum))
    j = 0
    for i in range(1, len(pts)):
        while pts[i][0] - pts[j][0] > window + 1e-6:
            j += 1
        if pts[i][0] - pts[j][0] >= window - 0.05 and pts[i][1] - pts[j][1] >= target * (pts[i][0] - pts[j][0]) / window:
            return pts[i][0]
    return None


def median(xs):
    s = sorted(xs)
    n = len(s)
    if n == 0:
        return None
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def cell_metrics(sc, cell):
    """{metric: value} of one cell; None means n/a, INF censored."""
    cap = capacity(sc)
    fl = cell["flows"]
    out = {}
    f0 = fl[0] if fl else {}
    if sc["kind"] == "veth":
        if f0.get("ok"):
            gb = f0["bytes"] / 1e9
            out["goodput_mbps"] = f0["goodput_mbps"]
            cpu = cell.get("cpu") or {}
            out["sys_cpu_s_per_gb"] = cpu.get("busy_s", 0) / gb if gb else None
            acct = cell.get("acct") or {}
            if acct.get("cg_cpu_s") is not None and gb:
                out["cg_cpu_s_per_gb"] = acct["cg_cpu_s"] / gb
            if acct.get("progs") and acct.get("acks"):
                out["bpf_ns_per_ack"] = sum(d["ns"] for d in acct["progs"].values()) / acct["acks"]
            if f0.get("sender_cpu_pct") is not None:
                out["sender_cpu_s_per_gb"] = f0["sender_cpu_pct"] / 100 * f0["seconds"] / gb
                if f0.get("receiver_cpu_pct") is not None:
                    out["proc_cpu_s_per_gb"] = (f0["sender_cpu_pct"] + f0["receiver_cpu_pct"]) / 100 * f0["seconds"] / gb
        return out
    if sc["kind"] == "pair":
        if len(fl) == 2 and fl[0].get("ok") and fl[1].get("ok"):
            a, b = fl[0]["goodput_mbps"], fl[1]["goodput_mbps"]
            out["goodput0_mbps"], out["goodput1_mbps"] = a, b
            out["jain"] = (a + b) ** 2 / (2 * (a * a + b * b)) if a + b > 0 else None
            out["share0"] = a / (a + b) if a + b > 0 else None
            out["util"] = (a + b) / (cap * PAYLOAD) if cap else None
            out["goodput_mbps"] = a + b
        return out
    if not f0.get("ok"):
        return out
    out["goodput_mbps"] = f0["goodput_mbps"]
    out["util"] = f0["goodput_mbps"] / (cap * PAYLOAD) if cap else None
    v = t90(f0, cap)
    out["t90_s"] = INF if v is None else v
    out["retrans"] = f0.get("retrans")
    out["rtt_p50_ms"] = f0.get("rtt_p50_ms")
    out["rtt_p95_ms"] = f0.get("rtt_p95_ms")
    steady = sc.get("steady_s", 0)
    ev = [e for e in f0.get("events", []) if not e["first"] and e["t"] >= steady]
    # a censored episode says only "recovery > avail_s": one cut short
    # by the end of the flow or the next loss within MIN_OBS_S says
    # nothing and is left out; a longer one counts as never (infinite)
    ev = [e for e in ev if e["recovery_s"] is not None or e["avail_s"] >= MIN_OBS_S]
    out["loss_events"] = len(ev)
    if ev:
        rec = [INF if e["recovery_s"] is None else e["recovery_s"] for e in ev]
        out["recovery_s"] = median(rec)
    else:
        out["recovery_s"] = None	# n/a: no loss after slow start
    s = f0.get("series") or {}
    out["max_cwnd"] = max(s["cwnd"]) if s.get("cwnd") else None
    return out


def pair_ratios(m, n):
    """bpf_reno's metrics m ÷ reno's n of the same pair, into m."""
    for k, src in (("tput_ratio", "goodput_mbps"), ("cg_cpu_ratio", "cg_cpu_s_per_gb"),
                   ("cpu_ratio", "sys_cpu_s_per_gb"), ("proc_cpu_ratio", "proc_cpu_s_per_gb")):
        if m.get(src) and n.get(src):
            m[k] = m[src] / n[src]


def fmt(metric, v, censor_bound=None):
    if v is None:
        return "n/a"
    if v == INF:
        return "never" if not censor_bound else "never (in %.0f s)" % censor_bound
    return METRICS.get(metric, ("", "%.3g"))[1] % v


def summary(vals):
    """median [min–max] of a list that may hold INF; None if empty."""
    xs = [v for v in vals if v is not None]
    if not xs:
        return None
    return {"med": median(xs), "lo": min(xs), "hi": max(xs), "n": len(xs)}


def main(rundir, expectations, quick):
    scen = load_jsonl(os.path.join(rundir, "scenarios.jsonl"))
    missing = {}
    canames = {}
    with open(os.path.join(rundir, "algorithms.txt")) as f:
        for line in f:
            parts = line.rstrip("\n").split(" ", 2)
            if parts[0] == "ca":
                canames[parts[1]] = parts[2]
            elif parts[0] == "missing":
                missing[parts[1]] = parts[2]
    rows = []			# results.csv
    agg = {}			# (scenario, variant, alg) -> {metric: summary}
    cells = {}			# (scenario, variant, alg) -> [cell]
    notes = {}			# (scenario, variant, alg) -> why there is nothing
    for sc in scen:
        for var in sc["variants"]:
            for alg in sc["algs"]:
                key = (sc["name"], var["name"], alg)
                if alg in missing:
                    notes[key] = missing[alg]
                    continue
                per = []
                for rep in range(1, sc["reps"] + 1):
                    d = os.path.join(rundir, "cells", sc["name"], var["name"], alg, "rep%d" % rep)
                    cj = os.path.join(d, "cell.json")
                    status = "ok"
                    try:
                        with open(cj) as f:
                            cell = json.load(f)
                    except (OSError, ValueError):
                        cell = None
                        status = "no result (see %s/cell.log)" % os.path.relpath(d, rundir)
                    m = cell_metrics(sc, cell) if cell else {}
                    if cell:
                        errs = [fl.get("error") for fl in cell["flows"] if not fl.get("ok")]
                        if errs:
                            status = "flow failed: %s" % "; ".join(str(e) for e in errs)
                    link = (cell or {}).get("link") or {}
                    env = (cell or {}).get("env", {})
                    late = ((link.get("up") or {}).get("lateness_us") or {}).get("p99")
                    per.append((rep, m, cell))
                    rows.append({
                        "scenario": sc["name"], "variant": var["name"], "algorithm": alg,
                        "ca_name": canames.get(alg, ""), "repetition": rep,
                        "seconds": sc["seconds"], "status": status,
                        **{k: ("inf" if v == INF else ("" if v is None else "%.6g" % v))
                           for k, v in m.items()},
                        "linkem_lateness_p99_us": "" if late is None else late,
                        "linkem_drops_queue": ((link.get("up") or {}).get("drops") or {}).get("queue", ""),
                        "linkem_drops_loss": ((link.get("up") or {}).get("drops") or {}).get("loss", ""),
                        "loadavg_start": env.get("loadavg_start", "").split(" ")[0],
                    })
                cells[key] = per
        # paired ratios of the BPF cost scenario, with their intervals
        if sc["kind"] == "veth" and "bpf_reno" in sc["algs"] and "reno" in sc["algs"]:
            sc["paired"] = {}
            for var in sc["variants"]:
                b = {r: m for r, m, _ in cells.get((sc["name"], var["name"], "bpf_reno"), [])}
                n = {r: m for r, m, _ in cells.get((sc["name"], var["name"], "reno"), [])}
                for r, m in b.items():
                    if r in n:
                        pair_ratios(m, n[r])
                for row in rows:
                    if row["scenario"] == sc["name"] and row["algorithm"] == "bpf_reno" and row["repetition"] in b:
                        for k in PAIRED:
                            if k in b[row["repetition"]]:
                                row[k] = "%.6g" % b[row["repetition"]][k]
                sc["paired"][var["name"]] = {k: paired.ratio_interval([m.get(k) for m in b.values()])
                                             for k in PAIRED}
            sc["metrics"] = sc["metrics"] + list(PAIRED)
    for key, per in cells.items():
        names = set(k for _, m, _ in per for k in m)
        agg[key] = {k: summary([m.get(k) for _, m, _ in per]) for k in names}

    # results.csv
    cols = ["scenario", "variant", "algorithm", "ca_name", "repetition", "seconds", "status"]
    extra = sorted(set(k for r in rows for k in r) - set(cols))
    with open(os.path.join(rundir, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols + extra, restval="")
        w.writeheader()
        for r in rows:
            w.writerow(r)

    plots = make_plots(rundir, scen, cells)
    checks = evaluate(expectations, scen, agg, missing)
    write_report(rundir, scen, agg, cells, notes, missing, checks, plots, quick, rows)
    return 0


# --- expectations ---

def parse_expectations(path):
    out = []
    with open(path) as f:
        for line in f:
            if not line.startswith("| ") or line.startswith("| id ") or line.startswith("|---"):
                continue
            cols = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cols) != 7:
                continue
            out.append(dict(zip(["id", "scenario", "variant", "algs", "text", "met", "partly"], cols)))
    return out


def evaluate(path, scen, agg, missing):
    results = []
    try:
        exps = parse_expectations(path)
    except OSError as e:
        return [{"id": "-", "scenario": "-", "variant": "-", "text": "expectations file unreadable: %s" % e,
                 "measured": "n/a", "verdict": "n/a"}]
    byname = {s["name"]: s for s in scen}
    for e in exps:
        sc = byname.get(e["scenario"])
        if not sc:
            continue	# scenario not run (--only)
        variants = [v["name"] for v in sc["variants"]] if e["variant"] == "*" else [e["variant"]]
        algs = e["algs"].split() or [None]
        for var in variants:
            if var not in [v["name"] for v in sc["variants"]]:
                continue
            for alg in algs:
                used = []

                def m(a, metric, which="med"):
                    s = agg.get((sc["name"], var, a), {}).get(metric)
                    used.append((a, metric, s))
                    if a in missing:
                        raise LookupError("%s missing: %s" % (a, missing[a]))
                    if s is None:
                        raise LookupError("no %s for %s" % (metric, a))
                    return s[which]

                env = {"m": m, "lo": lambda a, k: m(a, k, "lo"), "hi": lambda a, k: m(a, k, "hi"),
                       "fin": lambda x: x is not None and x != INF, "inf": INF, "abs": abs,
                       "__builtins__": {}}
                met_x = e["met"].replace("{alg}", alg or "")
                part_x = e["partly"].replace("{alg}", alg or "")
                text = e["text"].replace("{alg}", alg or "")
                try:
                    met = bool(eval(met_x, env))
                    partly = met or bool(eval(part_x, env))
                    verdict = "met" if met else ("partly" if partly else "not met")
                except LookupError as err:
                    verdict = "n/a (%s)" % err
                except (ZeroDivisionError, TypeError) as err:
                    verdict = "n/a (cannot compute: %s)" % err
                seen, meas = set(), []
                for a, k, s in used:
                    if (a, k) in seen:
                        continue
                    seen.add((a, k))
                    bound = sc["seconds"] if k in CENSORED else None
                    meas.append("%s %s %s" % (a, k, fmt(k, s["med"], bound) if s else "n/a"))
                results.append({"id": e["id"] + ("" if alg is None else "/" + alg), "scenario": sc["name"],
                                "variant": var, "text": text, "measured": "; ".join(meas) or "n/a",
                                "verdict": verdict, "met_if": met_x})
    return results


# --- plots ---

# one colour and point type per algorithm, the same in every plot
COLOURS = {"hybla": "#1f77b4", "westwood": "#2ca02c", "vegas": "#9467bd", "bic": "#8c564b",
           "highspeed": "#e377c2", "bpf_reno": "#17becf", "reno": "#d62728", "cubic": "#ff7f0e",
           "bbr": "#7f7f7f"}
POINTS = {"hybla": 5, "westwood": 7, "vegas": 9, "bic": 11, "highspeed": 13, "bpf_reno": 4,
          "reno": 6, "cubic": 8, "bbr": 10}


def style(alg, lines=True):
    c = COLOURS.get(alg, "#000000")
    if lines:
        return "lc rgb '%s'" % c
    return "lc rgb '%s' pt %d" % (c, POINTS.get(alg, 1))


def gnuplot(script):
    if not shutil.which("gnuplot"):
        return False
    r = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    if r.returncode:
        sys.stderr.write("gnuplot: %s\n" % r.stderr[-500:])
    return r.returncode == 0


def safe(s):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", s)


def make_plots(rundir, scen, cells):
    pdir = os.path.join(rundir, "plots")
    ddir = os.path.join(pdir, "data")
    os.makedirs(ddir, exist_ok=True)
    plots = {}
    for sc in scen:
        if sc["kind"] == "veth":
            continue
        for var in sc["variants"]:
            vn = var["name"]
            # cwnd over time: repetition 1 of every algorithm
            series = []
            for alg in sc["algs"]:
                per = cells.get((sc["name"], vn, alg)) or []
                cell = next((c for r, m, c in per if c), None)
                if not cell:
                    continue
                for i, fl in enumerate(cell["flows"]):
                    s = fl.get("series") or {}
                    if not s.get("t"):
                        continue
                    fn = os.path.join(ddir, safe("%s_%s_%s_f%d.dat" % (sc["name"], vn, alg, i)))
                    with open(fn, "w") as f:
                        for t, c, r in zip(s["t"], s["cwnd"], s["srtt_ms"]):
                            f.write("%.3f %d %.3f\n" % (t, c, r))
                    series.append((alg, i, fn))
            if series:
                png = os.path.join(pdir, safe("cwnd_%s_%s.png" % (sc["name"], vn)))
                if sc["kind"] == "pair":
                    algs = sorted(set(a for a, _, _ in series), key=sc["algs"].index)
                    ncol = 3
                    nrow = (len(algs) + ncol - 1) // ncol
                    sp = ["set terminal pngcairo noenhanced size 1500,%d font ',9'" % (330 * nrow),
                          "set output '%s'" % png,
                          "set multiplot layout %d,%d title '%s, %s: cwnd of both flows (rep 1)'" % (nrow, ncol, sc["title"], vn),
                          "set xlabel 'time (s)'; set ylabel 'cwnd (packets)'; set grid; set key top left"]
                    for a in algs:
                        fs = [(i, fn) for aa, i, fn in series if aa == a]
                        sp.append("set title '%s'" % a)
                        sp.append("plot " + ", ".join("'%s' using 1:2 with lines title 'flow %d'" % (fn, i) for i, fn in fs))
                    sp.append("unset multiplot")
                else:
                    maxima = []
                    for a, i, fn in series:
                        with open(fn) as f:
                            maxima.append(max(int(l.split()[1]) for l in f))
                    logy = max(maxima) > 8 * max(1, min(maxima))
                    sp = ["set terminal pngcairo noenhanced size 1100,600 font ',10'", "set output '%s'" % png,
                          "set logscale y" if logy else "set yrange [0:*]",
                          "set title '%s, %s: cwnd over time (rep 1, from tcp_probe)'" % (sc["title"], vn),
                          "set xlabel 'time since the first ACK (s)'; set ylabel 'cwnd (packets)'",
                          "set grid; set key outside right",
                          "plot " + ", ".join("'%s' using 1:2 with lines lw 1.5 %s title '%s'" % (fn, style(a), a) for a, i, fn in series)]
                if gnuplot("\n".join(sp) + "\n"):
                    plots.setdefault(sc["name"], []).append((vn, "cwnd", os.path.relpath(png, rundir)))
            # throughput vs delay scatter (Pantheon style)
            if sc["kind"] == "single":
                pts = []
                for alg in sc["algs"]:
                    for r, m, c in cells.get((sc["name"], vn, alg)) or []:
                        if m.get("goodput_mbps") is not None and m.get("rtt_p95_ms") is not None:
                            pts.append((alg, r, m["rtt_p95_ms"], m["goodput_mbps"]))
                if pts:
                    fn = os.path.join(ddir, safe("scatter_%s_%s.dat" % (sc["name"], vn)))
                    algs = [a for a in sc["algs"] if any(p[0] == a for p in pts)]
                    with open(fn, "w") as f:
                        for a in algs:
                            f.write("# %s\n" % a)
                            for p in pts:
                                if p[0] == a:
                                    f.write("%.3f %.4f\n" % (p[2], p[3]))
                            f.write("\n\n")
                    png = os.path.join(pdir, safe("scatter_%s_%s.png" % (sc["name"], vn)))
                    sp = ["set terminal pngcairo noenhanced size 900,650 font ',10'", "set output '%s'" % png,
                          "set title '%s, %s: throughput vs delay (each point one run)'" % (sc["title"], vn),
                          "set xlabel 'RTT p95 (ms), better to the right'; set ylabel 'goodput (Mbit/s)'",
                          "set xrange [*:*] reverse; set logscale x; set yrange [0:*]; set offsets graph 0.05, graph 0.05, graph 0.08, 0; set grid; set key outside right",
                          "plot " + ", ".join("'%s' index %d using 1:2 with points %s ps 1.8 title '%s'" % (fn, i, style(a, False), a)
                                              for i, a in enumerate(algs))]
                    if gnuplot("\n".join(sp) + "\n"):
                        plots.setdefault(sc["name"], []).append((vn, "scatter", os.path.relpath(png, rundir)))
    return plots


# --- report.md ---

def write_report(rundir, scen, agg, cells, notes, missing, checks, plots, quick, rows):
    L = []
    w = L.append
    w("# tcpca benchmark report")
    w("")
    w("Run `%s` — %s. Every algorithm of a scenario ran on links with the same linkem "
      "settings in this run (parallel scenarios: one identical link per cell, at the same time; "
      "serial ones: one cell at a time, the order rotating per repetition). Figures are the "
      "median over repetitions with [min–max]; `× reno` is the median divided by the kernel "
      "reno's median in the same variant. Machine, versions and exact link options: "
      "[environment.md](environment.md); one row per run: [results.csv](results.csv)."
      % (os.path.basename(os.path.realpath(rundir)),
         "**quick mode** (1 repetition, short flows: a smoke test, not a measurement)" if quick == "1"
         else "full mode"))
    w("")
    if missing:
        w("Algorithms not measured: " + "; ".join("%s — %s" % kv for kv in sorted(missing.items())) + ".")
        w("")
    failed = [r for r in rows if r["status"] != "ok"]
    if failed:
        w("**%d run(s) failed** (their metrics are n/a): " % len(failed) +
          "; ".join("%s/%s/%s rep%d: %s" % (r["scenario"], r["variant"], r["algorithm"], r["repetition"], r["status"])
                    for r in failed[:12]) + ("; …" if len(failed) > 12 else ""))
        w("")
    w("## Headline figures")
    w("")
    w("| figure | measured |")
    w("|---|---|")
    for label, text in headlines(scen, agg, missing, cells):
        w("| %s | %s |" % (label, text))
    w("")
    w("## Expectations against measurements")
    w("")
    w("Written before the first run in [tools/bench/expectations.md](../../tools/bench/expectations.md) "
      "(the reasoning is there); not tuned afterwards.")
    w("")
    counts = {}
    for c in checks:
        v = c["verdict"].split(" (")[0]
        counts[v] = counts.get(v, 0) + 1
    w("Verdicts: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())) + ".")
    w("")
    w("| id | scenario / variant | expectation | measured (medians) | verdict |")
    w("|---|---|---|---|---|")
    for c in checks:
        w("| %s | %s / %s | %s | %s | **%s** |" % (c["id"], c["scenario"], c["variant"], c["text"],
                                                  c["measured"], c["verdict"]))
    w("")
    for sc in scen:
        w("## %s" % sc["title"])
        w("")
        cap = capacity(sc)
        w("Scenario `%s` ([%s](../../%s)), %d repetition(s) of %d s flows. Link: `%s`%s. %s" % (
            sc["name"], sc["file"], sc["file"], sc["reps"], sc["seconds"], sc["link"],
            (", capacity %.2f Mbit/s (%s)" % (cap, "the trace's mean over the first %d s; over the whole trace %.2f Mbit/s"
                                             % (sc["seconds"], trace_capacity_mbit(sc["trace"]) or 0)
                                             if sc["rate_mbit"] == "trace" else "fixed")) if cap else "",
            {"single": "One flow per run.",
             "pair": "Two flows per run, started together; flow 0 is the algorithm named in the row, "
                     "flow 1 the same algorithm (or cubic in vs-cubic); in rtt-3x flow 1 has 3× the RTT.",
             "veth": "One flow per run over an unshaped veth pair, one algorithm at a time, the order rotating "
                     "per repetition (bpf_reno and reno: alternating pairs)."
                     + (" Kernel BPF statistics on for this scenario only." if sc.get("bpf_stats") else "")}[sc["kind"]]))
        w("")
        if sc["kind"] != "veth":
            lat = [((c or {}).get("link") or {}).get("up", {}).get("lateness_us", {}).get("p99")
                   for var in sc["variants"] for alg in sc["algs"]
                   for _, _, c in cells.get((sc["name"], var["name"], alg)) or []]
            lat = [x for x in lat if x is not None]
            if lat:
                pkt_us = 12000.0 / float(sc["rate_mbit"]) if sc["rate_mbit"] not in ("trace", "none") else 700.0
                late = [x for x in lat if x > 4 * pkt_us]
                w("Emulator accuracy: linkem's lateness p99 per run, median %.0f µs, max %.0f µs (%d at a time); "
                  "%s" % (median(lat), max(lat), sc.get("jobs", 1),
                          "%d of %d runs above 4 packet times (%.0f µs): treat those with care." % (len(late), len(lat), 4 * pkt_us)
                          if late else "every run within 4 packet times (%.0f µs)." % (4 * pkt_us)))
                w("")
        mets = sc["metrics"]
        for var in sc["variants"]:
            vn = var["name"]
            extra = (" (`%s`)" % var["extra"].strip()) if var["extra"].strip() else ""
            w("### %s%s" % (vn, extra))
            w("")
            w("| algorithm | " + " | ".join(METRICS.get(k, (k,))[0] for k in mets) + " | linkem lateness p99 µs |")
            w("|---|" + "---|" * (len(mets) + 1))
            ref = agg.get((sc["name"], vn, "reno"), {})
            for alg in sc["algs"]:
                key = (sc["name"], vn, alg)
                if key in notes:
                    w("| %s | " % alg + " | ".join(["n/a (%s)" % notes[key]] * (len(mets) + 1)) + " |")
                    continue
                a = agg.get(key, {})
                cellv = []
                for k in mets:
                    s = a.get(k)
                    cellv.append(cell_text(sc, k, s, ref.get(k), alg, cells.get(key)))
                lates = [((c or {}).get("link") or {}).get("up", {}).get("lateness_us", {}).get("p99")
                         for _, _, c in cells.get(key) or []]
                lates = [x for x in lates if x is not None]
                cellv.append("%.0f [%.0f–%.0f]" % (median(lates), min(lates), max(lates)) if lates
                             else ("n/a (veth: no emulator)" if sc["kind"] == "veth" else "n/a (no linkem stats)"))
                w("| %s | %s |" % (alg, " | ".join(cellv)))
            w("")
            if sc.get("bpf_stats"):
                L.extend(hookcost.section(sc, {alg: [c for _, _, c in cells.get((sc["name"], vn, alg)) or []]
                                                for alg in sc["algs"]}))
            for k, iv in (sc.get("paired") or {}).get(vn, {}).items():
                w("- %s, median of the pairs: %s" % (METRICS[k][0], paired.describe(iv, PAIRED_WHAT[k])))
            if sc.get("paired"):
                w("")
            for v2, kind, png in plots.get(sc["name"], []):
                if v2 == vn:
                    w("![%s %s %s](%s)" % (sc["name"], vn, kind, png))
            w("")
    w("## How the metrics are measured")
    w("")
    w("- goodput: bytes the iperf3 receiver got ÷ its receive time (iperf3 `sum_received`).")
    w("- utilisation: goodput ÷ (link rate × 1448/1500), i.e. against the most TCP payload "
      "1500-byte packets can carry; for a trace, the rate is the trace's mean over the flow's "
      "length from its start (every run starts the trace afresh).")
    w("- time to 90 %: first moment, from the flow's start, at which the receiver's goodput over the "
      "last second (iperf3 server intervals of 0.2 s) reaches 90 % of that capacity; `> N s (never)` "
      "when it did not within the flow.")
    w("- RTT p50/p95: percentiles of the sender's smoothed RTT (`srtt`) at every ACK, from the "
      "`tcp:tcp_probe` tracepoint, over the whole flow (so slow start counts too).")
    w("- recovery: after every reduction of ssthresh except the first (the exit from slow start), the "
      "time until cwnd is back to 90 % of the largest cwnd in the RTT before it, median over the "
      "episodes of a run (long fat pipe: from 6.5 s of the flow on, the start-up left out). An "
      "episode cut short by the next loss or the end of the flow counts as `never` (infinite) "
      "if it was watched for at least 5 s, and is left out if less (it says nothing); n/a when no "
      "episode remains. BBR moves ssthresh without reducing cwnd: its 0.0 means cwnd never fell "
      "below 90 %.")
    w("- Jain: (a+b)² / (2(a²+b²)) of the two flows' goodputs; share flow 0 = a/(a+b).")
    w("- CPU per GB (machine): busy time of all CPUs from /proc/stat (everything except idle and "
      "iowait) during the flow ÷ GB received — includes other work on the machine. CPU per GB "
      "(sender): iperf3's getrusage of the sending process (user+system) ÷ GB; ACK processing in "
      "softirq is charged to whichever task is running, so this is a lower bound. CPU per GB (cell's "
      "cgroup): the CPU time of a cgroup holding both iperf3 processes (cgroup v2 cpu.stat or v1 "
      "cpuacct), which includes the softirq work done in their context (this kernel has no "
      "IRQ_TIME_ACCOUNTING), but not what ksoftirqd does.")
    w("- BPF ns per ACK: with the kernel's BPF statistics on (BPF_ENABLE_STATS, held by "
      "build/bench/bpf-stats-on for the scenario only), the sum of run_time_ns over the algorithm's "
      "programs during the flow ÷ the sender's TCP segments in.")
    w("- Paired ratios: bpf_reno ÷ reno per back-to-back pair; their median, and the sign test's "
      "distribution-free interval for it (between the k-th smallest and k-th largest ratio, k the "
      "largest that still covers 95 %; with fewer than 6 pairs, the range and its lower cover: "
      "tools/bench/lib/paired.py).")
    w("- linkem lateness p99: how late linkem's data-direction packets left against their schedule "
      "(its accuracy under this run's load).")
    w("")
    with open(os.path.join(rundir, "report.md"), "w") as f:
        f.write("\n".join(L) + "\n")


def cell_text(sc, k, s, ref, alg, per):
    if s is None and alg == "reno" and k in PAIRED:
        return "n/a (the reference)"
    if s is None:
        reason = "no loss after slow start" if k == "recovery_s" else (
            "run failed" if not per or not any(c for _, _, c in per) else "not measured")
        return "n/a (%s)" % reason
    bound = sc["seconds"] if k in CENSORED else None
    t = fmt(k, s["med"], bound)
    if s["n"] > 1:
        t += " [%s–%s]" % (fmt(k, s["lo"], bound), fmt(k, s["hi"], bound))
    if alg != "reno" and ref and ref["med"] not in (None, 0, INF) and s["med"] not in (None, INF) \
            and k not in ("jain", "share0") + PAIRED:
        t += " (%.2f× reno)" % (s["med"] / ref["med"])
    return t


PAIRED_WHAT = {"tput_ratio": "throughput", "cg_cpu_ratio": "CPU per GB (cell's cgroup)",
               "cpu_ratio": "CPU per GB (machine)", "proc_cpu_ratio": "CPU per GB (iperf3 getrusage)"}


def headlines(scen, agg, missing, cells):
    names = {s["name"]: s for s in scen}

    def get(sc, var, alg, k):
        s = agg.get((sc, var, alg), {}).get(k)
        return None if s is None else s["med"]

    def ratio(sc, var, a, b, k, label):
        if sc not in names:
            return label, "n/a (scenario not run)"
        for x in (a, b):
            if x in missing:
                return label, "n/a (%s: %s)" % (x, missing[x])
        va, vb = get(sc, var, a, k), get(sc, var, b, k)
        if va is None or vb is None:
            return label, "n/a (no measurement)"
        bound = names[sc]["seconds"] if k in CENSORED else None
        r = ("%.2f×" % (va / vb)) if vb not in (0, INF) and va != INF else "—"
        return label, "%s %s vs %s %s (%s)" % (a, fmt(k, va, bound), b, fmt(k, vb, bound), r)

    out = [
        ratio("geo", "loss0", "hybla", "reno", "goodput_mbps", "Satellite, no loss: Hybla vs Reno goodput (Mbit/s)"),
        ratio("geo", "loss0", "hybla", "reno", "t90_s", "Satellite, no loss: Hybla vs Reno time to 90 %"),
        ratio("geo", "loss0.5", "hybla", "reno", "goodput_mbps", "Satellite, 0.5 % loss: Hybla vs Reno goodput (Mbit/s)"),
        ratio("wireless", "loss1", "westwood", "reno", "goodput_mbps", "Wireless, 1 % loss: Westwood+ vs Reno goodput (Mbit/s)"),
        ratio("deepbuffer", "10xBDP", "vegas", "cubic", "rtt_p95_ms", "Deep buffer: Vegas vs CUBIC RTT p95 (ms)"),
        ratio("deepbuffer", "10xBDP", "vegas", "cubic", "util", "Deep buffer: Vegas vs CUBIC utilisation"),
        ratio("longfat", "loss1e-5", "bic", "reno", "recovery_s", "Long fat pipe: BIC vs Reno recovery after a loss"),
        ratio("longfat", "loss1e-5", "highspeed", "reno", "recovery_s", "Long fat pipe: HighSpeed vs Reno recovery after a loss"),
        ratio("longfat", "loss1e-5", "bic", "reno", "goodput_mbps", "Long fat pipe: BIC vs Reno goodput (Mbit/s)"),
        ratio("longfat", "loss1e-5", "highspeed", "reno", "goodput_mbps", "Long fat pipe: HighSpeed vs Reno goodput (Mbit/s)"),
    ]
    if "bpfcost" in names:
        ivs = (names["bpfcost"].get("paired") or {}).get("veth", {})
        for k in ("tput_ratio", "cg_cpu_ratio"):
            out.append(("BPF cost: bpf_reno ÷ reno %s (paired: median, its ≥ 95 %% interval)" % PAIRED_WHAT[k],
                        paired.describe(ivs.get(k), PAIRED_WHAT[k])))
    else:
        out.append(("BPF cost", "n/a (scenario not run)"))
    if "hookcost" in names:
        sc = names["hookcost"]
        out.append(hookcost.headline(sc, {alg: [c for _, _, c in cells.get(("hookcost", "veth", alg)) or []]
                                          for alg in sc["algs"]}))
    return out


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "0"))
