# SPDX-License-Identifier: GPL-2.0
"""The hook-cost scenario's table: per algorithm, each hook's run time per
call and calls per ACK from the kernel's BPF statistics (reduce.py's
cell["acct"]["progs"], the sender's InSegs as the ACK count), the BPF time
per ACK, and the check against the floor measured in the same run:

    flagged  <=>  ns per ACK  >  1.2 x (hook calls per ACK x floor ns per call)

where the floor is tools/bench/bpf/floor.bpf.c's cong_avoid (a hook that
only calls the kernel's Reno, and the only hook its ACKs meet).  The
"empty" build of it adds an empty in_ack_event just before cong_avoid: the
cost of entering a hook, and of a second hook on the same ACK.  The
"tuned" build's cong_avoid also reads a tunable, as the per-ACK hooks of
the algorithms with tunables do (TCPCA_PARAMS): a flag within the same
bound taken with that baseline is explained by it, measured; EXPLAINED
says why for the rest, and the report calls any other flag unexplained.
No hook counts its own calls any more (the kernel's run_cnt does), so
there is no counter to measure: the "counted" baseline that also
incremented one is gone."""

# struct tcp_congestion_ops' hooks; a program's name ends in one of them
HOOKS = ("init", "release", "ssthresh", "cong_avoid", "set_state", "cwnd_event",
         "in_ack_event", "pkts_acked", "min_tso_segs", "cong_control", "undo_cwnd",
         "sndbuf_expand", "get_info")
# call order of a connection, for the table's columns
ORDER = ("init", "pkts_acked", "in_ack_event", "cong_avoid", "cong_control", "cwnd_event",
         "ssthresh", "set_state", "undo_cwnd", "min_tso_segs", "sndbuf_expand", "release", "get_info")
BOUND = 1.2
BASELINES = ("floor", "empty", "tuned")

# Why an algorithm costs more than its tuned bound, where it did in a run
# (from reading the programs; docs/benchmarks.md gives the measurements).
# The baselines showed that what costs is the first touch of a map value on
# an ACK, not the arithmetic; these touch more of them.
EXPLAINED = {
    "highspeed": "cong_avoid reads a row of the AIMD table (.rodata) on every ACK as well "
                 "as its tunable: a second data region beyond the tuned baseline's one",
    "hybla": "cong_avoid reads the 2^(k/8) table (.rodata) on every ACK as well as its "
             "tunables: a second data region beyond the tuned baseline's one",
    "illinois": "cong_avoid, on each ACK that ends an RTT (over veth, an RTT of tens of "
                "microseconds: a large share of them), averages the delay and recomputes "
                "alpha and beta, with 64-bit divisions and six tunables read",
    "dctcp": "in_ack_event reads shift_g (params map) on every ACK and once per RTT, "
             "which over veth is every few dozen ACKs, updates alpha and sends an "
             "event record through the ring buffer",
    "cdg": "cong_avoid, on each ACK that ends an RTT (over veth a large share of them), "
           "pushes the round's gradients into the window in socket storage "
           "(bpf_sk_storage_get), draws a random number and, when the gradient is "
           "positive, sends an event record through the ring buffer; init and release "
           "allocate and free that 2 KiB storage (a few us per connection)",
    "bpf_bbr": "cong_control runs BBR's whole model on every ACK (the delivery-rate sample "
               "into the windowed max filter, the state machine, the pacing rate and the "
               "window's target, each a read of the tunables), where the floor calls one "
               "kfunc; and min_tso_segs, called on each transmit, adds a hook call per "
               "ACK the other algorithms do not have",
}


def hook_of(prog):
    """The hook a program implements, from its name (alg_hook)."""
    for h in sorted(HOOKS, key=len, reverse=True):
        if prog == h or prog.endswith("_" + h):
            return h
    return prog


def pooled(cells):
    """{"acks", "hooks": {hook: {"ns", "cnt"}}, "per_ack": [ns per ACK of
    each run]} over the runs that have statistics; None if none has."""
    acks, hooks, per_ack = 0, {}, []
    for cell in cells:
        acct = (cell or {}).get("acct") or {}
        progs, a = acct.get("progs"), acct.get("acks")
        if not progs or not a:
            continue
        acks += a
        ns = 0
        for name, d in progs.items():
            h = hooks.setdefault(hook_of(name), {"ns": 0, "cnt": 0})
            h["ns"] += d["ns"]
            h["cnt"] += d["cnt"]
            ns += d["ns"]
        per_ack.append(ns / a)
    if not per_ack:
        return None
    return {"acks": acks, "hooks": hooks, "per_ack": per_ack}


def per_call(h):
    return h["ns"] / h["cnt"] if h["cnt"] else None


def hook_ns(p, hook):
    """ns per call of one hook of a pooled algorithm, None if not measured."""
    return per_call(p["hooks"][hook]) if p and hook in p["hooks"] else None


def judge(p, floor_ns):
    """(ns per ACK, hook calls per ACK, bound, flagged) of a pooled algorithm."""
    ns = sum(h["ns"] for h in p["hooks"].values()) / p["acks"]
    calls = sum(h["cnt"] for h in p["hooks"].values()) / p["acks"]
    bound = BOUND * calls * floor_ns
    return ns, calls, bound, ns > bound


def verdict(alg, p, floor_ns, tuned_ns):
    """(verdict text, flagged, explained) of a pooled algorithm."""
    ns, calls, _, flagged = judge(p, floor_ns)
    if not flagged or alg in BASELINES:
        return "ok", False, True
    if tuned_ns is not None and ns <= BOUND * calls * tuned_ns:
        return ("flagged; within %.1f × calls × tuned (%.0f ns): its tunables"
                % (BOUND, BOUND * calls * tuned_ns)), True, True
    why = EXPLAINED.get(alg)
    return "**flagged**: " + (why if why else "unexplained"), True, bool(why)


def section(sc, cells):
    """Markdown lines for the scenario; cells: alg -> [cell, ...]."""
    L = []
    pools = {alg: pooled(cells.get(alg, [])) for alg in sc["algs"]}
    floor_ns = hook_ns(pools.get("floor"), "cong_avoid")
    empty_ns = hook_ns(pools.get("empty"), "in_ack_event")
    warm_ns = hook_ns(pools.get("empty"), "cong_avoid")
    tuned_ns = hook_ns(pools.get("tuned"), "cong_avoid")
    if not sc.get("bpf_stats"):
        return ["BPF statistics were not on in this run (see bench.log): no hook costs."]
    if floor_ns is None:
        return ["No floor measured in this run (tools/bench/bpf/floor.bpf.c): no hook costs."]
    na = lambda v: "%.0f ns" % v if v is not None else "n/a"
    L.append("Baselines, measured in this run: **floor** (a cong_avoid that only calls the kernel's Reno, "
             "the one hook its ACKs meet) **%.0f ns** per call; **empty hook** (an in_ack_event that returns "
             "at once, just before the same cong_avoid) **%s** per call, and that cong_avoid after it %s; "
             "**tuned** (the floor's cong_avoid reading a tunable, as the per-ACK hooks of the "
             "algorithms with tunables do) **%s** per call. ns per call is run_time_ns ÷ run_cnt of each program, pooled over the repetitions; calls per "
             "ACK divide run_cnt by the sender's TCP segments in (its ACKs; the receiving socket runs the "
             "kernel's reno). Flagged: ns per ACK above %.1f × (hook calls per ACK × floor); a flag within "
             "the same bound taken with tuned is the cost of the tunables."
             % (floor_ns, na(empty_ns), na(warm_ns), na(tuned_ns), BOUND))
    L.append("")
    L.append("| algorithm | hooks: ns per call (calls per ACK) | BPF ns per ACK [runs] | hook calls per ACK "
             "| bound | × floor | verdict |")
    L.append("|---|---|---|---|---|---|---|")
    flags = []
    for alg in sc["algs"]:
        p = pools.get(alg)
        if not p:
            L.append("| %s | n/a (no statistics) | | | | | |" % alg)
            continue
        hs = sorted(p["hooks"].items(), key=lambda kv: ORDER.index(kv[0]) if kv[0] in ORDER else 99)
        text = "; ".join("%s %s (%.2f)" % (h, "%.0f" % per_call(d) if d["cnt"] else "–", d["cnt"] / p["acks"])
                         for h, d in hs if d["cnt"])
        ns, calls, bound, _ = judge(p, floor_ns)
        text_v, flagged, explained = verdict(alg, p, floor_ns, tuned_ns)
        if flagged:
            flags.append((alg, explained))
        L.append("| %s | %s | %.0f [%.0f–%.0f] | %.2f | %.0f | %.2f | %s |" % (
            alg, text, ns, min(p["per_ack"]), max(p["per_ack"]), calls, bound, ns / (calls * floor_ns), text_v))
    L.append("")
    if flags:
        un = [a for a, why in flags if not why]
        L.append("Flagged: %s; %s." % (", ".join(a for a, _ in flags),
                                       "unexplained: " + ", ".join(un) if un else "each explained"))
    else:
        L.append("No algorithm above the bound.")
    L.append("")
    return L


def headline(sc, cells):
    """(label, text) for the report's headline table."""
    floor_ns = hook_ns(pooled(cells.get("floor", [])), "cong_avoid")
    if not sc.get("bpf_stats") or floor_ns is None:
        return ("Hook cost: BPF ns per ACK", "n/a (no statistics or no floor)")
    rows = []
    for alg in sc["algs"]:
        p = pooled(cells.get(alg, []))
        if p and alg not in BASELINES:
            ns, calls, _, _ = judge(p, floor_ns)
            rows.append((ns / (calls * floor_ns), ns, alg))
    if not rows:
        return ("Hook cost: BPF ns per ACK", "n/a (no algorithm measured)")
    lo, hi = min(rows), max(rows)
    return ("Hook cost: BPF ns per ACK ÷ (hook calls per ACK × floor)",
            "floor %.0f ns per call; %s %.2f (%.0f ns per ACK) to %s %.2f (%.0f ns per ACK)"
            % (floor_ns, lo[2], lo[0], lo[1], hi[2], hi[0], hi[1]))
