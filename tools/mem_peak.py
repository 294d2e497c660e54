#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What each device holds at its peak: reads the allocation trace of a run
(gr_run or any program of the library under GR_DEBUG=TRACE
GR_DEBUG_SUBSYS=ALLOC, its standard error) and prints, per device, the
highest use and the allocations live at that moment, summed by what they
are for, largest first (Python 3, standard library only).

    GR_DEBUG=TRACE GR_DEBUG_SUBSYS=ALLOC gr_run ... 2> trace.txt
    tools/mem_peak.py trace.txt [--device D] [--csv FILE]

The peak is gr's own allocations (the device's tracked use, the same
figure as gr_run's "peak memory" and its JSON peak_bytes), not the
driver's or a library's. --csv writes device,peak_bytes,allocation,bytes
rows (one per allocation name at each device's peak).

Exit codes: 0 done, 2 no trace in the file, a line that does not parse,
a release of memory never allocated, or use that disagrees with the
trace's own running total (an incomplete trace)."""
import argparse
import collections
import csv
import re
import sys

ALLOC = re.compile(r"gr TRACE: device (-?\d+): \+(\d+) bytes for (.*) at (\S+) \(in use (\d+)\)$")
FREE = re.compile(r"gr TRACE: device (-?\d+): -(\d+) bytes at (\S+) \(in use (\d+)\)$")


class TraceError(Exception):
    pass


def read_trace(lines):
    """Per device: (peak bytes, {name: bytes} live at the peak). The first
    moment of the highest use counts."""
    live = collections.defaultdict(dict)
    total = collections.defaultdict(int)
    peak = {}
    at_peak = {}
    for no, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if "gr TRACE: device" not in line or " bytes " not in line:
            continue
        m = ALLOC.search(line)
        if m:
            dev, size, what, ptr, use = int(m[1]), int(m[2]), m[3], m[4], int(m[5])
            live[dev][ptr] = (size, what)
            total[dev] += size
        else:
            m = FREE.search(line)
            if not m:
                raise TraceError(f"line {no}: not an allocation or a release: {line}")
            dev, size, ptr, use = int(m[1]), int(m[2]), m[3], int(m[4])
            if ptr not in live[dev]:
                raise TraceError(f"line {no}: device {dev} releases {ptr}, which the trace never allocated")
            total[dev] -= live[dev].pop(ptr)[0]
        if total[dev] != use:
            raise TraceError(f"line {no}: device {dev} reports {use} bytes in use, the trace's allocations sum to "
                             f"{total[dev]} (a trace that starts late or lost lines)")
        if use > peak.get(dev, -1):
            peak[dev] = use
            sums = collections.Counter()
            for s, w in live[dev].values():
                sums[w] += s
            at_peak[dev] = sums
    if not peak:
        raise TraceError("no allocation trace (run with GR_DEBUG=TRACE GR_DEBUG_SUBSYS=ALLOC, standard error)")
    return {d: (peak[d], at_peak[d]) for d in peak}


def main(argv):
    ap = argparse.ArgumentParser(description="What each device holds at its peak, from an allocation trace.")
    ap.add_argument("trace", help="the run's standard error under GR_DEBUG=TRACE GR_DEBUG_SUBSYS=ALLOC ('-': stdin)")
    ap.add_argument("--device", type=int, help="this device only")
    ap.add_argument("--csv", help="write device,peak_bytes,allocation,bytes rows to this file")
    args = ap.parse_args(argv)
    try:
        if args.trace == "-":
            found = read_trace(sys.stdin)
        else:
            with open(args.trace, errors="replace") as f:
                found = read_trace(f)
    except (OSError, TraceError) as e:
        print(f"mem_peak: {e}", file=sys.stderr)
        return 2
    devices = sorted(found) if args.device is None else [args.device]
    for d in devices:
        if d not in found:
            print(f"mem_peak: no allocation of device {d} in the trace", file=sys.stderr)
            return 2
    rows = []
    for d in devices:
        peak, sums = found[d]
        print(f"device {d}: peak {peak / 2**20:.2f} MiB ({peak} bytes)")
        for what, b in sorted(sums.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {b / 2**20:10.2f} MiB {100.0 * b / peak if peak else 0.0:5.1f} %  {what}")
            rows.append((d, peak, what, b))
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["device", "peak_bytes", "allocation", "bytes"])
            w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
