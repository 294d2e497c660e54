/* SPDX-License-Identifier: Apache-2.0 */
/* The enactor's multi-device loop on CPU devices: words a primitive posts
 * at the exchange (gr_iter.post) reach every device's arrived in device
 * order (gr_part_posted), between gr_part_gather calls of the iterate,
 * whose alternating cells they share; devices that post different counts,
 * or too many words, end the run with an error on every device. BFS is the
 * host primitive, its iterate wrapped. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bfs/bfs.h"
#include "devices.h"
#include "gr/enactor.h"
#include "gr/graph.h"
#include "gr/primitive.h"
#include "gr/status.h"
#include "graph_internal.h"
#include "testutil.h"

enum { MAX_DEV = 4, MAX_ITER = 64 };

/* What the wrapped primitive does, set by each test before its run. */
static struct {
  int bad_device;  /* this device posts `bad_count` words instead of 3 (-1: none) */
  int bad_count;
  /* by device and iteration: arrived found every device's words as
   * posted (1), found them wrong (-1), or did not run (0) */
  int seen[MAX_DEV][MAX_ITER];
  int gathers_ok[MAX_DEV];
} g_post;

static gr_eid word(int device, int iteration, int k) {
  return (gr_eid)0x1000 * (gr_eid)(k + 1) + (gr_eid)iteration * 16 + (gr_eid)device;
}

static gr_status posting_iterate(void *slice, gr_part *p, gr_iter *it) {
  GR_CHECK(gr_bfs_primitive.iterate(slice, p, it));
  if (p->count < 2) return GR_SUCCESS;
  /* Every other iteration, a gather of the iterate's own, whose cells
   * alternate with the posts'. */
  if (it->iteration % 2) {
    gr_eid mine = word(p->index, it->iteration, 7), all[MAX_DEV];
    GR_CHECK(gr_part_gather(p, &mine, 1, all));
    bool ok = true;
    for (int d = 0; d < p->count; d++) ok = ok && all[d] == word(d, it->iteration, 7);
    if (ok) g_post.gathers_ok[p->index]++;
  }
  it->n_post = p->index == g_post.bad_device ? g_post.bad_count : 3;
  for (int k = 0; k < 3; k++) it->post[k] = word(p->index, it->iteration, k);
  return GR_SUCCESS;
}

static gr_status posting_arrived(void *slice, gr_part *p, gr_iter *it, gr_frontier *next) {
  (void)slice;
  (void)next;
  gr_eid all[3 * MAX_DEV];
  memset(all, 0, sizeof all);
  GR_CHECK(gr_part_posted(p, all));
  bool ok = true;
  for (int d = 0; d < p->count; d++)
    for (int k = 0; k < 3; k++) ok = ok && all[3 * d + k] == word(d, it->iteration, k);
  if (it->iteration < MAX_ITER) g_post.seen[p->index][it->iteration] = ok ? 1 : -1;
  return GR_SUCCESS;
}

static gr_primitive posting_primitive(void) {
  gr_primitive prim = gr_bfs_primitive;
  prim.name = "posting-bfs";
  prim.iterate = posting_iterate;
  prim.arrived = posting_arrived;
  return prim;
}

/* One run from vertex 0: its status and iterations. */
static gr_status run_posting(gr_graph *g, int devices, int *iterations) {
  const gr_primitive prim = posting_primitive();
  gr_test_devices t;
  gr_test_devices_create(&t, g, &prim, devices, GR_PROXY_ALL, false, 1);
  gr_run_args a = {0, 0, NULL, 0};
  gr_run_stats st;
  memset(&st, 0, sizeof st);
  const gr_status rs = gr_enactor_run(t.e, &a, &st);
  *iterations = st.iterations;
  gr_run_stats_free(&st);
  gr_test_devices_destroy(&t);
  return rs;
}

/* Every device's arrived finds every device's words of that iteration, at
 * every iteration of runs on 2, 3 and 4 devices, and the iterate's own
 * gathers in between find theirs (a post that took a gather's cell, or
 * left the cells out of step, would mix the iterations' words). */
START_TEST(words_posted_at_the_exchange_reach_every_device_in_order) {
  gr_graph *g = gr_test_generated("grid2d:24x24");
  for (int d = 2; d <= MAX_DEV; d++) {
    memset(&g_post, 0, sizeof g_post);
    g_post.bad_device = -1;
    int iterations = 0;
    ck_assert_msg(run_posting(g, d, &iterations) == GR_SUCCESS, "%d devices: %s", d, gr_error_message());
    ck_assert_msg(iterations > 8 && iterations < MAX_ITER, "%d devices: %d iterations", d, iterations);
    for (int dev = 0; dev < d; dev++) {
      for (int i = 0; i < iterations; i++)
        ck_assert_msg(g_post.seen[dev][i] == 1, "%d devices: device %d's arrived at iteration %d: %s", d, dev, i,
                      g_post.seen[dev][i] ? "words mixed up" : "not called");
      ck_assert_int_eq(g_post.gathers_ok[dev], iterations / 2);
    }
  }
  gr_graph_destroy(&g);
}
END_TEST

/* A device that posts another count than its peers, or more words than the
 * cells hold, fails the run on every device with a message that says so,
 * and the enactor runs again afterwards. */
START_TEST(devices_that_post_different_counts_fail_the_run) {
  gr_graph *g = gr_test_generated("grid2d:16x16");
  const int counts[] = {2, 0, GR_PART_GATHER_VALUES + 1, -1};
  for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
    memset(&g_post, 0, sizeof g_post);
    g_post.bad_device = 1;
    g_post.bad_count = counts[c];
    int iterations = 0;
    const gr_status st = run_posting(g, 3, &iterations);
    ck_assert_msg(st == GR_ERR_INTERNAL, "device 1 posting %d words: %s (%s)", counts[c], gr_status_string(st),
                  gr_error_message());
    ck_assert_msg(strstr(gr_error_message(), "post") != NULL, "device 1 posting %d words: %s", counts[c],
                  gr_error_message());
    for (int dev = 0; dev < 3; dev++) ck_assert_int_ne(g_post.seen[dev][0], 1);
  }
  memset(&g_post, 0, sizeof g_post);
  g_post.bad_device = -1;
  int iterations = 0;
  ck_assert_msg(run_posting(g, 3, &iterations) == GR_SUCCESS, "%s", gr_error_message());
  gr_graph_destroy(&g);
}
END_TEST

/* A graph of n vertices from its arcs, marked undirected by hand though a
 * reverse arc is missing (the reader refuses such files; the upload must
 * too). */
static gr_graph *unpaired_graph(uint64_t n, const gr_vid (*arcs)[2], uint64_t m) {
  gr_coo c = GR_COO_INIT;
  ck_assert_int_eq(gr_coo_reserve(&c, m, false), GR_SUCCESS);
  c.n = n;
  for (uint64_t e = 0; e < m; e++) ck_assert_int_eq(gr_coo_push(&c, arcs[e][0], arcs[e][1], 0), GR_SUCCESS);
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  o.progress = -1;
  gr_graph *g = NULL;
  ck_assert_msg(gr_graph_from_coo(&g, &c, &o) == GR_SUCCESS, "%s", gr_error_message());
  g->directed = false;
  return g;
}

/* A part built lazily gets its neighbour ids at the upload, 1-hop ids made
 * local on the device where the part's global-to-local table (a gr_vid a
 * vertex) is no larger than its ids, on the host otherwise. A neighbour
 * without a local id (an undirected graph missing a reverse arc) is
 * refused either way, with the build's message, the enactor not made. */
START_TEST(a_lazy_upload_refuses_ids_without_a_local_one) {
  /* Parts v mod 2. Only 0 -> 1 crosses, and without 1 -> 0 no mask tells
   * part 0 that 1 is its neighbour. Part 0 holds 2 arcs (8 bytes) against
   * a table of 16: the host converts. */
  static const gr_vid small[][2] = {{0, 1}, {2, 0}, {1, 3}};
  /* Eight vertices, the evens and the odds each every arc among them, and
   * 0 -> 1: part 0's 13 arcs (52 bytes) against a table of 32: the device
   * converts. */
  gr_vid big[25][2];
  int m = 0;
  for (gr_vid u = 0; u < 8; u++)
    for (gr_vid v = 0; v < 8; v++)
      if (u != v && u % 2 == v % 2) {
        big[m][0] = u;
        big[m][1] = v;
        m++;
      }
  big[m][0] = 0;
  big[m][1] = 1;
  m++;
  ck_assert_int_eq(m, 25);
  for (int k = 0; k < 2; k++) {
    gr_graph *g = k == 0 ? unpaired_graph(4, small, 3) : unpaired_graph(8, (const gr_vid(*)[2])big, (uint64_t)m);
    gr_test_devices t;
    const gr_status st = gr_test_devices_create_lazy(&t, g, &gr_bfs_primitive, 2, GR_PART_STATIC);
    ck_assert_uint_eq(t.subs[0]->out.m, k == 0 ? 2 : 13);
    ck_assert_msg(st == GR_ERR_BAD_INPUT, "graph %d: %s (%s)", k, gr_status_string(st), gr_error_message());
    ck_assert_ptr_null(t.e);
    ck_assert_msg(strstr(gr_error_message(), "have no reverse arc") != NULL, "graph %d: %s", k, gr_error_message());
    gr_test_devices_destroy(&t);
    gr_graph_destroy(&g);
  }
}
END_TEST

/* Where the table is smaller than a part's ids the device maps them (a
 * launch of gr__ids_map_cpu fails when made to), and BFS over such parts
 * on 2 and 3 devices finds one device's depths. */
START_TEST(a_lazy_upload_maps_ids_on_the_device) {
  gr_graph *g = gr_test_generated("kron:12:8");
  bool mapped = false;
  for (int k = 1; k <= 8 && !mapped; k++) {
    char fault[32];
    snprintf(fault, sizeof fault, "0:%d", k);
    setenv("GR_FAULT_LAUNCH", fault, 1);
    gr_test_devices t;
    const gr_status st = gr_test_devices_create_lazy(&t, g, &gr_bfs_primitive, 2, GR_PART_RANDOM);
    unsetenv("GR_FAULT_LAUNCH");
    if (st < 0) {
      ck_assert_msg(strstr(gr_error_message(), "GR_FAULT_LAUNCH") != NULL, "launch %d: %s", k, gr_error_message());
      mapped = strstr(gr_error_message(), "gr__ids_map_cpu") != NULL;
    }
    gr_test_devices_destroy(&t);
  }
  ck_assert_msg(mapped, "no launch of device 0's set-up was the ids' map");
  gr_svid *want = gr_test_run_svid(g, &gr_bfs_primitive, 1, GR_PROXY_ALL, false, 0, NULL);
  const gr_vid n = gr_graph_out(g)->n;
  for (int d = 2; d <= 3; d++) {
    gr_test_devices t;
    ck_assert_msg(gr_test_devices_create_lazy(&t, g, &gr_bfs_primitive, d, GR_PART_RANDOM) == GR_SUCCESS, "%d devices: %s", d, gr_error_message());
    gr_run_args a = {0, 0, NULL, 0};
    gr_run_stats rs;
    ck_assert_msg(gr_enactor_run(t.e, &a, &rs) == GR_SUCCESS, "%s", gr_error_message());
    gr_run_stats_free(&rs);
    gr_result r = GR_RESULT_INIT;
    ck_assert_int_eq(gr_enactor_extract(t.e, &r), GR_SUCCESS);
    const gr_svid *got = r.values;
    for (gr_vid v = 0; v < n; v++)
      ck_assert_msg(got[v] == want[v], "%d devices: vertex %llu at depth %lld, want %lld", d, (unsigned long long)v,
                    (long long)got[v], (long long)want[v]);
    gr_result_free(&r);
    gr_test_devices_destroy(&t);
  }
  free(want);
  gr_graph_destroy(&g);
}
END_TEST

int main(void) {
  Suite *s = suite_create("enactor");
  TCase *post = tcase_create("posted_words");
  tcase_set_timeout(post, 300);
  tcase_add_test(post, words_posted_at_the_exchange_reach_every_device_in_order);
  tcase_add_test(post, devices_that_post_different_counts_fail_the_run);
  suite_add_tcase(s, post);
  TCase *upload = tcase_create("lazy_upload");
  tcase_add_test(upload, a_lazy_upload_refuses_ids_without_a_local_one);
  tcase_add_test(upload, a_lazy_upload_maps_ids_on_the_device);
  suite_add_tcase(s, upload);
  return gr_test_run_suite(s, 0);
}
