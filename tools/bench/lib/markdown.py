# SPDX-License-Identifier: GPL-2.0
"""report.md: the headline figures, the expectations' verdicts, one
section per scenario (a table per variant, plots) and how the metrics
are measured.  Every function returns its lines; write_report joins them."""
import os

import hookcost
import paired
from metrics import CENSORED, INF, METRICS, PAIRED, PAIRED_WHAT, capacity, fmt, median, trace_capacity_mbit

# the tree the bench runs from: a checkout, or an installed testbed (make
# install-testbed), whose runs are written wherever the user is
ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../.."))


def tree_link(rundir, rel):
    """A link from RUNDIR/report.md to the tree's file REL."""
    return os.path.relpath(os.path.join(ROOT, rel), os.path.realpath(rundir))


def write_report(rundir, scen, agg, cells, notes, missing, checks, plots, quick, rows):
    L = header(rundir, quick, missing, rows)
    L += headline_section(scen, agg, missing, cells)
    L += expectations_section(checks, rundir)
    for sc in scen:
        L += scenario_section(sc, agg, cells, notes, plots, rundir)
    L += HOW_MEASURED
    with open(os.path.join(rundir, "report.md"), "w") as f:
        f.write("\n".join(L) + "\n")


def header(rundir, quick, missing, rows):
    L = ["# tcpca benchmark report", "",
         "Run `%s` — %s. Every algorithm of a scenario ran on links with the same linkem "
         "settings in this run (parallel scenarios: one identical link per cell, at the same time; "
         "serial ones: one cell at a time, the order rotating per repetition). Figures are the "
         "median over repetitions with [min–max]; `× reno` is the median divided by the kernel "
         "reno's median in the same variant (BPF cost: by the median of the algorithm a copy copies, `× cubic`). "
         "Machine, versions and exact link options: [environment.md](environment.md); one row per "
         "run: [results.csv](results.csv)."
         % (os.path.basename(os.path.realpath(rundir)),
            "**quick mode** (1 repetition, short flows: a smoke test, not a measurement)" if quick == "1"
            else "full mode"), ""]
    if missing:
        L += ["Algorithms not measured: " + "; ".join("%s — %s" % kv for kv in sorted(missing.items())) + ".", ""]
    failed = [r for r in rows if r["status"] != "ok"]
    if failed:
        L += ["**%d run(s) failed** (their metrics are n/a): " % len(failed) +
              "; ".join("%s/%s/%s rep%d: %s" % (r["scenario"], r["variant"], r["algorithm"], r["repetition"],
                                                 r["status"]) for r in failed[:12])
              + ("; …" if len(failed) > 12 else ""), ""]
    return L


# --- headline figures ---

# (scenario, variant, algorithm, against, metric, label)
HEADLINES = [
    ("geo", "loss0", "hybla", "reno", "goodput_mbps", "Satellite, no loss: Hybla vs Reno goodput (Mbit/s)"),
    ("geo", "loss0", "hybla", "reno", "t90_s", "Satellite, no loss: Hybla vs Reno time to 90 %"),
    ("geo", "loss0.5", "hybla", "reno", "goodput_mbps", "Satellite, 0.5 % loss: Hybla vs Reno goodput (Mbit/s)"),
    ("wireless", "loss1", "westwood", "reno", "goodput_mbps", "Wireless, 1 % loss: Westwood+ vs Reno goodput (Mbit/s)"),
    ("deepbuffer", "10xBDP", "vegas", "cubic", "rtt_p95_ms", "Deep buffer: Vegas vs CUBIC RTT p95 (ms)"),
    ("deepbuffer", "10xBDP", "vegas", "cubic", "util", "Deep buffer: Vegas vs CUBIC utilisation"),
    ("longfat", "loss1e-5", "bic", "reno", "recovery_s", "Long fat pipe: BIC vs Reno recovery after a loss"),
    ("longfat", "loss1e-5", "highspeed", "reno", "recovery_s",
     "Long fat pipe: HighSpeed vs Reno recovery after a loss"),
    ("longfat", "loss1e-5", "bic", "reno", "goodput_mbps", "Long fat pipe: BIC vs Reno goodput (Mbit/s)"),
    ("longfat", "loss1e-5", "highspeed", "reno", "goodput_mbps", "Long fat pipe: HighSpeed vs Reno goodput (Mbit/s)"),
]


def headline_section(scen, agg, missing, cells):
    L = ["## Headline figures", "", "| figure | measured |", "|---|---|"]
    L += ["| %s | %s |" % (label, text) for label, text in headlines(scen, agg, missing, cells)]
    return L + [""]


def headlines(scen, agg, missing, cells):
    names = {s["name"]: s for s in scen}
    out = [(h[-1], headline_ratio(names, agg, missing, *h[:-1])) for h in HEADLINES]
    if "bpfcost" in names:
        out += bpfcost_headlines(names["bpfcost"])
    else:
        out.append(("BPF cost", "n/a (scenario not run)"))
    if "hookcost" in names:
        sc = names["hookcost"]
        out.append(hookcost.headline(sc, {alg: [c for _, _, c in cells.get(("hookcost", "veth", alg)) or []]
                                          for alg in sc["algs"]}))
    return out


def bpfcost_headlines(sc):
    """Per pair of the BPF cost scenario, its throughput and its CPU per GB
    (cgroup) ratio, as (label, text)."""
    ivs = (sc.get("paired") or {}).get("veth", {})
    return [("BPF cost: %s ÷ %s %s (paired: median, its ≥ 95 %% interval)" % (copy, orig, PAIRED_WHAT[k]),
             paired.describe((ivs.get(copy) or {}).get(k), PAIRED_WHAT[k], copy))
            for copy, orig in paired.pairs_of(sc) for k in ("tput_ratio", "cg_cpu_ratio")]


def headline_ratio(names, agg, missing, sc, var, a, b, k):
    """ALG a's median of metric K against b's, as text."""
    if sc not in names:
        return "n/a (scenario not run)"
    for x in (a, b):
        if x in missing:
            return "n/a (%s: %s)" % (x, missing[x])
    va, vb = [(agg.get((sc, var, x), {}).get(k) or {}).get("med") for x in (a, b)]
    if va is None or vb is None:
        return "n/a (no measurement)"
    bound = names[sc]["seconds"] if k in CENSORED else None
    r = ("%.2f×" % (va / vb)) if vb not in (0, INF) and va != INF else "—"
    return "%s %s vs %s %s (%s)" % (a, fmt(k, va, bound), b, fmt(k, vb, bound), r)


# --- expectations ---

def expectations_section(checks, rundir):
    counts = {}
    for c in checks:
        v = c["verdict"].split(" (")[0]
        counts[v] = counts.get(v, 0) + 1
    L = ["## Expectations against measurements", "",
         "Written before the first run in [tools/bench/expectations.md](%s) "
         % tree_link(rundir, "tools/bench/expectations.md") +
         "(the reasoning is there); not tuned afterwards.", "",
         "Verdicts: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())) + ".", "",
         "| id | scenario / variant | expectation | measured (medians) | verdict |", "|---|---|---|---|---|"]
    L += ["| %s | %s / %s | %s | %s | **%s** |" % (c["id"], c["scenario"], c["variant"], c["text"],
                                                  c["measured"], c["verdict"]) for c in checks]
    return L + [""]


# --- one section per scenario ---

KIND_TEXT = {
    "single": "One flow per run.",
    "pair": "Two flows per run, started together; flow 0 is the algorithm named in the row, "
            "flow 1 the same algorithm (or cubic in vs-cubic); in rtt-3x flow 1 has 3× the RTT.",
    "veth": "One flow per run over an unshaped veth pair, one algorithm at a time, the order rotating "
            "per repetition.",
}
PAIRED_TEXT = ("One flow per run over an unshaped veth pair, one algorithm at a time, in pairs run back to "
               "back (%s), which of a pair goes first alternating per repetition.")


def scenario_section(sc, agg, cells, notes, plots, rundir):
    L = ["## %s" % sc["title"], "", scenario_intro(sc, rundir), ""]
    if sc["kind"] != "veth":
        L += emulator_accuracy(sc, cells)
    for var in sc["variants"]:
        L += variant_section(sc, var, agg, cells, notes, plots)
    return L


def scenario_intro(sc, rundir):
    cap = capacity(sc)
    if not cap:
        link = ""
    elif sc["rate_mbit"] == "trace":
        link = ", capacity %.2f Mbit/s (the trace's mean over the first %d s; over the whole trace %.2f Mbit/s)" % (
            cap, sc["seconds"], trace_capacity_mbit(sc["trace"]) or 0)
    else:
        link = ", capacity %.2f Mbit/s (fixed)" % cap
    kind = KIND_TEXT[sc["kind"]]
    if paired.pairs_of(sc):
        kind = PAIRED_TEXT % ", ".join("%s and %s" % p for p in paired.pairs_of(sc))
    if sc["kind"] == "veth" and sc.get("bpf_stats"):
        kind += " Kernel BPF statistics on for this scenario only."
    return "Scenario `%s` ([%s](%s)), %d repetition(s) of %d s flows. Link: `%s`%s. %s" % (
        sc["name"], sc["file"], tree_link(rundir, sc["file"]), sc["reps"], sc["seconds"], sc["link"], link, kind)


def lateness(cell):
    """linkem's lateness p99 of a cell's data direction, or None."""
    return ((cell or {}).get("link") or {}).get("up", {}).get("lateness_us", {}).get("p99")


def emulator_accuracy(sc, cells):
    lat = [lateness(c) for var in sc["variants"] for alg in sc["algs"]
           for _, _, c in cells.get((sc["name"], var["name"], alg)) or []]
    lat = [x for x in lat if x is not None]
    if not lat:
        return []
    pkt_us = 12000.0 / float(sc["rate_mbit"]) if sc["rate_mbit"] not in ("trace", "none") else 700.0
    late = [x for x in lat if x > 4 * pkt_us]
    if late:
        verdict = "%d of %d runs above 4 packet times (%.0f µs): treat those with care." % (
            len(late), len(lat), 4 * pkt_us)
    else:
        verdict = "every run within 4 packet times (%.0f µs)." % (4 * pkt_us)
    return ["Emulator accuracy: linkem's lateness p99 per run, median %.0f µs, max %.0f µs (%d at a time); %s"
            % (median(lat), max(lat), sc.get("jobs", 1), verdict), ""]


def variant_section(sc, var, agg, cells, notes, plots):
    vn = var["name"]
    mets = sc["metrics"]
    extra = (" (`%s`)" % var["extra"].strip()) if var["extra"].strip() else ""
    L = ["### %s%s" % (vn, extra), "",
         "| algorithm | " + " | ".join(METRICS.get(k, (k,))[0] for k in mets) + " | linkem lateness p99 µs |",
         "|---|" + "---|" * (len(mets) + 1)]
    L += [alg_row(sc, vn, alg, agg, cells, notes) for alg in sc["algs"]]
    L.append("")
    if sc.get("bpf_stats"):
        L += hookcost.section(sc, {alg: [c for _, _, c in cells.get((sc["name"], vn, alg)) or []]
                                   for alg in sc["algs"]})
    L += paired_lines(sc, vn)
    L += ["![%s %s %s](%s)" % (sc["name"], vn, kind, png) for v2, kind, png in plots.get(sc["name"], []) if v2 == vn]
    return L + [""]


def paired_lines(sc, vn):
    """Per pair, the median of each of its ratios with the interval."""
    ivs = (sc.get("paired") or {}).get(vn)
    if ivs is None:
        return []
    return ["- %s ÷ %s, %s, median of the pairs: %s" % (copy, orig, PAIRED_WHAT[k],
                                                         paired.describe((ivs.get(copy) or {}).get(k),
                                                                         PAIRED_WHAT[k], copy))
            for copy, orig in paired.pairs_of(sc) for k in PAIRED] + [""]


def alg_row(sc, vn, alg, agg, cells, notes):
    key = (sc["name"], vn, alg)
    mets = sc["metrics"]
    if key in notes:
        return "| %s | " % alg + " | ".join(["n/a (%s)" % notes[key]] * (len(mets) + 1)) + " |"
    base = reference(sc, alg)
    a, ref = agg.get(key, {}), agg.get((sc["name"], vn, base), {})
    cellv = [cell_text(sc, k, a.get(k), ref.get(k), alg, cells.get(key), base) for k in mets]
    lates = [x for x in (lateness(c) for _, _, c in cells.get(key) or []) if x is not None]
    cellv.append("%.0f [%.0f–%.0f]" % (median(lates), min(lates), max(lates)) if lates
                 else ("n/a (veth: no emulator)" if sc["kind"] == "veth" else "n/a (no linkem stats)"))
    return "| %s | %s |" % (alg, " | ".join(cellv))


def reference(sc, alg):
    """What ALG's row is divided by: the kernel's reno, or in a paired
    scenario the algorithm the copy copies; None for the reference itself."""
    pairs = paired.pairs_of(sc)
    if pairs:
        return dict(pairs).get(alg)
    return None if alg == "reno" else "reno"


def cell_text(sc, k, s, ref, alg, per, base="reno"):
    if s is None and k in PAIRED and alg in [orig for _, orig in paired.pairs_of(sc)]:
        return "n/a (the reference)"
    if s is None:
        reason = "no loss after slow start" if k == "recovery_s" else (
            "run failed" if not per or not any(c for _, _, c in per) else "not measured")
        return "n/a (%s)" % reason
    bound = sc["seconds"] if k in CENSORED else None
    t = fmt(k, s["med"], bound)
    if s["n"] > 1:
        t += " [%s–%s]" % (fmt(k, s["lo"], bound), fmt(k, s["hi"], bound))
    if base and alg != base and ref and ref["med"] not in (None, 0, INF) and s["med"] not in (None, INF) \
            and k not in ("jain", "share0") + PAIRED:
        t += " (%.2f× %s)" % (s["med"] / ref["med"], base)
    return t


HOW_MEASURED = [
    "## How the metrics are measured",
    "",
    "- goodput: bytes the iperf3 receiver got ÷ its receive time (iperf3 `sum_received`).",
    "- utilisation: goodput ÷ (link rate × 1448/1500), i.e. against the most TCP payload "
    "1500-byte packets can carry; for a trace, the rate is the trace's mean over the flow's "
    "length from its start (every run starts the trace afresh).",
    "- time to 90 %: first moment, from the flow's start, at which the receiver's goodput over the "
    "last second (iperf3 server intervals of 0.2 s) reaches 90 % of that capacity; `> N s (never)` "
    "when it did not within the flow.",
    "- RTT p50/p95: percentiles of the sender's smoothed RTT (`srtt`) at every ACK, from the "
    "`tcp:tcp_probe` tracepoint, over the whole flow (so slow start counts too).",
    "- recovery: after every reduction of ssthresh except the first (the exit from slow start), the "
    "time until cwnd is back to 90 % of the largest cwnd in the RTT before it, median over the "
    "episodes of a run (long fat pipe: from 6.5 s of the flow on, the start-up left out). An "
    "episode cut short by the next loss or the end of the flow counts as `never` (infinite) "
    "if it was watched for at least 5 s, and is left out if less (it says nothing); n/a when no "
    "episode remains. BBR moves ssthresh without reducing cwnd: its 0.0 means cwnd never fell "
    "below 90 %.",
    "- Jain: (a+b)² / (2(a²+b²)) of the two flows' goodputs; share flow 0 = a/(a+b).",
    "- CPU per GB (machine): busy time of all CPUs from /proc/stat (everything except idle and "
    "iowait) during the flow ÷ GB received — includes other work on the machine. CPU per GB "
    "(sender): iperf3's getrusage of the sending process (user+system) ÷ GB; ACK processing in "
    "softirq is charged to whichever task is running, so this is a lower bound. CPU per GB (cell's "
    "cgroup): the CPU time of a cgroup holding both iperf3 processes (cgroup v2 cpu.stat or v1 "
    "cpuacct), which includes the softirq work done in their context (this kernel has no "
    "IRQ_TIME_ACCOUNTING), but not what ksoftirqd does.",
    "- BPF ns per ACK: with the kernel's BPF statistics on (BPF_ENABLE_STATS, held by "
    "build/bench/bpf-stats-on for the scenario only), the sum of run_time_ns over the algorithm's "
    "programs during the flow ÷ the sender's TCP segments in.",
    "- Paired ratios: a BPF copy ÷ the kernel's algorithm it copies (bpf_reno ÷ reno, bpf_cubic ÷ cubic, "
    "bpf_bbr ÷ bbr) per back-to-back pair; their median, and the sign test's "
    "distribution-free interval for it (between the k-th smallest and k-th largest ratio, k the "
    "largest that still covers 95 %; with fewer than 6 pairs, the range and its lower cover: "
    "tools/bench/lib/paired.py).",
    "- linkem lateness p99: how late linkem's data-direction packets left against their schedule "
    "(its accuracy under this run's load).",
    "",
]
