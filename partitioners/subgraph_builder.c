/* SPDX-License-Identifier: Apache-2.0 */
/* The subgraph builder: turns a partition into one gr_subgraph per part
 * (duplicate-all: global ids; duplicate-1-hop: owned vertices, then proxies
 * grouped by owner, with the id maps). Parts are built one after another,
 * each with parallel loops over its vertices and arcs. */
#include <stdlib.h>
#include <string.h>

#include "gr/log.h"
#include "gr/util.h"
#include "partition_internal.h"
#include "subgraph_builder.h"

/* Marks a remote neighbour in global_to_local before proxies get their ids.
 * Local ids stay below n <= GR_MAX_VERTICES = GR_NO_VERTEX - 1, so neither
 * marker can be mistaken for one. */
#define GR__PROXY_MARK ((gr_vid)(GR_VID_MAX - 1u))

/* Lists vertices grouped by owner part (ascending), ascending ids within a
 * group: part q's are (*list)[begin[q] .. begin[q+1]). All vertices when
 * sel is NULL, else those with sel[v] == GR__PROXY_MARK. Chunked counting
 * then scatter; the result is the same for any thread count. */
static gr_status gr__group_by_owner(gr_vid **list, uint64_t *begin, const int32_t *owner,
                                    const gr_vid *sel, uint64_t n, int parts, int threads) {
  gr_status st = GR_SUCCESS;
  uint64_t *count = NULL;
  *list = NULL;
  const uint64_t chunks = n < (uint64_t)threads ? (n ? n : 1) : (uint64_t)threads;
  GR_CHECK_GOTO(gr_host_calloc((void **)&count, (size_t)(chunks * (uint64_t)parts), sizeof *count,
                               "vertex groups"),
                st, cleanup);
  GR__PART_OMP(parallel for schedule(static, 1) num_threads(threads))
  for (uint64_t c = 0; c < chunks; c++) {
    uint64_t *cc = count + c * (uint64_t)parts;
    const uint64_t lo = n / chunks * c + (c < n % chunks ? c : n % chunks);
    const uint64_t hi = lo + n / chunks + (c < n % chunks);
    for (uint64_t v = lo; v < hi; v++)
      if (!sel || sel[v] == GR__PROXY_MARK) cc[owner[v]]++;
  }
  /* Part-major, chunk-minor offsets keep ids ascending within a part. */
  uint64_t total = 0;
  for (int q = 0; q < parts; q++) {
    begin[q] = total;
    for (uint64_t c = 0; c < chunks; c++) {
      const uint64_t k = count[c * (uint64_t)parts + (uint64_t)q];
      count[c * (uint64_t)parts + (uint64_t)q] = total;
      total += k;
    }
  }
  begin[parts] = total;
  GR_CHECK_GOTO(gr_host_alloc((void **)list, total * sizeof **list, "vertex groups"), st, cleanup);
  GR__PART_OMP(parallel for schedule(static, 1) num_threads(threads))
  for (uint64_t c = 0; c < chunks; c++) {
    uint64_t *cc = count + c * (uint64_t)parts;
    const uint64_t lo = n / chunks * c + (c < n % chunks ? c : n % chunks);
    const uint64_t hi = lo + n / chunks + (c < n % chunks);
    for (uint64_t v = lo; v < hi; v++)
      if (!sel || sel[v] == GR__PROXY_MARK) (*list)[cc[owner[v]]++] = (gr_vid)v;
  }
cleanup:
  free(count);
  return st;
}

/* One part's CSR (or CSC) with n_rows rows: the rows of its owned vertices
 * copied from src, every other row empty. Owned vertex i's row is local row
 * i when local_rows, else its global id; neighbours go through g2l when
 * given (1-hop), else keep their global ids. Without `lists`, the offsets
 * alone (the lists stay in src: gr_subgraph.lists_out). */
static gr_status gr__part_rows(gr_csr *dst, const gr_csr *src, uint64_t n_rows, const gr_vid *owned,
                               uint64_t n_owned, bool local_rows, const gr_vid *g2l, int threads, bool lists) {
  gr_status st = GR_SUCCESS;
  dst->n = (gr_vid)n_rows;
  GR_CHECK_GOTO(gr_host_calloc((void **)&dst->offsets, n_rows + 1, sizeof *dst->offsets, "subgraph offsets"),
                st, cleanup);
  GR__PART_OMP(parallel for schedule(static) num_threads(threads))
  for (uint64_t i = 0; i < n_owned; i++)
    dst->offsets[local_rows ? i : owned[i]] = gr_csr_degree(src, owned[i]);
  /* The exclusive prefix sum over n_rows + 1 entries leaves the total last. */
  dst->m = gr_prefix_sum_u64(dst->offsets, n_rows + 1);
  if (!lists) return GR_SUCCESS;
  GR_CHECK_GOTO(gr_host_alloc((void **)&dst->indices, dst->m * sizeof *dst->indices, "subgraph indices"),
                st, cleanup);
  if (src->weights)
    GR_CHECK_GOTO(gr_host_alloc((void **)&dst->weights, dst->m * sizeof *dst->weights, "subgraph weights"),
                  st, cleanup);
  uint64_t unmapped = 0;
  GR__PART_OMP(parallel for schedule(dynamic, 256) num_threads(threads) reduction(+ : unmapped))
  for (uint64_t i = 0; i < n_owned; i++) {
    const gr_vid u = owned[i];
    const gr_eid s0 = src->offsets[u], len = src->offsets[u + 1] - s0;
    const gr_eid d0 = dst->offsets[local_rows ? i : u];
    if (g2l) {
      /* Random reads of a |V|-entry table: prefetching a few arcs ahead
       * keeps several misses in flight per thread. A neighbour without a
       * local id (only possible when an undirected graph lacks the reverse
       * of an arc, see gr__build_1hop) is counted, never stored. */
      const gr_vid *si = src->indices + s0;
      for (gr_eid k = 0; k < len; k++) {
        if (k + 16 < len) __builtin_prefetch(&g2l[si[k + 16]]);
        const gr_vid l = g2l[si[k]];
        unmapped += (uint64_t)l >= n_rows;
        dst->indices[d0 + k] = (uint64_t)l < n_rows ? l : 0;
      }
    } else {
      memcpy(dst->indices + d0, src->indices + s0, len * sizeof *dst->indices);
    }
    if (src->weights) memcpy(dst->weights + d0, src->weights + s0, len * sizeof *dst->weights);
  }
  st = gr_subgraph_unmapped_error(unmapped);
cleanup:
  return st;
}

/* Duplicate-all: global ids, rows for every vertex, owner a copy. lazy:
 * the lists stay in the graph (gr_subgraph.lists_out), the part's rows
 * being the same rows. */
static gr_status gr__build_all(gr_subgraph *s, const gr_csr *out, const gr_csr *in, const gr_partition *p,
                               const gr_vid *owned, int threads, bool lazy) {
  const uint64_t n = p->n;
  s->n_local = p->n;
  GR_CHECK(gr__part_rows(&s->out, out, n, owned, s->n_owned, false, NULL, threads, !lazy));
  if (lazy) s->lists_out = *out;
  /* An undirected graph's in-edges are its out-edges: the same rows, so one
   * copy serves both (a pull then holds no more than a push). */
  if (in == out) {
    s->in = s->out;
    s->lists_in = s->lists_out;
  } else if (in) {
    GR_CHECK(gr__part_rows(&s->in, in, n, owned, s->n_owned, false, NULL, threads, !lazy));
    if (lazy) s->lists_in = *in;
  }
  GR_CHECK(gr_host_alloc((void **)&s->owner, n * sizeof *s->owner, "subgraph owners"));
  memcpy(s->owner, p->owner, n * sizeof *s->owner);
  return GR_SUCCESS;
}

/* Duplicate-1-hop: owned vertices 0..n_owned-1 (ascending global id), then
 * the remote vertices their arcs reach, grouped by owner. rank[v] is v's
 * local id on its owner. */
static gr_status gr__build_1hop(gr_subgraph *s, const gr_csr *out, const gr_csr *in, const gr_partition *p,
                                const gr_vid *owned, const gr_vid *rank, bool undirected, int threads, bool lazy) {
  gr_status st = GR_SUCCESS;
  gr_vid *proxies = NULL;
  uint64_t *pbegin = NULL;
  const uint64_t n = p->n, n_owned = s->n_owned;
  const int parts = p->parts, q = s->part;
  const int32_t *owner = p->owner;
  gr_vid *g2l = NULL;

  GR_CHECK_GOTO(gr_host_alloc((void **)&s->global_to_local, n * sizeof *g2l, "subgraph global-to-local map"),
                st, cleanup);
  g2l = s->global_to_local;
  GR__PART_OMP(parallel for schedule(static) num_threads(threads))
  for (uint64_t v = 0; v < n; v++) g2l[v] = GR_NO_VERTEX;
  GR__PART_OMP(parallel for schedule(static) num_threads(threads))
  for (uint64_t i = 0; i < n_owned; i++) g2l[owned[i]] = (gr_vid)i;
  /* Mark every remote end of an owned vertex's arcs. In an undirected
   * graph those are the vertices whose neighbour parts (the partition's
   * quality pass recorded them) include this one: a pass over the vertices
   * instead of the arcs. */
  if (undirected && p->adjacent) {
    const uint64_t bit = 1ull << q;
    GR__PART_OMP(parallel for schedule(static) num_threads(threads))
    for (uint64_t w = 0; w < n; w++)
      if ((p->adjacent[w] & bit) && owner[w] != q) g2l[w] = GR__PROXY_MARK;
  } else {
  /* Otherwise walk the arcs. Several threads may mark the same vertex; the
   * writes are atomic and write the same value. */
  const uint8_t *o8 = p->part8;
  GR__PART_OMP(parallel for schedule(dynamic, 256) num_threads(threads))
  for (uint64_t i = 0; i < n_owned; i++) {
    const gr_vid u = owned[i];
    for (int dir = 0; dir < 2; dir++) {
      const gr_csr *c = dir == 0 ? out : in;
      if (!c || (dir == 1 && in == out)) continue;
      for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) {
        const gr_vid w = c->indices[e];
        if ((o8 ? (int32_t)o8[w] : owner[w]) == q) continue;
        GR__PART_OMP(atomic write)
        g2l[w] = GR__PROXY_MARK;
      }
    }
  }
  }
  GR_CHECK_GOTO(gr_host_alloc((void **)&pbegin, ((size_t)parts + 1) * sizeof *pbegin, "proxy groups"), st,
                cleanup);
  GR_CHECK_GOTO(gr__group_by_owner(&proxies, pbegin, owner, g2l, n, parts, threads), st, cleanup);
  const uint64_t n_proxies = pbegin[parts];
  const uint64_t n_local = n_owned + n_proxies;
  s->n_local = (gr_vid)n_local;

  GR_CHECK_GOTO(gr_host_alloc((void **)&s->local_to_global, n_local * sizeof *s->local_to_global,
                              "subgraph local-to-global map"),
                st, cleanup);
  GR_CHECK_GOTO(gr_host_alloc((void **)&s->owner, n_local * sizeof *s->owner, "subgraph owners"), st, cleanup);
  GR_CHECK_GOTO(gr_host_alloc((void **)&s->owner_local, n_local * sizeof *s->owner_local,
                              "subgraph owner-local ids"),
                st, cleanup);
  GR_CHECK_GOTO(gr_host_alloc((void **)&s->peer_begin, ((size_t)parts + 1) * sizeof *s->peer_begin,
                              "subgraph peer ranges"),
                st, cleanup);
  for (int j = 0; j <= parts; j++) s->peer_begin[j] = (gr_vid)(n_owned + pbegin[j]);
  GR__PART_OMP(parallel for schedule(static) num_threads(threads))
  for (uint64_t i = 0; i < n_owned; i++) {
    s->local_to_global[i] = owned[i];
    s->owner[i] = q;
    s->owner_local[i] = (gr_vid)i;
  }
  GR__PART_OMP(parallel for schedule(static) num_threads(threads))
  for (uint64_t k = 0; k < n_proxies; k++) {
    const gr_vid w = proxies[k];
    const uint64_t l = n_owned + k;
    g2l[w] = (gr_vid)l;
    s->local_to_global[l] = w;
    s->owner[l] = owner[w];
    s->owner_local[l] = rank[w];
  }
  GR_CHECK_GOTO(gr__part_rows(&s->out, out, n_local, owned, n_owned, true, g2l, threads, !lazy), st, cleanup);
  if (lazy) s->lists_out = *out;
  if (in == out) {
    s->in = s->out; /* undirected: the same rows (see gr__build_all) */
    s->lists_in = s->lists_out;
  } else if (in) {
    GR_CHECK_GOTO(gr__part_rows(&s->in, in, n_local, owned, n_owned, true, g2l, threads, !lazy), st, cleanup);
    if (lazy) s->lists_in = *in;
  }
cleanup:
  free(proxies);
  free(pbegin);
  return st;
}

static gr_status gr__subgraphs_build(gr_subgraph ***out, gr_graph *g, const gr_partition *p, gr_proxy_mode proxy,
                                     bool needs_in, bool needs_weights, bool lazy) {
  gr_status st = GR_SUCCESS;
  gr_subgraph **subs = NULL;
  gr_vid *owned = NULL, *rank = NULL;
  uint64_t *begin = NULL;
  const gr_csr *in = NULL;
  int parts = 0;
  if (!out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_subgraphs_build: output is NULL");
  *out = NULL;
  if (!g || !p) return gr_errorf(GR_ERR_INVALID_ARG, "gr_subgraphs_build: NULL graph or partition");
  if (proxy != GR_PROXY_ALL && proxy != GR_PROXY_1HOP)
    return gr_errorf(GR_ERR_INVALID_ARG, "gr_subgraphs_build: unknown proxy mode %d", (int)proxy);
  /* The graph's arrays as the parts copy them: without the weights where
   * the primitive reads none (4 bytes an arc of host memory and copying
   * less, the same as the neighbour ids). */
  gr_csr out_v = *gr_graph_out(g), in_v;
  if (!needs_weights) out_v.weights = NULL;
  const gr_csr *csr = &out_v;
  const uint64_t n = csr->n;
  if (p->parts < 1 || (uint64_t)p->n != n)
    return gr_errorf(GR_ERR_INVALID_ARG,
                     "gr_subgraphs_build: the partition (%d parts of %llu vertices) does not fit the "
                     "graph of %llu vertices",
                     p->parts, (unsigned long long)p->n, (unsigned long long)n);
  parts = p->parts;
  const int threads = gr__part_threads(0);
  const double t0 = gr_time_now();
  if (needs_in) {
    GR_CHECK_GOTO(gr_graph_in(g, &in), st, cleanup);
    /* An undirected graph's CSC is its CSR: the builders test for that. */
    if (in == gr_graph_out(g)) {
      in = csr;
    } else {
      in_v = *in;
      if (!needs_weights) in_v.weights = NULL;
      in = &in_v;
    }
  }

  /* Owned vertices of every part, and each vertex's index among its part's
   * (its local id on its owner under 1-hop). */
  GR_CHECK_GOTO(gr_host_alloc((void **)&begin, ((size_t)parts + 1) * sizeof *begin, "owned groups"), st,
                cleanup);
  GR_CHECK_GOTO(gr__group_by_owner(&owned, begin, p->owner, NULL, n, parts, threads), st, cleanup);
  if (proxy == GR_PROXY_1HOP) {
    GR_CHECK_GOTO(gr_host_alloc((void **)&rank, n * sizeof *rank, "owner-local ids"), st, cleanup);
    GR__PART_OMP(parallel for schedule(static) num_threads(threads))
    for (uint64_t i = 0; i < n; i++) rank[owned[i]] = (gr_vid)(i - begin[p->owner[owned[i]]]);
  }

  GR_CHECK_GOTO(gr_host_calloc((void **)&subs, (size_t)parts, sizeof *subs, "subgraphs"), st, cleanup);
  for (int q = 0; q < parts; q++) {
    gr_subgraph *s = NULL;
    GR_CHECK_GOTO(gr_host_calloc((void **)&subs[q], 1, sizeof **subs, "subgraph"), st, cleanup);
    s = subs[q];
    s->part = q;
    s->n_parts = parts;
    s->proxy = proxy;
    s->n_global = (gr_vid)n;
    s->n_owned = (gr_vid)(begin[q + 1] - begin[q]);
    /* Set first so that gr_subgraph_destroy frees a half-built part. */
    s->owns_arrays = true;
    if (proxy == GR_PROXY_ALL)
      GR_CHECK_GOTO(gr__build_all(s, csr, in, p, owned + begin[q], threads, lazy), st, cleanup);
    else
      GR_CHECK_GOTO(
          gr__build_1hop(s, csr, in, p, owned + begin[q], rank, !gr_graph_is_directed(g), threads, lazy), st,
          cleanup);
  }
  gr_log(GR_LOG_INFO, GR_SUBSYS_PART, "built %d subgraphs (%s proxies%s%s) in %.3f s", parts,
         proxy == GR_PROXY_ALL ? "duplicate-all" : "duplicate-1-hop", needs_in ? ", in-edges" : "",
         lazy ? ", lists gathered at upload" : "", gr_time_now() - t0);
  *out = subs;
  subs = NULL;
cleanup:
  gr_subgraphs_destroy(&subs, parts);
  free(owned);
  free(rank);
  free(begin);
  return st;
}

gr_status gr_subgraphs_build(gr_subgraph ***out, gr_graph *g, const gr_partition *p, gr_proxy_mode proxy,
                             bool needs_in, bool needs_weights) {
  return gr__subgraphs_build(out, g, p, proxy, needs_in, needs_weights, false);
}

gr_status gr_subgraphs_build_lazy(gr_subgraph ***out, gr_graph *g, const gr_partition *p, gr_proxy_mode proxy,
                                  bool needs_in, bool needs_weights) {
  return gr__subgraphs_build(out, g, p, proxy, needs_in, needs_weights, true);
}

void gr_subgraphs_destroy(gr_subgraph ***subs, int parts) {
  if (!subs || !*subs) return;
  for (int q = 0; q < parts; q++) gr_subgraph_destroy(&(*subs)[q]);
  free(*subs);
  *subs = NULL;
}
