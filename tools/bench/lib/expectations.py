# SPDX-License-Identifier: GPL-2.0
"""The conditions of tools/bench/expectations.md: the row with id G1 is
checked by g1(m), an {alg} row by l8(m, alg).  m(ALG, METRIC) is the
median over repetitions in the row's variant; it raises LookupError when
the metric or the algorithm is missing, and the verdict is then n/a.

A check yields its "met if" condition, then its "partly if" one, and
the second is computed only when the first fails: the report's
"measured" cell lists the metrics in the order they were looked up, so
it shows exactly what the verdict rested on.  Conditions stop early the
way Python's and / chained comparisons do, for the same reason.  The
thresholds were written before the first run and are not tuned to it."""
import re

from metrics import INF

GP, RTT95 = "goodput_mbps", "rtt_p95_ms"


def check_of(eid):
    """The check of expectation EID, or None."""
    return globals().get(eid.lower()) if re.fullmatch(r"[A-Z]+[0-9]+", eid) else None


def fin(x):
    """A time was measured: it happened within the flow."""
    return x is not None and x != INF


# --- shapes shared by several rows ---

def at_least(m, alg, metric, met, partly):
    yield m(alg, metric) >= met
    yield m(alg, metric) >= partly


def at_most(m, alg, metric, met, partly):
    yield m(alg, metric) <= met
    yield m(alg, metric) <= partly


def goodput_vs_reno(m, alg, met, partly):
    """ALG's goodput at least MET (PARTLY) times Reno's."""
    yield m(alg, GP) >= met * m("reno", GP)
    yield m(alg, GP) >= partly * m("reno", GP)


def within(m, alg, base, metric, lo, hi):
    """ALG's METRIC over BASE's between LO and HI."""
    return lo <= m(alg, metric) / m(base, metric) <= hi


def bpf_reno_goodput(m):
    yield within(m, "bpf_reno", "reno", GP, 0.85, 1.15)
    yield within(m, "bpf_reno", "reno", GP, 0.7, 1.3)


def sooner_than_reno(m, alg, metric, met):
    """ALG's time (METRIC) measured and at most MET times Reno's; partly:
    measured and shorter."""
    yield fin(m(alg, metric)) and m(alg, metric) <= met * m("reno", metric)
    yield fin(m(alg, metric)) and m(alg, metric) < m("reno", metric)


def queue_vs_cubic(m, alg, met, util, partly):
    """ALG's RTT p95 at most MET times CUBIC's at utilisation UTIL or more;
    partly: at most PARTLY times, whatever the utilisation."""
    yield m(alg, RTT95) <= met * m("cubic", RTT95) and m(alg, "util") >= util
    yield m(alg, RTT95) <= partly * m("cubic", RTT95)


def fairer_than_reno(m, alg):
    yield m(alg, "jain") >= m("reno", "jain") + 0.05
    yield m(alg, "jain") >= m("reno", "jain")


def share_near(m, alg, other, met, partly):
    yield abs(m(alg, "share0") - m(other, "share0")) <= met
    yield abs(m(alg, "share0") - m(other, "share0")) <= partly


# --- geo ---

def g1(m):
    yield m("hybla", GP) >= m("reno", GP) and m("hybla", "util") >= 0.8
    yield m("hybla", GP) >= 0.9 * m("reno", GP)


def g2(m):
    return sooner_than_reno(m, "hybla", "t90_s", 0.6)


def g3(m):
    return goodput_vs_reno(m, "hybla", 3, 1.5)


def g4(m):
    yield m("reno", GP) < m("cubic", GP) < m("hybla", GP)
    yield m("reno", GP) < m("cubic", GP)


def g5(m):
    yield m("bbr", GP) >= m("hybla", GP)
    yield m("bbr", GP) >= 0.8 * m("hybla", GP)


g6 = w5 = l6 = c5 = bpf_reno_goodput


# --- wireless ---

def w1(m):
    return goodput_vs_reno(m, "westwood", 0.95, 0.85)


def w2(m):
    return goodput_vs_reno(m, "westwood", 1.5, 1.15)


def w3(m):
    return goodput_vs_reno(m, "westwood", 1.3, 1.1)


def w4(m):
    yield m("bbr", "util") >= 0.8 and m("bbr", GP) >= m("westwood", GP)
    yield m("bbr", GP) >= m("westwood", GP)


def w6(m):
    return goodput_vs_reno(m, "veno", 1.2, 1.05)


def w7(m):
    return goodput_vs_reno(m, "veno", 0.95, 0.85)


# --- deep buffer ---

def d1(m):
    yield m("vegas", RTT95) <= 40
    yield m("vegas", RTT95) <= 0.5 * m("cubic", RTT95)


def d2(m):
    return at_least(m, "vegas", "util", 0.9, 0.8)


def d3(m, alg):
    return at_least(m, alg, RTT95, 150, 100)


def d4(m):
    yield m("vegas", RTT95) <= m("bbr", RTT95) <= 0.5 * m("cubic", RTT95)
    yield m("bbr", RTT95) <= 0.5 * m("cubic", RTT95)


def d5(m):
    yield within(m, "bpf_reno", "reno", RTT95, 0.85, 1.15) and within(m, "bpf_reno", "reno", GP, 0.85, 1.15)
    yield within(m, "bpf_reno", "reno", RTT95, 0.7, 1.3)


def d6(m):
    return queue_vs_cubic(m, "cdg", 0.3, 0.75, 0.5)


def d7(m):
    return queue_vs_cubic(m, "yeah", 0.6, 0.9, 0.8)


def d8(m):
    yield m("nv", "rtt_p50_ms") <= 40
    yield m("nv", RTT95) <= 0.5 * m("cubic", RTT95)


def d9(m):
    return at_least(m, "nv", "util", 0.85, 0.75)


# --- data centre ---

def k1(m):
    return at_most(m, "dctcp", RTT95, 20, 25)


def k2(m):
    return at_least(m, "dctcp", "util", 0.95, 0.9)


def k3(m):
    return goodput_vs_reno(m, "dctcp", 1, 0.95)


# --- long fat pipe ---

def l1(m):
    return goodput_vs_reno(m, "bic", 1.2, 1.05)


def l2(m):
    return goodput_vs_reno(m, "highspeed", 1.2, 1.05)


def l3(m):
    return sooner_than_reno(m, "bic", "recovery_s", 0.25)


def l4(m):
    return sooner_than_reno(m, "highspeed", "recovery_s", 0.5)


def l5(m):
    return at_least(m, "reno", "recovery_s", 10, 5)


def l7(m, alg):
    return sooner_than_reno(m, alg, "recovery_s", 0.5)


def l8(m, alg):
    return goodput_vs_reno(m, alg, 1.2, 1.05)


def l9(m):
    yield (within(m, "bpf_cubic", "cubic", GP, 0.85, 1.15) and fin(m("bpf_cubic", "recovery_s"))
           and within(m, "bpf_cubic", "cubic", "recovery_s", 0.7, 1.3))
    yield within(m, "bpf_cubic", "cubic", GP, 0.7, 1.3)


# --- fairness ---

def f1(m, alg):
    return at_least(m, alg, "jain", 0.95, 0.85)


def f2(m):
    return fairer_than_reno(m, "hybla")


def f3(m):
    return fairer_than_reno(m, "cubic")


def f4(m):
    yield 0.65 <= m("reno", "share0") <= 0.85
    yield 0.55 <= m("reno", "share0") <= 0.95


def f5(m):
    return share_near(m, "bpf_reno", "reno", 0.1, 0.2)


def f6(m):
    return at_most(m, "vegas", "share0", 0.3, 0.4)


def f7(m, alg):
    return at_least(m, alg, "share0", 0.3, 0.2)


# --- low priority ---

def p1(m):
    return share_near(m, "lp", "bpf_reno", 0.15, 0.25)


def p2(m, alg):
    return at_least(m, alg, "util", 0.9, 0.8)


# --- cellular ---

def c1(m):
    return at_least(m, "cubic", RTT95, 80, 60)


def c2(m):
    yield m("vegas", RTT95) <= 0.6 * m("cubic", RTT95) and m("vegas", GP) >= 0.5 * m("cubic", GP)
    yield m("vegas", RTT95) <= 0.9 * m("cubic", RTT95)


def c3(m):
    yield m("bbr", GP) >= 0.8 * m("cubic", GP) and m("bbr", RTT95) <= m("cubic", RTT95)
    yield m("bbr", GP) >= 0.8 * m("cubic", GP)


def c4(m, alg):
    return at_least(m, alg, "util", 0.7, 0.5)


# --- BPF cost ---

def b1(m):
    return at_least(m, "bpf_reno", "tput_ratio", 0.95, 0.90)


def b2(m):
    return at_most(m, "bpf_reno", "cpu_ratio", 1.05, 1.15)


def b3(m):
    return at_most(m, "bpf_reno", "proc_cpu_ratio", 1.05, 1.15)


def b4(m):
    return at_most(m, "bpf_reno", "cg_cpu_ratio", 1.05, 1.15)
