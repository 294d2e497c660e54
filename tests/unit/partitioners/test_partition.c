/* SPDX-License-Identifier: Apache-2.0 */
/* Partitioner tests: names and option checks, valid owners from every
 * partitioner, seeded determinism across thread counts, balance bounds, the
 * quality report against a brute-force recount, cut quality (biased against
 * random on grids) and METIS on a graph with one obvious cut. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gr/graph.h"
#include "gr/status.h"
#include "part_test.h"
#include "partition_internal.h"
#include "partitioner.h"
#include "testutil.h"

#ifdef GR_HAVE_METIS
static const gr_partitioner_kind kinds[] = {GR_PART_RANDOM, GR_PART_BIASED, GR_PART_METIS, GR_PART_STATIC,
                                            GR_PART_RANGE};
#else
static const gr_partitioner_kind kinds[] = {GR_PART_RANDOM, GR_PART_BIASED, GR_PART_STATIC, GR_PART_RANGE};
#endif
#define N_KINDS ((int)(sizeof kinds / sizeof kinds[0]))

static const char *const specs[] = {"kron:10:8", "grid2d:20x30", "uniform:10:4,directed"};
#define N_SPECS ((int)(sizeof specs / sizeof specs[0]))

static void expect_error(gr_status st, gr_status want, const char *needle) {
  ck_assert_msg(st == want, "expected %s, got %s (%s)", gr_status_name(want), gr_status_name(st),
                gr_error_message());
  ck_assert_msg(strstr(gr_error_message(), needle) != NULL, "message \"%s\" lacks \"%s\"", gr_error_message(),
                needle);
}

static gr_status try_partition(gr_partition **p, gr_graph *g, gr_partitioner_kind kind, int parts) {
  gr_partition_options o = GR_PARTITION_OPTIONS_INIT;
  o.kind = kind;
  o.parts = parts;
  return gr_partition_create(p, g, &o);
}

static uint64_t max_part(const gr_partition *p) {
  uint64_t mx = 0;
  for (int q = 0; q < p->parts; q++)
    if (p->vertices[q] > mx) mx = p->vertices[q];
  return mx;
}

static uint64_t capacity(double imbalance, uint64_t n, int parts) {
  return (uint64_t)ceil(imbalance * (double)n / (double)parts);
}

static void check_owners(const gr_partition *p, uint64_t n, int parts) {
  PT_CHECK((p->n) == (n));
  PT_CHECK((p->parts) == (parts));
  for (uint64_t v = 0; v < n; v++)
    PT_CHECK_MSG(p->owner[v] >= 0 && p->owner[v] < parts, "%s: vertex %llu has part %d of %d",
                  gr_partitioner_name(p->kind), (unsigned long long)v, (int)p->owner[v], parts);
}

/* ---- arguments ------------------------------------------------------------ */

START_TEST(parse_accepts_every_name_and_round_trips) {
  static const char *const names[] = {"random", "biased", "metis", "static", "range"};
  for (int k = 0; k < 5; k++) {
    gr_partitioner_kind kind;
    ck_assert_int_eq(gr_partitioner_parse(&kind, names[k]), GR_SUCCESS);
    ck_assert_int_eq(kind, k);
    ck_assert_str_eq(gr_partitioner_name(kind), names[k]);
  }
}
END_TEST

START_TEST(parse_rejects_unknown_names_listing_the_valid_ones) {
  gr_partitioner_kind kind = GR_PART_RANGE;
  expect_error(gr_partitioner_parse(&kind, "Random"), GR_ERR_INVALID_ARG, "\"Random\"");
  ck_assert_msg(strstr(gr_error_message(), "random, biased, metis, static or range"), "%s", gr_error_message());
  expect_error(gr_partitioner_parse(&kind, ""), GR_ERR_INVALID_ARG, "unknown partitioner");
  ck_assert_int_eq(kind, GR_PART_RANGE);
  expect_error(gr_partitioner_parse(NULL, "random"), GR_ERR_INVALID_ARG, "NULL");
  expect_error(gr_partitioner_parse(&kind, NULL), GR_ERR_INVALID_ARG, "NULL");
  ck_assert_str_eq(gr_partitioner_name((gr_partitioner_kind)99), "?");
}
END_TEST

START_TEST(options_init_has_the_documented_defaults) {
  const gr_partition_options o = GR_PARTITION_OPTIONS_INIT;
  ck_assert_int_eq(o.kind, GR_PART_RANDOM);
  ck_assert_int_eq(o.parts, 1);
  ck_assert_uint_eq(o.seed, 1);
  ck_assert_double_eq(o.bias_factor, 0.5);
  ck_assert_double_eq(o.imbalance, 1.05);
  ck_assert_int_eq(o.threads, 0);
  ck_assert_uint_eq(o.block, 0);
}
END_TEST

START_TEST(create_rejects_fewer_than_one_part) {
  gr_graph *g = pt_gen("grid2d:4x4", false);
  gr_partition sentinel;
  gr_partition *p = &sentinel; /* must be reset to NULL */
  expect_error(try_partition(&p, g, GR_PART_RANDOM, 0), GR_ERR_INVALID_ARG, "at least 1");
  ck_assert_ptr_null(p);
  expect_error(try_partition(&p, g, GR_PART_RANDOM, -3), GR_ERR_INVALID_ARG, "-3 parts");
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(create_rejects_more_parts_than_vertices) {
  gr_graph *g = pt_gen("grid2d:4x4", false);
  gr_partition *p = NULL;
  expect_error(try_partition(&p, g, GR_PART_BIASED, 17), GR_ERR_INVALID_ARG, "17 parts");
  ck_assert_msg(strstr(gr_error_message(), "16 vertices"), "%s", gr_error_message());
  ck_assert_ptr_null(p);
  /* One part per vertex is the limit and is fine. */
  p = pt_partition(g, GR_PART_RANDOM, 16, 1, 0);
  check_owners(p, 16, 16);
  gr_partition_destroy(&p);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(create_rejects_bad_options) {
  gr_graph *g = pt_gen("grid2d:4x4", false);
  gr_partition *p = NULL;
  gr_partition_options o = GR_PARTITION_OPTIONS_INIT;
  o.parts = 2;
  o.imbalance = 0.9;
  expect_error(gr_partition_create(&p, g, &o), GR_ERR_INVALID_ARG, "imbalance");
  o.imbalance = NAN;
  expect_error(gr_partition_create(&p, g, &o), GR_ERR_INVALID_ARG, "imbalance");
  o.imbalance = 1.05;
  o.bias_factor = -1;
  expect_error(gr_partition_create(&p, g, &o), GR_ERR_INVALID_ARG, "bias factor");
  o.bias_factor = INFINITY;
  expect_error(gr_partition_create(&p, g, &o), GR_ERR_INVALID_ARG, "bias factor");
  o.bias_factor = 0.5;
  o.threads = -1;
  expect_error(gr_partition_create(&p, g, &o), GR_ERR_INVALID_ARG, "threads");
  o.threads = 0;
  o.kind = (gr_partitioner_kind)7;
  expect_error(gr_partition_create(&p, g, &o), GR_ERR_INVALID_ARG, "kind 7");
  expect_error(gr_partition_create(NULL, g, &o), GR_ERR_INVALID_ARG, "output");
  expect_error(gr_partition_create(&p, NULL, &o), GR_ERR_INVALID_ARG, "graph");
  ck_assert_ptr_null(p);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(create_takes_null_options_as_the_defaults) {
  gr_graph *g = pt_gen("grid2d:4x4", false);
  gr_partition *p = NULL;
  ck_assert_int_eq(gr_partition_create(&p, g, NULL), GR_SUCCESS);
  ck_assert_int_eq(p->kind, GR_PART_RANDOM);
  ck_assert_int_eq(p->parts, 1);
  for (int v = 0; v < 16; v++) ck_assert_int_eq(p->owner[v], 0);
  ck_assert_uint_eq(p->vertices[0], 16);
  ck_assert_uint_eq(p->edge_cut, 0);
  ck_assert_uint_eq(p->border_total, 0);
  ck_assert_uint_eq(p->proxies_total, 0);
  ck_assert(p->seconds >= 0.0);
  gr_partition_destroy(&p);
  ck_assert_ptr_null(p);
  gr_partition_destroy(&p);
  gr_partition_destroy(NULL);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(every_partitioner_handles_an_empty_graph) {
  gr_graph *g = pt_edges(0, NULL, 0, true);
  for (int k = 0; k < N_KINDS; k++) {
    gr_partition *p = pt_partition(g, kinds[k], 3, 1, 0);
    ck_assert_uint_eq(p->n, 0);
    for (int q = 0; q < 3; q++) ck_assert_uint_eq(p->vertices[q], 0);
    gr_partition_destroy(&p);
  }
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(every_partitioner_handles_a_graph_without_edges) {
  gr_graph *g = pt_edges(10, NULL, 0, true);
  for (int k = 0; k < N_KINDS; k++)
    for (int parts = 1; parts <= 10; parts += 3) {
      gr_partition *p = pt_partition(g, kinds[k], parts, 1, 0);
      check_owners(p, 10, parts);
      ck_assert_uint_eq(p->edge_cut, 0);
      ck_assert_uint_eq(p->proxies_total, 0);
      /* Random is balanced only in expectation. */
      if (kinds[k] != GR_PART_RANDOM)
        ck_assert_msg(max_part(p) <= capacity(1.05, 10, parts) + (kinds[k] == GR_PART_METIS),
                      "%s, %d parts: largest part %llu", gr_partitioner_name(kinds[k]), parts,
                      (unsigned long long)max_part(p));
      gr_partition_destroy(&p);
    }
  gr_graph_destroy(&g);
}
END_TEST

/* ---- owners ----------------------------------------------------------------- */

START_TEST(every_partitioner_gives_owners_in_range) {
  const gr_partitioner_kind kind = kinds[_i % N_KINDS];
  gr_graph *g = pt_gen(specs[_i / N_KINDS], false);
  const uint64_t n = gr_graph_num_vertices(g);
  for (int parts = 1; parts <= 8; parts++) {
    gr_partition *p = pt_partition(g, kind, parts, 3, 0);
    check_owners(p, n, parts);
    uint64_t total = 0;
    for (int q = 0; q < parts; q++) total += p->vertices[q];
    ck_assert_uint_eq(total, n);
    if (parts == 1)
      for (uint64_t v = 0; v < n; v++) ck_assert_int_eq(p->owner[v], 0);
    gr_partition_destroy(&p);
  }
  gr_graph_destroy(&g);
}
END_TEST

/* ---- determinism ------------------------------------------------------------ */

static const gr_partitioner_kind seeded[] = {GR_PART_RANDOM, GR_PART_BIASED
#ifdef GR_HAVE_METIS
                                             ,
                                             GR_PART_METIS
#endif
};
#define N_SEEDED ((int)(sizeof seeded / sizeof seeded[0]))

START_TEST(same_seed_gives_the_same_owners_for_any_thread_count) {
  const gr_partitioner_kind kind = seeded[_i % N_SEEDED];
  gr_graph *g = pt_gen(specs[_i / N_SEEDED], false);
  const uint64_t n = gr_graph_num_vertices(g);
  gr_partition *a = pt_partition(g, kind, 4, 7, 1);
  gr_partition *b = pt_partition(g, kind, 4, 7, 2);
  gr_partition *c = pt_partition(g, kind, 4, 7, 0);
  ck_assert_msg(memcmp(a->owner, b->owner, n * sizeof *a->owner) == 0, "%s: 1 and 2 threads differ",
                gr_partitioner_name(kind));
  ck_assert_msg(memcmp(a->owner, c->owner, n * sizeof *a->owner) == 0, "%s: 1 and all threads differ",
                gr_partitioner_name(kind));
  ck_assert_uint_eq(a->edge_cut, b->edge_cut);
  ck_assert_uint_eq(a->proxies_total, c->proxies_total);
  gr_partition_destroy(&a);
  gr_partition_destroy(&b);
  gr_partition_destroy(&c);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(different_seeds_give_different_owners) {
  const gr_partitioner_kind kind = _i % 2 ? GR_PART_BIASED : GR_PART_RANDOM;
  gr_graph *g = pt_gen(specs[_i / 2], false);
  const uint64_t n = gr_graph_num_vertices(g);
  gr_partition *a = pt_partition(g, kind, 4, 1, 0);
  gr_partition *b = pt_partition(g, kind, 4, 2, 0);
  uint64_t differ = 0;
  for (uint64_t v = 0; v < n; v++) differ += a->owner[v] != b->owner[v];
  ck_assert_msg(differ > 0, "%s: seeds 1 and 2 gave the same owners", gr_partitioner_name(kind));
  gr_partition_destroy(&a);
  gr_partition_destroy(&b);
  gr_graph_destroy(&g);
}
END_TEST

/* ---- balance ------------------------------------------------------------------ */

START_TEST(random_parts_are_within_3_percent_on_a_large_graph) {
  gr_graph *g = pt_gen("grid2d:256x256", false);
  const uint64_t n = gr_graph_num_vertices(g);
  static const int counts[] = {2, 3, 4, 8};
  for (int i = 0; i < 4; i++) {
    gr_partition *p = pt_partition(g, GR_PART_RANDOM, counts[i], 5, 0);
    const double avg = (double)n / counts[i];
    for (int q = 0; q < counts[i]; q++)
      ck_assert_msg(fabs((double)p->vertices[q] - avg) <= 0.03 * avg, "%d parts: part %d has %llu, average %.0f",
                    counts[i], q, (unsigned long long)p->vertices[q], avg);
    gr_partition_destroy(&p);
  }
  gr_graph_destroy(&g);
}
END_TEST

/* Blocks of ids: every id of an aligned block has the block's part, the
 * parts stay balanced, the partition records its block, and the choice of
 * block follows the graph's size (32 ids from 16384 blocks a part, single
 * ids below, what was asked for whatever the size). */
START_TEST(random_blocks_keep_their_ids_together) {
  gr_graph *g = pt_gen("grid2d:256x256", false);
  const uint64_t n = gr_graph_num_vertices(g);
  static const uint32_t blocks[] = {32, 7, 1};
  for (int b = 0; b < 3; b++)
    for (int parts = 2; parts <= 4; parts++) {
      gr_partition_options o = GR_PARTITION_OPTIONS_INIT;
      o.parts = parts;
      o.seed = 5;
      o.block = blocks[b];
      gr_partition *p = NULL;
      ck_assert_int_eq(gr_partition_create(&p, g, &o), GR_SUCCESS);
      check_owners(p, n, parts);
      ck_assert_uint_eq(p->block, blocks[b]);
      uint64_t apart = 0;
      for (uint64_t v = 0; v < n; v++) {
        PT_CHECK_MSG(p->owner[v] == p->owner[v - v % blocks[b]],
                     "blocks of %u: vertex %llu in part %d, its block's first in %d", blocks[b], (unsigned long long)v,
                     (int)p->owner[v], (int)p->owner[v - v % blocks[b]]);
        apart += v > 0 && v % blocks[b] == 0 && p->owner[v] != p->owner[v - 1];
      }
      /* The blocks' parts are drawn, not dealt in turn: neighbouring blocks
       * share a part about 1 / parts of the time. */
      const double shared = 1.0 - (double)apart / (double)((n - 1) / blocks[b]);
      ck_assert_msg(fabs(shared - 1.0 / parts) < 0.05,
                    "blocks of %u, %d parts: %.3f of neighbouring blocks share a part", blocks[b], parts, shared);
      const double avg = (double)n / parts;
      for (int q = 0; q < parts; q++)
        ck_assert_msg(fabs((double)p->vertices[q] - avg) <= 0.06 * avg,
                      "blocks of %u, %d parts: part %d has %llu of %.0f", blocks[b], parts, q,
                      (unsigned long long)p->vertices[q], avg);
      gr_partition_destroy(&p);
    }
  /* Asked for by another partitioner: refused. */
  gr_partition_options o = GR_PARTITION_OPTIONS_INIT;
  o.kind = GR_PART_RANGE;
  o.parts = 2;
  o.block = 8;
  gr_partition *p = NULL;
  expect_error(gr_partition_create(&p, g, &o), GR_ERR_INVALID_ARG, "random partitioner only");
  ck_assert_ptr_null(p);
  /* The default on a graph of 2^16 vertices: single ids for 2 parts. */
  p = pt_partition(g, GR_PART_RANDOM, 2, 5, 0);
  ck_assert_uint_eq(p->block, 1);
  gr_partition_destroy(&p);
  p = pt_partition(g, GR_PART_BIASED, 2, 5, 0);
  ck_assert_uint_eq(p->block, 1);
  gr_partition_destroy(&p);
  gr_graph_destroy(&g);
  const uint64_t edge = (uint64_t)GR_PARTITION_BLOCK * GR_PARTITION_BLOCKS_PER_PART;
  ck_assert_uint_eq(gr_partition_random_block(2 * edge - 1, 2, 0), 1);
  ck_assert_uint_eq(gr_partition_random_block(2 * edge, 2, 0), GR_PARTITION_BLOCK);
  ck_assert_uint_eq(gr_partition_random_block(4 * edge, 8, 0), 1);
  ck_assert_uint_eq(gr_partition_random_block(100, 8, 5), 5);
}
END_TEST

START_TEST(biased_parts_stay_within_the_capacity) {
  gr_graph *g = pt_gen(specs[_i], false);
  const uint64_t n = gr_graph_num_vertices(g);
  static const double imb[] = {1.0, 1.05, 1.3};
  static const int counts[] = {2, 3, 4, 7};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++) {
      gr_partition_options o = GR_PARTITION_OPTIONS_INIT;
      o.kind = GR_PART_BIASED;
      o.parts = counts[j];
      o.imbalance = imb[i];
      gr_partition *p = NULL;
      ck_assert_int_eq(gr_partition_create(&p, g, &o), GR_SUCCESS);
      const uint64_t cap = capacity(imb[i], n, counts[j]);
      ck_assert_msg(max_part(p) <= cap, "%s, %d parts, imbalance %.2f: largest part %llu over %llu", specs[_i],
                    counts[j], imb[i], (unsigned long long)max_part(p), (unsigned long long)cap);
      gr_partition_destroy(&p);
    }
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(static_and_range_parts_differ_by_at_most_one) {
  gr_graph *g = pt_gen(specs[_i], false);
  const uint64_t n = gr_graph_num_vertices(g);
  static const int counts[] = {1, 2, 3, 7, 64};
  for (int j = 0; j < 5; j++) {
    const int parts = counts[j];
    const uint64_t lo = n / (uint64_t)parts, hi = (n + (uint64_t)parts - 1) / (uint64_t)parts;
    gr_partition *s = pt_partition(g, GR_PART_STATIC, parts, 1, 0);
    gr_partition *r = pt_partition(g, GR_PART_RANGE, parts, 1, 0);
    for (int q = 0; q < parts; q++) {
      PT_CHECK(s->vertices[q] >= lo && s->vertices[q] <= hi);
      PT_CHECK(r->vertices[q] >= lo && r->vertices[q] <= hi);
      /* The longer ranges come first. */
      if (q > 0) PT_CHECK((r->vertices[q]) <= (r->vertices[q - 1]));
    }
    for (uint64_t v = 0; v < n; v++) {
      PT_CHECK((s->owner[v]) == ((int)(v % (uint64_t)parts)));
      if (v > 0) PT_CHECK(r->owner[v] == r->owner[v - 1] || r->owner[v] == r->owner[v - 1] + 1);
    }
    PT_CHECK((r->owner[0]) == (0));
    PT_CHECK((r->owner[n - 1]) == (parts - 1));
    gr_partition_destroy(&s);
    gr_partition_destroy(&r);
  }
  gr_graph_destroy(&g);
}
END_TEST

#ifdef GR_HAVE_METIS
/* METIS balances vertex weights (out-degree + 1) within ubvec, up to its
 * own granularity: a part may overshoot by about one vertex's weight. */
START_TEST(metis_balances_edges_within_the_imbalance) {
  gr_graph *g = pt_gen(specs[_i], false);
  const gr_csr *c = gr_graph_out(g);
  const uint64_t n = c->n;
  uint64_t total = 0, wmax = 0;
  for (uint64_t v = 0; v < n; v++) {
    const uint64_t w = gr_csr_degree(c, (gr_vid)v) + 1;
    total += w;
    if (w > wmax) wmax = w;
  }
  for (int parts = 2; parts <= 4; parts++) {
    gr_partition *p = pt_partition(g, GR_PART_METIS, parts, 1, 0);
    const double bound = 1.05 * (double)total / parts + (double)wmax;
    for (int q = 0; q < parts; q++) {
      const double w = (double)(p->edges[q] + p->vertices[q]);
      ck_assert_msg(w <= bound, "%s, %d parts: part %d weighs %.0f, bound %.0f", specs[_i], parts, q, w, bound);
    }
    /* On the grid (degrees 2..4) the weight bound is also a vertex bound. */
    if (strncmp(specs[_i], "grid", 4) == 0)
      ck_assert_msg(max_part(p) <= capacity(1.05, n, parts) + 2, "grid, %d parts: largest part %llu", parts,
                    (unsigned long long)max_part(p));
    gr_partition_destroy(&p);
  }
  gr_graph_destroy(&g);
}
END_TEST
#endif

/* ---- quality report --------------------------------------------------------- */

/* Recounts every number of the report the slow way and compares. */
static void check_report(gr_graph *g, const gr_partition *p) {
  const gr_csr *c = gr_graph_out(g);
  const uint64_t n = c->n;
  const int parts = p->parts;
  uint64_t *vert = calloc((size_t)parts, sizeof *vert), *edges = calloc((size_t)parts, sizeof *edges);
  uint64_t *border = calloc((size_t)parts, sizeof *border), *prox = calloc((size_t)parts, sizeof *prox);
  char *is_border = calloc(n + 1, 1), *near = calloc((n + 1) * (size_t)parts, 1);
  ck_assert(vert && edges && border && prox && is_border && near);
  uint64_t cut = 0;
  for (uint64_t u = 0; u < n; u++) {
    const int a = p->owner[u];
    vert[a]++;
    edges[a] += gr_csr_degree(c, (gr_vid)u);
    for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) {
      const gr_vid w = c->indices[e];
      const int b = p->owner[w];
      if (a == b) continue;
      cut++;
      is_border[u] = is_border[w] = 1;
      near[(size_t)w * parts + a] = 1;
      near[(size_t)u * parts + b] = 1;
    }
  }
  for (uint64_t v = 0; v < n; v++) {
    border[p->owner[v]] += is_border[v];
    for (int q = 0; q < parts; q++) prox[q] += near[(size_t)v * parts + q];
  }
  uint64_t bt = 0, pt = 0;
  ck_assert_uint_eq(p->m, c->m);
  ck_assert_uint_eq(p->edge_cut, cut);
  for (int q = 0; q < parts; q++) {
    ck_assert_uint_eq(p->vertices[q], vert[q]);
    ck_assert_uint_eq(p->edges[q], edges[q]);
    ck_assert_msg(p->border[q] == border[q], "%s %d parts: part %d border %llu, recount %llu",
                  gr_partitioner_name(p->kind), parts, q, (unsigned long long)p->border[q],
                  (unsigned long long)border[q]);
    ck_assert_msg(p->proxies[q] == prox[q], "%s %d parts: part %d proxies %llu, recount %llu",
                  gr_partitioner_name(p->kind), parts, q, (unsigned long long)p->proxies[q],
                  (unsigned long long)prox[q]);
    bt += border[q];
    pt += prox[q];
  }
  ck_assert_uint_eq(p->border_total, bt);
  ck_assert_uint_eq(p->proxies_total, pt);
  free(vert);
  free(edges);
  free(border);
  free(prox);
  free(is_border);
  free(near);
}

static const char *const small_specs[] = {"kron:8:4", "grid2d:9x9", "uniform:8:4,directed",
                                          "kron:8:4,directed"};
#define N_SMALL ((int)(sizeof small_specs / sizeof small_specs[0]))

/* parts 70 takes the path for more than 64 parts (per-vertex marks over out-
 * and in-edges instead of bitmasks); on undirected graphs 1-2, 3-4 and 5-16
 * parts read the parts packed in 1, 2 and 4 bits a vertex (each width at
 * both ends), 17 to 64 the byte table. */
START_TEST(report_matches_a_brute_force_recount) {
  const gr_partitioner_kind kind = kinds[_i % N_KINDS];
  gr_graph *g = pt_gen(small_specs[_i / N_KINDS], false);
  static const int counts[] = {1, 2, 3, 4, 5, 16, 17, 64, 70};
  for (int j = 0; j < (int)(sizeof counts / sizeof counts[0]); j++) {
    gr_partition *p = pt_partition(g, kind, counts[j], 11, 0);
    check_report(g, p);
    gr_partition_destroy(&p);
  }
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(report_matches_a_brute_force_recount_on_karate) {
  gr_graph *g = pt_karate();
  if (!g) return;
  for (int k = 0; k < N_KINDS; k++)
    for (int parts = 1; parts <= 34; parts += 3) {
      gr_partition *p = pt_partition(g, kinds[k], parts, 2, 0);
      check_report(g, p);
      gr_partition_destroy(&p);
    }
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(print_gives_a_table_with_totals_and_the_cut) {
  gr_graph *g = pt_gen("grid2d:8x8", false);
  gr_partition *p = pt_partition(g, GR_PART_RANGE, 2, 1, 0);
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  ck_assert_ptr_nonnull(f);
  gr_partition_print(f, p);
  gr_partition_print(f, NULL);
  fclose(f);
  /* Two rows of 32 vertices; the cut is the 8 grid edges between them. */
  ck_assert_msg(strstr(text, "partition range: 2 parts"), "%s", text);
  ck_assert_msg(strstr(text, "total"), "%s", text);
  ck_assert_msg(strstr(text, "edge cut 16 of 224 arcs"), "%s", text);
  ck_assert_msg(strstr(text, "imbalance: vertices 1.000"), "%s", text);
  free(text);
  gr_partition_destroy(&p);
  gr_graph_destroy(&g);
}
END_TEST

/* ---- cut quality ---------------------------------------------------------------- */

START_TEST(biased_cuts_far_fewer_edges_than_random_on_a_grid) {
  static const char *const grids[] = {"grid2d:20x30", "grid2d:64x64"};
  for (int i = 0; i < 2; i++) {
    gr_graph *g = pt_gen(grids[i], false);
    for (int parts = 2; parts <= 4; parts++) {
      gr_partition *r = pt_partition(g, GR_PART_RANDOM, parts, 1, 0);
      gr_partition *b = pt_partition(g, GR_PART_BIASED, parts, 1, 0);
      ck_assert_msg(b->edge_cut * 3 < r->edge_cut, "%s, %d parts: biased cut %llu, random cut %llu", grids[i],
                    parts, (unsigned long long)b->edge_cut, (unsigned long long)r->edge_cut);
      gr_partition_destroy(&r);
      gr_partition_destroy(&b);
    }
    gr_graph_destroy(&g);
  }
}
END_TEST

/* A device's work follows its arcs: on a graph with one giant component
 * (Kronecker) the biased parts hold a balanced share of the arcs too, at
 * most the imbalance bound over the average plus one vertex's degree (the
 * part a vertex too large for any part's room goes to), and still cut
 * fewer arcs than random parts. Bounded by vertices alone, the giant
 * component filled one part (on Kronecker 20, 2 parts held 1.99 and 0.01
 * of an even share of the arcs). */
START_TEST(biased_parts_hold_a_balanced_share_of_the_arcs) {
  static const char *const krons[] = {"kron:12:8", "kron:14:16"};
  static const double imb[] = {1.0, 1.05, 1.3};
  for (int i = 0; i < 2; i++) {
    gr_graph *g = pt_gen(krons[i], false);
    const gr_csr *c = gr_graph_out(g);
    gr_eid max_deg = 0;
    for (gr_vid v = 0; v < c->n; v++)
      if (c->offsets[v + 1] - c->offsets[v] > max_deg) max_deg = c->offsets[v + 1] - c->offsets[v];
    for (int j = 0; j < 3; j++)
      for (int parts = 2; parts <= 7; parts++) {
        gr_partition_options o = GR_PARTITION_OPTIONS_INIT;
        o.kind = GR_PART_BIASED;
        o.parts = parts;
        o.imbalance = imb[j];
        gr_partition *b = NULL;
        ck_assert_int_eq(gr_partition_create(&b, g, &o), GR_SUCCESS);
        const uint64_t cap = capacity(imb[j], c->m, parts) + max_deg;
        for (int q = 0; q < parts; q++)
          ck_assert_msg(b->edges[q] <= cap, "%s, %d parts, imbalance %.2f: part %d holds %llu arcs, bound %llu",
                        krons[i], parts, imb[j], q, (unsigned long long)b->edges[q], (unsigned long long)cap);
        gr_partition *r = pt_partition(g, GR_PART_RANDOM, parts, 1, 0);
        ck_assert_msg(b->edge_cut < r->edge_cut, "%s, %d parts: biased cut %llu, random cut %llu", krons[i], parts,
                      (unsigned long long)b->edge_cut, (unsigned long long)r->edge_cut);
        gr_partition_destroy(&r);
        gr_partition_destroy(&b);
      }
    gr_graph_destroy(&g);
  }
}
END_TEST

START_TEST(biased_cuts_fewer_edges_than_random_on_kron) {
  gr_graph *g = pt_gen("kron:12:8", false);
  gr_partition *r = pt_partition(g, GR_PART_RANDOM, 4, 1, 0);
  gr_partition *b = pt_partition(g, GR_PART_BIASED, 4, 1, 0);
  ck_assert_msg(b->edge_cut < r->edge_cut, "biased cut %llu, random cut %llu", (unsigned long long)b->edge_cut,
                (unsigned long long)r->edge_cut);
  gr_partition_destroy(&r);
  gr_partition_destroy(&b);
  gr_graph_destroy(&g);
}
END_TEST

/* ---- metis ------------------------------------------------------------------------ */

/* Two cliques of 10 (0..9 and 10..19) joined by the edge 9 - 10. Directed:
 * only the arcs i -> j with i < j, so METIS must see the symmetrized graph. */
static gr_graph *two_cliques(bool undirected) {
  gr_vid edges[91][2];
  int m = 0;
  for (gr_vid base = 0; base <= 10; base += 10)
    for (gr_vid i = 0; i < 10; i++)
      for (gr_vid j = i + 1; j < 10; j++) {
        edges[m][0] = base + i;
        edges[m][1] = base + j;
        m++;
      }
  edges[m][0] = 9;
  edges[m][1] = 10;
  m++;
  return pt_edges(20, (const gr_vid(*)[2])edges, (uint64_t)m, undirected);
}

#ifdef GR_HAVE_METIS
START_TEST(metis_splits_two_cliques_at_their_bridge) {
  for (int directed = 0; directed <= 1; directed++) {
    gr_graph *g = two_cliques(!directed);
    gr_partition *p = pt_partition(g, GR_PART_METIS, 2, 1, 0);
    /* One undirected edge is 2 arcs; the directed bridge is 1 arc. */
    ck_assert_uint_eq(p->edge_cut, directed ? 1 : 2);
    ck_assert_uint_eq(p->vertices[0], 10);
    ck_assert_uint_eq(p->vertices[1], 10);
    for (int v = 1; v < 10; v++) {
      ck_assert_int_eq(p->owner[v], p->owner[0]);
      ck_assert_int_eq(p->owner[10 + v], p->owner[10]);
    }
    ck_assert_int_ne(p->owner[0], p->owner[10]);
    ck_assert_uint_eq(p->border_total, 2);
    ck_assert_uint_eq(p->proxies_total, 2);
    gr_partition_destroy(&p);
    gr_graph_destroy(&g);
  }
}
END_TEST

START_TEST(metis_with_one_part_gives_all_zeros) {
  gr_graph *g = two_cliques(true);
  gr_partition *p = pt_partition(g, GR_PART_METIS, 1, 1, 0);
  for (int v = 0; v < 20; v++) ck_assert_int_eq(p->owner[v], 0);
  ck_assert_uint_eq(p->edge_cut, 0);
  gr_partition_destroy(&p);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(metis_cuts_fewer_edges_than_random_on_a_grid) {
  gr_graph *g = pt_gen("grid2d:64x64", false);
  gr_partition *r = pt_partition(g, GR_PART_RANDOM, 4, 1, 0);
  gr_partition *m = pt_partition(g, GR_PART_METIS, 4, 1, 0);
  ck_assert_msg(m->edge_cut * 10 < r->edge_cut, "metis cut %llu, random cut %llu", (unsigned long long)m->edge_cut,
                (unsigned long long)r->edge_cut);
  gr_partition_destroy(&r);
  gr_partition_destroy(&m);
  gr_graph_destroy(&g);
}
END_TEST
#else
START_TEST(metis_is_a_clear_error_in_a_build_without_it) {
  fprintf(stderr, "skip: METIS cut tests (gr was configured without METIS)\n");
  gr_graph *g = two_cliques(true);
  gr_partition *p = NULL;
  expect_error(try_partition(&p, g, GR_PART_METIS, 2), GR_ERR_UNSUPPORTED,
               "gr was built without METIS; install libmetis-dev and reconfigure");
  ck_assert_ptr_null(p);
  gr_graph_destroy(&g);
}
END_TEST
#endif

/* ---- symmetrized adjacency (what METIS is given) ---------------------------- */

static void check_symmetric_adjacency(gr_graph *g, const char *what) {
  const gr_csr *c = gr_graph_out(g);
  const uint64_t n = c->n;
  char *want = calloc(n * n + 1, 1);
  ck_assert_ptr_nonnull(want);
  for (uint64_t u = 0; u < n; u++)
    for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) {
      const gr_vid w = c->indices[e];
      if (w == u) continue;
      want[u * n + w] = want[(uint64_t)w * n + u] = 1;
    }
  for (int threads = 1; threads <= 2; threads++) {
    gr_eid *off = NULL;
    gr_vid *adj = NULL;
    ck_assert_int_eq(gr__symmetric_adjacency(&off, &adj, g, threads), GR_SUCCESS);
    ck_assert_uint_eq(off[0], 0);
    for (uint64_t v = 0; v < n; v++) {
      uint64_t k = off[v];
      for (uint64_t w = 0; w < n; w++) {
        if (!want[v * n + w]) continue;
        PT_CHECK_MSG(k < off[v + 1] && adj[k] == w, "%s: row %llu lacks %llu or has extra entries", what,
                     (unsigned long long)v, (unsigned long long)w);
        k++;
      }
      PT_CHECK_MSG(k == off[v + 1], "%s: row %llu has %llu extra entries", what, (unsigned long long)v,
                   (unsigned long long)(off[v + 1] - k));
    }
    free(off);
    free(adj);
  }
  free(want);
}

START_TEST(symmetric_adjacency_has_both_directions_without_loops_or_duplicates) {
  static const char *const sym_specs[] = {"uniform:8:8,directed", "kron:8:8", "kron:8:8,directed",
                                          "grid2d:5x7"};
  for (int i = 0; i < 4; i++) {
    gr_graph *g = pt_gen(sym_specs[i], false);
    check_symmetric_adjacency(g, sym_specs[i]);
    gr_graph_destroy(&g);
  }
  for (int undirected = 0; undirected <= 1; undirected++) {
    gr_graph *g = two_cliques(undirected);
    check_symmetric_adjacency(g, "two cliques");
    gr_graph_destroy(&g);
  }
  /* A directed graph with a self-loop, a duplicate arc and both directions
   * of one edge: row 0 is {1, 2}. */
  static const gr_vid e[][2] = {{0, 0}, {0, 1}, {0, 1}, {1, 0}, {2, 0}, {3, 3}};
  gr_graph *g = pt_edges(4, e, 6, false);
  ck_assert(gr_graph_is_directed(g));
  ck_assert_uint_eq(gr_graph_num_arcs(g), 6);
  check_symmetric_adjacency(g, "hand-made");
  gr_graph_destroy(&g);
  g = pt_karate();
  if (g) {
    check_symmetric_adjacency(g, "karate");
    gr_graph_destroy(&g);
  }
}
END_TEST

/* ---- allocation failures ------------------------------------------------------ */

/* Fails each allocation of a partition in turn: every failure is a clear
 * GR_ERR_HOST_OOM with no output (the ASan build proves nothing leaks). */
/* Duplicate-1-hop pays where each part plus its proxies is at most half the
 * graph: contiguous ranges of a grid (proxies are the boundary rows), not a
 * power-law graph split at random (nearly every vertex is a proxy). */
START_TEST(one_hop_pays_on_a_cut_grid_and_not_on_a_randomly_split_power_law_graph) {
  gr_graph *grid = pt_gen("grid2d:200x200", false);
  gr_partition *p = pt_partition(grid, GR_PART_RANGE, 4, 1, 0);
  ck_assert(gr_partition_1hop_pays(p));
  gr_partition_destroy(&p);
  p = pt_partition(grid, GR_PART_RANGE, 1, 1, 0); /* one part holds everything */
  ck_assert(!gr_partition_1hop_pays(p));
  gr_partition_destroy(&p);
  gr_graph_destroy(&grid);
  gr_graph *kron = pt_gen("kron:12:16", false);
  p = pt_partition(kron, GR_PART_RANDOM, 2, 1, 0);
  ck_assert(!gr_partition_1hop_pays(p));
  ck_assert_ptr_nonnull(p->part8);
  ck_assert_ptr_nonnull(p->adjacent);
  /* The derived tables follow owner after an update. */
  for (gr_vid v = 0; v < p->n; v++) p->owner[v] = v < p->n / 2 ? 0 : 1;
  ck_assert_int_eq(gr_partition_update(p, kron), GR_SUCCESS);
  for (gr_vid v = 0; v < p->n; v++) if (p->part8[v] != (uint8_t)p->owner[v]) ck_abort_msg("vertex %u", (unsigned)v);
  ck_assert_uint_eq(p->vertices[0], p->n / 2);
  gr_partition_destroy(&p);
  gr_graph_destroy(&kron);
}
END_TEST

START_TEST(every_allocation_failure_is_reported_and_cleaned_up) {
  const gr_partitioner_kind kind = kinds[_i % N_KINDS];
  gr_graph *g = pt_gen(_i / N_KINDS ? "uniform:7:4,directed" : "kron:7:4", false);
  const gr_csr *in = NULL;
  ck_assert_int_eq(gr_graph_in(g, &in), GR_SUCCESS); /* built now, not under the failures */
  static const int counts[] = {3, 70};
  for (int j = 0; j < 2; j++) {
    gr_partition_options o = GR_PARTITION_OPTIONS_INIT;
    o.kind = kind;
    o.parts = counts[j];
    long k = 0;
    for (;; k++) {
      gr_partition *p = NULL;
      pt_fail_alloc_after(k);
      gr_status st = gr_partition_create(&p, g, &o);
      pt_fail_alloc_after(-1);
      if (st == GR_SUCCESS) {
        check_owners(p, gr_graph_num_vertices(g), counts[j]);
        gr_partition_destroy(&p);
        break;
      }
      ck_assert_msg(st == GR_ERR_HOST_OOM, "%s, allocation %ld failing: %s (%s)", gr_partitioner_name(kind), k,
                    gr_status_name(st), gr_error_message());
      ck_assert_ptr_null(p);
      ck_assert_msg(strstr(gr_error_message(), "host memory"), "%s", gr_error_message());
    }
    ck_assert_msg(k >= 5, "%s: only %ld allocations seen", gr_partitioner_name(kind), k);
  }
  gr_graph_destroy(&g);
}
END_TEST

static Suite *partition_suite(void) {
  Suite *s = suite_create("partition");
  TCase *tc = tcase_create("arguments");
  tcase_add_test(tc, parse_accepts_every_name_and_round_trips);
  tcase_add_test(tc, parse_rejects_unknown_names_listing_the_valid_ones);
  tcase_add_test(tc, options_init_has_the_documented_defaults);
  tcase_add_test(tc, create_rejects_fewer_than_one_part);
  tcase_add_test(tc, create_rejects_more_parts_than_vertices);
  tcase_add_test(tc, create_rejects_bad_options);
  tcase_add_test(tc, create_takes_null_options_as_the_defaults);
  tcase_add_test(tc, every_partitioner_handles_an_empty_graph);
  tcase_add_test(tc, every_partitioner_handles_a_graph_without_edges);
  suite_add_tcase(s, tc);

  tc = tcase_create("owners");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, every_partitioner_gives_owners_in_range, 0, N_KINDS * N_SPECS);
  suite_add_tcase(s, tc);

  tc = tcase_create("determinism");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, same_seed_gives_the_same_owners_for_any_thread_count, 0, N_SEEDED * N_SPECS);
  tcase_add_loop_test(tc, different_seeds_give_different_owners, 0, 2 * N_SPECS);
  suite_add_tcase(s, tc);

  tc = tcase_create("balance");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, random_parts_are_within_3_percent_on_a_large_graph);
  tcase_add_test(tc, random_blocks_keep_their_ids_together);
  tcase_add_loop_test(tc, biased_parts_stay_within_the_capacity, 0, N_SPECS);
  tcase_add_loop_test(tc, static_and_range_parts_differ_by_at_most_one, 0, N_SPECS);
#ifdef GR_HAVE_METIS
  tcase_add_loop_test(tc, metis_balances_edges_within_the_imbalance, 0, N_SPECS);
#endif
  suite_add_tcase(s, tc);

  tc = tcase_create("report");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, report_matches_a_brute_force_recount, 0, N_KINDS * N_SMALL);
  tcase_add_test(tc, report_matches_a_brute_force_recount_on_karate);
  tcase_add_test(tc, print_gives_a_table_with_totals_and_the_cut);
  suite_add_tcase(s, tc);

  tc = tcase_create("cut");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, biased_cuts_far_fewer_edges_than_random_on_a_grid);
  tcase_add_test(tc, biased_cuts_fewer_edges_than_random_on_kron);
  tcase_add_test(tc, biased_parts_hold_a_balanced_share_of_the_arcs);
  suite_add_tcase(s, tc);

  tc = tcase_create("metis");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, symmetric_adjacency_has_both_directions_without_loops_or_duplicates);
#ifdef GR_HAVE_METIS
  tcase_add_test(tc, metis_splits_two_cliques_at_their_bridge);
  tcase_add_test(tc, metis_with_one_part_gives_all_zeros);
  tcase_add_test(tc, metis_cuts_fewer_edges_than_random_on_a_grid);
  tcase_add_test(tc, one_hop_pays_on_a_cut_grid_and_not_on_a_randomly_split_power_law_graph);
#else
  tcase_add_test(tc, metis_is_a_clear_error_in_a_build_without_it);
#endif
  suite_add_tcase(s, tc);

  tc = tcase_create("alloc_failure");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, every_allocation_failure_is_reported_and_cleaned_up, 0, 2 * N_KINDS);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return gr_test_run_suite(partition_suite(), 0); }
