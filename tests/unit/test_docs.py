#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The documents agree with the tables they are generated from
(scripts/gen-docs --check: the pin leaves, the command forms and options,
the algorithms),
and the generator notices a difference.  TAP."""
import os
import shutil
import subprocess
import sys
import tempfile

from tap import done, ok

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..")
GEN = os.path.join(ROOT, "scripts/gen-docs")


def check(root):
    return subprocess.run([sys.executable, os.path.join(root, "scripts/gen-docs"), "--check"],
                          capture_output=True, text=True)


r = check(ROOT)
ok(r.returncode == 0, "README.md and the man pages say what loader/pins.def, "
   "loader/options.def and bpf/algorithms.tab declare", r.stdout + r.stderr)

# a copy whose table gained a leaf: the check must fail and name both documents
with tempfile.TemporaryDirectory() as tmp:
    for rel in ["scripts/gen-docs", "scripts/algorithms", "bpf/algorithms.tab", "loader/pins.def",
                "loader/options.def", "README.md", "docs/tcpca-load.8", "docs/tcpca.conf.5",
                "docs/algorithms.md"] + ["include/" + h for h in os.listdir(os.path.join(ROOT, "include"))]:
        os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
        shutil.copy(os.path.join(ROOT, rel), os.path.join(tmp, rel))
    with open(os.path.join(tmp, "loader/pins.def"), "a") as f:
        f.write('PIN_LEAF(EXTRA,    "extra",    "a leaf the documents do not know")\n')
    r = check(tmp)
    ok(r.returncode == 1 and "README.md docs/tcpca-load.8" in r.stdout,
       "a leaf added to the table makes the check fail, naming both", r.stdout + r.stderr)
    subprocess.run([sys.executable, os.path.join(tmp, "scripts/gen-docs")], check=True)
    with open(os.path.join(tmp, "README.md")) as f:
        ok("/sys/fs/bpf/tcpca/NAME/extra" in f.read(), "and writing puts it in the README")
    ok(check(tmp).returncode == 0, "after which the check passes")
    with open(os.path.join(tmp, "loader/options.def"), "a") as f:
        f.write('OPTION(\'x\', "extra", no_argument, "", "help", "An {extra} **option**.")\n')
    r = check(tmp)
    ok(r.returncode == 1 and "docs/tcpca-load.8" in r.stdout, "so does an option added", r.stdout)
    subprocess.run([sys.executable, os.path.join(tmp, "scripts/gen-docs")], check=True)
    with open(os.path.join(tmp, "docs/tcpca-load.8")) as f:
        ok("\\fB\\-x\\fR, \\fB\\-\\-extra\\fR\nAn \\fIextra\\fP \\fBoption\\fP." in f.read(),
           "and the man page gets its paragraph, marked up")
    # an algorithm's line, one without tunables: every list of the algorithms
    with open(os.path.join(tmp, "bpf/algorithms.tab"), "a") as f:
        f.write("extra     bpf_extra   -                 -                       -                             -              -\n")
    r = check(tmp)
    ok(r.returncode == 1 and "README.md docs/tcpca-load.8 docs/tcpca.conf.5" in r.stdout,
       "so does an algorithm's line, naming README.md and both man pages", r.stdout + r.stderr)
    subprocess.run([sys.executable, os.path.join(tmp, "scripts/gen-docs")], check=True)
    with open(os.path.join(tmp, "README.md")) as f:
        readme = " ".join(f.read().split())	# the list is wrapped
    ok("| `extra` | `bpf_extra` |" in readme and "The eighteen: " in readme
       and "yeah, bbr (as `bpf_bbr`) and extra (as `bpf_extra`)." in readme,
       "and the README's table, count and list have it")

done()
