/* SPDX-License-Identifier: Apache-2.0 */
#include "devices.h"

#include <check.h>
#include <string.h>

#include "gr/status.h"
#include "subgraph_builder.h"

/* The enactor's status; t holds what was made either way. */
static gr_status gr__test_devices_make(gr_test_devices *t, gr_graph *g, const gr_primitive *prim, int devices,
                                       gr_proxy_mode proxy, bool needs_in, int cpu_threads, bool lazy,
                                       gr_partitioner_kind kind) {
  memset(t, 0, sizeof *t);
  t->devices = devices;
  if (devices == 1) {
    ck_assert_int_eq(gr_subgraph_whole(&t->whole, g, needs_in, prim->needs_weights), GR_SUCCESS);
  } else {
    gr_partition_options po = GR_PARTITION_OPTIONS_INIT;
    po.kind = kind;
    po.parts = devices;
    po.threads = 1;
    ck_assert_int_eq(gr_partition_create(&t->part, g, &po), GR_SUCCESS);
    if (lazy) {
      ck_assert_int_eq(gr_subgraphs_build_lazy(&t->subs, g, t->part, proxy, needs_in, prim->needs_weights), GR_SUCCESS);
      for (int q = 0; q < devices; q++) ck_assert(gr_subgraph_lists_deferred(t->subs[q]));
    } else
      ck_assert_int_eq(gr_subgraphs_build(&t->subs, g, t->part, proxy, needs_in, prim->needs_weights), GR_SUCCESS);
    gr_comm_options co = {GR_COMM_SELECTIVE, GR_TRANSPORT_HOST, GR_COMM_FORMAT_AUTO, NULL};
    ck_assert_int_eq(gr_comm_create(&t->comm, GR_BACKEND_CPU, devices, &co), GR_SUCCESS);
  }
  const gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  t->opts = o;
  gr_enactor_config cfg = {.prim = prim,
                           .opts = &t->opts,
                           .backend = GR_BACKEND_CPU,
                           .n_devices = devices,
                           .cpu_threads = cpu_threads,
                           .mem = GR_MEM_POLICY_INIT,
                           .subs = devices == 1 ? &t->whole : t->subs,
                           .exchange = devices == 1 ? NULL : &gr_comm_exchange_ops,
                           .exchange_shared = t->comm};
  return gr_enactor_create(&t->e, &cfg);
}

void gr_test_devices_create(gr_test_devices *t, gr_graph *g, const gr_primitive *prim, int devices,
                            gr_proxy_mode proxy, bool needs_in, int cpu_threads) {
  const gr_status st =
      gr__test_devices_make(t, g, prim, devices, proxy, needs_in, cpu_threads, false, GR_PART_RANDOM);
  ck_assert_msg(st == GR_SUCCESS, "%s", gr_error_message());
}

gr_status gr_test_devices_create_lazy(gr_test_devices *t, gr_graph *g, const gr_primitive *prim, int devices,
                                      gr_partitioner_kind kind) {
  return gr__test_devices_make(t, g, prim, devices, GR_PROXY_1HOP, false, 1, true, kind);
}

/* One run from `source`, which must succeed: its iterations. */
static int gr__test_run(gr_test_devices *t, gr_vid source) {
  gr_run_args a = {source, 0, NULL, 0};
  gr_run_stats st;
  ck_assert_msg(gr_enactor_run(t->e, &a, &st) == GR_SUCCESS, "%s", gr_error_message());
  ck_assert_int_eq(st.status, GR_SUCCESS);
  const int iterations = st.iterations;
  gr_run_stats_free(&st);
  return iterations;
}

gr_svid *gr_test_run_svid(gr_graph *g, const gr_primitive *prim, int devices, gr_proxy_mode proxy, bool needs_in,
                          gr_vid source, int *iterations) {
  gr_test_devices t;
  gr_test_devices_create(&t, g, prim, devices, proxy, needs_in, 2);
  const int it = gr__test_run(&t, source);
  if (iterations) *iterations = it;
  gr_result r = GR_RESULT_INIT;
  ck_assert_int_eq(gr_enactor_extract(t.e, &r), GR_SUCCESS);
  gr_svid *values = r.values;
  r.values = NULL;
  gr_result_free(&r);
  gr_test_devices_destroy(&t);
  return values;
}

void gr_test_devices_destroy(gr_test_devices *t) {
  gr_enactor_destroy(&t->e);
  if (t->comm) gr_comm_destroy(&t->comm);
  if (t->subs) gr_subgraphs_destroy(&t->subs, t->devices);
  if (t->part) gr_partition_destroy(&t->part);
  if (t->whole) gr_subgraph_destroy(&t->whole);
}

uint64_t gr_test_peak_bytes(gr_graph *g, const gr_primitive *prim, int devices, gr_proxy_mode proxy, bool needs_in,
                            int min_iterations) {
  const gr_csr *c = gr_graph_out(g);
  gr_vid src = 0;
  for (gr_vid v = 1; v < c->n; v++)
    if (c->offsets[v + 1] - c->offsets[v] > c->offsets[src + 1] - c->offsets[src]) src = v;
  gr_test_devices t;
  gr_test_devices_create(&t, g, prim, devices, proxy, needs_in, 1);
  ck_assert_int_ge(gr__test_run(&t, src), min_iterations);
  uint64_t peak = 0;
  for (int d = 0; d < devices; d++) {
    gr_device_report rep;
    gr_enactor_device_report(t.e, d, &rep);
    if (rep.peak_bytes > peak) peak = rep.peak_bytes;
  }
  gr_test_devices_destroy(&t);
  return peak;
}

void gr_test_check_peak_on_four(gr_graph *g, const gr_primitive *prim, gr_proxy_mode proxy, bool needs_in,
                                int min_iterations, double bound) {
  const uint64_t one = gr_test_peak_bytes(g, prim, 1, proxy, needs_in, min_iterations),
                 four = gr_test_peak_bytes(g, prim, 4, proxy, needs_in, min_iterations);
  ck_assert_msg((double)four <= bound * (double)one, "peak per device on 4 devices %llu, on one %llu (%.3f)",
                (unsigned long long)four, (unsigned long long)one, (double)four / (double)one);
}

gr_partition *gr_test_partition(gr_graph *g, gr_partitioner_kind kind, int parts) {
  gr_partition_options po = GR_PARTITION_OPTIONS_INIT;
  po.kind = kind;
  po.parts = parts;
  po.threads = 1;
  gr_partition *part = NULL;
  ck_assert_msg(gr_partition_create(&part, g, &po) == GR_SUCCESS, "%s", gr_error_message());
  return part;
}
