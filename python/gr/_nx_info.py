# SPDX-License-Identifier: Apache-2.0
"""What NetworkX learns about the gr backend when it starts (the
networkx.backend_info entry point): the functions, what each does
differently, and the options of nx.config.backends.gr.

NetworkX reads this while it is itself being imported, so this module
must not import networkx (the backend itself, gr.nx, does, when NetworkX
first dispatches to it)."""

_FUNCTIONS = {
    "bfs_edges": "Depths on gr; NetworkX's edge order rebuilt on the host. sort_neighbors is refused.",
    "bfs_layers": "Depths on gr (one run per source, at most 64 sources); layers in NetworkX's order.",
    "single_source_shortest_path_length": "Depths on gr; the dict in NetworkX's order.",
    "single_source_dijkstra_path_length": (
        "Distances on gr (float32), summed again in float64 along gr's tree and checked to be "
        "shortest in float64; falls back to NetworkX when they are not, on negative weights and "
        "for a callable weight."),
    "single_source_dijkstra_path": (
        "As single_source_dijkstra_path_length; falls back to NetworkX when a vertex has several "
        "shortest-path predecessors (NetworkX's choice among them follows its heap order)."),
    "connected_components": "Labels on gr; components in NetworkX's order.",
    "number_connected_components": "Labels on gr.",
    "is_connected": "Labels on gr.",
    "pagerank": (
        "Ranks on gr (float32, dangling rank spread evenly), stopped by NetworkX's rule (L1 change "
        "below N * tol, at least 1e-6: float32's floor); alpha is gr's damping. Refused: alpha "
        "outside [0, 1), personalization, nstart, dangling, multigraphs; non-uniform weights fall "
        "back."),
    "betweenness_centrality": (
        "Brandes on gr over all sources or NetworkX's own k-sample (seed.sample of the node "
        "list), rescaled as NetworkX does. Refused: weight, endpoints=True."),
}


def backend_info():
    """The dict NetworkX's backend_info entry point asks for."""
    return {
        "backend_name": "gr",
        "project": "gr",
        "package": "gr",
        "short_summary": "gr: graph primitives on GPUs or CPU devices (BFS, SSSP, CC, PageRank, BC)",
        "functions": {name: {"additional_docs": doc} for name, doc in _FUNCTIONS.items()},
        # nx.config.backends.gr: the devices every call runs on.
        "default_config": {
            "backend": "auto",      # auto (GPUs when present, else CPU devices), cpu, or cuda
            "devices": 1,           # number of devices
            "partitioner": None,    # several devices: random (gr's default), biased, metis, static, range
            "cpu_threads": 0,       # threads per CPU device (0: host threads / devices)
        },
    }
