#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""gr_scale: strong and weak scaling experiments with gr_run. Runs a config
from configs/scaling/ on 1..N devices, validates the first run of every case
and writes a row per case (times, speedup, parallel efficiency, the time
split per device, bytes moved, peak memory, gr_run's phases) to scale.csv
and scale.json, plots to PNG files, and prints a table last.

    tools/gr_scale.py configs/scaling/strong-kron25.json --gr-run build/tools/gr_run \\
        --out-dir scale-out [--devices 1,2,4] [--runs N] [--no-plots]
    tools/gr_scale.py configs/scaling/ci-strong.json --cpu --out-dir scale-out
    tools/gr_scale.py configs/scaling/strong-kron25.json --device-map 0,0,0,0 --turns
    tools/gr_scale.py configs/scaling/strong-kron25.json --primitives bfs,pr --transports p2p --graph kron:22:16

--primitives, --transports, --partitioners and --graph (strong configs)
replace the config's keys for one experiment.

--turns runs every case with gr_run --turns --timeline: the devices take
turns, so each one's work per iteration is its own even where several
share one GPU (--device-map with repeats: logical devices), and every row
gets the work figures and the model's prediction of its time on GPUs of
their own (model_time below; --link-gbs, --barrier-us). Rows of logical
devices carry no measured speedup (their devices share a GPU); plots and
tables say which figures are measured and which are the model's.

--trace-lib LIB (GPUs; needs --turns) runs every case once more under
the GPU timeline library (tools/trace/gr_gpu_trace.c, built as
libgr_gpu_trace.so; not validated, the same sources): each run's kernel
time per device, its kernels' durations on the GPU and nothing of the
host's launches and waits, read from the runs gr_run marks
(gpu_trace.py --marks). Rows gain the slowest device's kernel time, all
devices' summed, and both against the baseline's (kernel_max_ratio,
kernel_sum_ratio); the work figures stay those of the untraced run (the
trace slows the host's calls).

GPUs are counted by asking gr_run for more than exist (it answers with the
number it sees, GR_DEVICE_MAP included), else with nvidia-smi -L; device
counts beyond them are skipped with a note. --cpu runs CPU devices instead
(any count). Generator specs are generated once (gr_gen, binary format) and
reused by every device count. Every run has NCCL_NVLS_ENABLE=0.

Exit codes: 0 every case ran and validated, 1 a case failed or did not
validate (the outputs are still written), 2 a bad config or command line
(the message names the bad key or option)."""

import argparse
import csv
import json
import math
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import time

from gr_driver import default_data_dir, prepare_graph, safe_name

SPLIT = ("compute", "package", "transfer", "combine", "wait")
PHASES = ("start_s", "load_s", "partition_s", "build_s", "setup_s", "runs_s", "extract_s", "validate_s", "total_s")
COLUMNS = (["kind", "primitive", "graph", "vertices", "edges", "devices", "transport", "transport_requested",
            "partitioner", "status",
            "valid", "runs", "median_ms", "min_ms", "max_ms", "speedup", "efficiency", "baseline_devices",
            "gteps", "iterations"] + [c + "_ms" for c in SPLIT]
           + ["bytes_per_run", "bytes_per_iter", "peak_mib_max", "peak_mib"] + list(PHASES)
           + ["logical", "work_max_ms", "work_sum_ms", "work_max_ratio", "work_sum_ratio", "exchange_max_ms",
              "exchange_ratio", "model_ms", "model_speedup", "model_status", "kernel_max_ms", "kernel_sum_ms",
              "busy_max_ms", "kernel_max_ratio", "kernel_sum_ratio", "kernel_runs", "trace_status"]
           + ["device", "command"])


class ConfigError(Exception):
    pass


def _string_list(cfg, key, default=None, allow_empty=False):
    v = cfg.get(key, default)
    if (not isinstance(v, list) or (not v and not allow_empty)
            or not all(isinstance(x, str) and x for x in v)):
        what = "a list of strings" if allow_empty else "a non-empty list of non-empty strings"
        raise ConfigError(f"'{key}' must be {what}, got {json.dumps(v)}")
    return list(v)


def _device_list(v, key):
    if (not isinstance(v, list) or not v
            or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in v)):
        raise ConfigError(f"'{key}' must be a non-empty list of device counts (whole numbers >= 1), "
                          f"got {json.dumps(v)}")
    if len(set(v)) != len(v):
        raise ConfigError(f"'{key}' lists a device count twice: {json.dumps(v)}")
    return sorted(v)


COMMON_KEYS = ("name", "description", "kind", "primitives", "transports", "partitioners", "runs", "args",
               "primitive_args", "cpu", "devices")
KIND_KEYS = {"strong": ("graph",), "weak": ("graphs",)}


def load_config(path):
    """Reads and checks a scaling config; returns it with every default
    filled in. A ConfigError names the key at fault."""
    try:
        with open(path) as f:
            cfg = json.load(f)
    except OSError as e:
        raise ConfigError(f"cannot read it: {e.strerror}")
    except json.JSONDecodeError as e:
        raise ConfigError(f"not valid JSON: {e}")
    if not isinstance(cfg, dict):
        raise ConfigError("the top level must be an object")
    kind = cfg.get("kind")
    if kind not in KIND_KEYS:
        raise ConfigError(f"'kind' must be \"strong\" or \"weak\", got {json.dumps(kind)}")
    known = COMMON_KEYS + KIND_KEYS[kind]
    for k in cfg:
        if k not in known:
            raise ConfigError(f"unknown key '{k}' (a {kind} scaling config takes: {', '.join(known)})")
    for k in ("name", "description"):
        if k in cfg and not isinstance(cfg[k], str):
            raise ConfigError(f"'{k}' must be a string")
    out = {"name": cfg.get("name", os.path.splitext(os.path.basename(path))[0]), "kind": kind}
    if "description" in cfg:
        out["description"] = cfg["description"]
    if kind == "strong":
        if "graph" not in cfg:
            raise ConfigError("missing 'graph' (a strong scaling config runs one graph on every device count)")
        if not isinstance(cfg["graph"], str) or not cfg["graph"]:
            raise ConfigError(f"'graph' must be a generator spec, a path or @name, got {json.dumps(cfg['graph'])}")
        if "devices" not in cfg:
            raise ConfigError("missing 'devices' (the device counts, e.g. [1, 2, 4, 8])")
        out["graph"] = cfg["graph"]
        out["devices"] = _device_list(cfg["devices"], "devices")
    else:
        g = cfg.get("graphs")
        if g is None:
            raise ConfigError("missing 'graphs' (a map from device count to graph, e.g. {\"1\": \"kron:24:16\"})")
        if not isinstance(g, dict) or not g:
            raise ConfigError("'graphs' must be a non-empty object from device count to graph")
        graphs = {}
        for k, v in g.items():
            if not re.fullmatch(r"[1-9][0-9]*", k):
                raise ConfigError(f"'graphs': key {json.dumps(k)} is not a device count")
            if not isinstance(v, str) or not v:
                raise ConfigError(f"'graphs': the graph for {k} devices must be a non-empty string")
            graphs[int(k)] = v
        out["graphs"] = dict(sorted(graphs.items()))
        out["devices"] = _device_list(cfg.get("devices", sorted(graphs)), "devices")
        for n in out["devices"]:
            if n not in graphs:
                raise ConfigError(f"'devices': {n} devices have no graph in 'graphs'")
    out["primitives"] = _string_list(cfg, "primitives")
    out["transports"] = _string_list(cfg, "transports", ["auto"])
    out["partitioners"] = _string_list(cfg, "partitioners", ["random"])
    out["args"] = _string_list(cfg, "args", [], allow_empty=True)
    runs = cfg.get("runs", 8)
    if not isinstance(runs, int) or isinstance(runs, bool) or runs < 1:
        raise ConfigError(f"'runs' must be a whole number >= 1, got {json.dumps(runs)}")
    out["runs"] = runs
    pa = cfg.get("primitive_args", {})
    if not isinstance(pa, dict):
        raise ConfigError("'primitive_args' must be an object from primitive to a list of arguments")
    for p in pa:
        if p not in out["primitives"]:
            raise ConfigError(f"'primitive_args': '{p}' is not one of the config's primitives")
        _string_list(pa, p, allow_empty=True)
    out["primitive_args"] = pa
    cpu = cfg.get("cpu", False)
    if not isinstance(cpu, bool):
        raise ConfigError(f"'cpu' must be true or false, got {json.dumps(cpu)}")
    out["cpu"] = cpu
    return out


def override_config(cfg, args):
    """--primitives, --transports, --partitioners and --graph in place of
    the config's keys (primitive_args kept for the primitives still run).
    A ConfigError names the bad option."""
    for opt, key in (("primitives", "primitives"), ("transports", "transports"), ("partitioners", "partitioners")):
        text = getattr(args, opt)
        if text is None:
            continue
        names = text.split(",")
        if not all(names):
            raise ConfigError(f"--{opt} {json.dumps(text)}: a comma-separated list of names, none empty")
        cfg[key] = names
    cfg["primitive_args"] = {k: v for k, v in cfg["primitive_args"].items() if k in cfg["primitives"]}
    if args.graph is not None:
        if cfg["kind"] != "strong" or not args.graph:
            raise ConfigError("--graph: a strong scaling config's graph (a generator spec, a path or @name)")
        cfg["graph"] = args.graph


def count_gpus(gr_run, env):
    """The GPUs gr_run can use: asked for more than any machine has, gr_run
    names the number it sees (a GR_DEVICE_MAP counted as it maps, a build
    without CUDA as none). nvidia-smi -L is the fallback should that answer
    change its wording. Returns (count, how)."""
    try:
        r = subprocess.run([gr_run, "--gpus", "1024", "--quiet", "--gen", "grid2d:2x2"], env=env,
                           capture_output=True, text=True, timeout=600)
        m = re.search(r"but (\d+) exists? on this machine", r.stderr)
        if m:
            return int(m.group(1)), "counted by gr_run"
        if r.returncode == 0:
            return 1024, "counted by gr_run"
        if "GR_DEVICE_MAP" in r.stderr:
            raise ConfigError(r.stderr.strip())
    except (OSError, subprocess.TimeoutExpired):
        pass
    try:
        smi = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
        return sum(1 for line in smi.stdout.splitlines() if line.startswith("GPU ")), "counted by nvidia-smi -L"
    except (OSError, subprocess.TimeoutExpired):
        return 0, "neither gr_run nor nvidia-smi -L names one"


def plan_cases(cfg, args, limit, notes):
    """One case per primitive and device count; above one device, one per
    partitioner and transport too. The one-device case is shared by every
    transport and partitioner of its primitive: it runs once."""
    devices = cfg["devices"]
    if args.devices:
        devices = args.devices
        if cfg["kind"] == "weak":
            for n in devices:
                if n not in cfg["graphs"]:
                    raise ConfigError(f"--devices: {n} devices have no graph in the config's 'graphs'")
    run_on = [n for n in devices if n <= limit]
    if len(run_on) < len(devices):
        skipped = [n for n in devices if n > limit]
        notes.append(f"skipped {', '.join(map(str, skipped))} device{'s' if skipped != [1] else ''}: "
                     f"{limit} {'device' if limit == 1 else 'devices'} here ({args.limit_how})")
    transports = cfg["transports"]
    if args.cpu_devices:
        # CPU devices exchange through host memory whatever the GPU config
        # asked for; the host transport stands in for each.
        other = [t for t in transports if t not in ("host", "auto")]
        if other:
            notes.append(f"CPU devices: transport{'s' if len(other) > 1 else ''} {', '.join(other)} "
                         "replaced by host")
        transports = ["host"]
    mapped = args.device_map.split(",") if args.device_map else []
    cases = []
    for prim in cfg["primitives"]:
        for n in run_on:
            graph = cfg["graph"] if cfg["kind"] == "strong" else cfg["graphs"][n]
            if n == 1:
                cases.append({"primitive": prim, "devices": 1, "graph": graph, "transport": None,
                              "partitioner": None})
                continue
            for part in cfg["partitioners"]:
                for t in transports:
                    if t == "nccl" and mapped and len(set(mapped[:n])) < n:
                        note = (f"skipped nccl on {n} devices: GR_DEVICE_MAP puts two devices on one GPU, "
                                "which NCCL refuses")
                        if note not in notes:
                            notes.append(note)
                        continue
                    cases.append({"primitive": prim, "devices": n, "graph": graph, "transport": t,
                                  "partitioner": part})
    return cases


def _median(xs):
    xs = list(xs)
    return statistics.median(xs) if xs else None


def model_time(run, link_gbs, barrier_us):
    """The model's time for one run on GPUs of their own, in ms, from a run
    of gr_run --turns --timeline (its JSON "runs" entry): per iteration the
    slowest device's work (work_ms: its kernels, launches and host waits,
    timed alone), less the transfer it measured (copies between devices
    sharing a GPU cost nothing like a link's), plus the larger of the bytes
    it sent and received over a link of link_gbs GB/s per direction, plus
    barrier_us per barrier it passed (the host's crossing; one device has
    none); iterations add up (bulk-synchronous). Returns None without a
    timeline."""
    tl = run.get("timeline") or []
    if not tl:
        return None
    per_dev = {}
    for e in tl:
        per_dev.setdefault(e["device"], []).append(e)
    n_dev = len(per_dev)
    steps = max(len(v) for v in per_dev.values())
    total = 0.0
    for k in range(steps):
        slowest = 0.0
        for entries in per_dev.values():
            if k >= len(entries):
                continue
            e = entries[k]
            t = max(0.0, e["work_ms"] - e.get("transfer_ms", 0.0))
            if n_dev > 1:
                moved = max(e.get("bytes", 0), e.get("bytes_in", 0))
                t += moved / (link_gbs * 1e9) * 1e3 + e.get("barriers", 0) * barrier_us * 1e-3
            slowest = max(slowest, t)
        total += slowest
    return total


def work_figures(rep, link_gbs, barrier_us):
    """From a --turns report: the medians over the runs of the slowest
    device's work, all devices' work summed, the largest exchange time of a
    device (package, transfer and combine) and the model's time."""
    rs = rep.get("runs", [])
    if not rep.get("turns") or not rs or not all(x.get("devices") for x in rs):
        return {}
    wmax, wsum, xmax, model = [], [], [], []
    for x in rs:
        w = [d["work_ms"] for d in x["devices"]]
        wmax.append(max(w))
        wsum.append(sum(w))
        xmax.append(max(d["package_ms"] + d["transfer_ms"] + d["combine_ms"] for d in x["devices"]))
        m = model_time(x, link_gbs, barrier_us)
        if m is not None:
            model.append(m)
    return {"work_max_ms": _median(wmax), "work_sum_ms": _median(wsum), "exchange_max_ms": _median(xmax),
            "model_ms": _median(model)}


def summarize(rep):
    """A row's measurements from gr_run's --json report: medians over the
    runs; the time split per device is the median per device and component,
    then the mean over the devices (on one device the whole run counts as
    compute); bytes are what every device sent, per run and per iteration."""
    rs = rep.get("runs", [])
    ms = [x["ms"] for x in rs]
    row = {
        "vertices": rep.get("graph", {}).get("vertices"),
        "edges": rep.get("graph", {}).get("edges"),
        "runs": len(rs),
        "median_ms": _median(ms),
        "min_ms": min(ms) if ms else None,
        "max_ms": max(ms) if ms else None,
        "gteps": rep.get("summary", {}).get("median_gteps"),
        "iterations": _median(x["iterations"] for x in rs),
    }
    md = rep.get("multi_device")
    if md:
        row["transport"] = md.get("transport", row.get("transport"))
        row["partitioner"] = md.get("partitioner", row.get("partitioner"))
    per_dev = []
    if rs and rs[0].get("devices"):
        for d in range(len(rs[0]["devices"])):
            per_dev.append({c: statistics.median(x["devices"][d][c + "_ms"] for x in rs) for c in SPLIT})
        for c in SPLIT:
            row[c + "_ms"] = statistics.mean(p[c] for p in per_dev)
        sent = [sum(sum(dv.get("bytes_to", [])) for dv in x["devices"]) for x in rs]
    else:
        for c in SPLIT:
            row[c + "_ms"] = row["median_ms"] if c == "compute" else 0.0
        sent = [0 for _ in rs]
    row["split_per_device"] = per_dev
    row["bytes_per_run"] = _median(sent)
    row["bytes_per_iter"] = _median(b / max(1, x["iterations"]) for b, x in zip(sent, rs))
    # The first run starts from the same source on every device count (the
    # seeded sequence), so its levels line up across rows.
    row["level_bytes"] = [lv.get("bytes", 0) for lv in rs[0].get("levels", [])] if rs else []
    peaks = [d.get("peak_bytes", 0) for d in rep.get("devices", [])]
    row["peak_bytes"] = peaks
    row["peak_mib_max"] = max(peaks) / 2**20 if peaks else None
    row["peak_mib"] = ";".join(f"{p / 2**20:.1f}" for p in peaks)
    phases = rep.get("phases")
    row["phases"] = phases if isinstance(phases, dict) else None
    for k in PHASES:
        row[k] = row["phases"].get(k) if row["phases"] else None
    devs = rep.get("devices", [])
    row["device"] = devs[0].get("name", "") if devs else ""
    return row


def logical_devices(device_map, n):
    """Whether n devices under GR_DEVICE_MAP share a GPU (logical devices:
    real kernels, but no speedup to measure)."""
    mapped = device_map.split(",")[:n] if device_map else []
    return n > 1 and len(set(mapped)) < len(mapped)


def run_case(case, cfg, args, env, graph_args, reports_dir):
    n = case["devices"]
    label = f"{case['primitive']}-{n}dev"
    if n > 1:
        label += f"-{case['transport']}-{case['partitioner']}"
    js = os.path.join(reports_dir, safe_name(f"{cfg['kind']}-{label}-{case['graph']}", ".-") + ".json")
    cmd = [args.gr_run, "--primitive", case["primitive"], "--gpus", str(n), "--runs", str(args.runs or cfg["runs"]),
           "--validate-first", "--quiet", "--json", js]
    if args.no_validate:
        cmd.remove("--validate-first")
    if args.cpu_devices:
        cmd.append("--cpu")
    if n > 1:
        cmd += ["--transport", case["transport"], "--partitioner", case["partitioner"]]
    cmd += cfg["args"] + cfg["primitive_args"].get(case["primitive"], []) + shlex.split(args.extra) + graph_args
    row = {"kind": cfg["kind"], "primitive": case["primitive"], "graph": case["graph"], "devices": n,
           "transport": case["transport"] or "-", "transport_requested": case["transport"] or "-",
           "partitioner": case["partitioner"] or "-", "command": shlex.join(cmd)}
    if args.turns:
        _take_turns(cmd)
        row["command"] = shlex.join(cmd)
    row["logical"] = logical_devices(args.device_map, n)
    if os.path.exists(js):
        os.unlink(js)
    try:
        r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=args.timeout or None)
    except subprocess.TimeoutExpired:
        row.update(status=f"FAILED: over --timeout {args.timeout} s", valid=False)
        return row
    # Exit 1 is a run that completed but failed validation: its report is
    # still written and the row is marked INVALID.
    if r.returncode not in (0, 1) or not os.path.exists(js):
        msg = r.stderr.strip().splitlines()
        row.update(status=f"FAILED (exit {r.returncode}): {msg[-1] if msg else 'no report'}"[:300], valid=False)
        return row
    with open(js) as f:
        rep = json.load(f)
    row.update(summarize(rep))
    row.update(work_figures(rep, args.link_gbs, args.barrier_us))
    if args.model and not args.turns:
        row.update(model_run(cmd, js, env, args))
    if args.trace_lib:
        row.update(trace_run(cmd, js, env, args, args.runs or cfg["runs"]))
    if args.no_validate:
        valid = r.returncode == 0
        row["valid"] = None
        row["status"] = "ok (not validated)" if valid else "INVALID"
    else:
        valid = bool(rep.get("summary", {}).get("validation_passed", False)) and r.returncode == 0
        row["valid"] = valid
        row["status"] = "ok" if valid else "INVALID"
    row["report"] = os.path.relpath(js, args.out_dir)
    return row


def _take_turns(cmd):
    """gr_run's devices take turns and keep a timeline (before --quiet)."""
    at = cmd.index("--quiet")
    cmd[at:at] = ["--turns", "--timeline"]


def _run_again(cmd, env, args, made, what):
    """Runs a case's extra command (not validated): None once it ran and
    wrote `made`, else why not (a row's status)."""
    if os.path.exists(made):
        os.unlink(made)
    try:
        r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=args.timeout or None)
    except subprocess.TimeoutExpired:
        return f"over --timeout {args.timeout} s"
    if r.returncode != 0 or not os.path.exists(made):
        msg = r.stderr.strip().splitlines()
        return f"exit {r.returncode}: {msg[-1] if msg else 'no ' + what}"[:300]
    return None


def model_run(cmd, js, env, args):
    """--model: the case once more with the devices taking turns (gr_run
    --turns --timeline, the same sources, not validated), for the work
    figures and the model's time beside the measured ones. The measured row
    stays the one without turns: taking turns serializes the devices."""
    mjs = js[:-len(".json")] + "-turns.json"
    mcmd = [x for x in cmd if x != "--validate-first"]
    mcmd[mcmd.index("--json") + 1] = mjs
    _take_turns(mcmd)
    # Devices taking turns cannot post an NCCL transfer together: the model
    # of an NCCL case times the same work over peer copies (the model has
    # its own link; the transport's fixed costs are what it leaves out).
    if "--transport" in mcmd and mcmd[mcmd.index("--transport") + 1] == "nccl":
        mcmd[mcmd.index("--transport") + 1] = "p2p"
    failed = _run_again(mcmd, env, args, mjs, "report")
    if failed:
        return {"model_status": failed}
    with open(mjs) as f:
        rep = json.load(f)
    out = work_figures(rep, args.link_gbs, args.barrier_us)
    out["model_command"] = shlex.join(mcmd)
    out["model_report"] = os.path.relpath(mjs, args.out_dir)
    return out


def kernel_figures(kernels, busy):
    """From gpu_trace.kernel_work's per-run, per-device kernel and busy
    times: the medians over the runs of the slowest device's kernel time,
    all devices' summed, and the slowest device's busy time."""
    kmax = [max(k) for k in kernels if k]
    ksum = [sum(k) for k in kernels if k]
    bmax = [max(b) for b in busy if b]
    return {"kernel_max_ms": _median(kmax), "kernel_sum_ms": _median(ksum), "busy_max_ms": _median(bmax),
            "kernel_runs": len(kmax)}


def trace_run(cmd, js, env, args, want):
    """--trace-lib: the case once more under the GPU timeline library (not
    validated; the trace slows the host's calls, so the work figures stay
    the untraced run's), read for each run's kernel time per device."""
    import gpu_trace
    tjs = js[:-len(".json")] + "-trace.json"
    csv_path = js[:-len(".json")] + "-trace.csv"
    tcmd = [x for x in cmd if x != "--validate-first"]
    tcmd[tcmd.index("--json") + 1] = tjs
    tenv = dict(env, GR_GPU_TRACE=csv_path, CUDA_INJECTION64_PATH=os.path.abspath(args.trace_lib))
    if os.path.exists(tjs):
        os.unlink(tjs)
    failed = _run_again(tcmd, tenv, args, csv_path, "trace")
    if failed:
        return {"trace_status": failed}
    try:
        kernels, busy = gpu_trace.kernel_work(csv_path)
    except (OSError, ValueError, KeyError) as e:
        return {"trace_status": f"unreadable trace: {e}"[:300]}
    if len(kernels) != want:
        return {"trace_status": f"{len(kernels)} marked runs in the trace, {want} expected"}
    out = kernel_figures(kernels, busy)
    out["trace_status"] = "ok"
    return out


def add_scaling(results, kind):
    """Speedup and parallel efficiency against the smallest device count of
    the same primitive that ran (normally the one-device case, shared by
    every transport and partitioner). Strong: efficiency = b*T_b / (n*T_n);
    weak (work grows with the devices): efficiency = T_b / T_n. Speedup is
    efficiency * n, so the baseline's own row has speedup b (1.0 on one
    device) and the ideal is the line speedup = devices."""
    for case, row in results:
        row.update(speedup=None, efficiency=None, baseline_devices=None, model_speedup=None, work_max_ratio=None,
                   work_sum_ratio=None, exchange_ratio=None, kernel_max_ratio=None, kernel_sum_ratio=None)
        if row.get("median_ms") is None:
            continue
        base = None
        for c, r in results:
            if r.get("median_ms") is None or c["primitive"] != case["primitive"]:
                continue
            same_group = c["devices"] == 1 or (c["transport"] == case["transport"]
                                               and c["partitioner"] == case["partitioner"])
            if same_group and (base is None or r["devices"] < base["devices"]):
                base = r
        if base is None or row["median_ms"] <= 0:
            continue
        b, n = base["devices"], row["devices"]
        row["baseline_devices"] = b
        add_work_ratios(row, base, kind)
        if row.get("logical"):
            continue  # devices sharing a GPU: their time is no speedup
        eff = (b * base["median_ms"]) / (n * row["median_ms"]) if kind == "strong" \
            else base["median_ms"] / row["median_ms"]
        row.update(speedup=eff * n, efficiency=eff)


def add_work_ratios(row, base, kind):
    """Work against the baseline's (--turns): the slowest device's and all
    devices' summed, the largest exchange time of a device, and the model's
    speedup (strong: the baseline's model time over this row's; weak: times
    the devices, as add_scaling's speedup)."""
    bw = base.get("work_max_ms")
    if bw:
        for k in ("work_max", "work_sum", "exchange"):
            v = row.get(k + "_ms" if k != "exchange" else "exchange_max_ms")
            row[k + "_ratio"] = v / bw if v is not None else None
    bk = base.get("kernel_max_ms")
    if bk:
        for k in ("kernel_max", "kernel_sum"):
            v = row.get(k + "_ms")
            row[k + "_ratio"] = v / bk if v is not None else None
    bm, m = base.get("model_ms"), row.get("model_ms")
    if bm and m:
        s = bm / m * (row["devices"] if kind == "weak" else base["devices"])
        row["model_speedup"] = s


def transport_label(row):
    """The transport run, and what was asked for where that differs
    ("auto(p2p)"): a config may list both."""
    t, req = row.get("transport", "-"), row.get("transport_requested", "-")
    return t if req in (t, "-") else f"{req}({t})"


def plot_groups(results, partitioners):
    """Lines of the plots: one per primitive x transport (x partitioner when
    the config has several), each with its primitive's one-device row."""
    groups = {}
    for case, row in results:
        if case["devices"] == 1:
            continue
        key = (case["primitive"], case["transport"], case["partitioner"])
        label = f"{case['primitive']} {transport_label(row)}"
        if len(partitioners) > 1:
            label += f" {row['partitioner']}"
        groups.setdefault(key, {"label": label, "rows": []})["rows"].append(row)
    for case, row in results:
        if case["devices"] == 1:
            matched = False
            for key, g in groups.items():
                if key[0] == case["primitive"]:
                    g["rows"].insert(0, row)
                    matched = True
            if not matched:
                groups[(case["primitive"], None, None)] = {"label": case["primitive"], "rows": [row]}
    for g in groups.values():
        g["rows"] = sorted((r for r in g["rows"] if r.get("median_ms") is not None), key=lambda r: r["devices"])
    return [g for g in groups.values() if g["rows"]]


def _grid(plt, n):
    cols = min(n, 3)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 3.9 * rows), squeeze=False)
    flat = [a for line in axes for a in line]
    for a in flat[n:]:
        a.set_visible(False)
    return fig, flat[:n]


def make_plots(plt, results, cfg, out_dir, where):
    from matplotlib import ticker
    groups = plot_groups(results, cfg["partitioners"])
    if not groups:
        return []
    files = []
    counts = sorted({r["devices"] for g in groups for r in g["rows"]})
    title = f"{cfg['name']} ({where})"

    def save(fig, name):
        path = os.path.join(out_dir, name)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        files.append(path)

    if cfg["kind"] == "strong":
        fig, ax = plt.subplots(figsize=(6.4, 4.6))
        ax.plot([counts[0], counts[-1]], [counts[0], counts[-1]], "k--", lw=1, label="ideal")
        for i, g in enumerate(groups):
            color = f"C{i % 10}"
            # Measured where the devices have a GPU each; the model's
            # prediction (--turns) dashed beside it.
            pts = [(r["devices"], r["speedup"]) for r in g["rows"] if r["speedup"] is not None]
            if len(pts) > 1:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", color=color, label=f"{g['label']} measured")
            pts = [(r["devices"], r.get("model_speedup")) for r in g["rows"] if r.get("model_speedup") is not None]
            if len(pts) > 1:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], "s--", color=color, label=f"{g['label']} model")
        ax.set_xticks(counts)
        ax.set_xlabel("devices")
        ax.set_ylabel("speedup (median time; model: predicted on a GPU each)")
        ax.set_title(f"strong scaling, {cfg['graph']}\n{title}", fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        save(fig, "speedup.png")
    else:
        fig, ax = plt.subplots(figsize=(6.4, 4.6))
        for i, g in enumerate(groups):
            color = f"C{i % 10}"
            xs = [r["devices"] for r in g["rows"]]
            ax.plot(xs, [r["median_ms"] for r in g["rows"]], "o-", color=color, label=g["label"])
            ax.plot([xs[0], counts[-1]], [g["rows"][0]["median_ms"]] * 2, "--", color=color, lw=1)
        ax.plot([], [], "--", color="gray", lw=1, label="ideal: flat at the first time")
        ax.set_xticks(counts)
        ax.set_xticklabels([f"{n}\n{cfg['graphs'][n]}" for n in counts], fontsize=8)
        ax.set_xlabel("devices (graph)")
        ax.set_ylabel("median ms per run")
        ax.set_ylim(bottom=0)
        ax.set_title(f"weak scaling\n{title}", fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        save(fig, "weak-time.png")

    fig, axes = _grid(plt, len(groups))
    for ax, g in zip(axes, groups):
        xs = list(range(len(g["rows"])))
        bottom = [0.0] * len(xs)
        for i, c in enumerate(SPLIT):
            ys = [r.get(c + "_ms") or 0.0 for r in g["rows"]]
            ax.bar(xs, ys, bottom=bottom, color=f"C{i}", label=c)
            bottom = [b + y for b, y in zip(bottom, ys)]
        ax.set_xticks(xs)
        ax.set_xticklabels([str(r["devices"]) for r in g["rows"]])
        ax.set_xlabel("devices")
        ax.set_ylabel("ms per run, mean over devices")
        ax.set_title(g["label"], fontsize=10)
    axes[0].legend(fontsize=7)
    fig.suptitle(f"time split per device count\n{title}", fontsize=10)
    save(fig, "time-split.png")

    fig, axes = _grid(plt, len(groups))
    for ax, g in zip(axes, groups):
        drawn = False
        for r in g["rows"]:
            lb = r.get("level_bytes") or []
            if r["devices"] == 1 or not any(lb):
                continue
            ax.plot(range(len(lb)), [b if b > 0 else float("nan") for b in lb], "o-", ms=3,
                    label=f"{r['devices']} devices, {r['bytes_per_iter'] / 1e3:.1f} kB/iteration median")
            drawn = True
        if drawn:
            ax.set_yscale("log")
            ax.legend(fontsize=7)
        else:
            ax.text(0.5, 0.5, "nothing exchanged", ha="center", va="center", transform=ax.transAxes)
        ax.xaxis.set_major_locator(ticker.MaxNLocator(integer=True))
        ax.set_xlabel("iteration (first run)")
        ax.set_ylabel("bytes sent, all devices")
        ax.set_title(g["label"], fontsize=10)
    fig.suptitle(f"bytes moved per iteration\n{title}", fontsize=10)
    save(fig, "bytes-per-iteration.png")
    return files


def _fmt(v, spec):
    return format(v, spec) if isinstance(v, (int, float)) else "-"


def print_work_table(results):
    """The --turns figures: each device's work timed alone, against the
    baseline's, and the model's time and speedup."""
    rows = [row for _, row in results if row.get("work_max_ms") is not None]
    if not rows:
        return
    print("work per device (devices took turns; logical devices share a GPU: work, not time) and the model,"
          " beside the measured speedup where the devices have a GPU each")
    print(f"{'primitive':<10} {'dev':>3} {'transport':<11} {'logical':>7} {'work max':>9} {'/1 dev':>7} "
          f"{'work sum':>9} {'/1 dev':>7} {'exchange':>9} {'/1 dev':>7} {'model ms':>9} {'model x':>7} "
          f"{'measured x':>10} {'model/meas':>10}")
    for row in rows:
        sp, ms = row.get("speedup"), row.get("model_speedup")
        print(f"{row['primitive']:<10} {row['devices']:>3} {transport_label(row):<11} "
              f"{'yes' if row.get('logical') else 'no':>7} {row['work_max_ms']:9.3f} "
              f"{_fmt(row.get('work_max_ratio'), '7.3f')} {row['work_sum_ms']:9.3f} "
              f"{_fmt(row.get('work_sum_ratio'), '7.3f')} {row['exchange_max_ms']:9.3f} "
              f"{_fmt(row.get('exchange_ratio'), '7.3f')} {_fmt(row.get('model_ms'), '9.3f')} "
              f"{_fmt(ms, '7.2f')} {_fmt(sp if not row.get('logical') else None, '10.2f')} "
              f"{_fmt(ms / sp if sp and ms and not row.get('logical') else None, '10.3f')}")


def print_kernel_table(results):
    """The --trace-lib figures: each device's kernel time, against the
    baseline's."""
    rows = [row for _, row in results if row.get("kernel_max_ms") is not None or row.get("trace_status")]
    if not rows:
        return
    print("kernel time per device (GPU timeline of every run; kernels only, no launches or host waits)")
    print(f"{'primitive':<10} {'dev':>3} {'transport':<11} {'kernels max':>11} {'/1 dev':>7} {'kernels sum':>11} "
          f"{'/1 dev':>7} {'busy max':>9} {'runs':>4}  status")
    for row in rows:
        print(f"{row['primitive']:<10} {row['devices']:>3} {transport_label(row):<11} "
              f"{_fmt(row.get('kernel_max_ms'), '11.3f')} {_fmt(row.get('kernel_max_ratio'), '7.3f')} "
              f"{_fmt(row.get('kernel_sum_ms'), '11.3f')} {_fmt(row.get('kernel_sum_ratio'), '7.3f')} "
              f"{_fmt(row.get('busy_max_ms'), '9.3f')} {_fmt(row.get('kernel_runs'), '4d')}  "
              f"{row.get('trace_status', '-')}")


def print_table(results, kind):
    hdr = (f"{'primitive':<10} {'dev':>3} {'transport':<11} {'partition':<9} {'graph':<16} {'med ms':>9} {'min':>8} "
           f"{'max':>8} {'speedup':>7} {'eff':>5} {'compute':>8} {'package':>8} {'transfer':>8} {'combine':>8} "
           f"{'wait':>8} {'MB/run':>8} {'kB/iter':>8} {'peak MiB':>8}  valid")
    print(f"{kind} scaling")
    print(hdr)
    for _, row in results:
        head = (f"{row['primitive']:<10} {row['devices']:>3} {transport_label(row):<11} {row['partitioner']:<9} "
                f"{row['graph']:<16}")
        if row.get("median_ms") is None:
            print(f"{head} {row['status']}")
            continue
        print(f"{head} {row['median_ms']:9.3f} {row['min_ms']:8.3f} {row['max_ms']:8.3f} "
              f"{_fmt(row['speedup'], '7.2f')} {_fmt(row['efficiency'], '5.2f')} "
              + " ".join(f"{row[c + '_ms']:8.3f}" for c in SPLIT)
              + f" {row['bytes_per_run'] / 1e6:8.3f} {row['bytes_per_iter'] / 1e3:8.2f} "
              f"{_fmt(row['peak_mib_max'], '8.1f')}  {'yes' if row['valid'] else 'not checked' if row['valid'] is None and row['status'].startswith('ok') else 'NO ' + row['status']}")


def _csv_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return format(v, ".6g")
    return "" if v is None else v


def write_csv(results, out_dir):
    with open(os.path.join(out_dir, "scale.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore")
        w.writeheader()
        for _, row in results:
            w.writerow({k: _csv_value(row.get(k)) for k in COLUMNS})


def _device_list_arg(text):
    try:
        ns = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a comma-separated list of device counts")
    if not ns or min(ns) < 1:
        raise argparse.ArgumentTypeError(f"'{text}': device counts are whole numbers >= 1")
    return sorted(set(ns))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("config")
    ap.add_argument("--gr-run", default="build/tools/gr_run")
    ap.add_argument("--out-dir", default="scale-out")
    ap.add_argument("--data-dir", default=default_data_dir(), help="where @name graphs live")
    ap.add_argument("--graph-dir", help="where generated graphs are kept and reused (default: OUT_DIR/graphs)")
    ap.add_argument("--cpu", action="store_true", help="CPU devices instead of GPUs (also the config's \"cpu\")")
    ap.add_argument("--device-map", help="GR_DEVICE_MAP for the runs: logical devices on these GPU ordinals")
    ap.add_argument("--devices", type=_device_list_arg, help="run only these device counts (e.g. 1,2,4)")
    ap.add_argument("--max-devices", type=int, help="skip device counts above this")
    ap.add_argument("--runs", type=int, help="override the config's runs (sources per case)")
    ap.add_argument("--primitives", help="override the config's primitives (a comma list)")
    ap.add_argument("--transports", help="override the config's transports (a comma list)")
    ap.add_argument("--partitioners", help="override the config's partitioners (a comma list)")
    ap.add_argument("--graph", help="override a strong scaling config's graph")
    ap.add_argument("--extra", default="", help="extra gr_run arguments for every case (shell words)")
    ap.add_argument("--timeout", type=int, default=0, help="seconds per case before it counts as failed (0: none)")
    ap.add_argument("--no-plots", action="store_true", help="write CSV and JSON only (no matplotlib needed)")
    ap.add_argument("--no-validate", action="store_true",
                    help="do not validate the first run (figures of code validated elsewhere; rows say so)")
    ap.add_argument("--turns", action="store_true",
                    help="run the cases with gr_run --turns --timeline: each device's work timed alone, and the "
                         "model's prediction of the time on GPUs of their own")
    ap.add_argument("--model", action="store_true",
                    help="run every case twice: as measured, and once more with --turns --timeline (not "
                         "validated) for each device's work and the model's prediction beside the measured speedup")
    ap.add_argument("--trace-lib",
                    help="libgr_gpu_trace.so: with --turns, every case once more under the GPU timeline, for each "
                         "run's kernel time per device")
    ap.add_argument("--link-gbs", type=float, default=394.0,
                    help="the model's link between two devices, GB/s per direction (default: 394, NVLink between "
                         "two H200s as measured)")
    ap.add_argument("--barrier-us", type=float, default=5.0,
                    help="the model's cost of one barrier crossing between device threads, microseconds (default: 5)")
    args = ap.parse_args()

    try:
        cfg = load_config(args.config)
    except ConfigError as e:
        print(f"gr_scale: {args.config}: {e}", file=sys.stderr)
        return 2
    try:
        override_config(cfg, args)
    except ConfigError as e:
        print(f"gr_scale: {e}", file=sys.stderr)
        return 2
    if args.runs is not None and args.runs < 1:
        ap.error("--runs must be at least 1")
    if args.max_devices is not None and args.max_devices < 1:
        ap.error("--max-devices must be at least 1")
    args.cpu_devices = args.cpu or cfg["cpu"]
    if args.link_gbs <= 0 or args.barrier_us < 0:
        ap.error("--link-gbs must be positive and --barrier-us at least 0")
    if args.trace_lib and (args.cpu_devices or not args.turns):
        ap.error("--trace-lib times GPU kernels per device: it needs GPUs and --turns")
    if args.trace_lib and not os.path.isfile(args.trace_lib):
        ap.error(f"--trace-lib {args.trace_lib}: no such file (build the gr_gpu_trace target)")
    if args.device_map and args.cpu_devices:
        ap.error("--device-map maps logical devices onto GPUs; CPU devices take any count without it")
    plt = None
    if not args.no_plots:
        # Checked before any run: hours of runs should not end without
        # their plots.
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError as e:
            print(f"gr_scale: matplotlib is not available ({e}); install it (Debian: python3-matplotlib, "
                  "or pip install matplotlib) or pass --no-plots for CSV and JSON only", file=sys.stderr)
            return 2
    if not (os.path.isfile(args.gr_run) and os.access(args.gr_run, os.X_OK)):
        print(f"gr_scale: --gr-run {args.gr_run}: not an executable (build gr first, or name its gr_run)",
              file=sys.stderr)
        return 2

    env = dict(os.environ)
    # NVLink multicast (NVLS) stays off: gr's send/recv and all-gather do
    # not need it, it reserves device memory per communicator, and its
    # set-up fails where the driver offers no multicast.
    env["NCCL_NVLS_ENABLE"] = "0"
    if args.device_map:
        env["GR_DEVICE_MAP"] = args.device_map
    notes = []
    if args.cpu_devices:
        limit, args.limit_how, where = 1 << 30, "CPU devices", "CPU devices"
    else:
        try:
            limit, how = count_gpus(args.gr_run, env)
        except ConfigError as e:
            print(f"gr_scale: {e}", file=sys.stderr)
            return 2
        if limit == 0:
            print(f"gr_scale: no GPU found ({how}); --cpu runs the experiment on CPU devices", file=sys.stderr)
            return 2
        if env.get("GR_DEVICE_MAP"):
            how += f", GR_DEVICE_MAP={env['GR_DEVICE_MAP']}"
        args.limit_how = f"GPUs {how}"
        where = f"{limit} GPU{'s' if limit > 1 else ''}"
        if logical_devices(args.device_map, limit):
            gpus = len(set(args.device_map.split(",")))
            where = f"{limit} logical devices on {gpus} GPU{'s' if gpus > 1 else ''}"
        print(f"gr_scale: {where} ({how})", file=sys.stderr)
    if args.max_devices and args.max_devices < limit:
        limit, args.limit_how = args.max_devices, "--max-devices"
    try:
        cases = plan_cases(cfg, args, limit, notes)
    except ConfigError as e:
        print(f"gr_scale: {e}", file=sys.stderr)
        return 2
    for note in notes:
        print(f"gr_scale: {note}", file=sys.stderr)

    os.makedirs(args.out_dir, exist_ok=True)
    gen_dir = args.graph_dir or os.path.join(args.out_dir, "graphs")
    reports_dir = os.path.join(args.out_dir, "reports")
    os.makedirs(gen_dir, exist_ok=True)
    os.makedirs(reports_dir, exist_ok=True)
    graphs, results = {}, []
    for i, case in enumerate(cases):
        g = case["graph"]
        if g not in graphs:
            graphs[g] = prepare_graph(g, args.gr_run, args.data_dir, gen_dir)
        graph_args, why = graphs[g]
        if graph_args is None:
            row = {"kind": cfg["kind"], "primitive": case["primitive"], "graph": g, "devices": case["devices"],
                   "transport": case["transport"] or "-", "partitioner": case["partitioner"] or "-",
                   "status": f"FAILED: {why}", "valid": False}
        else:
            row = run_case(case, cfg, args, env, graph_args, reports_dir)
        results.append((case, row))
        took = f"{row['median_ms']:.3f} ms" if row.get("median_ms") is not None else ""
        print(f"[{i + 1}/{len(cases)}] {case['primitive']} on {case['devices']} "
              f"device{'s' if case['devices'] > 1 else ''} {row['transport']} {row['partitioner']} {g}: "
              f"{took} {row['status']}", file=sys.stderr)
        # Written after every case, so that a command cut short (a GPU
        # machine's time limit) still leaves the cases it finished.
        add_scaling(results, cfg["kind"])
        write_csv(results, args.out_dir)
    rows = [row for _, row in results]
    # A case whose kernel figures were asked for and not had fails too.
    failed = any(not row["status"].startswith("ok") or row.get("trace_status", "ok") != "ok" for row in rows)
    names = [row["device"] for row in rows if row.get("device")]
    if names and not args.cpu_devices:
        where = f"{where}, {names[0]}"
    plots = []
    if plt is not None:
        plots = make_plots(plt, results, cfg, args.out_dir, where)
    with open(os.path.join(args.out_dir, "scale.json"), "w") as f:
        json.dump({"config": cfg, "config_file": args.config, "date": time.strftime("%Y-%m-%d %H:%M:%S"),
                   "host": platform.node(), "devices_here": where, "device_map": env.get("GR_DEVICE_MAP"),
                   "command": shlex.join(sys.argv), "notes": notes,
                   "plots": [os.path.basename(p) for p in plots], "rows": rows}, f, indent=1)
    print(f"gr_scale: wrote {', '.join(['scale.csv', 'scale.json'] + [os.path.basename(p) for p in plots])} "
          f"to {args.out_dir}", file=sys.stderr)
    print_table(results, cfg["kind"])
    print_work_table(results)
    print_kernel_table(results)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
