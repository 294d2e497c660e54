#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""gr_bench: runs a benchmark list from configs/ through gr_run and prints a
table: median/min/max ms, GTEPS, edges visited, iterations, us per
iteration, the bytes a traversal must move (the floor), the bandwidth that
implies and how far the run is from the floor. Writes CSV and JSON.

    tools/gr_bench.py configs/bench/bfs-single-gpu.json --gr-run build/tools/gr_run \
        --out-dir bench-out [--data-dir ../shared/data] [--only NAME] [--runs N]

Each case is validated once (the first run, --validate-first); a case that
fails validation or exits non-zero makes the driver exit 1 after the table.
A case may carry gr_run arguments of its own ("args", e.g. ["--weights",
"random:1:255"] for sssp) and variants of its own ("variants").
Generator specs are generated once (gr_gen, binary format) and reused by
every variant (tools/gr_driver.py, shared with gr_scale.py). Standard
library only."""

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import time

from gr_driver import default_data_dir, prepare_graph, safe_name


def load_config(path):
    with open(path) as f:
        cfg = json.load(f)
    for key in ("cases",):
        if key not in cfg:
            sys.exit(f"gr_bench: {path}: missing '{key}'")
    cfg.setdefault("runs", 8)
    cfg.setdefault("variants", [{"name": "default", "args": []}])
    cfg.setdefault("bandwidth_gbs", 0)
    return cfg


# Bytes per visited arc and per reached vertex beyond the neighbour id and
# the two offsets: sssp reads each arc's weight (4 bytes) and keeps a float
# distance per vertex.
ARC_EXTRA = {"sssp": 4}
VALUE_BYTES = {"sssp": 4}


# PageRank, per vertex and iteration: a CSC and a CSR offset (each row's
# end is the next row's start), the rank read and written, the new
# contribution written.
PR_VERTEX_BYTES = 8 + 8 + 4 + 4 + 4


# BC, per reached vertex and source: forward, two CSR offsets, the depth
# and the path count written; backward, two CSC offsets, the path count and
# the successors' sum read, the centrality read and written, the
# coefficient written. Its visited arcs count both passes.
BC_VERTEX_BYTES = 16 + 8 + 16 + 8 + 8 + 16 + 8


def floor_bytes(run, vid_bytes, primitive="bfs"):
    """Bytes a push traversal must move: every visited arc's neighbour id (and
    weight), two offsets and one value per reached vertex. Random value
    look-ups are assumed to hit the L2 (the value array of the graphs here
    fits it). CC reads and writes each label; PageRank moves its vertex
    bytes every iteration (its visited arcs already count every
    iteration's); BC moves its vertex bytes once per pass (one source per
    run: its visited arcs count both passes)."""
    if primitive == "pr":
        return run["edges_visited"] * vid_bytes + run["reached"] * run["iterations"] * PR_VERTEX_BYTES
    if primitive == "bc":
        return run["edges_visited"] * vid_bytes + run["reached"] * (BC_VERTEX_BYTES + vid_bytes)
    if primitive == "cc":
        return run["edges_visited"] * vid_bytes + run["reached"] * (2 * 8 + 2 * vid_bytes)
    arc = vid_bytes + ARC_EXTRA.get(primitive, 0)
    value = VALUE_BYTES.get(primitive, vid_bytes)
    return run["edges_visited"] * arc + run["reached"] * (2 * 8 + value)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("config")
    ap.add_argument("--gr-run", default="build/tools/gr_run")
    ap.add_argument("--out-dir", default="bench-out")
    ap.add_argument("--data-dir", default=default_data_dir())
    ap.add_argument("--only", help="run only the cases whose label contains this")
    ap.add_argument("--runs", type=int, help="override the config's runs")
    ap.add_argument("--extra", default="", help="extra gr_run arguments for every case (space separated)")
    args = ap.parse_args()
    cfg = load_config(args.config)
    os.makedirs(args.out_dir, exist_ok=True)
    gen_dir = os.path.join(args.out_dir, "graphs")
    os.makedirs(gen_dir, exist_ok=True)
    runs = args.runs or cfg["runs"]
    bw = float(cfg.get("bandwidth_gbs", 0)) * 1e9
    rows, failed = [], False
    # A list of several primitives names each case by its primitive too
    # (a table row and its JSON file must not collide).
    mixed = len({c.get("primitive", "bfs") for c in cfg["cases"]}) > 1
    for case in cfg["cases"]:
        label = case.get("label", case["graph"])
        if mixed:
            label = f"{case.get('primitive', 'bfs')} {label}"
        if args.only and args.only not in label:
            continue
        graph_args, why = prepare_graph(case["graph"], args.gr_run, args.data_dir, gen_dir)
        if graph_args is None:
            print(f"skip {label}: {why}", file=sys.stderr)
            continue
        for var in case.get("variants", cfg["variants"]):
            name = f"{label} [{var['name']}]"
            js = os.path.join(args.out_dir, safe_name(name) + ".json")
            cmd = ([args.gr_run, "--primitive", case.get("primitive", "bfs"), "--runs", str(runs),
                    "--validate-first", "--quiet", "--json", js] + case.get("args", []) + var.get("args", [])
                   + args.extra.split() + graph_args)
            if os.path.exists(js):
                os.unlink(js)
            r = subprocess.run(cmd, capture_output=True, text=True)
            # Exit 1 is a run that completed but failed validation: its
            # report is still written and the row is marked INVALID.
            if r.returncode not in (0, 1) or not os.path.exists(js):
                failed = True
                rows.append({"case": name, "status": f"exit {r.returncode}: {r.stderr.strip()[:200]}"})
                continue
            with open(js) as f:
                rep = json.load(f)
            rs = rep["runs"]
            vid_bytes = rep["versions"]["vertex_id_bits"] // 8
            ms = [x["ms"] for x in rs]
            per_iter = [x["ms"] * 1e3 / max(1, x["iterations"]) for x in rs]
            fb = [floor_bytes(x, vid_bytes, case.get("primitive", "bfs")) for x in rs]
            achieved = [b / (x["ms"] * 1e-3) for b, x in zip(fb, rs)]
            ok = rep["summary"].get("validation_passed", False)
            failed = failed or not ok
            row = {
                "case": name,
                "status": "ok" if ok else "INVALID",
                "median_ms": statistics.median(ms),
                "min_ms": min(ms),
                "max_ms": max(ms),
                "gteps": rep["summary"]["median_gteps"],
                "edges_visited": int(statistics.median(x["edges_visited"] for x in rs)),
                "iterations": statistics.median(x["iterations"] for x in rs),
                "us_per_iter": statistics.median(per_iter),
                "floor_mb": statistics.median(fb) / 1e6,
                "achieved_gbs": statistics.median(achieved) / 1e9,
                "x_floor": (statistics.median(ms) * 1e-3) / (statistics.median(fb) / bw) if bw else 0.0,
                "peak_mib": max(d["peak_bytes"] for d in rep["devices"]) / 2**20,
                "device": rep["devices"][0]["name"],
                "command": " ".join(cmd),
            }
            rows.append(row)
    cols = ["case", "status", "median_ms", "min_ms", "max_ms", "gteps", "edges_visited", "iterations",
            "us_per_iter", "floor_mb", "achieved_gbs", "x_floor", "peak_mib", "device", "command"]
    with open(os.path.join(args.out_dir, "bench.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        for row in rows:
            w.writerow(row)
    with open(os.path.join(args.out_dir, "bench.json"), "w") as f:
        json.dump({"config": cfg, "date": time.strftime("%Y-%m-%d"), "rows": rows}, f, indent=1)
    hdr = (f"{'case':<44} {'med ms':>9} {'min':>8} {'max':>8} {'GTEPS':>7} {'edges':>11} {'iters':>6} "
           f"{'us/it':>7} {'floorMB':>8} {'GB/s':>6} {'xfloor':>6} {'MiB':>7}")
    print(hdr)
    for row in rows:
        if row["status"] not in ("ok", "INVALID"):
            print(f"{row['case']:<44} FAILED {row['status']}")
            continue
        print(f"{row['case']:<44} {row['median_ms']:9.3f} {row['min_ms']:8.3f} {row['max_ms']:8.3f} "
              f"{row['gteps']:7.2f} {row['edges_visited']:11d} {row['iterations']:6.0f} {row['us_per_iter']:7.1f} "
              f"{row['floor_mb']:8.1f} {row['achieved_gbs']:6.0f} {row['x_floor']:6.1f} {row['peak_mib']:7.1f}"
              + ("" if row["status"] == "ok" else "  INVALID"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
