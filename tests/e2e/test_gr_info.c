/* SPDX-License-Identifier: Apache-2.0 */
/* gr_info end to end: the report's lines on generated graphs (undirected:
 * out only; directed: out and in) and on a real one, the packed line's
 * numbers adding up, the varint comparison counted exactly, and the
 * failures (missing or malformed file, bad spec, no input) exiting 2 with a
 * message naming the problem. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gr/types.h"
#include "testutil.h"

static char *out_text, *err_text;

/* Runs gr_info with the given arguments (NULL-terminated); returns the exit
 * code and keeps stdout and stderr. */
static int run_args(const char *const *args) {
  const char *bin = getenv("GR_INFO");
  ck_assert_msg(bin && *bin, "GR_INFO (path of gr_info) is not set");
  const char *argv[16];
  int n = 0;
  argv[n++] = bin;
  for (; *args && n < 15; args++) argv[n++] = *args;
  argv[n] = NULL;
  free(out_text);
  free(err_text);
  out_text = err_text = NULL;
  const int rc = gr_test_run_limited(argv, NULL, &out_text, &err_text, 300, 0);
  ck_assert_msg(rc >= 0, "gr_info did not exit normally (signal or time-out)\nstderr: %s", err_text ? err_text : "");
  return rc;
}
#define run(...) run_args((const char *const[]){__VA_ARGS__, NULL})

static void assert_out_has(const char *needle) {
  ck_assert_msg(out_text && strstr(out_text, needle), "stdout lacks \"%s\":\n%s\nstderr:\n%s", needle,
                out_text ? out_text : "(none)", err_text ? err_text : "");
}
static void assert_err_has(const char *needle) {
  ck_assert_msg(err_text && strstr(err_text, needle), "stderr lacks \"%s\":\n%s", needle,
                err_text ? err_text : "(none)");
}

/* Checks the "SIDE packed: ..." line: its parts add up to the total, the
 * bytes per arc and the share saved agree with it, and the lists are
 * smaller than plain ids. */
static void check_packed_line(const char *side, unsigned long long arcs) {
  char key[32];
  snprintf(key, sizeof key, "\n%s packed: ", side);
  const char *line = strstr(out_text, key);
  ck_assert_msg(line, "no %s packed line:\n%s", side, out_text);
  unsigned long long total, codes, bases, index;
  double per, saved, enc, dec;
  char unit[16];
  const int got = sscanf(line + strlen(key),
                         "%llu bytes (%*f %15[KMGiB]), %lf B/arc, %lf%% saved; codes %llu, bases %llu, index %llu "
                         "bytes; encode %lf ms, decode %lf ms",
                         &total, unit, &per, &saved, &codes, &bases, &index, &enc, &dec);
  ck_assert_msg(got == 9, "%s packed line does not parse (%d fields):\n%s", side, got, line + 1);
  ck_assert_uint_eq(total, codes + bases + index);
  ck_assert_msg(per > 0.0 && per < 4.0, "%.3f B/arc", per);
  ck_assert_msg(fabs(per - (double)total / (double)arcs) < 0.001, "%.3f B/arc for %llu bytes, %llu arcs", per,
                total, arcs);
  ck_assert_msg(saved > 0.0 && saved < 100.0, "%.1f%% saved", saved);
}

/* The "SIDE varint: ..." line's numbers: total, codes and row index. */
static void varint_line(const char *side, unsigned long long *total, unsigned long long *codes,
                        unsigned long long *index) {
  char key[32];
  snprintf(key, sizeof key, "\n%s varint: ", side);
  const char *line = strstr(out_text, key);
  ck_assert_msg(line, "no %s varint line:\n%s", side, out_text);
  double per, saved;
  char unit[16];
  const int got = sscanf(line + strlen(key), "%llu bytes (%*f %15[KMGiB]), %lf B/arc, %lf%% saved; codes %llu, "
                         "row index %llu bytes", total, unit, &per, &saved, codes, index);
  ck_assert_msg(got == 6, "%s varint line does not parse (%d fields):\n%s", side, got, line + 1);
  ck_assert_uint_eq(*total, *codes + *index);
}

static unsigned long long number_after(const char *key) {
  const char *p = strstr(out_text, key);
  ck_assert_msg(p, "stdout lacks \"%s\":\n%s", key, out_text);
  return strtoull(p + strlen(key), NULL, 10);
}

START_TEST(packed_report_on_an_undirected_graph) {
  ck_assert_int_eq(run("--gen", "kron:12:8", "--packed"), 0);
  assert_out_has("graph: kron:12:8");
  assert_out_has("(undirected)\n");
  ck_assert_uint_eq(number_after("vertices: "), 4096);
  const unsigned long long arcs = number_after("arcs: ");
  ck_assert_uint_gt(arcs, 40000);
  assert_out_has("out degree: max ");
  ck_assert_uint_eq(number_after("out ids: "), arcs * sizeof(gr_vid));
  check_packed_line("out", arcs);
  ck_assert_ptr_null(strstr(out_text, "\nin "));
}
END_TEST

START_TEST(directed_graphs_report_both_sides) {
  ck_assert_int_eq(run("--packed", "--gen", "uniform:10:4,directed"), 0);
  assert_out_has("(directed)\n");
  const unsigned long long arcs = number_after("arcs: ");
  check_packed_line("out", arcs);
  check_packed_line("in", arcs);
}
END_TEST

START_TEST(without_packed_only_the_plain_sizes) {
  ck_assert_int_eq(run("--gen", "grid2d:8x8"), 0);
  ck_assert_uint_eq(number_after("vertices: "), 64);
  ck_assert_uint_eq(number_after("arcs: "), 224);
  assert_out_has("out degree: max 4, avg 3.50\n");
  ck_assert_ptr_null(strstr(out_text, "packed"));
}
END_TEST

START_TEST(a_real_graph_file) {
  char buf[4096];
  const char *path = gr_test_data_file(buf, sizeof buf, "karate.mtx");
  if (!path) return;
  ck_assert_int_eq(run("--no-cache", "--packed", path), 0);
  ck_assert_uint_eq(number_after("vertices: "), 34);
  ck_assert_uint_eq(number_after("arcs: "), 156);
  assert_out_has("out degree: max 17, avg 4.59\n");
  check_packed_line("out", 156);
}
END_TEST

/* The varint comparison counted by hand on a small directed graph of 300
 * vertices (0-based arcs 0->199, 0->299, 249->250, 200->0). Out rows: 0
 * starts at 199 (absolute or zig-zagged to the row: 2 bytes either way),
 * then +100 (1); 249 starts at 250, 1 byte as zigzag(+1) where absolute
 * takes 2; 200 starts at 0 (1). In rows: 199 and 299 start at 0 (1 each),
 * 250 at 249 (zigzag(-1): 1), 0 at 200 (2 either way). Index: 4 bytes a
 * row and 8 per 512 rows: 1,208. */
START_TEST(varint_comparison_counts_bytes_exactly) {
  char path[4096];
  const char *f = gr_test_write_file(path, sizeof path, "gr-info-varint.mtx",
                                     "%%MatrixMarket matrix coordinate pattern general\n"
                                     "300 300 4\n1 200\n1 300\n250 251\n201 1\n");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(run("--no-cache", "--packed", f), 0);
  unsigned long long total, codes, index;
  varint_line("out", &total, &codes, &index);
  ck_assert_uint_eq(codes, 5);
  ck_assert_uint_eq(index, 1208);
  varint_line("in", &total, &codes, &index);
  ck_assert_uint_eq(codes, 5);
  ck_assert_uint_eq(index, 1208);
  unlink(f);
  /* Every id of karate is below 128: one byte each. */
  const char *k = gr_test_data_file(path, sizeof path, "karate.mtx");
  if (!k) return;
  ck_assert_int_eq(run("--no-cache", "--packed", k), 0);
  varint_line("out", &total, &codes, &index);
  ck_assert_uint_eq(codes, 156);
  ck_assert_uint_eq(index, 34 * 4 + 8);
}
END_TEST

START_TEST(help_and_usage_errors) {
  ck_assert_int_eq(run("--help"), 0);
  assert_out_has("Usage: gr_info");
  ck_assert_int_eq(run_args((const char *const[]){NULL}), 2);
  assert_err_has("give one graph FILE or --gen SPEC");
  ck_assert_int_eq(run("--gen", "kron:10", "extra.mtx"), 2);
  ck_assert_int_eq(run("--bogus"), 2);
  ck_assert_int_eq(run("--gen", "kron:x"), 2);
  assert_err_has("kron:x");
}
END_TEST

START_TEST(bad_files_exit_2_naming_them) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%d-no-such-graph.mtx", gr_test_tmp_dir(), (int)getpid());
  ck_assert_int_eq(run("--no-cache", path), 2);
  assert_err_has(path);
  const char *bad = gr_test_write_file(path, sizeof path, "gr-info-bad.mtx", "this is not a graph\n");
  ck_assert_ptr_nonnull(bad);
  ck_assert_int_eq(run("--no-cache", "--packed", bad), 2);
  assert_err_has(bad);
  ck_assert_ptr_null(strstr(out_text, "packed"));
  unlink(bad);
}
END_TEST

static Suite *gr_info_suite(void) {
  Suite *s = suite_create("gr_info");
  TCase *tc = tcase_create("reports");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, packed_report_on_an_undirected_graph);
  tcase_add_test(tc, directed_graphs_report_both_sides);
  tcase_add_test(tc, without_packed_only_the_plain_sizes);
  tcase_add_test(tc, a_real_graph_file);
  tcase_add_test(tc, varint_comparison_counts_bytes_exactly);
  suite_add_tcase(s, tc);
  tc = tcase_create("failures");
  tcase_add_test(tc, help_and_usage_errors);
  tcase_add_test(tc, bad_files_exit_2_naming_them);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return gr_test_run_suite(gr_info_suite(), 0); }
