/* SPDX-License-Identifier: Apache-2.0 */
/* BC as a primitive spec (the algorithm: bc.h). One run takes its sources
 * one after another; each source is a forward pass (one iteration per
 * level) then a backward pass (one iteration per level, deepest first),
 * and the next source starts in the iteration that ends the last one's.
 * Every device takes the same turns: the forward pass ends when the
 * frontier of all devices is empty (gr_iter.global_in), so all of them
 * know the same number of levels. While a run has work left each device
 * reports it pending, since the backward pass moves no frontier on one
 * device. */
#include <stdlib.h>
#include <string.h>

#include "bc/bc.h"
#include "gr/util.h"

typedef enum { GR__BC_FORWARD, GR__BC_BACKWARD, GR__BC_DONE } gr__bc_phase;

typedef struct gr__bc_slice {
  gr_buffer depth, sigma, acc, coef, bc, xfer, mark;
  gr_buffer owners;
  const uint8_t *owner_table;
  gr_vid owned_first;
  gr_buffer stack;       /* the owned vertices of each level, level after level */
  gr_eid stack_capacity; /* items */
  gr_eid *level_start;   /* host: level k is stack[level_start[k], level_start[k + 1]) */
  /* One device: each level's in-edges (sum, largest), measured while the
   * forward pass emitted it, for the backward advance (and, where the CSC
   * is the CSR, for the forward one); 0/0 where unknown. */
  gr_eid *level_edges, *level_max;
  int level_capacity;
  bool multi;
  gr__bc_phase phase;
  int level;             /* forward: the frontier's depth; backward: the level to compute */
  int levels;            /* levels of the current source's forward pass */
  int32_t stamp;
  gr_vid next_source;    /* index in the run's sources */
  gr_vid n_sources;
  gr_run_args args;      /* the run's sources (the list is the caller's, alive for the run) */
  gr_vid source;         /* the current source (global id) */
  int last_levels;       /* statistics of the last source */
} gr__bc_slice;

const gr_bc_ops *gr__bc_ops(const gr_device *dev) {
#ifdef GR_HAVE_CUDA
  if (gr_device_backend(dev) == GR_BACKEND_CUDA) return &gr__bc_ops_cuda;
#endif
  (void)dev;
  return &gr__bc_ops_cpu;
}

double gr_bc_normalizer(gr_vid n, gr_vid sources) {
  if (n <= 2 || sources == 0) return 1.0;
  return ((double)n / (double)sources) / ((double)(n - 1) * (double)(n - 2));
}

static void gr__bc_release_buffers(gr__bc_slice *s) {
  gr_buffer *b[] = {&s->depth, &s->sigma, &s->acc, &s->coef, &s->bc, &s->xfer, &s->mark, &s->owners, &s->stack};
  for (size_t i = 0; i < sizeof b / sizeof *b; i++) gr_buffer_release(b[i]);
  free(s->level_start);
  free(s->level_edges);
  free(s->level_max);
  s->level_start = s->level_edges = s->level_max = NULL;
}

static gr_status bc_init(void **slice, gr_part *p) {
  gr__bc_slice *s = NULL;
  gr_status st = GR_SUCCESS;
  if (!p->in.offsets) return gr_errorf(GR_ERR_INTERNAL, "bc needs the in-edges of part %d", p->index);
  GR_CHECK(gr_host_calloc((void **)&s, 1, sizeof *s, "bc state"));
  const gr_vid n = p->sub->n_local;
  const size_t slots = n ? (size_t)n : 1;
  s->multi = p->count > 1;
  GR_CHECK_GOTO(gr_buffer_resize(&s->depth, p->dev, slots * sizeof(gr_svid), 0, "bc depths"), st, fail);
  GR_CHECK_GOTO(gr_buffer_resize(&s->sigma, p->dev, slots * sizeof(double), 0, "bc path counts"), st, fail);
  GR_CHECK_GOTO(gr_buffer_resize(&s->acc, p->dev, slots * sizeof(double), 0, "bc successor sums"), st, fail);
  GR_CHECK_GOTO(gr_buffer_resize(&s->coef, p->dev, slots * sizeof(double), 0, "bc coefficients"), st, fail);
  GR_CHECK_GOTO(gr_buffer_resize(&s->bc, p->dev, slots * sizeof(double), 0, "bc centralities"), st, fail);
  if (s->multi) {
    GR_CHECK_GOTO(gr_buffer_resize(&s->xfer, p->dev, slots * sizeof(double), 0, "bc exchanged sums"), st, fail);
    GR_CHECK_GOTO(gr_buffer_resize(&s->mark, p->dev, slots * sizeof(int32_t), 0, "bc proxy stamps"), st, fail);
    GR_CHECK_GOTO(gr_part_owners(p, &s->owners, &s->owner_table, &s->owned_first), st, fail);
  }
  /* Each owned vertex joins one level per source. */
  s->stack_capacity = p->sub->n_owned ? p->sub->n_owned : 1;
  GR_CHECK_GOTO(gr_buffer_resize(&s->stack, p->dev, (size_t)s->stack_capacity * sizeof(gr_vid), 0, "bc levels"), st,
                fail);
  s->level_capacity = 64;
  GR_CHECK_GOTO(gr_host_alloc((void **)&s->level_start, (size_t)s->level_capacity * sizeof(gr_eid), "bc levels"), st,
                fail);
  GR_CHECK_GOTO(gr_host_alloc((void **)&s->level_edges, (size_t)s->level_capacity * sizeof(gr_eid), "bc levels"), st,
                fail);
  GR_CHECK_GOTO(gr_host_alloc((void **)&s->level_max, (size_t)s->level_capacity * sizeof(gr_eid), "bc levels"), st,
                fail);
  *slice = s;
  return GR_SUCCESS;
fail:
  gr__bc_release_buffers(s);
  free(s);
  return st;
}

static void bc_release(void *slice, gr_part *p) {
  (void)p;
  gr__bc_slice *s = slice;
  gr__bc_release_buffers(s);
  free(s);
}

static gr_bc_ctx gr__bc_ctx(gr__bc_slice *s, const gr_part *p) {
  gr_bc_ctx c;
  memset(&c, 0, sizeof c);
  c.depth = s->depth.ptr;
  c.sigma = s->sigma.ptr;
  c.acc = s->acc.ptr;
  c.coef = s->coef.ptr;
  c.bc = s->bc.ptr;
  c.xfer = s->xfer.ptr;
  c.mark = s->mark.ptr;
  c.owner = s->owner_table;
  c.owned_first = s->owned_first;
  c.me = p->index;
  c.scale = 1.0;
  return c;
}

/* Room for level k's start (and k + 1's end). */
static gr_status gr__bc_level_room(gr__bc_slice *s, int k) {
  if (k + 1 < s->level_capacity) return GR_SUCCESS;
  const int cap = 2 * (k + 1);
  gr_eid **arrays[] = {&s->level_start, &s->level_edges, &s->level_max};
  for (int i = 0; i < 3; i++) {
    gr_eid *x = realloc(*arrays[i], (size_t)cap * sizeof *x);
    if (!x) return gr_errorf(GR_ERR_HOST_OOM, "bc levels: %d entries", cap);
    *arrays[i] = x;
  }
  s->level_capacity = cap;
  return GR_SUCCESS;
}

/* Starts the source of index s->next_source: every device clears the
 * per-source state; its owner gives it depth 0 and one path and puts it
 * into `first` (the next iteration's input). */
static gr_status gr__bc_start_source(gr__bc_slice *s, gr_part *p, gr_frontier *first) {
  const gr_vid n = p->sub->n_local;
  s->source = gr_bc_source(&s->args, s->next_source);
  s->next_source++;
  s->phase = GR__BC_FORWARD;
  s->level = 0;
  s->levels = 0;
  s->level_start[0] = 0;
  s->level_edges[0] = s->level_max[0] = 0;
  first->size = 0;
  /* Every byte 0xff is -1 in two's complement: "unvisited". */
  GR_CHECK(gr_device_memset(p->dev, s->depth.ptr, 0xff, (size_t)n * sizeof(gr_svid)));
  GR_CHECK(gr_device_memset(p->dev, s->sigma.ptr, 0, (size_t)n * sizeof(double)));
  gr_vid src = 0;
  if (!gr_subgraph_local(p->sub, s->source, &src) || !gr_subgraph_owns(p->sub, src)) return GR_SUCCESS;
  const gr_svid zero = 0;
  const double one = 1.0;
  GR_CHECK(gr_device_copy(p->dev, (gr_svid *)s->depth.ptr + src, &zero, sizeof zero, GR_COPY_H2D));
  GR_CHECK(gr_device_copy(p->dev, (double *)s->sigma.ptr + src, &one, sizeof one, GR_COPY_H2D));
  GR_CHECK(gr_frontier_assign(first, p->dev, &src, 1));
  /* The source's in-edges from the host's copy of the offsets. */
  if (p->sub->in.offsets) s->level_edges[0] = s->level_max[0] = p->sub->in.offsets[src + 1] - p->sub->in.offsets[src];
  return gr_device_sync(p->dev);
}

static gr_status bc_reset(void *slice, gr_part *p, const gr_run_args *a, gr_frontier *first) {
  gr__bc_slice *s = slice;
  const gr_vid n = p->sub->n_local;
  const size_t slots = n ? (size_t)n : 1;
  s->n_sources = gr_bc_source_count(a);
  if (s->n_sources == 0) return gr_errorf(GR_ERR_INVALID_ARG, "bc needs at least one source");
  for (gr_vid i = 0; i < s->n_sources; i++)
    if (gr_bc_source(a, i) >= p->sub->n_global)
      return gr_errorf(GR_ERR_INVALID_ARG, "bc source %llu outside 0..%llu",
                       (unsigned long long)gr_bc_source(a, i), (unsigned long long)p->sub->n_global - 1);
  s->args = *a;
  s->next_source = 0;
  s->stamp = 0;
  s->last_levels = 0;
  GR_CHECK(gr_device_memset(p->dev, s->bc.ptr, 0, slots * sizeof(double)));
  GR_CHECK(gr_device_memset(p->dev, s->acc.ptr, 0, slots * sizeof(double)));
  if (s->multi) {
    GR_CHECK(gr_device_memset(p->dev, s->xfer.ptr, 0, slots * sizeof(double)));
    GR_CHECK(gr_device_memset(p->dev, s->mark.ptr, 0xff, slots * sizeof(int32_t)));
  }
  /* A level or a backward message holds each local vertex at most once. */
  if (gr_frontier_capacity(first) < slots) GR_CHECK(gr_frontier_reserve(first, p->dev, slots, 0, &p->mem));
  return gr__bc_start_source(s, p, first);
}

/* One forward level: the input (between devices: merged, keeping the
 * vertices of this depth) is stored as the level and advanced. */
static gr_status gr__bc_forward(gr__bc_slice *s, gr_part *p, gr_iter *it) {
  const gr_bc_ops *ops = gr__bc_ops(p->dev);
  const int k = s->level;
  GR_CHECK(gr__bc_level_room(s, k + 1));
  gr_bc_ctx c = gr__bc_ctx(s, p);
  c.level = k;
  const gr_eid start = s->level_start[k];
  gr_vid *level = (gr_vid *)s->stack.ptr + start;
  gr_eid n_level = 0;
  if (s->multi) {
    gr_filter_args f;
    memset(&f, 0, sizeof f);
    f.in = gr_frontier_items(it->in);
    f.n_in = it->in->size;
    f.out = level;
    f.out_capacity = s->stack_capacity - start;
    GR_CHECK(ops->forward_merge(p->dev, p->ws, &f, &c));
    n_level = f.n_out;
  } else {
    n_level = it->in->size;
    if (n_level > s->stack_capacity - start)
      return gr_errorf(GR_ERR_INTERNAL, "bc level %d holds %llu vertices, %llu fit", k, (unsigned long long)n_level,
                       (unsigned long long)(s->stack_capacity - start));
    if (n_level)
      GR_CHECK(gr_device_copy(p->dev, level, gr_frontier_items(it->in), (size_t)n_level * sizeof(gr_vid),
                              GR_COPY_D2D));
  }
  s->level_start[k + 1] = start + n_level;
  s->levels = k + 1;
  s->level = k + 1;
  gr_advance_push_args a;
  memset(&a, 0, sizeof a);
  a.g = &p->out;
  a.in = level;
  a.n_in = n_level;
  a.out = gr_frontier_items(it->out);
  a.out_capacity = gr_frontier_capacity(it->out);
  /* The advance sizes its work from the input's out-edges when known:
   * between devices the exchange measured the input (the merge only drops
   * vertices, so they bound the level's); on one device the last level
   * measured what it emitted over the CSC, which is the CSR of an
   * undirected graph. */
  const bool same = p->in.offsets == p->out.offsets;
  if (s->multi && it->in_measured) {
    a.in_known = true;
    a.in_edges = it->in_edges;
    a.in_max_degree = it->in_max_degree;
  } else if (!s->multi && same && (k == 0 || s->level_edges[k] > 0)) {
    a.in_known = true;
    a.in_edges = s->level_edges[k];
    a.in_max_degree = s->level_max[k];
  }
  if (!s->multi) a.next_offsets = p->in.offsets;
  GR_CHECK(ops->forward(p->dev, p->ws, &a, &c));
  if (!s->multi) {
    s->level_edges[k + 1] = a.out_edges;
    s->level_max[k + 1] = a.out_max_degree;
  }
  it->out->size = a.n_out;
  it->edges += a.edges;
  it->tag = 'F';
  if (s->multi && a.n_out) {
    gr_for_each_args e = {gr_frontier_items(it->out), a.n_out};
    GR_CHECK(ops->forward_publish(p->dev, p->ws, &e, &c));
  }
  return GR_SUCCESS;
}

/* One backward level d = s->level (>= 1): what peers sent for it merged,
 * its vertices' dependencies computed, and (d >= 2) their coefficients
 * pushed to level d - 1. */
static gr_status gr__bc_backward(gr__bc_slice *s, gr_part *p, gr_iter *it) {
  const gr_bc_ops *ops = gr__bc_ops(p->dev);
  const int d = s->level;
  gr_bc_ctx c = gr__bc_ctx(s, p);
  c.level = d;
  if (s->multi && it->in->size) {
    gr_for_each_args m = {gr_frontier_items(it->in), it->in->size};
    GR_CHECK(ops->backward_merge(p->dev, p->ws, &m, &c));
  }
  const gr_eid start = s->level_start[d], n_level = s->level_start[d + 1] - start;
  gr_vid *level = (gr_vid *)s->stack.ptr + start;
  gr_for_each_args e = {level, n_level};
  GR_CHECK(ops->backward_compute(p->dev, p->ws, &e, &c));
  it->tag = 'B';
  if (d < 2) return GR_SUCCESS; /* level 0 is the source: it takes no dependency */
  if (s->multi && s->stamp == INT32_MAX) {
    /* Stamps ran out (2^31 levels in one run): start them again. */
    GR_CHECK(gr_device_memset(p->dev, s->mark.ptr, 0xff, (size_t)p->sub->n_local * sizeof(int32_t)));
    s->stamp = 0;
  }
  c.stamp = s->stamp++;
  gr_advance_push_args a;
  memset(&a, 0, sizeof a);
  a.g = &p->in;
  a.in = level;
  a.n_in = n_level;
  if (!s->multi) {
    /* Measured over the CSC while the forward pass emitted the level. */
    a.in_known = true;
    a.in_edges = s->level_edges[d];
    a.in_max_degree = s->level_max[d];
  }
  a.out = gr_frontier_items(it->out);
  a.out_capacity = gr_frontier_capacity(it->out);
  GR_CHECK(ops->backward(p->dev, p->ws, &a, &c));
  it->out->size = a.n_out;
  it->edges += a.edges;
  if (s->multi && a.n_out) {
    gr_for_each_args o = {gr_frontier_items(it->out), a.n_out};
    GR_CHECK(ops->backward_publish(p->dev, p->ws, &o, &c));
  }
  return GR_SUCCESS;
}

/* After the last source: the scale of --normalize on every vertex. */
static gr_status gr__bc_finish_run(gr__bc_slice *s, gr_part *p) {
  s->phase = GR__BC_DONE;
  if (!p->opts->normalize) return GR_SUCCESS;
  gr_bc_ctx c = gr__bc_ctx(s, p);
  c.scale = gr_bc_normalizer(p->sub->n_global, s->n_sources);
  gr_for_each_args all = {NULL, p->sub->n_local};
  return gr__bc_ops(p->dev)->scale(p->dev, p->ws, &all, &c);
}

static gr_status bc_iterate(void *slice, gr_part *p, gr_iter *it) {
  gr__bc_slice *s = slice;
  const gr_vid n = p->sub->n_local;
  const gr_eid room = n ? n : 1;
  if (gr_frontier_capacity(it->out) < room) GR_CHECK(gr_frontier_reserve(it->out, p->dev, room, 0, &p->mem));
  it->out->size = 0;
  if (s->phase == GR__BC_DONE) return GR_SUCCESS;
  if (s->phase == GR__BC_FORWARD) {
    if (it->global_in > 0) {
      it->pending = 1;
      return gr__bc_forward(s, p, it);
    }
    /* No device has a frontier: the deepest level is the last one stored. */
    s->phase = GR__BC_BACKWARD;
    s->level = s->levels - 1;
    s->last_levels = s->levels;
  }
  if (s->level >= 1) {
    GR_CHECK(gr__bc_backward(s, p, it));
    s->level--;
  }
  if (s->level >= 1) {
    it->pending = 1;
    return GR_SUCCESS;
  }
  /* This source is done: the next one starts from this iteration's output. */
  if (s->next_source < s->n_sources) {
    it->pending = 1;
    return gr__bc_start_source(s, p, it->out);
  }
  return gr__bc_finish_run(s, p);
}

static gr_status bc_payload(void *slice, gr_part *p, gr_payload *out) {
  (void)p;
  gr__bc_slice *s = slice;
  memset(out, 0, sizeof *out);
  out->n_values = 1;
  out->values[0] = s->xfer.ptr;
  return GR_SUCCESS;
}

static gr_status bc_extract(void *slice, gr_part *p, gr_result *r) {
  gr__bc_slice *s = slice;
  GR_CHECK(gr_part_gather_double(p, s->bc.ptr, r->values));
  if (r->aux.n == 2) {
    GR_CHECK(gr_part_gather_svid(p, s->depth.ptr, r->aux_values[0]));
    GR_CHECK(gr_part_gather_double(p, s->sigma.ptr, r->aux_values[1]));
  }
  if (p->index != 0) return GR_SUCCESS;
  gr_extra *x = &r->extra;
  gr_extra_free(x);
  static const char *const names[] = {"sources", "levels", "normalized"};
  const double values[] = {(double)s->n_sources, (double)s->last_levels, p->opts->normalize ? 1.0 : 0.0};
  for (int k = 0; k < 3; k++) {
    x->number_names[k] = names[k];
    x->numbers[k] = values[k];
  }
  x->n_numbers = 3;
  return GR_SUCCESS;
}

const gr_primitive gr_bc_primitive = {
    .name = "bc",
    .summary = "betweenness centrality (Brandes): dependencies summed over one, K or all sources",
    .proxy = GR_PROXY_1HOP,
    .comm = GR_COMM_SELECTIVE,
    .n_vertex_assoc = 0,
    .n_value_assoc = 1,
    .combine = GR_COMBINE_SUM,
    .value_type = GR_VALUE_DOUBLE,
    .needs_source = true,
    .needs_in_edges = true,
    .needs_weights = false,
    .accumulates_sources = true,
    .aux = {2, {"depth", "sigma"}, {GR_VALUE_SVID, GR_VALUE_DOUBLE}},
    .init = bc_init,
    .release = bc_release,
    .reset = bc_reset,
    .iterate = bc_iterate,
    .converged = NULL,
    .payload = bc_payload,
    .extract = bc_extract,
    .reference = gr_bc_reference,
    .validate = gr_bc_validate,
    .traversed_edges = gr_bc_traversed_edges,
};
