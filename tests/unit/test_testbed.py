#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The testbed's readers (tools/testbed), without root or a run: the one
percentile, the same in Python and awk, and the one reader of tcp_probe
lines, on lines as 6.x kernels print them.  TAP."""
import os
import random
import subprocess
import sys

from tap import done, ok

HERE = os.path.dirname(os.path.realpath(__file__))
TESTBED = os.path.join(HERE, "..", "..", "tools", "testbed")
sys.path.insert(0, TESTBED)
from pct import pct  # noqa: E402
import tcpprobe  # noqa: E402



def awk_pct(values, qs):
    """tb_pct's awk: "N P..." for these values"""
    out = subprocess.run(["awk", "-v", "qs=" + " ".join(map(str, qs)), "-f",
                          os.path.join(TESTBED, "pct.awk")],
                         input="".join("%r\n" % v for v in sorted(values)),
                         capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]), [None if x == "none" else float(x) for x in out[1:]]


# the definition: linear interpolation between the closest ranks
ok(pct([1, 2, 3, 4], 0.5) == 2.5, "p50 of 1..4 is 2.5")
ok(abs(pct([1, 2, 3, 4], 0.95) - 3.85) < 1e-12, "p95 of 1..4 is 3 + 0.85", pct([1, 2, 3, 4], 0.95))
ok(pct([10, 0, 5], 0.0) == 0 and pct([10, 0, 5], 1.0) == 10, "p0 the least, p100 the greatest, unsorted")
ok(pct([7], 0.99) == 7, "one value is every percentile")
ok(pct([], 0.5) is None, "no values, no percentile")

# awk gives the same numbers (to awk's printed precision)
rng = random.Random(1)
same = True
for size in (1, 2, 3, 10, 101, 1000):
    vs = [round(rng.uniform(0, 1000), 3) for _ in range(size)]
    qs = [0, 0.05, 0.5, 0.95, 0.99, 1]
    cnt, got = awk_pct(vs, qs)
    want = [pct(vs, q) for q in qs]
    if cnt != size or any(abs(g - w) > 1e-4 * max(1, abs(w)) for g, w in zip(got, want)):
        same = False
        print("# size %d: awk %r, python %r" % (size, got, want))
ok(same, "pct.awk agrees with pct.py on 6 samples x 6 quantiles")
ok(awk_pct([], [0.5, 0.95]) == (0, [None, None]), "pct.awk: none of nothing")

# tcp_probe: a sender's ACK (IPv4) and a receiver's (iperf3's dual-stack socket)
V4 = ("          iperf3-29094   [000] b..1.   531.695114: tcp_probe: family=AF_INET "
      "src=198.18.0.1:35254 dest=198.18.0.2:45350 mark=0x0 data_len=0 snd_nxt=0xc670f265 "
      "snd_una=0xc670f240 snd_cwnd=10 ssthresh=2147483647 snd_wnd=65160 srtt=20254 "
      "rcv_wnd=64512 sock_cookie=18 skbaddr=00000000c921bfe0 skaddr=00000000e5aa795f")
V6 = ("          linkem-29092   [000] b..1.   531.684848: tcp_probe: family=AF_INET6 "
      "src=[::ffff:198.18.0.2]:45350 dest=[::ffff:198.18.0.1]:35254 mark=0x0 data_len=37 "
      "snd_nxt=0x941873 snd_una=0x941873 snd_cwnd=10 ssthresh=2147483647 snd_wnd=64512 "
      "srtt=20223 rcv_wnd=65160 sock_cookie=17")
e = tcpprobe.parse(V4)
ok(e is not None and (e["t"], e["src"], e["sport"], e["dst"], e["dport"]) ==
   (531.695114, "198.18.0.1", 35254, "198.18.0.2", 45350), "v4: time and endpoints", e)
ok(e["cwnd"] == 10 and e["ssthresh"] == 2147483647 and e["srtt_us"] == 20254 and
   e["snd_una"] == 0xc670f240 and e["sock_cookie"] == "18", "v4: counters, snd_una from hex", e)
e = tcpprobe.parse(V6)
ok((e["src"], e["sport"], e["dst"], e["dport"], e["data_len"]) ==
   ("198.18.0.2", 45350, "198.18.0.1", 35254, 37), "v4-mapped v6: the v4 address", e)
ok(tcpprobe.csv_row(tcpprobe.parse(V4)) ==
   "531.695114,198.18.0.1,198.18.0.2,35254,45350,10,2147483647,20254,65160,0,3329290816",
   "the testbed's CSV row, the stamp as printed", tcpprobe.csv_row(tcpprobe.parse(V4)))
e = tcpprobe.parse(V4.replace(" sock_cookie=18", ""))
ok(e["sock_cookie"] is None and e["cwnd"] == 10, "a field the kernel lacks is None, the rest still read")
ok(tcpprobe.parse("  <idle>-0  [001] d.s2.  5.0: tcp_retransmit_skb: x=1") is None,
   "another event is not tcp_probe")
ok(tcpprobe.parse("# tracer: nop") is None, "a header line is nothing")

done()
