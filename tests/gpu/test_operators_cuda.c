/* SPDX-License-Identifier: Apache-2.0 */
/* The CUDA operators against the portable definition (the CPU backend) on the
 * same inputs: identical output sets and labels, valid predecessors (any
 * frontier parent is correct), identical edge counts. Skips (exit 77) where
 * no GPU exists. Runs with CK_NOFORK: CUDA must not cross a fork. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gr/buffer.h"
#include "gr/device.h"
#include "gr/util.h"
#include "op_harness.h"
#include "testutil.h"

static gr_device *gpu, *cpu;
static gr_csr out_g, in_g;
enum { N = 200000, M = 3000000 };

static void setup(void) {
  ck_assert_int_eq(gr_device_create(&gpu, GR_BACKEND_CUDA, 0, NULL), GR_SUCCESS);
  ck_assert_int_eq(gr_device_create(&cpu, GR_BACKEND_CPU, 0, NULL), GR_SUCCESS);
  ck_assert_int_eq(op_random_graph(&out_g, &in_g, N, M, 11), GR_SUCCESS);
}

static void teardown(void) {
  op_graph_free(&out_g);
  op_graph_free(&in_g);
  gr_device_destroy(&gpu);
  gr_device_destroy(&cpu);
}

/* Whether the GPU side of the next comparisons reads packed lists (the CPU
 * side, the reference, always reads plain ids). */
static bool gpu_packed;

/* Whether the next pushes on the GPU are told their input's edges (as
 * between devices, where a small input's push sizes its grid by them). */
static bool gpu_known;

static gr_status gpu_push(const gr_csr *g, const gr_vid *f, gr_eid nf, op_result *r) {
  op_set_packed(gpu_packed);
  op_set_known(gpu_known);
  const gr_status st = op_run_push(&test_ops_cuda, gpu, g, f, nf, r);
  op_set_packed(false);
  op_set_known(false);
  return st;
}

static gr_status gpu_pull(const gr_csr *g, const gr_vid *f, gr_eid nf, op_result *r) {
  op_set_packed(gpu_packed);
  const gr_status st = op_run_pull(&test_ops_cuda, gpu, g, f, nf, r);
  op_set_packed(false);
  return st;
}

static gr_status gpu_levels(const gr_csr *g, const gr_vid *f, gr_eid nf, const gr_advance_levels_args *lim,
                            op_result *r) {
  op_set_packed(gpu_packed);
  const gr_status st = op_run_levels(&test_ops_cuda, gpu, g, f, nf, lim, r);
  op_set_packed(false);
  return st;
}

static bool has_edge(const gr_csr *c, gr_vid u, gr_vid v) {
  for (gr_eid k = c->offsets[u]; k < c->offsets[u + 1]; k++)
    if (c->indices[k] == v) return true;
  return false;
}

/* The loops find the first difference and assert once: Check records
 * every assertion that passes, which costs more than the comparisons
 * themselves over 200,000 vertices and a few dozen runs. */
static void same_on(const gr_csr *graph, const op_result *g, const op_result *c, bool check_pred) {
  ck_assert_uint_eq(g->n_out, c->n_out);
  ck_assert_uint_eq(g->out_edges, c->out_edges);
  ck_assert_uint_eq(g->out_max_degree, c->out_max_degree);
  ck_assert_uint_eq(g->n_remaining, c->n_remaining);
  gr_eid i = 0;
  while (i < g->n_remaining && g->remaining[i] == c->remaining[i]) i++;
  ck_assert_msg(i == g->n_remaining, "remaining[%llu]: %llu, not %llu", (unsigned long long)i,
                (unsigned long long)g->remaining[i], (unsigned long long)c->remaining[i]);
  i = 0;
  while (i < g->n_out && g->out[i] == c->out[i]) i++;
  ck_assert_msg(i == g->n_out, "out[%llu]: %llu, not %llu", (unsigned long long)i, (unsigned long long)g->out[i],
                (unsigned long long)c->out[i]);
  for (gr_vid v = 0; v < graph->n; v++) {
    if (g->label[v] != c->label[v])
      ck_abort_msg("label[%llu]: %lld, not %lld", (unsigned long long)v, (long long)g->label[v],
                   (long long)c->label[v]);
    if (check_pred && g->label[v] == 1) {
      const gr_svid p = g->pred[v];
      if (!(p >= 0 && p < (gr_svid)graph->n && g->label[p] == 0 && has_edge(graph, (gr_vid)p, v)))
        ck_abort_msg("pred[%llu] = %lld is not a frontier in-neighbour", (unsigned long long)v, (long long)p);
    }
  }
}

/* On the test graph (its out-lists give the predecessors' edges). */
static void same(const op_result *g, const op_result *c, bool check_pred) { same_on(&out_g, g, c, check_pred); }

/* Every advance variant (the edge-balanced ones also with their input
 * sorted first, as for graphs in host memory, and with long rows walked a
 * thread per 32-edge block: every row, or those of 32 edges or more, their
 * blocks copied to shared memory first or read in place),
 * reading plain ids (_i < 8) and packed lists; then (_i >= 16) the two
 * that read the input's edges where they are told them (chunked: the small
 * inputs' grid and the chunk table; auto: its choice), plain and packed,
 * told them; frontiers of every size (up to 8192 vertices: the small
 * inputs' one-block preparation, tile by tile of 1024), with and without the hub (vertex 0) and
 * the middle-degree vertices (1..1000). */
/* gr_device_preload loads every kernel of a module: under CUDA's lazy
 * loading most of test_ops_cuda.cu's are not loaded before (this case runs
 * first), none is after, and a second call finds the module done. Where
 * every kernel was loaded at the start (CUDA_MODULE_LOADING=EAGER, or a
 * tool that loads eagerly) only the second half can be checked. */
START_TEST(cuda_preload_loads_every_kernel_of_a_module) {
  ck_assert_int_eq(gr_device_activate(gpu), GR_SUCCESS);
  int total = 0;
  const int before = test_ops_cuda_unloaded(&total);
  if (before < 0) {
    printf("skip: no loading on request here (a driver before CUDA 12.4, or a build before 12.5)\n");
    return;
  }
  if (before == 0)
    printf("note: all %d kernels were loaded before the preload (eager loading)\n", total);
  else
    ck_assert_msg(before > total / 2, "%d of %d kernels unloaded before the preload", before, total);
  ck_assert_int_eq(test_ops_cuda_preload(gpu), GR_SUCCESS);
  ck_assert_int_eq(test_ops_cuda_unloaded(&total), 0);
  ck_assert_int_gt(total, 20);
  ck_assert_int_eq(test_ops_cuda_preload(gpu), GR_SUCCESS);
  /* CPU devices: nothing to load. */
  ck_assert_int_eq(gr_device_preload(cpu, NULL), GR_SUCCESS);
}
END_TEST

START_TEST(cuda_push_equals_cpu_push) {
  const char *modes[] = {"advance=chunked", "advance=serial", "advance=twc", "advance=auto",
                         "advance=chunked,sort=on", "advance=serial,sort=on",
                         "advance=chunked,long-rows=32,walk-stage=off", "advance=serial,long-rows=1,walk-stage=on"};
  const char *told[] = {"advance=chunked", "advance=auto"};
  gpu_known = _i >= 16;
  op_set_tuning(gpu_known ? told[_i % 2] : modes[_i % 8]);
  gpu_packed = gpu_known ? _i >= 18 : _i >= 8;
  gr_eid sizes[] = {0, 1, 31, 32, 33, 1000, 1024, 1025, 4097, 8192, 8193, 50000, N / 2};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    gr_vid *f = op_random_set(N, sizes[i], 40 + i);
    op_result g, c;
    ck_assert_int_eq(gpu_push(&out_g, f, sizes[i], &g), GR_SUCCESS);
    ck_assert_int_eq(op_run_push(&test_ops_cpu, cpu, &out_g, f, sizes[i], &c), GR_SUCCESS);
    same(&g, &c, true);
    ck_assert_uint_eq(g.edges, c.edges);
    op_result_free(&g);
    op_result_free(&c);
    free(f);
  }
  /* The hub alone (one vertex with N/2 edges spread over the whole GPU),
   * and the hub with every middle-degree vertex. */
  gr_vid few[1001];
  for (gr_vid v = 0; v <= 1000; v++) few[v] = v;
  /* A frontier that repeats the hub (as after an idempotent level) has more
   * edges than the graph: past the chunk table's sizing. */
  gr_vid reps[64];
  for (int k = 0; k < 64; k++) reps[k] = 0;
  op_result g0, c0;
  ck_assert_int_eq(gpu_push(&out_g, reps, 64, &g0), GR_SUCCESS);
  ck_assert_int_eq(op_run_push(&test_ops_cpu, cpu, &out_g, reps, 64, &c0), GR_SUCCESS);
  ck_assert_uint_gt(g0.edges, out_g.m);
  same(&g0, &c0, true);
  ck_assert_uint_eq(g0.edges, c0.edges);
  op_result_free(&g0);
  op_result_free(&c0);
  gr_eid counts[] = {1, 1001};
  for (int k = 0; k < 2; k++) {
    op_result g, c;
    ck_assert_int_eq(gpu_push(&out_g, few, counts[k], &g), GR_SUCCESS);
    ck_assert_int_eq(op_run_push(&test_ops_cpu, cpu, &out_g, few, counts[k], &c), GR_SUCCESS);
    same(&g, &c, true);
    ck_assert_uint_eq(g.edges, c.edges);
    op_result_free(&g);
    op_result_free(&c);
  }
  op_set_tuning(NULL);
  gpu_known = false;
}
END_TEST

/* The GPU's pull against the CPU's over frontiers of these sizes, with
 * the variant, the lists' form and the candidates set before. Both walk a
 * row in order and stop at its first parent (the harness's visit always
 * takes it), whichever kernel walks it or, with pull-try, whichever two:
 * the same edges examined and the same parent. */
static void pulls_equal(const gr_eid *sizes, size_t n_sizes, uint64_t seed) {
  for (size_t i = 0; i < n_sizes; i++) {
    gr_vid *f = op_random_set(N, sizes[i], seed + i);
    op_result g, c;
    ck_assert_int_eq(gpu_pull(&in_g, f, sizes[i], &g), GR_SUCCESS);
    ck_assert_int_eq(op_run_pull(&test_ops_cpu, cpu, &in_g, f, sizes[i], &c), GR_SUCCESS);
    same(&g, &c, true);
    ck_assert_uint_eq(g.edges, c.edges);
    gr_vid v = 0;
    while (v < N && (g.label[v] != 1 || g.pred[v] == c.pred[v])) v++;
    ck_assert_msg(v == N, "pred[%llu]: %lld, not the first parent %lld", (unsigned long long)v,
                  (long long)g.pred[v], (long long)c.pred[v]);
    op_result_free(&g);
    op_result_free(&c);
    free(f);
  }
}

/* pull-try: heavy rows tried by their thread first (8 in-edges by
 * default), the rest walked by a warp from past the tries (a try past the
 * light bound stops at it); pull-try=0: heavy rows to the warps untried. */
static const char *const pull_modes[] = {"pull=hybrid",
                                         "pull=warp",
                                         "pull-light=1,pull-try=0",
                                         "pull-light=5,pull-try=0",
                                         "pull-light=5,pull-try=3",
                                         "pull-light=2,pull-try=9",
                                         "pull-light=64,pull-try=0"};
#define N_PULL_MODES (int)(sizeof pull_modes / sizeof pull_modes[0])

START_TEST(cuda_pull_equals_cpu_pull) {
  op_set_tuning(pull_modes[_i % N_PULL_MODES]);
  gpu_packed = _i >= N_PULL_MODES;
  const gr_eid sizes[] = {1, 100, 20000, N - 10};
  pulls_equal(sizes, sizeof sizes / sizeof sizes[0], 70);
  op_set_tuning(NULL);
}
END_TEST

/* The pull over a candidate list, as between devices: its finds' bits
 * (the harness checks each find's bit and no other) where a warp's
 * candidates share a word in runs of lanes (sorted, every vertex or every
 * third), and where ids of one word lie apart among the lanes
 * (shuffled). */
START_TEST(cuda_pull_of_candidates_in_any_order_equals_cpu) {
  op_set_tuning(pull_modes[_i % N_PULL_MODES]);
  gpu_packed = _i >= N_PULL_MODES;
  for (int order = 0; order < 3; order++) {
    gr_eid nc = N / 2;
    gr_vid *cand = order == 2 ? op_random_set(N, nc, 90) : malloc((size_t)N * sizeof *cand);
    ck_assert_ptr_nonnull(cand);
    if (order == 2) {
      op_shuffle(cand, nc, 91);
    } else {
      nc = 0;
      for (gr_vid v = 0; v < N; v += order == 0 ? 1 : 3) cand[nc++] = v;
    }
    op_set_pull_candidates(cand, nc);
    const gr_eid sizes[] = {100, 20000, N / 2};
    pulls_equal(sizes, sizeof sizes / sizeof sizes[0], 80);
    op_set_pull_candidates(NULL, 0);
    free(cand);
  }
  op_set_tuning(NULL);
}
END_TEST

START_TEST(cuda_filter_split_and_for_each_equal_cpu) {
  gr_eid n = 1000000;
  gr_vid *in = malloc(n * sizeof(gr_vid));
  for (gr_eid i = 0; i < n; i++) in[i] = (gr_vid)(gr_rand64(3, 0, i) % N);
  for (int cull = 0; cull < 2; cull++) {
    op_result g, c;
    ck_assert_int_eq(op_run_filter(&test_ops_cuda, gpu, N, in, n, 7, cull, &g), GR_SUCCESS);
    ck_assert_int_eq(op_run_filter(&test_ops_cpu, cpu, N, in, n, 7, cull, &c), GR_SUCCESS);
    ck_assert_uint_eq(g.n_out, c.n_out);
    for (gr_eid i = 0; i < g.n_out; i++) ck_assert_uint_eq(g.out[i], c.out[i]);
    op_result_free(&g);
    op_result_free(&c);
  }
  {
    /* Without an input list: every id. */
    op_result g, c;
    ck_assert_int_eq(op_run_filter(&test_ops_cuda, gpu, N, NULL, N, 7, false, &g), GR_SUCCESS);
    ck_assert_int_eq(op_run_filter(&test_ops_cpu, cpu, N, NULL, N, 7, false, &c), GR_SUCCESS);
    ck_assert_uint_eq(g.n_out, c.n_out);
    ck_assert_uint_eq(g.n_out, (N + 6) / 7);
    ck_assert_int_eq(memcmp(g.out, c.out, (size_t)g.n_out * sizeof(gr_vid)), 0);
    op_result_free(&g);
    op_result_free(&c);
  }
  for (int modulus = 2; modulus <= 5; modulus += 3) {
    op_result g, c;
    ck_assert_int_eq(op_run_split(&test_ops_cuda, gpu, N, in, n, (gr_vid)modulus, n, n, &g), GR_SUCCESS);
    ck_assert_int_eq(op_run_split(&test_ops_cpu, cpu, N, in, n, (gr_vid)modulus, n, n, &c), GR_SUCCESS);
    ck_assert_uint_eq(g.n_out, c.n_out);
    ck_assert_uint_eq(g.n_remaining, c.n_remaining);
    ck_assert_int_eq(memcmp(g.out, c.out, (size_t)g.n_out * sizeof(gr_vid)), 0);
    ck_assert_int_eq(memcmp(g.remaining, c.remaining, (size_t)g.n_remaining * sizeof(gr_vid)), 0);
    op_result_free(&g);
    op_result_free(&c);
    ck_assert_int_eq(op_run_split(&test_ops_cuda, gpu, N, in, n, (gr_vid)modulus, n, 10, &g), GR_ERR_INTERNAL);
    op_result_free(&g);
    /* Counting past a too-small output: filled to its capacity, no
     * further, every item counted (as the CPU counts them). */
    op_set_count_past(true);
    ck_assert_int_eq(op_run_split(&test_ops_cuda, gpu, N, in, n, (gr_vid)modulus, 10, n, &g), GR_SUCCESS);
    ck_assert_int_eq(op_run_split(&test_ops_cpu, cpu, N, in, n, (gr_vid)modulus, 10, n, &c), GR_SUCCESS);
    op_set_count_past(false);
    ck_assert(op_split_filled(&g, c.counted[0], c.counted[1], 10, n, (gr_vid)modulus));
    ck_assert_uint_gt(g.counted[0], 10);
    ck_assert_uint_eq(g.n_out, 10);
    op_result_free(&g);
    op_result_free(&c);
    /* Enqueued before its input's size is read (gr_split_args.n_in_at and
     * counts_at): the size on the device under a larger bound, ids of
     * every class past it, the counts left there; as the CPU splits it. */
    ck_assert_int_eq(op_run_split(&test_ops_cpu, cpu, N, in, n, (gr_vid)modulus, n, n, &c), GR_SUCCESS);
    op_set_split_later(true, 3000);
    ck_assert_int_eq(op_run_split(&test_ops_cuda, gpu, N, in, n, (gr_vid)modulus, n, n, &g), GR_SUCCESS);
    op_set_split_later(false, 0);
    ck_assert(!g.later_read);
    ck_assert(op_same_split(&g, &c));
    op_result_free(&g);
    op_result_free(&c);
  }
  op_result g, c;
  /* A range, then a list, in one split (a device's copies, then owned
   * vertices); a range alone; each also with its size on the device under
   * a larger bound and its counts left there. */
  for (int with_list = 0; with_list < 2; with_list++)
    for (int later = 0; later < 2; later++) {
      const gr_vid first = N / 3;
      const gr_eid n_first = N / 2, total = n_first + (with_list ? n : 0);
      op_set_split_later(later, later ? 2048 : 0);
      ck_assert_int_eq(op_run_split_range(&test_ops_cuda, gpu, N, first, n_first, with_list ? in : NULL, total, 3,
                                          total, total, &g),
                       GR_SUCCESS);
      op_set_split_later(false, 0);
      ck_assert_int_eq(op_run_split_range(&test_ops_cpu, cpu, N, first, n_first, with_list ? in : NULL, total, 3,
                                          total, total, &c),
                       GR_SUCCESS);
      ck_assert(!g.later_read);
      ck_assert_msg(op_same_split(&g, &c), "with_list %d, later %d", with_list, later);
      ck_assert_uint_gt(g.n_out, n_first / 4);
      op_result_free(&g);
      op_result_free(&c);
    }
  {
    /* Outputs too small with the counts left on the device: written to
     * their capacities, no further, every item counted. */
    ck_assert_int_eq(op_run_split(&test_ops_cpu, cpu, N, in, n, 3, n, n, &c), GR_SUCCESS);
    op_set_split_later(true, 1000);
    ck_assert_int_eq(op_run_split(&test_ops_cuda, gpu, N, in, n, 3, 10, c.n_remaining - 1, &g), GR_SUCCESS);
    op_set_split_later(false, 0);
    ck_assert(!g.later_read);
    ck_assert(op_split_filled(&g, c.n_out, c.n_remaining, 10, c.n_remaining - 1, 3));
    ck_assert_uint_eq(g.n_out, 10);
    ck_assert_uint_eq(g.n_remaining, c.n_remaining - 1);
    op_result_free(&g);
    op_result_free(&c);
  }
  ck_assert_int_eq(op_run_for_each(&test_ops_cuda, gpu, N, NULL, N, &g), GR_SUCCESS);
  ck_assert_int_eq(op_run_for_each(&test_ops_cpu, cpu, N, NULL, N, &c), GR_SUCCESS);
  ck_assert_int_eq(memcmp(g.marks, c.marks, N * sizeof(uint32_t)), 0);
  op_result_free(&g);
  op_result_free(&c);
  ck_assert_int_eq(op_run_for_each_from(&test_ops_cuda, gpu, N, NULL, N / 2, N / 4, &g), GR_SUCCESS);
  ck_assert_int_eq(op_run_for_each_from(&test_ops_cpu, cpu, N, NULL, N / 2, N / 4, &c), GR_SUCCESS);
  ck_assert_int_eq(memcmp(g.marks, c.marks, N * sizeof(uint32_t)), 0);
  ck_assert_uint_eq(g.marks[N / 4 - 1], 0);
  ck_assert_uint_ne(g.marks[N / 4], 0);
  op_result_free(&g);
  op_result_free(&c);
  free(in);
}
END_TEST

static int cmp_vid(const void *a, const void *b) {
  const gr_vid x = *(const gr_vid *)a, y = *(const gr_vid *)b;
  return (x > y) - (x < y);
}

/* The CUDA levels loop against the portable one: the same levels, sizes,
 * labels and frontier left under each stop test. */
START_TEST(cuda_levels_equal_cpu_levels) {
  gpu_packed = _i == 1;
  gr_advance_levels_args lim;
  memset(&lim, 0, sizeof lim);
  const struct {
    int levels;
    gr_eid vertices, edges, degree;
  } cases[] = {{4096, N, (gr_eid)1 << 40, N}, {2, N, (gr_eid)1 << 40, N}, {4096, N, (gr_eid)1 << 40, 400},
               {4096, 64, (gr_eid)1 << 40, N}, {4096, 16384, 131072, 512}};
  const gr_vid sources[] = {12345, 3, 199999};
  /* Plain; with a trail; with a trail and a stop flag; with a trail too
   * short for every level. */
  const gr_eid trails[] = {0, N, N, 2000};
  op_set_stop_at(777);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (size_t k = 0; k < sizeof sources / sizeof sources[0]; k++)
      for (size_t t = 0; t < sizeof trails / sizeof trails[0]; t++) {
        lim.max_levels = cases[i].levels;
        lim.max_vertices = cases[i].vertices;
        lim.max_edges = cases[i].edges;
        lim.max_degree = cases[i].degree;
        lim.trail_capacity = trails[t];
        lim.stop = t == 2 ? (const uint32_t *)&lim : NULL; /* any pointer: the harness's flag */
        op_result g, c;
        ck_assert_int_eq(gpu_levels(&out_g, &sources[k], 1, &lim, &g), GR_SUCCESS);
        ck_assert_int_eq(op_run_levels(&test_ops_cpu, cpu, &out_g, &sources[k], 1, &lim, &c), GR_SUCCESS);
        ck_assert_int_eq(g.levels, c.levels);
        for (int l = 0; l < g.levels; l++) ck_assert_uint_eq(g.level_sizes[l], c.level_sizes[l]);
        ck_assert_uint_eq(g.edges, c.edges);
        same(&g, &c, false);
        /* The trails hold the same set per level (in any order). */
        ck_assert_uint_eq(g.n_trail, c.n_trail);
        for (gr_eid at = 0, l = 0; g.trail && l < (gr_eid)g.levels; at += g.level_sizes[l++]) {
          qsort(g.trail + at, (size_t)g.level_sizes[l], sizeof(gr_vid), cmp_vid);
          qsort(c.trail + at, (size_t)c.level_sizes[l], sizeof(gr_vid), cmp_vid);
        }
        for (gr_eid j = 0; j < g.n_trail; j++) ck_assert_uint_eq(g.trail[j], c.trail[j]);
        op_result_free(&g);
        op_result_free(&c);
      }
}
END_TEST

/* gr_bitmap_or on the GPU: the vector path (aligned), the word path
 * (one word off) and the tail; nothing past the last word. */
START_TEST(cuda_bitmap_or_sets_each_word_to_the_union) {
  ck_assert_msg(op_check_bitmap_or(gpu, 100003, 9) == GR_SUCCESS, "%s", gr_error_message());
  ck_assert_msg(op_check_bitmap_or(gpu, 5, 10) == GR_SUCCESS, "%s", gr_error_message());
}
END_TEST

/* gr_ids_map on the GPU: a grid-stride loop over more ids than one
 * wave holds, and the edge cases. */
START_TEST(cuda_ids_map_through_a_table) {
  ck_assert_msg(op_check_ids_map(gpu, 20000003, 1000003, 700000, 11) == GR_SUCCESS, "%s", gr_error_message());
  ck_assert_msg(op_check_ids_map(gpu, 1, 2, 1, 12) == GR_SUCCESS, "%s", gr_error_message());
  ck_assert_msg(op_check_ids_map(gpu, 0, 2, 1, 13) == GR_SUCCESS, "%s", gr_error_message());
}
END_TEST

START_TEST(cuda_frontier_conversions_equal_cpu) {
  gr_vid *f = op_random_set(N, 12345, 5);
  /* Shuffle so the queue is not already sorted. */
  for (int i = 12344; i > 0; i--) {
    int j = (int)(gr_rand64(1, 1, (uint64_t)i) % (uint64_t)(i + 1));
    gr_vid t = f[i];
    f[i] = f[j];
    f[j] = t;
  }
  op_result g, c;
  ck_assert_int_eq(op_run_roundtrip(gpu, N, f, 12345, &g), GR_SUCCESS);
  ck_assert_int_eq(op_run_roundtrip(cpu, N, f, 12345, &c), GR_SUCCESS);
  ck_assert_uint_eq(g.n_out, 12345);
  ck_assert_uint_eq(c.n_out, 12345);
  for (int i = 0; i < 12345; i++) {
    ck_assert_uint_eq(g.out[i], c.out[i]);
    if (i) ck_assert_uint_lt(g.out[i - 1], g.out[i]);
  }
  op_result_free(&g);
  op_result_free(&c);
  free(f);
}
END_TEST

/* Every edge decoded on the GPU in each lane pattern the operators use
 * equals the plain ids: the test graph's unsorted rows (wide codes, the hub
 * over many blocks), its rows sorted, and a graph of short rows and empty
 * ones. */
START_TEST(cuda_packed_lists_decode_to_the_ids) {
  gr_csr sorted = out_g;
  sorted.indices = malloc((size_t)out_g.m * sizeof(gr_vid));
  ck_assert_ptr_nonnull(sorted.indices);
  memcpy(sorted.indices, out_g.indices, (size_t)out_g.m * sizeof(gr_vid));
  for (gr_vid v = 0; v < out_g.n; v++)
    qsort(sorted.indices + out_g.offsets[v], (size_t)(out_g.offsets[v + 1] - out_g.offsets[v]), sizeof(gr_vid),
          cmp_vid);
  /* Rows of 0..40 edges (every third empty) to ids near and far. */
  enum { SN = 5000 };
  gr_csr small = {0};
  small.n = SN;
  small.offsets = malloc((SN + 1) * sizeof(gr_eid));
  ck_assert_ptr_nonnull(small.offsets);
  small.offsets[0] = 0;
  for (gr_vid v = 0; v < SN; v++) small.offsets[v + 1] = small.offsets[v] + (v % 3 ? v % 41 : 0);
  small.m = small.offsets[SN];
  small.indices = malloc((size_t)small.m * sizeof(gr_vid));
  ck_assert_ptr_nonnull(small.indices);
  for (gr_vid v = 0; v < SN; v++)
    for (gr_eid e = small.offsets[v]; e < small.offsets[v + 1]; e++)
      small.indices[e] = (gr_vid)(e % 5 ? (v + (e - small.offsets[v]) * 3) % SN : gr_rand64(9, v, e) % SN);
  const gr_csr *graphs[] = {&out_g, &sorted, &small};
  for (int k = 0; k < 3; k++) {
    gr_vid *ids = malloc(((size_t)graphs[k]->m + 1) * sizeof(gr_vid));
    ck_assert_ptr_nonnull(ids);
    for (int pattern = 0; pattern < 5; pattern++) {
      ck_assert_int_eq(op_run_decode(gpu, graphs[k], test_packed_decode_cuda, pattern, ids), GR_SUCCESS);
      /* One assertion for the first mismatch: Check records every assertion
       * it passes, which would cost more than the decode over 3 M edges. */
      gr_eid e = 0;
      while (e < graphs[k]->m && ids[e] == graphs[k]->indices[e]) e++;
      ck_assert_msg(e == graphs[k]->m, "graph %d, pattern %d, edge %llu: %llu, not %llu", k, pattern,
                    (unsigned long long)e, (unsigned long long)ids[e], (unsigned long long)graphs[k]->indices[e]);
    }
    free(ids);
  }
  free(sorted.indices);
  free(small.offsets);
  free(small.indices);
}
END_TEST

/* The bitmap pass (a predicate per id into its bit) writes every word of
 * the bitmap, each bit as the predicate says (or'ed into the word with
 * keep), and nothing past the last word: sizes around a word, a warp's
 * group of words and a grid's sweep, flags random, all set and none. */
START_TEST(cuda_bitmap_sets_every_bit_as_the_predicate) {
  const gr_vid sizes[] = {1, 31, 32, 33, 127, 128, 129, 1000, 4096 + 5, 1000003, 9000017};
  const size_t most = 9000017;
  const size_t most_words = (most + 31) / 32, guard = 8;
  uint8_t *flags = malloc(most);
  uint32_t *bits = malloc((most_words + guard) * sizeof *bits);
  ck_assert_ptr_nonnull(flags);
  ck_assert_ptr_nonnull(bits);
  gr_buffer dflags = {0}, dbits = {0};
  ck_assert_int_eq(gr_buffer_resize(&dflags, gpu, most, 0, "test flags"), GR_SUCCESS);
  ck_assert_int_eq(gr_buffer_resize(&dbits, gpu, (most_words + guard) * sizeof *bits, 0, "test bits"), GR_SUCCESS);
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    const gr_vid n = sizes[k];
    const size_t words = ((size_t)n + 31) / 32;
    /* Patterns 3-5: the same predicates or'ed into the words (keep). */
    for (int pattern = 0; pattern < 6; pattern++) {
      const bool keep = pattern >= 3;
      for (gr_vid v = 0; v < n; v++)
        flags[v] = (uint8_t)(pattern % 3 == 0 ? gr_rand64(5, n, v) % 3 == 0 : pattern % 3 == 1);
      /* Every word and the guard past them start as a pattern the kernel
       * never writes (a word's unused high bits are written clear, or kept
       * with keep). */
      for (size_t w = 0; w < words + guard; w++) bits[w] = 0xa5a5a5a5u;
      ck_assert_int_eq(gr_device_copy(gpu, dflags.ptr, flags, n, GR_COPY_H2D), GR_SUCCESS);
      ck_assert_int_eq(gr_device_copy(gpu, dbits.ptr, bits, (words + guard) * sizeof *bits, GR_COPY_H2D),
                       GR_SUCCESS);
      ck_assert_int_eq(test_bitmap_cuda(gpu, n, dflags.ptr, dbits.ptr, keep), GR_SUCCESS);
      ck_assert_int_eq(gr_device_copy(gpu, bits, dbits.ptr, (words + guard) * sizeof *bits, GR_COPY_D2H),
                       GR_SUCCESS);
      size_t bad = words;
      for (size_t w = 0; w < words && bad == words; w++) {
        uint32_t want = keep ? 0xa5a5a5a5u : 0u;
        for (unsigned b = 0; b < 32 && w * 32 + b < n; b++)
          if (flags[w * 32 + b]) want |= 1u << b;
        if (bits[w] != want) bad = w;
      }
      ck_assert_msg(bad == words, "n %llu, pattern %d: word %zu is %08x", (unsigned long long)n, pattern, bad,
                    bad < words ? bits[bad] : 0u);
      for (size_t w = words; w < words + guard; w++)
        ck_assert_msg(bits[w] == 0xa5a5a5a5u, "n %llu: word %zu past the bitmap written", (unsigned long long)n, w);
    }
  }
  gr_buffer_release(&dflags);
  gr_buffer_release(&dbits);
  free(flags);
  free(bits);
}
END_TEST

/* The walked push (every row of 32 edges or more a thread per 32-edge
 * block) with its warp's blocks copied to shared memory first
 * (walk-stage=on) on blocks too wide for that copy: ids over 2^24 vertices, rows of 32..95 edges, the
 * first half in random order (deltas of any size: 32-bit codes, so the
 * first 19 lanes of a warp fit and the others read their blocks from device
 * memory) and the second half sorted (codes of about 20 bits: a warp's
 * last lanes or so read in place), frontiers of every row and of a
 * scattered subset (a warp's blocks in several runs of memory); and the
 * edge-balanced push on the same blocks (long-rows=0), each walk with the copy
 * and without it (the blocks read in place). The same output and labels
 * as the CPU's. (Blocks that all fit: cuda_push_equals_cpu_push's
 * long-rows=1,walk-stage=on case.) */
START_TEST(cuda_walk_of_wide_blocks_equals_cpu) {
  enum { WN = 1 << 24, ROWS = 8192 };
  gr_csr w = {0};
  w.n = WN;
  w.offsets = calloc((size_t)WN + 1, sizeof(gr_eid));
  ck_assert_ptr_nonnull(w.offsets);
  for (gr_vid v = 0; v < WN; v++) w.offsets[v + 1] = w.offsets[v] + (v < ROWS ? 32 + v % 64 : 0);
  w.m = w.offsets[WN];
  w.indices = malloc((size_t)w.m * sizeof(gr_vid));
  ck_assert_ptr_nonnull(w.indices);
  for (gr_vid v = 0; v < ROWS; v++) {
    for (gr_eid e = w.offsets[v]; e < w.offsets[v + 1]; e++) w.indices[e] = (gr_vid)(gr_rand64(21, v, e) % WN);
    if (v >= ROWS / 2)
      qsort(w.indices + w.offsets[v], (size_t)(w.offsets[v + 1] - w.offsets[v]), sizeof(gr_vid), cmp_vid);
  }
  gr_vid *all = malloc(ROWS * sizeof(gr_vid)), *some = malloc(ROWS * sizeof(gr_vid));
  ck_assert(all && some);
  gr_eid n_some = 0;
  for (gr_vid v = 0; v < ROWS; v++) {
    all[v] = v;
    if (gr_rand64(22, 0, v) % 3 == 0) some[n_some++] = v;
  }
  const char *modes[] = {"advance=chunked,long-rows=32,walk-stage=on", "advance=chunked,long-rows=32,walk-stage=off",
                         "advance=chunked,long-rows=0"};
  for (int k = 0; k < 6; k++) {
    op_set_tuning(modes[k % 3]);
    const gr_vid *f = k < 3 ? all : some;
    const gr_eid nf = k < 3 ? ROWS : n_some;
    op_result g, c;
    op_set_packed(true);
    const gr_status st = op_run_push(&test_ops_cuda, gpu, &w, f, nf, &g);
    op_set_packed(false);
    ck_assert_msg(st == GR_SUCCESS, "%s", gr_error_message());
    ck_assert_int_eq(op_run_push(&test_ops_cpu, cpu, &w, f, nf, &c), GR_SUCCESS);
    ck_assert_uint_eq(g.edges, c.edges);
    same_on(&w, &g, &c, true);
    op_result_free(&g);
    op_result_free(&c);
  }
  op_set_tuning(NULL);
  free(all);
  free(some);
  free(w.offsets);
  free(w.indices);
}
END_TEST

START_TEST(cuda_reports_missing_devices_clearly) {
  int n = 0;
  ck_assert_int_eq(gr_device_count(GR_BACKEND_CUDA, &n), GR_SUCCESS);
  gr_device *d = NULL;
  ck_assert_int_eq(gr_device_create(&d, GR_BACKEND_CUDA, n, NULL), GR_ERR_NO_DEVICE);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "exist"));
  ck_assert_ptr_null(d);
}
END_TEST

START_TEST(cuda_out_of_memory_is_a_clear_error) {
  void *p = NULL;
  size_t free_b = 0, total_b = 0;
  ck_assert_int_eq(gr_device_mem_info(gpu, &free_b, &total_b), GR_SUCCESS);
  gr_status st = gr_device_malloc(gpu, &p, total_b * 4, "an impossible buffer");
  ck_assert_int_eq(st, GR_ERR_DEVICE_OOM);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "an impossible buffer"));
  /* The device still works afterwards. */
  ck_assert_int_eq(gr_device_malloc(gpu, &p, 1024, "small"), GR_SUCCESS);
  gr_device_free(gpu, p, 1024);
}
END_TEST

/* A failed free (here of a pointer cudaMalloc never gave) leaves the device
 * working, and the next launch does not report that failure as its own. */
START_TEST(cuda_failed_free_is_not_the_next_launch_s_error) {
  int host_word = 0;
  gr_device_free(gpu, &host_word, 0);
  gr_vid f[2] = {0, 7};
  op_result g, c;
  ck_assert_msg(gpu_push(&out_g, f, 2, &g) == GR_SUCCESS, "%s", gr_error_message());
  ck_assert_int_eq(op_run_push(&test_ops_cpu, cpu, &out_g, f, 2, &c), GR_SUCCESS);
  same(&g, &c, true);
  op_result_free(&g);
  op_result_free(&c);
}
END_TEST

int main(void) {
  if (!gr_test_have_gpu()) return 77;
  Suite *s = suite_create("operators_cuda");
  /* A Check case per test, named after it, as in the other GPU programs:
   * a compute-sanitizer tool can run each apart (CK_RUN_CASE=name), all
   * at once, where the whole program under racecheck takes minutes. */
  const gr_test_case cases[] = {
      {"cuda_preload_loads_every_kernel_of_a_module", cuda_preload_loads_every_kernel_of_a_module, 0},
      {"cuda_push_equals_cpu_push", cuda_push_equals_cpu_push, 20},
      {"cuda_pull_equals_cpu_pull", cuda_pull_equals_cpu_pull, 2 * N_PULL_MODES},
      {"cuda_pull_of_candidates_in_any_order_equals_cpu", cuda_pull_of_candidates_in_any_order_equals_cpu,
       2 * N_PULL_MODES},
      {"cuda_filter_split_and_for_each_equal_cpu", cuda_filter_split_and_for_each_equal_cpu, 0},
      {"cuda_levels_equal_cpu_levels", cuda_levels_equal_cpu_levels, 2},
      {"cuda_packed_lists_decode_to_the_ids", cuda_packed_lists_decode_to_the_ids, 0},
      {"cuda_frontier_conversions_equal_cpu", cuda_frontier_conversions_equal_cpu, 0},
      {"cuda_bitmap_or_sets_each_word_to_the_union", cuda_bitmap_or_sets_each_word_to_the_union, 0},
      {"cuda_ids_map_through_a_table", cuda_ids_map_through_a_table, 0},
      {"cuda_walk_of_wide_blocks_equals_cpu", cuda_walk_of_wide_blocks_equals_cpu, 0},
      {"cuda_bitmap_sets_every_bit_as_the_predicate", cuda_bitmap_sets_every_bit_as_the_predicate, 0},
  };
  gr_test_add_cases(s, cases, sizeof cases / sizeof cases[0], setup, teardown, 600);
  /* Calls that fail on purpose (a device that does not exist, an impossible
   * allocation, a free of a host pointer) in a case of their own: compute-sanitizer reports every
   * failing CUDA call, so tools/offline/compute-sanitizer.sh runs this case
   * apart (CK_RUN_CASE=errors) with API error reports off, and leaves it
   * out of the other run by its tag (CK_EXCLUDE_TAGS=api-errors). */
  TCase *errors = tcase_create("errors");
  tcase_set_tags(errors, "api-errors");
  tcase_set_timeout(errors, 600);
  tcase_add_checked_fixture(errors, setup, teardown);
  tcase_add_test(errors, cuda_reports_missing_devices_clearly);
  tcase_add_test(errors, cuda_out_of_memory_is_a_clear_error);
  tcase_add_test(errors, cuda_failed_free_is_not_the_next_launch_s_error);
  suite_add_tcase(s, errors);
  return gr_test_run_suite(s, 1);
}
