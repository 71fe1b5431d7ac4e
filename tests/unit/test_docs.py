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
                "docs/algorithms.md", "docs/benchmarks.md", "tools/bench/run",
                "tools/bench/lib/algspec.sh", "debian/control"] + \
            ["include/" + h for h in os.listdir(os.path.join(ROOT, "include"))] + \
            ["tools/bench/scenarios/" + f for f in os.listdir(os.path.join(ROOT, "tools/bench/scenarios"))]:
        os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, rel), os.path.join(tmp, rel))	# and its mode
    def add_then_write(rel, line):
        """The check's answer once LINE is added to the table REL; then write."""
        with open(os.path.join(tmp, rel), "a") as f:
            f.write(line)
        r = check(tmp)
        subprocess.run([sys.executable, os.path.join(tmp, "scripts/gen-docs")], check=True)
        return r

    def text_of(rel):
        with open(os.path.join(tmp, rel)) as f:
            return f.read()

    r = add_then_write("loader/pins.def", 'PIN_LEAF(EXTRA,    "extra",    "a leaf the documents do not know")\n')
    ok(r.returncode == 1 and "README.md docs/tcpca-load.8" in r.stdout,
       "a leaf added to the table makes the check fail, naming both", r.stdout + r.stderr)
    ok("/sys/fs/bpf/tcpca/NAME/extra" in text_of("README.md"), "and writing puts it in the README")
    ok(check(tmp).returncode == 0, "after which the check passes")
    r = add_then_write("loader/options.def",
                       'OPTION(\'x\', "extra", no_argument, "", "help", "An {extra} **option**.")\n')
    ok(r.returncode == 1 and "docs/tcpca-load.8" in r.stdout, "so does an option added", r.stdout)
    ok("\\fB\\-x\\fR, \\fB\\-\\-extra\\fR\nAn \\fIextra\\fP \\fBoption\\fP." in text_of("docs/tcpca-load.8"),
       "and the man page gets its paragraph, marked up")
    # an algorithm's line, one without tunables: every list of the algorithms
    r = add_then_write("bpf/algorithms.tab", "extra     bpf_extra   -                 -                       "
                       "-                             -              -\n")
    ok(r.returncode == 1 and
       "README.md docs/tcpca-load.8 docs/tcpca.conf.5 docs/benchmarks.md debian/control" in r.stdout,
       "so does an algorithm's line, naming README.md, both man pages, benchmarks.md and "
       "debian/control", r.stdout + r.stderr)
    readme = " ".join(text_of("README.md").split())	# the list is wrapped
    ok("| `extra` | `bpf_extra` |" in readme and "The eighteen: " in readme
       and "yeah, bbr (as `bpf_bbr`) and extra (as `bpf_extra`)." in readme,
       "and the README's table, count and list have it")
    control = " ".join(text_of("debian/control").split())
    ok("The eighteen: " in control and "and extra (as bpf_extra)." in control,
       "and so does the package's description")

done()
