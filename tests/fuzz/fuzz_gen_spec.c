/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: generator spec strings (gr_run --gen, gr_gen). A spec that
 * parses must print as canonical text that parses back to the same spec
 * and prints the same again; a refused one is an invalid argument with a
 * message that quotes it. Small specs are also generated and built, and
 * the graph checked against the spec's sizes. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "gen_internal.h"

static bool fz_same_spec(const gr_gen_spec *a, const gr_gen_spec *b) {
  return a->kind == b->kind && a->scale == b->scale && !memcmp(&a->edge_factor, &b->edge_factor, sizeof(double)) &&
         !memcmp(&a->a, &b->a, sizeof(double)) && !memcmp(&a->b, &b->b, sizeof(double)) &&
         !memcmp(&a->c, &b->c, sizeof(double)) && !memcmp(a->dims, b->dims, sizeof a->dims) &&
         a->seed == b->seed && a->permute == b->permute && a->directed == b->directed;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fz_init();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fz_string(data, size);
  if (!text) return 0;
  gr_gen_spec spec, again;
  memset(&spec, 0, sizeof spec);
  gr_status st = gr_gen_parse(&spec, text);
  if (st < 0) {
    FZ_ASSERT(st == GR_ERR_INVALID_ARG, "a bad spec gave %s", gr_status_name(st));
    FZ_ASSERT(!strncmp(gr_error_message(), "generator spec \"", 16), "the message does not quote the spec: %s",
              gr_error_message());
    free(text);
    return 0;
  }
  char canon[512], canon2[512];
  gr_gen_format(&spec, canon, sizeof canon);
  FZ_ASSERT(strlen(canon) + 1 < sizeof canon, "canonical text cut: %s", canon);
  memset(&again, 0, sizeof again);
  st = gr_gen_parse(&again, canon);
  FZ_ASSERT(st == GR_SUCCESS, "the canonical text \"%s\" of \"%s\" does not parse", canon, text);
  FZ_ASSERT(fz_same_spec(&spec, &again), "\"%s\" parses back to another spec than \"%s\"", canon, text);
  gr_gen_format(&again, canon2, sizeof canon2);
  FZ_ASSERT(!strcmp(canon, canon2), "canonical text not stable: \"%s\" then \"%s\"", canon, canon2);

  uint64_t n = 0, m = 0;
  st = gr__gen_size(&spec, &n, &m);
  FZ_ASSERT(st == GR_SUCCESS, "a parsed spec fails its size check");
  if (n > (1u << 12) || m > (1u << 14)) {
    free(text);
    return 0;
  }
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  o.threads = 1 + (int)(size % 3);
  o.use_cache = false;
  o.progress = -1;
  gr_graph *g = NULL;
  st = gr_gen_graph(&g, &spec, &o);
  FZ_ASSERT(st == GR_SUCCESS, "generating \"%s\" failed: %s", canon, gr_error_message());
  FZ_ASSERT(gr_graph_num_vertices(g) == n, "\"%s\": %llu vertices, the spec says %llu", canon,
            (unsigned long long)gr_graph_num_vertices(g), (unsigned long long)n);
  FZ_ASSERT(gr_graph_is_directed(g) == spec.directed, "\"%s\": directed flag lost", canon);
  const bool und = !spec.directed;
  fz_check_built_graph(g, und, und);
  if (spec.kind == GR_GEN_GRID2D || spec.kind == GR_GEN_GRID3D)
    FZ_ASSERT(gr_graph_num_edges(g) == m, "\"%s\": %llu edges, the spec says %llu", canon,
              (unsigned long long)gr_graph_num_edges(g), (unsigned long long)m);
  gr_graph_destroy(&g);
  free(text);
  return 0;
}
