/* SPDX-License-Identifier: Apache-2.0 */
/* Generator tests: the spec grammar and its errors, the canonical text,
 * seeded determinism across thread counts, exact sizes, grid structure and
 * the Kronecker distribution (skew, quadrant frequencies, permutation). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"
#include "gr/gen.h"
#include "gr/graph.h"
#include "testutil.h"

/* ---- helpers ------------------------------------------------------------ */

static gr_gen_spec parse_ok(const char *text) {
  gr_gen_spec s;
  gr_status st = gr_gen_parse(&s, text);
  ck_assert_msg(st == GR_SUCCESS, "parsing \"%s\" failed: %s", text, gr_error_message());
  return s;
}

static gr_coo gen_ok(const char *text, int threads) {
  gr_gen_spec s = parse_ok(text);
  gr_coo c = GR_COO_INIT;
  gr_status st = gr_gen_coo(&c, &s, threads);
  ck_assert_msg(st == GR_SUCCESS, "generating \"%s\" failed: %s", text, gr_error_message());
  return c;
}

/* Degrees counting both ends of every entry (a self-loop counts twice). */
static uint64_t *coo_degrees(const gr_coo *c) {
  uint64_t *deg = calloc(c->n, sizeof *deg);
  ck_assert_ptr_nonnull(deg);
  for (uint64_t e = 0; e < c->m; e++) {
    deg[c->src[e]]++;
    deg[c->dst[e]]++;
  }
  return deg;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static void spec_equal(const gr_gen_spec *x, const gr_gen_spec *y, const char *what) {
  ck_assert_msg(x->kind == y->kind && x->scale == y->scale && x->edge_factor == y->edge_factor &&
                    x->a == y->a && x->b == y->b && x->c == y->c && x->seed == y->seed &&
                    x->permute == y->permute && x->directed == y->directed &&
                    x->dims[0] == y->dims[0] && x->dims[1] == y->dims[1] &&
                    x->dims[2] == y->dims[2],
                "spec of \"%s\" changed on the round trip", what);
}

/* ---- parse ---------------------------------------------------------------- */

START_TEST(parse_accepts_kron_with_graph500_defaults) {
  gr_gen_spec s = parse_ok("kron:20");
  ck_assert_int_eq(s.kind, GR_GEN_KRONECKER);
  ck_assert_int_eq(s.scale, 20);
  ck_assert_double_eq(s.edge_factor, 16.0);
  ck_assert_double_eq(s.a, 0.57);
  ck_assert_double_eq(s.b, 0.19);
  ck_assert_double_eq(s.c, 0.19);
  ck_assert_uint_eq(s.seed, 1);
  ck_assert(s.permute);
  ck_assert(!s.directed);
}
END_TEST

START_TEST(parse_accepts_every_kron_option) {
  gr_gen_spec s = parse_ok("kron:12:4.5,a=0.6,b=0.1,c=0.2,seed=42,permute=0,directed");
  ck_assert_int_eq(s.scale, 12);
  ck_assert_double_eq(s.edge_factor, 4.5);
  ck_assert_double_eq(s.a, 0.6);
  ck_assert_double_eq(s.b, 0.1);
  ck_assert_double_eq(s.c, 0.2);
  ck_assert_uint_eq(s.seed, 42);
  ck_assert(!s.permute);
  ck_assert(s.directed);
  /* Options in any order, probabilities singly. */
  s = parse_ok("kron:9,seed=18446744073709551615,b=0.2,permute=1");
  ck_assert_uint_eq(s.seed, UINT64_MAX);
  ck_assert_double_eq(s.b, 0.2);
  ck_assert_double_eq(s.a, 0.57);
  ck_assert(s.permute);
  /* The probabilities may fill the whole square (d = 0). */
  s = parse_ok("kron:9,a=0.7,b=0.2,c=0.1");
  ck_assert_double_eq(s.c, 0.1);
}
END_TEST

START_TEST(parse_treats_rmat_as_kron) {
  gr_gen_spec s = parse_ok("rmat:10:8,seed=3");
  ck_assert_int_eq(s.kind, GR_GEN_KRONECKER);
  ck_assert_int_eq(s.scale, 10);
  ck_assert_double_eq(s.edge_factor, 8.0);
  ck_assert_uint_eq(s.seed, 3);
}
END_TEST

START_TEST(parse_accepts_uniform_and_grids) {
  gr_gen_spec s = parse_ok("uniform:16");
  ck_assert_int_eq(s.kind, GR_GEN_UNIFORM);
  ck_assert_int_eq(s.scale, 16);
  ck_assert_double_eq(s.edge_factor, 16.0);
  s = parse_ok("uniform:16:2,seed=3,directed");
  ck_assert_double_eq(s.edge_factor, 2.0);
  ck_assert_uint_eq(s.seed, 3);
  ck_assert(s.directed);
  s = parse_ok("grid2d:3x4");
  ck_assert_int_eq(s.kind, GR_GEN_GRID2D);
  ck_assert_uint_eq(s.dims[0], 3);
  ck_assert_uint_eq(s.dims[1], 4);
  s = parse_ok("grid3d:2x3x4");
  ck_assert_int_eq(s.kind, GR_GEN_GRID3D);
  ck_assert_uint_eq(s.dims[0], 2);
  ck_assert_uint_eq(s.dims[1], 3);
  ck_assert_uint_eq(s.dims[2], 4);
}
END_TEST

START_TEST(parse_accepts_the_largest_scale_of_the_id_width) {
  char text[32];
  snprintf(text, sizeof text, "kron:%d:0.0001", GR_VID_BITS - 1);
  gr_gen_spec s = parse_ok(text);
  ck_assert_int_eq(s.scale, GR_VID_BITS - 1);
}
END_TEST

static const struct {
  const char *text;
  const char *message; /* must appear in the error */
} bad_specs[] = {
    {"", "missing ':'"},
    {"kron", "missing ':'"},
    {"foo:10", "unknown kind \"foo\""},
    {"KRON:10", "unknown kind \"KRON\""},
    {"kron:", "missing scale"},
    {"kron:abc", "bad scale \"abc\""},
    {"kron:-3", "bad scale \"-3\""},
    {"kron: 10", "bad scale \" 10\""},
    {"kron:0", "scale 0 is out of range"},
    {"kron:99999999999999999999999", "scale 99999999999999999999999 is out of range"},
    {"uniform:200", "scale 200 is out of range"},
    {"kron:10:x", "bad edge factor \"x\""},
    {"kron:10:0", "bad edge factor \"0\""},
    {"kron:10:-1", "bad edge factor \"-1\""},
    {"kron:10:inf", "bad edge factor \"inf\""},
    {"kron:10:nan", "bad edge factor \"nan\""},
    {"kron:10:0x10", "bad edge factor \"0x10\""},
    {"kron:10:16 ", "bad edge factor \"16 \""},
    {"kron:10:", "bad edge factor \"\""},
    {"kron:10:16:3", "unexpected ':'"},
    {"kron:31:1e10", "more than 2^61"},
    {"kron:10,a=1.5", "a=1.5 is outside [0, 1]"},
    {"kron:10,c=2", "c=2 is outside [0, 1]"},
    {"kron:10,a=0.5,b=0.3,c=0.3", "sum to 1.1"},
    {"kron:10,a=x", "bad probability a=\"x\""},
    {"kron:10,b=-0.1", "bad probability b=\"-0.1\""},
    {"kron:10,seed=-1", "bad seed \"-1\""},
    {"kron:10,seed=18446744073709551616", "bad seed \"18446744073709551616\""},
    {"kron:10,seed=1x", "bad seed \"1x\""},
    {"kron:10,seed", "option seed needs a value"},
    {"kron:10,seed=", "option seed needs a value"},
    {"kron:10,permute=2", "bad permute \"2\""},
    {"kron:10,directed=1", "directed takes no value"},
    {"kron:10,frob=1", "unknown option \"frob\" for kron"},
    {"kron:10,seed=1,seed=2", "option seed given twice"},
    {"kron:10,", "empty option"},
    {"kron:10,,seed=2", "empty option"},
    {"uniform:10,a=0.5", "unknown option \"a\" for uniform"},
    {"uniform:10,permute=0", "unknown option \"permute\" for uniform"},
    {"grid2d:0x5", "zero dimension in \"0x5\""},
    {"grid3d:2x0x5", "zero dimension in \"2x0x5\""},
    {"grid2d:5", "bad dimensions \"5\""},
    {"grid2d:5x5x5", "bad dimensions \"5x5x5\""},
    {"grid3d:2x2", "bad dimensions \"2x2\""},
    {"grid2d:axb", "bad dimensions \"axb\""},
    {"grid2d:", "bad dimensions \"\""},
    {"grid2d:3x4,directed", "grid2d takes no options"},
    {"grid3d:3x4x5,seed=2", "grid3d takes no options"},
};

START_TEST(parse_rejects_bad_specs_naming_the_part) {
  const char *text = bad_specs[_i].text;
  gr_gen_spec s;
  gr_error_clear();
  gr_status st = gr_gen_parse(&s, text);
  ck_assert_msg(st == GR_ERR_INVALID_ARG, "\"%s\" gave %s, not GR_ERR_INVALID_ARG", text,
                gr_status_name(st));
  const char *msg = gr_error_message();
  ck_assert_msg(strstr(msg, bad_specs[_i].message) != NULL,
                "error for \"%s\" is \"%s\", which does not say \"%s\"", text, msg,
                bad_specs[_i].message);
  ck_assert_msg(strstr(msg, "generator spec") != NULL, "error \"%s\" does not name the spec",
                msg);
}
END_TEST

START_TEST(parse_rejects_scales_beyond_the_id_width) {
  char text[32], want[64];
  snprintf(text, sizeof text, "kron:%d", GR_VID_BITS);
  snprintf(want, sizeof want, "scale %d is out of range", GR_VID_BITS);
  gr_gen_spec s;
  ck_assert_int_eq(gr_gen_parse(&s, text), GR_ERR_INVALID_ARG);
  ck_assert_msg(strstr(gr_error_message(), want), "got \"%s\"", gr_error_message());
  snprintf(text, sizeof text, "uniform:%d", GR_VID_BITS);
  ck_assert_int_eq(gr_gen_parse(&s, text), GR_ERR_INVALID_ARG);
  ck_assert_msg(strstr(gr_error_message(), "out of range"), "got \"%s\"", gr_error_message());
}
END_TEST

START_TEST(parse_rejects_grids_beyond_the_id_range) {
  /* 2^16 x 2^16 fills 32-bit ids (the all-ones id is reserved); for 64-bit
   * ids a 3D grid of 2^22 per side passes 2^64. */
  const char *text = GR_VID_BITS == 32 ? "grid2d:65536x65536" : "grid3d:4194304x4194304x4194304";
  gr_gen_spec s;
  ck_assert_int_eq(gr_gen_parse(&s, text), GR_ERR_INVALID_ARG);
  ck_assert_msg(strstr(gr_error_message(), "overflows the") &&
                    strstr(gr_error_message(), "vertex-id range"),
                "got \"%s\"", gr_error_message());
  if (GR_VID_BITS == 32) {
    /* One below the limit is fine: 65535 * 65537 = 2^32 - 1 would not be. */
    parse_ok("grid2d:65535x65535");
    ck_assert_int_eq(gr_gen_parse(&s, "grid2d:65535x65537"), GR_ERR_INVALID_ARG);
  }
}
END_TEST

START_TEST(parse_rejects_null_arguments) {
  gr_gen_spec s;
  ck_assert_int_eq(gr_gen_parse(&s, NULL), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_gen_parse(NULL, "kron:4"), GR_ERR_INVALID_ARG);
}
END_TEST

/* ---- format ------------------------------------------------------------- */

static const struct {
  const char *text;
  const char *canonical;
} canon[] = {
    {"kron:22", "kron:22:16,a=0.57,b=0.19,c=0.19,seed=1"},
    {"rmat:10:8,permute=0,directed", "kron:10:8,a=0.57,b=0.19,c=0.19,seed=1,permute=0,directed"},
    {"kron:12:4.5,seed=9,c=0.1,a=0.6,b=0.2,permute=1",
     "kron:12:4.5,a=0.6,b=0.2,c=0.1,seed=9"},
    {"kron:5:0.1,a=0.30000000000000004", "kron:5:0.1,a=0.30000000000000004,b=0.19,c=0.19,seed=1"},
    {"uniform:5", "uniform:5:16,seed=1"},
    {"uniform:7:3,directed,seed=18446744073709551615",
     "uniform:7:3,seed=18446744073709551615,directed"},
    {"grid2d:3x4", "grid2d:3x4"},
    {"grid3d:2x3x4", "grid3d:2x3x4"},
};

START_TEST(format_gives_canonical_text_that_round_trips) {
  char out[256], again[256];
  gr_gen_spec s = parse_ok(canon[_i].text);
  gr_gen_format(&s, out, sizeof out);
  ck_assert_str_eq(out, canon[_i].canonical);
  gr_gen_spec t = parse_ok(out);
  spec_equal(&s, &t, canon[_i].text);
  gr_gen_format(&t, again, sizeof again);
  ck_assert_str_eq(again, out);
}
END_TEST

START_TEST(format_truncates_safely) {
  char small[8];
  gr_gen_spec s = parse_ok("kron:22");
  gr_gen_format(&s, small, sizeof small);
  ck_assert_str_eq(small, "kron:22");
}
END_TEST

/* ---- sizes ---------------------------------------------------------------- */

static void check_sizes(const char *text, uint64_t n, uint64_t m) {
  gr_coo c = gen_ok(text, 0);
  ck_assert_msg(c.n == n && c.m == m, "%s: %llu vertices, %llu edges; want %llu, %llu", text,
                (unsigned long long)c.n, (unsigned long long)c.m, (unsigned long long)n,
                (unsigned long long)m);
  ck_assert_int_eq(c.id_base, 0);
  ck_assert_ptr_null(c.orig_ids);
  ck_assert_ptr_null(c.w);
  for (uint64_t e = 0; e < c.m; e++)
    ck_assert_msg(c.src[e] < n && c.dst[e] < n, "%s: edge %llu (%llu, %llu) leaves [0, %llu)",
                  text, (unsigned long long)e, (unsigned long long)c.src[e],
                  (unsigned long long)c.dst[e], (unsigned long long)n);
  gr_coo_free(&c);
}

START_TEST(sizes_are_exact_and_ids_in_range) {
  check_sizes("kron:10", 1024, 16 * 1024);
  check_sizes("kron:9:3,permute=0", 512, 3 * 512);
  check_sizes("kron:8:2.5", 256, 640);
  check_sizes("kron:1:4", 2, 8);
  check_sizes("uniform:9:3", 512, 3 * 512);
  check_sizes("uniform:11", 2048, 16 * 2048);
  check_sizes("grid2d:7x5", 35, 7 * 4 + 6 * 5);
  check_sizes("grid2d:1x1", 1, 0);
  check_sizes("grid2d:1x9", 9, 8);
  check_sizes("grid2d:9x1", 9, 8);
  check_sizes("grid3d:3x4x5", 60, 3 * 4 * 4 + 3 * 3 * 5 + 2 * 4 * 5);
  check_sizes("grid3d:1x1x1", 1, 0);
  /* Enough edges to span several parallel chunks. */
  check_sizes("grid2d:300x400", 120000, 300 * 399 + 299 * 400);
  check_sizes("grid3d:40x50x60", 120000, 40 * 50 * 59 + 40 * 49 * 60 + 39 * 50 * 60);
}
END_TEST

START_TEST(generated_graphs_are_undirected_unless_asked) {
  gr_coo c = gen_ok("kron:6", 1);
  ck_assert(c.symmetric);
  gr_coo_free(&c);
  c = gen_ok("kron:6,directed", 1);
  ck_assert(!c.symmetric);
  gr_coo_free(&c);
  c = gen_ok("uniform:6,directed", 1);
  ck_assert(!c.symmetric);
  gr_coo_free(&c);
  c = gen_ok("grid3d:2x2x2", 1);
  ck_assert(c.symmetric);
  gr_coo_free(&c);
}
END_TEST

START_TEST(gen_coo_rejects_invalid_specs) {
  gr_gen_spec s = parse_ok("kron:10");
  gr_coo c = GR_COO_INIT;
  s.scale = GR_VID_BITS;
  ck_assert_int_eq(gr_gen_coo(&c, &s, 1), GR_ERR_INVALID_ARG);
  ck_assert_msg(strstr(gr_error_message(), "out of range"), "got \"%s\"", gr_error_message());
  s = parse_ok("kron:10");
  s.a = 0.9;
  ck_assert_int_eq(gr_gen_coo(&c, &s, 1), GR_ERR_INVALID_ARG);
  ck_assert_msg(strstr(gr_error_message(), "sum to"), "got \"%s\"", gr_error_message());
  s = parse_ok("grid3d:2x2x2");
  s.dims[1] = 0;
  ck_assert_int_eq(gr_gen_coo(&c, &s, 1), GR_ERR_INVALID_ARG);
  ck_assert_msg(strstr(gr_error_message(), "dimension 2 is zero"), "got \"%s\"",
                gr_error_message());
  s.kind = (gr_gen_kind)42;
  ck_assert_int_eq(gr_gen_coo(&c, &s, 1), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_gen_coo(&c, NULL, 1), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_gen_coo(NULL, &s, 1), GR_ERR_INVALID_ARG);
  ck_assert_ptr_null(c.src);
}
END_TEST

/* ---- determinism ---------------------------------------------------------- */

/* Each large enough to be split between threads; the grid last, as it has
 * no seed to vary. */
static const char *const seeded[] = {"kron:14:8,seed=7", "kron:13:16,permute=0,seed=7",
                                     "uniform:14:8,seed=7", "grid3d:40x50x60"};
#define SEEDED_RANDOM 3

START_TEST(same_seed_gives_same_graph_for_any_thread_count) {
  gr_coo one = gen_ok(seeded[_i], 1);
  const int teams[] = {2, 3, 0};
  for (int t = 0; t < 3; t++) {
    gr_coo many = gen_ok(seeded[_i], teams[t]);
    ck_assert_uint_eq(many.m, one.m);
    ck_assert_msg(memcmp(one.src, many.src, one.m * sizeof(gr_vid)) == 0 &&
                      memcmp(one.dst, many.dst, one.m * sizeof(gr_vid)) == 0,
                  "%s differs between 1 and %d threads", seeded[_i], teams[t]);
    gr_coo_free(&many);
  }
  gr_coo_free(&one);
}
END_TEST

START_TEST(different_seeds_give_different_graphs) {
  char other[64];
  snprintf(other, sizeof other, "%.*s8", (int)(strlen(seeded[_i]) - 1), seeded[_i]);
  gr_coo x = gen_ok(seeded[_i], 2);
  gr_coo y = gen_ok(other, 2);
  ck_assert_uint_eq(x.m, y.m);
  uint64_t same = 0;
  for (uint64_t e = 0; e < x.m; e++) same += x.src[e] == y.src[e] && x.dst[e] == y.dst[e];
  /* Unpermuted Kronecker edges pile up on low ids, so some coincide. */
  ck_assert_msg(same < x.m / 4, "%s and %s share %llu of %llu edges", seeded[_i], other,
                (unsigned long long)same, (unsigned long long)x.m);
  gr_coo_free(&x);
  gr_coo_free(&y);
}
END_TEST

/* ---- grids ---------------------------------------------------------------- */

START_TEST(grid2d_lists_right_then_down_edges) {
  gr_coo c = gen_ok("grid2d:2x3", 1);
  const gr_vid want[][2] = {{0, 1}, {1, 2}, {3, 4}, {4, 5}, {0, 3}, {1, 4}, {2, 5}};
  ck_assert_uint_eq(c.m, 7);
  for (uint64_t e = 0; e < 7; e++)
    ck_assert_msg(c.src[e] == want[e][0] && c.dst[e] == want[e][1],
                  "edge %llu is (%llu, %llu), want (%llu, %llu)", (unsigned long long)e,
                  (unsigned long long)c.src[e], (unsigned long long)c.dst[e],
                  (unsigned long long)want[e][0], (unsigned long long)want[e][1]);
  gr_coo_free(&c);
}
END_TEST

static void check_grid_degrees(const char *text, uint64_t nx, uint64_t ny, uint64_t nz) {
  gr_coo c = gen_ok(text, 2);
  uint64_t *deg = coo_degrees(&c);
  for (uint64_t e = 0; e < c.m; e++) {
    uint64_t d = (uint64_t)c.dst[e] - (uint64_t)c.src[e];
    ck_assert_msg(d == 1 || d == nz || d == ny * nz, "%s: edge (%llu, %llu) joins no neighbours",
                  text, (unsigned long long)c.src[e], (unsigned long long)c.dst[e]);
  }
  for (uint64_t x = 0; x < nx; x++)
    for (uint64_t y = 0; y < ny; y++)
      for (uint64_t z = 0; z < nz; z++) {
        uint64_t want = (uint64_t)(x > 0) + (x + 1 < nx) + (y > 0) + (y + 1 < ny) + (z > 0) +
                        (z + 1 < nz);
        uint64_t v = (x * ny + y) * nz + z;
        ck_assert_msg(deg[v] == want, "%s: vertex (%llu, %llu, %llu) has degree %llu, want %llu",
                      text, (unsigned long long)x, (unsigned long long)y, (unsigned long long)z,
                      (unsigned long long)deg[v], (unsigned long long)want);
      }
  free(deg);
  gr_coo_free(&c);
}

START_TEST(grid_degrees_match_the_neighbourhood) {
  check_grid_degrees("grid2d:6x7", 1, 6, 7);
  check_grid_degrees("grid2d:1x5", 1, 1, 5);
  check_grid_degrees("grid3d:3x4x5", 3, 4, 5);
  check_grid_degrees("grid3d:5x1x2", 5, 1, 2);
  check_grid_degrees("grid2d:257x300", 1, 257, 300);
}
END_TEST

START_TEST(grid2d_built_graph_has_corner_2_interior_4) {
  gr_gen_spec s = parse_ok("grid2d:5x6");
  gr_graph *g = NULL;
  gr_status st = gr_gen_graph(&g, &s, NULL);
  ck_assert_msg(st == GR_SUCCESS, "gr_gen_graph: %s", gr_error_message());
  ck_assert_uint_eq(gr_graph_num_vertices(g), 30);
  ck_assert_uint_eq(gr_graph_num_edges(g), 5 * 5 + 4 * 6);
  ck_assert(!gr_graph_is_directed(g));
  ck_assert_str_eq(gr_graph_name(g), "grid2d:5x6");
  const gr_csr *out = gr_graph_out(g);
  ck_assert_uint_eq(gr_csr_degree(out, 0), 2);
  ck_assert_uint_eq(gr_csr_degree(out, 5), 2);
  ck_assert_uint_eq(gr_csr_degree(out, 24), 2);
  ck_assert_uint_eq(gr_csr_degree(out, 29), 2);
  ck_assert_uint_eq(gr_csr_degree(out, 2), 3);
  ck_assert_uint_eq(gr_csr_degree(out, 6 + 1), 4);
  ck_assert_uint_eq(gr_csr_degree(out, 3 * 6 + 4), 4);
  gr_graph_destroy(&g);
  ck_assert_ptr_null(g);
}
END_TEST

START_TEST(grid3d_built_graph_has_corner_3_interior_6) {
  gr_gen_spec s = parse_ok("grid3d:3x4x5");
  gr_graph *g = NULL;
  gr_status st = gr_gen_graph(&g, &s, NULL);
  ck_assert_msg(st == GR_SUCCESS, "gr_gen_graph: %s", gr_error_message());
  ck_assert_uint_eq(gr_graph_num_edges(g), 3 * 4 * 4 + 3 * 3 * 5 + 2 * 4 * 5);
  const gr_csr *out = gr_graph_out(g);
  ck_assert_uint_eq(gr_csr_degree(out, 0), 3);
  ck_assert_uint_eq(gr_csr_degree(out, 59), 3);
  ck_assert_uint_eq(gr_csr_degree(out, (1 * 4 + 1) * 5 + 1), 6);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(kron_built_graph_is_named_by_its_canonical_spec) {
  gr_gen_spec s = parse_ok("rmat:10:4,seed=5");
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  o.threads = 2;
  gr_graph *g = NULL;
  gr_status st = gr_gen_graph(&g, &s, &o);
  ck_assert_msg(st == GR_SUCCESS, "gr_gen_graph: %s", gr_error_message());
  ck_assert_str_eq(gr_graph_name(g), "kron:10:4,a=0.57,b=0.19,c=0.19,seed=5");
  ck_assert_uint_eq(gr_graph_num_vertices(g), 1024);
  /* Self-loops and repeats go, so at most the generated count remains. */
  ck_assert_uint_le(gr_graph_num_edges(g), 4 * 1024);
  ck_assert_uint_gt(gr_graph_num_edges(g), 2 * 1024);
  ck_assert(!gr_graph_is_directed(g));
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(gen_graph_rejects_invalid_specs) {
  gr_gen_spec s = parse_ok("kron:10");
  s.c = -0.5;
  gr_graph *g = (gr_graph *)&s;
  ck_assert_int_eq(gr_gen_graph(&g, &s, NULL), GR_ERR_INVALID_ARG);
  ck_assert_ptr_null(g);
  ck_assert_msg(strstr(gr_error_message(), "c=-0.5 is outside"), "got \"%s\"",
                gr_error_message());
}
END_TEST

/* ---- Kronecker distribution ------------------------------------------------ */

START_TEST(kron_degrees_are_skewed) {
  gr_coo c = gen_ok("kron:14", 0);
  uint64_t *deg = coo_degrees(&c);
  uint64_t max = 0;
  for (uint64_t v = 0; v < c.n; v++)
    if (deg[v] > max) max = deg[v];
  const double avg = 2.0 * (double)c.m / (double)c.n;
  ck_assert_msg((double)max > 20.0 * avg, "max degree %llu is not 20x the average %.1f",
                (unsigned long long)max, avg);
  free(deg);
  gr_coo_free(&c);
}
END_TEST

START_TEST(uniform_degrees_are_not_skewed) {
  gr_coo c = gen_ok("uniform:12", 0);
  uint64_t *deg = coo_degrees(&c);
  uint64_t max = 0, top = 0;
  for (uint64_t v = 0; v < c.n; v++) {
    if (deg[v] > max) max = deg[v];
  }
  for (uint64_t e = 0; e < c.m; e++) top += c.src[e] < c.n / 2;
  const double avg = 2.0 * (double)c.m / (double)c.n;
  ck_assert_msg((double)max < 2.5 * avg, "max degree %llu for average %.1f",
                (unsigned long long)max, avg);
  ck_assert_msg(fabs((double)top / (double)c.m - 0.5) < 0.01, "%llu of %llu sources in the low half",
                (unsigned long long)top, (unsigned long long)c.m);
  free(deg);
  gr_coo_free(&c);
}
END_TEST

START_TEST(kron_with_a_1_puts_every_edge_on_one_vertex) {
  gr_coo c = gen_ok("kron:10:4,a=1,b=0,c=0,permute=0", 2);
  for (uint64_t e = 0; e < c.m; e++)
    ck_assert_msg(c.src[e] == 0 && c.dst[e] == 0, "edge %llu is (%llu, %llu)",
                  (unsigned long long)e, (unsigned long long)c.src[e],
                  (unsigned long long)c.dst[e]);
  gr_coo_free(&c);
  /* Permuted, vertex 0 becomes one other vertex, the same for all edges. */
  c = gen_ok("kron:10:4,a=1,b=0,c=0", 2);
  for (uint64_t e = 0; e < c.m; e++)
    ck_assert(c.src[e] == c.src[0] && c.dst[e] == c.src[0]);
  gr_coo_free(&c);
  /* d = 1: every edge at the last vertex. */
  c = gen_ok("kron:10:4,a=0,b=0,c=0,permute=0", 2);
  for (uint64_t e = 0; e < c.m; e++) ck_assert(c.src[e] == 1023 && c.dst[e] == 1023);
  gr_coo_free(&c);
}
END_TEST

static void check_quadrants(const char *text, double a, double b, double c) {
  gr_coo g = gen_ok(text, 2);
  const gr_vid half = (gr_vid)(g.n / 2);
  uint64_t count[4] = {0, 0, 0, 0};
  for (uint64_t e = 0; e < g.m; e++) count[2 * (g.src[e] >= half) + (g.dst[e] >= half)]++;
  const double want[4] = {a, b, c, 1.0 - a - b - c};
  for (int q = 0; q < 4; q++) {
    double got = (double)count[q] / (double)g.m;
    ck_assert_msg(fabs(got - want[q]) < 0.01, "%s: quadrant %d holds %.4f of the edges, want %.4f",
                  text, q, got, want[q]);
  }
  gr_coo_free(&g);
}

START_TEST(kron_top_level_quadrants_follow_the_probabilities) {
  check_quadrants("kron:12,permute=0", 0.57, 0.19, 0.19);
  check_quadrants("kron:12,a=0.4,b=0.3,c=0.2,permute=0", 0.4, 0.3, 0.2);
  check_quadrants("kron:11,a=0.25,b=0.25,c=0.25,permute=0,seed=5", 0.25, 0.25, 0.25);
}
END_TEST

START_TEST(kron_permutation_only_relabels) {
  /* Same seed with and without the permutation: the same degree multiset,
   * and the permuted graph is the unpermuted one relabelled. */
  gr_coo plain = gen_ok("kron:11:8,seed=3,permute=0", 2);
  gr_coo perm = gen_ok("kron:11:8,seed=3", 2);
  gr__gen_perm p;
  gr__gen_perm_init(&p, 11, 3);
  uint64_t moved = 0;
  for (uint64_t e = 0; e < plain.m; e++) {
    ck_assert(perm.src[e] == gr__gen_perm_apply(&p, plain.src[e]));
    ck_assert(perm.dst[e] == gr__gen_perm_apply(&p, plain.dst[e]));
    moved += perm.src[e] != plain.src[e];
  }
  ck_assert_msg(moved > plain.m / 2, "only %llu of %llu sources moved", (unsigned long long)moved,
                (unsigned long long)plain.m);
  uint64_t *d1 = coo_degrees(&plain), *d2 = coo_degrees(&perm);
  qsort(d1, plain.n, sizeof *d1, cmp_u64);
  qsort(d2, perm.n, sizeof *d2, cmp_u64);
  ck_assert(memcmp(d1, d2, plain.n * sizeof *d1) == 0);
  free(d1);
  free(d2);
  gr_coo_free(&plain);
  gr_coo_free(&perm);
}
END_TEST

START_TEST(permutation_is_a_bijection_for_every_small_scale) {
  for (int scale = 1; scale <= 16; scale++) {
    const uint64_t n = 1ull << scale;
    unsigned char *hit = calloc(n, 1);
    ck_assert_ptr_nonnull(hit);
    gr__gen_perm p, q;
    gr__gen_perm_init(&p, scale, 99);
    gr__gen_perm_init(&q, scale, 100);
    uint64_t fixed = 0, same = 0;
    for (uint64_t v = 0; v < n; v++) {
      uint64_t w = gr__gen_perm_apply(&p, v);
      ck_assert_msg(w < n && !hit[w], "scale %d: %llu maps to %llu twice or out of range", scale,
                    (unsigned long long)v, (unsigned long long)w);
      hit[w] = 1;
      fixed += w == v;
      same += w == gr__gen_perm_apply(&q, v);
    }
    if (scale >= 8) {
      ck_assert_msg(fixed < n / 16, "scale %d: %llu fixed points", scale,
                    (unsigned long long)fixed);
      ck_assert_msg(same < n / 16, "scale %d: seeds 99 and 100 agree on %llu vertices", scale,
                    (unsigned long long)same);
    }
    free(hit);
  }
}
END_TEST

START_TEST(permutation_spreads_neighbouring_ids) {
  /* Graph500 scrambles labels so that hubs (low unpermuted ids) land all
   * over the range: ids 0..63 must not stay in a narrow band. */
  gr__gen_perm p;
  gr__gen_perm_init(&p, 20, 1);
  uint64_t lo = UINT64_MAX, hi = 0;
  for (uint64_t v = 0; v < 64; v++) {
    uint64_t w = gr__gen_perm_apply(&p, v);
    if (w < lo) lo = w;
    if (w > hi) hi = w;
  }
  ck_assert_msg(hi - lo > (1u << 19), "ids 0..63 land in [%llu, %llu]", (unsigned long long)lo,
                (unsigned long long)hi);
}
END_TEST

static Suite *gen_suite(void) {
  Suite *s = suite_create("gen");
  TCase *tc = tcase_create("parse");
  tcase_add_test(tc, parse_accepts_kron_with_graph500_defaults);
  tcase_add_test(tc, parse_accepts_every_kron_option);
  tcase_add_test(tc, parse_treats_rmat_as_kron);
  tcase_add_test(tc, parse_accepts_uniform_and_grids);
  tcase_add_test(tc, parse_accepts_the_largest_scale_of_the_id_width);
  tcase_add_loop_test(tc, parse_rejects_bad_specs_naming_the_part, 0,
                      (int)(sizeof bad_specs / sizeof bad_specs[0]));
  tcase_add_test(tc, parse_rejects_scales_beyond_the_id_width);
  tcase_add_test(tc, parse_rejects_grids_beyond_the_id_range);
  tcase_add_test(tc, parse_rejects_null_arguments);
  suite_add_tcase(s, tc);

  tc = tcase_create("format");
  tcase_add_loop_test(tc, format_gives_canonical_text_that_round_trips, 0,
                      (int)(sizeof canon / sizeof canon[0]));
  tcase_add_test(tc, format_truncates_safely);
  suite_add_tcase(s, tc);

  tc = tcase_create("sizes");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, sizes_are_exact_and_ids_in_range);
  tcase_add_test(tc, generated_graphs_are_undirected_unless_asked);
  tcase_add_test(tc, gen_coo_rejects_invalid_specs);
  suite_add_tcase(s, tc);

  tc = tcase_create("determinism");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, same_seed_gives_same_graph_for_any_thread_count, 0,
                      (int)(sizeof seeded / sizeof seeded[0]));
  tcase_add_loop_test(tc, different_seeds_give_different_graphs, 0, SEEDED_RANDOM);
  suite_add_tcase(s, tc);

  tc = tcase_create("grid");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, grid2d_lists_right_then_down_edges);
  tcase_add_test(tc, grid_degrees_match_the_neighbourhood);
  suite_add_tcase(s, tc);

  tc = tcase_create("build");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, grid2d_built_graph_has_corner_2_interior_4);
  tcase_add_test(tc, grid3d_built_graph_has_corner_3_interior_6);
  tcase_add_test(tc, kron_built_graph_is_named_by_its_canonical_spec);
  tcase_add_test(tc, gen_graph_rejects_invalid_specs);
  suite_add_tcase(s, tc);

  tc = tcase_create("distribution");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, kron_degrees_are_skewed);
  tcase_add_test(tc, uniform_degrees_are_not_skewed);
  tcase_add_test(tc, kron_with_a_1_puts_every_edge_on_one_vertex);
  tcase_add_test(tc, kron_top_level_quadrants_follow_the_probabilities);
  tcase_add_test(tc, kron_permutation_only_relabels);
  tcase_add_test(tc, permutation_is_a_bijection_for_every_small_scale);
  tcase_add_test(tc, permutation_spreads_neighbouring_ids);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return gr_test_run_suite(gen_suite(), 0); }
