#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the measured tables of docs/performance.md and README.md from the
CSV files in docs/bench/current/, so that the pages cannot drift from the
measurements (Python 3, standard library only).

    tools/perf_tables.py [--data DIR] [--check] [PAGE ...]
    tools/perf_tables.py --import-bench bench.csv --commit C --date D [--data DIR]
    tools/perf_tables.py --import-scale scale.csv --kind real|logical --commit C --date D [--data DIR]

Pages (default: docs/performance.md and README.md) mark each table they hold:

    <!-- perf-table: NAME -->
    (whatever is here is rewritten)
    <!-- /perf-table -->

NAME is one-gpu:PRIMITIVE (bfs, dobfs, sssp, cc, pr, bc), headline (one row
per primitive from one-gpu.csv), multi:real, multi:logical, memory,
time-to-answer or beyond-memory. --check writes nothing, prints a diff of
each page that differs from what the data gives, and exits 1.

--import-bench takes gr_bench.py's bench.csv and --import-scale
gr_scale.py's scale.csv (strong scaling) into one-gpu.csv and
multi-device.csv: a row of the same case is replaced (its peers kept), a
new one added. Then run the script again to rewrite the pages.

Exit codes: 0 done (pages up to date), 1 a page out of date (--check),
2 bad data, page or arguments."""
import argparse
import csv
import difflib
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRIMITIVES = {"bfs": "BFS", "dobfs": "DOBFS", "sssp": "SSSP", "cc": "CC", "pr": "PageRank", "bc": "BC"}

# Each data file and its columns, in order (import appends rows in this shape).
FILES = {
    "one-gpu": ["primitive", "graph", "gpu", "median", "min", "unit", "gteps", "gapbs", "gunrock", "peers",
                "floor", "floor_basis", "x_floor", "current", "command", "commit", "date", "note", "headline"],
    "multi-device": ["kind", "primitive", "graph", "gpu", "devices", "exchange", "one", "many", "unit", "split",
                     "bytes", "model", "current", "command", "commit", "date", "note"],
    "memory": ["case", "gpu", "devices", "peak_gib", "base_gib", "base", "current", "command", "commit", "date",
               "note"],
    "time-to-answer": ["case", "gpu", "devices", "load", "partition", "subgraphs", "setup", "runs", "extract",
                       "total", "validate", "total_validated", "current", "command", "commit", "date", "note"],
    "beyond-memory": ["primitive", "graph", "arcs", "gpu", "lists", "device_limit", "device_peak", "host_lists",
                      "median", "min", "gteps", "floor", "floor_basis", "current", "command", "commit", "date",
                      "note"],
}
MARK = re.compile(r"^<!-- perf-table: (\S+) -->$")
END = "<!-- /perf-table -->"


class DataError(Exception):
    pass


def load(data, name):
    path = os.path.join(data, name + ".csv")
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
            cols = rows[0].keys() if rows else []
    except OSError as e:
        raise DataError(f"{path}: {e.strerror}") from None
    missing = [c for c in FILES[name] if c not in cols]
    if rows and missing:
        raise DataError(f"{path}: missing columns {', '.join(missing)}")
    for i, r in enumerate(rows, 2):
        for c in ("commit", "date"):
            if not r[c].strip():
                raise DataError(f"{path}:{i}: every row names its {c}")
        if not re.fullmatch(r"\d{4}-\d\d-\d\d", r["date"]):
            raise DataError(f"{path}:{i}: date {r['date']!r} is not YYYY-MM-DD")
    return rows


def save(data, name, rows):
    path = os.path.join(data, name + ".csv")
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FILES[name], lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def num(text, where):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        raise DataError(f"{where}: {text!r} is not a number") from None


def times(x):
    """A ratio as the pages print it: 27x, 8.3x."""
    return f"{x:.0f}×" if x >= 10 else f"{x:.1f}×"


def cell(text):
    return text.replace("|", "\\|")


class Notes:
    """Footnotes of one table: each distinct text once, numbered in order."""

    def __init__(self):
        self.texts = []

    def ref(self, text):
        if not text:
            return ""
        if text not in self.texts:
            self.texts.append(text)
        return f" [{self.texts.index(text) + 1}]"

    def stale(self, row):
        """A row measured on kernels older than today's says so by its date."""
        return "" if row["current"] == "yes" else self.ref("Older than today's code: " + row["current"])

    def lines(self):
        return [""] + [f"- [{i}] {cell(t)}" for i, t in enumerate(self.texts, 1)] if self.texts else []


def table(head, rows, notes):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(cell(c) for c in r) + " |" for r in rows]
    return out + notes.lines()


def code(text):
    return f"`{text}`" if text else ""


def value(row, key, unit, where):
    if not row[key]:
        return ""
    num(row[key], where)
    return f"{row[key]} {unit}"


def one_gpu(rows, primitive):
    notes, out = Notes(), []
    for i, r in enumerate(r for r in rows if r["primitive"] == primitive):
        where = f"one-gpu.csv, {primitive} {r['graph']} {r['gpu']}"
        med = num(r["median"], where)
        gr = f"**{r['median']} {r['unit']}**" + (f" ({r['min']})" if r["min"] else "")
        peers = notes.ref(r["peers"])
        lead = []
        for name in ("gapbs", "gunrock"):
            if r[name]:
                lead.append(f"{times(num(r[name], where) / med)} {'GAPBS' if name == 'gapbs' else 'Gunrock'}")
        floor = value(r, "floor", r["unit"], where)
        x_floor = r["x_floor"] or (times(med / num(r["floor"], where)) if r["floor"] else "")
        if x_floor and not x_floor.endswith("×"):
            x_floor += "×"
        gapbs = value(r, "gapbs", r["unit"], where) + (peers if r["gapbs"] else "")
        gunrock = value(r, "gunrock", r["unit"], where) + (peers if r["gunrock"] and not r["gapbs"] else "")
        out.append([r["graph"], r["gpu"], gr, r["gteps"], gapbs, gunrock,
                    ", ".join(lead), floor + notes.ref(r["floor_basis"]), x_floor, code(r["command"]), r["commit"],
                    r["date"] + notes.stale(r), r["note"]])
    if not out:
        raise DataError(f"one-gpu.csv: no row for {primitive}")
    return table(["graph", "GPU", "gr, median (min)", "GTEPS", "GAPBS", "Gunrock", "gr's lead", "floor", "× floor",
                  "command", "commit", "date", "note"], out, notes)


def headline(rows):
    notes, out = Notes(), []
    for p in PRIMITIVES:
        for r in (r for r in rows if r["primitive"] == p and r["headline"] == "yes"):
            where = f"one-gpu.csv, {p} {r['graph']}"
            lead = times(num(r["gapbs"], where) / num(r["median"], where)) if r["gapbs"] else ""
            out.append([PRIMITIVES[p], r["graph"], r["gpu"], f"{r['median']} {r['unit']}",
                        value(r, "gapbs", r["unit"], where), lead, r["date"] + notes.stale(r)])
    return table(["primitive", "graph", "GPU", "gr, median", "GAPBS, 16 cores", "gr's lead", "measured"], out, notes)


def multi(rows, kind):
    notes, out = Notes(), []
    for r in (r for r in rows if r["kind"] == kind):
        where = f"multi-device.csv, {r['primitive']} {r['graph']} {r['devices']}"
        one = value(r, "one", r["unit"], where)
        many = value(r, "many", r["unit"], where)
        row = [PRIMITIVES.get(r["primitive"], r["primitive"]), r["graph"], r["gpu"], r["devices"], r["exchange"],
               one, many]
        if kind == "real":
            row.append(f"{num(r['one'], where) / num(r['many'], where):.2f}×" if r["one"] and r["many"] else "")
            row.append(f"{num(r['model'], where):.2f}×" if r["model"] else "")
        else:
            row += [r["split"], r["bytes"]]
        out.append(row + [code(r["command"]), r["commit"], r["date"] + notes.stale(r), r["note"]])
    if kind == "real":
        head = ["primitive", "graph", "GPU", "GPUs", "exchange", "1 GPU", "N GPUs", "speed-up", "model's speed-up"]
    elif kind == "logical":
        head = ["primitive", "graph", "GPU", "logical devices", "exchange", "1 device", "N logical devices",
                "per device: compute / package / combine / waiting (ms)", "bytes per run"]
    else:
        raise DataError(f"multi:{kind}: the kinds are real and logical")
    return table(head + ["command", "commit", "date", "note"], out, notes)


def memory(rows):
    notes, out = Notes(), []
    for r in rows:
        where = f"memory.csv, {r['case']}"
        ratio = f"{num(r['peak_gib'], where) / num(r['base_gib'], where):.2f}"
        out.append([r["case"], r["gpu"], r["devices"], f"{r['peak_gib']} GiB", f"{r['base_gib']} GiB ({r['base']})",
                    ratio, code(r["command"]), r["commit"], r["date"] + notes.stale(r), r["note"]])
    return table(["case", "GPU", "devices", "peak per device", "against", "ratio", "command", "commit", "date",
                  "note"], out, notes)


def time_to_answer(rows):
    notes, out = Notes(), []
    phases = ["load", "partition", "subgraphs", "setup", "runs", "extract", "total", "validate", "total_validated"]
    for r in rows:
        for p in phases:
            if r[p]:
                num(r[p], f"time-to-answer.csv, {r['case']}, {p}")
        out.append([r["case"], r["gpu"], r["devices"]] + [r[p] for p in phases]
                   + [code(r["command"]), r["commit"], r["date"] + notes.stale(r), r["note"]])
    return table(["case", "GPU", "devices", "load", "partition", "subgraphs", "setup", "runs", "extract",
                  "**total**", "validate", "**total, validated**", "command", "commit", "date", "note"], out, notes)


def beyond_memory(rows):
    notes, out = Notes(), []
    for r in rows:
        where = f"beyond-memory.csv, {r['primitive']} {r['graph']} {r['lists']}"
        med = num(r["median"], where)
        x_floor = times(med / num(r["floor"], where)) if r["floor"] else ""
        out.append([PRIMITIVES.get(r["primitive"], r["primitive"]), f"{r['graph']} ({r['arcs']} arcs)", r["gpu"],
                    r["lists"], r["device_limit"], r["device_peak"], r["host_lists"],
                    f"**{r['median']} ms**" + (f" ({r['min']})" if r["min"] else ""), r["gteps"],
                    (f"{r['floor']} ms" if r["floor"] else "") + notes.ref(r["floor_basis"]), x_floor,
                    code(r["command"]), r["commit"], r["date"] + notes.stale(r), r["note"]])
    return table(["primitive", "graph", "GPU", "lists", "device memory limit", "device memory, peak",
                  "host memory for the lists", "median (min)", "GTEPS", "floor", "× floor", "command", "commit",
                  "date", "note"], out, notes)


def render(name, data, cache):
    def rows(f):
        if f not in cache:
            cache[f] = load(data, f)
        return cache[f]

    if name.startswith("one-gpu:"):
        p = name.split(":", 1)[1]
        if p not in PRIMITIVES:
            raise DataError(f"{name}: unknown primitive (one of {', '.join(PRIMITIVES)})")
        return one_gpu(rows("one-gpu"), p)
    if name.startswith("multi:"):
        return multi(rows("multi-device"), name.split(":", 1)[1])
    makers = {"headline": ("one-gpu", headline), "memory": ("memory", memory),
              "time-to-answer": ("time-to-answer", time_to_answer), "beyond-memory": ("beyond-memory", beyond_memory)}
    if name not in makers:
        raise DataError(f"unknown table {name!r}")
    f, make = makers[name]
    return make(rows(f))


def rewrite(text, path, data, cache):
    """The page with every marked table written from the data."""
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        m = MARK.match(lines[i])
        out.append(lines[i])
        i += 1
        if not m:
            continue
        start = i
        while i < len(lines) and lines[i] != END:
            if MARK.match(lines[i]):
                break
            i += 1
        if i == len(lines) or lines[i] != END:
            raise DataError(f"{path}:{start}: table {m.group(1)} has no {END}")
        try:
            out += [""] + render(m.group(1), data, cache) + [""]
        except DataError as e:
            raise DataError(f"{path}:{start}: {e}") from None
        out.append(END)
        i += 1
    return "\n".join(out)


def short_command(cmd):
    """gr_bench's or gr_scale's gr_run command without its report path and
    with folders left out: what a reader types."""
    words = cmd.split()
    keep, skip = [], False
    for w in words:
        if skip:
            skip = False
            continue
        if w in ("--json", "--timeline", "--quiet"):
            skip = w == "--json"
            continue
        keep.append(os.path.basename(w) if "/" in w else w)
    return " ".join(keep)


def gpu_name(device):
    """The GPU's model as the pages name it: NVIDIA H100 80GB HBM3 is H100."""
    words = device.replace("NVIDIA ", "").split()
    return words[0] if words else "?"


def import_bench(args):
    rows = load(args.data, "one-gpu")
    with open(args.import_bench, newline="") as f:
        bench = list(csv.DictReader(f))
    added = 0
    for b in bench:
        m = re.fullmatch(r"(?:(\S+) )?(.+?) \[(.+)\]", b["case"])
        p = re.search(r"--primitive (\S+)", b.get("command", ""))
        if not m or not p:
            raise DataError(f"{args.import_bench}: case {b['case']!r}: no primitive or variant")
        if m.group(3) != args.variant:
            continue
        if b["status"] != "ok":
            raise DataError(f"{args.import_bench}: {b['case']}: {b['status']} (only cases that ran and validated)")
        primitive, graph, gpu = p.group(1), m.group(2), gpu_name(b["device"])
        med = float(b["median_ms"])
        new = {c: "" for c in FILES["one-gpu"]}
        old = [r for r in rows if (r["primitive"], r["graph"], r["gpu"]) == (primitive, graph, gpu)]
        if old:
            new.update({c: old[0][c] for c in ("gapbs", "gunrock", "peers", "headline")})
        x = float(b["x_floor"]) if b.get("x_floor") else 0
        new.update(primitive=primitive, graph=graph, gpu=gpu, median=f"{med:.4g}", min=f"{float(b['min_ms']):.4g}",
                   unit="ms", gteps=f"{float(b['gteps']):.3g}" if b.get("gteps") else "",
                   floor=f"{med / x:.3g}" if x else "",
                   floor_basis="the bytes a run must move, at the benchmark list's bandwidth" if x else "",
                   current="yes", command=short_command(b["command"]), commit=args.commit, date=args.date,
                   note=args.note)
        rows = [r for r in rows if r not in old] + [new]
        added += 1
    save(args.data, "one-gpu", rows)
    print(f"perf_tables: {added} rows from {args.import_bench} in one-gpu.csv")


def import_scale(args):
    rows = load(args.data, "multi-device")
    with open(args.import_scale, newline="") as f:
        scale = list(csv.DictReader(f))
    base = {}
    for s in scale:
        if s["kind"] != "strong":
            raise DataError(f"{args.import_scale}: {s['kind']} scaling: only strong scaling has a one-device baseline")
        if s["devices"] == s["baseline_devices"]:
            base[s["primitive"]] = s
    added = 0
    for s in scale:
        if s is base.get(s["primitive"]):
            continue
        if s["status"] != "ok" or s["valid"] != "true":
            raise DataError(f"{args.import_scale}: {s['primitive']} on {s['devices']}: {s['status']}, "
                            f"valid {s['valid']} (only cases that ran and validated)")
        if s["primitive"] not in base:
            raise DataError(f"{args.import_scale}: {s['primitive']}: no baseline row")
        split = " / ".join(f"{float(s[k]):.2f}" for k in ("compute_ms", "package_ms", "combine_ms", "wait_ms"))
        new = dict({c: "" for c in FILES["multi-device"]}, kind=args.kind, primitive=s["primitive"],
                   graph=s["graph"], gpu=gpu_name(s["device"]), devices=s["devices"],
                   exchange=f"{s['transport']}, {s['partitioner']}",
                   one=f"{float(base[s['primitive']]['median_ms']):.4g}", many=f"{float(s['median_ms']):.4g}",
                   unit="ms",
                   split=split if args.kind == "logical" else "",
                   bytes=f"{float(s['bytes_per_run']) / 1e6:.1f} MB" if args.kind == "logical" else "",
                   model=f"{float(s['model_speedup']):.2f}" if s.get("model_speedup") else "",
                   current="yes", command=short_command(s["command"]), commit=args.commit, date=args.date,
                   note=args.note)
        key = ("kind", "primitive", "graph", "gpu", "devices", "exchange")
        rows = [r for r in rows if tuple(r[k] for k in key) != tuple(new[k] for k in key)] + [new]
        added += 1
    save(args.data, "multi-device", rows)
    print(f"perf_tables: {added} rows from {args.import_scale} in multi-device.csv")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pages", nargs="*", help="pages to rewrite (default: docs/performance.md README.md)")
    ap.add_argument("--data", default=os.path.join(TOP, "docs", "bench", "current"), help="the CSV files")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 where a page is out of date")
    ap.add_argument("--import-bench", metavar="CSV", help="gr_bench.py's bench.csv into one-gpu.csv")
    ap.add_argument("--import-scale", metavar="CSV", help="gr_scale.py's scale.csv into multi-device.csv")
    ap.add_argument("--kind", choices=("real", "logical"), help="--import-scale: real GPUs or logical devices")
    ap.add_argument("--variant", default="default", help="--import-bench: the variant to take (default: default)")
    ap.add_argument("--commit", help="imports: the commit measured")
    ap.add_argument("--date", help="imports: the day measured, YYYY-MM-DD")
    ap.add_argument("--note", default="", help="imports: a note for every row taken")
    args = ap.parse_args()
    try:
        if args.import_bench or args.import_scale:
            if not args.commit or not args.date or not re.fullmatch(r"\d{4}-\d\d-\d\d", args.date):
                ap.error("imports need --commit and --date YYYY-MM-DD")
            if args.import_scale and not args.kind:
                ap.error("--import-scale needs --kind real or logical")
            if args.import_bench:
                import_bench(args)
            if args.import_scale:
                import_scale(args)
            return 0
        pages = args.pages or [os.path.join(TOP, "docs", "performance.md"), os.path.join(TOP, "README.md")]
        cache, stale = {}, 0
        for path in pages:
            with open(path) as f:
                text = f.read()
            new = rewrite(text, path, args.data, cache)
            if new == text:
                continue
            if args.check:
                stale += 1
                sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True), path,
                                                           path + " (from the data)"))
            else:
                with open(path, "w") as f:
                    f.write(new)
                print(f"perf_tables: rewrote {path}")
        if stale:
            print(f"perf_tables: {stale} page(s) out of date with {args.data}: run tools/perf_tables.py",
                  file=sys.stderr)
            return 1
        return 0
    except (DataError, OSError, KeyError, ValueError) as e:
        print(f"perf_tables: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
