# SPDX-License-Identifier: GPL-2.0
"""The conditions of tools/bench/expectations.md: the row with id G1 is
checked by g1(m), an {alg} row by l8(m, alg).  m(ALG, METRIC) is the
median over repetitions in the row's variant; it raises LookupError when
the metric or the algorithm is missing, and the verdict is then n/a.

A check yields its "met if" condition, then its "partly if" one, and
the second is computed only when the first fails: the report's
"measured" cell lists the metrics in the order they were looked up, so
it shows exactly what the verdict rested on.  Conditions stop early the
way Python's and / chained comparisons do, for the same reason.  Rows of
a shared shape (at least a threshold, a multiple of Reno's goodput, ...)
are that shape with their algorithm and thresholds bound.  The
thresholds were written before the first run and are not tuned to it."""
import re
from functools import partial

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


g2 = partial(sooner_than_reno, alg="hybla", metric="t90_s", met=0.6)
g3 = partial(goodput_vs_reno, alg="hybla", met=3, partly=1.5)


def g4(m):
    yield m("reno", GP) < m("cubic", GP) < m("hybla", GP)
    yield m("reno", GP) < m("cubic", GP)


def g5(m):
    yield m("bbr", GP) >= m("hybla", GP)
    yield m("bbr", GP) >= 0.8 * m("hybla", GP)


g6 = w5 = l6 = c5 = bpf_reno_goodput


# --- wireless ---

w1 = partial(goodput_vs_reno, alg="westwood", met=0.95, partly=0.85)
w2 = partial(goodput_vs_reno, alg="westwood", met=1.5, partly=1.15)
w3 = partial(goodput_vs_reno, alg="westwood", met=1.3, partly=1.1)


def w4(m):
    yield m("bbr", "util") >= 0.8 and m("bbr", GP) >= m("westwood", GP)
    yield m("bbr", GP) >= m("westwood", GP)


w6 = partial(goodput_vs_reno, alg="veno", met=1.2, partly=1.05)
w7 = partial(goodput_vs_reno, alg="veno", met=0.95, partly=0.85)


# --- deep buffer ---

def d1(m):
    yield m("vegas", RTT95) <= 40
    yield m("vegas", RTT95) <= 0.5 * m("cubic", RTT95)


d2 = partial(at_least, alg="vegas", metric="util", met=0.9, partly=0.8)
d3 = partial(at_least, metric=RTT95, met=150, partly=100)


def d4(m):
    yield m("vegas", RTT95) <= m("bbr", RTT95) <= 0.5 * m("cubic", RTT95)
    yield m("bbr", RTT95) <= 0.5 * m("cubic", RTT95)


def d5(m):
    yield within(m, "bpf_reno", "reno", RTT95, 0.85, 1.15) and within(m, "bpf_reno", "reno", GP, 0.85, 1.15)
    yield within(m, "bpf_reno", "reno", RTT95, 0.7, 1.3)


d6 = partial(queue_vs_cubic, alg="cdg", met=0.3, util=0.75, partly=0.5)
d7 = partial(queue_vs_cubic, alg="yeah", met=0.6, util=0.9, partly=0.8)


def d8(m):
    yield m("nv", "rtt_p50_ms") <= 40
    yield m("nv", RTT95) <= 0.5 * m("cubic", RTT95)


d9 = partial(at_least, alg="nv", metric="util", met=0.85, partly=0.75)


# --- data centre ---

k1 = partial(at_most, alg="dctcp", metric=RTT95, met=20, partly=25)
k2 = partial(at_least, alg="dctcp", metric="util", met=0.95, partly=0.9)
k3 = partial(goodput_vs_reno, alg="dctcp", met=1, partly=0.95)


# --- long fat pipe ---

l1 = partial(goodput_vs_reno, alg="bic", met=1.2, partly=1.05)
l2 = partial(goodput_vs_reno, alg="highspeed", met=1.2, partly=1.05)
l3 = partial(sooner_than_reno, alg="bic", metric="recovery_s", met=0.25)
l4 = partial(sooner_than_reno, alg="highspeed", metric="recovery_s", met=0.5)
l5 = partial(at_least, alg="reno", metric="recovery_s", met=10, partly=5)
l7 = partial(sooner_than_reno, metric="recovery_s", met=0.5)
l8 = partial(goodput_vs_reno, met=1.2, partly=1.05)


def l9(m):
    yield (within(m, "bpf_cubic", "cubic", GP, 0.85, 1.15) and fin(m("bpf_cubic", "recovery_s"))
           and within(m, "bpf_cubic", "cubic", "recovery_s", 0.7, 1.3))
    yield within(m, "bpf_cubic", "cubic", GP, 0.7, 1.3)


# --- fairness ---

f1 = partial(at_least, metric="jain", met=0.95, partly=0.85)
f2 = partial(fairer_than_reno, alg="hybla")
f3 = partial(fairer_than_reno, alg="cubic")


def f4(m):
    yield 0.65 <= m("reno", "share0") <= 0.85
    yield 0.55 <= m("reno", "share0") <= 0.95


f5 = partial(share_near, alg="bpf_reno", other="reno", met=0.1, partly=0.2)
f6 = partial(at_most, alg="vegas", metric="share0", met=0.3, partly=0.4)
f7 = partial(at_least, metric="share0", met=0.3, partly=0.2)


# --- low priority ---

p1 = partial(share_near, alg="lp", other="bpf_reno", met=0.15, partly=0.25)
p2 = partial(at_least, metric="util", met=0.9, partly=0.8)


# --- cellular ---

c1 = partial(at_least, alg="cubic", metric=RTT95, met=80, partly=60)


def c2(m):
    yield m("vegas", RTT95) <= 0.6 * m("cubic", RTT95) and m("vegas", GP) >= 0.5 * m("cubic", GP)
    yield m("vegas", RTT95) <= 0.9 * m("cubic", RTT95)


def c3(m):
    yield m("bbr", GP) >= 0.8 * m("cubic", GP) and m("bbr", RTT95) <= m("cubic", RTT95)
    yield m("bbr", GP) >= 0.8 * m("cubic", GP)


c4 = partial(at_least, metric="util", met=0.7, partly=0.5)


# --- BPF cost ---

b1 = partial(at_least, alg="bpf_reno", metric="tput_ratio", met=0.95, partly=0.90)
b2 = partial(at_most, alg="bpf_reno", metric="cpu_ratio", met=1.05, partly=1.15)
b3 = partial(at_most, alg="bpf_reno", metric="proc_cpu_ratio", met=1.05, partly=1.15)
b4 = partial(at_most, alg="bpf_reno", metric="cg_cpu_ratio", met=1.05, partly=1.15)
# the other copies against the kernel's own: the ratios are per pair, so
# "tput_ratio" of bpf_cubic is bpf_cubic ÷ cubic
b5 = partial(at_least, metric="tput_ratio", met=0.95, partly=0.90)
b6 = partial(at_most, metric="cg_cpu_ratio", met=1.05, partly=1.15)
