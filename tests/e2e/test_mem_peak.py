#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# tools/mem_peak.py on the allocation trace of gr_run (CPU devices): each
# device's peak is the one gr_run reports (its JSON peak_bytes), the
# allocations live at it sum to it and name the graph; a trace that starts
# late, one with a release of memory never allocated, a garbled line and a
# file with no trace are refused (exit 2).
import csv
import collections
import json
import os
import subprocess
import sys
import tempfile

top, gr_run = sys.argv[1], sys.argv[2]
tool = os.path.join(top, "tools", "mem_peak.py")
env = dict(os.environ, GR_DEBUG="TRACE", GR_DEBUG_SUBSYS="ALLOC")
failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)


def tool_run(args, stdin=None):
    return subprocess.run([sys.executable, tool] + args, input=stdin, capture_output=True, text=True)


with tempfile.TemporaryDirectory() as tmp:
    for prim, gpus in (("bfs", 1), ("cc", 3), ("bc", 2)):
        js = os.path.join(tmp, f"{prim}{gpus}.json")
        r = subprocess.run([gr_run, "--cpu", "--primitive", prim, "--gen", "kron:12:8", "--gpus", str(gpus), "--runs",
                            "2", "--quiet", "--json", js], env=env, capture_output=True, text=True)
        check(r.returncode == 0, f"{prim} on {gpus}: gr_run failed: {r.stderr[-500:]}")
        trace = os.path.join(tmp, f"{prim}{gpus}.trace")
        with open(trace, "w") as f:
            f.write(r.stderr)
        out_csv = os.path.join(tmp, f"{prim}{gpus}.csv")
        t = tool_run([trace, "--csv", out_csv])
        check(t.returncode == 0, f"{prim} on {gpus}: mem_peak failed: {t.stderr}")
        if t.returncode != 0:
            continue
        reported = {d["index"]: d["peak_bytes"] for d in json.load(open(js))["devices"]}
        rows = list(csv.DictReader(open(out_csv)))
        peaks = {int(x["device"]): int(x["peak_bytes"]) for x in rows}
        sums = collections.Counter()
        names = collections.defaultdict(set)
        for x in rows:
            sums[int(x["device"])] += int(x["bytes"])
            names[int(x["device"])].add(x["allocation"])
        check(peaks == reported, f"{prim} on {gpus}: peaks {peaks} against gr_run's {reported}")
        for d, p in peaks.items():
            check(sums[d] == p, f"{prim} on {gpus}, device {d}: live allocations sum to {sums[d]}, peak {p}")
            check("graph (CSR)" in names[d], f"{prim} on {gpus}, device {d}: no graph at the peak: {names[d]}")
        # One device alone, from standard input.
        one = tool_run(["-", "--device", "0"], stdin=r.stderr)
        check(one.returncode == 0 and one.stdout.startswith("device 0: peak ") and "device 1:" not in one.stdout,
              f"{prim} on {gpus}: --device 0: {one.stdout[:200]} {one.stderr}")
        missing = tool_run(["-", "--device", str(gpus)], stdin=r.stderr)
        check(missing.returncode == 2, f"{prim} on {gpus}: a device the trace lacks: exit {missing.returncode}")

    lines = r.stderr.splitlines(keepends=True)
    allocs = [i for i, x in enumerate(lines) if " bytes for " in x and "gr TRACE: device" in x]
    frees = [i for i, x in enumerate(lines) if "gr TRACE: device" in x and ": -" in x]
    late = "".join(lines[:allocs[0]] + lines[allocs[0] + 1:])
    t = tool_run(["-"], stdin=late)
    check(t.returncode == 2 and ("reports" in t.stderr or "never allocated" in t.stderr),
          f"a trace without its first allocation: exit {t.returncode}: {t.stderr}")
    garbled = "".join(lines[:frees[0]] + [lines[frees[0]].replace(" bytes at ", " bytes near ")] + lines[frees[0] + 1:])
    t = tool_run(["-"], stdin=garbled)
    check(t.returncode == 2 and "not an allocation" in t.stderr, f"a garbled line: exit {t.returncode}: {t.stderr}")
    stray = "gr TRACE: device 0: -64 bytes at 0xdead (in use 0)\n"
    t = tool_run(["-"], stdin=stray)
    check(t.returncode == 2 and "never allocated" in t.stderr, f"a stray release: exit {t.returncode}: {t.stderr}")
    t = tool_run(["-"], stdin="no trace here\n")
    check(t.returncode == 2 and "no allocation trace" in t.stderr, f"no trace: exit {t.returncode}: {t.stderr}")

print("mem_peak:", "ok" if not failures else f"{failures} failures")
sys.exit(1 if failures else 0)
