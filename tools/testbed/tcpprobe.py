#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tcp:tcp_probe trace lines, read in one place for every tool.

As a module (tools/bench/lib/reduce.py): parse(LINE) -> dict or None,
read(PATH) -> the events of a trace_pipe capture.  As a command
(tools/testbed/testbed.sh tb_probe_stop): tcpprobe.py RAW prints the
testbed's CSV, one row per event, time_s on the capture's clock:

  time_s,src,dst,sport,dport,cwnd,ssthresh,srtt_us,snd_wnd,data_len,snd_una

A line is "<task> [cpu] <flags> <stamp>: tcp_probe: key=value ...".  The
fields are found by name, not by position, because kernels differ in which
they print and in what order; a field a kernel lacks is "" in the CSV and
None in parse()'s dict.
Addresses come as 198.18.0.1:5201 or, from iperf3's dual-stack sockets,
[::ffff:198.18.0.1]:5201; both give 198.18.0.1 and 5201.
"""
import sys

CSV_HEADER = "time_s,src,dst,sport,dport,cwnd,ssthresh,srtt_us,snd_wnd,data_len,snd_una"
MARK = " tcp_probe: "


def _endpoint(a):
    addr, _, port = a.rpartition(":")
    addr = addr.strip("[]")
    if addr.startswith("::ffff:"):
        addr = addr[len("::ffff:"):]
    return addr, port


def _int(s, base=10):
    try:
        return int(s, base)
    except (TypeError, ValueError):
        return None


def parse(line):
    """{stamp (as printed), t, src, sport, dst, dport, cwnd, ssthresh,
    srtt_us, snd_wnd, data_len, snd_una, snd_nxt, sock_cookie} of one
    tcp_probe line; None for any other line."""
    i = line.find(MARK)
    if i < 0:
        return None
    head = line[:i].split()
    if not head or not head[-1].endswith(":"):
        return None
    stamp = head[-1][:-1]
    try:
        t = float(stamp)
    except ValueError:
        return None
    f = {}
    for kv in line[i + len(MARK):].split():
        k, eq, v = kv.partition("=")
        if eq:
            f[k] = v
    src, sport = _endpoint(f.get("src", ""))
    dst, dport = _endpoint(f.get("dest", ""))
    return {"stamp": stamp, "t": t, "src": src, "sport": _int(sport),
            "dst": dst, "dport": _int(dport),
            "cwnd": _int(f.get("snd_cwnd")), "ssthresh": _int(f.get("ssthresh")),
            "srtt_us": _int(f.get("srtt")), "snd_wnd": _int(f.get("snd_wnd")),
            "data_len": _int(f.get("data_len")),
            "snd_una": _int(f.get("snd_una"), 16), "snd_nxt": _int(f.get("snd_nxt"), 16),
            "sock_cookie": f.get("sock_cookie")}


def read(path):
    """The tcp_probe events of a capture, in its order."""
    with open(path, errors="replace") as f:
        for line in f:
            e = parse(line)
            if e is not None:
                yield e


def csv_row(e):
    cell = ["" if e[k] is None else str(e[k]) for k in
            ("src", "dst", "sport", "dport", "cwnd", "ssthresh", "srtt_us", "snd_wnd",
             "data_len", "snd_una")]
    return ",".join([e["stamp"]] + cell)


def main(argv):
    if len(argv) != 2 or argv[1].startswith("-"):
        sys.stderr.write("usage: tcpprobe.py RAW  (the testbed's CSV on stdout)\n")
        return 2
    out = sys.stdout
    out.write(CSV_HEADER + "\n")
    for e in read(argv[1]):
        out.write(csv_row(e) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
