#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Adding an algorithm is one file and one line (README.md, "Layout"): in a
copy of the tree (git ls-files) a "sketch", bpf/reno.bpf.c renamed, with its
line in bpf/algorithms.tab and nothing else, is built (make -s all) and then
found in `tcpca-load --list`, in the bench's scenarios (tools/bench/run
--list: hookcost and the one its line names), in fidelity's (tools/fidelity/
guest --list), and, after scripts/gen-docs, in the README's table and list,
in docs/benchmarks.md and in both man pages.  The same copy without the
line must fail those checks.  No root.  TAP."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from tap import done, ok

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../.."))
LINE = "sketch    sketch      -                 -                       geo                           long           -\n"


def run(tree, *cmd):
    try:
        r = subprocess.run(list(cmd), cwd=tree, capture_output=True, text=True)
    except OSError as e:	# no ./tcpca-load where make failed
        return 127, str(e)
    return r.returncode, r.stdout + r.stderr


def copy_tree(dst):
    """The tracked files, and what is already built of them: the copy
    then builds the new object and relinks the loader, not everything.
    copy2 keeps the times, by which make sees the old objects current."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split("\0")
    build = os.path.join(ROOT, "build")
    if os.path.isdir(build):
        files += [os.path.relpath(os.path.join(d, f), ROOT) for d, _, fs in os.walk(build)
                  if not os.path.relpath(d, build).startswith(("vm", "distro", "bench", "unit"))
                  for f in fs]
    for rel in filter(None, files):
        src = os.path.join(ROOT, rel)
        if not os.path.isfile(src):
            continue
        os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
        shutil.copy2(src, os.path.join(dst, rel))


def add_sketch(tree, with_line):
    """The documented way: its .bpf.c (ops table named after the file,
    registering as "sketch") and, unless told not to, its line."""
    with open(os.path.join(tree, "bpf/reno.bpf.c")) as f:
        text = f.read()
    text = re.sub(r"\bstruct tcp_congestion_ops reno\b", "struct tcp_congestion_ops sketch", text)
    text = text.replace('"bpf_reno"', '"sketch"')
    with open(os.path.join(tree, "bpf/sketch.bpf.c"), "w") as f:
        f.write(text)
    if with_line:
        with open(os.path.join(tree, "bpf/algorithms.tab"), "a") as f:
            f.write(LINE)


def lines_with(out, first):
    return [line.split() for line in out.splitlines() if line.split()[:1] == [first]]


def where_sketch_is(tree):
    """Every place an algorithm must appear, and whether sketch does."""
    found = {}
    rc, out = run(tree, "make", "-s", "all")
    found["make -s all"] = rc == 0
    if rc:
        print("# " + out.strip().replace("\n", "\n# "))
    rc, out = run(tree, "./tcpca-load", "--list")
    found["tcpca-load --list"] = rc == 0 and any(
        line.split()[:2] == ["sketch", "sketch"] for line in out.splitlines())
    rc, out = run(tree, "tools/bench/run", "--list")
    for scen in ("hookcost", "geo"):
        row = lines_with(out, scen)
        found["bench %s" % scen] = rc == 0 and bool(row) and "sketch" in " ".join(row[0])
    rc, out = run(tree, "tools/fidelity/guest", "--list")
    for scen in ("det", "long"):
        row = lines_with(out, scen)
        found["fidelity %s" % scen] = rc == 0 and bool(row) and "sketch" in row[0][1:]
    rc, out = run(tree, sys.executable, "scripts/gen-docs")
    found["scripts/gen-docs"] = rc == 0
    with open(os.path.join(tree, "README.md")) as f:
        readme = f.read()
    found["README table"] = "| `sketch` | `sketch` |" in readme
    found["README list"] = re.search(r"The \w+: [^.]*\bsketch\b", " ".join(readme.split())) is not None
    with open(os.path.join(tree, "docs/benchmarks.md")) as f:
        found["benchmarks.md geo"] = re.search(r"^\| `geo` \| .*\bsketch\b", f.read(), re.M) is not None
    for man in ("docs/tcpca-load.8", "docs/tcpca.conf.5"):
        with open(os.path.join(tree, man)) as f:
            found[man] = re.search(r"^\w.*, sketch\\c$", f.read(), re.M) is not None
    return found


with tempfile.TemporaryDirectory() as tmp:
    good = os.path.join(tmp, "good")
    copy_tree(good)
    add_sketch(good, with_line=True)
    for where, there in where_sketch_is(good).items():
        ok(there, "with its line: sketch in %s" % where)
    # the same without its line: refused at once, so in none of them
    bad = os.path.join(tmp, "bad")
    copy_tree(bad)
    add_sketch(bad, with_line=False)
    found = where_sketch_is(bad)
    del found["scripts/gen-docs"]	# it runs, and finds no sketch to write
    ok(not any(found.values()), "without its line: in none of them (make refuses the file)", found)

done()
