/* SPDX-License-Identifier: Apache-2.0 */
/* BC as a primitive spec (the algorithm: bc.h). One run takes its sources
 * one after another; each source is a forward pass (one iteration per
 * level) then a backward pass (one iteration per level, deepest first),
 * and the next source starts in the iteration that ends the last one's.
 * Every device takes the same turns: the forward pass ends when the
 * frontier of all devices is empty (gr_iter.global_in), so all of them
 * know the same number of levels. While a run has work left each device
 * reports it pending, since the backward pass moves no frontier on one
 * device. A source whose counts outgrow double (the overflow rule, bc.h)
 * runs again from its first level with counts as logarithms; every device
 * learns it at the end of the forward pass, in the same iteration. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bc/bc.h"
#include "gr/util.h"

typedef enum { GR__BC_FORWARD, GR__BC_BACKWARD, GR__BC_DONE } gr__bc_phase;

typedef struct gr__bc_slice {
  gr_buffer depth, sigma, acc, coef, bc, mark;
  gr_buffer overflow;    /* uint32_t: the forward pass in double met a count above GR_BC_LOG_THRESHOLD */
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
  gr_eid source_out; /* the current source's out-edges on its owner (0 elsewhere) */
  /* One device: levels the forward pass ran in its device-side loop (so
   * small), which the backward pass runs in its own. */
  uint8_t *level_loop;
  int level_capacity;
  gr_buffer loop_sizes;  /* device: input sizes of the forward loop's levels */
  gr_buffer starts;      /* device: level_start, uploaded when the backward loop first runs */
  bool starts_uploaded;
  gr_eid *host_sizes;    /* host: sizes of the levels a loop ran after its first (gr_iter.level_sizes) */
  bool loop_left;        /* the forward frontier outgrew the loop in this source */
  bool acc_ready;        /* backward: the next level's sums are in acc (pushed, or the deepest level) */
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
  int mode;              /* the current source's: GR_BC_LINEAR or GR_BC_LOG (counts as logarithms) */
  bool log_zeros;        /* sigma and acc hold ln 0 (-inf) rather than 0 */
  gr_vid log_sources;    /* sources of this run that ran as logarithms */
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
  gr_buffer *b[] = {&s->depth, &s->sigma,    &s->acc,        &s->coef,  &s->bc,   &s->mark,
                    &s->owners, &s->stack, &s->overflow, &s->loop_sizes, &s->starts};
  for (size_t i = 0; i < sizeof b / sizeof *b; i++) gr_buffer_release(b[i]);
  free(s->level_start);
  free(s->level_edges);
  free(s->level_max);
  free(s->level_loop);
  free(s->host_sizes);
  s->level_start = s->level_edges = s->level_max = s->host_sizes = NULL;
  s->level_loop = NULL;
}

/* Entries of the owned-only arrays (coefficients, centralities): the
 * owned vertices under 1-hop proxies (local ids [0, owned_first)), every
 * local vertex otherwise (one device; duplicate-all, whose owned ids are
 * spread over all). */
static size_t gr__bc_owned_slots(const gr__bc_slice *s, const gr_part *p) {
  const gr_vid n = s->owned_first ? s->owned_first : p->sub->n_local;
  return n ? (size_t)n : 1;
}

/* The proxies' stamps (gr__bc_mark): the copies under 1-hop proxies,
 * every local vertex otherwise. */
static size_t gr__bc_proxy_slots(const gr__bc_slice *s, const gr_part *p) {
  const gr_vid n = p->sub->n_local - s->owned_first;
  return n ? (size_t)n : 1;
}

static gr_status bc_init(void **slice, gr_part *p) {
  gr__bc_slice *s = NULL;
  gr_status st = GR_SUCCESS;
  if (!p->in.offsets) return gr_errorf(GR_ERR_INTERNAL, "bc needs the in-edges of part %d", p->index);
  GR_CHECK(gr_host_calloc((void **)&s, 1, sizeof *s, "bc state"));
  const gr_vid n = p->sub->n_local;
  const size_t slots = n ? (size_t)n : 1;
  s->multi = p->count > 1;
  if (s->multi) GR_CHECK_GOTO(gr_part_owners(p, &s->owners, &s->owner_table, &s->owned_first), st, fail);
  GR_CHECK_GOTO(gr_buffer_resize(&s->depth, p->dev, slots * sizeof(gr_svid), 0, "bc depths"), st, fail);
  GR_CHECK_GOTO(gr_buffer_resize(&s->sigma, p->dev, slots * sizeof(double), 0, "bc path counts"), st, fail);
  GR_CHECK_GOTO(gr_buffer_resize(&s->acc, p->dev, slots * sizeof(double), 0, "bc successor sums"), st, fail);
  /* Only owned vertices finish a level (their coefficient) and sum a
   * centrality: under 1-hop proxies they are the first local ids. */
  const size_t own = gr__bc_owned_slots(s, p);
  GR_CHECK_GOTO(gr_buffer_resize(&s->coef, p->dev, own * sizeof(double), 0, "bc coefficients"), st, fail);
  GR_CHECK_GOTO(gr_buffer_resize(&s->bc, p->dev, own * sizeof(double), 0, "bc centralities"), st, fail);
  GR_CHECK_GOTO(gr_buffer_resize(&s->overflow, p->dev, sizeof(uint32_t), 0, "bc overflow flag"), st, fail);
  if (s->multi)
    GR_CHECK_GOTO(gr_buffer_resize(&s->mark, p->dev, gr__bc_proxy_slots(s, p) * sizeof(int32_t), 0, "bc proxy stamps"),
                  st, fail);
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
  GR_CHECK_GOTO(gr_host_alloc((void **)&s->host_sizes, (size_t)s->level_capacity * sizeof(gr_eid), "bc levels"), st,
                fail);
  GR_CHECK_GOTO(gr_host_calloc((void **)&s->level_loop, (size_t)s->level_capacity, 1, "bc levels"), st, fail);
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
  c.mark = s->mark.ptr;
  c.owner = s->owner_table;
  c.owned_first = s->owned_first;
  c.me = p->index;
  c.scale = 1.0;
  c.overflow = s->overflow.ptr;
  return c;
}

/* Room for level k's start (and k + 1's end). */
static gr_status gr__bc_level_room(gr__bc_slice *s, int k) {
  if (k + 1 < s->level_capacity) return GR_SUCCESS;
  const int cap = 2 * (k + 1);
  gr_eid **arrays[] = {&s->level_start, &s->level_edges, &s->level_max, &s->host_sizes};
  for (int i = 0; i < 4; i++) {
    gr_eid *x = realloc(*arrays[i], (size_t)cap * sizeof *x);
    if (!x) return gr_errorf(GR_ERR_HOST_OOM, "bc levels: %d entries", cap);
    *arrays[i] = x;
  }
  uint8_t *loop = realloc(s->level_loop, (size_t)cap);
  if (!loop) return gr_errorf(GR_ERR_HOST_OOM, "bc levels: %d entries", cap);
  memset(loop + s->level_capacity, 0, (size_t)(cap - s->level_capacity));
  s->level_loop = loop;
  s->level_capacity = cap;
  return GR_SUCCESS;
}

/* Every local vertex's count, successor sum and travelling slot at the
 * zero of the mode (0, or ln 0 = -inf, which needs a pass of its own). */
static gr_status gr__bc_fill(gr__bc_slice *s, gr_part *p, double zero) {
  gr_bc_ctx c = gr__bc_ctx(s, p);
  c.fill = zero;
  gr_for_each_args all = {NULL, p->sub->n_local, 0};
  return gr__bc_ops(p->dev)->fill(p->dev, p->ws, &all, &c);
}

/* Starts the source of index s->next_source in double (as logarithms
 * from the start with --tune bc-counts=log), or (again = true) the
 * current one again with counts as logarithms: every device clears the
 * per-source state; its owner gives it depth 0 and one path (ln 1 = 0)
 * and puts it into `first` (the next iteration's input). */
static gr_status gr__bc_start_source(gr__bc_slice *s, gr_part *p, gr_frontier *first, bool again) {
  const gr_vid n = p->sub->n_local;
  const bool logs_first = !again && p->ws->tune.bc_log;
  if (!again) {
    s->source = gr_bc_source(&s->args, s->next_source);
    s->next_source++;
  }
  s->mode = again || logs_first ? GR_BC_LOG : GR_BC_LINEAR;
  if (logs_first) s->log_sources++;
  s->phase = GR__BC_FORWARD;
  s->level = 0;
  s->levels = 0;
  s->level_start[0] = 0;
  s->level_edges[0] = s->level_max[0] = 0;
  s->source_out = 0;
  s->level_loop[0] = 0;
  s->loop_left = false;
  s->starts_uploaded = false;
  first->size = 0;
  /* Every byte 0xff is -1 in two's complement: "unvisited". */
  GR_CHECK(gr_device_memset(p->dev, s->depth.ptr, 0xff, (size_t)n * sizeof(gr_svid)));
  if (s->mode == GR_BC_LOG) {
    GR_CHECK(gr__bc_fill(s, p, GR_LOG_ZERO));
    s->log_zeros = true;
  } else if (s->log_zeros) {
    GR_CHECK(gr__bc_fill(s, p, 0.0));
    s->log_zeros = false;
  } else {
    GR_CHECK(gr_device_memset(p->dev, s->sigma.ptr, 0, (size_t)n * sizeof(double)));
    /* A proxy's backward sum travels as it is and stays behind (only
     * owned vertices' sums are emptied as their levels compute), and
     * under broadcast copies receive sums they never read: empty them. */
    if (s->multi) GR_CHECK(gr_device_memset(p->dev, s->acc.ptr, 0, (size_t)n * sizeof(double)));
  }
  GR_CHECK(gr_device_memset(p->dev, s->overflow.ptr, 0, sizeof(uint32_t)));
  gr_vid src = 0;
  if (!gr_subgraph_local(p->sub, s->source, &src) || !gr_subgraph_owns(p->sub, src)) return GR_SUCCESS;
  const gr_svid zero = 0;
  const double one = s->mode == GR_BC_LOG ? 0.0 : 1.0;
  GR_CHECK(gr_device_copy(p->dev, (gr_svid *)s->depth.ptr + src, &zero, sizeof zero, GR_COPY_H2D));
  GR_CHECK(gr_device_copy(p->dev, (double *)s->sigma.ptr + src, &one, sizeof one, GR_COPY_H2D));
  GR_CHECK(gr_frontier_assign(first, p->dev, &src, 1));
  /* The source's in-edges from the host's copy of the offsets, and its
   * out-edges (what the first advance between devices visits). */
  if (p->sub->in.offsets) s->level_edges[0] = s->level_max[0] = p->sub->in.offsets[src + 1] - p->sub->in.offsets[src];
  s->source_out = p->sub->out.offsets[src + 1] - p->sub->out.offsets[src];
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
  s->log_sources = 0;
  s->log_zeros = false;
  GR_CHECK(gr_device_memset(p->dev, s->bc.ptr, 0, gr__bc_owned_slots(s, p) * sizeof(double)));
  GR_CHECK(gr_device_memset(p->dev, s->acc.ptr, 0, slots * sizeof(double)));
  if (s->multi) {
    GR_CHECK(gr_device_memset(p->dev, s->mark.ptr, 0xff, gr__bc_proxy_slots(s, p) * sizeof(int32_t)));
  }
  /* A level or a backward message holds each local vertex at most once.
   * Between devices the input holds owned vertices only, in the room the
   * enactor gave it. */
  const size_t first_room = s->multi ? 1 : slots;
  if (gr_frontier_capacity(first) < first_room)
    GR_CHECK(gr_frontier_reserve(first, p->dev, first_room, 0, &p->mem));
  return gr__bc_start_source(s, p, first, false);
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
  /* Between devices too the input is the level as it is: the last level's
   * exchange combined what peers sent into the counts of the vertices
   * reached at this depth and dropped the rest (its guarded combine,
   * below). */
  const gr_eid n_level = it->in->size;
  if (n_level > s->stack_capacity - start)
    return gr_errorf(GR_ERR_INTERNAL, "bc level %d holds %llu vertices, %llu fit", k, (unsigned long long)n_level,
                     (unsigned long long)(s->stack_capacity - start));
  if (n_level)
    GR_CHECK(
        gr_device_copy(p->dev, level, gr_frontier_items(it->in), (size_t)n_level * sizeof(gr_vid), GR_COPY_D2D));
  s->level_start[k + 1] = start + n_level;
  s->level_loop[k] = 0;
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
  } else if (s->multi && it->iteration == 0) {
    /* The first source on its owner, nothing elsewhere. */
    a.in_known = true;
    a.in_edges = a.in_max_degree = s->source_out;
  } else if (!s->multi && same && (k == 0 || s->level_edges[k] > 0)) {
    a.in_known = true;
    a.in_edges = s->level_edges[k];
    a.in_max_degree = s->level_max[k];
  }
  if (!s->multi) a.next_offsets = p->in.offsets;
  GR_CHECK(ops->forward[s->mode](p->dev, p->ws, &a, &c));
  if (!s->multi) {
    s->level_edges[k + 1] = a.out_edges;
    s->level_max[k + 1] = a.out_max_degree;
  }
  it->out->size = a.n_out;
  it->edges += a.edges;
  it->tag = 'F';
  if (s->multi) {
    /* A proxy's count holds this device's paths into it: it travels as it
     * is, and its owner sums it into its own count when the vertex's depth
     * there is this level's or unset (which it then takes), and drops it
     * when the owner reached the vertex earlier (this device's copy did
     * not know). */
    it->values = s->sigma.ptr;
    it->guard = (gr_svid *)s->depth.ptr;
    it->stamp = (gr_svid)k + 1;
  }
  return GR_SUCCESS;
}

/* Counts outgrew double: the current source again with counts as
 * logarithms, from this iteration's output. */
static gr_status gr__bc_restart_as_logs(gr__bc_slice *s, gr_part *p, gr_iter *it) {
  s->log_sources++;
  return gr__bc_start_source(s, p, it->out, true);
}

/* One device: whether the forward pass in double raised the overflow flag. */
static gr_status gr__bc_raised(gr__bc_slice *s, gr_part *p, bool *raised) {
  uint32_t flag = 0;
  GR_CHECK(gr_device_copy(p->dev, &flag, s->overflow.ptr, sizeof flag, GR_COPY_D2H));
  *raised = flag != 0;
  return GR_SUCCESS;
}

/* The levels one device's forward loop takes from here, at most
 * GR__BC_LOOP_LEVELS in one call. */
enum { GR__BC_LOOP_LEVELS = 4096 };

/* One device, a small frontier: many forward levels in one device-side
 * loop, each level's vertices written into the stack as the loop takes
 * it; in double the overflow flag stops the loop after the level that
 * raised it, so a source whose counts outgrow double starts again as
 * logarithms there rather than at the end of its pass (a grid's sources
 * overflow about a tenth of the way). *handled: this iteration's work is
 * done (false: the caller runs one load-balanced level). */
static gr_status gr__bc_forward_loop(gr__bc_slice *s, gr_part *p, gr_iter *it, bool *handled) {
  const gr_bc_ops *ops = gr__bc_ops(p->dev);
  const gr_tuning *t = &p->ws->tune;
  it->levels = 0;
  *handled = false;
  if (s->multi || !ops->forward_levels[s->mode] || !t->small_loop || it->in->size > t->small_vertices)
    return GR_SUCCESS;
  const int k = s->level;
  const bool same = p->in.offsets == p->out.offsets;
  if (same && (k == 0 || s->level_edges[k] > 0)) {
    /* Measured while emitted: enter exactly when the loop would take it. */
    if (s->level_edges[k] > t->small_edges || s->level_max[k] > t->small_degree) return GR_SUCCESS;
  } else if (s->loop_left && it->in->size > t->small_vertices / 16) {
    /* Once this source's frontier outgrew the loop, its shrinking tail
     * comes back only when really small: a refused try costs a launch. */
    return GR_SUCCESS;
  }
  int max_levels = GR__BC_LOOP_LEVELS;
  if (it->max_levels > 0 && it->max_levels < max_levels) max_levels = it->max_levels;
  GR_CHECK(gr__bc_level_room(s, k + max_levels + 1));
  if (!s->loop_sizes.ptr)
    GR_CHECK(gr_buffer_resize(&s->loop_sizes, p->dev, GR__BC_LOOP_LEVELS * sizeof(gr_eid), 0, "bc level sizes"));
  const gr_eid start = s->level_start[k];
  const gr_eid cap_out = gr_frontier_capacity(it->out), cap_in = gr_frontier_capacity(it->in);
  gr_advance_levels_args a;
  gr_advance_levels_init(&a, &p->out, gr_frontier_items(it->in), it->in->size, gr_frontier_items(it->out),
                         cap_out < cap_in ? cap_out : cap_in, k, max_levels, 0, t);
  a.level_sizes = s->loop_sizes.ptr;
  a.trail = (gr_vid *)s->stack.ptr + start;
  a.trail_capacity = s->stack_capacity - start;
  a.stop = s->mode == GR_BC_LINEAR ? s->overflow.ptr : NULL;
  gr_bc_ctx c = gr__bc_ctx(s, p);
  GR_CHECK(ops->forward_levels[s->mode](p->dev, p->ws, &a, &c));
  if (a.levels > 0) {
    *handled = true;
    if (a.levels > 1)
      GR_CHECK(gr_device_copy(p->dev, s->host_sizes, (gr_eid *)s->loop_sizes.ptr + 1,
                              (size_t)(a.levels - 1) * sizeof(gr_eid), GR_COPY_D2H));
    it->levels = a.levels;
    it->level_sizes = s->host_sizes;
    it->edges += a.edges;
    it->tag = 'F';
  }
  /* In double the overflow flag stops the loop, or refuses it at once when
   * a large level before raised it: the source again, as logarithms, now. */
  if (s->mode == GR_BC_LINEAR) {
    bool raised = false;
    GR_CHECK(gr__bc_raised(s, p, &raised));
    if (raised) {
      *handled = true;
      return gr__bc_restart_as_logs(s, p, it);
    }
  }
  if (a.levels == 0) {
    s->loop_left = true;
    return GR_SUCCESS;
  }
  if (a.n_out > 0 && a.levels < a.max_levels) s->loop_left = true;
  for (int l = 0; l < a.levels; l++) {
    const gr_eid size = l ? s->host_sizes[l - 1] : a.n_in;
    s->level_start[k + l + 1] = s->level_start[k + l] + size;
    s->level_loop[k + l] = 1;
    s->level_edges[k + l] = s->level_max[k + l] = 0; /* the backward loop needs neither */
  }
  s->levels = s->level = k + a.levels;
  /* The frontier left: its out-edges, which are its in-edges when the CSC
   * is the CSR (what the next forward or backward advance wants). */
  s->level_edges[k + a.levels] = same ? a.out_edges : 0;
  s->level_max[k + a.levels] = same ? a.out_max_degree : 0;
  /* The frontier left is in queue a.out_queue; the enactor continues from
   * it->out. */
  if (a.out_queue == 0) gr_frontier_swap(it->in, it->out);
  it->out->size = a.n_out;
  return GR_SUCCESS;
}

/* Level d's coefficients pushed over the in-edges into the sums of its
 * predecessors (level d - 1), and between devices into proxies' sums
 * (emitted to travel). */
static gr_status gr__bc_backward_push(gr__bc_slice *s, gr_part *p, gr_iter *it, int d) {
  const gr_bc_ops *ops = gr__bc_ops(p->dev);
  gr_bc_ctx c = gr__bc_ctx(s, p);
  c.level = d;
  const gr_eid start = s->level_start[d], n_level = s->level_start[d + 1] - start;
  gr_vid *level = (gr_vid *)s->stack.ptr + start;
  if (s->multi && s->stamp == INT32_MAX) {
    /* Stamps ran out (2^31 levels in one run): start them again. */
    GR_CHECK(gr_device_memset(p->dev, s->mark.ptr, 0xff, gr__bc_proxy_slots(s, p) * sizeof(int32_t)));
    s->stamp = 0;
  }
  c.stamp = s->stamp++;
  gr_advance_push_args a;
  memset(&a, 0, sizeof a);
  a.g = &p->in;
  a.in = level;
  a.n_in = n_level;
  if (!s->multi && s->level_edges[d] > 0) {
    /* Measured over the CSC while the forward pass emitted the level (a
     * level of depth >= 1 has an in-edge from its parent, so 0 means
     * unknown). */
    a.in_known = true;
    a.in_edges = s->level_edges[d];
    a.in_max_degree = s->level_max[d];
  }
  a.out = gr_frontier_items(it->out);
  a.out_capacity = gr_frontier_capacity(it->out);
  GR_CHECK(ops->backward[s->mode](p->dev, p->ws, &a, &c));
  it->out->size = a.n_out;
  it->edges += a.edges;
  return GR_SUCCESS;
}

/* One device: backward levels from s->level down while the forward pass
 * ran them in its loop, in one device-side loop of their own (a pull, no
 * atomics); then, when the next level is a large one, this range's last
 * level pushes into it as the per-level path expects. */
static gr_status gr__bc_backward_loop(gr__bc_slice *s, gr_part *p, gr_iter *it) {
  const gr_bc_ops *ops = gr__bc_ops(p->dev);
  const int hi = s->level;
  const int most = it->max_levels > 0 ? it->max_levels : INT32_MAX;
  int lo = hi;
  while (lo > 1 && s->level_loop[lo - 1] && hi - lo + 1 < most) lo--;
  if (!s->starts_uploaded) {
    const size_t bytes = (size_t)(s->levels + 1) * sizeof(gr_eid);
    GR_CHECK(gr_buffer_resize(&s->starts, p->dev, bytes, 0, "bc level starts"));
    GR_CHECK(gr_device_copy(p->dev, s->starts.ptr, s->level_start, bytes, GR_COPY_H2D));
    s->starts_uploaded = true;
  }
  gr_bc_levels_args a;
  memset(&a, 0, sizeof a);
  a.g = &p->out;
  a.stack = s->stack.ptr;
  a.level_start = s->starts.ptr;
  a.hi = hi;
  a.lo = lo;
  a.acc_ready = s->acc_ready;
  gr_bc_ctx c = gr__bc_ctx(s, p);
  GR_CHECK(ops->backward_levels[s->mode](p->dev, p->ws, &a, &c));
  it->edges += a.edges;
  it->tag = 'B';
  it->levels = hi - lo + 1;
  for (int d = hi - 1, l = 0; d >= lo; d--, l++) s->host_sizes[l] = s->level_start[d + 1] - s->level_start[d];
  it->level_sizes = s->host_sizes;
  s->level = lo - 1;
  s->acc_ready = false;
  if (lo >= 2 && !s->level_loop[lo - 1]) {
    GR_CHECK(gr__bc_backward_push(s, p, it, lo));
    s->acc_ready = true;
  }
  return GR_SUCCESS;
}

/* One backward level d = s->level (>= 1): its vertices' dependencies
 * computed (between devices, what peers sent for them was summed into
 * their successor sums by the last exchange), and (d >= 2) their
 * coefficients pushed to level d - 1. */
static gr_status gr__bc_backward(gr__bc_slice *s, gr_part *p, gr_iter *it) {
  const gr_bc_ops *ops = gr__bc_ops(p->dev);
  const int d = s->level;
  gr_bc_ctx c = gr__bc_ctx(s, p);
  c.level = d;
  const gr_eid start = s->level_start[d], n_level = s->level_start[d + 1] - start;
  gr_vid *level = (gr_vid *)s->stack.ptr + start;
  gr_for_each_args e = {level, n_level, 0};
  GR_CHECK(ops->backward_compute[s->mode](p->dev, p->ws, &e, &c));
  it->tag = 'B';
  s->acc_ready = true;
  if (d < 2) return GR_SUCCESS; /* level 0 is the source: it takes no dependency */
  return gr__bc_backward_push(s, p, it, d);
}

/* After the last source: the scale of --normalize on every vertex. */
static gr_status gr__bc_finish_run(gr__bc_slice *s, gr_part *p) {
  s->phase = GR__BC_DONE;
  if (!p->opts->normalize) return GR_SUCCESS;
  gr_bc_ctx c = gr__bc_ctx(s, p);
  c.scale = gr_bc_normalizer(p->sub->n_global, s->n_sources);
  gr_for_each_args all = {NULL, (gr_vid)gr__bc_owned_slots(s, p), 0};
  return gr__bc_ops(p->dev)->scale(p->dev, p->ws, &all, &c);
}

/* At the end of a forward pass in double: whether some device expanded a
 * count above the threshold (one read of the flag; the devices' sum, so
 * that all of them take the same turn). */
static gr_status gr__bc_overflowed(gr__bc_slice *s, gr_part *p, bool *overflowed) {
  uint32_t flag = 0;
  GR_CHECK(gr_device_copy(p->dev, &flag, s->overflow.ptr, sizeof flag, GR_COPY_D2H));
  gr_eid total = flag ? 1 : 0;
  if (s->multi) GR_CHECK(gr_part_sum(p, total, &total));
  *overflowed = total > 0;
  return GR_SUCCESS;
}

static gr_status gr__bc_step(gr__bc_slice *s, gr_part *p, gr_iter *it);

static gr_status bc_iterate(void *slice, gr_part *p, gr_iter *it) {
  gr__bc_slice *s = slice;
  const gr_status st = gr__bc_step(s, p, it);
  /* What this iteration emitted belongs to the source now running (a
   * source started here included): its sums combine in its mode. */
  if (s->mode == GR_BC_LOG) {
    it->combine_set = true;
    it->combine = GR_COMBINE_LOGADD;
  }
  return st;
}

static gr_status gr__bc_step(gr__bc_slice *s, gr_part *p, gr_iter *it) {
  const gr_vid n = p->sub->n_local;
  const gr_eid room = n ? n : 1;
  if (gr_frontier_capacity(it->out) < room) GR_CHECK(gr_frontier_reserve(it->out, p->dev, room, 0, &p->mem));
  it->out->size = 0;
  if (s->phase == GR__BC_DONE) return GR_SUCCESS;
  if (s->phase == GR__BC_FORWARD) {
    if (it->global_in > 0) {
      it->pending = 1;
      bool handled = false;
      GR_CHECK(gr__bc_forward_loop(s, p, it, &handled));
      if (handled) return GR_SUCCESS;
      return gr__bc_forward(s, p, it);
    }
    /* No device has a frontier. Counts outgrown: the source again, as
     * logarithms, from this iteration's output. */
    if (s->mode == GR_BC_LINEAR) {
      bool overflowed = false;
      GR_CHECK(gr__bc_overflowed(s, p, &overflowed));
      if (overflowed) {
        it->pending = 1;
        return gr__bc_restart_as_logs(s, p, it);
      }
    }
    /* Copies take their owners' depths (the backward pass pushes only into
     * predecessors, proxies too). */
    if (s->multi) {
      void *arrays[1] = {s->depth.ptr};
      GR_CHECK(gr_part_refresh(p, arrays, 1, (int)sizeof(gr_svid)));
    }
    /* The deepest level is the last one stored. */
    s->phase = GR__BC_BACKWARD;
    s->level = s->levels - 1;
    s->last_levels = s->levels;
    s->acc_ready = true; /* the deepest level has no successor: its sums are 0 */
  }
  if (s->level >= 1) {
    if (!s->multi && s->level_loop[s->level] && gr__bc_ops(p->dev)->backward_levels[s->mode]) {
      GR_CHECK(gr__bc_backward_loop(s, p, it));
    } else {
      GR_CHECK(gr__bc_backward(s, p, it));
      s->level--;
    }
  }
  if (s->level >= 1) {
    it->pending = 1;
    return GR_SUCCESS;
  }
  /* This source is done: the next one starts from this iteration's output. */
  if (s->next_source < s->n_sources) {
    it->pending = 1;
    return gr__bc_start_source(s, p, it->out, false);
  }
  return gr__bc_finish_run(s, p);
}

static gr_status bc_payload(void *slice, gr_part *p, gr_payload *out) {
  (void)p;
  gr__bc_slice *s = slice;
  memset(out, 0, sizeof *out);
  out->n_values = 1;
  /* What travels backward: a proxy's partial successor sum, summed by its
   * owner into the vertex's (every such vertex is a predecessor there
   * too: the copies' depths were refreshed). Forward steps name sigma
   * instead (gr_iter.values). */
  out->values[0] = s->acc.ptr;
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
  /* log_sources: sources that ran as logarithms (their counts outgrew
   * double, or --tune bc-counts=log); sigma_log: the aux "sigma" holds
   * ln sigma (the last source ran so). */
  static const char *const names[] = {"sources", "levels", "normalized", "log_sources", "sigma_log"};
  const double values[] = {(double)s->n_sources, (double)s->last_levels, p->opts->normalize ? 1.0 : 0.0,
                           (double)s->log_sources, s->mode == GR_BC_LOG ? 1.0 : 0.0};
  for (int k = 0; k < 5; k++) {
    x->number_names[k] = names[k];
    x->numbers[k] = values[k];
  }
  x->n_numbers = 5;
  return GR_SUCCESS;
}

const gr_primitive gr_bc_primitive = {
    .name = "bc",
    .summary = "betweenness centrality (Brandes): dependencies summed over one, K or all sources",
    .proxy = GR_PROXY_1HOP,
    .auto_1hop = true,
    .comm = GR_COMM_SELECTIVE,
    .n_vertex_assoc = 0,
    .n_value_assoc = 1,
    .combine = GR_COMBINE_SUM,
    .value_type = GR_VALUE_DOUBLE,
    .needs_source = true,
    .needs_in_edges = true,
    .needs_weights = false,
    /* The passes go through the advance; the backward levels loop decodes
     * packed lists itself. */
    .reads_packed_lists = true,
    .state_bytes_per_vertex = {80, 200},
    .accumulates_sources = true,
    .refreshes_copies = true,
    .device_lists_only = true,
    /* Its values are path counts and centralities, its ids local: no global id on the device. */
    .skips_global_ids = true,
    .aux = {2, {"depth", "sigma"}, {GR_VALUE_SVID, GR_VALUE_DOUBLE}},
    .init = bc_init,
    .release = bc_release,
#ifdef GR_HAVE_CUDA
    .preload = gr__bc_cuda_preload,
#endif
    .reset = bc_reset,
    .iterate = bc_iterate,
    .converged = NULL,
    .payload = bc_payload,
    .extract = bc_extract,
    .reference = gr_bc_reference,
    .validate = gr_bc_validate,
    .traversed_edges = gr_bc_traversed_edges,
};
