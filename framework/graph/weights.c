/* SPDX-License-Identifier: Apache-2.0 */
/* Edge weights: the "file | none | random:LO:HI" spec, and generated weights
 * that depend only on (seed, {u, v}), so both directions of an undirected
 * edge agree and any thread count gives the same graph. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gr/util.h"
#include "graph_internal.h"

/* Keeps weight streams apart from the generators' streams. */
#define GR__WEIGHT_STREAM 0x77656967687473ull

gr_status gr_weight_spec_parse(gr_weight_spec *out, const char *text) {
  gr_weight_spec s = GR_WEIGHT_SPEC_INIT;
  if (!out || !text) return gr_errorf(GR_ERR_INVALID_ARG, "gr_weight_spec_parse: NULL argument");
  if (!strcmp(text, "file")) {
    s.kind = GR_WEIGHTS_FILE;
  } else if (!strcmp(text, "none")) {
    s.kind = GR_WEIGHTS_NONE;
  } else if (!strncmp(text, "random:", 7)) {
    const char *lo = text + 7;
    /* The separator is the first ':' after the first character, so that a
     * negative LO ("random:-5:5") reads well. */
    const char *colon = *lo ? strchr(lo + 1, ':') : NULL;
    bool ilo = false, ihi = false;
    /* A bound written as an integer may be beyond what 64-bit integers
     * hold: the bounds are doubles either way. */
    if (!colon || !gr_parse_real(lo, (size_t)(colon - lo), true, &s.lo, &ilo) ||
        !gr_parse_real(colon + 1, strlen(colon + 1), true, &s.hi, &ihi))
      return gr_errorf(GR_ERR_INVALID_ARG,
                       "weights: random:LO:HI needs two numbers, e.g. random:1:64, got '%s'", text);
    if (s.lo > s.hi)
      return gr_errorf(GR_ERR_INVALID_ARG, "weights: random:LO:HI needs LO <= HI, got '%s'", text);
    s.kind = GR_WEIGHTS_RANDOM;
    s.integer = ilo && ihi;
  } else {
    return gr_errorf(GR_ERR_INVALID_ARG, "weights must be file, none or random:LO:HI, got '%s'", text);
  }
  *out = s;
  return GR_SUCCESS;
}

void gr__weight_spec_format(char *buf, size_t len, const gr_weight_spec *spec) {
  switch (spec->kind) {
    case GR_WEIGHTS_NONE: snprintf(buf, len, "none"); break;
    case GR_WEIGHTS_RANDOM:
      snprintf(buf, len, "random:%.17g:%.17g%s", spec->lo, spec->hi, spec->integer ? ":int" : "");
      break;
    default: snprintf(buf, len, "file"); break;
  }
}

/* The key of an edge: both endpoints, smaller first. Ids below 2^32 pack
 * exactly, so 32- and 64-bit builds draw the same weights. */
static inline uint64_t gr__edge_key(uint64_t u, uint64_t v) {
  uint64_t a = u < v ? u : v, b = u < v ? v : u;
  if (b >> 32 == 0) return a << 32 | b;
  return gr_mix64(a ^ 0x5bd1e9955bd1e995ull) ^ b;
}

/* The first row of block b of the summary's blocks: the first row whose
 * arcs start at or past b/BLOCKS of the arcs. Fixed by the offsets alone,
 * so the sum's order is the same on any thread count; blocks of even arcs,
 * so that hubs with neighbouring ids still spread over the threads. */
static gr_vid gr__block_first(const gr_csr *c, uint64_t b) {
  if (b == 0) return 0;
  if (b >= GR_WEIGHT_SUMMARY_BLOCKS) return c->n;
  const gr_eid at = (gr_eid)gr__part((uint64_t)c->m, b, GR_WEIGHT_SUMMARY_BLOCKS);
  gr_vid lo = 0, hi = c->n;
  while (lo < hi) {
    const gr_vid mid = lo + (hi - lo) / 2;
    if (c->offsets[mid] < at)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* One block's share of a summary. */
typedef struct gr__wblock {
  double sum;
  gr_weight least;
  uint64_t rows;
  gr_vid bad;
} gr__wblock;

/* A weight that a search cannot take: negative, infinite or NaN. */
static inline bool gr__weight_bad(gr_weight w) { return !(w >= 0) || isinf(w); }

/* Adds arc weight w of row u to a block's share. */
static inline void gr__wblock_add(gr__wblock *k, gr_vid u, gr_weight w, gr_vid none) {
  k->sum += (double)w;
  if (w > 0 && w < k->least) k->least = w;
  if (gr__weight_bad(w) && k->bad == none) k->bad = u;
}

/* The blocks' shares in order: the summary. */
static void gr__wblocks_sum(const gr__wblock *blk, const gr_csr *c, gr_weight_summary *out) {
  gr_weight_summary s = {0.0, INFINITY, 0, c->n};
  for (int b = 0; b < GR_WEIGHT_SUMMARY_BLOCKS; b++) {
    s.sum += blk[b].sum;
    if (blk[b].least < s.least_positive) s.least_positive = blk[b].least;
    s.rows_with_arcs += blk[b].rows;
    if (blk[b].bad < s.first_bad_row) s.first_bad_row = blk[b].bad;
  }
  *out = s;
}

gr_status gr_csr_weight_summary(const gr_csr *c, int threads, gr_weight_summary *out) {
  if (!c || !out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_csr_weight_summary: NULL argument");
  if (!c->weights && c->m > 0) return gr_errorf(GR_ERR_INVALID_ARG, "a weight summary of arcs without weights");
  gr__wblock *blk = NULL;
  GR_CHECK(gr_host_alloc((void **)&blk, GR_WEIGHT_SUMMARY_BLOCKS * sizeof *blk, "weight summary"));
  (void)threads;
  GR__OMP(parallel for schedule(dynamic, 1) num_threads(threads > 0 ? threads : gr_host_threads()))
  for (int b = 0; b < GR_WEIGHT_SUMMARY_BLOCKS; b++) {
    gr__wblock k = {0.0, INFINITY, 0, c->n};
    const gr_vid r1 = gr__block_first(c, (uint64_t)b + 1);
    for (gr_vid u = gr__block_first(c, (uint64_t)b); u < r1; u++) {
      k.rows += c->offsets[u + 1] > c->offsets[u];
      for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) gr__wblock_add(&k, u, c->weights[e], c->n);
    }
    blk[b] = k;
  }
  gr__wblocks_sum(blk, c, out);
  free(blk);
  return GR_SUCCESS;
}

gr_status gr__weights_generate(gr_weight **out, gr_weight_summary *summary, const gr_csr *c,
                               const gr_weight_spec *spec, uint64_t seed, int threads) {
  gr_status st = GR_SUCCESS;
  gr_weight *w = NULL;
  gr__wblock *blk = NULL;
  GR_CHECK_GOTO(gr_host_alloc((void **)&w, (size_t)c->m * sizeof *w, "random weights"), st, cleanup);
  GR_CHECK_GOTO(gr_host_alloc((void **)&blk, GR_WEIGHT_SUMMARY_BLOCKS * sizeof *blk, "weight summary"), st, cleanup);
  const double lo = spec->lo, hi = spec->hi;
  /* Integers: uniform over the hi - lo + 1 values; reals: uniform in
   * [lo, hi]. */
  const double span = spec->integer ? floor(hi) - ceil(lo) + 1.0 : hi - lo;
  const double base = spec->integer ? ceil(lo) : lo;
  const bool integer = spec->integer;
  /* gr_rand64(seed, stream, key) is mix(mix(seed ^ mix(stream')) ^ key):
   * the part without the key once, not once an arc. */
  const uint64_t keyed = gr_mix64(seed ^ gr_mix64(GR__WEIGHT_STREAM + 0x632be59bd9b4e019ull));
  /* The summary's blocks (gr_graph_weight_summary), each summed as it is
   * drawn: a search's checks and its bucket width then read no weight. */
  GR__OMP(parallel for schedule(dynamic, 1) num_threads(threads))
  for (int b = 0; b < GR_WEIGHT_SUMMARY_BLOCKS; b++) {
    gr__wblock k = {0.0, INFINITY, 0, c->n};
    const gr_vid r1 = gr__block_first(c, (uint64_t)b + 1);
    for (gr_vid u = gr__block_first(c, (uint64_t)b); u < r1; u++) {
      const gr_eid e0 = c->offsets[u], e1 = c->offsets[u + 1];
      k.rows += e1 > e0;
      for (gr_eid e = e0; e < e1; e++) {
        const double r = gr_u01(gr_mix64(keyed ^ gr__edge_key(u, c->indices[e])));
        double x = integer ? base + floor(r * span) : base + r * span;
        if (x > hi) x = hi;
        w[e] = (gr_weight)x;
        gr__wblock_add(&k, u, w[e], c->n);
      }
    }
    blk[b] = k;
  }
  gr__wblocks_sum(blk, c, summary);
  *out = w;
  w = NULL;
cleanup:
  free(blk);
  free(w);
  return st;
}
