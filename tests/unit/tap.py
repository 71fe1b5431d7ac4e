# SPDX-License-Identifier: GPL-2.0
"""Minimal TAP for the Python unit tests, as tap.h is for the C ones:
ok() per check, done() prints the plan and exits 0 only if all passed."""
import sys

_n = _failed = 0


def ok(cond, desc, got=None):
    global _n, _failed
    _n += 1
    print("%sok %d - %s" % ("" if cond else "not ", _n, desc))
    if not cond:
        _failed += 1
        print("# got %r" % (got,))
    return cond


def done():
    print("1..%d" % _n)
    sys.exit(1 if _failed else 0)
