# SPDX-License-Identifier: GPL-2.0
"""Paired ratios with a confidence interval: the BPF-cost scenario's
BPF copy ÷ the kernel's algorithm it copies (bpf_reno ÷ reno, bpf_cubic ÷
cubic, ...), one ratio per back-to-back pair.  The machine's load moves
both runs of a pair alike, so the pair's ratio cancels most of it; what is
left varies from pair to pair, and now and then one run of a pair meets a
burst of other work (a 2x ratio among ratios within 10 % of 1).  So the
figure is the median ratio, and its interval the distribution-free one of
the sign test: between the k-th smallest and the k-th largest of n ratios
the median lies with probability 1 - 2 P(Bin(n, 1/2) < k), whatever the
noise's shape; one outlier moves neither end much.  k is the largest for
which that probability is still at least 95 %; with fewer than 6 pairs no k
reaches 95 %, and the interval is the range with its own, lower, cover."""
import math


def pairs_of(sc):
    """[(copy, original)] of a scenario of the manifest: those it recorded,
    or, from a run older than that record, bpfcost's one pair."""
    if "pairs" in sc:
        return [tuple(p) for p in sc["pairs"]]
    if sc["kind"] == "veth" and "bpf_reno" in sc["algs"] and "reno" in sc["algs"]:
        return [("bpf_reno", "reno")]
    return []


def binom_cdf_half(n, k):
    """P(Bin(n, 1/2) <= k)."""
    return sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n


def order_k(n, level=0.95):
    """(k, cover): the innermost order statistics x(k), x(n+1-k) (1-based)
    that bound the median with probability >= level, and that probability;
    k = 1 (the range) when even it falls short."""
    k = 1
    while k + 1 <= (n + 1) // 2 and 1 - 2 * binom_cdf_half(n, k) >= level:
        k += 1
    return k, 1 - 2 * binom_cdf_half(n, k - 1)


def ratio_interval(ratios):
    """{ratio, lo, hi, n, cover, differs}: the median of the positive
    ratios, its interval, the interval's cover; differs when the interval
    leaves out 1.  None for fewer than two ratios."""
    xs = sorted(r for r in ratios if r is not None and r > 0)
    n = len(xs)
    if n < 2:
        return None
    med = xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2
    k, cover = order_k(n)
    lo, hi = xs[k - 1], xs[n - k]
    return {"ratio": med, "lo": lo, "hi": hi, "n": n, "cover": cover,
            "differs": not lo <= 1 <= hi}


def describe(iv, what, who):
    """One line for the report, of WHO's ratios: "0.987 [0.962–1.013]
    (97.9 %, 16 pairs): ..."."""
    if iv is None:
        return "n/a (fewer than two pairs)"
    head = "%.3f [%.3f–%.3f] (%.1f %%, %d pairs)" % (iv["ratio"], iv["lo"], iv["hi"],
                                                     iv["cover"] * 100, iv["n"])
    if not iv["differs"]:
        return head + ": not distinguishable from 1 — no difference in %s seen at this noise" % what
    return head + ": distinguishable from 1 — %s's %s is %.1f %% %s" % (
        who, what, abs(iv["ratio"] - 1) * 100, "higher" if iv["ratio"] > 1 else "lower")
