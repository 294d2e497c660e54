/* SPDX-License-Identifier: Apache-2.0 */
/* SSSP: the per-element functions (relaxation, bucket splits, the words of
 * distance and predecessor), the input checks and delta, the serial
 * Dijkstra reference and the invariant checker (accepts every valid
 * answer, rejects each kind of wrong one), the primitive on one CPU device
 * against the reference (bit for bit, both weight kinds, zero weights,
 * every delta), and on 2-4 CPU devices against one device under every
 * partitioner, proxy mode and exchange mode; a device allocation failure
 * ends the run with the device named. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "devices.h"
#include "gr/enactor.h"
#include "gr/gen.h"
#include "gr/graph.h"
#include "partitioner.h"
#include "sssp/sssp.h"
#include "subgraph_builder.h"
#include "testutil.h"

typedef struct wedge {
  gr_vid u, v;
  float w;
} wedge;

static gr_graph *weighted_kept(gr_vid n, const wedge *e, int m, bool symmetric, gr_clean_mode loops) {
  gr_coo c = GR_COO_INIT;
  ck_assert_int_eq(gr_coo_reserve(&c, (uint64_t)m, true), GR_SUCCESS);
  for (int i = 0; i < m; i++) ck_assert_int_eq(gr_coo_push(&c, e[i].u, e[i].v, e[i].w), GR_SUCCESS);
  c.n = n;
  c.symmetric = symmetric;
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  o.self_loops = loops;
  gr_graph *g = NULL;
  ck_assert_int_eq(gr_graph_from_coo(&g, &c, &o), GR_SUCCESS);
  return g;
}

static gr_graph *weighted(gr_vid n, const wedge *e, int m, bool symmetric) {
  return weighted_kept(n, e, m, symmetric, GR_CLEAN_DEFAULT);
}

/* Directed (input ids as dense ids, 0-based):
 *   0 -> 1 (3), 1 -> 2 (4), 0 -> 2 (10), 2 -> 3 (1), 3 -> 4 (0), 4 -> 3 (0),
 *   1 -> 5 (2.5), 5 -> 2 (0.5); 6 -> 0 (1) from a vertex nothing reaches;
 *   7 isolated. */
static const wedge small_edges[] = {{0, 1, 3}, {1, 2, 4}, {0, 2, 10}, {2, 3, 1},   {3, 4, 0},
                                    {4, 3, 0}, {1, 5, 2.5f}, {5, 2, 0.5f}, {6, 0, 1}};
static gr_graph *small_graph(void) { return weighted(8, small_edges, 9, false); }

static gr_graph *generated(const char *spec, const char *weights) {
  gr_gen_spec s;
  ck_assert_int_eq(gr_gen_parse(&s, spec), GR_SUCCESS);
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  ck_assert_int_eq(gr_weight_spec_parse(&o.weights, weights), GR_SUCCESS);
  gr_graph *g = NULL;
  ck_assert_int_eq(gr_gen_graph(&g, &s, &o), GR_SUCCESS);
  return g;
}

static gr_vid source_of(const gr_graph *g, int k) {
  return (gr_vid)(((uint64_t)k * 7919u + 3u) % gr_graph_num_vertices(g));
}

/* Following predecessors from every reached vertex ends at the source
 * within n steps (a tree, no cycle). */
static void assert_tree(const gr_result *r, gr_vid source) {
  const float *d = r->values;
  for (gr_vid v = 0; v < r->n; v++) {
    if (!isfinite(d[v])) continue;
    gr_vid x = v;
    gr_vid steps = 0;
    while (x != source && steps <= r->n) {
      ck_assert_int_ge(r->preds[x], 0);
      x = (gr_vid)r->preds[x];
      steps++;
    }
    ck_assert_msg(x == source, "predecessors of vertex %llu do not lead to the source", (unsigned long long)v);
  }
}

/* ---- per-element functions ----------------------------------------------- */

START_TEST(relax_lowers_once_and_outputs_once_per_iteration) {
  enum { N = 4 };
  float dist[N];
  int32_t stamp[N];
  uint32_t bits[1] = {0};
  const gr_weight w[3] = {2.0f, 5.0f, 0.0f};
  gr_sssp_ctx c;
  memset(&c, 0, sizeof c);
  c.dist = dist;
  c.stamp = stamp;
  c.weights = w;
  c.pile_bits = bits;
  c.iteration = 3;
  for (gr_vid v = 0; v < N; v++) gr_sssp_init_vertex(&c, v);
  ck_assert(isinf(dist[2]) && stamp[2] == -1);
  dist[0] = 1.0f;
  dist[1] = 2.0f;
  ck_assert(gr_sssp_relax(&c, 0, 2, 1));  /* inf -> 6: output */
  ck_assert(dist[2] == 6.0f && stamp[2] == 3);
  ck_assert(!gr_sssp_relax(&c, 1, 2, 1)); /* 7: not lower */
  ck_assert(!gr_sssp_relax(&c, 0, 2, 1)); /* 6: equal, not lower */
  ck_assert(!gr_sssp_relax(&c, 1, 2, 0)); /* 4: lower, but already output in this iteration */
  ck_assert(dist[2] == 4.0f);
  c.iteration = 4;
  ck_assert(gr_sssp_relax(&c, 2, 3, 2)); /* zero weight: 4 + 0 */
  ck_assert(dist[3] == 4.0f && stamp[3] == 4);
  ck_assert(!gr_sssp_relax(&c, 3, 2, 2)); /* back over zero weight: equal */
}
END_TEST

START_TEST(predecessor_moves_only_with_a_lower_distance) {
  enum { N = 4 };
  float dist[N];
  int32_t stamp[N];
  gr_svid pred[N];
  uint64_t dp[N];
  uint32_t bits[1] = {0};
  const gr_vid l2g[N] = {10, 11, 12, 13};
  const gr_weight w[2] = {1.0f, 0.0f};
  gr_sssp_ctx c;
  memset(&c, 0, sizeof c);
  c.dist = dist;
  c.stamp = stamp;
  c.pred = pred;
  c.dp = dp;
  c.weights = w;
  c.local_to_global = l2g;
  c.pile_bits = bits;
  for (gr_vid v = 0; v < N; v++) gr_sssp_init_vertex(&c, v);
  ck_assert(isinf(gr_sssp_dist(&c, 3)) && pred[3] == -1);
  dp[0] = (uint64_t)0x40000000u << 32 | 0xffffffffu; /* 2.0, no predecessor */
  dp[1] = (uint64_t)0x40000000u << 32 | 0xffffffffu;
  ck_assert(gr_sssp_relax(&c, 0, 3, 0));
  ck_assert(gr_sssp_dist(&c, 3) == 3.0f);
  /* An equal distance through another vertex leaves the predecessor. */
  c.iteration = 1;
  ck_assert(!gr_sssp_relax(&c, 1, 3, 0));
  /* The arrays the exchange reads: global ids. */
  gr_sssp_publish(&c, 3);
  ck_assert(dist[3] == 3.0f && pred[3] == 10);
  /* What a peer sent (lower) replaces the word; a higher value does not. */
  dist[3] = 2.5f;
  pred[3] = 42;
  gr_sssp_absorb(&c, 3);
  ck_assert(gr_sssp_dist(&c, 3) == 2.5f);
  dist[3] = 2.75f;
  pred[3] = 43;
  gr_sssp_absorb(&c, 3);
  ck_assert(gr_sssp_dist(&c, 3) == 2.5f);
  dist[3] = INFINITY;
  gr_sssp_publish(&c, 3);
  ck_assert(dist[3] == 2.5f && pred[3] == 42);
  /* Publishing never raises a distance the exchange already lowered. */
  dist[3] = 1.0f;
  pred[3] = 7;
  gr_sssp_publish(&c, 3);
  ck_assert(dist[3] == 1.0f && pred[3] == 7);
}
END_TEST

START_TEST(classify_splits_near_far_and_stale) {
  enum { N = 6 };
  float dist[N] = {1.0f, 9.0f, 10.0f, 25.0f, 31.0f, INFINITY};
  uint32_t bits[1] = {0};
  gr_sssp_ctx c;
  memset(&c, 0, sizeof c);
  c.dist = dist;
  c.pile_bits = bits;
  c.split = 10.0f;
  c.lower = 10.0f;
  ck_assert_int_eq(gr_sssp_classify_input(&c, 0), 0);
  ck_assert_int_eq(gr_sssp_classify_input(&c, 1), 0);
  ck_assert_int_eq(gr_sssp_classify_input(&c, 2), 1); /* the boundary is far */
  ck_assert_int_eq(gr_sssp_classify_input(&c, 3), 1);
  ck_assert_int_eq(gr_sssp_classify_input(&c, 3), -1); /* one pile entry each */
  ck_assert_int_eq(gr_sssp_classify_input(&c, 4), 1);
  ck_assert_uint_eq(bits[0], (1u << 2) | (1u << 3) | (1u << 4));
  /* The next bucket from the smallest live key. */
  dist[2] = 5.0f; /* lowered since: stale */
  ck_assert(isinf(gr_sssp_pile_key(&c, 2)));
  ck_assert(gr_sssp_pile_key(&c, 3) == 25.0f);
  c.lower = 10.0f;
  c.split = gr_sssp_next_split(10.0, 25.0f);
  ck_assert(c.split == 30.0f);
  ck_assert_int_eq(gr_sssp_classify_pile(&c, 2), -1);
  ck_assert_int_eq(gr_sssp_classify_pile(&c, 3), 0);
  ck_assert_int_eq(gr_sssp_classify_pile(&c, 4), 1);
  ck_assert_uint_eq(bits[0], 1u << 4); /* only the one that stays keeps its bit */
}
END_TEST

START_TEST(next_split_is_the_multiple_of_delta_above) {
  ck_assert(gr_sssp_next_split(10.0, 0.0f) == 10.0f);
  ck_assert(gr_sssp_next_split(10.0, 9.5f) == 10.0f);
  ck_assert(gr_sssp_next_split(10.0, 10.0f) == 20.0f);
  ck_assert(gr_sssp_next_split(0.1, 0.3f) > 0.3f);
  /* Beyond float precision the boundary still lies above. */
  ck_assert(gr_sssp_next_split(1e-3, 3e7f) > 3e7f);
  ck_assert(gr_sssp_next_split(1.0, 1e38f) > 1e38f);
}
END_TEST

/* ---- input checks and delta ---------------------------------------------- */

START_TEST(prepare_rejects_negative_and_non_finite_weights) {
  const float bad[] = {-1.0f, NAN, INFINITY, -INFINITY};
  const char *needles[] = {"negative weight (-1)", "weight nan", "weight inf", "negative weight (-inf)"};
  for (int i = 0; i < 4; i++) {
    wedge e[] = {{0, 1, 1}, {1, 2, 2}, {2, 3, bad[i]}, {3, 0, -5}};
    gr_graph *g = weighted(4, e, 4, false);
    gr_prim_options o = GR_PRIM_OPTIONS_INIT;
    ck_assert_int_eq(gr_sssp_prepare(g, &o), GR_ERR_BAD_INPUT);
    /* The first bad edge in row order, by input ids. */
    ck_assert_msg(strstr(gr_error_message(), "edge 2 -> 3"), "%s", gr_error_message());
    ck_assert_msg(strstr(gr_error_message(), needles[i]), "%s", gr_error_message());
    gr_graph_destroy(&g);
  }
  /* Zero weights are fine. */
  wedge z[] = {{0, 1, 0}, {1, 2, -0.0f}};
  gr_graph *g = weighted(3, z, 2, false);
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  ck_assert_int_eq(gr_sssp_prepare(g, &o), GR_SUCCESS);
  ck_assert(o.delta == 1.0);
  gr_graph_destroy(&g);
  /* A graph without weights. */
  g = generated("kron:6:4", "none");
  ck_assert_int_eq(gr_sssp_prepare(g, &o), GR_ERR_BAD_INPUT);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "weights"));
  gr_graph_destroy(&g);
}
END_TEST

/* gr_sssp_delta_auto, which must succeed. */
static double delta_auto(const gr_graph *g) {
  double d = 0;
  ck_assert_int_eq(gr_sssp_delta_auto(gr_graph_out(g), &d), GR_SUCCESS);
  return d;
}

START_TEST(delta_auto_follows_weights_and_degree) {
  /* 4 arcs from 2 vertices (mean degree 2), mean weight 5: 32 * 5 / 2. */
  wedge e[] = {{0, 1, 2}, {0, 2, 8}, {1, 2, 4}, {1, 3, 6}};
  gr_graph *g = weighted(5, e, 4, false);
  ck_assert(delta_auto(g) == 80.0);
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  ck_assert_int_eq(gr_sssp_prepare(g, &o), GR_SUCCESS);
  ck_assert(o.delta == 80.0);
  /* A given delta is kept. */
  o.delta = 3.5;
  ck_assert_int_eq(gr_sssp_prepare(g, &o), GR_SUCCESS);
  ck_assert(o.delta == 3.5);
  gr_graph_destroy(&g);
  /* Never below the smallest positive weight: one heavy edge per vertex
   * of a dense row. */
  wedge f[] = {{0, 1, 100}, {0, 2, 100}, {0, 3, 100}, {0, 4, 100}, {0, 5, 100}, {0, 6, 100}, {0, 7, 100},
               {0, 8, 100}, {0, 9, 100}, {0, 10, 100}, {0, 11, 100}, {0, 12, 100}, {0, 13, 100}, {0, 14, 100},
               {0, 15, 100}, {0, 16, 100}, {0, 17, 100}, {0, 18, 100}, {0, 19, 100}, {0, 20, 100}, {0, 21, 100},
               {0, 22, 100}, {0, 23, 100}, {0, 24, 100}, {0, 25, 100}, {0, 26, 100}, {0, 27, 100}, {0, 28, 100},
               {0, 29, 100}, {0, 30, 100}, {0, 31, 100}, {0, 32, 100}, {0, 33, 100}, {0, 34, 100}};
  g = weighted(35, f, 34, false);
  ck_assert(delta_auto(g) == 100.0);
  gr_graph_destroy(&g);
  /* The same for any thread count: generated graphs, twice. */
  g = generated("kron:10:8", "random:0.25:9.75");
  const double d1 = delta_auto(g);
  ck_assert(d1 > 0 && d1 == delta_auto(g));
  /* prepare takes the summary the generator kept: the same delta. */
  gr_prim_options po = GR_PRIM_OPTIONS_INIT;
  ck_assert_int_eq(gr_sssp_prepare(g, &po), GR_SUCCESS);
  ck_assert(po.delta == d1);
  gr_graph_destroy(&g);
}
END_TEST

/* ---- reference and validator --------------------------------------------- */

START_TEST(reference_gives_known_distances) {
  gr_graph *g = small_graph();
  gr_run_args a = {0, 0, NULL, 0};
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  o.mark_pred = true;
  gr_result r;
  ck_assert_int_eq(gr_sssp_reference(g, &a, &o, &r), GR_SUCCESS);
  ck_assert_int_eq(r.type, GR_VALUE_FLOAT);
  const float *d = r.values;
  const float expect[] = {0, 3, 6, 7, 7, 5.5f, INFINITY, INFINITY};
  for (int v = 0; v < 8; v++) ck_assert_msg(d[v] == expect[v], "vertex %d: %g", v, (double)d[v]);
  ck_assert_int_eq(r.preds[0], -1);
  ck_assert_int_eq(r.preds[1], 0);
  ck_assert_int_eq(r.preds[2], 5);
  ck_assert_int_eq(r.preds[3], 2);
  ck_assert_int_eq(r.preds[4], 3);
  ck_assert_int_eq(r.preds[6], -1);
  ck_assert_int_eq(gr_sssp_validate(g, &a, &o, &r, &r), GR_SUCCESS);
  ck_assert_int_eq(gr_sssp_validate(g, &a, &o, &r, NULL), GR_SUCCESS);
  /* Out-edges of the reached vertices 0..5. */
  ck_assert_uint_eq(gr_sssp_traversed_edges(g, &r), 8);
  gr_result_free(&r);
  gr_graph_destroy(&g);
}
END_TEST

/* Edges traversed on undirected graphs: half the reached vertices' degrees
 * without self-loops, each edge counted from its smaller reached end with
 * them; both equal a count over every arc. */
START_TEST(traversed_edges_of_undirected_graphs_match_a_count_over_the_arcs) {
  /* Two components (0-4 and 5-6) and 7 alone; the second graph adds a
   * self-loop at 2. */
  const wedge e[] = {{0, 1, 1}, {1, 2, 2}, {2, 3, 1}, {3, 0, 5}, {1, 4, 1}, {5, 6, 1}, {2, 2, 1}};
  for (int loops = 0; loops < 2; loops++) {
    gr_graph *g = weighted_kept(8, e, loops ? 7 : 6, true, GR_CLEAN_KEEP);
    ck_assert_uint_eq(gr_graph_num_self_loops(g), (gr_eid)loops);
    for (gr_vid src = 0; src < 8; src += 5) {
      gr_run_args a = {src, 0, NULL, 0};
      gr_prim_options o = GR_PRIM_OPTIONS_INIT;
      gr_result r;
      ck_assert_int_eq(gr_sssp_reference(g, &a, &o, &r), GR_SUCCESS);
      const gr_csr *c = gr_graph_out(g);
      const float *d = r.values;
      gr_eid want = 0;
      for (gr_vid u = 0; u < c->n; u++)
        for (gr_eid k = c->offsets[u]; k < c->offsets[u + 1]; k++)
          want += isfinite(d[u]) && c->indices[k] >= u;
      ck_assert_uint_eq(want, src == 0 ? 5u + (gr_eid)loops : 1u);
      ck_assert_uint_eq(gr_sssp_traversed_edges(g, &r), want);
      gr_result_free(&r);
    }
    gr_graph_destroy(&g);
  }
}
END_TEST

START_TEST(validator_rejects_each_kind_of_wrong_answer) {
  gr_graph *g = small_graph();
  gr_run_args a = {0, 0, NULL, 0};
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  o.mark_pred = true;
  gr_result ref, r;
  ck_assert_int_eq(gr_sssp_reference(g, &a, &o, &ref), GR_SUCCESS);
  ck_assert_int_eq(gr_sssp_reference(g, &a, &o, &r), GR_SUCCESS);
  float *d = r.values;
  struct {
    int v;
    float dist;
    gr_svid pred;
    bool with_ref;
    const char *needle;
  } cases[] = {
      {0, 1, -1, true, "source 0 has distance 1"},
      {5, NAN, 1, true, "vertex 5 has distance nan"},
      {5, -1, 1, false, "vertex 5 has distance -1"},
      {6, 4, 0, true, "vertex 6 is reached but the reference does not"},
      {5, INFINITY, -1, true, "vertex 5 is unreached but the reference reaches"},
      {2, 6.5f, 5, true, "vertex 2 has distance 6.5, the reference 6"},
      {2, 6.5f, 5, false, "edge 5 -> 2 (weight 0.5) leads from distance 5.5 to 6.5"},
      {4, 7.5f, 3, false, "edge 3 -> 4 (weight 0) leads from distance 7 to 7.5"},
      {2, 6, -1, true, "predecessor -1 of vertex 2 is not a reached vertex"},
      {2, 6, 6, true, "predecessor 6 of vertex 2 is not a reached vertex"},
      {2, 6, 4, true, "predecessor 4 of vertex 2 is not an in-neighbour"},
      {2, 6, 0, true, "predecessor 0 of vertex 2: edge of weight 10 from distance 0 does not give 6"},
      {7, INFINITY, 3, true, "vertex 7 (unreached) has predecessor 3"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const float od = d[cases[i].v];
    const gr_svid op = r.preds[cases[i].v];
    d[cases[i].v] = cases[i].dist;
    r.preds[cases[i].v] = cases[i].pred;
    ck_assert_int_eq(gr_sssp_validate(g, &a, &o, &r, cases[i].with_ref ? &ref : NULL), GR_ERR_VALIDATION);
    ck_assert_msg(strstr(gr_error_message(), cases[i].needle), "case %zu: %s", i, gr_error_message());
    d[cases[i].v] = od;
    r.preds[cases[i].v] = op;
  }
  /* The source with a predecessor. */
  r.preds[0] = 6;
  ck_assert_int_eq(gr_sssp_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "the source"));
  r.preds[0] = -1;
  ck_assert_int_eq(gr_sssp_validate(g, &a, &o, &r, &ref), GR_SUCCESS);
  /* A result of the wrong type or size. */
  r.type = GR_VALUE_SVID;
  ck_assert_int_eq(gr_sssp_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
  r.type = GR_VALUE_FLOAT;
  gr_result_free(&r);
  gr_result_free(&ref);
  gr_graph_destroy(&g);
  /* Too small a distance that breaks no edge: only its in-edges tell.
   * 0 -> 1 (2), and 1 has no out-edges. */
  wedge e[] = {{0, 1, 2}};
  g = weighted(2, e, 1, false);
  o.mark_pred = false;
  ck_assert_int_eq(gr_sssp_reference(g, &a, &o, &r), GR_SUCCESS);
  ((float *)r.values)[1] = 1;
  ck_assert_int_eq(gr_sssp_validate(g, &a, &o, &r, NULL), GR_ERR_VALIDATION);
  ck_assert_msg(strstr(gr_error_message(), "vertex 1 at distance 1 has no in-edge"), "%s", gr_error_message());
  gr_result_free(&r);
  gr_graph_destroy(&g);
}
END_TEST

/* The checks alone decide (gr_sssp_certifies) where they prove: integer
 * weights of at least 1, distances below 2^24. There a distance one too
 * small or too large fails them. Not with a zero-weight cycle, whose
 * vertices hold each other's too-small distances past the checks alone,
 * nor with fractional weights or a distance of 2^24 or more. */
START_TEST(checks_alone_decide_only_where_they_prove) {
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_graph *g = generated("kron:10:8", "random:1:255");
  const gr_csr *c = gr_graph_out(g);
  gr_vid s = 0;
  while (c->offsets[s + 1] == c->offsets[s]) s++;
  gr_run_args a = {s, 0, NULL, 0};
  gr_result r;
  ck_assert_int_eq(gr_sssp_reference(g, &a, &o, &r), GR_SUCCESS);
  ck_assert(gr_sssp_certifies(g, &a, &o, &r));
  ck_assert_msg(gr_sssp_validate(g, &a, &o, &r, NULL) == GR_SUCCESS, "%s", gr_error_message());
  float *d = r.values;
  int wrong = 0;
  for (gr_vid v = 0; v < r.n && wrong < 40; v += 13) {
    if (v == s || !isfinite(d[v])) continue;
    for (int k = 0; k < 2; k++) {
      const float keep = d[v];
      d[v] = keep + (k ? 1.0f : -1.0f);
      ck_assert(gr_sssp_certifies(g, &a, &o, &r));
      ck_assert_msg(gr_sssp_validate(g, &a, &o, &r, NULL) == GR_ERR_VALIDATION, "vertex %llu at %g passed",
                    (unsigned long long)v, (double)d[v]);
      d[v] = keep;
      wrong++;
    }
  }
  ck_assert_int_ge(wrong, 20);
  gr_result_free(&r);
  gr_graph_destroy(&g);
  /* 0 -> 1 (10), 1 <-> 2 (0): 1 and 2 at 5 each pass the checks alone. */
  wedge z[] = {{0, 1, 10}, {1, 2, 0}, {2, 1, 0}};
  g = weighted(3, z, 3, false);
  a.source = 0;
  gr_result ref;
  ck_assert_int_eq(gr_sssp_reference(g, &a, &o, &ref), GR_SUCCESS);
  ck_assert_int_eq(gr_sssp_reference(g, &a, &o, &r), GR_SUCCESS);
  ((float *)r.values)[1] = ((float *)r.values)[2] = 5;
  ck_assert_int_eq(gr_sssp_validate(g, &a, &o, &r, NULL), GR_SUCCESS);
  ck_assert(!gr_sssp_certifies(g, &a, &o, &r));
  ck_assert_int_eq(gr_sssp_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
  gr_result_free(&r);
  gr_result_free(&ref);
  gr_graph_destroy(&g);
  /* Fractional weights; a distance of 2^24. */
  wedge f[] = {{0, 1, 1.5f}, {1, 2, 2}};
  g = weighted(3, f, 2, false);
  ck_assert_int_eq(gr_sssp_reference(g, &a, &o, &r), GR_SUCCESS);
  ck_assert(!gr_sssp_certifies(g, &a, &o, &r));
  gr_result_free(&r);
  gr_graph_destroy(&g);
  wedge big[] = {{0, 1, 16777215.0f}, {1, 2, 1}};
  g = weighted(3, big, 2, false);
  ck_assert_int_eq(gr_sssp_reference(g, &a, &o, &r), GR_SUCCESS);
  ck_assert(!gr_sssp_certifies(g, &a, &o, &r));
  ((float *)r.values)[2] = INFINITY; /* distances below 2^24 only: it may */
  ck_assert(gr_sssp_certifies(g, &a, &o, &r));
  ck_assert_int_eq(gr_sssp_validate(g, &a, &o, &r, NULL), GR_ERR_VALIDATION);
  gr_result_free(&r);
  gr_graph_destroy(&g);
  /* Directed, with predecessors: 4 -> 0 from a vertex nothing reaches, 5
   * isolated. A finite distance at either, or a predecessor that is not an
   * in-neighbour, fails the checks alone. */
  wedge dir[] = {{0, 1, 3}, {1, 2, 4}, {0, 2, 10}, {2, 3, 1}, {4, 0, 1}};
  g = weighted(6, dir, 5, false);
  o.mark_pred = true;
  ck_assert_int_eq(gr_sssp_reference(g, &a, &o, &r), GR_SUCCESS);
  ck_assert(gr_sssp_certifies(g, &a, &o, &r));
  ck_assert_msg(gr_sssp_validate(g, &a, &o, &r, NULL) == GR_SUCCESS, "%s", gr_error_message());
  float *dd = r.values;
  const gr_vid wrong_at[] = {4, 5};
  for (int i = 0; i < 2; i++) {
    dd[wrong_at[i]] = 2;
    ck_assert(gr_sssp_certifies(g, &a, &o, &r));
    ck_assert_int_eq(gr_sssp_validate(g, &a, &o, &r, NULL), GR_ERR_VALIDATION);
    dd[wrong_at[i]] = INFINITY;
  }
  r.preds[3] = 1;
  ck_assert_int_eq(gr_sssp_validate(g, &a, &o, &r, NULL), GR_ERR_VALIDATION);
  r.preds[3] = 2;
  ck_assert_int_eq(gr_sssp_validate(g, &a, &o, &r, NULL), GR_SUCCESS);
  gr_result_free(&r);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(validator_accepts_any_tight_predecessor) {
  /* Two shortest paths to 3: 0 -> 1 -> 3 and 0 -> 2 -> 3, both 5; a
   * zero-weight pair 3 <-> 4. */
  wedge e[] = {{0, 1, 2}, {0, 2, 4}, {1, 3, 3}, {2, 3, 1}, {3, 4, 0}, {4, 3, 0}};
  gr_graph *g = weighted(5, e, 6, false);
  gr_run_args a = {0, 0, NULL, 0};
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  o.mark_pred = true;
  gr_result r;
  ck_assert_int_eq(gr_sssp_reference(g, &a, &o, &r), GR_SUCCESS);
  r.preds[3] = 1;
  ck_assert_int_eq(gr_sssp_validate(g, &a, &o, &r, &r), GR_SUCCESS);
  r.preds[3] = 2;
  ck_assert_int_eq(gr_sssp_validate(g, &a, &o, &r, &r), GR_SUCCESS);
  ck_assert_int_eq(r.preds[4], 3);
  gr_result_free(&r);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(tolerance_is_exact_for_integer_weights_only) {
  gr_graph *g = generated("kron:8:4", "random:1:255");
  gr_run_args a = {source_of(g, 0), 0, NULL, 0};
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_result r;
  ck_assert_int_eq(gr_sssp_reference(g, &a, &o, &r), GR_SUCCESS);
  ck_assert(gr_sssp_tolerance(g, &r) == 0.0);
  /* Off by one unit in the last place: rejected when exact. */
  float *d = r.values;
  gr_vid v = 0;
  while (v == a.source || !isfinite(d[v])) v++;
  gr_result bad;
  ck_assert_int_eq(gr_sssp_reference(g, &a, &o, &bad), GR_SUCCESS);
  ((float *)bad.values)[v] = nextafterf(d[v], INFINITY);
  ck_assert_int_eq(gr_sssp_validate(g, &a, &o, &bad, &r), GR_ERR_VALIDATION);
  gr_result_free(&bad);
  gr_result_free(&r);
  gr_graph_destroy(&g);
  g = generated("kron:8:4", "random:0.5:2.5");
  ck_assert_int_eq(gr_sssp_reference(g, &a, &o, &r), GR_SUCCESS);
  ck_assert(gr_sssp_tolerance(g, &r) == GR_SSSP_REL_TOL);
  gr_result_free(&r);
  gr_graph_destroy(&g);
  /* Integer weights whose sums pass 2^24 are no longer exact. */
  wedge e[] = {{0, 1, 16777216.0f}, {1, 2, 3}};
  g = weighted(3, e, 2, false);
  a.source = 0;
  ck_assert_int_eq(gr_sssp_reference(g, &a, &o, &r), GR_SUCCESS);
  ck_assert(gr_sssp_tolerance(g, &r) == GR_SSSP_REL_TOL);
  gr_result_free(&r);
  gr_graph_destroy(&g);
}
END_TEST

/* ---- the primitive through the enactor ----------------------------------- */

enum { N_SOURCES = 3 };

typedef struct sssp_runs {
  float *dist[N_SOURCES];
  gr_svid *pred[N_SOURCES];
  int iterations[N_SOURCES];
  int tails[N_SOURCES]; /* iterations tagged 'T' (the tail begins) */
  gr_eid edges; /* arcs the operators walked, all runs */
  uint64_t items_sent; /* records the exchange sent, all devices and runs */
} sssp_runs;

static void runs_free(sssp_runs *x) {
  for (int k = 0; k < N_SOURCES; k++) {
    free(x->dist[k]);
    free(x->pred[k]);
  }
  memset(x, 0, sizeof *x);
}

/* An enactor of SSSP on CPU devices over the given parts. */
static gr_enactor *sssp_enactor(gr_subgraph *const *subs, int devices, int threads, const gr_exchange_ops *ex,
                                void *shared, const gr_prim_options *o) {
  gr_enactor_config cfg = {.prim = &gr_sssp_primitive,
                           .opts = o,
                           .backend = GR_BACKEND_CPU,
                           .n_devices = devices,
                           .cpu_threads = threads,
                           .mem = GR_MEM_POLICY_INIT,
                           .subs = subs,
                           .exchange = ex,
                           .exchange_shared = shared};
  gr_enactor *e = NULL;
  ck_assert_msg(gr_enactor_create(&e, &cfg) == GR_SUCCESS, "%s", gr_error_message());
  return e;
}

/* Runs SSSP from the first N_SOURCES sources on the given parts. */
static void run_sssp(gr_graph *g, gr_subgraph *const *subs, int devices, int threads, const gr_exchange_ops *ex,
                     void *shared, const gr_prim_options *o, sssp_runs *out) {
  gr_enactor *e = sssp_enactor(subs, devices, threads, ex, shared, o);
  memset(out, 0, sizeof *out);
  for (int k = 0; k < N_SOURCES; k++) {
    gr_run_args a = {source_of(g, k), k, NULL, 0};
    gr_run_stats st;
    ck_assert_msg(gr_enactor_run(e, &a, &st) == GR_SUCCESS, "%s", gr_error_message());
    ck_assert_int_eq(st.status, GR_SUCCESS);
    out->iterations[k] = st.iterations;
    out->edges += st.edges;
    for (int d = 0; d < devices && st.devices; d++) out->items_sent += st.devices[d].items_sent;
    for (int i = 0; st.level_tag && i < st.frontier_len; i++) out->tails[k] += st.level_tag[i] == 'T';
    gr_result r;
    ck_assert_int_eq(gr_enactor_extract(e, &r), GR_SUCCESS);
    ck_assert_int_eq(r.type, GR_VALUE_FLOAT);
    /* The figures of every iteration, and the delta used. */
    ck_assert_int_eq(r.extra.n_numbers, 1);
    ck_assert_str_eq(r.extra.number_names[0], "delta");
    ck_assert(r.extra.numbers[0] == o->delta);
    ck_assert_int_eq(r.extra.n_series, 3);
    ck_assert_int_eq(r.extra.series_len, st.iterations);
    ck_assert(r.extra.series[0][0] == 1.0); /* the first bucket is the source */
    /* A run ends when no pile holds a vertex (no limit here). */
    ck_assert(r.extra.series[1][r.extra.series_len - 1] == 0.0);
    if (devices > 1) {
      /* Two barriers an iteration between devices (the exchange's, the one
       * that ends it), which carry the next bucket's size and the figures;
       * a new bucket adds the piles' minimum (as may a last look at piles
       * of stale entries), the first iteration the sum of its bucket, and
       * the run its end. */
      int changes = 0;
      for (int i = 1; i < r.extra.series_len; i++) changes += r.extra.series[2][i] != r.extra.series[2][i - 1];
      for (int d = 0; d < devices; d++)
        ck_assert_msg(st.devices[d].barriers <= (uint64_t)(2 * st.iterations + changes + 4),
                      "device %d passed %llu barriers in %d iterations with %d new buckets", d,
                      (unsigned long long)st.devices[d].barriers, st.iterations, changes);
    }
    gr_run_stats_free(&st);
    out->dist[k] = r.values;
    out->pred[k] = r.preds;
    r.values = NULL;
    r.preds = NULL;
    gr_result_free(&r);
  }
  gr_enactor_destroy(&e);
  ck_assert_ptr_null(e);
}

static void run_one_device(gr_graph *g, int threads, const gr_prim_options *o, sssp_runs *out) {
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, false, true), GR_SUCCESS);
  run_sssp(g, &sub, 1, threads, NULL, NULL, o, out);
  gr_subgraph_destroy(&sub);
}

/* Each run validates, equals the reference bit for bit and, with
 * predecessors on one device, forms a tree. */
static void check_runs(gr_graph *g, const gr_prim_options *o, const sssp_runs *x, bool tree, const char *what) {
  const gr_vid n = gr_graph_num_vertices(g);
  for (int k = 0; k < N_SOURCES; k++) {
    gr_run_args a = {source_of(g, k), k, NULL, 0};
    gr_result ref, r = {.n = n, .type = GR_VALUE_FLOAT, .values = x->dist[k], .preds = x->pred[k]};
    ck_assert_int_eq(gr_sssp_reference(g, &a, o, &ref), GR_SUCCESS);
    ck_assert_msg(gr_sssp_validate(g, &a, o, &r, &ref) == GR_SUCCESS, "%s, source %llu: %s", what,
                  (unsigned long long)a.source, gr_error_message());
    ck_assert_msg(!memcmp(x->dist[k], ref.values, (size_t)n * sizeof(float)), "%s: not bit for bit", what);
    if (tree && o->mark_pred) assert_tree(&r, a.source);
    gr_result_free(&ref);
  }
}

static const char *const specs[] = {"kron:10:8", "grid2d:20x30", "uniform:10:4,directed", "kron:9:4,directed"};
static const char *const weight_kinds[] = {"random:1:255", "random:0.25:9.75", "random:0:2"};
enum { N_SPECS = sizeof specs / sizeof specs[0], N_WEIGHTS = sizeof weight_kinds / sizeof weight_kinds[0] };

/* The device-side loop over small buckets (the default), without it, and
 * with limits that make runs enter and leave it often. */
static const char *const tunings[] = {"", "small=off", "small-vertices=40,small-edges=400", "small-degree=3",
                                      "sssp-heavy=always", "sssp-tail=0", "sssp-tail=1"};
enum { N_TUNINGS = sizeof tunings / sizeof tunings[0] };

START_TEST(one_device_equals_reference) {
  for (int i = 0; i < N_SPECS; i++)
    for (int w = 0; w < N_WEIGHTS; w++) {
      gr_graph *g = generated(specs[i], weight_kinds[w]);
      for (int t = 0; t < N_TUNINGS; t++)
        for (int pred = 0; pred < 2; pred++) {
          gr_prim_options o = GR_PRIM_OPTIONS_INIT;
          o.mark_pred = pred;
          ck_assert_int_eq(gr_tuning_parse(&o.tune, tunings[t]), GR_SUCCESS);
          ck_assert_int_eq(gr_sssp_prepare(g, &o), GR_SUCCESS);
          sssp_runs x;
          char what[160];
          snprintf(what, sizeof what, "%s %s%s, tuning '%s'", specs[i], weight_kinds[w],
                   pred ? " with predecessors" : "", tunings[t]);
          run_one_device(g, 1 + 2 * pred, &o, &x);
          check_runs(g, &o, &x, true, what);
          runs_free(&x);
        }
      gr_graph_destroy(&g);
    }
}
END_TEST

START_TEST(level_relaxation_splits_near_and_far_at_once) {
  enum { N = 4 };
  float dist[N];
  int32_t stamp[N];
  uint32_t bits[1] = {0};
  gr_vid pile[N];
  uint64_t count = 0;
  const gr_weight w[4] = {2.0f, 9.0f, 20.0f, 8.5f};
  gr_sssp_ctx c;
  memset(&c, 0, sizeof c);
  c.dist = dist;
  c.stamp = stamp;
  c.weights = w;
  c.pile_bits = bits;
  c.pile = pile;
  c.pile_count = &count;
  c.pile_capacity = N;
  c.split = 10.0f;
  for (gr_vid v = 0; v < N; v++) gr_sssp_init_vertex(&c, v);
  dist[0] = 0.0f;
  /* Beyond the split: straight to the pile, not to the next level. */
  ck_assert(!gr_sssp_relax_level(&c, 7, 0, 1, 2));
  ck_assert(dist[1] == 20.0f && count == 1 && pile[0] == 1 && bits[0] == 1u << 1 && stamp[1] == -1);
  /* Lower and below the split in the same level: it joins the next level
   * although it has a pile entry (stale from now on). */
  ck_assert(gr_sssp_relax_level(&c, 7, 0, 1, 1));
  ck_assert(dist[1] == 9.0f && count == 1 && stamp[1] == 7);
  /* Lower again in the same level: already in the next one. */
  ck_assert(!gr_sssp_relax_level(&c, 7, 0, 1, 0));
  ck_assert(dist[1] == 2.0f);
  /* Far targets get one pile entry each, whatever their improvements. */
  ck_assert(!gr_sssp_relax_level(&c, 8, 1, 2, 1));
  ck_assert(dist[2] == 11.0f && count == 2 && pile[1] == 2);
  ck_assert(!gr_sssp_relax_level(&c, 8, 1, 2, 3));
  ck_assert(dist[2] == 10.5f && count == 2);
  /* Not lower: nothing. */
  ck_assert(!gr_sssp_relax_level(&c, 9, 0, 1, 2));
  ck_assert(dist[1] == 2.0f && count == 2 && stamp[1] == 7);
}
END_TEST

START_TEST(every_delta_gives_the_same_distances) {
  gr_graph *g = generated("grid2d:25x25", "random:1:255");
  const double deltas[] = {0.5, 1, 7, 100, 1e6, 3e38};
  sssp_runs first;
  int iters_small = 0, iters_huge = 0;
  for (size_t i = 0; i < sizeof deltas / sizeof deltas[0]; i++) {
    gr_prim_options o = GR_PRIM_OPTIONS_INIT;
    o.mark_pred = true;
    o.delta = deltas[i];
    sssp_runs x;
    run_one_device(g, 2, &o, &x);
    check_runs(g, &o, &x, true, "delta");
    if (i == 0) {
      first = x;
      iters_small = x.iterations[0];
      continue;
    }
    for (int k = 0; k < N_SOURCES; k++)
      ck_assert(!memcmp(x.dist[k], first.dist[k], (size_t)gr_graph_num_vertices(g) * sizeof(float)));
    if (deltas[i] == 3e38) iters_huge = x.iterations[0];
    runs_free(&x);
  }
  /* One bucket (Bellman-Ford order) takes fewer iterations than buckets
   * narrower than any weight (Dijkstra order). */
  ck_assert_int_lt(iters_huge, iters_small);
  runs_free(&first);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(zero_weights_disconnected_parts_and_directions) {
  /* Every weight 0: every reached distance is 0 and predecessors still
   * form a tree. */
  gr_graph *g = generated("kron:9:8", "random:0:0");
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  o.mark_pred = true;
  ck_assert_int_eq(gr_sssp_prepare(g, &o), GR_SUCCESS);
  sssp_runs x;
  run_one_device(g, 3, &o, &x);
  check_runs(g, &o, &x, true, "zero weights");
  for (gr_vid v = 0; v < gr_graph_num_vertices(g); v++)
    ck_assert(x.dist[0][v] == 0.0f || isinf(x.dist[0][v]));
  runs_free(&x);
  gr_graph_destroy(&g);
  /* The hand graph: a directed edge into the source's part from an
   * unreached vertex, an isolated vertex, a zero-weight cycle. */
  g = small_graph();
  o.delta = 0;
  ck_assert_int_eq(gr_sssp_prepare(g, &o), GR_SUCCESS);
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, false, true), GR_SUCCESS);
  gr_enactor_config cfg = {.prim = &gr_sssp_primitive, .opts = &o, .backend = GR_BACKEND_CPU, .n_devices = 1,
                           .cpu_threads = 2, .mem = GR_MEM_POLICY_INIT, .subs = &sub};
  gr_enactor *e = NULL;
  ck_assert_int_eq(gr_enactor_create(&e, &cfg), GR_SUCCESS);
  const gr_vid sources[] = {0, 6, 7, 3};
  const float expect[][8] = {{0, 3, 6, 7, 7, 5.5f, INFINITY, INFINITY},
                             {1, 4, 7, 8, 8, 6.5f, 0, INFINITY},
                             {INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, 0},
                             {INFINITY, INFINITY, INFINITY, 0, 0, INFINITY, INFINITY, INFINITY}};
  for (int k = 0; k < 4; k++) {
    gr_run_args a = {sources[k], k, NULL, 0};
    gr_run_stats st;
    ck_assert_int_eq(gr_enactor_run(e, &a, &st), GR_SUCCESS);
    gr_run_stats_free(&st);
    gr_result r;
    ck_assert_int_eq(gr_enactor_extract(e, &r), GR_SUCCESS);
    for (int v = 0; v < 8; v++)
      ck_assert_msg(((float *)r.values)[v] == expect[k][v], "source %d, vertex %d: %g", k, v,
                    (double)((float *)r.values)[v]);
    ck_assert_int_eq(gr_sssp_validate(g, &a, &o, &r, NULL), GR_SUCCESS);
    assert_tree(&r, a.source);
    gr_result_free(&r);
  }
  gr_enactor_destroy(&e);
  gr_subgraph_destroy(&sub);
  gr_graph_destroy(&g);
}
END_TEST

/* The rows of a CSR, reordered by split_rows: each row's light arcs (below
 * `heavy`) first, then its heavy ones, each kind in its order, and the
 * split offsets at the boundaries. */
START_TEST(split_rows_put_light_arcs_first) {
  gr_graph *g = generated("kron:10:8", "random:0:10");
  const gr_csr *h = gr_graph_out(g);
  const float heavy = 4.5f;
  gr_csr c = *h;
  c.indices = malloc((size_t)h->m * sizeof *c.indices);
  c.weights = malloc((size_t)h->m * sizeof *c.weights);
  gr_eid *split = malloc((2 * (size_t)h->n + 1) * sizeof *split);
  ck_assert(c.indices && c.weights && split);
  memcpy(c.indices, h->indices, (size_t)h->m * sizeof *c.indices);
  memcpy(c.weights, h->weights, (size_t)h->m * sizeof *c.weights);
  gr_device *dev = NULL;
  ck_assert_int_eq(gr_device_create(&dev, GR_BACKEND_CPU, 0, NULL), GR_SUCCESS);
  ck_assert_int_eq(gr__sssp_ops_cpu.split_rows(dev, &c, h->n, heavy, split, h->offsets, NULL, NULL, 0), GR_SUCCESS);
  ck_assert(split[2 * (size_t)h->n] == h->m);
  gr_eid light = 0;
  for (gr_vid u = 0; u < h->n; u++) {
    const gr_eid b = h->offsets[u], mid = split[2 * (size_t)u + 1], end = h->offsets[u + 1];
    ck_assert(split[2 * (size_t)u] == b && b <= mid && mid <= end);
    light += mid - b;
    /* Each kind in the row's order, the two merged back the row itself. */
    gr_eid l = b, k = mid;
    for (gr_eid e = b; e < end; e++) {
      const bool is_light = h->weights[e] < heavy;
      const gr_eid at = is_light ? l++ : k++;
      ck_assert(c.indices[at] == h->indices[e] && c.weights[at] == h->weights[e]);
    }
    ck_assert(l == mid && k == end);
  }
  ck_assert(light > 0 && light < h->m);
  gr_device_destroy(&dev);
  free(c.indices);
  free(c.weights);
  free(split);
  gr_graph_destroy(&g);
}
END_TEST

/* Runs SSSP on `devices` CPU devices (random parts, 1-hop proxies,
 * selective exchange; one device: the whole graph). */

static void run_on(gr_graph *g, int devices, const gr_prim_options *o, sssp_runs *out) {
  if (devices == 1) {
    run_one_device(g, 2, o, out);
    return;
  }
  gr_partition *part = gr_test_partition(g, GR_PART_RANDOM, devices);
  gr_subgraph **subs = NULL;
  ck_assert_int_eq(gr_subgraphs_build(&subs, g, part, GR_PROXY_1HOP, false, true), GR_SUCCESS);
  gr_comm_options co = {GR_COMM_SELECTIVE, GR_TRANSPORT_HOST, GR_COMM_FORMAT_AUTO, NULL};
  gr_comm *comm = NULL;
  ck_assert_int_eq(gr_comm_create(&comm, GR_BACKEND_CPU, devices, &co), GR_SUCCESS);
  run_sssp(g, subs, devices, 1, &gr_comm_exchange_ops, comm, o, out);
  gr_comm_destroy(&comm);
  gr_subgraphs_destroy(&subs, devices);
  gr_partition_destroy(&part);
}

/* Heavy arcs wait for their bucket's end (sssp-heavy=once, the default):
 * the distances of relaxing every arc at every expansion (always), bit for
 * bit, with far fewer arcs walked, on one device and between devices
 * (where a peer's lower distance arrives an iteration late and vertices
 * are expanded again); where no arc is heavy, runs are as they were (the
 * same iterations). */
START_TEST(heavy_arcs_wait_for_their_bucket) {
  gr_graph *g = generated("kron:12:8", "random:1:255");
  const gr_vid n = gr_graph_num_vertices(g);
  gr_prim_options once = GR_PRIM_OPTIONS_INIT, always = GR_PRIM_OPTIONS_INIT;
  ck_assert_int_eq(gr_tuning_parse(&always.tune, "sssp-heavy=always"), GR_SUCCESS);
  ck_assert(once.tune.sssp_heavy_once && !always.tune.sssp_heavy_once);
  /* Buckets as wide as on Kronecker 25 (delta 66.7 there; auto gives this
   * sparser graph 229): three arcs in four heavy. */
  once.delta = always.delta = 64;
  ck_assert_int_eq(gr_sssp_prepare(g, &once), GR_SUCCESS);
  ck_assert_int_eq(gr_sssp_prepare(g, &always), GR_SUCCESS);
  /* One device: the levels of small buckets run in a device-side loop,
   * whose lists are the graph's own (its relaxations skip the other
   * kind's arcs as they meet them); without it every level walks the
   * split rows, as between devices. */
  gr_prim_options once_flat = once, always_flat = always;
  ck_assert_int_eq(gr_tuning_parse(&once_flat.tune, "small=off"), GR_SUCCESS);
  ck_assert_int_eq(gr_tuning_parse(&always_flat.tune, "small=off"), GR_SUCCESS);
  for (int devices = 1; devices <= 4; devices *= 2) {
    sssp_runs a, b;
    run_on(g, devices, devices == 1 ? &once_flat : &once, &a);
    run_on(g, devices, devices == 1 ? &always_flat : &always, &b);
    for (int k = 0; k < N_SOURCES; k++)
      ck_assert_msg(!memcmp(a.dist[k], b.dist[k], (size_t)n * sizeof(float)), "%d devices, source %d", devices, k);
    check_runs(g, &once, &a, devices == 1, "heavy arcs once");
    /* 0.62 of the arcs on Kronecker 18 with 1..255 (gr_run, 2 CPU
     * devices), 0.55-0.65 on Kronecker 25 (one H200). */
    ck_assert_msg(a.edges * 10 < b.edges * 8, "%d devices: %llu arcs walked against %llu", devices,
                  (unsigned long long)a.edges, (unsigned long long)b.edges);
    runs_free(&a);
    runs_free(&b);
  }
  gr_graph_destroy(&g);
  /* Every weight below delta: nothing is heavy, nothing waits. */
  g = generated("kron:10:8", "random:1:1");
  once.delta = always.delta = 0;
  ck_assert_int_eq(gr_sssp_prepare(g, &once), GR_SUCCESS);
  ck_assert_int_eq(gr_sssp_prepare(g, &always), GR_SUCCESS);
  ck_assert(once.delta > 1.0);
  sssp_runs a, b;
  run_on(g, 2, &once, &a);
  run_on(g, 2, &always, &b);
  for (int k = 0; k < N_SOURCES; k++) ck_assert_int_eq(a.iterations[k], b.iterations[k]);
  ck_assert(a.edges == b.edges);
  runs_free(&a);
  runs_free(&b);
  gr_graph_destroy(&g);
}
END_TEST

/* Two option sets for one graph, delta 64, prepared: the defaults and
 * the defaults with `tune` (checked to parse). */
static void options_pair(gr_graph *g, const char *tune, gr_prim_options *dflt, gr_prim_options *tuned) {
  const gr_prim_options init = GR_PRIM_OPTIONS_INIT;
  *dflt = *tuned = init;
  ck_assert_int_eq(gr_tuning_parse(&tuned->tune, tune), GR_SUCCESS);
  dflt->delta = tuned->delta = 64;
  ck_assert_int_eq(gr_sssp_prepare(g, dflt), GR_SUCCESS);
  ck_assert_int_eq(gr_sssp_prepare(g, tuned), GR_SUCCESS);
}

/* The last buckets as one (sssp-tail=16, the default): once the work left
 * is small against the largest bucket, every arc is relaxed at every
 * expansion with no bucket boundary. The distances of the buckets kept to
 * the end (sssp-tail=0), bit for bit, on one device and between devices,
 * in fewer iterations over the sources (the tail's buckets cost two or
 * three each), none of them more than a few arcs over (the tail holds few
 * vertices). */
START_TEST(tail_goes_as_one_bucket) {
  gr_graph *g = generated("kron:12:8", "random:1:255");
  const gr_vid n = gr_graph_num_vertices(g);
  gr_prim_options tail, buckets;
  options_pair(g, "sssp-tail=0", &tail, &buckets);
  ck_assert_uint_eq(tail.tune.sssp_tail, 16);
  for (int devices = 1; devices <= 4; devices *= 2) {
    sssp_runs a, b;
    run_on(g, devices, &tail, &a);
    run_on(g, devices, &buckets, &b);
    int fewer = 0, more = 0;
    for (int k = 0; k < N_SOURCES; k++) {
      ck_assert_msg(!memcmp(a.dist[k], b.dist[k], (size_t)n * sizeof(float)), "%d devices, source %d", devices, k);
      fewer += a.iterations[k] < b.iterations[k];
      more += a.iterations[k] > b.iterations[k];
      /* The iteration where the tail begins is tagged, once at most. */
      ck_assert_msg(a.tails[k] <= 1 && b.tails[k] == 0, "%d devices, source %d: %d and %d tails", devices, k,
                    a.tails[k], b.tails[k]);
      if (a.iterations[k] < b.iterations[k])
        ck_assert_msg(a.tails[k] == 1, "%d devices, source %d: fewer iterations, no tail", devices, k);
    }
    check_runs(g, &tail, &a, devices == 1, "the tail as one bucket");
    ck_assert_msg(fewer > 0 && more == 0, "%d devices: %d sources took fewer iterations, %d more", devices, fewer,
                  more);
    ck_assert_msg(a.edges * 10 <= b.edges * 11, "%d devices: %llu arcs walked against %llu", devices,
                  (unsigned long long)a.edges, (unsigned long long)b.edges);
    runs_free(&a);
    runs_free(&b);
  }
  gr_graph_destroy(&g);
}
END_TEST

/* A bucket's early end between devices (sssp-early, 16384 by default):
 * once a bucket's tail holds few vertices on all devices together, the
 * iteration that relaxes them ends it and begins the next one. The
 * distances stay the reference's bit for bit, with and without
 * predecessors, on 2, 3 and 4 CPU devices; the runs take fewer
 * iterations in all (a grid's buckets have long thin tails; Kronecker's
 * short ones), never more than a tenth more arcs; one device, which runs
 * a bucket's small levels in its device-side loop, is left as it was.
 * Then every partitioner (uneven parts among them: the decision must be
 * every device's alike, or they part at the pick's collective) under both
 * proxies, on 2 and 4 devices. */
START_TEST(bucket_tail_ends_early_between_devices) {
  const char *gspecs[] = {"kron:12:8", "grid2d:40x40"};
  for (size_t i = 0; i < sizeof gspecs / sizeof *gspecs; i++) {
    gr_graph *g = generated(gspecs[i], "random:1:255");
    gr_prim_options early, whole;
    options_pair(g, "sssp-early=0", &early, &whole);
    ck_assert_uint_eq(early.tune.sssp_early, 16384);
    for (int devices = 1; devices <= 4; devices++) {
      for (int pred = 0; pred < 2; pred++) {
        early.mark_pred = whole.mark_pred = pred;
        sssp_runs a, b;
        /* One device on one thread: the same iterations every time (two
         * threads' relaxations race for the device-side loop's levels). */
        if (devices == 1) {
          run_one_device(g, 1, &early, &a);
          run_one_device(g, 1, &whole, &b);
        } else {
          run_on(g, devices, &early, &a);
          run_on(g, devices, &whole, &b);
        }
        char what[96];
        snprintf(what, sizeof what, "%s, %d devices%s, buckets ending early", gspecs[i], devices,
                 pred ? ", predecessors" : "");
        check_runs(g, &early, &a, devices == 1, what);
        int ia = 0, ib = 0;
        for (int k = 0; k < N_SOURCES; k++) {
          ck_assert_msg(!memcmp(a.dist[k], b.dist[k], (size_t)gr_graph_num_vertices(g) * sizeof(float)),
                        "%s, source %d", what, k);
          ia += a.iterations[k];
          ib += b.iterations[k];
          if (devices == 1) ck_assert_int_eq(a.iterations[k], b.iterations[k]);
        }
        if (devices > 1) ck_assert_msg(ia < ib, "%s: %d iterations against %d", what, ia, ib);
        ck_assert_msg(a.edges * 10 <= b.edges * 11, "%s: %llu arcs walked against %llu", what,
                      (unsigned long long)a.edges, (unsigned long long)b.edges);
        runs_free(&a);
        runs_free(&b);
      }
    }
    gr_graph_destroy(&g);
  }
  /* Every partitioner (uneven parts too) and both proxies: the same
   * distances as with whole buckets, and fewer iterations in all. */
  static const gr_partitioner_kind kinds[] = {GR_PART_RANDOM, GR_PART_BIASED,
#ifdef GR_HAVE_METIS
                                              GR_PART_METIS,
#endif
                                              GR_PART_STATIC, GR_PART_RANGE};
  gr_graph *g = generated("kron:11:8", "random:1:255");
  gr_prim_options o[2];
  options_pair(g, "sssp-early=0", &o[0], &o[1]);
  int iters[2] = {0, 0};
  for (int devices = 2; devices <= 4; devices += 2)
    for (size_t p = 0; p < sizeof kinds / sizeof *kinds; p++) {
      gr_partition *part = gr_test_partition(g, kinds[p], devices);
      for (int x = 0; x < 2; x++) {
        gr_subgraph **subs = NULL;
        ck_assert_int_eq(gr_subgraphs_build(&subs, g, part, x ? GR_PROXY_1HOP : GR_PROXY_ALL, false, true),
                         GR_SUCCESS);
        sssp_runs got[2];
        for (int k = 0; k < 2; k++) {
          gr_comm_options co = {GR_COMM_SELECTIVE, GR_TRANSPORT_HOST, GR_COMM_FORMAT_AUTO, NULL};
          gr_comm *comm = NULL;
          ck_assert_int_eq(gr_comm_create(&comm, GR_BACKEND_CPU, devices, &co), GR_SUCCESS);
          run_sssp(g, subs, devices, 1, &gr_comm_exchange_ops, comm, &o[k], &got[k]);
          gr_comm_destroy(&comm);
          for (int r = 0; r < N_SOURCES; r++) iters[k] += got[k].iterations[r];
        }
        char what[128];
        snprintf(what, sizeof what, "buckets ending early, %d devices, %s, %s proxies", devices,
                 gr_partitioner_name(kinds[p]), x ? "1hop" : "all");
        check_runs(g, &o[0], &got[0], false, what);
        for (int r = 0; r < N_SOURCES; r++)
          ck_assert_msg(!memcmp(got[0].dist[r], got[1].dist[r], (size_t)gr_graph_num_vertices(g) * sizeof(float)),
                        "%s, source %d", what, r);
        runs_free(&got[0]);
        runs_free(&got[1]);
        gr_subgraphs_destroy(&subs, devices);
      }
      gr_partition_destroy(&part);
    }
  ck_assert_msg(iters[0] < iters[1], "every partitioner and proxy: %d iterations against %d", iters[0], iters[1]);
  gr_graph_destroy(&g);
}
END_TEST

/* sssp-peers=on: a copy lowered inside its bucket is lowered on its owner
 * too, in place, and its record goes only where that lowered the owner's
 * distance, which the owner's combine takes as a tie (gr_iter.min_ties).
 * The distances stay the reference's bit for bit on 2, 3 and 4 CPU devices
 * (a tie the combine dropped would leave its vertex unexpanded), and the
 * records sent are fewer than with the copies lowered here alone: a copy
 * whose owner held as low a distance sends none. */
START_TEST(copies_lowered_on_owners_in_place) {
  gr_graph *g = generated("kron:12:8", "random:1:255");
  gr_prim_options on = GR_PRIM_OPTIONS_INIT, off = GR_PRIM_OPTIONS_INIT;
  ck_assert(!off.tune.sssp_peers);
  ck_assert_int_eq(gr_tuning_parse(&on.tune, "sssp-peers=on"), GR_SUCCESS);
  on.delta = off.delta = 64;
  ck_assert_int_eq(gr_sssp_prepare(g, &on), GR_SUCCESS);
  ck_assert_int_eq(gr_sssp_prepare(g, &off), GR_SUCCESS);
  for (int devices = 2; devices <= 4; devices++) {
    sssp_runs a, b;
    run_on(g, devices, &on, &a);
    run_on(g, devices, &off, &b);
    check_runs(g, &on, &a, false, "copies lowered on their owners");
    check_runs(g, &off, &b, false, "copies lowered here alone");
    ck_assert_msg(a.items_sent < b.items_sent, "%d devices: %llu records sent against %llu", devices,
                  (unsigned long long)a.items_sent, (unsigned long long)b.items_sent);
    runs_free(&a);
    runs_free(&b);
  }
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(several_devices_equal_one_device) {
  static const gr_partitioner_kind kinds[] = {GR_PART_RANDOM, GR_PART_BIASED,
#ifdef GR_HAVE_METIS
                                              GR_PART_METIS,
#endif
                                              GR_PART_STATIC, GR_PART_RANGE};
  static const gr_proxy_mode proxies[] = {GR_PROXY_ALL, GR_PROXY_1HOP};
  static const gr_comm_mode comms[] = {GR_COMM_SELECTIVE, GR_COMM_BROADCAST};
  const char *mspecs[] = {"kron:9:8", "grid2d:16x20", "uniform:9:4,directed"};
  for (size_t i = 0; i < sizeof mspecs / sizeof *mspecs; i++) {
    gr_graph *g = generated(mspecs[i], i == 1 ? "random:0.25:9.75" : "random:0:255");
    const gr_vid n = gr_graph_num_vertices(g);
    gr_prim_options o = GR_PRIM_OPTIONS_INIT;
    o.mark_pred = true;
    ck_assert_int_eq(gr_sssp_prepare(g, &o), GR_SUCCESS);
    sssp_runs want;
    run_one_device(g, 1, &o, &want);
    for (int devices = 2; devices <= 4; devices++)
      for (size_t p = 0; p < sizeof kinds / sizeof kinds[0]; p++) {
        gr_partition *part = gr_test_partition(g, kinds[p], devices);
        for (size_t x = 0; x < sizeof proxies / sizeof proxies[0]; x++) {
          gr_subgraph **subs = NULL;
          ck_assert_int_eq(gr_subgraphs_build(&subs, g, part, proxies[x], false, true), GR_SUCCESS);
          for (size_t c = 0; c < sizeof comms / sizeof comms[0]; c++) {
            gr_comm_options co = {comms[c], GR_TRANSPORT_HOST, GR_COMM_FORMAT_AUTO, NULL};
            gr_comm *comm = NULL;
            ck_assert_int_eq(gr_comm_create(&comm, GR_BACKEND_CPU, devices, &co), GR_SUCCESS);
            sssp_runs got;
            /* Every other case without predecessors: both payload sets. */
            gr_prim_options oc = o;
            oc.mark_pred = (p + x + c) % 2 == 0;
            run_sssp(g, subs, devices, 1, &gr_comm_exchange_ops, comm, &oc, &got);
            gr_comm_destroy(&comm);
            char what[160];
            snprintf(what, sizeof what, "%s, %d devices, %s, %s proxies, %s", mspecs[i], devices,
                     gr_partitioner_name(kinds[p]), proxies[x] == GR_PROXY_1HOP ? "1hop" : "all",
                     gr_comm_mode_name(comms[c]));
            for (int k = 0; k < N_SOURCES; k++)
              ck_assert_msg(!memcmp(got.dist[k], want.dist[k], (size_t)n * sizeof(float)),
                            "%s: source %llu differs from one device", what, (unsigned long long)source_of(g, k));
            check_runs(g, &oc, &got, false, what);
            runs_free(&got);
          }
          gr_subgraphs_destroy(&subs, devices);
        }
        gr_partition_destroy(&part);
      }
    runs_free(&want);
    gr_graph_destroy(&g);
  }
}
END_TEST

/* No run after the first grows the bucket or a pile inside its loop: the
 * bucket and both piles get their room (every owned vertex) at the first
 * take. A first run from an isolated vertex (no pile, no split), then runs
 * from the vertex of highest degree (piles split): on one device the later
 * runs allocate nothing. */
START_TEST(later_runs_allocate_nothing_on_one_device) {
  gr_graph *g = generated("kron:12:8", "random:1:255");
  const gr_csr *c = gr_graph_out(g);
  gr_vid lone = c->n, hub = 0;
  for (gr_vid v = 0; v < c->n; v++) {
    const gr_eid d = c->offsets[v + 1] - c->offsets[v];
    if (d == 0 && lone == c->n) lone = v;
    if (d > c->offsets[hub + 1] - c->offsets[hub]) hub = v;
  }
  ck_assert_msg(lone < c->n, "kron:12:8 has no isolated vertex");
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  ck_assert_int_eq(gr_sssp_prepare(g, &o), GR_SUCCESS);
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, false, true), GR_SUCCESS);
  for (int t = 0; t < N_TUNINGS; t++) {
    gr_prim_options ot = o;
    ck_assert_int_eq(gr_tuning_parse(&ot.tune, tunings[t]), GR_SUCCESS);
    gr_enactor *e = sssp_enactor(&sub, 1, 2, NULL, NULL, &ot);
    const gr_vid sources[] = {lone, hub, lone, hub};
    int splits = 0;
    for (int k = 0; k < 4; k++) {
      gr_run_args a = {sources[k], k, NULL, 0};
      gr_run_stats st;
      ck_assert_msg(gr_enactor_run(e, &a, &st) == GR_SUCCESS, "%s", gr_error_message());
      ck_assert_int_eq(st.n_devices, 1);
      if (k > 0)
        ck_assert_msg(st.devices[0].allocations == 0, "tuning '%s', run %d from %llu: %llu allocations", tunings[t], k,
                      (unsigned long long)sources[k], (unsigned long long)st.devices[0].allocations);
      gr_result r;
      ck_assert_int_eq(gr_enactor_extract(e, &r), GR_SUCCESS);
      for (int i = 1; i < r.extra.series_len; i++) splits += r.extra.series[2][i] != r.extra.series[2][i - 1];
      gr_result_free(&r);
      gr_run_stats_free(&st);
    }
    ck_assert_msg(splits > 0, "tuning '%s': no run moved its bucket", tunings[t]);
    gr_enactor_destroy(&e);
  }
  gr_subgraph_destroy(&sub);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(missing_weights_fail_at_init) {
  gr_graph *g = generated("kron:6:4", "none");
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, false, true), GR_SUCCESS);
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_enactor_config cfg = {.prim = &gr_sssp_primitive, .opts = &o, .backend = GR_BACKEND_CPU, .n_devices = 1,
                           .cpu_threads = 1, .mem = GR_MEM_POLICY_INIT, .subs = &sub};
  gr_enactor *e = NULL;
  ck_assert_int_eq(gr_enactor_create(&e, &cfg), GR_ERR_BAD_INPUT);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "weights"));
  ck_assert_ptr_null(e);
  gr_subgraph_destroy(&sub);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(allocation_failure_names_the_device_and_frees_everything) {
  gr_graph *g = generated("kron:10:8", "random:1:64");
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, false, true), GR_SUCCESS);
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  o.mark_pred = true;
  ck_assert_int_eq(gr_sssp_prepare(g, &o), GR_SUCCESS);
  gr_enactor_config cfg = {.prim = &gr_sssp_primitive, .opts = &o, .backend = GR_BACKEND_CPU, .n_devices = 1,
                           .cpu_threads = 2, .mem = GR_MEM_POLICY_INIT, .subs = &sub};
  bool failed_in_run = false, completed = false;
  for (int n = 1; n <= 30 && !completed; n++) {
    char spec[32];
    snprintf(spec, sizeof spec, "0:%d", n);
    setenv("GR_FAULT_ALLOC", spec, 1);
    gr_enactor *e = NULL;
    gr_status st = gr_enactor_create(&e, &cfg);
    if (st == GR_SUCCESS) {
      gr_run_args a = {source_of(g, 0), 0, NULL, 0};
      gr_run_stats rs;
      st = gr_enactor_run(e, &a, &rs);
      gr_run_stats_free(&rs);
      failed_in_run = failed_in_run || st < 0;
      completed = st == GR_SUCCESS;
      gr_enactor_destroy(&e);
    }
    if (st < 0) {
      ck_assert_int_eq(st, GR_ERR_DEVICE_OOM);
      ck_assert_ptr_nonnull(strstr(gr_error_message(), "device 0"));
      ck_assert_ptr_null(e);
    }
  }
  unsetenv("GR_FAULT_ALLOC");
  ck_assert_msg(failed_in_run, "no injected failure landed inside a run");
  ck_assert_msg(completed, "no run completed within 30 allocations");
  gr_subgraph_destroy(&sub);
  gr_graph_destroy(&g);
}
END_TEST

int main(void) {
  Suite *s = suite_create("sssp");
  TCase *el = tcase_create("per_element");
  tcase_add_test(el, relax_lowers_once_and_outputs_once_per_iteration);
  tcase_add_test(el, predecessor_moves_only_with_a_lower_distance);
  tcase_add_test(el, classify_splits_near_far_and_stale);
  tcase_add_test(el, next_split_is_the_multiple_of_delta_above);
  tcase_add_test(el, level_relaxation_splits_near_and_far_at_once);
  tcase_add_test(el, split_rows_put_light_arcs_first);
  suite_add_tcase(s, el);
  TCase *args = tcase_create("arguments");
  tcase_add_test(args, prepare_rejects_negative_and_non_finite_weights);
  tcase_add_test(args, delta_auto_follows_weights_and_degree);
  tcase_add_test(args, missing_weights_fail_at_init);
  suite_add_tcase(s, args);
  TCase *ref = tcase_create("reference");
  tcase_add_test(ref, reference_gives_known_distances);
  tcase_add_test(ref, traversed_edges_of_undirected_graphs_match_a_count_over_the_arcs);
  tcase_add_test(ref, validator_rejects_each_kind_of_wrong_answer);
  tcase_add_test(ref, validator_accepts_any_tight_predecessor);
  tcase_add_test(ref, checks_alone_decide_only_where_they_prove);
  tcase_add_test(ref, tolerance_is_exact_for_integer_weights_only);
  suite_add_tcase(s, ref);
  TCase *one = tcase_create("single_device");
  tcase_set_timeout(one, 600);
  tcase_add_test(one, one_device_equals_reference);
  tcase_add_test(one, every_delta_gives_the_same_distances);
  tcase_add_test(one, zero_weights_disconnected_parts_and_directions);
  tcase_add_test(one, later_runs_allocate_nothing_on_one_device);
  suite_add_tcase(s, one);
  TCase *multi = tcase_create("multi_device");
  tcase_set_timeout(multi, 900);
  tcase_add_test(multi, several_devices_equal_one_device);
  tcase_add_test(multi, heavy_arcs_wait_for_their_bucket);
  tcase_add_test(multi, tail_goes_as_one_bucket);
  tcase_add_test(multi, bucket_tail_ends_early_between_devices);
  tcase_add_test(multi, copies_lowered_on_owners_in_place);
  suite_add_tcase(s, multi);
  TCase *fail = tcase_create("alloc_failure");
  tcase_set_timeout(fail, 300);
  tcase_add_test(fail, allocation_failure_names_the_device_and_frees_everything);
  suite_add_tcase(s, fail);
  return gr_test_run_suite(s, 0);
}
