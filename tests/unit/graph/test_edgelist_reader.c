/* SPDX-License-Identifier: Apache-2.0 */
/* Edge-list reader: separators and comments, the optional weight column,
 * relabelling of sparse and huge ids with the id map both ways, directed
 * by default, and malformed lines with the exact status and message. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_test.h"

/* ---- format ---------------------------------------------------------------- */

START_TEST(edgelist_reads_whitespace_separated_pairs_as_directed) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("ws.txt", "0 1\n1\t2\n  2   0  \n", &o);
  ck_assert(gr_graph_is_directed(g));
  ck_assert(!gr_graph_has_weights(g));
  ck_assert_str_eq(gt_graph_text(g), "0:1 1:2 2:0");
  ck_assert_uint_eq(gr_graph_num_edges(g), 3);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(edgelist_reads_comma_separated_values) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("comma.csv", "0,1\n1 , 2\n2,\t0\r\n", &o);
  ck_assert_str_eq(gt_graph_text(g), "0:1 1:2 2:0");
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(edgelist_skips_snap_comments_and_blank_lines) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("snap.txt",
                             "# Directed graph (each unordered pair of nodes is saved once)\n"
                             "# Nodes: 3 Edges: 2\n# FromNodeId\tToNodeId\n\n% also a comment\n"
                             "0\t1\n   \n1\t2\n",
                             &o);
  ck_assert_str_eq(gt_graph_text(g), "0:1 1:2 2:");
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(edgelist_third_column_gives_weights) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("w.txt", "0 1 2.5\n1 2 -1\n2 0 3e1\n", &o);
  ck_assert(gr_graph_has_weights(g));
  ck_assert_str_eq(gt_csr_text(gr_graph_out(g), true), "0:1(2.5) 1:2(-1) 2:0(30)");
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(edgelist_undirected_option_symmetrizes) {
  gr_load_options o = gt_options();
  o.undirected = true;
  gr_graph *g = gt_load_text("und.txt", "0 1\n1 2\n2 1\n2 2\n", &o);
  ck_assert(!gr_graph_is_directed(g));
  /* The reverse duplicate and the self-loop go by default. */
  ck_assert_str_eq(gt_graph_text(g), "0:1 1:0,2 2:1");
  ck_assert_uint_eq(gr_graph_num_edges(g), 2);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(edgelist_reads_a_byte_order_mark_and_no_final_newline) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("bom.txt", "\xEF\xBB\xBF" "0 1\n1 0", &o);
  ck_assert_str_eq(gt_graph_text(g), "0:1 1:0");
  gr_graph_destroy(&g);
}
END_TEST

/* ---- ids ------------------------------------------------------------------- */

START_TEST(edgelist_relabels_sparse_ids_in_ascending_order) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("sparse.txt", "1000 7\n7 123456789\n123456789 1000\n", &o);
  ck_assert_uint_eq(gr_graph_num_vertices(g), 3);
  /* 7 -> 0, 1000 -> 1, 123456789 -> 2 */
  ck_assert_str_eq(gt_graph_text(g), "0:2 1:0 2:1");
  ck_assert_uint_eq(gr_graph_original_id(g, 0), 7);
  ck_assert_uint_eq(gr_graph_original_id(g, 1), 1000);
  ck_assert_uint_eq(gr_graph_original_id(g, 2), 123456789);
  gr_vid v = 99;
  ck_assert_int_eq(gr_graph_find_vertex(g, 1000, &v), GR_SUCCESS);
  ck_assert_uint_eq(v, 1);
  ck_assert_int_eq(gr_graph_find_vertex(g, 8, &v), GR_ERR_INVALID_ARG);
  ck_assert(strstr(gr_error_message(), "vertex 8 is not in") != NULL);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(edgelist_accepts_ids_up_to_2_to_the_64_minus_1) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("huge.txt", "18446744073709551615 0\n0 9223372036854775808\n", &o);
  ck_assert_uint_eq(gr_graph_num_vertices(g), 3);
  ck_assert_str_eq(gt_graph_text(g), "0:1 1: 2:0");
  ck_assert_uint_eq(gr_graph_original_id(g, 2), UINT64_MAX);
  gr_vid v = 0;
  ck_assert_int_eq(gr_graph_find_vertex(g, UINT64_MAX, &v), GR_SUCCESS);
  ck_assert_uint_eq(v, 2);
  ck_assert_int_eq(gr_graph_find_vertex(g, 9223372036854775808ull, &v), GR_SUCCESS);
  ck_assert_uint_eq(v, 1);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(edgelist_id_map_round_trips_for_every_vertex) {
  /* Enough distinct ids for both relabelling paths: compact (bitmap) and
   * spread over 64 bits (sort). */
  for (int spread = 0; spread < 2; spread++) {
    char *text = malloc(1 << 20);
    ck_assert_ptr_nonnull(text);
    size_t k = 0;
    for (uint64_t i = 0; i < 5000; i++) {
      uint64_t a = spread ? (i * 0x9e3779b97f4a7c15ull) | 1 : i * 3 + 5;
      uint64_t b = spread ? ((i + 1) % 5000 * 0x9e3779b97f4a7c15ull) | 1 : ((i + 1) % 5000) * 3 + 5;
      k += (size_t)sprintf(text + k, "%llu %llu\n", (unsigned long long)a, (unsigned long long)b);
    }
    gr_load_options o = gt_options();
    gr_graph *g = gt_load_text(spread ? "spread.txt" : "compact.txt", text, &o);
    ck_assert_uint_eq(gr_graph_num_vertices(g), 5000);
    uint64_t prev = 0;
    for (gr_vid v = 0; v < 5000; v++) {
      uint64_t id = gr_graph_original_id(g, v);
      GT_REQUIRE(v == 0 || id > prev, "original ids not ascending at %u", (unsigned)v);
      prev = id;
      gr_vid back = GR_NO_VERTEX;
      GT_REQUIRE(gr_graph_find_vertex(g, id, &back) == GR_SUCCESS && back == v, "id %llu does not map back to %u",
                 (unsigned long long)id, (unsigned)v);
    }
    /* Every vertex has out-degree 1 in this cycle. */
    const gr_csr *c = gr_graph_out(g);
    for (gr_vid v = 0; v < 5000; v++) GT_REQUIRE(gr_csr_degree(c, v) == 1, "degree of %u is not 1", (unsigned)v);
    ck_assert_uint_eq(gr_graph_original_id(g, 5000), UINT64_MAX);
    gr_graph_destroy(&g);
    free(text);
  }
}
END_TEST

START_TEST(edgelist_dense_ids_keep_their_numbers) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("dense0.txt", "0 2\n2 1\n", &o);
  ck_assert_uint_eq(gr_graph_original_id(g, 2), 2);
  gr_graph_destroy(&g);
  g = gt_load_text("dense1.txt", "1 3\n3 2\n", &o);
  ck_assert_uint_eq(gr_graph_original_id(g, 0), 1);
  ck_assert_str_eq(gt_graph_text(g), "0:2 1: 2:1");
  gr_graph_destroy(&g);
}
END_TEST

/* ---- malformed ------------------------------------------------------------ */

START_TEST(edgelist_mixing_two_and_three_columns_is_an_error) {
  gt_load_fails("mix.txt", "# c\n0 1\n1 2 5\n", GR_ERR_BAD_INPUT,
                "mix.txt:3: 3 values, but the first edge (line 2) has 2; a file must not mix 2 and 3 columns");
  gt_load_fails("mix2.txt", "0 1 1\n1 2\n", GR_ERR_BAD_INPUT, "mix2.txt:2: 2 values, but the first edge (line 1) has 3");
}
END_TEST

START_TEST(edgelist_other_column_counts_are_errors) {
  gt_load_fails("one.txt", "0\n", GR_ERR_BAD_INPUT, "one.txt:1: expected 2 or 3 values (source target [weight]), found 1");
  gt_load_fails("four.txt", "0 1\n0 1 2 3\n", GR_ERR_BAD_INPUT, "four.txt:2: expected 2 or 3 values (source target [weight]), found 4");
  gt_load_fails("five.txt", "0 1 2 3 4\n", GR_ERR_BAD_INPUT, "found more than 4");
  gt_load_fails("commas.txt", "0,,1\n", GR_ERR_BAD_INPUT, "commas.txt:1: empty value before ','");
  gt_load_fails("trail.txt", "0 1\n0,1,\n", GR_ERR_BAD_INPUT, "trail.txt:2: empty value after the last ','");
}
END_TEST

START_TEST(edgelist_negative_ids_are_errors) {
  gt_load_fails("neg.txt", "0 1\n2 -5\n", GR_ERR_BAD_INPUT, "neg.txt:2: negative vertex id -5");
}
END_TEST

START_TEST(edgelist_non_numeric_tokens_are_errors) {
  gt_load_fails("alpha.txt", "0 1\nnodeA nodeB\n", GR_ERR_BAD_INPUT, "alpha.txt:2: 'nodeA' is not a vertex id");
  gt_load_fails("float.txt", "0 1.5\n", GR_ERR_BAD_INPUT, "'1.5' is not a vertex id");
  gt_load_fails("wt.txt", "0 1 heavy\n", GR_ERR_BAD_INPUT, "wt.txt:1: weight 'heavy' is not a number");
  gt_load_fails("big.txt", "0 18446744073709551616\n", GR_ERR_BAD_INPUT, "vertex id 18446744073709551616 does not fit in 64 bits");
}
END_TEST

START_TEST(edgelist_without_edges_is_an_error) {
  gt_load_fails("none.txt", "# nothing here\n\n", GR_ERR_BAD_INPUT, "none.txt has no edges");
  gt_load_fails("empty.txt", "", GR_ERR_BAD_INPUT, "empty.txt is empty");
}
END_TEST

START_TEST(edgelist_errors_name_the_first_bad_line_for_any_thread_count) {
  char *text = malloc(8 << 20);
  ck_assert_ptr_nonnull(text);
  size_t k = 0;
  for (int i = 0; i < 300000; i++) {
    if (i == 250000) k += (size_t)sprintf(text + k, "1 x\n");
    else if (i == 123456) k += (size_t)sprintf(text + k, "1 2 3\n");
    else k += (size_t)sprintf(text + k, "%d %d\n", i, (i * 31) % 300000);
  }
  const char *path = gt_write("late.txt", text);
  gr_load_options o = gt_options();
  for (int t = 1; t <= 4; t += 3) {
    o.threads = t;
    gt_load_fails_path(path, &o, GR_ERR_BAD_INPUT, "late.txt:123457: 3 values");
  }
  free(text);
}
END_TEST

START_TEST(edgelist_parse_is_identical_for_any_thread_count) {
  char *text = malloc(16 << 20);
  ck_assert_ptr_nonnull(text);
  size_t k = 0;
  for (uint64_t i = 0; i < 300000; i++)
    k += (size_t)sprintf(text + k, "%llu,%llu,%d\n", (unsigned long long)(gr_mix64(i) % 40000) * 17,
                         (unsigned long long)(gr_mix64(i + 7) % 40000) * 17, (int)(i % 11));
  const char *path = gt_write("par.csv", text);
  gr_load_options o = gt_options();
  o.threads = 1;
  gr_graph *a = gt_load_path(path, &o);
  o.threads = 4;
  gr_graph *b = gt_load_path(path, &o);
  gt_check_csr(gr_graph_out(a));
  gt_csr_equal(gr_graph_out(a), gr_graph_out(b));
  for (gr_vid v = 0; v < gr_graph_num_vertices(a); v += 97)
    ck_assert_uint_eq(gr_graph_original_id(a, v), gr_graph_original_id(b, v));
  gr_graph_destroy(&a);
  gr_graph_destroy(&b);
  free(text);
}
END_TEST

static Suite *edgelist_suite(void) {
  Suite *s = suite_create("graph_edgelist_reader");
  TCase *fmt = gt_tcase("format");
  tcase_add_test(fmt, edgelist_reads_whitespace_separated_pairs_as_directed);
  tcase_add_test(fmt, edgelist_reads_comma_separated_values);
  tcase_add_test(fmt, edgelist_skips_snap_comments_and_blank_lines);
  tcase_add_test(fmt, edgelist_third_column_gives_weights);
  tcase_add_test(fmt, edgelist_undirected_option_symmetrizes);
  tcase_add_test(fmt, edgelist_reads_a_byte_order_mark_and_no_final_newline);
  suite_add_tcase(s, fmt);

  TCase *ids = gt_tcase("ids");
  tcase_add_test(ids, edgelist_relabels_sparse_ids_in_ascending_order);
  tcase_add_test(ids, edgelist_accepts_ids_up_to_2_to_the_64_minus_1);
  tcase_add_test(ids, edgelist_id_map_round_trips_for_every_vertex);
  tcase_add_test(ids, edgelist_dense_ids_keep_their_numbers);
  suite_add_tcase(s, ids);

  TCase *bad = gt_tcase("malformed");
  tcase_add_test(bad, edgelist_mixing_two_and_three_columns_is_an_error);
  tcase_add_test(bad, edgelist_other_column_counts_are_errors);
  tcase_add_test(bad, edgelist_negative_ids_are_errors);
  tcase_add_test(bad, edgelist_non_numeric_tokens_are_errors);
  tcase_add_test(bad, edgelist_without_edges_is_an_error);
  suite_add_tcase(s, bad);

  TCase *threads = gt_tcase("threads");
  tcase_set_timeout(threads, 120);
  tcase_add_test(threads, edgelist_errors_name_the_first_bad_line_for_any_thread_count);
  tcase_add_test(threads, edgelist_parse_is_identical_for_any_thread_count);
  suite_add_tcase(s, threads);
  return s;
}

int main(void) { return gr_test_run_suite(edgelist_suite(), 0); }
