/* SPDX-License-Identifier: Apache-2.0 */
/* BFS as a primitive spec: per-device state (depths, predecessors), reset at
 * the source's owner, and one push advance per level. Across devices a
 * visited vertex travels with its depth (and predecessor) and the smaller
 * depth wins. */
#include <stdlib.h>
#include <string.h>

#include "bfs/bfs.h"
#include "gr/util.h"

/* Levels one device-side loop may run before the host looks again. */
enum { GR__BFS_LOOP_LEVELS = 4096 };

typedef struct gr__bfs_slice {
  gr_buffer depth;
  gr_buffer pred;
  gr_buffer visited; /* gr_bfs_ctx.visited, or unallocated */
  bool mark_pred;
  gr_bfs_loop loop;
  gr_eid source_edges;
} gr__bfs_slice;

const gr_bfs_ops *gr__bfs_ops(const gr_device *dev) {
#ifdef GR_HAVE_CUDA
  if (gr_device_backend(dev) == GR_BACKEND_CUDA) return &gr__bfs_ops_cuda;
#endif
  (void)dev;
  return &gr__bfs_ops_cpu;
}

static gr_status bfs_init(void **slice, gr_part *p) {
  gr__bfs_slice *s = NULL;
  gr_status st = GR_SUCCESS;
  GR_CHECK(gr_host_calloc((void **)&s, 1, sizeof *s, "bfs state"));
  gr_vid n = p->sub->n_local;
  s->mark_pred = p->opts->mark_pred;
  GR_CHECK_GOTO(gr_buffer_resize(&s->depth, p->dev, (size_t)n * sizeof(gr_svid), 0, "bfs depths"), st,
                fail);
  if (s->mark_pred)
    GR_CHECK_GOTO(gr_buffer_resize(&s->pred, p->dev, (size_t)n * sizeof(gr_svid), 0, "bfs predecessors"),
                  st, fail);
  *slice = s;
  return GR_SUCCESS;
fail:
  gr_buffer_release(&s->depth);
  gr_buffer_release(&s->pred);
  free(s);
  return st;
}

static void bfs_release(void *slice, gr_part *p) {
  (void)p;
  gr__bfs_slice *s = slice;
  gr_buffer_release(&s->depth);
  gr_buffer_release(&s->pred);
  gr_buffer_release(&s->visited);
  gr_bfs_loop_release(&s->loop);
  free(s);
}

gr_status gr_bfs_visited_reset(gr_buffer *bits, gr_part *p) {
  if (!p->opts->tune.visited_bitmap) return GR_SUCCESS;
  const size_t bytes = gr_bitmap_words(p->sub->n_local) * sizeof(uint32_t);
  if (!bits->ptr) GR_CHECK(gr_buffer_resize(bits, p->dev, bytes ? bytes : sizeof(uint32_t), 0, "visited bitmap"));
  return gr_device_memset(p->dev, bits->ptr, 0, bytes);
}

void gr_bfs_loop_release(gr_bfs_loop *l) {
  gr_buffer_release(&l->level_sizes);
  free(l->host_sizes);
  l->host_sizes = NULL;
}

/* Small frontiers on one GPU: many levels in one device-side loop. Returns
 * with it->levels = 0 when the loop did not run (the caller then does one
 * load-balanced level). */
gr_status gr_bfs_loop_run(gr_bfs_loop *s, gr_part *p, gr_iter *it, const gr_bfs_ctx *c) {
  const gr_bfs_ops *ops = gr__bfs_ops(p->dev);
  const gr_tuning *t = &p->ws->tune;
  it->levels = 0;
  if (!ops->levels || !t->small_loop || p->count != 1 || it->in->size > t->small_vertices) return GR_SUCCESS;
  if (gr_bfs_known(s, it->iteration)) {
    /* Measured while emitted: enter exactly when the loop would take it. */
    if (s->known_edges > t->small_edges || s->known_max_degree > t->small_degree) return GR_SUCCESS;
  } else {
    /* Otherwise, once a run's frontier has outgrown the loop, its
     * shrinking tail comes back only when it is really small: every
     * refused try costs a launch and a round trip. */
    if (s->left && it->in->size > t->small_vertices / 16) return GR_SUCCESS;
  }
  if (!s->level_sizes.ptr) {
    GR_CHECK(gr_buffer_resize(&s->level_sizes, p->dev, GR__BFS_LOOP_LEVELS * sizeof(gr_eid), 0,
                              "bfs level sizes"));
    GR_CHECK(gr_host_alloc((void **)&s->host_sizes, GR__BFS_LOOP_LEVELS * sizeof(gr_eid), "bfs level sizes"));
  }
  const gr_eid cap_out = gr_frontier_capacity(it->out), cap_in = gr_frontier_capacity(it->in);
  gr_advance_levels_args a;
  gr_advance_levels_init(&a, &p->out, gr_frontier_items(it->in), it->in->size, gr_frontier_items(it->out),
                         cap_out < cap_in ? cap_out : cap_in, it->iteration, GR__BFS_LOOP_LEVELS, it->max_levels, t);
  a.level_sizes = s->level_sizes.ptr;
  GR_CHECK(ops->levels(p->dev, p->ws, &a, c));
  if (a.levels == 0) {
    s->left = true;
    return GR_SUCCESS;
  }
  /* Stopped because the frontier outgrew the loop: the next level is a
   * load-balanced one. */
  if (a.n_out > 0 && a.levels < a.max_levels) s->left = true;
  it->levels = a.levels;
  it->edges += a.edges;
  gr_bfs_know(s, it->iteration + a.levels, a.out_edges, a.out_max_degree);
  if (a.levels > 1)
    GR_CHECK(gr_device_copy(p->dev, s->host_sizes, (gr_eid *)s->level_sizes.ptr + 1,
                            (size_t)(a.levels - 1) * sizeof(gr_eid), GR_COPY_D2H));
  it->level_sizes = s->host_sizes;
  /* The frontier left is in queue a.out_queue; the enactor continues from
   * it->out. */
  if (a.out_queue == 0) gr_frontier_swap(it->in, it->out);
  it->out->size = a.n_out;
  return GR_SUCCESS;
}

static gr_status bfs_reset(void *slice, gr_part *p, const gr_run_args *a, gr_frontier *first) {
  gr__bfs_slice *s = slice;
  gr_vid n = p->sub->n_local;
  /* Every byte 0xff is -1 in two's complement: "unvisited". */
  GR_CHECK(gr_device_memset(p->dev, s->depth.ptr, 0xff, (size_t)n * sizeof(gr_svid)));
  if (s->mark_pred)
    GR_CHECK(gr_device_memset(p->dev, s->pred.ptr, 0xff, (size_t)n * sizeof(gr_svid)));
  GR_CHECK(gr_bfs_visited_reset(&s->visited, p));
  gr_bfs_loop_reset(&s->loop);
  GR_CHECK(gr_bfs_reserve(first, p, 1));
  GR_CHECK(gr_part_seed(p, a->source, s->depth.ptr, 0, first));
  gr_bfs_know_source(&s->loop, p, a->source);
  s->source_edges = gr_bfs_source_edges(p, a->source);
  return GR_SUCCESS;
}

gr_eid gr_bfs_source_edges(const gr_part *p, gr_vid source) {
  gr_vid src = 0;
  if (!gr_subgraph_local(p->sub, source, &src) || !gr_subgraph_owns(p->sub, src)) return 0;
  return p->sub->out.offsets[src + 1] - p->sub->out.offsets[src];
}

gr_status gr_bfs_reserve(gr_frontier *f, gr_part *p, gr_eid bound) {
  const gr_eid n = p->sub->n_local;
  /* BFS outputs each vertex once, so n_local entries are all it needs.
   * Between devices at least room for the owned vertices, as the input
   * queue has: an output that grew to each level's bound in turn grew in
   * later runs too, inside their loops (BFS, 4 logical devices of
   * Kronecker 25: 4 of 7 timed runs allocated, each 0.4-1.3 ms slower
   * than the runs that did not). */
  const gr_eid floor_n = p->count > 1 && p->sub->n_owned > bound ? p->sub->n_owned : bound;
  gr_eid want = p->count == 1 || floor_n > n ? n : floor_n;
  if (want < 1) want = 1;
  if (gr_frontier_capacity(f) < want) GR_CHECK(gr_frontier_reserve(f, p->dev, want, 0, &p->mem));
  return GR_SUCCESS;
}

gr_eid gr_bfs_push_bound(const gr_part *p, const gr_iter *it, gr_eid source_edges) {
  if (it->in_measured) return it->in_edges;
  if (it->iteration == 0) return source_edges;
  return p->sub->n_local;
}

static gr_status bfs_iterate(void *slice, gr_part *p, gr_iter *it) {
  gr__bfs_slice *s = slice;
  const gr_eid bound = gr_bfs_push_bound(p, it, s->source_edges);
  /* One device's loop writes into the output's room; between devices the
   * push reserves it once it knows whether it routes (gr_bfs_push_level). */
  if (p->count == 1) GR_CHECK(gr_bfs_reserve(it->out, p, bound));
  const gr_bfs_ctx c = {.depth = (gr_svid *)s->depth.ptr,
                        .pred = s->mark_pred ? (gr_svid *)s->pred.ptr : NULL,
                        .local_to_global = p->local_to_global,
                        .next = (gr_svid)it->iteration + 1,
                        .visited = gr_bfs_visited_bits(&s->visited)};
  GR_CHECK(gr_bfs_loop_run(&s->loop, p, it, &c));
  if (it->levels > 0) return GR_SUCCESS;
  GR_CHECK(gr_bfs_push_level(p, it, &c, &s->loop, bound));
  /* BFS reads no depth behind a set visited bit, nor extracts a copy's:
   * what arrives for a copy only needs its bit (DOBFS's pulls read the
   * copies' depths, so it keeps them). */
  it->settle_copies_bare = it->settled != NULL;
  return GR_SUCCESS;
}

void gr_bfs_know_source(gr_bfs_loop *l, const gr_part *p, gr_vid source) {
  /* The source on its owner, nothing elsewhere: between devices too, the
   * first advance needs no pass to measure its input. */
  const gr_eid d = gr_bfs_source_edges(p, source);
  gr_bfs_know(l, 0, d, d);
}

gr_status gr_bfs_push_level(gr_part *p, gr_iter *it, const gr_bfs_ctx *c_in, gr_bfs_loop *l, gr_eid bound) {
  const gr_bfs_ops *ops = gr__bfs_ops(p->dev);
  gr_bfs_ctx rc = *c_in;
  const gr_bfs_ctx *c = &rc;
  gr_advance_push_args a;
  memset(&a, 0, sizeof a);
  a.g = &p->out;
  a.in = gr_frontier_items(it->in);
  a.n_in = it->in->size;
  /* One device: the output is the next input as it stands, so measure it
   * while emitting it. */
  const bool alone = p->count == 1;
  if (alone) a.next_offsets = p->out.offsets;
  if (gr_bfs_known(l, it->iteration)) {
    a.in_known = true;
    a.in_edges = l->known_edges;
    a.in_max_degree = l->known_max_degree;
  } else if (it->in_measured) {
    /* Between devices the exchange measured the input it built. */
    a.in_known = true;
    a.in_edges = it->in_edges;
    a.in_max_degree = it->in_max_degree;
  }

  /* Between devices a clear visited bit has meant "read the depth": the
   * vertices peers claimed (their depths learnt in the exchange), the
   * source and a pull's finds have depths but no bits, and a big level
   * read the depth of nearly every vertex it reached, a random sector each
   * (Kronecker 25, two devices: 3.8-4.0 GB read from memory a device at
   * the biggest level, against 6.0 GB for one device's whole level). So a
   * level of at least n_local arcs first sets the bits from the depths, one
   * pass reading them in order, and trusts a clear bit. */
  if (!alone && rc.visited && a.in_known && a.in_edges >= (gr_eid)p->sub->n_local) {
    if (!l->bits_whole) {
      /* Or'ed into the bits: a copy that a routing push claimed, or that
       * arrived settled bare, has its bit and no depth. */
      gr_bitmap_args ba = {p->sub->n_local, rc.visited, true};
      GR_CHECK(ops->visited_bits(p->dev, p->ws, &ba, &rc));
      l->bits_whole = true;
    }
    rc.visited_exact = true;
  }
  /* Between devices, without predecessors, what arrives is settled
   * against the visited bits (a set bit holds a depth no later level can
   * lower), so the combine reads no depth where this device claimed the
   * vertex already, and sets the bits of what it combines. With
   * predecessors the combine must see every record (the winner's
   * predecessor follows it), and the bits miss what arrives. */
  if (!alone) {
    it->settled = rc.visited && !rc.pred ? rc.visited : NULL;
    if (!it->settled) l->bits_whole = false;
  }

  /* Between devices, depths alone: claims go to their owners' bitmaps as
   * they are made (this device's too), when those are smaller than the list
   * a package pass would make of them; the exchange makes the next
   * frontier of this device's bitmap and sends the others as they are. */
  if (!alone && !rc.pred) {
    /* The first level's bound is the source's degree on its owner and 0
     * elsewhere: a level of one vertex sends no bitmaps. */
    if (a.in_known && a.in_edges < bound) bound = a.in_edges;
    if (bound > p->sub->n_local) bound = p->sub->n_local;
    gr_route r;
    GR_CHECK(gr_part_route(p, bound, &rc.next, (int)sizeof rc.next, &r));
    if (r.words) {
      rc.route_owner = r.owner;
      rc.route_convert = r.convert;
      rc.route_convert_first = r.convert_first;
      rc.route = r.words;
      rc.route_stride = r.stride;
      rc.me = r.me;
    }
  }
  /* The output's room: between devices only where the claims are output
   * (a routed level outputs nothing), so that the queues hold about the
   * owned vertices a next frontier takes rather than every local vertex
   * a big level would claim (3 x 134 MB per device on Kronecker 25). */
  if (!rc.route) GR_CHECK(gr_bfs_reserve(it->out, p, a.in_known && a.in_edges < bound ? a.in_edges : bound));
  a.out = gr_frontier_items(it->out);
  a.out_capacity = gr_frontier_capacity(it->out);
  /* Idempotent claims may emit a vertex twice, so only where the output
   * has room for one item per input edge (a level of at most n_local
   * edges, measured) and on one device (an exchange takes each output
   * vertex once). */
  a.idempotent = p->opts->tune.idempotent && alone && a.in_known && a.in_edges <= a.out_capacity;
  /* Between devices a list output goes to the exchange's package, the next
   * pass on the stream: the advance leaves its size there, which the
   * package reads on the device and brings back with its own counters
   * (one host round trip a level less; gr_iter.out_counts). */
  a.counts_later = !alone && !rc.route;
  GR_CHECK((a.idempotent ? ops->push_idem : ops->push)(p->dev, p->ws, &a, c));
  it->out->size = a.n_out;
  it->edges += a.edges;
  if (a.counts) {
    /* A bound until the package reads the size: each vertex is claimed
     * once, by one of the input's edges. */
    if (a.in_known && a.in_edges < it->out->size) it->out->size = a.in_edges;
    it->out_counts = a.counts;
  }
  if (alone) gr_bfs_know(l, it->iteration + 1, a.out_edges, a.out_max_degree);
  if (rc.route) {
    if (a.n_out)
      return gr_errorf(GR_ERR_INTERNAL, "bfs: device %d output %llu vertices while routing its claims", p->index,
                       (unsigned long long)a.n_out);
    it->routed = true;
  }
  return GR_SUCCESS;
}

static gr_status bfs_payload(void *slice, gr_part *p, gr_payload *out) {
  (void)p;
  gr__bfs_slice *s = slice;
  gr_bfs_payload_fill(out, s->depth.ptr, s->mark_pred ? s->pred.ptr : NULL);
  return GR_SUCCESS;
}

void gr_bfs_payload_fill(gr_payload *out, gr_svid *depth, gr_svid *pred) {
  memset(out, 0, sizeof *out);
  out->n_values = 1;
  out->values[0] = depth;
  if (pred) {
    out->n_vertices = 1;
    out->vertices[0] = pred;
  } else {
    out->uniform = true; /* every vertex an iteration outputs has its depth */
  }
}

static gr_status bfs_extract(void *slice, gr_part *p, gr_result *r) {
  gr__bfs_slice *s = slice;
  GR_CHECK(gr_part_gather_svid(p, s->depth.ptr, r->values));
  if (s->mark_pred && r->preds) GR_CHECK(gr_part_gather_svid(p, s->pred.ptr, r->preds));
  return GR_SUCCESS;
}

const gr_primitive gr_bfs_primitive = {
    .name = "bfs",
    .summary = "breadth-first search: depth (and predecessor) of every vertex from a source",
    .proxy = GR_PROXY_1HOP,
    .comm = GR_COMM_SELECTIVE,
    .n_vertex_assoc = 1,
    .n_value_assoc = 1,
    .combine = GR_COMBINE_MIN,
    .value_type = GR_VALUE_SVID,
    .needs_source = true,
    .needs_in_edges = false,
    .needs_weights = false,
    .reads_packed_lists = true,
    .device_lists_only = true,
    .state_bytes_per_vertex = {24, 48},
    .init = bfs_init,
    .release = bfs_release,
#ifdef GR_HAVE_CUDA
    .preload = gr__bfs_cuda_preload,
#endif
    .reset = bfs_reset,
    .iterate = bfs_iterate,
    .converged = NULL,
    .payload = bfs_payload,
    .extract = bfs_extract,
    .reference = gr_bfs_reference,
    .validate = gr_bfs_validate,
    .traversed_edges = gr_bfs_traversed_edges,
};
