/* SPDX-License-Identifier: Apache-2.0 */
/* Graphs through the public interface: files, generators, and arrays the
 * caller holds (checked entry by entry, then built like a file's edges). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "gr/gen.h"
#include "gr/util.h"

gr_status gr_graph_open(gr_graph **out, const char *path, const gr_options *o) {
  if (!out || !path) return gr_errorf(GR_ERR_INVALID_ARG, "gr_graph_open: NULL argument");
  *out = NULL;
  const gr_load_options lo = gr__options_load(o);
  return gr_graph_load(out, path, &lo);
}

gr_status gr_graph_generate(gr_graph **out, const char *spec, const gr_options *o) {
  if (!out || !spec) return gr_errorf(GR_ERR_INVALID_ARG, "gr_graph_generate: NULL argument");
  *out = NULL;
  const gr_load_options lo = gr__options_load(o);
  gr_gen_spec gs;
  GR_CHECK(gr_gen_parse(&gs, spec));
  /* The spec's own seed wins over the options' (the same text gives the
   * same graph wherever it is used). */
  if (strstr(spec, "seed=") == NULL) gs.seed = lo.seed;
  return gr_gen_graph(out, &gs, &lo);
}

/* Fills an edge list of n vertices from m arcs, checking each. `at(k)`
 * gives arc k's ends through src/dst or, for a CSR, the row found while
 * walking the offsets. */
static gr_status gr__coo_start(gr_coo *coo, uint64_t n, uint64_t m, const float *weights) {
  if (n > GR_MAX_VERTICES)
    return gr_errorf(GR_ERR_TOO_LARGE, "%llu vertices are more than this build addresses (%llu; build with "
                     "GR_VERTEX_64 for more)", (unsigned long long)n, (unsigned long long)GR_MAX_VERTICES);
  GR_CHECK(gr_coo_reserve(coo, m > 0 ? m : 1, weights != NULL));
  coo->n = n;
  coo->id_base = 0;
  return GR_SUCCESS;
}

static gr_status gr__check_weight(const float *weights, uint64_t k) {
  if (weights && !isfinite(weights[k]))
    return gr_errorf(GR_ERR_INVALID_ARG, "weight %llu is not a finite number", (unsigned long long)k);
  return GR_SUCCESS;
}

gr_status gr_graph_create_csr(gr_graph **out, uint64_t n, const int64_t *offsets, const int64_t *indices,
                              const float *weights, const gr_options *o) {
  if (!out || !offsets || (!indices && n > 0 && offsets[n] > 0))
    return gr_errorf(GR_ERR_INVALID_ARG, "gr_graph_create_csr: NULL argument");
  *out = NULL;
  gr_status st = GR_SUCCESS;
  gr_coo coo = GR_COO_INIT;
  if (offsets[0] != 0) return gr_errorf(GR_ERR_INVALID_ARG, "offsets[0] is %lld, not 0", (long long)offsets[0]);
  for (uint64_t v = 0; v < n; v++)
    if (offsets[v + 1] < offsets[v])
      return gr_errorf(GR_ERR_INVALID_ARG, "offsets decrease at row %llu (%lld, then %lld)", (unsigned long long)v,
                       (long long)offsets[v], (long long)offsets[v + 1]);
  const uint64_t m = (uint64_t)offsets[n];
  GR_CHECK_GOTO(gr__coo_start(&coo, n, m, weights), st, cleanup);
  for (uint64_t v = 0; v < n; v++)
    for (uint64_t k = (uint64_t)offsets[v]; k < (uint64_t)offsets[v + 1]; k++) {
      if (indices[k] < 0 || (uint64_t)indices[k] >= n) {
        st = gr_errorf(GR_ERR_INVALID_ARG, "indices[%llu] = %lld is not a vertex of 0..%llu", (unsigned long long)k,
                       (long long)indices[k], (unsigned long long)(n ? n - 1 : 0));
        goto cleanup;
      }
      GR_CHECK_GOTO(gr__check_weight(weights, k), st, cleanup);
      GR_CHECK_GOTO(gr_coo_push(&coo, (gr_vid)v, (gr_vid)indices[k], weights ? weights[k] : 0.0f), st, cleanup);
    }
  const gr_load_options lo = gr__options_load(o);
  st = gr_graph_from_coo(out, &coo, &lo);
cleanup:
  gr_coo_free(&coo);
  return st;
}

gr_status gr_graph_create_coo(gr_graph **out, uint64_t n, uint64_t m, const int64_t *src, const int64_t *dst,
                              const float *weights, const gr_options *o) {
  if (!out || (m > 0 && (!src || !dst))) return gr_errorf(GR_ERR_INVALID_ARG, "gr_graph_create_coo: NULL argument");
  *out = NULL;
  gr_status st = GR_SUCCESS;
  gr_coo coo = GR_COO_INIT;
  GR_CHECK_GOTO(gr__coo_start(&coo, n, m, weights), st, cleanup);
  for (uint64_t k = 0; k < m; k++) {
    if (src[k] < 0 || (uint64_t)src[k] >= n || dst[k] < 0 || (uint64_t)dst[k] >= n) {
      st = gr_errorf(GR_ERR_INVALID_ARG, "arc %llu (%lld -> %lld) has an end outside the vertices 0..%llu",
                     (unsigned long long)k, (long long)src[k], (long long)dst[k],
                     (unsigned long long)(n ? n - 1 : 0));
      goto cleanup;
    }
    GR_CHECK_GOTO(gr__check_weight(weights, k), st, cleanup);
    GR_CHECK_GOTO(gr_coo_push(&coo, (gr_vid)src[k], (gr_vid)dst[k], weights ? weights[k] : 0.0f), st, cleanup);
  }
  const gr_load_options lo = gr__options_load(o);
  st = gr_graph_from_coo(out, &coo, &lo);
cleanup:
  gr_coo_free(&coo);
  return st;
}

gr_status gr_graph_get_info(const gr_graph *g, gr_graph_info *out) {
  if (!g || !out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_graph_get_info: NULL argument");
  out->name = gr_graph_name(g);
  out->vertices = gr_graph_num_vertices(g);
  out->edges = gr_graph_num_edges(g);
  out->arcs = gr_graph_num_arcs(g);
  out->directed = gr_graph_is_directed(g);
  out->weighted = gr_graph_has_weights(g);
  out->load_seconds = gr_graph_load_seconds(g);
  out->from_cache = gr_graph_from_cache(g);
  return GR_SUCCESS;
}

gr_status gr_graph_ids(const gr_graph *g, int64_t *ids) {
  if (!g || !ids) return gr_errorf(GR_ERR_INVALID_ARG, "gr_graph_ids: NULL argument");
  const gr_vid n = gr_graph_num_vertices(g);
  for (gr_vid v = 0; v < n; v++) ids[v] = (int64_t)gr_graph_original_id(g, v);
  return GR_SUCCESS;
}

gr_status gr_graph_find(const gr_graph *g, int64_t id, uint64_t *index) {
  if (!g || !index) return gr_errorf(GR_ERR_INVALID_ARG, "gr_graph_find: NULL argument");
  if (id < 0) return gr_errorf(GR_ERR_INVALID_ARG, "vertex %lld is not in %s", (long long)id, gr_graph_name(g));
  gr_vid v = 0;
  GR_CHECK(gr_graph_find_vertex(g, (uint64_t)id, &v));
  *index = v;
  return GR_SUCCESS;
}

/* The k-th source of the seeded sequence: a random vertex with out-edges (a
 * vertex without any makes a trivial run). */
static gr_vid gr__random_source(const gr_csr *c, uint64_t seed, uint64_t *counter) {
  for (int tries = 0; tries < 1000; tries++) {
    gr_vid v = (gr_vid)(gr_rand64(seed, 0x5352435fULL, (*counter)++) % c->n);
    if (c->offsets[v + 1] > c->offsets[v]) return v;
  }
  return (gr_vid)(gr_rand64(seed, 0x5352435fULL, (*counter)++) % c->n);
}

static gr_vid gr__max_degree_vertex(const gr_csr *c) {
  gr_vid best = 0;
  gr_eid bd = 0;
  for (gr_vid v = 0; v < c->n; v++) {
    gr_eid d = c->offsets[v + 1] - c->offsets[v];
    if (d > bd) {
      bd = d;
      best = v;
    }
  }
  return best;
}

gr_status gr_graph_sources(const gr_graph *g, const char *how, uint64_t seed, int count, int64_t *ids) {
  if (!g || !how || (count > 0 && !ids)) return gr_errorf(GR_ERR_INVALID_ARG, "gr_graph_sources: NULL argument");
  if (count < 0) return gr_errorf(GR_ERR_INVALID_ARG, "gr_graph_sources: count %d is negative", count);
  const gr_csr *c = gr_graph_out(g);
  if (c->n == 0) return gr_errorf(GR_ERR_INVALID_ARG, "the graph has no vertices to start from");
  if (!strcmp(how, "random")) {
    uint64_t counter = 0;
    for (int k = 0; k < count; k++) ids[k] = (int64_t)gr_graph_original_id(g, gr__random_source(c, seed, &counter));
  } else if (!strcmp(how, "max-degree")) {
    const int64_t v = (int64_t)gr_graph_original_id(g, gr__max_degree_vertex(c));
    for (int k = 0; k < count; k++) ids[k] = v;
  } else {
    return gr_errorf(GR_ERR_INVALID_ARG, "sources must be random or max-degree, got '%s'", how);
  }
  return GR_SUCCESS;
}

gr_status gr__graph_sample(const gr_graph *g, uint64_t seed, int draw, uint64_t count, gr_vid *out) {
  const gr_csr *c = gr_graph_out(g);
  gr_vid m = 0;
  for (gr_vid v = 0; v < c->n; v++) m += c->offsets[v + 1] > c->offsets[v];
  if (count == 0) return gr_errorf(GR_ERR_INVALID_ARG, "a draw of sources takes at least one");
  if (draw < 0) return gr_errorf(GR_ERR_INVALID_ARG, "draw %d of sources is negative", draw);
  if (count > m)
    return gr_errorf(GR_ERR_INVALID_ARG, "%llu distinct sources, but only %llu vertices have out-edges",
                     (unsigned long long)count, (unsigned long long)m);
  gr_vid *cand = NULL;
  GR_CHECK(gr_host_alloc((void **)&cand, (size_t)m * sizeof *cand, "source candidates"));
  m = 0;
  for (gr_vid v = 0; v < c->n; v++)
    if (c->offsets[v + 1] > c->offsets[v]) cand[m++] = v;
  /* The first count steps of a Fisher-Yates shuffle: step i depends on
   * the seed, the draw and i only, so a draw's first sources do not depend
   * on how many are drawn. */
  for (gr_vid i = 0; i < (gr_vid)count; i++) {
    const gr_vid j = i + (gr_vid)(gr_rand64(seed, 0x42435352ULL + (uint64_t)draw, i) % (m - i));
    const gr_vid t = cand[i];
    cand[i] = cand[j];
    cand[j] = t;
    out[i] = cand[i];
  }
  free(cand);
  return GR_SUCCESS;
}

gr_status gr_graph_sample_sources(const gr_graph *g, uint64_t seed, int draw, uint64_t count, int64_t *ids) {
  if (!g || !ids) return gr_errorf(GR_ERR_INVALID_ARG, "gr_graph_sample_sources: NULL argument");
  gr_vid *v = NULL;
  if (count > 0 && count <= gr_graph_num_vertices(g))
    GR_CHECK(gr_host_alloc((void **)&v, (size_t)count * sizeof *v, "sources"));
  gr_status st = gr__graph_sample(g, seed, draw, count, v);
  for (uint64_t k = 0; st >= 0 && k < count; k++) ids[k] = (int64_t)gr_graph_original_id(g, v[k]);
  free(v);
  return st;
}
