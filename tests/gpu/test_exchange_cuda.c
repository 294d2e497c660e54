/* SPDX-License-Identifier: Apache-2.0 */
/* The exchange's CUDA kernels against the portable definition (the CPU
 * backend) on the same inputs: package (lists and bitmaps) and combine for
 * every operator and value type, compared as sets; the seal and the
 * compact of routed bitmaps; the peer-to-peer transport's copies from
 * several peers at once; BFS on 2 and 3 devices mapped onto GPU 0
 * (GR_DEVICE_MAP) against one CPU device; DOBFS on devices of GPU 0 one of
 * which runs late behind its host thread (GR_FAULT_SLOW); NCCL refusing
 * devices that share a GPU. Skips (exit 77) where no GPU exists. Runs with CK_NOFORK: CUDA must
 * not cross a fork. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bfs/bfs.h"
#include "dobfs/dobfs.h"
#include "comm_harness.h"
#include "gr/frontier.h"
#include "gr/util.h"
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

/* ---- package ------------------------------------------------------------ */

/* The same package on both backends: counters equal, next and cull equal
 * (next as sets), every message's records and bitmap ids equal as sets. */
/* runs: the owners laid out as duplicate-1-hop proxies lay them out, read
 * as runs (gr_xk_ranges) on both backends. */
static void same_package_owners(gr_value_type t, int nv, int nx, int parts, int me, bool broadcast, bool with_convert,
                                bool with_bits, gr_eid n_out, uint64_t list_cap, uint64_t seed, bool runs) {
  enum { NL = 200000 };
  xh_state s;
  ck_assert(xh_state_alloc(&s, NL, t, nv, nx));
  if (with_bits) {
    for (gr_vid v = 0; v < NL; v++) xh_state_set(&s, 0, v, xh_value_bits(t, 3));
  } else {
    xh_state_random(&s, GR_COMBINE_MIN, seed);
  }
  int32_t *owner = runs ? xh_owner_runs(NL, parts, me, seed) : xh_owner_random(NL, parts, seed);
  gr_vid *out = xh_vertices_random(NL, n_out, seed + 1);
  gr_vid *convert = with_convert ? xh_vertices_random(3 * NL, NL, seed + 2) : NULL;
  gr_eid *deg = malloc(((size_t)NL + 1) * sizeof *deg);
  deg[0] = 0;
  for (gr_vid v = 0; v < NL; v++) deg[v + 1] = deg[v] + (v * 13u) % 97u;
  xh_package_in in;
  xh_package_in_init(&in, &s, owner, parts, me, broadcast, out, n_out, deg);
  in.convert = convert;
  in.claims = broadcast; /* a step told to all sets its claims in the same pass */
  in.ranges = runs;
  const int n_msg = broadcast ? 1 : parts;
  for (int j = 0; j < n_msg; j++) {
    if (!broadcast && j == me) continue;
    in.list_capacity[j] = list_cap;
    if (with_bits) in.universe[j] = convert ? 3 * NL : NL;
  }
  xh_package_out g, c;
  ck_assert_int_eq(xh_run_package(&gr__xk_ops_cuda, gpu, &in, &g), GR_SUCCESS);
  ck_assert_int_eq(xh_run_package(&gr__xk_ops_cpu, cpu, &in, &c), GR_SUCCESS);
  ck_assert(g.guard_intact);
  ck_assert(c.guard_intact);
  ck_assert(g.claims_exact);
  ck_assert(c.claims_exact);
  for (int k = 0; k < gr_xk_counters(parts); k++)
    ck_assert_msg(g.counters[k] == c.counters[k], "type %d parts %d: counter %d is %llu on the GPU, %llu on the CPU",
                  t, parts, k, g.counters[k], c.counters[k]);
  ck_assert_uint_eq(g.n_next, c.n_next);
  ck_assert_int_eq(memcmp(g.next, c.next, (size_t)g.n_next * sizeof(gr_vid)), 0);
  ck_assert_int_eq(memcmp(g.cull, c.cull, gr_bitmap_words(NL) * sizeof(uint32_t)), 0);
  for (int j = 0; j < n_msg; j++) {
    ck_assert_uint_eq(g.written[j], c.written[j]);
    /* Slots are reserved in any order: compare as sets. Where a list
     * overflowed, each holds some of the items: compare their owners. */
    xh_sort_items(g.items[j], g.written[j]);
    xh_sort_items(c.items[j], c.written[j]);
    if (g.written[j] == g.counters[GR_XK_PEER + j])
      ck_assert_msg(!memcmp(g.items[j], c.items[j], (size_t)g.written[j] * sizeof(xh_item)),
                    "type %d, %d values, %d vertices: message %d differs", t, nv, nx, j);
    ck_assert_uint_eq(g.n_bit_ids[j], c.n_bit_ids[j]);
    if (g.n_bit_ids[j]) {
      ck_assert_int_eq(memcmp(g.bit_ids[j], c.bit_ids[j], (size_t)g.n_bit_ids[j] * sizeof(gr_vid)), 0);
      ck_assert_uint_eq(g.bit_value[j], c.bit_value[j]);
    }
  }
  xh_package_free(&g);
  xh_package_free(&c);
  free(deg);
  free(convert);
  free(out);
  free(owner);
  xh_state_free(&s);
}

static void same_package(gr_value_type t, int nv, int nx, int parts, int me, bool broadcast, bool with_convert,
                         bool with_bits, gr_eid n_out, uint64_t list_cap, uint64_t seed) {
  same_package_owners(t, nv, nx, parts, me, broadcast, with_convert, with_bits, n_out, list_cap, seed, false);
}

START_TEST(cuda_package_equals_cpu_package) {
  const gr_value_type types[] = {GR_VALUE_SVID, GR_VALUE_FLOAT, GR_VALUE_DOUBLE};
  uint64_t seed = 100;
  for (int t = 0; t < 3; t++)
    for (int bc = 0; bc < 2; bc++) {
      same_package(types[t], 1, 1, 6, 4, bc, bc, false, 150000, 150000, seed++);
      same_package(types[t], 2, 0, 2, 0, bc, !bc, false, 150000, 150000, seed++);
      same_package(types[t], 4, 4, 5, 1, bc, true, false, 150000, 150000, seed++);
      same_package(types[t], 1, 0, 3, 2, bc, bc, true, 180000, 180000, seed++);
    }
  /* Every part, one item, no output, a full output, a list that overflows. */
  same_package(GR_VALUE_SVID, 1, 0, 32, 17, false, false, true, 200000, 200000, seed++);
  same_package(GR_VALUE_SVID, 1, 1, 4, 3, false, false, false, 1, 1, seed++);
  same_package(GR_VALUE_SVID, 1, 1, 4, 3, false, false, false, 0, 16, seed++);
  same_package(GR_VALUE_SVID, 1, 1, 2, 1, false, false, false, 200000, 5000, seed++);
  same_package(GR_VALUE_SVID, 1, 0, 8, 7, false, true, true, 1000, 1000, seed++);
  /* Owners as runs (duplicate-1-hop proxies' layout). */
  for (int t = 0; t < 3; t++) {
    same_package_owners(types[t], 1, 1, 4, 1, false, true, false, 150000, 150000, seed++, true);
    same_package_owners(types[t], 1, 0, 2, 0, false, true, false, 150000, 150000, seed++, true);
    same_package_owners(types[t], 2, 1, 8, 7, false, false, false, 150000, 150000, seed++, true);
  }
}
END_TEST

/* ---- combine ------------------------------------------------------------- */

static void same_combine(const xh_combine_in *in, const char *what) {
  xh_combine_out g, c;
  ck_assert_msg(xh_run_combine(&gr__xk_ops_cuda, gpu, in, &g) == GR_SUCCESS, "%s: %s", what, gr_error_message());
  ck_assert_msg(xh_run_combine(&gr__xk_ops_cpu, cpu, in, &c) == GR_SUCCESS, "%s: %s", what, gr_error_message());
  const gr_vid n = in->state->n;
  const xh_state *gs = &g.state, *cs = &c.state;
  ck_assert_msg(g.n_next == c.n_next, "%s: next has %llu vertices on the GPU, %llu on the CPU", what,
                (unsigned long long)g.n_next, (unsigned long long)c.n_next);
  ck_assert_msg(!memcmp(g.next, c.next, (size_t)g.n_next * sizeof(gr_vid)), "%s: next differs", what);
  ck_assert_msg(!memcmp(g.cull, c.cull, gr_bitmap_words(n) * sizeof(uint32_t)), "%s: cull differs", what);
  for (int k = 0; k < gs->layout.n_values; k++)
    for (gr_vid v = 0; v < n; v++)
      XH_CHECK(xh_state_get(gs, k, v) == xh_state_get(cs, k, v),
               "%s: value %d of %u is %g on the GPU, %g on the CPU", what, k, (unsigned)v,
               xh_value_of(gs->type, xh_state_get(gs, k, v)), xh_value_of(cs->type, xh_state_get(cs, k, v)));
  for (int k = 0; k < gs->layout.n_vertices; k++)
    for (gr_vid v = 0; v < n; v++)
      XH_CHECK(gs->vertices[k][v] == cs->vertices[k][v],
               "%s: vertex payload %d of %u is %lld on the GPU, %lld on the CPU", what, k, (unsigned)v,
               (long long)gs->vertices[k][v], (long long)cs->vertices[k][v]);
  ck_assert_msg(g.next_edges == c.next_edges && g.next_max_degree == c.next_max_degree,
                "%s: next degrees %llu/%llu on the GPU, %llu/%llu on the CPU", what, g.next_edges, g.next_max_degree,
                c.next_edges, c.next_max_degree);
  for (int j = 0; j < in->n_msgs; j++)
    ck_assert_msg(g.found[j] == c.found[j], "%s: bitmap %d: %llu ids found on the GPU, %llu on the CPU", what, j,
                  g.found[j], c.found[j]);
  xh_combine_free(&g);
  xh_combine_free(&c);
}

/* The cases of test_comm (n 2000), then the same kinds at a size that fills
 * the GPU with many blocks. */
static void same_combine_all(gr_vid n, gr_vid n_global, const uint64_t counts[3], uint64_t seed0) {
  gr_vid *g2l = xh_g2l_table(n, n_global);
  int32_t *owner = xh_owner_random(n, 3, 99);
  xh_combine_kind kinds[XH_MAX_KINDS];
  const int n_kinds = xh_combine_kinds(kinds);
  for (int i = 0; i < n_kinds; i++)
    for (int variant = XH_CASE_LOCAL; variant <= XH_CASE_GLOBAL; variant++) {
      xh_combine_case c;
      ck_assert(xh_combine_case_random(&c, &kinds[i], variant, n, owner, g2l, n_global, counts,
                                       seed0 + 10 * (uint64_t)i));
      char what[128];
      snprintf(what, sizeof what, "n %u type %d op %d values %d vertices %d variant %d", (unsigned)n,
               kinds[i].type, kinds[i].op, kinds[i].n_values, kinds[i].n_vertices, variant);
      same_combine(&c.in, what);
      xh_combine_case_free(&c);
    }
  free(owner);
  free(g2l);
}

START_TEST(cuda_combine_equals_cpu_combine_for_every_operator_and_type) {
  const uint64_t small[3] = {700, 1, 1500};
  same_combine_all(2000, 3000, small, 1000);
  const uint64_t large[3] = {150000, 33, 190000};
  same_combine_all(200000, 300000, large, 5000);
}
END_TEST

/* Bitmap messages (uniform payloads) of every operator and type, with
 * degrees counted, local and global ids. */
/* LOGADD on the GPU (a compare-and-swap loop; CUDA's exp and log1p may
 * differ from the host's in the last bits): the CPU test's cases. */
START_TEST(cuda_combine_logadd_adds_logarithms_as_numbers) { xh_check_logadd(&gr__xk_ops_cuda, gpu, 1e-11); }
END_TEST

START_TEST(cuda_guarded_combine_drops_other_stamps_and_takes_unset_ones) { xh_check_guard(&gr__xk_ops_cuda, gpu); }
END_TEST

START_TEST(cuda_combine_skips_settled_vertices_and_settles_what_it_combines) {
  xh_check_settled(&gr__xk_ops_cuda, gpu);
}
END_TEST

START_TEST(cuda_seal_gives_each_routed_bitmap_its_value_and_counts_its_ids) { xh_check_seal(&gr__xk_ops_cuda, gpu); }
END_TEST

START_TEST(cuda_compact_puts_each_id_of_a_routed_bitmap_in_next_once) { xh_check_compact(&gr__xk_ops_cuda, gpu); }
END_TEST

START_TEST(cuda_bitmaps_combined_in_one_pass_equal_one_combine_each) {
  xh_check_combine_more(&gr__xk_ops_cuda, gpu);
}
END_TEST

START_TEST(cuda_lists_combined_in_one_launch_equal_one_combine_each) {
  xh_check_combine_lists_more(&gr__xk_ops_cuda, gpu);
}
END_TEST

START_TEST(cuda_mark_and_select_take_exactly_the_marked_entries_of_a_list) { xh_check_mark_select(&gr__xk_ops_cuda, gpu); }
END_TEST

START_TEST(cuda_or_union_ors_every_source_into_the_union_and_also) { xh_check_or_union(&gr__xk_ops_cuda, gpu); }
START_TEST(cuda_or_owned_reads_each_word_from_its_owner) { xh_check_or_owned(&gr__xk_ops_cuda, gpu); }
END_TEST

START_TEST(cuda_package_reads_the_output_size_an_advance_left_on_the_device) {
  xh_check_package_size_on_device(&gr__xk_ops_cuda, gpu);
}
END_TEST

START_TEST(cuda_package_with_settled_bits_keeps_no_culling_bitmap) {
  xh_check_package_settled(&gr__xk_ops_cuda, gpu, false);
}
END_TEST

START_TEST(cuda_combine_of_bare_ids_takes_the_named_value) { xh_check_combine_ids(&gr__xk_ops_cuda, gpu); }
END_TEST

/* The peer-to-peer transport's copies from several peers in one kernel:
 * ranges of every size class (empty, under a 16-byte word, words and a
 * tail, large), ends aligned and not, land byte for byte where they are
 * sent, and nothing around them is written. */
START_TEST(cuda_peer_copies_move_every_range_exactly) {
  enum { N = 8 };
  /* Offsets: 16-byte ends (words of 16), 8-byte ends (words of 8), odd
   * ones (bytes). */
  static const uint64_t sizes[N] = {0, 1, 15, 16, 4099, 3 * 65536 + 5, 1u << 21, 70001};
  static const unsigned src_off[N] = {0, 3, 0, 8, 16, 8, 0, 1};
  static const unsigned dst_off[N] = {0, 0, 5, 8, 16, 24, 0, 7};
  const size_t room = ((size_t)1 << 21) + 64, total = (size_t)N * room;
  unsigned char *host_src = malloc(total), *host_dst = malloc(total), *want = malloc(total);
  ck_assert(host_src && host_dst && want);
  for (size_t i = 0; i < total; i++) host_src[i] = (unsigned char)(i * 2654435761u >> 13);
  void *src = NULL, *dst = NULL;
  ck_assert_int_eq(gr_device_malloc(gpu, &src, total, "test sources"), GR_SUCCESS);
  ck_assert_int_eq(gr_device_malloc(gpu, &dst, total, "test targets"), GR_SUCCESS);
  ck_assert_int_eq(gr_device_copy(gpu, src, host_src, total, GR_COPY_H2D), GR_SUCCESS);
  ck_assert_int_eq(gr_device_memset(gpu, dst, 0xa5, total), GR_SUCCESS);
  memset(want, 0xa5, total);
  gr_xk_peer_copies a;
  memset(&a, 0, sizeof a);
  for (int k = 0; k < N; k++) {
    /* Range k reads the slot of range N-1-k, so that no range is a plain
     * copy of its own place. */
    const size_t from = (size_t)(N - 1 - k) * room + src_off[k], to = (size_t)k * room + dst_off[k];
    a.src[a.n] = (const unsigned char *)src + from;
    a.dst[a.n] = (unsigned char *)dst + to;
    a.bytes[a.n] = sizes[k];
    a.n++;
    memcpy(want + to, host_src + from, sizes[k]);
  }
  ck_assert_int_eq(gr__xk_peer_copies_cuda(gpu, &a), GR_SUCCESS);
  ck_assert_int_eq(gr_device_copy(gpu, host_dst, dst, total, GR_COPY_D2H), GR_SUCCESS);
  ck_assert_int_eq(gr_device_sync(gpu), GR_SUCCESS);
  for (size_t i = 0; i < total; i++)
    ck_assert_msg(host_dst[i] == want[i], "byte %zu (range %zu, offset %zu): %u, want %u", i, i / room, i % room,
                  host_dst[i], want[i]);
  gr_device_free(gpu, src, total);
  gr_device_free(gpu, dst, total);
  free(host_src);
  free(host_dst);
  free(want);
}
END_TEST

START_TEST(cuda_combine_of_bitmaps_equals_cpu) {
  enum { N = 200000, NG = 300000 };
  gr_vid *g2l = xh_g2l_table(N, NG);
  int32_t *owner = xh_owner_random(N, 3, 77);
  gr_eid *deg = malloc(((size_t)N + 1) * sizeof *deg);
  deg[0] = 0;
  for (gr_vid v = 0; v < N; v++) deg[v + 1] = deg[v] + (v * 5u) % 41u;
  xh_combine_kind kinds[XH_MAX_KINDS];
  const int n_kinds = xh_combine_kinds(kinds);
  for (int i = 0; i < n_kinds; i++) {
    if (kinds[i].n_values != 1 || kinds[i].n_vertices != 0) continue;
    for (int variant = XH_CASE_LOCAL; variant <= XH_CASE_GLOBAL; variant++) {
      xh_state s;
      ck_assert(xh_state_alloc(&s, N, kinds[i].type, 1, 0));
      xh_state_random(&s, kinds[i].op, 900 + (uint64_t)i);
      const gr_vid range = variant == XH_CASE_GLOBAL ? NG : N;
      const uint64_t counts[2] = {170000, 3};
      unsigned char *msg[2];
      for (int j = 0; j < 2; j++) {
        xh_item *it = xh_items_random(&s, kinds[i].op, range, counts[j], 950 + 3 * (uint64_t)i + (uint64_t)j);
        gr_vid *ids = malloc((size_t)counts[j] * sizeof *ids);
        for (uint64_t k = 0; k < counts[j]; k++) ids[k] = (gr_vid)it[k].id;
        msg[j] = xh_bitmap_build(range, it[0].val[0], s.layout.value_bytes, ids, counts[j]);
        free(ids);
        free(it);
      }
      xh_combine_in in;
      memset(&in, 0, sizeof in);
      in.state = &s;
      in.op = kinds[i].op;
      in.owner = variant == XH_CASE_OWNER ? owner : NULL;
      in.me = 1;
      in.g2l = variant == XH_CASE_GLOBAL ? g2l : NULL;
      in.n_global = NG;
      in.n_msgs = 2;
      in.deg = deg;
      for (int j = 0; j < 2; j++) {
        in.msg[j] = msg[j];
        in.universe[j] = range;
      }
      char what[96];
      snprintf(what, sizeof what, "bitmap: type %d op %d variant %d", kinds[i].type, kinds[i].op, variant);
      same_combine(&in, what);
      free(msg[0]);
      free(msg[1]);
      xh_state_free(&s);
    }
  }
  free(deg);
  free(owner);
  free(g2l);
}
END_TEST

static xh_item svid_item(gr_vid id, gr_svid val, gr_svid vtx) {
  xh_item it;
  memset(&it, 0, sizeof it);
  it.id = id;
  it.val[0] = xh_value_bits(GR_VALUE_SVID, val);
  it.vtx[0] = vtx;
  return it;
}

START_TEST(cuda_combine_pass_2_gives_the_winner_its_followers) {
  /* Vertex 0 gets 5 (pred 100) and 3 (pred 200) under MIN: 3 with pred 200
   * on both backends. */
  xh_state s;
  ck_assert(xh_state_alloc(&s, 2, GR_VALUE_SVID, 1, 1));
  xh_state_set(&s, 0, 0, xh_value_bits(GR_VALUE_SVID, -1));
  xh_state_set(&s, 0, 1, xh_value_bits(GR_VALUE_SVID, 2));
  xh_item a[2] = {svid_item(0, 5, 100), svid_item(1, 5, 101)};
  xh_item b[2] = {svid_item(1, -1, 201), svid_item(0, 3, 200)};
  unsigned char *ma = xh_message_build(&s.layout, a, 2), *mb = xh_message_build(&s.layout, b, 2);
  xh_combine_in in = {&s, GR_COMBINE_MIN, NULL, 0, NULL, 0, NULL, 2, {ma, mb}, {2, 2}, {0}, NULL, NULL, 0, NULL, false};
  xh_combine_out g;
  ck_assert_int_eq(xh_run_combine(&gr__xk_ops_cuda, gpu, &in, &g), GR_SUCCESS);
  ck_assert(xh_value_of(GR_VALUE_SVID, xh_state_get(&g.state, 0, 0)) == 3);
  ck_assert_int_eq(g.state.vertices[0][0], 200);
  ck_assert(xh_value_of(GR_VALUE_SVID, xh_state_get(&g.state, 0, 1)) == 2);
  ck_assert_int_eq(g.state.vertices[0][1], 0);
  ck_assert_uint_eq(g.n_next, 1);
  xh_combine_free(&g);
  same_combine(&in, "pass 2");
  free(ma);
  free(mb);
  xh_state_free(&s);
}
END_TEST

/* ---- several devices on GPU 0 -------------------------------------------- */

/* A failed check leaves a test early (no fork): the map must not outlive it. */
static void no_map(void) {}
static void unmap(void) {
  unsetenv("GR_DEVICE_MAP");
  unsetenv("GR_FAULT_SLOW");
}

enum { N_SRC = 3 };

/* A graph's combinations: 2 device counts x 2 partitioners x 2 proxies x 4
 * exchanges. */
enum { BFS_SHARED_COMBOS = 2 * 2 * 2 * 4 };

static void check_bfs_on_shared_gpu(const char *spec, bool connected, unsigned *combo) {
  /* A slice with none of this graph's combinations skips its build and its
   * answer on one CPU device. */
  if (!gr_test_slice_enter(combo, BFS_SHARED_COMBOS)) return;
  gr_graph *g = xh_gen(spec);
  ck_assert_ptr_nonnull(g);
  const gr_vid n = gr_graph_num_vertices(g);
  const gr_csr *csr = gr_graph_out(g);
  gr_vid src[N_SRC];
  for (int i = 0; i < N_SRC; i++) {
    gr_vid v = (gr_vid)(((uint64_t)i * 7919u + 3) % n);
    while (csr->offsets[v + 1] == csr->offsets[v]) v = (v + 1) % n;
    src[i] = v;
  }
  /* GR_TEST_SOURCES=J/M: a part of them (every combination still runs). */
  const int ns = (int)gr_test_keep_sources(src, N_SRC);
  if (!ns) {
    *combo += BFS_SHARED_COMBOS;
    gr_graph_destroy(&g);
    return;
  }
  xh_bfs_config one = {GR_BACKEND_CPU, 1, GR_PART_RANDOM, GR_PROXY_ALL, GR_COMM_SELECTIVE, GR_TRANSPORT_AUTO, 0, GR_COMM_FORMAT_AUTO, false, NULL, 0};
  gr_result base[N_SRC];
  xh_stage stage;
  ck_assert_msg(xh_bfs_run(g, &one, src, ns, base, NULL, &stage) == GR_SUCCESS, "%s", gr_error_message());
  const gr_partitioner_kind parts[] = {GR_PART_RANDOM, GR_PART_RANGE};
  const gr_proxy_mode proxies[] = {GR_PROXY_ALL, GR_PROXY_1HOP};
  const gr_comm_mode modes[] = {GR_COMM_SELECTIVE, GR_COMM_BROADCAST};
  const char *maps[] = {"0,0", "0,0,0"};
  gr_prim_options po = GR_PRIM_OPTIONS_INIT;
  po.mark_pred = true;
  for (int nd = 2; nd <= 3; nd++) {
    setenv("GR_DEVICE_MAP", maps[nd - 2], 1);
    for (int pi = 0; pi < 2; pi++)
      for (int xi = 0; xi < 2; xi++)
        for (int mi = 0; mi < 4; mi++) {
          if (!gr_test_in_slice(combo)) continue;
          /* Without predecessors the payload is uniform: bitmaps travel. */
          xh_bfs_config c = {GR_BACKEND_CUDA, nd, parts[pi], proxies[xi], modes[mi & 1], GR_TRANSPORT_P2P, 0,
                             GR_COMM_FORMAT_AUTO, mi >= 2, NULL, 0};
          char what[160];
          snprintf(what, sizeof what, "%s on %d devices of GPU 0, %s, %s proxies, %s%s", spec, nd,
                   gr_partitioner_name(parts[pi]), proxies[xi] == GR_PROXY_1HOP ? "1hop" : "all",
                   gr_comm_mode_name(modes[mi & 1]), mi >= 2 ? ", depths only" : "");
          gr_result r[N_SRC];
          gr_run_stats st[N_SRC];
          ck_assert_msg(xh_bfs_run(g, &c, src, ns, r, st, &stage) == GR_SUCCESS, "%s: stage %d: %s", what,
                        stage, gr_error_message());
          for (int s = 0; s < ns; s++) {
            gr_run_args a = {src[s], s, NULL, 0};
            ck_assert_msg(!memcmp(r[s].values, base[s].values, (size_t)n * sizeof(gr_svid)),
                          "%s, source %u: depths differ from one CPU device", what, (unsigned)src[s]);
            ck_assert_msg(gr_bfs_validate(g, &a, &po, &r[s], &base[s]) == GR_SUCCESS, "%s, source %u: %s", what,
                          (unsigned)src[s], gr_error_message());
            uint64_t bytes = 0, sent = 0, received = 0;
            for (int d = 0; d < nd; d++) {
              for (int j = 0; j < nd; j++) bytes += st[s].devices[d].bytes_to[j];
              sent += st[s].devices[d].items_sent;
              received += st[s].devices[d].items_received;
            }
            if (connected) ck_assert_msg(bytes > 0, "%s: no bytes moved", what);
            ck_assert_msg(sent == received, "%s: %llu items sent, %llu received", what, (unsigned long long)sent,
                          (unsigned long long)received);
            gr_result_free(&r[s]);
            gr_run_stats_free(&st[s]);
          }
        }
    unsetenv("GR_DEVICE_MAP");
  }
  for (int s = 0; s < ns; s++) gr_result_free(&base[s]);
  gr_graph_destroy(&g);
}

START_TEST(bfs_on_devices_sharing_gpu_0_equals_one_cpu_device) {
  unsigned combo = 0;
  check_bfs_on_shared_gpu("grid2d:60x80", true, &combo);
  check_bfs_on_shared_gpu("kron:14:16", false, &combo);
  /* Every combination counted, skipped or run: slices cover the matrix. */
  ck_assert_uint_eq(combo, 2 * BFS_SHARED_COMBOS);
}
END_TEST

/* A device whose stream runs late behind its host thread (GR_FAULT_SLOW:
 * it holds 20 ms after each host wait): every buffer a peer copies must be
 * whole when its device passes the barrier that publishes it, or the peer
 * reads it unwritten. DOBFS's pulls between devices publish the bitmap of
 * their finds, which the pull's kernels write after its last host wait; a
 * package that did not drain the stream first let the peers or a bitmap
 * with none of the slow device's finds (depths wrong on the others). On 2
 * and 4 devices of GPU 0, duplicate-all proxies, selective exchange, each
 * device slow in turn, against one CPU device; the random partition by
 * single ids, and in blocks of 32 ids, whose finds travel as owner words. */
START_TEST(dobfs_with_a_slow_device_on_gpu_0_equals_one_cpu_device) {
  gr_graph *g = xh_gen("kron:11:16,seed=7");
  ck_assert_ptr_nonnull(g);
  const gr_vid n = gr_graph_num_vertices(g);
  const gr_csr *csr = gr_graph_out(g);
  /* The highest-degree vertex: its first level is wide, so DOBFS pulls
   * twice in a row (the second pull's frontier is the or'ed finds). */
  gr_vid src[1] = {0};
  for (gr_vid v = 1; v < n; v++)
    if (gr_csr_degree(csr, v) > gr_csr_degree(csr, src[0])) src[0] = v;
  xh_bfs_config one = {GR_BACKEND_CPU, 1, GR_PART_RANDOM, GR_PROXY_ALL, GR_COMM_SELECTIVE, GR_TRANSPORT_AUTO, 0,
                       GR_COMM_FORMAT_AUTO, false, &gr_dobfs_primitive, 0};
  gr_result base;
  xh_stage stage;
  ck_assert_msg(xh_bfs_run(g, &one, src, 1, &base, NULL, &stage) == GR_SUCCESS, "%s", gr_error_message());
  const char *maps[] = {"0,0", "0,0,0,0"};
  gr_prim_options po = GR_PRIM_OPTIONS_INIT;
  po.mark_pred = true;
  int pulled = 0;
  for (int mi = 0; mi < 4; mi++) {
    const int nd = mi % 2 == 0 ? 2 : 4;
    /* Single ids, then blocks of 32 ids: the finds as owner words. */
    const uint32_t block = mi < 2 ? 1u : 32u;
    setenv("GR_DEVICE_MAP", maps[mi % 2], 1);
    for (int slow = 0; slow < nd; slow++) {
      char hook[32];
      snprintf(hook, sizeof hook, "%d:20000", slow);
      setenv("GR_FAULT_SLOW", hook, 1);
      xh_bfs_config c = {GR_BACKEND_CUDA, nd, GR_PART_RANDOM, GR_PROXY_ALL, GR_COMM_SELECTIVE, GR_TRANSPORT_P2P, 0,
                         GR_COMM_FORMAT_AUTO, false, &gr_dobfs_primitive, block};
      gr_result r;
      gr_run_stats st;
      const gr_status rs = xh_bfs_run(g, &c, src, 1, &r, &st, &stage);
      unsetenv("GR_FAULT_SLOW");
      ck_assert_msg(rs == GR_SUCCESS, "%d devices, blocks of %u, device %d slow: stage %d: %s", nd, block, slow,
                    stage, gr_error_message());
      gr_run_args a = {src[0], 0, NULL, 0};
      ck_assert_msg(!memcmp(r.values, base.values, (size_t)n * sizeof(gr_svid)),
                    "%d devices of GPU 0, blocks of %u, device %d slow: depths differ from one CPU device", nd, block,
                    slow);
      ck_assert_msg(gr_bfs_validate(g, &a, &po, &r, &base) == GR_SUCCESS, "%d devices, blocks of %u, device %d slow: %s",
                    nd, block, slow, gr_error_message());
      /* A pull after a pull (whose frontier is the or'ed finds), or the
       * case proves nothing. */
      bool twice = false;
      for (int i = 0; st.level_tag && i + 1 < st.frontier_len; i++)
        twice = twice || (st.level_tag[i] == 'U' && st.level_tag[i + 1] == 'U');
      pulled += twice;
      gr_result_free(&r);
      gr_run_stats_free(&st);
    }
    unsetenv("GR_DEVICE_MAP");
  }
  ck_assert_msg(pulled == 12, "only %d of 12 runs pulled twice in a row", pulled);
  gr_result_free(&base);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(auto_transport_on_gpus_is_p2p) {
  setenv("GR_DEVICE_MAP", "0,0", 1);
  gr_comm_options o = {GR_COMM_SELECTIVE, GR_TRANSPORT_AUTO, GR_COMM_FORMAT_AUTO, NULL};
  gr_comm *c = NULL;
  gr_status st = gr_comm_create(&c, GR_BACKEND_CUDA, 2, &o);
  unsetenv("GR_DEVICE_MAP");
  ck_assert_int_eq(st, GR_SUCCESS);
  ck_assert_int_eq(gr_comm_transport(c), GR_TRANSPORT_P2P);
  gr_comm_destroy(&c);
}
END_TEST

START_TEST(nccl_refuses_devices_that_share_a_gpu) {
  setenv("GR_DEVICE_MAP", "0,0", 1);
  gr_comm_options o = {GR_COMM_SELECTIVE, GR_TRANSPORT_NCCL, GR_COMM_FORMAT_AUTO, NULL};
  gr_comm *c = NULL;
  gr_status st = gr_comm_create(&c, GR_BACKEND_CUDA, 2, &o);
  unsetenv("GR_DEVICE_MAP");
  ck_assert_ptr_null(c);
  if (gr_comm_have_nccl()) {
    ck_assert_int_eq(st, GR_ERR_INVALID_ARG);
    ck_assert_msg(strstr(gr_error_message(), "same GPU") && strstr(gr_error_message(), "p2p"), "%s",
                  gr_error_message());
  } else {
    ck_assert_int_eq(st, GR_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(gr_error_message(), "NCCL"));
  }
}
END_TEST

int main(void) {
  if (!gr_test_have_gpu()) return 77;
  Suite *s = suite_create("exchange_cuda");
  /* One case per test, named after it, so that a long tool
   * (compute-sanitizer) can run each apart and at once: CK_RUN_CASE=name.
   * The kernels' tests share one GPU and one CPU device (setup); the
   * others map devices onto GPU 0 themselves (no_map). */
  const struct {
    const char *name;
    const TTest *test;
    bool kernels;
  } cases[] = {
      {"cuda_package_equals_cpu_package", cuda_package_equals_cpu_package, true},
      {"cuda_combine_equals_cpu_combine_for_every_operator_and_type",
       cuda_combine_equals_cpu_combine_for_every_operator_and_type, true},
      {"cuda_combine_pass_2_gives_the_winner_its_followers", cuda_combine_pass_2_gives_the_winner_its_followers, true},
      {"cuda_combine_logadd_adds_logarithms_as_numbers", cuda_combine_logadd_adds_logarithms_as_numbers, true},
      {"cuda_guarded_combine_drops_other_stamps_and_takes_unset_ones",
       cuda_guarded_combine_drops_other_stamps_and_takes_unset_ones, true},
      {"cuda_combine_skips_settled_vertices_and_settles_what_it_combines",
       cuda_combine_skips_settled_vertices_and_settles_what_it_combines, true},
      {"cuda_combine_of_bitmaps_equals_cpu", cuda_combine_of_bitmaps_equals_cpu, true},
      {"cuda_peer_copies_move_every_range_exactly", cuda_peer_copies_move_every_range_exactly, true},
      {"cuda_seal_gives_each_routed_bitmap_its_value_and_counts_its_ids",
       cuda_seal_gives_each_routed_bitmap_its_value_and_counts_its_ids, true},
      {"cuda_compact_puts_each_id_of_a_routed_bitmap_in_next_once",
       cuda_compact_puts_each_id_of_a_routed_bitmap_in_next_once, true},
      {"cuda_bitmaps_combined_in_one_pass_equal_one_combine_each",
       cuda_bitmaps_combined_in_one_pass_equal_one_combine_each, true},
      {"cuda_lists_combined_in_one_launch_equal_one_combine_each",
       cuda_lists_combined_in_one_launch_equal_one_combine_each, true},
      {"cuda_mark_and_select_take_exactly_the_marked_entries_of_a_list",
       cuda_mark_and_select_take_exactly_the_marked_entries_of_a_list, true},
      {"cuda_or_union_ors_every_source_into_the_union_and_also", cuda_or_union_ors_every_source_into_the_union_and_also,
       true},
      {"cuda_or_owned_reads_each_word_from_its_owner", cuda_or_owned_reads_each_word_from_its_owner, true},
      {"cuda_package_reads_the_output_size_an_advance_left_on_the_device",
       cuda_package_reads_the_output_size_an_advance_left_on_the_device, true},
      {"cuda_package_with_settled_bits_keeps_no_culling_bitmap", cuda_package_with_settled_bits_keeps_no_culling_bitmap,
       true},
      {"cuda_combine_of_bare_ids_takes_the_named_value", cuda_combine_of_bare_ids_takes_the_named_value, true},
      {"bfs_on_devices_sharing_gpu_0_equals_one_cpu_device", bfs_on_devices_sharing_gpu_0_equals_one_cpu_device, false},
      {"dobfs_with_a_slow_device_on_gpu_0_equals_one_cpu_device", dobfs_with_a_slow_device_on_gpu_0_equals_one_cpu_device,
       false},
      {"auto_transport_on_gpus_is_p2p", auto_transport_on_gpus_is_p2p, false},
      {"nccl_refuses_devices_that_share_a_gpu", nccl_refuses_devices_that_share_a_gpu, false},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    TCase *tc = tcase_create(cases[i].name);
    tcase_set_timeout(tc, 600);
    if (cases[i].kernels) tcase_add_checked_fixture(tc, setup, teardown);
    else tcase_add_checked_fixture(tc, no_map, unmap);
    tcase_add_test(tc, cases[i].test);
    suite_add_tcase(s, tc);
  }
  return gr_test_run_suite(s, 1);
}
