/* SPDX-License-Identifier: Apache-2.0 */
/* SSSP as a primitive spec: per-device state (distances, stamps, the near
 * bucket, the far pile and its bits, predecessors), reset at the source's
 * owner, and one bucket step per iteration (sssp.h). Across devices a
 * changed vertex travels with its distance (and predecessor) and the
 * smaller distance wins; every device moves to the next bucket at once,
 * when none has a near vertex left, to the bucket of the smallest pile
 * distance of all. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gr/log.h"
#include "gr/util.h"
#include "sssp/sssp.h"

/* Levels one device-side loop may run before the host looks again. */
enum { GR__SSSP_LOOP_LEVELS = 4096 };

/* Between devices a bucket ends early (sssp_iterate) only in its tail:
 * once it holds at most 1/GR__SSSP_EARLY_SHRINK of the most it held. A
 * bucket's first levels are small too, and a next bucket begun behind
 * them is expanded again nearly whole (uniform 20, 2 CPU devices: twice
 * the arcs relaxed with a bound of 256 vertices and no such rule). */
enum { GR__SSSP_EARLY_SHRINK = 16 };

/* Per-iteration figures of a run, kept by device 0 for the report. */
enum { GR__SSSP_NEAR = 0, GR__SSSP_FAR = 1, GR__SSSP_SPLIT = 2, GR__SSSP_SERIES = 3 };
static const char *const gr__sssp_series_names[GR__SSSP_SERIES] = {"bucket", "far_pile", "split"};

typedef struct gr__sssp_slice {
  gr_buffer dist;
  gr_buffer pred;
  gr_buffer dp; /* with predecessors: distance and predecessor words (sssp.h) */
  gr_buffer stamp;
  gr_buffer pile_bits;
  gr_buffer near;
  gr_buffer pile[2]; /* pile[cur] is live; the other receives what stays at a split */
  int cur;
  gr_eid pile_n;
  bool mark_pred;
  double delta;
  float split;
  double *series[GR__SSSP_SERIES];
  int series_len, series_cap;
  /* The device-side loop (one GPU): input sizes of its levels (device and
   * host), the pile's count on the device, and whether this run's buckets
   * outgrew it once. */
  gr_buffer loop_sizes;
  gr_eid *host_sizes;
  gr_buffer pile_count;
  bool left;
  /* Between devices: the input was split when it arrived (sssp_arrived),
   * taken_near of it in the bucket, room as gr__sssp_take set it. */
  bool taken;
  gr_eid taken_near, room;
  /* Between devices: the last iteration's figures wait for their sums
   * (the barrier that ended it), recorded at the next iteration or at
   * extract. */
  bool owed;
  gr_eid last_near, last_pile;
  /* Light and heavy arcs (sssp.h): the bits of the vertices whose heavy
   * arcs wait; whether this device tells arcs apart (its part holds a
   * heavy arc: a device's choice alone, as its heavy arcs are relaxed
   * inside the iteration that picks the next bucket, which every device
   * runs alike); whether a bucket's expansions ran since its heavy arcs
   * were last relaxed (then it reports pending work, so the run goes on
   * to relax them). */
  gr_buffer heavy_bits;
  bool heavy_on, heavy_owed;
  float heavy; /* the smallest heavy weight: delta as a float */
  /* The split rows (sssp.h), where this device's rows were reordered: two
   * rows for each (light arcs, heavy arcs), over the device's lists. */
  gr_buffer split_offsets;
  gr_csr rows_view;
  bool rows_split;
  /* The tail (gr_tuning.sssp_tail): the largest bucket of the run so far
   * (of all devices: every device takes the decision alike), and whether
   * the last buckets go as one (split +inf, every arc at every
   * expansion). */
  gr_eid max_bucket;
  bool tail;
  /* Between devices: the most vertices the current bucket held at once on
   * all devices together (a bucket's early end comes in its tail alone). */
  gr_eid bucket_peak;
  /* Peers' distances written in place (gr_part_peers, sssp-peers=on),
   * asked for once, at the first run's reset between devices; peers.at is
   * NULL where they are out of reach. */
  gr_buffer peer_table;
  gr_peers peers;
  bool peers_asked;
} gr__sssp_slice;

const gr_sssp_ops *gr__sssp_ops(const gr_device *dev) {
#ifdef GR_HAVE_CUDA
  if (gr_device_backend(dev) == GR_BACKEND_CUDA) return &gr__sssp_ops_cuda;
#endif
  (void)dev;
  return &gr__sssp_ops_cpu;
}

double gr_sssp_delta_of(const gr_weight_summary *w, gr_eid m) {
  if (!(w->sum > 0) || w->rows_with_arcs == 0 || m == 0) return 1.0;
  const double mean_weight = w->sum / (double)m, mean_degree = (double)m / (double)w->rows_with_arcs;
  const double delta = 32.0 * mean_weight / mean_degree;
  return delta < (double)w->least_positive ? (double)w->least_positive : delta;
}

gr_status gr_sssp_delta_auto(const gr_csr *g, double *delta) {
  *delta = 1.0;
  if (!g->weights || g->m == 0) return GR_SUCCESS;
  gr_weight_summary w;
  GR_CHECK(gr_csr_weight_summary(g, 0, &w));
  *delta = gr_sssp_delta_of(&w, g->m);
  return GR_SUCCESS;
}

float gr_sssp_next_split(double delta, float least) {
  const double k = floor((double)least / delta);
  float s = (float)((k + 1.0) * delta);
  if (!(s > least)) s = nextafterf(least, INFINITY);
  return s;
}

gr_status gr_sssp_prepare(gr_graph *g, gr_prim_options *o) {
  const gr_csr *c = gr_graph_out(g);
  if (c->m == 0) {
    if (!(o->delta > 0)) o->delta = 1.0;
    return GR_SUCCESS;
  }
  if (!c->weights)
    return gr_errorf(GR_ERR_BAD_INPUT, "sssp needs edge weights; the input has none (use --weights random:LO:HI)");
  /* One summary a graph (generated weights bring theirs): the check of
   * every weight and delta's sums, where each took a pass over the
   * weights of every run's problem (Kronecker 27: 17 GB each). */
  gr_weight_summary w;
  GR_CHECK(gr_graph_weight_summary(g, &w));
  if (w.first_bad_row < c->n) {
    /* The first bad edge in row order: the lowest row holding one, then
     * its first in the row (the message does not depend on the thread
     * count). */
    const gr_vid bad = w.first_bad_row;
    gr_eid e = c->offsets[bad];
    while (e < c->offsets[bad + 1] && c->weights[e] >= 0 && !isinf(c->weights[e])) e++;
    if (e == c->offsets[bad + 1])
      return gr_errorf(GR_ERR_INTERNAL, "sssp: the weights' summary names row %llu, which holds no bad weight",
                       (unsigned long long)bad);
    const float wt = c->weights[e];
    const unsigned long long from = (unsigned long long)gr_graph_original_id(g, bad),
                             to = (unsigned long long)gr_graph_original_id(g, c->indices[e]);
    if (wt < 0)
      return gr_errorf(GR_ERR_BAD_INPUT, "%s: edge %llu -> %llu has a negative weight (%g); sssp needs weights of at least 0",
                       gr_graph_name(g), from, to, (double)wt);
    return gr_errorf(GR_ERR_BAD_INPUT, "%s: edge %llu -> %llu has weight %g; sssp needs finite weights", gr_graph_name(g),
                     from, to, (double)wt);
  }
  if (!(o->delta > 0)) o->delta = gr_sssp_delta_of(&w, c->m);
  return GR_SUCCESS;
}

static void gr__sssp_release_buffers(gr__sssp_slice *s) {
  gr_buffer_release(&s->dist);
  gr_buffer_release(&s->pred);
  gr_buffer_release(&s->dp);
  gr_buffer_release(&s->stamp);
  gr_buffer_release(&s->pile_bits);
  gr_buffer_release(&s->near);
  gr_buffer_release(&s->pile[0]);
  gr_buffer_release(&s->pile[1]);
  gr_buffer_release(&s->loop_sizes);
  gr_buffer_release(&s->pile_count);
  gr_buffer_release(&s->heavy_bits);
  gr_buffer_release(&s->split_offsets);
  gr_buffer_release(&s->peer_table);
  free(s->host_sizes);
  for (int k = 0; k < GR__SSSP_SERIES; k++) free(s->series[k]);
}

/* Reorders the device's rows, light arcs first, and builds the split rows'
 * offsets (sssp.h), where the lists are plain ids in device memory and the
 * doubled ids fit; elsewhere relaxations skip the other kind's arcs. The
 * reorder's room: the longest row, and otherwise what the first split
 * reserves later for the bucket and the piles (no higher peak). */
static gr_status gr__sssp_split_rows(gr__sssp_slice *s, gr_part *p, float heavy) {
  const gr_csr *g = &p->out;
  const gr_vid rows = g->n;
  if (g->packed || !g->indices || !g->weights || p->ws->graph_on_host) return GR_SUCCESS;
  if ((uint64_t)rows > ((uint64_t)GR_VID_MAX - 1) / 2) return GR_SUCCESS;
  const gr_eid *ho = p->sub->out.offsets;
  gr_eid longest = 0;
#pragma omp parallel for schedule(static) reduction(max : longest)
  for (gr_vid u = 0; u < rows; u++) longest = ho[u + 1] - ho[u] > longest ? ho[u + 1] - ho[u] : longest;
  gr_eid room = p->sub->n_owned > longest ? (gr_eid)p->sub->n_owned : longest;
  if (room > g->m) room = g->m;
  if (room == 0) room = 1;
  gr_status st = GR_SUCCESS;
  gr_buffer ids = {0}, ws = {0};
  GR_CHECK(gr_buffer_resize(&s->split_offsets, p->dev, (2 * (size_t)rows + 1) * sizeof(gr_eid), 0, "sssp split rows"));
  GR_CHECK_GOTO(gr_buffer_resize(&ids, p->dev, (size_t)room * sizeof(gr_vid), 0, "sssp row reorder"), st, out);
  GR_CHECK_GOTO(gr_buffer_resize(&ws, p->dev, (size_t)room * sizeof(gr_weight), 0, "sssp row reorder"), st, out);
  GR_CHECK_GOTO(gr__sssp_ops(p->dev)->split_rows(p->dev, g, rows, heavy, s->split_offsets.ptr, ho, ids.ptr, ws.ptr, room), st,
                out);
  /* The room goes back before the runs allocate theirs. */
  GR_CHECK_GOTO(gr_device_sync(p->dev), st, out);
  memset(&s->rows_view, 0, sizeof s->rows_view);
  s->rows_view.n = 2 * rows;
  s->rows_view.m = g->m;
  s->rows_view.offsets = s->split_offsets.ptr;
  s->rows_view.indices = g->indices;
  s->rows_view.weights = g->weights;
  s->rows_split = true;
out:
  gr_buffer_release(&ids);
  gr_buffer_release(&ws);
  return st;
}

/* The look for a heavy arc (sssp_init): a piece of the part's weights
 * holding one sets any and ends the look. */
typedef struct gr__sssp_heavy_look {
  float heavy;
  int any;
} gr__sssp_heavy_look;

static bool gr__sssp_heavy_in(void *ctx, const void *piece, gr_eid first, gr_eid count) {
  gr__sssp_heavy_look *look = ctx;
  const gr_weight *w = piece;
  (void)first;
  for (gr_eid e = 0; e < count; e++)
    if (!(w[e] < look->heavy)) {
      __atomic_store_n(&look->any, 1, __ATOMIC_RELAXED);
      return true;
    }
  return false;
}

static gr_status sssp_init(void **slice, gr_part *p) {
  gr__sssp_slice *s = NULL;
  gr_status st = GR_SUCCESS;
  /* A deferred part's weights are still the graph's (gr_subgraph_piece). */
  const bool weighted = p->sub->out.weights || (gr_subgraph_lists_deferred(p->sub) && p->sub->lists_out.weights);
  if (p->sub->out.m > 0 && !weighted)
    return gr_errorf(GR_ERR_BAD_INPUT, "sssp needs edge weights; the graph has none (use --weights random:LO:HI)");
  GR_CHECK(gr_host_calloc((void **)&s, 1, sizeof *s, "sssp state"));
  const gr_vid n = p->sub->n_local;
  const size_t slots = n ? (size_t)n : 1;
  s->mark_pred = p->opts->mark_pred;
  /* Without prepare (a caller that skipped it), each device picks delta
   * from its own part: still correct, though devices may then disagree on
   * the bucket boundaries; a deferred part's from the whole graph. */
  s->delta = p->opts->delta;
  if (!(s->delta > 0))
    GR_CHECK_GOTO(gr_sssp_delta_auto(gr_subgraph_lists_deferred(p->sub) ? &p->sub->lists_out : &p->sub->out,
                                     &s->delta),
                  st, fail);
  GR_CHECK_GOTO(gr_buffer_resize(&s->dist, p->dev, slots * sizeof(float), 0, "sssp distances"), st, fail);
  GR_CHECK_GOTO(gr_buffer_resize(&s->stamp, p->dev, slots * sizeof(int32_t), 0, "sssp stamps"), st, fail);
  GR_CHECK_GOTO(gr_buffer_resize(&s->pile_bits, p->dev, gr_bitmap_words(n ? n : 1) * sizeof(uint32_t), 0,
                                 "sssp far-pile bits"),
                st, fail);
  /* Heavy arcs wait for their bucket's end only where some arc is heavy
   * (sssp.h): with none, the end's pass would find nothing. */
  if (p->ws->tune.sssp_heavy_once && weighted) {
    s->heavy = (float)s->delta;
    const float heavy = s->heavy;
    /* In pieces, the first heavy arc ending the look (three arcs in four
     * are heavy on Kronecker graphs with weights 1..255: the first piece
     * decides); a part with none reads every weight once, a deferred
     * part's gathered a piece at a time. Without room to look, heavy arcs
     * are taken as there: the end's pass then finds none, at its cost
     * only. */
    gr__sssp_heavy_look look = {heavy, 0};
    st = gr_subgraph_for_pieces(p->sub, false, true, gr__sssp_heavy_in, &look);
    if (st == GR_ERR_HOST_OOM) {
      gr_error_clear();
      st = GR_SUCCESS;
      look.any = 1;
    }
    if (st < 0) goto fail;
    const int any = __atomic_load_n(&look.any, __ATOMIC_RELAXED);
    if (any) {
      s->heavy_on = true;
      GR_CHECK_GOTO(gr_buffer_resize(&s->heavy_bits, p->dev, gr_bitmap_words(n ? n : 1) * sizeof(uint32_t), 0,
                                     "sssp heavy-arc bits"),
                    st, fail);
      GR_CHECK_GOTO(gr__sssp_split_rows(s, p, heavy), st, fail);
    }
  }
  if (s->mark_pred) {
#ifdef GR_VERTEX_64
    /* A predecessor's global id shares a 64-bit word with the distance
     * (32-bit ids always fit). */
    if (p->sub->n_global > (gr_vid)GR_SSSP_NO_PRED) {
      st = gr_errorf(GR_ERR_UNSUPPORTED,
                     "sssp records predecessors for graphs of fewer than 2^32 vertices; this one has %llu",
                     (unsigned long long)p->sub->n_global);
      goto fail;
    }
#endif
    GR_CHECK_GOTO(gr_buffer_resize(&s->pred, p->dev, slots * sizeof(gr_svid), 0, "sssp predecessors"), st, fail);
    GR_CHECK_GOTO(gr_buffer_resize(&s->dp, p->dev, slots * sizeof(uint64_t), 0, "sssp distances and predecessors"),
                  st, fail);
  }
  *slice = s;
  return GR_SUCCESS;
fail:
  gr__sssp_release_buffers(s);
  free(s);
  return st;
}

static void sssp_release(void *slice, gr_part *p) {
  (void)p;
  gr__sssp_slice *s = slice;
  gr__sssp_release_buffers(s);
  free(s);
}

static gr_sssp_ctx gr__sssp_ctx(gr__sssp_slice *s, const gr_part *p, int iteration) {
  gr_sssp_ctx c;
  memset(&c, 0, sizeof c);
  c.dist = s->dist.ptr;
  c.pred = s->mark_pred ? s->pred.ptr : NULL;
  c.dp = s->mark_pred ? s->dp.ptr : NULL;
  c.stamp = s->stamp.ptr;
  c.weights = p->out.weights;
  c.local_to_global = p->local_to_global;
  c.pile_bits = s->pile_bits.ptr;
  c.iteration = iteration;
  c.split = s->split;
  c.lower = s->split;
  /* In the tail every expansion relaxes every arc: nothing waits. */
  if (s->heavy_on && !s->tail) {
    c.arcs = GR_SSSP_ARCS_LIGHT;
    c.heavy = s->heavy;
    c.heavy_bits = s->heavy_bits.ptr;
  }
  if (s->peers.at) {
    c.peer_dist = (float *const *)s->peers.at;
    c.peer_owner = s->peers.owner;
    c.peer_convert = s->peers.convert;
    c.peer_first = s->peers.first;
  }
  return c;
}

static gr_status sssp_reset(void *slice, gr_part *p, const gr_run_args *a, gr_frontier *first) {
  gr__sssp_slice *s = slice;
  const gr_vid n = p->sub->n_local;
  s->pile_n = 0;
  s->cur = 0;
  s->series_len = 0;
  s->left = false;
  s->taken = s->owed = false;
  s->max_bucket = 0;
  s->tail = false;
  s->bucket_peak = 0;
  /* Peers' distances, at the first run's reset, before its timed part (a
   * collective: every device asks alike, the tuning and the predecessors'
   * choice being the problem's; the tables cost 5 bytes a copy to make and
   * upload, 10-20 ms on Kronecker 25). With predecessors a distance
   * travels with its predecessor, in one word the owner alone writes: not
   * in place. */
  if (p->count > 1 && !s->peers_asked) {
    s->peers_asked = true;
    if (p->ws->tune.sssp_peers && !s->mark_pred) GR_CHECK(gr_part_peers(p, s->dist.ptr, &s->peer_table, &s->peers));
  }
  /* The first bucket is [0, delta). */
  s->split = gr_sssp_next_split(s->delta, 0.0f);
  gr_sssp_ctx c = gr__sssp_ctx(s, p, 0);
  gr_for_each_args fa = {NULL, n, 0};
  GR_CHECK(gr__sssp_ops(p->dev)->init(p->dev, p->ws, &fa, &c));
  GR_CHECK(gr_device_memset(p->dev, s->pile_bits.ptr, 0, gr_bitmap_words(n ? n : 1) * sizeof(uint32_t)));
  if (s->heavy_bits.ptr)
    GR_CHECK(gr_device_memset(p->dev, s->heavy_bits.ptr, 0, gr_bitmap_words(n ? n : 1) * sizeof(uint32_t)));
  s->heavy_owed = false;
  /* A frontier holds each changed vertex once: n_local entries suffice
   * (between devices the input holds owned vertices only, in the room the
   * enactor gave it). */
  const gr_eid first_room = p->count > 1 || n == 0 ? 1 : n;
  if (gr_frontier_capacity(first) < first_room) GR_CHECK(gr_frontier_reserve(first, p->dev, first_room, 0, &p->mem));
  GR_CHECK(gr_part_seed_float(p, a->source, s->dist.ptr, 0.0f, first));
  if (s->mark_pred && first->size) {
    gr_for_each_args src = {gr_frontier_items(first), first->size, 0};
    GR_CHECK(gr__sssp_ops(p->dev)->absorb(p->dev, p->ws, &src, &c));
  }
  return GR_SUCCESS;
}

/* Appends one iteration's figures (device 0; statistics only, so a failed
 * allocation keeps what fits). */
static void gr__sssp_record(gr__sssp_slice *s, gr_eid near, gr_eid far) {
  if (s->series_len == s->series_cap) {
    const int cap = s->series_cap ? 2 * s->series_cap : 64;
    for (int k = 0; k < GR__SSSP_SERIES; k++) {
      double *x = realloc(s->series[k], sizeof *x * (size_t)cap);
      if (!x) return;
      s->series[k] = x;
    }
    s->series_cap = cap;
  }
  s->series[GR__SSSP_NEAR][s->series_len] = (double)near;
  s->series[GR__SSSP_FAR][s->series_len] = (double)far;
  s->series[GR__SSSP_SPLIT][s->series_len] = (double)s->split;
  s->series_len++;
}

/* The bucket and the pile of all devices (one sum: both are counts of
 * owned vertices, so each fits 32 bits when the graph does). */
static gr_status gr__sssp_totals(gr_part *p, gr_eid near, gr_eid far, gr_eid *near_all, gr_eid *far_all) {
  if (p->sub->n_global <= UINT32_MAX) {
    gr_eid packed = 0;
    GR_CHECK(gr_part_sum(p, near | far << 32, &packed));
    *near_all = packed & UINT32_MAX;
    *far_all = packed >> 32;
    return GR_SUCCESS;
  }
  GR_CHECK(gr_part_sum(p, near, near_all));
  return gr_part_sum(p, far, far_all);
}

/* Small buckets on one device: many levels of the bucket in one
 * device-side loop, far targets going to the pile from inside it. Sets
 * it->levels (0 when the loop did not run: the caller relaxes the bucket
 * itself). */
static gr_status gr__sssp_loop(gr__sssp_slice *s, gr_part *p, gr_iter *it, gr_sssp_ctx *c, gr_eid near_n) {
  const gr_sssp_ops *ops = gr__sssp_ops(p->dev);
  const gr_tuning *t = &p->ws->tune;
  const gr_vid n = p->sub->n_local;
  it->levels = 0;
  if (!ops->relax_levels || !t->small_loop || p->count != 1 || near_n > t->small_vertices) return GR_SUCCESS;
  /* A run whose buckets outgrew the loop once comes back to it only with
   * really small ones: every refused try costs a launch and a round trip. */
  if (s->left && near_n > t->small_vertices / 16) return GR_SUCCESS;
  if (!s->loop_sizes.ptr) {
    GR_CHECK(gr_buffer_resize(&s->loop_sizes, p->dev, GR__SSSP_LOOP_LEVELS * sizeof(gr_eid), 0, "sssp level sizes"));
    GR_CHECK(gr_host_alloc((void **)&s->host_sizes, GR__SSSP_LOOP_LEVELS * sizeof(gr_eid), "sssp level sizes"));
    GR_CHECK(gr_buffer_resize(&s->pile_count, p->dev, sizeof(uint64_t), 0, "sssp pile count"));
  }
  /* The loop's queues (the bucket and the output) and the pile may fill
   * up to every vertex. */
  const size_t all = (size_t)(n ? n : 1) * sizeof(gr_vid);
  /* A buffer that grows keeps its first `size` bytes: say how many are live
   * (the bucket's and the pile's entries), so that a move copies no bytes
   * that were never written (compute-sanitizer's initcheck). */
  s->near.size = (size_t)near_n * sizeof(gr_vid);
  s->pile[s->cur].size = (size_t)s->pile_n * sizeof(gr_vid);
  GR_CHECK(gr_buffer_reserve(&s->near, p->dev, all, 1, &p->mem, 0, "sssp near bucket"));
  GR_CHECK(gr_buffer_reserve(&s->pile[s->cur], p->dev, all, 1, &p->mem, 0, "sssp far pile"));
  uint64_t count = s->pile_n;
  GR_CHECK(gr_device_copy(p->dev, s->pile_count.ptr, &count, sizeof count, GR_COPY_H2D));
  c->pile = s->pile[s->cur].ptr;
  c->pile_count = s->pile_count.ptr;
  c->pile_capacity = n;
  gr_advance_levels_args a;
  gr_advance_levels_init(&a, &p->out, s->near.ptr, near_n, gr_frontier_items(it->out), n, it->iteration,
                         GR__SSSP_LOOP_LEVELS, it->max_levels, t);
  a.level_sizes = s->loop_sizes.ptr;
  GR_CHECK(ops->relax_levels(p->dev, p->ws, &a, c));
  if (a.levels == 0) {
    s->left = true;
    return GR_SUCCESS;
  }
  if (a.n_out > 0 && a.levels < a.max_levels) s->left = true;
  GR_CHECK(gr_device_copy(p->dev, &count, s->pile_count.ptr, sizeof count, GR_COPY_D2H));
  if (count > n)
    return gr_errorf(GR_ERR_INTERNAL, "sssp: the far pile received %llu entries for %llu vertices",
                     (unsigned long long)count, (unsigned long long)n);
  s->pile_n = count;
  /* The bucket left (when the loop stopped on a limit) is the output. */
  if (a.out_queue == 0 && a.n_out)
    GR_CHECK(gr_device_copy(p->dev, gr_frontier_items(it->out), s->near.ptr, (size_t)a.n_out * sizeof(gr_vid),
                            GR_COPY_D2D));
  it->out->size = a.n_out;
  it->levels = a.levels;
  it->edges += a.edges;
  if (a.levels > 1)
    GR_CHECK(gr_device_copy(p->dev, s->host_sizes, (gr_eid *)s->loop_sizes.ptr + 1,
                            (size_t)(a.levels - 1) * sizeof(gr_eid), GR_COPY_D2H));
  it->level_sizes = s->host_sizes;
  return GR_SUCCESS;
}

/* A frontier as a split's input. */
static gr_split_args gr__sssp_input(const gr_frontier *f) {
  return (gr_split_args){.in = gr_frontier_items(f), .n_in = f->size};
}

/* Between devices: the most vertices a bucket may hold on all devices
 * together and still end early (gr_tuning.sssp_early; sssp_iterate), the
 * same on every device. 0: never. */
static gr_eid gr__sssp_early_bound(const gr_part *p) { return p->count > 1 ? p->ws->tune.sssp_early : 0; }

/* The room a device parks its vertices of a bucket that ends early in:
 * at most the bound's, and at most its owned vertices (the near bucket's
 * vertices are owned, each once). */
static gr_eid gr__sssp_early_room(const gr_part *p) {
  const gr_eid t = gr__sssp_early_bound(p), owned = p->sub->n_owned;
  return t < owned ? t : owned;
}

/* Step 1, the input (`from`'s in and n_in): what peers improved written
 * into the distances (with predecessors), then split into the near bucket
 * and new far-pile entries. *near_n: the bucket's size. Where `from` leaves
 * the counts on the device (counts_at: gr__sssp_arriving, its size at
 * n_in_at), the exchange reads them and *near_n is left alone. */
static gr_status gr__sssp_take(gr__sssp_slice *s, gr_part *p, gr_split_args from, gr_eid *near_n) {
  const gr_sssp_ops *ops = gr__sssp_ops(p->dev);
  /* Near and pile entries are distinct owned vertices: room for every one
   * at the first take, so that no later run grows a buffer inside its
   * loop (a reallocation waits for the device; on 2 logical devices of
   * Kronecker 25, 2 of 4 timed runs grew the bucket and the pile once
   * each, as 1 of 4 did on one device). */
  const gr_eid room = p->sub->n_owned ? p->sub->n_owned : 1;
  s->room = room;
  const size_t room_bytes = (size_t)room * sizeof(gr_vid);
  s->pile[s->cur].size = (size_t)s->pile_n * sizeof(gr_vid);  // the live part, as below
  GR_CHECK(gr_buffer_reserve(&s->pile[s->cur], p->dev, room_bytes, 1, &p->mem, 0, "sssp far pile"));
  /* The pile a split keeps into holds nothing live until that split. */
  GR_CHECK(gr_buffer_reserve(&s->pile[s->cur ^ 1], p->dev, room_bytes, 0, &p->mem, 0, "sssp far pile"));
  /* Between devices, a bucket's early end (sssp_iterate) puts this
   * device's vertices left in the bucket behind the ones it lists, and
   * parks them past that first. */
  const size_t near_bytes = room_bytes + 2 * (size_t)gr__sssp_early_room(p) * sizeof(gr_vid);
  GR_CHECK(gr_buffer_reserve(&s->near, p->dev, near_bytes, 0, &p->mem, 0, "sssp near bucket"));
  /* The split reads neither the iteration nor its bucket's lower end. */
  gr_sssp_ctx c = gr__sssp_ctx(s, p, 0);
  /* Between devices, what peers improved arrived in the exchange's arrays
   * (never with counts left on the device: see gr__sssp_arriving). */
  if (s->mark_pred && p->count > 1 && from.n_in) {
    gr_for_each_args fa = {from.in, from.n_in, 0};
    GR_CHECK(ops->absorb(p->dev, p->ws, &fa, &c));
  }
  gr_split_args sa = from;
  sa.out[0] = s->near.ptr;
  sa.out_capacity[0] = room;
  sa.out[1] = (gr_vid *)s->pile[s->cur].ptr + s->pile_n;
  sa.out_capacity[1] = room - s->pile_n;
  GR_CHECK(ops->split_input(p->dev, p->ws, &sa, &c));
  if (sa.counts_at) return GR_SUCCESS;
  *near_n = sa.n_out[0];
  s->pile_n += sa.n_out[1];
  return GR_SUCCESS;
}

/* Between devices, inside the exchange (gr_primitive.arriving): step 1's
 * split for the next iteration, on the stream behind the combines, its
 * input's size read there; its counts come back with the exchange's read,
 * one host round trip an iteration less than a split that reads its own.
 * Not with predecessors: their absorb pass comes first and is sized on
 * the host. */
static gr_status sssp_arriving(void *slice, gr_part *p, gr_arriving *a) {
  gr__sssp_slice *s = slice;
  if (s->mark_pred || a->bound == 0) return GR_SUCCESS;
  const gr_split_args from = {.in = a->next, .n_in = a->bound, .n_in_at = a->n_at, .counts_at = a->counts};
  GR_CHECK(gr__sssp_take(s, p, from, NULL));
  a->ran = true;
  return GR_SUCCESS;
}

/* Between devices, as soon as the exchange built the next input: step 1
 * for the next iteration, whose bucket's size then rides the barrier that
 * ends this one (gr_iter.tally[0]) instead of a gr_part_sum of its own. */
static gr_status sssp_arrived(void *slice, gr_part *p, gr_iter *it, gr_frontier *next) {
  gr__sssp_slice *s = slice;
  if (it->arriving_ran) {
    /* The split ran inside the exchange (sssp_arriving): its counts. */
    const gr_eid near_n = it->arriving_counts[0], pile_new = it->arriving_counts[1];
    if (near_n > s->room || pile_new > s->room - s->pile_n)
      return gr_errorf(GR_ERR_INTERNAL, "sssp: device %d split its input into %llu near and %llu new pile entries "
                       "for a bucket of %llu and a pile of %llu of %llu", p->index, (unsigned long long)near_n,
                       (unsigned long long)pile_new, (unsigned long long)s->room, (unsigned long long)s->pile_n,
                       (unsigned long long)s->room);
    s->taken_near = near_n;
    s->pile_n += pile_new;
  } else {
    GR_CHECK(gr__sssp_take(s, p, gr__sssp_input(next), &s->taken_near));
  }
  s->taken = true;
  it->tally[0] = s->taken_near;
  return GR_SUCCESS;
}

/* Relaxes the out-arcs of list[0, n) of the kind c->arcs says into the
 * output from position `at` on (it->out's room), adding the arcs walked to
 * it->edges; *n_out: the ids written (with counts_later, where the advance
 * honours it, a bound: it->out_counts then points at the sizes). Over the
 * split rows the list's ids are doubled in place (sssp.h), and its first
 * `heavy_first` ids may walk their heavy arcs instead, in the same advance
 * (none unless the rows are split). */
static gr_status gr__sssp_relax_list(gr__sssp_slice *s, gr_part *p, gr_iter *it, const gr_sssp_ctx *c,
                                     gr_vid *list, gr_eid heavy_first, gr_eid n, gr_eid at, bool counts_later,
                                     gr_eid *n_out) {
  const gr_sssp_ops *ops = gr__sssp_ops(p->dev);
  *n_out = 0;
  if (!n) return GR_SUCCESS;
  if (heavy_first && !(s->rows_split && c->arcs != GR_SSSP_ARCS_ALL))
    return gr_errorf(GR_ERR_INTERNAL, "sssp: heavy arcs in a mixed list need split rows");
  gr_advance_push_args a;
  memset(&a, 0, sizeof a);
  a.g = &p->out;
  a.in = list;
  a.n_in = n;
  a.out = gr_frontier_items(it->out) + at;
  a.out_capacity = gr_frontier_capacity(it->out) - at;
  a.counts_later = counts_later;
  gr_sssp_ctx rc = *c;
  if (s->rows_split && c->arcs != GR_SSSP_ARCS_ALL) {
    if (heavy_first) {
      rc.map_list = list;
      rc.map_bit = 1;
      gr_for_each_args m = {NULL, heavy_first, 0};
      GR_CHECK(ops->map_ids(p->dev, p->ws, &m, &rc));
    }
    if (n > heavy_first) {
      rc.map_list = list + heavy_first;
      rc.map_bit = c->arcs == GR_SSSP_ARCS_HEAVY;
      gr_for_each_args m = {NULL, n - heavy_first, 0};
      GR_CHECK(ops->map_ids(p->dev, p->ws, &m, &rc));
    }
    rc.arcs = GR_SSSP_ARCS_ALL;
    rc.shift = 1;
    a.g = &s->rows_view;
  }
  GR_CHECK(ops->relax(p->dev, p->ws, &a, &rc));
  *n_out = a.n_out;
  it->edges += a.edges;
  /* A bound until the package reads the size. */
  if (a.counts) it->out_counts = a.counts;
  return GR_SUCCESS;
}

/* At a bucket's end, every device alike: the least far-pile distance of
 * all (+inf where every pile is empty or stale) and whether the last
 * buckets go as one (gr_tuning.sssp_tail): the work left, every pile's
 * entries and the sources of the heavy arcs this iteration sends out
 * (their targets reach their owners with the exchange; on one device they
 * joined the pile already), at most 1/sssp_tail of the largest bucket so
 * far. A search's tail holds few vertices a bucket, and each bucket costs
 * two or three iterations of launches and round trips; a large bucket
 * still ahead (a graph whose frontier narrows and widens again) keeps the
 * buckets, as the work left then outweighs the rule. One collective, as
 * the least alone took. */
static gr_status gr__sssp_pick(gr__sssp_slice *s, gr_part *p, float least, gr_eid heavy_taken, float *global_least,
                               bool *tail) {
  enum { MAX_DEVICES = 64, WORDS = 3 };
  const gr_eid ratio = p->ws->tune.sssp_tail;
  *tail = false;
  if (p->count > MAX_DEVICES) {
    gr_eid m = 0;
    GR_CHECK(gr_part_min(p, gr__sssp_bits(least), &m));
    *global_least = gr__sssp_float((uint32_t)m);
    return GR_SUCCESS;
  }
  /* One device's heavy targets are in its pile already. */
  const gr_eid mine[WORDS] = {gr__sssp_bits(least), s->pile_n, p->count > 1 ? heavy_taken : 0};
  gr_eid all[WORDS * MAX_DEVICES];
  GR_CHECK(gr_part_gather(p, mine, WORDS, all));
  gr_eid m = UINT64_MAX, left = 0;
  for (int d = 0; d < p->count; d++) {
    if (all[WORDS * d] < m) m = all[WORDS * d];
    left += all[WORDS * d + 1] + all[WORDS * d + 2];
  }
  *global_least = gr__sssp_float((uint32_t)m);
  *tail = ratio && left <= s->max_bucket / ratio;
  return GR_SUCCESS;
}

static gr_status sssp_iterate(void *slice, gr_part *p, gr_iter *it) {
  gr__sssp_slice *s = slice;
  const gr_sssp_ops *ops = gr__sssp_ops(p->dev);
  const gr_vid n = p->sub->n_local;
  if (gr_frontier_capacity(it->out) < n) GR_CHECK(gr_frontier_reserve(it->out, p->dev, n, 0, &p->mem));
  const bool exchanged = s->mark_pred && p->count > 1;
  /* Records of copies lowered on their owners in place meet equal values
   * there (gr__sssp_lower_owner). */
  it->min_ties = s->peers.at != NULL;
  /* The last iteration's figures, summed at the barrier that ended it. */
  if (s->owed) {
    if (p->index == 0) gr__sssp_record(s, it->last_tally[1], it->last_pending);
    s->owed = false;
  }

  /* 1. The input: near bucket or far pile (split when it arrived, between
   * devices after the first iteration). */
  gr_eid near_n = 0, near_all = 0;
  if (s->taken) {
    s->taken = false;
    near_n = s->taken_near;
    near_all = it->last_tally[0];
  } else {
    GR_CHECK(gr__sssp_take(s, p, gr__sssp_input(it->in), &near_n));
    GR_CHECK(gr_part_sum(p, near_n, &near_all));
  }
  if (near_all > s->max_bucket) s->max_bucket = near_all;
  const gr_eid room = s->room;
  gr_vid *near = s->near.ptr;
  gr_sssp_ctx c = gr__sssp_ctx(s, p, it->iteration);

  /* 2. No near vertex anywhere: the bucket is over. Where its heavy arcs
   * are owed, they go first, from every vertex it expanded, at their final
   * distances; their targets lie at or past the split. On one device they
   * join the pile at once, so that the pick below sees them; between
   * devices they are this iteration's output with the next bucket's (the
   * targets a peer owns reach it with the exchange, like every output: the
   * next bucket may then be picked without them, and they join it, or a
   * later one, when they arrive). Then the next bucket, from the pile. */
  it->out->size = 0;
  it->levels = 0;
  gr_eid heavy_out = 0;
  /* Between devices over split rows the heavy arcs' list stays at the
   * bucket's start and the next bucket's vertices follow it: one advance
   * walks the heavy rows of the one and the light rows of the other (their
   * relaxations share the iteration's stamp and output either way), one
   * launch sequence and one host wait less an iteration that ends a
   * bucket, and the output's size left on the device for the package. */
  const bool one_advance = p->count > 1 && s->rows_split;
  /* A bucket's early end (between devices): once the bucket holds at most
   * sssp_early vertices on all devices together, this iteration ends it as
   * if it were empty (its heavy arcs, the next bucket's pick and its first
   * vertices) and relaxes what is left of it with them, where each of its
   * last levels took an iteration of its own: one device's device-side
   * loop runs them inside one launch, but between devices each level is a
   * package, a barrier, combines and their reads (Kronecker 21 on two CPU
   * devices: 22-25 iterations a run, 17-19 ending early). The distances are the
   * same: every order of relaxations ends at them (sssp.h), and a vertex of
   * the ending bucket whose distance still falls is split into the near
   * bucket again, marked again for its heavy arcs and expanded again; its
   * heavy arcs relaxed early only cost their work. The same decision on
   * every device (near_all, the bound and the tail are every device's; not
   * this device's room, which its owned vertices bound), as the pick's
   * collective needs. The vertices left here are parked past the bucket's
   * room (gr__sssp_take reserved it) while the heavy take and the pile's
   * split write the list, and go behind them. */
  const gr_eid early_room = gr__sssp_early_room(p);
  if (near_all > s->bucket_peak) s->bucket_peak = near_all;
  const bool early = !s->tail && near_all > 0 && near_all <= gr__sssp_early_bound(p) &&
                     near_all <= s->bucket_peak / GR__SSSP_EARLY_SHRINK;
  const gr_eid held = early ? near_n : 0;
  if (held) {
    if (held > early_room)
      return gr_errorf(GR_ERR_INTERNAL, "sssp: device %d holds %llu of a bucket's %llu vertices", p->index,
                       (unsigned long long)held, (unsigned long long)near_all);
    GR_CHECK(gr_device_copy(p->dev, near + room + early_room, near, (size_t)held * sizeof(gr_vid), GR_COPY_D2D));
  }
  if (early) near_n = 0;
  gr_eid heavy_n = 0, heavy_taken = 0;
  /* The pile's least where the heavy take brought it back with its count. */
  float least = INFINITY;
  bool least_known = false;
  if ((near_all == 0 || early) && s->heavy_owed) {
    s->heavy_owed = false;
    gr_filter_args f;
    memset(&f, 0, sizeof f);
    /* Only owned vertices are marked: under 1-hop proxies they are the
     * first ids, and the pass stops at them. */
    f.n_in = p->sub->proxy == GR_PROXY_1HOP ? p->sub->n_owned : n;
    f.out = near;
    f.out_capacity = room;
    if (one_advance) {
      /* Nothing runs between the take and the pile's least (below): one
       * read brings back both. */
      GR_CHECK(ops->take_heavy_least(p->dev, p->ws, &f, s->pile[s->cur].ptr, s->pile_n, &c, &least));
      least_known = true;
    } else {
      GR_CHECK(ops->take_heavy(p->dev, p->ws, &f, &c));
    }
    heavy_taken = f.n_out;
    it->tag = 'H';
    if (one_advance) {
      /* Relaxed with the next bucket's light arcs, below. */
      heavy_n = f.n_out;
      near_n = 0;
    } else {
      gr_sssp_ctx hc = c;
      hc.arcs = GR_SSSP_ARCS_HEAVY;
      /* One device takes the output below and relaxes again in this
       * iteration: a stamp of their own, or a target both lower would stay
       * out of the second output. */
      if (p->count == 1) hc.iteration = -2 - it->iteration;
      GR_CHECK(gr__sssp_relax_list(s, p, it, &hc, near, 0, f.n_out, 0, false, &heavy_out));
      if (p->count == 1) {
        it->out->size = heavy_out;
        GR_CHECK(gr__sssp_take(s, p, gr__sssp_input(it->out), &near_n));
        near_all = near_n;
        heavy_out = 0;
        it->out->size = 0;
      } else {
        near_n = 0;
      }
    }
  }
  if (near_all == 0 || early) {
    if (!least_known && s->pile_n) GR_CHECK(ops->pile_min(p->dev, p->ws, s->pile[s->cur].ptr, s->pile_n, &c, &least));
    float global_least = INFINITY;
    bool tail = false;
    GR_CHECK(gr__sssp_pick(s, p, least, heavy_taken, &global_least, &tail));
    const bool tail_begins = tail && !s->tail && !isinf(global_least);
    /* +inf: every pile holds stale entries only; they are dropped. */
    c.lower = s->split;
    c.split = isinf(global_least) ? s->split : gr_sssp_next_split(s->delta, global_least);
    if (tail_begins) {
      /* The last buckets as one: every pile entry at or past the old split
       * joins it, and from here on every arc is relaxed at every
       * expansion (the context below; no heavy arcs are owed). */
      s->tail = true;
      c.split = INFINITY;
      c.arcs = GR_SSSP_ARCS_ALL;
      c.heavy_bits = NULL;
    }
    if (s->pile_n) {
      gr_buffer *keep = &s->pile[s->cur ^ 1];
      GR_CHECK(gr_buffer_reserve(keep, p->dev, (size_t)room * sizeof(gr_vid), 0, &p->mem, 0, "sssp far pile"));
      gr_split_args pa;
      memset(&pa, 0, sizeof pa);
      pa.in = s->pile[s->cur].ptr;
      pa.n_in = s->pile_n;
      /* Behind the heavy arcs' list, if any: the two are distinct
       * vertices (those below the old split and those at or past it), both
       * owned, so they fit the bucket's room together. */
      pa.out[0] = near + heavy_n;
      pa.out_capacity[0] = room - heavy_n;
      pa.out[1] = keep->ptr;
      pa.out_capacity[1] = s->pile_n;
      GR_CHECK(ops->split_pile(p->dev, p->ws, &pa, &c));
      near_n = pa.n_out[0];
      s->pile_n = pa.n_out[1];
      s->cur ^= 1;
    }
    s->split = c.split;
    c.lower = c.split;
    s->bucket_peak = 0;
    if (!isinf(global_least)) {
      /* 'H': the last bucket's heavy arcs went first; 'T': the tail
       * begins. */
      if (tail_begins) it->tag = 'T';
      else if (it->tag != 'H') it->tag = 'B';
      /* Some device took the least entry into its bucket. */
      near_all = 1;
    }
  }
  if (held) {
    /* Behind the heavy arcs' list and the next bucket's first vertices
     * (both below `room` together, distinct owned vertices). */
    GR_CHECK(gr_device_copy(p->dev, near + heavy_n + near_n, near + room + early_room, (size_t)held * sizeof(gr_vid),
                            GR_COPY_D2D));
    near_n += held;
  }
  /* A bucket's expansions (on some device): its heavy arcs are owed. */
  if (near_all > 0 && s->heavy_on && !s->tail) s->heavy_owed = true;

  /* 3. Relax the bucket's out-edges: in a device-side loop while the
   * bucket is small (one GPU), else one level. The trace gives the relax's
   * input before its launches. */
  gr_log(GR_LOG_TRACE, GR_SUBSYS_PRIM, "sssp: device %d: iteration %d: bucket %llu, pile %llu, split %g",
         p->index, it->iteration, (unsigned long long)near_n, (unsigned long long)s->pile_n,
         (double)c.split);
  GR_CHECK(gr__sssp_loop(s, p, it, &c, near_n));
  /* Owed heavy arcs are work left: the run goes on to relax them. */
  const gr_eid owed = s->heavy_owed ? 1 : 0;
  if (it->levels > 0) {
    it->pending = s->pile_n + owed;
    /* Per level: its bucket, and the pile as the loop left it. */
    for (int l = 0; l < it->levels; l++) gr__sssp_record(s, l ? it->level_sizes[l - 1] : near_n, s->pile_n);
    return GR_SUCCESS;
  }
  /* Between devices the output goes to the exchange's package, the next
   * pass on the stream: the relax leaves its size there, which the package
   * reads on the device and brings back with its own counters
   * (gr_iter.out_counts: one host wait an iteration less; with
   * predecessors the publish below needs the size first, and behind heavy
   * arcs' targets the sizes add up on the host). */
  gr_vid *list = near;
  if (heavy_n && c.arcs == GR_SSSP_ARCS_ALL) {
    /* The tail begins behind a bucket's heavy arcs: those first, on their
     * own (once a run), then every arc of the tail's first vertices. */
    gr_sssp_ctx hc = c;
    hc.arcs = GR_SSSP_ARCS_HEAVY;
    GR_CHECK(gr__sssp_relax_list(s, p, it, &hc, near, heavy_n, heavy_n, 0, false, &heavy_out));
    list = near + heavy_n;
    heavy_n = 0;
  }
  const bool later = p->count > 1 && !exchanged && heavy_out == 0;
  gr_eid light_out = 0;
  GR_CHECK(gr__sssp_relax_list(s, p, it, &c, list, heavy_n, heavy_n + near_n, heavy_out, later, &light_out));
  it->out->size = heavy_out + light_out;
  if (exchanged && it->out->size) {
    gr_for_each_args fa = {gr_frontier_items(it->out), it->out->size, 0};
    GR_CHECK(ops->publish(p->dev, p->ws, &fa, &c));
  }
  it->pending = s->pile_n + owed;
  if (p->count > 1) {
    /* Summed at the barrier that ends the iteration (the pile as pending),
     * recorded at the next one or at extract. */
    it->tally[1] = near_n;
    s->last_near = near_n;
    s->last_pile = s->pile_n;
    s->owed = true;
  } else if (p->index == 0) {
    gr__sssp_record(s, near_n, s->pile_n);
  }
  return GR_SUCCESS;
}

static gr_status sssp_payload(void *slice, gr_part *p, gr_payload *out) {
  (void)p;
  gr__sssp_slice *s = slice;
  memset(out, 0, sizeof *out);
  out->n_values = 1;
  out->values[0] = s->dist.ptr;
  if (s->mark_pred) {
    out->n_vertices = 1;
    out->vertices[0] = s->pred.ptr;
  }
  return GR_SUCCESS;
}

static gr_status sssp_extract(void *slice, gr_part *p, gr_result *r) {
  gr__sssp_slice *s = slice;
  if (s->owed) {
    /* The last iteration's figures: no iteration came after to read their
     * sums. Every device owes them alike. */
    gr_eid near_all = 0, far_all = 0;
    GR_CHECK(gr__sssp_totals(p, s->last_near, s->last_pile, &near_all, &far_all));
    if (p->index == 0) gr__sssp_record(s, near_all, far_all);
    s->owed = false;
  }
  if (s->mark_pred) {
    gr_sssp_ctx c = gr__sssp_ctx(s, p, 0);
    gr_for_each_args all = {NULL, p->sub->n_local, 0};
    GR_CHECK(gr__sssp_ops(p->dev)->publish(p->dev, p->ws, &all, &c));
    GR_CHECK(gr_device_sync(p->dev));
  }
  GR_CHECK(gr_part_gather_float(p, s->dist.ptr, r->values));
  if (s->mark_pred && r->preds) GR_CHECK(gr_part_gather_svid(p, s->pred.ptr, r->preds));
  if (p->index != 0) return GR_SUCCESS;
  gr_extra *x = &r->extra;
  gr_extra_free(x);
  x->n_numbers = 1;
  x->number_names[0] = "delta";
  x->numbers[0] = s->delta;
  const size_t len = (size_t)s->series_len;
  for (int k = 0; k < GR__SSSP_SERIES; k++) {
    GR_CHECK(gr_host_alloc((void **)&x->series[k], (len ? len : 1) * sizeof(double), "sssp statistics"));
    if (len) memcpy(x->series[k], s->series[k], len * sizeof(double));
    x->series_names[k] = gr__sssp_series_names[k];
    x->n_series = k + 1;
  }
  x->series_len = s->series_len;
  return GR_SUCCESS;
}

const gr_primitive gr_sssp_primitive = {
    .name = "sssp",
    .summary = "single-source shortest paths: distance (and predecessor) of every vertex from a source",
    .proxy = GR_PROXY_1HOP,
    .auto_1hop = true,
    .comm = GR_COMM_SELECTIVE,
    .n_vertex_assoc = 1,
    .n_value_assoc = 1,
    .combine = GR_COMBINE_MIN,
    .value_type = GR_VALUE_FLOAT,
    .needs_source = true,
    .needs_in_edges = false,
    .needs_weights = true,
    .device_lists_only = true,
    /* Its inputs are split into a bucket and a pile first; the advance
     * measures the bucket. */
    .skips_in_edges = true,
    .reads_packed_lists = true,
    /* With heavy arcs apart: 16 bytes a row more (the split rows'
     * offsets) and a bit a vertex. */
    .state_bytes_per_vertex = {72, 104},
    .init = sssp_init,
    .release = sssp_release,
#ifdef GR_HAVE_CUDA
    .preload = gr__sssp_cuda_preload,
#endif
    .reset = sssp_reset,
    .iterate = sssp_iterate,
    .converged = NULL,
    .arrived = sssp_arrived,
    .arriving = sssp_arriving,
    .payload = sssp_payload,
    .extract = sssp_extract,
    .prepare = gr_sssp_prepare,
    .reference = gr_sssp_reference,
    .validate = gr_sssp_validate,
    .certifies = gr_sssp_certifies,
    .traversed_edges = gr_sssp_traversed_edges,
};
