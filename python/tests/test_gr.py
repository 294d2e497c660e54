# SPDX-License-Identifier: Apache-2.0
"""The Python module against networkx on small graphs, on one and several
CPU devices (GPUs take the same path through the library)."""
import math
import os
import tempfile

import networkx as nx
import numpy as np
import pytest

import gr

DEVICES = [1, 2, 3]


def csr_of(G, weight=None):
    """CSR arrays of a networkx graph over nodes 0..n-1 (both arcs of an
    undirected edge, as gr keeps them)."""
    n = G.number_of_nodes()
    rows = [[] for _ in range(n)]
    for u, v, d in G.edges(data=True):
        w = d.get(weight, 1.0) if weight else None
        rows[u].append((v, w))
        if not G.is_directed() and u != v:
            rows[v].append((u, w))
    indptr = np.zeros(n + 1, dtype=np.int64)
    indptr[1:] = np.cumsum([len(r) for r in rows])
    indices = np.array([v for r in rows for v, _ in sorted(r)], dtype=np.int64)
    weights = np.array([w for r in rows for _, w in sorted(r)], dtype=np.float32) if weight else None
    return indptr, indices, weights


def graphs():
    """Small graphs of different shapes, with integer weights."""
    out = []
    for seed, (n, p) in enumerate([(40, 0.08), (70, 0.03), (55, 0.15)]):
        out.append(nx.gnp_random_graph(n, p, seed=seed))
    out.append(nx.gnp_random_graph(50, 0.05, seed=9, directed=True))
    out.append(nx.convert_node_labels_to_integers(nx.grid_2d_graph(6, 7)))
    out.append(nx.path_graph(9))
    rng = np.random.default_rng(5)
    for G in out:
        for u, v in G.edges():
            G[u][v]["w"] = float(rng.integers(1, 20))
    return out


GRAPHS = graphs()


def gr_graph(G, weighted=False):
    indptr, indices, weights = csr_of(G, "w" if weighted else None)
    return gr.from_csr(indptr, indices, weights, undirected=not G.is_directed())


@pytest.mark.parametrize("prim,devices", [(p, d) for p in ("bfs", "dobfs") for d in DEVICES])
def test_bfs_depths_match_networkx(prim, devices):
    for G in GRAPHS:
        g = gr_graph(G)
        src = max(G.nodes(), key=G.degree)
        depth, pred = gr.run(g, prim, src, predecessors=True, devices=devices, backend="cpu", validate=True)
        want = nx.single_source_shortest_path_length(G, src)
        expect = np.array([want.get(v, -1) for v in range(G.number_of_nodes())])
        np.testing.assert_array_equal(depth, expect)
        for v in range(G.number_of_nodes()):
            if v == src or depth[v] < 0:
                assert pred[v] == -1
            else:
                # Any parent one level up over an arc of the graph is right.
                assert depth[pred[v]] == depth[v] - 1
                assert G.has_edge(pred[v], v)


@pytest.mark.parametrize("devices", DEVICES)
def test_sssp_distances_match_dijkstra(devices):
    for G in GRAPHS:
        g = gr_graph(G, weighted=True)
        src = 0
        dist = gr.sssp(g, src, devices=devices, backend="cpu", validate=True)
        assert dist.dtype == np.float32
        want = nx.single_source_dijkstra_path_length(G, src, weight="w")
        for v in range(G.number_of_nodes()):
            if v in want:
                assert dist[v] == want[v]
            else:
                assert math.isinf(dist[v])


@pytest.mark.parametrize("devices", DEVICES)
def test_cc_labels_are_the_smallest_vertex_of_each_component(devices):
    for G in GRAPHS:
        g = gr_graph(G)
        label = gr.cc(g, devices=devices, backend="cpu", validate=True)
        comps = nx.weakly_connected_components(G) if G.is_directed() else nx.connected_components(G)
        expect = np.empty(G.number_of_nodes(), dtype=np.int64)
        for comp in comps:
            expect[list(comp)] = min(comp)
        np.testing.assert_array_equal(label, expect)


@pytest.mark.parametrize("block", [4, 32])
def test_cc_on_blocked_random_parts_matches_one_device(block):
    for G in GRAPHS:
        g = gr_graph(G)
        want = gr.cc(g, backend="cpu")
        np.testing.assert_array_equal(gr.cc(g, devices=3, backend="cpu", partition_block=block, validate=True), want)


@pytest.mark.parametrize("devices,turns", [(1, False), (2, False), (3, True)])
def test_pagerank_matches_networkx(devices, turns):
    for G in GRAPHS:
        g = gr_graph(G)
        rank = gr.pagerank(g, tolerance=1e-10, max_iter=1000, devices=devices, backend="cpu", validate=True,
                           turns=turns)
        want = nx.pagerank(G, alpha=0.85, tol=1e-13, max_iter=10000, weight=None)
        expect = np.array([want[v] for v in range(G.number_of_nodes())])
        assert rank.dtype == np.float32
        assert abs(rank.sum() - 1.0) < 1e-5
        np.testing.assert_allclose(rank, expect, atol=2e-6, rtol=1e-4)


@pytest.mark.parametrize("devices", [1, 2])
def test_pagerank_damping_matches_networkx_alpha(devices):
    """damping= is NetworkX's alpha: the same ranks at 0 (uniform), 0.5 and
    0.95, validated against the library's reference at that damping, and
    away from the default's."""
    for G in GRAPHS:
        g = gr_graph(G)
        default = gr.pagerank(g, tolerance=1e-10, max_iter=1000, devices=devices, backend="cpu")
        for d in (0.0, 0.5, 0.95):
            rank = gr.pagerank(g, damping=d, tolerance=1e-10, max_iter=5000, devices=devices, backend="cpu",
                               validate=True)
            want = nx.pagerank(G, alpha=d, tol=1e-13, max_iter=100000, weight=None)
            expect = np.array([want[v] for v in range(G.number_of_nodes())])
            assert abs(rank.sum() - 1.0) < 1e-5
            np.testing.assert_allclose(rank, expect, atol=2e-6, rtol=1e-4)
            assert np.abs(rank - default).sum() > 1e-3, d


def test_pagerank_refuses_dampings_outside_zero_to_one():
    g = gr_graph(GRAPHS[0])
    for d in (1, 1.0, 1.5, -0.1, float("nan"), float("inf"), "x"):
        with pytest.raises(gr.Error) as e:
            gr.pagerank(g, damping=d, backend="cpu")
        assert e.value.status == "GR_ERR_INVALID_ARG" and "damping" in str(e.value), d


def test_scipy_csr_is_accepted():
    sp = pytest.importorskip("scipy.sparse")
    G = GRAPHS[0]
    indptr, indices, weights = csr_of(G, "w")
    m = sp.csr_matrix((weights, indices, indptr), shape=(G.number_of_nodes(),) * 2)
    g = gr.from_csr(m, undirected=True)
    assert g.weighted and not g.directed
    dist = gr.sssp(g, 0)
    want = nx.single_source_dijkstra_path_length(G, 0, weight="w")
    assert all(dist[v] == d for v, d in want.items())
    # A matrix straight into a primitive, without weights.
    np.testing.assert_array_equal(gr.bfs(m, 0), gr.bfs(gr.from_csr(m, weights=False), 0))


def test_coo_arrays_and_a_shared_context():
    G = GRAPHS[3]  # directed
    src, dst = map(np.array, zip(*G.edges()))
    g = gr.from_coo(src, dst, n=G.number_of_nodes())
    assert g.directed and g.num_vertices == G.number_of_nodes() and g.num_edges == G.number_of_edges()
    with gr.Context(devices=2, backend="cpu") as ctx:
        assert ctx.devices == 2 and ctx.backend == "cpu"
        for s in (0, 5):
            depth = gr.bfs(g, s, context=ctx)
            want = nx.single_source_shortest_path_length(G, s)
            assert all(depth[v] == want.get(v, -1) for v in range(G.number_of_nodes()))


def test_a_problem_runs_again_from_any_source_as_run_does():
    G = GRAPHS[0]
    g = gr.from_coo(*map(np.array, zip(*G.edges())), n=G.number_of_nodes(), undirected=True)
    with gr.Problem(g, "bfs", devices=2, backend="cpu") as p:
        for s in (0, 3, 0, 7):
            np.testing.assert_array_equal(p.run(s), gr.bfs(g, s, devices=2, backend="cpu"))
    with gr.Problem(g, "bc") as p:
        np.testing.assert_allclose(p.run(sources=[1, 2]), gr.bc(g, sources=[1, 2]))
        np.testing.assert_allclose(p.run(sources="all"), gr.bc(g, sources="all"))
    with gr.Problem(g, "pr", tolerance=1e-4) as p:
        first, st = p.run(stats=True)
        np.testing.assert_array_equal(p.run(), first)
        assert st["iterations"] > 0
    with gr.Problem(g, "bc", sources=3) as p:   # a drawn count needs no source
        assert p.run().shape == (G.number_of_nodes(),)
    p = gr.Problem(g, "bfs")
    with pytest.raises(ValueError):
        p.run()                                  # bfs needs a source
    p.close()
    with pytest.raises(ValueError):
        p.run(0)                                 # closed


def test_problems_outlive_a_context_and_a_graph_closed_first():
    # A collector may finalize a context or a graph before the problems made
    # on them (at interpreter exit, objects in reference cycles), and a user
    # may close them: the library keeps both until their last problem goes.
    G = GRAPHS[0]
    g = gr.from_coo(*map(np.array, zip(*G.edges())), n=G.number_of_nodes(), undirected=True)
    want = {s: gr.bfs(g, s) for s in (0, 3)}
    ctx = gr.Context(devices=2, backend="cpu")
    first, second = gr.Problem(g, "bfs", context=ctx), gr.Problem(g, "cc", context=ctx)
    ctx.close()
    g.close()
    np.testing.assert_array_equal(first.run(3, validate=True), want[3])
    second.close()
    np.testing.assert_array_equal(first.run(0, validate=True), want[0])
    first.close()
    with pytest.raises(ValueError, match="graph is closed"):
        gr.Problem(g, "bfs")
    with pytest.raises(ValueError, match="graph is closed"):
        g.num_vertices
    assert "closed" in repr(g)
    with pytest.raises(ValueError, match="context is closed"):
        ctx.devices
    with pytest.raises(ValueError, match="context is closed"):
        gr.Problem(gr.from_coo([0], [1], n=2), "bfs", context=ctx)


def test_files_keep_their_ids():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "g.mtx")
        with open(path, "w") as f:
            f.write("%%MatrixMarket matrix coordinate pattern symmetric\n6 6 4\n2 1\n3 2\n5 4\n6 5\n")
        g = gr.load(path, cache=False)
        np.testing.assert_array_equal(g.ids(), np.arange(1, 7))
        np.testing.assert_array_equal(gr.cc(g), [1, 1, 1, 4, 4, 4])
        depth, pred = gr.bfs(g, 3, predecessors=True)
        np.testing.assert_array_equal(depth, [2, 1, 0, -1, -1, -1])
        np.testing.assert_array_equal(pred, [2, 3, -1, -1, -1, -1])


def test_generated_graph_and_stats():
    g = gr.generate("kron:9:8")
    assert g.num_vertices == 512 and "kron:9" in g.name
    depth, st = gr.bfs(g, 1, stats=True, devices=2, backend="cpu")
    assert st["devices"] == 2 and st["iterations"] >= 1 and st["reached"] == int((depth >= 0).sum())


def test_bad_input_raises_clear_errors():
    g = gr_graph(GRAPHS[0])
    with pytest.raises(gr.Error) as e:
        gr.bfs(g, 10_000)
    assert e.value.status == "GR_ERR_INVALID_ARG" and "10000" in str(e.value)
    with pytest.raises(gr.Error) as e:
        gr.sssp(g, 0)
    assert e.value.status == "GR_ERR_BAD_INPUT" and "weights" in str(e.value)
    with pytest.raises(gr.Error) as e:
        gr.bfs(g, 0, direction="sideways")
    assert "direction" in str(e.value)
    with pytest.raises(gr.Error):
        gr.run(g, "nosuch", 0)
    with pytest.raises(gr.Error) as e:
        gr.from_csr([0, 1, 2], [1, 7])
    assert "indices[1] = 7" in str(e.value)
    with pytest.raises(ValueError):
        gr.from_csr([0, 1, 2], [1])
    with pytest.raises(gr.Error) as e:
        gr.load("/nonexistent/graph.mtx")
    assert e.value.status == "GR_ERR_IO"
    with pytest.raises(ValueError):
        gr.bfs(g, None)


def test_gpu_ids_name_the_gpu_of_each_device():
    with pytest.raises(gr.Error) as e:
        gr.Context(gpu_ids=[0, 1], backend="cpu")
    assert "gpu-ids" in str(e.value)
    with pytest.raises(gr.Error) as e:
        gr.Context(gpu_ids=[gr.gpu_count() + 5])
    assert e.value.status == "GR_ERR_NO_DEVICE"
    with pytest.raises(gr.Error):
        gr.Context(gpu_ids="1,,2")
    if gr.gpu_count() > 0:
        # Two devices on GPU 0: the answer of one device.
        G = GRAPHS[0]
        with gr.Context(gpu_ids=[0, 0], transport="p2p") as ctx:
            assert ctx.devices == 2 and ctx.backend == "cuda"
            d = gr.bfs(gr_graph(G), 0, context=ctx)
        want = nx.single_source_shortest_path_length(G, 0)
        assert all(d[v] == want.get(v, -1) for v in range(G.number_of_nodes()))


def brandes_dependency(G, s):
    """Single-source dependencies (Brandes) of every vertex on s's shortest paths."""
    order, pred, sigma, _ = nx.algorithms.centrality.betweenness._single_source_shortest_path_basic(G, s)
    delta = dict.fromkeys(G, 0.0)
    while order:
        w = order.pop()
        for v in pred[w]:
            delta[v] += sigma[v] / sigma[w] * (1 + delta[w])
    delta[s] = 0.0
    return np.array([delta[v] for v in range(G.number_of_nodes())])


def test_bc_is_a_primitive_that_sums_over_sources():
    info = gr.primitives()["bc"]
    assert info["needs_source"] and info["accumulates_sources"]
    assert not gr.primitives()["bfs"]["accumulates_sources"]


@pytest.mark.parametrize("devices", DEVICES)
def test_bc_over_all_sources_matches_networkx(devices):
    for G in GRAPHS:
        g = gr_graph(G)
        n = G.number_of_nodes()
        got, st = gr.bc(g, sources="all", devices=devices, backend="cpu", validate=True, stats=True)
        assert got.dtype == np.float64 and got.shape == (n,) and st["sources"] == n
        want = nx.betweenness_centrality(G, normalized=False)
        # Every ordered pair counts: an undirected pair twice.
        expect = np.array([want[v] for v in range(n)]) * (1 if G.is_directed() else 2)
        np.testing.assert_allclose(got, expect, rtol=1e-12, atol=1e-9)
        got = gr.bc(g, sources="all", normalize=True, devices=devices, backend="cpu")
        want = nx.betweenness_centrality(G, normalized=True)
        np.testing.assert_allclose(got, [want[v] for v in range(n)], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("devices", [1, 3])
def test_bc_from_one_and_several_sources_sums_their_dependencies(devices):
    for G in GRAPHS:
        g = gr_graph(G)
        n = G.number_of_nodes()
        src = max(G.nodes(), key=G.degree)
        got = gr.bc(g, src, devices=devices, backend="cpu", validate=True)
        np.testing.assert_allclose(got, brandes_dependency(G, src), rtol=1e-12, atol=1e-9)
        listed = [0, 3, src]
        got = gr.bc(g, sources=listed, normalize=True, devices=devices, backend="cpu", validate=True)
        want = sum(brandes_dependency(G, s) for s in listed) * (n / len(listed)) / ((n - 1) * (n - 2))
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
        # A count draws that many sources, the graph's first seeded draw.
        drawn = g.sample_sources(5, seed=3)
        assert len(set(drawn)) == 5 and all(G.out_degree(v) if G.is_directed() else G.degree(v) for v in drawn)
        got, st = gr.bc(g, sources=5, seed=3, devices=devices, backend="cpu", validate=True, stats=True)
        assert st["sources"] == 5 and st["source"] == drawn[0]
        np.testing.assert_allclose(got, sum(brandes_dependency(G, s) for s in drawn), rtol=1e-12, atol=1e-9)


def test_bc_refuses_what_it_cannot_take():
    g = gr_graph(GRAPHS[0])
    with pytest.raises(gr.Error) as e:
        gr.bc(g, sources=[0, 10_000])
    assert e.value.status == "GR_ERR_INVALID_ARG" and "10000" in str(e.value)
    with pytest.raises(gr.Error) as e:
        gr.bc(g, sources=10_000)
    assert "out-edges" in str(e.value)
    with pytest.raises(gr.Error) as e:
        gr.run(g, "bfs", sources=[0, 1])
    assert "one source" in str(e.value)
    with pytest.raises(gr.Error) as e:
        gr.pagerank(g, normalize=True)
    assert "normalize" in str(e.value)
    with pytest.raises(ValueError):
        gr.bc(g, 0, sources="all")
    with pytest.raises(ValueError):
        gr.bc(g, sources="some")
