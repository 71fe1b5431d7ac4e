# SPDX-License-Identifier: GPL-2.0
"""plots/: cwnd over time (repetition 1) and throughput against delay
(every run), their data under plots/data/, drawn by gnuplot when it is
installed (without it the report simply has no figures)."""
import functools
import os
import re
import shutil
import subprocess
import sys

# one colour and point type per algorithm, the same in every plot
COLOURS = {"hybla": "#1f77b4", "westwood": "#2ca02c", "vegas": "#9467bd", "bic": "#8c564b",
           "highspeed": "#e377c2", "bpf_reno": "#17becf", "reno": "#d62728", "cubic": "#ff7f0e",
           "bbr": "#7f7f7f"}
POINTS = {"hybla": 5, "westwood": 7, "vegas": 9, "bic": 11, "highspeed": 13, "bpf_reno": 4,
          "reno": 6, "cubic": 8, "bbr": 10}


# the others (those without a colour above, as an algorithm added is): one
# of these by its place in bpf/algorithms.tab, rather than all black
MORE_COLOURS = ["#bcbd22", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd",
                "#31a354", "#756bb1", "#636363", "#e6550d", "#969696"]
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../..")


@functools.lru_cache(maxsize=None)
def table_names():
    r = subprocess.run([os.path.join(ROOT, "scripts/algorithms"), "name"], capture_output=True, text=True)
    return r.stdout.split() if r.returncode == 0 else []


def style(alg, lines=True):
    c = COLOURS.get(alg)
    if c is None:
        names = [n for n in table_names() if n not in COLOURS]
        c = MORE_COLOURS[names.index(alg) % len(MORE_COLOURS)] if alg in names else "#000000"
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
    """{scenario: [(variant, kind, png relative to RUNDIR)]} of the plots drawn."""
    pdir = os.path.join(rundir, "plots")
    os.makedirs(os.path.join(pdir, "data"), exist_ok=True)
    plots = {}
    for sc in scen:
        if sc["kind"] == "veth":
            continue
        for var in sc["variants"]:
            for kind, draw in (("cwnd", cwnd_plot), ("scatter", scatter_plot)):
                png = draw(pdir, sc, var["name"], cells)
                if png:
                    plots.setdefault(sc["name"], []).append((var["name"], kind, os.path.relpath(png, rundir)))
    return plots


def cwnd_plot(pdir, sc, vn, cells):
    """The cwnd plot of one variant, or None."""
    series = cwnd_data(pdir, sc, vn, cells)
    if not series:
        return None
    png = os.path.join(pdir, safe("cwnd_%s_%s.png" % (sc["name"], vn)))
    script = (cwnd_pair_script if sc["kind"] == "pair" else cwnd_single_script)(sc, vn, series, png)
    return png if gnuplot("\n".join(script) + "\n") else None


def cwnd_data(pdir, sc, vn, cells):
    """[(alg, flow, data file)] of the first repetition with a result."""
    series = []
    for alg in sc["algs"]:
        cell = next((c for r, m, c in cells.get((sc["name"], vn, alg)) or [] if c), None)
        for i, fl in enumerate(cell["flows"] if cell else []):
            s = fl.get("series") or {}
            if not s.get("t"):
                continue
            fn = os.path.join(pdir, "data", safe("%s_%s_%s_f%d.dat" % (sc["name"], vn, alg, i)))
            with open(fn, "w") as f:
                for t, c, r in zip(s["t"], s["cwnd"], s["srtt_ms"]):
                    f.write("%.3f %d %.3f\n" % (t, c, r))
            series.append((alg, i, fn))
    return series


def cwnd_pair_script(sc, vn, series, png):
    """One panel per algorithm, both flows in it."""
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
    return sp


def cwnd_single_script(sc, vn, series, png):
    """Every algorithm in one plot, on a log scale when their windows differ
    by more than 8x."""
    maxima = []
    for a, i, fn in series:
        with open(fn) as f:
            maxima.append(max(int(line.split()[1]) for line in f))
    logy = max(maxima) > 8 * max(1, min(maxima))
    return ["set terminal pngcairo noenhanced size 1100,600 font ',10'", "set output '%s'" % png,
            "set logscale y" if logy else "set yrange [0:*]",
            "set title '%s, %s: cwnd over time (rep 1, from tcp_probe)'" % (sc["title"], vn),
            "set xlabel 'time since the first ACK (s)'; set ylabel 'cwnd (packets)'",
            "set grid; set key outside right",
            "plot " + ", ".join("'%s' using 1:2 with lines lw 1.5 %s title '%s'" % (fn, style(a), a)
                                for a, i, fn in series)]


def scatter_plot(pdir, sc, vn, cells):
    """Throughput against delay, Pantheon style, of a one-flow scenario, or None."""
    if sc["kind"] != "single":
        return None
    pts = [(alg, m["rtt_p95_ms"], m["goodput_mbps"]) for alg in sc["algs"]
           for r, m, c in cells.get((sc["name"], vn, alg)) or []
           if m.get("goodput_mbps") is not None and m.get("rtt_p95_ms") is not None]
    if not pts:
        return None
    fn = os.path.join(pdir, "data", safe("scatter_%s_%s.dat" % (sc["name"], vn)))
    algs = [a for a in sc["algs"] if any(p[0] == a for p in pts)]
    with open(fn, "w") as f:
        for a in algs:	# one gnuplot index per algorithm
            f.write("# %s\n" % a)
            f.writelines("%.3f %.4f\n" % (p[1], p[2]) for p in pts if p[0] == a)
            f.write("\n\n")
    png = os.path.join(pdir, safe("scatter_%s_%s.png" % (sc["name"], vn)))
    sp = ["set terminal pngcairo noenhanced size 900,650 font ',10'", "set output '%s'" % png,
          "set title '%s, %s: throughput vs delay (each point one run)'" % (sc["title"], vn),
          "set xlabel 'RTT p95 (ms), better to the right'; set ylabel 'goodput (Mbit/s)'",
          "set xrange [*:*] reverse; set logscale x; set yrange [0:*]; set offsets graph 0.05, graph 0.05, "
          "graph 0.08, 0; set grid; set key outside right",
          "plot " + ", ".join("'%s' index %d using 1:2 with points %s ps 1.8 title '%s'" % (fn, i, style(a, False), a)
                              for i, a in enumerate(algs))]
    return png if gnuplot("\n".join(sp) + "\n") else None
