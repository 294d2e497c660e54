/* SPDX-License-Identifier: Apache-2.0 */
/* The body of the Matrix Market and edge-list fuzz targets (fuzz_text.h). */
#include "fuzz_text.h"

#include <stdio.h>
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

static gr_status fz_parse(gr_coo *coo, const char *name, const gr__text *text, fz_text_format format, int threads,
                          char *msg, size_t msg_len) {
  gr_error_clear();
  gr_status st = format == FZ_TEXT_MTX ? gr__mtx_parse(coo, name, text->data, text->len, true, threads, NULL)
                                       : gr__edgelist_parse(coo, name, text->data, text->len, true, threads, NULL);
  snprintf(msg, msg_len, "%s", gr_error_message());
  return st;
}

/* The same edge list, or the same failure, whatever the chunks. */
static void fz_same_parse(gr_status a, const char *ma, const gr_coo *x, gr_status b, const char *mb, const gr_coo *y) {
  FZ_ASSERT(a == b, "one chunking gives %s, another %s (%s | %s)", gr_status_name(a), gr_status_name(b), ma, mb);
  if (a < 0) {
    FZ_ASSERT(!strcmp(ma, mb), "the error depends on the chunks: \"%s\" and \"%s\"", ma, mb);
    return;
  }
  FZ_ASSERT(x->n == y->n && x->m == y->m && x->symmetric == y->symmetric && x->id_base == y->id_base &&
                (x->w == NULL) == (y->w == NULL) && (x->orig_ids == NULL) == (y->orig_ids == NULL),
            "the edge list's shape depends on the chunks");
  const size_t m = (size_t)x->m;
  FZ_ASSERT(!m || (!memcmp(x->src, y->src, m * sizeof *x->src) && !memcmp(x->dst, y->dst, m * sizeof *x->dst)),
            "the entries depend on the chunks");
  FZ_ASSERT(!m || !x->w || !memcmp(x->w, y->w, m * sizeof *x->w), "the weights depend on the chunks");
  FZ_ASSERT(!x->orig_ids || !memcmp(x->orig_ids, y->orig_ids, (size_t)x->n * sizeof *x->orig_ids),
            "the id map depends on the chunks");
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
  /* Parsed twice: in one chunk (inputs this small), and in chunks of a
   * few bytes, which puts chunk boundaries everywhere. */
  char msg[1024], msg_small[1024];
  gr__chunks_set_min(1 + size % 61);
  gr_status small = fz_parse(&coo, name, &text, format, threads, msg_small, sizeof msg_small);
  gr__chunks_set_min(0);
  gr_coo whole = GR_COO_INIT;
  st = fz_parse(&whole, name, &text, format, threads, msg, sizeof msg);
  fz_same_parse(st, msg, &whole, small, msg_small, &coo);
  gr_coo_free(&coo);
  coo = whole;
  if (st < 0) {
    gr_error_restore(st, msg);
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
