#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The installed testbed's man pages say what its commands take: every
option linkem's --help lists is in docs/linkem.1 and the page names none
it does not take; every option of tools/bench/run --help likewise in
docs/tcpca-bench.1.  linkem's help is hand-written beside getopt's table
(tools/linkem/opts.c), so the table's names are checked against it too:
a new option reaches the page through its help line.  TAP; no root."""
import os
import re
import subprocess

from tap import done, ok

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..")
LINKEM = os.path.join(ROOT, "tools/linkem/linkem")
OPT = re.compile(r"(?<![\w-])--([a-z][a-z0-9-]*[a-z0-9])(?![\w-])")


def named(text):
    """The long options TEXT names (--up-X and --down-X are the link
    options' directions, spelt once as a pattern)."""
    return {o for o in OPT.findall(text)}


def man_text(rel):
    """A man page's source with roff's escaped hyphens and font changes undone."""
    with open(os.path.join(ROOT, rel)) as f:
        text = f.read()
    return re.sub(r"\\f[BIRP]", "", text.replace("\\-", "-"))


if not os.access(LINKEM, os.X_OK):
    subprocess.run(["make", "-s", "-C", os.path.dirname(LINKEM)], check=True)
help_text = subprocess.run([LINKEM, "--help"], capture_output=True, text=True, check=True).stdout
helped = named(help_text)
ok(len(helped) >= 30, "linkem --help lists its options", sorted(helped))

with open(os.path.join(ROOT, "tools/linkem/opts.c")) as f:
    src = f.read()
link = re.findall(r'\[L_\w+\]\s*=\s*\{\s*"([a-z-]+)"', src)
glob = re.findall(r'\{\s*"([a-z-]+)",\s*\d,\s*NULL,\s*G_\w+\s*\}', src)
ok(len(link) >= 10 and len(glob) >= 10, "opts.c's tables read: %d link, %d global options" % (len(link), len(glob)))
ok(set(link + glob) - {"help"} <= helped, "--help lists every option of opts.c's tables",
   sorted(set(link + glob) - {"help"} - helped))
# what linkem takes: those, --help, and each link option per direction
takes = helped | {"help"} | {d + o for d in ("up-", "down-") for o in link}

page = named(man_text("docs/linkem.1"))
ok(helped <= page, "docs/linkem.1 names every option of linkem --help", sorted(helped - page))
ok(page <= takes, "... and none that linkem does not take", sorted(page - takes))
man = man_text("docs/linkem.1")
ok(all(re.search(r"^\.TP\n[^\n]*--%s(?![\w-])" % re.escape(o), man, re.M) for o in helped - {"help"}) and
   re.search(r"^\.TP\n-h, --help", man, re.M),
   "... each with a paragraph of its own",
   [o for o in helped if not re.search(r"^\.TP\n[^\n]*--%s(?![\w-])" % re.escape(o), man, re.M)])
ok("--up-" in man and "--down-" in man, "... and the link options' --up-X and --down-X forms")

run_help = subprocess.run([os.path.join(ROOT, "tools/bench/run"), "--help"], capture_output=True,
                          text=True, check=True).stdout
bench = named(run_help) | {"help"}
page = named(man_text("docs/tcpca-bench.1"))
ok(bench <= page, "docs/tcpca-bench.1 names every option of tools/bench/run --help", sorted(bench - page))
ok(page <= bench, "... and none that it does not take", sorted(page - bench))

done()
