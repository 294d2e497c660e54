/* SPDX-License-Identifier: Apache-2.0 */
/* BC's CUDA instantiations against the portable definition (the CPU
 * backend) on the same inputs: a forward level (claims, path counts, the
 * emitted set), the backward compute and push; the whole primitive
 * on one GPU against the serial reference (one source and several,
 * --normalize), and on 2 and 3
 * devices sharing GPU 0 (GR_DEVICE_MAP) under every proxy and exchange mode
 * against one GPU. Beyond double (a 600 x 600 grid from a corner, whose
 * counts reach 10^359): the overflow flag, the log-mode kernels against the
 * CPU's, the primitive on one GPU against the long double reference and
 * on 2 and 3 devices sharing GPU 0 against one GPU. Skips (exit 77) where
 * no GPU exists. Runs with CK_NOFORK: CUDA must not cross a fork. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc/bc.h"
#include "comm.h"
#include "gr/enactor.h"
#include "gr/gen.h"
#include "gr/util.h"
#include "partitioner.h"
#include "subgraph_builder.h"
#include "testutil.h"

static gr_device *gpu, *cpu;

static void setup(void) {
  ck_assert_int_eq(gr_device_create(&gpu, GR_BACKEND_CUDA, 0, NULL), GR_SUCCESS);
  ck_assert_int_eq(gr_device_create(&cpu, GR_BACKEND_CPU, 0, NULL), GR_SUCCESS);
}

static void teardown(void) {
  /* A failed check in a case on devices sharing GPU 0 leaves it early (no
   * fork): its map must not outlive it into the next case. */
  unsetenv("GR_DEVICE_MAP");
  gr_device_destroy(&gpu);
  gr_device_destroy(&cpu);
}

static void put(gr_device *dev, gr_buffer *b, const void *host, size_t bytes) {
  ck_assert_int_eq(gr_buffer_resize(b, dev, bytes ? bytes : 8, 0, "test"), GR_SUCCESS);
  if (host && bytes) ck_assert_int_eq(gr_device_copy(dev, b->ptr, host, bytes, GR_COPY_H2D), GR_SUCCESS);
}

static void get(gr_device *dev, void *host, const gr_buffer *b, size_t bytes) {
  if (bytes) ck_assert_int_eq(gr_device_copy(dev, host, b->ptr, bytes, GR_COPY_D2H), GR_SUCCESS);
}

/* One backend's copy of the graph (both ways) and of BC's state. */
typedef struct dev_run {
  gr_device *dev;
  gr_workspace ws;
  gr_buffer out_off, out_idx, in_off, in_idx, depth, sigma, acc, coef, bc, mark, list, out, overflow;
  gr_csr g_out, g_in;
  gr_bc_ctx c;
} dev_run;

static void dev_run_init(dev_run *r, gr_device *dev, gr_graph *g, const gr_svid *depth, const double *sigma,
                         const double *acc, const double *coef) {
  memset(r, 0, sizeof *r);
  r->dev = dev;
  ck_assert_int_eq(gr_workspace_init(&r->ws, dev, NULL), GR_SUCCESS);
  const gr_csr *o = gr_graph_out(g), *i = NULL;
  ck_assert_int_eq(gr_graph_in(g, &i), GR_SUCCESS);
  const gr_vid n = o->n;
  put(dev, &r->out_off, o->offsets, ((size_t)n + 1) * sizeof(gr_eid));
  put(dev, &r->out_idx, o->indices, (size_t)o->m * sizeof(gr_vid));
  put(dev, &r->in_off, i->offsets, ((size_t)n + 1) * sizeof(gr_eid));
  put(dev, &r->in_idx, i->indices, (size_t)i->m * sizeof(gr_vid));
  r->g_out = (gr_csr){n, o->m, r->out_off.ptr, r->out_idx.ptr, NULL, NULL};
  r->g_in = (gr_csr){n, i->m, r->in_off.ptr, r->in_idx.ptr, NULL, NULL};
  put(dev, &r->depth, depth, (size_t)n * sizeof(gr_svid));
  put(dev, &r->sigma, sigma, (size_t)n * sizeof(double));
  put(dev, &r->acc, acc, (size_t)n * sizeof(double));
  put(dev, &r->coef, coef, (size_t)n * sizeof(double));
  put(dev, &r->bc, NULL, (size_t)n * sizeof(double));
  ck_assert_int_eq(gr_device_memset(dev, r->bc.ptr, 0, (size_t)n * sizeof(double)), GR_SUCCESS);
  put(dev, &r->mark, NULL, (size_t)n * sizeof(int32_t));
  ck_assert_int_eq(gr_device_memset(dev, r->mark.ptr, 0xff, (size_t)n * sizeof(int32_t)), GR_SUCCESS);
  put(dev, &r->out, NULL, (size_t)n * sizeof(gr_vid));
  r->c.depth = r->depth.ptr;
  r->c.sigma = r->sigma.ptr;
  r->c.acc = r->acc.ptr;
  r->c.coef = r->coef.ptr;
  r->c.bc = r->bc.ptr;
  r->c.mark = r->mark.ptr;
  r->c.scale = 1.0;
  put(dev, &r->overflow, NULL, sizeof(uint32_t));
  ck_assert_int_eq(gr_device_memset(dev, r->overflow.ptr, 0, sizeof(uint32_t)), GR_SUCCESS);
  r->c.overflow = r->overflow.ptr;
}

static uint32_t overflow_flag(dev_run *r) {
  uint32_t f = 0;
  get(r->dev, &f, &r->overflow, sizeof f);
  return f;
}

static void dev_run_free(dev_run *r) {
  gr_buffer *b[] = {&r->out_off, &r->out_idx, &r->in_off, &r->in_idx, &r->depth, &r->sigma, &r->acc,
                    &r->coef,    &r->bc,      &r->mark,   &r->list,   &r->out,   &r->overflow};
  for (size_t i = 0; i < sizeof b / sizeof *b; i++) gr_buffer_release(b[i]);
  gr_workspace_release(&r->ws);
}

static int cmp_vid(const void *a, const void *b) {
  const gr_vid x = *(const gr_vid *)a, y = *(const gr_vid *)b;
  return x < y ? -1 : x > y;
}

/* The same ids in any order. */
static void assert_same_set(gr_vid *a, gr_vid *b, gr_eid n, const char *what) {
  qsort(a, n, sizeof *a, cmp_vid);
  qsort(b, n, sizeof *b, cmp_vid);
  for (gr_eid i = 0; i < n; i++) ck_assert_msg(a[i] == b[i], "%s: item %llu", what, (unsigned long long)i);
}

static void assert_close(double x, double y, double rel, const char *what, gr_vid v) {
  ck_assert_msg(fabs(x - y) <= rel * fabs(y) + 1e-300, "%s of %llu: GPU %.17g, CPU %.17g", what, (unsigned long long)v,
                x, y);
}

START_TEST(cuda_kernels_equal_cpu) {
  const char *names[] = {"kron:15:16", "uniform:14:8,directed", "grid2d:200x300"};
  for (int gi = 0; gi < 3; gi++) {
    gr_graph *g = gr_test_generated(names[gi]);
    const gr_csr *o = gr_graph_out(g);
    const gr_vid n = o->n;
    gr_vid s = 0;
    for (gr_vid v = 0; v < n; v++) s = o->offsets[v + 1] - o->offsets[v] > o->offsets[s + 1] - o->offsets[s] ? v : s;
    gr_prim_options po = GR_PRIM_OPTIONS_INIT;
    gr_run_args a = {s, 0, NULL, 0};
    gr_result ref = GR_RESULT_INIT;
    ck_assert_int_eq(gr_bc_reference(g, &a, &po, &ref), GR_SUCCESS);
    const gr_svid *rdepth = ref.aux_values[0];
    const double *rsigma = ref.aux_values[1];
    const int levels = (int)ref.extra.numbers[1];
    ck_assert_int_ge(levels, 3);
    /* The state before the widest level k: depths and counts up to k. */
    gr_eid *width = calloc((size_t)levels, sizeof *width);
    for (gr_vid v = 0; v < n; v++)
      if (rdepth[v] >= 0) width[rdepth[v]]++;
    int k = 0;
    for (int l = 0; l < levels - 1; l++) k = width[l] > width[k] ? l : k;
    free(width);
    gr_svid *depth = malloc(sizeof *depth * n);
    double *sigma = malloc(sizeof *sigma * n), *acc = malloc(sizeof *acc * n), *coef = malloc(sizeof *coef * n);
    gr_vid *list = malloc(sizeof *list * n);
    gr_eid n_list = 0;
    for (gr_vid v = 0; v < n; v++) {
      depth[v] = rdepth[v] >= 0 && rdepth[v] <= k ? rdepth[v] : -1;
      sigma[v] = depth[v] >= 0 ? rsigma[v] : 0.0;
      acc[v] = 0.0;
      coef[v] = gr_u01(gr_rand64(3, 0, v)) + 0.5;
      if (rdepth[v] == k) list[n_list++] = v;
    }
    dev_run rg, rc;
    dev_run_init(&rg, gpu, g, depth, sigma, acc, coef);
    dev_run_init(&rc, cpu, g, depth, sigma, acc, coef);
    dev_run *rs[] = {&rg, &rc};
    put(gpu, &rg.list, list, (size_t)n_list * sizeof(gr_vid));
    put(cpu, &rc.list, list, (size_t)n_list * sizeof(gr_vid));
    /* Forward level k: the same claims, counts and emitted set. */
    gr_eid emitted[2], edges[2];
    for (int b = 0; b < 2; b++) {
      dev_run *r = rs[b];
      gr_advance_push_args pa;
      memset(&pa, 0, sizeof pa);
      pa.g = &r->g_out;
      pa.in = r->list.ptr;
      pa.n_in = n_list;
      pa.out = r->out.ptr;
      pa.out_capacity = n;
      r->c.level = k;
      ck_assert_int_eq(gr__bc_ops(r->dev)->forward[GR_BC_LINEAR](r->dev, &r->ws, &pa, &r->c), GR_SUCCESS);
      emitted[b] = pa.n_out;
      edges[b] = pa.edges;
    }
    ck_assert_uint_eq(emitted[0], emitted[1]);
    ck_assert_uint_eq(edges[0], edges[1]);
    ck_assert_uint_eq(overflow_flag(&rg), 0);
    ck_assert_uint_eq(overflow_flag(&rc), 0);
    gr_vid *x = malloc(sizeof *x * n), *y = malloc(sizeof *y * n);
    get(gpu, x, &rg.out, emitted[0] * sizeof(gr_vid));
    get(cpu, y, &rc.out, emitted[1] * sizeof(gr_vid));
    assert_same_set(x, y, emitted[0], "forward emitted");
    gr_svid *dg = malloc(sizeof *dg * n), *dc = malloc(sizeof *dc * n);
    double *fg = malloc(sizeof *fg * n), *fc = malloc(sizeof *fc * n);
    get(gpu, dg, &rg.depth, n * sizeof(gr_svid));
    get(cpu, dc, &rc.depth, n * sizeof(gr_svid));
    get(gpu, fg, &rg.sigma, n * sizeof(double));
    get(cpu, fc, &rc.sigma, n * sizeof(double));
    for (gr_vid v = 0; v < n; v++) {
      ck_assert_msg(dg[v] == dc[v], "%s: depth of %llu", names[gi], (unsigned long long)v);
      /* Integer counts below 2^53: exact in any order, and the reference's. */
      ck_assert_msg(fg[v] == fc[v], "%s: paths to %llu", names[gi], (unsigned long long)v);
      if (rdepth[v] >= 0 && rdepth[v] <= k + 1) ck_assert_msg(fc[v] == rsigma[v], "%s: reference count", names[gi]);
    }
    /* Backward from level k (the reference's depths and counts): the
     * compute, then the push into level k - 1 and into "proxies" (an owner
     * table that gives every third vertex to another part). */
    uint8_t *owner = malloc(n);
    for (gr_vid v = 0; v < n; v++) owner[v] = v % 3 == 0 ? 1 : 0;
    gr_buffer og = GR_BUFFER_INIT, oc = GR_BUFFER_INIT;
    put(gpu, &og, owner, n);
    put(cpu, &oc, owner, n);
    for (gr_vid v = 0; v < n; v++) acc[v] = rdepth[v] == k ? gr_u01(gr_rand64(4, 0, v)) : 0.0;
    n_list = 0;
    for (gr_vid v = 0; v < n; v++)
      if (rdepth[v] == k && owner[v] == 0) list[n_list++] = v;
    for (int b = 0; b < 2; b++) {
      dev_run *r = rs[b];
      ck_assert_int_eq(gr_device_copy(r->dev, r->depth.ptr, rdepth, n * sizeof(gr_svid), GR_COPY_H2D), GR_SUCCESS);
      ck_assert_int_eq(gr_device_copy(r->dev, r->sigma.ptr, rsigma, n * sizeof(double), GR_COPY_H2D), GR_SUCCESS);
      ck_assert_int_eq(gr_device_copy(r->dev, r->acc.ptr, acc, n * sizeof(double), GR_COPY_H2D), GR_SUCCESS);
      put(r->dev, &r->list, list, (size_t)n_list * sizeof(gr_vid));
      r->c.owner = b == 0 ? og.ptr : oc.ptr;
      r->c.me = 0;
      r->c.level = k;
      r->c.stamp = 7;
      gr_for_each_args e = {r->list.ptr, n_list, 0};
      ck_assert_int_eq(gr__bc_ops(r->dev)->backward_compute[GR_BC_LINEAR](r->dev, &r->ws, &e, &r->c), GR_SUCCESS);
      gr_advance_push_args pa;
      memset(&pa, 0, sizeof pa);
      pa.g = &r->g_in;
      pa.in = r->list.ptr;
      pa.n_in = n_list;
      pa.out = r->out.ptr;
      pa.out_capacity = n;
      ck_assert_int_eq(gr__bc_ops(r->dev)->backward[GR_BC_LINEAR](r->dev, &r->ws, &pa, &r->c), GR_SUCCESS);
      emitted[b] = pa.n_out;
      edges[b] = pa.edges;
    }
    ck_assert_uint_eq(emitted[0], emitted[1]);
    ck_assert_uint_eq(edges[0], edges[1]);
    get(gpu, x, &rg.out, emitted[0] * sizeof(gr_vid));
    get(cpu, y, &rc.out, emitted[1] * sizeof(gr_vid));
    assert_same_set(x, y, emitted[0], "backward emitted proxies");
    for (gr_eid i = 0; i < emitted[1]; i++) ck_assert_int_eq(owner[y[i]], 1);
    const gr_buffer *arrays[] = {&rg.bc, &rc.bc, &rg.coef, &rc.coef, &rg.acc, &rc.acc};
    const char *what[] = {"centrality", "coefficient", "successor sum"};
    for (int t = 0; t < 3; t++) {
      get(gpu, fg, arrays[2 * t], n * sizeof(double));
      get(cpu, fc, arrays[2 * t + 1], n * sizeof(double));
      /* The compute may fuse a multiply-add on the GPU; the push adds in
       * any order (a hub's sum of thousands of terms). */
      for (gr_vid v = 0; v < n; v++) assert_close(fg[v], fc[v], t < 2 ? 1e-14 : 1e-11, what[t], v);
    }
    gr_buffer_release(&og);
    gr_buffer_release(&oc);
    free(owner);
    free(x);
    free(y);
    free(dg);
    free(dc);
    free(fg);
    free(fc);
    free(depth);
    free(sigma);
    free(acc);
    free(coef);
    free(list);
    dev_run_free(&rg);
    dev_run_free(&rc);
    gr_result_free(&ref);
    gr_graph_destroy(&g);
  }
}
END_TEST

/* ---- beyond double --------------------------------------------------------- */

enum { GRID = 600 };

/* The reference from corner 0 of the 600 x 600 grid: its counts are
 * logarithms (sigma_log), C(i + j, i) at (i, j). */
static gr_graph *grid_reference(gr_result *ref) {
  gr_graph *g = gr_test_generated("grid2d:600x600");
  gr_prim_options po = GR_PRIM_OPTIONS_INIT;
  gr_run_args a = {0, 0, NULL, 0};
  ck_assert_msg(gr_bc_reference(g, &a, &po, ref) == GR_SUCCESS, "%s", gr_error_message());
  ck_assert_double_eq(ref->extra.numbers[3], 1.0); /* sigma_log */
  return g;
}

/* The forward visit in double raises the flag on both backends where it
 * expands counts above GR_BC_LOG_THRESHOLD (level 1000: up to C(1000, 500)
 * ~ 10^299, still a double) and not below (level 200). */
START_TEST(cuda_overflow_flag_equals_cpu) {
  gr_result ref = GR_RESULT_INIT;
  gr_graph *g = grid_reference(&ref);
  const gr_vid n = gr_graph_num_vertices(g);
  const gr_svid *rdepth = ref.aux_values[0];
  const double *rls = ref.aux_values[1];
  const int levels[] = {200, 1000};
  for (int l = 0; l < 2; l++) {
    const int k = levels[l];
    gr_svid *depth = malloc(sizeof *depth * n);
    double *sigma = malloc(sizeof *sigma * n), *zero = calloc(n, sizeof *zero);
    gr_vid *list = malloc(sizeof *list * n);
    gr_eid n_list = 0;
    for (gr_vid v = 0; v < n; v++) {
      depth[v] = rdepth[v] <= k ? rdepth[v] : -1;
      sigma[v] = depth[v] >= 0 ? exp(rls[v]) : 0.0;
      ck_assert(isfinite(sigma[v]));
      if (rdepth[v] == k) list[n_list++] = v;
    }
    dev_run rg, rc;
    dev_run_init(&rg, gpu, g, depth, sigma, zero, zero);
    dev_run_init(&rc, cpu, g, depth, sigma, zero, zero);
    dev_run *rs[] = {&rg, &rc};
    for (int b = 0; b < 2; b++) {
      dev_run *r = rs[b];
      put(r->dev, &r->list, list, (size_t)n_list * sizeof(gr_vid));
      gr_advance_push_args pa;
      memset(&pa, 0, sizeof pa);
      pa.g = &r->g_out;
      pa.in = r->list.ptr;
      pa.n_in = n_list;
      pa.out = r->out.ptr;
      pa.out_capacity = n;
      r->c.level = k;
      ck_assert_int_eq(gr__bc_ops(r->dev)->forward[GR_BC_LINEAR](r->dev, &r->ws, &pa, &r->c), GR_SUCCESS);
      /* Raised holding the level plus one (it is the forward loop's stop). */
      ck_assert_msg(overflow_flag(r) == (k == 1000 ? 1001u : 0u), "level %d, backend %d: %u", k, b, overflow_flag(r));
    }
    dev_run_free(&rg);
    dev_run_free(&rc);
    free(depth);
    free(sigma);
    free(zero);
    free(list);
  }
  gr_result_free(&ref);
  gr_graph_destroy(&g);
}
END_TEST

/* The log-mode kernels on the same inputs as the CPU's: a forward level
 * (log-adds; the counts then match the reference's logarithms), the
 * backward compute and push (with proxies). CUDA's exp, log1p may differ from the host's in the last
 * bits: within 1e-12 relative. */
START_TEST(cuda_log_kernels_equal_cpu) {
  gr_result ref = GR_RESULT_INIT;
  gr_graph *g = grid_reference(&ref);
  const gr_vid n = gr_graph_num_vertices(g);
  const gr_svid *rdepth = ref.aux_values[0];
  const double *rls = ref.aux_values[1];
  const int k = 900; /* counts up to 10^269 here, 10^359 at the far corner */
  gr_svid *depth = malloc(sizeof *depth * n);
  double *sigma = malloc(sizeof *sigma * n), *acc = malloc(sizeof *acc * n), *coef = malloc(sizeof *coef * n);
  gr_vid *list = malloc(sizeof *list * n);
  gr_eid n_list = 0;
  for (gr_vid v = 0; v < n; v++) {
    depth[v] = rdepth[v] <= k ? rdepth[v] : -1;
    sigma[v] = depth[v] >= 0 ? rls[v] : GR_LOG_ZERO;
    acc[v] = GR_LOG_ZERO;
    coef[v] = -rls[v];
    if (rdepth[v] == k) list[n_list++] = v;
  }
  dev_run rg, rc;
  dev_run_init(&rg, gpu, g, depth, sigma, acc, coef);
  dev_run_init(&rc, cpu, g, depth, sigma, acc, coef);
  dev_run *rs[] = {&rg, &rc};
  gr_eid emitted[2];
  for (int b = 0; b < 2; b++) {
    dev_run *r = rs[b];
    put(r->dev, &r->list, list, (size_t)n_list * sizeof(gr_vid));
    gr_advance_push_args pa;
    memset(&pa, 0, sizeof pa);
    pa.g = &r->g_out;
    pa.in = r->list.ptr;
    pa.n_in = n_list;
    pa.out = r->out.ptr;
    pa.out_capacity = n;
    r->c.level = k;
    ck_assert_int_eq(gr__bc_ops(r->dev)->forward[GR_BC_LOG](r->dev, &r->ws, &pa, &r->c), GR_SUCCESS);
    emitted[b] = pa.n_out;
  }
  ck_assert_uint_eq(emitted[0], emitted[1]);
  gr_vid *x = malloc(sizeof *x * n), *y = malloc(sizeof *y * n);
  get(gpu, x, &rg.out, emitted[0] * sizeof(gr_vid));
  get(cpu, y, &rc.out, emitted[1] * sizeof(gr_vid));
  assert_same_set(x, y, emitted[0], "log forward emitted");
  gr_svid *dg = malloc(sizeof *dg * n), *dc = malloc(sizeof *dc * n);
  double *fg = malloc(sizeof *fg * n), *fc = malloc(sizeof *fc * n);
  get(gpu, dg, &rg.depth, n * sizeof(gr_svid));
  get(cpu, dc, &rc.depth, n * sizeof(gr_svid));
  get(gpu, fg, &rg.sigma, n * sizeof(double));
  get(cpu, fc, &rc.sigma, n * sizeof(double));
  for (gr_vid v = 0; v < n; v++) {
    ck_assert_msg(dg[v] == dc[v], "depth of %llu", (unsigned long long)v);
    if (dc[v] < 0) {
      ck_assert(fg[v] == GR_LOG_ZERO && fc[v] == GR_LOG_ZERO);
      continue;
    }
    assert_close(fg[v], fc[v], 1e-12, "ln paths", v);
    if (rdepth[v] <= k + 1) assert_close(fc[v], rls[v], 1e-11, "ln paths against the reference", v);
  }
  /* Backward from level k with the reference's depths and logarithms: the
   * successors' sums as logarithms, every third vertex a proxy. */
  uint8_t *owner = malloc(n);
  for (gr_vid v = 0; v < n; v++) owner[v] = v % 3 == 0 ? 1 : 0;
  gr_buffer og = GR_BUFFER_INIT, oc = GR_BUFFER_INIT;
  put(gpu, &og, owner, n);
  put(cpu, &oc, owner, n);
  for (gr_vid v = 0; v < n; v++) acc[v] = rdepth[v] == k ? log(gr_u01(gr_rand64(4, 0, v)) + 0.1) - rls[v] : GR_LOG_ZERO;
  n_list = 0;
  for (gr_vid v = 0; v < n; v++)
    if (rdepth[v] == k && owner[v] == 0) list[n_list++] = v;
  for (int b = 0; b < 2; b++) {
    dev_run *r = rs[b];
    ck_assert_int_eq(gr_device_copy(r->dev, r->depth.ptr, rdepth, n * sizeof(gr_svid), GR_COPY_H2D), GR_SUCCESS);
    ck_assert_int_eq(gr_device_copy(r->dev, r->sigma.ptr, rls, n * sizeof(double), GR_COPY_H2D), GR_SUCCESS);
    ck_assert_int_eq(gr_device_copy(r->dev, r->acc.ptr, acc, n * sizeof(double), GR_COPY_H2D), GR_SUCCESS);
    put(r->dev, &r->list, list, (size_t)n_list * sizeof(gr_vid));
    r->c.owner = b == 0 ? og.ptr : oc.ptr;
    r->c.me = 0;
    r->c.level = k;
    r->c.stamp = 7;
    gr_for_each_args e = {r->list.ptr, n_list, 0};
    ck_assert_int_eq(gr__bc_ops(r->dev)->backward_compute[GR_BC_LOG](r->dev, &r->ws, &e, &r->c), GR_SUCCESS);
    gr_advance_push_args pa;
    memset(&pa, 0, sizeof pa);
    pa.g = &r->g_in;
    pa.in = r->list.ptr;
    pa.n_in = n_list;
    pa.out = r->out.ptr;
    pa.out_capacity = n;
    ck_assert_int_eq(gr__bc_ops(r->dev)->backward[GR_BC_LOG](r->dev, &r->ws, &pa, &r->c), GR_SUCCESS);
    emitted[b] = pa.n_out;
  }
  ck_assert_uint_eq(emitted[0], emitted[1]);
  get(gpu, x, &rg.out, emitted[0] * sizeof(gr_vid));
  get(cpu, y, &rc.out, emitted[1] * sizeof(gr_vid));
  assert_same_set(x, y, emitted[0], "log backward emitted proxies");
  const gr_buffer *arrays[] = {&rg.bc, &rc.bc, &rg.coef, &rc.coef, &rg.acc, &rc.acc};
  const char *what[] = {"centrality", "ln coefficient", "ln successor sum"};
  for (int t = 0; t < 3; t++) {
    get(gpu, fg, arrays[2 * t], n * sizeof(double));
    get(cpu, fc, arrays[2 * t + 1], n * sizeof(double));
    for (gr_vid v = 0; v < n; v++) {
      if (isinf(fc[v])) ck_assert_msg(fg[v] == fc[v], "%s of %llu", what[t], (unsigned long long)v);
      else assert_close(fg[v], fc[v], 1e-12, what[t], v);
    }
  }
  gr_buffer_release(&og);
  gr_buffer_release(&oc);
  free(owner);
  free(x);
  free(y);
  free(dg);
  free(dc);
  free(fg);
  free(fc);
  free(depth);
  free(sigma);
  free(acc);
  free(coef);
  free(list);
  dev_run_free(&rg);
  dev_run_free(&rc);
  gr_result_free(&ref);
  gr_graph_destroy(&g);
}
END_TEST

static void run_bc(gr_subgraph *const *subs, int devices, const gr_exchange_ops *ex, void *shared,
                   const gr_prim_options *o, const gr_run_args *a, gr_result *out) {
  gr_enactor_config cfg = {.prim = &gr_bc_primitive,
                           .opts = o,
                           .backend = GR_BACKEND_CUDA,
                           .n_devices = devices,
                           .mem = GR_MEM_POLICY_INIT,
                           .subs = subs,
                           .exchange = ex,
                           .exchange_shared = shared,
                           .broadcast = shared && gr_comm_mode_of(shared) == GR_COMM_BROADCAST};
  gr_enactor *e = NULL;
  ck_assert_msg(gr_enactor_create(&e, &cfg) == GR_SUCCESS, "%s", gr_error_message());
  for (int k = 0; k < 2; k++) {
    gr_run_stats st;
    ck_assert_msg(gr_enactor_run(e, a, &st) == GR_SUCCESS, "%s", gr_error_message());
    gr_run_stats_free(&st);
    ck_assert_int_eq(gr_enactor_extract_reuse(e, out), GR_SUCCESS);
  }
  gr_enactor_destroy(&e);
}

/* One GPU runs small levels in device-side loops (forward: the advance's
 * levels kernel with a trail; backward: a pull of its own) and large ones
 * level by level: the defaults, no loop, and a mix with hand-overs both
 * ways. */
static const char *const tunings[] = {"", "small=off", "small-vertices=256,small-degree=64"};

START_TEST(cuda_bc_equals_reference) {
  const char *specs[] = {"kron:16:16", "grid2d:300x400", "kron:14:8,directed"};
  unsigned combo = 0;
  for (int t = 0; t < 3; t++)
  for (int i = 0; i < 3; i++) {
    /* One source and four, normalized; a slice with neither skips the
     * graph. */
    if (!gr_test_slice_enter(&combo, 2)) continue;
    gr_graph *g = gr_test_generated(specs[i]);
    const gr_vid n = gr_graph_num_vertices(g);
    gr_subgraph *sub = NULL;
    ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
    gr_vid src[4];
    for (int k = 0; k < 4; k++) src[k] = (gr_vid)((k * 7919u + 5u) % n);
    for (int c = 0; c < 2; c++) {
      if (!gr_test_in_slice(&combo)) continue;
      /* GR_TEST_SOURCES=J/M: one run of a part of them. */
      gr_vid part[4];
      memcpy(part, src, sizeof part);
      const gr_vid ns = (gr_vid)gr_test_keep_sources(part, c ? 4 : 1);
      if (!ns) continue;
      gr_prim_options o = GR_PRIM_OPTIONS_INIT;
      if (*tunings[t]) ck_assert_int_eq(gr_tuning_parse(&o.tune, tunings[t]), GR_SUCCESS);
      o.normalize = c == 1;
      gr_run_args a = {part[0], 0, part, ns};
      gr_result r = GR_RESULT_INIT;
      run_bc(&sub, 1, NULL, NULL, &o, &a, &r);
      ck_assert_msg(gr_bc_validate(g, &a, &o, &r, NULL) == GR_SUCCESS, "%s, %llu sources on one GPU, '%s': %s",
                    specs[i], (unsigned long long)ns, tunings[t], gr_error_message());
      gr_result_free(&r);
    }
    gr_subgraph_destroy(&sub);
    gr_graph_destroy(&g);
  }
  ck_assert_uint_eq(combo, 3 * 3 * 2);
}
END_TEST

/* What checks one run on devices sharing GPU 0 (its result, named). */
typedef void (*bc_shared_check)(const gr_result *r, const char *what, void *ctx);

/* BC on 2 devices (random parts) and 3 (ranges) sharing GPU 0, each proxy
 * mode and exchange mode: a graph's 8 combinations, in blocks of 4 (a
 * device count: its partition) and 2 (a proxy mode: its subgraphs) that a
 * slice holding none of them skips; check sees each run's result. */
static void bc_on_shared_gpu(gr_graph *g, const char *name, const gr_prim_options *o, const gr_run_args *a,
                             unsigned *combo, bc_shared_check check, void *ctx) {
  const gr_proxy_mode proxies[] = {GR_PROXY_ALL, GR_PROXY_1HOP};
  const gr_comm_mode modes[] = {GR_COMM_SELECTIVE, GR_COMM_BROADCAST};
  const char *maps[] = {"0,0", "0,0,0"};
  for (int nd = 2; nd <= 3; nd++) {
    if (!gr_test_slice_enter(combo, 4)) continue;
    setenv("GR_DEVICE_MAP", maps[nd - 2], 1);
    gr_partition_options po = GR_PARTITION_OPTIONS_INIT;
    po.kind = nd == 2 ? GR_PART_RANDOM : GR_PART_RANGE;
    po.parts = nd;
    gr_partition *part = NULL;
    ck_assert_int_eq(gr_partition_create(&part, g, &po), GR_SUCCESS);
    for (int xi = 0; xi < 2; xi++) {
      if (!gr_test_slice_enter(combo, 2)) continue;
      gr_subgraph **subs = NULL;
      ck_assert_int_eq(gr_subgraphs_build(&subs, g, part, proxies[xi], true, false), GR_SUCCESS);
      for (int mi = 0; mi < 2; mi++) {
        if (!gr_test_in_slice(combo)) continue;
        gr_comm_options co = {modes[mi], GR_TRANSPORT_P2P, GR_COMM_FORMAT_AUTO, NULL};
        gr_comm *comm = NULL;
        ck_assert_msg(gr_comm_create(&comm, GR_BACKEND_CUDA, nd, &co) == GR_SUCCESS, "%s", gr_error_message());
        gr_result r = GR_RESULT_INIT;
        run_bc(subs, nd, &gr_comm_exchange_ops, comm, o, a, &r);
        gr_comm_destroy(&comm);
        char what[160];
        snprintf(what, sizeof what, "%s on %d devices of GPU 0, %s proxies, %s", name, nd,
                 proxies[xi] == GR_PROXY_1HOP ? "1hop" : "all", gr_comm_mode_name(modes[mi]));
        check(&r, what, ctx);
        gr_result_free(&r);
      }
      gr_subgraphs_destroy(&subs, nd);
    }
    gr_partition_destroy(&part);
    unsetenv("GR_DEVICE_MAP");
  }
}

/* One GPU's answer (depths and counts exactly, centralities within 1e-9)
 * and the reference's. */
typedef struct bc_same_as_one {
  gr_graph *g;
  const gr_prim_options *o;
  const gr_run_args *a;
  const gr_result *expect;
} bc_same_as_one;

static void same_as_one_gpu(const gr_result *r, const char *what, void *ctx) {
  const bc_same_as_one *c = ctx;
  const gr_vid n = gr_graph_num_vertices(c->g);
  const double *x = r->values, *y = c->expect->values;
  for (gr_vid v = 0; v < n; v++) {
    ck_assert_msg(fabs(x[v] - y[v]) <= 1e-9 * y[v] + 1e-12, "%s: vertex %llu", what, (unsigned long long)v);
    ck_assert_msg(((const gr_svid *)r->aux_values[0])[v] == ((const gr_svid *)c->expect->aux_values[0])[v] &&
                      ((const double *)r->aux_values[1])[v] == ((const double *)c->expect->aux_values[1])[v],
                  "%s: depth or paths of %llu", what, (unsigned long long)v);
  }
  ck_assert_msg(gr_bc_validate(c->g, c->a, c->o, r, NULL) == GR_SUCCESS, "%s: %s", what, gr_error_message());
}

START_TEST(bc_on_devices_sharing_gpu_0_equals_one_gpu) {
  const char *specs[] = {"kron:12:16", "grid2d:60x80", "kron:11:4,directed"};
  unsigned combo = 0;
  /* What only a block of combinations needs (a graph and its one-GPU
   * answer, a partition, the subgraphs) is built only by the slices that
   * run one of them: 8 a graph, 4 a device count, 2 a proxy mode. */
  for (int i = 0; i < 3; i++) {
    if (!gr_test_slice_enter(&combo, 8)) continue;
    gr_graph *g = gr_test_generated(specs[i]);
    const gr_vid n = gr_graph_num_vertices(g);
    gr_prim_options o = GR_PRIM_OPTIONS_INIT;
    gr_vid src[3];
    for (int k = 0; k < 3; k++) src[k] = (gr_vid)((k * 131u + 7u) % n);
    /* GR_TEST_SOURCES=J/M: one run of a part of them (every combination
     * still runs). */
    const gr_vid ns = (gr_vid)gr_test_keep_sources(src, 3);
    if (!ns) {
      combo += 8;
      gr_graph_destroy(&g);
      continue;
    }
    gr_run_args a = {src[0], 0, src, ns};
    gr_subgraph *sub = NULL;
    ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
    gr_result expect = GR_RESULT_INIT;
    run_bc(&sub, 1, NULL, NULL, &o, &a, &expect);
    gr_subgraph_destroy(&sub);
    bc_same_as_one c = {g, &o, &a, &expect};
    bc_on_shared_gpu(g, specs[i], &o, &a, &combo, same_as_one_gpu, &c);
    gr_result_free(&expect);
    gr_graph_destroy(&g);
  }
  ck_assert_uint_eq(combo, 3 * 8);
}
END_TEST

static double extra_number(const gr_result *r, const char *name) {
  for (int i = 0; i < r->extra.n_numbers; i++)
    if (!strcmp(r->extra.number_names[i], name)) return r->extra.numbers[i];
  ck_abort_msg("no extra number %s", name);
  return 0;
}

/* Valid against the reference in double, every source run as logarithms. */
typedef struct bc_logs_from_the_start {
  gr_graph *g;
  const gr_prim_options *o;
  const gr_run_args *a;
} bc_logs_from_the_start;

static void valid_as_logarithms(const gr_result *r, const char *what, void *ctx) {
  const bc_logs_from_the_start *c = ctx;
  ck_assert_msg(gr_bc_validate(c->g, c->a, c->o, r, NULL) == GR_SUCCESS, "%s, as logarithms: %s", what,
                gr_error_message());
  ck_assert_double_eq(extra_number(r, "log_sources"), (double)c->a->n_sources);
  ck_assert_double_eq(extra_number(r, "sigma_log"), 1.0);
}

/* --tune bc-counts=log: every source as logarithms from the start, on
 * graphs whose counts fit double, so that the whole primitive's logarithm
 * kernels (device loops, level by level, the exchange's LOGADD) run in
 * seconds, under compute-sanitizer too: one GPU (each way of running
 * levels; one source and four, normalized) and 2 and 3 devices sharing
 * GPU 0 (each proxy and exchange mode, three sources), against the
 * reference in double. GR_TEST_SOURCES=J/M runs a part of each run's
 * sources, as in bc_on_devices_sharing_gpu_0_equals_one_gpu. */
START_TEST(cuda_bc_counts_as_logarithms_equal_reference) {
  const char *specs[] = {"kron:12:16", "grid2d:60x80", "kron:11:4,directed"};
  unsigned combo = 0;
  /* A graph's 6 runs on one GPU and 8 on devices sharing it; a slice with
   * none of them skips the graph. */
  for (int i = 0; i < 3; i++) {
    if (!gr_test_slice_enter(&combo, 14)) continue;
    gr_graph *g = gr_test_generated(specs[i]);
    const gr_vid n = gr_graph_num_vertices(g);
    gr_vid src[4];
    for (int k = 0; k < 4; k++) src[k] = (gr_vid)((k * 7919u + 5u) % n);
    gr_subgraph *sub = NULL;
    ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
    for (int t = 0; t < 3; t++)
      for (int c = 0; c < 2; c++) {
        if (!gr_test_in_slice(&combo)) continue;
        gr_prim_options o = GR_PRIM_OPTIONS_INIT;
        if (*tunings[t]) ck_assert_int_eq(gr_tuning_parse(&o.tune, tunings[t]), GR_SUCCESS);
        ck_assert_int_eq(gr_tuning_parse(&o.tune, "bc-counts=log"), GR_SUCCESS);
        o.normalize = c == 1;
        /* GR_TEST_SOURCES=J/M: a part of the run's sources, or none. */
        gr_vid kept[4];
        memcpy(kept, src, sizeof kept);
        const gr_vid ns = (gr_vid)gr_test_keep_sources(kept, c ? 4 : 1);
        if (!ns) continue;
        gr_run_args a = {kept[0], 0, kept, ns};
        gr_result r = GR_RESULT_INIT;
        run_bc(&sub, 1, NULL, NULL, &o, &a, &r);
        char what[160];
        snprintf(what, sizeof what, "%s, %llu sources on one GPU, '%s'", specs[i], (unsigned long long)ns, tunings[t]);
        bc_logs_from_the_start one = {g, &o, &a};
        valid_as_logarithms(&r, what, &one);
        gr_result_free(&r);
      }
    gr_subgraph_destroy(&sub);
    /* Three sources (or the part of them GR_TEST_SOURCES keeps) on devices
     * sharing GPU 0; sources are taken only where the slice runs one of
     * these 8, so that a part whose runs here and above kept none reads as
     * empty. */
    if (!gr_test_slice_enter(&combo, 8)) {
      gr_graph_destroy(&g);
      continue;
    }
    const gr_vid ns = (gr_vid)gr_test_keep_sources(src, 3);
    if (!ns) {
      combo += 8;
      gr_graph_destroy(&g);
      continue;
    }
    gr_prim_options o = GR_PRIM_OPTIONS_INIT;
    ck_assert_int_eq(gr_tuning_parse(&o.tune, "bc-counts=log"), GR_SUCCESS);
    gr_run_args a = {src[0], 0, src, ns};
    bc_logs_from_the_start shared = {g, &o, &a};
    bc_on_shared_gpu(g, specs[i], &o, &a, &combo, valid_as_logarithms, &shared);
    gr_graph_destroy(&g);
  }
  ck_assert_uint_eq(combo, 3 * 14);
}
END_TEST

/* The whole primitive beyond double on one GPU: a corner (runs again as
 * logarithms), the centre (stays in double), the far corner; the
 * validator holds it to the long double reference. */
START_TEST(cuda_bc_beyond_double_equals_reference) {
  /* 3 ways x 1 and 3 sources; a slice with none skips the grid. */
  unsigned combo = 0;
  if (!gr_test_slice_enter(&combo, 6)) return;
  gr_graph *g = gr_test_generated("grid2d:700x700");
  const gr_vid n = gr_graph_num_vertices(g);
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
  gr_vid src[] = {0, 350u * 700u + 350u, n - 1};
  /* The loops throughout; none; the corner's levels of more than 200
   * vertices level by level, so its overflow (near level 960, where a
   * level holds about 440 vertices) is raised outside the loop and found
   * when the loop is refused. */
  const char *ways[] = {"", "small=off", "small-vertices=200"};
  for (int w = 0; w < 3; w++)
  for (gr_vid k = 1; k <= 3; k += 2) {
    if (!gr_test_in_slice(&combo)) continue;
    gr_prim_options o = GR_PRIM_OPTIONS_INIT;
    if (*ways[w]) ck_assert_int_eq(gr_tuning_parse(&o.tune, ways[w]), GR_SUCCESS);
    gr_run_args a = {src[0], 0, src, k};
    gr_result r = GR_RESULT_INIT;
    run_bc(&sub, 1, NULL, NULL, &o, &a, &r);
    ck_assert_msg(gr_bc_validate(g, &a, &o, &r, NULL) == GR_SUCCESS, "%llu sources on one GPU, '%s': %s",
                  (unsigned long long)k, ways[w], gr_error_message());
    ck_assert_double_eq(extra_number(&r, "log_sources"), k == 1 ? 1.0 : 2.0);
    ck_assert_double_eq(extra_number(&r, "sigma_log"), 1.0);
    gr_result_free(&r);
  }
  ck_assert_uint_eq(combo, 6);
  gr_subgraph_destroy(&sub);
  gr_graph_destroy(&g);
}
END_TEST

/* Beyond double: one GPU's answer within the BC tolerance (ln sigma within
 * GR_BC_LOG_SIGMA_TOL), two sources as logarithms, and the reference's. */
typedef struct bc_beyond_double_same {
  gr_graph *g;
  const gr_prim_options *o;
  const gr_run_args *a;
  const gr_result *expect, *ref;
} bc_beyond_double_same;

static void beyond_double_same_as_one_gpu(const gr_result *r, const char *what, void *ctx) {
  const bc_beyond_double_same *c = ctx;
  const gr_vid n = gr_graph_num_vertices(c->g);
  ck_assert_double_eq(extra_number(r, "log_sources"), 2.0);
  ck_assert_double_eq(extra_number(r, "sigma_log"), 1.0);
  const double *x = r->values, *y = c->expect->values;
  const double *lx = r->aux_values[1], *ly = c->expect->aux_values[1];
  for (gr_vid v = 0; v < n; v++) {
    ck_assert_msg(fabs(x[v] - y[v]) <= GR_BC_REL_TOL * y[v] + GR_BC_ABS_TOL, "%s: vertex %llu", what,
                  (unsigned long long)v);
    ck_assert_msg(((const gr_svid *)r->aux_values[0])[v] == ((const gr_svid *)c->expect->aux_values[0])[v],
                  "%s: depth of %llu", what, (unsigned long long)v);
    ck_assert_msg(isinf(ly[v]) ? lx[v] == ly[v] : fabs(lx[v] - ly[v]) <= GR_BC_LOG_SIGMA_TOL,
                  "%s: ln paths to %llu", what, (unsigned long long)v);
  }
  ck_assert_msg(gr_bc_validate(c->g, c->a, c->o, r, c->ref) == GR_SUCCESS, "%s: %s", what, gr_error_message());
}

/* Beyond double on 2 and 3 devices sharing GPU 0 (LOGADD between them),
 * every proxy and exchange mode: one GPU's answer within the BC
 * tolerance, and the reference's. */
START_TEST(bc_beyond_double_on_devices_sharing_gpu_0_equals_one_gpu) {
  /* 8 combinations: a slice with none of them (any past the 8th of more
   * than 8 slices) skips the grid, its one-GPU answer and the reference;
   * 4 a device count, 2 a proxy mode, likewise. */
  unsigned combo = 0;
  if (!gr_test_slice_enter(&combo, 8)) return;
  gr_graph *g = gr_test_generated("grid2d:600x600");
  const gr_vid n = gr_graph_num_vertices(g);
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_vid src[] = {n - 1, (gr_vid)(GRID / 3) * GRID + GRID / 2, GRID - 1};
  gr_run_args a = {src[0], 0, src, 3};
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
  gr_result expect = GR_RESULT_INIT, ref = GR_RESULT_INIT;
  run_bc(&sub, 1, NULL, NULL, &o, &a, &expect);
  gr_subgraph_destroy(&sub);
  ck_assert_msg(gr_bc_reference(g, &a, &o, &ref) == GR_SUCCESS, "%s", gr_error_message());
  ck_assert_double_eq(extra_number(&expect, "log_sources"), 2.0);
  bc_beyond_double_same c = {g, &o, &a, &expect, &ref};
  bc_on_shared_gpu(g, "grid2d:600x600", &o, &a, &combo, beyond_double_same_as_one_gpu, &c);
  ck_assert_uint_eq(combo, 8);
  gr_result_free(&expect);
  gr_result_free(&ref);
  gr_graph_destroy(&g);
}
END_TEST

int main(void) {
  if (!gr_test_have_gpu()) return 77;
  Suite *s = suite_create("bc_cuda");
  /* One case per test, named after it: CK_RUN_CASE=name runs one. */
  const gr_test_case cases[] = {
      {"cuda_kernels_equal_cpu", cuda_kernels_equal_cpu, 0},
      {"cuda_bc_equals_reference", cuda_bc_equals_reference, 0},
      {"bc_on_devices_sharing_gpu_0_equals_one_gpu", bc_on_devices_sharing_gpu_0_equals_one_gpu, 0},
      {"cuda_overflow_flag_equals_cpu", cuda_overflow_flag_equals_cpu, 0},
      {"cuda_log_kernels_equal_cpu", cuda_log_kernels_equal_cpu, 0},
      {"cuda_bc_beyond_double_equals_reference", cuda_bc_beyond_double_equals_reference, 0},
      {"cuda_bc_counts_as_logarithms_equal_reference", cuda_bc_counts_as_logarithms_equal_reference, 0},
      {"bc_beyond_double_on_devices_sharing_gpu_0_equals_one_gpu", bc_beyond_double_on_devices_sharing_gpu_0_equals_one_gpu, 0},
  };
  gr_test_add_cases(s, cases, sizeof cases / sizeof cases[0], setup, teardown, 900);
  return gr_test_run_suite(s, 1);
}
