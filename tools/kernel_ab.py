#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Two builds' kernel time per device, side by side (Python 3, standard
library only): reads the tables that tools/gpu_trace.py --kernels-csv
wrote for each run of tools/offline/ab-kernels.sh, named
CASE__BUILD__REP.csv (BUILD old or new), and prints per case each build's
slowest device's kernel time (ms; each repetition, then their median), new
over old, and the operations whose time moved most (the slowest device's
us a run, the median over repetitions).

    tools/kernel_ab.py DIR [--top N] [--csv OUT] [--ops-csv OUT]

--csv writes one row per case, build and repetition: case, build, rep,
kernel_max_ms, kernel_sum_ms. --ops-csv writes every operation of the
slowest device, one row per case, build and operation: case, build,
operation, us_a_run (the median over repetitions), so that one file holds
what each run's table held. Exit codes: 0 done, 2 no tables or a table
that is not gpu_trace.py's."""
import argparse
import csv
import os
import re
import statistics
import sys
from collections import defaultdict

NAME = re.compile(r"^(?P<case>.+)__(?P<build>old|new)__(?P<rep>\d+)\.csv$")


def read_table(path):
    """{device: kernel us} and {device: {operation: us a run}} of one run."""
    kernels, ops = {}, defaultdict(dict)
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or set(rows[0]) != {"device", "operation", "count", "us_a_run"}:
        raise ValueError("%s: not a gpu_trace.py --kernels-csv table" % path)
    for r in rows:
        us = float(r["us_a_run"])
        if r["operation"] == "(kernels)":
            kernels[r["device"]] = us
        else:
            ops[r["device"]][r["operation"]] = us
    if not kernels:
        raise ValueError("%s: no device ran a kernel" % path)
    return kernels, ops


def load(directory):
    """{case: {build: [(rep, kernels, ops)]}} of the tables in directory."""
    cases = defaultdict(lambda: defaultdict(list))
    for name in sorted(os.listdir(directory)):
        m = NAME.match(name)
        if not m:
            continue
        kernels, ops = read_table(os.path.join(directory, name))
        cases[m["case"]][m["build"]].append((int(m["rep"]), kernels, ops))
    for builds in cases.values():
        for runs in builds.values():
            runs.sort(key=lambda r: r[0])
    return cases


def slowest(kernels):
    """The device whose kernels took longest, and their time (us)."""
    dev = max(kernels, key=lambda d: (kernels[d], d))
    return dev, kernels[dev]


def op_medians(runs):
    """{operation: the slowest device's us a run, median over the runs}."""
    per = defaultdict(list)
    for _, kernels, ops in runs:
        dev, _ = slowest(kernels)
        for name, us in ops[dev].items():
            per[name].append(us)
    return {name: statistics.median(v) for name, v in per.items()}


def moved(builds, top):
    """The operations of the slowest device whose median us a run differs
    most between the builds: [(operation, old, new)]."""
    med = {b: op_medians(builds.get(b, [])) for b in ("old", "new")}
    names = set(med["old"]) | set(med["new"])
    rows = [(n, med["old"].get(n, 0.0), med["new"].get(n, 0.0)) for n in names]
    rows.sort(key=lambda r: (-abs(r[2] - r[1]), r[0]))
    return rows[:top]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--top", type=int, default=6, help="operations shown per case (default 6)")
    ap.add_argument("--csv", help="write each run's slowest and summed kernel time here")
    ap.add_argument("--ops-csv", help="write each case's and build's operations (slowest device) here")
    a = ap.parse_args()
    try:
        cases = load(a.dir)
    except (OSError, ValueError) as e:
        print("kernel_ab: %s" % e, file=sys.stderr)
        return 2
    if not cases:
        print("kernel_ab: no CASE__old|new__REP.csv tables in %s" % a.dir, file=sys.stderr)
        return 2
    out_rows = []
    for case, builds in sorted(cases.items()):
        print("%s: slowest device's kernels, ms" % case)
        med = {}
        for b in ("old", "new"):
            runs = builds.get(b, [])
            times = [slowest(k)[1] / 1e3 for _, k, _ in runs]
            for (rep, k, _), t in zip(runs, times):
                out_rows.append([case, b, rep, "%.4f" % t, "%.4f" % (sum(k.values()) / 1e3)])
            if times:
                med[b] = statistics.median(times)
                print("  %-4s %s  median %.4f" % (b, " ".join("%.4f" % t for t in times), med[b]))
        if "old" in med and "new" in med and med["old"] > 0:
            print("  new / old %.3f" % (med["new"] / med["old"]))
        if "old" in builds and "new" in builds:
            print("  %-44s %10s %10s" % ("operation (slowest device, us a run)", "old", "new"))
            for name, o, n in moved(builds, a.top):
                print("  %-44s %10.1f %10.1f" % (name[:44], o, n))
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["case", "build", "rep", "kernel_max_ms", "kernel_sum_ms"])
            w.writerows(out_rows)
    if a.ops_csv:
        with open(a.ops_csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["case", "build", "operation", "us_a_run"])
            for case, builds in sorted(cases.items()):
                for b in ("old", "new"):
                    med = op_medians(builds.get(b, []))
                    for name, us in sorted(med.items(), key=lambda x: (-x[1], x[0])):
                        w.writerow([case, b, name, "%.3f" % us])
    return 0


if __name__ == "__main__":
    sys.exit(main())
