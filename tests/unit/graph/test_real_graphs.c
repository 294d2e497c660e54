/* SPDX-License-Identifier: Apache-2.0 */
/* The real graphs beside the checkout (skipped with a reason when absent):
 * the counts their README gives, self-loops kept in directed graphs and
 * dropped in undirected ones, symmetric adjacency, thread-count independence,
 * and the cache giving back exactly the cold load. Load times are printed
 * for the record, never asserted. Caches go to the scratch folder only. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "graph_test.h"

static const char *cache_dir(void) {
  static char path[4096];
  snprintf(path, sizeof path, "%s/%d-real-cache", gr_test_tmp_dir(), (int)getpid());
  mkdir(path, 0777);
  return path;
}

/* The path of a data file, or NULL (with the reason printed) to skip. */
static const char *real_path(char *buf, size_t len, const char *name) {
#ifndef GR_HAVE_ZLIB
  size_t n = strlen(name);
  if (n > 3 && !strcmp(name + n - 3, ".gz")) {
    fprintf(stderr, "skip: %s needs zlib, which this build lacks\n", name);
    return NULL;
  }
#endif
  return gr_test_data_file(buf, len, name);
}

/* Loads a data file cold (cache in scratch), or returns NULL to skip. */
static gr_graph *load_real(const char *name, gr_load_options *o) {
  char buf[4096];
  const char *path = real_path(buf, sizeof buf, name);
  if (!path) return NULL;
  o->use_cache = true;
  o->cache_dir = cache_dir();
  return gt_load_path(path, o);
}

static gr_eid max_degree(const gr_csr *c) {
  gr_eid d = 0;
  for (gr_vid v = 0; v < c->n; v++)
    if (gr_csr_degree(c, v) > d) d = gr_csr_degree(c, v);
  return d;
}

/* Every arc u -> v has its v -> u (rows are sorted: binary search). */
static void check_symmetric(const gr_csr *c) {
  for (gr_vid u = 0; u < c->n; u++)
    for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) {
      gr_vid v = c->indices[e];
      gr_eid lo = c->offsets[v], hi = c->offsets[v + 1];
      while (lo < hi) {
        gr_eid mid = lo + (hi - lo) / 2;
        if (c->indices[mid] < u) lo = mid + 1;
        else hi = mid;
      }
      GT_REQUIRE(lo < c->offsets[v + 1] && c->indices[lo] == u, "arc %u -> %u has no reverse",
                 (unsigned)u, (unsigned)v);
    }
}

static void expect(const char *name, bool directed, uint64_t n, uint64_t edges, uint64_t loops) {
  gr_load_options o = gt_options();
  gr_graph *g = load_real(name, &o);
  if (!g) return;
  const gr_csr *c = gr_graph_out(g);
  gt_check_csr(c);
  ck_assert_int_eq(gr_graph_is_directed(g), directed);
  ck_assert_uint_eq(gr_graph_num_vertices(g), n);
  ck_assert_uint_eq(gr_graph_num_edges(g), edges);
  ck_assert_uint_eq(gt_self_loops(c), loops);
  if (!directed) check_symmetric(c);
  ck_assert_str_eq(gr_graph_name(g), name);
  gr_graph_destroy(&g);
}

START_TEST(real_karate_is_undirected_with_34_vertices_and_78_edges) {
  gr_load_options o = gt_options();
  gr_graph *g = load_real("karate.mtx", &o);
  if (!g) return;
  const gr_csr *c = gr_graph_out(g);
  ck_assert(!gr_graph_is_directed(g));
  ck_assert_uint_eq(gr_graph_num_vertices(g), 34);
  ck_assert_uint_eq(gr_graph_num_edges(g), 78);
  ck_assert_uint_eq(gr_graph_num_arcs(g), 156);
  /* The instructor (1) and the administrator (34) are the hubs. */
  ck_assert_uint_eq(gr_csr_degree(c, 0), 16);
  ck_assert_uint_eq(gr_csr_degree(c, 33), 17);
  ck_assert_uint_eq(gr_graph_original_id(g, 33), 34);
  check_symmetric(c);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(real_undirected_graphs_have_their_published_counts) {
  expect("email-enron.mtx.gz", false, 36692, 183831, 0);
  /* 14 self-loops in the file go by default. */
  expect("ego-twitter.mtx.gz", false, 81306, 1342310 - 14, 0);
  expect("luxembourg_osm.mtx.gz", false, 114599, 119666, 0);
}
END_TEST

START_TEST(real_directed_graphs_keep_their_self_loops) {
  expect("cit-hepph.mtx.gz", true, 34546, 421578, 44);
  expect("soc-slashdot0902.mtx.gz", true, 82168, 948464, 78303);
}
END_TEST

START_TEST(real_web_graphs_have_their_published_degrees) {
  gr_load_options o = gt_options();
  gr_graph *g = load_real("uk-2007-05-100k.mtx.gz", &o);
  if (g) {
    ck_assert_uint_eq(gr_graph_num_vertices(g), 100000);
    ck_assert_uint_eq(gr_graph_num_arcs(g), 3050615);
    ck_assert_uint_eq(gt_self_loops(gr_graph_out(g)), 15670);
    ck_assert_uint_eq(max_degree(gr_graph_out(g)), 3753);
    gr_graph_destroy(&g);
  }
  o = gt_options();
  g = load_real("cnr-2000.mtx.gz", &o);
  if (g) {
    ck_assert_uint_eq(gr_graph_num_vertices(g), 325557);
    ck_assert_uint_eq(gr_graph_num_arcs(g), 3216152);
    ck_assert_uint_eq(gt_self_loops(gr_graph_out(g)), 87442);
    ck_assert_uint_eq(max_degree(gr_graph_out(g)), 2716);
    gr_graph_destroy(&g);
  }
}
END_TEST

START_TEST(real_directed_graph_made_undirected_is_symmetric_without_loops) {
  gr_load_options o = gt_options();
  o.undirected = true;
  gr_graph *g = load_real("cit-hepph.mtx.gz", &o);
  if (!g) return;
  ck_assert(!gr_graph_is_directed(g));
  ck_assert_uint_eq(gt_self_loops(gr_graph_out(g)), 0);
  check_symmetric(gr_graph_out(g));
  ck_assert_uint_le(gr_graph_num_edges(g), 421578 - 44);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(real_csc_matches_the_in_degrees) {
  gr_load_options o = gt_options();
  gr_graph *g = load_real("soc-slashdot0902.mtx.gz", &o);
  if (!g) return;
  const gr_csr *out = gr_graph_out(g), *in = NULL;
  ck_assert_int_eq(gr_graph_in(g, &in), GR_SUCCESS);
  gt_check_csr(in);
  gr_eid *deg = calloc(out->n, sizeof *deg);
  for (gr_eid e = 0; e < out->m; e++) deg[out->indices[e]]++;
  for (gr_vid v = 0; v < out->n; v++)
    GT_REQUIRE(gr_csr_degree(in, v) == deg[v], "in-degree of %u is wrong", (unsigned)v);
  free(deg);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(real_loads_are_identical_with_one_and_several_threads) {
  char buf[4096];
  const char *path = real_path(buf, sizeof buf, "cit-hepph.mtx.gz");
  if (!path) return;
  gr_load_options o = gt_options();
  o.threads = 1;
  gr_graph *a = gt_load_path(path, &o);
  o.threads = 4;
  gr_graph *b = gt_load_path(path, &o);
  gt_csr_equal(gr_graph_out(a), gr_graph_out(b));
  gr_graph_destroy(&a);
  gr_graph_destroy(&b);
  o.undirected = true;
  ck_assert_int_eq(gr_weight_spec_parse(&o.weights, "random:1:64"), GR_SUCCESS);
  o.threads = 1;
  a = gt_load_path(path, &o);
  o.threads = 4;
  b = gt_load_path(path, &o);
  gt_csr_equal(gr_graph_out(a), gr_graph_out(b));
  gr_graph_destroy(&a);
  gr_graph_destroy(&b);
}
END_TEST

/* Cold load, then from the cache: the same arrays, and the times. */
static void cold_and_cached(const char *name) {
  gr_load_options o = gt_options();
  gr_graph *a = load_real(name, &o);
  if (!a) return;
  gr_graph *b = load_real(name, &o);
  ck_assert(!gr_graph_from_cache(a));
  ck_assert(gr_graph_from_cache(b));
  gt_csr_equal(gr_graph_out(a), gr_graph_out(b));
  ck_assert_uint_eq(gr_graph_num_edges(a), gr_graph_num_edges(b));
  fprintf(stderr, "note: %s: cold load %.3f s, from cache %.3f s (%d threads)\n", name,
          gr_graph_load_seconds(a), gr_graph_load_seconds(b), gr_host_threads());
  gr_graph_destroy(&a);
  gr_graph_destroy(&b);
}

START_TEST(real_cache_gives_back_the_cold_load) {
  cold_and_cached("karate.mtx");
  cold_and_cached("cnr-2000.mtx.gz");
  cold_and_cached("uk-2007-05-100k.mtx.gz");
}
END_TEST

START_TEST(real_mtx_written_and_read_back_is_the_same_graph) {
  gr_load_options o = gt_options();
  gr_graph *g = load_real("email-enron.mtx.gz", &o);
  if (!g) return;
  char path[4096];
  snprintf(path, sizeof path, "%s/%d-enron.mtx", gr_test_tmp_dir(), (int)getpid());
  ck_assert_int_eq(gr_graph_save_mtx(g, path), GR_SUCCESS);
  gr_load_options p = gt_options();
  gr_graph *h = gt_load_path(path, &p);
  gt_csr_equal(gr_graph_out(g), gr_graph_out(h));
  unlink(path);
  gr_graph_destroy(&g);
  gr_graph_destroy(&h);
}
END_TEST

static Suite *real_suite(void) {
  Suite *s = suite_create("graph_real_data");
  TCase *counts = gt_tcase("counts");
  tcase_set_timeout(counts, 300);
  tcase_add_test(counts, real_karate_is_undirected_with_34_vertices_and_78_edges);
  tcase_add_test(counts, real_undirected_graphs_have_their_published_counts);
  tcase_add_test(counts, real_directed_graphs_keep_their_self_loops);
  tcase_add_test(counts, real_web_graphs_have_their_published_degrees);
  tcase_add_test(counts, real_directed_graph_made_undirected_is_symmetric_without_loops);
  tcase_add_test(counts, real_csc_matches_the_in_degrees);
  suite_add_tcase(s, counts);

  TCase *same = gt_tcase("reproducible");
  tcase_set_timeout(same, 300);
  tcase_add_test(same, real_loads_are_identical_with_one_and_several_threads);
  tcase_add_test(same, real_cache_gives_back_the_cold_load);
  tcase_add_test(same, real_mtx_written_and_read_back_is_the_same_graph);
  suite_add_tcase(s, same);
  return s;
}

int main(void) { return gr_test_run_suite(real_suite(), 0); }
