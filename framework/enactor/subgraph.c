/* SPDX-License-Identifier: Apache-2.0 */
/* The one-device "partition": the whole graph, arrays aliased; and a
 * deferred part's lists, gathered from the whole graph's rows. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "gr/subgraph.h"
#include "gr/util.h"

gr_status gr_subgraph_whole(gr_subgraph **out, gr_graph *g, bool needs_in, bool needs_weights) {
  *out = NULL;
  gr_subgraph *s = NULL;
  GR_CHECK(gr_host_calloc((void **)&s, 1, sizeof *s, "subgraph"));
  s->part = 0;
  s->n_parts = 1;
  s->proxy = GR_PROXY_ALL;
  s->n_global = s->n_local = s->n_owned = gr_graph_num_vertices(g);
  s->out = *gr_graph_out(g);
  if (!needs_weights) s->out.weights = NULL;
  if (needs_in) {
    const gr_csr *in = NULL;
    gr_status st = gr_graph_in(g, &in);
    if (st < 0) {
      free(s);
      return st;
    }
    s->in = *in;
    if (!needs_weights) s->in.weights = NULL;
  }
  s->owns_arrays = false;
  *out = s;
  return GR_SUCCESS;
}

gr_subgraph_lists gr_subgraph_lists_of(const gr_subgraph *s, bool in, bool weights, unsigned long long *unmapped) {
  gr_subgraph_lists l;
  memset(&l, 0, sizeof l);
  l.part = in ? &s->in : &s->out;
  l.whole = in ? &s->lists_in : &s->lists_out;
  l.weights = weights;
  l.rows = s->local_to_global;
  l.ids = weights ? NULL : s->global_to_local;
  l.n_ids = s->n_local;
  l.unmapped = unmapped;
  return l;
}

const void *gr_subgraph_piece(const gr_subgraph *s, bool in, bool weights, gr_eid first, gr_eid count, void *buf) {
  const gr_csr *c = in ? &s->in : &s->out;
  const size_t es = weights ? sizeof(gr_weight) : sizeof(gr_vid);
  const void *have = weights ? (const void *)c->weights : (const void *)c->indices;
  assert(first + count <= c->m);
  if (have) return (const unsigned char *)have + (size_t)first * es;
  const gr_csr *whole = in ? &s->lists_in : &s->lists_out;
  if (!whole->offsets || !c->offsets || !(weights ? (const void *)whole->weights : (const void *)whole->indices))
    return NULL;
  gr_subgraph_lists l = gr_subgraph_lists_of(s, in, weights, NULL);
  gr_subgraph_fill_lists(&l, buf, (size_t)first * es, (size_t)count * es);
  return buf;
}

gr_status gr_subgraph_for_pieces(const gr_subgraph *s, bool in, bool weights, gr_piece_fn visit, void *ctx) {
  enum { PIECE = 1 << 20 };
  const gr_csr *c = in ? &s->in : &s->out;
  const size_t es = weights ? sizeof(gr_weight) : sizeof(gr_vid);
  const bool gather = !(weights ? (const void *)c->weights : (const void *)c->indices);
  const int64_t pieces = (int64_t)((c->m + PIECE - 1) / PIECE);
  int stop = 0, lost = 0;
#pragma omp parallel
  {
    void *buf = gather ? malloc((size_t)PIECE * es) : NULL;
    if (gather && !buf) __atomic_store_n(&lost, 1, __ATOMIC_RELAXED);
#pragma omp for schedule(dynamic, 1)
    for (int64_t b = 0; b < pieces; b++) {
      if (__atomic_load_n(&stop, __ATOMIC_RELAXED) || (gather && !buf)) continue;
      const gr_eid first = (gr_eid)b * PIECE, count = c->m - first < PIECE ? c->m - first : PIECE;
      const void *piece = gr_subgraph_piece(s, in, weights, first, count, buf);
      if (!piece) __atomic_store_n(&lost, 2, __ATOMIC_RELAXED);
      else if (visit(ctx, piece, first, count)) __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
    }
    free(buf);
  }
  if (lost == 2) return gr_errorf(GR_ERR_INTERNAL, "part %d has no %s to read", s->part, weights ? "weights" : "lists");
  if (lost == 1) return gr_errorf(GR_ERR_HOST_OOM, "no room to read part %d's lists in pieces", s->part);
  return GR_SUCCESS;
}

gr_status gr_subgraph_unmapped_error(unsigned long long unmapped) {
  if (!unmapped) return GR_SUCCESS;
  return gr_errorf(GR_ERR_BAD_INPUT,
                   "the graph is marked undirected but %llu of its arcs have no reverse arc (a corrupt binary file?)",
                   unmapped);
}

void gr_subgraph_fill_lists(void *ctx, void *to, size_t off, size_t len) {
  const gr_subgraph_lists *l = ctx;
  const size_t es = l->weights ? sizeof(gr_weight) : sizeof(gr_vid);
  const unsigned char *src = l->weights ? (const unsigned char *)l->whole->weights
                                        : (const unsigned char *)l->whole->indices;
  const gr_eid *po = l->part->offsets, *wo = l->whole->offsets;
  gr_eid e = (gr_eid)(off / es);
  const gr_eid end = e + (gr_eid)(len / es);
  /* Whole elements within the array (the callers' pieces are multiples of
   * 1 MiB, their totals of the element's size). */
  assert(off % es == 0 && len % es == 0 && end <= l->part->m);
  if (e >= end || l->part->n == 0) return;
  /* The row holding arc e: the last with offsets[u] <= e (rows before it
   * that hold nothing share its offset). */
  gr_vid lo = 0, hi = l->part->n - 1;
  while (lo < hi) {
    const gr_vid mid = lo + (hi - lo + 1) / 2;
    if (po[mid] <= e) lo = mid;
    else hi = mid - 1;
  }
  unsigned char *dst = to;
  unsigned long long bad = 0;
  /* Rows consecutive in the graph's arrays: one copy a run (duplicate-all
   * under the random partition: a block of 32 ids). Ids to convert go one
   * by one, a few table reads in flight ahead. */
  gr_eid run_src = 0, run_n = 0;
  for (gr_vid u = lo; e < end; u++) {
    const gr_eid rs = po[u], re = po[u + 1];
    if (re <= e) continue;
    const gr_eid n = (re < end ? re : end) - e, from = wo[l->rows ? l->rows[u] : u] + (e - rs);
    if (l->ids) {
      const gr_vid *si = (const gr_vid *)src + from;
      gr_vid *di = (gr_vid *)dst;
      for (gr_eid k = 0; k < n; k++) {
        if (k + 16 < n) __builtin_prefetch(&l->ids[si[k + 16]]);
        const gr_vid v = l->ids[si[k]];
        bad += v >= l->n_ids;
        di[k] = v < l->n_ids ? v : 0;
      }
      dst += (size_t)n * es;
    } else if (run_n && run_src + run_n == from) {
      run_n += n;
    } else {
      if (run_n) {
        memcpy(dst, src + run_src * es, (size_t)run_n * es);
        dst += (size_t)run_n * es;
      }
      run_src = from;
      run_n = n;
    }
    e += n;
  }
  if (run_n) memcpy(dst, src + run_src * es, (size_t)run_n * es);
  /* Without a counter (a caller sure of its ids) an unmapped id is stored
   * as 0 all the same. */
  if (bad && l->unmapped) __atomic_fetch_add(l->unmapped, bad, __ATOMIC_RELAXED);
}

/* One array of a deferred part, gathered over the host's threads. */
static gr_status gr__subgraph_gather(void **out, const gr_subgraph *s, bool in, bool weights) {
  const gr_csr *part = in ? &s->in : &s->out;
  const size_t es = weights ? sizeof(gr_weight) : sizeof(gr_vid), bytes = (size_t)part->m * es;
  GR_CHECK(gr_host_alloc(out, bytes ? bytes : 1, weights ? "subgraph weights" : "subgraph indices"));
  unsigned long long unmapped = 0;
  gr_subgraph_lists l = gr_subgraph_lists_of(s, in, weights, &unmapped);
  gr_fill_parallel(0, *out, 0, bytes, gr_subgraph_fill_lists, &l);
  const gr_status st = gr_subgraph_unmapped_error(unmapped);
  if (st < 0) {
    free(*out);
    *out = NULL;
  }
  return st;
}

gr_status gr_subgraph_materialize(gr_subgraph *s) {
  if (!gr_subgraph_lists_deferred(s)) return GR_SUCCESS;
  const bool in_is_out = s->in.offsets == s->out.offsets;
  void *ids = NULL, *w = NULL, *in_ids = NULL, *in_w = NULL;
  gr_status st = GR_SUCCESS;
  GR_CHECK_GOTO(gr__subgraph_gather(&ids, s, false, false), st, fail);
  if (s->lists_out.weights) GR_CHECK_GOTO(gr__subgraph_gather(&w, s, false, true), st, fail);
  if (s->in.offsets && !in_is_out) {
    GR_CHECK_GOTO(gr__subgraph_gather(&in_ids, s, true, false), st, fail);
    if (s->lists_in.weights) GR_CHECK_GOTO(gr__subgraph_gather(&in_w, s, true, true), st, fail);
  }
  s->out.indices = ids;
  s->out.weights = w;
  if (in_is_out) {
    s->in.indices = ids;
    s->in.weights = w;
  } else if (s->in.offsets) {
    s->in.indices = in_ids;
    s->in.weights = in_w;
  }
  memset(&s->lists_out, 0, sizeof s->lists_out);
  memset(&s->lists_in, 0, sizeof s->lists_in);
  return GR_SUCCESS;
fail:
  free(ids);
  free(w);
  free(in_ids);
  free(in_w);
  return st;
}

void gr_subgraph_destroy(gr_subgraph **sp) {
  if (!sp || !*sp) return;
  gr_subgraph *s = *sp;
  if (s->owns_arrays) {
    /* An undirected graph's in-edges may be its out-edges (aliased). */
    if (s->in.offsets != s->out.offsets) free(s->in.offsets);
    if (s->in.indices != s->out.indices) free(s->in.indices);
    if (s->in.weights != s->out.weights) free(s->in.weights);
    free(s->out.offsets);
    free(s->out.indices);
    free(s->out.weights);
  }
  free(s->local_to_global);
  free(s->global_to_local);
  free(s->owner);
  free(s->owner_local);
  free(s->peer_begin);
  free(s);
  *sp = NULL;
}
