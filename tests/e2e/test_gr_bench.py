#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# gr_bench end to end on CPU devices: the smoke list runs, validates, and
# writes a CSV row per case (cases with arguments of their own, such as
# SSSP's weights, included; SSSP's floor counts weights and float
# distances); a wrong answer (GR_FAULT_RESULT=1) makes the driver exit 1 and
# mark the case INVALID.
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

top, gr_run, data = sys.argv[1], sys.argv[2], sys.argv[3]
bench = os.path.join(top, "tools", "gr_bench.py")
cfg = os.path.join(top, "configs", "bench", "smoke.json")


def run(out, env=None, config=cfg):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([sys.executable, bench, config, "--gr-run", gr_run, "--out-dir", out, "--data-dir", data,
                           "--extra=--cpu"], capture_output=True, text=True, env=e)


with tempfile.TemporaryDirectory() as d:
    r = run(d)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = list(csv.DictReader(open(os.path.join(d, "bench.csv"))))
    want = 6 if os.path.exists(os.path.join(data, "karate.mtx")) else 5
    assert len(rows) == want, rows
    for row in rows:
        assert row["status"] == "ok", row
        assert float(row["median_ms"]) > 0 and int(row["edges_visited"]) > 0, row
        assert float(row["floor_mb"]) > 0 and float(row["x_floor"]) > 0, row
    assert "med ms" in r.stdout and "kron:12:8 [default]" in r.stdout
    # SSSP's rows: the weights reached gr_run, and the floor counts a
    # 4-byte weight per arc and a 4-byte distance per reached vertex.
    sssp = [row for row in rows if row["case"].startswith("sssp ")]
    assert [row["case"] for row in sssp] == ["sssp kron:11:8 [default]", "sssp grid2d:40x40 on 2 devices [default]"], rows
    for row in sssp:
        assert "--weights" in row["command"], row
        rep = json.load(open(os.path.join(d, "".join(c if c.isalnum() else "_" for c in row["case"]) + ".json")))
        assert rep["primitive"] == "sssp" and rep["graph"]["weighted"], rep["graph"]
        assert rep["runs"][0]["extra"]["delta"] > 0, rep["runs"][0]
        vb = rep["versions"]["vertex_id_bits"] // 8
        floors = sorted(x["edges_visited"] * (vb + 4) + x["reached"] * 20 for x in rep["runs"])
        assert abs(float(row["floor_mb"]) - floors[len(floors) // 2] / 1e6) < 1e-9, (row, floors)
with tempfile.TemporaryDirectory() as d:
    r = run(d, {"GR_FAULT_RESULT": "1"})
    assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
    assert "INVALID" in r.stdout, r.stdout
# A list of several primitives on the same graph: a row and a report each.
with tempfile.TemporaryDirectory() as d:
    mixed = os.path.join(d, "mixed.json")
    with open(mixed, "w") as f:
        json.dump({"name": "mixed", "runs": 2, "variants": [{"name": "default", "args": []}],
                   "cases": [{"graph": "kron:10:8", "primitive": "bfs"},
                             {"graph": "kron:10:8", "primitive": "dobfs"}]}, f)
    r = run(os.path.join(d, "out"), config=mixed)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = list(csv.DictReader(open(os.path.join(d, "out", "bench.csv"))))
    assert [row["case"] for row in rows] == ["bfs kron:10:8 [default]", "dobfs kron:10:8 [default]"], rows
    reports = [n for n in os.listdir(os.path.join(d, "out")) if n.endswith(".json") and n != "bench.json"]
    assert len(reports) == 2, reports
# CC and PageRank rows (the all-vertex primitives, with variants of their
# own) and BC's: validated, and their floors: CC reads and writes every
# label, PageRank moves its vertex bytes in every iteration, BC in each of
# its two passes.
with tempfile.TemporaryDirectory() as d:
    allv = os.path.join(d, "all-vertex.json")
    with open(allv, "w") as f:
        json.dump({"name": "all-vertex", "runs": 2, "variants": [{"name": "default", "args": []}],
                   "cases": [{"graph": "kron:10:8", "primitive": "cc"},
                             {"graph": "kron:10:8", "primitive": "pr",
                              "variants": [{"name": "pull", "args": []},
                                           {"name": "push", "args": ["--direction", "push"]}]},
                             {"graph": "kron:10:8", "primitive": "bc"}]}, f)
    r = run(os.path.join(d, "out"), config=allv)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = list(csv.DictReader(open(os.path.join(d, "out", "bench.csv"))))
    assert [row["case"] for row in rows] == ["cc kron:10:8 [default]", "pr kron:10:8 [pull]",
                                             "pr kron:10:8 [push]", "bc kron:10:8 [default]"], rows
    for row in rows:
        assert row["status"] == "ok", row
        rep = json.load(open(os.path.join(d, "out", "".join(c if c.isalnum() else "_" for c in row["case"]) + ".json")))
        vb = rep["versions"]["vertex_id_bits"] // 8
        if rep["primitive"] == "cc":
            floors = [x["edges_visited"] * vb + x["reached"] * (16 + 2 * vb) for x in rep["runs"]]
        elif rep["primitive"] == "bc":
            # Reached: the vertices the source reaches (its depths), not all.
            assert 0 < rep["runs"][0]["reached"] < rep["graph"]["vertices"], rep["runs"][0]
            floors = [x["edges_visited"] * vb + x["reached"] * (80 + vb) for x in rep["runs"]]
        else:
            assert rep["runs"][0]["iterations"] > 1 and rep["runs"][0]["extra"]["converged"] == 1, rep["runs"][0]
            floors = [x["edges_visited"] * vb + x["reached"] * x["iterations"] * 28 for x in rep["runs"]]
        assert abs(float(row["floor_mb"]) - statistics.median(floors) / 1e6) < 1e-9, (row, floors)
print("gr_bench: ok")
