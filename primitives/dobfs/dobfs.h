/* SPDX-License-Identifier: Apache-2.0 */
/* Direction-optimizing BFS: each level either pushes from the frontier
 * (BFS's push) or pulls: every unvisited vertex looks for a parent among
 * its in-neighbours at the current depth and stops at the first. The
 * answer is BFS's (depths, predecessors), so BFS's reference and validator
 * judge it. The per-element functions below are what pull adds. */
#ifndef GR_DOBFS_H
#define GR_DOBFS_H

#include "bfs/bfs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the pull's helper kernels see. */
typedef struct gr_dobfs_ctx {
  const gr_svid *depth; /* per local vertex */
  gr_svid level;        /* the current frontier's depth */
  uint32_t *bits;       /* the frontier as a bitmap over local ids */
  gr_vid n;             /* local vertices */
  uint32_t *visited;    /* push's visited bitmap (gr_bfs_ctx.visited) */
} gr_dobfs_ctx;

/* One word of the frontier bitmap: the 32 vertices of word w at depth
 * `level`. Whole words, so no atomics are needed. */
GR_HD void gr_dobfs_frontier_word(const gr_dobfs_ctx *c, gr_vid w) {
  uint32_t word = 0;
  const gr_vid first = w * 32u;
  for (unsigned k = 0; k < 32u; k++) {
    const gr_vid v = first + k;
    if (v < c->n && c->depth[v] == c->level) word |= 1u << k;
  }
  c->bits[w] = word;
}

/* One word of push's visited bitmap, from depth: a pull sets depths but
 * not the bitmap (a shared word per 32 vertices would cost an atomic per
 * vertex found), so the first push after pulls refreshes it. */
GR_HD void gr_dobfs_visited_word(const gr_dobfs_ctx *c, gr_vid w) {
  uint32_t word = 0;
  const gr_vid first = w * 32u;
  for (unsigned k = 0; k < 32u; k++) {
    const gr_vid v = first + k;
    if (v < c->n && c->depth[v] >= 0) word |= 1u << k;
  }
  c->visited[w] = word;
}

/* Candidates of a pull stay while unvisited. */
GR_HD bool gr_dobfs_unvisited(const gr_dobfs_ctx *c, gr_vid v) { return c->depth[v] < 0; }

typedef struct gr_dobfs_ops {
  gr_status (*frontier_bits)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_dobfs_ctx *);
  gr_status (*keep_unvisited)(gr_device *, gr_workspace *, gr_filter_args *, const gr_dobfs_ctx *);
  gr_status (*visited_bits)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_dobfs_ctx *);
} gr_dobfs_ops;

extern const gr_dobfs_ops gr__dobfs_ops_cpu;
#ifdef GR_HAVE_CUDA
extern const gr_dobfs_ops gr__dobfs_ops_cuda;
#endif

extern const gr_primitive gr_dobfs_primitive;

#ifdef __cplusplus
}
#endif

#endif
