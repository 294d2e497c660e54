/* SPDX-License-Identifier: Apache-2.0 */
/* Biased random partitioner: a greedy streaming pass over the vertices in
 * descending degree order that puts each vertex in the part already holding
 * most of its neighbours, never past the capacity bounds, one on vertices
 * and one on arcs. A part's score is its neighbour count plus the balance
 * term (bias x degree), both scaled by the part's room for arcs (linear
 * deterministic greedy): a device's work follows its arcs, and with the
 * vertices alone bounded a graph with one giant component went whole into
 * one part and its degree-0 vertices into the others (Kronecker 20, 2
 * parts: 1.99 of an even share of the arcs in one). Seeded random choice
 * among equal scores. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gr/util.h"
#include "partition_internal.h"

/* Stream id of the tie-breaking draws (one stream per part). */
#define GR__BIASED_STREAM 0x6269617365640000ull

typedef struct gr__deg_vertex {
  gr_eid deg;
  gr_vid v;
} gr__deg_vertex;

static int gr__deg_desc(const void *a, const void *b) {
  const gr__deg_vertex *x = a, *y = b;
  if (x->deg != y->deg) return x->deg < y->deg ? 1 : -1;
  return (x->v > y->v) - (x->v < y->v);
}

/* Vertices by descending degree, ties by ascending id. A counting sort over
 * degrees 0..n (bucket array no larger than the vertex arrays), with the few
 * vertices of larger degree (at most arcs / n of them) sorted apart. */
static gr_status gr__degree_order(gr_vid *order, const gr_eid *deg, uint64_t n) {
  gr_status st = GR_SUCCESS;
  uint64_t *start = NULL;
  gr__deg_vertex *big = NULL;
  uint64_t n_big = 0;
  for (uint64_t v = 0; v < n; v++) n_big += deg[v] > n;
  GR_CHECK_GOTO(gr_host_calloc((void **)&start, n + 2, sizeof *start, "degree buckets"), st, cleanup);
  GR_CHECK_GOTO(gr_host_alloc((void **)&big, n_big * sizeof *big, "high-degree vertices"), st, cleanup);
  uint64_t k = 0;
  for (uint64_t v = 0; v < n; v++) {
    if (deg[v] > n) big[k++] = (gr__deg_vertex){deg[v], (gr_vid)v};
    else start[deg[v]]++;
  }
  qsort(big, n_big, sizeof *big, gr__deg_desc);
  for (k = 0; k < n_big; k++) order[k] = big[k].v;
  /* Bucket positions from the highest degree down. */
  uint64_t pos = n_big;
  for (uint64_t d = n + 1; d-- > 0;) {
    const uint64_t c = start[d];
    start[d] = pos;
    pos += c;
  }
  for (uint64_t v = 0; v < n; v++)
    if (deg[v] <= n) order[start[deg[v]]++] = (gr_vid)v;
cleanup:
  free(start);
  free(big);
  return st;
}

/* A part's bound on `total` (vertices or arcs): ceil(imbalance * total /
 * parts), never below the ceil(total / parts) that must fit (rounding) nor
 * above total. */
static uint64_t gr__part_bound(double imbalance, uint64_t total, int parts) {
  const uint64_t even = (total + (uint64_t)parts - 1) / (uint64_t)parts;
  const double capd = ceil(imbalance * (double)total / (double)parts);
  const uint64_t cap = capd >= (double)total ? total : (uint64_t)capd;
  return cap < even ? even : cap;
}

gr_status gr__partition_biased(int32_t *owner, gr_graph *g, const gr_partition_options *o) {
  gr_status st = GR_SUCCESS;
  gr_eid *deg = NULL;
  gr_vid *order = NULL;
  uint64_t *size = NULL, *cnt = NULL, *arcs = NULL;
  int32_t *touched = NULL;
  const gr_csr *out = gr_graph_out(g);
  const gr_csr *in = NULL;
  const uint64_t n = out->n;
  const int parts = o->parts;
  if (n == 0) return GR_SUCCESS;
  /* Directed graphs count neighbours over both directions: a part that
   * holds v's in-neighbours also saves cut arcs. */
  if (gr_graph_is_directed(g)) GR_CHECK_GOTO(gr_graph_in(g, &in), st, cleanup);

  GR_CHECK_GOTO(gr_host_alloc((void **)&deg, n * sizeof *deg, "vertex degrees"), st, cleanup);
  GR_CHECK_GOTO(gr_host_alloc((void **)&order, n * sizeof *order, "degree order"), st, cleanup);
  GR_CHECK_GOTO(gr_host_calloc((void **)&size, (size_t)parts, sizeof *size, "part sizes"), st, cleanup);
  GR_CHECK_GOTO(gr_host_calloc((void **)&cnt, (size_t)parts, sizeof *cnt, "part counts"), st, cleanup);
  GR_CHECK_GOTO(gr_host_calloc((void **)&arcs, (size_t)parts, sizeof *arcs, "part arcs"), st, cleanup);
  GR_CHECK_GOTO(gr_host_alloc((void **)&touched, (size_t)parts * sizeof *touched, "touched parts"), st,
                cleanup);
  uint64_t m = 0;
  GR__PART_OMP(parallel for schedule(static) num_threads(gr__part_threads(o->threads)) reduction(+ : m))
  for (uint64_t v = 0; v < n; v++) {
    deg[v] = gr_csr_degree(out, (gr_vid)v) + (in ? gr_csr_degree(in, (gr_vid)v) : 0);
    owner[v] = -1;
    m += deg[v];
  }
  GR_CHECK_GOTO(gr__degree_order(order, deg, n), st, cleanup);

  const uint64_t cap = gr__part_bound(o->imbalance, n, parts);
  /* The same bound on the arcs (each vertex's degree as counted above). */
  const uint64_t arc_cap = gr__part_bound(o->imbalance, m, parts);
  const double bias = o->bias_factor;

  /* Sequential by nature: each choice depends on all earlier ones, which
   * also makes the result independent of the thread count. */
  for (uint64_t i = 0; i < n; i++) {
    const gr_vid v = order[i];
    int n_touched = 0;
    for (int dir = 0; dir < 2; dir++) {
      const gr_csr *c = dir == 0 ? out : in;
      if (!c) continue;
      for (gr_eid e = c->offsets[v]; e < c->offsets[v + 1]; e++) {
        const int32_t q = owner[c->indices[e]];
        if (q >= 0 && cnt[q]++ == 0) touched[n_touched++] = q;
      }
    }
    const double bias_v = bias * (double)deg[v];
    int best = -1;
    double best_score = 0.0;
    uint64_t best_key = 0;
    bool best_keyed = false;
    for (int p = 0; p < parts; p++) {
      if (size[p] >= cap || arcs[p] + deg[v] > arc_cap) continue;
      const double room = (double)(arc_cap - arcs[p]) / (double)arc_cap;
      const double score = ((double)cnt[p] + bias_v) * room;
      if (best >= 0 && score < best_score) continue;
      if (best >= 0 && score == best_score) {
        /* Equal scores: the smaller seeded key of (v, part) wins, which is
         * a uniform choice among the tied parts. */
        if (!best_keyed) {
          best_key = gr_rand64(o->seed, GR__BIASED_STREAM + (uint64_t)best, v);
          best_keyed = true;
        }
        const uint64_t key = gr_rand64(o->seed, GR__BIASED_STREAM + (uint64_t)p, v);
        if (key >= best_key) continue;
        best_key = key;
      } else {
        best_keyed = false;
      }
      best = p;
      best_score = score;
    }
    if (best < 0) {
      /* No part has room for v's arcs: the one with the most arc room
       * among those with vertex room (a part goes past the arc bound so at
       * most once, by less than one vertex's degree, and is then never the
       * roomiest while another part is under the bound). */
      for (int p = 0; p < parts; p++)
        if (size[p] < cap && (best < 0 || arcs[p] < arcs[best])) best = p;
    }
    owner[v] = best;
    size[best]++;
    arcs[best] += deg[v];
    for (int t = 0; t < n_touched; t++) cnt[touched[t]] = 0;
  }
cleanup:
  free(deg);
  free(order);
  free(size);
  free(cnt);
  free(arcs);
  free(touched);
  return st;
}
