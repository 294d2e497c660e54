/* SPDX-License-Identifier: Apache-2.0 */
/* CC's CUDA instantiations against the portable definition (the CPU
 * backend) on the same inputs: linking every arc and compressing gives
 * every vertex its component's smallest id on both; the sampled roots and
 * the vertices left to link agree, and the vote on the device picks what
 * the host's picks; the merge's union-find gives the same labels; the whole primitive on one GPU equals
 * the serial reference, and so do 2 and 3 devices sharing GPU 0
 * (GR_DEVICE_MAP) under every proxy and exchange mode. Skips (exit 77)
 * where no GPU exists. Runs with CK_NOFORK: CUDA must not cross a fork. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc/cc.h"
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

/* One device's copy of a graph's out-edges and the forest. */
typedef struct dev_run {
  gr_device *dev;
  gr_workspace ws;
  gr_buffer offsets, indices, parent, rest, samples;
  gr_csr g;
  gr_cc_ctx c;
} dev_run;

static void dev_run_init(dev_run *r, gr_device *dev, const gr_csr *h) {
  memset(r, 0, sizeof *r);
  r->dev = dev;
  ck_assert_int_eq(gr_workspace_init(&r->ws, dev, NULL), GR_SUCCESS);
  put(dev, &r->offsets, h->offsets, ((size_t)h->n + 1) * sizeof(gr_eid));
  put(dev, &r->indices, h->indices, (size_t)h->m * sizeof(gr_vid));
  r->g = (gr_csr){h->n, h->m, r->offsets.ptr, r->indices.ptr, NULL, NULL};
  put(dev, &r->parent, NULL, (size_t)h->n * sizeof(gr_svid));
  put(dev, &r->rest, NULL, (size_t)h->n * sizeof(gr_vid));
  put(dev, &r->samples, NULL, (GR_CC_SAMPLES + 1) * sizeof(gr_svid));
  r->c.parent = r->parent.ptr;
  r->c.n = h->n;
  r->c.out_offsets = r->g.offsets;
  r->c.offsets = r->g.offsets;
  r->c.indices = r->g.indices;
  r->c.largest = -1;
  r->c.samples = r->samples.ptr;
  r->c.seed = 0x6363u;
}

static void dev_run_free(dev_run *r) {
  gr_buffer *b[] = {&r->offsets, &r->indices, &r->parent, &r->rest, &r->samples};
  for (size_t i = 0; i < sizeof b / sizeof *b; i++) gr_buffer_release(b[i]);
  gr_workspace_release(&r->ws);
}

/* Afforest's steps on one backend: the forest after two sampling rounds,
 * the sampled roots, the vertices left to link (sorted), and the labels
 * after linking every remaining arc. */
typedef struct steps {
  gr_svid *rounds, samples[GR_CC_SAMPLES], *labels;
  gr_vid *rest;
  gr_eid n_rest;
} steps;

static int cmp_vid(const void *a, const void *b) {
  const gr_vid x = *(const gr_vid *)a, y = *(const gr_vid *)b;
  return (x > y) - (x < y);
}

static void run_steps(dev_run *r, steps *out) {
  const gr_cc_ops *ops = gr__cc_ops(r->dev);
  const gr_vid n = r->g.n;
  gr_for_each_args all = {NULL, n, 0};
  ck_assert_int_eq(ops->init(r->dev, &r->ws, &all, &r->c), GR_SUCCESS);
  for (int k = 0; k < GR_CC_ROUNDS; k++) {
    r->c.round = (gr_eid)k;
    ck_assert_int_eq(ops->link_round(r->dev, &r->ws, &all, &r->c), GR_SUCCESS);
    ck_assert_int_eq(ops->compress(r->dev, &r->ws, &all, &r->c), GR_SUCCESS);
  }
  out->rounds = malloc(sizeof(gr_svid) * n);
  get(r->dev, out->rounds, &r->parent, sizeof(gr_svid) * n);
  gr_for_each_args ks = {NULL, GR_CC_SAMPLES, 0};
  ck_assert_int_eq(ops->sample(r->dev, &r->ws, &ks, &r->c), GR_SUCCESS);
  get(r->dev, out->samples, &r->samples, sizeof out->samples);
  gr_svid copy[GR_CC_SAMPLES];
  memcpy(copy, out->samples, sizeof copy);
  /* The vote on the device, read where the filter reads it. */
  ck_assert_int_eq(ops->vote(r->dev, &r->ws, &r->c), GR_SUCCESS);
  gr_svid voted[GR_CC_SAMPLES + 1];
  get(r->dev, voted, &r->samples, sizeof voted);
  ck_assert_int_eq(voted[GR_CC_SAMPLES], gr_cc_mode(copy, GR_CC_SAMPLES));
  r->c.vote = (const gr_svid *)r->samples.ptr + GR_CC_SAMPLES;
  gr_filter_args f = {NULL, n, r->rest.ptr, n, NULL, 0};
  ck_assert_int_eq(ops->needs_rest(r->dev, &r->ws, &f, &r->c), GR_SUCCESS);
  r->c.vote = NULL;
  r->c.largest = voted[GR_CC_SAMPLES];
  out->n_rest = f.n_out;
  out->rest = malloc(sizeof(gr_vid) * (n + 1));
  get(r->dev, out->rest, &r->rest, sizeof(gr_vid) * f.n_out);
  qsort(out->rest, (size_t)f.n_out, sizeof(gr_vid), cmp_vid);
  gr_advance_push_args a;
  memset(&a, 0, sizeof a);
  a.g = &r->g;
  a.in = r->rest.ptr;
  a.n_in = f.n_out;
  r->c.skip = GR_CC_ROUNDS;
  ck_assert_int_eq(ops->link_arcs(r->dev, &r->ws, &a, &r->c), GR_SUCCESS);
  ck_assert_int_eq(ops->compress(r->dev, &r->ws, &all, &r->c), GR_SUCCESS);
  out->labels = malloc(sizeof(gr_svid) * n);
  get(r->dev, out->labels, &r->parent, sizeof(gr_svid) * n);
}

static void steps_free(steps *s) {
  free(s->rounds);
  free(s->rest);
  free(s->labels);
}

/* The roots after the rounds are each tree's smallest id whatever order
 * the links ran in, so both backends agree on them, on the samples, on the
 * vertices left and on the final labels (the reference's). */
START_TEST(cuda_afforest_steps_equal_cpu) {
  const char *specs[] = {"kron:15:16", "uniform:14:2", "grid2d:200x300"};
  for (int i = 0; i < 3; i++) {
    gr_graph *g = gr_test_generated(specs[i]);
    const gr_csr *h = gr_graph_out(g);
    dev_run rg, rc;
    dev_run_init(&rg, gpu, h);
    dev_run_init(&rc, cpu, h);
    steps sg, sc;
    run_steps(&rg, &sg);
    run_steps(&rc, &sc);
    ck_assert_msg(!memcmp(sg.rounds, sc.rounds, sizeof(gr_svid) * h->n), "%s: forests after the rounds", specs[i]);
    ck_assert_msg(!memcmp(sg.samples, sc.samples, sizeof sg.samples), "%s: samples", specs[i]);
    ck_assert_uint_eq(sg.n_rest, sc.n_rest);
    ck_assert_msg(!memcmp(sg.rest, sc.rest, sizeof(gr_vid) * sg.n_rest), "%s: vertices left", specs[i]);
    ck_assert_msg(!memcmp(sg.labels, sc.labels, sizeof(gr_svid) * h->n), "%s: labels", specs[i]);
    gr_prim_options o = GR_PRIM_OPTIONS_INIT;
    gr_run_args a = {0, 0, NULL, 0};
    gr_result ref = GR_RESULT_INIT;
    ck_assert_int_eq(gr_cc_reference(g, &a, &o, &ref), GR_SUCCESS);
    ck_assert_msg(!memcmp(sg.labels, ref.values, sizeof(gr_svid) * h->n), "%s: labels against the reference",
                  specs[i]);
    gr_result_free(&ref);
    steps_free(&sg);
    steps_free(&sc);
    dev_run_free(&rg);
    dev_run_free(&rc);
    gr_graph_destroy(&g);
  }
}
END_TEST

/* The vote on each backend picks what gr_cc_mode picks on the host: the
 * most frequent root, the smallest of those that tie, over samples of one
 * root, of all distinct roots, of two-way and many-way ties, of a run at
 * either end and of random roots with a giant among them. */
START_TEST(vote_picks_the_most_frequent_root_on_both_backends) {
  enum { KINDS = 8 };
  gr_device *devs[2] = {gpu, cpu};
  for (int kind = 0; kind < KINDS; kind++) {
    gr_svid in[GR_CC_SAMPLES];
    uint64_t x = 0x9e3779b97f4a7c15ull * (uint64_t)(kind + 1);
    for (int i = 0; i < GR_CC_SAMPLES; i++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      switch (kind) {
        case 0: in[i] = 42; break;
        case 1: in[i] = (gr_svid)(GR_CC_SAMPLES - i) * 3; break;      /* all distinct: the smallest */
        case 2: in[i] = i % 2 ? 7 : 5; break;                          /* a tie of two: 5 */
        case 3: in[i] = (gr_svid)(i % 16) + 100; break;                /* 16 tie: 100 */
        case 4: in[i] = i < 600 ? 0 : (gr_svid)i; break;               /* a run at the start */
        case 5: in[i] = i >= 424 ? GR_SVID_MAX : (gr_svid)i; break;    /* a run at the end */
        case 6: in[i] = x % 3 ? 1234567 : (gr_svid)(x % 100000); break; /* a giant among random roots */
        default: in[i] = (gr_svid)(x % 40); break;                     /* small roots, close counts */
      }
    }
    gr_svid want_in[GR_CC_SAMPLES];
    memcpy(want_in, in, sizeof in);
    const gr_svid want = gr_cc_mode(want_in, GR_CC_SAMPLES);
    for (int d = 0; d < 2; d++) {
      gr_buffer b = {0};
      put(devs[d], &b, in, sizeof in);
      ck_assert_int_eq(gr_buffer_resize(&b, devs[d], (GR_CC_SAMPLES + 1) * sizeof(gr_svid), 1, "test"),
                       GR_SUCCESS);
      gr_workspace ws;
      ck_assert_int_eq(gr_workspace_init(&ws, devs[d], NULL), GR_SUCCESS);
      gr_cc_ctx c;
      memset(&c, 0, sizeof c);
      c.samples = b.ptr;
      ck_assert_int_eq(gr__cc_ops(devs[d])->vote(devs[d], &ws, &c), GR_SUCCESS);
      gr_svid got[GR_CC_SAMPLES + 1];
      get(devs[d], got, &b, sizeof got);
      ck_assert_msg(got[GR_CC_SAMPLES] == want, "kind %d on the %s: %lld, want %lld", kind, d ? "CPU" : "GPU",
                    (long long)got[GR_CC_SAMPLES], (long long)want);
      ck_assert_msg(!memcmp(got, in, sizeof in), "kind %d on the %s: the samples changed", kind, d ? "CPU" : "GPU");
      gr_workspace_release(&ws);
      gr_buffer_release(&b);
    }
  }
}
END_TEST

static gr_svid *run_cc(gr_subgraph *const *subs, int devices, const gr_exchange_ops *ex, void *shared) {
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_enactor_config cfg = {.prim = &gr_cc_primitive,
                           .opts = &o,
                           .backend = GR_BACKEND_CUDA,
                           .n_devices = devices,
                           .mem = GR_MEM_POLICY_INIT,
                           .subs = subs,
                           .exchange = ex,
                           .exchange_shared = shared,
                           .broadcast = shared && gr_comm_mode_of(shared) == GR_COMM_BROADCAST};
  gr_enactor *e = NULL;
  ck_assert_msg(gr_enactor_create(&e, &cfg) == GR_SUCCESS, "%s", gr_error_message());
  gr_svid *labels = NULL;
  for (int k = 0; k < 2; k++) {
    gr_run_args a = {0, k, NULL, 0};
    gr_run_stats st;
    ck_assert_msg(gr_enactor_run(e, &a, &st) == GR_SUCCESS, "%s", gr_error_message());
    gr_run_stats_free(&st);
    gr_result r = GR_RESULT_INIT;
    ck_assert_int_eq(gr_enactor_extract(e, &r), GR_SUCCESS);
    free(labels);
    labels = r.values;
    r.values = NULL;
    gr_result_free(&r);
  }
  gr_enactor_destroy(&e);
  return labels;
}

static void check(gr_graph *g, const gr_svid *labels, const char *what) {
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_run_args a = {0, 0, NULL, 0};
  gr_result ref = GR_RESULT_INIT;
  ck_assert_int_eq(gr_cc_reference(g, &a, &o, &ref), GR_SUCCESS);
  gr_result r = {.n = ref.n, .type = GR_VALUE_SVID, .values = (void *)labels};
  ck_assert_msg(gr_cc_validate(g, &a, &o, &r, &ref) == GR_SUCCESS, "%s: %s", what, gr_error_message());
  gr_result_free(&ref);
}

START_TEST(cuda_cc_equals_reference) {
  const char *specs[] = {"kron:16:16", "grid2d:300x400", "uniform:14:1", "kron:14:8,directed", "uniform:13:2,directed"};
  for (int i = 0; i < 5; i++) {
    gr_graph *g = gr_test_generated(specs[i]);
    gr_subgraph *sub = NULL;
    ck_assert_int_eq(gr_subgraph_whole(&sub, g, true, false), GR_SUCCESS);
    gr_svid *l = run_cc(&sub, 1, NULL, NULL);
    check(g, l, specs[i]);
    free(l);
    gr_subgraph_destroy(&sub);
    gr_graph_destroy(&g);
  }
}
END_TEST

START_TEST(cc_on_devices_sharing_gpu_0_equals_reference) {
  const char *specs[] = {"kron:12:16", "grid2d:60x80", "kron:11:4,directed"};
  const gr_proxy_mode proxies[] = {GR_PROXY_ALL, GR_PROXY_1HOP};
  const gr_comm_mode modes[] = {GR_COMM_SELECTIVE, GR_COMM_BROADCAST};
  const char *maps[] = {"0,0", "0,0,0"};
  for (int i = 0; i < 3; i++) {
    gr_graph *g = gr_test_generated(specs[i]);
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
          gr_svid *l = run_cc(subs, nd, &gr_comm_exchange_ops, comm);
          gr_comm_destroy(&comm);
          char what[160];
          snprintf(what, sizeof what, "%s on %d devices of GPU 0, %s proxies, %s", specs[i], nd,
                   proxies[xi] == GR_PROXY_1HOP ? "1hop" : "all", gr_comm_mode_name(modes[mi]));
          check(g, l, what);
          free(l);
        }
        gr_subgraphs_destroy(&subs, nd);
      }
      gr_partition_destroy(&part);
      unsetenv("GR_DEVICE_MAP");
    }
    gr_graph_destroy(&g);
  }
}
END_TEST

/* The merge's union-find on the GPU (the table's inserts and links from
 * every thread at once) against the CPU backend's, on random pairs of few
 * and of many distinct labels (then half of them joining label 0, the
 * seed): the same labels taken, and every label of
 * the pairs joined to the same smallest, itself a label of the pairs
 * joined to itself; a key in no pair absent on both. */
START_TEST(cuda_merge_equals_cpu) {
  static const gr_eid sizes[] = {1, 2, 1000, 300000};
  static const gr_svid spans[] = {4, 1 << 20};
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
    for (size_t pi = 0; pi < sizeof spans / sizeof *spans; pi++) {
      const gr_eid np = sizes[si], keys = 2 * np;
      const int bits = gr_cc_merge_bits(np);
      const gr_eid slots = (gr_eid)1 << bits;
      gr_svid *pairs = malloc(keys * sizeof(gr_svid)), *host[2];
      ck_assert_ptr_nonnull(pairs);
      uint64_t x = 0x2545f4914f6cdd1dull + si * 31 + pi;
      for (gr_eid i = 0; i < keys; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        pairs[i] = (gr_svid)(x % (uint64_t)spans[pi]);
      }
      /* Many distinct labels: half the pairs join label 0, as on a
       * power-law graph whose giant component holds 0, with 0 as the
       * seed; few: no seed. */
      if (pi == 1)
        for (gr_eid i = 0; i < np; i += 2) pairs[2 * i + 1] = 0;
      const gr_svid seed = pi == 1 ? 0 : -1;
      gr_device *devs[2] = {gpu, cpu};
      for (int d = 0; d < 2; d++) {
        gr_workspace ws;
        ck_assert_int_eq(gr_workspace_init(&ws, devs[d], NULL), GR_SUCCESS);
        gr_buffer in = {0}, work = {0};
        put(devs[d], &in, pairs, keys * sizeof(gr_svid));
        put(devs[d], &work, NULL, 2 * slots * sizeof(gr_svid));
        gr_cc_merge_args m;
        m.pairs = in.ptr;
        m.n_pairs = np;
        m.bits = bits;
        m.keys = work.ptr;
        m.parent = m.keys + slots;
        m.seed = seed;
        ck_assert_msg(gr__cc_ops(devs[d])->merge(devs[d], &ws, &m) == GR_SUCCESS, "%s", gr_error_message());
        host[d] = malloc(2 * slots * sizeof(gr_svid));
        ck_assert_ptr_nonnull(host[d]);
        get(devs[d], host[d], &work, 2 * slots * sizeof(gr_svid));
        gr_buffer_release(&in);
        gr_buffer_release(&work);
        gr_workspace_release(&ws);
      }
      gr_eid taken[2] = {0, 0};
      for (int d = 0; d < 2; d++)
        for (gr_eid i = 0; i < slots; i++) taken[d] += host[d][i] != GR_CC_EMPTY;
      ck_assert_uint_eq(taken[0], taken[1]);
      for (gr_eid i = 0; i < keys; i++) {
        gr_svid got[2];
        for (int d = 0; d < 2; d++)
          got[d] = gr_cc_merged(host[d], host[d] + slots, bits, pairs[i]);
        ck_assert_msg(got[0] == got[1], "%llu pairs: label %lld joined to %lld on the GPU, %lld on the CPU",
                      (unsigned long long)np, (long long)pairs[i], (long long)got[0], (long long)got[1]);
        ck_assert(got[0] >= 0 && got[0] <= pairs[i]);
        ck_assert_int_eq(gr_cc_merged(host[0], host[0] + slots, bits, got[0]), got[0]);
      }
      for (int d = 0; d < 2; d++) {
        ck_assert_int_eq(gr_cc_merged(host[d], host[d] + slots, bits, spans[pi]), -1);
        free(host[d]);
      }
      free(pairs);
    }
}
END_TEST

int main(void) {
  if (!gr_test_have_gpu()) return 77;
  Suite *s = suite_create("cc_cuda");
  /* One case per test, named after it: CK_RUN_CASE=name runs one. */
  const gr_test_case cases[] = {
      {"cuda_afforest_steps_equal_cpu", cuda_afforest_steps_equal_cpu, 0},
      {"cuda_merge_equals_cpu", cuda_merge_equals_cpu, 0},
      {"vote_picks_the_most_frequent_root_on_both_backends", vote_picks_the_most_frequent_root_on_both_backends, 0},
      {"cuda_cc_equals_reference", cuda_cc_equals_reference, 0},
      {"cc_on_devices_sharing_gpu_0_equals_reference", cc_on_devices_sharing_gpu_0_equals_reference, 0},
  };
  gr_test_add_cases(s, cases, sizeof cases / sizeof cases[0], setup, teardown, 900);
  return gr_test_run_suite(s, 1);
}
