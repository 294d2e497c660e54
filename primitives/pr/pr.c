/* SPDX-License-Identifier: Apache-2.0 */
/* PageRank as a primitive spec (the algorithm: pr.h). Every iteration
 * replaces the ranks of the vertices this device owns, sums the change and
 * the dangling rank over all devices (one gr_part_sum_double), and, unless
 * that was the last iteration, prepares the next one's contributions:
 * publish (pull) or the push; between devices, the vertices whose values
 * must travel are the output frontier. The run has no frontier of its own:
 * an unfinished iteration reports its owned vertices as pending work, and
 * `converged` (the same decision on every device) ends it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gr/log.h"
#include "gr/util.h"
#include "pr/pr.h"

typedef struct gr__pr_slice {
  gr_buffer rank, contrib, acc, xfer, sums;
  gr_buffer owners;
  const uint8_t *owner_table;
  gr_vid owned_first;
  gr_buffer sources; /* push: owned vertices with out-edges */
  gr_eid n_sources;
  gr_buffer outbound; /* between devices: the vertices whose values travel */
  gr_eid n_outbound;
  gr_pr_plan plan; /* CUDA pull */
  bool pull, multi;
  double tol;
  double dangling; /* D of the ranks in place (all devices) */
  double l1;       /* the last iteration's change (all devices) */
  bool converged, stop;
  int iterations;
  double *series;  /* device 0: the change of every iteration */
  int series_len, series_cap;
} gr__pr_slice;

const gr_pr_ops *gr__pr_ops(const gr_device *dev) {
#ifdef GR_HAVE_CUDA
  if (gr_device_backend(dev) == GR_BACKEND_CUDA) return &gr__pr_ops_cuda;
#endif
  (void)dev;
  return &gr__pr_ops_cpu;
}

double gr_pr_tolerance(const gr_prim_options *o) { return o->tolerance > 0 ? o->tolerance : GR_PR_TOLERANCE; }

int gr_pr_max_iterations(const gr_prim_options *o) {
  return o->max_iterations > 0 ? o->max_iterations : GR_PR_MAX_ITERATIONS;
}

gr_status gr_pr_check_damping(const gr_prim_options *o) {
  /* Written so that NaN fails too. */
  if (!(o->damping >= 0.0 && o->damping < 1.0))
    return gr_errorf(GR_ERR_INVALID_ARG, "pr needs a damping from 0 up to (not including) 1, got %g", o->damping);
  return GR_SUCCESS;
}

gr_status gr_pr_prepare(gr_graph *g, gr_prim_options *o) {
  (void)g;
  if (!(o->tolerance >= 0) || !isfinite(o->tolerance))
    return gr_errorf(GR_ERR_INVALID_ARG, "pr needs a positive tolerance, got %g", o->tolerance);
  GR_CHECK(gr_pr_check_damping(o));
  /* The enactor enforces the limit and reports reaching it. */
  if (o->max_iterations == 0) o->max_iterations = GR_PR_MAX_ITERATIONS;
  return GR_SUCCESS;
}

static void gr__pr_release_buffers(gr__pr_slice *s) {
  gr_buffer *b[] = {&s->rank, &s->contrib, &s->acc, &s->xfer, &s->sums, &s->owners, &s->sources, &s->outbound};
  for (size_t i = 0; i < sizeof b / sizeof *b; i++) gr_buffer_release(b[i]);
  gr_pr_plan_release(&s->plan);
  free(s->series);
}

static gr_status gr__pr_upload_ids(gr_device *dev, gr_buffer *b, const gr_vid *ids, gr_eid n, const char *what) {
  GR_CHECK(gr_buffer_resize(b, dev, (n ? (size_t)n : 1) * sizeof(gr_vid), 0, what));
  if (n) GR_CHECK(gr_device_copy(dev, b->ptr, ids, (size_t)n * sizeof(gr_vid), GR_COPY_H2D));
  return gr_device_sync(dev);
}

/* The push's marks of the copies an owned vertex points at (gr__pr_lists). */
typedef struct gr__pr_heads {
  const gr_subgraph *sub;
  uint8_t *hit;
} gr__pr_heads;

static bool gr__pr_mark_heads(void *ctx, const void *piece, gr_eid first, gr_eid count) {
  const gr__pr_heads *h = ctx;
  const gr_vid *ids = piece;
  (void)first;
  for (gr_eid e = 0; e < count; e++)
    /* Byte stores of the same value: no thread needs another's. */
    if (!gr_subgraph_owns(h->sub, ids[e])) __atomic_store_n(&h->hit[ids[e]], 1, __ATOMIC_RELAXED);
  return false;
}

/* The device lists a push needs, from the host's copy of the part: its
 * sources; between devices, the vertices whose partial sums travel (the
 * proxies that an owned vertex points at). */
static gr_status gr__pr_lists(gr__pr_slice *s, gr_part *p) {
  const gr_subgraph *sub = p->sub;
  const gr_vid n = sub->n_local;
  gr_status st = GR_SUCCESS;
  gr_vid *ids = NULL;
  uint8_t *hit = NULL;
  GR_CHECK(gr_host_alloc((void **)&ids, (n ? (size_t)n : 1) * sizeof *ids, "pr vertex lists"));
  gr_eid k = 0;
  for (gr_vid v = 0; v < n; v++)
    if (gr_subgraph_owns(sub, v) && sub->out.offsets[v + 1] > sub->out.offsets[v]) ids[k++] = v;
  s->n_sources = k;
  GR_CHECK_GOTO(gr__pr_upload_ids(p->dev, &s->sources, ids, k, "pr push sources"), st, done);
  if (s->multi) {
    GR_CHECK_GOTO(gr_host_calloc((void **)&hit, n ? (size_t)n : 1, 1, "pr vertex lists"), st, done);
    /* Only owned rows hold arcs, so every arc's head counts: the lists in
     * pieces, from the part's arrays or (a deferred part's) gathered from
     * the graph's. */
    gr__pr_heads heads = {sub, hit};
    GR_CHECK_GOTO(gr_subgraph_for_pieces(sub, false, false, gr__pr_mark_heads, &heads), st, done);
    gr_eid h = 0;
    for (gr_vid v = 0; v < n; v++)
      if (hit[v]) ids[h++] = v;
    s->n_outbound = h;
    GR_CHECK_GOTO(gr__pr_upload_ids(p->dev, &s->outbound, ids, h, "pr exchanged vertices"), st, done);
  }
done:
  free(ids);
  free(hit);
  return st;
}

void gr_pr_plan_release(gr_pr_plan *pl) {
  gr_buffer_release(&pl->heavy);
  gr_buffer_release(&pl->heavy_sum);
  gr_buffer_release(&pl->tile_lo);
  gr_buffer_release(&pl->tile_hi);
  pl->n_tiles = 0;
  gr_buffer_release(&pl->order);
  gr_buffer_release(&pl->ids);
  gr_buffer_release(&pl->sorted);
  pl->n_heavy = 0;
  pl->n_rows = 0;
  pl->relabelled = false;
  pl->hot = 0;
  pl->hub = 0;
}

enum { GR__PR_COUNT_CAP = 1 << 16 };

/* The order's bucket of a vertex feeding `fed` in-edges: most first,
 * counts past GR__PR_COUNT_CAP tied. */
static inline size_t gr__pr_bucket(gr_eid fed) {
  return GR__PR_COUNT_CAP - (fed < GR__PR_COUNT_CAP ? fed : GR__PR_COUNT_CAP);
}

gr_status gr_pr_order(const gr_csr *in, const gr_csr *out, unsigned sample, gr_vid *order, gr_vid *position,
                      gr_eid *top_fed) {
  const gr_vid n = in->n;
  gr_eid *fed = NULL;
  gr_status st = GR_SUCCESS;
  if (sample < 1) return gr_errorf(GR_ERR_INTERNAL, "pr order: a sample of one in-edge in 0");
  if (out) sample = 1; /* row lengths are exact and cost nothing */
  if (out && (out->n != in->n || out->m != in->m))
    return gr_errorf(GR_ERR_INTERNAL, "pr order: a transpose of %llu rows and %llu arcs for a CSC of %llu and %llu",
                     (unsigned long long)out->n, (unsigned long long)out->m, (unsigned long long)in->n,
                     (unsigned long long)in->m);
  GR_CHECK_GOTO(gr_host_calloc((void **)&fed, n ? (size_t)n : 1, sizeof *fed, "pr vertex order"), st, done);
  const gr_eid m = in->m;
  if (out) {
    /* A vertex feeds as many in-edges as it has out-edges. */
#pragma omp parallel for schedule(static)
    for (gr_vid v = 0; v < n; v++) fed[v] = out->offsets[v + 1] - out->offsets[v];
  } else {
    const gr_eid samples = (m + sample - 1) / sample;
#pragma omp parallel for schedule(static)
    for (gr_eid k = 0; k < samples; k++) __atomic_fetch_add(&fed[in->indices[k * sample]], sample, __ATOMIC_RELAXED);
  }
  st = gr_pr_order_fed(n, fed, order, position, top_fed);
done:
  free(fed);
  return st;
}

gr_status gr_pr_order_fed(gr_vid n, const gr_eid *fed, gr_vid *order, gr_vid *position, gr_eid *top_fed) {
  gr_vid *at_bin = NULL;
  gr_status st = GR_SUCCESS;
  /* A counting sort on the capped count, most first: bucket b holds the
   * vertices feeding GR__PR_COUNT_CAP - b in-edges; vertices keep their id
   * order within a bucket. Over the host's threads: each takes a run of
   * ids, counts its buckets, and places its vertices after the earlier
   * runs' of the same bucket (serial, the whole order of Kronecker 25 from
   * its transpose took 0.10 s on the 2-core machine, 0.064 s over its 2
   * threads; Kronecker 27 has 4 times the vertices). */
  const size_t bins = GR__PR_COUNT_CAP + 1;
  size_t runs = n >= ((gr_vid)1 << 15) ? (size_t)gr_host_threads() : 1;
  if (runs > 1 && gr_host_calloc((void **)&at_bin, runs * bins, sizeof *at_bin, "pr vertex order") < 0) {
    gr_error_clear(); /* one run needs less room */
    runs = 1;
  }
  if (!at_bin) GR_CHECK_GOTO(gr_host_calloc((void **)&at_bin, bins, sizeof *at_bin, "pr vertex order"), st, done);
#pragma omp parallel for schedule(static, 1)
  for (size_t r = 0; r < runs; r++) {
    gr_vid *h = at_bin + r * bins;
    const gr_vid lo = (gr_vid)((uint64_t)n * r / runs), hi = (gr_vid)((uint64_t)n * (r + 1) / runs);
    for (gr_vid v = lo; v < hi; v++) h[gr__pr_bucket(fed[v])]++;
  }
  gr_vid next = 0;
  for (size_t b = 0; b < bins; b++)
    for (size_t r = 0; r < runs; r++) {
      const gr_vid c = at_bin[r * bins + b];
      at_bin[r * bins + b] = next;
      next += c;
    }
#pragma omp parallel for schedule(static, 1)
  for (size_t r = 0; r < runs; r++) {
    gr_vid *h = at_bin + r * bins;
    const gr_vid lo = (gr_vid)((uint64_t)n * r / runs), hi = (gr_vid)((uint64_t)n * (r + 1) / runs);
    for (gr_vid v = lo; v < hi; v++) {
      const gr_vid at = h[gr__pr_bucket(fed[v])]++;
      order[at] = v;
      position[v] = at;
    }
  }
  if (top_fed) {
    const gr_vid top = n / 100 ? n / 100 : 1;
    gr_eid sum = 0;
    for (gr_vid i = 0; i < top && i < n; i++) sum += fed[order[i]];
    *top_fed = sum;
  }
done:
  free(at_bin);
  return st;
}

/* Counted over the device's threads or the GPU's (pr.h). */
gr_status gr_pr_count_fed(gr_device *dev, const gr_csr *in, const gr_vid *dev_indices, gr_eid piece, gr_eid *fed,
                          bool *counted) {
  const gr_pr_ops *ops = gr__pr_ops(dev);
  const gr_vid n = in->n;
  *counted = false;
  if (!ops->count_sources) return GR_SUCCESS;
  if (piece == 0 || piece > (gr_eid)UINT32_MAX) piece = (gr_eid)UINT32_MAX;
  gr_buffer counts = {0};
  uint32_t *host = NULL;
  gr_status st = GR_SUCCESS;
  const size_t bytes = (n ? (size_t)n : 1) * sizeof(uint32_t);
  GR_CHECK_GOTO(gr_buffer_resize(&counts, dev, bytes, 0, "pr in-edges fed"), st, done);
  GR_CHECK_GOTO(gr_host_alloc((void **)&host, bytes, "pr in-edges fed"), st, done);
#pragma omp parallel for schedule(static)
  for (gr_vid v = 0; v < n; v++) fed[v] = 0;
  for (gr_eid first = 0; first < in->m; first += piece) {
    const gr_eid len = in->m - first < piece ? in->m - first : piece;
    GR_CHECK_GOTO(gr_device_memset(dev, counts.ptr, 0, bytes), st, done);
    GR_CHECK_GOTO(ops->count_sources(dev, counts.ptr, dev_indices + first, len), st, done);
    GR_CHECK_GOTO(gr_device_copy(dev, host, counts.ptr, bytes, GR_COPY_D2H), st, done);
#pragma omp parallel for schedule(static)
    for (gr_vid v = 0; v < n; v++) fed[v] += host[v];
  }
  *counted = true;
done:
  gr_buffer_release(&counts);
  free(host);
  return st;
}

/* The relabelled copy of the in-edge ids and what the pull reads with it;
 * under GR_PR_RELABEL_SKEWED nothing where the sources are not skewed. */
static gr_status gr__pr_plan_relabel(gr_pr_plan *pl, gr_device *dev, const gr_csr *in, const gr_csr *out,
                                     const gr_vid *dev_indices, gr_pr_relabel relabel, gr_eid hot, gr_eid hub) {
  const gr_vid n = in->n;
  const size_t slots = n ? (size_t)n : 1;
  gr_vid *order = NULL, *position = NULL;
  gr_buffer dev_position = {0};
  gr_eid top_fed = 0;
  gr_status st = GR_SUCCESS;
  GR_CHECK_GOTO(gr_host_alloc((void **)&order, slots * sizeof *order, "pr vertex order"), st, done);
  GR_CHECK_GOTO(gr_host_alloc((void **)&position, slots * sizeof *position, "pr vertex order"), st, done);
  const double t0 = gr_time_now();
  /* A part's sources (no transpose) are counted on the device, every
   * in-edge: on two logical devices of Kronecker 25 (one H200) the pull
   * over an order from a sample of one in-edge in 8 took 4.67 ms an
   * iteration, over the exact order 4.48 ms (the tail's positions follow
   * their counts, which a sample of 8 blurs); the host counted a sample
   * because every in-edge took it seconds. */
  const unsigned sample = !out && in->m >= GR_PR_ORDER_SAMPLE_FROM ? GR_PR_ORDER_SAMPLE : 1;
  bool counted = false;
  if (!out) {
    gr_eid *fed = NULL;
    GR_CHECK_GOTO(gr_host_alloc((void **)&fed, slots * sizeof *fed, "pr vertex order"), st, done);
    st = gr_pr_count_fed(dev, in, dev_indices, 0, fed, &counted);
    if (st >= 0 && counted) st = gr_pr_order_fed(n, fed, order, position, &top_fed);
    free(fed);
    if (st < 0) goto done;
  }
  /* The host's sample reads the part's in-lists, which a deferred part
   * leaves in the graph: every backend that plans counts on the device. */
  if (!counted && !out && !in->indices) {
    st = gr_errorf(GR_ERR_INTERNAL, "pr: the pull's order needs the part's in-edges counted on the device");
    goto done;
  }
  if (!counted) GR_CHECK_GOTO(gr_pr_order(in, out, sample, order, position, &top_fed), st, done);
  const double t1 = gr_time_now();
  const char *how = out       ? "row lengths"
                    : counted ? "in-edges counted on the device"
                    : sample > 1 ? "a sample of the in-edges"
                                 : "in-edges counted";
  if (relabel == GR_PR_RELABEL_SKEWED && (double)top_fed * 100.0 < (double)in->m * GR_PR_SKEWED_PERCENT) {
    gr_log(GR_LOG_TRACE, GR_SUBSYS_PRIM, "pr: the order of %llu sources (%s) %.3f s; not skewed, not relabelled",
           (unsigned long long)n, how, t1 - t0);
    goto done;
  }
  GR_CHECK_GOTO(gr_buffer_resize(&pl->ids, dev, (in->m ? (size_t)in->m : 1) * sizeof(gr_vid), 0,
                                 "pr relabelled in-edge ids"),
                st, done);
  GR_CHECK_GOTO(gr_buffer_resize(&pl->sorted, dev, slots * sizeof(float), 0, "pr ordered contributions"), st, done);
  GR_CHECK_GOTO(gr__pr_upload_ids(dev, &pl->order, order, n, "pr vertex order"), st, done);
  GR_CHECK_GOTO(gr__pr_upload_ids(dev, &dev_position, position, n, "pr vertex positions"), st, done);
  if (in->m) GR_CHECK_GOTO(gr__pr_ops(dev)->relabel(dev, pl->ids.ptr, dev_indices, dev_position.ptr, in->m), st, done);
  GR_CHECK_GOTO(gr_device_sync(dev), st, done);
  /* Where a plan's host time goes, for hosts that cannot be profiled
   * otherwise. */
  gr_log(GR_LOG_TRACE, GR_SUBSYS_PRIM, "pr: the order of %llu sources (%s) %.3f s, its upload and relabel %.3f s",
         (unsigned long long)n, how, t1 - t0, gr_time_now() - t1);
  pl->relabelled = true;
  pl->hot = hot;
  pl->hub = hub;
done:
  gr_buffer_release(&dev_position);
  free(order);
  free(position);
  return st;
}

gr_eid gr_pr_tiles(const gr_csr *in, gr_vid *lo, gr_vid *hi, gr_vid *heavy, gr_eid *n_heavy) {
  const gr_vid n = in->n;
  gr_eid k = 0, nh = 0;
  /* Chunks of the heavy rows first: they are the tiles whose sums need the
   * finishing pass. */
  for (gr_vid v = 0; v < n; v++) {
    const gr_eid d = in->offsets[v + 1] - in->offsets[v];
    if (d <= GR_PR_TILE) continue;
    for (gr_eid c = 0; c * GR_PR_TILE < d; c++, k++)
      if (lo) {
        lo[k] = (gr_vid)nh;
        hi[k] = GR_PR_CHUNK_TILE | (gr_vid)c;
      }
    if (heavy) heavy[nh] = v;
    nh++;
  }
  /* Runs of rows: a tile closes before a row that would take it past
   * GR_PR_TILE in-edges or GR_PR_TILE_ROWS rows, and around each heavy row
   * (rows of non-owned vertices are empty: they only take their update,
   * which skips them). */
  gr_eid edges = 0;
  gr_vid start = 0;
  for (gr_vid v = 0; v <= n; v++) {
    const gr_eid d = v < n ? in->offsets[v + 1] - in->offsets[v] : 0;
    const bool heavy_row = d > GR_PR_TILE;
    if (v == n || heavy_row || edges + d > GR_PR_TILE || v - start == GR_PR_TILE_ROWS) {
      if (v > start) {
        if (lo) {
          lo[k] = start;
          hi[k] = v;
        }
        k++;
      }
      start = heavy_row ? v + 1 : v;
      edges = heavy_row ? 0 : d;
    } else {
      edges += d;
    }
  }
  if (n_heavy) *n_heavy = nh;
  return k;
}

gr_status gr_pr_plan_build(gr_pr_plan *pl, gr_device *dev, const gr_csr *in, gr_vid rows, const gr_csr *out,
                           const gr_vid *dev_indices, gr_pr_relabel relabel, gr_eid hot, gr_eid hub) {
  const gr_vid n = in->n;
  gr_status st = GR_SUCCESS;
  gr_vid *heavy = NULL, *tlo = NULL, *thi = NULL;
  gr_eid nh = 0;
  if (rows > n || in->offsets[rows] != in->m)
    return gr_errorf(GR_ERR_INTERNAL, "pr: a pull plan over %llu of %llu rows leaves arcs out",
                     (unsigned long long)rows, (unsigned long long)n);
  /* The tiles over the device's rows: a tile's last row bound is read. */
  gr_csr held = *in;
  held.n = rows;
  const gr_eid nt = gr_pr_tiles(&held, NULL, NULL, NULL, &nh);
  GR_CHECK_GOTO(gr_host_alloc((void **)&heavy, (nh ? (size_t)nh : 1) * sizeof *heavy, "pr pull plan"), st, done);
  GR_CHECK_GOTO(gr_host_alloc((void **)&tlo, (nt ? (size_t)nt : 1) * sizeof *tlo, "pr pull plan"), st, done);
  GR_CHECK_GOTO(gr_host_alloc((void **)&thi, (nt ? (size_t)nt : 1) * sizeof *thi, "pr pull plan"), st, done);
  gr_pr_tiles(&held, tlo, thi, heavy, &nh);
  pl->n_rows = n;
  pl->n_heavy = nh;
  pl->n_tiles = nt;
  GR_CHECK_GOTO(gr__pr_upload_ids(dev, &pl->heavy, heavy, nh, "pr pull plan"), st, done);
  GR_CHECK_GOTO(gr__pr_upload_ids(dev, &pl->tile_lo, tlo, nt, "pr pull plan"), st, done);
  GR_CHECK_GOTO(gr__pr_upload_ids(dev, &pl->tile_hi, thi, nt, "pr pull plan"), st, done);
  GR_CHECK_GOTO(gr_buffer_resize(&pl->heavy_sum, dev, (nh ? (size_t)nh : 1) * sizeof(double), 0, "pr pull plan"), st,
                done);
  GR_CHECK_GOTO(gr_device_sync(dev), st, done);
  if (relabel != GR_PR_RELABEL_OFF && dev_indices)
    st = gr__pr_plan_relabel(pl, dev, in, out, dev_indices, relabel, hot, hub);
done:
  free(heavy);
  free(tlo);
  free(thi);
  if (st < 0) gr_pr_plan_release(pl);
  return st;
}

static gr_status pr_init(void **slice, gr_part *p) {
  gr__pr_slice *s = NULL;
  gr_status st = GR_SUCCESS;
  const gr_direction dir = p->opts->direction;
  if (!p->sub->in.offsets) return gr_errorf(GR_ERR_INTERNAL, "pr needs the in-edges of part %d", p->index);
  GR_CHECK(gr_host_calloc((void **)&s, 1, sizeof *s, "pr state"));
  const gr_vid n = p->sub->n_local;
  const size_t slots = n ? (size_t)n : 1;
  /* Pull unless asked to push: between devices the owners refresh the
   * copies of their contributions (gr_part_refresh). */
  s->pull = dir != GR_DIRECTION_PUSH;
  s->multi = p->count > 1;
  s->tol = gr_pr_tolerance(p->opts);
  /* The relabelled pull (below) keeps a plain copy of the in-edge ids, as
   * many bytes as the lists unpacked: never beside packed lists, whose
   * point is fewer bytes. Refused on every backend alike. */
  if (s->pull && p->in.packed && p->opts->tune.relabel == GR_SORT_ON) {
    st = gr_errorf(GR_ERR_INVALID_ARG, "pr: --tune relabel=on keeps a plain copy of the in-edge ids, which "
                                       "--compress packed is there to avoid; use one or the other");
    goto fail;
  }
  GR_CHECK_GOTO(gr_buffer_resize(&s->rank, p->dev, slots * sizeof(float), 0, "pr ranks"), st, fail);
  GR_CHECK_GOTO(gr_buffer_resize(&s->contrib, p->dev, slots * sizeof(float), 0, "pr contributions"), st, fail);
  GR_CHECK_GOTO(gr_buffer_resize(&s->sums, p->dev, 2 * sizeof(double), 0, "pr sums"), st, fail);
  if (!s->pull) {
    GR_CHECK_GOTO(gr_buffer_resize(&s->acc, p->dev, slots * sizeof(double), 0, "pr pushed sums"), st, fail);
    GR_CHECK_GOTO(gr_buffer_resize(&s->xfer, p->dev, slots * sizeof(float), 0, "pr partial sums"), st, fail);
  }
  if (s->multi) GR_CHECK_GOTO(gr_part_owners(p, &s->owners, &s->owner_table, &s->owned_first), st, fail);
  if (!s->pull) GR_CHECK_GOTO(gr__pr_lists(s, p), st, fail);
  if (s->pull && gr_device_backend(p->dev) == GR_BACKEND_CUDA) {
    /* The relabelled pull (pr.h) where asked, or by default where the
     * graph is in device memory, its sources are skewed and the second
     * copy of the ids fits. */
    const gr_tuning *t = &p->opts->tune;
    /* Packed lists are never relabelled (see above). */
    const gr_pr_relabel rl = p->in.packed                                             ? GR_PR_RELABEL_OFF
                             : t->relabel == GR_SORT_ON                                ? GR_PR_RELABEL_ON
                             : t->relabel == GR_SORT_AUTO && !p->ws->graph_on_host ? GR_PR_RELABEL_SKEWED
                                                                                    : GR_PR_RELABEL_OFF;
    /* One device holds the whole graph, whose out-edges are the in-edges'
     * transpose: the order counts nothing. A part's in-edges come from
     * vertices whose out-edges it does not hold (copies), so the device
     * counts them (gr_pr_ops.count_sources). */
    const gr_csr *transpose = p->count == 1 ? &p->sub->out : NULL;
    st = gr_pr_plan_build(&s->plan, p->dev, &p->sub->in, p->in.n, transpose, p->in.indices, rl, t->hot, t->hub);
    if (st == GR_ERR_DEVICE_OOM && rl == GR_PR_RELABEL_SKEWED) {
      gr_log(GR_LOG_INFO, GR_SUBSYS_PRIM,
             "pr: device %d has no room for the relabelled in-edge ids (%llu bytes); pulling without them", p->index,
             (unsigned long long)p->in.m * sizeof(gr_vid));
      gr_error_clear();
      st = gr_pr_plan_build(&s->plan, p->dev, &p->sub->in, p->in.n, NULL, NULL, GR_PR_RELABEL_OFF, t->hot, t->hub);
    }
    if (st < 0) goto fail;
  }
  *slice = s;
  return GR_SUCCESS;
fail:
  gr__pr_release_buffers(s);
  free(s);
  return st;
}

static void pr_release(void *slice, gr_part *p) {
  (void)p;
  gr__pr_slice *s = slice;
  gr__pr_release_buffers(s);
  free(s);
}

static gr_pr_ctx gr__pr_ctx(gr__pr_slice *s, const gr_part *p) {
  gr_pr_ctx c;
  memset(&c, 0, sizeof c);
  c.rank = s->rank.ptr;
  c.contrib = s->contrib.ptr;
  c.acc = s->acc.ptr;
  c.xfer = s->xfer.ptr;
  c.out_offsets = p->out.offsets;
  c.in_offsets = p->in.offsets;
  c.in_indices = p->in.indices;
  if (p->in.packed) c.in_packed = *p->in.packed;
  c.owner = s->owner_table;
  c.owned_first = s->owned_first;
  c.me = p->index;
  const double n = (double)p->sub->n_global;
  /* Every device reads the one options struct, so all agree on d. */
  c.damping = p->opts->damping;
  c.base = n > 0 ? (1.0 - c.damping) / n : 0.0;
  c.inv_n = n > 0 ? 1.0 / n : 0.0;
  c.inv_m = p->m_global ? 1.0 / (double)p->m_global : 0.0;
  c.dangling_share = s->dangling * c.inv_n;
  c.sums = s->sums.ptr;
  return c;
}

static gr_status pr_reset(void *slice, gr_part *p, const gr_run_args *a, gr_frontier *first) {
  gr__pr_slice *s = slice;
  (void)a;
  first->size = 0;
  s->series_len = 0;
  s->iterations = 0;
  s->converged = s->stop = false;
  s->l1 = 0;
  /* No vertex starts: the output's room (the outbound list) is reserved
   * where it is filled, and the exchange's next frontiers go into the
   * room the enactor gave the input. */
  if (gr_frontier_capacity(first) < 1) GR_CHECK(gr_frontier_reserve(first, p->dev, 1, 0, &p->mem));
  return GR_SUCCESS;
}

/* Device 0 keeps each iteration's change (statistics only: an entry that
 * cannot be stored is dropped). */
static void gr__pr_record(gr__pr_slice *s, double l1) {
  if (s->series_len == s->series_cap) {
    const int cap = s->series_cap ? 2 * s->series_cap : 64;
    double *x = realloc(s->series, sizeof *x * (size_t)cap);
    if (!x) return;
    s->series = x;
    s->series_cap = cap;
  }
  s->series[s->series_len++] = l1;
}

static gr_status pr_iterate(void *slice, gr_part *p, gr_iter *it) {
  gr__pr_slice *s = slice;
  const gr_pr_ops *ops = gr__pr_ops(p->dev);
  const gr_vid n = p->sub->n_local;
  gr_for_each_args all = {NULL, n, 0};
  it->out->size = 0;
  if (it->iteration == 0) {
    /* Every rank starts at deg/m, so no dangling vertex holds any; without
     * arcs every vertex is dangling and holds 1/n. */
    s->dangling = p->m_global ? 0.0 : 1.0;
    gr_pr_ctx c0 = gr__pr_ctx(s, p);
    GR_CHECK(ops->init(p->dev, p->ws, &all, &c0));
    /* With the allocations' trace (GR_DEBUG_SUBSYS=ALLOC,PRIM), ties a
     * sanitizer's address to a device's ranks and what wrote them. */
    gr_log(GR_LOG_TRACE, GR_SUBSYS_PRIM, "pr: device %d: %llu ranks at %p initialized (%llu owned)", p->index,
           (unsigned long long)n, (void *)s->rank.ptr, (unsigned long long)p->sub->n_owned);
  }
  gr_pr_ctx c = gr__pr_ctx(s, p);
  c.first = it->iteration == 0;
  double local[2] = {0, 0}, total[2] = {0, 0};
  if (s->pull) {
    GR_CHECK(ops->pull_step(p->dev, p->ws, &s->plan, n, &c, &local[0], &local[1]));
    it->edges += p->in.m;
  } else {
    GR_CHECK(ops->push_step(p->dev, p->ws, n, &c, &local[0], &local[1]));
  }
  GR_CHECK(gr_part_sum_double(p, local, total, 2));
  s->l1 = total[0];
  s->dangling = total[1];
  s->iterations = it->iteration + 1;
  if (p->index == 0) gr__pr_record(s, total[0]);
  s->converged = total[0] < s->tol;
  /* Without a limit in the options (a caller that skipped prepare), pr's
   * own; otherwise the enactor stops at the limit and says so. */
  s->stop = s->converged || (p->opts->max_iterations == 0 && s->iterations >= GR_PR_MAX_ITERATIONS);
  if (s->stop) return GR_SUCCESS;
  it->pending = p->sub->n_owned ? p->sub->n_owned : 1;

  /* The next iteration's contributions; between devices the copies of
   * them that a pull reads take their owners' values. */
  /* Between devices under 1-hop proxies the copies come after the owned
   * vertices, and a pull's refresh below writes every one of them: only the
   * owned publish (0.7 of a device's local vertices on two devices of
   * Kronecker 25). */
  gr_for_each_args pub = all;
  if (s->pull && s->multi && s->owned_first) pub.n = s->owned_first;
  GR_CHECK(ops->publish(p->dev, p->ws, &pub, &c));
  if (s->pull && s->multi) {
    void *arrays[1] = {s->contrib.ptr};
    GR_CHECK(gr_part_refresh(p, arrays, 1, (int)sizeof(float)));
  }
  if (!s->pull) {
    GR_CHECK(gr_device_memset(p->dev, s->acc.ptr, 0, (n ? (size_t)n : 1) * sizeof(double)));
    gr_advance_push_args a;
    memset(&a, 0, sizeof a);
    a.g = &p->out;
    a.in = s->sources.ptr;
    a.n_in = s->n_sources;
    GR_CHECK(ops->push(p->dev, p->ws, &a, &c));
    it->edges += a.edges;
    if (s->multi && s->n_outbound) {
      gr_for_each_args t = {s->outbound.ptr, s->n_outbound, 0};
      GR_CHECK(ops->push_out(p->dev, p->ws, &t, &c));
    }
  }
  if (!s->pull && s->multi && s->n_outbound) {
    if (gr_frontier_capacity(it->out) < s->n_outbound)
      GR_CHECK(gr_frontier_reserve(it->out, p->dev, s->n_outbound, 0, &p->mem));
    GR_CHECK(gr_device_copy(p->dev, gr_frontier_items(it->out), s->outbound.ptr, (size_t)s->n_outbound * sizeof(gr_vid),
                            GR_COPY_D2D));
    it->out->size = s->n_outbound;
  }
  return GR_SUCCESS;
}

static bool pr_converged(const void *slice, const gr_part *p, const gr_iter *it) {
  (void)p;
  (void)it;
  return ((const gr__pr_slice *)slice)->stop;
}

static gr_status pr_payload(void *slice, gr_part *p, gr_payload *out) {
  (void)p;
  gr__pr_slice *s = slice;
  memset(out, 0, sizeof *out);
  out->n_values = 1;
  out->values[0] = s->pull ? s->contrib.ptr : s->xfer.ptr;
  return GR_SUCCESS;
}

static gr_status pr_extract(void *slice, gr_part *p, gr_result *r) {
  gr__pr_slice *s = slice;
  gr_log(GR_LOG_TRACE, GR_SUBSYS_PRIM, "pr: device %d: copying back %llu ranks from %p", p->index,
         (unsigned long long)p->sub->n_local, (void *)s->rank.ptr);
  GR_CHECK(gr_part_gather_float(p, s->rank.ptr, r->values));
  if (p->index != 0) return GR_SUCCESS;
  gr_extra *x = &r->extra;
  gr_extra_free(x);
  /* The damping the run used travels with its figures, so that reports
   * (gr_run's text and --json) say which PageRank they measured. */
  static const char *const names[] = {"iterations", "l1", "converged", "pull", "damping"};
  const double values[] = {(double)s->iterations, s->l1, s->converged ? 1.0 : 0.0, s->pull ? 1.0 : 0.0,
                           p->opts->damping};
  const int count = (int)(sizeof names / sizeof names[0]);
  _Static_assert(sizeof names / sizeof names[0] <= (size_t)GR_EXTRA_MAX, "pr's figures fit gr_extra");
  for (int k = 0; k < count; k++) {
    x->number_names[k] = names[k];
    x->numbers[k] = values[k];
  }
  x->n_numbers = count;
  const size_t len = (size_t)s->series_len;
  GR_CHECK(gr_host_alloc((void **)&x->series[0], (len ? len : 1) * sizeof(double), "pr statistics"));
  if (len) memcpy(x->series[0], s->series, len * sizeof(double));
  x->series_names[0] = "change";
  x->n_series = 1;
  x->series_len = s->series_len;
  return GR_SUCCESS;
}

gr_eid gr_pr_traversed_edges(gr_graph *g, const gr_result *r) {
  gr_eid k = 1;
  for (int i = 0; i < r->extra.n_numbers; i++)
    if (!strcmp(r->extra.number_names[i], "iterations") && r->extra.numbers[i] >= 1) k = (gr_eid)r->extra.numbers[i];
  return gr_graph_num_edges(g) * k;
}

const gr_primitive gr_pr_primitive = {
    .name = "pr",
    .summary = "PageRank: the rank of every vertex (damping 0.85 unless --damping, dangling rank spread evenly), to a "
               "tolerance",
    .proxy = GR_PROXY_1HOP,
    .auto_1hop = true,
    .comm = GR_COMM_SELECTIVE,
    .n_vertex_assoc = 0,
    .n_value_assoc = 1,
    .combine = GR_COMBINE_SUM,
    .value_type = GR_VALUE_FLOAT,
    .needs_source = false,
    .needs_in_edges = true,
    .needs_weights = false,
    .device_lists_only = true,
    /* Push goes through the advance; the pull decodes the CSC's packed
     * lists itself (a tile's on the GPU, a row's on the CPU). */
    .reads_packed_lists = true,
    .refreshes_copies = true,
    /* Every iteration covers every owned vertex: no frontier to size. */
    .skips_in_edges = true,
    /* Its values are ranks, its ids local: no global id on the device. */
    .skips_global_ids = true,
    .state_bytes_per_vertex = {16, 64},
    .init = pr_init,
    .release = pr_release,
#ifdef GR_HAVE_CUDA
    .preload = gr__pr_cuda_preload,
#endif
    .reset = pr_reset,
    .iterate = pr_iterate,
    .converged = pr_converged,
    .payload = pr_payload,
    .extract = pr_extract,
    .prepare = gr_pr_prepare,
    .reference = gr_pr_reference,
    .validate = gr_pr_validate,
    .traversed_edges = gr_pr_traversed_edges,
};
