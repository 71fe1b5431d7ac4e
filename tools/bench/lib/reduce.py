#!/usr/bin/env python3
"""Reduce one benchmark cell's raw files to OUTDIR/cell.json.

Inputs (written by cell.sh): cell.env, flow-<i>.json (iperf3 -J with
--get-server-output), probe.raw (tcp:tcp_probe lines, senders only),
linkem-c.json (linkem's counters).  Outputs per flow: goodput from the
receiver's byte count, retransmissions, RTT percentiles from the sender's
per-ACK smoothed RTT (tcp_probe srtt), cwnd/ssthresh/acked-bytes series in
50 ms bins, and the loss events with the time cwnd took to regain 90 % of
its pre-loss value.  probe.raw is deleted afterwards (it is large); set
BENCH_KEEP_RAW=1 to keep it.
"""
import json
import os
import sys

# the testbed's readers: one definition of a percentile, one of tcp_probe
sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "testbed"))
from pct import pct  # noqa: E402
import tcpprobe  # noqa: E402

BIN_S = 0.05
INF_SSTHRESH = 0x7FFFFFFF


def read_env(path):
    env = {}
    with open(path) as f:
        for line in f:
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                env[k] = v
    return env


def read_probe(path, ports):
    """{port: samples of the data socket [(t, cwnd, ssthresh, srtt_us, acked)]}"""
    socks = {}
    if not os.path.exists(path):
        return {}
    for e in tcpprobe.read(path):
        if e["dport"] not in ports or None in (e["snd_una"], e["cwnd"], e["ssthresh"],
                                              e["srtt_us"]):
            continue
        s = socks.setdefault(e["sock_cookie"], {"port": e["dport"], "rows": [], "base": None,
                                                "last": None, "wrap": 0})
        una = e["snd_una"]
        if s["base"] is None:
            s["base"] = una
        if s["last"] is not None and una < s["last"] and s["last"] - una > (1 << 31):
            s["wrap"] += 1 << 32
        s["last"] = una
        acked = una + s["wrap"] - s["base"]
        s["rows"].append((e["t"], e["cwnd"], e["ssthresh"], e["srtt_us"], acked))
    best = {}
    for s in socks.values():	# the data socket moved the most bytes
        span = s["rows"][-1][4] if s["rows"] else 0
        if s["port"] not in best or span > best[s["port"]][0]:
            best[s["port"]] = (span, s["rows"])
    return {p: rows for p, (span, rows) in best.items()}


def series(rows):
    """50 ms bins: last cwnd/ssthresh/acked in the bin, mean srtt."""
    if not rows:
        return {"t": [], "cwnd": [], "ssthresh": [], "srtt_ms": [], "acked": []}
    t0 = rows[0][0]
    out = {"t": [], "cwnd": [], "ssthresh": [], "srtt_ms": [], "acked": []}
    cur, acc = None, []
    for r in rows + [None]:
        b = None if r is None else int((r[0] - t0) / BIN_S)
        if acc and b != cur:
            last = acc[-1]
            out["t"].append(round(cur * BIN_S + BIN_S, 3))
            out["cwnd"].append(last[1])
            out["ssthresh"].append(last[2] if last[2] < INF_SSTHRESH else None)
            out["srtt_ms"].append(round(sum(a[3] for a in acc) / len(acc) / 1000.0, 3))
            out["acked"].append(last[4])
            acc = []
        if r is not None:
            cur = b
            acc.append(r)
    return out


def loss_events(rows, end_t):
    """Reductions of ssthresh: at each, W0 = the largest cwnd in the RTT
    before it; recovery = time until cwnd >= 0.9 W0 again, censored at the
    next event or the end of the flow.  The first event is usually the exit
    from slow start (flagged), not a loss in steady state."""
    events = []
    prev_ss = INF_SSTHRESH
    for i, (t, cwnd, ss, srtt, _) in enumerate(rows):
        if ss < prev_ss:
            rtt = max(srtt / 1e6, 0.001)
            if events and t - events[-1]["t"] < 2 * rtt:
                prev_ss = ss	# the same congestion episode
                continue
            w0 = cwnd
            j = i - 1
            while j >= 0 and rows[j][0] >= t - rtt:
                w0 = max(w0, rows[j][1])
                j -= 1
            events.append({"t": t, "i": i, "w0": w0, "ssthresh": ss})
        prev_ss = ss
    for k, e in enumerate(events):
        stop = events[k + 1]["t"] if k + 1 < len(events) else end_t
        e["first"] = k == 0
        e["avail_s"] = round(stop - e["t"], 3)
        e["w_min"] = e["w0"]
        e["recovery_s"] = None
        for t, cwnd, ss, srtt, _ in rows[e["i"]:]:
            if t >= stop:
                break
            e["w_min"] = min(e["w_min"], cwnd)
            if t > e["t"] and cwnd >= 0.9 * e["w0"] and e["w_min"] < 0.9 * e["w0"]:
                e["recovery_s"] = round(t - e["t"], 3)
                break
            if t > e["t"] and cwnd >= 0.9 * e["w0"] and e["w_min"] >= 0.9 * e["w0"] \
                    and t - e["t"] > 2 * max(srtt / 1e6, 0.001):
                e["recovery_s"] = 0.0	# never went below 90 %
                break
        del e["i"]
        e["t"] = round(e["t"] - rows[0][0], 3)
    return events


def flow_metrics(path):
    m = {"ok": False}
    try:
        with open(path) as f:
            j = json.load(f)
    except (OSError, ValueError) as e:
        m["error"] = "no iperf3 JSON (%s)" % e.__class__.__name__
        return m
    if "error" in j:
        m["error"] = j["error"]
    end = j.get("end", {})
    sr, ss = end.get("sum_received", {}), end.get("sum_sent", {})
    if sr.get("seconds"):
        m["ok"] = "error" not in m
        m["goodput_mbps"] = sr["bytes"] * 8 / sr["seconds"] / 1e6
        m["bytes"] = sr["bytes"]
        m["seconds"] = sr["seconds"]
    if ss.get("seconds"):
        m["sent_mbps"] = ss["bytes"] * 8 / ss["seconds"] / 1e6
        m["retrans"] = ss.get("retransmits")
    cpu = end.get("cpu_utilization_percent", {})
    m["sender_cpu_pct"] = cpu.get("host_total")
    m["receiver_cpu_pct"] = cpu.get("remote_total")
    m["ca"] = end.get("sender_tcp_congestion")
    streams = end.get("streams") or [{}]
    snd = streams[0].get("sender", {})
    m["iperf_mean_rtt_ms"] = snd.get("mean_rtt", 0) / 1000.0 if snd.get("mean_rtt") else None
    # the receiver's own intervals (testbed.sh runs the server with -J -i 0.2)
    srv = j.get("server_output_json") or {}
    m["rx"] = [[round(iv["sum"]["end"], 3), iv["sum"]["bytes"]]
               for iv in srv.get("intervals", []) if "sum" in iv]
    return m


def prog_deltas(d):
    """{program name: {"ns", "cnt"}} run during the flow, from the
    progs-start/end.json snapshots of kernel BPF statistics; None if none."""
    snaps = []
    for which in ("start", "end"):
        try:
            with open(os.path.join(d, "progs-%s.json" % which)) as f:
                snaps.append({p["name"]: p for p in json.load(f)})
        except (OSError, ValueError):
            return None
    a, b = snaps
    return {n: {"ns": b[n]["ns"] - a[n]["ns"], "cnt": b[n]["cnt"] - a[n]["cnt"]}
            for n in b if n in a}


def accounting(d, env):
    """A veth cell's counts: the sender's TCP segments in (ACKs) and out,
    the cell cgroup's CPU seconds, and its programs' run time."""
    out = {}
    if "segs_start" in env and "segs_end" in env:
        a = [int(x) for x in env["segs_start"].split()]
        b = [int(x) for x in env["segs_end"].split()]
        if len(a) == 2 and len(b) == 2:
            out["acks"], out["segs_out"] = b[0] - a[0], b[1] - a[1]
    if "cg_ns_start" in env and "cg_ns_end" in env:
        out["cg_cpu_s"] = (int(env["cg_ns_end"]) - int(env["cg_ns_start"])) / 1e9
    progs = prog_deltas(d)
    if progs is not None:
        out["progs"] = progs
    return out


def main(d):
    env = read_env(os.path.join(d, "cell.env"))
    kind = env.get("kind")
    ports = [int(env["port0"])]
    if kind == "pair":
        ports.append(int(env["port1"]))
    cell = {"env": env, "flows": []}
    probe = read_probe(os.path.join(d, "probe.raw"), set(ports))
    for i, port in enumerate(ports):
        fm = flow_metrics(os.path.join(d, "flow-%d.json" % i))
        fm["requested_ca"] = env["ca%d" % i]
        rows = probe.get(port, [])
        fm["probe_samples"] = len(rows)
        if rows:
            srtts = [r[3] / 1000.0 for r in rows]
            fm["rtt_p50_ms"] = pct(srtts, 0.5)
            fm["rtt_p95_ms"] = pct(srtts, 0.95)
            fm["rtt_min_ms"] = min(srtts)
            fm["series"] = series(rows)
            fm["events"] = loss_events(rows, rows[-1][0])
        cell["flows"].append(fm)
    try:
        with open(os.path.join(d, "linkem-c.json")) as f:
            cell["link"] = json.load(f)
    except (OSError, ValueError):
        cell["link"] = None
    if "cpu_start" in env and "cpu_end" in env:
        a = [int(x) for x in env["cpu_start"].split()]
        b = [int(x) for x in env["cpu_end"].split()]
        delta = [y - x for x, y in zip(a, b)]
        idle = delta[3] + (delta[4] if len(delta) > 4 else 0)
        hz = os.sysconf("SC_CLK_TCK")
        cell["cpu"] = {"busy_s": (sum(delta[:8]) - idle) / hz,
                       "total_s": sum(delta[:8]) / hz,
                       "wall_s": float(env["t_end"]) - float(env["t_start"])}
    cell["acct"] = accounting(d, env)
    with open(os.path.join(d, "cell.json"), "w") as f:
        json.dump(cell, f)
    if not os.environ.get("BENCH_KEEP_RAW"):
        for name in ("probe.raw",):
            try:
                os.unlink(os.path.join(d, name))
            except OSError:
                pass
    return 0 if all(fl.get("ok") for fl in cell["flows"]) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
