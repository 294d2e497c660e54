/* SPDX-License-Identifier: Apache-2.0 */
/* Single-source shortest paths over non-negative edge weights: the distance
 * (and a predecessor with --mark-pred) of every vertex from one source, by
 * near/far buckets of width delta. The per-element functions below are the
 * whole algorithm; sssp.c runs them through the operators on either backend.
 *
 * Distances are 32-bit floats; the distance through an edge is the float
 * sum fl(d(u) + w), rounded once, the same on both backends. That sum grows
 * with d(u) and never falls below d(u) when w >= 0, so every correct
 * label-correcting order ends at the same numbers as a serial Dijkstra in
 * the same arithmetic, bit for bit. With integer weights every distance
 * below 2^24 is an exact integer. Unreached vertices keep +inf (-1 in
 * gr_run --out).
 *
 * One iteration on one device:
 *   1. split the input (the vertices whose distance changed, owned, each
 *      once) with the split operator: distances below `split` go to the
 *      near bucket, the others to the far pile, once each (a bit per vertex
 *      claims the pile entry);
 *   2. when no device has a near vertex left, the pile is split: the
 *      smallest pile distance of all devices picks the next bucket
 *      (split = the multiple of delta above it), its vertices join the near
 *      bucket, entries whose vertex has since moved below the old split are
 *      dropped (they were expanded then), the rest stay;
 *   3. advance from the near bucket, relaxing each out-edge by an atomic
 *      min on the target's distance (the float's bits as an unsigned
 *      integer: for non-negative floats and +inf the orders agree); a
 *      target whose distance fell is output once per iteration (the first
 *      to stamp it with the iteration number emits it).
 * The far pile's size is reported as the iteration's pending work, so the
 * run goes on while any device holds some.
 *
 * Light and heavy arcs (delta-stepping's; --tune sssp-heavy=once, the
 * default where some arc is heavy): an arc of weight delta or more is
 * heavy. Its target's distance, from a vertex of the bucket, is at or
 * past the bucket's end, so it cannot change the bucket: the bucket's
 * expansions relax light arcs only, and once no device has a near vertex
 * left, the iteration that picks the next bucket first relaxes the heavy
 * arcs of every vertex the bucket expanded, at its final distance. A
 * vertex that a bucket expands again (its distance fell again) no longer
 * relaxes its heavy arcs each time: on Kronecker graphs with weights
 * 1..255 three arcs in four are heavy, and a vertex is expanded about
 * twice on one device, more between devices, where a peer's lower
 * distance arrives an iteration late. Each device row holds its light arcs
 * first (reordered in place at set-up, gr_sssp_ops.split_rows), and a
 * second offsets array gives every row two: row 2u its light arcs, row
 * 2u + 1 its heavy ones, so that the load-balanced advance, given the
 * bucket's ids doubled (plus one for heavy arcs), walks only the arcs of
 * its kind. Where rows cannot be reordered (packed lists, lists in host
 * memory) a relaxation skips the other kind's arcs as it meets them. A
 * bit per vertex marks the vertices expanded since their heavy arcs were
 * relaxed (set as the input's split or the pile's puts a vertex in the
 * near bucket, and by the device-side loop's levels); the bucket's end
 * takes the marked vertices below the split. Which arcs count as heavy changes only the work, never the
 * distances: a vertex whose distance falls later is marked again, and a
 * heavy target that lands below the split (float rounding) reopens the
 * bucket.
 *
 * On one device, a bucket whose levels stay small runs them in one
 * device-side loop (on a GPU the advance's cooperative levels kernel, on
 * the CPU its portable definition; tuned by --tune small*): far targets go
 * to the pile from inside the loop, and the loop ends when the bucket is
 * empty or outgrows the limits.
 *
 * With predecessors, distance and predecessor live in one 64-bit word per
 * vertex (the distance's bits above the predecessor's global id) that a
 * relaxation replaces by compare-and-swap only when it lowers the
 * distance: a predecessor is always the vertex that gave the distance
 * beside it, never a later and worse writer, and since only strictly
 * better distances move it, predecessors form a tree on one device (a
 * zero-weight cycle cannot point around itself). The exchange's arrays
 * (distances, predecessors) are filled from the words for the output and
 * fed back into them for the input. */
#ifndef GR_SSSP_H
#define GR_SSSP_H

#include "gr/atomic.h"
#include "gr/operators.h"
#include "gr/primitive.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the kernels see: device pointers and the iteration's bucket. */
typedef struct gr_sssp_ctx {
  float *dist;                   /* per local vertex; +inf = unreached */
  gr_svid *pred;                 /* per local vertex (global ids), or NULL */
  /* With predecessors: per local vertex, the distance's bits << 32 | the
   * predecessor's global id (GR_SSSP_NO_PRED: none); the authority on
   * both, `dist` and `pred` being what the exchange reads and writes.
   * NULL without predecessors (`dist` is the authority). */
  uint64_t *dp;
  int32_t *stamp;                /* per local vertex: the iteration that last output it, -1 none */
  const gr_weight *weights;      /* per arc of the local CSR */
  const gr_vid *local_to_global; /* NULL when local ids are global */
  uint32_t *pile_bits;           /* per local vertex: set while it has an entry in the far pile */
  int32_t iteration;
  float split; /* the near bucket holds distances below this */
  float lower; /* splitting the pile: entries below this are stale */
  /* The device-side loop (gr_sssp_relax_level) appends far vertices to the
   * pile itself: its entries, their count (device) and its room. */
  gr_vid *pile;
  uint64_t *pile_count;
  gr_eid pile_capacity;
  /* Light and heavy arcs (above): which ones a relaxation takes
   * (GR_SSSP_ARCS_*), the smallest heavy weight, and per local vertex a bit
   * set while its heavy arcs wait for the bucket's end (NULL: arcs are not
   * told apart). */
  int arcs;
  float heavy;
  uint32_t *heavy_bits;
  /* Relaxing over the split rows (above): the advance's ids are a
   * vertex's shifted left by `shift` (1), plus one for its heavy arcs;
   * gr_sssp_map_id writes map_list[i] so, map_bit the one added. */
  int shift;
  gr_vid *map_list;
  int map_bit;
  /* Between devices whose kernels reach each other's memory
   * (gr_part_peers, sssp-peers=on): every device's distances by device
   * index, and per copy (the local ids from peer_first on) its owner and
   * its id there. NULL: a copy is lowered here alone. */
  float *const *peer_dist;
  const uint8_t *peer_owner;
  const gr_vid *peer_convert;
  gr_vid peer_first;
} gr_sssp_ctx;

enum { GR_SSSP_ARCS_ALL = 0, GR_SSSP_ARCS_LIGHT = 1, GR_SSSP_ARCS_HEAVY = 2 };

/* Whether a relaxation of this kind leaves an arc of weight w alone. */
GR_HD bool gr__sssp_skips(const gr_sssp_ctx *c, float w) {
  if (c->arcs == GR_SSSP_ARCS_LIGHT) return !(w < c->heavy);
  if (c->arcs == GR_SSSP_ARCS_HEAVY) return w < c->heavy;
  return false;
}

/* v is about to be expanded over its light arcs: its heavy ones wait for
 * the bucket's end. */
GR_HD void gr__sssp_mark_heavy(const gr_sssp_ctx *c, gr_vid v) {
  if (c->heavy_bits) gr_bitmap_test_and_set(c->heavy_bits, v);
}

enum { GR_SSSP_INF_BITS = 0x7f800000u }; /* +inf as float bits */
#define GR_SSSP_NO_PRED 0xffffffffu

GR_HD uint32_t gr__sssp_bits(float x) {
#ifdef __CUDA_ARCH__
  return __float_as_uint(x);
#else
  union {
    float f;
    uint32_t u;
  } c;
  c.f = x;
  return c.u;
#endif
}
GR_HD float gr__sssp_float(uint32_t b) {
#ifdef __CUDA_ARCH__
  return __uint_as_float(b);
#else
  union {
    float f;
    uint32_t u;
  } c;
  c.u = b;
  return c.f;
#endif
}

/* The distance through an edge: one rounding, never fused. */
GR_HD float gr_sssp_add(float d, float w) {
#ifdef __CUDA_ARCH__
  return __fadd_rn(d, w);
#else
  return d + w;
#endif
}

GR_HD uint64_t gr__sssp_pack(float d, gr_svid pred) {
  return (uint64_t)gr__sssp_bits(d) << 32 | (pred < 0 ? (uint64_t)GR_SSSP_NO_PRED : (uint64_t)(uint32_t)pred);
}
GR_HD float gr__sssp_word_dist(uint64_t w) { return gr__sssp_float((uint32_t)(w >> 32)); }
GR_HD gr_svid gr__sssp_word_pred(uint64_t w) {
  return (uint32_t)w == GR_SSSP_NO_PRED ? (gr_svid)-1 : (gr_svid)(uint32_t)w;
}

/* A vertex's distance as it stands. Relaxations running meanwhile only
 * lower distances, so a stale read is never below the truth: a relaxation
 * that reads one does less, or tries its atomic in vain, and a vertex
 * lowered meanwhile is output and expanded again. The GPU may therefore
 * use plain (cached) loads; the host reads relaxed atomics, as C requires
 * of data other threads write. */
GR_HD float gr_sssp_dist(const gr_sssp_ctx *c, gr_vid v) {
#ifdef __CUDA_ARCH__
  if (c->dp) return gr__sssp_word_dist(c->dp[v]);
  return c->dist[v];
#else
  if (c->dp) return gr__sssp_word_dist(gr_load_relaxed_u64(&c->dp[v]));
  return gr__sssp_float(gr_load_relaxed_u32((const uint32_t *)&c->dist[v]));
#endif
}

/* Lowers v's distance to nd (with u as predecessor) when nd is smaller;
 * true when this call lowered it. */
GR_HD bool gr__sssp_lower(const gr_sssp_ctx *c, gr_vid u, gr_vid v, float nd) {
  const uint32_t b = gr__sssp_bits(nd);
  if (!c->dp) return gr_atomic_min_u32((uint32_t *)&c->dist[v], b) > b;
  const uint64_t want = (uint64_t)b << 32 | (uint32_t)(c->local_to_global ? c->local_to_global[u] : u);
  uint64_t cur = gr_load_relaxed_u64(&c->dp[v]);
  for (;;) {
    if ((uint32_t)(cur >> 32) <= b) return false;
    const uint64_t seen = gr_atomic_cas_u64(&c->dp[v], cur, want);
    if (seen == cur) return true;
    cur = seen;
  }
}

/* A copy v just lowered here to nd (c->peer_dist): its owner's distance
 * too, in place, so that the owner's relax in this level reads it as one
 * device's relax reads its own lowerings (between devices a level expands
 * fewer vertices again later). True when that lowered the owner's: the
 * copy joins the output and its record reaches the owner, whose combine
 * finds its own value equal to the record's and takes the vertex
 * (gr_iter.min_ties); each value a device wrote there so stays its
 * sender's to tell. Otherwise the owner held as low a distance already
 * (its own, or a peer's that tells it): the copy takes it and stays out. */
GR_HD bool gr__sssp_lower_owner(const gr_sssp_ctx *c, gr_vid v, float nd) {
  /* Only a distance inside the bucket: the owner expands it in the bucket,
   * where reading it early saves a later expansion; one past it waits in
   * the pile, and its record carries it (a tie there joins the vertex in
   * vain, and the split drops it). */
  if (!c->peer_dist || v < c->peer_first || !(nd < c->split)) return true;
  const gr_vid k = v - c->peer_first;
  float *od = c->peer_dist[c->peer_owner[k]];
  const uint32_t b = gr__sssp_bits(nd);
  const uint32_t old = gr_atomic_min_u32((uint32_t *)&od[c->peer_convert[k]], b);
  if (old > b) return true;
  gr_atomic_min_u32((uint32_t *)&c->dist[v], old);
  return false;
}

/* Advance (relax): v joins the output when its distance fell (on its
 * owner too, where peers are written in place) and it was not output yet
 * in this iteration. */
GR_HD bool gr_sssp_relax(const gr_sssp_ctx *c, gr_vid row, gr_vid v, gr_eid e) {
  const gr_vid u = row >> c->shift;
  const float w = c->weights[e];
  if (gr__sssp_skips(c, w)) return false;
  const float nd = gr_sssp_add(gr_sssp_dist(c, u), w);
  if (!(nd < gr_sssp_dist(c, v))) return false;
  if (!gr__sssp_lower(c, u, v, nd)) return false;
  if (!gr__sssp_lower_owner(c, v, nd)) return false;
  return gr_atomic_exch_i32(&c->stamp[v], c->iteration) != c->iteration;
}

/* The relaxation of the device-side loop over small buckets (one GPU): a
 * target below split joins the next level (once per level, by its stamp),
 * one at or beyond it joins the far pile at once (once, by its pile bit),
 * each by the distance this relaxation wrote, so that a later and lower
 * write of the same level still reaches the near side and no pile entry
 * is lost. The source's distance was written in the previous level,
 * possibly by another block: it is read past the caches. */
GR_HD bool gr_sssp_relax_level(const gr_sssp_ctx *c, int level, gr_vid u, gr_vid v, gr_eid e) {
  const float w = c->weights[e];
  if (gr__sssp_skips(c, w)) return false;
  const float du = c->dp ? gr__sssp_word_dist(gr_load_relaxed_u64(&c->dp[u]))
                         : gr__sssp_float(gr_load_relaxed_u32((const uint32_t *)&c->dist[u]));
  const float nd = gr_sssp_add(du, w);
  if (!(nd < gr_sssp_dist(c, v))) return false;
  if (!gr__sssp_lower(c, u, v, nd)) return false;
  if (nd < c->split) {
    if (gr_atomic_exch_i32(&c->stamp[v], level) == level) return false;
    /* The loop's next level expands it. */
    gr__sssp_mark_heavy(c, v);
    return true;
  }
  if (gr_bitmap_test_and_set(c->pile_bits, v)) {
    const uint64_t at = gr_atomic_add_u64(c->pile_count, 1);
    if (at < c->pile_capacity) c->pile[at] = v;
  }
  return false;
}

/* With predecessors, for the exchange: the output's words into the
 * arrays it sends (never raising a proxy's distance that a broadcast
 * already lowered), and the arrays it filled into the input's words. */
GR_HD void gr_sssp_publish(const gr_sssp_ctx *c, gr_vid v) {
  const uint64_t w = c->dp[v];
  if (gr__sssp_word_dist(w) < c->dist[v]) {
    c->dist[v] = gr__sssp_word_dist(w);
    c->pred[v] = gr__sssp_word_pred(w);
  }
}
GR_HD void gr_sssp_absorb(const gr_sssp_ctx *c, gr_vid v) {
  if (c->dist[v] < gr__sssp_word_dist(c->dp[v])) c->dp[v] = gr__sssp_pack(c->dist[v], c->pred[v]);
}

/* Split of the input: 0 near bucket, 1 a new far-pile entry, -1 already in
 * the pile (its entry reads the distance when the pile is split). */
GR_HD int gr_sssp_classify_input(const gr_sssp_ctx *c, gr_vid v) {
  if (gr_sssp_dist(c, v) < c->split) {
    gr__sssp_mark_heavy(c, v);
    return 0;
  }
  return gr_bitmap_test_and_set(c->pile_bits, v) ? 1 : -1;
}

/* Split of the pile (lower = the old split, split = the new one): 0 the
 * near bucket, 1 stays, -1 dropped. A vertex below the old split was
 * expanded when it got there; only vertices leaving the pile lose their
 * bit. */
GR_HD int gr_sssp_classify_pile(const gr_sssp_ctx *c, gr_vid v) {
  const float d = gr_sssp_dist(c, v);
  if (!(d < c->split) && d >= c->lower) return 1;
  gr_bitmap_clear(c->pile_bits, v);
  if (d < c->lower) return -1;
  gr__sssp_mark_heavy(c, v);
  return 0;
}

/* For each i below the bucket's size: its vertex as the split rows' id of
 * its light (map_bit 0) or heavy (1) arcs. */
GR_HD void gr_sssp_map_id(const gr_sssp_ctx *c, gr_vid i) { c->map_list[i] = c->map_list[i] << 1 | (gr_vid)c->map_bit; }

/* Filter at a bucket's end (every local vertex): the vertices whose heavy
 * arcs wait and whose distance is below the split (the bucket's, now
 * final), their bits cleared. A marked vertex at or past the split sits in
 * the pile and keeps its bit for its own bucket. */
GR_HD bool gr_sssp_take_heavy(const gr_sssp_ctx *c, gr_vid v) {
  if (!gr_bitmap_test(c->heavy_bits, v)) return false;
  if (!(gr_sssp_dist(c, v) < c->split)) return false;
  gr_bitmap_clear(c->heavy_bits, v);
  return true;
}

/* A pile entry's distance when it is live (not below split), else +inf:
 * the smallest picks the next bucket. */
GR_HD float gr_sssp_pile_key(const gr_sssp_ctx *c, gr_vid v) {
  const float d = gr_sssp_dist(c, v);
  return d < c->split ? gr__sssp_float(GR_SSSP_INF_BITS) : d;
}

/* Every local vertex before a run: unreached, never improved. */
GR_HD void gr_sssp_init_vertex(const gr_sssp_ctx *c, gr_vid v) {
  c->dist[v] = gr__sssp_float(GR_SSSP_INF_BITS);
  c->stamp[v] = -1;
  if (c->pred) c->pred[v] = -1;
  if (c->dp) c->dp[v] = gr__sssp_pack(gr__sssp_float(GR_SSSP_INF_BITS), -1);
}

/* The operator instantiations of one backend. */
typedef struct gr_sssp_ops {
  gr_status (*relax)(gr_device *, gr_workspace *, gr_advance_push_args *, const gr_sssp_ctx *);
  gr_status (*split_input)(gr_device *, gr_workspace *, gr_split_args *, const gr_sssp_ctx *);
  gr_status (*split_pile)(gr_device *, gr_workspace *, gr_split_args *, const gr_sssp_ctx *);
  gr_status (*init)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_sssp_ctx *);
  gr_status (*publish)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_sssp_ctx *);
  gr_status (*absorb)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_sssp_ctx *);
  /* Several levels of small buckets in one device-side loop
   * (gr_sssp_relax_level with level = the iteration). */
  gr_status (*relax_levels)(gr_device *, gr_workspace *, gr_advance_levels_args *, const gr_sssp_ctx *);
  /* The smallest gr_sssp_pile_key over pile[0..n) (+inf when none), to
   * *least on the host. */
  gr_status (*pile_min)(gr_device *, gr_workspace *, const gr_vid *pile, gr_eid n, const gr_sssp_ctx *,
                        float *least);
  /* The bucket's end: gr_sssp_take_heavy's vertices over the ids [0,
   * n_in) (their bits cleared), in any order. */
  gr_status (*take_heavy)(gr_device *, gr_workspace *, gr_filter_args *, const gr_sssp_ctx *);
  /* gr_sssp_map_id over the ids [0, n). */
  gr_status (*map_ids)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_sssp_ctx *);
  /* Reorders each of the first `rows` rows of g (device arrays: offsets,
   * indices, weights) in place, its arcs lighter than `heavy` first, each
   * kind in its order, and writes split[2u] = the row's first arc,
   * split[2u + 1] = its first heavy arc, split[2 rows] = the end. tmp_ids
   * and tmp_weights hold tmp_arcs arcs (at least the longest row's);
   * host_offsets is the host's copy of g's offsets. */
  gr_status (*split_rows)(gr_device *, const gr_csr *g, gr_vid rows, float heavy, gr_eid *split,
                          const gr_eid *host_offsets, gr_vid *tmp_ids, gr_weight *tmp_weights, gr_eid tmp_arcs);
  /* take_heavy, then pile_min over pile[0..n), their results brought back
   * in one read (neither reads what the other writes): a bucket's end
   * between devices, whose heavy arcs wait for the next bucket's pick,
   * waits once for both. */
  gr_status (*take_heavy_least)(gr_device *, gr_workspace *, gr_filter_args *, const gr_vid *pile, gr_eid n,
                                const gr_sssp_ctx *, float *least);
} gr_sssp_ops;

extern const gr_sssp_ops gr__sssp_ops_cpu;
#ifdef GR_HAVE_CUDA
extern const gr_sssp_ops gr__sssp_ops_cuda;
/* Loads sssp_cuda.cu's kernels on the device's GPU (gr_device_preload). */
gr_status gr__sssp_cuda_preload(gr_device *dev);
#endif
const gr_sssp_ops *gr__sssp_ops(const gr_device *dev);

extern const gr_primitive gr_sssp_primitive;

/* delta = auto: 32 * (mean weight) / (mean out-degree of the vertices with
 * out-edges), at least the smallest positive weight; 1 when no weight is
 * positive. A bucket then holds about a warp's width (32) of edges per
 * vertex. From the weights' summary of m arcs (gr_graph_weight_summary). */
double gr_sssp_delta_of(const gr_weight_summary *w, gr_eid m);
/* The same from one pass over g's weights (1 without arcs or weights). */
gr_status gr_sssp_delta_auto(const gr_csr *g, double *delta);
/* The bucket boundary after distance `least`: the next multiple of delta,
 * as a float strictly above `least`. */
float gr_sssp_next_split(double delta, float least);

/* Checks the weights (present, finite, at least 0: otherwise
 * GR_ERR_BAD_INPUT naming the first bad edge by input ids, in the order of
 * the graph's rows) and sets o->delta when it is 0 (auto). */
gr_status gr_sssp_prepare(gr_graph *g, gr_prim_options *o);

/* Plain serial reference: Dijkstra with a binary heap, in the same float
 * arithmetic (distances, and predecessors when asked). */
gr_status gr_sssp_reference(gr_graph *g, const gr_run_args *a, const gr_prim_options *o, gr_result *ref);

/* The relative tolerance of the checks: 0 (exact) when every weight is an
 * integer and every distance below 2^24, else GR_SSSP_REL_TOL. */
#define GR_SSSP_REL_TOL 1e-6
double gr_sssp_tolerance(gr_graph *g, const gr_result *r);

/* Accepts every correct answer: the source has distance 0; every distance
 * is +inf or a non-negative number; with a reference, the reached set and
 * the distances equal its own (within the tolerance); no edge (u, v, w)
 * from a reached u has d(v) > fl(d(u) + w); every reached vertex but the
 * source has a tight in-edge from a reached vertex; with predecessors, the
 * source and unreached vertices have none (-1) and every other
 * predecessor is a reached in-neighbour over a tight edge. */
gr_status gr_sssp_validate(gr_graph *g, const gr_run_args *a, const gr_prim_options *o, const gr_result *r,
                           const gr_result *ref);
/* Whether gr_sssp_validate's checks alone (ref NULL) prove r right or
 * wrong: every weight at least 1 and the tolerance 0 (integer weights,
 * distances below 2^24, so float sums are exact). Then every vertex's
 * chain of tight in-edges falls strictly in distance and ends at the
 * source, so a reached vertex's distance is a path's length (at least the
 * shortest), and no edge leads to a larger distance than it allows, so it
 * is at most the shortest. With a zero weight, vertices on a zero-weight
 * cycle can hold each other's too-small distances; with tolerance, a chain
 * need not fall. */
bool gr_sssp_certifies(gr_graph *g, const gr_run_args *a, const gr_prim_options *o, const gr_result *r);
/* Graph500 TEPS count: input edges with a reached endpoint. */
gr_eid gr_sssp_traversed_edges(gr_graph *g, const gr_result *r);

#ifdef __cplusplus
}
#endif

#endif
