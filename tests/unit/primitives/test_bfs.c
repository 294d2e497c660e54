/* SPDX-License-Identifier: Apache-2.0 */
/* BFS: the serial reference, the invariant checker (accepts every valid
 * answer, rejects each kind of wrong one), and the primitive run through the
 * enactor on CPU devices against the reference, with and without
 * predecessors; a device allocation failure ends the run with the device
 * named and nothing leaked. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bfs/bfs.h"
#include "comm.h"
#include "gr/enactor.h"
#include "gr/gen.h"
#include "gr/graph.h"
#include "partitioner.h"
#include "devices.h"
#include "subgraph_builder.h"
#include "testutil.h"

/* Undirected 0-1-2-3 path plus 1-4, and an isolated vertex 5. */
static gr_graph *small_graph(void) {
  gr_coo c = GR_COO_INIT;
  ck_assert_int_eq(gr_coo_reserve(&c, 4, false), GR_SUCCESS);
  gr_vid e[][2] = {{0, 1}, {1, 2}, {2, 3}, {1, 4}};
  for (int i = 0; i < 4; i++) ck_assert_int_eq(gr_coo_push(&c, e[i][0], e[i][1], 0), GR_SUCCESS);
  c.n = 6;
  c.symmetric = true;
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  gr_graph *g = NULL;
  ck_assert_int_eq(gr_graph_from_coo(&g, &c, &o), GR_SUCCESS);
  return g;
}

START_TEST(reference_gives_levels) {
  gr_graph *g = small_graph();
  gr_run_args a = {1, 0, NULL, 0};
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  o.mark_pred = true;
  gr_result r;
  ck_assert_int_eq(gr_bfs_reference(g, &a, &o, &r), GR_SUCCESS);
  gr_svid expect[] = {1, 0, 1, 2, 1, -1};
  for (int v = 0; v < 6; v++) ck_assert_int_eq(((gr_svid *)r.values)[v], expect[v]);
  ck_assert_int_eq(r.preds[3], 2);
  ck_assert_int_eq(r.preds[1], -1);
  ck_assert_int_eq(gr_bfs_validate(g, &a, &o, &r, &r), GR_SUCCESS);
  ck_assert_uint_eq(gr_bfs_traversed_edges(g, &r), 4);
  gr_result_free(&r);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(validator_rejects_each_kind_of_wrong_answer) {
  gr_graph *g = small_graph();
  gr_run_args a = {1, 0, NULL, 0};
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  o.mark_pred = true;
  gr_result ref, r;
  ck_assert_int_eq(gr_bfs_reference(g, &a, &o, &ref), GR_SUCCESS);
  ck_assert_int_eq(gr_bfs_reference(g, &a, &o, &r), GR_SUCCESS);
  gr_svid *d = r.values;
  struct {
    int v;
    gr_svid depth, pred;
    const char *needle;
  } cases[] = {
      {1, 1, -1, "source"},              /* source not at depth 0 */
      {5, 3, -1, "reference"},           /* reaches the unreachable */
      {3, -1, -1, "reference"},          /* misses a reachable vertex */
      {3, 3, 2, "from depth 1 to depth 3"}, /* skips a level */
      {0, 2, 1, "no in-neighbour"},      /* no parent one level up */
      {0, 0, -1, "not the source"},      /* a second depth-0 vertex */
      {3, 2, 4, "not an in-neighbour"},  /* predecessor without an edge */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    gr_svid old_d = d[cases[i].v], old_p = r.preds[cases[i].v];
    d[cases[i].v] = cases[i].depth;
    r.preds[cases[i].v] = cases[i].pred;
    ck_assert_int_eq(gr_bfs_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
    ck_assert_msg(strstr(gr_error_message(), cases[i].needle), "case %zu: %s", i, gr_error_message());
    d[cases[i].v] = old_d;
    r.preds[cases[i].v] = old_p;
  }
  /* Predecessor at the wrong depth: 2's parent claimed to be 3. */
  r.preds[2] = 3;
  ck_assert_int_eq(gr_bfs_validate(g, &a, &o, &r, &ref), GR_ERR_VALIDATION);
  r.preds[2] = 1;
  ck_assert_int_eq(gr_bfs_validate(g, &a, &o, &r, &ref), GR_SUCCESS);
  gr_result_free(&r);
  gr_result_free(&ref);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(validator_accepts_any_valid_parent) {
  /* A diamond: 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3 (directed): 3's parent may be 1 or 2. */
  gr_coo c = GR_COO_INIT;
  ck_assert_int_eq(gr_coo_reserve(&c, 4, false), GR_SUCCESS);
  gr_vid e[][2] = {{0, 1}, {0, 2}, {1, 3}, {2, 3}};
  for (int i = 0; i < 4; i++) gr_coo_push(&c, e[i][0], e[i][1], 0);
  c.n = 4;
  gr_load_options lo = GR_LOAD_OPTIONS_INIT;
  gr_graph *g = NULL;
  ck_assert_int_eq(gr_graph_from_coo(&g, &c, &lo), GR_SUCCESS);
  gr_run_args a = {0, 0, NULL, 0};
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  o.mark_pred = true;
  gr_result r;
  ck_assert_int_eq(gr_bfs_reference(g, &a, &o, &r), GR_SUCCESS);
  r.preds[3] = 1;
  ck_assert_int_eq(gr_bfs_validate(g, &a, &o, &r, &r), GR_SUCCESS);
  r.preds[3] = 2;
  ck_assert_int_eq(gr_bfs_validate(g, &a, &o, &r, &r), GR_SUCCESS);
  gr_result_free(&r);
  gr_graph_destroy(&g);
}
END_TEST

static void run_bfs_on_cpu(gr_graph *g, int threads, bool pred) {
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, false, false), GR_SUCCESS);
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  o.mark_pred = pred;
  gr_enactor_config cfg = {&gr_bfs_primitive, &o, GR_BACKEND_CPU, 1, threads, GR_MEM_POLICY_INIT, &sub, NULL, NULL, false, false, NULL, false};
  gr_enactor *e = NULL;
  ck_assert_int_eq(gr_enactor_create(&e, &cfg), GR_SUCCESS);
  const gr_csr *c = gr_graph_out(g);
  for (gr_vid k = 0; k < 5; k++) {
    gr_run_args a = {(gr_vid)((k * 7919u) % c->n), (int)k, NULL, 0};
    gr_run_stats st;
    ck_assert_int_eq(gr_enactor_run(e, &a, &st), GR_SUCCESS);
    gr_result r, ref;
    ck_assert_int_eq(gr_enactor_extract(e, &r), GR_SUCCESS);
    ck_assert_int_eq(gr_bfs_reference(g, &a, &o, &ref), GR_SUCCESS);
    ck_assert_msg(gr_bfs_validate(g, &a, &o, &r, &ref) == GR_SUCCESS, "%s", gr_error_message());
    ck_assert_int_eq(memcmp(r.values, ref.values, c->n * sizeof(gr_svid)), 0);
    gr_svid maxd = 0;
    for (gr_vid v = 0; v < c->n; v++)
      if (((gr_svid *)ref.values)[v] > maxd) maxd = ((gr_svid *)ref.values)[v];
    ck_assert_int_eq(st.iterations, maxd + 1);
    ck_assert_int_eq(st.frontier_len, st.iterations);
    ck_assert_uint_eq(st.frontier[0], 1);
    gr_result_free(&r);
    gr_result_free(&ref);
    gr_run_stats_free(&st);
  }
  gr_enactor_destroy(&e);
  ck_assert_ptr_null(e);
  gr_subgraph_destroy(&sub);
}

START_TEST(enactor_bfs_equals_reference_on_cpu_devices) {
  const char *specs[] = {"kron:12:16", "grid2d:60x70", "uniform:12:4,directed"};
  for (size_t i = 0; i < 3; i++) {
    gr_graph *g = gr_test_generated(specs[i]);
    run_bfs_on_cpu(g, 1, false);
    run_bfs_on_cpu(g, 3, true);
    gr_graph_destroy(&g);
  }
}
END_TEST

START_TEST(iteration_limit_stops_early) {
  gr_graph *g = gr_test_generated("grid2d:50x50");
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, false, false), GR_SUCCESS);
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  o.max_iterations = 5;
  gr_enactor_config cfg = {&gr_bfs_primitive, &o, GR_BACKEND_CPU, 1, 2, GR_MEM_POLICY_INIT, &sub, NULL, NULL, false, false, NULL, false};
  gr_enactor *e = NULL;
  ck_assert_int_eq(gr_enactor_create(&e, &cfg), GR_SUCCESS);
  gr_run_args a = {0, 0, NULL, 0};
  gr_run_stats st;
  ck_assert_int_eq(gr_enactor_run(e, &a, &st), GR_SUCCESS);
  ck_assert_int_eq(st.iterations, 5);
  ck_assert_int_eq(st.status, GR_ITERATION_LIMIT);
  gr_run_stats_free(&st);
  gr_enactor_destroy(&e);
  gr_subgraph_destroy(&sub);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(allocation_failure_names_the_device_and_frees_everything) {
  gr_graph *g = gr_test_generated("kron:10:8");
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, false, false), GR_SUCCESS);
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_enactor_config cfg = {&gr_bfs_primitive, &o, GR_BACKEND_CPU, 1, 2, GR_MEM_POLICY_INIT, &sub, NULL, NULL, false, false, NULL, false};
  for (int n = 1; n <= 8; n++) {
    char spec[32];
    snprintf(spec, sizeof spec, "0:%d", n);
    setenv("GR_FAULT_ALLOC", spec, 1);
    gr_enactor *e = NULL;
    gr_status st = gr_enactor_create(&e, &cfg);
    if (st == GR_SUCCESS) {
      gr_run_args a = {0, 0, NULL, 0};
      gr_run_stats rs;
      st = gr_enactor_run(e, &a, &rs);
      gr_run_stats_free(&rs);
      gr_enactor_destroy(&e);
    }
    if (st < 0) {
      ck_assert_int_eq(st, GR_ERR_DEVICE_OOM);
      ck_assert_ptr_nonnull(strstr(gr_error_message(), "device 0"));
      ck_assert_ptr_null(e);
    }
  }
  unsetenv("GR_FAULT_ALLOC");
  gr_subgraph_destroy(&sub);
  gr_graph_destroy(&g);
}
END_TEST

/* A CPU device of two threads and its workspace, for the operators called
 * directly. */
static void cpu_device(gr_device **dev, gr_workspace *ws) {
  gr_device_options dopt = GR_DEVICE_OPTIONS_INIT;
  dopt.cpu_threads = 2;
  ck_assert_int_eq(gr_device_create(dev, GR_BACKEND_CPU, 0, &dopt), GR_SUCCESS);
  ck_assert_int_eq(gr_workspace_init(ws, *dev, NULL), GR_SUCCESS);
}

/* Between devices a dense push level sets its claims in their owners'
 * bitmaps (peers' vertices by owner-local id, its own by local id), or with
 * no owner table in one bitmap of global ids, and outputs nothing; every
 * claimed vertex gets the depth here, no other one (with visited bits: its
 * bit, and no depth, which the exchange gives the owned ones). Three parts
 * by v % 3, this device part 1, owner-local id v / 3. */
START_TEST(push_routes_every_claim_to_its_owners_bitmap) {
  gr_graph *g = gr_test_generated("kron:9:8");
  const gr_csr *c = gr_graph_out(g);
  const gr_vid n = c->n;
  enum { PARTS = 3, ME = 1 };
  gr_device *dev = NULL;
  gr_workspace ws;
  cpu_device(&dev, &ws);
  uint8_t *owner = malloc(n);
  gr_vid *convert = malloc(n * sizeof *convert);
  gr_svid *depth = malloc(n * sizeof *depth);
  gr_vid *out = malloc(n * sizeof *out);
  /* Room for this part's local ids too. */
  const uint64_t words = (n + 31) / 32, stride = words + 2;
  uint32_t *route = calloc(PARTS * stride, sizeof *route);
  uint32_t *visited = calloc(words, sizeof *visited);
  ck_assert(owner && convert && depth && out && route && visited);
  /* Mode 0: a bitmap per owner; 1: one of global ids; 2: per owner, with
   * visited bits, where a claim sets its bit and leaves the depth to the
   * exchange (gr_xk_compact_args). */
  for (int mode = 0; mode < 3; mode++) {
    const int one = mode == 1;
    const bool bits_only = mode == 2;
    memset(route, 0, PARTS * stride * sizeof *route);
    memset(visited, 0, words * sizeof *visited);
    /* Some vertices visited already (depth 0), which no one may claim. */
    for (gr_vid v = 0; v < n; v++) {
      owner[v] = (uint8_t)(v % PARTS);
      convert[v] = v / PARTS;
      depth[v] = v % 7 == 0 ? 0 : -1;
    }
    /* The frontier: owned vertices with out-edges. */
    gr_vid in[16];
    gr_eid n_in = 0;
    for (gr_vid v = ME; v < n && n_in < 16; v += PARTS)
      if (c->offsets[v + 1] > c->offsets[v]) {
        in[n_in++] = v;
        depth[v] = 0;
      }
    ck_assert_int_eq(n_in, 16);
    uint8_t *want = calloc(n, 1), *seen = calloc(n, 1);
    ck_assert(want && seen);
    for (gr_eid i = 0; i < n_in; i++)
      for (gr_eid e = c->offsets[in[i]]; e < c->offsets[in[i] + 1]; e++)
        if (depth[c->indices[e]] < 0) want[c->indices[e]] = 1;
    gr_bfs_ctx ctx = {.depth = depth,
                      .next = 1,
                      .route_owner = one ? NULL : owner,
                      .route_convert = one ? NULL : convert,
                      .route = route,
                      .route_stride = stride,
                      .me = ME,
                      .visited = bits_only ? visited : NULL};
    gr_advance_push_args a = {
        .g = c, .in = in, .n_in = n_in, .out = out, .out_capacity = n, .next_offsets = c->offsets};
    ck_assert_int_eq(gr__bfs_ops_cpu.push(dev, &ws, &a, &ctx), GR_SUCCESS);
    ck_assert_uint_eq(a.n_out, 0);
    gr_eid claimed = 0;
    for (gr_vid v = 0; v < n; v++) {
      const bool bit = (visited[v >> 5] >> (v & 31u)) & 1u;
      if (!want[v]) {
        ck_assert_int_ne(depth[v], 1);
        ck_assert_msg(!bit, "vertex %u not claimed has its visited bit", (unsigned)v);
        continue;
      }
      if (bits_only) {
        ck_assert_msg(bit && depth[v] == -1, "claimed vertex %u: visited bit %d, depth %d", (unsigned)v, (int)bit,
                      (int)depth[v]);
      } else {
        ck_assert_int_eq(depth[v], 1);
      }
      const gr_vid id = owner[v] == ME || one ? v : convert[v];
      const uint32_t *bits = route + (one ? 0 : owner[v]) * stride + 2;
      ck_assert_msg((bits[id >> 5] >> (id & 31u)) & 1u, "vertex %u not in part %d's bitmap", (unsigned)v, owner[v]);
      seen[owner[v]] = 1;
      claimed++;
    }
    for (int j = 0; j < PARTS; j++) ck_assert_msg(seen[j], "part %d got no claim", j);
    /* No other bit, and no value word written. */
    uint64_t set = 0;
    for (uint64_t w = 0; w < PARTS * stride; w++) {
      if (w % stride < 2 || (one && w >= stride)) ck_assert_uint_eq(route[w], 0);
      set += (uint64_t)__builtin_popcount(route[w]);
    }
    ck_assert_uint_eq(set, claimed);
    free(want);
    free(seen);
  }
  free(owner);
  free(convert);
  free(depth);
  free(out);
  free(route);
  free(visited);
  gr_workspace_release(&ws);
  gr_device_destroy(&dev);
  gr_graph_destroy(&g);
}
END_TEST

/* The pass that sets the visited bits from the depths ors them into the
 * bits already set (keep): a copy that a routing push claimed, or that
 * arrived settled bare, has its bit and no depth. Without keep every word
 * is the depths' alone. */
START_TEST(visited_pass_keeps_the_bits_already_set) {
  enum { N = 1000 };
  gr_device *dev = NULL;
  gr_workspace ws;
  cpu_device(&dev, &ws);
  gr_svid depth[N];
  uint32_t bits[(N + 31) / 32];
  for (int keep = 0; keep < 2; keep++) {
    for (gr_vid v = 0; v < N; v++) depth[v] = v % 3 == 0 ? 2 : -1;
    for (size_t w = 0; w < sizeof bits / sizeof *bits; w++) bits[w] = 0x11111111u;
    gr_bfs_ctx ctx = {.depth = depth, .visited = bits};
    gr_bitmap_args a = {N, bits, keep != 0};
    ck_assert_int_eq(gr__bfs_ops_cpu.visited_bits(dev, &ws, &a, &ctx), GR_SUCCESS);
    for (gr_vid v = 0; v < N; v++) {
      const bool set = (bits[v >> 5] >> (v & 31u)) & 1u, was = v % 4 == 0;
      const bool want = depth[v] >= 0 || (keep && was);
      ck_assert_msg(set == want, "keep %d: vertex %u: bit %d, want %d", keep, (unsigned)v, (int)set, (int)want);
    }
  }
  gr_workspace_release(&ws);
  gr_device_destroy(&dev);
}
END_TEST

/* Between devices a level of at least n_local arcs sets the visited bits
 * from the depths and then trusts a clear bit, reading no depth before a
 * claim: a bit left clear for a vertex some device reached earlier (one a
 * peer claimed, whose depth only the exchange brought) would be claimed
 * again at a deeper level. Several sources, so that the big levels come
 * after levels claimed on other devices. */
START_TEST(big_levels_between_devices_trust_bits_set_from_depths) {
  gr_graph *g = gr_test_generated("kron:14:16");
  const gr_vid n = gr_graph_num_vertices(g);
  static const gr_proxy_mode proxies[] = {GR_PROXY_ALL, GR_PROXY_1HOP};
  for (gr_vid source = 1; source < n; source += n / 5) {
    gr_svid *one = gr_test_run_svid(g, &gr_bfs_primitive, 1, GR_PROXY_ALL, false, source, NULL);
    for (int devices = 2; devices <= 4; devices++)
      for (size_t x = 0; x < sizeof proxies / sizeof proxies[0]; x++) {
        gr_svid *many = gr_test_run_svid(g, &gr_bfs_primitive, devices, proxies[x], false, source, NULL);
        for (gr_vid v = 0; v < n; v++)
          ck_assert_msg(many[v] == one[v], "source %u, %d devices, %s proxies: vertex %u at depth %d, one device %d",
                        (unsigned)source, devices, proxies[x] == GR_PROXY_1HOP ? "1hop" : "all", (unsigned)v,
                        (int)many[v], (int)one[v]);
        free(many);
      }
    free(one);
  }
  gr_graph_destroy(&g);
}
END_TEST

/* Two frontier queues a device, whatever the count of devices: on one
 * device the input and the output trade places every iteration; between
 * devices the input stays the input (the exchange writes the next
 * frontier into it) with room for every owned vertex from the first
 * iteration on, and the output stays the output, with room for the owned
 * vertices at least wherever BFS reserved it (a list output), so that a
 * later run does not grow it. Three queues that rotated through the roles
 * each ended with the largest role's room (BC on 4 CPU devices of
 * Kronecker 22: 26.1 MiB of queues a device, 12.7 with two). */
enum { QUEUE_DEVICES = 4, QUEUE_SEEN = 8 };
static const gr_frontier *queue_seen[QUEUE_DEVICES][QUEUE_SEEN];
static int queue_n[QUEUE_DEVICES];
static const gr_frontier *queue_last_in[QUEUE_DEVICES], *queue_last_out[QUEUE_DEVICES];
static int queue_bad[QUEUE_DEVICES];

static void queue_note(int d, const gr_frontier *f) {
  for (int k = 0; k < queue_n[d]; k++)
    if (queue_seen[d][k] == f) return;
  if (queue_n[d] < QUEUE_SEEN) queue_seen[d][queue_n[d]] = f;
  queue_n[d]++;
}

static gr_status queue_iterate(void *slice, gr_part *p, gr_iter *it) {
  const int d = p->index;
  queue_note(d, it->in);
  queue_note(d, it->out);
  if (it->in == it->out) queue_bad[d] |= 1;
  if (it->iteration > 0) {
    /* One device: last output is this input; several: the same input. */
    const gr_frontier *want_in = p->count == 1 ? queue_last_out[d] : queue_last_in[d];
    if (it->in != want_in) queue_bad[d] |= 2;
  }
  if (p->count > 1 && gr_frontier_capacity(it->in) < p->sub->n_owned) queue_bad[d] |= 4;
  queue_last_in[d] = it->in;
  queue_last_out[d] = it->out;
  const gr_status st = gr_bfs_primitive.iterate(slice, p, it);
  if (st >= 0 && p->count > 1 && it->out->size && gr_frontier_capacity(it->out) < p->sub->n_owned)
    queue_bad[d] |= 8;
  return st;
}

START_TEST(a_device_holds_two_frontier_queues) {
  gr_primitive checked = gr_bfs_primitive;
  checked.iterate = queue_iterate;
  gr_graph *g = gr_test_generated("kron:12:16");
  static const gr_proxy_mode proxies[] = {GR_PROXY_ALL, GR_PROXY_1HOP};
  for (int devices = 1; devices <= QUEUE_DEVICES; devices++)
    for (size_t x = 0; x < (devices == 1 ? 1u : 2u); x++) {
      memset(queue_n, 0, sizeof queue_n);
      memset(queue_bad, 0, sizeof queue_bad);
      gr_svid *depth = gr_test_run_svid(g, &checked, devices, proxies[x], false, 1, NULL);
      free(depth);
      for (int d = 0; d < devices; d++) {
        ck_assert_msg(queue_n[d] == 2, "%d devices, %s proxies: device %d saw %d frontier queues", devices,
                      proxies[x] == GR_PROXY_1HOP ? "1hop" : "all", d, queue_n[d]);
        ck_assert_msg(!queue_bad[d], "%d devices, %s proxies: device %d broke the queues' roles (%d: 1 in is out, "
                      "2 the input moved, 4 an input without the owned vertices' room, 8 an output without it)",
                      devices, proxies[x] == GR_PROXY_1HOP ? "1hop" : "all", d, queue_bad[d]);
      }
    }
  gr_graph_destroy(&g);
}
END_TEST

/* Between devices a level whose claims are routed outputs nothing, so the
 * frontier queues hold about the owned vertices a next frontier takes, not
 * every local vertex a big level claims: on 4 devices each device's peak
 * is 0.34 of one device's here (0.39 when every queue took n_local). */
START_TEST(memory_per_device_divides_on_four_cpu_devices) {
  gr_graph *g = gr_test_generated("kron:16:16");
  /* Random parts, duplicate-all proxies, selective exchange: the big
   * levels route their claims. */
  gr_test_check_peak_on_four(g, &gr_bfs_primitive, GR_PROXY_ALL, false, 3, 0.36);
  gr_graph_destroy(&g);
}
END_TEST

int main(void) {
  Suite *s = suite_create("bfs");
  TCase *ref = tcase_create("reference");
  tcase_add_test(ref, reference_gives_levels);
  tcase_add_test(ref, validator_rejects_each_kind_of_wrong_answer);
  tcase_add_test(ref, validator_accepts_any_valid_parent);
  suite_add_tcase(s, ref);
  TCase *dev = tcase_create("single_device");
  tcase_set_timeout(dev, 300);
  tcase_add_test(dev, enactor_bfs_equals_reference_on_cpu_devices);
  tcase_add_test(dev, iteration_limit_stops_early);
  tcase_add_test(dev, push_routes_every_claim_to_its_owners_bitmap);
  tcase_add_test(dev, visited_pass_keeps_the_bits_already_set);
  suite_add_tcase(s, dev);
  TCase *multi = tcase_create("multi_device");
  tcase_set_timeout(multi, 300);
  tcase_add_test(multi, memory_per_device_divides_on_four_cpu_devices);
  tcase_add_test(multi, a_device_holds_two_frontier_queues);
  tcase_add_test(multi, big_levels_between_devices_trust_bits_set_from_depths);
  suite_add_tcase(s, multi);
  TCase *fail = tcase_create("alloc_failure");
  tcase_add_test(fail, allocation_failure_names_the_device_and_frees_everything);
  suite_add_tcase(s, fail);
  return gr_test_run_suite(s, 0);
}
