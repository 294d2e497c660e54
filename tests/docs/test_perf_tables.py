#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# tools/perf_tables.py on small CSV files: every kind of table it writes
# (figures, ratios to peers and floors, footnotes, the mark of a figure
# older than the code), --check before and after, its refusals of bad data
# and pages, and the imports of gr_bench's and gr_scale's tables. Last, the
# project's own pages against docs/bench/current/: regenerating them gives
# no difference.
#   test_perf_tables.py SOURCE_DIR
import csv
import os
import subprocess
import sys
import tempfile

top = sys.argv[1]
tool = os.path.join(top, "tools", "perf_tables.py")
sys.path.insert(0, os.path.join(top, "tools"))
from perf_tables import FILES  # noqa: E402  (the columns the tool reads)


def run(*args):
    return subprocess.run([sys.executable, tool] + list(args), capture_output=True, text=True, timeout=60)


def write(data, name, rows):
    with open(os.path.join(data, name + ".csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FILES[name], lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow(dict({c: "" for c in FILES[name]}, **r))


def read(path):
    with open(path) as f:
        return f.read()


tmp_holder = tempfile.TemporaryDirectory(prefix="gr-perf-tables-")
tmp = tmp_holder.name
data = os.path.join(tmp, "data")
os.makedirs(data)
common = dict(command="gr_run --primitive bfs g.grb | x", commit="abc1234", date="2026-12-01")
write(data, "one-gpu", [
    dict(common, primitive="bfs", graph="kron:20:16", gpu="H100", median="2.000", min="1.900", unit="ms", gteps="30.1",
         gapbs="16", gunrock="3.0", peers="peers on the same file", floor="0.2", floor_basis="the arcs, once",
         current="yes", note="a note", headline="yes"),
    dict(common, primitive="bfs", graph="kron:21:16", gpu="H200", median="4.5", unit="ms",
         current="kernels changed since"),
    dict(common, primitive="pr", graph="kron:20:16", gpu="H100", median="0.5", unit="ms/it", gapbs="50",
         peers="other peers", current="yes", headline="yes"),
])
write(data, "multi-device", [
    dict(common, kind="real", primitive="bfs", graph="kron:20:16", gpu="H200", devices="2", exchange="p2p, random",
         one="3.0", many="2.0", unit="ms", model="1.8", current="yes"),
    dict(common, kind="logical", primitive="dobfs", graph="kron:20:16", gpu="H200", devices="2",
         exchange="p2p, random", one="1.0", many="2.5", unit="ms", split="1 / 2 / 3 / 4", bytes="9.6 MB",
         current="yes"),
])
write(data, "memory", [dict(common, case="BFS", gpu="H200", devices="2", peak_gib="2.5", base_gib="5.0",
                            base="1 device", current="yes")])
write(data, "time-to-answer", [dict(common, case="BFS", gpu="H200", devices="2", load="1.5", partition="2",
                                    subgraphs="3", setup="1", runs="0.5", extract="1", total="9", validate="2",
                                    total_validated="11", current="yes")])
write(data, "beyond-memory", [dict(common, primitive="bfs", graph="kron:28:16", arcs="8.47 G", gpu="H100",
                                   lists="plain", device_limit="16 GiB", device_peak="8 GiB", host_lists="31 GiB",
                                   median="800", floor="400", floor_basis="the link", current="yes")])
page = os.path.join(tmp, "page.md")
tables = ["one-gpu:bfs", "one-gpu:pr", "headline", "multi:real", "multi:logical", "memory", "time-to-answer",
          "beyond-memory"]
before = "# A page\n\nText kept as it is.\n\n" + "".join(
    f"<!-- perf-table: {t} -->\nstale {t}\n<!-- /perf-table -->\n\nMore text after {t}.\n\n" for t in tables)
with open(page, "w") as f:
    f.write(before)

# Out of date: --check says so with a diff and writes nothing.
r = run("--data", data, "--check", page)
assert r.returncode == 1 and "-stale one-gpu:bfs" in r.stdout and "out of date" in r.stderr, r.stdout + r.stderr
assert read(page) == before
# Rewritten: the text outside the marks unchanged, the tables from the data.
r = run("--data", data, page)
assert r.returncode == 0, r.stderr
got = read(page)
assert "stale" not in got and got.startswith("# A page\n\nText kept as it is.\n\n"), got
for t in tables:
    assert f"<!-- /perf-table -->\n\nMore text after {t}." in got, t
rows = [line for line in got.splitlines() if line.startswith("| ")]
want = [
    # BFS: median (min), GAPBS and Gunrock with the peers' footnote, the
    # lead over each, the floor with its footnote, x floor, a | in a command
    "| kron:20:16 | H100 | **2.000 ms** (1.900) | 30.1 | 16 ms [1] | 3.0 ms | 8.0× GAPBS, 1.5× Gunrock | 0.2 ms [2] "
    "| 10× | `gr_run --primitive bfs g.grb \\| x` | abc1234 | 2026-12-01 | a note |",
    # a figure older than the code: its date carries the reason
    "| kron:21:16 | H200 | **4.5 ms** |  |  |  |  |  |  | `gr_run --primitive bfs g.grb \\| x` | abc1234 "
    "| 2026-12-01 [3] |  |",
    "| kron:20:16 | H100 | **0.5 ms/it** |  | 50 ms/it [1] |  | 100× GAPBS |  |  "
    "| `gr_run --primitive bfs g.grb \\| x` | abc1234 | 2026-12-01 |  |",
    "| BFS | kron:20:16 | H100 | 2.000 ms | 16 ms | 8.0× | 2026-12-01 |",
    "| PageRank | kron:20:16 | H100 | 0.5 ms/it | 50 ms/it | 100× | 2026-12-01 |",
    "| BFS | kron:20:16 | H200 | 2 | p2p, random | 3.0 ms | 2.0 ms | 1.50× | 1.80× | `gr_run --primitive bfs g.grb \\| x` "
    "| abc1234 | 2026-12-01 |  |",
    "| DOBFS | kron:20:16 | H200 | 2 | p2p, random | 1.0 ms | 2.5 ms | 1 / 2 / 3 / 4 | 9.6 MB "
    "| `gr_run --primitive bfs g.grb \\| x` | abc1234 | 2026-12-01 |  |",
    "| BFS | H200 | 2 | 2.5 GiB | 5.0 GiB (1 device) | 0.50 | `gr_run --primitive bfs g.grb \\| x` | abc1234 "
    "| 2026-12-01 |  |",
    "| BFS | H200 | 2 | 1.5 | 2 | 3 | 1 | 0.5 | 1 | 9 | 2 | 11 | `gr_run --primitive bfs g.grb \\| x` | abc1234 "
    "| 2026-12-01 |  |",
    "| BFS | kron:28:16 (8.47 G arcs) | H100 | plain | 16 GiB | 8 GiB | 31 GiB | **800 ms** |  | 400 ms [1] | 2.0× "
    "| `gr_run --primitive bfs g.grb \\| x` | abc1234 | 2026-12-01 |  |",
]
for w in want:
    assert w in rows, (w, rows)
assert "- [1] peers on the same file\n- [2] the arcs, once\n- [3] Older than today's code: kernels changed since" in got
assert "N logical devices" in got and "speed-up" in got.split("perf-table: multi:logical")[0].split("multi:real")[1]
assert "speed-up" not in got.split("perf-table: multi:logical")[1].split("<!-- /perf-table -->")[0]
# Up to date now; a hand edit inside a table is found.
assert run("--data", data, "--check", page).returncode == 0
with open(page, "w") as f:
    f.write(got.replace("**2.000 ms**", "**1.000 ms**"))
r = run("--data", data, "--check", page)
assert r.returncode == 1 and "+| kron:20:16 | H100 | **2.000 ms**" in r.stdout, r.stdout
with open(page, "w") as f:
    f.write(got)

# Refusals: exit 2 with a message naming the place.
bad_pages = {
    "<!-- perf-table: nothing -->\n<!-- /perf-table -->\n": "unknown table 'nothing'",
    "<!-- perf-table: one-gpu:xyz -->\n<!-- /perf-table -->\n": "one-gpu:xyz: unknown primitive",
    "<!-- perf-table: memory -->\nno end\n": "has no <!-- /perf-table -->",
    "<!-- perf-table: one-gpu:sssp -->\n<!-- /perf-table -->\n": "no row for sssp",
}
for text, said in bad_pages.items():
    with open(page, "w") as f:
        f.write(text)
    r = run("--data", data, page)
    assert r.returncode == 2 and said in r.stderr and "page.md" in r.stderr, (text, r.stderr)
    assert read(page) == text
with open(page, "w") as f:
    f.write("<!-- perf-table: memory -->\n<!-- /perf-table -->\n")
bad_rows = [(dict(commit=""), "every row names its commit"), (dict(date="1.12.2026"), "is not YYYY-MM-DD"),
            (dict(peak_gib="a lot"), "'a lot' is not a number")]
for change, said in bad_rows:
    bad = os.path.join(tmp, "bad")
    os.makedirs(bad, exist_ok=True)
    row = dict(common, case="BFS", gpu="H200", devices="2", peak_gib="2.5", base_gib="5.0", base="1 device",
               current="yes")
    write(bad, "memory", [dict(row, **change)])
    r = run("--data", bad, page)
    assert r.returncode == 2 and said in r.stderr, (change, r.stderr)
r = run("--data", os.path.join(tmp, "none"), page)
assert r.returncode == 2 and "memory.csv" in r.stderr, r.stderr

# gr_bench's table: the default variant of each case replaces the row of
# the same primitive, graph and GPU (its peers kept) or adds one.
bench = os.path.join(tmp, "bench.csv")
with open(bench, "w") as f:
    f.write("case,status,median_ms,min_ms,max_ms,gteps,edges_visited,iterations,us_per_iter,floor_mb,achieved_gbs,"
            "x_floor,peak_mib,device,command\n"
            "bfs kron:20:16 [default],ok,1.23456,1.2,1.5,40.0,1,7,1,1,1,6.1728,1,NVIDIA H100 80GB HBM3,"
            "/b/tools/gr_run --primitive bfs --runs 16 --validate-first --quiet --json /t/r.json /t/graphs/k20.grb\n"
            "bfs kron:20:16 [serial],ok,9,9,9,1,1,7,1,1,1,1,1,NVIDIA H100 80GB HBM3,/b/gr_run --primitive bfs x\n"
            "kron:22:16 [default],ok,3.0,2.9,3.1,,1,7,1,1,1,,1,NVIDIA H200,/b/gr_run --primitive sssp /t/k22.grb\n")
r = run("--data", data, "--import-bench", bench, "--commit", "def5678", "--date", "2026-12-02")
assert r.returncode == 0 and "2 rows" in r.stdout, r.stdout + r.stderr
with open(os.path.join(data, "one-gpu.csv")) as f:
    imported = list(csv.DictReader(f))
k20 = [x for x in imported if (x["primitive"], x["graph"], x["gpu"]) == ("bfs", "kron:20:16", "H100")]
assert len(k20) == 1 and k20[0]["median"] == "1.235" and k20[0]["min"] == "1.2" and k20[0]["floor"] == "0.2", k20
assert k20[0]["command"] == "gr_run --primitive bfs --runs 16 --validate-first k20.grb", k20
assert (k20[0]["commit"], k20[0]["date"], k20[0]["current"]) == ("def5678", "2026-12-02", "yes"), k20
# The row of the same primitive, graph and GPU was replaced, its peers and
# headline kept.
assert (k20[0]["gapbs"], k20[0]["peers"], k20[0]["headline"]) == ("16", "peers on the same file", "yes"), k20
sssp = [x for x in imported if x["primitive"] == "sssp"]
assert len(sssp) == 1 and sssp[0]["graph"] == "kron:22:16" and sssp[0]["gpu"] == "H200", sssp
with open(bench) as f:
    lines = f.read().splitlines()
failed = os.path.join(tmp, "failed.csv")
with open(failed, "w") as f:
    f.write(lines[0] + "\n" + lines[1].replace(",ok,", ",exit 1: no,") + "\n")
r = run("--data", data, "--import-bench", failed, "--commit", "x", "--date", "2026-12-03")
assert r.returncode == 2 and "only cases that ran and validated" in r.stderr, r.stderr
r = run("--data", data, "--import-bench", bench)
assert r.returncode == 2 and "--commit and --date" in r.stderr, r.stderr

# gr_scale's table: each case above the baseline becomes a row, the
# baseline's time beside it.
scale = os.path.join(tmp, "scale.csv")
cols = ["kind", "primitive", "graph", "devices", "transport", "partitioner", "status", "valid", "median_ms",
        "baseline_devices", "compute_ms", "package_ms", "combine_ms", "wait_ms", "bytes_per_run", "device",
        "command", "model_speedup"]
with open(scale, "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(cols)
    w.writerow(["strong", "cc", "kron:25:16", "1", "-", "-", "ok", "true", "10", "1", "10", "0", "0", "0", "0",
                "NVIDIA H200", "/b/gr_run --primitive cc --gpus 1 --json /r/a.json --timeline /g/k25.grb", "1"])
    w.writerow(["strong", "cc", "kron:25:16", "2", "p2p", "random", "ok", "true", "6.25", "1", "5", "0.5", "0.25",
                "0.5", "12500000", "NVIDIA H200", "/b/gr_run --primitive cc --gpus 2 --transport p2p /g/k25.grb",
                "1.5234"])
r = run("--data", data, "--import-scale", scale, "--kind", "logical", "--commit", "c", "--date", "2026-12-04")
assert r.returncode == 0 and "1 rows" in r.stdout, r.stdout + r.stderr
with open(os.path.join(data, "multi-device.csv")) as f:
    cc = [x for x in csv.DictReader(f) if x["primitive"] == "cc"]
assert len(cc) == 1 and (cc[0]["one"], cc[0]["many"], cc[0]["kind"]) == ("10", "6.25", "logical"), cc
assert cc[0]["split"] == "5.00 / 0.50 / 0.25 / 0.50" and cc[0]["bytes"] == "12.5 MB", cc
assert cc[0]["exchange"] == "p2p, random" and cc[0]["model"] == "1.52", cc
assert cc[0]["command"] == "gr_run --primitive cc --gpus 2 --transport p2p k25.grb", cc
r = run("--data", data, "--import-scale", scale, "--commit", "c", "--date", "2026-12-04")
assert r.returncode == 2 and "--kind" in r.stderr, r.stderr
with open(scale) as f:
    weak = f.read().replace("strong,", "weak,")
with open(scale, "w") as f:
    f.write(weak)
r = run("--data", data, "--import-scale", scale, "--kind", "real", "--commit", "c", "--date", "2026-12-04")
assert r.returncode == 2 and "weak scaling" in r.stderr, r.stderr
tmp_holder.cleanup()

# The project's pages match their data.
r = run("--check")
assert r.returncode == 0, "docs/performance.md or README.md is out of date with docs/bench/current/ " \
                          "(run tools/perf_tables.py):\n" + r.stdout + r.stderr
print("perf_tables: ok")
