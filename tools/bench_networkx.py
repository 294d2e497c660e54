#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""NetworkX with and without the gr backend on one generated graph: PageRank,
betweenness over k sampled sources and connected components, each timed on
gr with the converted graph already cached (compute only) and on NetworkX;
the conversion of the NetworkX graph timed on its own. Answers are compared
too (components equal, betweenness within 1e-9, PageRank within its
stopping bound). Writes JSON and CSV and prints a table.

    python3 tools/bench_networkx.py                      # kron:16:16 on gr's CPU backend
    python3 tools/bench_networkx.py --backend cuda --devices 1 --out bench_gpu

The graph is an R-MAT/Kronecker graph drawn here with numpy (gr's generator
parameters: a=0.57, b=0.19, c=0.19, edge factor EF), made undirected, with
self-loops and duplicates removed, labels 0..n-1; --labels str relabels
every node with a string, to time the conversion's mapping of labels."""
import argparse
import csv
import datetime
import json
import os
import platform
import statistics
import sys
import time

import networkx as nx
import numpy as np

import gr
import gr.nx as grnx


def rmat(scale, edge_factor, seed):
    """Edges of an undirected R-MAT graph of 2^scale vertices (the vertex
    ids permuted, as gr's generator does, so that degree is not id order)."""
    rng = np.random.default_rng(seed)
    n, m = 1 << scale, edge_factor << scale
    src = np.zeros(m, dtype=np.int64)
    dst = np.zeros(m, dtype=np.int64)
    a, b, c = 0.57, 0.19, 0.19
    for bit in range(scale):
        r = rng.random(m)
        right = (r >= a) & (r < a + b) | (r >= a + b + c)     # quadrants b and d
        down = r >= a + b                                       # quadrants c and d
        src |= down.astype(np.int64) << bit
        dst |= right.astype(np.int64) << bit
    perm = rng.permutation(n)
    src, dst = perm[src], perm[dst]
    keep = src != dst
    lo, hi = np.minimum(src[keep], dst[keep]), np.maximum(src[keep], dst[keep])
    pairs = np.unique(lo * n + hi)
    return n, pairs // n, pairs % n


def timed(f, runs):
    """Median and all wall times of `runs` calls of f, and f's last result."""
    times, out = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), times, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--graph", default="kron:16:16", help="kron:SCALE:EF (default kron:16:16, about 1 M edges)")
    ap.add_argument("--backend", default="cpu", choices=["cpu", "cuda"], help="gr's devices (default cpu)")
    ap.add_argument("--devices", type=int, default=1)
    ap.add_argument("--k", type=int, default=64, help="betweenness sources (default 64)")
    ap.add_argument("--runs", type=int, default=5, help="timed gr runs per function (median)")
    ap.add_argument("--nx-runs", type=int, default=1, help="timed NetworkX runs per function (median)")
    ap.add_argument("--labels", default="int", choices=["int", "str"], help="node labels of the NetworkX graph")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default="pagerank,betweenness,components", help="functions to run")
    ap.add_argument("--out", default="bench_networkx", help="writes OUT.json and OUT.csv")
    opts = ap.parse_args()

    try:
        kind, scale, ef = opts.graph.split(":")
        if kind != "kron":
            raise ValueError
        scale, ef = int(scale), int(ef)
    except ValueError:
        ap.error("--graph must be kron:SCALE:EF, got %r" % opts.graph)
    nx.config.warnings_to_ignore.add("cache")
    cfg = nx.config.backends.gr
    cfg.backend, cfg.devices = opts.backend, opts.devices

    n, src, dst = rmat(scale, ef, opts.seed)
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(zip(src.tolist(), dst.tolist()))
    if opts.labels == "str":
        G = nx.relabel_nodes(G, {i: "v%d" % i for i in range(n)})
    print("graph: %s, %d nodes, %d edges (NetworkX %s, gr %s, backend %s x%d)" % (
        opts.graph, G.number_of_nodes(), G.number_of_edges(), nx.__version__, gr.library_info()["version"],
        opts.backend, opts.devices))

    rows = []

    # Conversion: NetworkX graph -> CSR in NetworkX's order -> gr graph; what
    # the cache then holds. Each function's first call pays it once.
    for attrs, label in ((None, "conversion"), ({"weight": 1}, "conversion with weights")):
        def convert():
            g = grnx.convert_from_nx(G, edge_attrs=attrs)
            g.gr_graph()
            return g
        med, times, _ = timed(convert, 3)
        rows.append({"function": label, "gr_s": med, "gr_runs": times, "networkx_s": None, "speedup": None,
                     "same": None})
        print("  %-28s %8.3f s" % (label, med))

    k = min(opts.k, n)
    functions = {
        "pagerank": (lambda b: nx.pagerank(G, backend=b), "pagerank"),
        "betweenness": (lambda b: nx.betweenness_centrality(G, k=k, seed=opts.seed, backend=b),
                        "betweenness_centrality k=%d" % k),
        "components": (lambda b: list(nx.connected_components(G, backend=b)), "connected_components"),
    }
    for key in opts.only.split(","):
        if key not in functions:
            ap.error("--only: unknown function %r (pagerank, betweenness, components)" % key)
        f, label = functions[key]
        f("gr")   # converts and caches; later calls compute only
        med, times, got = timed(lambda: f("gr"), opts.runs)
        nx_med, nx_times, want = timed(lambda: f("networkx"), opts.nx_runs)
        if key == "pagerank":
            # Both stop on an L1 change below N * tol (1e-6): each lies
            # within 5.67 times that of the fixed point.
            l1 = sum(abs(got[v] - want[v]) for v in want)
            same = bool(l1 <= 12 * max(len(G) * 1e-6, grnx.PAGERANK_L1_FLOOR) + 1e-6)
        elif key == "betweenness":
            same = all(abs(got[v] - want[v]) <= 1e-9 * abs(want[v]) + 1e-12 for v in want)
        else:
            same = got == want
        rows.append({"function": label, "gr_s": med, "gr_runs": times, "networkx_s": nx_med,
                     "networkx_runs": nx_times, "speedup": nx_med / med, "same": same})
        print("  %-28s %8.3f s   networkx %8.3f s   %6.1fx   %s" % (
            label, med, nx_med, nx_med / med, "same answer" if same else "DIFFERENT ANSWER"))

    meta = {"graph": opts.graph, "nodes": G.number_of_nodes(), "edges": G.number_of_edges(),
            "labels": opts.labels, "backend": opts.backend, "devices": opts.devices, "k": k,
            "networkx": nx.__version__, "gr": gr.library_info(), "python": platform.python_version(),
            "machine": platform.machine(), "cpus": os.cpu_count(), "processor": platform.processor(),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "command": " ".join(sys.argv)}
    with open(opts.out + ".json", "w") as fh:
        json.dump({"meta": meta, "rows": rows}, fh, indent=1)
    with open(opts.out + ".csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["function", "gr_s", "networkx_s", "speedup", "same"])
        for r in rows:
            w.writerow([r["function"], "%.6f" % r["gr_s"],
                        "" if r["networkx_s"] is None else "%.6f" % r["networkx_s"],
                        "" if r["speedup"] is None else "%.2f" % r["speedup"],
                        "" if r["same"] is None else r["same"]])
    print("wrote %s.json, %s.csv" % (opts.out, opts.out))
    return 0 if all(r["same"] is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
