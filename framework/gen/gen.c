/* SPDX-License-Identifier: Apache-2.0 */
/* Generator entry points: sizes the edge list from the spec, lets the kind's
 * filler write it in parallel, and hands it to the CSR builder. */
#include "gen_internal.h"
#include "gr/log.h"
#include "graph/graph_internal.h"

gr_status gr_gen_coo(gr_coo *out, const gr_gen_spec *spec, int threads) {
  gr_status st = GR_SUCCESS;
  gr_coo coo = GR_COO_INIT;
  uint64_t n = 0, m = 0;
  if (!out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_gen_coo: output is NULL");
  GR_CHECK_GOTO(gr__gen_size(spec, &n, &m), st, cleanup);
  const double t0 = gr_time_now();
  GR_CHECK_GOTO(gr_coo_reserve(&coo, m, false), st, cleanup);
  switch (spec->kind) {
    case GR_GEN_KRONECKER: gr__gen_kronecker(coo.src, coo.dst, m, spec, threads); break;
    case GR_GEN_UNIFORM: gr__gen_uniform(coo.src, coo.dst, m, spec, threads); break;
    case GR_GEN_GRID2D:
    case GR_GEN_GRID3D: gr__gen_grid(coo.src, coo.dst, m, spec, threads); break;
  }
  coo.n = n;
  coo.m = m;
  coo.symmetric = !spec->directed;
  coo.id_base = 0;
  if (gr_log_enabled(GR_LOG_INFO, GR_SUBSYS_GRAPH)) {
    char text[256];
    gr_gen_format(spec, text, sizeof text);
    gr_log(GR_LOG_INFO, GR_SUBSYS_GRAPH, "generated %s: %llu vertices, %llu edges in %.3f s",
           text, (unsigned long long)n, (unsigned long long)m, gr_time_now() - t0);
  }
  *out = coo;
  coo = (gr_coo)GR_COO_INIT;
cleanup:
  gr_coo_free(&coo);
  return st;
}

gr_status gr_gen_graph(gr_graph **out, const gr_gen_spec *spec, const gr_load_options *options) {
  gr_status st = GR_SUCCESS;
  gr_coo coo = GR_COO_INIT;
  const gr_load_options defaults = GR_LOAD_OPTIONS_INIT;
  if (!out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_gen_graph: output is NULL");
  *out = NULL;
  if (!options) options = &defaults;
  const double t0 = gr_time_now();
  GR_CHECK_GOTO(gr_gen_coo(&coo, spec, options->threads), st, cleanup);
  GR_CHECK_GOTO(gr_graph_from_coo(out, &coo, options), st, cleanup);
  char name[256];
  gr_gen_format(spec, name, sizeof name);
  GR_CHECK_GOTO(gr__graph_set_name(*out, name), st, cleanup);
  /* A generated graph's load is its generation and build together. */
  (*out)->load_seconds = gr_time_now() - t0;
cleanup:
  gr_coo_free(&coo);
  if (st < 0) gr_graph_destroy(out);
  return st;
}
