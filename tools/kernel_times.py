#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Sums an Nsight Compute CSV of kernel durations by kernel.

    tools/kernel_times.py ncu.csv [--top N] [--by-stream] [--launches]

The CSV is what `ncu --metrics gpu__time_duration.sum --print-units base
--csv` writes (tools/offline/kernel-times.sh makes one): a row per launch.
Prints, per kernel (template arguments and namespaces dropped), the
launches, total and mean microseconds and the share of all kernel time,
largest first.

--by-stream also prints the same per CUDA stream: each device of a run
(logical devices of one GPU included, GR_DEVICE_MAP) launches its kernels
on a stream of its own, so this is how kernel time divides between
devices. --launches lists every launch in order (id, stream, kernel,
microseconds), to tell one iteration's kernels from another's."""
import argparse
import csv
import re
import sys


def short_name(name):
    # "void gr_cuda::advance_push_chunked_kernel<gr_cuda::PlainLists, (anonymous)::Visit>(...)"
    # "<unnamed>::package_kernel(gr_xk_package_args)": an anonymous
    # namespace first, whose brackets are not template arguments.
    name = name.strip()
    name = re.sub(r"^void\s+", "", name)
    name = re.sub(r"^(<unnamed>|\(anonymous namespace\)|\(anonymous\))::", "", name)
    name = re.sub(r"\(.*$", "", name)
    name = re.sub(r"<.*$", "", name)
    return name.split("::")[-1] or name


def read_launches(path):
    """(id, stream, short name, nanoseconds) per launch, in the CSV's order."""
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]  # ncu's own messages are not quoted
    out = []
    for r in csv.DictReader(lines):
        if r.get("Metric Name") != "gpu__time_duration.sum":
            continue
        ns = float(r["Metric Value"].replace(",", ""))
        unit = r.get("Metric Unit", "nsecond")
        ns *= {"nsecond": 1, "usecond": 1e3, "msecond": 1e6, "second": 1e9}.get(unit, 1)
        out.append((r.get("ID", ""), r.get("Stream", ""), short_name(r["Kernel Name"]), ns))
    return out


def table(launches, top, indent=""):
    totals = {}
    for _, _, k, ns in launches:
        n, t = totals.get(k, (0, 0.0))
        totals[k] = (n + 1, t + ns)
    all_ns = sum(t for _, t in totals.values()) or 1.0
    print(f"{indent}{'kernel':<40} {'launches':>8} {'total us':>10} {'mean us':>9} {'share':>6}")
    for k, (n, t) in sorted(totals.items(), key=lambda kv: -kv[1][1])[:top]:
        print(f"{indent}{k[:40]:<40} {n:>8} {t / 1e3:>10.1f} {t / 1e3 / n:>9.2f} {100 * t / all_ns:>5.1f}%")
    print(f"{indent}{'all kernels':<40} {sum(n for n, _ in totals.values()):>8} {all_ns / 1e3:>10.1f}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--by-stream", action="store_true", help="the table per CUDA stream (per device) too")
    ap.add_argument("--launches", action="store_true", help="every launch in order")
    args = ap.parse_args(argv)
    launches = read_launches(args.csv)
    if not launches:
        print(f"{args.csv}: no kernel rows", file=sys.stderr)
        return 1
    table(launches, args.top)
    if args.by_stream:
        streams = sorted({s for _, s, _, _ in launches}, key=lambda s: (len(s), s))
        for s in streams:
            mine = [x for x in launches if x[1] == s]
            print(f"\nstream {s or '?'}: {len(mine)} launches, {sum(x[3] for x in mine) / 1e3:.1f} us")
            table(mine, args.top, "  ")
    if args.launches:
        print(f"\n{'id':>6} {'stream':>6} {'kernel':<40} {'us':>10}")
        for i, s, k, ns in launches:
            print(f"{i:>6} {s:>6} {k[:40]:<40} {ns / 1e3:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
