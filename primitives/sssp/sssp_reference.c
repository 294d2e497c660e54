/* SPDX-License-Identifier: Apache-2.0 */
/* SSSP on the host: a plain serial Dijkstra (binary heap) in the devices'
 * float arithmetic, an invariant checker that accepts every correct answer
 * (and alone decides where the weights allow: gr_sssp_certifies, so that a
 * validated run over billions of arcs is not held minutes by the serial
 * reference), and the Graph500 edge count for TEPS. */
#include <math.h>
#include <stdlib.h>

#include "gr/util.h"
#include "sssp/sssp.h"

/* A binary min-heap of vertices keyed by their distance, with each
 * vertex's slot so that a lowered key moves up in place. */
typedef struct gr__heap {
  gr_vid *item;
  gr_vid *slot; /* GR_NO_VERTEX: not in the heap */
  gr_vid size;
  const float *key;
} gr__heap;

static void gr__heap_place(gr__heap *h, gr_vid i, gr_vid v) {
  h->item[i] = v;
  h->slot[v] = i;
}

static void gr__heap_up(gr__heap *h, gr_vid i) {
  const gr_vid v = h->item[i];
  while (i > 0) {
    const gr_vid up = (i - 1) / 2;
    if (!(h->key[v] < h->key[h->item[up]])) break;
    gr__heap_place(h, i, h->item[up]);
    i = up;
  }
  gr__heap_place(h, i, v);
}

static gr_vid gr__heap_pop(gr__heap *h) {
  const gr_vid top = h->item[0];
  h->slot[top] = GR_NO_VERTEX;
  const gr_vid last = h->item[--h->size];
  if (h->size == 0) return top;
  gr_vid i = 0;
  for (;;) {
    const gr_vid l = 2 * i + 1, r = l + 1;
    if (l >= h->size) break;
    const gr_vid c = r < h->size && h->key[h->item[r]] < h->key[h->item[l]] ? r : l;
    if (!(h->key[h->item[c]] < h->key[last])) break;
    gr__heap_place(h, i, h->item[c]);
    i = c;
  }
  gr__heap_place(h, i, last);
  return top;
}

/* Inserts v or moves it up after its key fell. */
static void gr__heap_lowered(gr__heap *h, gr_vid v) {
  if (h->slot[v] == GR_NO_VERTEX) {
    h->item[h->size] = v;
    h->slot[v] = h->size++;
  }
  gr__heap_up(h, h->slot[v]);
}

gr_status gr_sssp_reference(gr_graph *g, const gr_run_args *a, const gr_prim_options *o, gr_result *ref) {
  const gr_csr *c = gr_graph_out(g);
  const gr_vid n = c->n;
  if (a->source >= n)
    return gr_errorf(GR_ERR_INVALID_ARG, "source %llu outside 0..%llu", (unsigned long long)a->source,
                     (unsigned long long)n - 1);
  if (c->m > 0 && !c->weights) return gr_errorf(GR_ERR_BAD_INPUT, "sssp needs edge weights; the graph has none");
  GR_CHECK(gr_result_alloc(ref, n, GR_VALUE_FLOAT, o && o->mark_pred));
  float *dist = ref->values;
  for (gr_vid v = 0; v < n; v++) dist[v] = INFINITY;
  gr__heap h = {NULL, NULL, 0, dist};
  gr_status st = gr_host_alloc((void **)&h.item, (size_t)n * sizeof(gr_vid), "reference SSSP heap");
  if (st >= 0) st = gr_host_alloc((void **)&h.slot, (size_t)n * sizeof(gr_vid), "reference SSSP heap");
  if (st < 0) {
    free(h.item);
    gr_result_free(ref);
    return st;
  }
  for (gr_vid v = 0; v < n; v++) h.slot[v] = GR_NO_VERTEX;
  dist[a->source] = 0.0f;
  gr__heap_lowered(&h, a->source);
  while (h.size) {
    const gr_vid u = gr__heap_pop(&h);
    for (gr_eid k = c->offsets[u]; k < c->offsets[u + 1]; k++) {
      const gr_vid v = c->indices[k];
      const float nd = gr_sssp_add(dist[u], c->weights[k]);
      if (!(nd < dist[v])) continue;
      dist[v] = nd;
      if (ref->preds) ref->preds[v] = (gr_svid)u;
      gr__heap_lowered(&h, v);
    }
  }
  free(h.item);
  free(h.slot);
  return GR_SUCCESS;
}

/* Whether every weight is an integer of at least `least` (0 or 1). */
static bool gr__sssp_integral_weights(const gr_csr *c, float least) {
  if (!c->weights) return true;
  int integral = 1;
#pragma omp parallel for schedule(static, 65536) reduction(&& : integral)
  for (gr_eid e = 0; e < c->m; e++)
    integral = integral && c->weights[e] == floorf(c->weights[e]) && c->weights[e] >= least;
  return integral;
}

/* Every finite distance below 2^24: float holds their sums exactly. */
static bool gr__sssp_distances_exact(const gr_result *r) {
  float most = 0;
  const float *d = r->values;
#pragma omp parallel for schedule(static, 65536) reduction(max : most)
  for (gr_vid v = 0; v < r->n; v++)
    if (isfinite(d[v]) && d[v] > most) most = d[v];
  return most < 16777216.0f;
}

double gr_sssp_tolerance(gr_graph *g, const gr_result *r) {
  return gr__sssp_integral_weights(gr_graph_out(g), 0.0f) && gr__sssp_distances_exact(r) ? 0.0 : GR_SSSP_REL_TOL;
}

/* x equals y within the relative tolerance. */
static bool gr__close(float x, float y, double tol) {
  if (x == y) return true;
  if (!isfinite(x) || !isfinite(y)) return false;
  return fabs((double)x - (double)y) <= tol * fmax(fabs((double)x), fabs((double)y));
}

/* x is at most y within the relative tolerance. */
static bool gr__at_most(float x, float y, double tol) {
  if (x <= y) return true;
  if (!isfinite(x) || !isfinite(y)) return false;
  return (double)x - (double)y <= tol * fabs((double)y);
}

typedef struct gr__sssp_check {
  const gr_csr *out, *in;
  const float *d, *rd;
  const gr_svid *preds;
  gr_vid n, source;
  double tol;
} gr__sssp_check;

enum {
  GR__SSSP_BAD_VALUE = 1,
  GR__SSSP_REACHED,
  GR__SSSP_DISTANCE,
  GR__SSSP_EDGE_VIOLATED,
  GR__SSSP_NO_TIGHT_IN_EDGE,
  GR__SSSP_PRED_UNEXPECTED,
  GR__SSSP_PRED_INVALID,
  GR__SSSP_PRED_NO_EDGE,
  GR__SSSP_PRED_NOT_TIGHT,
  GR__SSSP_CHECKS
};

/* Whether vertex v fails check `which` (the other vertex involved in *x,
 * the edge's weight in *w). */
static bool gr__sssp_fails(const gr__sssp_check *k, int which, gr_vid v, long long *x, float *w) {
  const float dv = k->d[v];
  const bool reached = isfinite(dv);
  switch (which) {
    case GR__SSSP_BAD_VALUE:
      return isnan(dv) || dv < 0;
    case GR__SSSP_REACHED:
      return k->rd && reached != isfinite(k->rd[v]);
    case GR__SSSP_DISTANCE:
      return k->rd && reached && !gr__close(dv, k->rd[v], k->tol);
    case GR__SSSP_NO_TIGHT_IN_EDGE:
      if (!reached || v == k->source) return false;
      for (gr_eid e = k->in->offsets[v]; e < k->in->offsets[v + 1]; e++) {
        const float du = k->d[k->in->indices[e]];
        if (isfinite(du) && gr__close(dv, gr_sssp_add(du, k->in->weights[e]), k->tol)) return false;
      }
      return true;
    case GR__SSSP_EDGE_VIOLATED:
      if (!reached) return false;
      for (gr_eid e = k->out->offsets[v]; e < k->out->offsets[v + 1]; e++) {
        const gr_vid t = k->out->indices[e];
        if (!gr__at_most(k->d[t], gr_sssp_add(dv, k->out->weights[e]), k->tol)) {
          if (x) *x = t;
          if (w) *w = k->out->weights[e];
          return true;
        }
      }
      return false;
    default:
      break;
  }
  if (!k->preds) return false;
  const gr_svid p = k->preds[v];
  if (x) *x = p;
  const bool wants = reached && v != k->source;
  if (which == GR__SSSP_PRED_UNEXPECTED) return !wants && p != -1;
  if (!wants) return false;
  if (which == GR__SSSP_PRED_INVALID) return p < 0 || (uint64_t)p >= k->n || !isfinite(k->d[p]);
  bool edge = false, tight = false;
  for (gr_eid e = k->in->offsets[v]; e < k->in->offsets[v + 1] && !tight; e++) {
    if (k->in->indices[e] != (gr_vid)p) continue;
    edge = true;
    tight = gr__close(dv, gr_sssp_add(k->d[p], k->in->weights[e]), k->tol);
    if (w) *w = k->in->weights[e];
  }
  return which == GR__SSSP_PRED_NO_EDGE ? !edge : edge && !tight;
}

gr_status gr_sssp_validate(gr_graph *g, const gr_run_args *a, const gr_prim_options *o, const gr_result *r,
                           const gr_result *ref) {
  (void)o;
  const gr_csr *out = gr_graph_out(g);
  const gr_vid n = out->n;
  if (r->n != n || r->type != GR_VALUE_FLOAT)
    return gr_errorf(GR_ERR_VALIDATION, "result has %llu vertices of type %d; the graph has %llu, type %d",
                     (unsigned long long)r->n, (int)r->type, (unsigned long long)n, (int)GR_VALUE_FLOAT);
  if (a->source >= n)
    return gr_errorf(GR_ERR_INVALID_ARG, "source %llu outside 0..%llu", (unsigned long long)a->source,
                     (unsigned long long)n - 1);
  if (out->m > 0 && !out->weights) return gr_errorf(GR_ERR_BAD_INPUT, "sssp needs edge weights; the graph has none");
  if (ref && (ref->n != n || ref->type != GR_VALUE_FLOAT))
    return gr_errorf(GR_ERR_INVALID_ARG, "the reference has %llu vertices of type %d", (unsigned long long)ref->n,
                     (int)ref->type);
  const gr_csr *in = NULL;
  GR_CHECK(gr_graph_in(g, &in));
  gr__sssp_check k = {out, in, r->values, ref ? ref->values : NULL, r->preds, n, a->source, 0.0};
  k.tol = gr_sssp_tolerance(g, ref ? ref : r);
  const unsigned long long src = (unsigned long long)gr_graph_original_id(g, a->source);
  if (k.d[a->source] != 0.0f)
    return gr_errorf(GR_ERR_VALIDATION, "source %llu has distance %g, not 0", src, (double)k.d[a->source]);
  /* Each check reads the vertex's own rows only, so the passes are
   * parallel; a pass reports its lowest failing vertex, so the message does
   * not depend on the thread count. */
  gr_vid bad = n;
  int why = 0;
  for (int which = 1; which < GR__SSSP_CHECKS && !why; which++) {
#pragma omp parallel for schedule(dynamic, 1024) reduction(min : bad)
    for (gr_vid v = 0; v < n; v++)
      if (v < bad && gr__sssp_fails(&k, which, v, NULL, NULL)) bad = v;
    if (bad < n) why = which;
  }
  if (!why) return GR_SUCCESS;
  long long x = -1;
  float w = 0;
  gr__sssp_fails(&k, why, bad, &x, &w);
  const unsigned long long id = (unsigned long long)gr_graph_original_id(g, bad);
  const unsigned long long xid =
      x >= 0 && (uint64_t)x < n ? (unsigned long long)gr_graph_original_id(g, (gr_vid)x) : (unsigned long long)x;
  const double dv = k.d[bad], dx = x >= 0 && (uint64_t)x < n ? k.d[x] : 0.0;
  switch (why) {
    case GR__SSSP_BAD_VALUE:
      return gr_errorf(GR_ERR_VALIDATION, "vertex %llu has distance %g (neither +inf nor a number >= 0)", id, dv);
    case GR__SSSP_REACHED:
      return gr_errorf(GR_ERR_VALIDATION, "vertex %llu is %s but the reference %s it", id,
                       isfinite(dv) ? "reached" : "unreached", isfinite(dv) ? "does not reach" : "reaches");
    case GR__SSSP_DISTANCE:
      return gr_errorf(GR_ERR_VALIDATION, "vertex %llu has distance %.9g, the reference %.9g (tolerance %g)", id, dv,
                       (double)k.rd[bad], k.tol);
    case GR__SSSP_NO_TIGHT_IN_EDGE:
      return gr_errorf(GR_ERR_VALIDATION,
                       "vertex %llu at distance %.9g has no in-edge from a reached vertex that gives that distance", id,
                       dv);
    case GR__SSSP_EDGE_VIOLATED:
      return gr_errorf(GR_ERR_VALIDATION, "edge %llu -> %llu (weight %g) leads from distance %.9g to %.9g", id, xid,
                       (double)w, dv, dx);
    case GR__SSSP_PRED_UNEXPECTED:
      return gr_errorf(GR_ERR_VALIDATION, "vertex %llu (%s) has predecessor %lld, not -1", id,
                       bad == a->source ? "the source" : "unreached", x >= 0 ? (long long)xid : x);
    case GR__SSSP_PRED_INVALID:
      return gr_errorf(GR_ERR_VALIDATION, "predecessor %lld of vertex %llu is not a reached vertex",
                       x >= 0 && (uint64_t)x < n ? (long long)xid : x, id);
    case GR__SSSP_PRED_NO_EDGE:
      return gr_errorf(GR_ERR_VALIDATION, "predecessor %llu of vertex %llu is not an in-neighbour", xid, id);
    default:
      return gr_errorf(GR_ERR_VALIDATION,
                       "predecessor %llu of vertex %llu: edge of weight %g from distance %.9g does not give %.9g", xid,
                       id, (double)w, dx, dv);
  }
}

bool gr_sssp_certifies(gr_graph *g, const gr_run_args *a, const gr_prim_options *o, const gr_result *r) {
  (void)a;
  (void)o;
  const gr_csr *c = gr_graph_out(g);
  if (!r || !r->values || r->n != c->n || r->type != GR_VALUE_FLOAT) return false;
  if (c->m > 0 && !c->weights) return false;
  return gr__sssp_integral_weights(c, 1.0f) && gr__sssp_distances_exact(r);
}

gr_eid gr_sssp_traversed_edges(gr_graph *g, const gr_result *r) {
  /* Weights are finite, so a reached vertex reaches its neighbours (a sum
   * that overflows to +inf would leave an edge half counted). */
  return gr_graph_edges_reached_float(g, r->values);
}
