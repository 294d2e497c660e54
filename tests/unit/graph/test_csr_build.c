/* SPDX-License-Identifier: Apache-2.0 */
/* CSR build from an edge list: the COO helpers, symmetrizing, self-loop and
 * duplicate handling (defaults and overrides, smallest weight kept), sorted
 * rows, the CSC as the exact transpose, thread-count independence, and the
 * size checks (vertex range, host memory, ids outside the graph). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_test.h"

static gr_coo make_coo(uint64_t n, const int (*edges)[2], int m, const float *w) {
  gr_coo c = GR_COO_INIT;
  ck_assert_int_eq(gr_coo_reserve(&c, (uint64_t)m, w != NULL), GR_SUCCESS);
  for (int i = 0; i < m; i++)
    ck_assert_int_eq(gr_coo_push(&c, (gr_vid)edges[i][0], (gr_vid)edges[i][1], w ? w[i] : 0.0f), GR_SUCCESS);
  c.n = n;
  return c;
}

static gr_graph *build(gr_coo *c, const gr_load_options *o) {
  gr_graph *g = NULL;
  gr_status st = gr_graph_from_coo(&g, c, o);
  ck_assert_msg(st == GR_SUCCESS, "build failed: %s", gr_error_message());
  ck_assert_ptr_null(c->src);
  ck_assert_uint_eq(c->m, 0);
  gt_check_csr(gr_graph_out(g));
  return g;
}

/* ---- coo -------------------------------------------------------------------- */

START_TEST(coo_push_grows_and_free_resets) {
  gr_coo c = GR_COO_INIT;
  for (int i = 0; i < 5000; i++) GT_REQUIRE(gr_coo_push(&c, (gr_vid)i, (gr_vid)(i + 1), 1.0f) == GR_SUCCESS, "push failed");
  ck_assert_uint_eq(c.m, 5000);
  ck_assert_uint_ge(c.capacity, 5000);
  ck_assert_ptr_null(c.w);
  ck_assert_uint_eq(c.src[4999], 4999);
  ck_assert_uint_eq(c.dst[4999], 5000);
  gr_coo_free(&c);
  ck_assert_ptr_null(c.src);
  ck_assert_uint_eq(c.m, 0);
  ck_assert_uint_eq(c.capacity, 0);
}
END_TEST

START_TEST(coo_reserve_with_weights_keeps_them_through_growth) {
  gr_coo c = GR_COO_INIT;
  ck_assert_int_eq(gr_coo_reserve(&c, 2, true), GR_SUCCESS);
  ck_assert_ptr_nonnull(c.w);
  for (int i = 0; i < 3000; i++) GT_REQUIRE(gr_coo_push(&c, 0, 1, (gr_weight)i) == GR_SUCCESS, "push failed");
  ck_assert_float_eq(c.w[2999], 2999.0f);
  ck_assert_float_eq(c.w[1], 1.0f);
  gr_coo_free(&c);
}
END_TEST

/* ---- symmetrize ------------------------------------------------------------ */

START_TEST(csr_undirected_option_symmetrizes) {
  const int e[][2] = {{0, 1}, {2, 1}, {3, 0}};
  gr_coo c = make_coo(4, e, 3, NULL);
  gr_load_options o = gt_options();
  o.undirected = true;
  gr_graph *g = build(&c, &o);
  ck_assert(!gr_graph_is_directed(g));
  ck_assert_str_eq(gt_graph_text(g), "0:1,3 1:0,2 2:1 3:0");
  ck_assert_uint_eq(gr_graph_num_arcs(g), 6);
  ck_assert_uint_eq(gr_graph_num_edges(g), 3);
  ck_assert_str_eq(gr_graph_name(g), "edge list");
  ck_assert_uint_eq(gr_graph_original_id(g, 3), 3);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(csr_symmetric_edge_list_is_undirected_without_the_option) {
  const int e[][2] = {{0, 1}, {1, 2}};
  gr_coo c = make_coo(3, e, 2, NULL);
  c.symmetric = true;
  c.id_base = 1;
  gr_load_options o = gt_options();
  gr_graph *g = build(&c, &o);
  ck_assert(!gr_graph_is_directed(g));
  ck_assert_str_eq(gt_graph_text(g), "0:1 1:0,2 2:1");
  ck_assert_uint_eq(gr_graph_original_id(g, 0), 1);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(csr_kept_self_loop_is_stored_once_in_undirected_graphs) {
  const int e[][2] = {{0, 0}, {0, 1}, {1, 1}};
  gr_coo c = make_coo(2, e, 3, NULL);
  gr_load_options o = gt_options();
  o.undirected = true;
  o.self_loops = GR_CLEAN_KEEP;
  gr_graph *g = build(&c, &o);
  ck_assert_str_eq(gt_graph_text(g), "0:0,1 1:0,1");
  ck_assert_uint_eq(gr_graph_num_arcs(g), 4);
  ck_assert_uint_eq(gr_graph_num_edges(g), 3);
  gr_graph_destroy(&g);
}
END_TEST

/* ---- cleaning ---------------------------------------------------------------- */

static const int dirty[][2] = {{0, 1}, {0, 1}, {1, 1}, {1, 0}, {2, 0}, {2, 2}, {2, 0}};

START_TEST(csr_undirected_default_removes_self_loops_and_duplicates) {
  gr_coo c = make_coo(3, dirty, 7, NULL);
  gr_load_options o = gt_options();
  o.undirected = true;
  gr_graph *g = build(&c, &o);
  ck_assert_str_eq(gt_graph_text(g), "0:1,2 1:0 2:0");
  ck_assert_uint_eq(gr_graph_num_edges(g), 2);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(csr_directed_default_keeps_self_loops_and_duplicates) {
  gr_coo c = make_coo(3, dirty, 7, NULL);
  gr_load_options o = gt_options();
  gr_graph *g = build(&c, &o);
  ck_assert_str_eq(gt_graph_text(g), "0:1,1 1:0,1 2:0,0,2");
  ck_assert_uint_eq(gr_graph_num_edges(g), 7);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(csr_remove_overrides_the_directed_default) {
  gr_coo c = make_coo(3, dirty, 7, NULL);
  gr_load_options o = gt_options();
  o.self_loops = GR_CLEAN_REMOVE;
  o.duplicates = GR_CLEAN_REMOVE;
  gr_graph *g = build(&c, &o);
  ck_assert_str_eq(gt_graph_text(g), "0:1 1:0 2:0");
  gr_graph_destroy(&g);
  c = make_coo(3, dirty, 7, NULL);
  o.duplicates = GR_CLEAN_KEEP;
  g = build(&c, &o);
  ck_assert_str_eq(gt_graph_text(g), "0:1,1 1:0 2:0,0");
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(csr_keep_overrides_the_undirected_default) {
  gr_coo c = make_coo(3, dirty, 7, NULL);
  gr_load_options o = gt_options();
  o.undirected = true;
  o.self_loops = GR_CLEAN_KEEP;
  o.duplicates = GR_CLEAN_KEEP;
  gr_graph *g = build(&c, &o);
  ck_assert_str_eq(gt_graph_text(g), "0:1,1,1,2,2 1:0,0,0,1 2:0,0,2");
  /* Five edges between different vertices, two loops. */
  ck_assert_uint_eq(gr_graph_num_edges(g), 7);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(csr_merged_duplicates_keep_the_smallest_weight) {
  const int e[][2] = {{0, 1}, {0, 1}, {0, 1}, {1, 2}, {2, 1}};
  const float w[] = {5.0f, -2.0f, 9.0f, 3.0f, 1.0f};
  gr_coo c = make_coo(3, e, 5, w);
  gr_load_options o = gt_options();
  o.duplicates = GR_CLEAN_REMOVE;
  gr_graph *g = build(&c, &o);
  ck_assert_str_eq(gt_csr_text(gr_graph_out(g), true), "0:1(-2) 1:2(3) 2:1(1)");
  gr_graph_destroy(&g);
  c = make_coo(3, e, 5, w);
  o.undirected = true;
  g = build(&c, &o);
  ck_assert_str_eq(gt_csr_text(gr_graph_out(g), true), "0:1(-2) 1:0(-2),2(1) 2:1(1)");
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(csr_kept_duplicates_are_ordered_by_weight) {
  const int e[][2] = {{0, 1}, {0, 1}, {0, 1}};
  const float w[] = {5.0f, -2.0f, 9.0f};
  gr_coo c = make_coo(2, e, 3, w);
  gr_load_options o = gt_options();
  gr_graph *g = build(&c, &o);
  ck_assert_str_eq(gt_csr_text(gr_graph_out(g), true), "0:1(-2),1(5),1(9) 1:");
  gr_graph_destroy(&g);
}
END_TEST

/* ---- order ------------------------------------------------------------------- */

START_TEST(csr_rows_are_sorted_for_every_row_length) {
  /* Row 0 is long and reversed (the quicksort path), row 1 is long with
   * many equal values (partitions of equal keys), the rest short. */
  gr_coo c = GR_COO_INIT;
  const uint64_t n = 20000;
  for (uint64_t i = 0; i < n; i++) GT_REQUIRE(gr_coo_push(&c, 0, (gr_vid)(n - 1 - i), 0) == GR_SUCCESS, "push failed");
  for (uint64_t i = 0; i < n; i++)
    GT_REQUIRE(gr_coo_push(&c, 1, (gr_vid)(gr_mix64(i) % 7), 0) == GR_SUCCESS, "push failed");
  for (uint64_t i = 0; i < 5 * n; i++)
    GT_REQUIRE(gr_coo_push(&c, (gr_vid)(gr_mix64(i) % n), (gr_vid)(gr_mix64(i + n) % n), 0) == GR_SUCCESS,
               "push failed");
  c.n = n;
  gr_load_options o = gt_options();
  gr_graph *g = build(&c, &o);
  ck_assert_uint_eq(gr_graph_num_arcs(g), 7 * n);
  const gr_csr *out = gr_graph_out(g);
  for (gr_vid v = 0; v < 100; v++) GT_REQUIRE(out->indices[out->offsets[0] + v] == v, "row 0 is not 0, 1, 2, ...");
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(csr_offsets_are_64_bit) {
  ck_assert_uint_eq(sizeof(gr_eid), 8);
  ck_assert_uint_eq(sizeof(((gr_csr *)0)->offsets[0]), 8);
  ck_assert_uint_eq(sizeof(((gr_csr *)0)->m), 8);
  ck_assert_uint_eq(sizeof(((gr_coo *)0)->m), 8);
}
END_TEST

/* ---- csc ------------------------------------------------------------------ */

static gr_coo random_coo(uint64_t n, uint64_t m, bool weights, uint64_t seed) {
  gr_coo c = GR_COO_INIT;
  ck_assert_int_eq(gr_coo_reserve(&c, m, weights), GR_SUCCESS);
  for (uint64_t i = 0; i < m; i++) {
    uint64_t r = gr_rand64(seed, 1, i);
    /* Skewed sources so some rows are long. */
    gr_vid u = (gr_vid)((r % 8 == 0) ? r % 4 : (r >> 8) % n);
    GT_REQUIRE(gr_coo_push(&c, u, (gr_vid)((r >> 32) % n), (gr_weight)(r % 13)) == GR_SUCCESS, "push failed");
  }
  c.n = n;
  return c;
}

START_TEST(csc_is_the_exact_transpose_of_the_csr) {
  gr_coo c = random_coo(3000, 40000, true, 5);
  gr_load_options o = gt_options();
  gr_graph *g = build(&c, &o);
  const gr_csr *out = gr_graph_out(g), *in = NULL;
  ck_assert_int_eq(gr_graph_in(g, &in), GR_SUCCESS);
  ck_assert_ptr_ne(in, out);
  gt_check_csr(in);
  ck_assert_uint_eq(in->m, out->m);
  /* Every arc u -> v with weight w appears in v's in-row, and counts match. */
  for (gr_vid u = 0; u < out->n; u++)
    for (gr_eid e = out->offsets[u]; e < out->offsets[u + 1]; e++) {
      gr_vid v = out->indices[e];
      bool found = false;
      for (gr_eid f = in->offsets[v]; f < in->offsets[v + 1] && !found; f++)
        found = in->indices[f] == u && in->weights[f] == out->weights[e];
      GT_REQUIRE(found, "arc %u -> %u missing from the CSC", (unsigned)u, (unsigned)v);
    }
  /* The same call returns the same arrays. */
  const gr_csr *again = NULL;
  ck_assert_int_eq(gr_graph_in(g, &again), GR_SUCCESS);
  ck_assert_ptr_eq(again, in);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(csc_of_an_undirected_graph_is_the_csr) {
  gr_coo c = random_coo(100, 500, false, 6);
  gr_load_options o = gt_options();
  o.undirected = true;
  gr_graph *g = build(&c, &o);
  const gr_csr *in = NULL;
  ck_assert_int_eq(gr_graph_in(g, &in), GR_SUCCESS);
  ck_assert_ptr_eq(in, gr_graph_out(g));
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(csc_is_built_at_load_when_asked) {
  gr_coo c = random_coo(50, 200, false, 7);
  gr_load_options o = gt_options();
  o.build_csc = true;
  gr_graph *g = build(&c, &o);
  const gr_csr *in = NULL;
  ck_assert_int_eq(gr_graph_in(g, &in), GR_SUCCESS);
  ck_assert_uint_eq(in->m, 200);
  gr_graph_destroy(&g);
}
END_TEST

/* ---- threads ------------------------------------------------------------------ */

START_TEST(csr_build_is_identical_for_any_thread_count) {
  for (int mode = 0; mode < 3; mode++) {
    gr_graph *g[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
      gr_coo c = random_coo(5000, 200000, true, 11);
      gr_load_options o = gt_options();
      o.threads = k ? 4 : 1;
      o.undirected = mode == 1;
      o.duplicates = mode == 2 ? GR_CLEAN_REMOVE : GR_CLEAN_DEFAULT;
      o.build_csc = true;
      g[k] = build(&c, &o);
    }
    gt_csr_equal(gr_graph_out(g[0]), gr_graph_out(g[1]));
    const gr_csr *i0 = NULL, *i1 = NULL;
    ck_assert_int_eq(gr_graph_in(g[0], &i0), GR_SUCCESS);
    ck_assert_int_eq(gr_graph_in(g[1], &i1), GR_SUCCESS);
    gt_csr_equal(i0, i1);
    gr_graph_destroy(&g[0]);
    gr_graph_destroy(&g[1]);
  }
}
END_TEST

/* ---- limits ---------------------------------------------------------------- */

START_TEST(csr_vertex_count_beyond_the_build_is_too_large) {
  gr_coo c = GR_COO_INIT;
  c.n = (uint64_t)GR_MAX_VERTICES + 1;
  gr_graph *g = NULL;
  ck_assert_int_eq(gr_graph_from_coo(&g, &c, NULL), GR_ERR_TOO_LARGE);
  ck_assert_ptr_null(g);
#if GR_VID_BITS < 64
  ck_assert(strstr(gr_error_message(), "rebuild gr with -DGR_VERTEX_64=ON") != NULL);
#else
  ck_assert(strstr(gr_error_message(), "is more than") != NULL);
#endif
}
END_TEST

START_TEST(csr_beyond_host_memory_is_host_oom_before_allocating) {
  /* An edge list that claims 2^50 entries: the check must fail before any
   * array is touched (these are NULL). */
  gr_coo c = GR_COO_INIT;
  c.n = 10;
  c.m = 1ull << 50;
  gr_graph *g = NULL;
  ck_assert_int_eq(gr_graph_from_coo(&g, &c, NULL), GR_ERR_HOST_OOM);
  ck_assert_ptr_null(g);
  ck_assert_msg(strstr(gr_error_message(), "bytes") && strstr(gr_error_message(), "host memory"),
                "message: %s", gr_error_message());
  ck_assert_uint_eq(c.m, 0);
}
END_TEST

START_TEST(csr_ids_outside_the_graph_are_invalid) {
  const int e[][2] = {{0, 1}, {1, 5}};
  gr_coo c = make_coo(3, e, 2, NULL);
  gr_graph *g = NULL;
  ck_assert_int_eq(gr_graph_from_coo(&g, &c, NULL), GR_ERR_INVALID_ARG);
  ck_assert_ptr_null(g);
  ck_assert(strstr(gr_error_message(), "edge 1 (1 -> 5) names a vertex outside 0..2") != NULL);
  ck_assert_ptr_null(c.src);
}
END_TEST

/* Edges a search walks from its reached vertices: each undirected edge
 * with a reached end once (half the degrees without self-loops, a count
 * over the arcs with them), a directed graph's reached out-arcs; depths
 * and distances alike. Compared with a count over every arc. */
START_TEST(graph_edges_reached_match_a_count_over_the_arcs) {
  /* Components {0,1,2,3} (a cycle and a chord), {4,5}, and 6 alone. */
  const int e[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}, {4, 5}, {2, 2}};
  for (int kind = 0; kind < 3; kind++) {
    const int loops = kind == 1, directed = kind == 2;
    gr_coo c = make_coo(7, e, loops || directed ? 7 : 6, NULL);
    gr_load_options o = gt_options();
    o.undirected = !directed;
    o.self_loops = GR_CLEAN_KEEP;
    gr_graph *g = build(&c, &o);
    const gr_csr *out = gr_graph_out(g);
    /* Reached: the first component, then the second, then none. */
    for (int from = 0; from < 3; from++) {
      gr_svid depth[7];
      float dist[7];
      for (int v = 0; v < 7; v++) {
        const int comp = v < 4 ? 0 : v < 6 ? 1 : 2;
        depth[v] = comp == from ? 1 : -1;
        dist[v] = comp == from ? 2.5f : INFINITY;
      }
      gr_eid want = 0;
      for (gr_vid u = 0; u < out->n; u++)
        for (gr_eid k = out->offsets[u]; k < out->offsets[u + 1]; k++)
          want += depth[u] >= 0 && (directed || out->indices[k] >= u);
      const gr_eid expect[3][3] = {{5, 1, 0}, {6, 1, 0}, {6, 1, 0}};
      ck_assert_uint_eq(want, expect[kind][from]);
      ck_assert_uint_eq(gr_graph_edges_reached(g, depth), want);
      ck_assert_uint_eq(gr_graph_edges_reached_float(g, dist), want);
    }
    gr_graph_destroy(&g);
  }
}
END_TEST

START_TEST(graph_accessors_accept_null) {
  gr_graph *g = NULL;
  gr_graph_destroy(&g);
  gr_graph_destroy(NULL);
  ck_assert_ptr_null(gr_graph_out(NULL));
  ck_assert_uint_eq(gr_graph_num_vertices(NULL), 0);
  ck_assert_str_eq(gr_graph_name(NULL), "");
  ck_assert_int_eq(gr_graph_load(&g, NULL, NULL), GR_ERR_INVALID_ARG);
}
END_TEST

static Suite *csr_suite(void) {
  Suite *s = suite_create("graph_csr_build");
  TCase *coo = gt_tcase("coo");
  tcase_add_test(coo, coo_push_grows_and_free_resets);
  tcase_add_test(coo, coo_reserve_with_weights_keeps_them_through_growth);
  suite_add_tcase(s, coo);

  TCase *sym = gt_tcase("symmetrize");
  tcase_add_test(sym, csr_undirected_option_symmetrizes);
  tcase_add_test(sym, csr_symmetric_edge_list_is_undirected_without_the_option);
  tcase_add_test(sym, csr_kept_self_loop_is_stored_once_in_undirected_graphs);
  suite_add_tcase(s, sym);

  TCase *clean = gt_tcase("cleaning");
  tcase_add_test(clean, csr_undirected_default_removes_self_loops_and_duplicates);
  tcase_add_test(clean, csr_directed_default_keeps_self_loops_and_duplicates);
  tcase_add_test(clean, csr_remove_overrides_the_directed_default);
  tcase_add_test(clean, csr_keep_overrides_the_undirected_default);
  tcase_add_test(clean, csr_merged_duplicates_keep_the_smallest_weight);
  tcase_add_test(clean, csr_kept_duplicates_are_ordered_by_weight);
  suite_add_tcase(s, clean);

  TCase *order = gt_tcase("order");
  tcase_add_test(order, csr_rows_are_sorted_for_every_row_length);
  tcase_add_test(order, csr_offsets_are_64_bit);
  suite_add_tcase(s, order);

  TCase *csc = gt_tcase("csc");
  tcase_add_test(csc, csc_is_the_exact_transpose_of_the_csr);
  tcase_add_test(csc, csc_of_an_undirected_graph_is_the_csr);
  tcase_add_test(csc, csc_is_built_at_load_when_asked);
  tcase_add_test(csc, graph_edges_reached_match_a_count_over_the_arcs);
  suite_add_tcase(s, csc);

  TCase *threads = gt_tcase("threads");
  tcase_set_timeout(threads, 120);
  tcase_add_test(threads, csr_build_is_identical_for_any_thread_count);
  suite_add_tcase(s, threads);

  TCase *limits = gt_tcase("limits");
  tcase_add_test(limits, csr_vertex_count_beyond_the_build_is_too_large);
  tcase_add_test(limits, csr_beyond_host_memory_is_host_oom_before_allocating);
  tcase_add_test(limits, csr_ids_outside_the_graph_are_invalid);
  tcase_add_test(limits, graph_accessors_accept_null);
  suite_add_tcase(s, limits);
  return s;
}

int main(void) { return gr_test_run_suite(csr_suite(), 0); }
