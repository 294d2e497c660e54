/* SPDX-License-Identifier: Apache-2.0 */
/* gr_graph_load around the readers: the binary load cache (hit, stale after
 * the input changes, corrupt or truncated cache rebuilt, keyed by options,
 * beside the input or in a cache folder, silently off where it cannot be
 * written) and progress output (never for short loads, only when asked). */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "graph_internal.h"
#include "graph_test.h"

/* A fresh folder in the scratch area. */
static const char *fresh_dir(const char *name) {
  const char *path = gt_scratch(name);
  ck_assert_int_eq(mkdir(path, 0777), 0);
  return path;
}

static const char *write_in(const char *dir, const char *name, const char *contents) {
  char *path = gt_path_slot();
  snprintf(path, GT_PATH_LEN, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  fputs(contents, f);
  fclose(f);
  return path;
}

/* Files in dir whose name ends with ".grb"; the last one's path in *found. */
static int count_caches(const char *dir, char *found, size_t len) {
  DIR *d = opendir(dir);
  ck_assert_ptr_nonnull(d);
  int k = 0;
  for (struct dirent *e = readdir(d); e; e = readdir(d)) {
    size_t n = strlen(e->d_name);
    if (n > 4 && !strcmp(e->d_name + n - 4, ".grb")) {
      k++;
      if (found) snprintf(found, len, "%s/%s", dir, e->d_name);
    }
  }
  closedir(d);
  return k;
}

static gr_load_options cache_options(const char *dir) {
  gr_load_options o = gt_options();
  o.use_cache = true;
  o.cache_dir = dir;
  return o;
}

static const char *const sample_text = "# sparse ids, weights\n5 70 1\n70 900 2\n900 5 3\n5 900 4\n";

/* ---- cache ---------------------------------------------------------------------- */

START_TEST(cache_second_load_maps_the_cache) {
  const char *dir = fresh_dir("cache");
  const char *input = gt_write("cached.txt", sample_text);
  gr_load_options o = cache_options(dir);
  gr_graph *a = gt_load_path(input, &o);
  ck_assert(!gr_graph_from_cache(a));
  char found[4096];
  ck_assert_int_eq(count_caches(dir, found, sizeof found), 1);
  /* <basename>.<16 hex digits>.grb */
  const char *base = strrchr(found, '/') + 1, *input_base = strrchr(input, '/') + 1;
  ck_assert(strncmp(base, input_base, strlen(input_base)) == 0);
  const char *key = base + strlen(input_base);
  ck_assert_int_eq(key[0], '.');
  ck_assert_uint_eq(strspn(key + 1, "0123456789abcdef"), 16);
  ck_assert_str_eq(key + 17, ".grb");

  gr_graph *b = gt_load_path(input, &o);
  ck_assert(gr_graph_from_cache(b));
  gt_csr_equal(gr_graph_out(a), gr_graph_out(b));
  ck_assert_str_eq(gr_graph_name(b), input_base);
  ck_assert_uint_eq(gr_graph_original_id(b, 2), 900);
  ck_assert_uint_eq(gr_graph_num_edges(b), 4);
  ck_assert(gr_graph_is_directed(b));
  gr_graph_destroy(&a);
  gr_graph_destroy(&b);
}
END_TEST

START_TEST(cache_is_stale_after_the_input_is_touched) {
  const char *dir = fresh_dir("stale");
  const char *input = gt_write("touched.txt", sample_text);
  gr_load_options o = cache_options(dir);
  gr_graph *a = gt_load_path(input, &o);
  gr_graph_destroy(&a);
  struct stat s;
  ck_assert_int_eq(stat(input, &s), 0);
  struct timespec t[2] = {s.st_atim, s.st_mtim};
  t[1].tv_sec += 100;
  ck_assert_int_eq(utimensat(AT_FDCWD, input, t, 0), 0);
  gr_graph *b = gt_load_path(input, &o);
  ck_assert(!gr_graph_from_cache(b));
  gr_graph *c = gt_load_path(input, &o);
  ck_assert(gr_graph_from_cache(c));
  gt_csr_equal(gr_graph_out(b), gr_graph_out(c));
  ck_assert_int_eq(count_caches(dir, NULL, 0), 1);
  gr_graph_destroy(&b);
  gr_graph_destroy(&c);
}
END_TEST

START_TEST(cache_follows_a_rewritten_input) {
  const char *dir = fresh_dir("rewrite");
  const char *input = gt_write("rewritten.txt", "0 1\n");
  gr_load_options o = cache_options(dir);
  gr_graph *a = gt_load_path(input, &o);
  ck_assert_uint_eq(gr_graph_num_arcs(a), 1);
  gr_graph_destroy(&a);
  FILE *f = fopen(input, "wb");
  fputs("0 1\n1 2\n", f);
  fclose(f);
  gr_graph *b = gt_load_path(input, &o);
  ck_assert(!gr_graph_from_cache(b));
  ck_assert_uint_eq(gr_graph_num_arcs(b), 2);
  gr_graph_destroy(&b);
}
END_TEST

START_TEST(cache_corrupt_byte_is_detected_and_rebuilt) {
  const char *dir = fresh_dir("corrupt");
  const char *input = gt_write("corrupt.txt", sample_text);
  gr_load_options o = cache_options(dir);
  gr_graph *a = gt_load_path(input, &o);
  char cache[4096];
  ck_assert_int_eq(count_caches(dir, cache, sizeof cache), 1);
  /* A byte of the indices, past the header and the offsets. */
  int fd = open(cache, O_RDWR);
  ck_assert_int_ge(fd, 0);
  unsigned char byte;
  ck_assert_int_eq(pread(fd, &byte, 1, 256 + 64 + 2), 1);
  byte ^= 0xff;
  ck_assert_int_eq(pwrite(fd, &byte, 1, 256 + 64 + 2), 1);
  close(fd);
  gr_graph *b = gt_load_path(input, &o);
  ck_assert(!gr_graph_from_cache(b));
  gt_csr_equal(gr_graph_out(a), gr_graph_out(b));
  gr_graph *c = gt_load_path(input, &o);
  ck_assert(gr_graph_from_cache(c));
  gt_csr_equal(gr_graph_out(a), gr_graph_out(c));
  gr_graph_destroy(&a);
  gr_graph_destroy(&b);
  gr_graph_destroy(&c);
}
END_TEST

START_TEST(cache_truncated_file_is_detected_and_rebuilt) {
  const char *dir = fresh_dir("trunc");
  const char *input = gt_write("trunc.txt", sample_text);
  gr_load_options o = cache_options(dir);
  gr_graph *a = gt_load_path(input, &o);
  char cache[4096];
  ck_assert_int_eq(count_caches(dir, cache, sizeof cache), 1);
  ck_assert_int_eq(truncate(cache, 300), 0);
  gr_graph *b = gt_load_path(input, &o);
  ck_assert(!gr_graph_from_cache(b));
  gt_csr_equal(gr_graph_out(a), gr_graph_out(b));
  ck_assert_int_eq(truncate(cache, 0), 0);
  gr_graph *c = gt_load_path(input, &o);
  ck_assert(!gr_graph_from_cache(c));
  gr_graph_destroy(&a);
  gr_graph_destroy(&b);
  gr_graph_destroy(&c);
}
END_TEST

START_TEST(cache_is_keyed_by_the_options_that_change_the_graph) {
  const char *dir = fresh_dir("keys");
  const char *input = gt_write("keys.txt", sample_text);
  gr_load_options o = cache_options(dir);
  gr_graph *g = gt_load_path(input, &o);
  gr_graph_destroy(&g);
  gr_load_options u = o;
  u.undirected = true;
  g = gt_load_path(input, &u);
  ck_assert(!gr_graph_from_cache(g));
  ck_assert(!gr_graph_is_directed(g));
  gr_graph_destroy(&g);
  gr_load_options w = o;
  ck_assert_int_eq(gr_weight_spec_parse(&w.weights, "random:1:9"), GR_SUCCESS);
  g = gt_load_path(input, &w);
  ck_assert(!gr_graph_from_cache(g));
  gr_graph_destroy(&g);
  w.seed = 2;
  g = gt_load_path(input, &w);
  ck_assert(!gr_graph_from_cache(g));
  gr_graph_destroy(&g);
  ck_assert_int_eq(count_caches(dir, NULL, 0), 4);
  /* Options that do not change the graph share a cache. */
  gr_load_options t = o;
  t.threads = 1;
  t.build_csc = true;
  t.seed = 99;
  g = gt_load_path(input, &t);
  ck_assert(gr_graph_from_cache(g));
  ck_assert(gr_graph_is_directed(g));
  ck_assert(gr_graph_has_weights(g));
  const gr_csr *in = NULL;
  ck_assert_int_eq(gr_graph_in(g, &in), GR_SUCCESS);
  ck_assert_uint_eq(in->m, 4);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(cache_goes_beside_the_input_without_a_cache_folder) {
  const char *dir = fresh_dir("beside");
  const char *input = write_in(dir, "g.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n");
  gr_load_options o = gt_options();
  o.use_cache = true;
  gr_graph *g = gt_load_path(input, &o);
  gr_graph_destroy(&g);
  char found[4096];
  ck_assert_int_eq(count_caches(dir, found, sizeof found), 1);
  ck_assert(strstr(found, "/g.mtx.") != NULL);
  g = gt_load_path(input, &o);
  ck_assert(gr_graph_from_cache(g));
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(cache_is_skipped_without_error_where_it_cannot_be_written) {
  const char *input = gt_write("nocache.txt", sample_text);
  /* A cache folder below a regular file can never be created. */
  char bad[4200];
  snprintf(bad, sizeof bad, "%s/sub", input);
  gr_load_options o = cache_options(bad);
  gr_graph *a = gt_load_path(input, &o);
  gr_graph *b = gt_load_path(input, &o);
  ck_assert(!gr_graph_from_cache(a));
  ck_assert(!gr_graph_from_cache(b));
  gr_graph_destroy(&a);
  gr_graph_destroy(&b);
  /* A folder whose mode says read-only is left alone, even by root. */
  const char *ro = fresh_dir("readonly");
  const char *in_ro = write_in(ro, "ro.txt", sample_text);
  ck_assert_int_eq(chmod(ro, 0555), 0);
  gr_load_options p = gt_options();
  p.use_cache = true;
  a = gt_load_path(in_ro, &p);
  ck_assert_int_eq(count_caches(ro, NULL, 0), 0);
  gr_graph_destroy(&a);
  chmod(ro, 0755);
}
END_TEST

START_TEST(cache_off_writes_nothing) {
  const char *dir = fresh_dir("off");
  const char *input = write_in(dir, "off.txt", sample_text);
  gr_load_options o = gt_options();
  o.cache_dir = dir;
  gr_graph *g = gt_load_path(input, &o);
  gr_graph_destroy(&g);
  ck_assert_int_eq(count_caches(dir, NULL, 0), 0);
}
END_TEST

/* ---- progress -------------------------------------------------------------------- */

/* Runs fn with stderr sent to a file and returns what was written. */
static char *capture_stderr(void (*fn)(void)) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%d-stderr.txt", gr_test_tmp_dir(), (int)getpid());
  fflush(stderr);
  int saved = dup(2);
  int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
  ck_assert_int_ge(fd, 0);
  dup2(fd, 2);
  close(fd);
  fn();
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  FILE *f = fopen(path, "rb");
  char *buf = calloc(1, 4096);
  size_t n = fread(buf, 1, 4095, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

static void short_load_asking_for_progress(void) {
  gr_load_options o = gt_options();
  o.progress = 1;
  gr_graph *g = gt_load_text("short.txt", sample_text, &o);
  gr_graph_destroy(&g);
}

static void long_progress_when_asked(void) {
  gr__progress p;
  gr__progress_start(&p, "big.mtx.gz", 1);
  p.t0 -= 5.0; /* as if the load had been running for five seconds */
  gr__progress_update(&p, 0.42);
  gr__progress_update(&p, 0.42);
  gr__progress_end(&p);
}

static void long_progress_never(void) {
  gr__progress p;
  gr__progress_start(&p, "big.mtx.gz", -1);
  p.t0 -= 5.0;
  gr__progress_update(&p, 0.42);
  gr__progress_end(&p);
}

START_TEST(progress_stays_out_of_short_loads) {
  char *out = capture_stderr(short_load_asking_for_progress);
  ck_assert_str_eq(out, "");
  free(out);
}
END_TEST

START_TEST(progress_prints_percentages_for_long_loads_when_asked) {
  char *out = capture_stderr(long_progress_when_asked);
  ck_assert_msg(strncmp(out, "\rloading big.mtx.gz: 42%\rloading big.mtx.gz: 100% (", 51) == 0, "got \"%s\"", out);
  ck_assert(out[strlen(out) - 1] == '\n');
  free(out);
}
END_TEST

START_TEST(progress_never_prints_when_told_not_to) {
  char *out = capture_stderr(long_progress_never);
  ck_assert_str_eq(out, "");
  free(out);
}
END_TEST

static Suite *load_suite(void) {
  Suite *s = suite_create("graph_load");
  TCase *cache = gt_tcase("cache");
  tcase_add_test(cache, cache_second_load_maps_the_cache);
  tcase_add_test(cache, cache_is_stale_after_the_input_is_touched);
  tcase_add_test(cache, cache_follows_a_rewritten_input);
  tcase_add_test(cache, cache_corrupt_byte_is_detected_and_rebuilt);
  tcase_add_test(cache, cache_truncated_file_is_detected_and_rebuilt);
  tcase_add_test(cache, cache_is_keyed_by_the_options_that_change_the_graph);
  tcase_add_test(cache, cache_goes_beside_the_input_without_a_cache_folder);
  tcase_add_test(cache, cache_is_skipped_without_error_where_it_cannot_be_written);
  tcase_add_test(cache, cache_off_writes_nothing);
  suite_add_tcase(s, cache);

  TCase *progress = gt_tcase("progress");
  tcase_add_test(progress, progress_stays_out_of_short_loads);
  tcase_add_test(progress, progress_prints_percentages_for_long_loads_when_asked);
  tcase_add_test(progress, progress_never_prints_when_told_not_to);
  suite_add_tcase(s, progress);
  return s;
}

int main(void) { return gr_test_run_suite(load_suite(), 0); }
