# SPDX-License-Identifier: Apache-2.0
"""gr's NetworkX backend against NetworkX itself on random graphs.

Exact equality (values, and order where NetworkX defines one: BFS edges and
layers, the BFS length dict, components) for the traversals, components and
integer-weight Dijkstra; Dijkstra over float weights equals NetworkX's
exactly where gr answers (it declines where float32 could differ).
Betweenness: within 1e-9 relative (+1e-12 absolute) of NetworkX, the
difference being the order of floating-point sums. PageRank: both solvers
stop on an L1 change, so the ranks are compared with NetworkX converged to
1e-13: their L1 distance is at most alpha / (1 - alpha) (5.67 at the
default 0.85) times gr's stopping change plus float32 rounding, checked as
6 x change + 1e-6 (other alphas: (alpha / (1 - alpha) + 1) x change +
1e-6)."""
import random
import string

import networkx as nx
import numpy as np
import pytest

# The backend reaches NetworkX through the package's entry points: a
# checkout on PYTHONPATH (as ctest's test_python runs) has none.
if not hasattr(getattr(nx.utils, "backends", None), "backends") or "gr" not in nx.utils.backends.backends:
    pytest.skip("NetworkX %s sees no gr backend (it needs NetworkX >= 3.4 and the package installed: "
                "pip install ./python)" % nx.__version__, allow_module_level=True)

import gr  # noqa: E402
import gr.nx as grnx  # noqa: E402


@pytest.fixture(autouse=True)
def quiet_cache():
    # NetworkX warns on every use of a cached conversion; these tests use
    # the cache on purpose.
    nx.config.warnings_to_ignore.add("cache")
    yield


def relabel(G, rng):
    """The same graph with labels of mixed hashable types, in shuffled order."""
    pool = [("t", i) for i in range(len(G))] + ["".join(rng.choice(string.ascii_letters) for _ in range(6)) + str(i)
                                                for i in range(len(G))]
    rng.shuffle(pool)
    mapping = dict(zip(G, pool))
    H = G.__class__()
    nodes = list(G)
    rng.shuffle(nodes)
    H.add_nodes_from(mapping[u] for u in nodes)
    edges = list(G.edges(data=True))
    rng.shuffle(edges)
    H.add_edges_from((mapping[u], mapping[v], d) for u, v, d in edges)
    return H


def random_graphs(seed, weights="int"):
    """Undirected and directed random graphs of several densities, some with
    isolated vertices and several components, one relabelled."""
    rng = random.Random(seed)
    out = []
    for n, p, directed in [(30, 0.05, False), (60, 0.06, False), (50, 0.15, False), (40, 0.06, True),
                           (70, 0.04, True), (1, 0.0, False), (25, 0.3, True)]:
        G = nx.gnp_random_graph(n, p, seed=rng.randrange(1 << 30), directed=directed)
        for u, v in G.edges():
            G[u][v]["weight"] = rng.randint(1, 9) if weights == "int" else rng.uniform(0.1, 3.0)
        out.append(G)
    out.append(relabel(out[1], rng))
    out.append(relabel(out[3], rng))
    return out


GRAPHS = random_graphs(1)
IDS = ["g%d%s" % (i, "d" if G.is_directed() else "u") for i, G in enumerate(GRAPHS)]


def sources(G, count=4, seed=7):
    rng = random.Random(seed)
    nodes = list(G)
    return [rng.choice(nodes) for _ in range(count)]


@pytest.mark.parametrize("G", GRAPHS, ids=IDS)
def test_bfs_edges_layers_and_lengths_equal_networkx_in_order(G):
    for s in sources(G):
        assert list(nx.bfs_edges(G, s, backend="gr")) == list(nx.bfs_edges(G, s))
        assert list(nx.bfs_edges(G, s, depth_limit=2, backend="gr")) == list(nx.bfs_edges(G, s, depth_limit=2))
        if G.is_directed():
            assert list(nx.bfs_edges(G, s, reverse=True, backend="gr")) == list(nx.bfs_edges(G, s, reverse=True))
        got = nx.single_source_shortest_path_length(G, s, backend="gr")
        want = nx.single_source_shortest_path_length(G, s)
        assert list(got.items()) == list(want.items())
        got = nx.single_source_shortest_path_length(G, s, cutoff=1, backend="gr")
        assert list(got.items()) == list(nx.single_source_shortest_path_length(G, s, cutoff=1).items())
    many = sources(G, 3, seed=11)
    assert list(nx.bfs_layers(G, many, backend="gr")) == list(nx.bfs_layers(G, many))
    assert list(nx.bfs_layers(G, many[0], backend="gr")) == list(nx.bfs_layers(G, many[0]))


@pytest.mark.parametrize("G", GRAPHS, ids=IDS)
def test_dijkstra_lengths_with_integer_weights_equal_networkx(G):
    for s in sources(G):
        got = nx.single_source_dijkstra_path_length(G, s, backend="gr")
        want = nx.single_source_dijkstra_path_length(G, s)
        assert got == want
        assert all(type(got[v]) is type(want[v]) for v in want)   # ints stay ints
        assert nx.single_source_dijkstra_path_length(G, s, cutoff=6, backend="gr") == \
            nx.single_source_dijkstra_path_length(G, s, cutoff=6)
        assert nx.single_source_dijkstra_path_length(G, s, weight=None, backend="gr") == \
            nx.single_source_dijkstra_path_length(G, s, weight=None)


def test_dijkstra_with_float_weights_equals_networkx_or_declines():
    answered = 0
    for G in random_graphs(3, weights="float"):
        for s in sources(G):
            want = nx.single_source_dijkstra_path_length(G, s)
            try:
                got = nx.single_source_dijkstra_path_length(G, s, backend="gr")
            except NotImplementedError:
                continue
            assert got == want
            answered += 1
    assert answered > 0


def test_dijkstra_paths_equal_networkx_where_unique():
    """Paths where every vertex has one shortest-path predecessor (real
    weights: ties are rare); elsewhere the call declines."""
    answered = declined = 0
    for G in random_graphs(5, weights="float"):
        for s in sources(G):
            want = nx.single_source_dijkstra_path(G, s)
            try:
                got = nx.single_source_dijkstra_path(G, s, backend="gr")
            except NotImplementedError:
                declined += 1
                continue
            assert got == want
            answered += 1
    assert answered > 0
    # Ties: every path of a 4-cycle's far vertex has two predecessors.
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path(nx.cycle_graph(4), 0, backend="gr")


@pytest.mark.parametrize("G", [G for G in GRAPHS if not G.is_directed()],
                         ids=[i for i, G in zip(IDS, GRAPHS) if not G.is_directed()])
def test_components_equal_networkx_in_order(G):
    assert list(nx.connected_components(G, backend="gr")) == list(nx.connected_components(G))
    assert nx.number_connected_components(G, backend="gr") == nx.number_connected_components(G)
    assert nx.is_connected(G, backend="gr") == nx.is_connected(G)


@pytest.mark.parametrize("G", GRAPHS, ids=IDS)
def test_pagerank_within_its_stopping_bound_of_networkx(G):
    n = len(G)
    exact = nx.pagerank(G, weight=None, tol=1e-13, max_iter=10000)
    for tol in (1e-6, 1e-8):
        got = nx.pagerank(G, weight=None, tol=tol, backend="gr")
        assert list(got) == list(exact)
        change = max(n * tol, grnx.PAGERANK_L1_FLOOR)
        l1 = sum(abs(got[v] - exact[v]) for v in exact)
        assert l1 <= 6 * change + 1e-6, (tol, l1)
        assert abs(sum(got.values()) - 1) < 1e-5


@pytest.mark.parametrize("G", GRAPHS, ids=IDS)
def test_pagerank_alpha_is_the_damping(G):
    """alpha other than 0.85 runs on gr (no fallback: the backend's own
    call) and stays within the stopping bound of NetworkX at that alpha,
    alpha / (1 - alpha) times the change."""
    n = len(G)
    tol = 1e-8
    change = max(n * tol, grnx.PAGERANK_L1_FLOOR)
    for alpha in (0.9, 0.5, 0.0):
        assert grnx.can_run("pagerank", (G,), {"alpha": alpha}) is True
        exact = nx.pagerank(G, alpha=alpha, weight=None, tol=1e-13, max_iter=100000)
        got = nx.pagerank(G, alpha=alpha, weight=None, tol=tol, backend="gr")
        assert list(got) == list(exact)
        l1 = sum(abs(got[v] - exact[v]) for v in exact)
        assert l1 <= (alpha / (1 - alpha) + 1) * change + 1e-6, (alpha, l1)
        assert abs(sum(got.values()) - 1) < 1e-5
    # The default call through the backend equals NetworkX's at its default
    # tolerance, alpha 0.9 as the task that asked for it.
    want = nx.pagerank(G, alpha=0.9, weight=None)
    got = nx.pagerank(G, alpha=0.9, weight=None, backend="gr")
    assert got == pytest.approx(want, abs=20 * max(n * 1e-6, grnx.PAGERANK_L1_FLOOR))


@pytest.mark.parametrize("G", GRAPHS, ids=IDS)
def test_betweenness_equals_networkx(G):
    for normalized in (True, False):
        want = nx.betweenness_centrality(G, normalized=normalized)
        got = nx.betweenness_centrality(G, normalized=normalized, backend="gr")
        assert list(got) == list(want)
        assert got == pytest.approx(want, rel=1e-9, abs=1e-12)
        if len(G) > 5:
            for seed in (1, 2):
                want = nx.betweenness_centrality(G, k=5, normalized=normalized, seed=seed)
                got = nx.betweenness_centrality(G, k=5, normalized=normalized, seed=seed, backend="gr")
                assert got == pytest.approx(want, rel=1e-9, abs=1e-12, nan_ok=True)


def test_multigraph_takes_the_lightest_parallel_edge_and_unique_neighbours():
    M = nx.MultiGraph()
    M.add_edge("a", "b", weight=5)
    M.add_edge("a", "b", weight=2)
    M.add_edge("b", "c", weight=1)
    M.add_edge("c", "c", weight=3)
    assert nx.single_source_dijkstra_path_length(M, "a", backend="gr") == \
        nx.single_source_dijkstra_path_length(M, "a")
    assert nx.betweenness_centrality(M, backend="gr") == pytest.approx(nx.betweenness_centrality(M))
    with pytest.raises(NotImplementedError):   # parallel edges weigh in NetworkX's PageRank
        nx.pagerank(M, backend="gr")


def test_conversion_is_cached_on_the_graph(monkeypatch):
    G = nx.gnp_random_graph(40, 0.1, seed=4)
    calls = []
    convert = grnx.BackendInterface.convert_from_nx

    def counting(*args, **kwargs):
        calls.append(1)
        return convert(*args, **kwargs)

    monkeypatch.setattr(grnx.BackendInterface, "convert_from_nx", staticmethod(counting))
    for _ in range(3):
        nx.connected_components(G, backend="gr")
        nx.betweenness_centrality(G, backend="gr")
    assert len(calls) == 1
    assert any(isinstance(g, grnx.GrGraph) for g in G.__networkx_cache__["backends"]["gr"].values())
    G.add_edge(0, 39)          # a change clears NetworkX's cache
    assert list(nx.connected_components(G, backend="gr")) == list(nx.connected_components(G))
    assert len(calls) == 2


def test_problems_are_set_up_once_per_graph_and_options(monkeypatch):
    G = nx.gnp_random_graph(40, 0.1, seed=5)
    made = []
    problem = gr.Problem

    def counting(*args, **kwargs):
        made.append(args[1])
        return problem(*args, **kwargs)

    monkeypatch.setattr(gr, "Problem", counting)
    want_pr, want_cc = nx.pagerank(G), list(nx.connected_components(G))
    for k in range(4):
        assert list(nx.connected_components(G, backend="gr")) == want_cc
        got = nx.pagerank(G, backend="gr")
        assert sum(abs(got[u] - want_pr[u]) for u in G) < 1e-4
        for s in (0, 5):
            assert nx.single_source_shortest_path_length(G, s, backend="gr") == \
                nx.single_source_shortest_path_length(G, s)
        if k == 1:
            # The first rounds set up what they ran: each conversion that
            # NetworkX's cache hands out (one per set of edge attributes
            # asked for) holds problems of its own.
            first = len(made)
            assert {"bfs", "cc", "pr"} <= set(made)
    assert len(made) == first, "later calls set their problems up again"
    nx.pagerank(G, tol=1e-4, backend="gr")      # other options: a problem of their own
    assert len(made) == first + 1 and made[-1] == "pr"


def test_refused_arguments_fall_back_through_backend_priority():
    G = nx.gnp_random_graph(30, 0.2, seed=2, directed=True)
    # A damping gr refuses (1 or more, below 0, NaN, not a number) is
    # NetworkX's to answer.
    for alpha in (1.0, 1.5, -0.1, float("nan"), "x"):
        assert "alpha" in grnx.can_run("pagerank", (G,), {"alpha": alpha}), alpha
    assert grnx.can_run("pagerank", (G,), {"alpha": 0.9}) is True
    assert "personalization" in grnx.can_run("pagerank", (G,), {"personalization": {0: 1}})
    assert "endpoints" in grnx.can_run("betweenness_centrality", (G,), {"endpoints": True})
    assert "sort_neighbors" in grnx.can_run("bfs_edges", (G, 0), {"sort_neighbors": sorted})
    assert grnx.can_run("pagerank", (G,), {}) is True
    with pytest.raises(NotImplementedError, match="backend='gr'"):
        nx.pagerank(G, personalization={0: 1}, backend="gr")
    saved = nx.config.backend_priority.algos
    nx.config.backend_priority.algos = ["gr"]
    try:
        assert nx.pagerank(G, personalization={0: 1}) == nx.pagerank(G, personalization={0: 1}, backend="networkx")
        assert list(nx.bfs_edges(G, 0)) == list(nx.bfs_edges(G, 0, backend="networkx"))
    finally:
        nx.config.backend_priority.algos = saved


def test_bad_input_raises_networkx_errors():
    G = nx.path_graph(4)
    with pytest.raises(nx.NodeNotFound):
        nx.single_source_shortest_path_length(G, 9, backend="gr")
    with pytest.raises(nx.NodeNotFound):
        nx.single_source_dijkstra_path_length(G, 9, backend="gr")
    with pytest.raises(nx.NetworkXError):
        list(nx.bfs_edges(G, 9, backend="gr"))
    with pytest.raises(nx.NetworkXError):
        list(nx.bfs_layers(G, [0, 9], backend="gr"))
    with pytest.raises(nx.NetworkXPointlessConcept):
        nx.is_connected(nx.Graph(), backend="gr")
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.connected_components(nx.DiGraph([(0, 1)]), backend="gr")
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.pagerank(G, max_iter=0, backend="gr")
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.pagerank(nx.gnp_random_graph(50, 0.1, seed=1), max_iter=2, backend="gr")
    with pytest.raises(ValueError):
        nx.betweenness_centrality(G, k=10, seed=1, backend="gr")
    H = nx.Graph([(0, 1, {"weight": -1.0}), (1, 2, {"weight": 2.0})])
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path_length(H, 0, backend="gr")
    assert nx.pagerank(nx.Graph(), backend="gr") == {}
    assert nx.betweenness_centrality(nx.Graph(), backend="gr") == {}


def test_devices_from_config_give_the_same_answers():
    G = nx.gnp_random_graph(200, 0.03, seed=8)
    want_cc = list(nx.connected_components(G))
    want_bc = nx.betweenness_centrality(G)
    cfg = nx.config.backends.gr
    saved = (cfg.backend, cfg.devices, cfg.partitioner)
    try:
        for devices, partitioner in ((2, "random"), (3, "biased")):
            cfg.backend, cfg.devices, cfg.partitioner = "cpu", devices, partitioner
            assert list(nx.connected_components(G, backend="gr")) == want_cc
            assert nx.betweenness_centrality(G, backend="gr") == pytest.approx(want_bc, rel=1e-9, abs=1e-12)
            assert grnx._context().devices == devices
    finally:
        cfg.backend, cfg.devices, cfg.partitioner = saved


def test_converted_graph_goes_back_to_networkx():
    G = relabel(nx.gnp_random_graph(20, 0.2, seed=3, directed=True), random.Random(1))
    for u, v in G.edges():
        G[u][v]["weight"] = 2
    g = grnx.convert_from_nx(G, edge_attrs={"weight": 1})
    H = grnx.convert_to_nx(g)
    assert list(H) == list(G) and H.is_directed()
    assert sorted(map(repr, H.edges(data="weight"))) == sorted(map(repr, G.edges(data="weight")))
    assert np.array_equal(g.indptr[1:] - g.indptr[:-1], [G.out_degree(u) for u in G])
