"""A Mahimahi trace's capacity, as linkem itself reads the trace.

The benchmark's figure for a trace link must be the rate the emulator
delivers, so it asks linkem (`linkem --trace-info`) instead of parsing the
format a second time with rules that could drift from the C reader's
(comments, blank lines, what counts as malformed).
"""
import functools
import json
import os
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
LINKEM = os.path.join(ROOT, "tools", "linkem", "linkem")


@functools.lru_cache(maxsize=None)
def trace_info(path, seconds=None):
    """linkem's JSON for PATH (opportunities, period_s, mean_bps, and with
    SECONDS window_s, window_bps), or None if linkem cannot read it."""
    if not os.access(LINKEM, os.X_OK):
        # a report regenerated after a `make clean`: build it, as the testbed does
        subprocess.run(["make", "-s", "-C", os.path.dirname(LINKEM)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cmd = [LINKEM, "--trace-info", path]
    if seconds:
        cmd += ["--duration", "%dms" % round(seconds * 1000)]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        return json.loads(out)
    except (OSError, subprocess.CalledProcessError, ValueError):
        return None


def capacity_mbit(path, seconds=None):
    """The mean rate in Mbit/s over the first SECONDS (what a flow starting
    with the link meets), or over the whole trace; None if unreadable."""
    info = trace_info(path, seconds)
    if not info:
        return None
    return (info["window_bps"] if seconds else info["mean_bps"]) / 1e6
