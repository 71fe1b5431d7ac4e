#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every expectation of tools/bench/expectations.md gives, over the
synthetic runs of bench_sample.py, the verdicts and "measured" cells
recorded in bench_verdicts.txt: the report's judgement changes only when
an expectation is meant to.  TAP."""
from tap import done, ok

import bench_sample

golden = bench_sample.read_golden()
got = bench_sample.digests()
ok(sorted(got) == sorted(golden), "the same expectations and variants as recorded",
   sorted(set(got) ^ set(golden)))
for key in sorted(golden):
    ok(got.get(key) == golden[key], "%s: verdicts and measured cells as recorded (%s)" % (key, golden[key][0]),
       got.get(key))
short = [key for key, (counts, _) in golden.items()
         if {c.split("=")[0] for c in counts.split(", ")} != {"met", "partly", "not met", "n/a"}]
ok(not short, "the sample gives every expectation each of the four verdicts", short)
done()
