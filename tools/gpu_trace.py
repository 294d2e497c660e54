#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where a device's time goes, from a GPU timeline (tools/trace/gr_gpu_trace.c).

Each host thread that issued GPU work is one device (gr runs one thread per
device, logical devices included). Over each window (a run), per device:
its span (first operation's start to last one's end), the time its GPU
operations ran (kernels, copies, memsets) and its idle time split by what
was going on meanwhile:

  others  another device's operations were running (logical devices
          sharing one GPU, or taking turns)
  sync    its thread was inside a synchronizing call (a stream, event or
          device synchronize, a copy that waits): the device had finished
          and the host had not yet seen it or not yet issued more
  api     its thread was inside another CUDA call (a launch, an
          asynchronous copy or memset being issued)
  queued  the next operation was issued and had not started
  host    its thread ran its own code (between calls: barriers, host
          work)

  tools/gpu_trace.py trace.csv [--split-gap MS] [--kernels] [--kernels-csv F] [--calls] [--list N]

Windows: runs separated by at least --split-gap ms in which no GPU
operation ran (default 0.5; 0: the whole trace is one window), those
without a kernel left out (uploads, downloads of results); or, with
--marks, the runs as the program marked them (gr's enactor calls
cudaProfilerStart as each device begins a run and cudaProfilerStop as it
ends it: a window opens at the first device's start and closes at the
last device's stop, whatever the gaps inside); --skip K drops the first K
(a first run). Prints, per device, the median
over the windows kept, then the kernels by total time (--kernels;
--kernels-csv writes them and each device's kernel time as CSV), the
CUDA runtime calls each device's thread made (--calls: per call, the
median over the windows of its count and of the host time inside it; a
window's calls are those that start inside it or in the 0.2 ms before
it, which issued its first operations), or the operations of window N one by one with the gaps
between them (--list N).
"""
import argparse
import bisect
import csv
import re
import statistics
import sys
from collections import defaultdict

SYNC_CALLS = ("Synchronize", "cudaMemcpy_v", "cudaMemcpy2D_v", "cudaMemset_v", "cudaStreamQuery",
              "cudaEventQuery", "cudaFree", "cudaMalloc", "cudaHostAlloc", "cudaMallocHost", "cudaFreeHost")


def short_name(name):
    """A mangled kernel name's function name (the last component of its
    nested name, templates dropped); anything else as it is."""
    if not name.startswith("_Z"):
        return name
    s = name[2:]
    if s.startswith("L"):
        s = s[1:]
    nested = s.startswith("N")
    if nested:
        s = s[1:]
    last = None
    while True:
        m = re.match(r"(\d+)", s)
        if not m:
            break
        n = int(m.group(1))
        s = s[len(m.group(1)):]
        last = s[:n]
        s = s[n:]
        if not nested or not s or s[0] in "EI":
            break
    return last or name


def is_sync(api_name):
    return any(k in api_name for k in SYNC_CALLS)


def load(path):
    ops, apis = [], []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            rec = {"kind": r["kind"], "name": r["name"], "device": int(r["device"]), "stream": int(r["stream"]),
                   "start": int(r["start_ns"]), "end": int(r["end_ns"]), "bytes": int(r["bytes"]),
                   "thread": int(r["thread"]), "corr": int(r["correlation"])}
            (apis if rec["kind"] == "api" else ops).append(rec)
    # Each operation's issuing thread, through the call that issued it.
    by_corr = {a["corr"]: a for a in apis}
    for o in ops:
        a = by_corr.get(o["corr"])
        o["thread"] = a["thread"] if a else -1
        o["issued"] = a["end"] if a else None
        if o["kind"] == "kernel":
            o["short"] = short_name(o["name"])
        elif o["kind"] == "memcpy":
            o["short"] = "copy " + o["name"]
        else:
            o["short"] = "memset"
    ops.sort(key=lambda o: o["start"])
    apis.sort(key=lambda a: a["start"])
    return ops, apis


def call_name(api_name):
    """A runtime call's name without its version suffix (cudaLaunchKernel_v7000)."""
    return re.sub(r"_v\d+$", "", api_name)


CALLS_BEFORE_NS = 200000


def calls_per_window(apis, wins, threads):
    """{(thread, call): [(count, ns) per window]}, zeros where a window
    made none (the medians count them, where the figures above leave out
    a window in which a device ran nothing): a window's calls start inside
    it or in the 0.2 ms before it (those that issued its first
    operations), after the previous window's end."""
    got = defaultdict(lambda: [(0, 0) for _ in wins])
    starts = [a["start"] for a in apis]  # load() sorts the calls by start
    for k, (lo, hi) in enumerate(wins):
        after = max(wins[k - 1][1], lo - CALLS_BEFORE_NS) if k else lo - CALLS_BEFORE_NS
        for a in apis[bisect.bisect_right(starts, after):bisect.bisect_right(starts, hi)]:
            if a["thread"] not in threads:
                continue
            n, ns = got[(a["thread"], call_name(a["name"]))][k]
            got[(a["thread"], call_name(a["name"]))][k] = (n + 1, ns + a["end"] - a["start"])
    return got


def windows(ops, gap_ms):
    """Runs of operations with no GPU idleness of gap_ms or more inside."""
    if not ops:
        return []
    if gap_ms <= 0:
        return [(ops[0]["start"], max(o["end"] for o in ops))]
    out, lo, hi = [], ops[0]["start"], ops[0]["end"]
    for o in ops[1:]:
        if o["start"] - hi >= gap_ms * 1e6:
            out.append((lo, hi))
            lo = o["start"]
        hi = max(hi, o["end"])
    out.append((lo, hi))
    # Windows without a kernel are set-up's uploads or results' downloads.
    return [(lo, hi) for lo, hi in out
            if any(o["kind"] == "kernel" and lo <= o["start"] <= hi for o in ops)]


MARK_START, MARK_STOP = "cudaProfilerStart", "cudaProfilerStop"


def mark_windows(apis):
    """The runs a program marked (--marks): from the start mark that finds
    no run open to the stop mark that closes the last one open (each
    device's thread marks its own run; they overlap). A start left open at
    the trace's end (a run that failed) makes no window."""
    out, open_runs, lo = [], 0, None
    for a in apis:  # load() sorts the calls by start
        name = call_name(a["name"])
        if name == MARK_START:
            if open_runs == 0:
                lo = a["start"]
            open_runs += 1
        elif name == MARK_STOP and open_runs > 0:
            open_runs -= 1
            if open_runs == 0:
                out.append((lo, a["end"]))
    return out


def window_figures(ops, apis, wins):
    """Per window, {thread: device_figures} for every thread that issued
    GPU work anywhere in the trace (a device idle in a window is absent
    from it)."""
    threads = sorted({o["thread"] for o in ops if o["thread"] >= 0})
    out = []
    for lo, hi in wins:
        got = {}
        for t in threads:
            f = device_figures(ops, apis, t, lo, hi)
            if f:
                got[t] = f
        out.append(got)
    return threads, out


def kernel_work(path, skip=0):
    """Each marked run's kernel time per device (ms): [[device's kernels,
    ...] per window], the devices in their threads' order, 0 for a device
    that ran no kernel in a run; also the busy time (kernels, copies,
    memsets) the same way. What tools/gr_scale.py --trace-lib reads."""
    ops, apis = load(path)
    wins = mark_windows(apis)[skip:]
    threads, per = window_figures(ops, apis, wins)
    kernels = [[w[t]["kernels"] / 1e6 if t in w else 0.0 for t in threads] for w in per]
    busy = [[w[t]["busy"] / 1e6 if t in w else 0.0 for t in threads] for w in per]
    return kernels, busy


def union_length(intervals):
    total, cur_lo, cur_hi = 0, None, None
    for lo, hi in sorted(intervals):
        if cur_hi is None or lo > cur_hi:
            if cur_hi is not None:
                total += cur_hi - cur_lo
            cur_lo, cur_hi = lo, hi
        else:
            cur_hi = max(cur_hi, hi)
    if cur_hi is not None:
        total += cur_hi - cur_lo
    return total


def merged(intervals):
    out = []
    for lo, hi in sorted(intervals):
        if out and lo <= out[-1][1]:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return out


def clip(intervals, lo, hi):
    return [(max(a, lo), min(b, hi)) for a, b in intervals if b > lo and a < hi]


def idle_split(idle, layers):
    """Splits each idle interval by the first layer (in order) covering each
    part of it: returns the time under each layer and what none covered."""
    got = {name: 0 for name, _ in layers}
    rest = 0
    for lo, hi in idle:
        pieces = [(lo, hi)]
        for name, cover in layers:
            left = []
            for a, b in pieces:
                pos = a
                for c, d in clip(cover, a, b):
                    if c > pos:
                        left.append((pos, c))
                    got[name] += d - max(c, pos) if d > pos else 0
                    pos = max(pos, d)
                if pos < b:
                    left.append((pos, b))
            pieces = left
        rest += sum(b - a for a, b in pieces)
    return got, rest


def device_figures(ops, apis, thread, lo, hi):
    mine = [o for o in ops if o["thread"] == thread and o["start"] < hi and o["end"] > lo]
    if not mine:
        return None
    span_lo, span_hi = min(o["start"] for o in mine), max(o["end"] for o in mine)
    busy = merged([(o["start"], o["end"]) for o in mine])
    by_kind = defaultdict(int)
    for o in mine:
        by_kind[o["kind"]] += o["end"] - o["start"]
    idle, pos = [], span_lo
    for a, b in busy:
        if a > pos:
            idle.append((pos, a))
        pos = max(pos, b)
    others = merged([(o["start"], o["end"]) for o in ops
                     if o["thread"] != thread and o["start"] < span_hi and o["end"] > span_lo])
    my_apis = [a for a in apis if a["thread"] == thread and a["start"] < span_hi and a["end"] > span_lo]
    syncs = merged([(a["start"], a["end"]) for a in my_apis if is_sync(a["name"])])
    calls = merged([(a["start"], a["end"]) for a in my_apis if not is_sync(a["name"])])
    queued = merged([(o["issued"], o["start"]) for o in mine if o["issued"] is not None and o["issued"] < o["start"]])
    got, host = idle_split(idle, [("others", others), ("sync", syncs), ("api", calls), ("queued", queued)])
    return {
        "span": span_hi - span_lo, "busy": sum(b - a for a, b in busy), "kernels": by_kind["kernel"],
        "copies": by_kind["memcpy"], "memsets": by_kind["memset"], "others": got["others"], "sync": got["sync"],
        "api": got["api"], "queued": got["queued"], "host": host,
        "n_kernels": sum(o["kind"] == "kernel" for o in mine), "n_copies": sum(o["kind"] == "memcpy" for o in mine),
        "n_memsets": sum(o["kind"] == "memset" for o in mine),
        "n_syncs": sum(1 for a in my_apis if is_sync(a["name"])),
    }


COLUMNS = ["span", "busy", "kernels", "copies", "memsets", "others", "sync", "api", "queued", "host"]
COUNTS = ["n_kernels", "n_copies", "n_memsets", "n_syncs"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace")
    ap.add_argument("--split-gap", type=float, default=0.5, help="ms of GPU idleness between windows")
    ap.add_argument("--marks", action="store_true",
                    help="windows are the runs the program marked (cudaProfilerStart/Stop), not idle gaps")
    ap.add_argument("--skip", type=int, default=0, help="windows dropped at the start")
    ap.add_argument("--kernels", action="store_true", help="kernels by total time, per device")
    ap.add_argument("--calls", action="store_true", help="CUDA runtime calls by count and host time, per device")
    ap.add_argument("--list", type=int, default=None, metavar="N", help="window N's operations one by one")
    ap.add_argument("--csv", help="write the per-window, per-device figures here")
    ap.add_argument("--kernels-csv", metavar="FILE",
                    help="write --kernels' table here: device, operation, count, us a run (the kept windows' mean), "
                         "and per device the row (kernels): its kernel time, the median over windows")
    a = ap.parse_args()
    ops, apis = load(a.trace)
    all_wins = mark_windows(apis) if a.marks else windows(ops, a.split_gap)
    wins = all_wins[a.skip:]
    if not wins:
        sys.exit("gpu_trace: %s in %s" % ("no marked runs" if a.marks else "no GPU operations", a.trace))
    if a.list is not None and not 0 <= a.list < len(wins):
        sys.exit("gpu_trace: --list %d: %d window(s) kept (--list counts from 0 after --skip)" % (a.list, len(wins)))
    threads, per = window_figures(ops, apis, wins)
    names = {t: "device %d" % i for i, t in enumerate(threads)}
    rows = []
    for w, got in enumerate(per):
        for t in threads:
            if t in got:
                f = got[t]
                f["window"], f["device"] = w, names[t]
                rows.append(f)
    print("%d window(s) kept; figures in us, the median over windows" % len(wins))
    print("%-9s " % "" + " ".join("%9s" % c for c in COLUMNS + COUNTS))
    medians = {}  # per device: its medians and its windows, for --kernels-csv too
    for t in threads:
        mine = [r for r in rows if r["device"] == names[t]]
        if not mine:
            continue
        med = {c: statistics.median(r[c] for r in mine) for c in COLUMNS + COUNTS}
        medians[names[t]] = (med, len(mine))
        print("%-9s " % names[t] + " ".join("%9.1f" % (med[c] / 1e3) for c in COLUMNS)
              + " ".join("%10.0f" % med[c] for c in COUNTS))
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["window", "device"] + COLUMNS + COUNTS)
            w.writeheader()
            for r in rows:
                w.writerow({k: (r[k] / 1e3 if k in COLUMNS else r[k]) for k in ["window", "device"] + COLUMNS + COUNTS})
    if a.kernels or a.kernels_csv:
        total = defaultdict(lambda: [0, 0])
        for lo, hi in wins:
            for o in ops:
                if o["start"] >= lo and o["end"] <= hi:
                    k = (names.get(o["thread"], "?"), o["short"])
                    total[k][0] += 1
                    total[k][1] += o["end"] - o["start"]
        ordered = sorted(total.items(), key=lambda kv: (kv[0][0], -kv[1][1]))
        if a.kernels:
            print("\n%-9s %-44s %7s %10s %9s" % ("", "operation", "count", "us a run", "us each"))
            for (dev, name), (n, ns) in ordered:
                print("%-9s %-44s %7d %10.1f %9.2f" % (dev, name[:44], n, ns / 1e3 / len(wins), ns / 1e3 / n))
        if a.kernels_csv:
            with open(a.kernels_csv, "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(["device", "operation", "count", "us_a_run"])
                for dev, (med, n) in medians.items():
                    w.writerow([dev, "(kernels)", n, "%.3f" % (med["kernels"] / 1e3)])
                for (dev, name), (n, ns) in ordered:
                    w.writerow([dev, name, n, "%.3f" % (ns / 1e3 / len(wins))])
    if a.calls:
        # The window before the first kept one bounds its calls too.
        bounded = all_wins[max(0, a.skip - 1):]
        per = calls_per_window(apis, bounded, set(threads))
        keep = len(bounded) - len(wins)
        print("\n%-9s %-44s %9s %12s" % ("", "CUDA call (median over windows)", "count", "host us"))
        for t in threads:
            mine = [(name, v[keep:]) for (th, name), v in per.items() if th == t]
            mine = [(name, statistics.median(n for n, _ in v), statistics.median(ns for _, ns in v) / 1e3)
                    for name, v in mine]
            for name, n, us in sorted(mine, key=lambda x: (-x[2], x[0])):
                if n or us:
                    print("%-9s %-44s %9.1f %12.1f" % (names[t], name[:44], n, us))
    if a.list is not None:
        lo, hi = wins[a.list]
        print("\nwindow %d, operations in start order (us from the window's start)" % a.list)
        last_end = defaultdict(lambda: None)
        for o in ops:
            if o["start"] < lo or o["end"] > hi:
                continue
            dev = names.get(o["thread"], "?")
            gap = "" if last_end[dev] is None else "%+8.1f" % ((o["start"] - last_end[dev]) / 1e3)
            issued = "" if o["issued"] is None else "%9.1f" % ((o["issued"] - lo) / 1e3)
            print("%-9s %9.1f %8.1f %8s issued %9s  %s%s" % (dev, (o["start"] - lo) / 1e3, (o["end"] - o["start"]) / 1e3,
                                                            gap, issued, o["short"][:50],
                                                            " %d B" % o["bytes"] if o["bytes"] else ""))
            last_end[dev] = o["end"]


if __name__ == "__main__":
    main()
