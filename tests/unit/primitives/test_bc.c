/* SPDX-License-Identifier: Apache-2.0 */
/* BC: the serial Brandes reference on graphs solved by hand (one source,
 * all sources, --normalize), the validator against each kind of wrong
 * answer; the primitive on one CPU device against the reference (one
 * source, several, sources without out-edges); on 2-4 CPU devices through
 * the multi-device layer against one device under every partitioner, proxy
 * and exchange mode; bad sources. Beyond double: a 600 x 600 grid, whose
 * corner-to-corner path count C(1198, 599) ~ 10^359 overflows double,
 * against the binomial counts, the reference in long double, one device
 * and 2-4 devices. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "bc/bc.h"
#include "comm.h"
#include "gr/enactor.h"
#include "gr/gen.h"
#include "gr/graph.h"
#include "gr/util.h"
#include "partitioner.h"
#include "devices.h"
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

static gr_vid *all_vertices(gr_vid n) {
  gr_vid *s = malloc(sizeof *s * n);
  for (gr_vid v = 0; v < n; v++) s[v] = v;
  return s;
}

/* The path 0 - 1 - 2 - 3 - 4. From 0 alone the dependencies are 3, 2, 1
 * behind the source; over all sources vertex 1 lies on the pairs (0, 2),
 * (0, 3), (0, 4) both ways (6), vertex 2 on four pairs both ways (8);
 * normalized by 4 x 3 ordered pairs: 0.5, 0.667, 0.5 (networkx's). */
START_TEST(reference_on_a_path) {
  const gr_vid e[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}};
  gr_graph *g = from_edges(5, e, 4, true);
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_run_args a = {0, 0, NULL, 0};
  gr_result ref = GR_RESULT_INIT;
  ck_assert_int_eq(gr_bc_reference(g, &a, &o, &ref), GR_SUCCESS);
  const double one[] = {0, 3, 2, 1, 0};
  const double *x = ref.values;
  for (int v = 0; v < 5; v++) ck_assert_double_eq(x[v], one[v]);
  const gr_svid *depth = ref.aux_values[0];
  const double *sigma = ref.aux_values[1];
  for (int v = 0; v < 5; v++) {
    ck_assert_int_eq(depth[v], v);
    ck_assert_double_eq(sigma[v], 1.0);
  }
  ck_assert_double_eq(ref.extra.numbers[1], 5); /* levels */
  gr_result_free(&ref);
  gr_vid *all = all_vertices(5);
  a.sources = all;
  a.n_sources = 5;
  ck_assert_int_eq(gr_bc_reference(g, &a, &o, &ref), GR_SUCCESS);
  const double every[] = {0, 6, 8, 6, 0};
  x = ref.values;
  for (int v = 0; v < 5; v++) ck_assert_double_eq(x[v], every[v]);
  ck_assert_int_eq(((const gr_svid *)ref.aux_values[0])[0], 4); /* from the last source, 4 */
  gr_result_free(&ref);
  o.normalize = true;
  ck_assert_int_eq(gr_bc_reference(g, &a, &o, &ref), GR_SUCCESS);
  x = ref.values;
  for (int v = 0; v < 5; v++) ck_assert_double_eq_tol(x[v], every[v] / 12.0, 1e-15);
  gr_result_free(&ref);
  /* Two of five sources stand for all five: the sums scale by 5/2. */
  a.n_sources = 2;
  ck_assert_int_eq(gr_bc_reference(g, &a, &o, &ref), GR_SUCCESS);
  x = ref.values;
  ck_assert_double_eq_tol(x[1], (3.0 + 0.0) * 2.5 / 12.0, 1e-15); /* from 0: 3, from 1: none */
  ck_assert_double_eq_tol(x[2], (2.0 + 2.0) * 2.5 / 12.0, 1e-15);
  gr_result_free(&ref);
  free(all);
  ck_assert_double_eq(gr_bc_normalizer(2, 2), 1.0);
  gr_graph_destroy(&g);
}
END_TEST

/* 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3, 3 -> 4: two shortest paths to 3 and to
 * 4; 3 carries 4's dependency (1), 1 and 2 half of 3's and 4's each. */
START_TEST(reference_on_a_directed_diamond) {
  const gr_vid e[][2] = {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}};
  gr_graph *g = from_edges(5, e, 5, false);
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_run_args a = {0, 0, NULL, 0};
  gr_result ref = GR_RESULT_INIT;
  ck_assert_int_eq(gr_bc_reference(g, &a, &o, &ref), GR_SUCCESS);
  const double want[] = {0, 1, 1, 1, 0};
  const gr_svid depth[] = {0, 1, 1, 2, 3};
  const double sigma[] = {1, 1, 1, 2, 2};
  for (int v = 0; v < 5; v++) {
    ck_assert_double_eq(((const double *)ref.values)[v], want[v]);
    ck_assert_int_eq(((const gr_svid *)ref.aux_values[0])[v], depth[v]);
    ck_assert_double_eq(((const double *)ref.aux_values[1])[v], sigma[v]);
  }
  gr_result_free(&ref);
  /* From 4 nothing is reached. */
  a.source = 4;
  ck_assert_int_eq(gr_bc_reference(g, &a, &o, &ref), GR_SUCCESS);
  for (int v = 0; v < 5; v++) {
    ck_assert_double_eq(((const double *)ref.values)[v], 0.0);
    ck_assert_int_eq(((const gr_svid *)ref.aux_values[0])[v], v == 4 ? 0 : -1);
  }
  gr_result_free(&ref);
  a.source = 5;
  ck_assert_int_eq(gr_bc_reference(g, &a, &o, &ref), GR_ERR_INVALID_ARG);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(validator_rejects_each_kind_of_wrong_answer) {
  gr_graph *g = gr_test_generated("kron:10:8");
  const gr_vid n = gr_graph_num_vertices(g);
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  /* Three sources with out-edges, so that some vertex has a large sum. */
  gr_vid src[3];
  int k = 0;
  const gr_csr *c = gr_graph_out(g);
  for (gr_vid v = 5; v < n && k < 3; v += 7)
    if (c->offsets[v + 1] > c->offsets[v]) src[k++] = v;
  ck_assert_int_eq(k, 3);
  gr_run_args a = {src[0], 0, src, 3};
  gr_result ref = GR_RESULT_INIT, r = GR_RESULT_INIT;
  ck_assert_int_eq(gr_bc_reference(g, &a, &o, &ref), GR_SUCCESS);
  ck_assert_int_eq(gr_bc_reference(g, &a, &o, &r), GR_SUCCESS);
  ck_assert_msg(gr_bc_validate(g, &a, &o, &r, &ref) == GR_SUCCESS, "%s", gr_error_message());
  ck_assert_msg(gr_bc_validate(g, &a, &o, &r, NULL) == GR_SUCCESS, "%s", gr_error_message());
  double *x = r.values;
  gr_vid top = 0;
  for (gr_vid v = 1; v < n; v++) top = x[v] > x[top] ? v : top;
  ck_assert(x[top] > 1);
  const double keep = x[top];
  x[top] = keep * (1 + 1e-7); /* within the tolerance */
  ck_assert_msg(gr_bc_validate(g, &a, &o, &r, &ref) == GR_SUCCESS, "%s", gr_error_message());
  x[top] = keep * (1 + 1e-5);
  ck_assert_int_eq(gr_bc_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "the reference gives"));
  x[top] = -keep;
  ck_assert_int_eq(gr_bc_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "at least 0"));
  x[top] = NAN;
  ck_assert_int_eq(gr_bc_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
  x[top] = keep;
  /* A vertex of centrality 0 may be off by 1e-9, not more. */
  gr_vid zero = n;
  for (gr_vid v = 0; v < n && zero == n; v++)
    if (((const double *)ref.values)[v] == 0) zero = v;
  ck_assert_uint_lt(zero, n);
  x[zero] = 5e-10;
  ck_assert_msg(gr_bc_validate(g, &a, &o, &r, &ref) == GR_SUCCESS, "%s", gr_error_message());
  x[zero] = 1e-8;
  ck_assert_int_eq(gr_bc_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
  x[zero] = 0;
  /* Depths and counts of the last source, exact. */
  gr_svid *depth = r.aux_values[0];
  double *sigma = r.aux_values[1];
  gr_vid far = 0;
  for (gr_vid v = 0; v < n; v++) far = depth[v] > depth[far] ? v : far;
  depth[far]++;
  ck_assert_int_eq(gr_bc_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "depth"));
  depth[far]--;
  sigma[far] += 1;
  ck_assert_int_eq(gr_bc_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "shortest paths"));
  sigma[far] -= 1;
  ck_assert_msg(gr_bc_validate(g, &a, &o, &r, &ref) == GR_SUCCESS, "%s", gr_error_message());
  /* Without them, or of the wrong type. */
  gr_aux_spec none = {0, {NULL}, {GR_VALUE_SVID}};
  ck_assert_int_eq(gr_result_aux(&r, &none), GR_SUCCESS);
  ck_assert_int_eq(gr_bc_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "no depths"));
  gr_result f = GR_RESULT_INIT;
  ck_assert_int_eq(gr_result_alloc(&f, n, GR_VALUE_FLOAT, false), GR_SUCCESS);
  ck_assert_int_eq(gr_bc_validate(g, &a, &o, &f, &ref), GR_ERR_VALIDATION);
  gr_result_free(&f);
  gr_result_free(&r);
  gr_result_free(&ref);
  gr_graph_destroy(&g);
}
END_TEST

static double extra_number(const gr_result *r, const char *name) {
  for (int i = 0; i < r->extra.n_numbers; i++)
    if (!strcmp(r->extra.number_names[i], name)) return r->extra.numbers[i];
  ck_abort_msg("no extra number %s", name);
  return 0;
}

/* Runs bc twice on the given parts (the second run must not see the
 * first's sums); returns the last run's result. */
static void run_bc(gr_subgraph *const *subs, int devices, int threads, const gr_exchange_ops *ex, void *shared,
                   const gr_prim_options *o, const gr_run_args *a, gr_result *out) {
  gr_enactor_config cfg = {.prim = &gr_bc_primitive,
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
  for (int k = 0; k < 2; k++) {
    gr_run_stats st;
    ck_assert_msg(gr_enactor_run(e, a, &st) == GR_SUCCESS, "%s", gr_error_message());
    ck_assert_int_eq(st.status, GR_SUCCESS);
    gr_run_stats_free(&st);
    ck_assert_int_eq(gr_enactor_extract_reuse(e, out), GR_SUCCESS);
  }
  gr_enactor_destroy(&e);
}

static const char *const specs[] = {"kron:10:8", "uniform:9:4,directed", "grid2d:12x17", "kron:9:4,directed"};
enum { N_SPECS = sizeof specs / sizeof specs[0] };

/* One device takes small levels in device-side loops (forward and
 * backward) and large ones level by level: every level in the loops (the
 * defaults, on these small graphs), none, and a mix with the hand-overs
 * between the two ways both directions. */
static const char *const tunings[] = {"", "small=off", "small-vertices=64,small-degree=16"};
enum { N_TUNINGS = sizeof tunings / sizeof tunings[0] };

static gr_prim_options options_tuned(const char *tune) {
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  if (*tune) ck_assert_int_eq(gr_tuning_parse(&o.tune, tune), GR_SUCCESS);
  return o;
}

START_TEST(one_device_equals_reference) {
  for (int i = 0; i < N_SPECS; i++) {
    gr_graph *g = gr_test_generated(specs[i]);
    const gr_vid n = gr_graph_num_vertices(g);
    gr_subgraph *sub = NULL;
    ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
    gr_vid *all = all_vertices(n);
    /* One source; eight; every vertex (sources without out-edges too),
     * normalized. */
    const gr_vid counts[] = {1, 8, n};
    for (int t = 0; t < N_TUNINGS; t++)
    for (int c = 0; c < 3; c++)
      for (int threads = t ? 3 : 1; threads <= 3; threads += 2) {
        gr_prim_options o = options_tuned(tunings[t]);
        o.normalize = c == 2;
        /* Eight sources: packed lists. */
        o.compress = c == 1 ? GR_COMPRESS_PACKED : GR_COMPRESS_NONE;
        gr_vid *src = c == 2 ? all : malloc(sizeof *src * counts[c]);
        if (c < 2)
          for (gr_vid k = 0; k < counts[c]; k++) src[k] = (gr_vid)((k * 7919u + 11u * (gr_vid)i) % n);
        gr_run_args a = {src[0], 0, src, counts[c]};
        gr_result r = GR_RESULT_INIT;
        run_bc(&sub, 1, threads, NULL, NULL, &o, &a, &r);
        ck_assert_msg(gr_bc_validate(g, &a, &o, &r, NULL) == GR_SUCCESS, "%s, %llu sources, %d threads, '%s'%s: %s",
                      specs[i], (unsigned long long)counts[c], threads, tunings[t],
                      c == 1 ? ", packed lists" : "", gr_error_message());
        ck_assert_double_eq(r.extra.numbers[0], (double)counts[c]);
        gr_result_free(&r);
        if (c < 2) free(src);
      }
    free(all);
    gr_subgraph_destroy(&sub);
    gr_graph_destroy(&g);
  }
}
END_TEST

/* Sources without out-edges, isolated vertices and a source whose whole
 * reach is one level: runs of zero or one backward level. */
START_TEST(trivial_sources_and_isolated_vertices) {
  const gr_vid e[][2] = {{0, 1}, {0, 2}, {3, 0}};
  gr_graph *g = from_edges(6, e, 3, false);
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
  gr_vid src[] = {1, 0, 5, 3, 4};
  /* In double, and as logarithms from the start (a level of one vertex,
   * ln 1 = 0, and nothing reached: -inf everywhere but the source). */
  for (int logs = 0; logs <= 1; logs++)
    for (gr_vid k = 1; k <= 5; k++) {
      gr_prim_options o = GR_PRIM_OPTIONS_INIT;
      if (logs) ck_assert_int_eq(gr_tuning_parse(&o.tune, "bc-counts=log"), GR_SUCCESS);
      gr_run_args a = {src[0], 0, src, k};
      gr_result r = GR_RESULT_INIT;
      run_bc(&sub, 1, 2, NULL, NULL, &o, &a, &r);
      ck_assert_msg(gr_bc_validate(g, &a, &o, &r, NULL) == GR_SUCCESS, "%llu sources%s: %s", (unsigned long long)k,
                    logs ? " as logarithms" : "", gr_error_message());
      /* Only 3 -> 0 -> {1, 2} passes through a vertex: 0, twice from 3. */
      ck_assert_double_eq(((const double *)r.values)[0], k >= 4 ? 2.0 : 0.0);
      ck_assert_double_eq(extra_number(&r, "log_sources"), logs ? (double)k : 0.0);
      gr_result_free(&r);
    }
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
  static const gr_comm_mode modes[] = {GR_COMM_SELECTIVE, GR_COMM_BROADCAST};
  for (int i = 0; i < N_SPECS; i++) {
    gr_graph *g = gr_test_generated(specs[i]);
    const gr_vid n = gr_graph_num_vertices(g);
    gr_subgraph *sub = NULL;
    ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
    gr_vid src[3];
    for (int k = 0; k < 3; k++) src[k] = (gr_vid)((k * 131u + 7u) % n);
    gr_run_args a = {src[0], 0, src, 3};
    gr_prim_options o = GR_PRIM_OPTIONS_INIT;
    gr_result expect = GR_RESULT_INIT;
    run_bc(&sub, 1, 1, NULL, NULL, &o, &a, &expect);
    gr_subgraph_destroy(&sub);
    const double *y = expect.values;
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
          for (size_t w = 0; w < sizeof modes / sizeof modes[0]; w++) {
            gr_comm_options co = {modes[w], GR_TRANSPORT_HOST, GR_COMM_FORMAT_AUTO, NULL};
            gr_comm *comm = NULL;
            ck_assert_int_eq(gr_comm_create(&comm, GR_BACKEND_CPU, devices, &co), GR_SUCCESS);
            gr_result r = GR_RESULT_INIT;
            /* Three devices hold their lists packed. */
            gr_prim_options ok = o;
            ok.compress = devices == 3 ? GR_COMPRESS_PACKED : GR_COMPRESS_NONE;
            run_bc(subs, devices, 1, &gr_comm_exchange_ops, comm, &ok, &a, &r);
            gr_comm_destroy(&comm);
            char what[200];
            snprintf(what, sizeof what, "%s, %d devices%s, %s, %s proxies, %s", specs[i], devices,
                     devices == 3 ? " (packed lists)" : "",
                     gr_partitioner_name(kinds[p]), proxies[x] == GR_PROXY_1HOP ? "1hop" : "all",
                     gr_comm_mode_name(modes[w]));
            const double *got = r.values;
            for (gr_vid v = 0; v < n; v++) {
              ck_assert_msg(fabs(got[v] - y[v]) <= 1e-9 * y[v] + 1e-12, "%s: vertex %llu: %.17g, one device %.17g",
                            what, (unsigned long long)v, got[v], y[v]);
              ck_assert_msg(((const gr_svid *)r.aux_values[0])[v] == ((const gr_svid *)expect.aux_values[0])[v],
                            "%s: depth of %llu", what, (unsigned long long)v);
              ck_assert_msg(((const double *)r.aux_values[1])[v] == ((const double *)expect.aux_values[1])[v],
                            "%s: paths to %llu", what, (unsigned long long)v);
            }
            ck_assert_msg(gr_bc_validate(g, &a, &o, &r, NULL) == GR_SUCCESS, "%s: %s", what, gr_error_message());
            gr_result_free(&r);
          }
          gr_subgraphs_destroy(&subs, devices);
        }
        gr_partition_destroy(&part);
      }
    }
    gr_result_free(&expect);
    gr_graph_destroy(&g);
  }
}
END_TEST

/* Between devices the coefficients and centralities are held for the
 * owned vertices only, a send list starts at an even share of the output
 * over the peers, what travels is read from the counts and sums
 * themselves (no array of its own), the offsets stop after the owned rows,
 * and neither the global ids (BC reads none on a device) nor the owner
 * table (the exchange reads the 1-hop layout's runs) reach the device,
 * nor the copies' ids on their owners (messages carry positions in the
 * border lists), a list of the copies (a range of ids) or a receive buffer
 * for the refresh (its values land in the copies' slots), and a level
 * that sends most copies sends them as dense messages by position (8 bytes
 * and a bit a copy, not 16-byte records): on 4 devices each device's peak
 * is at most 0.375 of one device's on Kronecker 16 (0.369; 0.379 with
 * records only, 0.407 with the table, the list and the buffer, 0.426 with the
 * two tables too, 0.444 with the copies' rows too, 0.502 before the queues
 * were two, 0.59 with coefficients and centralities per local vertex). */
START_TEST(memory_per_device_on_four_cpu_devices) {
  gr_graph *g = gr_test_generated("kron:16:16");
  /* 1-hop proxies, as BC's default takes them. */
  gr_test_check_peak_on_four(g, &gr_bc_primitive, GR_PROXY_1HOP, true, 1, GR_VID_BITS == 64 ? 0.385 : 0.375);
  gr_graph_destroy(&g);
}
END_TEST

/* A grid of r x c from corner 0: vertex (i, j) = i * c + j lies at depth
 * i + j with C(i + j, i) shortest paths. */
static double ln_binomial(int n, int k) { return lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0); }

enum { GRID = 600 };

/* The reference beyond double: its counts (as logarithms) are the
 * binomials; its dependencies from a corner sum to the pairs' interior
 * vertices, sum over t of (depth(t) - 1), and are symmetric under the
 * grid's transpose. In double the same source gives infinities. */
START_TEST(reference_beyond_double) {
  gr_graph *g = gr_test_generated("grid2d:600x600");
  const gr_vid n = gr_graph_num_vertices(g);
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_run_args a = {0, 0, NULL, 0};
  gr_result ref = GR_RESULT_INIT;
  ck_assert_msg(gr_bc_reference(g, &a, &o, &ref) == GR_SUCCESS, "%s", gr_error_message());
  ck_assert_double_eq(extra_number(&ref, "sigma_log"), 1.0);
  ck_assert_double_eq(extra_number(&ref, "log_sources"), 1.0);
  ck_assert_double_eq(extra_number(&ref, "levels"), 2.0 * GRID - 1);
  const gr_svid *depth = ref.aux_values[0];
  const double *lsigma = ref.aux_values[1], *bc = ref.values;
  /* The far corner has more paths than double holds. */
  ck_assert(ln_binomial(2 * GRID - 2, GRID - 1) > log(DBL_MAX));
  double pairs = 0, sum = 0;
  for (int i = 0; i < GRID; i++)
    for (int j = 0; j < GRID; j++) {
      const gr_vid v = (gr_vid)i * GRID + (gr_vid)j, t = (gr_vid)j * GRID + (gr_vid)i;
      ck_assert_int_eq(depth[v], i + j);
      const double want = ln_binomial(i + j, i);
      ck_assert_msg(fabs(lsigma[v] - want) <= 1e-9 * (1 + want), "ln sigma of (%d, %d): %.17g, binomial %.17g", i, j,
                    lsigma[v], want);
      ck_assert_msg(fabs(bc[v] - bc[t]) <= 1e-9 * bc[v] + 1e-9, "(%d, %d) and its transpose: %.17g, %.17g", i, j,
                    bc[v], bc[t]);
      if (v) pairs += depth[v] - 1;
      sum += bc[v];
    }
  ck_assert_msg(fabs(sum - pairs) <= 1e-9 * pairs, "dependencies sum to %.17g, pairs' interiors %.17g", sum, pairs);
  for (gr_vid v = 0; v < n; v++) ck_assert(isfinite(bc[v]) && bc[v] >= 0);
  gr_result_free(&ref);
  gr_graph_destroy(&g);
}
END_TEST

/* The reference's two ways answer alike: a source per thread (each the
 * serial pass) and one source at a time with each level over all the
 * threads (what a validated run's one source takes). Over an undirected
 * Kronecker graph, a directed graph with many small levels, a grid, and
 * layers of 256 vertices each joined to every vertex of the next, whose
 * counts pass 2^53 on levels wide enough for every thread (added in any
 * order there, so within 1e-12): the centralities of four sources, the
 * last source's depths and counts. */
START_TEST(reference_levels_over_threads_equal_serial_sources) {
#ifdef _OPENMP
  const int had = omp_get_max_threads();
  omp_set_num_threads(4);
#endif
  const int k = gr_host_threads();
  gr_graph *graphs[4] = {gr_test_generated("kron:12:8"), NULL, gr_test_generated("grid2d:120x120"), NULL};
  enum { WIDTH = 256, LAYERS = 10 };
  gr_vid(*layered)[2] = malloc(sizeof *layered * WIDTH * WIDTH * (LAYERS - 1));
  int arcs = 0;
  for (gr_vid l = 0; l + 1 < LAYERS; l++)
    for (gr_vid i = 0; i < WIDTH; i++)
      for (gr_vid j = 0; j < WIDTH; j++) {
        layered[arcs][0] = l * WIDTH + i;
        layered[arcs++][1] = (l + 1) * WIDTH + j;
      }
  graphs[3] = from_edges(WIDTH * LAYERS, (const gr_vid(*)[2])layered, arcs, true);
  free(layered);
  /* A directed graph: a long chain with random shortcuts forward and back. */
  enum { CHAIN = 3000 };
  static gr_vid e[CHAIN + 2 * CHAIN][2];
  int m = 0;
  uint64_t x = 88172645463325252ull;
  for (gr_vid v = 0; v + 1 < CHAIN; v++) {
    e[m][0] = v;
    e[m++][1] = v + 1;
    for (int j = 0; j < 2; j++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      e[m][0] = v;
      e[m++][1] = (gr_vid)(x % CHAIN);
    }
  }
  graphs[1] = from_edges(CHAIN, (const gr_vid(*)[2])e, m, false);
  for (int gi = 0; gi < 4; gi++) {
    gr_graph *g = graphs[gi];
    const gr_vid n = gr_graph_num_vertices(g);
    const gr_csr *c = gr_graph_out(g);
    gr_vid src[16];
    int have = 0;
    for (gr_vid v = 1; v < n && have < k && have < 16; v += 37)
      if (c->offsets[v + 1] > c->offsets[v]) src[have++] = v;
    ck_assert_int_eq(have, k < 16 ? k : 16);
    gr_prim_options o = GR_PRIM_OPTIONS_INIT;
    gr_run_args all = {src[0], 0, src, (gr_vid)have};
    gr_result whole = GR_RESULT_INIT;
    ck_assert_msg(gr_bc_reference(g, &all, &o, &whole) == GR_SUCCESS, "%s", gr_error_message());
    double *sum = calloc(n, sizeof *sum);
    gr_result one = GR_RESULT_INIT;
    for (int i = 0; i < have; i++) {
      gr_result_free(&one);
      gr_run_args a = {src[i], 0, NULL, 0};
      ck_assert_msg(gr_bc_reference(g, &a, &o, &one) == GR_SUCCESS, "%s", gr_error_message());
      for (gr_vid v = 0; v < n; v++) sum[v] += ((const double *)one.values)[v];
    }
    const double *want = whole.values;
    for (gr_vid v = 0; v < n; v++)
      ck_assert_msg(fabs(sum[v] - want[v]) <= 1e-12 * fabs(want[v]) + 1e-12,
                    "graph %d, vertex %llu: %.17g by levels, %.17g by sources", gi, (unsigned long long)v, sum[v],
                    want[v]);
    const gr_svid *d1 = one.aux_values[0], *dw = whole.aux_values[0];
    const double *s1 = one.aux_values[1], *sw = whole.aux_values[1];
    for (gr_vid v = 0; v < n; v++) {
      ck_assert_int_eq(d1[v], dw[v]);
      ck_assert_msg(sw[v] < 9007199254740992.0 ? s1[v] == sw[v] : fabs(s1[v] - sw[v]) <= 1e-12 * sw[v],
                    "graph %d, vertex %llu: %.17g paths by levels, %.17g by sources", gi, (unsigned long long)v, s1[v],
                    sw[v]);
    }
    ck_assert_double_eq(extra_number(&one, "levels"), extra_number(&whole, "levels"));
    if (gi == 3) {
      double most = 0;
      for (gr_vid v = 0; v < n; v++) most = sw[v] > most ? sw[v] : most;
      ck_assert_msg(most > 9007199254740992.0, "the layers' counts stay below 2^53 (%g)", most);
    }
    free(sum);
    gr_result_free(&one);
    gr_result_free(&whole);
    gr_graph_destroy(&g);
  }
#ifdef _OPENMP
  omp_set_num_threads(had);
#endif
}
END_TEST

/* The run's result against the reference's: centralities within the BC
 * tolerance, depths equal, the last source's counts as logarithms (or
 * numbers) within GR_BC_LOG_SIGMA_TOL; returns the largest difference of
 * ln sigma seen. */
static double assert_beyond_double_matches(const gr_result *r, const gr_result *y, const char *what) {
  const gr_vid n = r->n;
  const bool lr = extra_number(r, "sigma_log") != 0, ly = extra_number(y, "sigma_log") != 0;
  const double *x = r->values, *z = y->values;
  const double *sx = r->aux_values[1], *sy = y->aux_values[1];
  double worst = 0;
  for (gr_vid v = 0; v < n; v++) {
    ck_assert_msg(fabs(x[v] - z[v]) <= GR_BC_REL_TOL * z[v] + GR_BC_ABS_TOL, "%s: vertex %llu: %.17g, expected %.17g",
                  what, (unsigned long long)v, x[v], z[v]);
    ck_assert_msg(((const gr_svid *)r->aux_values[0])[v] == ((const gr_svid *)y->aux_values[0])[v], "%s: depth of %llu",
                  what, (unsigned long long)v);
    const double a = lr ? sx[v] : log(sx[v]), b = ly ? sy[v] : log(sy[v]);
    if (isinf(a) || isinf(b)) {
      ck_assert_msg(a == b, "%s: paths to %llu", what, (unsigned long long)v);
      continue;
    }
    ck_assert_msg(fabs(a - b) <= GR_BC_LOG_SIGMA_TOL, "%s: ln paths to %llu: %.17g, expected %.17g", what,
                  (unsigned long long)v, a, b);
    worst = fabs(a - b) > worst ? fabs(a - b) : worst;
  }
  return worst;
}

/* One CPU device beyond double: a corner (counts outgrow double: the run
 * takes it again as logarithms), the centre (it does not) and the far
 * corner, so that the mode changes both ways inside a run; the validator
 * holds the run to the long double reference. */
START_TEST(one_device_beyond_double) {
  gr_graph *g = gr_test_generated("grid2d:600x600");
  const gr_vid n = gr_graph_num_vertices(g);
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
  gr_vid src[] = {0, (gr_vid)(GRID / 2) * GRID + GRID / 2, n - 1};
  /* The loops throughout (the overflow stops the forward one); none (found
   * at the end of the pass); the corner's levels of more than 200 vertices
   * level by level, so the overflow (near level 960, of 237 vertices) is
   * raised outside the loop and found when the loop is refused. */
  static const struct {
    int threads;
    const char *tune;
  } ways[] = {{1, ""}, {3, "small=off"}, {3, "small-vertices=200"}};
  for (int k = 1; k <= 3; k += 2)
    for (size_t wi = 0; wi < sizeof ways / sizeof ways[0]; wi++) {
      const int threads = ways[wi].threads;
      gr_prim_options o = options_tuned(ways[wi].tune);
      /* Three sources: packed lists (the log-space loops decode too). */
      o.compress = k == 3 ? GR_COMPRESS_PACKED : GR_COMPRESS_NONE;
      gr_run_args a = {src[0], 0, src, (gr_vid)k};
      gr_result r = GR_RESULT_INIT, ref = GR_RESULT_INIT;
      run_bc(&sub, 1, threads, NULL, NULL, &o, &a, &r);
      ck_assert_msg(gr_bc_reference(g, &a, &o, &ref) == GR_SUCCESS, "%s", gr_error_message());
      ck_assert_msg(gr_bc_validate(g, &a, &o, &r, &ref) == GR_SUCCESS, "%d sources, %d threads, '%s': %s", k, threads,
                    ways[wi].tune, gr_error_message());
      ck_assert_double_eq(extra_number(&r, "log_sources"), k == 1 ? 1.0 : 2.0);
      ck_assert_double_eq(extra_number(&r, "sigma_log"), 1.0);
      const double worst = assert_beyond_double_matches(&r, &ref, "one device");
      /* The log-adds' rounding over 1,199 levels: far inside the tolerance. */
      ck_assert_msg(worst < 1e-9, "ln sigma off by %g", worst);
      /* The opposite corner's count: C(1198, 599), about 10^359. */
      const double *ls = r.aux_values[1];
      const gr_vid far = src[k - 1] == 0 ? n - 1 : 0;
      ck_assert_msg(fabs(ls[far] - ln_binomial(2 * GRID - 2, GRID - 1)) < 1e-9, "%.17g", ls[far]);
      for (gr_vid v = 0; v < n; v++) ck_assert(isfinite(((const double *)r.values)[v]));
      /* Held as numbers, the same counts fail the validator. */
      r.extra.numbers[4] = 0.0;
      ck_assert_str_eq(r.extra.number_names[4], "sigma_log");
      ck_assert_int_eq(gr_bc_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
      ck_assert_ptr_nonnull(strstr(gr_error_message(), "shortest paths"));
      r.extra.numbers[4] = 1.0;
      /* A count off by 1e-5 relative is refused; 1e-8 passes. */
      double *lsw = r.aux_values[1];
      lsw[n / 2] += 1e-5;
      ck_assert_int_eq(gr_bc_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
      lsw[n / 2] -= 1e-5 - 1e-8;
      ck_assert_msg(gr_bc_validate(g, &a, &o, &r, &ref) == GR_SUCCESS, "%s", gr_error_message());
      gr_result_free(&r);
      gr_result_free(&ref);
    }
  gr_subgraph_destroy(&sub);
  gr_graph_destroy(&g);
}
END_TEST

/* 2-4 CPU devices beyond double, every partitioner, proxy mode and
 * exchange mode: the one device's answer (counts combined by LOGADD
 * between devices, in another order), and the reference's. */
START_TEST(several_devices_beyond_double) {
  static const gr_partitioner_kind kinds[] = {GR_PART_RANDOM, GR_PART_BIASED,
#ifdef GR_HAVE_METIS
                                              GR_PART_METIS,
#endif
                                              GR_PART_STATIC, GR_PART_RANGE};
  static const gr_proxy_mode proxies[] = {GR_PROXY_ALL, GR_PROXY_1HOP};
  static const gr_comm_mode modes[] = {GR_COMM_SELECTIVE, GR_COMM_BROADCAST};
  gr_graph *g = gr_test_generated("grid2d:600x600");
  const gr_vid n = gr_graph_num_vertices(g);
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
  gr_vid src[] = {n - 1, (gr_vid)(GRID / 3) * GRID + GRID / 2, GRID - 1};
  gr_run_args a = {src[0], 0, src, 3};
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_result expect = GR_RESULT_INIT, ref = GR_RESULT_INIT;
  run_bc(&sub, 1, 2, NULL, NULL, &o, &a, &expect);
  gr_subgraph_destroy(&sub);
  ck_assert_msg(gr_bc_reference(g, &a, &o, &ref) == GR_SUCCESS, "%s", gr_error_message());
  ck_assert_msg(gr_bc_validate(g, &a, &o, &expect, &ref) == GR_SUCCESS, "one device: %s", gr_error_message());
  ck_assert_double_eq(extra_number(&expect, "log_sources"), 2.0);
#ifdef GR_TEST_SANITIZED
  /* Sanitized builds run this ten times slower: 2 devices, the first and
   * last partitioners (the plain build runs the whole matrix). */
  const int most = 2;
#else
  const int most = 4;
#endif
  for (int devices = 2; devices <= most; devices++) {
    for (size_t p = 0; p < sizeof kinds / sizeof kinds[0]; p++) {
#ifdef GR_TEST_SANITIZED
      if (p != 0 && p + 1 != sizeof kinds / sizeof kinds[0]) continue;
#endif
      gr_partition_options po = GR_PARTITION_OPTIONS_INIT;
      po.kind = kinds[p];
      po.parts = devices;
      po.threads = 1;
      gr_partition *part = NULL;
      ck_assert_msg(gr_partition_create(&part, g, &po) == GR_SUCCESS, "%s", gr_error_message());
      for (size_t x = 0; x < sizeof proxies / sizeof proxies[0]; x++) {
        gr_subgraph **subs = NULL;
        ck_assert_int_eq(gr_subgraphs_build(&subs, g, part, proxies[x], true, false), GR_SUCCESS);
        for (size_t w = 0; w < sizeof modes / sizeof modes[0]; w++) {
          gr_comm_options co = {modes[w], GR_TRANSPORT_HOST, GR_COMM_FORMAT_AUTO, NULL};
          gr_comm *comm = NULL;
          ck_assert_int_eq(gr_comm_create(&comm, GR_BACKEND_CPU, devices, &co), GR_SUCCESS);
          gr_result r = GR_RESULT_INIT;
          run_bc(subs, devices, 1, &gr_comm_exchange_ops, comm, &o, &a, &r);
          gr_comm_destroy(&comm);
          char what[200];
          snprintf(what, sizeof what, "grid2d:600x600, %d devices, %s, %s proxies, %s", devices,
                   gr_partitioner_name(kinds[p]), proxies[x] == GR_PROXY_1HOP ? "1hop" : "all",
                   gr_comm_mode_name(modes[w]));
          ck_assert_double_eq(extra_number(&r, "log_sources"), 2.0);
          ck_assert_double_eq(extra_number(&r, "sigma_log"), 1.0);
          assert_beyond_double_matches(&r, &expect, what);
          ck_assert_msg(gr_bc_validate(g, &a, &o, &r, &ref) == GR_SUCCESS, "%s: %s", what, gr_error_message());
          gr_result_free(&r);
        }
        gr_subgraphs_destroy(&subs, devices);
      }
      gr_partition_destroy(&part);
    }
  }
  gr_result_free(&expect);
  gr_result_free(&ref);
  gr_graph_destroy(&g);
}
END_TEST

/* --tune bc-counts=log: every source counts its paths as logarithms from
 * the start, on graphs whose counts fit double: one device (each way of
 * running levels, one and three threads) and two and three devices
 * (partitioners, proxies, exchanges), held to the reference in double
 * (the validator compares ln sigma with its counts), every source counted
 * as run in logarithms. */
START_TEST(counts_as_logarithms_from_the_start_equal_reference) {
  static const gr_partitioner_kind kinds[] = {GR_PART_RANDOM, GR_PART_RANGE};
  static const gr_proxy_mode proxies[] = {GR_PROXY_ALL, GR_PROXY_1HOP};
  static const gr_comm_mode modes[] = {GR_COMM_SELECTIVE, GR_COMM_BROADCAST};
  for (int i = 0; i < N_SPECS; i++) {
    gr_graph *g = gr_test_generated(specs[i]);
    const gr_vid n = gr_graph_num_vertices(g);
    gr_vid src[3];
    for (int k = 0; k < 3; k++) src[k] = (gr_vid)((k * 977u + 3u * (gr_vid)i) % n);
    gr_subgraph *sub = NULL;
    ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
    for (int t = 0; t < N_TUNINGS; t++)
      for (int threads = 1; threads <= 3; threads += 2) {
        gr_prim_options o = options_tuned(tunings[t]);
        ck_assert_int_eq(gr_tuning_parse(&o.tune, "bc-counts=log"), GR_SUCCESS);
        /* Three sources normalized, or one. */
        o.normalize = threads == 3;
        gr_run_args a = {src[0], 0, src, threads == 3 ? 3 : 1};
        gr_result r = GR_RESULT_INIT;
        run_bc(&sub, 1, threads, NULL, NULL, &o, &a, &r);
        ck_assert_msg(gr_bc_validate(g, &a, &o, &r, NULL) == GR_SUCCESS, "%s, one device, %d threads, '%s': %s",
                      specs[i], threads, tunings[t], gr_error_message());
        ck_assert_double_eq(extra_number(&r, "log_sources"), (double)a.n_sources);
        ck_assert_double_eq(extra_number(&r, "sigma_log"), 1.0);
        gr_result_free(&r);
      }
    gr_subgraph_destroy(&sub);
    for (int devices = 2; devices <= 3; devices++) {
      gr_partition_options po = GR_PARTITION_OPTIONS_INIT;
      po.kind = kinds[devices - 2];
      po.parts = devices;
      po.threads = 1;
      gr_partition *part = NULL;
      ck_assert_msg(gr_partition_create(&part, g, &po) == GR_SUCCESS, "%s", gr_error_message());
      for (size_t x = 0; x < 2; x++) {
        gr_subgraph **subs = NULL;
        ck_assert_int_eq(gr_subgraphs_build(&subs, g, part, proxies[x], true, false), GR_SUCCESS);
        for (size_t w = 0; w < 2; w++) {
          gr_comm_options co = {modes[w], GR_TRANSPORT_HOST, GR_COMM_FORMAT_AUTO, NULL};
          gr_comm *comm = NULL;
          ck_assert_int_eq(gr_comm_create(&comm, GR_BACKEND_CPU, devices, &co), GR_SUCCESS);
          gr_prim_options o = GR_PRIM_OPTIONS_INIT;
          ck_assert_int_eq(gr_tuning_parse(&o.tune, "bc-counts=log"), GR_SUCCESS);
          gr_run_args a = {src[0], 0, src, 3};
          gr_result r = GR_RESULT_INIT;
          run_bc(subs, devices, 1, &gr_comm_exchange_ops, comm, &o, &a, &r);
          gr_comm_destroy(&comm);
          ck_assert_msg(gr_bc_validate(g, &a, &o, &r, NULL) == GR_SUCCESS, "%s, %d devices, %s, %s proxies, %s: %s",
                        specs[i], devices, gr_partitioner_name(kinds[devices - 2]),
                        proxies[x] == GR_PROXY_1HOP ? "1hop" : "all", gr_comm_mode_name(modes[w]),
                        gr_error_message());
          ck_assert_double_eq(extra_number(&r, "log_sources"), 3.0);
          ck_assert_double_eq(extra_number(&r, "sigma_log"), 1.0);
          gr_result_free(&r);
        }
        gr_subgraphs_destroy(&subs, devices);
      }
      gr_partition_destroy(&part);
    }
    gr_graph_destroy(&g);
  }
}
END_TEST

START_TEST(bad_sources_are_refused) {
  gr_graph *g = gr_test_generated("kron:6:4");
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_enactor_config cfg = {.prim = &gr_bc_primitive, .opts = &o, .backend = GR_BACKEND_CPU, .n_devices = 1,
                           .mem = GR_MEM_POLICY_INIT, .subs = &sub};
  gr_enactor *e = NULL;
  ck_assert_int_eq(gr_enactor_create(&e, &cfg), GR_SUCCESS);
  gr_vid src[] = {1, 64};
  gr_run_args a = {1, 0, src, 2};
  gr_run_stats st;
  ck_assert_int_eq(gr_enactor_run(e, &a, &st), GR_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "source 64 outside"));
  a.n_sources = 0;
  ck_assert_int_eq(gr_enactor_run(e, &a, &st), GR_ERR_INVALID_ARG);
  /* The enactor is still good for a correct run. */
  a.n_sources = 1;
  ck_assert_int_eq(gr_enactor_run(e, &a, &st), GR_SUCCESS);
  gr_run_stats_free(&st);
  gr_enactor_destroy(&e);
  gr_subgraph_destroy(&sub);
  gr_graph_destroy(&g);
}
END_TEST

int main(void) {
  Suite *s = suite_create("bc");
  TCase *ref = tcase_create("reference");
  tcase_set_timeout(ref, 300); /* the 600x600 grid's long double reference takes seconds, more under sanitizers */
  tcase_add_test(ref, reference_on_a_path);
  tcase_add_test(ref, reference_on_a_directed_diamond);
  tcase_add_test(ref, validator_rejects_each_kind_of_wrong_answer);
  tcase_add_test(ref, reference_beyond_double);
  tcase_add_test(ref, reference_levels_over_threads_equal_serial_sources);
  suite_add_tcase(s, ref);
  TCase *one = tcase_create("single_device");
  tcase_set_timeout(one, 300);
  tcase_add_test(one, one_device_equals_reference);
  tcase_add_test(one, trivial_sources_and_isolated_vertices);
  tcase_add_test(one, bad_sources_are_refused);
  tcase_add_test(one, one_device_beyond_double);
  suite_add_tcase(s, one);
  TCase *multi = tcase_create("multi_device");
  tcase_set_timeout(multi, 1800);
  tcase_add_test(multi, several_devices_equal_one_device);
  tcase_add_test(multi, several_devices_beyond_double);
  tcase_add_test(multi, counts_as_logarithms_from_the_start_equal_reference);
  suite_add_tcase(s, multi);
  TCase *mem = tcase_create("memory");
  tcase_set_timeout(mem, 300);
  tcase_add_test(mem, memory_per_device_on_four_cpu_devices);
  suite_add_tcase(s, mem);
  return gr_test_run_suite(s, 0);
}
