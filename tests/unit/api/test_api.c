/* SPDX-License-Identifier: Apache-2.0 */
/* The public interface (gr/gr.h): options, contexts, graphs from arrays and
 * files, every primitive on one and several CPU devices with answers known
 * by hand (bc over one, several and all sources), results in input ids,
 * figures, and clear errors for bad input. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gr/gr.h"

/* Two triangles joined by 2-3, and the lone vertex 6 (undirected). */
enum { N = 7, M = 14 };
static const int64_t offsets[N + 1] = {0, 2, 4, 7, 10, 12, 14, 14};
static const int64_t indices[M] = {1, 2, 0, 2, 0, 1, 3, 2, 4, 5, 3, 5, 3, 4};
/* Weights per stored arc, equal both ways: 0-1 4, 0-2 1, 1-2 1, 2-3 5, 3-4 1, 3-5 3, 4-5 1. */
static const float weights[M] = {4, 1, 4, 1, 1, 1, 5, 5, 1, 3, 1, 1, 3, 1};

static gr_options *opts(const char *devices) {
  gr_options *o = NULL;
  ck_assert_int_eq(gr_options_create(&o), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "backend", "cpu"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "devices", devices), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "undirected", "on"), GR_SUCCESS);
  return o;
}

/* Runs `prim` on the two-triangle graph and returns its values (copied). */
static void *run_prim(const char *devices, const char *prim, int64_t source, const char *key, const char *value,
                      gr_values *out, int64_t *preds) {
  gr_options *o = opts(devices);
  if (key) ck_assert_int_eq(gr_options_set(o, key, value), GR_SUCCESS);
  gr_context *ctx = NULL;
  gr_graph *g = NULL;
  gr_problem *p = NULL;
  gr_stats *s = NULL;
  ck_assert_int_eq(gr_context_create(&ctx, o), GR_SUCCESS);
  ck_assert_int_eq(gr_graph_create_csr(&g, N, offsets, indices, weights, o), GR_SUCCESS);
  ck_assert_msg(gr_problem_create(&p, ctx, g, prim, o) == GR_SUCCESS, "%s", gr_error_message());
  ck_assert_msg(gr_problem_run(p, source, &s) >= 0, "%s", gr_error_message());
  ck_assert_msg(gr_problem_validate(p) == GR_SUCCESS, "%s", gr_error_message());
  gr_run_summary sum;
  ck_assert_int_eq(gr_stats_get_summary(s, &sum), GR_SUCCESS);
  ck_assert_int_eq(sum.devices, atoi(devices));
  ck_assert_int_gt(sum.iterations, 0);
  ck_assert_int_eq(gr_problem_get_values(p, out), GR_SUCCESS);
  ck_assert_uint_eq(out->n, N);
  const size_t size = out->type == GR_VALUES_FLOAT32 ? 4 : 8;
  void *copy = malloc(N * size);
  memcpy(copy, out->values, N * size);
  if (preds) {
    ck_assert_ptr_nonnull(out->predecessors);
    memcpy(preds, out->predecessors, N * sizeof *preds);
  }
  gr_stats_destroy(&s);
  ck_assert_ptr_null(s);
  gr_problem_destroy(&p);
  gr_graph_destroy(&g);
  gr_context_destroy(&ctx);
  gr_options_destroy(&o);
  ck_assert_ptr_null(o);
  return copy;
}

START_TEST(bfs_depths_and_parents_on_one_and_several_devices) {
  static const int64_t depth[N] = {0, 1, 1, 2, 3, 3, -1};
  const char *devs[] = {"1", "2", "3"};
  for (int d = 0; d < 3; d++) {
    const char *prims[] = {"bfs", "dobfs"};
    for (int k = 0; k < 2; k++) {
      gr_values v;
      int64_t preds[N];
      int64_t *x = run_prim(devs[d], prims[k], 0, "mark-pred", "on", &v, preds);
      ck_assert_int_eq(v.type, GR_VALUES_INT64);
      for (int i = 0; i < N; i++) ck_assert_int_eq(x[i], depth[i]);
      ck_assert_int_eq(preds[3], 2);
      ck_assert(preds[4] == 3 && preds[5] == 3 && preds[6] == -1);
      free(x);
    }
  }
}
END_TEST

START_TEST(sssp_distances_follow_the_weights) {
  static const float dist[N] = {0, 2, 1, 6, 7, 8, INFINITY};
  for (int d = 1; d <= 2; d++) {
    gr_values v;
    float *x = run_prim(d == 1 ? "1" : "2", "sssp", 0, NULL, NULL, &v, NULL);
    ck_assert_int_eq(v.type, GR_VALUES_FLOAT32);
    for (int i = 0; i < N; i++) ck_assert(x[i] == dist[i]);
    free(x);
  }
}
END_TEST

START_TEST(cc_labels_are_the_smallest_input_id) {
  gr_values v;
  int64_t *x = run_prim("2", "cc", -1, NULL, NULL, &v, NULL);
  ck_assert(v.values_are_ids);
  for (int i = 0; i < 6; i++) ck_assert_int_eq(x[i], 0);
  ck_assert_int_eq(x[6], 6);
  free(x);
}
END_TEST

START_TEST(pagerank_sums_to_one_and_is_symmetric) {
  gr_values v;
  float *x = run_prim("1", "pr", -1, "tolerance", "1e-7", &v, NULL);
  ck_assert_int_eq(v.type, GR_VALUES_FLOAT32);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += x[i];
  ck_assert(fabs(sum - 1.0) < 1e-5);
  /* The graph's symmetry: 0 and 1 alike, 4 and 5 alike, 2 and 3 the hubs. */
  ck_assert(fabs(x[0] - x[1]) < 1e-6 && fabs(x[4] - x[5]) < 1e-6);
  ck_assert(x[2] > x[0] && x[3] > x[4]);
  free(x);
}
END_TEST

/* The damping option reaches the run and the validation (run_prim
 * validates): the lone vertex 6 is dangling with no in-edges, so its rank
 * r = (1 - d) / 7 + d * r / 7 is (1 - d) / (7 - d), on one device and two. */
START_TEST(pagerank_follows_the_damping) {
  const char *dampings[] = {"0", "0.5", "0.85", "0.99"};
  for (int d = 1; d <= 2; d++)
    for (int i = 0; i < 4; i++) {
      gr_options *o = opts(d == 1 ? "1" : "2");
      ck_assert_int_eq(gr_options_set(o, "damping", dampings[i]), GR_SUCCESS);
      /* Far below the default, which stops this small graph within a few
       * iterations, 1e-4 off. */
      ck_assert_int_eq(gr_options_set(o, "tolerance", "1e-7"), GR_SUCCESS);
      gr_context *ctx = NULL;
      gr_graph *g = NULL;
      gr_problem *p = NULL;
      gr_stats *s = NULL;
      ck_assert_int_eq(gr_context_create(&ctx, o), GR_SUCCESS);
      ck_assert_int_eq(gr_graph_create_csr(&g, N, offsets, indices, weights, o), GR_SUCCESS);
      ck_assert_msg(gr_problem_create(&p, ctx, g, "pr", o) == GR_SUCCESS, "%s", gr_error_message());
      ck_assert_msg(gr_problem_run(p, -1, &s) == GR_SUCCESS, "%s", gr_error_message());
      ck_assert_msg(gr_problem_validate(p) == GR_SUCCESS, "%s", gr_error_message());
      gr_values v;
      ck_assert_int_eq(gr_problem_get_values(p, &v), GR_SUCCESS);
      const float *x = v.values;
      const double dd = atof(dampings[i]), want = (1 - dd) / (7 - dd);
      ck_assert_msg(fabs(x[6] - want) < 1e-5 * want, "damping %s, %d devices: %.9g, want %.9g", dampings[i], d,
                    (double)x[6], want);
      double sum = 0;
      for (int k = 0; k < N; k++) sum += x[k];
      ck_assert(fabs(sum - 1.0) < 1e-5);
      gr_stats_destroy(&s);
      gr_problem_destroy(&p);
      gr_graph_destroy(&g);
      gr_context_destroy(&ctx);
      gr_options_destroy(&o);
    }
}
END_TEST

/* Betweenness of the two triangles: every shortest path between {0, 1} and
 * {3, 4, 5} crosses 2 and 3, between {0, 1, 2} and {4, 5} crosses 3, so
 * over all sources (both directions of each pair) 2 and 3 get 12 and the
 * rest 0; normalized (n = 7) 12 / (6 * 5) = 0.4. From source 0 alone, 2
 * carries the paths to 3, 4 and 5 and 3 those to 4 and 5. */
static const double bc_all[N] = {0, 0, 12, 12, 0, 0, 0};
static const double bc_from_0[N] = {0, 0, 3, 2, 0, 0, 0};

static void assert_doubles(const gr_problem *p, const double *want, double scale) {
  gr_values v;
  ck_assert_int_eq(gr_problem_get_values((gr_problem *)p, &v), GR_SUCCESS);
  ck_assert_int_eq(v.type, GR_VALUES_FLOAT64);
  ck_assert_uint_eq(v.n, N);
  const double *x = v.values;
  for (int i = 0; i < N; i++) ck_assert_msg(fabs(x[i] - want[i] * scale) < 1e-12, "vertex %d: %g", i, x[i]);
}

static double extra_number(const gr_stats *s, const char *name) {
  for (int k = 0; k < gr_stats_extra_numbers(s); k++) {
    const char *n = NULL;
    double v = 0;
    ck_assert_int_eq(gr_stats_get_extra_number(s, k, &n, &v), GR_SUCCESS);
    if (!strcmp(n, name)) return v;
  }
  ck_abort_msg("no figure %s", name);
  return 0;
}

START_TEST(bc_over_one_listed_drawn_and_all_sources) {
  const char *devs[] = {"1", "2", "3"};
  for (int d = 0; d < 3; d++) {
    gr_options *o = opts(devs[d]);
    gr_context *ctx = NULL;
    gr_graph *g = NULL;
    gr_problem *p = NULL;
    gr_stats *s = NULL;
    gr_run_summary sum;
    ck_assert_int_eq(gr_context_create(&ctx, o), GR_SUCCESS);
    ck_assert_int_eq(gr_graph_create_csr(&g, N, offsets, indices, NULL, o), GR_SUCCESS);
    ck_assert_msg(gr_problem_create(&p, ctx, g, "bc", o) == GR_SUCCESS, "%s", gr_error_message());
    /* One source per gr_problem_run by default. */
    ck_assert_int_eq(gr_problem_run(p, 0, &s), GR_SUCCESS);
    ck_assert_msg(gr_problem_validate(p) == GR_SUCCESS, "%s", gr_error_message());
    assert_doubles(p, bc_from_0, 1);
    ck_assert_int_eq(gr_stats_get_summary(s, &sum), GR_SUCCESS);
    ck_assert(sum.source == 0 && sum.sources == 1 && sum.reached == 6);
    gr_stats_destroy(&s);
    /* Every vertex (NULL list), then the same as a list of input ids. */
    ck_assert_int_eq(gr_problem_run_sources(p, NULL, 0, &s), GR_SUCCESS);
    ck_assert_msg(gr_problem_validate(p) == GR_SUCCESS, "%s", gr_error_message());
    assert_doubles(p, bc_all, 1);
    ck_assert_int_eq(gr_stats_get_summary(s, &sum), GR_SUCCESS);
    ck_assert_uint_eq(sum.sources, N);
    ck_assert(extra_number(s, "sources") == N && extra_number(s, "normalized") == 0);
    gr_stats_destroy(&s);
    const int64_t all[N] = {6, 5, 4, 3, 2, 1, 0};
    ck_assert_int_eq(gr_problem_run_sources(p, all, N, NULL), GR_SUCCESS);
    assert_doubles(p, bc_all, 1);
    /* Sources 0 and 1 alike: twice the one-source sums of 0. */
    const int64_t two[2] = {0, 1};
    ck_assert_int_eq(gr_problem_run_sources(p, two, 2, NULL), GR_SUCCESS);
    ck_assert_msg(gr_problem_validate(p) == GR_SUCCESS, "%s", gr_error_message());
    assert_doubles(p, bc_from_0, 2);
    gr_problem_destroy(&p);
    /* The options: all sources, normalized, through gr_problem_run. */
    ck_assert_int_eq(gr_options_set(o, "sources", "all"), GR_SUCCESS);
    ck_assert_int_eq(gr_options_set(o, "normalize", "on"), GR_SUCCESS);
    ck_assert_int_eq(gr_problem_create(&p, ctx, g, "bc", o), GR_SUCCESS);
    ck_assert_int_eq(gr_problem_run(p, -1, &s), GR_SUCCESS);
    ck_assert_msg(gr_problem_validate(p) == GR_SUCCESS, "%s", gr_error_message());
    assert_doubles(p, bc_all, 1.0 / 30);
    ck_assert(extra_number(s, "normalized") == 1);
    gr_stats_destroy(&s);
    gr_problem_destroy(&p);
    gr_graph_destroy(&g);
    gr_context_destroy(&ctx);
    gr_options_destroy(&o);
  }
}
END_TEST

/* The "sources" option draws what gr_graph_sample_sources gives, draw k
 * for the problem's run k: distinct vertices with out-edges. */
START_TEST(drawn_sources_follow_the_seeded_draws) {
  gr_options *o = opts("2");
  ck_assert_int_eq(gr_options_set(o, "seed", "11"), GR_SUCCESS);
  gr_context *ctx = NULL;
  gr_graph *g = NULL;
  gr_problem *drawn = NULL, *listed = NULL;
  ck_assert_int_eq(gr_context_create(&ctx, o), GR_SUCCESS);
  ck_assert_int_eq(gr_graph_create_csr(&g, N, offsets, indices, NULL, o), GR_SUCCESS);
  ck_assert_int_eq(gr_problem_create(&listed, ctx, g, "bc", o), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "sources", "3"), GR_SUCCESS);
  ck_assert_int_eq(gr_problem_create(&drawn, ctx, g, "bc", o), GR_SUCCESS);
  int64_t first[3] = {-1, -1, -1};
  for (int run = 0; run < 4; run++) {
    int64_t ids[3];
    ck_assert_int_eq(gr_graph_sample_sources(g, 11, run, 3, ids), GR_SUCCESS);
    ck_assert(ids[0] != ids[1] && ids[0] != ids[2] && ids[1] != ids[2]);
    for (int k = 0; k < 3; k++) ck_assert(ids[k] >= 0 && ids[k] < 6);
    if (run == 0) memcpy(first, ids, sizeof ids);
    gr_stats *s = NULL;
    ck_assert_int_eq(gr_problem_run(drawn, 0, &s), GR_SUCCESS);
    ck_assert_int_eq(gr_problem_validate(drawn), GR_SUCCESS);
    gr_run_summary sum;
    ck_assert_int_eq(gr_stats_get_summary(s, &sum), GR_SUCCESS);
    ck_assert(sum.source == ids[0] && sum.sources == 3);
    gr_stats_destroy(&s);
    ck_assert_int_eq(gr_problem_run_sources(listed, ids, 3, NULL), GR_SUCCESS);
    gr_values a, b;
    ck_assert_int_eq(gr_problem_get_values(drawn, &a), GR_SUCCESS);
    ck_assert_int_eq(gr_problem_get_values(listed, &b), GR_SUCCESS);
    ck_assert_mem_eq(a.values, b.values, N * sizeof(double));
  }
  /* A draw's first sources do not depend on how many are drawn. */
  int64_t one;
  ck_assert_int_eq(gr_graph_sample_sources(g, 11, 0, 1, &one), GR_SUCCESS);
  ck_assert_int_eq(one, first[0]);
  /* Six vertices have out-edges (6 is alone). */
  int64_t seven[7];
  ck_assert_int_eq(gr_graph_sample_sources(g, 11, 0, 7, seven), GR_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "only 6 vertices"));
  ck_assert_int_eq(gr_graph_sample_sources(g, 11, 0, 0, seven), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_graph_sample_sources(g, 11, -1, 2, seven), GR_ERR_INVALID_ARG);
  gr_problem_destroy(&drawn);
  gr_problem_destroy(&listed);
  gr_graph_destroy(&g);
  gr_context_destroy(&ctx);
  gr_options_destroy(&o);
}
END_TEST

START_TEST(several_sources_only_where_a_primitive_sums_them) {
  gr_options *o = opts("1");
  gr_context *ctx = NULL;
  gr_graph *g = NULL;
  gr_problem *p = NULL;
  ck_assert_int_eq(gr_context_create(&ctx, o), GR_SUCCESS);
  ck_assert_int_eq(gr_graph_create_csr(&g, N, offsets, indices, NULL, o), GR_SUCCESS);
  gr_primitive_info pi;
  ck_assert_int_eq(gr_primitive_get_info("bc", &pi), GR_SUCCESS);
  ck_assert(pi.accumulates_sources && pi.needs_source && pi.values == GR_VALUES_FLOAT64);
  ck_assert_int_eq(gr_primitive_get_info("bfs", &pi), GR_SUCCESS);
  ck_assert(!pi.accumulates_sources);
  /* A list of one is a run from one source; more is refused. */
  ck_assert_int_eq(gr_problem_create(&p, ctx, g, "bfs", o), GR_SUCCESS);
  const int64_t list[2] = {4, 0};
  ck_assert_int_eq(gr_problem_run_sources(p, list, 2, NULL), GR_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "one source"));
  ck_assert_int_eq(gr_problem_run_sources(p, NULL, 0, NULL), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_problem_run_sources(p, list, 1, NULL), GR_SUCCESS);
  gr_values v;
  ck_assert_int_eq(gr_problem_get_values(p, &v), GR_SUCCESS);
  ck_assert_int_eq(((const int64_t *)v.values)[4], 0);
  gr_problem_destroy(&p);
  ck_assert_int_eq(gr_problem_create(&p, ctx, g, "cc", o), GR_SUCCESS);
  ck_assert_int_eq(gr_problem_run_sources(p, list, 1, NULL), GR_ERR_INVALID_ARG);
  gr_problem_destroy(&p);
  /* A bad id anywhere in the list, an empty list. */
  ck_assert_int_eq(gr_problem_create(&p, ctx, g, "bc", o), GR_SUCCESS);
  const int64_t bad[3] = {0, 1, 70};
  ck_assert_int_eq(gr_problem_run_sources(p, bad, 3, NULL), GR_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "70"));
  ck_assert_int_eq(gr_problem_run_sources(p, bad, 0, NULL), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_problem_validate(p), GR_ERR_INVALID_ARG);
  gr_problem_destroy(&p);
  /* The options on primitives that take one source, and more sources than
   * have out-edges. */
  ck_assert_int_eq(gr_options_set(o, "normalize", "on"), GR_SUCCESS);
  ck_assert_int_eq(gr_problem_create(&p, ctx, g, "pr", o), GR_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "normalize"));
  ck_assert_int_eq(gr_options_set(o, "normalize", "off"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "sources", "2"), GR_SUCCESS);
  ck_assert_int_eq(gr_problem_create(&p, ctx, g, "bfs", o), GR_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "bc"));
  ck_assert_int_eq(gr_options_set(o, "sources", "7"), GR_SUCCESS);
  ck_assert_int_eq(gr_problem_create(&p, ctx, g, "bc", o), GR_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "out-edges"));
  ck_assert_ptr_null(p);
  gr_graph_destroy(&g);
  gr_context_destroy(&ctx);
  gr_options_destroy(&o);
}
END_TEST

START_TEST(every_listed_primitive_has_a_description) {
  ck_assert_int_gt(gr_primitive_count(), 4);
  ck_assert_ptr_null(gr_primitive_name(-1));
  ck_assert_ptr_null(gr_primitive_name(gr_primitive_count()));
  for (int i = 0; i < gr_primitive_count(); i++) {
    gr_primitive_info pi;
    ck_assert_int_eq(gr_primitive_get_info(gr_primitive_name(i), &pi), GR_SUCCESS);
    ck_assert_str_eq(pi.name, gr_primitive_name(i));
  }
  gr_primitive_info pi;
  ck_assert_int_eq(gr_primitive_get_info("nosuch", &pi), GR_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "bfs"));
}
END_TEST

START_TEST(options_reject_bad_keys_and_values_and_keep_the_old) {
  gr_options *o = NULL;
  ck_assert_int_eq(gr_options_create(&o), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "colour", "blue"), GR_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "colour"));
  ck_assert_int_eq(gr_options_set(o, "devices", "0"), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_options_set(o, "devices", "2x"), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_options_set(o, "tolerance", "2"), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_options_set(o, "partitioner", "nosuch"), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_options_set(o, "weights", "random:5:1"), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_options_set(o, "tune", "advance=bogus"), GR_ERR_INVALID_ARG);
  /* Numbers are plain decimals only. */
  const char *not_plain[][2] = {{"tolerance", " 1e-4"}, {"tolerance", "+1e-4"}, {"tolerance", "0x1p-3"},
                                {"tolerance", "inf"},   {"delta", "nan"},       {"do-a", "1e999"},
                                {"devices", "+2"},      {"devices", " 2"},      {"seed", "-1"},
                                {"seed", "0x10"},       {"max-iter", "1e3"},    {"sources", "0"},
                                {"sources", "3all"},    {"sources", "+3"},      {"normalize", "maybe"},
                                {"graph-memory", "disk"}, {"device-memory-limit", "0"},
                                {"device-memory-limit", "8Q"}, {"device-memory-limit", "-1G"},
                                {"compress", "varint"}, {"compress", "Packed"},
                                /* Damping: [0, 1) only. */
                                {"damping", "1"},       {"damping", "1.5"},     {"damping", "-0.5"},
                                {"damping", "nan"},     {"damping", "inf"},     {"damping", ""},
                                {"partition-block", "0"}, {"partition-block", "-32"},
                                {"partition-block", "2x"}, {"partition-block", "2000000000"}};
  for (size_t k = 0; k < sizeof not_plain / sizeof not_plain[0]; k++)
    ck_assert_msg(gr_options_set(o, not_plain[k][0], not_plain[k][1]) == GR_ERR_INVALID_ARG, "%s = '%s'",
                  not_plain[k][0], not_plain[k][1]);
  ck_assert_int_eq(gr_options_set(o, "tolerance", "1.5e-4"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "partition-block", "32"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "partition-block", "auto"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "damping", "0"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "damping", "0.999"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "damping", "1"), GR_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "option damping must be a number from 0 up to (not including) 1"));
  ck_assert_int_eq(gr_options_set(o, "delta", "2.5"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "graph-memory", "host"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "compress", "packed"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "compress", "none"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "device-memory-limit", "8G"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "device-memory-limit", "none"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "sources", "all"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "sources", "12"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "backend", "cpu"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "cache-dir", "/tmp"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "cache-dir", "/var/tmp"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(NULL, "devices", "1"), GR_ERR_INVALID_ARG);
  /* A rejected value left "devices" at its default: one device. */
  gr_context *ctx = NULL;
  ck_assert_int_eq(gr_context_create(&ctx, o), GR_SUCCESS);
  gr_context_info ci;
  ck_assert_int_eq(gr_context_get_info(ctx, &ci), GR_SUCCESS);
  ck_assert_int_eq(ci.devices, 1);
  ck_assert_str_eq(ci.backend, "cpu");
  ck_assert_ptr_null(ci.transport);
  gr_context_destroy(&ctx);
  gr_context_destroy(&ctx);
  gr_options_destroy(&o);
  gr_options_destroy(&o);
}
END_TEST

/* gpu-ids: a list of GPU ordinals, checked when set; it sets the device
 * count, which may not then disagree; the cpu backend refuses it; a GPU
 * the machine lacks is refused by gr_context_create. */
START_TEST(gpu_ids_are_checked_and_set_the_device_count) {
  gr_options *o = NULL;
  ck_assert_int_eq(gr_options_create(&o), GR_SUCCESS);
  const char *bad[] = {"a", "1,,3", "1,3,", ",1", "-1", "1;3", "0x1", " 1", "99999"};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
    ck_assert_msg(gr_options_set(o, "gpu-ids", bad[k]) == GR_ERR_INVALID_ARG, "gpu-ids = '%s'", bad[k]);
  ck_assert_int_eq(gr_options_set(o, "gpu-ids", "1,0,1"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "devices", "2"), GR_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "gpu-ids"));
  ck_assert_int_eq(gr_options_set(o, "devices", "3"), GR_SUCCESS);
  /* The cpu backend has no GPUs to name. */
  ck_assert_int_eq(gr_options_set(o, "backend", "cpu"), GR_SUCCESS);
  gr_context *ctx = NULL;
  ck_assert_int_eq(gr_context_create(&ctx, o), GR_ERR_INVALID_ARG);
  ck_assert_ptr_null(ctx);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "gpu-ids"));
  /* A GPU this machine does not have. */
  int gpus = 0;
  ck_assert_int_eq(gr_gpu_count(&gpus), GR_SUCCESS);
  char ids[32];
  snprintf(ids, sizeof ids, "0,%d", gpus + 7);
  ck_assert_int_eq(gr_options_set(o, "backend", "auto"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "gpu-ids", ids), GR_SUCCESS);
  ck_assert_int_eq(gr_context_create(&ctx, o), GR_ERR_NO_DEVICE);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "gpu-ids names GPU"));
  /* "default" forgets the list: devices is a count again. */
  ck_assert_int_eq(gr_options_set(o, "gpu-ids", "default"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "devices", "1"), GR_SUCCESS);
  gr_options_destroy(&o);
}
END_TEST

/* On a machine with a GPU: devices placed by gpu-ids (two on GPU 0, as
 * two contexts of one program could share it) give one device's answer,
 * and the context reports them; without one, nothing to place. */
START_TEST(gpu_ids_place_devices_on_the_gpus_named) {
  int gpus = 0;
  ck_assert_int_eq(gr_gpu_count(&gpus), GR_SUCCESS);
  if (gpus == 0) return;
  static const int64_t depth[N] = {0, 1, 1, 2, 3, 3, -1};
  const char *lists[] = {"0", "0,0", "0,0,0"};
  for (int k = 0; k < 3; k++) {
    gr_options *o = NULL;
    ck_assert_int_eq(gr_options_create(&o), GR_SUCCESS);
    ck_assert_int_eq(gr_options_set(o, "gpu-ids", lists[k]), GR_SUCCESS);
    ck_assert_int_eq(gr_options_set(o, "transport", "p2p"), GR_SUCCESS);
    ck_assert_int_eq(gr_options_set(o, "undirected", "on"), GR_SUCCESS);
    gr_context *ctx = NULL;
    ck_assert_msg(gr_context_create(&ctx, o) == GR_SUCCESS, "%s: %s", lists[k], gr_error_message());
    gr_context_info ci;
    ck_assert_int_eq(gr_context_get_info(ctx, &ci), GR_SUCCESS);
    ck_assert_str_eq(ci.backend, "cuda");
    ck_assert_int_eq(ci.devices, k + 1);
    gr_graph *g = NULL;
    gr_problem *p = NULL;
    gr_stats *s = NULL;
    ck_assert_int_eq(gr_graph_create_csr(&g, N, offsets, indices, weights, o), GR_SUCCESS);
    ck_assert_msg(gr_problem_create(&p, ctx, g, "bfs", o) == GR_SUCCESS, "%s", gr_error_message());
    ck_assert_msg(gr_problem_run(p, 0, &s) >= 0, "%s", gr_error_message());
    ck_assert_msg(gr_problem_validate(p) == GR_SUCCESS, "%s", gr_error_message());
    gr_values v;
    ck_assert_int_eq(gr_problem_get_values(p, &v), GR_SUCCESS);
    for (int i = 0; i < N; i++) ck_assert_int_eq(((const int64_t *)v.values)[i], depth[i]);
    gr_stats_destroy(&s);
    gr_problem_destroy(&p);
    gr_graph_destroy(&g);
    gr_context_destroy(&ctx);
    gr_options_destroy(&o);
  }
}
END_TEST

START_TEST(bad_arrays_are_errors_naming_the_entry) {
  gr_graph *g = NULL;
  const int64_t bad_off[3] = {0, 2, 1};
  const int64_t idx[2] = {1, 0};
  ck_assert_int_eq(gr_graph_create_csr(&g, 2, bad_off, idx, NULL, NULL), GR_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "row 1"));
  const int64_t off[3] = {0, 1, 2}, out_of_range[2] = {1, 5};
  ck_assert_int_eq(gr_graph_create_csr(&g, 2, off, out_of_range, NULL, NULL), GR_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "indices[1] = 5"));
  const float nan_w[2] = {1, NAN};
  ck_assert_int_eq(gr_graph_create_csr(&g, 2, off, idx, nan_w, NULL), GR_ERR_INVALID_ARG);
  const int64_t src[2] = {0, -1}, dst[2] = {1, 0};
  ck_assert_int_eq(gr_graph_create_coo(&g, 2, 2, src, dst, NULL, NULL), GR_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "arc 1"));
  ck_assert_ptr_null(g);
  ck_assert_int_eq(gr_graph_create_coo(NULL, 2, 2, src, dst, NULL, NULL), GR_ERR_INVALID_ARG);
}
END_TEST

START_TEST(problems_refuse_what_cannot_run) {
  gr_options *o = opts("1");
  gr_context *ctx = NULL;
  gr_graph *g = NULL, *empty = NULL;
  gr_problem *p = NULL;
  ck_assert_int_eq(gr_context_create(&ctx, o), GR_SUCCESS);
  /* No weights: sssp cannot run. */
  ck_assert_int_eq(gr_graph_create_csr(&g, N, offsets, indices, NULL, o), GR_SUCCESS);
  ck_assert_int_eq(gr_problem_create(&p, ctx, g, "sssp", o), GR_ERR_BAD_INPUT);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "weights"));
  ck_assert_int_eq(gr_problem_create(&p, ctx, g, "nosuch", o), GR_ERR_INVALID_ARG);
  ck_assert_ptr_null(p);
  /* A source that is not a vertex, results before any run. */
  ck_assert_int_eq(gr_problem_create(&p, ctx, g, "bfs", o), GR_SUCCESS);
  gr_values v;
  ck_assert_int_eq(gr_problem_get_values(p, &v), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_problem_validate(p), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_problem_run(p, 99, NULL), GR_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "99"));
  ck_assert_int_eq(gr_problem_run(p, 5, NULL), GR_SUCCESS);
  ck_assert_int_eq(gr_problem_get_values(p, &v), GR_SUCCESS);
  ck_assert_int_eq(((const int64_t *)v.values)[5], 0);
  ck_assert_ptr_null(v.predecessors);
  gr_problem_destroy(&p);
  /* A graph without vertices. */
  const int64_t zero[1] = {0};
  ck_assert_int_eq(gr_graph_create_csr(&empty, 0, zero, NULL, NULL, o), GR_SUCCESS);
  ck_assert_int_eq(gr_problem_create(&p, ctx, empty, "bfs", o), GR_ERR_BAD_INPUT);
  gr_graph_destroy(&empty);
  gr_context_destroy(&ctx);
  /* More devices than vertices. */
  ck_assert_int_eq(gr_options_set(o, "devices", "8"), GR_SUCCESS);
  ck_assert_int_eq(gr_context_create(&ctx, o), GR_SUCCESS);
  ck_assert_int_eq(gr_problem_create(&p, ctx, g, "bfs", o), GR_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "8 devices"));
  gr_context_destroy(&ctx);
  /* A transport CPU devices cannot use fails at the context. */
  ck_assert_int_eq(gr_options_set(o, "devices", "2"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "transport", "p2p"), GR_SUCCESS);
  ck_assert_int_eq(gr_context_create(&ctx, o), GR_ERR_INVALID_ARG);
  ck_assert_ptr_null(ctx);
  gr_graph_destroy(&g);
  gr_options_destroy(&o);
}
END_TEST

START_TEST(files_keep_their_ids_and_one_context_serves_many_problems) {
  /* A 1-based Matrix Market path 1-2-3 plus 4-5: ids as in the file. */
  char path[512];
  const char *tmp = getenv("GR_TEST_TMP_DIR");
  snprintf(path, sizeof path, "%s/%d-api.mtx", tmp ? tmp : "/tmp", (int)getpid());
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("%%MatrixMarket matrix coordinate pattern symmetric\n5 5 3\n2 1\n3 2\n5 4\n", f);
  fclose(f);
  gr_options *o = opts("2");
  ck_assert_int_eq(gr_options_set(o, "cache", "off"), GR_SUCCESS);
  ck_assert_int_eq(gr_options_set(o, "mark-pred", "on"), GR_SUCCESS);
  gr_context *ctx = NULL;
  gr_graph *g = NULL;
  ck_assert_int_eq(gr_context_create(&ctx, o), GR_SUCCESS);
  ck_assert_int_eq(gr_graph_open(&g, path, o), GR_SUCCESS);
  int64_t ids[5];
  ck_assert_int_eq(gr_graph_ids(g, ids), GR_SUCCESS);
  for (int i = 0; i < 5; i++) ck_assert_int_eq(ids[i], i + 1);
  uint64_t index = 0;
  ck_assert_int_eq(gr_graph_find(g, 3, &index), GR_SUCCESS);
  ck_assert_uint_eq(index, 2);
  ck_assert_int_eq(gr_graph_find(g, 0, &index), GR_ERR_INVALID_ARG);
  /* Two problems at once on one context: the second opens its own exchange. */
  gr_problem *bfs = NULL, *cc = NULL;
  ck_assert_int_eq(gr_problem_create(&bfs, ctx, g, "bfs", o), GR_SUCCESS);
  ck_assert_int_eq(gr_problem_create(&cc, ctx, g, "cc", o), GR_SUCCESS);
  for (int round = 0; round < 2; round++) {
    gr_values v;
    ck_assert_int_eq(gr_problem_run(bfs, 3, NULL), GR_SUCCESS);
    ck_assert_int_eq(gr_problem_validate(bfs), GR_SUCCESS);
    ck_assert_int_eq(gr_problem_get_values(bfs, &v), GR_SUCCESS);
    const int64_t *d = v.values;
    ck_assert(d[0] == 2 && d[1] == 1 && d[2] == 0 && d[3] == -1 && d[4] == -1);
    ck_assert(v.predecessors[0] == 2 && v.predecessors[1] == 3 && v.predecessors[2] == -1);
    ck_assert_int_eq(gr_problem_run(cc, 0, NULL), GR_SUCCESS);
    ck_assert_int_eq(gr_problem_get_values(cc, &v), GR_SUCCESS);
    d = v.values;
    ck_assert(d[0] == 1 && d[1] == 1 && d[2] == 1 && d[3] == 4 && d[4] == 4);
  }
  gr_problem_info pi;
  ck_assert_int_eq(gr_problem_get_info(cc, &pi), GR_SUCCESS);
  ck_assert_int_eq(pi.devices, 2);
  ck_assert_str_eq(pi.partitioner, "random");
  /* Five vertices: single ids. */
  ck_assert_uint_eq(pi.partition_block, 1);
  gr_part_info part;
  ck_assert_int_eq(gr_problem_get_part(cc, 1, &part), GR_SUCCESS);
  ck_assert_int_eq(gr_problem_get_part(cc, 2, &part), GR_ERR_INVALID_ARG);
  gr_device_info di;
  ck_assert_int_eq(gr_problem_get_device(cc, 1, &di), GR_SUCCESS);
  ck_assert_uint_gt(di.peak_bytes, 0);
  /* CPU devices: no L2 or bandwidth for the tuning to read. */
  ck_assert_uint_eq(di.l2_bytes, 0);
  ck_assert_uint_eq(di.memory_bandwidth, 0);
  /* The context and the graph destroyed first (as a collector may do) stay
   * with their problems, the lent exchange and the problem's own, until
   * the last. */
  gr_context_destroy(&ctx);
  ck_assert_ptr_null(ctx);
  gr_graph_destroy(&g);
  ck_assert_ptr_null(g);
  ck_assert_int_eq(gr_problem_run(cc, 0, NULL), GR_SUCCESS);
  ck_assert_int_eq(gr_problem_validate(cc), GR_SUCCESS);
  gr_problem_destroy(&cc);
  ck_assert_int_eq(gr_problem_run(bfs, 3, NULL), GR_SUCCESS);
  ck_assert_int_eq(gr_problem_validate(bfs), GR_SUCCESS);
  gr_problem_destroy(&bfs);
  ck_assert_int_eq(gr_graph_open(&g, "/nonexistent/x.mtx", o), GR_ERR_IO);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "/nonexistent/x.mtx"));
  gr_options_destroy(&o);
  unlink(path);
}
END_TEST

START_TEST(generated_graphs_give_seeded_sources_and_figures) {
  gr_options *o = opts("2");
  ck_assert_int_eq(gr_options_set(o, "timeline", "on"), GR_SUCCESS);
  gr_context *ctx = NULL;
  gr_graph *g = NULL;
  gr_problem *p = NULL;
  ck_assert_int_eq(gr_context_create(&ctx, o), GR_SUCCESS);
  ck_assert_int_eq(gr_graph_generate(&g, "kron:abc", o), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_graph_generate(&g, "kron:9:8", o), GR_SUCCESS);
  gr_graph_info gi;
  ck_assert_int_eq(gr_graph_get_info(g, &gi), GR_SUCCESS);
  ck_assert_uint_eq(gi.vertices, 512);
  ck_assert_ptr_nonnull(strstr(gi.name, "kron:9"));
  int64_t a[3], b[3];
  ck_assert_int_eq(gr_graph_sources(g, "random", 7, 3, a), GR_SUCCESS);
  ck_assert_int_eq(gr_graph_sources(g, "random", 7, 3, b), GR_SUCCESS);
  ck_assert(a[0] == b[0] && a[1] == b[1] && a[2] == b[2]);
  ck_assert_int_eq(gr_graph_sources(g, "sideways", 7, 3, b), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_problem_create(&p, ctx, g, "bfs", o), GR_SUCCESS);
  gr_stats *s = NULL;
  ck_assert_int_eq(gr_problem_run(p, a[0], &s), GR_SUCCESS);
  ck_assert_int_eq(gr_problem_validate(p), GR_SUCCESS);
  gr_run_summary sum;
  ck_assert_int_eq(gr_stats_get_summary(s, &sum), GR_SUCCESS);
  ck_assert_int_eq(sum.source, a[0]);
  ck_assert_int_eq(sum.levels, sum.iterations);
  ck_assert_uint_gt(sum.reached, 1);
  gr_level_info lv;
  ck_assert_int_eq(gr_stats_get_level(s, 0, &lv), GR_SUCCESS);
  ck_assert_uint_eq(lv.frontier, 1);
  ck_assert_int_eq(gr_stats_get_level(s, sum.levels, &lv), GR_ERR_INVALID_ARG);
  gr_device_split ds;
  ck_assert_int_eq(gr_stats_get_device(s, 0, &ds), GR_SUCCESS);
  ck_assert_int_gt(ds.timeline_len, 0);
  gr_timeline_step ts;
  ck_assert_int_eq(gr_stats_get_timeline(s, 0, 0, &ts), GR_SUCCESS);
  ck_assert_int_eq(gr_stats_get_device(s, 2, &ds), GR_ERR_INVALID_ARG);
  ck_assert_uint_gt(gr_stats_bytes_to(s, 0, 1) + gr_stats_bytes_to(s, 1, 0), 0);
  gr_stats_destroy(&s);
  gr_problem_destroy(&p);
  gr_graph_destroy(&g);
  gr_context_destroy(&ctx);
  gr_options_destroy(&o);
}
END_TEST

int main(void) {
  Suite *s = suite_create("api");
  TCase *t = tcase_create("arguments");
  tcase_add_test(t, every_listed_primitive_has_a_description);
  tcase_add_test(t, options_reject_bad_keys_and_values_and_keep_the_old);
  tcase_add_test(t, bad_arrays_are_errors_naming_the_entry);
  tcase_add_test(t, gpu_ids_are_checked_and_set_the_device_count);
  tcase_add_test(t, problems_refuse_what_cannot_run);
  suite_add_tcase(s, t);
  t = tcase_create("runs");
  tcase_set_timeout(t, 300);
  tcase_add_test(t, bfs_depths_and_parents_on_one_and_several_devices);
  tcase_add_test(t, sssp_distances_follow_the_weights);
  tcase_add_test(t, cc_labels_are_the_smallest_input_id);
  tcase_add_test(t, pagerank_sums_to_one_and_is_symmetric);
  tcase_add_test(t, pagerank_follows_the_damping);
  tcase_add_test(t, files_keep_their_ids_and_one_context_serves_many_problems);
  tcase_add_test(t, generated_graphs_give_seeded_sources_and_figures);
  tcase_add_test(t, bc_over_one_listed_drawn_and_all_sources);
  tcase_add_test(t, drawn_sources_follow_the_seeded_draws);
  tcase_add_test(t, several_sources_only_where_a_primitive_sums_them);
  tcase_add_test(t, gpu_ids_place_devices_on_the_gpus_named);
  suite_add_tcase(s, t);
  SRunner *r = srunner_create(s);
  srunner_run_all(r, CK_NORMAL);
  const int failed = srunner_ntests_failed(r);
  srunner_free(r);
  return failed ? 1 : 0;
}
