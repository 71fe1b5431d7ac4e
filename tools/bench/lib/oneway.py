#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One bulk TCP flow whose sender alone runs the algorithm under test.

  oneway.py recv ADDR PORT CA        accept one connection, drain it, print an
                                     iperf3-shaped JSON summary (what reduce.py
                                     reads: end.sum_received, the sender's CA)
  oneway.py send ADDR PORT SECONDS CA

iperf3's server sets the client's congestion control on its own socket too,
so with iperf3 every hook call of the receiver's socket would be counted
against the sender's ACKs.  Here the receiving socket runs the kernel's
reno.  The listener runs CA, so that an algorithm that needs ECN gets it
negotiated (a SYN with ECT is accepted as ECN only by a listener whose CA
needs ECN, or through the route); the accepted socket is switched to reno
before any data moves, keeping the negotiated ECN.
"""
import json
import socket
import sys
import time

BUF = 1 << 20


def recv(addr, port, ca):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, ca.encode())
    srv.bind((addr, port))
    srv.listen(1)
    srv.settimeout(30)
    conn, _ = srv.accept()
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"reno")
    ca = conn.recv(16).rstrip(b"\0").decode()	# the sender's first 16 bytes name its CA
    buf = bytearray(BUF)
    total, t0 = 0, time.monotonic()
    while True:
        n = conn.recv_into(buf)
        if not n:
            break
        total += n
    secs = time.monotonic() - t0
    json.dump({"end": {"sum_received": {"bytes": total, "seconds": secs},
                       "sender_tcp_congestion": ca}}, sys.stdout)
    print()


def send(addr, port, seconds, ca):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, ca.encode())
    s.connect((addr, port))
    got = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16).rstrip(b"\0").decode()
    if got != ca:
        sys.exit("oneway: the socket runs %s, not %s" % (got, ca))
    s.sendall(got.encode().ljust(16, b"\0"))
    data = memoryview(bytes(BUF))
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        s.sendall(data)
    s.close()


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "recv":
        recv(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    elif len(sys.argv) == 6 and sys.argv[1] == "send":
        send(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), sys.argv[5])
    else:
        sys.exit(__doc__)
