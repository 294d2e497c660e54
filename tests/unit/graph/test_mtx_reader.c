/* SPDX-License-Identifier: Apache-2.0 */
/* Matrix Market reader: the kinds accepted and rejected, file layout
 * (comments, blank lines, CRLF, non-square), gzip input, every malformed
 * input with its exact status and message, size limits, and parallel
 * parsing that does not depend on the thread count. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef GR_HAVE_ZLIB
#include <zlib.h>
#endif

#include "graph_test.h"

#define BANNER_PG "%%MatrixMarket matrix coordinate pattern general\n"
#define BANNER_PS "%%MatrixMarket matrix coordinate pattern symmetric\n"

/* ---- kinds ----------------------------------------------------------------- */

START_TEST(mtx_reads_pattern_general_as_directed) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("pg.mtx", BANNER_PG "3 3 3\n1 2\n2 3\n3 1\n", &o);
  ck_assert(gr_graph_is_directed(g));
  ck_assert(!gr_graph_has_weights(g));
  ck_assert_uint_eq(gr_graph_num_vertices(g), 3);
  ck_assert_uint_eq(gr_graph_num_edges(g), 3);
  ck_assert_str_eq(gt_graph_text(g), "0:1 1:2 2:0");
  gr_graph_destroy(&g);
  ck_assert_ptr_null(g);
}
END_TEST

START_TEST(mtx_reads_pattern_symmetric_as_undirected) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("ps.mtx", BANNER_PS "3 3 2\n2 1\n3 2\n", &o);
  ck_assert(!gr_graph_is_directed(g));
  ck_assert_uint_eq(gr_graph_num_arcs(g), 4);
  ck_assert_uint_eq(gr_graph_num_edges(g), 2);
  ck_assert_str_eq(gt_graph_text(g), "0:1 1:0,2 2:1");
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(mtx_reads_integer_values_as_weights) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("int.mtx",
                             "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 7\n2 1 -3\n", &o);
  ck_assert(gr_graph_has_weights(g));
  ck_assert_str_eq(gt_csr_text(gr_graph_out(g), true), "0:1(7) 1:0(-3)");
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(mtx_reads_real_values_symmetric_on_both_arcs) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("real.mtx",
                             "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 1.5e0\n3 1 -0.25\n", &o);
  ck_assert_str_eq(gt_csr_text(gr_graph_out(g), true), "0:1(1.5),2(-0.25) 1:0(1.5) 2:0(-0.25)");
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(mtx_accepts_double_field_and_any_case) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("case.mtx", "%%matrixmarket MATRIX Coordinate Double GENERAL\n2 2 1\n1 2 4\n", &o);
  ck_assert(gr_graph_has_weights(g));
  ck_assert_str_eq(gt_csr_text(gr_graph_out(g), true), "0:1(4) 1:");
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(mtx_weights_none_drops_file_values) {
  gr_load_options o = gt_options();
  o.weights.kind = GR_WEIGHTS_NONE;
  gr_graph *g = gt_load_text("drop.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 4\n", &o);
  ck_assert(!gr_graph_has_weights(g));
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(mtx_rejects_array_files) {
  gt_load_fails("array.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n",
                GR_ERR_BAD_INPUT, "'array'");
}
END_TEST

START_TEST(mtx_rejects_complex_files) {
  gt_load_fails("complex.mtx", "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1 1\n",
                GR_ERR_BAD_INPUT, "'complex' files are not supported");
}
END_TEST

START_TEST(mtx_rejects_skew_symmetric_files) {
  gt_load_fails("skew.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 1\n",
                GR_ERR_BAD_INPUT, "'skew-symmetric' files are not supported");
}
END_TEST

START_TEST(mtx_rejects_hermitian_files) {
  gt_load_fails("herm.mtx", "%%MatrixMarket matrix coordinate complex hermitian\n2 2 1\n2 1 1 0\n",
                GR_ERR_BAD_INPUT, "complex");
  gt_load_fails("herm2.mtx", "%%MatrixMarket matrix coordinate real hermitian\n2 2 1\n2 1 1\n",
                GR_ERR_BAD_INPUT, "'hermitian' files are not supported");
}
END_TEST

START_TEST(mtx_rejects_unknown_banner_words) {
  gt_load_fails("f.mtx", "%%MatrixMarket matrix coordinate colour general\n1 1 0\n", GR_ERR_BAD_INPUT,
                "unknown Matrix Market field 'colour'");
  gt_load_fails("s.mtx", "%%MatrixMarket matrix coordinate pattern lopsided\n1 1 0\n", GR_ERR_BAD_INPUT,
                "unknown Matrix Market symmetry 'lopsided'");
  gt_load_fails("v.mtx", "%%MatrixMarket vector coordinate pattern general\n1 1 0\n", GR_ERR_BAD_INPUT,
                "object 'vector'");
  gt_load_fails("i.mtx", "%%MatrixMarket matrix coordinate pattern\n1 1 0\n", GR_ERR_BAD_INPUT,
                "incomplete header");
}
END_TEST

/* ---- layout ---------------------------------------------------------------- */

START_TEST(mtx_skips_comments_blank_lines_and_crlf) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("layout.mtx",
                             BANNER_PG "% a comment\n\n   \n%another\r\n3 3 3\r\n\n1 2\r\n% inside\n  2   3  \n\t3\t1\n\n\n",
                             &o);
  ck_assert_str_eq(gt_graph_text(g), "0:1 1:2 2:0");
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(mtx_reads_a_last_line_without_newline) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("nonl.mtx", BANNER_PG "2 2 2\n1 2\n2 1", &o);
  ck_assert_str_eq(gt_graph_text(g), "0:1 1:0");
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(mtx_non_square_uses_the_larger_dimension) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("rect.mtx", BANNER_PG "2 5 2\n1 5\n2 3\n", &o);
  ck_assert_uint_eq(gr_graph_num_vertices(g), 5);
  ck_assert_str_eq(gt_graph_text(g), "0:4 1:2 2: 3: 4:");
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(mtx_symmetric_file_tolerates_upper_triangle_entries) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("upper.mtx", BANNER_PS "3 3 2\n1 2\n2 3\n", &o);
  ck_assert_str_eq(gt_graph_text(g), "0:1 1:0,2 2:1");
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(mtx_zero_entries_give_isolated_vertices) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("empty-graph.mtx", BANNER_PG "4 4 0\n", &o);
  ck_assert_uint_eq(gr_graph_num_vertices(g), 4);
  ck_assert_uint_eq(gr_graph_num_arcs(g), 0);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(mtx_is_recognised_by_content_under_another_name) {
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_text("graph.txt", BANNER_PS "3 3 1\n3 1\n", &o);
  ck_assert(!gr_graph_is_directed(g));
  ck_assert_str_eq(gt_graph_text(g), "0:2 1: 2:0");
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(mtx_ids_are_one_based_and_named_after_the_file) {
  gr_load_options o = gt_options();
  const char *path = gt_write("ids.mtx", BANNER_PG "4 4 1\n4 1\n");
  gr_graph *g = gt_load_path(path, &o);
  gr_vid v = 0;
  ck_assert_uint_eq(gr_graph_original_id(g, 0), 1);
  ck_assert_uint_eq(gr_graph_original_id(g, 3), 4);
  ck_assert_int_eq(gr_graph_find_vertex(g, 4, &v), GR_SUCCESS);
  ck_assert_uint_eq(v, 3);
  ck_assert_int_eq(gr_graph_find_vertex(g, 0, &v), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_graph_find_vertex(g, 5, &v), GR_ERR_INVALID_ARG);
  ck_assert_str_eq(gr_graph_name(g), strrchr(path, '/') + 1);
  ck_assert(gr_graph_load_seconds(g) >= 0.0);
  ck_assert(!gr_graph_from_cache(g));
  gr_graph_destroy(&g);
}
END_TEST

/* ---- gzip ------------------------------------------------------------------ */

#ifdef GR_HAVE_ZLIB
static const char *write_gz(const char *name, const char *text, size_t keep) {
  const char *path = gt_scratch(name);
  gzFile z = gzopen(path, "wb");
  ck_assert_ptr_nonnull(z);
  ck_assert_int_eq(gzputs(z, text), (int)strlen(text));
  ck_assert_int_eq(gzclose(z), Z_OK);
  if (keep) ck_assert_int_eq(truncate(path, (off_t)keep), 0);
  return path;
}
#endif

START_TEST(mtx_reads_gzip_files_directly) {
#ifdef GR_HAVE_ZLIB
  const char *text = BANNER_PS "% compressed\n4 4 3\n2 1\n3 2\n4 3\n";
  gr_load_options o = gt_options();
  gr_graph *g = gt_load_path(write_gz("small.mtx.gz", text, 0), &o);
  gr_graph *h = gt_load_text("small.mtx", text, &o);
  ck_assert_str_eq(gt_graph_text(g), "0:1 1:0,2 2:1,3 3:2");
  gt_csr_equal(gr_graph_out(g), gr_graph_out(h));
  ck_assert_str_eq(gr_graph_name(g) + strlen(gr_graph_name(g)) - 7, ".mtx.gz");
  gr_graph_destroy(&g);
  gr_graph_destroy(&h);
#else
  fprintf(stderr, "skip: built without zlib\n");
#endif
}
END_TEST

START_TEST(mtx_rejects_truncated_gzip_files) {
#ifdef GR_HAVE_ZLIB
  /* Enough text that cutting the compressed file in half loses data. */
  char *text = malloc(1 << 20);
  ck_assert_ptr_nonnull(text);
  size_t k = (size_t)sprintf(text, BANNER_PG "1000 1000 20000\n");
  for (int i = 0; i < 20000; i++) k += (size_t)sprintf(text + k, "%d %d\n", i % 1000 + 1, (i * 7919) % 1000 + 1);
  const char *full = write_gz("full.mtx.gz", text, 0);
  struct stat s;
  ck_assert_int_eq(stat(full, &s), 0);
  const char *cut = write_gz("cut.mtx.gz", text, (size_t)s.st_size / 2);
  gr_load_options o = gt_options();
  gt_load_fails_path(cut, &o, GR_ERR_BAD_INPUT, "truncated .gz file");
  free(text);
#else
  fprintf(stderr, "skip: built without zlib\n");
#endif
}
END_TEST

START_TEST(mtx_rejects_corrupt_gzip_data) {
#ifdef GR_HAVE_ZLIB
  /* gzip magic followed by garbage. */
  gt_load_fails("bad.mtx.gz", "\x1f\x8b\x08\x01garbage that is not deflate data at all", GR_ERR_BAD_INPUT,
                "gzip");
#else
  gt_load_fails("bad.mtx.gz", "\x1f\x8b\x08\x00garbage", GR_ERR_UNSUPPORTED, "without zlib");
#endif
}
END_TEST

/* ---- malformed ----------------------------------------------------------- */

START_TEST(mtx_fewer_entries_than_declared_is_an_error) {
  gt_load_fails("few.mtx", BANNER_PG "30 30 3\n10 20\n20 30\n", GR_ERR_BAD_INPUT,
                "few.mtx:4: the file ends after 2 of the 3 entries the header declares (truncated?)");
}
END_TEST

START_TEST(mtx_more_entries_than_declared_is_an_error) {
  gt_load_fails("more.mtx", BANNER_PG "3 3 2\n1 2\n% note\n2 3\n3 1\n", GR_ERR_BAD_INPUT,
                "more.mtx:6: more entries than the 2 the header declares");
}
END_TEST

START_TEST(mtx_index_zero_is_an_error_naming_the_line) {
  gt_load_fails("zero.mtx", BANNER_PG "3 3 2\n1 2\n0 3\n", GR_ERR_BAD_INPUT,
                "zero.mtx:4: row index 0 is outside 1..3");
}
END_TEST

START_TEST(mtx_index_above_n_is_an_error_naming_the_line) {
  gt_load_fails("karate-bad.mtx", BANNER_PS "% c\n34 34 2\n2 1\n40 1\n", GR_ERR_BAD_INPUT,
                "karate-bad.mtx:5: row index 40 is outside 1..34");
  gt_load_fails("col.mtx", BANNER_PG "2 5 1\n1 6\n", GR_ERR_BAD_INPUT, "col.mtx:3: column index 6 is outside 1..5");
}
END_TEST

START_TEST(mtx_index_beyond_64_bits_is_an_error) {
  gt_load_fails("huge.mtx", BANNER_PG "3 3 1\n99999999999999999999999 1\n", GR_ERR_BAD_INPUT,
                "row index 99999999999999999999999 is outside 1..3");
}
END_TEST

START_TEST(mtx_non_numeric_tokens_are_errors) {
  gt_load_fails("alpha.mtx", BANNER_PG "3 3 1\nabc 1\n", GR_ERR_BAD_INPUT, "alpha.mtx:3: 'abc' is not a row index");
  gt_load_fails("alpha2.mtx", BANNER_PG "3 3 1\n1 2x\n", GR_ERR_BAD_INPUT, "'2x' is not a column index");
  gt_load_fails("alpha3.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 fast\n",
                GR_ERR_BAD_INPUT, "'fast' is not a real number");
  gt_load_fails("alpha4.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 1.5\n",
                GR_ERR_BAD_INPUT, "'1.5' is not an integer");
}
END_TEST

START_TEST(mtx_negative_ids_are_errors) {
  gt_load_fails("neg.mtx", BANNER_PG "3 3 1\n-1 2\n", GR_ERR_BAD_INPUT, "neg.mtx:3: negative row index -1");
}
END_TEST

START_TEST(mtx_missing_and_extra_values_are_errors) {
  gt_load_fails("noval.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2\n", GR_ERR_BAD_INPUT,
                "missing the value");
  gt_load_fails("extra.mtx", BANNER_PG "3 3 1\n1 2 3\n", GR_ERR_BAD_INPUT, "unexpected '3' after the entry");
  gt_load_fails("onecol.mtx", BANNER_PG "3 3 1\n1\n", GR_ERR_BAD_INPUT, "missing the column index");
  gt_load_fails("infval.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 1e300\n",
                GR_ERR_BAD_INPUT, "does not fit a 32-bit float");
}
END_TEST

START_TEST(mtx_empty_file_is_an_error) {
  gt_load_fails("empty.mtx", "", GR_ERR_BAD_INPUT, "empty.mtx is empty");
}
END_TEST

START_TEST(mtx_missing_header_is_an_error) {
  gt_load_fails("nohead.mtx", "3 3 1\n1 2\n", GR_ERR_BAD_INPUT, "nohead.mtx:1: missing the '%%MatrixMarket");
}
END_TEST

START_TEST(mtx_missing_size_line_is_an_error) {
  gt_load_fails("nosize.mtx", BANNER_PG "% only comments\n\n", GR_ERR_BAD_INPUT, "ends before the size line");
  gt_load_fails("badsize.mtx", BANNER_PG "3 x 1\n1 2\n", GR_ERR_BAD_INPUT,
                "badsize.mtx:2: the size line must be 'rows columns entries', found 'x'");
  gt_load_fails("shortsize.mtx", BANNER_PG "3 3\n1 2\n", GR_ERR_BAD_INPUT, "entries are missing");
  gt_load_fails("negsize.mtx", BANNER_PG "3 -3 1\n1 2\n", GR_ERR_BAD_INPUT, "negative number of columns");
}
END_TEST

START_TEST(mtx_declared_entries_beyond_the_file_fail_before_allocating) {
  gt_load_fails("bomb.mtx", BANNER_PG "3 3 1000000000000\n1 2\n2 3\n", GR_ERR_BAD_INPUT,
                "bomb.mtx:4: the file ends after 2 of the 1000000000000 entries the header declares "
                "(the rest of the file could hold at most 2; wrong size line?)");
}
END_TEST

START_TEST(mtx_missing_file_is_an_io_error) {
  char path[4096], want[4200];
  snprintf(path, sizeof path, "%s/%d-does-not-exist.mtx", gr_test_tmp_dir(), (int)getpid());
  snprintf(want, sizeof want, "cannot open %s: %s", path, strerror(ENOENT));
  gr_load_options o = gt_options();
  gt_load_fails_path(path, &o, GR_ERR_IO, want);
  o.use_cache = true;
  gt_load_fails_path(path, &o, GR_ERR_IO, want);
}
END_TEST

START_TEST(mtx_directory_is_an_io_error) {
  char path[4096], want[4200];
  snprintf(path, sizeof path, "%s/%d-dir.mtx", gr_test_tmp_dir(), (int)getpid());
  ck_assert_int_eq(mkdir(path, 0777), 0);
  snprintf(want, sizeof want, "%s is a directory", path);
  gr_load_options o = gt_options();
  gt_load_fails_path(path, &o, GR_ERR_IO, want);
  rmdir(path);
}
END_TEST

START_TEST(mtx_vertex_count_beyond_the_build_is_too_large) {
  char text[256];
  snprintf(text, sizeof text, "%s%llu %llu 1\n1 1\n", BANNER_PG, (unsigned long long)GR_MAX_VERTICES + 1,
           (unsigned long long)GR_MAX_VERTICES + 1);
#if GR_VID_BITS < 64
  gt_load_fails("wide.mtx", text, GR_ERR_TOO_LARGE, "rebuild gr with -DGR_VERTEX_64=ON");
#else
  gt_load_fails("wide.mtx", text, GR_ERR_TOO_LARGE, "is more than");
#endif
}
END_TEST

START_TEST(mtx_graph_beyond_host_memory_is_host_oom) {
  /* The offsets alone take 8 bytes a vertex. */
  const uint64_t n = GR_VID_BITS < 64 ? 4000000000ull : 1000000000000000ull;
  if ((n + 1) * 8 <= gr_host_memory_bytes()) {
    fprintf(stderr, "skip: this host has more memory than %llu vertices need\n", (unsigned long long)n);
    return;
  }
  char text[256];
  snprintf(text, sizeof text, "%s%llu %llu 1\n1 1\n", BANNER_PG, (unsigned long long)n, (unsigned long long)n);
  gt_load_fails("big.mtx", text, GR_ERR_HOST_OOM, "bytes");
  gt_load_fails("big2.mtx", text, GR_ERR_HOST_OOM, "of host memory");
}
END_TEST

/* ---- threads --------------------------------------------------------------- */

/* A file of several parse chunks (they are at least 256 KiB). */
static char *big_text(int entries, int bad_at_1, int bad_at_2) {
  char *text = malloc((size_t)entries * 32 + 256);
  ck_assert_ptr_nonnull(text);
  size_t k = (size_t)sprintf(text, "%%%%MatrixMarket matrix coordinate integer general\n5000 5000 %d\n", entries);
  for (int i = 0; i < entries; i++) {
    if (i == bad_at_1 || i == bad_at_2) k += (size_t)sprintf(text + k, "%d oops 1\n", i % 5000 + 1);
    else k += (size_t)sprintf(text + k, "%d %d %d\n", i % 5000 + 1, (i * 7919 + 13) % 5000 + 1, i % 97);
  }
  return text;
}

START_TEST(mtx_parallel_parse_is_identical_for_any_thread_count) {
  char *text = big_text(200000, -1, -1);
  const char *path = gt_write("big.mtx", text);
  gr_load_options o = gt_options();
  o.threads = 1;
  gr_graph *a = gt_load_path(path, &o);
  o.threads = 3;
  gr_graph *b = gt_load_path(path, &o);
  ck_assert_uint_eq(gr_graph_num_arcs(a), 200000);
  gt_check_csr(gr_graph_out(a));
  gt_csr_equal(gr_graph_out(a), gr_graph_out(b));
  gr_graph_destroy(&a);
  gr_graph_destroy(&b);
  free(text);
}
END_TEST

START_TEST(mtx_parallel_parse_reports_the_first_error_in_the_file) {
  char *text = big_text(200000, 150000, 20000);
  const char *path = gt_write("twoerr.mtx", text);
  gr_load_options o = gt_options();
  for (int t = 1; t <= 4; t += 3) {
    o.threads = t;
    gt_load_fails_path(path, &o, GR_ERR_BAD_INPUT, "twoerr.mtx:20003: 'oops' is not a column index");
  }
  free(text);
}
END_TEST

static Suite *mtx_suite(void) {
  Suite *s = suite_create("graph_mtx_reader");
  TCase *kinds = gt_tcase("kinds");
  tcase_add_test(kinds, mtx_reads_pattern_general_as_directed);
  tcase_add_test(kinds, mtx_reads_pattern_symmetric_as_undirected);
  tcase_add_test(kinds, mtx_reads_integer_values_as_weights);
  tcase_add_test(kinds, mtx_reads_real_values_symmetric_on_both_arcs);
  tcase_add_test(kinds, mtx_accepts_double_field_and_any_case);
  tcase_add_test(kinds, mtx_weights_none_drops_file_values);
  tcase_add_test(kinds, mtx_rejects_array_files);
  tcase_add_test(kinds, mtx_rejects_complex_files);
  tcase_add_test(kinds, mtx_rejects_skew_symmetric_files);
  tcase_add_test(kinds, mtx_rejects_hermitian_files);
  tcase_add_test(kinds, mtx_rejects_unknown_banner_words);
  suite_add_tcase(s, kinds);

  TCase *layout = gt_tcase("layout");
  tcase_add_test(layout, mtx_skips_comments_blank_lines_and_crlf);
  tcase_add_test(layout, mtx_reads_a_last_line_without_newline);
  tcase_add_test(layout, mtx_non_square_uses_the_larger_dimension);
  tcase_add_test(layout, mtx_symmetric_file_tolerates_upper_triangle_entries);
  tcase_add_test(layout, mtx_zero_entries_give_isolated_vertices);
  tcase_add_test(layout, mtx_is_recognised_by_content_under_another_name);
  tcase_add_test(layout, mtx_ids_are_one_based_and_named_after_the_file);
  suite_add_tcase(s, layout);

  TCase *gz = gt_tcase("gzip");
  tcase_add_test(gz, mtx_reads_gzip_files_directly);
  tcase_add_test(gz, mtx_rejects_truncated_gzip_files);
  tcase_add_test(gz, mtx_rejects_corrupt_gzip_data);
  suite_add_tcase(s, gz);

  TCase *bad = gt_tcase("malformed");
  tcase_add_test(bad, mtx_fewer_entries_than_declared_is_an_error);
  tcase_add_test(bad, mtx_more_entries_than_declared_is_an_error);
  tcase_add_test(bad, mtx_index_zero_is_an_error_naming_the_line);
  tcase_add_test(bad, mtx_index_above_n_is_an_error_naming_the_line);
  tcase_add_test(bad, mtx_index_beyond_64_bits_is_an_error);
  tcase_add_test(bad, mtx_non_numeric_tokens_are_errors);
  tcase_add_test(bad, mtx_negative_ids_are_errors);
  tcase_add_test(bad, mtx_missing_and_extra_values_are_errors);
  tcase_add_test(bad, mtx_empty_file_is_an_error);
  tcase_add_test(bad, mtx_missing_header_is_an_error);
  tcase_add_test(bad, mtx_missing_size_line_is_an_error);
  tcase_add_test(bad, mtx_declared_entries_beyond_the_file_fail_before_allocating);
  tcase_add_test(bad, mtx_missing_file_is_an_io_error);
  tcase_add_test(bad, mtx_directory_is_an_io_error);
  suite_add_tcase(s, bad);

  TCase *limits = gt_tcase("limits");
  tcase_add_test(limits, mtx_vertex_count_beyond_the_build_is_too_large);
  tcase_add_test(limits, mtx_graph_beyond_host_memory_is_host_oom);
  suite_add_tcase(s, limits);

  TCase *threads = gt_tcase("threads");
  tcase_set_timeout(threads, 120);
  tcase_add_test(threads, mtx_parallel_parse_is_identical_for_any_thread_count);
  tcase_add_test(threads, mtx_parallel_parse_reports_the_first_error_in_the_file);
  suite_add_tcase(s, threads);
  return s;
}

int main(void) { return gr_test_run_suite(mtx_suite(), 0); }
