# SPDX-License-Identifier: Apache-2.0
"""gr as a NetworkX backend (NetworkX >= 3.4): nx.pagerank(G, backend="gr"),
or every covered call once "gr" is in nx.config.backend_priority.

A NetworkX graph is converted once into a GrGraph: its nodes in NetworkX's
order (any hashable labels; vertex i of gr is the i-th node), CSR arrays in
NetworkX's adjacency order (both arcs of an undirected edge, parallel edges
of a multigraph once, their smallest weight) and the gr graph built from
them. NetworkX keeps the conversion in G.__networkx_cache__, so later calls
on an unchanged G skip it.

gr computes what costs (depths, distances, labels, ranks, dependencies);
what NetworkX defines by its own iteration order (the BFS tree among parents
of equal depth, the order of edges, layers and components) is derived from
gr's answer on the host in a vectorized pass over the reached vertices'
edges, so results equal NetworkX's. Arguments gr cannot honour are refused by
can_run (NetworkX then runs its own code, or says so when backend="gr" was
asked for); answers that depend on the data (non-uniform PageRank weights,
negative weights, float32 distances that are not shortest in float64) are
refused by raising NotImplementedError from the call, which NetworkX treats
the same way."""
import inspect
import itertools
import math
import operator

import networkx as nx
import numpy as np

import gr

from ._nx_info import backend_info

__all__ = ["BackendInterface", "GrGraph", "backend_info"]

if tuple(int(x) for x in nx.__version__.split(".")[:2]) < (3, 4):
    raise ImportError("gr's NetworkX backend needs NetworkX >= 3.4, found %s" % nx.__version__)
# NetworkX 3.5 changed how betweenness_centrality rescales a k-sample and
# bfs_layers' first layer.
_NX_35 = tuple(int(x) for x in nx.__version__.split(".")[:2]) >= (3, 5)

# gr keeps ranks in float32: an L1 change below this may never come.
PAGERANK_L1_FLOOR = 1e-6
# bfs_layers runs one BFS per source on gr; more sources than this are refused.
MAX_BFS_SOURCES = 64


class GrGraph:
    """A NetworkX graph converted for gr (see the module's docstring)."""

    __networkx_backend__ = "gr"

    def __init__(self, nodes, directed, multigraph, indptr, indices, weights=None, weights_int=False,
                 weight_attr=None, pred=None):
        self.__networkx_cache__ = {}
        self.nodes = nodes                  # label of vertex i
        self.directed = directed
        self.multigraph = multigraph
        self.indptr = indptr                # int64, n + 1
        self.indices = indices              # int64, out-neighbours in NetworkX's order
        self.weights = weights              # float64 per arc, or None
        self.weights_int = weights_int      # every weight a Python int: distances stay ints
        self.weight_attr = weight_attr      # the attribute the weights came from
        self._pred = pred                   # directed: G._pred, for reverse BFS (built on demand)
        self._index = None
        self.identity = False               # labels are 0..n-1 in order (set by convert_from_nx)
        self._gr = {}
        self._problems = {}
        self._reverse = None

    def __len__(self):
        return len(self.nodes)

    def is_directed(self):
        return self.directed

    def is_multigraph(self):
        return self.multigraph

    @property
    def index(self):
        """node label -> vertex index (built on first use)."""
        if self._index is None:
            self._index = {u: i for i, u in enumerate(self.nodes)}
        return self._index

    def __contains__(self, node):
        try:
            return node in self.index
        except TypeError:   # unhashable: not a node, as in NetworkX
            return False

    def reverse_csr(self):
        """In-neighbours in NetworkX's predecessor order (G._pred), for
        bfs_edges(reverse=True) on a directed graph."""
        if self._reverse is None:
            self._reverse = _csr(self._pred, self.nodes, self.index)
        return self._reverse

    def gr_graph(self, reverse=False, weights=None):
        """The gr graph of these arcs (reversed: the in-arcs); weights None,
        "unit" (every arc 1) or "attr" (the converted ones, as float32)."""
        key = (reverse, weights)
        if key not in self._gr:
            indptr, indices = self.reverse_csr() if reverse else (self.indptr, self.indices)
            w = {None: None, "unit": np.ones(indices.size), "attr": self.weights}[weights]
            self._gr[key] = gr.from_csr(indptr, indices, w)
        return self._gr[key]


def _problem(G, primitive, reverse=False, weights=None, predecessors=False, **opts):
    """The gr Problem of this converted graph, primitive and options on the
    devices nx.config.backends.gr names, set up once and kept with the
    graph: later calls only run it (setting a problem up on a GPU, the
    graph's upload and the buffers, costs more than a small run)."""
    ctx = _context()
    key = (primitive, reverse, weights, predecessors, id(ctx), tuple(sorted(opts.items())))
    p = G._problems.get(key)
    if p is None:
        p = gr.Problem(G.gr_graph(reverse=reverse, weights=weights), primitive, context=ctx,
                       predecessors=predecessors, **opts)
        G._problems[key] = p
    return p


def _csr(adj, nodes, index):
    """CSR arrays of a NetworkX adjacency (dict of dicts) in its own order."""
    n = len(nodes)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, adj.values()), dtype=np.int64, count=n), out=indptr[1:])
    m = int(indptr[-1])
    keys = itertools.chain.from_iterable(adj.values())
    if index is None:   # labels 0..n-1 in order: a label is its index
        indices = np.fromiter(keys, dtype=np.int64, count=m)
    else:
        indices = np.fromiter(map(index.__getitem__, keys), dtype=np.int64, count=m)
    return indptr, indices


def _weights(adj, attr, default, multigraph, m):
    """One weight per arc in CSR order; for a multigraph the smallest of the
    parallel edges' (as NetworkX's shortest paths take it). Returns the
    float64 array and whether every weight is an int."""
    get = operator.methodcaller("get", attr, default)
    data = itertools.chain.from_iterable(map(dict.values, adj.values()))
    if multigraph:
        values = [min(map(get, keyed.values())) for keyed in data]
    else:
        values = list(map(get, data))
    if len(values) != m:
        raise RuntimeError("gr: the graph changed during conversion")
    if not values:   # no edge: the source's distance stays the int 0
        return np.zeros(0), True
    arr = np.array(values)
    if arr.dtype.kind in "iub":
        return arr.astype(np.float64), True
    if arr.dtype.kind != "f":
        raise NotImplementedError("gr: edge attribute %r holds values that are not numbers" % (attr,))
    return arr, False


def convert_from_nx(G, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False, preserve_node_attrs=False,
                    preserve_graph_attrs=False, name=None, graph_name=None):
    """A NetworkX graph as a GrGraph. edge_attrs {attr: default} names the
    weight the call needs (NetworkX passes it from weight=)."""
    if isinstance(G, GrGraph):
        return G
    if not isinstance(G, nx.Graph):
        raise TypeError("gr: expected a NetworkX graph, got %r" % type(G))
    adj = G._adj  # successors of a DiGraph
    nodes = list(adj)
    n = len(nodes)
    # Labels 0..n-1 in order need no mapping (the common case, and the fast one).
    identity = all(type(u) is int for u in nodes) and nodes == list(range(n))
    index = None if identity else {u: i for i, u in enumerate(nodes)}
    indptr, indices = _csr(adj, nodes, index)
    weights, weights_int, attr = None, False, None
    if edge_attrs:
        if len(edge_attrs) != 1:
            raise NotImplementedError("gr: one edge attribute at most, got %s" % sorted(edge_attrs))
        attr, default = next(iter(edge_attrs.items()))
        weights, weights_int = _weights(adj, attr, default, G.is_multigraph(), indices.size)
    g = GrGraph(nodes, G.is_directed(), G.is_multigraph(), indptr, indices, weights, weights_int, attr,
                pred=G._pred if G.is_directed() else None)
    if index is not None:
        g._index = index
    g.identity = identity
    return g


def convert_to_nx(obj, *, name=None):
    """Results pass through; a GrGraph becomes a NetworkX graph of its arcs
    (and weights, under the attribute they came from)."""
    if not isinstance(obj, GrGraph):
        return obj
    H = (nx.MultiDiGraph if obj.multigraph else nx.DiGraph)() if obj.directed else \
        (nx.MultiGraph if obj.multigraph else nx.Graph)()
    H.add_nodes_from(obj.nodes)
    src = np.repeat(np.arange(len(obj.nodes)), np.diff(obj.indptr))
    nodes = obj.nodes
    if obj.weights is None:
        H.add_edges_from((nodes[u], nodes[v]) for u, v in zip(src.tolist(), obj.indices.tolist()))
    else:
        w = obj.weights.astype(np.int64).tolist() if obj.weights_int else obj.weights.tolist()
        H.add_edges_from((nodes[u], nodes[v], {obj.weight_attr: x})
                         for u, v, x in zip(src.tolist(), obj.indices.tolist(), w))
    return H


# ---- devices ---------------------------------------------------------------

_contexts = {}


def _context():
    """The gr context of nx.config.backends.gr's settings, made once per
    setting and kept (opening devices costs more than a small run)."""
    cfg = nx.config.backends.gr
    backend = {"cuda": "gpu"}.get(cfg.get("backend", "auto"), cfg.get("backend", "auto"))
    key = (backend, int(cfg.get("devices", 1)), cfg.get("partitioner"), int(cfg.get("cpu_threads", 0)))
    if key not in _contexts:
        kw = {"backend": backend, "devices": key[1]}
        if key[2]:
            kw["partitioner"] = key[2]
        if key[3]:
            kw["cpu_threads"] = key[3]
        _contexts[key] = gr.Context(**kw)
    return _contexts[key]


# ---- the host side of traversals --------------------------------------------

def _levels(indptr, indices, depth, first, limit):
    """NetworkX's BFS discovery from the vertices `first` (in that order),
    given every vertex's depth from them: yields (parents, children) index
    arrays, one pair per level, in the order NetworkX's queue discovers them.
    A child of depth L + 1 is discovered by the first vertex of depth L, in
    queue order, whose neighbour list (in adjacency order) holds it, so the
    order is the first occurrence of each such child in the frontier's
    concatenated neighbour lists. Levels stop after `limit` expansions."""
    frontier = np.asarray(first, dtype=np.int64)
    level = 0
    while frontier.size and level < limit:
        starts = indptr[frontier]
        counts = indptr[frontier + 1] - starts
        total = int(counts.sum())
        if total == 0:
            return
        # Arc positions of every frontier vertex's row, rows in frontier order.
        pos = np.repeat(starts - (np.cumsum(counts) - counts), counts) + np.arange(total)
        nbr = indices[pos]
        keep = depth[nbr] == level + 1
        nbr = nbr[keep]
        if nbr.size == 0:
            return
        owner = np.repeat(frontier, counts)[keep]
        first_at = np.unique(nbr, return_index=True)[1]
        first_at.sort()
        frontier = nbr[first_at]
        yield owner[first_at], frontier
        level += 1


def _bfs_depth(g, sources, reverse=False):
    """Depth of every vertex from the nearest of `sources` (indices), -1
    unreached: one gr BFS per source."""
    p = _problem(g, "bfs", reverse=reverse)
    depth = None
    for s in sources:
        d = p.run(int(s))
        if depth is None:
            depth = d
        else:
            both = (d >= 0) & ((depth < 0) | (d < depth))
            depth[both] = d[both]
    return depth


# ---- the functions ------------------------------------------------------------

def bfs_edges(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
    # A generator, as NetworkX's: errors show when iteration starts.
    if source not in G:
        # NetworkX raises from G.neighbors when the generator first runs.
        raise nx.NetworkXError("The node %s is not in the %s." % (source, "digraph" if G.directed else "graph"))
    back = bool(reverse and G.directed)
    indptr, indices = G.reverse_csr() if back else (G.indptr, G.indices)
    s = G.index[source]
    depth = _bfs_depth(G, [s], reverse=back)
    limit = len(G) if depth_limit is None else depth_limit
    nodes = G.nodes
    for parents, children in _levels(indptr, indices, depth, [s], limit):
        yield from zip(map(nodes.__getitem__, parents.tolist()), map(nodes.__getitem__, children.tolist()))


def _bfs_layers(G, sources):
    if sources in G:
        sources = [sources]
    # NetworkX's first layer is list(set(sources)) since 3.5, the sources
    # as given (repeats too) before: keep its order exactly.
    first = list(set(sources)) if _NX_35 else list(sources)
    for s in first:
        if s not in G:
            raise nx.NetworkXError("The node %s is not in the graph." % (s,))
    if not first:
        return
    idx = [G.index[s] for s in first]
    depth = _bfs_depth(G, dict.fromkeys(idx))
    yield first
    nodes = G.nodes
    for _, children in _levels(G.indptr, G.indices, depth, idx, len(G)):
        yield [nodes[i] for i in children.tolist()]


def single_source_shortest_path_length(G, source, cutoff=None):
    if source not in G:
        raise nx.NodeNotFound("Source %s is not in G" % (source,))
    if cutoff is None:
        cutoff = float("inf")
    s = G.index[source]
    depth = _bfs_depth(G, [s])
    out = {source: 0}
    nodes = G.nodes
    for level, (_, children) in enumerate(_levels(G.indptr, G.indices, depth, [s], cutoff), start=1):
        out.update(zip(map(nodes.__getitem__, children.tolist()), itertools.repeat(level)))
    return out


def _arc_weight(G, u, v):
    """The weight of arc u -> v for index arrays u, v (each arc exists)."""
    n = len(G)
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(G.indptr))
    keys = rows * n + G.indices
    order = np.argsort(keys, kind="stable")
    at = order[np.searchsorted(keys[order], u * n + v)]
    return G.weights[at]


def _dijkstra(G, source, cutoff, weight, paths):
    """Distances (and parents) from source, in float64 as NetworkX sums them,
    from gr's float32 run; NotImplementedError where they may differ."""
    if source not in G:
        raise nx.NodeNotFound("Node %s not found in graph" % (source,))
    if weight is not None and G.weight_attr != weight:
        raise NotImplementedError("gr: the graph was converted without edge attribute %r" % (weight,))
    n = len(G)
    w = G.weights if weight is not None else np.ones(G.indices.size)
    ints = G.weights_int if weight is not None else True
    if w.size and (w.min() < 0 or not np.isfinite(w).all()):
        raise NotImplementedError("gr: negative or infinite weights (gr's SSSP needs non-negative, finite ones)")
    s = G.index[source]
    dist32, pred = _problem(G, "sssp", weights="unit" if weight is None else "attr", predecessors=True).run(s)
    reached = np.isfinite(dist32)
    exact = ints and (not w.size or w.max() < 2 ** 24) and dist32[reached].max(initial=0) < 2 ** 24
    if exact:
        # Integer weights and distances below 2^24: float32 sums are exact.
        dist = dist32.astype(np.float64)
    else:
        # Sum again in float64 along gr's tree, root first, as NetworkX adds.
        dist = np.full(n, np.inf)
        dist[s] = 0.0
        tree = np.flatnonzero(reached & (pred >= 0))
        tree = tree[tree != s]
        wt = _arc_weight(G, pred[tree], tree)
        done = np.zeros(n, dtype=bool)
        done[s] = True
        while tree.size:
            ready = done[pred[tree]]
            if not ready.any():
                raise NotImplementedError("gr: the predecessors do not form a tree")
            t = tree[ready]
            dist[t] = dist[pred[t]] + wt[ready]
            done[t] = True
            tree, wt = tree[~ready], wt[~ready]
        # The float64 sums must be shortest in float64 too (float32 rounding
        # may have picked another tree): no arc may shorten a distance.
        rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(G.indptr))
        if np.any(dist[rows] + w < dist[G.indices]):
            raise NotImplementedError("gr: float32 distances are not shortest in float64 on this graph")
    if paths:
        # NetworkX's path follows the first tight arc its heap order meets;
        # that choice is only certain where a vertex has one tight arc in.
        rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(G.indptr))
        tight = reached[rows] & (rows != G.indices) & (dist[rows] + w == dist[G.indices])
        count = np.bincount(G.indices[tight], minlength=n)
        count[s] = 1
        if np.any(count[reached] != 1):
            raise NotImplementedError("gr: several shortest-path predecessors; NetworkX's pick follows its heap order")
    keep = np.flatnonzero(reached & (dist <= cutoff)) if cutoff is not None else np.flatnonzero(reached)
    keep = keep[np.argsort(dist[keep], kind="stable")]
    values = dist[keep].astype(np.int64).tolist() if ints else dist[keep].tolist()
    return keep, values, pred


def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
    keep, values, _ = _dijkstra(G, source, cutoff, weight, paths=False)
    nodes = G.nodes
    return dict(zip(map(nodes.__getitem__, keep.tolist()), values))


def single_source_dijkstra_path(G, source, cutoff=None, weight="weight"):
    keep, _, pred = _dijkstra(G, source, cutoff, weight, paths=True)
    nodes = G.nodes
    s = G.index[source]
    paths = {}
    # keep is in distance order; with one tight arc per vertex and zero
    # weights, a parent may still come later among equal distances: retry.
    pending = keep.tolist()
    while pending:
        later = []
        for v in pending:
            if v == s:
                paths[v] = [source]
            elif pred[v] in paths:
                paths[v] = paths[pred[v]] + [nodes[v]]
            else:
                later.append(v)
        if len(later) == len(pending):
            raise NotImplementedError("gr: the predecessors do not form a tree")
        pending = later
    return {nodes[v]: paths[v] for v in keep.tolist()}


def _labels(G):
    """gr's component label (smallest index of the component) of every vertex."""
    return _problem(G, "cc").run()


def _connected_components(G):
    if len(G) == 0:
        return
    labels = _labels(G)
    order = np.argsort(labels, kind="stable")
    cuts = (np.flatnonzero(np.diff(labels[order])) + 1).tolist()
    # Components come in the order of their first node, as NetworkX's
    # scan over the nodes finds them: the label is that node's index.
    # Slices of one Python list: most components of sparse graphs are
    # single vertices, and an array per component would cost more.
    items = order.tolist()
    if not G.identity:
        items = list(map(G.nodes.__getitem__, items))
    for a, b in zip([0] + cuts, cuts + [len(items)]):
        yield set(items[a:b])


def number_connected_components(G):
    if len(G) == 0:
        return 0
    return int(np.unique(_labels(G)).size)


def is_connected(G):
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    return bool((_labels(G) == 0).all())


def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1.0e-6, nstart=None, weight="weight",
             dangling=None):
    n = len(G)
    if n == 0:
        return {}
    if max_iter <= 0:
        raise nx.PowerIterationFailedConvergence(max_iter)
    if weight is not None and G.weight_attr == weight and G.weights.size:
        w = G.weights
        # Only the ratios of a row's weights count; gr weighs every arc alike.
        if w.min() != w.max() or w[0] <= 0:
            raise NotImplementedError("gr: PageRank ignores weights and these differ (or are not positive)")
    # NetworkX stops when the L1 change falls below N * tol, as gr does
    # below its tolerance; gr's float32 ranks cannot go below the floor.
    l1 = min(max(n * tol, PAGERANK_L1_FLOOR), 1.99)
    # alpha is NetworkX's damping, the probability of following an edge
    # rather than jumping: gr's damping (can_run refused it outside [0, 1)).
    ranks, st = _problem(G, "pr", damping=float(alpha), tolerance=l1, max_iter=int(max_iter)).run(stats=True)
    if st["iteration_limit"]:
        raise nx.PowerIterationFailedConvergence(max_iter)
    return dict(zip(G.nodes, ranks.astype(np.float64).tolist()))


def _rescale(bc, n, normalized, directed, k, sampled):
    """NetworkX's scaling of raw betweenness sums (endpoints=False): its
    definition since 3.5 and, for NetworkX 3.4, that version's."""
    if not _NX_35:
        if normalized:
            scale = None if n <= 2 else 1 / ((n - 1) * (n - 2))
        else:
            scale = None if directed else 0.5
        if scale is not None:
            if k is not None:
                scale = scale * n / k
            bc *= scale
        return bc
    N = n - 1
    if N < 2:
        return bc
    K = N if k is None else k
    pairs = 1 if directed else 2
    if k is None:
        scale = 1 / (K * (N - 1)) if normalized else N / (K * pairs)
        if scale != 1:
            bc *= scale
        return bc
    # A sample: a source is not a pair's end for itself, so sources count
    # over K - 1 sources, the others over K.
    if normalized:
        s_source = 1 / ((K - 1) * (N - 1)) if K > 1 else math.nan
        s_other = 1 / (K * (N - 1))
    else:
        s_source = N / ((K - 1) * pairs) if K > 1 else math.nan
        s_other = N / (K * pairs)
    scale = np.full(n, s_other)
    scale[sampled] = s_source
    bc *= scale
    return bc


def betweenness_centrality(G, k=None, normalized=True, weight=None, endpoints=False, seed=None):
    n = len(G)
    if n == 0:
        return {}
    if k == n and _NX_35:
        k = None
    sampled = None
    if k is not None:
        # NetworkX's own draw, from the same node list, so that the same
        # seed picks the same sources.
        chosen = seed.sample(list(G.nodes), k)
        sampled = np.array([G.index[u] for u in chosen], dtype=np.int64)
    if sampled is not None and sampled.size == 0:
        bc = np.zeros(n)
    else:
        bc = _problem(G, "bc").run(sources="all" if sampled is None else sampled)
    bc = _rescale(np.asarray(bc, dtype=np.float64), n, normalized, G.directed, k, sampled)
    return dict(zip(G.nodes, bc.tolist()))


# ---- what NetworkX calls ---------------------------------------------------------

_IMPLS = {
    "bfs_edges": bfs_edges,
    "bfs_layers": _bfs_layers,
    "single_source_shortest_path_length": single_source_shortest_path_length,
    "single_source_dijkstra_path_length": single_source_dijkstra_path_length,
    "single_source_dijkstra_path": single_source_dijkstra_path,
    "connected_components": _connected_components,
    "number_connected_components": number_connected_components,
    "is_connected": is_connected,
    "pagerank": pagerank,
    "betweenness_centrality": betweenness_centrality,
}
_SIGNATURES = {name: inspect.signature(f) for name, f in _IMPLS.items()}


def _refusal(name, a, G):
    """Why gr cannot honour these arguments, or None."""
    if name == "bfs_edges" and a["sort_neighbors"] is not None:
        return "sort_neighbors is not supported"
    if name == "bfs_layers":
        sources = a["sources"]
        if sources not in G:
            try:
                count = len(sources)
            except TypeError:
                return "sources must be a node or a sized collection of nodes"
            if count > MAX_BFS_SOURCES:
                return "more than %d sources (one gr BFS runs per source)" % MAX_BFS_SOURCES
    if name.startswith("single_source_dijkstra") and callable(a["weight"]):
        return "a callable weight is not supported"
    if name == "pagerank":
        try:
            alpha = float(a["alpha"])
        except (TypeError, ValueError):
            return "alpha must be a number (alpha=%r)" % (a["alpha"],)
        # gr refuses a damping of 1 or more (no unique ranks without the
        # jump), below 0 and NaN; NetworkX decides what those mean.
        if not 0.0 <= alpha < 1.0:
            return "gr's damping is from 0 up to (not including) 1 (alpha=%r)" % (a["alpha"],)
        for arg in ("personalization", "nstart", "dangling"):
            if a[arg] is not None:
                return "%s is not supported" % arg
        if G.is_multigraph():
            return "multigraphs are not supported (parallel edges weigh in NetworkX's PageRank)"
    if name == "betweenness_centrality":
        if a["weight"] is not None:
            return "weighted betweenness is not supported"
        if a["endpoints"]:
            return "endpoints=True is not supported"
    return None


def can_run(name, args, kwargs):
    """True, or a string saying why gr cannot run `name` with these arguments."""
    if name not in _SIGNATURES:
        return "gr has no %s" % name
    try:
        bound = _SIGNATURES[name].bind(*args, **kwargs)
    except TypeError as e:
        return "arguments do not fit: %s" % e
    bound.apply_defaults()
    why = _refusal(name, bound.arguments, bound.arguments["G"])
    return True if why is None else why


def should_run(name, args, kwargs):
    return True


class BackendInterface:
    """What NetworkX loads through the networkx.backends entry point."""

    convert_from_nx = staticmethod(convert_from_nx)
    convert_to_nx = staticmethod(convert_to_nx)
    can_run = staticmethod(can_run)
    should_run = staticmethod(should_run)


for _name, _f in _IMPLS.items():
    setattr(BackendInterface, _name, staticmethod(_f))
