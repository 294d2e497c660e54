/* SPDX-License-Identifier: Apache-2.0 */
/* PageRank's CUDA instantiations against the portable definition (the CPU
 * backend) on the same inputs: the pull step (light, medium and heavy rows:
 * ranks, change and dangling rank; plain ids, relabelled, packed lists), publish, the push and its step; the
 * whole primitive on one GPU, pull and push, against the double iteration,
 * and on 2 and 3 devices sharing GPU 0 (GR_DEVICE_MAP) under every proxy
 * and exchange mode against one GPU. Skips (exit 77) where no GPU exists.
 * Runs with CK_NOFORK: CUDA must not cross a fork. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "gr/enactor.h"
#include "gr/gen.h"
#include "gr/packed.h"
#include "gr/util.h"
#include "partitioner.h"
#include "pr/pr.h"
#include "subgraph_builder.h"
#include "testutil.h"

static gr_device *gpu, *cpu;

static void setup(void) {
  ck_assert_int_eq(gr_device_create(&gpu, GR_BACKEND_CUDA, 0, NULL), GR_SUCCESS);
  ck_assert_int_eq(gr_device_create(&cpu, GR_BACKEND_CPU, 0, NULL), GR_SUCCESS);
}

static void teardown(void) {
  gr_device_destroy(&gpu);
  gr_device_destroy(&cpu);
}

static gr_graph *from_coo(gr_coo *c, bool undirected) {
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  o.undirected = undirected;
  gr_graph *g = NULL;
  ck_assert_int_eq(gr_graph_from_coo(&g, c, &o), GR_SUCCESS);
  return g;
}

/* Rows of every kind of tile: a hub with 3 * GR_PR_TILE + 5 in-edges and
 * one just above GR_PR_TILE (chunks of heavy rows), one of exactly
 * GR_PR_TILE (a tile alone), rows of 17..316 (a warp each), light ones,
 * dangling vertices, and a run of 10,000 vertices without in-edges (tiles
 * closed by the row limit). */
static gr_graph *rows_of_every_class(void) {
  enum { N = 40000 };
  gr_coo c = GR_COO_INIT;
  ck_assert_int_eq(gr_coo_reserve(&c, 200000, false), GR_SUCCESS);
  for (gr_vid u = 1; u <= 3 * GR_PR_TILE + 5; u++) ck_assert_int_eq(gr_coo_push(&c, u, 0, 0), GR_SUCCESS);
  for (gr_vid u = 0; u <= GR_PR_TILE; u++) ck_assert_int_eq(gr_coo_push(&c, 20000 + u, 1, 0), GR_SUCCESS);
  for (gr_vid u = 0; u < GR_PR_TILE; u++) ck_assert_int_eq(gr_coo_push(&c, 30000 + u, 399, 0), GR_SUCCESS);
  for (gr_vid v = 2; v < 399; v++)
    for (gr_vid k = 0; k < 17 + v * 7 % 300; k++)
      ck_assert_int_eq(gr_coo_push(&c, (gr_vid)(gr_rand64(9, v, k) % N), v, 0), GR_SUCCESS);
  for (gr_vid v = 400; v < 30000; v++)
    for (gr_vid k = 0; k < v % 5; k++)
      ck_assert_int_eq(gr_coo_push(&c, (gr_vid)(gr_rand64(7, v, k) % 35000), v, 0), GR_SUCCESS);
  c.n = N;
  return from_coo(&c, false);
}

static void put(gr_device *dev, gr_buffer *b, const void *host, size_t bytes) {
  ck_assert_int_eq(gr_buffer_resize(b, dev, bytes ? bytes : 8, 0, "test"), GR_SUCCESS);
  if (host && bytes) ck_assert_int_eq(gr_device_copy(dev, b->ptr, host, bytes, GR_COPY_H2D), GR_SUCCESS);
}

static void get(gr_device *dev, void *host, const gr_buffer *b, size_t bytes) {
  if (bytes) ck_assert_int_eq(gr_device_copy(dev, host, b->ptr, bytes, GR_COPY_D2H), GR_SUCCESS);
}

typedef struct dev_run {
  gr_device *dev;
  gr_workspace ws;
  gr_buffer out_off, out_idx, in_off, in_idx, rank, contrib, acc, xfer, sums, sources;
  gr_csr out, in;
  gr_pr_plan plan;
  gr_pr_ctx c;
} dev_run;

/* The graph both ways, ranks and contributions as given. */
static void dev_run_init(dev_run *r, gr_device *dev, gr_graph *g, const float *rank, const float *contrib) {
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
  r->out = (gr_csr){n, o->m, r->out_off.ptr, r->out_idx.ptr, NULL, NULL};
  r->in = (gr_csr){n, i->m, r->in_off.ptr, r->in_idx.ptr, NULL, NULL};
  put(dev, &r->rank, rank, (size_t)n * sizeof(float));
  put(dev, &r->contrib, contrib, (size_t)n * sizeof(float));
  put(dev, &r->acc, NULL, (size_t)n * sizeof(double));
  ck_assert_int_eq(gr_device_memset(dev, r->acc.ptr, 0, (size_t)n * sizeof(double)), GR_SUCCESS);
  put(dev, &r->xfer, NULL, (size_t)n * sizeof(float));
  ck_assert_int_eq(gr_device_memset(dev, r->xfer.ptr, 0, (size_t)n * sizeof(float)), GR_SUCCESS);
  put(dev, &r->sums, NULL, 2 * sizeof(double));
  gr_vid *src = malloc(sizeof(gr_vid) * (n + 1));
  gr_eid k = 0;
  for (gr_vid v = 0; v < n; v++)
    if (o->offsets[v + 1] > o->offsets[v]) src[k++] = v;
  put(dev, &r->sources, src, (size_t)k * sizeof(gr_vid));
  free(src);
  if (gr_device_backend(dev) == GR_BACKEND_CUDA)
    ck_assert_int_eq(gr_pr_plan_build(&r->plan, dev, i, i->n, NULL, NULL, GR_PR_RELABEL_OFF, 0, 0), GR_SUCCESS);
  r->c.rank = r->rank.ptr;
  r->c.contrib = r->contrib.ptr;
  r->c.acc = r->acc.ptr;
  r->c.xfer = r->xfer.ptr;
  r->c.out_offsets = r->out.offsets;
  r->c.in_offsets = r->in.offsets;
  r->c.in_indices = r->in.indices;
  r->c.damping = GR_PR_DAMPING;
  r->c.base = (1 - GR_PR_DAMPING) / n;
  r->c.inv_n = 1.0 / n;
  r->c.inv_m = 1.0 / (double)o->m;
  r->c.dangling_share = 0.125 / n;
  r->c.sums = r->sums.ptr;
}

static void dev_run_free(dev_run *r) {
  gr_buffer *b[] = {&r->out_off, &r->out_idx, &r->in_off, &r->in_idx, &r->rank,
                    &r->contrib, &r->acc,     &r->xfer,   &r->sums,   &r->sources};
  for (size_t i = 0; i < sizeof b / sizeof *b; i++) gr_buffer_release(b[i]);
  gr_pr_plan_release(&r->plan);
  gr_workspace_release(&r->ws);
}

static void assert_close(double x, double y, double rel, const char *what, gr_vid v) {
  ck_assert_msg(fabs(x - y) <= rel * fabs(y) + 1e-300, "%s of %llu: GPU %.17g, CPU %.17g", what, (unsigned long long)v,
                x, y);
}

START_TEST(cuda_pull_push_and_publish_equal_cpu) {
  gr_graph *graphs[] = {rows_of_every_class(), gr_test_generated("kron:16:16"), gr_test_generated("uniform:14:8,directed")};
  for (int gi = 0; gi < 3; gi++) {
    gr_graph *g = graphs[gi];
    const gr_vid n = gr_graph_num_vertices(g);
    float *rank = malloc(sizeof(float) * n), *contrib = malloc(sizeof(float) * n);
    for (gr_vid v = 0; v < n; v++) {
      rank[v] = (float)(gr_u01(gr_rand64(1, 0, v)) / n);
      contrib[v] = (float)(gr_u01(gr_rand64(2, 0, v)) / n);
    }
    dev_run rg, rc;
    dev_run_init(&rg, gpu, g, rank, contrib);
    dev_run_init(&rc, cpu, g, rank, contrib);
    float *a = malloc(sizeof(float) * n), *b = malloc(sizeof(float) * n);
    /* The pull step: every row summed in double, in any order. */
    double l1g, dg, l1c, dc;
    ck_assert_int_eq(gr__pr_ops(gpu)->pull_step(gpu, &rg.ws, &rg.plan, n, &rg.c, &l1g, &dg), GR_SUCCESS);
    ck_assert_int_eq(gr__pr_ops(cpu)->pull_step(cpu, &rc.ws, &rc.plan, n, &rc.c, &l1c, &dc), GR_SUCCESS);
    get(gpu, a, &rg.rank, sizeof(float) * n);
    get(cpu, b, &rc.rank, sizeof(float) * n);
    for (gr_vid v = 0; v < n; v++) assert_close(a[v], b[v], 1e-6, "pulled rank", v);
    assert_close(l1g, l1c, 1e-9, "change", 0);
    assert_close(dg, dc, 1e-9, "dangling rank", 0);
    /* The relabelled pull (sources renumbered by the in-edges they feed),
     * with every position through L1, none, and a split inside the rows,
     * and the first positions from shared memory (none, a few, all, or
     * more than a block holds: clamped): the same sums from the same
     * ranks. */
    const gr_csr *in_host = NULL;
    ck_assert_int_eq(gr_graph_in(g, &in_host), GR_SUCCESS);
    const gr_eid hots[][2] = {{0, 0},  {37, 0},         {(gr_eid)n, 0}, {(gr_eid)n, 37},
                              {0, 20}, {37, (gr_eid)n}, {0, 1u << 20}};
    for (size_t h = 0; h < sizeof hots / sizeof *hots; h++) {
      gr_pr_plan_release(&rg.plan);
      /* Every other plan orders the sources by the out-edges' row lengths
       * (the whole graph's transpose), the rest by counting. */
      const gr_csr *transpose = h % 2 ? gr_graph_out(g) : NULL;
      ck_assert_int_eq(gr_pr_plan_build(&rg.plan, gpu, in_host, in_host->n, transpose, rg.in.indices, GR_PR_RELABEL_ON,
                                        hots[h][0], hots[h][1]),
                       GR_SUCCESS);
      ck_assert(rg.plan.relabelled);
      if (!transpose) {
        /* Counted on the GPU (gr_pr_ops.count_sources): the order of every
         * in-edge counted on the host. */
        gr_vid *want = malloc(sizeof *want * n), *wpos = malloc(sizeof *wpos * n), *got = malloc(sizeof *got * n);
        ck_assert_int_eq(gr_pr_order(in_host, NULL, 1, want, wpos, NULL), GR_SUCCESS);
        get(gpu, got, &rg.plan.order, sizeof(gr_vid) * n);
        for (gr_vid i = 0; i < n; i++) ck_assert_uint_eq(got[i], want[i]);
        free(want);
        free(wpos);
        free(got);
      }
      ck_assert_int_eq(gr_device_copy(gpu, rg.rank.ptr, rank, sizeof(float) * n, GR_COPY_H2D), GR_SUCCESS);
      ck_assert_int_eq(gr__pr_ops(gpu)->pull_step(gpu, &rg.ws, &rg.plan, n, &rg.c, &l1g, &dg), GR_SUCCESS);
      get(gpu, a, &rg.rank, sizeof(float) * n);
      for (gr_vid v = 0; v < n; v++) assert_close(a[v], b[v], 1e-6, "relabelled pulled rank", v);
      assert_close(l1g, l1c, 1e-9, "relabelled change", 0);
      assert_close(dg, dc, 1e-9, "relabelled dangling rank", 0);
    }
    /* Packed in-lists (as --compress packed puts them on a device): the
     * tiles decode them, chunks of heavy rows and runs of empty rows
     * included; the CPU walks the same packed rows in order, so its sums
     * are the plain ones exactly. */
    {
      gr_pr_plan_release(&rg.plan);
      ck_assert_int_eq(gr_pr_plan_build(&rg.plan, gpu, in_host, in_host->n, NULL, NULL, GR_PR_RELABEL_OFF, 0, 0), GR_SUCCESS);
      gr_buffer pg[3] = {GR_BUFFER_INIT, GR_BUFFER_INIT, GR_BUFFER_INIT},
                pc[3] = {GR_BUFFER_INIT, GR_BUFFER_INIT, GR_BUFFER_INIT};
      gr_pr_ctx cg = rg.c, cc = rc.c;
      ck_assert_int_eq(gr_test_upload_packed(gpu, in_host, pg, &cg.in_packed), GR_SUCCESS);
      ck_assert_int_eq(gr_test_upload_packed(cpu, in_host, pc, &cc.in_packed), GR_SUCCESS);
      cg.in_indices = cc.in_indices = NULL;
      ck_assert_int_eq(gr_device_copy(gpu, rg.rank.ptr, rank, sizeof(float) * n, GR_COPY_H2D), GR_SUCCESS);
      ck_assert_int_eq(gr_device_copy(cpu, rc.rank.ptr, rank, sizeof(float) * n, GR_COPY_H2D), GR_SUCCESS);
      double l1p, dp, l1q, dq;
      ck_assert_int_eq(gr__pr_ops(gpu)->pull_step(gpu, &rg.ws, &rg.plan, n, &cg, &l1p, &dp), GR_SUCCESS);
      ck_assert_int_eq(gr__pr_ops(cpu)->pull_step(cpu, &rc.ws, &rc.plan, n, &cc, &l1q, &dq), GR_SUCCESS);
      get(gpu, a, &rg.rank, sizeof(float) * n);
      gr_vid first_bad = n;
      for (gr_vid v = 0; v < n && first_bad == n; v++)
        if (!(fabs((double)a[v] - (double)b[v]) <= 1e-6 * fabs((double)b[v]))) first_bad = v;
      if (first_bad < n) assert_close(a[first_bad], b[first_bad], 1e-6, "pulled rank (packed lists)", first_bad);
      assert_close(l1p, l1c, 1e-9, "change (packed lists)", 0);
      assert_close(dp, dc, 1e-9, "dangling rank (packed lists)", 0);
      get(cpu, a, &rc.rank, sizeof(float) * n);
      ck_assert_msg(!memcmp(a, b, sizeof(float) * n), "CPU pull over packed lists differs from plain ids");
      assert_close(l1q, l1c, 1e-12, "CPU change (packed lists)", 0);
      assert_close(dq, dc, 1e-12, "CPU dangling rank (packed lists)", 0);
      for (int k = 0; k < 3; k++) {
        gr_buffer_release(&pg[k]);
        gr_buffer_release(&pc[k]);
      }
    }
    /* Publish: the same division on both, from the same ranks (the pulled
     * ranks agree to rounding only: their sums run in different orders). */
    ck_assert_int_eq(gr_device_copy(gpu, rg.rank.ptr, b, sizeof(float) * n, GR_COPY_H2D), GR_SUCCESS);
    gr_for_each_args all = {NULL, n, 0};
    ck_assert_int_eq(gr__pr_ops(gpu)->publish(gpu, &rg.ws, &all, &rg.c), GR_SUCCESS);
    ck_assert_int_eq(gr__pr_ops(cpu)->publish(cpu, &rc.ws, &all, &rc.c), GR_SUCCESS);
    get(gpu, a, &rg.contrib, sizeof(float) * n);
    get(cpu, b, &rc.contrib, sizeof(float) * n);
    for (gr_vid v = 0; v < n; v++) ck_assert_msg(a[v] == b[v], "contribution of %llu", (unsigned long long)v);
    /* The push (double adds, any order), then its step. */
    for (int first = 0; first < 2; first++) {
      dev_run *rs[] = {&rg, &rc};
      double l1[2], dd[2];
      for (int k = 0; k < 2; k++) {
        dev_run *r = rs[k];
        const gr_pr_ops *ops = gr__pr_ops(r->dev);
        gr_advance_push_args pa;
        memset(&pa, 0, sizeof pa);
        pa.g = &r->out;
        pa.in = r->sources.ptr;
        pa.n_in = 0;
        const gr_csr *o = gr_graph_out(g);
        for (gr_vid v = 0; v < n; v++) pa.n_in += o->offsets[v + 1] > o->offsets[v];
        ck_assert_int_eq(ops->push(r->dev, &r->ws, &pa, &r->c), GR_SUCCESS);
        ck_assert_uint_eq(pa.n_out, 0);
        ck_assert_uint_eq(pa.edges, o->m);
        r->c.first = first;
        ck_assert_int_eq(ops->push_step(r->dev, &r->ws, n, &r->c, &l1[k], &dd[k]), GR_SUCCESS);
      }
      get(gpu, a, &rg.rank, sizeof(float) * n);
      get(cpu, b, &rc.rank, sizeof(float) * n);
      for (gr_vid v = 0; v < n; v++) assert_close(a[v], b[v], 1e-6, first ? "first rank" : "pushed rank", v);
      assert_close(l1[0], l1[1], 1e-9, "push change", 0);
      assert_close(dd[0], dd[1], 1e-9, "push dangling rank", 0);
    }
    free(a);
    free(b);
    free(rank);
    free(contrib);
    dev_run_free(&rg);
    dev_run_free(&rc);
    gr_graph_destroy(&g);
  }
}
END_TEST

static float *run_pr(gr_subgraph *const *subs, int devices, const gr_exchange_ops *ex, void *shared,
                     const gr_prim_options *o, int *iterations) {
  gr_enactor_config cfg = {.prim = &gr_pr_primitive,
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
  float *ranks = NULL;
  for (int k = 0; k < 2; k++) {
    gr_run_args a = {0, k, NULL, 0};
    gr_run_stats st;
    ck_assert_msg(gr_enactor_run(e, &a, &st) == GR_SUCCESS, "%s", gr_error_message());
    *iterations = st.iterations;
    gr_run_stats_free(&st);
    gr_result r = GR_RESULT_INIT;
    ck_assert_int_eq(gr_enactor_extract(e, &r), GR_SUCCESS);
    free(ranks);
    ranks = r.values;
    r.values = NULL;
    gr_result_free(&r);
  }
  gr_enactor_destroy(&e);
  return ranks;
}

/* Valid against the double iteration with as many iterations. */
static void check(gr_graph *g, const gr_prim_options *o, const float *x, int iterations, const char *what) {
  const gr_vid n = gr_graph_num_vertices(g);
  gr_result r = GR_RESULT_INIT;
  ck_assert_int_eq(gr_result_alloc(&r, n, GR_VALUE_FLOAT, false), GR_SUCCESS);
  memcpy(r.values, x, sizeof(float) * n);
  r.extra.n_numbers = 1;
  r.extra.number_names[0] = "iterations";
  r.extra.numbers[0] = iterations;
  gr_run_args a = {0, 0, NULL, 0};
  ck_assert_msg(gr_pr_validate(g, &a, o, &r, NULL) == GR_SUCCESS, "%s: %s", what, gr_error_message());
  gr_result_free(&r);
}

START_TEST(cuda_pr_equals_double_iteration) {
  gr_graph *graphs[] = {gr_test_generated("kron:16:16"), gr_test_generated("grid2d:300x400"), gr_test_generated("kron:14:8,directed"),
                        rows_of_every_class()};
  const char *names[] = {"kron:16:16", "grid2d:300x400", "kron:14:8,directed", "rows of every class"};
  for (int i = 0; i < 4; i++) {
    gr_graph *g = graphs[i];
    gr_subgraph *sub = NULL;
    ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
    for (int dir = 0; dir < 2; dir++) {
      gr_prim_options o = GR_PRIM_OPTIONS_INIT;
      o.direction = dir ? GR_DIRECTION_PUSH : GR_DIRECTION_PULL;
      ck_assert_int_eq(gr_pr_prepare(g, &o), GR_SUCCESS);
      int k = 0;
      float *x = run_pr(&sub, 1, NULL, NULL, &o, &k);
      char what[96];
      snprintf(what, sizeof what, "%s, %s on one GPU", names[i], dir ? "push" : "pull");
      check(g, &o, x, k, what);
      free(x);
    }
    gr_subgraph_destroy(&sub);
    gr_graph_destroy(&g);
  }
}
END_TEST

START_TEST(pr_on_devices_sharing_gpu_0_equals_one_gpu) {
  const char *specs[] = {"kron:12:16", "grid2d:60x80", "kron:11:4,directed"};
  const gr_proxy_mode proxies[] = {GR_PROXY_ALL, GR_PROXY_1HOP};
  const gr_comm_mode modes[] = {GR_COMM_SELECTIVE, GR_COMM_BROADCAST};
  const char *maps[] = {"0,0", "0,0,0"};
  for (int i = 0; i < 3; i++) {
    gr_graph *g = gr_test_generated(specs[i]);
    const gr_vid n = gr_graph_num_vertices(g);
    gr_prim_options o = GR_PRIM_OPTIONS_INIT;
    ck_assert_int_eq(gr_pr_prepare(g, &o), GR_SUCCESS);
    gr_subgraph *sub = NULL;
    ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
    int k1 = 0;
    float *expect = run_pr(&sub, 1, NULL, NULL, &o, &k1);
    gr_subgraph_destroy(&sub);
    for (int nd = 2; nd <= 3; nd++) {
      setenv("GR_DEVICE_MAP", maps[nd - 2], 1);
      gr_partition_options po = GR_PARTITION_OPTIONS_INIT;
      po.kind = nd == 2 ? GR_PART_RANDOM : GR_PART_RANGE;
      po.parts = nd;
      gr_partition *part = NULL;
      ck_assert_int_eq(gr_partition_create(&part, g, &po), GR_SUCCESS);
      for (int xi = 0; xi < 2; xi++) {
        gr_subgraph **subs = NULL;
        ck_assert_int_eq(gr_subgraphs_build(&subs, g, part, proxies[xi], true, false), GR_SUCCESS);
        for (int mi = 0; mi < 2; mi++) {
          gr_comm_options co = {modes[mi], GR_TRANSPORT_P2P, GR_COMM_FORMAT_AUTO, NULL};
          gr_comm *comm = NULL;
          ck_assert_msg(gr_comm_create(&comm, GR_BACKEND_CUDA, nd, &co) == GR_SUCCESS, "%s", gr_error_message());
          int k = 0;
          float *x = run_pr(subs, nd, &gr_comm_exchange_ops, comm, &o, &k);
          gr_comm_destroy(&comm);
          char what[160];
          snprintf(what, sizeof what, "%s on %d devices of GPU 0, %s proxies, %s", specs[i], nd,
                   proxies[xi] == GR_PROXY_1HOP ? "1hop" : "all", gr_comm_mode_name(modes[mi]));
          ck_assert_msg(k == k1, "%s: %d iterations, one GPU %d", what, k, k1);
          for (gr_vid v = 0; v < n; v++)
            ck_assert_msg(fabsf(x[v] - expect[v]) <= 1e-5f * expect[v], "%s: vertex %llu", what, (unsigned long long)v);
          check(g, &o, x, k, what);
          free(x);
        }
        gr_subgraphs_destroy(&subs, nd);
      }
      gr_partition_destroy(&part);
      unsetenv("GR_DEVICE_MAP");
    }
    free(expect);
    gr_graph_destroy(&g);
  }
}
END_TEST

int main(void) {
  if (!gr_test_have_gpu()) return 77;
  Suite *s = suite_create("pr_cuda");
  /* One case per test, named after it: CK_RUN_CASE=name runs one. */
  const gr_test_case cases[] = {
      {"cuda_pull_push_and_publish_equal_cpu", cuda_pull_push_and_publish_equal_cpu, 0},
      {"cuda_pr_equals_double_iteration", cuda_pr_equals_double_iteration, 0},
      {"pr_on_devices_sharing_gpu_0_equals_one_gpu", pr_on_devices_sharing_gpu_0_equals_one_gpu, 0},
  };
  gr_test_add_cases(s, cases, sizeof cases / sizeof cases[0], setup, teardown, 900);
  return gr_test_run_suite(s, 1);
}
