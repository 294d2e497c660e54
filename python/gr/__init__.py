# SPDX-License-Identifier: Apache-2.0
"""gr: graph primitives on GPUs or CPU devices, from Python.

    import gr, numpy as np
    g = gr.from_csr(indptr, indices, undirected=True)      # or gr.load("x.mtx"), a scipy.sparse matrix
    depth = gr.bfs(g, 0)                                   # int64, -1 unreached
    depth, parent = gr.bfs(g, 0, predecessors=True)
    dist = gr.sssp(g, 0)                                   # float32, inf unreached (needs weights)
    label = gr.cc(g)                                       # smallest vertex id of each component
    rank = gr.pagerank(g, tolerance=1e-6, damping=0.85)    # float32
    cent = gr.bc(g, sources="all", normalize=True)         # float64, networkx's normalized betweenness
    ctx = gr.Context(devices=2, backend="cpu")             # reuse devices: gr.bfs(g, 0, context=ctx)

Every result is indexed by vertex index 0..n-1; ids (sources, predecessors,
cc labels) are as the input names them (0-based for arrays and generated
graphs, 1-based for Matrix Market files; Graph.ids() maps index to id).
Options are gr's (gr/gr.h): devices, backend, partitioner, direction,
tolerance, damping, delta, max_iter, ... given as keyword arguments
(underscores for dashes). Errors raise gr.Error carrying the library's status and message.
"""
import ctypes

import numpy as np

from . import _lib
from ._lib import lib

__all__ = ["Error", "Context", "Graph", "load", "generate", "from_csr", "from_coo", "primitives", "run", "bfs",
           "dobfs", "sssp", "cc", "bc", "pagerank", "library_info", "gpu_count"]


class Error(RuntimeError):
    """A failed call: .status (e.g. "GR_ERR_BAD_INPUT") and the message."""

    def __init__(self, status, message):
        self.code = status
        self.status = lib.gr_status_name(status).decode()
        super().__init__("%s (%s)" % (message or lib.gr_status_string(status).decode(), self.status))


def _check(status):
    if status < 0:
        msg = lib.gr_error_message()
        raise Error(status, msg.decode(errors="replace") if msg else "")
    return status


def _text(value):
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


class _Options:
    """A gr_options handle filled from keyword arguments."""

    def __init__(self, **kw):
        self.h = ctypes.c_void_p()
        _check(lib.gr_options_create(ctypes.byref(self.h)))
        try:
            for key, value in kw.items():
                if value is None:
                    continue
                _check(lib.gr_options_set(self.h, key.replace("_", "-").encode(), _text(value).encode()))
        except Exception:
            self.close()
            raise

    def close(self):
        if self.h:
            lib.gr_options_destroy(ctypes.byref(self.h))

    def __del__(self):
        self.close()


_DEVICE_KEYS = {"backend", "devices", "gpu_ids", "cpu_threads", "mem", "partitioner", "partition_block", "bias",
                "proxy", "comm", "transport", "comm_format", "timeline", "turns", "seed"}


def library_info():
    """What this libgr was built with: version, cuda, nccl, metis,
    vertex_id_bits; and library, the file loaded (GR_LIBRARY, the package's
    own copy or the system's)."""
    li = _lib.LibraryInfo()
    lib.gr_library_get_info(ctypes.byref(li))
    return {"version": li.version.decode(), "vertex_id_bits": li.vertex_id_bits, "cuda": li.cuda,
            "nccl": li.nccl, "metis": li.metis, "library": lib._name}


def gpu_count():
    n = ctypes.c_int()
    _check(lib.gr_gpu_count(ctypes.byref(n)))
    return n.value


def primitives():
    """The primitives the library has, by name, with what each needs."""
    out = {}
    for i in range(lib.gr_primitive_count()):
        name = lib.gr_primitive_name(i)
        pi = _lib.PrimitiveInfo()
        _check(lib.gr_primitive_get_info(name, ctypes.byref(pi)))
        out[name.decode()] = {"summary": pi.summary.decode(), "needs_source": pi.needs_source,
                              "needs_weights": pi.needs_weights, "accumulates_sources": pi.accumulates_sources}
    return out


class _Closing:
    """A handle freed by close(): at the end of a with block, or when
    collected."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()


class Context(_Closing):
    """Devices and the exchange between them, reusable across calls.

    Context(devices=1, backend="auto"|"cpu"|"gpu", gpu_ids=[...], partitioner=...,
    proxy=..., comm=..., transport=..., mem=..., cpu_threads=..., seed=...);
    gpu_ids names the GPU of each device (e.g. [1, 3]; repeats share a GPU)."""

    def __init__(self, **kw):
        bad = set(kw) - _DEVICE_KEYS
        if bad:
            raise TypeError("Context() takes device options only; got %s" % ", ".join(sorted(bad)))
        o = _Options(**kw)
        self.h = ctypes.c_void_p()
        try:
            _check(lib.gr_context_create(ctypes.byref(self.h), o.h))
        finally:
            o.close()

    @property
    def backend(self):
        return self._info().backend.decode()

    @property
    def devices(self):
        return self._info().devices

    def _info(self):
        if not getattr(self, "h", None):
            raise ValueError("the context is closed")
        ci = _lib.ContextInfo()
        _check(lib.gr_context_get_info(self.h, ctypes.byref(ci)))
        return ci

    def close(self):
        if getattr(self, "h", None):
            lib.gr_context_destroy(ctypes.byref(self.h))


class Graph:
    """A graph held by the library (see load, generate, from_csr, from_coo)."""

    def __init__(self, handle):
        self.h = handle

    def _open(self):
        """The handle; a closed graph raises."""
        if not self.h:
            raise ValueError("the graph is closed")
        return self.h

    def _info(self):
        gi = _lib.GraphInfo()
        _check(lib.gr_graph_get_info(self._open(), ctypes.byref(gi)))
        return gi

    @property
    def num_vertices(self):
        return self._info().vertices

    @property
    def num_edges(self):
        return self._info().edges

    @property
    def directed(self):
        return self._info().directed

    @property
    def weighted(self):
        return self._info().weighted

    @property
    def name(self):
        return self._info().name.decode()

    def ids(self):
        """The input id of every vertex index (numpy int64)."""
        ids = np.empty(self.num_vertices, dtype=np.int64)
        _check(lib.gr_graph_ids(self.h, ids.ctypes.data_as(_lib.c_int64_p)))
        return ids

    def sample_sources(self, count, seed=1, draw=0):
        """count distinct vertices with out-edges (input ids, numpy int64):
        draw `draw` of the seeded draws, the ones gr.bc(sources=count)
        takes in its first run (and gr_run --sources in its run `draw`)."""
        h = self._open()
        ids = np.empty(int(count), dtype=np.int64)
        _check(lib.gr_graph_sample_sources(h, int(seed), int(draw), int(count),
                                           ids.ctypes.data_as(_lib.c_int64_p)))
        return ids

    def close(self):
        if getattr(self, "h", None):
            lib.gr_graph_destroy(ctypes.byref(self.h))

    def __del__(self):
        self.close()

    def __repr__(self):
        if not self.h:
            return "<gr.Graph (closed)>"
        gi = self._info()
        return "<gr.Graph %s: %d vertices, %d edges, %s%s>" % (
            gi.name.decode(), gi.vertices, gi.edges, "directed" if gi.directed else "undirected",
            ", weighted" if gi.weighted else "")


def load(path, **kw):
    """Reads a graph file (.mtx[.gz], edge list, .grb). Options: undirected,
    weights ("file", "none", "random:LO:HI"), self_loops, duplicates, format,
    cache, cache_dir, seed."""
    o = _Options(**kw)
    h = ctypes.c_void_p()
    try:
        _check(lib.gr_graph_open(ctypes.byref(h), str(path).encode(), o.h))
    finally:
        o.close()
    return Graph(h)


def generate(spec, **kw):
    """Generates a graph: "kron:SCALE:EF", "uniform:...", "grid2d:RxC", ..."""
    o = _Options(**kw)
    h = ctypes.c_void_p()
    try:
        _check(lib.gr_graph_generate(ctypes.byref(h), spec.encode(), o.h))
    finally:
        o.close()
    return Graph(h)


def _weights(w, m):
    if w is None:
        return None, None
    w = np.ascontiguousarray(w, dtype=np.float32)
    if w.shape != (m,):
        raise ValueError("weights must have one entry per edge (%d), got shape %s" % (m, w.shape))
    return w, w.ctypes.data_as(ctypes.POINTER(ctypes.c_float))


def from_csr(indptr, indices=None, weights=None, undirected=False, **kw):
    """A graph from CSR arrays (indptr of n + 1 entries, indices, optional
    weights), or from a square scipy.sparse matrix (its data become the
    weights unless weights=False). Arcs are directed unless undirected=True.
    The arrays are copied."""
    if indices is None and hasattr(indptr, "tocsr"):
        m = indptr.tocsr()
        if m.shape[0] != m.shape[1]:
            raise ValueError("an adjacency matrix must be square, got %s" % (m.shape,))
        m.sort_indices()
        use = weights if weights is not None else True
        indptr, indices, weights = m.indptr, m.indices, (m.data if use is True else (None if use is False else use))
    if indices is None:
        raise TypeError("from_csr needs indptr and indices, or a scipy.sparse matrix")
    indptr = np.ascontiguousarray(indptr, dtype=np.int64)
    indices = np.ascontiguousarray(indices, dtype=np.int64)
    if indptr.ndim != 1 or indptr.size < 1:
        raise ValueError("indptr must be a 1-d array of n + 1 offsets")
    n = indptr.size - 1
    if indptr[-1] != indices.size:
        raise ValueError("indptr[-1] (%d) must equal the number of indices (%d)" % (indptr[-1], indices.size))
    w, wp = _weights(weights, indices.size)
    o = _Options(undirected=undirected, **kw)
    h = ctypes.c_void_p()
    try:
        _check(lib.gr_graph_create_csr(ctypes.byref(h), n, indptr.ctypes.data_as(_lib.c_int64_p),
                                       indices.ctypes.data_as(_lib.c_int64_p), wp, o.h))
    finally:
        o.close()
    return Graph(h)


def from_coo(src, dst, n=None, weights=None, undirected=False, **kw):
    """A graph from arcs src[k] -> dst[k] over vertices 0..n-1 (n: one more
    than the largest id when not given)."""
    src = np.ascontiguousarray(src, dtype=np.int64)
    dst = np.ascontiguousarray(dst, dtype=np.int64)
    if src.shape != dst.shape or src.ndim != 1:
        raise ValueError("src and dst must be 1-d arrays of one length")
    if n is None:
        n = int(max(src.max(initial=-1), dst.max(initial=-1))) + 1
    w, wp = _weights(weights, src.size)
    o = _Options(undirected=undirected, **kw)
    h = ctypes.c_void_p()
    try:
        _check(lib.gr_graph_create_coo(ctypes.byref(h), n, src.size, src.ctypes.data_as(_lib.c_int64_p),
                                       dst.ctypes.data_as(_lib.c_int64_p), wp, o.h))
    finally:
        o.close()
    return Graph(h)


def _as_graph(g):
    if isinstance(g, Graph):
        g._open()
        return g
    if hasattr(g, "tocsr"):
        return from_csr(g)
    raise TypeError("expected a gr.Graph or a scipy.sparse matrix, got %r" % type(g))


_NP_TYPES = {_lib.VALUES_INT64: (ctypes.c_int64, np.int64), _lib.VALUES_FLOAT32: (ctypes.c_float, np.float32),
             _lib.VALUES_FLOAT64: (ctypes.c_double, np.float64)}


class Problem(_Closing):
    """A primitive set up for one graph on a context's devices (gr_problem):
    run it as often as wanted, from any source, and the graph stays on the
    devices in between, which is what makes repeated small runs cheap on a
    GPU (setting a problem up, not its kernels, is most of a small run).
    Options as run(): primitive options (tolerance=, max_iter=, sources=K,
    normalize=, ...) are fixed here; device options make a context of the
    problem's own unless context= gives one. Holds the graph and the
    context alive until close()."""

    def __init__(self, g, primitive, context=None, predecessors=False, **kw):
        self.h = ctypes.c_void_p()
        self._g = _as_graph(g)
        self.primitive = primitive
        self.predecessors = bool(predecessors)
        dev = {k: v for k, v in kw.items() if k in _DEVICE_KEYS}
        rest = {k: v for k, v in kw.items() if k not in _DEVICE_KEYS}
        if context is not None and dev:
            raise TypeError("give device options to the Context, not with context=")
        if context is not None and not isinstance(context, Context):
            raise TypeError("context= takes a gr.Context, got %r" % type(context))
        if context is not None and not context.h:
            raise ValueError("the context is closed")
        self._own = context is None
        self._ctx = Context(**dev) if self._own else context
        self.info = _lib.PrimitiveInfo()
        # sources=K draws the sources: a run then needs none given.
        self._counted = rest.get("sources") is not None
        o = _Options(mark_pred=True if predecessors else None, **rest)
        try:
            _check(lib.gr_primitive_get_info(primitive.encode(), ctypes.byref(self.info)))
            _check(lib.gr_problem_create(ctypes.byref(self.h), self._ctx.h, self._g.h, primitive.encode(), o.h))
        except Exception:
            self.close()
            raise
        finally:
            o.close()

    def run(self, source=None, sources=None, validate=False, stats=False):
        """One run from `source` (an input id), or over sources ("all" or a
        sequence of input ids; a count is the problem's sources= option);
        returns what run() returns."""
        listed = None
        if sources is not None:
            if source is not None:
                raise ValueError("give source or sources, not both")
            if isinstance(sources, str):
                if sources != "all":
                    raise ValueError("sources must be \"all\", a count or a sequence of ids, got %r" % sources)
            elif isinstance(sources, (int, np.integer)):
                raise ValueError("a count of sources is the Problem's sources= option")
            else:
                listed = np.ascontiguousarray(sources, dtype=np.int64)
                if listed.ndim != 1 or listed.size == 0:
                    raise ValueError("sources must be a non-empty 1-d sequence of vertex ids")
        if not self.h:
            raise ValueError("the problem is closed")
        if self.info.needs_source and source is None and sources is None and not self._counted:
            raise ValueError("%s needs a source vertex" % self.primitive)
        s = ctypes.c_void_p()
        p = self.h
        try:
            if listed is not None:
                _check(lib.gr_problem_run_sources(p, listed.ctypes.data_as(_lib.c_int64_p), listed.size,
                                                  ctypes.byref(s)))
            elif sources == "all":
                _check(lib.gr_problem_run_sources(p, None, 0, ctypes.byref(s)))
            else:
                _check(lib.gr_problem_run(p, int(source) if source is not None else -1, ctypes.byref(s)))
            if validate:
                _check(lib.gr_problem_validate(p))
            v = _lib.Values()
            _check(lib.gr_problem_get_values(p, ctypes.byref(v)))
            ctype, dtype = _NP_TYPES[v.type]
            n = v.n
            values = np.ctypeslib.as_array(ctypes.cast(v.values, ctypes.POINTER(ctype)), shape=(n,)).astype(
                dtype, copy=True) if n else np.empty(0, dtype=dtype)
            out = [values]
            if self.predecessors:
                if not v.predecessors:
                    raise ValueError("%s records no predecessors" % self.primitive)
                out.append(np.ctypeslib.as_array(v.predecessors, shape=(n,)).copy())
            if stats:
                rs = _lib.RunSummary()
                _check(lib.gr_stats_get_summary(s, ctypes.byref(rs)))
                out.append({f: getattr(rs, f) for f, _ in rs._fields_})
            return out[0] if len(out) == 1 else tuple(out)
        finally:
            if s:
                lib.gr_stats_destroy(ctypes.byref(s))

    def close(self):
        if getattr(self, "h", None):
            lib.gr_problem_destroy(ctypes.byref(self.h))
        if getattr(self, "_own", False) and getattr(self, "_ctx", None) is not None:
            self._ctx.close()
            self._ctx = None


def run(g, primitive, source=None, predecessors=False, validate=False, context=None, stats=False, sources=None,
        **kw):
    """Runs any primitive by name and returns its values as a numpy array;
    with predecessors=True also the predecessors (input ids, -1 none); with
    stats=True also a dict of the run's figures. validate=True checks the
    answer against the library's serial reference (gr.Error if wrong).
    sources (primitives that sum over sources, bc): "all", a count K (a
    seeded draw of K distinct vertices with out-edges) or a sequence of
    input ids, instead of source. Device options (devices, backend, ...)
    make a context for this call unless context= gives one. (A Problem
    keeps the set-up between runs.)"""
    if isinstance(sources, (int, np.integer)):
        if source is not None:
            raise ValueError("give source or sources, not both")
        kw["sources"] = int(sources)
        sources = None
    with Problem(g, primitive, context=context, predecessors=predecessors, **kw) as p:
        return p.run(source, sources=sources, validate=validate, stats=stats)


def bfs(g, source, **kw):
    """Depth of every vertex from source (int64, -1 unreached)."""
    return run(g, "bfs", source, **kw)


def dobfs(g, source, **kw):
    """BFS, direction-optimizing (direction="auto"|"push"|"pull")."""
    return run(g, "dobfs", source, **kw)


def sssp(g, source, **kw):
    """Distances from source over non-negative weights (float32, inf unreached)."""
    return run(g, "sssp", source, **kw)


def cc(g, **kw):
    """Connected components (weakly, for directed graphs): each vertex's
    label is the smallest input id of its component (int64)."""
    return run(g, "cc", **kw)


def pagerank(g, **kw):
    """PageRank, summing to 1 (float32); damping= (0 <= d < 1, default 0.85:
    the probability of following an out-edge, NetworkX's alpha), tolerance=,
    max_iter=."""
    return run(g, "pr", **kw)


def bc(g, source=None, sources=None, normalize=False, **kw):
    """Betweenness centrality (Brandes), float64: each vertex's dependencies
    summed over the sources, from one source, sources="all" (exact), a
    count K (a seeded draw of K distinct vertices with out-edges, an
    estimate) or a sequence of input ids. Unnormalized sums count a pair of
    an undirected graph in both directions (twice networkx's
    betweenness_centrality(normalized=False)); normalize=True scales to all
    n sources (n / K) and divides by (n - 1)(n - 2): networkx's normalized
    betweenness, directed or not."""
    return run(g, "bc", source, sources=sources, normalize=True if normalize else None, **kw)
