/* SPDX-License-Identifier: Apache-2.0 */
/* Per-element functions used to test the operators on both backends: the
 * CPU instantiations (test_ops_cpu.c) are the portable definition the CUDA
 * ones (tests/gpu/test_ops_cuda.cu) are checked against. */
#ifndef GR_TEST_OPS_H
#define GR_TEST_OPS_H

#include "gr/atomic.h"
#include "gr/operators.h"
#include "gr/workspace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct test_ctx {
  gr_svid *label;  /* -1 unvisited */
  gr_svid *pred;
  uint32_t *marks; /* for_each writes here */
  gr_svid next;
  gr_vid modulus;  /* filter keeps v % modulus == 0 */
  uint32_t *stop;  /* levels: raised when stop_at is claimed (NULL: never) */
  gr_vid stop_at;
} test_ctx;

GR_HD bool test_visit(const test_ctx *c, gr_vid u, gr_vid v, gr_eid e) {
  (void)e;
  if (gr_load_relaxed_svid(&c->label[v]) >= 0) return false;
  if (!gr_atomic_cas_svid(&c->label[v], -1, c->next)) return false;
  c->pred[v] = (gr_svid)u;
  return true;
}
/* Levels: level l claims with label l + 1 (breadth-first depths from a
 * frontier at 0 whose first level is 0). */
GR_HD bool test_level_visit(const test_ctx *c, int level, gr_vid u, gr_vid v, gr_eid e) {
  (void)e;
  if (gr_load_relaxed_svid(&c->label[v]) >= 0) return false;
  if (!gr_atomic_cas_svid(&c->label[v], -1, (gr_svid)level + 1)) return false;
  c->pred[v] = (gr_svid)u;
  if (c->stop && v == c->stop_at) gr_levels_raise(c->stop, level);
  return true;
}
GR_HD bool test_wanted(const test_ctx *c, gr_vid v) { return c->label[v] < 0; }
GR_HD bool test_pull_visit(const test_ctx *c, gr_vid u, gr_vid v, gr_eid e) {
  (void)e;
  c->label[v] = c->next;
  c->pred[v] = (gr_svid)u;
  return true;
}
GR_HD bool test_keep(const test_ctx *c, gr_vid v) { return v % c->modulus == 0; }
/* split: class 0 when v % modulus == 0, 1 when it is 1, neither else. */
GR_HD int test_klass(const test_ctx *c, gr_vid v) {
  const gr_vid r = v % c->modulus;
  return r == 0 ? 0 : r == 1 ? 1 : -1;
}
GR_HD void test_mark(const test_ctx *c, gr_vid v) { c->marks[v] = (uint32_t)v * 2u + 1u; }

typedef struct test_ops {
  gr_status (*push)(gr_device *, gr_workspace *, gr_advance_push_args *, const test_ctx *);
  gr_status (*pull)(gr_device *, gr_workspace *, gr_advance_pull_args *, const test_ctx *);
  gr_status (*filter)(gr_device *, gr_workspace *, gr_filter_args *, const test_ctx *);
  gr_status (*for_each)(gr_device *, gr_workspace *, gr_for_each_args *, const test_ctx *);
  gr_status (*split)(gr_device *, gr_workspace *, gr_split_args *, const test_ctx *);
  gr_status (*levels)(gr_device *, gr_workspace *, gr_advance_levels_args *, const test_ctx *);
} test_ops;

extern const test_ops test_ops_cpu;
#ifdef GR_HAVE_CUDA
extern const test_ops test_ops_cuda;
/* Decodes every edge of g (packed lists on a GPU) into out[0 .. m) through
 * the operators' packed reader: pattern 0 edge-balanced warps starting
 * mid-block, 1 a warp per row, 2 four lanes per row with carried ids, 3 a
 * lane per row with carried ids, 4 a thread per row with a cursor. */
gr_status test_packed_decode_cuda(gr_device *dev, const gr_csr *g, int pattern, gr_vid *out);
/* gr_cuda::bitmap with the predicate flags[v] != 0 (flags and bits in
 * device memory), synchronized. */
gr_status test_bitmap_cuda(gr_device *dev, gr_vid n, const uint8_t *flags, uint32_t *bits, bool keep);
/* gr_device_preload of test_ops_cuda.cu's module (GR_CUDA_PRELOAD). */
gr_status test_ops_cuda_preload(gr_device *dev);
/* The kernels of test_ops_cuda.cu's module not loaded on the current GPU
 * yet, *total of them in all; -1 where the driver cannot tell (before
 * CUDA 12.4) or the build cannot ask (a toolkit before 12.5). */
int test_ops_cuda_unloaded(int *total);
#endif

#ifdef __cplusplus
}
#endif

#endif
