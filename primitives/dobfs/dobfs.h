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
} gr_dobfs_ctx;

/* The pull's frontier bitmap: the vertices at depth `level`. */
GR_HD bool gr_dobfs_in_frontier(const gr_dobfs_ctx *c, gr_vid v) { return c->depth[v] == c->level; }

typedef struct gr_dobfs_ops {
  gr_status (*frontier_bits)(gr_device *, gr_workspace *, gr_bitmap_args *, const gr_dobfs_ctx *);
} gr_dobfs_ops;

extern const gr_dobfs_ops gr__dobfs_ops_cpu;
#ifdef GR_HAVE_CUDA
extern const gr_dobfs_ops gr__dobfs_ops_cuda;
/* Loads dobfs_cuda.cu's kernels on the device's GPU (gr_device_preload). */
gr_status gr__dobfs_cuda_preload(gr_device *dev);
#endif

extern const gr_primitive gr_dobfs_primitive;

#ifdef __cplusplus
}
#endif

#endif
