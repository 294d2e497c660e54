/* SPDX-License-Identifier: Apache-2.0 */
/* CC on the host: a plain union-find over every arc as an undirected edge,
 * its arcs shared by the host's threads, and a validator that accepts
 * exactly the correct labels.
 *
 * The union-find is the concurrent one whose trees only ever hang a larger
 * root under a smaller one: every parent is at most its child, so no cycle
 * can form and a root is its tree's smallest id. A union finds both roots
 * and hangs the larger under the smaller with a compare-and-swap that
 * succeeds only while it is still a root (else it finds again); a find
 * halves the path as it goes (a parent moves up to its grandparent, still
 * an ancestor, whatever the other threads do meanwhile). An arc's union
 * returns once its ends share a root, and trees only merge, so at the end
 * every arc lies within one tree: the components. A serial pass over 4.3
 * billion arcs took over a minute. */
#include <stdlib.h>

#include "cc/cc.h"

/* The root of v, halving the path on the way. */
static gr_vid gr__cc_ref_find(gr_vid *parent, gr_vid v) {
  for (;;) {
    const gr_vid p = __atomic_load_n(&parent[v], __ATOMIC_RELAXED);
    if (p == v) return v;
    const gr_vid up = __atomic_load_n(&parent[p], __ATOMIC_RELAXED);
    if (up != p) __atomic_store_n(&parent[v], up, __ATOMIC_RELAXED);
    v = up;
  }
}

/* Joins the trees of u and w. */
static void gr__cc_ref_union(gr_vid *parent, gr_vid u, gr_vid w) {
  for (;;) {
    gr_vid x = gr__cc_ref_find(parent, u), y = gr__cc_ref_find(parent, w);
    if (x == y) return;
    if (x > y) {
      const gr_vid t = x;
      x = y;
      y = t;
    }
    gr_vid root = y;
    if (__atomic_compare_exchange_n(&parent[y], &root, x, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return;
    /* y was hung under another root meanwhile: find again from there. */
    u = x;
    w = y;
  }
}

gr_status gr_cc_reference(gr_graph *g, const gr_run_args *a, const gr_prim_options *o, gr_result *ref) {
  (void)a;
  (void)o;
  const gr_csr *c = gr_graph_out(g);
  const gr_vid n = c->n;
  gr_vid *parent = NULL;
  GR_CHECK(gr_host_alloc((void **)&parent, (n ? (size_t)n : 1) * sizeof *parent, "cc reference forest"));
#pragma omp parallel for schedule(static)
  for (gr_vid v = 0; v < n; v++) parent[v] = v;
  /* Out-edges alone suffice: an arc joins its ends either way. */
#pragma omp parallel for schedule(dynamic, 1024)
  for (gr_vid u = 0; u < n; u++)
    for (gr_eid k = c->offsets[u]; k < c->offsets[u + 1]; k++) gr__cc_ref_union(parent, u, c->indices[k]);
  gr_status st = gr_result_alloc(ref, n, GR_VALUE_SVID, false);
  if (st >= 0) {
    gr_svid *label = ref->values;
#pragma omp parallel for schedule(static)
    for (gr_vid v = 0; v < n; v++) label[v] = (gr_svid)gr__cc_ref_find(parent, v);
    ref->values_are_ids = true;
  }
  free(parent);
  return st;
}

/* Which check vertex v fails, in the order they are reported (0: none):
 * 1 its label is not a vertex id at most v; 2 its label's vertex does not
 * carry its own id; 3 an out-edge leads to a vertex of another label (the
 * other end in *x); 4 the reference labels it differently. */
static int gr__cc_check(int which, const gr_csr *c, const gr_svid *l, const gr_svid *rl, gr_vid v, gr_vid *x) {
  switch (which) {
    case 1:
      return l[v] < 0 || (gr_vid)l[v] > v;
    case 2:
      return l[l[v]] != l[v];
    case 3:
      for (gr_eid k = c->offsets[v]; k < c->offsets[v + 1]; k++)
        if (l[c->indices[k]] != l[v]) {
          if (x) *x = c->indices[k];
          return 1;
        }
      return 0;
    default:
      return l[v] != rl[v];
  }
}

gr_status gr_cc_validate(gr_graph *g, const gr_run_args *a, const gr_prim_options *o, const gr_result *r,
                         const gr_result *ref) {
  (void)a;
  (void)o;
  const gr_csr *c = gr_graph_out(g);
  const gr_vid n = c->n;
  if (r->n != n || r->type != GR_VALUE_SVID)
    return gr_errorf(GR_ERR_VALIDATION, "result has %llu vertices of type %d; the graph has %llu, type %d",
                     (unsigned long long)r->n, (int)r->type, (unsigned long long)n, (int)GR_VALUE_SVID);
  if (ref && (ref->n != n || ref->type != GR_VALUE_SVID))
    return gr_errorf(GR_ERR_INTERNAL, "cc reference of %llu vertices for a graph of %llu", (unsigned long long)ref->n,
                     (unsigned long long)n);
  const gr_svid *l = r->values, *rl = ref ? ref->values : NULL;
  /* Each pass reports its lowest failing vertex, so the message does not
   * depend on the thread count; a pass runs only once the ones before it
   * have passed (check 2 reads labels that check 1 proved to be ids). */
  gr_vid bad = n;
  int why = 0;
  for (int which = 1; which <= 4 && !why; which++) {
    if (which == 4 && !rl) continue;
#pragma omp parallel for schedule(dynamic, 1024) reduction(min : bad)
    for (gr_vid v = 0; v < n; v++)
      if (v < bad && gr__cc_check(which, c, l, rl, v, NULL)) bad = v;
    if (bad < n) why = which;
  }
  if (!why) return GR_SUCCESS;
  const unsigned long long id = (unsigned long long)gr_graph_original_id(g, bad);
  const long long lv = (long long)l[bad];
  gr_vid x = 0;
  switch (why) {
    case 1:
      if (lv < 0 || (uint64_t)lv >= n)
        return gr_errorf(GR_ERR_VALIDATION, "vertex %llu has label %lld, which is not a vertex", id, lv);
      return gr_errorf(GR_ERR_VALIDATION, "vertex %llu has label %llu, above its own id: a label is the smallest id "
                       "of its component", id, (unsigned long long)gr_graph_original_id(g, (gr_vid)lv));
    case 2:
      return gr_errorf(GR_ERR_VALIDATION, "vertex %llu has label %llu, but vertex %llu is labelled %lld, not itself",
                       id, (unsigned long long)gr_graph_original_id(g, (gr_vid)lv),
                       (unsigned long long)gr_graph_original_id(g, (gr_vid)lv), (long long)l[l[bad]]);
    case 3:
      gr__cc_check(3, c, l, rl, bad, &x);
      return gr_errorf(GR_ERR_VALIDATION, "edge %llu -> %llu joins two labels (%llu and %llu)", id,
                       (unsigned long long)gr_graph_original_id(g, x),
                       (unsigned long long)gr_graph_original_id(g, (gr_vid)lv),
                       (unsigned long long)gr_graph_original_id(g, (gr_vid)l[x]));
    default:
      return gr_errorf(GR_ERR_VALIDATION, "vertex %llu is in the component of %llu; the reference puts it in the "
                       "component of %llu", id, (unsigned long long)gr_graph_original_id(g, (gr_vid)lv),
                       (unsigned long long)gr_graph_original_id(g, (gr_vid)rl[bad]));
  }
}
