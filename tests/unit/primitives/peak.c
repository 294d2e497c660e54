/* SPDX-License-Identifier: Apache-2.0 */
#include "peak.h"

#include <check.h>

#include "comm.h"
#include "gr/enactor.h"
#include "gr/status.h"
#include "subgraph_builder.h"

uint64_t gr_test_peak_bytes(gr_graph *g, const gr_primitive *prim, int devices, gr_proxy_mode proxy, bool needs_in,
                            int min_iterations) {
  const gr_csr *c = gr_graph_out(g);
  gr_vid src = 0;
  for (gr_vid v = 1; v < c->n; v++)
    if (c->offsets[v + 1] - c->offsets[v] > c->offsets[src + 1] - c->offsets[src]) src = v;
  gr_partition *part = NULL;
  gr_subgraph **subs = NULL, *whole = NULL;
  gr_comm *comm = NULL;
  if (devices == 1) {
    ck_assert_int_eq(gr_subgraph_whole(&whole, g, needs_in), GR_SUCCESS);
  } else {
    gr_partition_options po = GR_PARTITION_OPTIONS_INIT;
    po.parts = devices;
    po.threads = 1;
    ck_assert_int_eq(gr_partition_create(&part, g, &po), GR_SUCCESS);
    ck_assert_int_eq(gr_subgraphs_build(&subs, g, part, proxy, needs_in), GR_SUCCESS);
    gr_comm_options co = {GR_COMM_SELECTIVE, GR_TRANSPORT_HOST, GR_COMM_FORMAT_AUTO, NULL};
    ck_assert_int_eq(gr_comm_create(&comm, GR_BACKEND_CPU, devices, &co), GR_SUCCESS);
  }
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_enactor_config cfg = {.prim = prim,
                           .opts = &o,
                           .backend = GR_BACKEND_CPU,
                           .n_devices = devices,
                           .cpu_threads = 1,
                           .mem = GR_MEM_POLICY_INIT,
                           .subs = devices == 1 ? &whole : subs,
                           .exchange = devices == 1 ? NULL : &gr_comm_exchange_ops,
                           .exchange_shared = comm};
  gr_enactor *e = NULL;
  ck_assert_msg(gr_enactor_create(&e, &cfg) == GR_SUCCESS, "%s", gr_error_message());
  gr_run_args a = {src, 0, NULL, 0};
  gr_run_stats st;
  ck_assert_msg(gr_enactor_run(e, &a, &st) == GR_SUCCESS, "%s", gr_error_message());
  ck_assert_int_ge(st.iterations, min_iterations);
  gr_run_stats_free(&st);
  uint64_t peak = 0;
  for (int d = 0; d < devices; d++) {
    gr_device_report rep;
    gr_enactor_device_report(e, d, &rep);
    if (rep.peak_bytes > peak) peak = rep.peak_bytes;
  }
  gr_enactor_destroy(&e);
  if (comm) gr_comm_destroy(&comm);
  if (subs) gr_subgraphs_destroy(&subs, devices);
  if (part) gr_partition_destroy(&part);
  if (whole) gr_subgraph_destroy(&whole);
  return peak;
}
