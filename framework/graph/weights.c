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

gr_status gr__weights_generate(gr_weight **out, const gr_csr *c, const gr_weight_spec *spec,
                               uint64_t seed, int threads) {
  gr_weight *w = NULL;
  GR_CHECK(gr_host_alloc((void **)&w, (size_t)c->m * sizeof *w, "random weights"));
  const double lo = spec->lo, hi = spec->hi;
  /* Integers: uniform over the hi - lo + 1 values; reals: uniform in
   * [lo, hi]. */
  const double span = spec->integer ? floor(hi) - ceil(lo) + 1.0 : hi - lo;
  const double base = spec->integer ? ceil(lo) : lo;
  GR__OMP(parallel for schedule(dynamic, 1024) num_threads(threads))
  for (uint64_t u = 0; u < (uint64_t)c->n; u++)
    for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) {
      double r = gr_u01(gr_rand64(seed, GR__WEIGHT_STREAM, gr__edge_key(u, c->indices[e])));
      double x = spec->integer ? base + floor(r * span) : base + r * span;
      if (x > hi) x = hi;
      w[e] = (gr_weight)x;
    }
  *out = w;
  return GR_SUCCESS;
}
