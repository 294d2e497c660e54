/* SPDX-License-Identifier: Apache-2.0 */
/* The communication layer on CPU devices: the message layout, split, pack and
 * combine (every operator and value type) against their definition, the
 * argument checks of gr_comm_create and the enactor, BFS on several devices
 * through the exchange against one device, and allocation failures inside a
 * multi-device run. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bfs/bfs.h"
#include "dobfs/dobfs.h"
#include "comm_harness.h"
#include "comm_internal.h"
#include "gr/atomic.h"
#include "gr/frontier.h"
#include "gr/logspace.h"
#include "gr/util.h"
#include "subgraph_builder.h"
#include "testutil.h"

static gr_device *dev;

static void setup(void) {
  gr_device_options o = GR_DEVICE_OPTIONS_INIT;
  o.cpu_threads = 4;
  ck_assert_int_eq(gr_device_create(&dev, GR_BACKEND_CPU, 0, &o), GR_SUCCESS);
}

static void teardown(void) {
  gr_device_destroy(&dev);
  ck_assert_ptr_null(dev);
}

static bool bit(const uint32_t *bits, gr_vid v) { return (bits[v >> 5] >> (v & 31u)) & 1u; }

/* ---- layout -------------------------------------------------------------- */

/* Every field of a record starts at its own alignment after the previous
 * one, nothing overlaps, and the record is a multiple of its widest field
 * (so records stay aligned one after another). */
static void check_layout(int nv, int vb, int nx) {
  const gr_xk_layout l = gr_xk_layout_make(nv, vb, nx);
  const int idb = (int)sizeof(gr_vid), xb = (int)sizeof(gr_svid);
  ck_assert_int_eq(l.n_values, nv);
  ck_assert_int_eq(l.value_bytes, vb);
  ck_assert_int_eq(l.n_vertices, nx);
  ck_assert_int_eq(l.value_offset % vb, 0);
  ck_assert_int_ge(l.value_offset, idb);
  ck_assert_int_lt(l.value_offset, idb + vb);
  ck_assert_int_eq(l.vertex_offset % xb, 0);
  ck_assert_int_ge(l.vertex_offset, l.value_offset + nv * vb);
  ck_assert_int_lt(l.vertex_offset, l.value_offset + nv * vb + xb);
  int widest = idb > vb ? idb : vb;
  widest = widest > xb ? widest : xb;
  ck_assert_int_eq(l.record_bytes % widest, 0);
  ck_assert_int_ge(l.record_bytes, l.vertex_offset + nx * xb);
  ck_assert_int_lt(l.record_bytes, l.vertex_offset + nx * xb + widest);
  for (uint64_t c = 0; c < 20; c++) {
    ck_assert_uint_eq(gr_xk_list_bytes(&l, c) % 8, 0);
    ck_assert_uint_ge(gr_xk_list_bytes(&l, c), c * (uint64_t)l.record_bytes);
    ck_assert_uint_lt(gr_xk_list_bytes(&l, c), c * (uint64_t)l.record_bytes + 8);
  }
}

START_TEST(layout_records_align_each_field_and_pack_them) {
  const int shapes[][3] = {{1, 4, 0}, {1, 4, 1}, {1, 8, 0}, {2, 8, 2}, {4, 4, 4}, {3, 8, 1}, {1, 8, 3}};
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) check_layout(shapes[i][0], shapes[i][1], shapes[i][2]);
#ifndef GR_VERTEX_64
  /* BFS: id, depth (and predecessor): 8 (12) bytes; PageRank-like doubles:
   * id padded to 8, then the double: 16 bytes. */
  ck_assert_int_eq(gr_xk_layout_make(1, 4, 0).record_bytes, 8);
  ck_assert_int_eq(gr_xk_layout_make(1, 4, 1).record_bytes, 12);
  ck_assert_int_eq(gr_xk_layout_make(1, 8, 0).value_offset, 8);
  ck_assert_int_eq(gr_xk_layout_make(1, 8, 0).record_bytes, 16);
  ck_assert_int_eq(gr_xk_layout_make(1, 8, 1).record_bytes, 24);
  ck_assert_uint_eq(gr_xk_list_bytes(&(gr_xk_layout){1, 4, 1, 4, 8, 12}, 3), 40);
#endif
  /* A bitmap: the value word, then whole 8-byte groups of 32-bit words. */
  ck_assert_uint_eq(gr_xk_bitmap_bytes(0), 8);
  ck_assert_uint_eq(gr_xk_bitmap_bytes(1), 16);
  ck_assert_uint_eq(gr_xk_bitmap_bytes(64), 16);
  ck_assert_uint_eq(gr_xk_bitmap_bytes(65), 24);
}
END_TEST

START_TEST(messages_round_trip_through_build_and_read) {
  gr_xk_layout l = gr_xk_layout_make(2, 8, 1);
  xh_item it[3];
  memset(it, 0, sizeof it);
  for (int i = 0; i < 3; i++) {
    it[i].id = (uint64_t)(10 + i);
    it[i].val[0] = xh_value_bits(GR_VALUE_DOUBLE, 1.5 * i);
    it[i].val[1] = xh_value_bits(GR_VALUE_DOUBLE, -2.0 * i);
    it[i].vtx[0] = 100 + i;
  }
  unsigned char *m = xh_message_build(&l, it, 3);
  xh_item *back = xh_message_items(&l, m, 3);
  ck_assert_int_eq(memcmp(it, back, sizeof it), 0);
  ck_assert_uint_eq(*(gr_vid *)(m + 2 * (size_t)l.record_bytes), 12);
  ck_assert(*(double *)(m + 2 * (size_t)l.record_bytes + l.value_offset) == 3.0);
  ck_assert_int_eq(*(gr_svid *)(m + (size_t)l.record_bytes + l.vertex_offset), 101);
  free(back);
  free(m);
  const gr_vid ids[4] = {0, 31, 32, 99};
  unsigned char *b = xh_bitmap_build(100, 7, 4, ids, 4);
  uint64_t n = 0, value = 0;
  gr_vid *got = xh_bitmap_ids(b, 100, 4, &n, &value);
  ck_assert_uint_eq(n, 4);
  ck_assert_uint_eq(value, 7);
  ck_assert_int_eq(memcmp(got, ids, sizeof ids), 0);
  ck_assert_uint_eq(((uint32_t *)(b + 8))[1], 1u);
  free(got);
  free(b);
}
END_TEST

/* ---- package ------------------------------------------------------------- */

enum { NL = 3000 };

/* What vertex v becomes in a message. */
static xh_item item_of(const xh_state *s, gr_vid v, const gr_vid *convert) {
  xh_item it;
  memset(&it, 0, sizeof it);
  it.id = convert ? convert[v] : v;
  for (int k = 0; k < s->layout.n_values; k++) it.val[k] = xh_state_get(s, k, v);
  for (int k = 0; k < s->layout.n_vertices; k++) it.vtx[k] = s->vertices[k][v];
  return it;
}

/* A CSR shape over NL vertices: degree (v * 7) % 13. */
static gr_eid *degree_offsets(void) {
  gr_eid *o = malloc((NL + 1) * sizeof *o);
  o[0] = 0;
  for (gr_vid v = 0; v < NL; v++) o[v + 1] = o[v] + (v * 7u) % 13u;
  return o;
}

/* The owned outputs are next, once each, with their cull bits and degrees. */
static void check_next(const xh_package_in *in, const xh_package_out *r) {
  gr_eid n_own = 0;
  unsigned long long dsum = 0, dmax = 0;
  uint32_t *cull = calloc(gr_bitmap_words(NL), sizeof *cull);
  gr_vid *own = malloc(((size_t)in->n_out + 1) * sizeof *own);
  for (gr_eid i = 0; i < in->n_out; i++) {
    const gr_vid v = in->out[i];
    if (in->owner[v] != in->me) continue;
    own[n_own++] = v;
    cull[v >> 5] |= 1u << (v & 31u);
    if (in->deg) {
      const unsigned long long d = in->deg[v + 1] - in->deg[v];
      dsum += d;
      dmax = d > dmax ? d : dmax;
    }
  }
  ck_assert_uint_eq(r->counters[GR_XK_NEXT], n_own);
  ck_assert_uint_eq(r->n_next, n_own);
  for (gr_eid i = 0; i < n_own; i++) {
    bool found = false;
    for (gr_eid k = 0; k < r->n_next && !found; k++) found = r->next[k] == own[i];
    XH_CHECK(found, "owned output %u is not in next", (unsigned)own[i]);
  }
  for (gr_eid k = 1; k < r->n_next; k++) XH_CHECK(r->next[k - 1] < r->next[k], "%u twice in next", (unsigned)r->next[k]);
  XH_CHECK(!memcmp(cull, r->cull, gr_bitmap_words(NL) * sizeof *cull), "cull bitmap differs");
  ck_assert_uint_eq(r->counters[GR_XK_NEXT_EDGES], dsum);
  ck_assert_uint_eq(r->counters[GR_XK_NEXT_MAXDEG], dmax);
  free(own);
  free(cull);
}

static void check_package_selective(gr_value_type t, int nv, int nx, bool with_convert, bool runs, uint64_t seed) {
  const int parts = 5, me = 1;
  xh_state s;
  ck_assert(xh_state_alloc(&s, NL, t, nv, nx));
  xh_state_random(&s, GR_COMBINE_MIN, seed);
  /* Runs: the layout of duplicate-1-hop proxies, whose owners the package
   * reads as runs (gr_xk_ranges). */
  int32_t *owner = runs ? xh_owner_runs(NL, parts, me, seed) : xh_owner_random(NL, parts, seed);
  gr_vid *out = xh_vertices_random(NL, 2000, seed + 1);
  gr_vid *convert = with_convert ? xh_vertices_random(4 * NL, NL, seed + 2) : NULL; /* distinct ids */
  gr_eid *deg = degree_offsets();
  xh_package_in in;
  xh_package_in_init(&in, &s, owner, parts, me, false, out, 2000, deg);
  in.convert = convert;
  in.ranges = runs;
  /* Owners as runs: this part's vertices first, so the table starts at
   * the first copy, as the exchange hands it over (1-hop). */
  while (runs && convert && owner[in.convert_first] == me) in.convert_first++;
  for (int j = 0; j < parts; j++)
    if (j != me) in.list_capacity[j] = 2000;
  xh_package_out r;
  ck_assert_int_eq(xh_run_package(&gr__xk_ops_cpu, dev, &in, &r), GR_SUCCESS);
  ck_assert(r.guard_intact);
  check_next(&in, &r);
  for (int j = 0; j < parts; j++) {
    xh_item *expect = calloc(2000, sizeof *expect);
    uint64_t n = 0;
    for (gr_eid i = 0; i < 2000; i++)
      if (owner[out[i]] == j && j != me) expect[n++] = item_of(&s, out[i], convert);
    ck_assert_uint_eq(r.counters[GR_XK_PEER + j], n);
    ck_assert_uint_eq(r.written[j], n);
    /* Each remote item lands in its owner's message once with its own
     * payloads: as sets of whole records the messages are the expected. */
    xh_sort_items(expect, n);
    xh_sort_items(r.items[j], n);
    for (uint64_t i = 0; i < n; i++)
      XH_CHECK(!memcmp(&expect[i], &r.items[j][i], sizeof(xh_item)), "part %d item %llu (id %llu) differs", j,
               (unsigned long long)i, (unsigned long long)expect[i].id);
    free(expect);
  }
  xh_package_free(&r);
  free(deg);
  free(convert);
  free(out);
  free(owner);
  xh_state_free(&s);
}

START_TEST(package_routes_owned_outputs_to_next_and_each_remote_one_to_its_owner) {
  check_package_selective(GR_VALUE_SVID, 1, 1, false, false, 11);
  check_package_selective(GR_VALUE_SVID, 1, 1, true, false, 12);
  check_package_selective(GR_VALUE_DOUBLE, 2, 2, true, false, 13);
  check_package_selective(GR_VALUE_FLOAT, 3, 0, false, false, 14);
  check_package_selective(GR_VALUE_FLOAT, 1, 4, true, false, 15);
  /* Owners as runs, read without the table. */
  check_package_selective(GR_VALUE_SVID, 1, 1, true, true, 16);
  check_package_selective(GR_VALUE_FLOAT, 1, 0, true, true, 17);
  check_package_selective(GR_VALUE_DOUBLE, 2, 1, false, true, 18);
}
END_TEST

/* An owner table as runs: its ends and parts, a table of a single run,
 * one of GR_XK_RANGES_MAX runs and one of more (no runs); the owner of
 * every id read back from them. */
START_TEST(owner_tables_of_few_runs_become_ranges) {
  enum { N = 1000 };
  uint8_t o[N];
  gr_xk_ranges r;
  memset(o, 3, sizeof o);
  gr_xk_owner_ranges(o, N, &r);
  ck_assert_int_eq(r.n, 1);
  ck_assert_uint_eq(r.end[0], N);
  ck_assert_int_eq(r.part[0], 3);
  for (int runs = GR_XK_RANGES_MAX; runs <= GR_XK_RANGES_MAX + 1; runs++) {
    /* Runs of 1000 / runs ids, parts alternating 0, 1, 2 (a part may
     * come back: runs, not parts). */
    for (int v = 0; v < N; v++) o[v] = (uint8_t)((v * runs / N) % 3);
    gr_xk_owner_ranges(o, N, &r);
    if (runs > GR_XK_RANGES_MAX) {
      ck_assert_int_eq(r.n, 0);
      continue;
    }
    ck_assert_int_eq(r.n, runs);
    for (int v = 0; v < N; v++) ck_assert_int_eq(gr_xk_range_owner(&r, (gr_vid)v), o[v]);
  }
  gr_xk_owner_ranges(o, 0, &r);
  ck_assert_int_eq(r.n, 0);
}
END_TEST

START_TEST(package_broadcast_puts_every_output_in_message_0) {
  const gr_value_type types[] = {GR_VALUE_SVID, GR_VALUE_DOUBLE, GR_VALUE_FLOAT};
  for (int c = 0; c < 3; c++) {
    xh_state s;
    ck_assert(xh_state_alloc(&s, NL, types[c], 1 + c, c));
    xh_state_random(&s, GR_COMBINE_MAX, 20 + c);
    int32_t *owner = xh_owner_random(NL, 4, 50 + c);
    gr_vid *out = xh_vertices_random(NL, 1234, 30 + c);
    gr_vid *convert = c == 1 ? xh_vertices_random(2 * NL, NL, 40 + c) : NULL;
    xh_package_in in;
    memset(&in, 0, sizeof in);
    in.state = &s;
    in.owner = owner;
    in.parts = 4;
    in.me = 2;
    in.broadcast = true;
    in.convert = convert;
    in.out = out;
    in.n_out = 1234;
    in.list_capacity[0] = 1234;
    in.claims = c != 1; /* the claims of a step told to all, set by the same pass */
    xh_package_out r;
    ck_assert_int_eq(xh_run_package(&gr__xk_ops_cpu, dev, &in, &r), GR_SUCCESS);
    ck_assert(r.guard_intact);
    ck_assert(r.claims_exact);
    check_next(&in, &r);
    ck_assert_uint_eq(r.written[0], 1234);
    xh_item *expect = calloc(1234, sizeof *expect);
    for (gr_eid i = 0; i < 1234; i++) expect[i] = item_of(&s, out[i], convert);
    xh_sort_items(expect, 1234);
    xh_sort_items(r.items[0], 1234);
    ck_assert_int_eq(memcmp(expect, r.items[0], 1234 * sizeof *expect), 0);
    free(expect);
    xh_package_free(&r);
    free(convert);
    free(out);
    free(owner);
    xh_state_free(&s);
  }
}
END_TEST

/* A uniform payload: every message's bitmap holds exactly its ids and the
 * value; the distinct count is right; the list beside it too. */
START_TEST(package_sets_each_id_of_a_bitmap_once_with_the_value) {
  xh_state s;
  ck_assert(xh_state_alloc(&s, NL, GR_VALUE_SVID, 1, 0));
  for (gr_vid v = 0; v < NL; v++) xh_state_set(&s, 0, v, xh_value_bits(GR_VALUE_SVID, 6));
  int32_t *owner = xh_owner_random(NL, 3, 61);
  gr_vid *out = xh_vertices_random(NL, 2500, 62);
  for (int bc = 0; bc < 2; bc++) {
    xh_package_in in;
    memset(&in, 0, sizeof in);
    in.state = &s;
    in.owner = owner;
    in.parts = 3;
    in.me = 0;
    in.broadcast = bc;
    in.out = out;
    in.n_out = 2500;
    for (int j = 0; j < 3; j++) {
      in.universe[j] = NL;
      in.list_capacity[j] = 2500;
    }
    xh_package_out r;
    ck_assert_int_eq(xh_run_package(&gr__xk_ops_cpu, dev, &in, &r), GR_SUCCESS);
    check_next(&in, &r);
    for (int j = bc ? 0 : 1; j < (bc ? 1 : 3); j++) {
      unsigned char *want = calloc(NL, 1);
      uint64_t n = 0;
      for (gr_eid i = 0; i < 2500; i++)
        if (bc || owner[out[i]] == j) {
          want[out[i]] = 1;
          n++;
        }
      ck_assert_uint_eq(r.n_bit_ids[j], n);
      ck_assert_uint_eq(r.counters[GR_XK_PEER + 3 + j], n);
      ck_assert_uint_eq(r.counters[GR_XK_PEER + j], n);
      ck_assert_int_eq((gr_svid)r.bit_value[j], 6);
      for (uint64_t k = 0; k < r.n_bit_ids[j]; k++) XH_CHECK(want[r.bit_ids[j][k]], "bit %u set", (unsigned)r.bit_ids[j][k]);
      free(want);
    }
    xh_package_free(&r);
  }
  free(out);
  free(owner);
  xh_state_free(&s);
}
END_TEST

/* Records past a list's capacity are counted, not written: the exchange
 * grows the list and packages again. */
START_TEST(package_counts_records_past_a_lists_capacity_without_writing_them) {
  xh_state s;
  ck_assert(xh_state_alloc(&s, NL, GR_VALUE_SVID, 1, 1));
  xh_state_random(&s, GR_COMBINE_MIN, 71);
  int32_t *owner = xh_owner_random(NL, 2, 72);
  gr_vid *out = xh_vertices_random(NL, NL, 73);
  xh_package_in in;
  memset(&in, 0, sizeof in);
  in.state = &s;
  in.owner = owner;
  in.parts = 2;
  in.me = 0;
  in.out = out;
  in.n_out = NL;
  in.list_capacity[1] = 100;
  xh_package_out r;
  ck_assert_int_eq(xh_run_package(&gr__xk_ops_cpu, dev, &in, &r), GR_SUCCESS);
  uint64_t remote = 0;
  for (gr_vid v = 0; v < NL; v++) remote += owner[v] == 1;
  ck_assert_uint_eq(r.counters[GR_XK_PEER + 1], remote);
  ck_assert_uint_eq(r.written[1], 100);
  ck_assert(r.guard_intact);
  for (int i = 0; i < 100; i++) XH_CHECK(owner[r.items[1][i].id] == 1, "record %d: %llu", i, (unsigned long long)r.items[1][i].id);
  xh_package_free(&r);
  free(out);
  free(owner);
  xh_state_free(&s);
}
END_TEST

START_TEST(seal_gives_each_routed_bitmap_its_value_and_counts_its_ids) { xh_check_seal(&gr__xk_ops_cpu, dev); }
END_TEST

START_TEST(compact_puts_each_id_of_a_routed_bitmap_in_next_once) { xh_check_compact(&gr__xk_ops_cpu, dev); }
END_TEST

START_TEST(bitmaps_combined_in_one_pass_equal_one_combine_each) { xh_check_combine_more(&gr__xk_ops_cpu, dev); }
END_TEST

START_TEST(lists_combined_in_one_launch_equal_one_combine_each) { xh_check_combine_lists_more(&gr__xk_ops_cpu, dev); }
END_TEST

/* A routed claim is its vertex's first: the CPU compact refuses one whose
 * vertex holds another value (the CUDA one stores without looking). */
START_TEST(compact_refuses_a_claim_whose_vertex_holds_a_value) {
  uint32_t words[2] = {0x5u, 0x1u}; /* ids 0, 2 and 32 */
  uint32_t vals[64];
  for (int v = 0; v < 64; v++) vals[v] = UINT32_MAX;
  vals[32] = 3u;
  gr_vid next[3];
  unsigned long long ctr[GR_XK_PEER] = {0};
  const gr_xk_compact_args ca = {words, 2, NULL, 0, next, 3, NULL, ctr, vals, 4, 7u, NULL, NULL, NULL, {NULL, NULL}};
  ck_assert_int_eq(gr__xk_ops_cpu.compact(dev, &ca), GR_ERR_INTERNAL);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "routed vertex 32 held a value already"));
  ck_assert_uint_eq(vals[0], 7u);
  ck_assert_uint_eq(vals[2], 7u);
  ck_assert_uint_eq(vals[32], 3u);
  /* The step's value already there (a push without visited bits stores
   * the depth itself) is no breach. */
  vals[32] = UINT32_MAX;
  memset(ctr, 0, sizeof ctr);
  ck_assert_int_eq(gr__xk_ops_cpu.compact(dev, &ca), GR_SUCCESS); /* 0 and 2 hold 7 now */
  ck_assert_uint_eq(vals[32], 7u);
  ck_assert_uint_eq(ctr[GR_XK_NEXT], 3u);
}
END_TEST

START_TEST(mark_and_select_take_exactly_the_marked_entries_of_a_list) { xh_check_mark_select(&gr__xk_ops_cpu, dev); }
END_TEST

START_TEST(or_union_ors_every_source_into_the_union_and_also) { xh_check_or_union(&gr__xk_ops_cpu, dev); }
START_TEST(or_owned_reads_each_word_from_its_owner) { xh_check_or_owned(&gr__xk_ops_cpu, dev); }
END_TEST

START_TEST(package_reads_the_output_size_an_advance_left_on_the_device) {
  xh_check_package_size_on_device(&gr__xk_ops_cpu, dev);
}
END_TEST

START_TEST(package_with_settled_bits_keeps_no_culling_bitmap) { xh_check_package_settled(&gr__xk_ops_cpu, dev, true); }
END_TEST

START_TEST(combine_of_bare_ids_takes_the_named_value) { xh_check_combine_ids(&gr__xk_ops_cpu, dev); }
END_TEST

START_TEST(package_refuses_to_overflow_next) {
  int32_t owner[8] = {0, 0, 0, 0, 0, 1, 1, 1};
  gr_vid out[6] = {0, 1, 2, 3, 5, 6};
  xh_state s;
  ck_assert(xh_state_alloc(&s, 8, GR_VALUE_SVID, 1, 0));
  xh_package_in in;
  memset(&in, 0, sizeof in);
  in.state = &s;
  in.owner = owner;
  in.parts = 2;
  in.me = 0;
  in.out = out;
  in.n_out = 6;
  in.next_capacity = 3;
  in.list_capacity[1] = 6;
  xh_package_out r;
  ck_assert_int_eq(xh_run_package(&gr__xk_ops_cpu, dev, &in, &r), GR_ERR_INTERNAL);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "overflow"));
  xh_package_free(&r);
  xh_state_free(&s);
}
END_TEST

/* ---- combine: the definition, serially ----------------------------------- */

static bool model_apply(gr_value_type t, gr_combine_op op, uint64_t *cur, uint64_t in) {
  const uint64_t old = *cur;
  if (t == GR_VALUE_SVID) {
    gr_svid c, x;
    memcpy(&c, cur, sizeof c);
    memcpy(&x, &in, sizeof x);
    switch (op) {
      case GR_COMBINE_MIN: /* as unsigned, -1 is the largest */
        if ((gr_vid)x < (gr_vid)c) c = x;
        break;
      case GR_COMBINE_MAX:
        if (x > c) c = x;
        break;
      case GR_COMBINE_SUM: c = (gr_svid)((gr_vid)c + (gr_vid)x); break;
      case GR_COMBINE_OR: c |= x; break;
      case GR_COMBINE_REPLACE: c = x; break;
      case GR_COMBINE_LOGADD: return false; /* floating point only */
    }
    memcpy(cur, &c, sizeof c);
    return op == GR_COMBINE_REPLACE || (op == GR_COMBINE_SUM ? x != 0 : *cur != old);
  }
  double c = xh_value_of(t, *cur), x = xh_value_of(t, in);
  switch (op) {
    case GR_COMBINE_MIN:
      if (x < c) c = x;
      break;
    case GR_COMBINE_MAX:
      if (x > c) c = x;
      break;
    case GR_COMBINE_SUM: c = c + x; break;
    case GR_COMBINE_OR: return false;
    case GR_COMBINE_REPLACE: c = x; break;
    case GR_COMBINE_LOGADD:
      c = t == GR_VALUE_FLOAT ? (double)gr_log_add_f32((float)c, (float)x) : gr_log_add(c, x);
      break;
  }
  *cur = xh_value_bits(t, c);
  if (op == GR_COMBINE_LOGADD) return x != -INFINITY;
  return op == GR_COMBINE_REPLACE || (op == GR_COMBINE_SUM ? x != 0 : *cur != old);
}

/* The result of combining in->msg one after another (pass 1, then pass 2
 * for followers), with the vertices that join next. */
static void model_combine(const xh_combine_in *in, xh_state *s, uint32_t *cull, unsigned char *joins) {
  ck_assert(xh_state_copy(s, in->state));
  const gr_xk_layout *l = &s->layout;
  const bool all = in->op == GR_COMBINE_SUM || in->op == GR_COMBINE_OR || in->op == GR_COMBINE_LOGADD;
  const bool followers =
      (in->op == GR_COMBINE_MIN || in->op == GR_COMBINE_MAX) && (l->n_values > 1 || l->n_vertices > 0);
  for (int pass = 1; pass <= (followers ? 2 : 1); pass++)
    for (int j = 0; j < in->n_msgs; j++) {
      uint64_t count = in->count[j];
      xh_item *it = NULL;
      if (in->universe[j]) {
        /* A bitmap is the list of its ids with the one value. */
        uint64_t value = 0;
        gr_vid *ids = xh_bitmap_ids(in->msg[j], in->universe[j], l->value_bytes, &count, &value);
        it = calloc(count + 1, sizeof *it);
        for (uint64_t i = 0; i < count; i++) {
          it[i].id = ids[i];
          it[i].val[0] = value;
        }
        free(ids);
      } else {
        it = xh_message_items(l, in->msg[j], count);
      }
      for (uint64_t i = 0; i < count; i++) {
        gr_vid v = (gr_vid)it[i].id;
        if (in->g2l && (v = in->g2l[v]) == GR_NO_VERTEX) continue;
        if (pass == 2) {
          if (xh_state_get(s, 0, v) != it[i].val[0]) continue;
          for (int k = 1; k < l->n_values; k++) xh_state_set(s, k, v, it[i].val[k]);
          for (int k = 0; k < l->n_vertices; k++) s->vertices[k][v] = (gr_svid)it[i].vtx[k];
          continue;
        }
        uint64_t cur = xh_state_get(s, 0, v);
        bool changed = model_apply(s->type, in->op, &cur, it[i].val[0]);
        xh_state_set(s, 0, v, cur);
        for (int k = 1; k < l->n_values && (all || in->op == GR_COMBINE_REPLACE); k++) {
          cur = xh_state_get(s, k, v);
          changed |= model_apply(s->type, in->op, &cur, it[i].val[k]);
          xh_state_set(s, k, v, cur);
        }
        if (in->op == GR_COMBINE_REPLACE)
          for (int k = 0; k < l->n_vertices; k++) s->vertices[k][v] = (gr_svid)it[i].vtx[k];
        if (!changed || (in->owner && in->owner[v] != in->me) || bit(cull, v)) continue;
        cull[v >> 5] |= 1u << (v & 31u);
        joins[v] = 1;
      }
      free(it);
    }
}

static void check_combine_against_model(const xh_combine_in *in, const char *what) {
  const gr_vid n = in->state->n;
  const size_t words = gr_bitmap_words(n);
  xh_state s;
  uint32_t *cull = calloc(words, sizeof *cull);
  unsigned char *joins = calloc(n, 1);
  if (in->cull) memcpy(cull, in->cull, words * sizeof *cull);
  model_combine(in, &s, cull, joins);
  xh_combine_out r;
  ck_assert_msg(xh_run_combine(&gr__xk_ops_cpu, dev, in, &r) == GR_SUCCESS, "%s: %s", what, gr_error_message());
  gr_eid n_join = 0;
  for (gr_vid v = 0; v < n; v++) n_join += joins[v];
  ck_assert_msg(r.n_next == n_join, "%s: %llu vertices joined next, expected %llu", what,
                (unsigned long long)r.n_next, (unsigned long long)n_join);
  for (gr_eid i = 0; i < r.n_next; i++) {
    XH_CHECK(joins[r.next[i]], "%s: %u joined next", what, (unsigned)r.next[i]);
    XH_CHECK(i == 0 || r.next[i - 1] < r.next[i], "%s: %u twice in next", what, (unsigned)r.next[i]);
  }
  XH_CHECK(!memcmp(cull, r.cull, words * sizeof *cull), "%s: cull bitmaps differ", what);
  if (in->deg) {
    unsigned long long dsum = 0, dmax = 0;
    for (gr_eid i = 0; i < r.n_next; i++) {
      const unsigned long long d = in->deg[r.next[i] + 1] - in->deg[r.next[i]];
      dsum += d;
      dmax = d > dmax ? d : dmax;
    }
    XH_CHECK(r.next_edges == dsum && r.next_max_degree == dmax, "%s: next degrees %llu/%llu, expected %llu/%llu",
             what, r.next_edges, r.next_max_degree, dsum, dmax);
  }
  for (int j = 0; j < in->n_msgs; j++)
    if (in->universe[j]) {
      uint64_t count = 0, value = 0;
      gr_vid *ids = xh_bitmap_ids(in->msg[j], in->universe[j], s.layout.value_bytes, &count, &value);
      free(ids);
      XH_CHECK(r.found[j] == count, "%s: bitmap %d: %llu ids found, %llu set", what, j, r.found[j],
               (unsigned long long)count);
    }
  for (gr_vid v = 0; v < n; v++) {
    for (int k = 0; k < s.layout.n_values; k++)
      XH_CHECK(xh_state_get(&s, k, v) == xh_state_get(&r.state, k, v), "%s: value %d of %u is %g, expected %g",
               what, k, (unsigned)v, xh_value_of(s.type, xh_state_get(&r.state, k, v)),
               xh_value_of(s.type, xh_state_get(&s, k, v)));
    for (int k = 0; k < s.layout.n_vertices; k++)
      XH_CHECK(s.vertices[k][v] == r.state.vertices[k][v], "%s: vertex payload %d of %u is %lld, expected %lld",
               what, k, (unsigned)v, (long long)r.state.vertices[k][v], (long long)s.vertices[k][v]);
  }
  xh_combine_free(&r);
  xh_state_free(&s);
  free(cull);
  free(joins);
}

/* ---- combine: hand-made cases -------------------------------------------- */

/* A one-value SVID state of n vertices with `vals`, and optionally one
 * vertex payload (all 0). */
static void svid_state(xh_state *s, gr_vid n, const gr_svid *vals, int n_vertices) {
  ck_assert(xh_state_alloc(s, n, GR_VALUE_SVID, 1, n_vertices));
  for (gr_vid v = 0; v < n; v++) xh_state_set(s, 0, v, xh_value_bits(GR_VALUE_SVID, vals[v]));
}

static xh_item svid_item(gr_vid id, gr_svid val, gr_svid vtx) {
  xh_item it;
  memset(&it, 0, sizeof it);
  it.id = id;
  it.val[0] = xh_value_bits(GR_VALUE_SVID, val);
  it.vtx[0] = vtx;
  return it;
}

static gr_svid svid_at(const xh_state *s, gr_vid v) {
  return (gr_svid)xh_value_of(GR_VALUE_SVID, xh_state_get(s, 0, v));
}

START_TEST(combine_min_and_max_treat_minus_one_as_no_value) {
  const gr_svid init[5] = {-1, 5, 3, -1, 4};
  xh_item msg[5] = {svid_item(0, 4, 0), svid_item(1, -1, 0), svid_item(2, 7, 0), svid_item(3, -1, 0),
                    svid_item(4, 2, 0)};
  gr_xk_layout l = gr_xk_layout_make(1, (int)sizeof(gr_svid), 0);
  unsigned char *m = xh_message_build(&l, msg, 5);
  xh_state s;
  svid_state(&s, 5, init, 0);
  xh_combine_in in = {&s, GR_COMBINE_MIN, NULL, 0, NULL, 0, NULL, 1, {m}, {5}, {0}, NULL, NULL, 0, NULL, false};
  xh_combine_out r;
  ck_assert_int_eq(xh_run_combine(&gr__xk_ops_cpu, dev, &in, &r), GR_SUCCESS);
  const gr_svid min_expect[5] = {4, 5, 3, -1, 2};
  for (gr_vid v = 0; v < 5; v++) ck_assert_int_eq(svid_at(&r.state, v), min_expect[v]);
  ck_assert_uint_eq(r.n_next, 2);
  ck_assert_uint_eq(r.next[0], 0);
  ck_assert_uint_eq(r.next[1], 4);
  xh_combine_free(&r);
  in.op = GR_COMBINE_MAX;
  ck_assert_int_eq(xh_run_combine(&gr__xk_ops_cpu, dev, &in, &r), GR_SUCCESS);
  const gr_svid max_expect[5] = {4, 5, 7, -1, 4};
  for (gr_vid v = 0; v < 5; v++) ck_assert_int_eq(svid_at(&r.state, v), max_expect[v]);
  ck_assert_uint_eq(r.n_next, 2);
  ck_assert_uint_eq(r.next[0], 0);
  ck_assert_uint_eq(r.next[1], 2);
  xh_combine_free(&r);
  check_combine_against_model(&in, "max svid");
  in.op = GR_COMBINE_MIN;
  check_combine_against_model(&in, "min svid");
  xh_state_free(&s);
  free(m);
}
END_TEST

START_TEST(combine_min_and_max_on_floating_values) {
  const gr_value_type types[] = {GR_VALUE_FLOAT, GR_VALUE_DOUBLE};
  for (int t = 0; t < 2; t++) {
    xh_state s;
    ck_assert(xh_state_alloc(&s, 4, types[t], 1, 0));
    const double init[4] = {1.5, -2.25, 0.5, 8.0}, in_v[4] = {-3.0, -2.25, 0.75, 7.5};
    xh_item it[4];
    memset(it, 0, sizeof it);
    for (int v = 0; v < 4; v++) {
      xh_state_set(&s, 0, (gr_vid)v, xh_value_bits(types[t], init[v]));
      it[v].id = (uint64_t)v;
      it[v].val[0] = xh_value_bits(types[t], in_v[v]);
    }
    unsigned char *m = xh_message_build(&s.layout, it, 4);
    xh_combine_in in = {&s, GR_COMBINE_MIN, NULL, 0, NULL, 0, NULL, 1, {m}, {4}, {0}, NULL, NULL, 0, NULL, false};
    xh_combine_out r;
    ck_assert_int_eq(xh_run_combine(&gr__xk_ops_cpu, dev, &in, &r), GR_SUCCESS);
    const double min_e[4] = {-3.0, -2.25, 0.5, 7.5};
    for (gr_vid v = 0; v < 4; v++) ck_assert(xh_value_of(types[t], xh_state_get(&r.state, 0, v)) == min_e[v]);
    ck_assert_uint_eq(r.n_next, 2); /* 0 and 3; a tie is no change */
    ck_assert_uint_eq(r.next[0], 0);
    ck_assert_uint_eq(r.next[1], 3);
    xh_combine_free(&r);
    in.op = GR_COMBINE_MAX;
    ck_assert_int_eq(xh_run_combine(&gr__xk_ops_cpu, dev, &in, &r), GR_SUCCESS);
    const double max_e[4] = {1.5, -2.25, 0.75, 8.0};
    for (gr_vid v = 0; v < 4; v++) ck_assert(xh_value_of(types[t], xh_state_get(&r.state, 0, v)) == max_e[v]);
    ck_assert_uint_eq(r.n_next, 1);
    ck_assert_uint_eq(r.next[0], 2);
    xh_combine_free(&r);
    free(m);
    xh_state_free(&s);
  }
}
END_TEST

START_TEST(combine_sum_adds_every_value_payload) {
  const gr_value_type types[] = {GR_VALUE_SVID, GR_VALUE_FLOAT, GR_VALUE_DOUBLE};
  for (int t = 0; t < 3; t++) {
    xh_state s;
    ck_assert(xh_state_alloc(&s, 3, types[t], 2, 0));
    /* v0: (1, 2) + (0, 3) + (2, 0) = (3, 5); v1: (1, 1) + (0, 0) = unchanged;
     * v2: (4, 4) + (-4, 0): changed (a non-zero addend), back to (0, 4). */
    const double init[3][2] = {{1, 2}, {1, 1}, {4, 4}};
    for (gr_vid v = 0; v < 3; v++)
      for (int k = 0; k < 2; k++) xh_state_set(&s, k, v, xh_value_bits(types[t], init[v][k]));
    xh_item a[3], b[1];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    const double av[3][2] = {{0, 3}, {0, 0}, {-4, 0}};
    for (int i = 0; i < 3; i++) {
      a[i].id = (uint64_t)i;
      for (int k = 0; k < 2; k++) a[i].val[k] = xh_value_bits(types[t], av[i][k]);
    }
    b[0].val[0] = xh_value_bits(types[t], 2);
    b[0].val[1] = xh_value_bits(types[t], 0);
    unsigned char *ma = xh_message_build(&s.layout, a, 3), *mb = xh_message_build(&s.layout, b, 1);
    xh_combine_in in = {&s, GR_COMBINE_SUM, NULL, 0, NULL, 0, NULL, 2, {ma, mb}, {3, 1}, {0}, NULL, NULL, 0, NULL, false};
    xh_combine_out r;
    ck_assert_int_eq(xh_run_combine(&gr__xk_ops_cpu, dev, &in, &r), GR_SUCCESS);
    const double e[3][2] = {{3, 5}, {1, 1}, {0, 4}};
    for (gr_vid v = 0; v < 3; v++)
      for (int k = 0; k < 2; k++) ck_assert(xh_value_of(types[t], xh_state_get(&r.state, k, v)) == e[v][k]);
    ck_assert_uint_eq(r.n_next, 2);
    ck_assert_uint_eq(r.next[0], 0);
    ck_assert_uint_eq(r.next[1], 2);
    xh_combine_free(&r);
    check_combine_against_model(&in, "sum");
    free(ma);
    free(mb);
    xh_state_free(&s);
  }
}
END_TEST

/* LOGADD adds logarithms as numbers, also where no double holds the
 * numbers, and under contention for one vertex. */
START_TEST(combine_logadd_adds_logarithms_as_numbers) { xh_check_logadd(&gr__xk_ops_cpu, dev, 1e-11); }
END_TEST

START_TEST(guarded_combine_drops_other_stamps_and_takes_unset_ones) { xh_check_guard(&gr__xk_ops_cpu, dev); }
END_TEST

START_TEST(combine_skips_settled_vertices_and_settles_what_it_combines) { xh_check_settled(&gr__xk_ops_cpu, dev); }
END_TEST

START_TEST(combine_or_sets_bits_and_reports_only_new_ones) {
  const gr_svid init[3] = {0x5, 0x5, 0};
  xh_state s;
  svid_state(&s, 3, init, 0);
  xh_item it[3] = {svid_item(0, 0x4, 0), svid_item(1, 0x8, 0), svid_item(2, 0, 0)};
  unsigned char *m = xh_message_build(&s.layout, it, 3);
  xh_combine_in in = {&s, GR_COMBINE_OR, NULL, 0, NULL, 0, NULL, 1, {m}, {3}, {0}, NULL, NULL, 0, NULL, false};
  xh_combine_out r;
  ck_assert_int_eq(xh_run_combine(&gr__xk_ops_cpu, dev, &in, &r), GR_SUCCESS);
  ck_assert_int_eq(svid_at(&r.state, 0), 0x5);
  ck_assert_int_eq(svid_at(&r.state, 1), 0xd);
  ck_assert_int_eq(svid_at(&r.state, 2), 0);
  ck_assert_uint_eq(r.n_next, 1);
  ck_assert_uint_eq(r.next[0], 1);
  xh_combine_free(&r);
  free(m);
  xh_state_free(&s);
}
END_TEST

START_TEST(combine_replace_overwrites_every_payload_and_always_changes) {
  const gr_value_type types[] = {GR_VALUE_SVID, GR_VALUE_FLOAT, GR_VALUE_DOUBLE};
  for (int t = 0; t < 3; t++) {
    xh_state s;
    ck_assert(xh_state_alloc(&s, 3, types[t], 2, 1));
    for (gr_vid v = 0; v < 3; v++) {
      xh_state_set(&s, 0, v, xh_value_bits(types[t], 9));
      xh_state_set(&s, 1, v, xh_value_bits(types[t], 8));
      s.vertices[0][v] = 7;
    }
    xh_item it[2];
    memset(it, 0, sizeof it);
    it[0].id = 0; /* new values */
    it[0].val[0] = xh_value_bits(types[t], -1);
    it[0].val[1] = xh_value_bits(types[t], 2);
    it[0].vtx[0] = 42;
    it[1].id = 2; /* the same values: still a change */
    it[1].val[0] = xh_value_bits(types[t], 9);
    it[1].val[1] = xh_value_bits(types[t], 8);
    it[1].vtx[0] = 7;
    unsigned char *m = xh_message_build(&s.layout, it, 2);
    xh_combine_in in = {&s, GR_COMBINE_REPLACE, NULL, 0, NULL, 0, NULL, 1, {m}, {2}, {0}, NULL, NULL, 0, NULL, false};
    xh_combine_out r;
    ck_assert_int_eq(xh_run_combine(&gr__xk_ops_cpu, dev, &in, &r), GR_SUCCESS);
    ck_assert(xh_value_of(types[t], xh_state_get(&r.state, 0, 0)) == -1);
    ck_assert(xh_value_of(types[t], xh_state_get(&r.state, 1, 0)) == 2);
    ck_assert_int_eq(r.state.vertices[0][0], 42);
    ck_assert(xh_value_of(types[t], xh_state_get(&r.state, 0, 1)) == 9);
    ck_assert_int_eq(r.state.vertices[0][1], 7);
    ck_assert_uint_eq(r.n_next, 2);
    ck_assert_uint_eq(r.next[0], 0);
    ck_assert_uint_eq(r.next[1], 2);
    xh_combine_free(&r);
    free(m);
    xh_state_free(&s);
  }
}
END_TEST

START_TEST(combine_adds_an_owned_changed_vertex_to_next_once) {
  /* Vertices 0..5 of part 1 (me) except 2 and 3 (part 0). Two messages both
   * improve 0 (once in next), 4 already has its cull bit (not again), 2
   * improves but is not owned (updated, not in next). */
  const gr_svid init[6] = {-1, -1, -1, 9, -1, -1};
  const int32_t owner[6] = {1, 1, 0, 0, 1, 1};
  xh_state s;
  svid_state(&s, 6, init, 0);
  xh_item a[3] = {svid_item(0, 5, 0), svid_item(2, 1, 0), svid_item(4, 1, 0)};
  xh_item b[3] = {svid_item(3, 2, 0), svid_item(0, 3, 0), svid_item(5, -1, 0)};
  unsigned char *ma = xh_message_build(&s.layout, a, 3), *mb = xh_message_build(&s.layout, b, 3);
  uint32_t cull[1] = {1u << 4};
  xh_combine_in in = {&s, GR_COMBINE_MIN, owner, 1, NULL, 0, cull, 2, {ma, mb}, {3, 3}, {0}, NULL, NULL, 0, NULL, false};
  xh_combine_out r;
  ck_assert_int_eq(xh_run_combine(&gr__xk_ops_cpu, dev, &in, &r), GR_SUCCESS);
  const gr_svid e[6] = {3, -1, 1, 2, 1, -1};
  for (gr_vid v = 0; v < 6; v++) ck_assert_int_eq(svid_at(&r.state, v), e[v]);
  ck_assert_uint_eq(r.n_next, 1);
  ck_assert_uint_eq(r.next[0], 0);
  ck_assert_uint_eq(r.cull[0], (1u << 0) | (1u << 4));
  xh_combine_free(&r);
  /* Without an owner table every vertex is owned. */
  in.owner = NULL;
  ck_assert_int_eq(xh_run_combine(&gr__xk_ops_cpu, dev, &in, &r), GR_SUCCESS);
  ck_assert_uint_eq(r.n_next, 3);
  ck_assert_uint_eq(r.next[0], 0);
  ck_assert_uint_eq(r.next[1], 2);
  ck_assert_uint_eq(r.next[2], 3);
  xh_combine_free(&r);
  free(ma);
  free(mb);
  xh_state_free(&s);
}
END_TEST

START_TEST(combine_converts_global_ids_and_skips_vertices_not_held) {
  /* 8 global vertices, 4 held here: global 6 -> 0, 1 -> 1, 3 -> 2, 7 -> 3. */
  const gr_vid g2l[8] = {GR_NO_VERTEX, 1, GR_NO_VERTEX, 2, GR_NO_VERTEX, GR_NO_VERTEX, 0, 3};
  const gr_svid init[4] = {-1, -1, -1, -1};
  xh_state s;
  svid_state(&s, 4, init, 1);
  xh_item it[5] = {svid_item(6, 2, 60), svid_item(0, 1, 1), svid_item(3, 4, 30), svid_item(5, 1, 1),
                   svid_item(2, 1, 1)};
  unsigned char *m = xh_message_build(&s.layout, it, 5);
  xh_combine_in in = {&s, GR_COMBINE_MIN, NULL, 0, g2l, 8, NULL, 1, {m}, {5}, {0}, NULL, NULL, 0, NULL, false};
  xh_combine_out r;
  ck_assert_int_eq(xh_run_combine(&gr__xk_ops_cpu, dev, &in, &r), GR_SUCCESS);
  const gr_svid e[4] = {2, -1, 4, -1}, ep[4] = {60, 0, 30, 0};
  for (gr_vid v = 0; v < 4; v++) {
    ck_assert_int_eq(svid_at(&r.state, v), e[v]);
    ck_assert_int_eq(r.state.vertices[0][v], ep[v]);
  }
  ck_assert_uint_eq(r.n_next, 2);
  ck_assert_uint_eq(r.next[0], 0);
  ck_assert_uint_eq(r.next[1], 2);
  xh_combine_free(&r);
  check_combine_against_model(&in, "g2l");
  free(m);
  xh_state_free(&s);
}
END_TEST

START_TEST(combine_pass_2_gives_the_winner_its_followers) {
  /* Vertex 0 gets 5 (pred 100) from one peer and 3 (pred 200) from another:
   * under MIN it ends at 3 with pred 200, whichever message comes first.
   * Vertex 1 keeps its own 2 (pred 7) against 5 and 3. Vertex 2 ties its
   * own 4 with an arriving 4: any sender of the final value is a valid
   * winner, so the arriving payload is taken. */
  const gr_svid init[3] = {-1, 2, 4};
  xh_state s;
  svid_state(&s, 3, init, 1);
  s.vertices[0][1] = 7;
  s.vertices[0][2] = 8;
  xh_item a[3] = {svid_item(0, 5, 100), svid_item(1, 5, 101), svid_item(2, 4, 102)};
  xh_item b[2] = {svid_item(0, 3, 200), svid_item(1, 3, 201)};
  unsigned char *ma = xh_message_build(&s.layout, a, 3), *mb = xh_message_build(&s.layout, b, 2);
  for (int order = 0; order < 2; order++) {
    const unsigned char *first = order ? mb : ma, *second = order ? ma : mb;
    const uint64_t n_first = order ? 2 : 3, n_second = order ? 3 : 2;
    xh_combine_in in = {&s, GR_COMBINE_MIN, NULL, 0, NULL, 0, NULL, 2, {first, second}, {n_first, n_second},
                        {0}, NULL, NULL, 0, NULL, false};
    xh_combine_out r;
    ck_assert_int_eq(xh_run_combine(&gr__xk_ops_cpu, dev, &in, &r), GR_SUCCESS);
    ck_assert_int_eq(svid_at(&r.state, 0), 3);
    ck_assert_int_eq(r.state.vertices[0][0], 200);
    ck_assert_int_eq(svid_at(&r.state, 1), 2);
    ck_assert_int_eq(r.state.vertices[0][1], 7);
    ck_assert_int_eq(svid_at(&r.state, 2), 4);
    ck_assert_int_eq(r.state.vertices[0][2], 102);
    ck_assert_uint_eq(r.n_next, 1);
    ck_assert_uint_eq(r.next[0], 0);
    xh_combine_free(&r);
    check_combine_against_model(&in, "pass 2 min");
    /* Under MAX 5 wins at vertex 0 and 1, with its sender's payload. */
    in.op = GR_COMBINE_MAX;
    ck_assert_int_eq(xh_run_combine(&gr__xk_ops_cpu, dev, &in, &r), GR_SUCCESS);
    ck_assert_int_eq(svid_at(&r.state, 0), 5);
    ck_assert_int_eq(r.state.vertices[0][0], 100);
    ck_assert_int_eq(svid_at(&r.state, 1), 5);
    ck_assert_int_eq(r.state.vertices[0][1], 101);
    xh_combine_free(&r);
    check_combine_against_model(&in, "pass 2 max");
  }
  free(ma);
  free(mb);
  xh_state_free(&s);
}
END_TEST

START_TEST(combine_pass_2_carries_value_followers_too) {
  /* Two value payloads under MIN on doubles: the second travels with the
   * first. */
  xh_state s;
  ck_assert(xh_state_alloc(&s, 2, GR_VALUE_DOUBLE, 2, 1));
  xh_state_set(&s, 0, 0, xh_value_bits(GR_VALUE_DOUBLE, 10));
  xh_state_set(&s, 1, 0, xh_value_bits(GR_VALUE_DOUBLE, -1));
  xh_item a[1], b[1];
  memset(a, 0, sizeof a);
  memset(b, 0, sizeof b);
  a[0].val[0] = xh_value_bits(GR_VALUE_DOUBLE, 5);
  a[0].val[1] = xh_value_bits(GR_VALUE_DOUBLE, 55);
  a[0].vtx[0] = 5;
  b[0].val[0] = xh_value_bits(GR_VALUE_DOUBLE, 3);
  b[0].val[1] = xh_value_bits(GR_VALUE_DOUBLE, 33);
  b[0].vtx[0] = 3;
  unsigned char *ma = xh_message_build(&s.layout, a, 1), *mb = xh_message_build(&s.layout, b, 1);
  xh_combine_in in = {&s, GR_COMBINE_MIN, NULL, 0, NULL, 0, NULL, 2, {ma, mb}, {1, 1}, {0}, NULL, NULL, 0, NULL, false};
  xh_combine_out r;
  ck_assert_int_eq(xh_run_combine(&gr__xk_ops_cpu, dev, &in, &r), GR_SUCCESS);
  ck_assert(xh_value_of(GR_VALUE_DOUBLE, xh_state_get(&r.state, 0, 0)) == 3);
  ck_assert(xh_value_of(GR_VALUE_DOUBLE, xh_state_get(&r.state, 1, 0)) == 33);
  ck_assert_int_eq(r.state.vertices[0][0], 3);
  xh_combine_free(&r);
  free(ma);
  free(mb);
  xh_state_free(&s);
}
END_TEST

/* Random cases of every operator and type, against the serial model. */
START_TEST(combine_every_operator_and_type_matches_its_definition) {
  const gr_vid n = 2000, n_global = 3000;
  gr_vid *g2l = xh_g2l_table(n, n_global);
  int32_t *owner = xh_owner_random(n, 3, 99);
  xh_combine_kind kinds[XH_MAX_KINDS];
  const int n_kinds = xh_combine_kinds(kinds);
  ck_assert_int_eq(n_kinds, 62);
  const uint64_t counts[3] = {700, 1, 1500};
  for (int i = 0; i < n_kinds; i++)
    for (int variant = XH_CASE_LOCAL; variant <= XH_CASE_GLOBAL; variant++) {
      xh_combine_case c;
      ck_assert(xh_combine_case_random(&c, &kinds[i], variant, n, owner, g2l, n_global, counts,
                                       1000 + 10 * (uint64_t)i));
      char what[96];
      snprintf(what, sizeof what, "type %d op %d values %d vertices %d variant %d", kinds[i].type, kinds[i].op,
               kinds[i].n_values, kinds[i].n_vertices, variant);
      check_combine_against_model(&c.in, what);
      xh_combine_case_free(&c);
    }
  free(owner);
  free(g2l);
}
END_TEST

/* A bitmap message combines as the list of its ids with its one value:
 * every operator and value type, local, owned and global ids, degrees of
 * what joins next, and the ids found counted. */
START_TEST(combine_of_a_bitmap_is_combine_of_the_list_of_its_ids) {
  const gr_vid n = 2000, n_global = 3000;
  gr_vid *g2l = xh_g2l_table(n, n_global);
  int32_t *owner = xh_owner_random(n, 3, 98);
  gr_eid *deg = malloc(((size_t)n + 1) * sizeof *deg);
  deg[0] = 0;
  for (gr_vid v = 0; v < n; v++) deg[v + 1] = deg[v] + (v * 5u) % 11u;
  xh_combine_kind kinds[XH_MAX_KINDS];
  const int n_kinds = xh_combine_kinds(kinds);
  int tried = 0;
  for (int i = 0; i < n_kinds; i++) {
    if (kinds[i].n_values != 1 || kinds[i].n_vertices != 0) continue;
    for (int variant = XH_CASE_LOCAL; variant <= XH_CASE_GLOBAL; variant++) {
      xh_state s;
      ck_assert(xh_state_alloc(&s, n, kinds[i].type, 1, 0));
      xh_state_random(&s, kinds[i].op, 500 + (uint64_t)i);
      const gr_vid range = variant == XH_CASE_GLOBAL ? n_global : n;
      unsigned char *msg[2];
      for (int j = 0; j < 2; j++) {
        xh_item *it = xh_items_random(&s, kinds[i].op, range, j ? 1700 : 300, 600 + 7 * (uint64_t)i + (uint64_t)j);
        gr_vid *ids = malloc(1700 * sizeof *ids);
        for (int k = 0; k < (j ? 1700 : 300); k++) ids[k] = (gr_vid)it[k].id;
        msg[j] = xh_bitmap_build(range, it[0].val[0], s.layout.value_bytes, ids, j ? 1700 : 300);
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
      in.n_global = n_global;
      in.n_msgs = 2;
      in.deg = deg;
      for (int j = 0; j < 2; j++) {
        in.msg[j] = msg[j];
        in.universe[j] = range;
      }
      char what[96];
      snprintf(what, sizeof what, "bitmap: type %d op %d variant %d", kinds[i].type, kinds[i].op, variant);
      check_combine_against_model(&in, what);
      free(msg[0]);
      free(msg[1]);
      xh_state_free(&s);
      tried++;
    }
  }
  ck_assert_int_eq(tried, 3 * 13); /* 5 operators on SVID, 4 on each floating type */
  free(deg);
  free(owner);
  free(g2l);
}
END_TEST

/* ---- gr_comm_create and the names ----------------------------------------- */

START_TEST(comm_create_rejects_device_counts_outside_1_to_32) {
  gr_comm_options o = {GR_COMM_SELECTIVE, GR_TRANSPORT_AUTO, GR_COMM_FORMAT_AUTO, NULL};
  gr_comm *c = (gr_comm *)&o;
  ck_assert_int_eq(gr_comm_create(&c, GR_BACKEND_CPU, 0, &o), GR_ERR_INVALID_ARG);
  ck_assert_ptr_null(c);
  ck_assert_int_eq(gr_comm_create(&c, GR_BACKEND_CPU, 33, &o), GR_ERR_INVALID_ARG);
  ck_assert_ptr_null(c);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "33"));
  ck_assert_int_eq(gr_comm_create(&c, GR_BACKEND_CPU, -1, &o), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_comm_create(&c, GR_BACKEND_CPU, 32, &o), GR_SUCCESS);
  gr_comm_destroy(&c);
  ck_assert_ptr_null(c);
  ck_assert_int_eq(gr_comm_create(&c, GR_BACKEND_CPU, 1, &o), GR_SUCCESS);
  gr_comm_destroy(&c);
  gr_comm_destroy(&c); /* accepts NULL */
  gr_comm_destroy(NULL);
}
END_TEST

START_TEST(comm_create_rejects_gpu_transports_on_cpu_devices) {
  const gr_transport_kind bad[] = {GR_TRANSPORT_P2P, GR_TRANSPORT_NCCL};
  for (int i = 0; i < 2; i++) {
    gr_comm_options o = {GR_COMM_SELECTIVE, bad[i], GR_COMM_FORMAT_AUTO, NULL};
    gr_comm *c = NULL;
    ck_assert_int_eq(gr_comm_create(&c, GR_BACKEND_CPU, 2, &o), GR_ERR_INVALID_ARG);
    ck_assert_ptr_null(c);
    ck_assert_ptr_nonnull(strstr(gr_error_message(), gr_transport_name(bad[i])));
    ck_assert_ptr_nonnull(strstr(gr_error_message(), "host"));
  }
  /* And the host transport on GPUs. */
  gr_comm_options o = {GR_COMM_SELECTIVE, GR_TRANSPORT_HOST, GR_COMM_FORMAT_AUTO, NULL};
  gr_comm *c = NULL;
  ck_assert_int_eq(gr_comm_create(&c, GR_BACKEND_CUDA, 2, &o), GR_ERR_INVALID_ARG);
  ck_assert_ptr_null(c);
}
END_TEST

START_TEST(comm_auto_transport_on_cpu_is_host) {
  const gr_comm_mode modes[] = {GR_COMM_SELECTIVE, GR_COMM_BROADCAST};
  for (int i = 0; i < 2; i++) {
    gr_comm_options o = {modes[i], GR_TRANSPORT_AUTO, GR_COMM_FORMAT_AUTO, NULL};
    gr_comm *c = NULL;
    ck_assert_int_eq(gr_comm_create(&c, GR_BACKEND_CPU, 3, &o), GR_SUCCESS);
    ck_assert_int_eq(gr_comm_transport(c), GR_TRANSPORT_HOST);
    ck_assert_int_eq(gr_comm_mode_of(c), modes[i]);
    gr_comm_destroy(&c);
    o.transport = GR_TRANSPORT_HOST;
    ck_assert_int_eq(gr_comm_create(&c, GR_BACKEND_CPU, 3, &o), GR_SUCCESS);
    ck_assert_int_eq(gr_comm_transport(c), GR_TRANSPORT_HOST);
    gr_comm_destroy(&c);
  }
}
END_TEST

/* CPU devices' combines read their peers' packages where they lie: the
 * host transport says so for every package, and its move then leaves those
 * packages (no receive room, nothing copied) while it still copies the
 * others, each where the layout says. A package given a landing place (a
 * refresh's values for copies in contiguous slots) goes there and takes no
 * receive room. */
START_TEST(host_transport_leaves_packages_read_in_place) {
  gr_comm_options o = {GR_COMM_SELECTIVE, GR_TRANSPORT_HOST, GR_COMM_FORMAT_AUTO, NULL};
  gr_comm *c = NULL;
  ck_assert_int_eq(gr_comm_create(&c, GR_BACKEND_CPU, 3, &o), GR_SUCCESS);
  ck_assert_ptr_nonnull(c->tops->reads_in_place);
  ck_assert(c->tops->reads_in_place(c, 0, 2, (uint64_t)1 << 40, false));
  ck_assert(c->tops->reads_in_place(c, 0, 2, (uint64_t)1 << 40, true));
  static const unsigned char from1[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  static const unsigned char from2[8] = {21, 22, 23, 24, 25, 26, 27, 28};
  const gr__pkg p1 = {from1, 16, 12, 3, GR_XK_LIST, 0, false, true, 0},
                p2 = {from2, 8, 8, 2, GR_XK_LIST, 0, false, false, 0};
  c->pkg[1][0] = p1;
  c->pkg[2][0] = p2;
  const gr_mem_policy mem = GR_MEM_POLICY_INIT;
  for (int place = 0; place < 4; place++) {
    /* place 0: both moved; 1: peer 1's read in place; 2: both in place;
     * 3: peer 1's landed in an array of the receiver's, peer 2's moved */
    gr_buffer recv = GR_BUFFER_INIT;
    unsigned char array[20];
    memset(array, 0xee, sizeof array);
    gr__xfer x;
    memset(&x, 0, sizeof x);
    x.me = 0;
    x.n = 3;
    x.dev = dev;
    x.recv = &recv;
    x.mem = &mem;
    x.pkg = c->pkg;
    x.in_place[1] = place == 1 || place == 2;
    x.in_place[2] = place == 2;
    if (place == 3) x.land[1] = array + 4;
    ck_assert_int_eq(c->tops->move(c, &x), GR_SUCCESS);
    const size_t room = (place < 1 ? 16 : 0) + (place != 2 ? 8 : 0);
    ck_assert_uint_ge(recv.capacity, room);
    if (place == 0) ck_assert_int_eq(memcmp(recv.ptr, from1, 12), 0);
    if (place != 2) ck_assert_int_eq(memcmp((unsigned char *)recv.ptr + x.recv_offset[2], from2, 8), 0);
    if (place == 1 || place == 3) ck_assert_uint_eq(x.recv_offset[2], 0);
    if (place == 2) ck_assert_uint_eq(recv.capacity, 0);
    if (place == 3) {
      /* 12 bytes written from the fifth on, none around them. */
      ck_assert_int_eq(memcmp(array + 4, from1, 12), 0);
      ck_assert_uint_eq(array[3], 0xee);
      ck_assert_uint_eq(array[16], 0xee);
      ck_assert_uint_lt(recv.capacity, 16 + 8);
    } else {
      ck_assert_uint_eq(array[4], 0xee);
    }
    gr_buffer_release(&recv);
  }
  gr_comm_destroy(&c);
}
END_TEST

START_TEST(comm_mode_and_transport_names_parse_and_reject_bad_ones) {
  gr_comm_mode m = GR_COMM_BROADCAST;
  ck_assert_int_eq(gr_comm_mode_parse(&m, "selective"), GR_SUCCESS);
  ck_assert_int_eq(m, GR_COMM_SELECTIVE);
  ck_assert_int_eq(gr_comm_mode_parse(&m, "broadcast"), GR_SUCCESS);
  ck_assert_int_eq(m, GR_COMM_BROADCAST);
  ck_assert_str_eq(gr_comm_mode_name(GR_COMM_SELECTIVE), "selective");
  ck_assert_str_eq(gr_comm_mode_name(GR_COMM_BROADCAST), "broadcast");
  const char *bad_modes[] = {"", "Selective", "bcast", "selective ", "all"};
  for (size_t i = 0; i < sizeof bad_modes / sizeof bad_modes[0]; i++) {
    ck_assert_int_eq(gr_comm_mode_parse(&m, bad_modes[i]), GR_ERR_INVALID_ARG);
    ck_assert_ptr_nonnull(strstr(gr_error_message(), "selective or broadcast"));
  }
  ck_assert_int_eq(gr_comm_mode_parse(&m, NULL), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(m, GR_COMM_BROADCAST); /* untouched on error */

  const char *names[] = {"auto", "host", "p2p", "nccl"};
  const gr_transport_kind kinds[] = {GR_TRANSPORT_AUTO, GR_TRANSPORT_HOST, GR_TRANSPORT_P2P, GR_TRANSPORT_NCCL};
  for (int i = 0; i < 4; i++) {
    gr_transport_kind t = (gr_transport_kind)-1;
    ck_assert_int_eq(gr_transport_parse(&t, names[i]), GR_SUCCESS);
    ck_assert_int_eq(t, kinds[i]);
    ck_assert_str_eq(gr_transport_name(t), names[i]);
  }
  const char *bad[] = {"", "NCCL", "tcp", "p2p2", "hostx"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    gr_transport_kind t = GR_TRANSPORT_HOST;
    ck_assert_int_eq(gr_transport_parse(&t, bad[i]), GR_ERR_INVALID_ARG);
    ck_assert_int_eq(t, GR_TRANSPORT_HOST);
    ck_assert_ptr_nonnull(strstr(gr_error_message(), "auto, host, p2p or nccl"));
  }
  gr_transport_kind t = GR_TRANSPORT_HOST;
  ck_assert_int_eq(gr_transport_parse(&t, NULL), GR_ERR_INVALID_ARG);
  ck_assert_str_eq(gr_transport_name((gr_transport_kind)7), "?");
  ck_assert_str_eq(gr_comm_mode_name((gr_comm_mode)7), "?");
#ifdef GR_HAVE_NCCL
  ck_assert_int_eq(gr_comm_have_nccl(), 1);
#else
  ck_assert_int_eq(gr_comm_have_nccl(), 0);
#endif
}
END_TEST

/* ---- the enactor with the exchange --------------------------------------- */

START_TEST(enactor_on_several_devices_needs_an_exchange) {
  gr_graph *g = xh_gen("grid2d:4x4");
  ck_assert_ptr_nonnull(g);
  gr_subgraph *sub = NULL;
  ck_assert_int_eq(gr_subgraph_whole(&sub, g, false, false), GR_SUCCESS);
  gr_subgraph *subs[2] = {sub, sub};
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_enactor_config cfg = {&gr_bfs_primitive, &o, GR_BACKEND_CPU, 2, 1, GR_MEM_POLICY_INIT, subs, NULL, NULL, false, false, NULL, false};
  gr_enactor *e = NULL;
  ck_assert_int_eq(gr_enactor_create(&e, &cfg), GR_ERR_INVALID_ARG);
  ck_assert_ptr_null(e);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "exchange"));
  gr_subgraph_destroy(&sub);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(exchange_set_up_for_other_device_count_is_refused) {
  gr_graph *g = xh_gen("grid2d:6x6");
  gr_partition_options po = GR_PARTITION_OPTIONS_INIT;
  po.parts = 2;
  gr_partition *part = NULL;
  ck_assert_int_eq(gr_partition_create(&part, g, &po), GR_SUCCESS);
  gr_subgraph **subs = NULL;
  ck_assert_int_eq(gr_subgraphs_build(&subs, g, part, GR_PROXY_1HOP, false, false), GR_SUCCESS);
  gr_comm_options co = {GR_COMM_SELECTIVE, GR_TRANSPORT_AUTO, GR_COMM_FORMAT_AUTO, NULL};
  gr_comm *comm = NULL;
  ck_assert_int_eq(gr_comm_create(&comm, GR_BACKEND_CPU, 3, &co), GR_SUCCESS);
  gr_prim_options o = GR_PRIM_OPTIONS_INIT;
  gr_enactor_config cfg = {&gr_bfs_primitive, &o, GR_BACKEND_CPU, 2, 1, GR_MEM_POLICY_INIT, subs, NULL, NULL, false, false, NULL, false};
  cfg.exchange = &gr_comm_exchange_ops;
  cfg.exchange_shared = comm;
  gr_enactor *e = NULL;
  ck_assert_int_eq(gr_enactor_create(&e, &cfg), GR_ERR_INTERNAL);
  ck_assert_ptr_null(e);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "3 devices"));
  gr_comm_destroy(&comm);
  gr_subgraphs_destroy(&subs, 2);
  gr_partition_destroy(&part);
  gr_graph_destroy(&g);
}
END_TEST

enum { N_SRC = 3 };

/* Sources with out-edges, spread over the graph. */
static void pick_sources(gr_graph *g, gr_vid *src) {
  const gr_csr *c = gr_graph_out(g);
  for (int i = 0; i < N_SRC; i++) {
    gr_vid v = (gr_vid)(((uint64_t)i * 7919u + 3) % c->n);
    while (c->offsets[v + 1] == c->offsets[v]) v = (v + 1) % c->n;
    src[i] = v;
  }
}

static void check_multi_device_bfs(const char *spec, bool connected) {
  gr_graph *g = xh_gen(spec);
  ck_assert_ptr_nonnull(g);
  const gr_vid n = gr_graph_num_vertices(g);
  gr_vid src[N_SRC];
  pick_sources(g, src);
  xh_bfs_config one = {GR_BACKEND_CPU, 1, GR_PART_RANDOM, GR_PROXY_ALL, GR_COMM_SELECTIVE, GR_TRANSPORT_AUTO, 2, GR_COMM_FORMAT_AUTO, false, NULL, 0};
  gr_result base[N_SRC];
  gr_run_stats base_st[N_SRC];
  xh_stage stage;
  ck_assert_msg(xh_bfs_run(g, &one, src, N_SRC, base, base_st, &stage) == GR_SUCCESS, "%s", gr_error_message());
  const gr_partitioner_kind parts[] = {GR_PART_RANDOM, GR_PART_RANGE};
  const gr_proxy_mode proxies[] = {GR_PROXY_ALL, GR_PROXY_1HOP};
  const gr_comm_mode modes[] = {GR_COMM_SELECTIVE, GR_COMM_BROADCAST};
  gr_prim_options po = GR_PRIM_OPTIONS_INIT;
  po.mark_pred = true;
  for (int nd = 2; nd <= 4; nd++)
    for (int pi = 0; pi < 2; pi++)
      for (int xi = 0; xi < 2; xi++)
        for (int mi = 0; mi < 8; mi++) {
          /* Without predecessors the payload is uniform: bitmaps travel,
           * and under selective exchange the advance routes the claims of
           * peers' vertices into them where they are smaller than lists
           * (auto), always (bitmap) or never (list). */
          static const gr_comm_format formats[] = {GR_COMM_FORMAT_AUTO, GR_COMM_FORMAT_BITMAP, GR_COMM_FORMAT_LIST};
          const gr_comm_format fmt = mi < 2 ? GR_COMM_FORMAT_AUTO : formats[(mi - 2) / 2];
          xh_bfs_config c = {GR_BACKEND_CPU, nd, parts[pi], proxies[xi], modes[mi & 1], GR_TRANSPORT_AUTO, 1, fmt, mi >= 2, NULL, 0};
          char what[160];
          snprintf(what, sizeof what, "%s on %d devices, %s, %s proxies, %s%s, format %d", spec, nd,
                   gr_partitioner_name(parts[pi]), proxies[xi] == GR_PROXY_1HOP ? "1hop" : "all",
                   gr_comm_mode_name(modes[mi & 1]), mi >= 2 ? ", depths only" : "", (int)fmt);
          gr_result r[N_SRC];
          gr_run_stats st[N_SRC];
          ck_assert_msg(xh_bfs_run(g, &c, src, N_SRC, r, st, &stage) == GR_SUCCESS, "%s: stage %d: %s", what,
                        stage, gr_error_message());
          for (int s = 0; s < N_SRC; s++) {
            gr_run_args a = {src[s], s, NULL, 0};
            ck_assert_msg(!memcmp(r[s].values, base[s].values, (size_t)n * sizeof(gr_svid)),
                          "%s, source %u: depths differ from one device", what, (unsigned)src[s]);
            ck_assert_msg(gr_bfs_validate(g, &a, &po, &r[s], &base[s]) == GR_SUCCESS, "%s, source %u: %s", what,
                          (unsigned)src[s], gr_error_message());
            ck_assert_msg(st[s].iterations == base_st[s].iterations, "%s: %d iterations, one device %d", what,
                          st[s].iterations, base_st[s].iterations);
            ck_assert_int_eq(st[s].n_devices, nd);
            ck_assert_ptr_nonnull(st[s].devices);
            uint64_t bytes = 0, sent = 0, received = 0;
            for (int d = 0; d < nd; d++) {
              ck_assert_ptr_nonnull(st[s].devices[d].bytes_to);
              ck_assert_uint_eq(st[s].devices[d].bytes_to[d], 0);
              for (int j = 0; j < nd; j++) bytes += st[s].devices[d].bytes_to[j];
              sent += st[s].devices[d].items_sent;
              received += st[s].devices[d].items_received;
            }
            if (connected) ck_assert_msg(bytes > 0, "%s: no bytes moved", what);
            ck_assert_msg(sent == received, "%s: %llu items sent, %llu received", what, (unsigned long long)sent,
                          (unsigned long long)received);
            if (connected) ck_assert(sent > 0);
            gr_result_free(&r[s]);
            gr_run_stats_free(&st[s]);
          }
        }
  for (int s = 0; s < N_SRC; s++) {
    gr_result_free(&base[s]);
    gr_run_stats_free(&base_st[s]);
  }
  gr_graph_destroy(&g);
}

/* An output kept as the next frontier (gr_iter.out_owned) while a peer's
 * list arrives for the same device: the exchange uploads the package's
 * counters and clears the culling bitmap only before such a combine, and
 * the combine must add to the kept output, not overwrite it or skip what
 * a stale culling bitmap marks. BFS on two devices whose device 0 keeps
 * its output: the graph's part 0 (the first half of the ids, the range
 * partition's) has arcs within part 0 only, so device 0 claims only its own
 * vertices, while part 1 reaches into part 0 and sends those claims. */
static gr_status own_output_iterate(void *slice, gr_part *p, gr_iter *it) {
  GR_CHECK(gr_bfs_primitive.iterate(slice, p, it));
  if (p->count > 1 && p->index == 0 && !it->routed) {
    /* The output's size where the advance left it (gr_iter.out_counts):
     * an output kept as the next frontier is measured here. */
    GR_CHECK(gr_iter_take_out_counts(it, p->dev));
    it->out_owned = true;
    GR_CHECK(gr_frontier_degree_sum(it->out, p->dev, p->ws, &p->out, &it->out_edges));
    it->out_max_degree = p->sub->n_local; /* a bound */
  }
  return GR_SUCCESS;
}

START_TEST(an_output_kept_as_next_frontier_takes_what_peers_send) {
  enum { K = 600 };
  gr_coo coo = GR_COO_INIT;
  ck_assert_int_eq(gr_coo_reserve(&coo, 6 * K, false), GR_SUCCESS);
  coo.n = 2 * K;
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (gr_vid v = 0; v < 2 * K; v++)
    for (int k = 0; k < 3; k++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      /* Part 0's arcs stay in part 0; part 1's go to either half. */
      const gr_vid d = v < K ? (gr_vid)(x % K) : (gr_vid)(x % (2 * K));
      if (d != v) ck_assert_int_eq(gr_coo_push(&coo, v, d, 0), GR_SUCCESS);
    }
  gr_load_options lo = GR_LOAD_OPTIONS_INIT;
  lo.use_cache = false;
  lo.progress = -1;
  gr_graph *g = NULL;
  ck_assert_int_eq(gr_graph_from_coo(&g, &coo, &lo), GR_SUCCESS);
  gr_primitive prim = gr_bfs_primitive;
  prim.iterate = own_output_iterate;
  const gr_vid src[N_SRC] = {K + 3, 5, 2 * K - 1};
  xh_bfs_config one = {GR_BACKEND_CPU, 1, GR_PART_RANGE, GR_PROXY_ALL, GR_COMM_SELECTIVE, GR_TRANSPORT_AUTO, 1,
                       GR_COMM_FORMAT_LIST, true, NULL, 0};
  xh_bfs_config two = one;
  two.n_devices = 2;
  two.prim = &prim;
  gr_result base[N_SRC], r[N_SRC];
  gr_run_stats st[N_SRC];
  xh_stage stage;
  ck_assert_msg(xh_bfs_run(g, &one, src, N_SRC, base, NULL, &stage) == GR_SUCCESS, "%s", gr_error_message());
  ck_assert_msg(xh_bfs_run(g, &two, src, N_SRC, r, st, &stage) == GR_SUCCESS, "stage %d: %s", stage,
                gr_error_message());
  for (int s = 0; s < N_SRC; s++) {
    gr_vid reached_0 = 0;
    for (gr_vid v = 0; v < K; v++) reached_0 += ((gr_svid *)base[s].values)[v] >= 0;
    ck_assert_msg(s != 0 || reached_0 > K / 2, "source %u reaches %u of part 0", (unsigned)src[s],
                  (unsigned)reached_0);
    ck_assert_msg(!memcmp(r[s].values, base[s].values, (size_t)2 * K * sizeof(gr_svid)),
                  "source %u: depths differ from one device", (unsigned)src[s]);
    /* Device 1 sent device 0 its claims of part 0. */
    ck_assert(s != 0 || st[s].devices[1].items_sent > 0);
    gr_result_free(&base[s]);
    gr_result_free(&r[s]);
    gr_run_stats_free(&st[s]);
  }
  gr_graph_destroy(&g);
}
END_TEST

/* Runs the sources on one device (`one`) and on two (`one` with the
 * wrapped primitive `prim`), and checks that the depths are one device's;
 * `what` names the case in messages. */
static void check_two_equal_one(gr_graph *g, const gr_vid *src, const xh_bfs_config *one, const gr_primitive *prim,
                                const char *what) {
  const gr_vid n = gr_graph_num_vertices(g);
  xh_bfs_config two = *one;
  two.n_devices = 2;
  two.prim = prim;
  gr_result base[N_SRC], r[N_SRC];
  xh_stage stage;
  ck_assert_msg(xh_bfs_run(g, one, src, N_SRC, base, NULL, &stage) == GR_SUCCESS, "%s", gr_error_message());
  ck_assert_msg(xh_bfs_run(g, &two, src, N_SRC, r, NULL, &stage) == GR_SUCCESS, "%s: stage %d: %s", what, stage,
                gr_error_message());
  for (int s = 0; s < N_SRC; s++) {
    ck_assert_msg(!memcmp(r[s].values, base[s].values, (size_t)n * sizeof(gr_svid)),
                  "%s, source %u: depths differ from one device", what, (unsigned)src[s]);
    gr_result_free(&base[s]);
    gr_result_free(&r[s]);
  }
}

/* Between devices a pushed level's output goes to the exchange's package
 * with its size left where the advance counted it (gr_iter.out_counts: no
 * host round trip between the two, which a GPU pays per level): BFS's and
 * DOBFS's levels that output lists leave it so on every device that
 * pushed, with predecessors (records) and without (a uniform payload), under
 * selective and broadcast exchange, and the answers are one device's. */
static int sized_later[4], pushed[4];
static const gr_primitive *size_later_inner; /* set before the run */
static gr_status size_later_iterate(void *slice, gr_part *p, gr_iter *it) {
  const gr_eid in = it->in->size;
  GR_CHECK(size_later_inner->iterate(slice, p, it));
  if (it->tag != 'U' && !it->routed && in > 0) {
    pushed[p->index]++;
    if (it->out_counts) sized_later[p->index]++;
  }
  return GR_SUCCESS;
}

START_TEST(pushed_levels_leave_their_output_size_to_the_package) {
  gr_graph *g = xh_gen("kron:11:8");
  ck_assert_ptr_nonnull(g);
  gr_vid src[N_SRC];
  pick_sources(g, src);
  for (int k = 0; k < 4; k++) {
    const bool dobfs = k >= 2;
    size_later_inner = dobfs ? &gr_dobfs_primitive : &gr_bfs_primitive;
    gr_primitive prim = *size_later_inner;
    prim.iterate = size_later_iterate;
    xh_bfs_config one = {GR_BACKEND_CPU, 1, GR_PART_RANDOM, GR_PROXY_ALL, k == 1 ? GR_COMM_BROADCAST : GR_COMM_SELECTIVE,
                         GR_TRANSPORT_AUTO, 1, GR_COMM_FORMAT_LIST, k != 0, dobfs ? &gr_dobfs_primitive : NULL, 0};
    memset(sized_later, 0, sizeof sized_later);
    memset(pushed, 0, sizeof pushed);
    char what[32];
    snprintf(what, sizeof what, "case %d", k);
    check_two_equal_one(g, src, &one, &prim, what);
    for (int d = 0; d < 2; d++)
      ck_assert_msg(pushed[d] > 0 && sized_later[d] == pushed[d],
                    "case %d: device %d left %d of its %d pushed levels' sizes to the package", k, d, sized_later[d],
                    pushed[d]);
  }
  gr_graph_destroy(&g);
}
END_TEST

/* The next frontier's out-edges, which the exchange sums while it builds
 * the frontier (two reads of the offsets a vertex), reach the iterate as
 * gr_iter.in_edges where the primitive reads them, exactly (BFS sizes its
 * push by them), and are not summed where it says it never does
 * (skips_in_edges: SSSP, CC, PageRank): in_measured stays false, and the
 * answers do not change. */
static int measured_right[2], measured_wrong[2], unmeasured[2];
static gr_status edges_iterate(void *slice, gr_part *p, gr_iter *it) {
  if (it->iteration > 0) {
    if (!it->in_measured) {
      unmeasured[p->index]++;
    } else {
      gr_eid sum = 0;
      const gr_vid *in = gr_frontier_items(it->in);
      for (gr_eid i = 0; i < it->in->size; i++) sum += p->sub->out.offsets[in[i] + 1] - p->sub->out.offsets[in[i]];
      if (sum == it->in_edges) measured_right[p->index]++;
      else measured_wrong[p->index]++;
    }
  }
  return gr_bfs_primitive.iterate(slice, p, it);
}

START_TEST(next_frontier_edges_are_summed_only_where_read) {
  gr_graph *g = xh_gen("kron:11:8");
  ck_assert_ptr_nonnull(g);
  gr_vid src[N_SRC];
  pick_sources(g, src);
  for (int skips = 0; skips < 2; skips++) {
    gr_primitive prim = gr_bfs_primitive;
    prim.iterate = edges_iterate;
    prim.skips_in_edges = skips;
    xh_bfs_config one = {GR_BACKEND_CPU, 1, GR_PART_RANDOM, GR_PROXY_ALL, GR_COMM_SELECTIVE,
                         GR_TRANSPORT_AUTO, 1, GR_COMM_FORMAT_LIST, false, NULL, 0};
    memset(measured_right, 0, sizeof measured_right);
    memset(measured_wrong, 0, sizeof measured_wrong);
    memset(unmeasured, 0, sizeof unmeasured);
    check_two_equal_one(g, src, &one, &prim, skips ? "skips" : "reads");
    for (int d = 0; d < 2; d++) {
      ck_assert_msg(measured_wrong[d] == 0, "skips %d: device %d: %d inputs with other out-edges than measured", skips,
                    d, measured_wrong[d]);
      if (skips)
        ck_assert_msg(measured_right[d] == 0 && unmeasured[d] > 0, "device %d: %d inputs measured, %d not", d,
                      measured_right[d], unmeasured[d]);
      else
        ck_assert_msg(measured_right[d] > 0 && unmeasured[d] == 0, "device %d: %d inputs measured, %d not", d,
                      measured_right[d], unmeasured[d]);
    }
  }
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(bfs_on_several_cpu_devices_equals_one_device_on_a_grid) {
  check_multi_device_bfs("grid2d:24x30", true);
}
END_TEST

START_TEST(bfs_on_several_cpu_devices_equals_one_device_on_kronecker) {
  check_multi_device_bfs("kron:10:8", false);
}
END_TEST

START_TEST(bfs_on_several_cpu_devices_equals_one_device_on_a_directed_graph) {
  check_multi_device_bfs("uniform:10:4,directed", false);
}
END_TEST

/* ---- failures ------------------------------------------------------------ */

/* The N-th allocation of device 1 fails, for every N in a range: the run
 * succeeds or reports GR_ERR_DEVICE_OOM naming device 1, never hangs (the
 * TCase timeout), and some N fail inside gr_enactor_run. */
static void check_fault_injection(gr_proxy_mode proxy, gr_comm_mode mode) {
  gr_graph *g = xh_gen("kron:9:8");
  gr_vid src[N_SRC];
  pick_sources(g, src);
  xh_bfs_config c = {GR_BACKEND_CPU, 3, GR_PART_RANDOM, proxy, mode, GR_TRANSPORT_AUTO, 1, GR_COMM_FORMAT_AUTO, false, NULL, 0};
  int in_create = 0, in_run = 0, ok = 0;
  for (int n = 1; n <= 40; n++) {
    char spec[32];
    snprintf(spec, sizeof spec, "1:%d", n);
    setenv("GR_FAULT_ALLOC", spec, 1);
    gr_result r[N_SRC];
    xh_stage stage = XH_DONE;
    gr_status st = xh_bfs_run(g, &c, src, N_SRC, r, NULL, &stage);
    unsetenv("GR_FAULT_ALLOC");
    if (st == GR_SUCCESS) {
      ok++;
      for (int s = 0; s < N_SRC; s++) gr_result_free(&r[s]);
      continue;
    }
    ck_assert_msg(st == GR_ERR_DEVICE_OOM, "N=%d: %s (%s)", n, gr_status_name(st), gr_error_message());
    ck_assert_msg(strstr(gr_error_message(), "device 1"), "N=%d: %s", n, gr_error_message());
    ck_assert_msg(strstr(gr_error_message(), "GR_FAULT_ALLOC"), "N=%d: %s", n, gr_error_message());
    ck_assert_msg(stage == XH_CREATE || stage == XH_RUN, "N=%d failed at stage %d", n, stage);
    in_create += stage == XH_CREATE;
    in_run += stage == XH_RUN;
  }
  ck_assert_int_gt(in_create, 0);
  ck_assert_int_gt(in_run, 0);
  ck_assert_int_gt(ok, 0);
  /* Nothing is left behind: a clean run afterwards succeeds. */
  gr_result r[N_SRC];
  xh_stage stage;
  ck_assert_int_eq(xh_bfs_run(g, &c, src, N_SRC, r, NULL, &stage), GR_SUCCESS);
  for (int s = 0; s < N_SRC; s++) gr_result_free(&r[s]);
  gr_graph_destroy(&g);
}

START_TEST(allocation_failure_on_one_device_ends_the_run_cleanly_selective) {
  check_fault_injection(GR_PROXY_1HOP, GR_COMM_SELECTIVE);
  check_fault_injection(GR_PROXY_ALL, GR_COMM_SELECTIVE);
}
END_TEST

START_TEST(allocation_failure_on_one_device_ends_the_run_cleanly_broadcast) {
  check_fault_injection(GR_PROXY_1HOP, GR_COMM_BROADCAST);
  check_fault_injection(GR_PROXY_ALL, GR_COMM_BROADCAST);
}
END_TEST

int main(void) {
  Suite *s = suite_create("comm");
  TCase *layout = tcase_create("layout");
  tcase_add_test(layout, layout_records_align_each_field_and_pack_them);
  tcase_add_test(layout, messages_round_trip_through_build_and_read);
  suite_add_tcase(s, layout);

  TCase *package = tcase_create("package");
  tcase_add_checked_fixture(package, setup, teardown);
  tcase_add_test(package, host_transport_leaves_packages_read_in_place);
  tcase_add_test(package, package_routes_owned_outputs_to_next_and_each_remote_one_to_its_owner);
  tcase_add_test(package, package_broadcast_puts_every_output_in_message_0);
  tcase_add_test(package, package_sets_each_id_of_a_bitmap_once_with_the_value);
  tcase_add_test(package, package_counts_records_past_a_lists_capacity_without_writing_them);
  tcase_add_test(package, package_refuses_to_overflow_next);
  tcase_add_test(package, seal_gives_each_routed_bitmap_its_value_and_counts_its_ids);
  tcase_add_test(package, compact_puts_each_id_of_a_routed_bitmap_in_next_once);
  tcase_add_test(package, bitmaps_combined_in_one_pass_equal_one_combine_each);
  tcase_add_test(package, lists_combined_in_one_launch_equal_one_combine_each);
  tcase_add_test(package, compact_refuses_a_claim_whose_vertex_holds_a_value);
  tcase_add_test(package, mark_and_select_take_exactly_the_marked_entries_of_a_list);
  tcase_add_test(package, or_union_ors_every_source_into_the_union_and_also);
  tcase_add_test(package, or_owned_reads_each_word_from_its_owner);
  tcase_add_test(package, package_reads_the_output_size_an_advance_left_on_the_device);
  tcase_add_test(package, package_with_settled_bits_keeps_no_culling_bitmap);
  tcase_add_test(package, combine_of_bare_ids_takes_the_named_value);
  tcase_add_test(package, owner_tables_of_few_runs_become_ranges);
  suite_add_tcase(s, package);

  TCase *combine = tcase_create("combine");
  tcase_add_checked_fixture(combine, setup, teardown);
  tcase_set_timeout(combine, 120);
  tcase_add_test(combine, combine_min_and_max_treat_minus_one_as_no_value);
  tcase_add_test(combine, combine_min_and_max_on_floating_values);
  tcase_add_test(combine, combine_sum_adds_every_value_payload);
  tcase_add_test(combine, combine_logadd_adds_logarithms_as_numbers);
  tcase_add_test(combine, guarded_combine_drops_other_stamps_and_takes_unset_ones);
  tcase_add_test(combine, combine_skips_settled_vertices_and_settles_what_it_combines);
  tcase_add_test(combine, combine_or_sets_bits_and_reports_only_new_ones);
  tcase_add_test(combine, combine_replace_overwrites_every_payload_and_always_changes);
  tcase_add_test(combine, combine_adds_an_owned_changed_vertex_to_next_once);
  tcase_add_test(combine, combine_converts_global_ids_and_skips_vertices_not_held);
  tcase_add_test(combine, combine_pass_2_gives_the_winner_its_followers);
  tcase_add_test(combine, combine_pass_2_carries_value_followers_too);
  tcase_add_test(combine, combine_every_operator_and_type_matches_its_definition);
  tcase_add_test(combine, combine_of_a_bitmap_is_combine_of_the_list_of_its_ids);
  suite_add_tcase(s, combine);

  TCase *create = tcase_create("create");
  tcase_add_test(create, comm_create_rejects_device_counts_outside_1_to_32);
  tcase_add_test(create, comm_create_rejects_gpu_transports_on_cpu_devices);
  tcase_add_test(create, comm_auto_transport_on_cpu_is_host);
  tcase_add_test(create, comm_mode_and_transport_names_parse_and_reject_bad_ones);
  tcase_add_test(create, enactor_on_several_devices_needs_an_exchange);
  tcase_add_test(create, exchange_set_up_for_other_device_count_is_refused);
  suite_add_tcase(s, create);

  TCase *bfs = tcase_create("multi_device_bfs");
  tcase_set_timeout(bfs, 300);
  tcase_add_test(bfs, bfs_on_several_cpu_devices_equals_one_device_on_a_grid);
  tcase_add_test(bfs, an_output_kept_as_next_frontier_takes_what_peers_send);
  tcase_add_test(bfs, pushed_levels_leave_their_output_size_to_the_package);
  tcase_add_test(bfs, next_frontier_edges_are_summed_only_where_read);
  tcase_add_test(bfs, bfs_on_several_cpu_devices_equals_one_device_on_kronecker);
  tcase_add_test(bfs, bfs_on_several_cpu_devices_equals_one_device_on_a_directed_graph);
  suite_add_tcase(s, bfs);

  TCase *fail = tcase_create("alloc_failure");
  tcase_set_timeout(fail, 300);
  tcase_add_test(fail, allocation_failure_on_one_device_ends_the_run_cleanly_selective);
  tcase_add_test(fail, allocation_failure_on_one_device_ends_the_run_cleanly_broadcast);
  suite_add_tcase(s, fail);
  return gr_test_run_suite(s, 0);
}
