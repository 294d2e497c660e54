/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: the graph build that follows every successful parse
 * (gr_graph_from_coo: CSR, symmetrize, self-loops and duplicates, file or
 * random weights, then the CSC), compared exactly with a naive build.
 * Input layout:
 *   byte 0   bit 0 undirected, bits 1-2 self-loops (default, keep, remove),
 *            bits 3-4 duplicates (same), bit 5 the edge list has weights,
 *            bits 6-7 weight option (file, none, random, file)
 *   byte 1   bit 0 random weights are integers, bit 1 the edge list is
 *            symmetric (Matrix Market "symmetric"), bit 2 ids may lie
 *            outside 0..n-1 (then the build must refuse them), bits 3-4
 *            extra threads
 *   byte 2   random weights: low bound (signed), byte 3 its span
 *   bytes 4-5 vertex count, 12 bits little endian (0 allowed; at most 4095
 *            keeps executions fast and still spans several row buckets)
 *   then entries of 4 bytes (16-bit source and target) or, with weights,
 *   8 bytes (and a 32-bit float, any bit pattern: NaN and infinities too). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static gr_clean_mode fz_clean(unsigned bits) {
  return bits == 1 ? GR_CLEAN_KEEP : bits == 2 ? GR_CLEAN_REMOVE : GR_CLEAN_DEFAULT;
}

static bool fz_cleans(gr_clean_mode mode, bool undirected) {
  return mode == GR_CLEAN_REMOVE || (mode == GR_CLEAN_DEFAULT && undirected);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fz_init();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 6) return 0;
  const unsigned f0 = data[0], f1 = data[1];
  const bool has_w = f0 & 32, wild = f1 & 4;
  const uint64_t n = (uint64_t)data[4] | (uint64_t)(data[5] & 0x0f) << 8;
  const size_t rec = has_w ? 8 : 4, count = (size - 6) / rec;
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  o.undirected = f0 & 1;
  o.self_loops = fz_clean((f0 >> 1) & 3);
  o.duplicates = fz_clean((f0 >> 3) & 3);
  const unsigned wk = (f0 >> 6) & 3;
  o.weights.kind = wk == 1 ? GR_WEIGHTS_NONE : wk == 2 ? GR_WEIGHTS_RANDOM : GR_WEIGHTS_FILE;
  o.weights.lo = (double)(int8_t)data[2];
  o.weights.hi = o.weights.lo + (double)data[3];
  o.weights.integer = f1 & 1;
  o.seed = size;
  o.threads = 1 + (int)((f1 >> 3) & 3);
  o.use_cache = false;
  o.progress = -1;

  gr_coo coo = GR_COO_INIT;
  fz_arc *entries = malloc((count ? count : 1) * sizeof *entries);
  if (!entries || gr_coo_reserve(&coo, count, has_w) != GR_SUCCESS) abort();
  bool in_range = true;
  for (size_t i = 0; i < count; i++) {
    const uint8_t *p = data + 6 + i * rec;
    uint64_t s = (uint64_t)p[0] | (uint64_t)p[1] << 8, d = (uint64_t)p[2] | (uint64_t)p[3] << 8;
    if (!wild) {
      s = n ? s % n : 0;
      d = n ? d % n : 0;
    }
    in_range = in_range && s < n && d < n;
    gr_weight w = 0;
    if (has_w) memcpy(&w, p + 4, sizeof w);
    coo.src[i] = (gr_vid)s;
    coo.dst[i] = (gr_vid)d;
    if (coo.w) coo.w[i] = w;
    entries[i] = (fz_arc){(gr_vid)s, (gr_vid)d, w};
  }
  /* Without wild ids an empty id range has no room for entries. */
  coo.m = n || wild ? count : 0;
  coo.n = n;
  coo.symmetric = f1 & 2;
  const size_t m = (size_t)coo.m;
  const bool undirected = o.undirected || coo.symmetric;
  const bool file_w = has_w && o.weights.kind == GR_WEIGHTS_FILE;

  gr_graph *g = NULL;
  gr_status st = gr_graph_from_coo(&g, &coo, &o);
  if (!in_range && m > 0) {
    FZ_ASSERT(st == GR_ERR_INVALID_ARG, "ids outside 0..%llu were not refused (%s)",
              (unsigned long long)(n ? n - 1 : 0), gr_status_name(st));
    FZ_ASSERT(g == NULL, "a refused build returned a graph");
  } else {
    FZ_ASSERT(st == GR_SUCCESS, "the build failed: %s", gr_error_message());
    const gr_csr *c = gr_graph_out(g);
    const bool loops = fz_cleans(o.self_loops, undirected), dups = fz_cleans(o.duplicates, undirected);
    FZ_ASSERT(gr_graph_is_directed(g) == !undirected, "directed flag wrong");
    fz_compare_naive(c, n, entries, m, undirected, loops, dups, file_w);
    if (o.weights.kind == GR_WEIGHTS_RANDOM) {
      FZ_ASSERT(c->weights != NULL || c->m == 0, "no random weights");
      for (gr_eid e = 0; e < c->m; e++) {
        const double w = c->weights[e];
        FZ_ASSERT(w >= (float)o.weights.lo && w <= (float)o.weights.hi, "random weight %g outside [%g, %g]", w,
                  o.weights.lo, o.weights.hi);
        FZ_ASSERT(!o.weights.integer || w == floor(w), "random weight %g is not an integer", w);
      }
    } else if (!file_w) {
      FZ_ASSERT(c->weights == NULL, "weights that were to be dropped");
    }
    fz_check_built_graph(g, dups, loops);
  }
  gr_graph_destroy(&g);
  gr_coo_free(&coo);
  free(entries);
  return 0;
}
