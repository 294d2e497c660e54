/* SPDX-License-Identifier: Apache-2.0 */
/* SSSP's CUDA instantiations against the portable definition (the CPU
 * backend) on the same inputs: the relaxation (distances and output sets
 * equal, predecessors valid), the input and pile splits and the pile
 * minimum, the split rows and the bucket end's take of heavy arcs; the whole primitive on one GPU against the serial reference bit
 * for bit, with and without the device-side loop over small buckets, and
 * on 2 and 3 devices sharing GPU 0 (GR_DEVICE_MAP) under every proxy and
 * exchange mode. Skips (exit 77) where no GPU exists.
 * Runs with CK_NOFORK: CUDA must not cross a fork. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "gr/enactor.h"
#include "gr/gen.h"
#include "gr/util.h"
#include "partitioner.h"
#include "sssp/sssp.h"
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

static int cmp_vid(const void *a, const void *b) {
  gr_vid x = *(const gr_vid *)a, y = *(const gr_vid *)b;
  return (x > y) - (x < y);
}

static gr_graph *generated(const char *spec, const char *weights) {
  gr_gen_spec s;
  ck_assert_int_eq(gr_gen_parse(&s, spec), GR_SUCCESS);
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  ck_assert_int_eq(gr_weight_spec_parse(&o.weights, weights), GR_SUCCESS);
  gr_graph *g = NULL;
  ck_assert_int_eq(gr_gen_graph(&g, &s, &o), GR_SUCCESS);
  return g;
}

/* One device's copy of a graph and of the state the kernels see. */
typedef struct dev_run {
  gr_device *dev;
  gr_workspace ws;
  gr_buffer offsets, indices, weights, dist, pred, dp, stamp, bits, in, out, out2;
  gr_csr g;
  gr_sssp_ctx c;
} dev_run;

static void put(gr_device *dev, gr_buffer *b, const void *host, size_t bytes, const char *what) {
  ck_assert_int_eq(gr_buffer_resize(b, dev, bytes ? bytes : 8, 0, what), GR_SUCCESS);
  if (host && bytes) ck_assert_int_eq(gr_device_copy(dev, b->ptr, host, bytes, GR_COPY_H2D), GR_SUCCESS);
}

static void get(gr_device *dev, void *host, const gr_buffer *b, size_t bytes) {
  if (bytes) ck_assert_int_eq(gr_device_copy(dev, host, b->ptr, bytes, GR_COPY_D2H), GR_SUCCESS);
}

/* The graph, distances (and words, with predecessors), cleared stamps and
 * the given pile bits, an input list, outputs of n entries. */
static void dev_run_init(dev_run *r, gr_device *dev, const gr_csr *h, const float *dist, bool preds,
                         const uint32_t *bits, const gr_vid *in, gr_eid n_in) {
  memset(r, 0, sizeof *r);
  r->dev = dev;
  ck_assert_int_eq(gr_workspace_init(&r->ws, dev, NULL), GR_SUCCESS);
  const gr_vid n = h->n;
  put(dev, &r->offsets, h->offsets, ((size_t)n + 1) * sizeof(gr_eid), "offsets");
  put(dev, &r->indices, h->indices, (size_t)h->m * sizeof(gr_vid), "indices");
  put(dev, &r->weights, h->weights, (size_t)h->m * sizeof(gr_weight), "weights");
  r->g = (gr_csr){n, h->m, r->offsets.ptr, r->indices.ptr, r->weights.ptr, NULL};
  put(dev, &r->dist, dist, (size_t)n * sizeof(float), "dist");
  int32_t *stamp = malloc((size_t)n * sizeof(int32_t) + 4);
  for (gr_vid v = 0; v < n; v++) stamp[v] = -1;
  put(dev, &r->stamp, stamp, (size_t)n * sizeof(int32_t), "stamps");
  free(stamp);
  put(dev, &r->bits, bits, gr_bitmap_words(n) * sizeof(uint32_t), "pile bits");
  put(dev, &r->in, in, (size_t)n_in * sizeof(gr_vid), "input");
  put(dev, &r->out, NULL, (size_t)n * sizeof(gr_vid), "output");
  put(dev, &r->out2, NULL, (size_t)n * sizeof(gr_vid), "second output");
  memset(&r->c, 0, sizeof r->c);
  r->c.dist = r->dist.ptr;
  r->c.stamp = r->stamp.ptr;
  r->c.weights = r->g.weights;
  r->c.pile_bits = r->bits.ptr;
  r->c.iteration = 5;
  if (preds) {
    uint64_t *dp = malloc((size_t)n * sizeof(uint64_t) + 8);
    gr_svid *pred = malloc((size_t)n * sizeof(gr_svid) + 8);
    for (gr_vid v = 0; v < n; v++) {
      uint32_t b;
      memcpy(&b, &dist[v], sizeof b);
      dp[v] = (uint64_t)b << 32 | 0xffffffffu;
      pred[v] = -1;
    }
    put(dev, &r->dp, dp, (size_t)n * sizeof(uint64_t), "words");
    put(dev, &r->pred, pred, (size_t)n * sizeof(gr_svid), "predecessors");
    free(dp);
    free(pred);
    r->c.dp = r->dp.ptr;
    r->c.pred = r->pred.ptr;
  }
}

static void dev_run_free(dev_run *r) {
  gr_buffer *b[] = {&r->offsets, &r->indices, &r->weights, &r->dist, &r->pred, &r->dp,
                    &r->stamp,   &r->bits,    &r->in,      &r->out,  &r->out2};
  for (size_t i = 0; i < sizeof b / sizeof *b; i++) gr_buffer_release(b[i]);
  gr_workspace_release(&r->ws);
}

static const gr_sssp_ops *ops_of(const dev_run *r) { return gr__sssp_ops(r->dev); }

/* A random directed graph with weights (integers or reals) and a hub. */
static gr_graph *random_graph(bool integer) {
  return generated("kron:14:8,directed", integer ? "random:0:100" : "random:0.125:20.5");
}

START_TEST(cuda_relax_equals_cpu_relax) {
  for (int kind = 0; kind < 4; kind++) {
    const bool integer = kind & 1, preds = kind & 2;
    gr_graph *gh = random_graph(integer);
    const gr_csr *h = gr_graph_out(gh);
    const gr_vid n = h->n;
    /* Frontier vertices at 0 (nothing lowers them, so the result does not
     * depend on the order of the relaxations); others unreached or at a
     * random distance. */
    float *dist = malloc((size_t)n * sizeof(float));
    gr_vid *in = malloc((size_t)n * sizeof(gr_vid));
    gr_eid n_in = 0;
    for (gr_vid v = 0; v < n; v++) {
      const uint64_t r = gr_rand64(11, (uint64_t)kind, v);
      if (r % 7 == 0) {
        dist[v] = 0.0f;
        in[n_in++] = v;
      } else {
        dist[v] = r % 3 ? INFINITY : (float)(r % 50);
      }
    }
    uint32_t *bits = calloc(gr_bitmap_words(n), sizeof(uint32_t));
    dev_run a, b;
    dev_run_init(&a, gpu, h, dist, preds, bits, in, n_in);
    dev_run_init(&b, cpu, h, dist, preds, bits, in, n_in);
    gr_advance_push_args pa = {.g = &a.g, .in = a.in.ptr, .n_in = n_in, .out = a.out.ptr, .out_capacity = n};
    gr_advance_push_args pb = {.g = &b.g, .in = b.in.ptr, .n_in = n_in, .out = b.out.ptr, .out_capacity = n};
    ck_assert_int_eq(ops_of(&a)->relax(gpu, &a.ws, &pa, &a.c), GR_SUCCESS);
    ck_assert_int_eq(ops_of(&b)->relax(cpu, &b.ws, &pb, &b.c), GR_SUCCESS);
    ck_assert_uint_eq(pa.n_out, pb.n_out);
    ck_assert_uint_eq(pa.edges, pb.edges);
    gr_vid *oa = malloc(((size_t)pa.n_out + 1) * sizeof(gr_vid)), *ob = malloc(((size_t)pb.n_out + 1) * sizeof(gr_vid));
    get(gpu, oa, &a.out, (size_t)pa.n_out * sizeof(gr_vid));
    get(cpu, ob, &b.out, (size_t)pb.n_out * sizeof(gr_vid));
    qsort(oa, (size_t)pa.n_out, sizeof(gr_vid), cmp_vid);
    qsort(ob, (size_t)pb.n_out, sizeof(gr_vid), cmp_vid);
    ck_assert_int_eq(memcmp(oa, ob, (size_t)pa.n_out * sizeof(gr_vid)), 0);
    for (gr_eid i = 1; i < pa.n_out; i++) ck_assert_uint_lt(oa[i - 1], oa[i]); /* each once */
    float *da = malloc((size_t)n * sizeof(float)), *db = malloc((size_t)n * sizeof(float));
    if (preds) {
      /* The words hold the distances; publish them into the arrays. */
      gr_for_each_args all = {NULL, n, 0};
      ck_assert_int_eq(ops_of(&a)->publish(gpu, &a.ws, &all, &a.c), GR_SUCCESS);
      ck_assert_int_eq(ops_of(&b)->publish(cpu, &b.ws, &all, &b.c), GR_SUCCESS);
      ck_assert_int_eq(gr_device_sync(gpu), GR_SUCCESS);
    }
    get(gpu, da, &a.dist, (size_t)n * sizeof(float));
    get(cpu, db, &b.dist, (size_t)n * sizeof(float));
    ck_assert_int_eq(memcmp(da, db, (size_t)n * sizeof(float)), 0);
    if (preds) {
      /* Any frontier in-neighbour whose edge gives the distance. */
      gr_svid *pr = malloc((size_t)n * sizeof(gr_svid));
      get(gpu, pr, &a.pred, (size_t)n * sizeof(gr_svid));
      for (gr_eid i = 0; i < pa.n_out; i++) {
        const gr_vid v = oa[i];
        const gr_svid u = pr[v];
        ck_assert_int_ge(u, 0);
        ck_assert(dist[u] == 0.0f);
        bool tight = false;
        for (gr_eid e = h->offsets[u]; e < h->offsets[u + 1] && !tight; e++)
          tight = h->indices[e] == v && h->weights[e] == da[v];
        ck_assert_msg(tight, "predecessor %lld of %llu gives no edge of weight %g", (long long)u,
                      (unsigned long long)v, (double)da[v]);
      }
      free(pr);
    }
    free(da);
    free(db);
    free(oa);
    free(ob);
    dev_run_free(&a);
    dev_run_free(&b);
    free(bits);
    free(in);
    free(dist);
    gr_graph_destroy(&gh);
  }
}
END_TEST

START_TEST(cuda_bucket_splits_and_pile_minimum_equal_cpu) {
  gr_graph *gh = random_graph(false);
  const gr_csr *h = gr_graph_out(gh);
  const gr_vid n = h->n;
  float *dist = malloc((size_t)n * sizeof(float));
  gr_vid *in = malloc((size_t)n * sizeof(gr_vid));
  uint32_t *bits = calloc(gr_bitmap_words(n), sizeof(uint32_t));
  gr_eid n_in = 0;
  for (gr_vid v = 0; v < n; v++) {
    const uint64_t r = gr_rand64(12, 0, v);
    dist[v] = (float)(r % 1000) * 0.5f;
    if (r % 3 == 0) in[n_in++] = v;
    if (r % 5 == 0) bits[v >> 5] |= 1u << (v & 31u); /* already in the pile */
  }
  for (int pass = 0; pass < 2; pass++) {
    dev_run a, b;
    dev_run_init(&a, gpu, h, dist, false, bits, in, n_in);
    dev_run_init(&b, cpu, h, dist, false, bits, in, n_in);
    a.c.split = b.c.split = 120.0f;
    a.c.lower = b.c.lower = pass ? 60.0f : 120.0f;
    if (pass) a.c.split = b.c.split = 180.0f;
    gr_split_args sa = {a.in.ptr, n_in, {a.out.ptr, a.out2.ptr}, {n, n}, {0, 0}, 0, 0, false, NULL, NULL};
    gr_split_args sb = {b.in.ptr, n_in, {b.out.ptr, b.out2.ptr}, {n, n}, {0, 0}, 0, 0, false, NULL, NULL};
    if (!pass) {
      ck_assert_int_eq(ops_of(&a)->split_input(gpu, &a.ws, &sa, &a.c), GR_SUCCESS);
      ck_assert_int_eq(ops_of(&b)->split_input(cpu, &b.ws, &sb, &b.c), GR_SUCCESS);
    } else {
      ck_assert_int_eq(ops_of(&a)->split_pile(gpu, &a.ws, &sa, &a.c), GR_SUCCESS);
      ck_assert_int_eq(ops_of(&b)->split_pile(cpu, &b.ws, &sb, &b.c), GR_SUCCESS);
    }
    for (int k = 0; k < 2; k++) {
      ck_assert_uint_eq(sa.n_out[k], sb.n_out[k]);
      gr_vid *xa = malloc(((size_t)sa.n_out[k] + 1) * sizeof(gr_vid));
      gr_vid *xb = malloc(((size_t)sb.n_out[k] + 1) * sizeof(gr_vid));
      get(gpu, xa, k ? &a.out2 : &a.out, (size_t)sa.n_out[k] * sizeof(gr_vid));
      get(cpu, xb, k ? &b.out2 : &b.out, (size_t)sb.n_out[k] * sizeof(gr_vid));
      qsort(xa, (size_t)sa.n_out[k], sizeof(gr_vid), cmp_vid);
      qsort(xb, (size_t)sb.n_out[k], sizeof(gr_vid), cmp_vid);
      ck_assert_int_eq(memcmp(xa, xb, (size_t)sa.n_out[k] * sizeof(gr_vid)), 0);
      free(xa);
      free(xb);
    }
    uint32_t *ba = malloc(gr_bitmap_words(n) * sizeof(uint32_t)), *bb = malloc(gr_bitmap_words(n) * sizeof(uint32_t));
    get(gpu, ba, &a.bits, gr_bitmap_words(n) * sizeof(uint32_t));
    get(cpu, bb, &b.bits, gr_bitmap_words(n) * sizeof(uint32_t));
    ck_assert_int_eq(memcmp(ba, bb, gr_bitmap_words(n) * sizeof(uint32_t)), 0);
    free(ba);
    free(bb);
    /* The smallest live key of the same list (and of an empty one). */
    float ma = 0, mb = 0;
    ck_assert_int_eq(ops_of(&a)->pile_min(gpu, &a.ws, a.in.ptr, n_in, &a.c, &ma), GR_SUCCESS);
    ck_assert_int_eq(ops_of(&b)->pile_min(cpu, &b.ws, b.in.ptr, n_in, &b.c, &mb), GR_SUCCESS);
    ck_assert(ma == mb && ma >= a.c.split);
    ck_assert_int_eq(ops_of(&a)->pile_min(gpu, &a.ws, a.in.ptr, 0, &a.c, &ma), GR_SUCCESS);
    ck_assert(isinf(ma));
    /* The heavy take and the least in one read (a bucket's end between
     * devices) against the two apart, the pile bits standing in for the
     * heavy ones; then each alone (an empty pile, an empty take). */
    a.c.heavy_bits = a.bits.ptr;
    b.c.heavy_bits = b.bits.ptr;
    const size_t wb = gr_bitmap_words(n) * sizeof(uint32_t);
    for (int form = 0; form < 3; form++) {
      const gr_eid take_n = form == 2 ? 0 : n, pile_n = form == 1 ? 0 : n_in;
      /* Every form from the same marks (a take clears those it takes). */
      ck_assert_int_eq(gr_device_copy(gpu, a.bits.ptr, bits, wb, GR_COPY_H2D), GR_SUCCESS);
      ck_assert_int_eq(gr_device_copy(cpu, b.bits.ptr, bits, wb, GR_COPY_H2D), GR_SUCCESS);
      gr_filter_args fa = {NULL, take_n, a.out.ptr, n, NULL, 0}, fb = {NULL, take_n, b.out.ptr, n, NULL, 0};
      float la = 0, lb = INFINITY;
      ck_assert_int_eq(ops_of(&a)->take_heavy_least(gpu, &a.ws, &fa, a.in.ptr, pile_n, &a.c, &la), GR_SUCCESS);
      if (take_n) ck_assert_int_eq(ops_of(&b)->take_heavy(cpu, &b.ws, &fb, &b.c), GR_SUCCESS);
      if (pile_n) ck_assert_int_eq(ops_of(&b)->pile_min(cpu, &b.ws, b.in.ptr, pile_n, &b.c, &lb), GR_SUCCESS);
      ck_assert_msg(la == lb || (isinf(la) && isinf(lb)), "form %d: least %g against %g", form, (double)la,
                    (double)lb);
      ck_assert_uint_eq(fa.n_out, fb.n_out);
      ck_assert(take_n == 0 || fa.n_out > 0);
      ck_assert(pile_n == 0 || !isinf(la));
      uint32_t *ka = malloc(wb), *kb = malloc(wb);
      get(gpu, ka, &a.bits, wb);
      get(cpu, kb, &b.bits, wb);
      ck_assert_int_eq(memcmp(ka, kb, wb), 0);
      free(ka);
      free(kb);
      gr_vid *oa = malloc(((size_t)fa.n_out + 1) * sizeof(gr_vid)), *ob = malloc(((size_t)fb.n_out + 1) * sizeof(gr_vid));
      get(gpu, oa, &a.out, (size_t)fa.n_out * sizeof(gr_vid));
      get(cpu, ob, &b.out, (size_t)fb.n_out * sizeof(gr_vid));
      qsort(oa, (size_t)fa.n_out, sizeof *oa, cmp_vid);
      qsort(ob, (size_t)fb.n_out, sizeof *ob, cmp_vid);
      ck_assert_int_eq(memcmp(oa, ob, (size_t)fa.n_out * sizeof(gr_vid)), 0);
      free(oa);
      free(ob);
    }
    dev_run_free(&a);
    dev_run_free(&b);
  }
  free(bits);
  free(in);
  free(dist);
  gr_graph_destroy(&gh);
}
END_TEST

/* Runs SSSP from `ns` sources on the given parts of backend `be`. */
static void run_sssp(gr_graph *g, gr_backend be, gr_subgraph *const *subs, int devices, const gr_exchange_ops *ex,
                     void *shared, const gr_prim_options *o, const gr_vid *src, int ns, gr_result *out) {
  gr_enactor_config cfg = {.prim = &gr_sssp_primitive,
                           .opts = o,
                           .backend = be,
                           .n_devices = devices,
                           .mem = GR_MEM_POLICY_INIT,
                           .subs = subs,
                           .exchange = ex,
                           .exchange_shared = shared};
  gr_enactor *e = NULL;
  ck_assert_msg(gr_enactor_create(&e, &cfg) == GR_SUCCESS, "%s", gr_error_message());
  for (int k = 0; k < ns; k++) {
    gr_run_args a = {src[k], k, NULL, 0};
    gr_run_stats st;
    ck_assert_msg(gr_enactor_run(e, &a, &st) == GR_SUCCESS, "%s", gr_error_message());
    gr_run_stats_free(&st);
    ck_assert_int_eq(gr_enactor_extract(e, &out[k]), GR_SUCCESS);
  }
  gr_enactor_destroy(&e);
}

enum { N_SRC = 3 };

static void sources(gr_graph *g, gr_vid src[N_SRC]) {
  const gr_csr *c = gr_graph_out(g);
  for (int i = 0; i < N_SRC; i++) {
    gr_vid v = (gr_vid)(((uint64_t)i * 7919u + 3) % c->n);
    while (c->offsets[v + 1] == c->offsets[v]) v = (v + 1) % c->n;
    src[i] = v;
  }
}

/* Bit for bit against the reference, valid, and on one device a tree of
 * predecessors. */
static void check(gr_graph *g, const gr_prim_options *o, const gr_vid *src, int ns, gr_result *r, bool tree,
                  const char *what) {
  const gr_vid n = gr_graph_num_vertices(g);
  for (int k = 0; k < ns; k++) {
    gr_run_args a = {src[k], k, NULL, 0};
    gr_result ref;
    ck_assert_int_eq(gr_sssp_reference(g, &a, o, &ref), GR_SUCCESS);
    ck_assert_msg(!memcmp(r[k].values, ref.values, (size_t)n * sizeof(float)), "%s: distances differ", what);
    ck_assert_msg(gr_sssp_validate(g, &a, o, &r[k], &ref) == GR_SUCCESS, "%s: %s", what, gr_error_message());
    if (tree && r[k].preds)
      for (gr_vid v = 0; v < n; v++) {
        if (!isfinite(((float *)r[k].values)[v])) continue;
        gr_vid x = v, steps = 0;
        while (x != src[k] && steps++ <= n && r[k].preds[x] >= 0) x = (gr_vid)r[k].preds[x];
        ck_assert_msg(x == src[k], "%s: predecessors of %llu form no path", what, (unsigned long long)v);
      }
    gr_result_free(&ref);
    gr_result_free(&r[k]);
  }
}

START_TEST(cuda_sssp_equals_reference) {
  const char *specs[] = {"kron:14:16", "grid2d:120x150", "uniform:13:8,directed"};
  const char *weights[] = {"random:1:255", "random:0.25:9.75", "random:0:3"};
  unsigned combo = 0;
  for (int i = 0; i < 3; i++)
    for (int w = 0; w < 3; w++) {
      /* 3 tunings x with and without predecessors; a slice with none of
       * them skips the graph. */
      if (!gr_test_slice_enter(&combo, 6)) continue;
      gr_graph *g = generated(specs[i], weights[w]);
      gr_vid src[N_SRC];
      sources(g, src);
      gr_subgraph *sub = NULL;
      ck_assert_int_eq(gr_subgraph_whole(&sub, g, false, true), GR_SUCCESS);
      /* With the device-side loop over small buckets (the default), without
       * it, and with limits that make runs enter and leave it often. */
      const char *tunings[] = {"", "small=off", "small-vertices=300,small-edges=3000"};
      for (int t = 0; t < 3; t++)
        for (int pred = 0; pred < 2; pred++) {
          if (!gr_test_in_slice(&combo)) continue;
          gr_prim_options o = GR_PRIM_OPTIONS_INIT;
          o.mark_pred = pred;
          ck_assert_int_eq(gr_tuning_parse(&o.tune, tunings[t]), GR_SUCCESS);
          ck_assert_int_eq(gr_sssp_prepare(g, &o), GR_SUCCESS);
          gr_result r[N_SRC];
          run_sssp(g, GR_BACKEND_CUDA, &sub, 1, NULL, NULL, &o, src, N_SRC, r);
          char what[160];
          snprintf(what, sizeof what, "%s %s%s on one GPU, tuning '%s'", specs[i], weights[w],
                   pred ? " with predecessors" : "", tunings[t]);
          check(g, &o, src, N_SRC, r, true, what);
        }
      gr_subgraph_destroy(&sub);
      gr_graph_destroy(&g);
    }
  ck_assert_uint_eq(combo, 3 * 3 * 6);
}
END_TEST

START_TEST(sssp_on_devices_sharing_gpu_0_equals_reference) {
  const char *specs[] = {"kron:12:16", "grid2d:60x80"};
  const gr_partitioner_kind parts[] = {GR_PART_RANDOM, GR_PART_RANGE};
  const gr_proxy_mode proxies[] = {GR_PROXY_ALL, GR_PROXY_1HOP};
  const gr_comm_mode modes[] = {GR_COMM_SELECTIVE, GR_COMM_BROADCAST};
  const char *maps[] = {"0,0", "0,0,0"};
  unsigned combo = 0;
  /* What only a block of combinations needs (a graph, a partition, the
   * subgraphs) is built only by the slices that run one of them: 16 a
   * graph, 8 a device count, 4 a partitioner, 2 a proxy mode. */
  for (int i = 0; i < 2; i++) {
    if (!gr_test_slice_enter(&combo, 16)) continue;
    gr_graph *g = generated(specs[i], i ? "random:0.25:9.75" : "random:1:255");
    gr_vid src[N_SRC];
    sources(g, src);
    /* GR_TEST_SOURCES=J/M: a part of them (every combination still runs). */
    const int ns = (int)gr_test_keep_sources(src, N_SRC);
    if (!ns) {
      combo += 16;
      gr_graph_destroy(&g);
      continue;
    }
    for (int nd = 2; nd <= 3; nd++) {
      if (!gr_test_slice_enter(&combo, 8)) continue;
      setenv("GR_DEVICE_MAP", maps[nd - 2], 1);
      for (int pi = 0; pi < 2; pi++) {
        if (!gr_test_slice_enter(&combo, 4)) continue;
        gr_partition_options po = GR_PARTITION_OPTIONS_INIT;
        po.kind = parts[pi];
        po.parts = nd;
        gr_partition *part = NULL;
        ck_assert_int_eq(gr_partition_create(&part, g, &po), GR_SUCCESS);
        for (int xi = 0; xi < 2; xi++) {
          if (!gr_test_slice_enter(&combo, 2)) continue;
          gr_subgraph **subs = NULL;
          ck_assert_int_eq(gr_subgraphs_build(&subs, g, part, proxies[xi], false, true), GR_SUCCESS);
          for (int mi = 0; mi < 2; mi++) {
            if (!gr_test_in_slice(&combo)) continue;
            gr_comm_options co = {modes[mi], GR_TRANSPORT_P2P, GR_COMM_FORMAT_AUTO, NULL};
            gr_comm *comm = NULL;
            ck_assert_msg(gr_comm_create(&comm, GR_BACKEND_CUDA, nd, &co) == GR_SUCCESS, "%s", gr_error_message());
            gr_prim_options o = GR_PRIM_OPTIONS_INIT;
            o.mark_pred = (pi + xi + mi) % 2 == 0;
            ck_assert_int_eq(gr_sssp_prepare(g, &o), GR_SUCCESS);
            gr_result r[N_SRC];
            run_sssp(g, GR_BACKEND_CUDA, subs, nd, &gr_comm_exchange_ops, comm, &o, src, ns, r);
            gr_comm_destroy(&comm);
            char what[160];
            snprintf(what, sizeof what, "%s on %d devices of GPU 0, %s, %s proxies, %s", specs[i], nd,
                     gr_partitioner_name(parts[pi]), proxies[xi] == GR_PROXY_1HOP ? "1hop" : "all",
                     gr_comm_mode_name(modes[mi]));
            check(g, &o, src, ns, r, false, what);
          }
          gr_subgraphs_destroy(&subs, nd);
        }
        gr_partition_destroy(&part);
      }
      unsetenv("GR_DEVICE_MAP");
    }
    gr_graph_destroy(&g);
  }
  ck_assert_uint_eq(combo, 32);
}
END_TEST

/* split_rows on the GPU (in batches: a room of the longest row only, and
 * one of every arc) against the CPU's, array for array; then the bucket
 * end's take of marked vertices below the split (take_heavy, a bitmap word
 * a thread) against the CPU's filter: the same set, the same bits left. */
START_TEST(cuda_split_rows_and_heavy_take_equal_cpu) {
  gr_graph *gh = generated("kron:13:8", "random:1:255");
  const gr_csr *h = gr_graph_out(gh);
  const gr_vid n = h->n;
  const float heavy = 64.0f;
  gr_eid longest = 0;
  for (gr_vid u = 0; u < n; u++)
    if (h->offsets[u + 1] - h->offsets[u] > longest) longest = h->offsets[u + 1] - h->offsets[u];
  float *dist = malloc((size_t)n * sizeof(float));
  uint32_t *bits = calloc(gr_bitmap_words(n), sizeof(uint32_t));
  for (gr_vid v = 0; v < n; v++) {
    const uint64_t r = gr_rand64(13, 0, v);
    dist[v] = (float)(r % 400);
    if (r % 3 == 0) bits[v >> 5] |= 1u << (v & 31u);
  }
  const size_t m = (size_t)h->m, so = (2 * (size_t)n + 1) * sizeof(gr_eid);
  gr_vid *ids_cpu = malloc(m * sizeof(gr_vid)), *ids_gpu = malloc(m * sizeof(gr_vid));
  gr_weight *w_cpu = malloc(m * sizeof(gr_weight)), *w_gpu = malloc(m * sizeof(gr_weight));
  gr_eid *split_cpu = malloc(so), *split_gpu = malloc(so);
  for (int room = 0; room < 2; room++) {
    dev_run a, b;
    dev_run_init(&a, gpu, h, dist, false, bits, NULL, 0);
    dev_run_init(&b, cpu, h, dist, false, bits, NULL, 0);
    const gr_eid tmp_arcs = room ? h->m : longest;
    gr_buffer ti = {0}, tw = {0}, sg = {0}, sc = {0};
    put(gpu, &ti, NULL, (size_t)tmp_arcs * sizeof(gr_vid), "reorder room");
    put(gpu, &tw, NULL, (size_t)tmp_arcs * sizeof(gr_weight), "reorder room");
    put(gpu, &sg, NULL, so, "split rows");
    put(cpu, &sc, NULL, so, "split rows");
    ck_assert_int_eq(ops_of(&a)->split_rows(gpu, &a.g, n, heavy, sg.ptr, h->offsets, ti.ptr, tw.ptr, tmp_arcs),
                     GR_SUCCESS);
    ck_assert_int_eq(ops_of(&b)->split_rows(cpu, &b.g, n, heavy, sc.ptr, h->offsets, NULL, NULL, 0), GR_SUCCESS);
    get(gpu, ids_gpu, &a.indices, m * sizeof(gr_vid));
    get(gpu, w_gpu, &a.weights, m * sizeof(gr_weight));
    get(gpu, split_gpu, &sg, so);
    get(cpu, ids_cpu, &b.indices, m * sizeof(gr_vid));
    get(cpu, w_cpu, &b.weights, m * sizeof(gr_weight));
    get(cpu, split_cpu, &sc, so);
    ck_assert_msg(!memcmp(split_gpu, split_cpu, so), "room %d: split offsets differ", room);
    ck_assert_msg(!memcmp(ids_gpu, ids_cpu, m * sizeof(gr_vid)), "room %d: ids differ", room);
    ck_assert_msg(!memcmp(w_gpu, w_cpu, m * sizeof(gr_weight)), "room %d: weights differ", room);
    /* The take: marked and below the split, bits cleared. */
    a.c.heavy_bits = a.bits.ptr;
    b.c.heavy_bits = b.bits.ptr;
    a.c.split = b.c.split = 150.0f;
    gr_filter_args fa = {NULL, n, a.out.ptr, n, NULL, 0}, fb = {NULL, n, b.out.ptr, n, NULL, 0};
    ck_assert_int_eq(ops_of(&a)->take_heavy(gpu, &a.ws, &fa, &a.c), GR_SUCCESS);
    ck_assert_int_eq(ops_of(&b)->take_heavy(cpu, &b.ws, &fb, &b.c), GR_SUCCESS);
    ck_assert_uint_eq(fa.n_out, fb.n_out);
    ck_assert(fa.n_out > 0);
    gr_vid *oa = malloc((size_t)fa.n_out * sizeof(gr_vid) + 4), *ob = malloc((size_t)fb.n_out * sizeof(gr_vid) + 4);
    get(gpu, oa, &a.out, (size_t)fa.n_out * sizeof(gr_vid));
    get(cpu, ob, &b.out, (size_t)fb.n_out * sizeof(gr_vid));
    qsort(oa, fa.n_out, sizeof *oa, cmp_vid);
    qsort(ob, fb.n_out, sizeof *ob, cmp_vid);
    ck_assert(!memcmp(oa, ob, (size_t)fa.n_out * sizeof(gr_vid)));
    const size_t wb = gr_bitmap_words(n) * sizeof(uint32_t);
    uint32_t *ba = malloc(wb), *bb = malloc(wb);
    get(gpu, ba, &a.bits, wb);
    get(cpu, bb, &b.bits, wb);
    ck_assert(!memcmp(ba, bb, wb));
    for (gr_eid i = 0; i < fa.n_out; i++) {
      ck_assert(dist[oa[i]] < 150.0f);
      ck_assert(!((ba[oa[i] >> 5] >> (oa[i] & 31u)) & 1u));
    }
    free(oa);
    free(ob);
    free(ba);
    free(bb);
    gr_buffer_release(&ti);
    gr_buffer_release(&tw);
    gr_buffer_release(&sg);
    gr_buffer_release(&sc);
    dev_run_free(&a);
    dev_run_free(&b);
  }
  free(ids_cpu);
  free(ids_gpu);
  free(w_cpu);
  free(w_gpu);
  free(split_cpu);
  free(split_gpu);
  free(dist);
  free(bits);
  gr_graph_destroy(&gh);
}
END_TEST

int main(void) {
  if (!gr_test_have_gpu()) return 77;
  Suite *s = suite_create("sssp_cuda");
  /* One case per test, named after it: CK_RUN_CASE=name runs one. */
  const gr_test_case cases[] = {
      {"cuda_relax_equals_cpu_relax", cuda_relax_equals_cpu_relax, 0},
      {"cuda_bucket_splits_and_pile_minimum_equal_cpu", cuda_bucket_splits_and_pile_minimum_equal_cpu, 0},
      {"cuda_split_rows_and_heavy_take_equal_cpu", cuda_split_rows_and_heavy_take_equal_cpu, 0},
      {"cuda_sssp_equals_reference", cuda_sssp_equals_reference, 0},
      {"sssp_on_devices_sharing_gpu_0_equals_reference", sssp_on_devices_sharing_gpu_0_equals_reference, 0},
  };
  gr_test_add_cases(s, cases, sizeof cases / sizeof cases[0], setup, teardown, 900);
  return gr_test_run_suite(s, 1);
}
