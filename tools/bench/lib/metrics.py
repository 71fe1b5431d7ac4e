# SPDX-License-Identifier: GPL-2.0
"""One cell's metrics (cell.json of reduce.py -> {metric: value}), the
summary over repetitions, and how a value is printed.  None means n/a,
INF censored (did not happen within the flow)."""

import linkem_trace

INF = float("inf")
PAYLOAD = 1448.0 / 1500.0	# TCP payload per 1500-byte packet (with timestamps)

# metric -> (column title, format)
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
    "proc_cpu_ratio": ("CPU/GB sender+receiver ÷ kernel's own (paired)", "%.3f"),
    "tput_ratio": ("throughput ÷ kernel's own (paired)", "%.3f"),
    "cpu_ratio": ("CPU/GB ÷ kernel's own (paired)", "%.3f"),
    "cg_cpu_s_per_gb": ("CPU s/GB (cell's cgroup)", "%.3f"),
    "cg_cpu_ratio": ("CPU/GB cgroup ÷ kernel's own (paired)", "%.3f"),
    "bpf_ns_per_ack": ("BPF ns per ACK", "%.0f"),
}
# a BPF copy ÷ the kernel's algorithm it copies, of one back-to-back pair:
# ratio -> the metric it divides
PAIR_SOURCES = {"tput_ratio": "goodput_mbps", "cg_cpu_ratio": "cg_cpu_s_per_gb",
                "cpu_ratio": "sys_cpu_s_per_gb", "proc_cpu_ratio": "proc_cpu_s_per_gb"}
PAIRED = tuple(PAIR_SOURCES)
PAIRED_WHAT = {"tput_ratio": "throughput", "cg_cpu_ratio": "CPU per GB (cell's cgroup)",
               "cpu_ratio": "CPU per GB (machine)", "proc_cpu_ratio": "CPU per GB (iperf3 getrusage)"}
CENSORED = {"t90_s", "recovery_s"}
MIN_OBS_S = 5.0		# recovery episodes censored sooner than this are left out


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
        span = pts[i][0] - pts[j][0]
        if span >= window - 0.05 and pts[i][1] - pts[j][1] >= target * span / window:
            return pts[i][0]
    return None


def median(xs):
    s = sorted(xs)
    n = len(s)
    if n == 0:
        return None
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def cell_metrics(sc, cell):
    """{metric: value} of one cell."""
    kind = {"veth": veth_metrics, "pair": pair_metrics}.get(sc["kind"], single_metrics)
    return kind(sc, cell)


def veth_metrics(sc, cell):
    f0 = cell["flows"][0] if cell["flows"] else {}
    out = {}
    if not f0.get("ok"):
        return out
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
            cpu_pct = f0["sender_cpu_pct"] + f0["receiver_cpu_pct"]
            out["proc_cpu_s_per_gb"] = cpu_pct / 100 * f0["seconds"] / gb
    return out


def pair_metrics(sc, cell):
    fl = cell["flows"]
    if not (len(fl) == 2 and fl[0].get("ok") and fl[1].get("ok")):
        return {}
    cap = capacity(sc)
    a, b = fl[0]["goodput_mbps"], fl[1]["goodput_mbps"]
    return {
        "goodput0_mbps": a, "goodput1_mbps": b,
        "jain": (a + b) ** 2 / (2 * (a * a + b * b)) if a + b > 0 else None,
        "share0": a / (a + b) if a + b > 0 else None,
        "util": (a + b) / (cap * PAYLOAD) if cap else None,
        "goodput_mbps": a + b,
    }


def single_metrics(sc, cell):
    f0 = cell["flows"][0] if cell["flows"] else {}
    if not f0.get("ok"):
        return {}
    cap = capacity(sc)
    v = t90(f0, cap)
    ev = recovery_episodes(sc, f0)
    s = f0.get("series") or {}
    return {
        "goodput_mbps": f0["goodput_mbps"],
        "util": f0["goodput_mbps"] / (cap * PAYLOAD) if cap else None,
        "t90_s": INF if v is None else v,
        "retrans": f0.get("retrans"),
        "rtt_p50_ms": f0.get("rtt_p50_ms"),
        "rtt_p95_ms": f0.get("rtt_p95_ms"),
        "loss_events": len(ev),
        # n/a when there was no loss after slow start
        "recovery_s": median([INF if e["recovery_s"] is None else e["recovery_s"] for e in ev]) if ev else None,
        "max_cwnd": max(s["cwnd"]) if s.get("cwnd") else None,
    }


def recovery_episodes(sc, f0):
    """The loss episodes after slow start (and after the scenario's
    steady_s) that say something about the time to recover."""
    steady = sc.get("steady_s", 0)
    ev = [e for e in f0.get("events", []) if not e["first"] and e["t"] >= steady]
    # a censored episode says only "recovery > avail_s": one cut short
    # by the end of the flow or the next loss within MIN_OBS_S says
    # nothing and is left out; a longer one counts as never (infinite)
    return [e for e in ev if e["recovery_s"] is not None or e["avail_s"] >= MIN_OBS_S]


def pair_ratios(m, n):
    """A BPF copy's metrics m ÷ those n of the kernel's own in the same
    pair, into m."""
    for k, src in PAIR_SOURCES.items():
        if m.get(src) and n.get(src):
            m[k] = m[src] / n[src]


def summary(vals):
    """median [min–max] of a list that may hold INF; None if empty."""
    xs = [v for v in vals if v is not None]
    if not xs:
        return None
    return {"med": median(xs), "lo": min(xs), "hi": max(xs), "n": len(xs)}


def fmt(metric, v, censor_bound=None):
    if v is None:
        return "n/a"
    if v == INF:
        return "never" if not censor_bound else "never (in %.0f s)" % censor_bound
    return METRICS.get(metric, ("", "%.3g"))[1] % v


def aggregate(cells):
    """{(scenario, variant, alg): {metric: summary over the repetitions}}."""
    agg = {}
    for key, per in cells.items():
        names = set(k for _, m, _ in per for k in m)
        agg[key] = {k: summary([m.get(k) for _, m, _ in per]) for k in names}
    return agg
