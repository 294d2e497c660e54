/* SPDX-License-Identifier: Apache-2.0 */
/* Runs one operator on one device from host inputs (see op_harness.h). */
#include "op_harness.h"

#include <stdlib.h>
#include <string.h>

#include "gr/buffer.h"
#include "gr/frontier.h"
#include "gr/packed.h"
#include "testutil.h"

static int cmp_vid(const void *a, const void *b) {
  gr_vid x = *(const gr_vid *)a, y = *(const gr_vid *)b;
  return (x > y) - (x < y);
}

void op_result_free(op_result *r) {
  free(r->out);
  free(r->label);
  free(r->pred);
  free(r->marks);
  free(r->remaining);
  free(r->level_sizes);
  free(r->trail);
  memset(r, 0, sizeof *r);
}

typedef struct dev_graph {
  gr_buffer b[4];
  gr_packed p; /* device arrays when the lists go packed */
  gr_csr c;
} dev_graph;

static bool op_packed;
void op_set_packed(bool packed) { op_packed = packed; }
static bool op_count_past;
void op_set_count_past(bool count_past) { op_count_past = count_past; }
static gr_eid op_later_slack;
static bool op_later;
void op_set_split_later(bool later, gr_eid slack) {
  op_later = later;
  op_later_slack = slack;
}
static bool op_known;
void op_set_known(bool known) { op_known = known; }

/* The CSR onto the device: its ids as they are, or packed (the three
 * arrays of gr_packed in place of the ids, as --compress packed does). */
static gr_status upload(gr_device *dev, const gr_csr *h, dev_graph *d) {
  memset(d, 0, sizeof *d);
  size_t ob = ((size_t)h->n + 1) * sizeof(gr_eid), ib = (size_t)h->m * sizeof(gr_vid);
  GR_CHECK(gr_buffer_resize(&d->b[0], dev, ob, 0, "test offsets"));
  GR_CHECK(gr_device_copy(dev, d->b[0].ptr, h->offsets, ob, GR_COPY_H2D));
  d->c.n = h->n;
  d->c.m = h->m;
  d->c.offsets = d->b[0].ptr;
  if (!op_packed) {
    GR_CHECK(gr_buffer_resize(&d->b[1], dev, ib, 0, "test indices"));
    GR_CHECK(gr_device_copy(dev, d->b[1].ptr, h->indices, ib, GR_COPY_H2D));
    d->c.indices = d->b[1].ptr;
    return GR_SUCCESS;
  }
  GR_CHECK(gr_test_upload_packed(dev, h, &d->b[1], &d->p));
  d->c.packed = &d->p;
  return GR_SUCCESS;
}

static void drop(dev_graph *d) {
  for (int i = 0; i < 4; i++) gr_buffer_release(&d->b[i]);
}

/* Device label/pred arrays set up from the frontier, and a context. */
typedef struct dev_state {
  gr_buffer label, pred, marks, out, in;
  test_ctx ctx;
  gr_workspace ws;
} dev_state;

static const char *op_tuning;
void op_set_tuning(const char *text) { op_tuning = text; }
static gr_vid op_stop_at;
void op_set_stop_at(gr_vid v) { op_stop_at = v; }
static const gr_vid *op_cand;
static gr_eid op_n_cand;
void op_set_pull_candidates(const gr_vid *cand, gr_eid n) {
  op_cand = cand;
  op_n_cand = cand ? n : 0;
}

static gr_status state_init(dev_state *s, gr_device *dev, gr_vid n, const gr_vid *frontier, gr_eid nf) {
  memset(s, 0, sizeof *s);
  GR_CHECK(gr_workspace_init(&s->ws, dev, NULL));
  if (op_tuning && *op_tuning) GR_CHECK(gr_tuning_parse(&s->ws.tune, op_tuning));
  size_t lb = (size_t)n * sizeof(gr_svid);
  gr_svid *h = malloc(lb ? lb : 1);
  if (!h) return GR_ERR_HOST_OOM;
  for (gr_vid v = 0; v < n; v++) h[v] = -1;
  for (gr_eid i = 0; i < nf; i++) h[frontier[i]] = 0;
  gr_status st = gr_buffer_resize(&s->label, dev, lb, 0, "labels");
  if (st >= 0) st = gr_device_copy(dev, s->label.ptr, h, lb, GR_COPY_H2D);
  if (st >= 0) st = gr_buffer_resize(&s->pred, dev, lb, 0, "preds");
  if (st >= 0) st = gr_device_memset(dev, s->pred.ptr, 0xff, lb);
  if (st >= 0) st = gr_buffer_resize(&s->marks, dev, (size_t)n * sizeof(uint32_t), 0, "marks");
  if (st >= 0) st = gr_device_memset(dev, s->marks.ptr, 0, (size_t)n * sizeof(uint32_t));
  if (st >= 0) st = gr_buffer_resize(&s->out, dev, ((size_t)n + 1) * sizeof(gr_vid), 0, "out");
  if (st >= 0) st = gr_buffer_resize(&s->in, dev, ((size_t)nf + 1) * sizeof(gr_vid), 0, "in");
  if (st >= 0 && nf) st = gr_device_copy(dev, s->in.ptr, frontier, (size_t)nf * sizeof(gr_vid), GR_COPY_H2D);
  free(h);
  s->ctx.label = s->label.ptr;
  s->ctx.pred = s->pred.ptr;
  s->ctx.marks = s->marks.ptr;
  s->ctx.next = 1;
  s->ctx.modulus = 1;
  return st;
}

static gr_status state_fetch(dev_state *s, gr_device *dev, gr_vid n, gr_eid n_out, op_result *r) {
  size_t lb = (size_t)n * sizeof(gr_svid);
  r->n_out = n_out;
  r->out = malloc(((size_t)n_out + 1) * sizeof(gr_vid));
  r->label = malloc(lb + 1);
  r->pred = malloc(lb + 1);
  r->marks = malloc((size_t)n * sizeof(uint32_t) + 1);
  if (!r->out || !r->label || !r->pred || !r->marks) return GR_ERR_HOST_OOM;
  GR_CHECK(gr_device_copy(dev, r->out, s->out.ptr, (size_t)n_out * sizeof(gr_vid), GR_COPY_D2H));
  GR_CHECK(gr_device_copy(dev, r->label, s->label.ptr, lb, GR_COPY_D2H));
  GR_CHECK(gr_device_copy(dev, r->pred, s->pred.ptr, lb, GR_COPY_D2H));
  GR_CHECK(gr_device_copy(dev, r->marks, s->marks.ptr, (size_t)n * sizeof(uint32_t), GR_COPY_D2H));
  qsort(r->out, (size_t)n_out, sizeof(gr_vid), cmp_vid);
  return GR_SUCCESS;
}

static void state_free(dev_state *s) {
  gr_buffer_release(&s->label);
  gr_buffer_release(&s->pred);
  gr_buffer_release(&s->marks);
  gr_buffer_release(&s->out);
  gr_buffer_release(&s->in);
  gr_workspace_release(&s->ws);
}

gr_status op_run_push(const test_ops *ops, gr_device *dev, const gr_csr *g, const gr_vid *frontier,
                      gr_eid nf, op_result *r) {
  memset(r, 0, sizeof *r);
  dev_graph dg;
  dev_state s;
  gr_status st = upload(dev, g, &dg);
  if (st >= 0) st = state_init(&s, dev, g->n, frontier, nf);
  gr_advance_push_args a = {.g = &dg.c, .in = s.in.ptr, .n_in = nf, .out = s.out.ptr, .out_capacity = g->n,
                            .next_offsets = dg.c.offsets};
  if (op_known) {
    a.in_known = true;
    for (gr_eid i = 0; i < nf; i++) {
      const gr_eid d = g->offsets[frontier[i] + 1] - g->offsets[frontier[i]];
      a.in_edges += d;
      if (d > a.in_max_degree) a.in_max_degree = d;
    }
  }
  if (st >= 0) st = ops->push(dev, &s.ws, &a, &s.ctx);
  if (st >= 0) st = state_fetch(&s, dev, g->n, a.n_out, r);
  r->edges = a.edges;
  r->out_edges = a.out_edges;
  r->out_max_degree = a.out_max_degree;
  state_free(&s);
  drop(&dg);
  return st;
}

gr_status op_run_pull(const test_ops *ops, gr_device *dev, const gr_csr *in_edges,
                      const gr_vid *frontier, gr_eid nf, op_result *r) {
  memset(r, 0, sizeof *r);
  dev_graph dg;
  dev_state s;
  gr_frontier f;
  gr_frontier_init(&f, in_edges->n);
  gr_status st = upload(dev, in_edges, &dg);
  if (st >= 0) st = state_init(&s, dev, in_edges->n, frontier, nf);
  if (st >= 0) st = gr_frontier_assign(&f, dev, frontier, nf);
  if (st >= 0) st = gr_frontier_queue_to_bitmap(&f, dev, &s.ws);
  gr_buffer rem = GR_BUFFER_INIT, found = GR_BUFFER_INIT, cand = GR_BUFFER_INIT;
  if (st >= 0) st = gr_buffer_resize(&rem, dev, ((size_t)in_edges->n + 1) * sizeof(gr_vid), 0, "remaining");
  if (st >= 0 && op_cand) st = gr_buffer_resize(&cand, dev, ((size_t)op_n_cand + 1) * sizeof(gr_vid), 0, "candidates");
  if (st >= 0 && op_cand)
    st = gr_device_copy(dev, cand.ptr, op_cand, (size_t)op_n_cand * sizeof(gr_vid), GR_COPY_H2D);
  /* The finds' bitmap too: its bits must be the output's, exactly. */
  const size_t fw = gr_bitmap_words(in_edges->n);
  uint32_t *fh = calloc(fw + 1, sizeof *fh);
  if (st >= 0 && !fh) st = GR_ERR_HOST_OOM;
  if (st >= 0) st = gr_buffer_resize(&found, dev, (fw + 1) * sizeof(uint32_t), 0, "finds");
  if (st >= 0) st = gr_device_memset(dev, found.ptr, 0, (fw + 1) * sizeof(uint32_t));
  gr_advance_pull_args a = {.g = &dg.c, .frontier_bits = gr_frontier_bits(&f), .out = s.out.ptr,
                            .out_capacity = in_edges->n, .next_offsets = dg.c.offsets,
                            .remaining = rem.ptr, .remaining_capacity = in_edges->n, .found_bits = found.ptr};
  if (op_cand) {
    a.candidates = cand.ptr;
    a.n_candidates = op_n_cand;
  }
  if (st >= 0) st = ops->pull(dev, &s.ws, &a, &s.ctx);
  if (st >= 0) st = state_fetch(&s, dev, in_edges->n, a.n_out, r);
  if (st >= 0) st = gr_device_copy(dev, fh, found.ptr, fw * sizeof(uint32_t), GR_COPY_D2H);
  if (st >= 0) {
    gr_eid set = 0;
    for (size_t w = 0; w < fw; w++) set += (gr_eid)__builtin_popcount(fh[w]);
    for (gr_eid i = 0; i < r->n_out && st >= 0; i++)
      if (!gr_bitmap_test(fh, r->out[i]))
        st = gr_errorf(GR_ERR_INTERNAL, "pull: vertex %llu found without its bit", (unsigned long long)r->out[i]);
    if (st >= 0 && set != r->n_out)
      st = gr_errorf(GR_ERR_INTERNAL, "pull: %llu bits set for %llu vertices found", (unsigned long long)set,
                     (unsigned long long)r->n_out);
  }
  free(fh);
  gr_buffer_release(&found);
  gr_buffer_release(&cand);
  if (st >= 0) {
    r->n_remaining = a.n_remaining;
    r->remaining = malloc(((size_t)a.n_remaining + 1) * sizeof(gr_vid));
    if (!r->remaining) st = GR_ERR_HOST_OOM;
  }
  if (st >= 0)
    st = gr_device_copy(dev, r->remaining, rem.ptr, (size_t)a.n_remaining * sizeof(gr_vid), GR_COPY_D2H);
  if (st >= 0) qsort(r->remaining, (size_t)a.n_remaining, sizeof(gr_vid), cmp_vid);
  gr_buffer_release(&rem);
  r->edges = a.edges;
  r->out_edges = a.out_edges;
  r->out_max_degree = a.out_max_degree;
  gr_frontier_release(&f);
  state_free(&s);
  drop(&dg);
  return st;
}

gr_status op_run_filter(const test_ops *ops, gr_device *dev, gr_vid universe, const gr_vid *in, gr_eid n,
                        gr_vid modulus, bool cull, op_result *r) {
  memset(r, 0, sizeof *r);
  dev_state s;
  gr_frontier bits;
  gr_frontier_init(&bits, universe);
  gr_status st = state_init(&s, dev, universe, in, 0);
  if (st >= 0) st = gr_buffer_resize(&s.in, dev, ((size_t)n + 1) * sizeof(gr_vid), 0, "in");
  if (st >= 0) st = gr_buffer_resize(&s.out, dev, ((size_t)n + 1) * sizeof(gr_vid), 0, "out");
  if (st >= 0 && in) st = gr_device_copy(dev, s.in.ptr, in, (size_t)n * sizeof(gr_vid), GR_COPY_H2D);
  if (st >= 0 && cull) st = gr_frontier_clear_bitmap(&bits, dev);
  s.ctx.modulus = modulus;
  /* Without an input list the filter takes the ids [0, n). */
  gr_filter_args a = {in ? s.in.ptr : NULL, n, s.out.ptr, n, cull ? gr_frontier_bits(&bits) : NULL, 0};
  if (st >= 0) st = ops->filter(dev, &s.ws, &a, &s.ctx);
  if (st >= 0) st = state_fetch(&s, dev, universe, a.n_out, r);
  gr_frontier_release(&bits);
  state_free(&s);
  return st;
}

gr_status op_run_levels(const test_ops *ops, gr_device *dev, const gr_csr *g, const gr_vid *frontier, gr_eid nf,
                        const gr_advance_levels_args *limits, op_result *r) {
  memset(r, 0, sizeof *r);
  dev_graph dg;
  dev_state s;
  gr_buffer second = GR_BUFFER_INIT, sizes = GR_BUFFER_INIT, trail = GR_BUFFER_INIT, stop = GR_BUFFER_INIT;
  const int max_levels = limits->max_levels > 0 ? limits->max_levels : 1;
  gr_status st = upload(dev, g, &dg);
  if (st >= 0) st = state_init(&s, dev, g->n, frontier, nf);
  /* Both queues hold every vertex, the input in the first. */
  if (st >= 0) st = gr_buffer_resize(&s.in, dev, ((size_t)g->n + 1) * sizeof(gr_vid), 0, "queue 0");
  if (st >= 0 && nf) st = gr_device_copy(dev, s.in.ptr, frontier, (size_t)nf * sizeof(gr_vid), GR_COPY_H2D);
  if (st >= 0) st = gr_buffer_resize(&second, dev, ((size_t)g->n + 1) * sizeof(gr_vid), 0, "queue 1");
  if (st >= 0) st = gr_buffer_resize(&sizes, dev, (size_t)max_levels * sizeof(gr_eid), 0, "level sizes");
  gr_advance_levels_args a = *limits;
  a.g = &dg.c;
  a.queue[0] = s.in.ptr;
  a.queue[1] = second.ptr;
  a.capacity = g->n;
  a.n_in = nf;
  a.level_sizes = sizes.ptr;
  if (st >= 0 && limits->trail_capacity)
    st = gr_buffer_resize(&trail, dev, (size_t)limits->trail_capacity * sizeof(gr_vid), 0, "trail");
  a.trail = trail.ptr;
  if (st >= 0 && limits->stop) {
    st = gr_buffer_resize(&stop, dev, sizeof(uint32_t), 0, "stop flag");
    if (st >= 0) st = gr_device_memset(dev, stop.ptr, 0, sizeof(uint32_t));
    s.ctx.stop = stop.ptr;
    s.ctx.stop_at = op_stop_at;
  }
  a.stop = stop.ptr;
  if (st >= 0) st = ops->levels(dev, &s.ws, &a, &s.ctx);
  if (st >= 0) {
    /* The frontier left is in queue a.out_queue: fetched as the output. */
    void *own = s.out.ptr;
    s.out.ptr = a.out_queue ? second.ptr : s.in.ptr;
    st = state_fetch(&s, dev, g->n, a.n_out, r);
    s.out.ptr = own;
  }
  if (st >= 0) {
    r->levels = a.levels;
    r->level_sizes = malloc((size_t)max_levels * sizeof(gr_eid));
    if (!r->level_sizes) st = GR_ERR_HOST_OOM;
  }
  if (st >= 0 && a.levels) st = gr_device_copy(dev, r->level_sizes, sizes.ptr, (size_t)a.levels * sizeof(gr_eid), GR_COPY_D2H);
  if (st >= 0 && trail.ptr) {
    for (int l = 0; l < a.levels; l++) r->n_trail += r->level_sizes[l];
    r->trail = malloc(((size_t)r->n_trail + 1) * sizeof(gr_vid));
    if (!r->trail) st = GR_ERR_HOST_OOM;
    if (st >= 0 && r->n_trail)
      st = gr_device_copy(dev, r->trail, trail.ptr, (size_t)r->n_trail * sizeof(gr_vid), GR_COPY_D2H);
  }
  r->edges = a.edges;
  r->out_edges = a.out_edges;
  r->out_max_degree = a.out_max_degree;
  gr_buffer_release(&second);
  gr_buffer_release(&sizes);
  gr_buffer_release(&trail);
  gr_buffer_release(&stop);
  state_free(&s);
  drop(&dg);
  return st;
}

bool op_same_split(const op_result *a, const op_result *b) {
  return a->n_out == b->n_out && a->n_remaining == b->n_remaining &&
         !memcmp(a->out, b->out, (size_t)a->n_out * sizeof(gr_vid)) &&
         !memcmp(a->remaining, b->remaining, (size_t)a->n_remaining * sizeof(gr_vid));
}

bool op_split_filled(const op_result *r, gr_eid want0, gr_eid want1, gr_eid cap0, gr_eid cap1, gr_vid modulus) {
  if (r->counted[0] != want0 || r->counted[1] != want1 || r->overran) return false;
  if (r->n_out != (want0 < cap0 ? want0 : cap0) || r->n_remaining != (want1 < cap1 ? want1 : cap1)) return false;
  for (gr_eid i = 0; i < r->n_out; i++)
    if (r->out[i] % modulus != 0) return false;
  return true;
}

gr_status op_run_split(const test_ops *ops, gr_device *dev, gr_vid universe, const gr_vid *in, gr_eid n,
                       gr_vid modulus, gr_eid cap0, gr_eid cap1, op_result *r) {
  return op_run_split_range(ops, dev, universe, 0, 0, in, n, modulus, cap0, cap1, r);
}

gr_status op_run_split_range(const test_ops *ops, gr_device *dev, gr_vid universe, gr_vid first, gr_eid n_first,
                             const gr_vid *in, gr_eid n, gr_vid modulus, gr_eid cap0, gr_eid cap1, op_result *r) {
  memset(r, 0, sizeof *r);
  dev_state s;
  gr_buffer second = GR_BUFFER_INIT;
  gr_status st = state_init(&s, dev, universe, in, 0);
  if (st >= 0) st = gr_buffer_resize(&s.in, dev, ((size_t)n + 1) * sizeof(gr_vid), 0, "in");
  if (st >= 0) st = gr_buffer_resize(&s.out, dev, ((size_t)cap0 + 1) * sizeof(gr_vid), 0, "out");
  if (st >= 0) st = gr_buffer_resize(&second, dev, ((size_t)cap1 + 1) * sizeof(gr_vid), 0, "second out");
  if (st >= 0 && in) st = gr_device_copy(dev, s.in.ptr, in, (size_t)(n - n_first) * sizeof(gr_vid), GR_COPY_H2D);
  s.ctx.modulus = modulus;
  /* A guard word past each output's capacity: written, the pass overran. */
  const gr_vid guard = (gr_vid)0x5a5a5a5a;
  gr_vid *ends[2] = {(gr_vid *)s.out.ptr + cap0, (gr_vid *)second.ptr + cap1};
  for (int k = 0; k < 2 && st >= 0; k++) st = gr_device_copy(dev, ends[k], &guard, sizeof guard, GR_COPY_H2D);
  gr_split_args a = {in ? s.in.ptr : NULL, n, {s.out.ptr, second.ptr}, {cap0, cap1}, {0, 0}, first, n_first,
                     op_count_past, NULL, NULL};
  /* op_set_split_later: the size on the device under a larger bound
   * (what a list past it holds must not be read: ids of every class
   * there), the counts left in two words behind it, zeroed. */
  gr_buffer later = GR_BUFFER_INIT;
  const gr_eid held[3] = {n, 0, 0};
  if (op_later) {
    a.n_in = n + op_later_slack;
    if (st >= 0) st = gr_buffer_resize(&later, dev, sizeof held, 0, "split's size and counts");
    if (st >= 0) st = gr_device_copy(dev, later.ptr, held, sizeof held, GR_COPY_H2D);
    if (st >= 0 && in && op_later_slack) st = gr_buffer_resize(&s.in, dev, ((size_t)a.n_in + 1) * sizeof(gr_vid), 1, "in");
    if (st >= 0 && in && op_later_slack) {
      gr_vid *past = malloc((size_t)op_later_slack * sizeof(gr_vid));
      if (!past) st = GR_ERR_HOST_OOM;
      for (gr_eid i = 0; past && i < op_later_slack; i++) past[i] = (gr_vid)(i % universe); /* every class */
      if (st >= 0)
        st = gr_device_copy(dev, (gr_vid *)s.in.ptr + (n - n_first), past, (size_t)op_later_slack * sizeof(gr_vid),
                            GR_COPY_H2D);
      free(past);
    }
    a.in = in ? s.in.ptr : NULL;
    a.n_in_at = later.ptr;
    a.counts_at = (gr_eid *)later.ptr + 1;
  }
  const uint64_t waits = gr_device_activity_get().waits;
  if (st >= 0) st = ops->split(dev, &s.ws, &a, &s.ctx);
  if (op_later && st >= 0) {
    gr_eid got[3] = {0, 0, 0};
    /* A pass that waited for the device, or gave counts of its own, read
     * them back. */
    if (a.n_out[0] || a.n_out[1] || gr_device_activity_get().waits != waits) r->later_read = true;
    st = gr_device_copy(dev, got, later.ptr, sizeof got, GR_COPY_D2H);
    a.n_out[0] = got[1];
    a.n_out[1] = got[2];
  }
  gr_buffer_release(&later);
  const gr_eid written0 = a.n_out[0] < cap0 ? a.n_out[0] : cap0, written1 = a.n_out[1] < cap1 ? a.n_out[1] : cap1;
  r->counted[0] = a.n_out[0];
  r->counted[1] = a.n_out[1];
  if (st >= 0) st = state_fetch(&s, dev, universe, written0, r);
  if (st >= 0) {
    r->n_remaining = written1;
    r->remaining = malloc(((size_t)written1 + 1) * sizeof(gr_vid));
    if (!r->remaining) st = GR_ERR_HOST_OOM;
  }
  if (st >= 0) st = gr_device_copy(dev, r->remaining, second.ptr, (size_t)written1 * sizeof(gr_vid), GR_COPY_D2H);
  if (st >= 0) qsort(r->remaining, (size_t)written1, sizeof(gr_vid), cmp_vid);
  for (int k = 0; k < 2 && st >= 0; k++) {
    gr_vid w = 0;
    st = gr_device_copy(dev, &w, ends[k], sizeof w, GR_COPY_D2H);
    if (w != guard) r->overran = true;
  }
  gr_buffer_release(&second);
  state_free(&s);
  return st;
}

gr_status op_run_for_each(const test_ops *ops, gr_device *dev, gr_vid universe, const gr_vid *in,
                          gr_eid n, op_result *r) {
  return op_run_for_each_from(ops, dev, universe, in, n, 0, r);
}

gr_status op_run_for_each_from(const test_ops *ops, gr_device *dev, gr_vid universe, const gr_vid *in, gr_eid n,
                               gr_vid first, op_result *r) {
  memset(r, 0, sizeof *r);
  dev_state s;
  gr_status st = state_init(&s, dev, universe, in, in ? n : 0);
  gr_for_each_args a = {in ? s.in.ptr : NULL, n, first};
  if (st >= 0) st = ops->for_each(dev, &s.ws, &a, &s.ctx);
  if (st >= 0) st = gr_device_sync(dev);
  if (st >= 0) st = state_fetch(&s, dev, universe, 0, r);
  state_free(&s);
  return st;
}

gr_status op_run_roundtrip(gr_device *dev, gr_vid universe, const gr_vid *in, gr_eid n, op_result *r) {
  memset(r, 0, sizeof *r);
  gr_workspace ws;
  gr_frontier f;
  gr_frontier_init(&f, universe);
  gr_status st = gr_workspace_init(&ws, dev, NULL);
  if (st >= 0) st = gr_frontier_assign(&f, dev, in, n);
  if (st >= 0) st = gr_frontier_queue_to_bitmap(&f, dev, &ws);
  f.size = 0;
  if (st >= 0) st = gr_frontier_bitmap_to_queue(&f, dev, &ws);
  if (st >= 0) {
    r->n_out = f.size;
    r->out = malloc(((size_t)f.size + 1) * sizeof(gr_vid));
    st = r->out ? gr_frontier_download(&f, dev, r->out) : GR_ERR_HOST_OOM;
  }
  gr_frontier_release(&f);
  gr_workspace_release(&ws);
  return st;
}

#include "gr/util.h"

static gr_status or_at(gr_device *dev, const uint32_t *dst, const uint32_t *src, size_t words, size_t off,
                       uint32_t *out) {
  const size_t bytes = (off + words + 1) * sizeof(uint32_t);
  gr_buffer d = GR_BUFFER_INIT, s = GR_BUFFER_INIT;
  gr_status st = gr_buffer_resize(&d, dev, bytes, 0, "or: dst");
  if (st >= 0) st = gr_buffer_resize(&s, dev, bytes, 0, "or: src");
  if (st >= 0) st = gr_device_memset(dev, d.ptr, 0, bytes);
  if (st >= 0) st = gr_device_memset(dev, s.ptr, 0xff, bytes);
  uint32_t *dw = (uint32_t *)d.ptr + off, *sw = (uint32_t *)s.ptr + off;
  if (st >= 0) st = gr_device_copy(dev, dw, dst, words * sizeof(uint32_t), GR_COPY_H2D);
  if (st >= 0) st = gr_device_copy(dev, sw, src, words * sizeof(uint32_t), GR_COPY_H2D);
  if (st >= 0) st = gr_bitmap_or(dev, dw, sw, words);
  if (st >= 0) st = gr_device_copy(dev, out, dw, (words + 1) * sizeof(uint32_t), GR_COPY_D2H);
  gr_buffer_release(&d);
  gr_buffer_release(&s);
  return st;
}

gr_status op_check_bitmap_or(gr_device *dev, size_t words, uint64_t seed) {
  uint32_t *dst = malloc(words * sizeof *dst), *src = malloc(words * sizeof *src),
           *out = malloc((words + 1) * sizeof *out);
  gr_status st = dst && src && out ? GR_SUCCESS : GR_ERR_HOST_OOM;
  for (size_t k = 0; st >= 0 && k < words; k++) {
    dst[k] = (uint32_t)gr_rand64(seed, 1, k);
    src[k] = (uint32_t)gr_rand64(seed, 2, k);
  }
  for (size_t off = 0; st >= 0 && off < 2; off++) {
    st = or_at(dev, dst, src, words, off, out);
    for (size_t k = 0; st >= 0 && k <= words; k++) {
      const uint32_t want = k < words ? dst[k] | src[k] : 0u;
      if (out[k] != want)
        st = gr_errorf(GR_ERR_INTERNAL, "or of %zu words at offset %zu: word %zu is %08x, want %08x", words, off, k,
                       out[k], want);
    }
  }
  free(dst);
  free(src);
  free(out);
  return st;
}

gr_status op_check_ids_map(gr_device *dev, gr_eid n, gr_vid n_table, gr_vid limit, uint64_t seed) {
  /* Table entries below limit, at or past it, and GR_NO_VERTEX; ids within
   * the table and (one in 97) past it. */
  gr_vid *table = malloc(((size_t)n_table + 1) * sizeof *table), *ids = malloc(((size_t)n + 1) * sizeof *ids),
         *out = malloc(((size_t)n + 1) * sizeof *out);
  gr_buffer t = GR_BUFFER_INIT, d = GR_BUFFER_INIT, b = GR_BUFFER_INIT;
  gr_status st = table && ids && out ? GR_SUCCESS : GR_ERR_HOST_OOM;
  for (gr_vid v = 0; st >= 0 && v < n_table; v++) {
    const uint64_t r = gr_rand64(seed, 1, v);
    table[v] = r % 13 == 0 ? GR_NO_VERTEX : r % 11 == 0 ? limit + (gr_vid)(r % 5) : (gr_vid)(r % (limit ? limit : 1));
  }
  unsigned long long want_bad = 0, bad = 5;
  for (gr_eid e = 0; st >= 0 && e < n; e++) {
    const uint64_t r = gr_rand64(seed, 2, e);
    ids[e] = r % 97 == 0 ? n_table + (gr_vid)(r % 3) : (gr_vid)(r % (n_table ? n_table : 1));
    const bool ok = ids[e] < n_table && table[ids[e]] < limit;
    want_bad += !ok;
  }
  const size_t ib = ((size_t)n + 1) * sizeof(gr_vid);
  if (st >= 0) st = gr_buffer_resize(&t, dev, ((size_t)n_table + 1) * sizeof(gr_vid), 0, "ids map: table");
  if (st >= 0) st = gr_buffer_resize(&d, dev, ib, 0, "ids map: ids");
  if (st >= 0) st = gr_buffer_resize(&b, dev, sizeof bad, 0, "ids map: count");
  if (st >= 0 && n_table) st = gr_device_copy(dev, t.ptr, table, (size_t)n_table * sizeof(gr_vid), GR_COPY_H2D);
  /* A guard past the last id: nothing writes it. */
  if (st >= 0) st = gr_device_memset(dev, d.ptr, 0x5a, ib);
  if (st >= 0 && n) st = gr_device_copy(dev, d.ptr, ids, (size_t)n * sizeof(gr_vid), GR_COPY_H2D);
  /* The count is added to, not set. */
  if (st >= 0) st = gr_device_copy(dev, b.ptr, &bad, sizeof bad, GR_COPY_H2D);
  if (st >= 0) st = gr_ids_map(dev, (gr_vid *)d.ptr, n, (const gr_vid *)t.ptr, n_table, limit,
                               (unsigned long long *)b.ptr);
  if (st >= 0) st = gr_device_copy(dev, out, d.ptr, ib, GR_COPY_D2H);
  if (st >= 0) st = gr_device_copy(dev, &bad, b.ptr, sizeof bad, GR_COPY_D2H);
  for (gr_eid e = 0; st >= 0 && e < n; e++) {
    const gr_vid want = ids[e] < n_table && table[ids[e]] < limit ? table[ids[e]] : 0;
    if (out[e] != want)
      st = gr_errorf(GR_ERR_INTERNAL, "ids map of %llu ids: id %llu (%llu) became %llu, want %llu",
                     (unsigned long long)n, (unsigned long long)e, (unsigned long long)ids[e],
                     (unsigned long long)out[e], (unsigned long long)want);
  }
  gr_vid guard;
  memset(&guard, 0x5a, sizeof guard);
  if (st >= 0 && out[n] != guard) st = gr_errorf(GR_ERR_INTERNAL, "ids map of %llu ids wrote past them", (unsigned long long)n);
  if (st >= 0 && bad != 5 + want_bad)
    st = gr_errorf(GR_ERR_INTERNAL, "ids map of %llu ids: %llu counted without a local id, want %llu",
                   (unsigned long long)n, bad - 5, want_bad);
  gr_buffer_release(&t);
  gr_buffer_release(&d);
  gr_buffer_release(&b);
  free(table);
  free(ids);
  free(out);
  return st;
}

static gr_status build_csr(gr_csr *c, gr_vid n, gr_eid m, const gr_vid *src, const gr_vid *dst) {
  memset(c, 0, sizeof *c);
  c->n = n;
  c->m = m;
  c->offsets = calloc((size_t)n + 1, sizeof(gr_eid));
  c->indices = malloc((size_t)m * sizeof(gr_vid) + 1);
  if (!c->offsets || !c->indices) return GR_ERR_HOST_OOM;
  for (gr_eid i = 0; i < m; i++) c->offsets[src[i] + 1]++;
  for (gr_vid v = 0; v < n; v++) c->offsets[v + 1] += c->offsets[v];
  gr_eid *pos = malloc(((size_t)n + 1) * sizeof(gr_eid));
  if (!pos) return GR_ERR_HOST_OOM;
  memcpy(pos, c->offsets, ((size_t)n + 1) * sizeof(gr_eid));
  for (gr_eid i = 0; i < m; i++) c->indices[pos[src[i]]++] = dst[i];
  free(pos);
  return GR_SUCCESS;
}

gr_status op_random_graph(gr_csr *out, gr_csr *in, gr_vid n, gr_eid m, uint64_t seed) {
  /* Besides the random edges (degrees ~ m/n): one hub of n/2 edges, and
   * 1,000 vertices of 32 to 330 extra edges (the middle degrees that
   * operators may map to a warp). */
  gr_eid hub = n / 2, mid_n = n > 2000 ? 1000 : 0, mid = 0;
  for (gr_eid i = 0; i < mid_n; i++) mid += 32 + (i * 37) % 300;
  gr_eid total = m + hub + mid;
  gr_vid *s = malloc((size_t)total * sizeof(gr_vid) + 1), *d = malloc((size_t)total * sizeof(gr_vid) + 1);
  if (!s || !d) return GR_ERR_HOST_OOM;
  for (gr_eid i = 0; i < m; i++) {
    s[i] = (gr_vid)(gr_rand64(seed, 1, i) % n);
    d[i] = (gr_vid)(gr_rand64(seed, 2, i) % n);
  }
  for (gr_eid i = 0; i < hub; i++) {
    s[m + i] = 0;
    d[m + i] = (gr_vid)(2 * i % n);
  }
  gr_eid k = m + hub;
  for (gr_eid i = 0; i < mid_n; i++)
    for (gr_eid j = 0; j < 32 + (i * 37) % 300; j++, k++) {
      s[k] = (gr_vid)(1 + i);
      d[k] = (gr_vid)(gr_rand64(seed, 4, k) % n);
    }
  gr_status st = build_csr(out, n, total, s, d);
  if (st >= 0) st = build_csr(in, n, total, d, s);
  free(s);
  free(d);
  return st;
}

void op_graph_free(gr_csr *c) {
  free(c->offsets);
  free(c->indices);
  memset(c, 0, sizeof *c);
}

void op_shuffle(gr_vid *v, gr_eid n, uint64_t seed) {
  for (gr_eid i = n > 0 ? n - 1 : 0; i > 0; i--) {
    const gr_eid j = (gr_eid)(gr_rand64(seed, 5, i) % (i + 1));
    const gr_vid t = v[i];
    v[i] = v[j];
    v[j] = t;
  }
}

gr_vid *op_random_set(gr_vid n, gr_eid k, uint64_t seed) {
  unsigned char *taken = calloc(n ? n : 1, 1);
  gr_vid *out = malloc(((size_t)k + 1) * sizeof(gr_vid));
  if (!taken || !out) {
    free(taken);
    free(out);
    return NULL;
  }
  gr_eid got = 0;
  for (uint64_t i = 0; got < k; i++) {
    gr_vid v = (gr_vid)(gr_rand64(seed, 3, i) % n);
    if (!taken[v]) {
      taken[v] = 1;
      got++;
    }
  }
  got = 0;
  for (gr_vid v = 0; v < n; v++)
    if (taken[v]) out[got++] = v;
  free(taken);
  return out;
}

gr_status op_run_decode(gr_device *dev, const gr_csr *g, op_decode_fn decode, int pattern, gr_vid *out) {
  dev_graph dg;
  gr_buffer o = GR_BUFFER_INIT;
  const bool was = op_packed;
  op_packed = true;
  gr_status st = upload(dev, g, &dg);
  op_packed = was;
  const size_t ob = ((size_t)g->m + 1) * sizeof(gr_vid);
  if (st >= 0) st = gr_buffer_resize(&o, dev, ob, 0, "decoded ids");
  if (st >= 0) st = gr_device_memset(dev, o.ptr, 0xff, ob);
  if (st >= 0) st = decode(dev, &dg.c, pattern, o.ptr);
  if (st >= 0) st = gr_device_copy(dev, out, o.ptr, (size_t)g->m * sizeof(gr_vid), GR_COPY_D2H);
  gr_buffer_release(&o);
  drop(&dg);
  return st;
}
