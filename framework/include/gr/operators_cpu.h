/* SPDX-License-Identifier: Apache-2.0 */
/* The portable definition of the operators: macros that a primitive's _cpu.c
 * file expands once per per-element function, giving plain C functions that
 * run in parallel over the CPU device's threads (OpenMP). The CUDA templates
 * in operators/cuda/operators.cuh compute the same sets.
 *
 *   GR_CPU_ADVANCE_PUSH(name, ctx_type, visit)       visit(ctx, u, v, e) -> bool
 *   GR_CPU_ADVANCE_LEVELS(name, ctx_type, visit)     visit(ctx, level, u, v, e) -> bool
 *   GR_CPU_ADVANCE_PULL(name, ctx_type, wanted, visit)  wanted(ctx, v) -> bool
 *   GR_CPU_FILTER(name, ctx_type, keep)              keep(ctx, v) -> bool
 *   GR_CPU_SPLIT(name, ctx_type, klass)              klass(ctx, v) -> int (0, 1, other)
 *   GR_CPU_FOR_EACH(name, ctx_type, op)              op(ctx, v)
 *   GR_CPU_BITMAP(name, ctx_type, pred)              pred(ctx, v) -> bool
 *
 * Each defines `gr_status name(gr_device *, gr_workspace *, <args> *,
 * const ctx_type *)`, the same signature as the CUDA instantiations, and
 * counts as one launch on its device (gr__device_launch: the timeline's
 * count and the launch fault hook, as on a GPU).
 * Output order is unspecified; output sets are not. Writing past the
 * output's capacity is refused and reported as GR_ERR_INTERNAL. */
#ifndef GR_OPERATORS_CPU_H
#define GR_OPERATORS_CPU_H

#include <string.h>

#include "gr/atomic.h"
#include "gr/device.h"
#include "gr/operators.h"
#include "gr/packed.h"
#include "gr/status.h"

/* Each thread collects output ids locally and reserves room in the shared
 * queue with one atomic add per batch. */
enum { GR__CPU_EMIT_BATCH = 256 };

typedef struct gr__cpu_emit {
  gr_vid buf[GR__CPU_EMIT_BATCH];
  int n;
  gr_vid *out;
  gr_eid cap;
  uint64_t *count;
  int *overflow;
  const gr_eid *deg; /* or NULL: sum and max the emitted ids' degrees over these offsets */
  uint64_t dsum, dmax;
} gr__cpu_emit;

static inline void gr__cpu_emit_flush(gr__cpu_emit *e) {
  if (!e->n) return;
  uint64_t pos = gr_atomic_add_u64(e->count, (uint64_t)e->n);
  uint64_t fit = pos >= e->cap ? 0 : (e->cap - pos < (uint64_t)e->n ? e->cap - pos : (uint64_t)e->n);
  if (fit) memcpy(e->out + pos, e->buf, (size_t)fit * sizeof(gr_vid));
  if (fit < (uint64_t)e->n) __atomic_store_n(e->overflow, 1, __ATOMIC_RELAXED);
  e->n = 0;
}

static inline void gr__cpu_emit_push(gr__cpu_emit *e, gr_vid v) {
  if (e->deg) {
    const uint64_t d = (uint64_t)(e->deg[v + 1] - e->deg[v]);
    e->dsum += d;
    if (d > e->dmax) e->dmax = d;
  }
  e->buf[e->n++] = v;
  if (e->n == GR__CPU_EMIT_BATCH) gr__cpu_emit_flush(e);
}

static inline gr_status gr__cpu_emit_result(uint64_t count, int overflow, gr_eid cap,
                                            gr_eid *n_out, const char *op) {
  if (overflow)
    return gr_errorf(GR_ERR_INTERNAL, "%s produced %llu items for an output of capacity %llu", op,
                     (unsigned long long)count, (unsigned long long)cap);
  *n_out = (gr_eid)count;
  return GR_SUCCESS;
}

/* A push's results; with counts_later (gr_advance_push_args) on an input
 * that was not empty, left in the workspace's counters (host memory on a
 * CPU device) as the GPU advance leaves them, so that the package that
 * reads them there runs the same way on both backends. */
static inline gr_status gr__cpu_push_results(gr_workspace *ws, gr_advance_push_args *a, uint64_t count, int overflow,
                                             uint64_t edges, uint64_t osum, uint64_t omax, const char *op) {
  a->counts = NULL;
  a->edges = (gr_eid)edges;
  a->out_edges = (gr_eid)osum;
  a->out_max_degree = (gr_eid)omax;
  GR_CHECK(gr__cpu_emit_result(count, overflow, a->out_capacity, &a->n_out, op));
  if (a->counts_later && a->n_in > 0) {
    gr_eid *c = (gr_eid *)ws->counters.ptr;
    c[0] = a->n_out;
    c[1] = a->edges;
    c[2] = a->out_edges;
    c[3] = a->out_max_degree;
    a->counts = c;
    a->n_out = a->out_capacity;
    a->edges = a->out_edges = a->out_max_degree = 0;
  }
  return GR_SUCCESS;
}

#define GR_CPU_ADVANCE_PUSH(NAME, CTX_T, VISIT)                                         \
  gr_status NAME(gr_device *dev, gr_workspace *ws, gr_advance_push_args *a, const CTX_T *ctx) {          \
    GR_CHECK(gr__device_launch(dev, #NAME, NULL));                                          \
    const gr_csr *g = a->g;                                                             \
    const gr_vid *in = a->in;                                                           \
    const gr_eid n_in = a->n_in;                                                        \
    uint64_t count = 0, edges = 0, osum = 0, omax = 0;                                  \
    int overflow = 0;                                                                   \
    int nt = gr_device_cpu_threads(dev);                                                \
    _Pragma("omp parallel num_threads(nt) reduction(+ : edges, osum) reduction(max : omax)") { \
      gr__cpu_emit em = {{0}, 0, a->out, a->out_capacity, &count, &overflow, a->next_offsets, 0, 0}; \
      _Pragma("omp for schedule(dynamic, 64) nowait") for (gr_eid i = 0; i < n_in; i++) { \
        gr_vid u = in[i];                                                               \
        gr_eid b = g->offsets[u], end = g->offsets[u + 1];                              \
        edges += end - b;                                                               \
        gr_packed_walk pw = {NULL, 0, 0, 0};                                            \
        for (gr_eid k = b; k < end; k++) {                                              \
          gr_vid v = gr__cpu_neighbour(g, &pw, u, b, k);                                \
          if (VISIT(ctx, u, v, k)) gr__cpu_emit_push(&em, v);                           \
        }                                                                               \
      }                                                                                 \
      gr__cpu_emit_flush(&em);                                                          \
      osum += em.dsum;                                                                  \
      omax = em.dmax > omax ? em.dmax : omax;                                           \
    }                                                                                   \
    return gr__cpu_push_results(ws, a, count, overflow, edges, osum, omax, #NAME);       \
  }

/* Edge k's id in row `row` of g, whose edges are walked in order from the
 * row's first, b: from the plain ids, or decoded from packed lists
 * (--compress packed) by a walk along the row. */
static inline gr_vid gr__cpu_neighbour(const gr_csr *g, gr_packed_walk *w, gr_vid row, gr_eid b, gr_eid k) {
  if (!g->packed) return g->indices[k];
  return k == b ? gr_packed_walk_start(w, g->packed, k, row) : gr_packed_walk_next(w, g->packed, k);
}

/* The out-degree sum and maximum of a list, for the levels' limits. */
static inline void gr__cpu_list_degrees(int nt, const gr_eid *offsets, const gr_vid *list, gr_eid n, uint64_t *sum,
                                        uint64_t *most) {
  uint64_t s = 0, m = 0;
#pragma omp parallel for num_threads(nt) schedule(static, 4096) reduction(+ : s) reduction(max : m)
  for (gr_eid i = 0; i < n; i++) {
    const uint64_t d = (uint64_t)(offsets[list[i] + 1] - offsets[list[i]]);
    s += d;
    m = d > m ? d : m;
  }
  *sum = s;
  *most = m;
}

/* The portable definition of advance_push_levels: the same levels, stop
 * tests and results as the CUDA loop (gr_advance_levels_args), one level
 * after another. */
#define GR_CPU_ADVANCE_LEVELS(NAME, CTX_T, VISIT)                                       \
  gr_status NAME(gr_device *dev, gr_workspace *ws, gr_advance_levels_args *a, const CTX_T *ctx) {        \
    GR_CHECK(gr__device_launch(dev, #NAME, NULL));                                          \
    (void)ws;                                                                           \
    const gr_csr *g = a->g;                                                             \
    const int nt = gr_device_cpu_threads(dev);                                          \
    a->levels = 0;                                                                      \
    a->out_queue = 0;                                                                   \
    a->n_out = a->n_in;                                                                 \
    a->edges = 0;                                                                       \
    if (a->n_in == 0 || a->n_in > a->max_vertices || a->max_levels < 1) return GR_SUCCESS; \
    gr_eid n = a->n_in, visited = 0, trail_used = 0;                                    \
    uint64_t sum = 0, most = 0;                                                         \
    int l = 0;                                                                          \
    for (;; l++) {                                                                      \
      const gr_vid *in = a->queue[l & 1];                                               \
      gr__cpu_list_degrees(nt, g->offsets, in, n, &sum, &most);                         \
      if (n == 0 || n > a->max_vertices || sum > a->max_edges || most > a->max_degree ||  \
          l >= a->max_levels || (a->stop && *a->stop && *a->stop <= (uint32_t)(a->first_level + l)) || \
          (a->trail && trail_used + n > a->trail_capacity))                             \
        break;                                                                          \
      a->level_sizes[l] = n;                                                            \
      if (a->trail) {                                                                   \
        memcpy(a->trail + trail_used, in, (size_t)n * sizeof(gr_vid));                  \
        trail_used += n;                                                                \
      }                                                                                 \
      const int level = a->first_level + l;                                             \
      uint64_t count = 0;                                                               \
      int overflow = 0;                                                                 \
      _Pragma("omp parallel num_threads(nt)") {                                         \
        gr__cpu_emit em = {{0}, 0, a->queue[(l + 1) & 1], a->capacity, &count, &overflow, NULL, 0, 0}; \
        _Pragma("omp for schedule(dynamic, 64) nowait") for (gr_eid i = 0; i < n; i++) { \
          const gr_vid u = in[i];                                                       \
          gr_packed_walk pw = {NULL, 0, 0, 0};                                          \
          for (gr_eid k = g->offsets[u], b = k; k < g->offsets[u + 1]; k++) {           \
            const gr_vid v = gr__cpu_neighbour(g, &pw, u, b, k);                        \
            if (VISIT(ctx, level, u, v, k)) gr__cpu_emit_push(&em, v);                  \
          }                                                                             \
        }                                                                               \
        gr__cpu_emit_flush(&em);                                                        \
      }                                                                                 \
      visited += (gr_eid)sum;                                                           \
      gr_eid next = 0;                                                                  \
      gr_status st = gr__cpu_emit_result(count, overflow, a->capacity, &next, #NAME);   \
      if (st < 0) return st;                                                            \
      n = next;                                                                         \
    }                                                                                   \
    a->levels = l;                                                                      \
    a->out_queue = l & 1;                                                               \
    a->n_out = n;                                                                       \
    a->edges = visited;                                                                 \
    a->out_edges = (gr_eid)sum;                                                         \
    a->out_max_degree = (gr_eid)most;                                                   \
    return GR_SUCCESS;                                                                  \
  }

#define GR_CPU_ADVANCE_PULL(NAME, CTX_T, WANTED, VISIT)                                 \
  gr_status NAME(gr_device *dev, gr_workspace *ws, gr_advance_pull_args *a, const CTX_T *ctx) {          \
    GR_CHECK(gr__device_launch(dev, #NAME, NULL));                                          \
    const gr_csr *g = a->g;                                                             \
    const uint32_t *fb = a->frontier_bits;                                              \
    const gr_vid *cand = a->candidates;                                                 \
    const gr_eid n = cand ? a->n_candidates : (gr_eid)g->n;                             \
    uint64_t count = 0, edges = 0, osum = 0, omax = 0;                                  \
    int overflow = 0;                                                                   \
    int nt = gr_device_cpu_threads(dev);                                                \
    uint64_t n_rem = 0;                                                                 \
    int rem_overflow = 0;                                                               \
    _Pragma("omp parallel num_threads(nt) reduction(+ : edges, osum) reduction(max : omax)") { \
      gr__cpu_emit em = {{0}, 0, a->out, a->out_capacity, &count, &overflow, a->next_offsets, 0, 0}; \
      gr__cpu_emit rm = {{0}, 0, a->remaining, a->remaining_capacity, &n_rem, &rem_overflow, NULL, 0, 0}; \
      _Pragma("omp for schedule(dynamic, 256) nowait") for (gr_eid i = 0; i < n; i++) { \
        gr_vid v = cand ? cand[i] : (gr_vid)i;                                          \
        if (!WANTED(ctx, v)) continue;                                                  \
        gr_eid b = g->offsets[v], end = g->offsets[v + 1];                              \
        bool found = false;                                                             \
        gr_packed_walk pw = {NULL, 0, 0, 0};                                            \
        for (gr_eid k = b; k < end; k++) {                                              \
          gr_vid u = gr__cpu_neighbour(g, &pw, v, b, k);                                \
          edges++;                                                                      \
          if (gr_bitmap_test(fb, u) && VISIT(ctx, u, v, k)) {                           \
            gr__cpu_emit_push(&em, v);                                                  \
            if (a->found_bits)                                                          \
              gr_atomic_or_u32(&a->found_bits[gr_owner_slot(a->found_slots, v >> 5)], 1u << (v & 31u)); \
            found = true;                                                               \
            break;                                                                      \
          }                                                                             \
        }                                                                               \
        if (!found && a->remaining) gr__cpu_emit_push(&rm, v);                         \
      }                                                                                 \
      gr__cpu_emit_flush(&em);                                                          \
      gr__cpu_emit_flush(&rm);                                                          \
      osum += em.dsum;                                                                  \
      omax = em.dmax > omax ? em.dmax : omax;                                           \
    }                                                                                   \
    a->edges = edges;                                                                   \
    a->out_edges = (gr_eid)osum;                                                        \
    a->out_max_degree = (gr_eid)omax;                                                   \
    a->n_remaining = 0;                                                                 \
    if (a->remaining) {                                                                 \
      gr_status rst = gr__cpu_emit_result(n_rem, rem_overflow, a->remaining_capacity, &a->n_remaining, #NAME); \
      if (rst < 0) return rst;                                                          \
    }                                                                                   \
    return gr__cpu_emit_result(count, overflow, a->out_capacity, &a->n_out, #NAME);      \
  }

#define GR_CPU_FILTER(NAME, CTX_T, KEEP)                                                \
  gr_status NAME(gr_device *dev, gr_workspace *ws, gr_filter_args *a, const CTX_T *ctx) {                \
    GR_CHECK(gr__device_launch(dev, #NAME, NULL));                                          \
    const gr_vid *in = a->in;                                                           \
    const gr_eid n_in = a->n_in;                                                        \
    uint32_t *cull = a->cull_bits;                                                      \
    uint64_t count = 0;                                                                 \
    int overflow = 0;                                                                   \
    int nt = gr_device_cpu_threads(dev);                                                \
    _Pragma("omp parallel num_threads(nt)") {                                           \
      gr__cpu_emit em = {{0}, 0, a->out, a->out_capacity, &count, &overflow, NULL, 0, 0}; \
      _Pragma("omp for schedule(static, 4096) nowait") for (gr_eid i = 0; i < n_in; i++) { \
        gr_vid v = in ? in[i] : (gr_vid)i;                                              \
        if (!KEEP(ctx, v)) continue;                                                    \
        if (cull && !gr_bitmap_test_and_set(cull, v)) continue;                         \
        gr__cpu_emit_push(&em, v);                                                      \
      }                                                                                 \
      gr__cpu_emit_flush(&em);                                                          \
    }                                                                                   \
    return gr__cpu_emit_result(count, overflow, a->out_capacity, &a->n_out, #NAME);      \
  }

#define GR_CPU_SPLIT(NAME, CTX_T, KLASS)                                                \
  gr_status NAME(gr_device *dev, gr_workspace *ws, gr_split_args *a, const CTX_T *ctx) {                 \
    GR_CHECK(gr__device_launch(dev, #NAME, NULL));                                          \
    (void)ws;                                                                           \
    const gr_vid *in = a->in;                                                           \
    const gr_eid n_in = a->n_in_at && *a->n_in_at < a->n_in ? *a->n_in_at : a->n_in;    \
    uint64_t count0 = 0, count1 = 0;                                                    \
    int overflow0 = 0, overflow1 = 0;                                                   \
    int nt = gr_device_cpu_threads(dev);                                                \
    _Pragma("omp parallel num_threads(nt)") {                                           \
      gr__cpu_emit e0 = {{0}, 0, a->out[0], a->out_capacity[0], &count0, &overflow0, NULL, 0, 0}; \
      gr__cpu_emit e1 = {{0}, 0, a->out[1], a->out_capacity[1], &count1, &overflow1, NULL, 0, 0}; \
      _Pragma("omp for schedule(static, 4096) nowait") for (gr_eid i = 0; i < n_in; i++) { \
        const gr_vid v = gr_split_item(in, a->first, a->n_first, i);                    \
        const int k = KLASS(ctx, v);                                                    \
        if (k == 0) gr__cpu_emit_push(&e0, v);                                          \
        else if (k == 1) gr__cpu_emit_push(&e1, v);                                     \
      }                                                                                 \
      gr__cpu_emit_flush(&e0);                                                          \
      gr__cpu_emit_flush(&e1);                                                          \
    }                                                                                   \
    if (a->counts_at) {                                                                 \
      a->counts_at[0] += count0;                                                        \
      a->counts_at[1] += count1;                                                        \
      a->n_out[0] = a->n_out[1] = 0;                                                    \
      return GR_SUCCESS;                                                                \
    }                                                                                   \
    gr_status st0 = gr__cpu_emit_result(count0, overflow0 && !a->count_past, a->out_capacity[0], &a->n_out[0], \
                                        #NAME " (first output)");                       \
    if (st0 < 0) return st0;                                                            \
    return gr__cpu_emit_result(count1, overflow1 && !a->count_past, a->out_capacity[1], &a->n_out[1], \
                               #NAME " (second output)");                               \
  }

#define GR_CPU_FOR_EACH(NAME, CTX_T, OP)                                                \
  gr_status NAME(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const CTX_T *ctx) {              \
    GR_CHECK(gr__device_launch(dev, #NAME, NULL));                                          \
    const gr_vid *in = a->in;                                                           \
    const gr_eid n = a->n;                                                              \
    int nt = gr_device_cpu_threads(dev);                                                \
    _Pragma("omp parallel for num_threads(nt) schedule(static, 4096)")                 \
    for (gr_eid i = 0; i < n; i++) OP(ctx, in ? in[i] : (gr_vid)(a->first + i));        \
    return GR_SUCCESS;                                                                  \
  }

/* A word per iteration, so no two threads write the same word. */
#define GR_CPU_BITMAP(NAME, CTX_T, PRED)                                                \
  gr_status NAME(gr_device *dev, gr_workspace *ws, gr_bitmap_args *a, const CTX_T *ctx) { \
    GR_CHECK(gr__device_launch(dev, #NAME, NULL));                                          \
    (void)ws;                                                                           \
    const gr_vid n = a->n;                                                              \
    const gr_eid words = ((gr_eid)n + 31) / 32;                                         \
    uint32_t *bits = a->bits;                                                           \
    int nt = gr_device_cpu_threads(dev);                                                \
    _Pragma("omp parallel for num_threads(nt) schedule(static, 1024)")                 \
    for (gr_eid w = 0; w < words; w++) {                                                \
      uint32_t word = 0;                                                                \
      for (unsigned k = 0; k < 32u; k++) {                                              \
        const gr_vid v = (gr_vid)(w * 32u + k);                                         \
        if (v < n && PRED(ctx, v)) word |= 1u << k;                                     \
      }                                                                                 \
      bits[w] = a->keep ? bits[w] | word : word;                                        \
    }                                                                                   \
    return GR_SUCCESS;                                                                  \
  }

#endif
