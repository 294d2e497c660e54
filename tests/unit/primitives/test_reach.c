/* SPDX-License-Identifier: Apache-2.0 */
/* Reach (the template primitive): the serial reference and the validator,
 * the primitive on one CPU device against the reference, and on 2-4 CPU
 * devices through the multi-device layer against one device under every
 * partitioner, proxy mode and exchange mode. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "_template/reach.h"
#include "comm.h"
#include "gr/enactor.h"
#include "gr/gen.h"
#include "gr/graph.h"
#include "partitioner.h"
#include "subgraph_builder.h"
#include "testutil.h"

enum { N_SOURCES = 4 };

/* Directed: 0 -> 1 -> 2 -> 0 (a cycle), 2 -> 3, 4 -> 0, and 5 isolated. */
static gr_graph *small_graph(void) {
  gr_coo c = GR_COO_INIT;
  ck_assert_int_eq(gr_coo_reserve(&c, 5, false), GR_SUCCESS);
  gr_vid e[][2] = {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {4, 0}};
  for (int i = 0; i < 5; i++) ck_assert_int_eq(gr_coo_push(&c, e[i][0], e[i][1], 0), GR_SUCCESS);
  c.n = 6;
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  gr_graph *g = NULL;
  ck_assert_int_eq(gr_graph_from_coo(&g, &c, &o), GR_SUCCESS);
  return g;
}

/* Spread over the ids, so directed graphs give both large and small
 * reached sets. */
static gr_vid source_of(const gr_graph *g, int k) {
  return (gr_vid)(((uint64_t)k * 7919u) % gr_graph_num_vertices(g));
}

START_TEST(reference_follows_out_edges_only) {
  gr_graph *g = small_graph();
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_run_args a = {1, 0, NULL, 0};
  gr_result r;
  ck_assert_int_eq(gr_reach_reference(g, &a, &o, &r), GR_SUCCESS);
  /* 4 reaches 0 but is not reached from 1; 5 has no edges. */
  gr_svid expect[] = {1, 1, 1, 1, -1, -1};
  for (int v = 0; v < 6; v++) ck_assert_int_eq(((gr_svid *)r.values)[v], expect[v]);
  ck_assert_int_eq(gr_reach_validate(g, &a, &o, &r, &r), GR_SUCCESS);
  ck_assert_int_eq(gr_reach_validate(g, &a, &o, &r, NULL), GR_SUCCESS);
  /* The out-edges of 0, 1, 2 (twice) and 3: 4 -> 0 has no reached source. */
  ck_assert_uint_eq(gr_reach_traversed_edges(g, &r), 4);
  gr_result_free(&r);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(validator_rejects_each_kind_of_wrong_answer) {
  gr_graph *g = small_graph();
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_run_args a = {1, 0, NULL, 0};
  gr_result ref, r;
  ck_assert_int_eq(gr_reach_reference(g, &a, &o, &ref), GR_SUCCESS);
  ck_assert_int_eq(gr_reach_reference(g, &a, &o, &r), GR_SUCCESS);
  gr_svid *d = r.values;
  struct {
    int v;
    gr_svid value;
    bool with_ref;
    const char *needle;
  } cases[] = {
      {3, -1, true, "unreached but the reference reaches"}, /* a reached vertex dropped */
      {3, -1, false, "2 -> 3"},                             /* ... seen without a reference */
      {4, 1, true, "reached but the reference does not"},   /* an unreachable vertex added */
      {1, -1, true, "source"},                              /* the source unreached */
      {2, 0, true, "not 1 or -1"},                          /* a value outside {1, -1} */
      {5, 7, false, "not 1 or -1"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    gr_svid old = d[cases[i].v];
    d[cases[i].v] = cases[i].value;
    ck_assert_int_eq(gr_reach_validate(g, &a, &o, &r, cases[i].with_ref ? &ref : NULL), GR_ERR_VALIDATION);
    ck_assert_msg(strstr(gr_error_message(), cases[i].needle), "case %zu: %s", i, gr_error_message());
    d[cases[i].v] = old;
  }
  ck_assert_int_eq(gr_reach_validate(g, &a, &o, &r, &ref), GR_SUCCESS);
  gr_result_free(&r);
  gr_result_free(&ref);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(validator_rejects_a_dropped_vertex_on_a_generated_graph) {
  gr_graph *g = gr_test_generated("kron:10:8");
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_run_args a = {source_of(g, 1), 0, NULL, 0};
  gr_result ref, r;
  ck_assert_int_eq(gr_reach_reference(g, &a, &o, &ref), GR_SUCCESS);
  ck_assert_int_eq(gr_reach_reference(g, &a, &o, &r), GR_SUCCESS);
  gr_svid *d = r.values;
  gr_vid victim = 0;
  while (victim < r.n && (victim == a.source || d[victim] < 0)) victim++;
  ck_assert_uint_lt(victim, r.n);
  d[victim] = -1;
  ck_assert_int_eq(gr_reach_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
  ck_assert_int_eq(gr_reach_validate(g, &a, &o, &r, NULL), GR_ERR_VALIDATION);
  gr_result_free(&r);
  gr_result_free(&ref);
  gr_graph_destroy(&g);
}
END_TEST

/* Runs reach from the first N_SOURCES sources on the given parts and
 * returns each run's values (caller frees). */
static void run_reach(gr_graph *g, gr_subgraph *const *subs, int devices, int threads,
                      const gr_exchange_ops *ex, void *shared, gr_svid *values[N_SOURCES]) {
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_enactor_config cfg = {.prim = &gr_reach_primitive,
                           .opts = &o,
                           .backend = GR_BACKEND_CPU,
                           .n_devices = devices,
                           .cpu_threads = threads,
                           .mem = GR_MEM_POLICY_INIT,
                           .subs = subs,
                           .exchange = ex,
                           .exchange_shared = shared};
  gr_enactor *e = NULL;
  ck_assert_msg(gr_enactor_create(&e, &cfg) == GR_SUCCESS, "%s", gr_error_message());
  for (int k = 0; k < N_SOURCES; k++) {
    gr_run_args a = {source_of(g, k), k, NULL, 0};
    gr_run_stats st;
    ck_assert_msg(gr_enactor_run(e, &a, &st) == GR_SUCCESS, "%s", gr_error_message());
    ck_assert_int_eq(st.status, GR_SUCCESS);
    gr_run_stats_free(&st);
    gr_result r;
    ck_assert_int_eq(gr_enactor_extract(e, &r), GR_SUCCESS);
    ck_assert_ptr_null(r.preds);
    values[k] = r.values;
    r.values = NULL;
    gr_result_free(&r);
  }
  gr_enactor_destroy(&e);
  ck_assert_ptr_null(e);
}

/* One CPU device: the whole graph, no exchange. */
static void run_one_device(gr_graph *g, int threads, gr_svid *values[N_SOURCES]) {
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, false, false), GR_SUCCESS);
  run_reach(g, &sub, 1, threads, NULL, NULL, values);
  gr_subgraph_destroy(&sub);
}

static void free_values(gr_svid *values[N_SOURCES]) {
  for (int k = 0; k < N_SOURCES; k++) {
    free(values[k]);
    values[k] = NULL;
  }
}

static const char *const specs[] = {"kron:10:8", "uniform:10:4,directed", "grid2d:20x30",
                                    "kron:9:4,directed"};
enum { N_SPECS = sizeof specs / sizeof specs[0] };

START_TEST(one_device_equals_reference) {
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  for (int i = 0; i < N_SPECS; i++) {
    gr_graph *g = gr_test_generated(specs[i]);
    gr_vid n = gr_graph_num_vertices(g);
    for (int threads = 1; threads <= 3; threads += 2) {
      gr_svid *values[N_SOURCES] = {NULL};
      run_one_device(g, threads, values);
      for (int k = 0; k < N_SOURCES; k++) {
        gr_run_args a = {source_of(g, k), k, NULL, 0};
        gr_result ref, r = {.n = n, .type = GR_VALUE_SVID, .values = values[k]};
        ck_assert_int_eq(gr_reach_reference(g, &a, &o, &ref), GR_SUCCESS);
        ck_assert_msg(gr_reach_validate(g, &a, &o, &r, &ref) == GR_SUCCESS, "%s source %llu: %s", specs[i],
                      (unsigned long long)a.source, gr_error_message());
        ck_assert_int_eq(memcmp(values[k], ref.values, (size_t)n * sizeof(gr_svid)), 0);
        gr_result_free(&ref);
      }
      free_values(values);
    }
    gr_graph_destroy(&g);
  }
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
  for (int i = 0; i < N_SPECS; i++) {
    gr_graph *g = gr_test_generated(specs[i]);
    gr_vid n = gr_graph_num_vertices(g);
    gr_svid *expect[N_SOURCES] = {NULL};
    run_one_device(g, 1, expect);
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
          ck_assert_int_eq(gr_subgraphs_build(&subs, g, part, proxies[x], false, false), GR_SUCCESS);
          for (size_t c = 0; c < sizeof comms / sizeof comms[0]; c++) {
            gr_comm_options co = {comms[c], GR_TRANSPORT_HOST, GR_COMM_FORMAT_AUTO, NULL};
            gr_comm *comm = NULL;
            ck_assert_int_eq(gr_comm_create(&comm, GR_BACKEND_CPU, devices, &co), GR_SUCCESS);
            gr_svid *got[N_SOURCES] = {NULL};
            run_reach(g, subs, devices, 1, &gr_comm_exchange_ops, comm, got);
            /* The enactor is gone before its exchange's shared state. */
            gr_comm_destroy(&comm);
            for (int k = 0; k < N_SOURCES; k++)
              ck_assert_msg(!memcmp(got[k], expect[k], (size_t)n * sizeof(gr_svid)),
                            "%s, %d devices, %s, %s proxies, %s: source %llu differs from one device",
                            specs[i], devices, gr_partitioner_name(kinds[p]),
                            proxies[x] == GR_PROXY_1HOP ? "1hop" : "all", gr_comm_mode_name(comms[c]),
                            (unsigned long long)source_of(g, k));
            free_values(got);
          }
          gr_subgraphs_destroy(&subs, devices);
        }
        gr_partition_destroy(&part);
      }
    }
    free_values(expect);
    gr_graph_destroy(&g);
  }
}
END_TEST

/* A primitive whose kernels read ids of their own (reads_packed_lists not
 * set) is refused packed lists before any device work: the ids it would
 * read are not there. The template's primitive, told it reads its own. */
START_TEST(a_primitive_not_reading_packed_lists_is_refused_them) {
  gr_graph *g = gr_test_generated("kron:8:4");
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, false, false), GR_SUCCESS);
  gr_primitive own = gr_reach_primitive;
  own.reads_packed_lists = false;
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  o.compress = GR_COMPRESS_PACKED;
  gr_enactor_config cfg = {.prim = &own,
                           .opts = &o,
                           .backend = GR_BACKEND_CPU,
                           .n_devices = 1,
                           .cpu_threads = 1,
                           .mem = GR_MEM_POLICY_INIT,
                           .subs = &sub};
  gr_enactor *e = NULL;
  ck_assert_int_eq(gr_enactor_create(&e, &cfg), GR_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "do not decode packed lists"));
  ck_assert_ptr_null(e);
  /* The same with plain ids runs. */
  o.compress = GR_COMPRESS_NONE;
  ck_assert_msg(gr_enactor_create(&e, &cfg) == GR_SUCCESS, "%s", gr_error_message());
  gr_enactor_destroy(&e);
  gr_subgraph_destroy(&sub);
  gr_graph_destroy(&g);
}
END_TEST

int main(void) {
  Suite *s = suite_create("reach");
  TCase *ref = tcase_create("reference");
  tcase_add_test(ref, reference_follows_out_edges_only);
  tcase_add_test(ref, validator_rejects_each_kind_of_wrong_answer);
  tcase_add_test(ref, validator_rejects_a_dropped_vertex_on_a_generated_graph);
  suite_add_tcase(s, ref);
  TCase *one = tcase_create("single_device");
  tcase_set_timeout(one, 300);
  tcase_add_test(one, one_device_equals_reference);
  tcase_add_test(one, a_primitive_not_reading_packed_lists_is_refused_them);
  suite_add_tcase(s, one);
  TCase *multi = tcase_create("multi_device");
  tcase_set_timeout(multi, 600);
  tcase_add_test(multi, several_devices_equal_one_device);
  suite_add_tcase(s, multi);
  return gr_test_run_suite(s, 0);
}
