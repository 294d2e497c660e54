/* SPDX-License-Identifier: Apache-2.0 */
/* Edge weights: the spec grammar and its errors, generated weights in range
 * (integers when asked), equal on both directions of an edge, identical for
 * any thread count, keyed by (seed, edge) alone, and file weights dropped. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_test.h"

/* ---- spec --------------------------------------------------------------------- */

START_TEST(weight_spec_parses_file_none_and_random) {
  gr_weight_spec s;
  ck_assert_int_eq(gr_weight_spec_parse(&s, "file"), GR_SUCCESS);
  ck_assert_int_eq(s.kind, GR_WEIGHTS_FILE);
  ck_assert_int_eq(gr_weight_spec_parse(&s, "none"), GR_SUCCESS);
  ck_assert_int_eq(s.kind, GR_WEIGHTS_NONE);
  ck_assert_int_eq(gr_weight_spec_parse(&s, "random:1:64"), GR_SUCCESS);
  ck_assert_int_eq(s.kind, GR_WEIGHTS_RANDOM);
  ck_assert(s.integer);
  ck_assert_double_eq(s.lo, 1.0);
  ck_assert_double_eq(s.hi, 64.0);
}
END_TEST

START_TEST(weight_spec_is_real_unless_both_bounds_are_integers) {
  gr_weight_spec s;
  ck_assert_int_eq(gr_weight_spec_parse(&s, "random:0.5:2"), GR_SUCCESS);
  ck_assert(!s.integer);
  ck_assert_int_eq(gr_weight_spec_parse(&s, "random:1:1e2"), GR_SUCCESS);
  ck_assert(!s.integer);
  ck_assert_double_eq(s.hi, 100.0);
  ck_assert_int_eq(gr_weight_spec_parse(&s, "random:-5:5"), GR_SUCCESS);
  ck_assert(s.integer);
  ck_assert_double_eq(s.lo, -5.0);
  ck_assert_int_eq(gr_weight_spec_parse(&s, "random:3:3"), GR_SUCCESS);
}
END_TEST

START_TEST(weight_spec_rejects_bad_text_with_a_message) {
  gr_weight_spec s = GR_WEIGHT_SPEC_INIT;
  ck_assert_int_eq(gr_weight_spec_parse(&s, "random:5:1"), GR_ERR_INVALID_ARG);
  ck_assert(strstr(gr_error_message(), "needs LO <= HI, got 'random:5:1'") != NULL);
  ck_assert_int_eq(gr_weight_spec_parse(&s, "random:1"), GR_ERR_INVALID_ARG);
  ck_assert(strstr(gr_error_message(), "random:LO:HI needs two numbers") != NULL);
  ck_assert_int_eq(gr_weight_spec_parse(&s, "random:a:b"), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_weight_spec_parse(&s, "random:nan:1"), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_weight_spec_parse(&s, "random:1:2:3"), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_weight_spec_parse(&s, "heavy"), GR_ERR_INVALID_ARG);
  ck_assert(strstr(gr_error_message(), "weights must be file, none or random:LO:HI, got 'heavy'") != NULL);
  /* A failed parse leaves the output alone. */
  ck_assert_int_eq(s.kind, GR_WEIGHTS_FILE);
}
END_TEST

START_TEST(weight_spec_bounds_are_plain_decimals) {
  gr_weight_spec s = GR_WEIGHT_SPEC_INIT;
  /* strtoll/strtod took a leading blank or carriage return, hexadecimal,
   * and clamped an integer beyond 64 bits to 2^63 - 1. */
  const char *bad[] = {"random: 1:5", "random:\r1.:1", "random:1: 5", "random:0x10:0x20", "random:+1:5",
                       "random:1:inf", "random:1:5 "};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    ck_assert_msg(gr_weight_spec_parse(&s, bad[i]) == GR_ERR_INVALID_ARG, "'%s' was taken", bad[i]);
  ck_assert_int_eq(s.kind, GR_WEIGHTS_FILE);
  ck_assert_int_eq(gr_weight_spec_parse(&s, "random:1:100000000000000000000"), GR_SUCCESS);
  ck_assert(s.integer);
  ck_assert_double_eq(s.hi, 1e20);
}
END_TEST

/* ---- generated ------------------------------------------------------------- */

static gr_graph *random_graph(const char *spec, uint64_t seed, int threads, bool undirected) {
  gr_coo c = GR_COO_INIT;
  for (uint64_t i = 0; i < 30000; i++) {
    uint64_t r = gr_rand64(3, 9, i);
    GT_REQUIRE(gr_coo_push(&c, (gr_vid)(r % 2000), (gr_vid)((r >> 32) % 2000), 0) == GR_SUCCESS, "push failed");
  }
  c.n = 2000;
  gr_load_options o = gt_options();
  ck_assert_int_eq(gr_weight_spec_parse(&o.weights, spec), GR_SUCCESS);
  o.seed = seed;
  o.threads = threads;
  o.undirected = undirected;
  gr_graph *g = NULL;
  ck_assert_int_eq(gr_graph_from_coo(&g, &c, &o), GR_SUCCESS);
  return g;
}

static gr_weight weight_of(const gr_csr *c, gr_vid u, gr_vid v) {
  for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++)
    if (c->indices[e] == v) return c->weights[e];
  ck_abort_msg("no arc %u -> %u", (unsigned)u, (unsigned)v);
  return 0;
}

START_TEST(random_integer_weights_cover_the_range) {
  gr_graph *g = random_graph("random:1:3", 1, 0, true);
  const gr_csr *c = gr_graph_out(g);
  ck_assert(gr_graph_has_weights(g));
  int seen[4] = {0, 0, 0, 0};
  for (gr_eid e = 0; e < c->m; e++) {
    gr_weight w = c->weights[e];
    GT_REQUIRE(w == floorf(w) && w >= 1.0f && w <= 3.0f, "weight %g is not an integer in 1..3", (double)w);
    seen[(int)w]++;
  }
  ck_assert(seen[1] > 0 && seen[2] > 0 && seen[3] > 0);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(random_real_weights_stay_in_range) {
  gr_graph *g = random_graph("random:-0.5:0.25", 1, 0, false);
  const gr_csr *c = gr_graph_out(g);
  double sum = 0;
  bool fractional = false;
  for (gr_eid e = 0; e < c->m; e++) {
    GT_REQUIRE(c->weights[e] >= -0.5f && c->weights[e] <= 0.25f, "weight %g outside [-0.5, 0.25]",
               (double)c->weights[e]);
    fractional |= c->weights[e] != floorf(c->weights[e]);
    sum += c->weights[e];
  }
  ck_assert(fractional);
  /* Uniform on [-0.5, 0.25]: the mean is near -0.125. */
  ck_assert(fabs(sum / (double)c->m + 0.125) < 0.02);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(random_weights_match_on_both_directions_of_an_edge) {
  gr_graph *g = random_graph("random:1:1000000", 4, 0, true);
  const gr_csr *c = gr_graph_out(g);
  for (gr_vid u = 0; u < c->n; u++)
    for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++)
      GT_REQUIRE(c->weights[e] == weight_of(c, c->indices[e], u), "weights of {%u, %u} differ", (unsigned)u,
                 (unsigned)c->indices[e]);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(random_weights_are_identical_with_one_and_two_threads) {
  gr_graph *a = random_graph("random:0:1", 7, 1, true);
  gr_graph *b = random_graph("random:0:1", 7, 2, true);
  gt_csr_equal(gr_graph_out(a), gr_graph_out(b));
  gr_graph_destroy(&a);
  gr_graph_destroy(&b);
  a = random_graph("random:1:100", 7, 1, false);
  b = random_graph("random:1:100", 7, 2, false);
  gt_csr_equal(gr_graph_out(a), gr_graph_out(b));
  gr_graph_destroy(&a);
  gr_graph_destroy(&b);
}
END_TEST

START_TEST(random_weights_depend_on_the_seed) {
  gr_graph *a = random_graph("random:0:1", 7, 0, false);
  gr_graph *b = random_graph("random:0:1", 8, 0, false);
  const gr_csr *ca = gr_graph_out(a), *cb = gr_graph_out(b);
  ck_assert_uint_eq(ca->m, cb->m);
  ck_assert(memcmp(ca->weights, cb->weights, (size_t)ca->m * sizeof(gr_weight)) != 0);
  gr_graph_destroy(&a);
  gr_graph_destroy(&b);
}
END_TEST

START_TEST(random_weight_of_an_edge_does_not_depend_on_the_other_edges) {
  const char *spec = "random:1:1000000";
  gr_load_options o = gt_options();
  ck_assert_int_eq(gr_weight_spec_parse(&o.weights, spec), GR_SUCCESS);
  gr_coo c = GR_COO_INIT;
  gr_coo_push(&c, 0, 1, 0);
  gr_coo_push(&c, 1, 2, 0);
  c.n = 3;
  gr_graph *a = NULL, *b = NULL;
  ck_assert_int_eq(gr_graph_from_coo(&a, &c, &o), GR_SUCCESS);
  gr_coo_push(&c, 1, 0, 0);
  c.n = 2;
  ck_assert_int_eq(gr_graph_from_coo(&b, &c, &o), GR_SUCCESS);
  /* Directed graphs key weights by the unordered pair too. */
  ck_assert_float_eq(weight_of(gr_graph_out(a), 0, 1), weight_of(gr_graph_out(b), 1, 0));
  gr_graph_destroy(&a);
  gr_graph_destroy(&b);
}
END_TEST

START_TEST(random_weights_replace_file_weights) {
  gr_load_options o = gt_options();
  ck_assert_int_eq(gr_weight_spec_parse(&o.weights, "random:5:6"), GR_SUCCESS);
  gr_graph *g = gt_load_text("w.txt", "0 1 100\n1 2 100\n", &o);
  const gr_csr *c = gr_graph_out(g);
  for (gr_eid e = 0; e < c->m; e++) ck_assert(c->weights[e] >= 5.0f && c->weights[e] <= 6.0f);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(weights_none_drops_file_weights) {
  gr_load_options o = gt_options();
  o.weights.kind = GR_WEIGHTS_NONE;
  gr_graph *g = gt_load_text("w.txt", "0 1 100\n1 2 100\n", &o);
  ck_assert(!gr_graph_has_weights(g));
  ck_assert_ptr_null(gr_graph_out(g)->weights);
  gr_graph_destroy(&g);
}
END_TEST

/* ---- summary ----------------------------------------------------------------- */

/* The summary by a plain loop: the blocks' sums recomputed here from their
 * definition (the first row whose arcs start at or past b/BLOCKS of the
 * arcs), in order. */
static gr_weight_summary plain_summary(const gr_csr *c) {
  gr_weight_summary s = {0.0, INFINITY, 0, c->n};
  gr_vid u = 0;
  for (uint64_t b = 0; b < GR_WEIGHT_SUMMARY_BLOCKS; b++) {
    const uint64_t at = (uint64_t)c->m / GR_WEIGHT_SUMMARY_BLOCKS * (b + 1) +
                        (uint64_t)c->m % GR_WEIGHT_SUMMARY_BLOCKS * (b + 1) / GR_WEIGHT_SUMMARY_BLOCKS;
    double sum = 0;
    for (; u < c->n && (b + 1 == GR_WEIGHT_SUMMARY_BLOCKS || c->offsets[u] < at); u++) {
      s.rows_with_arcs += c->offsets[u + 1] > c->offsets[u];
      for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) {
        const gr_weight w = c->weights[e];
        sum += w;
        if (w > 0 && w < s.least_positive) s.least_positive = w;
        if ((!(w >= 0) || isinf(w)) && s.first_bad_row == c->n) s.first_bad_row = u;
      }
    }
    s.sum += sum;
  }
  return s;
}

static void summary_equal(const gr_weight_summary *a, const gr_weight_summary *b) {
  ck_assert_msg(a->sum == b->sum, "sums %.17g and %.17g", a->sum, b->sum);
  ck_assert_float_eq(a->least_positive, b->least_positive);
  ck_assert_uint_eq(a->rows_with_arcs, b->rows_with_arcs);
  ck_assert_uint_eq(a->first_bad_row, b->first_bad_row);
}

START_TEST(generated_weights_bring_the_summary_of_a_pass_over_them) {
  const char *specs[] = {"random:1:255", "random:-0.5:0.25", "random:0:1"};
  for (size_t k = 0; k < sizeof specs / sizeof *specs; k++)
    for (int threads = 1; threads <= 3; threads++) {
      gr_graph *g = random_graph(specs[k], 5, threads, k != 1);
      const gr_csr *c = gr_graph_out(g);
      gr_weight_summary kept, pass, one, plain = plain_summary(c);
      ck_assert_int_eq(gr_graph_weight_summary(g, &kept), GR_SUCCESS);
      ck_assert_int_eq(gr_csr_weight_summary(c, 0, &pass), GR_SUCCESS);
      ck_assert_int_eq(gr_csr_weight_summary(c, 1, &one), GR_SUCCESS);
      summary_equal(&kept, &plain);
      summary_equal(&pass, &plain);
      summary_equal(&one, &plain);
      ck_assert(plain.rows_with_arcs > 0 && plain.rows_with_arcs <= c->n);
      /* Negative weights are bad from the first row holding one. */
      if (k == 1) ck_assert_uint_lt(plain.first_bad_row, c->n);
      else ck_assert_uint_eq(plain.first_bad_row, c->n);
      gr_graph_destroy(&g);
    }
}
END_TEST

START_TEST(file_weights_are_summed_once_with_the_first_bad_row) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("w.txt", "0 1 4\n1 2 0\n2 3 -1\n3 4 2\n", &o);
  gr_weight_summary s, plain = plain_summary(gr_graph_out(g));
  ck_assert_int_eq(gr_graph_weight_summary(g, &s), GR_SUCCESS);
  summary_equal(&s, &plain);
  /* Row 2 holds the -1 (on either reading of the edges); 0 is not positive. */
  ck_assert_uint_eq(s.first_bad_row, 2);
  ck_assert_float_eq(s.least_positive, 2.0f);
  /* Kept: a second call reads no weight (changed under it, it says the same). */
  gr_graph_out(g)->weights[0] = 1000.0f;
  gr_weight_summary again;
  ck_assert_int_eq(gr_graph_weight_summary(g, &again), GR_SUCCESS);
  summary_equal(&again, &s);
  gr_graph_destroy(&g);
  o.weights.kind = GR_WEIGHTS_NONE;
  g = gt_load_text("w.txt", "0 1 4\n", &o);
  ck_assert_int_eq(gr_graph_weight_summary(g, &s), GR_ERR_INVALID_ARG);
  gr_graph_destroy(&g);
}
END_TEST

static Suite *weights_suite(void) {
  Suite *s = suite_create("graph_weights");
  TCase *spec = gt_tcase("spec");
  tcase_add_test(spec, weight_spec_parses_file_none_and_random);
  tcase_add_test(spec, weight_spec_is_real_unless_both_bounds_are_integers);
  tcase_add_test(spec, weight_spec_rejects_bad_text_with_a_message);
  tcase_add_test(spec, weight_spec_bounds_are_plain_decimals);
  suite_add_tcase(s, spec);

  TCase *gen = gt_tcase("generated");
  tcase_add_test(gen, random_integer_weights_cover_the_range);
  tcase_add_test(gen, random_real_weights_stay_in_range);
  tcase_add_test(gen, random_weights_match_on_both_directions_of_an_edge);
  tcase_add_test(gen, random_weights_are_identical_with_one_and_two_threads);
  tcase_add_test(gen, random_weights_depend_on_the_seed);
  tcase_add_test(gen, random_weight_of_an_edge_does_not_depend_on_the_other_edges);
  tcase_add_test(gen, random_weights_replace_file_weights);
  tcase_add_test(gen, weights_none_drops_file_weights);
  tcase_add_test(gen, generated_weights_bring_the_summary_of_a_pass_over_them);
  tcase_add_test(gen, file_weights_are_summed_once_with_the_first_bad_row);
  suite_add_tcase(s, gen);
  return s;
}

int main(void) { return gr_test_run_suite(weights_suite(), 0); }
