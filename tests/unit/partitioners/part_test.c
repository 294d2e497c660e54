/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by the partitioner tests (see part_test.h). */
#include "part_test.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "gr/gen.h"
#include "testutil.h"

static long pt_countdown = -1;

void pt_fail_alloc_after(long n) { pt_countdown = n; }

static bool pt_fail_now(void) {
  if (pt_countdown < 0) return false;
  return pt_countdown-- == 0;
}

void *__real_malloc(size_t n);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t n);

void *__wrap_malloc(size_t n) { return pt_fail_now() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t count, size_t size) { return pt_fail_now() ? NULL : __real_calloc(count, size); }
void *__wrap_realloc(void *p, size_t n) { return pt_fail_now() ? NULL : __real_realloc(p, n); }

gr_graph *pt_gen(const char *spec, bool weighted) {
  gr_gen_spec s;
  gr_status st = gr_gen_parse(&s, spec);
  ck_assert_msg(st == GR_SUCCESS, "parsing %s: %s", spec, gr_error_message());
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  o.use_cache = false;
  o.progress = -1;
  if (weighted) {
    st = gr_weight_spec_parse(&o.weights, "random:1:9");
    ck_assert_msg(st == GR_SUCCESS, "weight spec: %s", gr_error_message());
  }
  gr_graph *g = NULL;
  st = gr_gen_graph(&g, &s, &o);
  ck_assert_msg(st == GR_SUCCESS, "generating %s: %s", spec, gr_error_message());
  return g;
}

gr_graph *pt_edges(uint64_t n, const gr_vid (*edges)[2], uint64_t m, bool undirected) {
  gr_coo c = GR_COO_INIT;
  ck_assert_int_eq(gr_coo_reserve(&c, m, false), GR_SUCCESS);
  c.n = n;
  for (uint64_t e = 0; e < m; e++) ck_assert_int_eq(gr_coo_push(&c, edges[e][0], edges[e][1], 0), GR_SUCCESS);
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  o.undirected = undirected;
  o.progress = -1;
  gr_graph *g = NULL;
  gr_status st = gr_graph_from_coo(&g, &c, &o);
  ck_assert_msg(st == GR_SUCCESS, "building a graph from edges: %s", gr_error_message());
  return g;
}

gr_graph *pt_karate(void) {
  char buf[4096];
  const char *path = gr_test_data_file(buf, sizeof buf, "karate.mtx");
  if (!path) return NULL;
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  o.use_cache = false;
  o.progress = -1;
  gr_graph *g = NULL;
  gr_status st = gr_graph_load(&g, path, &o);
  ck_assert_msg(st == GR_SUCCESS, "loading %s: %s", path, gr_error_message());
  return g;
}

gr_partition *pt_partition(gr_graph *g, gr_partitioner_kind kind, int parts, uint64_t seed, int threads) {
  gr_partition_options o = GR_PARTITION_OPTIONS_INIT;
  o.kind = kind;
  o.parts = parts;
  o.seed = seed;
  o.threads = threads;
  gr_partition *p = NULL;
  gr_status st = gr_partition_create(&p, g, &o);
  ck_assert_msg(st == GR_SUCCESS, "%s partition into %d parts of %s: %s", gr_partitioner_name(kind), parts,
                gr_graph_name(g), gr_error_message());
  ck_assert_ptr_nonnull(p);
  return p;
}

static int pt_arc_cmp(const void *a, const void *b) {
  const pt_arc *x = a, *y = b;
  if (x->src != y->src) return x->src < y->src ? -1 : 1;
  if (x->dst != y->dst) return x->dst < y->dst ? -1 : 1;
  uint32_t bx, by;
  memcpy(&bx, &x->w, sizeof bx);
  memcpy(&by, &y->w, sizeof by);
  return (bx > by) - (bx < by);
}

void pt_sort_arcs(pt_arc *a, uint64_t m) { qsort(a, m, sizeof *a, pt_arc_cmp); }

pt_arc *pt_graph_arcs(const gr_graph *g, uint64_t *m) {
  const gr_csr *c = gr_graph_out(g);
  pt_arc *a = malloc((c->m ? c->m : 1) * sizeof *a);
  ck_assert_ptr_nonnull(a);
  for (uint64_t u = 0; u < c->n; u++)
    for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++)
      a[e] = (pt_arc){(gr_vid)u, c->indices[e], c->weights ? c->weights[e] : 0};
  pt_sort_arcs(a, c->m);
  *m = c->m;
  return a;
}
