/* SPDX-License-Identifier: Apache-2.0 */
/* Reach on the host: a plain serial reference, a validator that accepts
 * exactly the correct answer, and the Graph500 edge count for TEPS. */
#include <stdlib.h>

#include "_template/reach.h"
#include "gr/util.h"

gr_status gr_reach_reference(gr_graph *g, const gr_run_args *a, const gr_prim_options *o,
                             gr_result *ref) {
  (void)o;
  const gr_csr *c = gr_graph_out(g);
  gr_vid n = c->n;
  if (a->source >= n)
    return gr_errorf(GR_ERR_INVALID_ARG, "source %llu outside 0..%llu", (unsigned long long)a->source,
                     (unsigned long long)n - 1);
  GR_CHECK(gr_result_alloc(ref, n, GR_VALUE_SVID, false));
  gr_svid *reached = ref->values;
  gr_vid *queue = NULL;
  gr_status st = gr_host_alloc((void **)&queue, (size_t)n * sizeof(gr_vid), "reference reach queue");
  if (st < 0) {
    gr_result_free(ref);
    return st;
  }
  /* Each vertex is queued once, when first reached, so n entries suffice. */
  size_t head = 0, tail = 0;
  reached[a->source] = 1;
  queue[tail++] = a->source;
  while (head < tail) {
    gr_vid u = queue[head++];
    for (gr_eid k = c->offsets[u]; k < c->offsets[u + 1]; k++) {
      gr_vid v = c->indices[k];
      if (reached[v] > 0) continue;
      reached[v] = 1;
      queue[tail++] = v;
    }
  }
  free(queue);
  return GR_SUCCESS;
}

/* Which check a vertex fails, in the order they are reported: 1 its value
 * is neither 1 nor -1, 2 the reference disagrees on whether it is reached,
 * 3 an out-edge leads from it (reached) to an unreached vertex, the other
 * end then in *x. 0 when it passes check `which`. */
static int gr__reach_vertex_check(int which, const gr_csr *out, const gr_svid *d, const gr_svid *rd,
                                  gr_vid v, gr_vid *x) {
  switch (which) {
    case 1:
      return d[v] != 1 && d[v] != -1;
    case 2:
      return (d[v] > 0) != (rd[v] > 0);
    default:
      if (d[v] < 0) return 0;
      for (gr_eid k = out->offsets[v]; k < out->offsets[v + 1]; k++)
        if (d[out->indices[k]] < 0) {
          if (x) *x = out->indices[k];
          return 1;
        }
      return 0;
  }
}

gr_status gr_reach_validate(gr_graph *g, const gr_run_args *a, const gr_prim_options *o,
                            const gr_result *r, const gr_result *ref) {
  (void)o;
  const gr_csr *out = gr_graph_out(g);
  gr_vid n = out->n;
  if (r->n != n || r->type != GR_VALUE_SVID)
    return gr_errorf(GR_ERR_VALIDATION, "result has %llu vertices of type %d; the graph has %llu, type %d",
                     (unsigned long long)r->n, (int)r->type, (unsigned long long)n, (int)GR_VALUE_SVID);
  if (a->source >= n)
    return gr_errorf(GR_ERR_INVALID_ARG, "source %llu outside 0..%llu", (unsigned long long)a->source,
                     (unsigned long long)n - 1);
  const gr_svid *d = r->values;
  const gr_svid *rd = ref ? ref->values : NULL;
  if (d[a->source] != 1)
    return gr_errorf(GR_ERR_VALIDATION, "source %llu has value %lld, not 1",
                     (unsigned long long)gr_graph_original_id(g, a->source), (long long)d[a->source]);
  /* Each check reads only the vertex's own row, so the passes are parallel;
   * a pass reports its lowest failing vertex, so the message does not depend
   * on the thread count. */
  gr_vid bad_v = n;
  int why = 0;
  for (int which = 1; which <= 3 && !why; which++) {
    if (which == 2 && !rd) continue;
#pragma omp parallel for schedule(dynamic, 1024) reduction(min : bad_v)
    for (gr_vid v = 0; v < n; v++)
      if (v < bad_v && gr__reach_vertex_check(which, out, d, rd, v, NULL)) bad_v = v;
    if (bad_v < n) why = which;
  }
  if (!why) return GR_SUCCESS;
  unsigned long long id = (unsigned long long)gr_graph_original_id(g, bad_v);
  long long dv = d[bad_v];
  gr_vid x = 0;
  switch (why) {
    case 1:
      return gr_errorf(GR_ERR_VALIDATION, "vertex %llu has value %lld, not 1 or -1", id, dv);
    case 2:
      return gr_errorf(GR_ERR_VALIDATION, "vertex %llu is %s but the reference %s it", id,
                       dv > 0 ? "reached" : "unreached", dv > 0 ? "does not reach" : "reaches");
    default:
      gr__reach_vertex_check(3, out, d, rd, bad_v, &x);
      return gr_errorf(GR_ERR_VALIDATION, "edge %llu -> %llu leads from a reached vertex to an unreached one",
                       id, (unsigned long long)gr_graph_original_id(g, x));
  }
}

gr_eid gr_reach_traversed_edges(gr_graph *g, const gr_result *r) { return gr_graph_edges_reached(g, r->values); }
