/* SPDX-License-Identifier: Apache-2.0 */
/* BFS on the host: a plain serial reference, an invariant checker that
 * accepts every correct answer, and the Graph500 edge count for TEPS. */
#include <stdlib.h>
#include <string.h>

#include "bfs/bfs.h"
#include "gr/util.h"

/* Level by level, top down, the levels' vertices shared among the host's
 * threads: a vertex is claimed by compare-and-swap on its depth, so the
 * depths are BFS's (unique), and a predecessor is whichever parent one level
 * up claimed it. The graphs gr runs on reach billions of arcs, where a
 * serial reference took most of a validated run's time; the algorithm is
 * still the plain one (no direction switching), and the validator checks
 * every answer's invariants on its own. */
enum { GR__REF_BATCH = 1024 };

gr_status gr_bfs_reference(gr_graph *g, const gr_run_args *a, const gr_prim_options *o,
                           gr_result *ref) {
  const gr_csr *c = gr_graph_out(g);
  gr_vid n = c->n;
  if (a->source >= n)
    return gr_errorf(GR_ERR_INVALID_ARG, "source %llu outside 0..%llu", (unsigned long long)a->source,
                     (unsigned long long)n - 1);
  GR_CHECK(gr_result_alloc(ref, n, GR_VALUE_SVID, o && o->mark_pred));
  gr_svid *depth = ref->values;
  gr_vid *cur = NULL, *next = NULL;
  gr_status st = gr_host_alloc((void **)&cur, (size_t)n * sizeof(gr_vid), "reference BFS queue");
  if (st >= 0) st = gr_host_alloc((void **)&next, (size_t)n * sizeof(gr_vid), "reference BFS queue");
  if (st < 0) {
    free(cur);
    gr_result_free(ref);
    return st;
  }
  depth[a->source] = 0;
  cur[0] = a->source;
  uint64_t n_cur = 1;
  for (gr_svid level = 0; n_cur; level++) {
    uint64_t n_next = 0;
#pragma omp parallel
    {
      gr_vid batch[GR__REF_BATCH];
      unsigned nb = 0;
#pragma omp for schedule(dynamic, 64)
      for (uint64_t i = 0; i < n_cur; i++) {
        const gr_vid u = cur[i];
        for (gr_eid k = c->offsets[u]; k < c->offsets[u + 1]; k++) {
          const gr_vid v = c->indices[k];
          if (__atomic_load_n(&depth[v], __ATOMIC_RELAXED) >= 0) continue;
          gr_svid unseen = -1;
          if (!__atomic_compare_exchange_n(&depth[v], &unseen, level + 1, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            continue;
          if (ref->preds) ref->preds[v] = (gr_svid)u;
          batch[nb++] = v;
          if (nb == GR__REF_BATCH) {
            const uint64_t at = __atomic_fetch_add(&n_next, nb, __ATOMIC_RELAXED);
            memcpy(next + at, batch, nb * sizeof *batch);
            nb = 0;
          }
        }
      }
      if (nb) {
        const uint64_t at = __atomic_fetch_add(&n_next, nb, __ATOMIC_RELAXED);
        memcpy(next + at, batch, nb * sizeof *batch);
      }
    }
    gr_vid *t = cur;
    cur = next;
    next = t;
    n_cur = n_next;
  }
  free(cur);
  free(next);
  return GR_SUCCESS;
}

/* The invariants of one vertex; 0 when they hold, else which one failed
 * (with the other vertex involved in *x). */
static int gr__bfs_vertex_check(const gr_csr *in, const gr_csr *out, const gr_svid *d,
                                const gr_svid *preds, gr_vid n, gr_vid source, gr_vid v,
                                long long *x) {
  long long other = 0;
  int w = 0;
  if (d[v] < -1) {
    w = 1;
  } else if (d[v] == 0 && v != source) {
    w = 7;
  } else if (d[v] > 0) {
    /* A parent one level up must exist among the in-neighbours. */
    bool found = false;
    for (gr_eid k = in->offsets[v]; k < in->offsets[v + 1] && !found; k++)
      found = d[in->indices[k]] == d[v] - 1;
    if (!found) w = 3;
    if (!w && preds) {
      gr_svid p = preds[v];
      bool edge = false;
      if (p >= 0 && (uint64_t)p < n)
        for (gr_eid k = in->offsets[v]; k < in->offsets[v + 1] && !edge; k++)
          edge = in->indices[k] == (gr_vid)p;
      other = p;
      if (!edge) w = 4;
      else if (d[p] != d[v] - 1) w = 5;
    }
  }
  if (!w && d[v] >= 0) {
    /* No out-edge may leave the reached part or skip a level. */
    for (gr_eid k = out->offsets[v]; k < out->offsets[v + 1]; k++) {
      gr_vid u = out->indices[k];
      if (d[u] < 0 || d[u] > d[v] + 1) {
        w = 6;
        other = u;
        break;
      }
    }
  }
  if (x) *x = other;
  return w;
}

gr_status gr_bfs_validate(gr_graph *g, const gr_run_args *a, const gr_prim_options *o,
                          const gr_result *r, const gr_result *ref) {
  (void)o;
  const gr_csr *out = gr_graph_out(g);
  const gr_csr *in = NULL;
  GR_CHECK(gr_graph_in(g, &in));
  gr_vid n = out->n;
  const gr_svid *d = r->values;
  const gr_svid *rd = ref ? ref->values : NULL;
  if (r->n != n) return gr_errorf(GR_ERR_VALIDATION, "result has %llu vertices, graph %llu",
                                  (unsigned long long)r->n, (unsigned long long)n);
  if (d[a->source] != 0)
    return gr_errorf(GR_ERR_VALIDATION, "source %llu has depth %lld, not 0",
                     (unsigned long long)gr_graph_original_id(g, a->source), (long long)d[a->source]);
  /* Each vertex's checks read only its own rows, so the loops are parallel.
   * The reached set is compared first; within a pass the lowest failing
   * vertex is reported, so the message does not depend on the thread count. */
  gr_vid bad_v = n;
  int why = 0;
  long long bad_x = 0;
  if (rd) {
#pragma omp parallel for schedule(static, 4096) reduction(min : bad_v)
    for (gr_vid v = 0; v < n; v++)
      if ((d[v] >= 0) != (rd[v] >= 0) && v < bad_v) bad_v = v;
    if (bad_v < n) why = 2;
  }
  if (!why) {
#pragma omp parallel for schedule(dynamic, 1024) reduction(min : bad_v)
    for (gr_vid v = 0; v < n; v++)
      if (v < bad_v && gr__bfs_vertex_check(in, out, d, r->preds, n, a->source, v, NULL))
        bad_v = v;
    if (bad_v < n) why = gr__bfs_vertex_check(in, out, d, r->preds, n, a->source, bad_v, &bad_x);
  }
  if (!why) return GR_SUCCESS;
  unsigned long long id = (unsigned long long)gr_graph_original_id(g, bad_v);
  long long dv = d[bad_v];
  unsigned long long xid = bad_x >= 0 && (uint64_t)bad_x < n
                               ? (unsigned long long)gr_graph_original_id(g, (gr_vid)bad_x)
                               : (unsigned long long)bad_x;
  switch (why) {
    case 1:
      return gr_errorf(GR_ERR_VALIDATION, "vertex %llu has invalid depth %lld", id, dv);
    case 2:
      return gr_errorf(GR_ERR_VALIDATION, "vertex %llu is %s but the reference %s it", id,
                       dv >= 0 ? "reached" : "unreached", dv >= 0 ? "does not reach" : "reaches");
    case 3:
      return gr_errorf(GR_ERR_VALIDATION, "vertex %llu at depth %lld has no in-neighbour at depth %lld",
                       id, dv, dv - 1);
    case 4:
      return gr_errorf(GR_ERR_VALIDATION, "predecessor %lld of vertex %llu is not an in-neighbour",
                       bad_x >= 0 ? (long long)xid : bad_x, id);
    case 5:
      return gr_errorf(GR_ERR_VALIDATION, "predecessor %llu of vertex %llu (depth %lld) has depth %lld",
                       xid, id, dv, (long long)d[bad_x]);
    case 7:
      return gr_errorf(GR_ERR_VALIDATION, "vertex %llu has depth 0 but is not the source", id);
    default:
      return gr_errorf(GR_ERR_VALIDATION, "edge %llu -> %llu goes from depth %lld to depth %lld", id,
                       xid, dv, (long long)d[bad_x]);
  }
}

gr_eid gr_bfs_traversed_edges(gr_graph *g, const gr_result *r) { return gr_graph_edges_reached(g, r->values); }
