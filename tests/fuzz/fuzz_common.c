/* SPDX-License-Identifier: Apache-2.0 */
/* The fuzz targets' shared set-up and oracles (see fuzz.h). Everything here
 * is naive on purpose: it must be obviously right, not fast. */
#include "fuzz.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gr/util.h"

void fz_init(void) { gr_host_memory_limit(FZ_HOST_LIMIT); }

void fz_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "fuzz oracle: ");
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n  last gr error: %s (%s)\n", gr_error_message(), gr_status_name(gr_error_status()));
  fflush(stderr);
  abort();
}

void fz_expect_input_error(gr_status st, const char *name) {
  FZ_ASSERT(st < 0, "expected a failure, got status %d", (int)st);
  FZ_ASSERT(st == GR_ERR_BAD_INPUT || st == GR_ERR_TOO_LARGE || st == GR_ERR_UNSUPPORTED ||
                st == GR_ERR_HOST_OOM,
            "a reader failed with %s, which is not an input error", gr_status_name(st));
  const char *msg = gr_error_message();
  FZ_ASSERT(msg && *msg, "a reader failed with %s and no message", gr_status_name(st));
  FZ_ASSERT(strstr(msg, name) != NULL, "the message does not name the input %s: %s", name, msg);
}

char *fz_string(const uint8_t *data, size_t size) {
  if (memchr(data, 0, size)) return NULL;
  char *s = malloc(size + 1);
  if (!s) abort();
  memcpy(s, data, size);
  s[size] = '\0';
  return s;
}

void fz_check_csr(const gr_csr *c, bool sorted, const char *what) {
  FZ_ASSERT(c->offsets != NULL, "%s: no offsets", what);
  FZ_ASSERT(c->offsets[0] == 0, "%s: offsets start at %llu", what, (unsigned long long)c->offsets[0]);
  FZ_ASSERT(c->offsets[c->n] == c->m, "%s: offsets end at %llu, m = %llu", what,
            (unsigned long long)c->offsets[c->n], (unsigned long long)c->m);
  FZ_ASSERT(c->m == 0 || c->indices != NULL, "%s: %llu arcs and no indices", what, (unsigned long long)c->m);
  for (uint64_t u = 0; u < (uint64_t)c->n; u++) {
    FZ_ASSERT(c->offsets[u] <= c->offsets[u + 1], "%s: offsets decrease at row %llu", what,
              (unsigned long long)u);
    for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) {
      FZ_ASSERT(c->indices[e] < c->n, "%s: row %llu names vertex %llu of %llu", what,
                (unsigned long long)u, (unsigned long long)c->indices[e], (unsigned long long)c->n);
      if (sorted && e > c->offsets[u])
        FZ_ASSERT(c->indices[e - 1] <= c->indices[e], "%s: row %llu is not sorted", what, (unsigned long long)u);
    }
  }
}

/* The build's weight order: the bit patterns of floats as ordered keys. */
static uint32_t fz_wkey(gr_weight w) {
  uint32_t b;
  memcpy(&b, &w, sizeof b);
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

/* [lo, hi) of the run of v in row u (rows sorted). */
static void fz_run(const gr_csr *c, uint64_t u, gr_vid v, gr_eid *lo, gr_eid *hi) {
  gr_eid a = c->offsets[u], b = c->offsets[u + 1];
  while (a < b && c->indices[a] < v) a++;
  gr_eid z = a;
  while (z < b && c->indices[z] == v) z++;
  *lo = a;
  *hi = z;
}

void fz_check_built_graph(gr_graph *g, bool no_duplicates, bool no_loops) {
  const gr_csr *c = gr_graph_out(g);
  fz_check_csr(c, true, "out-edges");
  gr_eid loops = 0;
  for (uint64_t u = 0; u < (uint64_t)c->n; u++)
    for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) {
      loops += c->indices[e] == (gr_vid)u;
      if (no_duplicates && e > c->offsets[u])
        FZ_ASSERT(c->indices[e - 1] < c->indices[e], "row %llu keeps a duplicate of %llu",
                  (unsigned long long)u, (unsigned long long)c->indices[e]);
    }
  FZ_ASSERT(loops == gr_graph_num_self_loops(g), "%llu self-loops stored, the graph says %llu",
            (unsigned long long)loops, (unsigned long long)gr_graph_num_self_loops(g));
  FZ_ASSERT(!no_loops || loops == 0, "%llu self-loops kept where they were to be removed",
            (unsigned long long)loops);
  if (!gr_graph_is_directed(g)) {
    FZ_ASSERT((c->m + loops) % 2 == 0, "undirected graph with %llu arcs and %llu loops",
              (unsigned long long)c->m, (unsigned long long)loops);
    FZ_ASSERT(gr_graph_num_edges(g) == (c->m + loops) / 2, "undirected edge count %llu for %llu arcs",
              (unsigned long long)gr_graph_num_edges(g), (unsigned long long)c->m);
    for (uint64_t u = 0; u < (uint64_t)c->n; u++)
      for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) {
        const gr_vid v = c->indices[e];
        if ((uint64_t)v <= u) continue;
        gr_eid a, b, x, y;
        fz_run(c, u, v, &a, &b);
        fz_run(c, v, (gr_vid)u, &x, &y);
        FZ_ASSERT(b - a == y - x, "undirected graph: %llu arcs %llu->%llu but %llu back",
                  (unsigned long long)(b - a), (unsigned long long)u, (unsigned long long)v,
                  (unsigned long long)(y - x));
        if (c->weights)
          for (gr_eid k = 0; k < b - a; k++)
            FZ_ASSERT(fz_wkey(c->weights[a + k]) == fz_wkey(c->weights[x + k]),
                      "undirected graph: the weights of %llu-%llu differ by direction",
                      (unsigned long long)u, (unsigned long long)v);
        e = b - 1;
      }
  } else {
    FZ_ASSERT(gr_graph_num_edges(g) == c->m, "directed edge count %llu for %llu arcs",
              (unsigned long long)gr_graph_num_edges(g), (unsigned long long)c->m);
  }
  const gr_csr *in = NULL;
  gr_status st = gr_graph_in(g, &in);
  if (st == GR_ERR_HOST_OOM) return;
  FZ_ASSERT(st == GR_SUCCESS && in, "gr_graph_in failed: %s", gr_status_name(st));
  FZ_ASSERT(in->n == c->n && in->m == c->m, "in-edges: %llu vertices, %llu arcs for %llu, %llu",
            (unsigned long long)in->n, (unsigned long long)in->m, (unsigned long long)c->n,
            (unsigned long long)c->m);
  FZ_ASSERT((in->weights != NULL) == (c->weights != NULL), "in-edges: weights %s",
            in->weights ? "appear" : "vanish");
  fz_check_csr(in, true, "in-edges");
  /* The naive transpose, rows filled in source order, equals the CSC. */
  gr_eid *at = calloc((size_t)c->n + 1, sizeof *at);
  if (!at) abort();
  for (gr_eid e = 0; e < c->m; e++) at[c->indices[e]]++;
  for (uint64_t v = 0; v < (uint64_t)c->n; v++)
    FZ_ASSERT(in->offsets[v + 1] - in->offsets[v] == at[v], "in-degree of %llu is %llu, counted %llu",
              (unsigned long long)v, (unsigned long long)(in->offsets[v + 1] - in->offsets[v]),
              (unsigned long long)at[v]);
  for (uint64_t v = 0; v < (uint64_t)c->n; v++) at[v] = in->offsets[v];
  for (uint64_t u = 0; u < (uint64_t)c->n; u++)
    for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) {
      const gr_eid k = at[c->indices[e]]++;
      FZ_ASSERT(in->indices[k] == (gr_vid)u, "in-edges of %llu: %llu where %llu belongs",
                (unsigned long long)c->indices[e], (unsigned long long)in->indices[k], (unsigned long long)u);
      if (c->weights)
        FZ_ASSERT(fz_wkey(in->weights[k]) == fz_wkey(c->weights[e]), "in-edges of %llu: a weight differs",
                  (unsigned long long)c->indices[e]);
    }
  free(at);
}

static int fz_arc_cmp(const void *pa, const void *pb) {
  const fz_arc *a = pa, *b = pb;
  if (a->src != b->src) return a->src < b->src ? -1 : 1;
  if (a->dst != b->dst) return a->dst < b->dst ? -1 : 1;
  const uint32_t x = fz_wkey(a->w), y = fz_wkey(b->w);
  return x < y ? -1 : x > y;
}

void fz_compare_naive(const gr_csr *c, uint64_t n, const fz_arc *entries, size_t count,
                      bool undirected, bool drop_loops, bool drop_dups, bool weights) {
  fz_arc *arcs = malloc((2 * count + 1) * sizeof *arcs);
  if (!arcs) abort();
  size_t m = 0;
  for (size_t i = 0; i < count; i++) {
    fz_arc a = entries[i];
    if (!weights) a.w = 0;
    if (a.src == a.dst && drop_loops) continue;
    arcs[m++] = a;
    if (undirected && a.src != a.dst) arcs[m++] = (fz_arc){a.dst, a.src, a.w};
  }
  qsort(arcs, m, sizeof *arcs, fz_arc_cmp);
  if (drop_dups) {
    size_t k = 0;
    for (size_t i = 0; i < m; i++)
      if (k == 0 || arcs[i].src != arcs[k - 1].src || arcs[i].dst != arcs[k - 1].dst) arcs[k++] = arcs[i];
    m = k;
  }
  FZ_ASSERT(c->n == n, "the CSR has %llu vertices, the edge list %llu", (unsigned long long)c->n,
            (unsigned long long)n);
  FZ_ASSERT(c->m == m, "the CSR has %llu arcs, the naive build %zu", (unsigned long long)c->m, m);
  FZ_ASSERT(!weights || c->weights != NULL || m == 0, "the CSR lacks weights");
  size_t i = 0;
  for (uint64_t u = 0; u < n; u++)
    for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++, i++) {
      FZ_ASSERT(arcs[i].src == (gr_vid)u && arcs[i].dst == c->indices[e],
                "arc %zu is %llu->%llu, the naive build has %llu->%llu", i, (unsigned long long)u,
                (unsigned long long)c->indices[e], (unsigned long long)arcs[i].src,
                (unsigned long long)arcs[i].dst);
      if (weights)
        FZ_ASSERT(fz_wkey(c->weights[e]) == fz_wkey(arcs[i].w), "arc %zu (%llu->%llu): weight %g, naive %g", i,
                  (unsigned long long)u, (unsigned long long)c->indices[e], (double)c->weights[e],
                  (double)arcs[i].w);
    }
  free(arcs);
}
