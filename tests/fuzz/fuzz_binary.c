/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: gr's binary CSR format (.grb, also the load cache). Each
 * input is read twice when it carries the magic: as it is (the checksums
 * stop nearly every change) and sealed, its checksums recomputed, so that
 * the header's layout checks, the CSR checks and every later stage see the
 * changed contents. A file shorter or longer than its header says is
 * refused by the layout check. The bytes are mapped as the reader maps a
 * file (anonymous memory standing for it); a graph that loads must look
 * like one gr built (sorted rows, self-loop count, symmetry when
 * undirected), and is transposed and rebuilt under load options. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "fuzz.h"
#include "graph_internal.h"

#define FZ_NAME "fuzz.grb"

/* A graph read from a binary file passes the same checks as one from the
 * build (the reader guarantees sorted rows, the self-loop count and, for
 * undirected graphs, symmetry), and its ids map back and forth. */
static void fz_check_mapped(gr_graph *g) {
  const gr_vid n = gr_graph_num_vertices(g);
  for (gr_vid v = 0; v < n; v++) {
    gr_vid back = 0;
    const uint64_t id = gr_graph_original_id(g, v);
    FZ_ASSERT(gr_graph_find_vertex(g, id, &back) == GR_SUCCESS && back == v,
              "vertex %llu has input id %llu, which finds %llu", (unsigned long long)v, (unsigned long long)id,
              (unsigned long long)back);
  }
  fz_check_built_graph(g, false, false);
}

static void fz_read(const uint8_t *data, size_t size, int threads, unsigned char options) {
  gr_graph *g = NULL;
  void *map = mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) abort();
  memcpy(map, data, size);
  gr_status st = gr__binary_adopt(&g, map, size, FZ_NAME, NULL, 0, threads, NULL);
  if (st < 0) {
    fz_expect_input_error(st, FZ_NAME);
    return;
  }
  fz_check_mapped(g);
  /* Load options on a binary graph: an undirected view, removals and
   * weights, chosen by a byte of the input. */
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  o.threads = threads;
  o.use_cache = false;
  o.progress = -1;
  o.undirected = options & 1;
  o.self_loops = (options & 2) ? GR_CLEAN_REMOVE : GR_CLEAN_DEFAULT;
  o.duplicates = (options & 4) ? GR_CLEAN_REMOVE : GR_CLEAN_DEFAULT;
  if (options & 8) {
    o.weights.kind = GR_WEIGHTS_RANDOM;
    o.weights.lo = 1;
    o.weights.hi = 9;
    o.weights.integer = true;
  } else if (options & 16) {
    o.weights.kind = GR_WEIGHTS_NONE;
  }
  st = gr__binary_apply_options(&g, &o);
  if (st < 0) {
    FZ_ASSERT(st == GR_ERR_HOST_OOM || st == GR_ERR_TOO_LARGE, "load options on a binary graph: %s",
              gr_status_name(st));
    gr_graph_destroy(&g);
    return;
  }
  FZ_ASSERT(g != NULL, "load options left no graph");
  if (o.weights.kind != GR_WEIGHTS_FILE)
    FZ_ASSERT(gr_graph_has_weights(g) == (o.weights.kind == GR_WEIGHTS_RANDOM), "weights option not applied");
  if (o.undirected) FZ_ASSERT(!gr_graph_is_directed(g), "the undirected option was not applied");
  if (!g->map) {
    /* Rebuilt through the CSR build, under the options' cleaning rules. */
    const bool und = !gr_graph_is_directed(g);
    fz_check_built_graph(g, o.duplicates == GR_CLEAN_REMOVE || und, o.self_loops == GR_CLEAN_REMOVE || und);
  } else {
    fz_check_csr(gr_graph_out(g), false, "binary graph under load options");
  }
  gr_graph_destroy(&g);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fz_init();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const int threads = 1 + (int)(size % 3);
  /* The last byte picks the load options (it lies in the padding after the
   * last array in a well-formed file). */
  const unsigned char options = size ? data[size - 1] : 0;
  fz_read(data, size, threads, options);
  if (size >= 256 && gr__looks_like_binary((const char *)data, size)) {
    uint8_t *copy = malloc(size);
    if (!copy) abort();
    memcpy(copy, data, size);
    if (gr__binary_seal(copy, size) == GR_SUCCESS) fz_read(copy, size, threads, options);
    free(copy);
  }
  return 0;
}
