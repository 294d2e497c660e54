/* SPDX-License-Identifier: Apache-2.0 */
/* Breadth-first search: depths (and predecessors with --mark-pred) from one
 * source. The per-element functions below are the whole algorithm; bfs.c
 * runs them through the operators on either backend. */
#ifndef GR_BFS_H
#define GR_BFS_H

#include "gr/atomic.h"
#include "gr/operators.h"
#include "gr/primitive.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the kernels see: device pointers and the depth being assigned. */
typedef struct gr_bfs_ctx {
  gr_svid *depth;             /* per local vertex, -1 = unvisited */
  gr_svid *pred;              /* per local vertex (global ids), or NULL */
  const gr_vid *local_to_global; /* NULL when local ids are global */
  gr_svid next;               /* depth given to newly visited vertices */
  /* Or NULL: a bit per local vertex, set when a push claims it. A hint in
   * front of depth (1/32 of its size, so cached): a set bit means visited;
   * a clear one means "read depth" (the vertex may have been reached by a
   * pull, by another device, or a moment ago by another thread). */
  uint32_t *visited;
  /* The visited bits were set from the depths when this level began
   * (gr_bfs_push_level, big levels between devices): a clear bit means
   * unvisited then, so the push reads no depth before it claims. */
  bool visited_exact;
  /* Or NULL: between devices, claims are set in their owners' bitmaps
   * (gr_part_route), this device's own included, or in one bitmap of global
   * ids where route_owner is NULL, instead of being output. */
  const uint8_t *route_owner;
  const gr_vid *route_convert;
  gr_vid route_convert_first;
  uint32_t *route;
  uint64_t route_stride;
  int me;
} gr_bfs_ctx;

/* Whether dst is visited already as far as a cheap look tells (the bitmap
 * hint, then depth). */
GR_HD bool gr__bfs_seen(const gr_bfs_ctx *c, gr_vid dst) {
  if (c->visited) {
    if (gr_bitmap_test_hint(c->visited, dst)) return true;
    /* Unvisited when the level began; a claim of this level is settled by
     * the claim itself (compare-and-swap, or the route bit). */
    if (c->visited_exact) return false;
  }
  return gr_load_relaxed_svid(&c->depth[dst]) >= 0;
}

/* Bitmap predicate: v has a depth (gr_bfs_push_level's visited bits, or'ed
 * into the bits already set: a copy claimed by a routing push, or settled
 * bare by the exchange, has its bit and no depth). */
GR_HD bool gr_bfs_reached(const gr_bfs_ctx *c, gr_vid v) { return gr_load_relaxed_svid(&c->depth[v]) >= 0; }
/* After src claimed dst: its visited bit and predecessor. The idempotent
 * push lets two visitors claim dst in one level, so the predecessor is a
 * relaxed atomic store (either visitor is a valid parent, but plain
 * stores of two threads to one word are a data race). */
GR_HD void gr__bfs_claimed(const gr_bfs_ctx *c, gr_vid src, gr_vid dst) {
  if (c->visited) gr_atomic_or_u32(&c->visited[dst >> 5], 1u << (dst & 31u));
  if (c->pred) gr_store_relaxed_svid(&c->pred[dst], (gr_svid)(c->local_to_global ? c->local_to_global[src] : src));
}

/* Between devices, a dense level's claims go into bitmaps, one per owner
 * (gr_part_route), this device's own included: no compare-and-swap and no
 * output (setting a bit twice is setting it once, so the contended claims
 * of a level that reaches millions of vertices cost an or each), and no
 * pass afterwards sorts owned from remote. The first visitor to set the bit
 * sets dst's visited bit, which keeps later levels here from claiming it
 * again; the exchange's pass over this device's bitmap gives the owned
 * claims their depth (gr_xk_compact_args), and a copy keeps none (no
 * later test reads a depth behind a set bit, and only owners' depths are
 * extracted). A store to a random depth per claim was most of what a big
 * level wrote, and each device claims nearly every vertex one device
 * claims (Kronecker 27, two devices: 0.95 GB written by each device's
 * push, one device's 0.98 GB). Without visited bits the depth stays the
 * mark. Routing goes without predecessors (the payload is the depth
 * alone). */
GR_HD void gr__bfs_route(const gr_bfs_ctx *c, gr_vid dst) {
  /* No owner table: one bitmap of global ids (duplicate-all proxies). */
  const int o = c->route_owner ? c->route_owner[dst] : 0;
  /* Owned vertices keep their local ids (1-hop: the owned ones come first). */
  const gr_vid id = o != c->me && c->route_convert ? c->route_convert[dst - c->route_convert_first] : dst;
  /* Words 0 and 1 of a message hold its value. */
  uint32_t *w = c->route + (uint64_t)o * c->route_stride + 2u + (id >> 5);
  const uint32_t bit = 1u << (id & 31u);
  /* A plain read first: most visitors of a popular vertex find it set. */
  if ((gr_load_relaxed_u32(w) & bit) || (gr_atomic_or_u32(w, bit) & bit)) return;
  if (c->visited) gr_atomic_or_u32(&c->visited[dst >> 5], 1u << (dst & 31u));
  else gr_store_relaxed_svid(&c->depth[dst], c->next);
}

/* Push: the first visitor of dst claims it (compare-and-swap), so each
 * vertex enters the next frontier exactly once. */
GR_HD bool gr_bfs_visit(const gr_bfs_ctx *c, gr_vid src, gr_vid dst, gr_eid e) {
  (void)e;
  if (gr__bfs_seen(c, dst)) return false;
  if (c->route) {
    gr__bfs_route(c, dst);
    return false;
  }
  if (!gr_atomic_cas_svid(&c->depth[dst], -1, c->next)) return false;
  gr__bfs_claimed(c, src, dst);
  return true;
}

/* Idempotent push (--tune status=idempotent): no compare-and-swap. Two
 * visitors may both see dst unvisited and both emit it; they write the
 * same depth, and either one is a valid predecessor. The advance culls
 * most duplicates; the rest cost the next level a repeated vertex. */
GR_HD bool gr_bfs_visit_idem(const gr_bfs_ctx *c, gr_vid src, gr_vid dst, gr_eid e) {
  (void)e;
  if (gr__bfs_seen(c, dst)) return false;
  gr_store_relaxed_svid(&c->depth[dst], c->next);
  gr__bfs_claimed(c, src, dst);
  return true;
}

/* Pull: an unvisited vertex looks for a parent in the frontier. */
GR_HD bool gr_bfs_unvisited(const gr_bfs_ctx *c, gr_vid v) { return c->depth[v] < 0; }

/* Pull visit: only v's own scan writes v, so no atomics are needed. */
GR_HD bool gr_bfs_pull_visit(const gr_bfs_ctx *c, gr_vid parent, gr_vid v, gr_eid e) {
  (void)e;
  c->depth[v] = c->next;
  if (c->pred) c->pred[v] = (gr_svid)(c->local_to_global ? c->local_to_global[parent] : parent);
  return true;
}

/* The operator instantiations of one backend. */
typedef struct gr_bfs_ops {
  gr_status (*push)(gr_device *, gr_workspace *, gr_advance_push_args *, const gr_bfs_ctx *);
  gr_status (*pull)(gr_device *, gr_workspace *, gr_advance_pull_args *, const gr_bfs_ctx *);
  /* Several levels of small frontiers in one device-side loop; NULL where
   * a level costs no launch (CPU). ctx->next is ignored: level l assigns
   * depth l + 1. */
  gr_status (*levels)(gr_device *, gr_workspace *, gr_advance_levels_args *, const gr_bfs_ctx *);
  /* push with gr_bfs_visit_idem */
  gr_status (*push_idem)(gr_device *, gr_workspace *, gr_advance_push_args *, const gr_bfs_ctx *);
  /* the visited bits from the depths (gr_bfs_reached) */
  gr_status (*visited_bits)(gr_device *, gr_workspace *, gr_bitmap_args *, const gr_bfs_ctx *);
} gr_bfs_ops;

extern const gr_bfs_ops gr__bfs_ops_cpu;
#ifdef GR_HAVE_CUDA
extern const gr_bfs_ops gr__bfs_ops_cuda;
/* Loads bfs_cuda.cu's kernels on the device's GPU (gr_device_preload). */
gr_status gr__bfs_cuda_preload(gr_device *dev);
#endif
const gr_bfs_ops *gr__bfs_ops(const gr_device *dev);

extern const gr_primitive gr_bfs_primitive;

/* Shared with DOBFS. What travels between devices: the depth, and the
 * predecessor when pred is not NULL. */
void gr_bfs_payload_fill(gr_payload *out, gr_svid *depth, gr_svid *pred);

/* The visited bitmap of a push traversal (ctx.visited), when gr_tuning asks
 * for one: allocated on first use, cleared at every reset. */
gr_status gr_bfs_visited_reset(gr_buffer *bits, gr_part *p);
static inline uint32_t *gr_bfs_visited_bits(gr_buffer *bits) { return (uint32_t *)bits->ptr; }

/* Per-device traversal state shared by BFS and DOBFS: the device-side
 * loop's buffers, and what the last level learned of the next frontier
 * while emitting it (its out-edges and largest degree; one device only,
 * where no exchange changes the frontier afterwards). */
typedef struct gr_bfs_loop {
  gr_buffer level_sizes; /* device: input sizes of the loop's levels */
  gr_eid *host_sizes;    /* their host copy */
  bool left;             /* this run's frontier outgrew the loop once */
  int known_iter;        /* the iteration whose input the figures describe, or -1 */
  gr_eid known_edges, known_max_degree;
  /* Between devices: the visited bits hold every vertex with a depth (set
   * from the depths once, then kept by the claims, which set bits, and by
   * the exchange's combines, which settle what arrives), so a big level
   * trusts them without setting them again. */
  bool bits_whole;
} gr_bfs_loop;

/* Forgets the figures (at every reset). */
static inline void gr_bfs_loop_reset(gr_bfs_loop *l) {
  l->known_iter = -1;
  l->left = false;
  l->bits_whole = false;
}
/* Whether the input of iteration `iter` was measured while it was emitted. */
static inline bool gr_bfs_known(const gr_bfs_loop *l, int iter) { return l->known_iter == iter && iter >= 0; }
/* Records the figures of the next iteration's input. */
static inline void gr_bfs_know(gr_bfs_loop *l, int iter, gr_eid edges, gr_eid max_degree) {
  l->known_iter = iter;
  l->known_edges = edges;
  l->known_max_degree = max_degree;
}

/* After seeding one device's first frontier with the source: its figures
 * come from the host's copy of the offsets, not from a pass. */
void gr_bfs_know_source(gr_bfs_loop *l, const gr_part *p, gr_vid source);

/* The source's out-degree on this device (0 where it is not owned here). */
gr_eid gr_bfs_source_edges(const gr_part *p, gr_vid source);

/* Makes room for a frontier of at most `bound` items (at least one). One
 * device keeps n_local entries (its device-side loop ping-pongs the
 * queues); between devices a frontier is reserved just enough, so the three
 * that rotate through a run stay near the largest level's size instead of
 * |V| each. */
gr_status gr_bfs_reserve(gr_frontier *f, gr_part *p, gr_eid bound);

/* What a push level can output at most: the input's out-edges (measured by
 * the exchange between devices, or the source's degree at the first level),
 * and never more than n_local. */
gr_eid gr_bfs_push_bound(const gr_part *p, const gr_iter *it, gr_eid source_edges);

/* One push level: it->out (reserved for n_local items) gets the vertices
 * c->next claims; on one device it measures them for the next level (l).
 * `bound` (gr_bfs_push_bound) bounds the claims: between devices, they are
 * routed to bitmaps only where that many as a list would be larger. */
gr_status gr_bfs_push_level(gr_part *p, gr_iter *it, const gr_bfs_ctx *c, gr_bfs_loop *l, gr_eid bound);

/* The device-side loop over small frontiers (one GPU; gr_tuning's limits):
 * runs from it->in as many levels as stay small and sets it->levels (0 when
 * it did not run: the caller does one level itself), it->out and
 * it->level_sizes. */
gr_status gr_bfs_loop_run(gr_bfs_loop *l, gr_part *p, gr_iter *it, const gr_bfs_ctx *c);
void gr_bfs_loop_release(gr_bfs_loop *l);

/* Plain serial reference (depths, and predecessors when asked). */
gr_status gr_bfs_reference(gr_graph *g, const gr_run_args *a, const gr_prim_options *o,
                           gr_result *ref);
/* Accepts every correct BFS answer: the source has depth 0; every reached
 * vertex other than the source has an in-neighbour one level up (its
 * predecessor, when predecessors are given, which must be such an edge);
 * no edge leaves the reached part or skips a level; the reached set equals
 * the reference's. */
gr_status gr_bfs_validate(gr_graph *g, const gr_run_args *a, const gr_prim_options *o,
                          const gr_result *r, const gr_result *ref);
/* Graph500 TEPS count: input edges with a reached endpoint. */
gr_eid gr_bfs_traversed_edges(gr_graph *g, const gr_result *r);

#ifdef __cplusplus
}
#endif

#endif
