#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# gr_scale end to end on CPU devices: the CI strong and weak configs run,
# validate, and write a row per case (speedup 1.0 on one device, every
# device count present) and real PNG plots; a bad config exits 2 naming the
# key; a wrong answer (GR_FAULT_RESULT=1) or a failing case exits 1 with the
# outputs still written; gr_run's phases are read when the report has them.
import csv
import json
import os
import struct
import subprocess
import sys
import tempfile

top, gr_run, data = sys.argv[1], sys.argv[2], sys.argv[3]
scale = os.path.join(top, "tools", "gr_scale.py")
configs = os.path.join(top, "configs", "scaling")


def run(config, out, *extra, env=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([sys.executable, scale, config, "--gr-run", gr_run, "--out-dir", out, "--data-dir", data,
                           "--cpu"] + list(extra), capture_output=True, text=True, env=e)


def rows_of(out):
    with open(os.path.join(out, "scale.csv"), newline="") as f:
        return list(csv.DictReader(f))


def check_png(path):
    # A real image: the signature, an IHDR chunk first with a plausible
    # size, an IEND chunk last, and more than a few bytes of drawing.
    with open(path, "rb") as f:
        b = f.read()
    assert b[:8] == b"\x89PNG\r\n\x1a\n", path
    assert b[12:16] == b"IHDR", path
    w, h = struct.unpack(">II", b[16:24])
    assert w >= 300 and h >= 200, (path, w, h)
    assert b[-8:-4] == b"IEND", path
    assert len(b) > 10000, (path, len(b))


def check_rows(rows, kind, counts, graphs):
    assert rows, rows
    for row in rows:
        assert row["kind"] == kind, row
        assert row["status"] == "ok" and row["valid"] == "true", row
        assert float(row["median_ms"]) > 0 and float(row["min_ms"]) <= float(row["max_ms"]), row
        assert float(row["speedup"]) > 0 and float(row["efficiency"]) > 0, row
        assert row["graph"] == graphs[int(row["devices"])], row
        assert float(row["peak_mib_max"]) > 0, row
        if row["devices"] == "1":
            assert float(row["speedup"]) == 1.0 and float(row["efficiency"]) == 1.0, row
            assert float(row["bytes_per_run"]) == 0, row
        else:
            assert row["transport"] == "host" and row["partitioner"] == "random", row
            assert float(row["bytes_per_run"]) > 0 and float(row["bytes_per_iter"]) > 0, row
            assert len(row["peak_mib"].split(";")) == int(row["devices"]), row
            split = sum(float(row[c + "_ms"]) for c in ("compute", "package", "transfer", "combine", "wait"))
            assert split > 0, row
    for prim in ("bfs", "dobfs"):
        got = sorted(int(r["devices"]) for r in rows if r["primitive"] == prim)
        assert got == counts, (prim, got)


with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "strong")
    r = run(os.path.join(configs, "ci-strong.json"), out)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = rows_of(out)
    check_rows(rows, "strong", [1, 2, 3], {n: "kron:12:8" for n in (1, 2, 3)})
    rep = json.load(open(os.path.join(out, "scale.json")))
    assert len(rep["rows"]) == len(rows) and rep["config"]["kind"] == "strong", rep["config"]
    assert sorted(rep["plots"]) == ["bytes-per-iteration.png", "speedup.png", "time-split.png"], rep["plots"]
    for row in rep["rows"]:
        assert row["valid"] is True and len(row["peak_bytes"]) == row["devices"], row
        if row["devices"] > 1:
            assert len(row["split_per_device"]) == row["devices"] and any(row["level_bytes"]), row
    for name in rep["plots"]:
        check_png(os.path.join(out, name))
    assert "strong scaling" in r.stdout and "med ms" in r.stdout and "speedup" in r.stdout, r.stdout
    assert r.stdout.strip().splitlines()[-1].startswith("dobfs"), r.stdout

    out = os.path.join(d, "weak")
    r = run(os.path.join(configs, "ci-weak.json"), out)
    assert r.returncode == 0, r.stdout + r.stderr
    check_rows(rows_of(out), "weak", [1, 2, 4], {1: "kron:10:8", 2: "kron:11:8", 4: "kron:12:8"})
    for name in ("weak-time.png", "time-split.png", "bytes-per-iteration.png"):
        check_png(os.path.join(out, name))
    assert not os.path.exists(os.path.join(out, "speedup.png"))

    # --turns: every row has its devices' work and the model's time, the
    # baseline's ratios are 1, and the ratios are the rows' own figures
    # over the baseline's work; the work table is printed.
    out = os.path.join(d, "turns")
    r = run(os.path.join(configs, "ci-strong.json"), out, "--turns", "--no-plots", "--link-gbs", "1",
            "--barrier-us", "2")
    assert r.returncode == 0, r.stdout + r.stderr
    rows = rows_of(out)
    check_rows(rows, "strong", [1, 2, 3], {n: "kron:12:8" for n in (1, 2, 3)})
    assert "work per device" in r.stdout and "model x" in r.stdout, r.stdout
    for prim in ("bfs", "dobfs"):
        mine = {int(x["devices"]): x for x in rows if x["primitive"] == prim}
        base = float(mine[1]["work_max_ms"])
        assert base > 0 and float(mine[1]["work_max_ratio"]) == 1.0, mine[1]
        assert float(mine[1]["model_speedup"]) == 1.0, mine[1]
        for n, x in mine.items():
            assert "--turns --timeline" in x["command"] and x["logical"] == "false", x
            wmax, wsum = float(x["work_max_ms"]), float(x["work_sum_ms"])
            assert 0 < wmax <= wsum + 1e-9 and float(x["model_ms"]) > 0, x
            assert abs(float(x["work_max_ratio"]) - wmax / base) < 1e-4 * wmax / base, x
            assert abs(float(x["work_sum_ratio"]) - wsum / base) < 1e-4 * wsum / base, x
            assert abs(float(x["model_speedup"]) - float(mine[1]["model_ms"]) / float(x["model_ms"])) < 1e-3, x
            if n > 1:
                # 1 GB/s moves a few hundred kB in a few hundred microseconds:
                # the link's share shows in the model, beyond the work.
                assert float(x["exchange_max_ms"]) > 0, x
                assert float(x["model_ms"]) > float(x["work_max_ms"]) / n, x
    rep = json.load(open(os.path.join(out, "scale.json")))
    for row in rep["rows"]:
        js = json.load(open(os.path.join(out, row["report"])))
        assert js["turns"] is True and all(len(x["devices"]) == row["devices"] for x in js["runs"]), row
        assert all(x["timeline"] and all("work_ms" in e and "bytes_in" in e for e in x["timeline"])
                   for x in js["runs"]), row

    # --model: the row's times come from the measured run (no turns,
    # validated) and its work figures and model from a second run that took
    # turns; both speedups are printed side by side.
    out = os.path.join(d, "model")
    r = run(os.path.join(configs, "ci-strong.json"), out, "--model", "--no-plots", "--devices", "1,2")
    assert r.returncode == 0, r.stdout + r.stderr
    rows = rows_of(out)
    check_rows(rows, "strong", [1, 2], {n: "kron:12:8" for n in (1, 2)})
    assert "measured x" in r.stdout and "model/meas" in r.stdout, r.stdout
    rep = json.load(open(os.path.join(out, "scale.json")))
    for row in rep["rows"]:
        assert "--turns" not in row["command"] and "--validate-first" in row["command"], row
        assert "--turns --timeline" in row["model_command"], row
        assert "--validate-first" not in row["model_command"], row
        assert row["valid"] is True and row["model_ms"] > 0 and row["work_max_ms"] > 0, row
        assert json.load(open(os.path.join(out, row["report"])))["turns"] is False, row
        assert json.load(open(os.path.join(out, row["model_report"])))["turns"] is True, row
        if row["devices"] > 1:
            assert row["speedup"] is not None and row["model_speedup"] is not None, row

    # --primitives, --partitioners and --graph replace the config's keys;
    # a bad one exits 2 naming the option.
    out = os.path.join(d, "override")
    r = run(os.path.join(configs, "ci-strong.json"), out, "--no-plots", "--devices", "1,2", "--primitives", "bfs",
            "--partitioners", "range", "--graph", "kron:11:8")
    assert r.returncode == 0, r.stdout + r.stderr
    rows = rows_of(out)
    assert [(x["primitive"], x["devices"], x["partitioner"], x["graph"]) for x in rows] == \
        [("bfs", "1", "-", "kron:11:8"), ("bfs", "2", "range", "kron:11:8")], rows
    for bad, opt in ((("--primitives", "bfs,"), "--primitives"), (("--graph", ""), "--graph")):
        r = run(os.path.join(configs, "ci-strong.json"), out, "--no-plots", *bad)
        assert r.returncode == 2 and opt in r.stderr, r.stdout + r.stderr
    r = run(os.path.join(configs, "ci-weak.json"), out, "--no-plots", "--graph", "kron:11:8")
    assert r.returncode == 2 and "--graph" in r.stderr, r.stdout + r.stderr
    # Kernel times per device come from GPUs' timelines: on CPU devices, or
    # without --turns, a clear refusal.
    r = run(os.path.join(configs, "ci-strong.json"), out, "--no-plots", "--turns", "--trace-lib", gr_run)
    assert r.returncode == 2 and "--trace-lib" in r.stderr and "Traceback" not in r.stderr, r.stdout + r.stderr

    # Device counts above --max-devices are skipped with a note.
    out = os.path.join(d, "max")
    r = run(os.path.join(configs, "ci-strong.json"), out, "--max-devices", "2", "--no-plots")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "skipped 3 devices" in r.stderr, r.stderr
    assert sorted({int(x["devices"]) for x in rows_of(out)}) == [1, 2]

    # A wrong answer: exit 1, the rows still written and marked; --no-plots
    # writes no PNG.
    out = os.path.join(d, "fault")
    r = run(os.path.join(configs, "ci-strong.json"), out, "--devices", "1,2", "--no-plots",
            env={"GR_FAULT_RESULT": "1"})
    assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
    rows = rows_of(out)
    assert len(rows) == 4 and all(x["status"] == "INVALID" and x["valid"] == "false" for x in rows), rows
    assert "NO INVALID" in r.stdout, r.stdout
    assert not [n for n in os.listdir(out) if n.endswith(".png")]

    # A case gr_run refuses (an unknown partitioner): exit 1 after the rest ran.
    bad_part = os.path.join(d, "bad-part.json")
    with open(bad_part, "w") as f:
        json.dump({"kind": "strong", "graph": "kron:9:8", "devices": [1, 2], "primitives": ["bfs"],
                   "partitioners": ["nosuch"], "runs": 2}, f)
    out = os.path.join(d, "bad-part")
    r = run(bad_part, out, "--no-plots")
    assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
    rows = rows_of(out)
    assert [x["status"] for x in rows][0] == "ok" and rows[1]["status"].startswith("FAILED"), rows

    # The GPU path without a GPU: a stand-in gr_run answers the device
    # probe with 2 GPUs and runs the cases on CPU devices, refusing any run
    # whose environment lacks NCCL_NVLS_ENABLE=0. Counts above 2 are
    # skipped with a note, and so is NCCL where the device map puts two
    # devices on one GPU.
    fake_dir = os.path.join(d, "fake")
    os.makedirs(fake_dir)
    os.symlink(os.path.join(os.path.dirname(os.path.abspath(gr_run)), "gr_gen"), os.path.join(fake_dir, "gr_gen"))
    fake = os.path.join(fake_dir, "gr_run")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\n"
                "case \" $* \" in *\" --gpus 1024 \"*)\n"
                "  echo 'gr_run: 1024 GPUs were asked for, but 2 exist on this machine' >&2; exit 2;; esac\n"
                "[ \"$NCCL_NVLS_ENABLE\" = 0 ] || { echo 'NCCL_NVLS_ENABLE is not 0' >&2; exit 3; }\n"
                f"exec '{os.path.abspath(gr_run)}' --cpu \"$@\"\n")
    os.chmod(fake, 0o755)
    gpu_cfg = os.path.join(d, "gpu.json")
    with open(gpu_cfg, "w") as f:
        json.dump({"kind": "strong", "graph": "kron:9:8", "devices": [1, 2, 4], "primitives": ["bfs"],
                   "transports": ["auto", "nccl"], "runs": 2}, f)
    out = os.path.join(d, "gpu")
    r = subprocess.run([sys.executable, scale, gpu_cfg, "--gr-run", fake, "--out-dir", out, "--device-map", "0,0",
                        "--no-plots"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "skipped 4 devices: 2 devices here (GPUs counted by gr_run, GR_DEVICE_MAP=0,0)" in r.stderr, r.stderr
    assert "skipped nccl on 2 devices" in r.stderr, r.stderr
    assert [(x["devices"], x["transport"]) for x in rows_of(out)] == [("1", "-"), ("2", "host")], rows_of(out)
    # Two devices on one GPU are logical: no measured speedup, and the
    # plots say so.
    assert [x["logical"] for x in rows_of(out)] == ["false", "true"], rows_of(out)
    assert rows_of(out)[1]["speedup"] == "" and rows_of(out)[1]["efficiency"] == "", rows_of(out)
    assert "2 logical devices on 1 GPU" in json.load(open(os.path.join(out, "scale.json")))["devices_here"]

    # Bad configs: exit 2 before anything runs, naming the key at fault.
    bad = [
        ({"kind": "strong", "graph": "kron:9:8", "devices": [1, 2], "primitives": ["bfs"], "trasnports": ["p2p"]},
         "trasnports"),
        ({"graph": "kron:9:8", "devices": [1, 2], "primitives": ["bfs"]}, "kind"),
        ({"kind": "strong", "graph": "kron:9:8", "devices": [1, "two"], "primitives": ["bfs"]}, "devices"),
        ({"kind": "strong", "graph": "kron:9:8", "devices": [1, 2], "primitives": []}, "primitives"),
        ({"kind": "strong", "devices": [1, 2], "primitives": ["bfs"]}, "graph"),
        ({"kind": "strong", "graph": "kron:9:8", "devices": [1, 2], "primitives": ["bfs"], "runs": 0}, "runs"),
        ({"kind": "weak", "graphs": {"1": "kron:9:8", "2": "kron:10:8"}, "devices": [1, 4],
          "primitives": ["bfs"]}, "devices"),
        ({"kind": "weak", "graphs": {"one": "kron:9:8"}, "primitives": ["bfs"]}, "graphs"),
        ({"kind": "strong", "graph": "kron:9:8", "devices": [1], "primitives": ["bfs"],
          "primitive_args": {"sssp": []}}, "primitive_args"),
    ]
    for i, (cfg, key) in enumerate(bad):
        path = os.path.join(d, f"bad{i}.json")
        with open(path, "w") as f:
            json.dump(cfg, f)
        out = os.path.join(d, f"bad{i}")
        r = run(path, out)
        assert r.returncode == 2, (cfg, r.returncode, r.stdout, r.stderr)
        assert f"'{key}'" in r.stderr, (key, r.stderr)
        assert not os.path.exists(os.path.join(out, "scale.csv")), cfg
    path = os.path.join(d, "broken.json")
    with open(path, "w") as f:
        f.write("{\"kind\": \"strong\",")
    r = run(path, os.path.join(d, "broken"))
    assert r.returncode == 2 and "not valid JSON" in r.stderr, (r.returncode, r.stderr)

# gr_run's phases, when its report has them, reach the row.
sys.path.insert(0, os.path.join(top, "tools"))
import gr_scale  # noqa: E402

report = {"graph": {"vertices": 4, "edges": 3}, "devices": [{"name": "x", "peak_bytes": 2**20}],
          "runs": [{"ms": 2.0, "iterations": 2, "levels": []}], "summary": {"median_gteps": 0.1},
          "phases": {"load_s": 0.5, "partition_s": 0.25, "total_s": 1.5}}
row = gr_scale.summarize(report)
assert row["load_s"] == 0.5 and row["total_s"] == 1.5 and row["setup_s"] is None, row
assert row["phases"] == report["phases"] and row["compute_ms"] == 2.0, row
del report["phases"]
row = gr_scale.summarize(report)
assert row["phases"] is None and row["load_s"] is None, row

# The model's arithmetic: per iteration the slowest device's work less its
# transfer, plus its larger byte count over the link and its barriers;
# one device pays no link or barrier.
def step(dev, work, transfer=0.0, out=0, inn=0, barriers=0):
    return {"device": dev, "work_ms": work, "transfer_ms": transfer, "bytes": out, "bytes_in": inn,
            "barriers": barriers}


two = {"timeline": [step(0, 1.0, 0.1, 2_000_000, 1_000_000, 3), step(0, 2.0, 0.0, 0, 4_000_000, 3),
                    step(1, 1.5, 0.2, 1_000_000, 2_000_000, 3), step(1, 0.5, 0.0, 4_000_000, 0, 3)]}
# Iteration 0: device 0 0.9 + 2 MB / 1 GB/s (2 ms) + 3 x 10 us = 2.93; device 1
# 1.3 + 2 + 0.03 = 3.33. Iteration 1: device 0 2.0 + 4 + 0.03 = 6.03; device 1
# 0.5 + 4 + 0.03 = 4.53. Sum of the slowest: 3.33 + 6.03.
assert abs(gr_scale.model_time(two, 1.0, 10.0) - 9.36) < 1e-9, gr_scale.model_time(two, 1.0, 10.0)
# A faster link and free barriers leave the work: 1.3 + 2.0 plus 2 and 4 MB at 1000 GB/s.
assert abs(gr_scale.model_time(two, 1000.0, 0.0) - (1.3 + 0.002 + 2.0 + 0.004)) < 1e-9
one = {"timeline": [step(0, 1.0, 0.0, 5_000_000, 5_000_000, 9), step(0, 0.25)]}
assert gr_scale.model_time(one, 1.0, 10.0) == 1.25
assert gr_scale.model_time({"timeline": []}, 1.0, 1.0) is None
rep = {"turns": True, "runs": [{"devices": [{"work_ms": 3.0, "package_ms": 0.5, "transfer_ms": 0.3,
                                             "combine_ms": 0.2}, {"work_ms": 2.0, "package_ms": 0.1,
                                                                  "transfer_ms": 0.3, "combine_ms": 0.1}],
                                "timeline": two["timeline"]}]}
w = gr_scale.work_figures(rep, 1.0, 10.0)
assert w["work_max_ms"] == 3.0 and w["work_sum_ms"] == 5.0 and abs(w["exchange_max_ms"] - 1.0) < 1e-12, w
assert abs(w["model_ms"] - 9.36) < 1e-9, w
assert gr_scale.work_figures(dict(rep, turns=False), 1.0, 10.0) == {}
# Ratios against the baseline: work over the baseline's work, the model's
# speedup as the baseline's model time over the row's (weak: times devices).
base = {"devices": 1, "work_max_ms": 4.0, "model_ms": 8.0}
row = dict(w, devices=2)
gr_scale.add_work_ratios(row, base, "strong")
assert row["work_max_ratio"] == 0.75 and row["work_sum_ratio"] == 1.25 and row["exchange_ratio"] == 0.25, row
assert abs(row["model_speedup"] - 8.0 / 9.36) < 1e-12, row
gr_scale.add_work_ratios(row, base, "weak")
assert abs(row["model_speedup"] - 2 * 8.0 / 9.36) < 1e-12, row
# Kernel time per device (--trace-lib): per run the slowest device's and
# the devices' sum, medians over the runs, and both against the
# baseline's slowest device.
k = gr_scale.kernel_figures([[1.0, 3.0], [2.0, 2.5], [4.0, 0.0]], [[1.5, 3.5], [2.5, 3.0], [4.5, 0.5]])
assert k == {"kernel_max_ms": 3.0, "kernel_sum_ms": 4.0, "busy_max_ms": 3.5, "kernel_runs": 3}, k
row = dict(k, devices=2)
gr_scale.add_work_ratios(row, {"devices": 1, "kernel_max_ms": 5.0}, "strong")
assert row["kernel_max_ratio"] == 0.6 and row["kernel_sum_ratio"] == 0.8, row
assert gr_scale.kernel_figures([], []) == {"kernel_max_ms": None, "kernel_sum_ms": None, "busy_max_ms": None,
                                           "kernel_runs": 0}
assert gr_scale.logical_devices("0,0,1,1", 2) and not gr_scale.logical_devices("0,1,0,1", 2)
assert not gr_scale.logical_devices(None, 4) and not gr_scale.logical_devices("0,0", 1)

# The trace's run of a case (--trace-lib), with a stand-in for gr_run that
# writes the timeline the library would (GR_GPU_TRACE): two marked runs of
# two devices' threads, kernels of 3 and 1 us in the first, 2 and 2 in the
# second; the library's path reaches it as CUDA_INJECTION64_PATH.
FAKE = r"""
import csv, os, sys
assert "--validate-first" not in sys.argv and os.environ["CUDA_INJECTION64_PATH"].endswith("lib.so")
code = int(os.environ.get("FAKE_EXIT", "0"))
runs = int(os.environ.get("FAKE_RUNS", "2"))
rows, c = [], 0
for r in range(runs):
    t0 = r * 1000000
    for th, us in ((11, (3, 2)[r % 2]), (12, (1, 2)[r % 2])):
        c += 1
        rows.append(("api", "cudaProfilerStart_v4000", 0, 0, t0, t0 + 10, 0, th, c))
        c += 1
        rows.append(("api", "cudaLaunchKernel_v7000", 0, 0, t0 + 100, t0 + 110, 0, th, c))
        rows.append(("kernel", "_Z1Kv", 0, th, t0 + 200, t0 + 200 + us * 1000, 0, 0, c))
    for th in (11, 12):
        c += 1
        rows.append(("api", "cudaProfilerStop_v4000", 0, 0, t0 + 9000, t0 + 9010, 0, th, c))
with open(os.environ["GR_GPU_TRACE"], "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["kind", "name", "device", "stream", "start_ns", "end_ns", "bytes", "thread", "correlation"])
    w.writerows(rows)
sys.exit(code)
"""
with tempfile.TemporaryDirectory() as d:
    fake = os.path.join(d, "fake_gr_run.py")
    with open(fake, "w") as f:
        f.write(FAKE)
    lib = os.path.join(d, "lib.so")
    open(lib, "w").close()
    js = os.path.join(d, "case.json")
    cmd = [sys.executable, fake, "--validate-first", "--json", js]

    class Args:
        trace_lib, timeout = lib, 0

    got = gr_scale.trace_run(cmd, js, dict(os.environ), Args, 2)
    assert got["trace_status"] == "ok" and got["kernel_runs"] == 2, got
    # Run 0: 0.003 and 0.001 ms; run 1: 0.002 and 0.002 (medians of two).
    assert abs(got["kernel_max_ms"] - 0.0025) < 1e-12 and abs(got["kernel_sum_ms"] - 0.004) < 1e-12, got
    got = gr_scale.trace_run(cmd, js, dict(os.environ, FAKE_RUNS="3"), Args, 2)
    assert got == {"trace_status": "3 marked runs in the trace, 2 expected"}, got
    got = gr_scale.trace_run(cmd, js, dict(os.environ, FAKE_EXIT="3"), Args, 2)
    assert got["trace_status"].startswith("exit 3"), got
print("gr_scale: ok")
