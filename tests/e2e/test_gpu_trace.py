#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# tools/gpu_trace.py on a small timeline written here (the CSV that
# tools/trace/gr_gpu_trace.c writes): operations tied to their devices'
# threads through the calls that issued them; a device's idle time split by
# what went on meanwhile (another device's work, its thread waiting in a
# synchronize, inside another call, an operation issued and not started,
# its own code); windows split at GPU idleness, those without a kernel
# dropped; mangled kernel names shortened; the runtime calls a window per
# device; a trace without operations refused; runs as the program marked
# them (--marks), whatever their gaps, and each run's kernel time per
# device as gr_scale.py reads it, and as --kernels-csv writes it.
import csv
import os
import subprocess
import sys
import tempfile

top = sys.argv[1]
tool = os.path.join(top, "tools", "gpu_trace.py")
sys.path.insert(0, os.path.join(top, "tools"))
import gpu_trace  # noqa: E402

assert gpu_trace.short_name("_ZN7gr_cuda26advance_push_levels_kernelINS_10PlainListsEEEvPKm") == \
    "advance_push_levels_kernel"
assert gpu_trace.short_name("_ZN44_GLOBAL__N__22e1b124_11_bfs_cuda_cu_87fa9e1714package_kernelE") == "package_kernel"
assert gpu_trace.short_name("_Z9or_kernelPjPKjm") == "or_kernel"
assert gpu_trace.short_name("plain") == "plain"

# Thread 11 is device 0, thread 12 device 1 (ns). Window 1 (0-20 us):
# device 0 launches A (runs 4-10 us), copies back (10-11 us) and waits
# in a synchronize until 13 us, then launches B at 15-17 us, which runs
# 18-20 us; device 1's kernel C runs 12-16 us. Device 0's idle time 11-18:
# 12-16 under C (others), 11-12 in the synchronize (sync), 16-17 in B's
# launch (api), 17-18 B issued and not started (queued). A memset 2 ms
# later with no kernel is a window of its own, dropped; window 2 at 5 ms:
# device 0's kernel D 5000-5010 us issued at 4990 us, after its thread ran
# its own code (host) from 4980 us, when its last call ended.
rows = [
    ("api", "cudaLaunchKernel_v7000", 0, 0, 1000, 3000, 0, 11, 1),
    ("kernel", "_ZN7gr_cuda1AEv", 0, 7, 4000, 10000, 0, 0, 1),
    ("api", "cudaMemcpyAsync_v3020", 0, 0, 4000, 5000, 0, 11, 2),
    ("memcpy", "DtoH", 0, 7, 10000, 11000, 32, 0, 2),
    ("api", "cudaStreamSynchronize_v3020", 0, 0, 5000, 12000, 0, 11, 3),
    ("api", "cudaLaunchKernel_v7000", 0, 0, 15000, 17000, 0, 11, 4),
    ("kernel", "_Z1Bv", 0, 7, 18000, 20000, 0, 0, 4),
    ("api", "cudaLaunchKernel_v7000", 0, 0, 1000, 2000, 0, 12, 5),
    ("kernel", "_Z1Cv", 0, 8, 12000, 16000, 0, 0, 5),
    ("api", "cudaMemsetAsync_v3020", 0, 0, 2000000, 2001000, 0, 11, 6),
    ("memset", "memset", 0, 7, 2002000, 2003000, 64, 0, 6),
    ("api", "cudaEventRecord_v3020", 0, 0, 4979000, 4980000, 0, 11, 7),
    ("api", "cudaLaunchKernel_v7000", 0, 0, 4990000, 4990500, 0, 11, 8),
    ("kernel", "_Z1Dv", 0, 7, 4995000, 5010000, 0, 0, 8),
    ("kernel", "_Z1Dv", 0, 7, 4970000, 4975000, 0, 0, 7),
]


def write_trace(path, records):
    """A timeline as gr_gpu_trace.c writes it."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["kind", "name", "device", "stream", "start_ns", "end_ns", "bytes", "thread", "correlation"])
        w.writerows(records)


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "t.csv")
    write_trace(path, rows)
    out = os.path.join(tmp, "w.csv")
    r = subprocess.run([sys.executable, tool, path, "--csv", out, "--kernels", "--list", "0"], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    assert "2 window(s) kept" in r.stdout, r.stdout
    got = list(csv.DictReader(open(out)))
    first = {g["device"]: g for g in got if g["window"] == "0"}
    d0 = first["device 0"]
    want = {"span": 16.0, "busy": 9.0, "kernels": 8.0, "copies": 1.0, "others": 4.0, "sync": 1.0, "api": 1.0,
            "queued": 1.0, "host": 0.0, "n_kernels": 2, "n_syncs": 1}
    for k, v in want.items():
        assert abs(float(d0[k]) - v) < 1e-9, (k, d0[k], v)
    assert float(first["device 1"]["span"]) == 4.0 and float(first["device 1"]["busy"]) == 4.0
    second = [g for g in got if g["window"] == "1"]
    assert len(second) == 1 and second[0]["device"] == "device 0", second
    # 4975-4995 us idle: its thread in its own code until the launch at
    # 4990 (host 4975-4979 and 4980-4990, the event record 4979-4980 as
    # api), the launch itself 4990-4990.5 (api), then issued 4990.5-4995.
    s = second[0]
    assert abs(float(s["host"]) - 14.0) < 1e-9 and abs(float(s["api"]) - 1.5) < 1e-9, s
    assert abs(float(s["queued"]) - 4.5) < 1e-9, s
    # The kernels by total time, shortened names, per device.
    table = [ln.split() for ln in r.stdout.splitlines()]
    assert ["device", "0", "D", "2", "10.0", "10.00"] in table, r.stdout
    assert ["device", "1", "C", "1", "2.0", "4.00"] in table, r.stdout
    # The runtime calls a window, per device: those that start inside it
    # or in the 0.2 ms before it, medians over the two windows kept, zeros
    # where a window made none (the memset's call belongs to the dropped
    # window, neither kept one). Device 0: launches 2 (4 us) and 1 (0.5
    # us), its copy, synchronize and event once each; device 1 one launch.
    r = subprocess.run([sys.executable, tool, path, "--calls"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    calls = {(ln.split()[1], ln.split()[2]): (float(ln.split()[3]), float(ln.split()[4]))
             for ln in r.stdout.splitlines() if ln.startswith("device ") and "cuda" in ln}
    want = {("0", "cudaLaunchKernel"): (1.5, 2.25), ("0", "cudaMemcpyAsync"): (0.5, 0.5),
            ("0", "cudaStreamSynchronize"): (0.5, 3.5), ("0", "cudaEventRecord"): (0.5, 0.5),
            ("1", "cudaLaunchKernel"): (0.5, 0.5)}
    assert set(calls) == set(want), (calls, r.stdout)
    for k, (n, us) in want.items():
        assert calls[k][0] == n and abs(calls[k][1] - us) <= 0.051, (k, calls[k], r.stdout)
    # --skip 1: the second window's calls alone (its 0.2 ms before it
    # bounded by the first window's end, which --skip drops).
    r = subprocess.run([sys.executable, tool, path, "--calls", "--skip", "1"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    calls = {(ln.split()[1], ln.split()[2]): (float(ln.split()[3]), float(ln.split()[4]))
             for ln in r.stdout.splitlines() if ln.startswith("device ") and "cuda" in ln}
    assert calls == {("0", "cudaEventRecord"): (1.0, 1.0), ("0", "cudaLaunchKernel"): (1.0, 0.5)}, r.stdout
    # A window past those kept: a clear error, no traceback.
    r = subprocess.run([sys.executable, tool, path, "--skip", "1", "--list", "1"], capture_output=True, text=True)
    assert r.returncode != 0 and "--list 1: 1 window(s) kept" in r.stderr and "Traceback" not in r.stderr, r.stderr
    # Nothing to read.
    empty = os.path.join(tmp, "e.csv")
    with open(empty, "w") as f:
        f.write("kind,name,device,stream,start_ns,end_ns,bytes,thread,correlation\n")
    r = subprocess.run([sys.executable, tool, empty], capture_output=True, text=True)
    assert r.returncode != 0 and "no GPU operations" in r.stderr, (r.returncode, r.stderr)
# Marked runs (--marks): threads 11 and 12 each mark a run, overlapping
# (11: 0-30 us, 12: 5-40 us); inside it device 0's kernel E runs 10-12 us
# and, after 2 ms with no GPU operation (two windows by gaps), F 2010-2013
# us; device 1's G 20-25 us. A second run, device 0 alone (50-60 ms,
# kernel H 51-51.004 ms), has device 1 absent. A start left open (a run
# that failed) makes no window.
marked = [
    ("api", "cudaProfilerStart_v4000", 0, 0, 0, 1000, 0, 11, 20),
    ("api", "cudaProfilerStart_v4000", 0, 0, 5000, 6000, 0, 12, 21),
    ("api", "cudaLaunchKernel_v7000", 0, 0, 7000, 8000, 0, 11, 22),
    ("kernel", "_Z1Ev", 0, 7, 10000, 12000, 0, 0, 22),
    ("api", "cudaLaunchKernel_v7000", 0, 0, 2008000, 2009000, 0, 11, 23),
    ("kernel", "_Z1Fv", 0, 7, 2010000, 2013000, 0, 0, 23),
    ("api", "cudaLaunchKernel_v7000", 0, 0, 15000, 16000, 0, 12, 24),
    ("kernel", "_Z1Gv", 0, 8, 20000, 25000, 0, 0, 24),
    ("api", "cudaProfilerStop_v4000", 0, 0, 2020000, 2021000, 0, 11, 25),
    ("api", "cudaProfilerStop_v4000", 0, 0, 2030000, 2040000, 0, 12, 26),
    ("api", "cudaProfilerStart_v4000", 0, 0, 50000000, 50001000, 0, 11, 27),
    ("api", "cudaLaunchKernel_v7000", 0, 0, 50500000, 50501000, 0, 11, 28),
    ("kernel", "_Z1Hv", 0, 7, 51000000, 51004000, 0, 0, 28),
    ("api", "cudaProfilerStop_v4000", 0, 0, 60000000, 60001000, 0, 11, 29),
    ("api", "cudaProfilerStart_v4000", 0, 0, 70000000, 70001000, 0, 11, 30),
    ("api", "cudaLaunchKernel_v7000", 0, 0, 70002000, 70003000, 0, 11, 31),
    ("kernel", "_Z1Iv", 0, 7, 70004000, 70005000, 0, 0, 31),
]
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "m.csv")
    write_trace(path, marked)
    ops, apis = gpu_trace.load(path)
    assert gpu_trace.mark_windows(apis) == [(0, 2040000), (50000000, 60001000)], gpu_trace.mark_windows(apis)
    kernels, busy = gpu_trace.kernel_work(path)
    assert kernels == [[0.005, 0.005], [0.004, 0.0]], kernels
    assert busy == [[0.005, 0.005], [0.004, 0.0]], busy
    assert gpu_trace.kernel_work(path, skip=1)[0] == [[0.004, 0.0]]
    r = subprocess.run([sys.executable, tool, path, "--marks", "--kernels"], capture_output=True, text=True)
    assert r.returncode == 0 and "2 window(s) kept" in r.stdout, (r.stdout, r.stderr)
    # The kernels as CSV: each device's kernel time (the median over the
    # windows where it ran: device 0 5 and 4 us, device 1 5 us), then each
    # operation's us a run over the 2 windows.
    kcsv = os.path.join(tmp, "k.csv")
    r = subprocess.run([sys.executable, tool, path, "--marks", "--kernels-csv", kcsv], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    got = [(g["device"], g["operation"], g["count"], float(g["us_a_run"])) for g in csv.DictReader(open(kcsv))]
    assert got == [("device 0", "(kernels)", "2", 4.5), ("device 1", "(kernels)", "1", 5.0),
                   ("device 0", "H", "1", 2.0), ("device 0", "F", "1", 1.5), ("device 0", "E", "1", 1.0),
                   ("device 1", "G", "1", 2.5)], got
    # By idle gaps the same trace has four windows with kernels.
    r = subprocess.run([sys.executable, tool, path], capture_output=True, text=True)
    assert r.returncode == 0 and "4 window(s) kept" in r.stdout, (r.stdout, r.stderr)
    # No marks at all: a clear error.
    r = subprocess.run([sys.executable, tool, os.path.join(os.path.dirname(path), "m.csv"), "--marks", "--skip", "2"],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "no marked runs" in r.stderr and "Traceback" not in r.stderr, r.stderr
# tools/kernel_ab.py refuses a folder with no tables and a table that is
# not --kernels-csv's (exit 2, no traceback); a case with one build only
# prints that build.
ab_tool = os.path.join(top, "tools", "kernel_ab.py")
with tempfile.TemporaryDirectory() as tmp:
    r = subprocess.run([sys.executable, ab_tool, tmp], capture_output=True, text=True)
    assert r.returncode == 2 and "no CASE__old|new__REP.csv tables" in r.stderr, r.stderr
    with open(os.path.join(tmp, "x__new__1.csv"), "w") as f:
        f.write("device,operation,count,us_a_run\ndevice 0,(kernels),3,7.5\ndevice 0,K,3,7.5\n")
    r = subprocess.run([sys.executable, ab_tool, tmp], capture_output=True, text=True)
    assert r.returncode == 0 and "new  0.0075  median 0.0075" in r.stdout and "new / old" not in r.stdout, r.stdout
    with open(os.path.join(tmp, "x__old__1.csv"), "w") as f:
        f.write("window,device,span\n0,device 0,1\n")
    r = subprocess.run([sys.executable, ab_tool, tmp], capture_output=True, text=True)
    assert r.returncode == 2 and "not a gpu_trace.py --kernels-csv table" in r.stderr and "Traceback" not in r.stderr, \
        r.stderr
print("gpu_trace: ok")
