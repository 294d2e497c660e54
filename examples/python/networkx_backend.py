#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""gr from Python, two ways: the module on arrays, and NetworkX calls sent
to gr by the backend. After `pip install ./python` (docs/python.md):

    python3 examples/python/networkx_backend.py
"""
import networkx as nx
import numpy as np

import gr

print(gr.library_info())

# 1. The module: a graph from CSR arrays (a 6-cycle with a chord), results
#    as numpy arrays indexed by vertex.
indptr = np.array([0, 3, 5, 7, 10, 12, 14])
indices = np.array([1, 5, 3, 0, 2, 1, 3, 2, 4, 0, 3, 5, 4, 0])
g = gr.from_csr(indptr, indices, undirected=True)
print("depths from 0:", gr.bfs(g, 0))
print("ranks:", np.round(gr.pagerank(g, tolerance=1e-6), 4))

# 2. The NetworkX backend: any labels; the graph converts once and NetworkX
#    keeps the conversion on G (G.__networkx_cache__).
G = nx.les_miserables_graph()
nx.config.warnings_to_ignore.add("cache")        # NetworkX notes every use of its cache
bc = nx.betweenness_centrality(G, backend="gr")
print("most between:", max(bc, key=bc.get))
print("bfs edges from Valjean:", list(nx.bfs_edges(G, "Valjean", depth_limit=1, backend="gr"))[:3], "...")

# Or for every covered call; arguments gr cannot honour run in NetworkX.
nx.config.backend_priority.algos = ["gr"]
nx.config.backends.gr.backend = "cpu"            # or "cuda"; devices, partitioner too
print("components:", nx.number_connected_components(G))
print("pagerank, alpha=0.9 (on gr):", round(nx.pagerank(G, alpha=0.9, weight=None)["Valjean"], 4))
print("pagerank, personalized (NetworkX's own code):",
      round(nx.pagerank(G, personalization={"Valjean": 1})["Valjean"], 4))
