/* SPDX-License-Identifier: Apache-2.0 */
/* PageRank: the double power iteration on a graph solved by hand, the
 * options (tolerance, iteration limit, damping), the validator against each kind of
 * wrong answer (ranks, sums, a stop too early or too late); the primitive
 * on one CPU device, pull and push, against the reference; on 2-4 CPU
 * devices through the multi-device layer against one device (pull and push
 * under either exchange) under every partitioner and proxy
 * mode; dampings other than the default on one and several devices; sums
 * of doubles over the devices. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "gr/enactor.h"
#include "gr/gen.h"
#include "gr/graph.h"
#include "partitioner.h"
#include "pr/pr.h"
#include "subgraph_builder.h"
#include "testutil.h"

static gr_graph *from_edges(gr_vid n, const gr_vid (*e)[2], int m, bool undirected) {
  gr_coo c = GR_COO_INIT;
  ck_assert_int_eq(gr_coo_reserve(&c, (uint64_t)m + 1, false), GR_SUCCESS);
  for (int i = 0; i < m; i++) ck_assert_int_eq(gr_coo_push(&c, e[i][0], e[i][1], 0), GR_SUCCESS);
  c.n = n;
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  o.undirected = undirected;
  gr_graph *g = NULL;
  ck_assert_int_eq(gr_graph_from_coo(&g, &c, &o), GR_SUCCESS);
  return g;
}

static double number(const gr_result *r, const char *name) {
  for (int i = 0; i < r->extra.n_numbers; i++)
    if (!strcmp(r->extra.number_names[i], name)) return r->extra.numbers[i];
  ck_abort_msg("no figure '%s'", name);
  return 0;
}

/* 0 -> 1, and 1 dangling. From r = deg/m = (1, 0): r1 = (0.075, 0.925)
 * (change 1.85); with D = 0.925, r2 = (0.075 + 0.85 * 0.4625,
 * 0.075 + 0.85 * (0.075 + 0.4625)). The fixed point solves
 * r0 = 0.075 + 0.425 r1, r0 + r1 = 1: r0 = 0.5 / 1.425. */
START_TEST(power_iteration_matches_a_graph_solved_by_hand) {
  const gr_vid e[][2] = {{0, 1}};
  gr_graph *g = from_edges(2, e, 1, false);
  double rank[2], l1[2];
  ck_assert_int_eq(gr_pr_power(g, GR_PR_DAMPING, 1, rank, l1), GR_SUCCESS);
  ck_assert_double_eq_tol(rank[0], 0.075, 1e-15);
  ck_assert_double_eq_tol(rank[1], 0.925, 1e-15);
  ck_assert_double_eq_tol(l1[0], 1.85, 1e-15);
  ck_assert_int_eq(gr_pr_power(g, GR_PR_DAMPING, 2, rank, l1), GR_SUCCESS);
  ck_assert_double_eq_tol(rank[0], 0.075 + 0.85 * 0.4625, 1e-15);
  ck_assert_double_eq_tol(rank[1], 0.075 + 0.85 * (0.075 + 0.4625), 1e-15);
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  o.tolerance = 1e-13;
  o.max_iterations = 1000;
  gr_run_args a = {0, 0, NULL, 0};
  gr_result ref = GR_RESULT_INIT;
  ck_assert_int_eq(gr_pr_reference(g, &a, &o, &ref), GR_SUCCESS);
  ck_assert_int_eq(ref.type, GR_VALUE_DOUBLE);
  const double *x = ref.values;
  ck_assert_double_eq_tol(x[0], 0.5 / 1.425, 1e-12);
  ck_assert_double_eq_tol(x[1], 1 - 0.5 / 1.425, 1e-12);
  const int k = (int)number(&ref, "iterations");
  ck_assert_int_gt(k, 10);
  ck_assert_int_lt(k, 1000);
  ck_assert_int_eq(ref.extra.series_len, k);
  ck_assert(ref.extra.series[0][k - 1] < 1e-13);
  ck_assert(ref.extra.series[0][k - 2] >= 1e-13);
  gr_result_free(&ref);
  gr_graph_destroy(&g);
}
END_TEST

/* The same graph for any damping d: r0 = (1 - d) / 2 + d * r1 / 2 with
 * r0 + r1 = 1 gives r0 = 1 / (2 + d); d = 0 is the uniform 1/2, 1/2 after
 * one iteration. */
START_TEST(reference_follows_the_damping_of_the_options) {
  const gr_vid e[][2] = {{0, 1}};
  gr_graph *g = from_edges(2, e, 1, false);
  const double dampings[] = {0.0, 0.5, GR_PR_DAMPING, 0.99};
  for (int i = 0; i < 4; i++) {
    const double d = dampings[i];
    double rank[2], l1[1];
    ck_assert_int_eq(gr_pr_power(g, d, 1, rank, l1), GR_SUCCESS);
    ck_assert_double_eq_tol(rank[0], (1 - d) / 2, 1e-15);
    ck_assert_double_eq_tol(rank[1], (1 - d) / 2 + d, 1e-15);
    gr_prim_options o = GR_PRIM_OPTIONS_INIT;
    o.damping = d;
    o.tolerance = 1e-13;
    o.max_iterations = 10000;
    ck_assert_int_eq(gr_pr_prepare(g, &o), GR_SUCCESS);
    gr_run_args a = {0, 0, NULL, 0};
    gr_result ref = GR_RESULT_INIT;
    ck_assert_int_eq(gr_pr_reference(g, &a, &o, &ref), GR_SUCCESS);
    const double *x = ref.values;
    ck_assert_msg(fabs(x[0] - 1 / (2 + d)) < 1e-12, "damping %g: %.15g, want %.15g", d, x[0], 1 / (2 + d));
    ck_assert_double_eq_tol(x[1], 1 - 1 / (2 + d), 1e-12);
    ck_assert(number(&ref, "iterations") < 10000);
    gr_result_free(&ref);
  }
  gr_graph_destroy(&g);
}
END_TEST

/* A damping outside [0, 1) is refused by prepare, the reference and the
 * validator alike (the reference and validator are called without prepare
 * by gr_problem_validate's callers and the tests), never run. */
START_TEST(options_refuse_dampings_outside_zero_to_one) {
  gr_graph *g = gr_test_generated("kron:6:4");
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  ck_assert_double_eq(o.damping, 0.85);
  ck_assert_double_eq(o.damping, GR_PR_DAMPING);
  const double good[] = {0.0, 1e-9, 0.5, 0.999999};
  for (int i = 0; i < 4; i++) {
    o.damping = good[i];
    ck_assert_msg(gr_pr_prepare(g, &o) == GR_SUCCESS, "%g: %s", good[i], gr_error_message());
  }
  const double bad[] = {-1e-9, -0.5, 1.0, 1.5, NAN, INFINITY, -INFINITY};
  gr_run_args a = {0, 0, NULL, 0};
  for (int i = 0; i < 7; i++) {
    o.damping = bad[i];
    ck_assert_int_eq(gr_pr_prepare(g, &o), GR_ERR_INVALID_ARG);
    ck_assert_ptr_nonnull(strstr(gr_error_message(), "damping"));
    gr_result ref = GR_RESULT_INIT;
    ck_assert_int_eq(gr_pr_reference(g, &a, &o, &ref), GR_ERR_INVALID_ARG);
    ck_assert_ptr_null(ref.values);
    ck_assert_int_eq(gr_pr_validate(g, &a, &o, &ref, NULL), GR_ERR_INVALID_ARG);
    ck_assert_ptr_nonnull(strstr(gr_error_message(), "damping"));
  }
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(options_take_defaults_and_refuse_bad_tolerances) {
  gr_graph *g = gr_test_generated("kron:6:4");
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  ck_assert_double_eq(gr_pr_tolerance(&o), 1e-4);
  ck_assert_int_eq(gr_pr_max_iterations(&o), 100);
  ck_assert_int_eq(gr_pr_prepare(g, &o), GR_SUCCESS);
  ck_assert_int_eq(o.max_iterations, 100);
  o.max_iterations = 7;
  ck_assert_int_eq(gr_pr_prepare(g, &o), GR_SUCCESS);
  ck_assert_int_eq(o.max_iterations, 7);
  const double bad[] = {-1e-4, NAN, INFINITY};
  for (int i = 0; i < 3; i++) {
    o.tolerance = bad[i];
    ck_assert_int_eq(gr_pr_prepare(g, &o), GR_ERR_INVALID_ARG);
    ck_assert_ptr_nonnull(strstr(gr_error_message(), "tolerance"));
  }
  gr_graph_destroy(&g);
}
END_TEST

/* A run's answer as the validator sees it: float ranks and the iterations. */
static void as_result(gr_result *r, const double *x, gr_vid n, int iterations) {
  ck_assert_int_eq(gr_result_alloc(r, n, GR_VALUE_FLOAT, false), GR_SUCCESS);
  for (gr_vid v = 0; v < n; v++) ((float *)r->values)[v] = (float)x[v];
  r->extra.n_numbers = 1;
  r->extra.number_names[0] = "iterations";
  r->extra.numbers[0] = iterations;
}

START_TEST(validator_rejects_each_kind_of_wrong_answer) {
  gr_graph *g = gr_test_generated("kron:10:8,directed");
  const gr_vid n = gr_graph_num_vertices(g);
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_run_args a = {0, 0, NULL, 0};
  gr_result ref = GR_RESULT_INIT, r = GR_RESULT_INIT;
  ck_assert_int_eq(gr_pr_reference(g, &a, &o, &ref), GR_SUCCESS);
  const int k = (int)number(&ref, "iterations");
  ck_assert_int_gt(k, 3);
  as_result(&r, ref.values, n, k);
  ck_assert_msg(gr_pr_validate(g, &a, &o, &r, &ref) == GR_SUCCESS, "%s", gr_error_message());
  ck_assert_msg(gr_pr_validate(g, &a, &o, &r, NULL) == GR_SUCCESS, "%s", gr_error_message());
  float *x = r.values;
  /* The largest rank 1e-4 off (relative): the sum still rounds to 1. */
  gr_vid top = 0;
  for (gr_vid v = 1; v < n; v++) top = x[v] > x[top] ? v : top;
  const float keep = x[top];
  x[top] = keep * (1.0f + 1e-4f);
  ck_assert_int_eq(gr_pr_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "the double iteration gives"));
  x[top] = keep + 0.01f;
  ck_assert_int_eq(gr_pr_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "sum to"));
  x[top] = -keep;
  ck_assert_int_eq(gr_pr_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "positive"));
  x[top] = keep;
  /* Stopped too early, too late, past the limit, or without saying when. */
  r.extra.numbers[0] = k - 2;
  ck_assert_int_eq(gr_pr_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "above the tolerance"));
  r.extra.numbers[0] = k + 2;
  ck_assert_int_eq(gr_pr_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "went on"));
  r.extra.numbers[0] = 101;
  ck_assert_int_eq(gr_pr_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "limit"));
  r.extra.n_numbers = 0;
  ck_assert_int_eq(gr_pr_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "how many iterations"));
  /* At the limit the run may stop with any change: the ranks of k - 2
   * iterations are right for a limit of k - 2. */
  gr_result early = GR_RESULT_INIT;
  double *y = malloc(sizeof *y * n), *l1 = malloc(sizeof *l1 * (size_t)k);
  ck_assert_int_eq(gr_pr_power(g, GR_PR_DAMPING, k - 2, y, l1), GR_SUCCESS);
  as_result(&early, y, n, k - 2);
  o.max_iterations = k - 2;
  ck_assert_msg(gr_pr_validate(g, &a, &o, &early, &ref) == GR_SUCCESS, "%s", gr_error_message());
  free(y);
  free(l1);
  gr_result_free(&early);
  gr_result_free(&r);
  gr_result_free(&ref);
  gr_graph_destroy(&g);
}
END_TEST

/* Runs pr twice on the given parts with the options; returns the last
 * run's ranks (caller frees) and its iterations. */
static float *run_pr(gr_subgraph *const *subs, int devices, int threads, const gr_exchange_ops *ex, void *shared,
                     const gr_prim_options *o, int *iterations, bool *pull, gr_status *run_status) {
  gr_enactor_config cfg = {.prim = &gr_pr_primitive,
                           .opts = o,
                           .backend = GR_BACKEND_CPU,
                           .n_devices = devices,
                           .cpu_threads = threads,
                           .mem = GR_MEM_POLICY_INIT,
                           .subs = subs,
                           .exchange = ex,
                           .exchange_shared = shared,
                           .broadcast = shared && gr_comm_mode_of(shared) == GR_COMM_BROADCAST};
  gr_enactor *e = NULL;
  ck_assert_msg(gr_enactor_create(&e, &cfg) == GR_SUCCESS, "%s", gr_error_message());
  float *ranks = NULL;
  for (int k = 0; k < 2; k++) {
    gr_run_args a = {0, k, NULL, 0};
    gr_run_stats st;
    ck_assert_msg(gr_enactor_run(e, &a, &st) == GR_SUCCESS, "%s", gr_error_message());
    if (run_status) *run_status = st.status;
    gr_run_stats_free(&st);
    gr_result r = GR_RESULT_INIT;
    ck_assert_int_eq(gr_enactor_extract(e, &r), GR_SUCCESS);
    *iterations = (int)number(&r, "iterations");
    if (pull) *pull = number(&r, "pull") > 0;
    ck_assert_int_eq(st.iterations, *iterations);
    free(ranks);
    ranks = r.values;
    r.values = NULL;
    gr_result_free(&r);
  }
  gr_enactor_destroy(&e);
  return ranks;
}

static const char *const specs[] = {"kron:11:8", "uniform:10:4,directed", "grid2d:20x30", "kron:10:4,directed"};
enum { N_SPECS = sizeof specs / sizeof specs[0] };

START_TEST(one_device_pull_and_push_equal_reference) {
  gr_run_args a = {0, 0, NULL, 0};
  for (int i = 0; i < N_SPECS; i++) {
    gr_graph *g = gr_test_generated(specs[i]);
    const gr_vid n = gr_graph_num_vertices(g);
    gr_subgraph *sub = NULL;
    ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
    /* Threads 1 and 3 with plain ids, 2 with packed lists. */
    for (int dir = 0; dir < 2; dir++)
      for (int threads = 1; threads <= 3; threads++) {
        gr_prim_options o = GR_PRIM_OPTIONS_INIT;
        o.direction = dir ? GR_DIRECTION_PUSH : GR_DIRECTION_AUTO;
        o.compress = threads == 2 ? GR_COMPRESS_PACKED : GR_COMPRESS_NONE;
        ck_assert_int_eq(gr_pr_prepare(g, &o), GR_SUCCESS);
        int k = 0;
        bool pull = false;
        float *x = run_pr(&sub, 1, threads, NULL, NULL, &o, &k, &pull, NULL);
        ck_assert(pull == !dir);
        gr_result r = GR_RESULT_INIT, ref = GR_RESULT_INIT;
        ck_assert_int_eq(gr_pr_reference(g, &a, &o, &ref), GR_SUCCESS);
        as_result(&r, ref.values, n, k);
        memcpy(r.values, x, (size_t)n * sizeof(float));
        ck_assert_msg(gr_pr_validate(g, &a, &o, &r, &ref) == GR_SUCCESS, "%s %s, %d threads%s: %s", specs[i],
                      dir ? "push" : "pull", threads, threads == 2 ? ", packed lists" : "", gr_error_message());
        /* Far from the tolerance the stop is the reference's. */
        ck_assert_int_eq(k, (int)number(&ref, "iterations"));
        free(x);
        gr_result_free(&r);
        gr_result_free(&ref);
      }
    gr_subgraph_destroy(&sub);
    gr_graph_destroy(&g);
  }
}
END_TEST

START_TEST(iteration_limit_and_graphs_without_arcs) {
  gr_run_args a = {0, 0, NULL, 0};
  gr_graph *g = gr_test_generated("kron:10:8");
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  o.max_iterations = 3;
  ck_assert_int_eq(gr_pr_prepare(g, &o), GR_SUCCESS);
  int k = 0;
  gr_status st = GR_SUCCESS;
  float *x = run_pr(&sub, 1, 2, NULL, NULL, &o, &k, NULL, &st);
  ck_assert_int_eq(k, 3);
  ck_assert_int_eq(st, GR_ITERATION_LIMIT);
  gr_result r = GR_RESULT_INIT;
  double *y = calloc(gr_graph_num_vertices(g), sizeof(double));
  as_result(&r, y, gr_graph_num_vertices(g), 3);
  memcpy(r.values, x, sizeof(float) * gr_graph_num_vertices(g));
  ck_assert_msg(gr_pr_validate(g, &a, &o, &r, NULL) == GR_SUCCESS, "%s", gr_error_message());
  free(y);
  free(x);
  gr_result_free(&r);
  gr_subgraph_destroy(&sub);
  gr_graph_destroy(&g);

  /* Five vertices, no arcs: every one dangling, 1/5 from the start. */
  const gr_vid none[][2] = {{0, 0}};
  g = from_edges(5, none, 0, false);
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
  o.max_iterations = 0;
  ck_assert_int_eq(gr_pr_prepare(g, &o), GR_SUCCESS);
  x = run_pr(&sub, 1, 2, NULL, NULL, &o, &k, NULL, &st);
  ck_assert_int_eq(k, 1);
  ck_assert_int_eq(st, GR_SUCCESS);
  for (int v = 0; v < 5; v++) ck_assert_float_eq_tol(x[v], 0.2f, 1e-7f);
  free(x);
  gr_subgraph_destroy(&sub);
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
  /* Pull (the owners refresh the copies) and push, under either exchange. */
  static const struct {
    gr_comm_mode comm;
    gr_direction dir;
    bool pull;
  } ways[] = {{GR_COMM_SELECTIVE, GR_DIRECTION_AUTO, true},
              {GR_COMM_SELECTIVE, GR_DIRECTION_PUSH, false},
              {GR_COMM_BROADCAST, GR_DIRECTION_PUSH, false},
              {GR_COMM_BROADCAST, GR_DIRECTION_PULL, true}};
  for (int i = 0; i < N_SPECS; i++) {
    gr_graph *g = gr_test_generated(specs[i]);
    const gr_vid n = gr_graph_num_vertices(g);
    gr_subgraph *sub = NULL;
    ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
    gr_prim_options o1 = GR_PRIM_OPTIONS_INIT;
    ck_assert_int_eq(gr_pr_prepare(g, &o1), GR_SUCCESS);
    int k1 = 0;
    float *expect = run_pr(&sub, 1, 1, NULL, NULL, &o1, &k1, NULL, NULL);
    gr_subgraph_destroy(&sub);
    for (int devices = 2; devices <= 4; devices++) {
      for (size_t p = 0; p < sizeof kinds / sizeof kinds[0]; p++) {
        gr_partition_options po = GR_PARTITION_OPTIONS_INIT;
        po.kind = kinds[p];
        po.parts = devices;
        po.threads = 1;
        gr_partition *part = NULL;
        ck_assert_msg(gr_partition_create(&part, g, &po) == GR_SUCCESS, "%s", gr_error_message());
        for (size_t x = 0; x < sizeof proxies / sizeof proxies[0]; x++) {
          gr_subgraph **subs = NULL;
          ck_assert_int_eq(gr_subgraphs_build(&subs, g, part, proxies[x], true, false), GR_SUCCESS);
          for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++) {
            gr_comm_options co = {ways[w].comm, GR_TRANSPORT_HOST, GR_COMM_FORMAT_AUTO, NULL};
            gr_comm *comm = NULL;
            ck_assert_int_eq(gr_comm_create(&comm, GR_BACKEND_CPU, devices, &co), GR_SUCCESS);
            gr_prim_options o = o1;
            o.direction = ways[w].dir;
            /* Three devices hold their lists packed. */
            o.compress = devices == 3 ? GR_COMPRESS_PACKED : GR_COMPRESS_NONE;
            int k = 0;
            bool pull = false;
            float *got = run_pr(subs, devices, 1, &gr_comm_exchange_ops, comm, &o, &k, &pull, NULL);
            gr_comm_destroy(&comm);
            char what[200];
            snprintf(what, sizeof what, "%s, %d devices%s, %s, %s proxies, %s, %s", specs[i], devices,
                     devices == 3 ? " (packed lists)" : "",
                     gr_partitioner_name(kinds[p]), proxies[x] == GR_PROXY_1HOP ? "1hop" : "all",
                     gr_comm_mode_name(ways[w].comm), pull ? "pull" : "push");
            ck_assert_msg(pull == ways[w].pull, "%s: direction", what);
            ck_assert_msg(k == k1, "%s: %d iterations, one device %d", what, k, k1);
            for (gr_vid v = 0; v < n; v++)
              ck_assert_msg(fabsf(got[v] - expect[v]) <= 1e-5f * expect[v], "%s: vertex %llu: %.9g, one device %.9g",
                            what, (unsigned long long)v, (double)got[v], (double)expect[v]);
            free(got);
          }
          gr_subgraphs_destroy(&subs, devices);
        }
        gr_partition_destroy(&part);
      }
    }
    free(expect);
    gr_graph_destroy(&g);
  }
}
END_TEST

/* The damping of the options reaches every path of the primitive: one
 * device pulling and pushing, several devices pulling (the owners refresh
 * the copies) and pushing (partial sums to the owners). Each answer is the
 * double iteration's at that damping (the validator, whose reference takes
 * the same options) and far from the default's, so a path that kept 0.85
 * fails both ways. */
static float *run_validated(gr_graph *g, gr_subgraph *const *subs, int devices, const gr_prim_options *o,
                            const char *what) {
  gr_comm *comm = NULL;
  if (devices > 1) {
    gr_comm_options co = {GR_COMM_SELECTIVE, GR_TRANSPORT_HOST, GR_COMM_FORMAT_AUTO, NULL};
    ck_assert_int_eq(gr_comm_create(&comm, GR_BACKEND_CPU, devices, &co), GR_SUCCESS);
  }
  int k = 0;
  gr_status st = GR_SUCCESS;
  float *x = run_pr(subs, devices, 1, devices > 1 ? &gr_comm_exchange_ops : NULL, comm, o, &k, NULL, &st);
  gr_comm_destroy(&comm);
  /* Converged, not cut off at the limit, where the validator would accept
   * any change. */
  ck_assert_msg(st == GR_SUCCESS, "%s: stopped at the iteration limit (%d)", what, k);
  const gr_vid n = gr_graph_num_vertices(g);
  gr_run_args a = {0, 0, NULL, 0};
  gr_result r = GR_RESULT_INIT, ref = GR_RESULT_INIT;
  ck_assert_int_eq(gr_pr_reference(g, &a, o, &ref), GR_SUCCESS);
  as_result(&r, ref.values, n, k);
  memcpy(r.values, x, (size_t)n * sizeof(float));
  ck_assert_msg(gr_pr_validate(g, &a, o, &r, &ref) == GR_SUCCESS, "%s: %s", what, gr_error_message());
  gr_result_free(&r);
  gr_result_free(&ref);
  return x;
}

START_TEST(other_dampings_equal_reference_on_one_and_several_devices) {
  gr_graph *g = gr_test_generated("kron:9:4,directed");
  const gr_vid n = gr_graph_num_vertices(g);
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
  gr_prim_options o0 = GR_PRIM_OPTIONS_INIT;
  ck_assert_int_eq(gr_pr_prepare(g, &o0), GR_SUCCESS);
  float *dflt = run_validated(g, &sub, 1, &o0, "damping 0.85");
  const double dampings[] = {0.5, 0.99};
  for (int i = 0; i < 2; i++)
    for (int devices = 1; devices <= 3; devices++) {
      gr_partition *part = NULL;
      gr_subgraph **subs = &sub;
      if (devices > 1) {
        gr_partition_options po = GR_PARTITION_OPTIONS_INIT;
        po.parts = devices;
        po.threads = 1;
        ck_assert_int_eq(gr_partition_create(&part, g, &po), GR_SUCCESS);
        subs = NULL;
        ck_assert_int_eq(gr_subgraphs_build(&subs, g, part, GR_PROXY_1HOP, true, false), GR_SUCCESS);
      }
      for (int dir = 0; dir < 2; dir++) {
        gr_prim_options o = GR_PRIM_OPTIONS_INIT;
        o.damping = dampings[i];
        o.direction = dir ? GR_DIRECTION_PUSH : GR_DIRECTION_PULL;
        /* 0.99 contracts the change by about 0.99 an iteration. */
        o.max_iterations = 5000;
        ck_assert_int_eq(gr_pr_prepare(g, &o), GR_SUCCESS);
        char what[96];
        snprintf(what, sizeof what, "damping %g, %d device%s, %s", dampings[i], devices, devices > 1 ? "s" : "",
                 dir ? "push" : "pull");
        float *x = run_validated(g, subs, devices, &o, what);
        double diff = 0;
        for (gr_vid v = 0; v < n; v++) diff += fabs((double)x[v] - (double)dflt[v]);
        /* Far beyond the tolerance (1e-4) and any rounding. */
        ck_assert_msg(diff > 1e-2, "%s: L1 distance %g from the default damping's ranks", what, diff);
        free(x);
      }
      if (devices > 1) {
        gr_subgraphs_destroy(&subs, devices);
        gr_partition_destroy(&part);
      }
    }
  free(dflt);
  gr_subgraph_destroy(&sub);
  gr_graph_destroy(&g);
}
END_TEST

/* Between devices the pull moves one float per copy and iteration, and
 * nothing else: under 1-hop proxies every proxy is a copy some owned row
 * reads, so each device receives 4 bytes per proxy in every iteration that
 * publishes (all but the last), and sends what its peers hold of it. */
START_TEST(pull_moves_one_float_per_copy_and_iteration) {
  gr_graph *g = gr_test_generated("kron:10:8");
  for (int devices = 2; devices <= 3; devices++) {
    gr_partition_options po = GR_PARTITION_OPTIONS_INIT;
    po.parts = devices;
    gr_partition *part = NULL;
    ck_assert_int_eq(gr_partition_create(&part, g, &po), GR_SUCCESS);
    gr_subgraph **subs = NULL;
    ck_assert_int_eq(gr_subgraphs_build(&subs, g, part, GR_PROXY_1HOP, true, false), GR_SUCCESS);
    gr_comm_options co = {GR_COMM_SELECTIVE, GR_TRANSPORT_HOST, GR_COMM_FORMAT_AUTO, NULL};
    gr_comm *comm = NULL;
    ck_assert_int_eq(gr_comm_create(&comm, GR_BACKEND_CPU, devices, &co), GR_SUCCESS);
    gr_prim_options o = GR_PRIM_OPTIONS_INIT;
    ck_assert_int_eq(gr_pr_prepare(g, &o), GR_SUCCESS);
    gr_enactor_config cfg = {.prim = &gr_pr_primitive,
                             .opts = &o,
                             .backend = GR_BACKEND_CPU,
                             .n_devices = devices,
                             .cpu_threads = 1,
                             .mem = GR_MEM_POLICY_INIT,
                             .subs = subs,
                             .exchange = &gr_comm_exchange_ops,
                             .exchange_shared = comm};
    gr_enactor *e = NULL;
    ck_assert_msg(gr_enactor_create(&e, &cfg) == GR_SUCCESS, "%s", gr_error_message());
    gr_run_args a = {0, 0, NULL, 0};
    gr_run_stats st;
    ck_assert_msg(gr_enactor_run(e, &a, &st) == GR_SUCCESS, "%s", gr_error_message());
    const uint64_t refreshes = (uint64_t)st.iterations - 1;
    ck_assert_uint_gt(refreshes, 2);
    for (int d = 0; d < devices; d++) {
      const gr_subgraph *s = subs[d];
      ck_assert_uint_eq(st.devices[d].bytes_received, 4 * refreshes * (uint64_t)(s->n_local - s->n_owned));
      uint64_t sent = 0, held = 0;
      for (int j = 0; j < devices; j++) {
        sent += st.devices[d].bytes_to[j];
        if (j != d) held += subs[j]->peer_begin[d + 1] - subs[j]->peer_begin[d];
      }
      ck_assert_uint_eq(sent, 4 * refreshes * held);
    }
    gr_run_stats_free(&st);
    gr_enactor_destroy(&e);
    gr_comm_destroy(&comm);
    gr_subgraphs_destroy(&subs, devices);
    gr_partition_destroy(&part);
  }
  gr_graph_destroy(&g);
}
END_TEST

/* The relabelled pull's order: vertices by the in-edges they feed, most
 * first, ties by id; position its inverse. Checked against counts taken
 * here on a hand-made CSC and on Kronecker graphs, counted (out NULL) and
 * from the transpose's row lengths (out given). */
static void check_order(const gr_csr *in, const gr_csr *out) {
  const gr_vid n = in->n;
  gr_vid *order = malloc(sizeof *order * (n + 1)), *position = malloc(sizeof *position * (n + 1));
  gr_eid *fed = calloc(n + 1, sizeof *fed);
  for (gr_eid e = 0; e < in->m; e++) fed[in->indices[e]]++;
  ck_assert_int_eq(gr_pr_order(in, out, 1, order, position, NULL), GR_SUCCESS);
  for (gr_vid i = 0; i < n; i++) {
    ck_assert_uint_lt(order[i], n);
    ck_assert_uint_eq(position[order[i]], i);
    if (i > 0) {
      const gr_vid a = order[i - 1], b = order[i];
      ck_assert_msg(fed[a] > fed[b] || (fed[a] == fed[b] && a < b), "position %llu: %llu (%llu) before %llu (%llu)",
                    (unsigned long long)i, (unsigned long long)a, (unsigned long long)fed[a],
                    (unsigned long long)b, (unsigned long long)fed[b]);
    }
  }
  free(order);
  free(position);
  free(fed);
}

START_TEST(relabel_order_ranks_sources_by_in_edges_fed) {
  /* Rows: 0 <- {3, 3, 1}, 1 <- {3}, 2 <- {}, 3 <- {1, 4}, 4 <- {0}. Fed:
   * 3 three times, 1 twice, 0 and 4 once, 2 never: 3, 1, 0, 4, 2. */
  gr_eid off[] = {0, 3, 4, 4, 6, 7};
  gr_vid idx[] = {3, 3, 1, 3, 1, 4, 0};
  const gr_csr in = {5, 7, off, idx, NULL, NULL};
  gr_vid order[5], position[5];
  gr_eid top = 0;
  ck_assert_int_eq(gr_pr_order(&in, NULL, 1, order, position, &top), GR_SUCCESS);
  ck_assert_uint_eq(top, 3); /* the top 1% (one vertex): 3 feeds three */
  const gr_vid want[] = {3, 1, 0, 4, 2};
  for (int i = 0; i < 5; i++) ck_assert_uint_eq(order[i], want[i]);
  check_order(&in, NULL);
  /* Its transpose: rows 0 -> {4}, 1 -> {0, 3}, 2 -> {}, 3 -> {0, 0, 1},
   * 4 -> {3}: the same order from the row lengths. */
  gr_eid toff[] = {0, 1, 3, 3, 6, 7};
  gr_vid tidx[] = {4, 0, 3, 0, 0, 1, 3};
  const gr_csr tr = {5, 7, toff, tidx, NULL, NULL};
  ck_assert_int_eq(gr_pr_order(&in, &tr, 1, order, position, &top), GR_SUCCESS);
  ck_assert_uint_eq(top, 3);
  for (int i = 0; i < 5; i++) ck_assert_uint_eq(order[i], want[i]);
  check_order(&in, &tr);
  /* A transpose of other sizes is refused. */
  const gr_csr short_tr = {5, 6, toff, tidx, NULL, NULL};
  ck_assert_int_eq(gr_pr_order(&in, &short_tr, 1, order, position, NULL), GR_ERR_INTERNAL);
  const gr_csr empty = {0, 0, off, idx, NULL, NULL};
  ck_assert_int_eq(gr_pr_order(&empty, NULL, 1, order, position, NULL), GR_SUCCESS);
  gr_graph *g = gr_test_generated("kron:12:8");
  const gr_csr *kin = NULL;
  ck_assert_int_eq(gr_graph_in(g, &kin), GR_SUCCESS);
  check_order(kin, NULL);
  check_order(kin, gr_graph_out(g));
  gr_graph *dg = gr_test_generated("kron:11:8,directed");
  const gr_csr *din = NULL;
  ck_assert_int_eq(gr_graph_in(dg, &din), GR_SUCCESS);
  check_order(din, NULL);
  check_order(din, gr_graph_out(dg));
  gr_graph_destroy(&dg);
  /* The CPU backend's copy of the ids: each source by its position. */
  gr_vid *ids = malloc(sizeof *ids * kin->m), *position_k = malloc(sizeof *position_k * kin->n),
         *order_k = malloc(sizeof *order_k * kin->n);
  ck_assert_int_eq(gr_pr_order(kin, NULL, 1, order_k, position_k, &top), GR_SUCCESS);
  /* Kronecker's hubs: the top 1% feed far more than 20% of the in-edges. */
  ck_assert_uint_gt(top * 100, kin->m * GR_PR_SKEWED_PERCENT);
  gr_device *dev = NULL;
  ck_assert_int_eq(gr_device_create(&dev, GR_BACKEND_CPU, 0, NULL), GR_SUCCESS);
  ck_assert_int_eq(gr__pr_ops(dev)->relabel(dev, ids, kin->indices, position_k, kin->m), GR_SUCCESS);
  for (gr_eid e = 0; e < kin->m; e++) ck_assert_uint_eq(order_k[ids[e]], kin->indices[e]);
  /* The backend's count of what each source feeds (a part's order, where
   * no transpose exists), and the order from those counts: every in-edge
   * counted, the same order as the host's exact count. */
  uint32_t *counted = calloc(kin->n, sizeof *counted);
  gr_eid *fed = calloc(kin->n, sizeof *fed), *fed_want = calloc(kin->n, sizeof *fed_want);
  ck_assert_int_eq(gr__pr_ops(dev)->count_sources(dev, counted, kin->indices, kin->m), GR_SUCCESS);
  for (gr_eid e = 0; e < kin->m; e++) fed_want[kin->indices[e]]++;
  for (gr_vid v = 0; v < kin->n; v++) {
    ck_assert_uint_eq(counted[v], fed_want[v]);
    fed[v] = counted[v];
  }
  gr_vid *order_f = malloc(sizeof *order_f * kin->n), *position_f = malloc(sizeof *position_f * kin->n);
  gr_eid top_f = 0;
  ck_assert_int_eq(gr_pr_order_fed(kin->n, fed, order_f, position_f, &top_f), GR_SUCCESS);
  for (gr_vid i = 0; i < kin->n; i++) {
    ck_assert_uint_eq(order_f[i], order_k[i]);
    ck_assert_uint_eq(position_f[i], position_k[i]);
  }
  ck_assert_uint_eq(top_f, top);
  /* The same counts in pieces of any size (pieces keep each count within
   * 32 bits past 2^32 in-edges a part), into counts that held anything. */
  const gr_eid pieces[] = {7, 4096, kin->m / 2, kin->m, 0};
  for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++) {
    for (gr_vid v = 0; v < kin->n; v++) fed[v] = 12345;
    bool done = false;
    ck_assert_int_eq(gr_pr_count_fed(dev, kin, kin->indices, pieces[i], fed, &done), GR_SUCCESS);
    ck_assert(done);
    for (gr_vid v = 0; v < kin->n; v++) ck_assert_uint_eq(fed[v], fed_want[v]);
  }
  free(counted);
  free(fed);
  free(fed_want);
  free(order_f);
  free(position_f);
  gr_device_destroy(&dev);
  free(ids);
  free(position_k);
  free(order_k);
  gr_graph_destroy(&g);
}
END_TEST

/* A part's order from a sample of its in-edges (one in 8, each counting
 * 8): by the sampled counts, most first, ties by id, position its inverse
 * (on 2^15 vertices, which the host's threads sort);
 * the hubs, which the order is for, keep their places: the first 1% by the
 * sample feed at least 97% of what the exact first 1% feed, and the
 * estimate of it is within 10%. A sample of 0 is refused; with a transpose
 * the sample changes nothing (row lengths are exact). */
START_TEST(relabel_order_from_a_sample_keeps_the_hubs_first) {
  gr_graph *g = gr_test_generated("kron:15:16");
  const gr_csr *in = NULL;
  ck_assert_int_eq(gr_graph_in(g, &in), GR_SUCCESS);
  const gr_vid n = in->n;
  const unsigned k = GR_PR_ORDER_SAMPLE;
  gr_vid *order = malloc(sizeof *order * n), *position = malloc(sizeof *position * n);
  gr_vid *exact = malloc(sizeof *exact * n), *exact_pos = malloc(sizeof *exact_pos * n);
  gr_eid *fed = calloc(n, sizeof *fed), *sampled = calloc(n, sizeof *sampled);
  for (gr_eid e = 0; e < in->m; e++) {
    fed[in->indices[e]]++;
    if (e % k == 0) sampled[in->indices[e]] += k;
  }
  gr_eid top = 0, top_exact = 0;
  ck_assert_int_eq(gr_pr_order(in, NULL, k, order, position, &top), GR_SUCCESS);
  ck_assert_int_eq(gr_pr_order(in, NULL, 1, exact, exact_pos, &top_exact), GR_SUCCESS);
  for (gr_vid i = 0; i < n; i++) {
    ck_assert_uint_lt(order[i], n);
    ck_assert_uint_eq(position[order[i]], i);
    if (i > 0) {
      const gr_vid a = order[i - 1], b = order[i];
      const gr_eid ca = sampled[a] < 65536 ? sampled[a] : 65536, cb = sampled[b] < 65536 ? sampled[b] : 65536;
      ck_assert_msg(ca > cb || (ca == cb && a < b), "position %llu: %llu (%llu) before %llu (%llu)",
                    (unsigned long long)i, (unsigned long long)a, (unsigned long long)ca, (unsigned long long)b,
                    (unsigned long long)cb);
    }
  }
  const gr_vid first = n / 100;
  gr_eid kept = 0;
  for (gr_vid i = 0; i < first; i++) kept += fed[order[i]];
  ck_assert_msg(kept * 100 >= top_exact * 97, "the sampled first 1%% feed %llu in-edges, the exact %llu",
                (unsigned long long)kept, (unsigned long long)top_exact);
  ck_assert_msg(top * 10 >= top_exact * 9 && top * 10 <= top_exact * 11, "estimate %llu, exact %llu",
                (unsigned long long)top, (unsigned long long)top_exact);
  /* 2^15 vertices: the sort runs over the host's threads (one run of ids
   * each); ties stay in id order across the runs. */
  check_order(in, NULL);
  check_order(in, gr_graph_out(g));
  ck_assert_int_eq(gr_pr_order(in, NULL, 0, order, position, NULL), GR_ERR_INTERNAL);
  gr_error_clear();
  ck_assert_int_eq(gr_pr_order(in, gr_graph_out(g), k, order, position, &top), GR_SUCCESS);
  for (gr_vid i = 0; i < n; i++) ck_assert_uint_eq(order[i], exact[i]);
  ck_assert_uint_eq(top, top_exact);
  free(order);
  free(position);
  free(exact);
  free(exact_pos);
  free(fed);
  free(sampled);
  gr_graph_destroy(&g);
}
END_TEST

/* The pull's tiles cover every in-edge once: chunks of GR_PR_TILE for the
 * rows heavier than that, runs of whole rows of at most GR_PR_TILE in-edges
 * and GR_PR_TILE_ROWS rows for the rest, every row in exactly one run or
 * heavy. */
static void check_tiles(const gr_csr *in) {
  const gr_vid n = in->n;
  gr_eid nh = 0;
  const gr_eid nt = gr_pr_tiles(in, NULL, NULL, NULL, &nh);
  gr_vid *lo = malloc(sizeof *lo * (nt + 1)), *hi = malloc(sizeof *hi * (nt + 1)), *heavy = malloc(sizeof *heavy * (nh + 1));
  gr_eid nh2 = 0;
  ck_assert_uint_eq(gr_pr_tiles(in, lo, hi, heavy, &nh2), nt);
  ck_assert_uint_eq(nh2, nh);
  unsigned char *row_seen = calloc(n + 1, 1);
  gr_eid *chunk_edges = calloc(nh + 1, sizeof *chunk_edges);
  gr_eid edges = 0;
  bool rows_begun = false;
  for (gr_eid t = 0; t < nt; t++) {
    if (hi[t] & GR_PR_CHUNK_TILE) {
      ck_assert_msg(!rows_begun, "chunk tile %llu after a run of rows", (unsigned long long)t);
      ck_assert_uint_lt(lo[t], nh);
      const gr_vid v = heavy[lo[t]];
      const gr_eid d = in->offsets[v + 1] - in->offsets[v], c = hi[t] & ~GR_PR_CHUNK_TILE;
      ck_assert_uint_lt(c * GR_PR_TILE, d);
      const gr_eid take = d - c * GR_PR_TILE < GR_PR_TILE ? d - c * GR_PR_TILE : GR_PR_TILE;
      chunk_edges[lo[t]] += take;
      edges += take;
      continue;
    }
    rows_begun = true;
    ck_assert_uint_lt(lo[t], hi[t]);
    ck_assert_uint_le(hi[t] - lo[t], GR_PR_TILE_ROWS);
    ck_assert_uint_le(in->offsets[hi[t]] - in->offsets[lo[t]], GR_PR_TILE);
    for (gr_vid v = lo[t]; v < hi[t]; v++) {
      ck_assert(!row_seen[v]);
      row_seen[v] = 1;
    }
    edges += in->offsets[hi[t]] - in->offsets[lo[t]];
  }
  for (gr_eid h = 0; h < nh; h++) {
    const gr_vid v = heavy[h];
    ck_assert(!row_seen[v]);
    row_seen[v] = 1;
    ck_assert_uint_gt(in->offsets[v + 1] - in->offsets[v], GR_PR_TILE);
    ck_assert_uint_eq(chunk_edges[h], in->offsets[v + 1] - in->offsets[v]);
  }
  for (gr_vid v = 0; v < n; v++) ck_assert_msg(row_seen[v], "row %llu in no tile", (unsigned long long)v);
  ck_assert_uint_eq(edges, in->m);
  free(lo);
  free(hi);
  free(heavy);
  free(row_seen);
  free(chunk_edges);
}

START_TEST(pull_tiles_cover_every_in_edge_once) {
  /* A heavy row of 2 * GR_PR_TILE + 1 in-edges, one of exactly GR_PR_TILE,
   * 3000 empty rows (the row limit), then rows of 1..40 in-edges. */
  enum { N = 5000 };
  gr_coo c = GR_COO_INIT;
  ck_assert_int_eq(gr_coo_reserve(&c, 40000, false), GR_SUCCESS);
  for (gr_vid u = 0; u < 2 * GR_PR_TILE + 1; u++) ck_assert_int_eq(gr_coo_push(&c, u % N, 0, 0), GR_SUCCESS);
  for (gr_vid u = 0; u < GR_PR_TILE; u++) ck_assert_int_eq(gr_coo_push(&c, u % N, 1, 0), GR_SUCCESS);
  for (gr_vid v = 3002; v < N; v++)
    for (gr_vid k = 0; k < 1 + v % 40; k++) ck_assert_int_eq(gr_coo_push(&c, (v * 7 + k) % N, v, 0), GR_SUCCESS);
  c.n = N;
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  o.duplicates = GR_CLEAN_KEEP;
  o.self_loops = GR_CLEAN_KEEP;
  gr_graph *g = NULL;
  ck_assert_int_eq(gr_graph_from_coo(&g, &c, &o), GR_SUCCESS);
  const gr_csr *in = NULL;
  ck_assert_int_eq(gr_graph_in(g, &in), GR_SUCCESS);
  ck_assert_uint_eq(in->offsets[1] - in->offsets[0], 2 * GR_PR_TILE + 1);
  check_tiles(in);
  gr_graph_destroy(&g);
  const char *tile_specs[] = {"kron:14:16", "uniform:12:8,directed", "grid2d:40x40"};
  for (int i = 0; i < 3; i++) {
    g = gr_test_generated(tile_specs[i]);
    ck_assert_int_eq(gr_graph_in(g, &in), GR_SUCCESS);
    check_tiles(in);
    gr_graph_destroy(&g);
  }
  gr_eid off0[] = {0};
  const gr_csr empty = {0, 0, off0, NULL, NULL, NULL};
  gr_eid nh = 7;
  ck_assert_uint_eq(gr_pr_tiles(&empty, NULL, NULL, NULL, &nh), 0);
  ck_assert_uint_eq(nh, 0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("pr");
  TCase *ref = tcase_create("reference");
  /* The orders' cases generate Kronecker graphs and sort them over the
   * host's threads: about 2 s on a 2-core machine, past Check's default 4 s
   * when other tests share the cores (CI once). */
  tcase_set_timeout(ref, 120);
  tcase_add_test(ref, power_iteration_matches_a_graph_solved_by_hand);
  tcase_add_test(ref, reference_follows_the_damping_of_the_options);
  tcase_add_test(ref, options_refuse_dampings_outside_zero_to_one);
  tcase_add_test(ref, options_take_defaults_and_refuse_bad_tolerances);
  tcase_add_test(ref, validator_rejects_each_kind_of_wrong_answer);
  tcase_add_test(ref, relabel_order_ranks_sources_by_in_edges_fed);
  tcase_add_test(ref, relabel_order_from_a_sample_keeps_the_hubs_first);
  tcase_add_test(ref, pull_tiles_cover_every_in_edge_once);
  suite_add_tcase(s, ref);
  TCase *one = tcase_create("single_device");
  tcase_set_timeout(one, 300);
  tcase_add_test(one, one_device_pull_and_push_equal_reference);
  tcase_add_test(one, iteration_limit_and_graphs_without_arcs);
  suite_add_tcase(s, one);
  TCase *multi = tcase_create("multi_device");
  tcase_set_timeout(multi, 900);
  tcase_add_test(multi, several_devices_equal_one_device);
  tcase_add_test(multi, pull_moves_one_float_per_copy_and_iteration);
  tcase_add_test(multi, other_dampings_equal_reference_on_one_and_several_devices);
  suite_add_tcase(s, multi);
  return gr_test_run_suite(s, 0);
}
