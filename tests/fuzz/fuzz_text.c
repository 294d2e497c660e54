/* SPDX-License-Identifier: Apache-2.0 */
/* The body of the Matrix Market and edge-list fuzz targets (fuzz_text.h). */
#include "fuzz_text.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "graph_internal.h"

/* The edge list a reader produced: sizes, ids in range, the id map. */
static void fz_check_coo(const gr_coo *c) {
  FZ_ASSERT(c->n <= GR_MAX_VERTICES, "edge list of %llu vertices", (unsigned long long)c->n);
  FZ_ASSERT(c->m == 0 || (c->src && c->dst), "edge list of %llu entries without arrays", (unsigned long long)c->m);
  FZ_ASSERT(c->id_base == 0 || c->id_base == 1, "id base %d", c->id_base);
  for (uint64_t e = 0; e < c->m; e++)
    FZ_ASSERT((uint64_t)c->src[e] < c->n && (uint64_t)c->dst[e] < c->n, "entry %llu: %llu -> %llu of %llu vertices",
              (unsigned long long)e, (unsigned long long)c->src[e], (unsigned long long)c->dst[e],
              (unsigned long long)c->n);
  for (uint64_t v = 1; c->orig_ids && v < c->n; v++)
    FZ_ASSERT(c->orig_ids[v - 1] < c->orig_ids[v], "original ids not ascending at %llu", (unsigned long long)v);
}

void fz_text_target(const uint8_t *data, size_t size, const char *name, fz_text_format format) {
  gr__text text = GR__TEXT_INIT;
  gr_coo coo = GR_COO_INIT;
  gr_graph *g = NULL;
  fz_arc *entries = NULL;
  /* The thread count follows the input, so that the build's blocks vary
   * (the result must not depend on it). */
  const int threads = 1 + (int)(size % 4);
  gr_status st = gr__text_from_memory(&text, data, size, name);
  if (st < 0) {
    fz_expect_input_error(st, name);
    goto cleanup;
  }
  st = format == FZ_TEXT_MTX ? gr__mtx_parse(&coo, name, text.data, text.len, true, threads, NULL)
                             : gr__edgelist_parse(&coo, name, text.data, text.len, true, threads, NULL);
  if (st < 0) {
    fz_expect_input_error(st, name);
    goto cleanup;
  }
  fz_check_coo(&coo);
  const uint64_t n = coo.n, m = coo.m;
  const bool undirected = coo.symmetric, weights = coo.w != NULL;
  entries = malloc((size_t)(m ? m : 1) * sizeof *entries);
  if (!entries) abort();
  for (uint64_t e = 0; e < m; e++) entries[e] = (fz_arc){coo.src[e], coo.dst[e], weights ? coo.w[e] : 0};
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  o.threads = threads;
  o.use_cache = false;
  o.progress = -1;
  st = gr_graph_from_coo(&g, &coo, &o);
  if (st < 0) {
    /* Only a graph too large for the (limited) host may fail here. */
    FZ_ASSERT(st == GR_ERR_HOST_OOM || st == GR_ERR_TOO_LARGE, "the build of a parsed edge list failed: %s",
              gr_status_name(st));
    goto cleanup;
  }
  /* Undirected graphs lose self-loops and duplicates by default. */
  fz_compare_naive(gr_graph_out(g), n, entries, (size_t)m, undirected, undirected, undirected, weights);
  FZ_ASSERT(gr_graph_has_weights(g) == weights, "the file's weights were %s", weights ? "lost" : "invented");
  fz_check_built_graph(g, undirected, undirected);
  FZ_ASSERT(gr_graph_is_directed(g) == !undirected, "directed flag lost");
  /* Ids as in the input and back. */
  for (gr_vid v = 0; v < gr_graph_num_vertices(g); v++) {
    gr_vid back = 0;
    const uint64_t id = gr_graph_original_id(g, v);
    FZ_ASSERT(gr_graph_find_vertex(g, id, &back) == GR_SUCCESS && back == v,
              "vertex %llu has input id %llu, which finds %llu", (unsigned long long)v, (unsigned long long)id,
              (unsigned long long)back);
  }
cleanup:
  gr_graph_destroy(&g);
  gr_coo_free(&coo);
  gr__text_free(&text);
  free(entries);
}
