#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Sums an Nsight Compute CSV of kernel durations by kernel.

    tools/kernel_times.py ncu.csv [--top N]

The CSV is what `ncu --metrics gpu__time_duration.sum --print-units base
--csv` writes (tools/offline/kernel-times.sh makes one): a row per launch.
Prints, per kernel (template arguments dropped), the launches, total and
mean microseconds and the share of all kernel time, largest first."""
import argparse
import csv
import re
import sys


def short_name(name):
    # "void gr_cuda::advance_push_chunked_kernel<(anonymous)::Visit>(...)"
    name = re.sub(r"\(.*$", "", name.strip())
    name = re.sub(r"<.*$", "", name)
    name = name.replace("void ", "")
    return name.split("::")[-1] or name


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args(argv)
    with open(args.csv, newline="") as f:
        lines = [l for l in f if l.startswith('"')]  # ncu's own messages are not quoted
    rows = list(csv.DictReader(lines))
    if not rows:
        print(f"{args.csv}: no kernel rows", file=sys.stderr)
        return 1
    totals = {}
    for r in rows:
        if r.get("Metric Name") != "gpu__time_duration.sum":
            continue
        ns = float(r["Metric Value"].replace(",", ""))
        unit = r.get("Metric Unit", "nsecond")
        ns *= {"nsecond": 1, "usecond": 1e3, "msecond": 1e6, "second": 1e9}.get(unit, 1)
        k = short_name(r["Kernel Name"])
        n, t = totals.get(k, (0, 0.0))
        totals[k] = (n + 1, t + ns)
    all_ns = sum(t for _, t in totals.values()) or 1.0
    print(f"{'kernel':<40} {'launches':>8} {'total us':>10} {'mean us':>9} {'share':>6}")
    for k, (n, t) in sorted(totals.items(), key=lambda kv: -kv[1][1])[: args.top]:
        print(f"{k[:40]:<40} {n:>8} {t / 1e3:>10.1f} {t / 1e3 / n:>9.2f} {100 * t / all_ns:>5.1f}%")
    print(f"{'all kernels':<40} {sum(n for n, _ in totals.values()):>8} {all_ns / 1e3:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
