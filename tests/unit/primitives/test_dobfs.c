/* SPDX-License-Identifier: Apache-2.0 */
/* DOBFS: on one CPU device every direction mode gives the reference depths
 * and valid predecessors; auto pulls on a Kronecker graph and examines fewer
 * edges than push alone; on 2-4 CPU devices it equals one device under
 * every partitioner, proxy and exchange, pulling where one device pulls
 * except under selective exchange with 1-hop proxies (no device sees the
 * whole frontier there), where a forced pull is refused. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "dobfs/dobfs.h"
#include "gr/enactor.h"
#include "gr/gen.h"
#include "gr/graph.h"
#include "partitioner.h"
#include "subgraph_builder.h"
#include "testutil.h"

enum { N_SOURCES = 3 };

static gr_graph *generated(const char *spec) {
  gr_gen_spec s;
  ck_assert_int_eq(gr_gen_parse(&s, spec), GR_SUCCESS);
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  o.build_csc = true;
  gr_graph *g = NULL;
  ck_assert_int_eq(gr_gen_graph(&g, &s, &o), GR_SUCCESS);
  return g;
}

/* A vertex with out-edges, spread over the ids. */
static gr_vid source_of(const gr_graph *g, int k) {
  const gr_csr *c = gr_graph_out(g);
  gr_vid v = (gr_vid)(((uint64_t)k * 7919u + 1u) % c->n);
  while (c->offsets[v + 1] == c->offsets[v]) v = (v + 1) % c->n;
  return v;
}

typedef struct outcome {
  gr_svid *depth[N_SOURCES];
  gr_eid edges[N_SOURCES];
  int pulls[N_SOURCES]; /* levels tagged 'U' */
} outcome;

static void outcome_free(outcome *o) {
  for (int k = 0; k < N_SOURCES; k++) {
    free(o->depth[k]);
    o->depth[k] = NULL;
  }
}

/* Runs DOBFS from the test's sources; validates each run with BFS's
 * validator against the reference. */
static void run_dobfs(gr_graph *g, gr_subgraph *const *subs, int devices, const gr_prim_options *o,
                      const gr_exchange_ops *ex, void *shared, bool broadcast, outcome *out) {
  gr_enactor_config cfg = {.prim = &gr_dobfs_primitive,
                           .opts = o,
                           .backend = GR_BACKEND_CPU,
                           .n_devices = devices,
                           .cpu_threads = 1,
                           .mem = GR_MEM_POLICY_INIT,
                           .subs = subs,
                           .exchange = ex,
                           .exchange_shared = shared,
                           .broadcast = broadcast};
  gr_enactor *e = NULL;
  ck_assert_msg(gr_enactor_create(&e, &cfg) == GR_SUCCESS, "%s", gr_error_message());
  for (int k = 0; k < N_SOURCES; k++) {
    gr_run_args a = {source_of(g, k), k, NULL, 0};
    gr_run_stats st;
    ck_assert_msg(gr_enactor_run(e, &a, &st) == GR_SUCCESS, "%s", gr_error_message());
    out->edges[k] = st.edges;
    out->pulls[k] = 0;
    for (int l = 0; l < st.frontier_len; l++) out->pulls[k] += st.level_tag[l] == 'U';
    gr_run_stats_free(&st);
    gr_result r, ref;
    ck_assert_int_eq(gr_enactor_extract(e, &r), GR_SUCCESS);
    ck_assert_int_eq(gr_bfs_reference(g, &a, o, &ref), GR_SUCCESS);
    ck_assert_msg(gr_bfs_validate(g, &a, o, &r, &ref) == GR_SUCCESS, "source %llu: %s",
                  (unsigned long long)a.source, gr_error_message());
    ck_assert_int_eq(memcmp(r.values, ref.values, (size_t)r.n * sizeof(gr_svid)), 0);
    out->depth[k] = r.values;
    r.values = NULL;
    gr_result_free(&r);
    gr_result_free(&ref);
  }
  gr_enactor_destroy(&e);
}

static void run_one_device(gr_graph *g, const gr_prim_options *o, outcome *out) {
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, true), GR_SUCCESS);
  run_dobfs(g, &sub, 1, o, NULL, NULL, false, out);
  gr_subgraph_destroy(&sub);
}

static const char *const specs[] = {"kron:11:16", "uniform:10:8,directed", "grid2d:20x30", "kron:10:8,directed"};
enum { N_SPECS = sizeof specs / sizeof specs[0] };

START_TEST(every_direction_gives_the_reference_on_one_device) {
  const gr_direction dirs[] = {GR_DIRECTION_AUTO, GR_DIRECTION_PUSH, GR_DIRECTION_PULL};
  for (int i = 0; i < N_SPECS; i++) {
    gr_graph *g = generated(specs[i]);
    for (int d = 0; d < 3; d++) {
      gr_prim_options o = GR_PRIM_OPTIONS_INIT;
      o.mark_pred = true;
      o.direction = dirs[d];
      outcome out = {{NULL}, {0}, {0}};
      run_one_device(g, &o, &out);
      for (int k = 0; k < N_SOURCES; k++) {
        if (dirs[d] == GR_DIRECTION_PUSH) ck_assert_int_eq(out.pulls[k], 0);
        if (dirs[d] == GR_DIRECTION_PULL) ck_assert_int_gt(out.pulls[k], 0);
      }
      outcome_free(&out);
    }
    gr_graph_destroy(&g);
  }
}
END_TEST

START_TEST(auto_pulls_and_examines_fewer_edges_on_kronecker) {
  gr_graph *g = generated("kron:13:16");
  gr_prim_options push = GR_PRIM_OPTIONS_INIT, aut = GR_PRIM_OPTIONS_INIT;
  push.direction = GR_DIRECTION_PUSH;
  outcome p = {{NULL}, {0}, {0}}, a = {{NULL}, {0}, {0}};
  run_one_device(g, &push, &p);
  run_one_device(g, &aut, &a);
  for (int k = 0; k < N_SOURCES; k++) {
    ck_assert_int_gt(a.pulls[k], 0);
    ck_assert_msg(a.edges[k] * 2 < p.edges[k], "auto examined %llu edges, push %llu",
                  (unsigned long long)a.edges[k], (unsigned long long)p.edges[k]);
  }
  outcome_free(&p);
  outcome_free(&a);
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
  for (int i = 0; i < N_SPECS; i++) {
    gr_graph *g = generated(specs[i]);
    const gr_vid n = gr_graph_num_vertices(g);
    gr_prim_options o = GR_PRIM_OPTIONS_INIT;
    o.mark_pred = true;
    outcome expect = {{NULL}, {0}, {0}};
    run_one_device(g, &o, &expect);
    for (int devices = 2; devices <= 4; devices++)
      for (size_t p = 0; p < sizeof kinds / sizeof kinds[0]; p++) {
        gr_partition_options po = GR_PARTITION_OPTIONS_INIT;
        po.kind = kinds[p];
        po.parts = devices;
        po.threads = 1;
        gr_partition *part = NULL;
        ck_assert_msg(gr_partition_create(&part, g, &po) == GR_SUCCESS, "%s", gr_error_message());
        for (size_t x = 0; x < 2; x++) {
          gr_subgraph **subs = NULL;
          ck_assert_int_eq(gr_subgraphs_build(&subs, g, part, proxies[x], true), GR_SUCCESS);
          for (size_t c = 0; c < 2; c++) {
            gr_comm_options co = {comms[c], GR_TRANSPORT_HOST, GR_COMM_FORMAT_AUTO, NULL};
            gr_comm *comm = NULL;
            ck_assert_int_eq(gr_comm_create(&comm, GR_BACKEND_CPU, devices, &co), GR_SUCCESS);
            outcome got = {{NULL}, {0}, {0}};
            run_dobfs(g, subs, devices, &o, &gr_comm_exchange_ops, comm, comms[c] == GR_COMM_BROADCAST, &got);
            gr_comm_destroy(&comm);
            for (int k = 0; k < N_SOURCES; k++) {
              ck_assert_msg(!memcmp(got.depth[k], expect.depth[k], (size_t)n * sizeof(gr_svid)),
                            "%s, %d devices, %s, %s, %s: source %d differs", specs[i], devices,
                            gr_partitioner_name(kinds[p]), proxies[x] == GR_PROXY_1HOP ? "1hop" : "all",
                            gr_comm_mode_name(comms[c]), k);
              /* Pulls need the whole frontier: under broadcast, or from
               * the devices' or'ed bitmaps under duplicate-all proxies;
               * they pull where one device does. */
              if (comms[c] == GR_COMM_SELECTIVE && proxies[x] == GR_PROXY_1HOP) ck_assert_int_eq(got.pulls[k], 0);
              else ck_assert_int_eq(got.pulls[k], expect.pulls[k]);
            }
            outcome_free(&got);
          }
          gr_subgraphs_destroy(&subs, devices);
        }
        gr_partition_destroy(&part);
      }
    outcome_free(&expect);
    gr_graph_destroy(&g);
  }
}
END_TEST

START_TEST(forced_pull_without_a_whole_frontier_is_refused) {
  gr_graph *g = generated("kron:8:4");
  gr_partition_options po = GR_PARTITION_OPTIONS_INIT;
  po.parts = 2;
  gr_partition *part = NULL;
  ck_assert_int_eq(gr_partition_create(&part, g, &po), GR_SUCCESS);
  gr_subgraph **subs = NULL;
  /* 1-hop proxies under selective exchange: no device sees the frontier. */
  ck_assert_int_eq(gr_subgraphs_build(&subs, g, part, GR_PROXY_1HOP, true), GR_SUCCESS);
  gr_comm_options co = {GR_COMM_SELECTIVE, GR_TRANSPORT_HOST, GR_COMM_FORMAT_AUTO, NULL};
  gr_comm *comm = NULL;
  ck_assert_int_eq(gr_comm_create(&comm, GR_BACKEND_CPU, 2, &co), GR_SUCCESS);
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  o.direction = GR_DIRECTION_PULL;
  gr_enactor_config cfg = {.prim = &gr_dobfs_primitive,
                           .opts = &o,
                           .backend = GR_BACKEND_CPU,
                           .n_devices = 2,
                           .cpu_threads = 1,
                           .mem = GR_MEM_POLICY_INIT,
                           .subs = subs,
                           .exchange = &gr_comm_exchange_ops,
                           .exchange_shared = comm,
                           .broadcast = false};
  gr_enactor *e = NULL;
  ck_assert_int_eq(gr_enactor_create(&e, &cfg), GR_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "broadcast"));
  ck_assert_ptr_null(e);
  gr_comm_destroy(&comm);
  gr_subgraphs_destroy(&subs, 2);
  gr_partition_destroy(&part);
  gr_graph_destroy(&g);
}
END_TEST

int main(void) {
  Suite *s = suite_create("dobfs");
  TCase *one = tcase_create("single_device");
  tcase_set_timeout(one, 300);
  tcase_add_test(one, every_direction_gives_the_reference_on_one_device);
  tcase_add_test(one, auto_pulls_and_examines_fewer_edges_on_kronecker);
  suite_add_tcase(s, one);
  TCase *multi = tcase_create("multi_device");
  tcase_set_timeout(multi, 900);
  tcase_add_test(multi, several_devices_equal_one_device);
  tcase_add_test(multi, forced_pull_without_a_whole_frontier_is_refused);
  suite_add_tcase(s, multi);
  return gr_test_run_suite(s, 0);
}
