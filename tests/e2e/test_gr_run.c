/* SPDX-License-Identifier: Apache-2.0 */
/* gr_run end to end: runs on generated and real graphs with validation (BFS,
 * DOBFS, SSSP with integer and real weights, CC, PageRank, BC), the --out and
 * --json files,
 * the help text, and the malformed-input catalogue (each case: exit code 2
 * and a message naming the problem, bad weights for SSSP included). Runs on CPU
 * devices (--cpu), so it needs no GPU; GR_E2E_BACKEND=gpu runs the same
 * cases on the GPU. */
#include <check.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

static const char *gr_run_bin(void) {
  const char *p = getenv("GR_RUN");
  ck_assert_msg(p && *p, "GR_RUN (path of gr_run) is not set");
  return p;
}

static bool on_gpu(void) {
  const char *b = getenv("GR_E2E_BACKEND");
  return b && !strcmp(b, "gpu");
}

/* Runs gr_run with the given arguments (NULL-terminated) on the test's
 * backend; returns the exit code and keeps stdout/stderr. */
static char *out_text, *err_text;
static int run_env(const char *const *env, const char *first, ...) {
  const char *argv[64];
  int n = 0;
  argv[n++] = gr_run_bin();
  /* The GPU variant names its device so that it can never fall back to
   * the CPU backend unnoticed. */
  if (on_gpu()) {
    argv[n++] = "--gpus";
    argv[n++] = "1";
  } else {
    argv[n++] = "--cpu";
  }
  va_list ap;
  va_start(ap, first);
  for (const char *a = first; a && n < 62; a = va_arg(ap, const char *)) argv[n++] = a;
  va_end(ap);
  argv[n] = NULL;
  free(out_text);
  free(err_text);
  out_text = err_text = NULL;
  int rc = gr_test_run(argv, env, &out_text, &err_text);
  ck_assert_msg(rc >= 0, "gr_run did not exit normally (signal?)\nstderr: %s", err_text ? err_text : "");
  return rc;
}
#define run(...) run_env(NULL, __VA_ARGS__, NULL)

static void assert_err_has(const char *needle) {
  ck_assert_msg(err_text && strstr(err_text, needle), "stderr lacks \"%s\":\n%s", needle,
                err_text ? err_text : "(none)");
}
static void assert_out_has(const char *needle) {
  ck_assert_msg(out_text && strstr(out_text, needle), "stdout lacks \"%s\":\n%s\nstderr:\n%s", needle,
                out_text ? out_text : "(none)", err_text ? err_text : "");
}

static const char *tmpfile_path(char *buf, size_t len, const char *name) {
  snprintf(buf, len, "%s/%d-%s", gr_test_tmp_dir(), (int)getpid(), name);
  return buf;
}

/* A file the test writes, and what to look for. */
typedef struct bad_case {
  const char *name;
  const char *text; /* NULL: use the name as a path */
  const char *needle;
} bad_case;

/* ---- runs ---------------------------------------------------------------- */

START_TEST(bfs_validates_on_generated_graphs) {
  const char *specs[] = {"kron:12:16", "uniform:12:8", "grid2d:40x50", "grid3d:8x9x10",
                         "kron:10:8,directed"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    ck_assert_int_eq(run("--gen", specs[i], "--runs", "3", "--validate"), 0);
    assert_out_has("validation passed (3 runs)");
    assert_out_has("GTEPS");
  }
}
END_TEST

START_TEST(bfs_validates_with_predecessors_and_sources) {
  ck_assert_int_eq(run("--gen", "kron:11:16", "--mark-pred", "--runs", "2", "--validate"), 0);
  assert_out_has("validation passed");
  ck_assert_int_eq(run("--gen", "uniform:11:4", "--src", "max-degree", "--validate"), 0);
  assert_out_has("validation passed");
  ck_assert_int_eq(run("--gen", "grid2d:30x30", "--src", "0", "--validate", "--mark-pred"), 0);
  assert_out_has("validation passed");
}
END_TEST

START_TEST(dobfs_validates_in_every_direction) {
  const char *specs[] = {"kron:12:16", "uniform:11:8,directed", "grid2d:30x40"};
  const char *dirs[] = {"auto", "push", "pull"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
    for (size_t d = 0; d < 3; d++) {
      ck_assert_int_eq(run("--primitive", "dobfs", "--gen", specs[i], "--direction", dirs[d], "--runs", "2",
                           "--mark-pred", "--validate"),
                       0);
      assert_out_has("validation passed (2 runs)");
    }
  char path[1024];
  if (gr_test_data_file(path, sizeof path, "cit-hepph.mtx.gz")) {
    ck_assert_int_eq(run("--primitive", "dobfs", path, "--runs", "3", "--validate", "--mark-pred", "--no-cache"), 0);
    assert_out_has("validation passed");
  }
  ck_assert_int_eq(run("--primitive", "dobfs", "--gen", "kron:8:4", "--direction", "sideways"), 2);
  assert_err_has("--direction");
  ck_assert_int_eq(run("--primitive", "dobfs", "--gen", "kron:8:4", "--do-a", "0"), 2);
  assert_err_has("--do-a");
  ck_assert_int_eq(run("--primitive", "dobfs", "--gen", "kron:8:4", "--do-b", "x"), 2);
  assert_err_has("--do-b");
}
END_TEST

/* Every operator variant of --tune gives a valid answer (on the CPU backend
 * only visited= changes anything; the GPU variant of this test runs them
 * all). Kronecker: hubs and big levels; the grid: thousands of small
 * levels in and out of the device-side loop; uniform directed: pulls over
 * light and heavy candidates. */
START_TEST(every_tuning_variant_validates) {
  const char *specs[] = {"kron:12:16", "grid2d:60x70", "uniform:12:40,directed"};
  const char *tunes[] = {"advance=serial",       "advance=twc",        "advance=auto",
                         "advance=twc,small=off",       "pull=warp",          "small=off",
                         "visited=state",        "visited=bitmap",     "small-vertices=64,small-edges=512",
                         "small-degree=4,advance=serial,visited=state", "pull-light=1",
                         "pull-light=100000,pull=hybrid", "pull-light=4,pull-try=2", "status=idempotent",
                         "status=idempotent,advance=twc,visited=state", "status=idempotent,advance=serial,small=off",
                         "long-rows=32,small=off", "long-rows=1,status=atomic,advance=serial"};
  const char *prims[] = {"bfs", "dobfs"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
    for (size_t t = 0; t < sizeof tunes / sizeof tunes[0]; t++)
      for (size_t k = 0; k < 2; k++) {
        ck_assert_msg(run("--primitive", prims[k], "--gen", specs[i], "--tune", tunes[t], "--runs", "3",
                          "--mark-pred", "--validate") == 0,
                      "%s %s --tune %s failed:\n%s", prims[k], specs[i], tunes[t], err_text ? err_text : "");
        assert_out_has("validation passed (3 runs)");
      }
  const char *bad[] = {"visited=maybe", "pull=sideways", "small=perhaps", "small-edges=-3", "nokey=1", "advance",
                       "pull-light=0", "status=sloppy", "walk-stage=maybe", "bc-counts=maybe", "pull-try=x"};
  for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
    ck_assert_int_eq(run("--gen", "kron:8:4", "--tune", bad[b]), 2);
    assert_err_has("--tune");
  }
}
END_TEST

START_TEST(bfs_validates_on_real_graphs) {
  const char *files[] = {"karate.mtx", "email-enron.mtx.gz", "cit-hepph.mtx.gz", "soc-slashdot0902.mtx.gz",
                         "ego-twitter.mtx.gz", "luxembourg_osm.mtx.gz", "uk-2007-05-100k.mtx.gz",
                         "cnr-2000.mtx.gz"};
  char path[1024], cache[1024];
  snprintf(cache, sizeof cache, "%s/cache", gr_test_tmp_dir());
  mkdir(cache, 0777);
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    if (!gr_test_data_file(path, sizeof path, files[i])) continue;
    ck_assert_int_eq(run(path, "--runs", "2", "--validate", "--mark-pred", "--cache-dir", cache), 0);
    assert_out_has("validation passed");
    ck_assert_int_eq(run(path, "--undirected", "--runs", "2", "--validate", "--cache-dir", cache), 0);
    assert_out_has("validation passed");
  }
}
END_TEST

START_TEST(sssp_validates_on_generated_graphs) {
  const char *specs[] = {"kron:12:16", "uniform:12:8", "grid2d:40x50", "grid3d:8x9x10", "kron:10:8,directed"};
  const char *weights[] = {"random:1:255", "random:0.5:20.5", "random:0:4"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
    for (size_t w = 0; w < sizeof weights / sizeof weights[0]; w++) {
      ck_assert_msg(run("--primitive", "sssp", "--gen", specs[i], "--weights", weights[w], "--runs", "3", "--validate",
                        "--mark-pred") == 0,
                    "%s %s:\n%s", specs[i], weights[w], err_text);
      assert_out_has("validation passed (3 runs)");
      assert_out_has("sssp       delta ");
    }
  /* Without predecessors, from the hub, and with buckets narrower than any
   * weight, wider than every distance, and of a given width. */
  const char *deltas[] = {"auto", "0.5", "1e30", "17"};
  for (size_t d = 0; d < sizeof deltas / sizeof deltas[0]; d++) {
    ck_assert_int_eq(run("--primitive", "sssp", "--gen", "kron:11:16", "--weights", "random:1:64", "--src", "max-degree",
                         "--delta", deltas[d], "--runs", "2", "--validate"),
                     0);
    assert_out_has("validation passed (2 runs)");
  }
  ck_assert_int_eq(run("--primitive", "sssp", "--gen", "grid2d:30x30", "--weights", "random:1:9", "--delta", "17",
                       "--validate", "--quiet"),
                   0);
  /* The operator variants and the device-side loop's limits (entering and
   * leaving it often, or never). */
  const char *tunes[] = {"small=off", "small-vertices=64,small-edges=512", "small-degree=4", "advance=twc",
                         "advance=auto", "advance=serial,small=off"};
  const char *tspecs[] = {"kron:11:16", "grid2d:60x70"};
  for (size_t i = 0; i < 2; i++)
    for (size_t t = 0; t < sizeof tunes / sizeof tunes[0]; t++) {
      ck_assert_msg(run("--primitive", "sssp", "--gen", tspecs[i], "--weights", "random:1:255", "--tune", tunes[t],
                        "--runs", "2", "--mark-pred", "--validate") == 0,
                    "%s --tune %s:\n%s", tspecs[i], tunes[t], err_text);
      assert_out_has("validation passed (2 runs)");
    }
}
END_TEST

START_TEST(sssp_validates_on_real_graphs) {
  const char *files[] = {"karate.mtx", "email-enron.mtx.gz", "cit-hepph.mtx.gz", "soc-slashdot0902.mtx.gz",
                         "ego-twitter.mtx.gz", "luxembourg_osm.mtx.gz", "uk-2007-05-100k.mtx.gz",
                         "cnr-2000.mtx.gz"};
  char path[1024], cache[1024];
  snprintf(cache, sizeof cache, "%s/cache", gr_test_tmp_dir());
  mkdir(cache, 0777);
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    if (!gr_test_data_file(path, sizeof path, files[i])) continue;
    ck_assert_msg(run("--primitive", "sssp", path, "--weights", "random:1:255", "--runs", "2", "--validate",
                      "--mark-pred", "--cache-dir", cache) == 0,
                  "%s:\n%s", files[i], err_text);
    assert_out_has("validation passed");
    if (i % 3 == 0 || strstr(files[i], "osm")) {
      ck_assert_msg(run("--primitive", "sssp", path, "--weights", "random:0.001:1", "--runs", "2", "--validate",
                        "--mark-pred", "--cache-dir", cache) == 0,
                    "%s:\n%s", files[i], err_text);
      assert_out_has("validation passed");
    }
  }
}
END_TEST

/* Weights from the file: integer and real Matrix Market, general and
 * symmetric, and an edge list's third column. */
START_TEST(sssp_reads_weights_from_files) {
  /* name, text, the --out file expected */
  const bad_case files[] = {
      {"int.mtx", "%%MatrixMarket matrix coordinate integer general\n5 5 5\n1 2 3\n2 3 4\n1 3 10\n5 4 1\n3 5 0\n",
       "1 0 -1\n2 3 1\n3 7 2\n4 8 5\n5 7 3\n"},
      {"real.mtx", "%%MatrixMarket matrix coordinate real symmetric\n4 4 3\n2 1 0.5\n3 2 0.25\n4 1 2.5\n",
       "1 0 -1\n2 0.5 1\n3 0.75 2\n4 2.5 1\n"},
      {"list.txt", "10 20 1.5\n20 30 1.5\n10 30 4\n40 10 1\n", "10 0 -1\n20 1.5 10\n30 3 20\n40 -1 -1\n"},
  };
  const char *src[] = {"1", "1", "10"};
  char g[512], o[512];
  tmpfile_path(o, sizeof o, "sssp.out");
  for (int i = 0; i < 3; i++) {
    gr_test_write_file(g, sizeof g, files[i].name, files[i].text);
    ck_assert_msg(run("--primitive", "sssp", g, "--src", src[i], "--mark-pred", "--validate", "--no-cache", "--out", o) == 0,
                  "%s:\n%s", files[i].name, err_text);
    assert_out_has("validation passed");
    FILE *f = fopen(o, "r");
    ck_assert_ptr_nonnull(f);
    char all[512] = "";
    size_t got = fread(all, 1, sizeof all - 1, f);
    all[got] = '\0';
    fclose(f);
    ck_assert_msg(!strcmp(all, files[i].needle), "%s:\n%s", files[i].name, all);
    unlink(o);
  }
}
END_TEST

static char *slurp(const char *path) {
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  static char text[1 << 22];
  size_t n = fread(text, 1, sizeof text - 1, f);
  text[n] = '\0';
  fclose(f);
  return text;
}

/* gr_gen writes weights as Matrix Market values that gr_run (and any
 * other reader of the format) reads back as the graph's weights: the same
 * seeded integers, so SSSP can be compared with other tools on one file. */
START_TEST(gr_gen_writes_weights_that_sssp_reads_back) {
  const char *gen = getenv("GR_GEN");
  ck_assert_msg(gen && *gen, "GR_GEN (path of gr_gen) is not set");
  char g[512], o1[512], o2[512];
  tmpfile_path(g, sizeof g, "w.mtx");
  tmpfile_path(o1, sizeof o1, "w1.out");
  tmpfile_path(o2, sizeof o2, "w2.out");
  const char *argv[] = {gen, "kron:9:8", "-o", g, "--weights", "random:1:255", "--quiet", NULL};
  char *out = NULL, *err = NULL;
  ck_assert_msg(gr_test_run(argv, NULL, &out, &err) == 0, "%s", err);
  free(out);
  free(err);
  FILE *f = fopen(g, "r");
  ck_assert_ptr_nonnull(f);
  char line[256];
  ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
  ck_assert_ptr_nonnull(strstr(line, "real symmetric"));
  while (fgets(line, sizeof line, f) && line[0] == '%') {
  }
  int rows = 0;
  while (fgets(line, sizeof line, f) && rows < 50) {
    unsigned long long a, b;
    double w;
    ck_assert_int_eq(sscanf(line, "%llu %llu %lf", &a, &b, &w), 3);
    ck_assert(w >= 1 && w <= 255 && w == (double)(long long)w);
    rows++;
  }
  fclose(f);
  ck_assert_int_eq(rows, 50);
  /* The file's weights, and the same generator with gr_run's own random
   * weights of the same seed, give the same distances. */
  ck_assert_msg(run("--primitive", "sssp", g, "--src", "3", "--validate", "--no-cache", "--out", o1) == 0, "%s", err_text);
  ck_assert_msg(run("--primitive", "sssp", "--gen", "kron:9:8", "--weights", "random:1:255", "--src", "2", "--validate",
                    "--out", o2) == 0,
                "%s", err_text);
  char *a = strdup(slurp(o1));
  char *b = strdup(slurp(o2));
  /* Matrix Market ids are 1-based, generated ones 0-based: compare the
   * distance column. */
  char *sa = NULL, *sb = NULL;
  for (char *la = strtok_r(a, "\n", &sa), *lb = strtok_r(b, "\n", &sb); la || lb;
       la = strtok_r(NULL, "\n", &sa), lb = strtok_r(NULL, "\n", &sb)) {
    ck_assert(la && lb);
    ck_assert_str_eq(strchr(la, ' '), strchr(lb, ' '));
  }
  free(a);
  free(b);
  unlink(o1);
  unlink(o2);
  unlink(g);
  /* Bad weights specs are usage errors. */
  const char *bad[] = {gen, "kron:9:8", "-o", g, "--weights", "file", NULL};
  ck_assert_int_eq(gr_test_run(bad, NULL, &out, &err), 2);
  ck_assert_ptr_nonnull(strstr(err, "--weights"));
  free(out);
  free(err);
}
END_TEST

START_TEST(sssp_json_reports_delta_and_bucket_sizes) {
  char j[512];
  tmpfile_path(j, sizeof j, "sssp.json");
  ck_assert_int_eq(run("--primitive", "sssp", "--gen", "grid2d:30x40", "--weights", "random:1:255", "--delta", "50",
                       "--runs", "2", "--json", j),
                   0);
  assert_out_has("sssp       delta 50");
  cJSON *root = cJSON_Parse(slurp(j));
  ck_assert_ptr_nonnull(root);
  const cJSON *run0;
  cJSON_ArrayForEach(run0, cJSON_GetObjectItem(root, "runs")) {
    const int iters = cJSON_GetObjectItem(run0, "iterations")->valueint;
    const cJSON *ex = cJSON_GetObjectItem(run0, "extra");
    ck_assert_ptr_nonnull(ex);
    ck_assert(cJSON_GetObjectItem(ex, "delta")->valuedouble == 50.0);
    const cJSON *bucket = cJSON_GetObjectItem(ex, "bucket"), *pile = cJSON_GetObjectItem(ex, "far_pile"),
                *split = cJSON_GetObjectItem(ex, "split");
    ck_assert_int_eq(cJSON_GetArraySize(bucket), iters);
    ck_assert_int_eq(cJSON_GetArraySize(pile), iters);
    ck_assert_int_eq(cJSON_GetArraySize(split), iters);
    /* The first bucket is the source; boundaries only move up, by
     * multiples of delta; the last iteration leaves nothing behind. */
    ck_assert(cJSON_GetArrayItem(bucket, 0)->valuedouble == 1.0);
    ck_assert(cJSON_GetArrayItem(split, 0)->valuedouble == 50.0);
    ck_assert(cJSON_GetArrayItem(pile, iters - 1)->valuedouble == 0.0);
    double relaxed = 0, last = 0;
    for (int k = 0; k < iters; k++) {
      const double b = cJSON_GetArrayItem(split, k)->valuedouble;
      ck_assert(b >= last && fmod(b, 50.0) == 0.0);
      last = b;
      relaxed += cJSON_GetArrayItem(bucket, k)->valuedouble;
    }
    /* Every vertex of the connected grid is relaxed at least once. */
    ck_assert(relaxed >= 1200);
  }
  cJSON_Delete(root);
  unlink(j);
}
END_TEST

/* The wall time's phases, in the summary and in the JSON: every one there,
 * none negative, together no more than the whole. */
START_TEST(phases_account_for_the_wall_time) {
  char j[512];
  tmpfile_path(j, sizeof j, "phases.json");
  ck_assert_int_eq(run("--primitive", "bfs", "--gen", "kron:10:8", "--runs", "2", "--validate", "--json", j), 0);
  assert_out_has("wall time  ");
  assert_out_has(" s: start ");
  cJSON *root = cJSON_Parse(slurp(j));
  ck_assert_ptr_nonnull(root);
  const cJSON *ph = cJSON_GetObjectItem(root, "phases");
  ck_assert_ptr_nonnull(ph);
  static const char *const parts[] = {"start_s", "load_s", "partition_s", "build_s",
                                      "setup_s", "runs_s", "extract_s", "validate_s"};
  double sum = 0;
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
    const cJSON *x = cJSON_GetObjectItem(ph, parts[i]);
    ck_assert_msg(cJSON_IsNumber(x), "phases lack %s", parts[i]);
    ck_assert_msg(x->valuedouble >= 0, "phase %s is %g", parts[i], x->valuedouble);
    sum += x->valuedouble;
  }
  const cJSON *total_j = cJSON_GetObjectItem(ph, "total_s");
  ck_assert_msg(cJSON_IsNumber(total_j), "phases lack total_s");
  const double total = total_j->valuedouble;
  ck_assert_msg(total > 0 && sum <= total + 1e-3, "phases sum to %g s of %g s", sum, total);
  /* The start is part of every run's wall time, and comes before the load. */
  ck_assert(cJSON_GetObjectItem(ph, "start_s")->valuedouble > 0);
  cJSON_Delete(root);
  unlink(j);
}
END_TEST

static const char *const real_files[] = {"karate.mtx",         "email-enron.mtx.gz",    "cit-hepph.mtx.gz",
                                         "soc-slashdot0902.mtx.gz", "ego-twitter.mtx.gz", "luxembourg_osm.mtx.gz",
                                         "uk-2007-05-100k.mtx.gz",  "cnr-2000.mtx.gz"};
enum { N_REAL_FILES = sizeof real_files / sizeof real_files[0] };

/* The number after `name` on the primitive's line of the summary. */
static double summary_number(const char *prim, const char *name) {
  char head[64];
  snprintf(head, sizeof head, "\n%-10s ", prim);
  const char *line = out_text ? strstr(out_text, head) : NULL;
  ck_assert_msg(line != NULL, "no '%s' line in:\n%s", prim, out_text ? out_text : "");
  const char *end = strchr(line + 1, '\n');
  const char *at = strstr(line, name);
  ck_assert_msg(at && (!end || at < end), "no '%s' on the %s line", name, prim);
  return strtod(at + strlen(name), NULL);
}

START_TEST(cc_validates_on_generated_and_real_graphs) {
  const char *specs[] = {"kron:12:16", "uniform:12:8", "uniform:12:1", "grid2d:40x50", "grid3d:8x9x10",
                         "kron:10:8,directed", "uniform:11:2,directed"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    ck_assert_msg(run("--primitive", "cc", "--gen", specs[i], "--runs", "2", "--validate") == 0, "%s:\n%s", specs[i],
                  err_text);
    assert_out_has("validation passed (2 runs)");
    ck_assert(summary_number("cc", "weakly_connected") == (strstr(specs[i], "directed") ? 1.0 : 0.0));
    ck_assert(summary_number("cc", "components") >= 1);
    /* A grid is one component of all its vertices. */
    if (!strncmp(specs[i], "grid2d", 6)) {
      ck_assert(summary_number("cc", "components") == 1);
      ck_assert(summary_number("cc", "largest") == 2000);
    }
  }
  char path[1024], cache[1024];
  snprintf(cache, sizeof cache, "%s/cache", gr_test_tmp_dir());
  mkdir(cache, 0777);
  for (size_t i = 0; i < N_REAL_FILES; i++) {
    if (!gr_test_data_file(path, sizeof path, real_files[i])) continue;
    ck_assert_msg(run("--primitive", "cc", path, "--runs", "2", "--validate", "--cache-dir", cache) == 0, "%s:\n%s",
                  real_files[i], err_text);
    assert_out_has("validation passed (2 runs)");
    /* Directed files: weakly connected components, said in the summary. */
    const bool directed = strstr(out_text, "(directed") != NULL;
    ck_assert(summary_number("cc", "weakly_connected") == (directed ? 1.0 : 0.0));
    if (!strcmp(real_files[i], "karate.mtx")) {
      ck_assert(summary_number("cc", "components") == 1);
      ck_assert(summary_number("cc", "largest") == 34);
    }
  }
}
END_TEST

/* Labels are the smallest input id of each component, written as the input
 * names vertices (sparse edge-list ids, 1-based Matrix Market ids); the
 * JSON has the components, the largest one and the weak flag. */
START_TEST(cc_out_labels_components_by_input_ids) {
  char g[512], o[512], j[512];
  gr_test_write_file(g, sizeof g, "comps.txt", "300 200\n200 100\n9 7\n5000000000 9\n");
  tmpfile_path(o, sizeof o, "comps.out");
  tmpfile_path(j, sizeof j, "comps.json");
  ck_assert_int_eq(run("--primitive", "cc", g, "--no-cache", "--out", o, "--json", j, "--validate"), 0);
  ck_assert_str_eq(slurp(o), "7 7\n9 7\n100 100\n200 100\n300 100\n5000000000 7\n");
  cJSON *root = cJSON_Parse(slurp(j));
  ck_assert_ptr_nonnull(root);
  const cJSON *run0 = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "runs"), 0);
  ck_assert(cJSON_IsNull(cJSON_GetObjectItem(run0, "source")));
  const cJSON *ex = cJSON_GetObjectItem(run0, "extra");
  ck_assert_ptr_nonnull(ex);
  ck_assert(cJSON_GetObjectItem(ex, "components")->valuedouble == 2);
  ck_assert(cJSON_GetObjectItem(ex, "largest")->valuedouble == 3);
  ck_assert(cJSON_GetObjectItem(ex, "weakly_connected")->valuedouble == 1);
  cJSON_Delete(root);
  gr_test_write_file(g, sizeof g, "comps.mtx",
                     "%%MatrixMarket matrix coordinate pattern symmetric\n5 5 2\n4 2\n5 3\n");
  ck_assert_int_eq(run("--primitive", "cc", g, "--no-cache", "--out", o, "--validate"), 0);
  ck_assert_str_eq(slurp(o), "1 1\n2 2\n3 3\n4 2\n5 3\n");
  unlink(o);
  unlink(j);
}
END_TEST

START_TEST(pr_validates_on_generated_and_real_graphs) {
  const char *specs[] = {"kron:12:16", "uniform:12:8", "grid2d:40x50", "kron:10:8,directed", "uniform:11:2,directed"};
  const char *dirs[] = {"auto", "push", "pull"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
    for (size_t d = 0; d < 3; d++) {
      ck_assert_msg(run("--primitive", "pr", "--gen", specs[i], "--direction", dirs[d], "--runs", "2", "--validate") == 0,
                    "%s %s:\n%s", specs[i], dirs[d], err_text);
      assert_out_has("validation passed (2 runs)");
      ck_assert(summary_number("pr", "converged") == 1);
      ck_assert(summary_number("pr", "pull") == (d == 1 ? 0.0 : 1.0));
      ck_assert(summary_number("pr", "l1") < 1e-4);
    }
  char path[1024], cache[1024];
  snprintf(cache, sizeof cache, "%s/cache", gr_test_tmp_dir());
  mkdir(cache, 0777);
  for (size_t i = 0; i < N_REAL_FILES; i++) {
    if (!gr_test_data_file(path, sizeof path, real_files[i])) continue;
    ck_assert_msg(run("--primitive", "pr", path, "--runs", "2", "--validate", "--cache-dir", cache) == 0, "%s:\n%s",
                  real_files[i], err_text);
    assert_out_has("validation passed (2 runs)");
    if (i % 3 == 1) {
      ck_assert_msg(run("--primitive", "pr", path, "--direction", "push", "--tolerance", "1e-6", "--validate",
                        "--cache-dir", cache) == 0,
                    "%s:\n%s", real_files[i], err_text);
      assert_out_has("validation passed (1 run)");
      ck_assert(summary_number("pr", "l1") < 1e-6);
    }
  }
}
END_TEST

START_TEST(bc_validates_on_generated_and_real_graphs) {
  const char *specs[] = {"kron:12:16", "uniform:12:8", "grid2d:40x50", "kron:10:8,directed", "uniform:11:2,directed"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    ck_assert_msg(run("--primitive", "bc", "--gen", specs[i], "--runs", "2", "--validate") == 0, "%s:\n%s", specs[i],
                  err_text);
    assert_out_has("validation passed (2 runs)");
    ck_assert(summary_number("bc", "sources") == 1);
    ck_assert(summary_number("bc", "levels") >= 2);
    ck_assert_msg(run("--primitive", "bc", "--gen", specs[i], "--sources", "8", "--normalize", "--validate") == 0,
                  "%s, 8 sources:\n%s", specs[i], err_text);
    assert_out_has("validation passed (1 run)");
    ck_assert(summary_number("bc", "sources") == 8);
    ck_assert(summary_number("bc", "normalized") == 1);
  }
  /* A grid's levels run from corner to corner. */
  ck_assert_int_eq(run("--primitive", "bc", "--gen", "grid2d:40x50", "--src", "0", "--validate"), 0);
  ck_assert(summary_number("bc", "levels") == 40 + 50 - 1);
  char path[1024], cache[1024];
  snprintf(cache, sizeof cache, "%s/cache", gr_test_tmp_dir());
  mkdir(cache, 0777);
  for (size_t i = 0; i < N_REAL_FILES; i++) {
    if (!gr_test_data_file(path, sizeof path, real_files[i])) continue;
    ck_assert_msg(run("--primitive", "bc", path, "--runs", "2", "--validate", "--cache-dir", cache) == 0, "%s:\n%s",
                  real_files[i], err_text);
    assert_out_has("validation passed (2 runs)");
    if (i % 3 == 1) {
      ck_assert_msg(run("--primitive", "bc", path, "--sources", "4", "--validate", "--cache-dir", cache) == 0,
                    "%s, 4 sources:\n%s", real_files[i], err_text);
      assert_out_has("validation passed (1 run)");
    }
  }
}
END_TEST

/* Exact betweenness of Zachary's karate club over all 34 sources,
 * normalized: the published values of vertices 1 and 34 (networkx's
 * nodes 0 and 33); --out by input id, the JSON's figures. */
START_TEST(bc_all_sources_of_karate_match_known_values) {
  char path[1024], o[512], j[512];
  if (!gr_test_data_file(path, sizeof path, "karate.mtx")) return;
  tmpfile_path(o, sizeof o, "bc.out");
  tmpfile_path(j, sizeof j, "bc.json");
  ck_assert_msg(run("--primitive", "bc", path, "--no-cache", "--sources", "all", "--normalize", "--validate", "--out", o,
                    "--json", j) == 0,
                "%s", err_text);
  FILE *f = fopen(o, "r");
  ck_assert_ptr_nonnull(f);
  double value[35] = {0}, x = 0;
  unsigned long long id = 0;
  int lines = 0;
  while (fscanf(f, "%llu %lf", &id, &x) == 2) {
    ck_assert(id >= 1 && id <= 34);
    value[id] = x;
    lines++;
  }
  fclose(f);
  ck_assert_int_eq(lines, 34);
  ck_assert_double_eq_tol(value[1], 0.43763528138528146, 1e-12);
  ck_assert_double_eq_tol(value[34], 0.30407497594997596, 1e-12);
  cJSON *root = cJSON_Parse(slurp(j));
  ck_assert_ptr_nonnull(root);
  const cJSON *ex = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "runs"), 0), "extra");
  ck_assert_ptr_nonnull(ex);
  ck_assert(cJSON_GetObjectItem(ex, "sources")->valuedouble == 34);
  ck_assert(cJSON_GetObjectItem(ex, "normalized")->valuedouble == 1);
  cJSON_Delete(root);
  unlink(o);
  unlink(j);
}
END_TEST

/* Beyond double: from a corner of a 700 x 700 grid the far corner has
 * C(1398, 699) ~ 10^419 shortest paths; the source runs again as
 * logarithms, the validator holds it to the long double reference, and
 * the summary and the JSON say so. From the centre (10^209 at most) the
 * counts stay numbers. */
START_TEST(bc_beyond_double_validates_and_reports_log_sources) {
  char j[512];
  tmpfile_path(j, sizeof j, "bc-grid.json");
  ck_assert_msg(run("--primitive", "bc", "--gen", "grid2d:700x700", "--src", "0", "--runs", "2", "--validate", "--json",
                    j) == 0,
                "%s", err_text);
  assert_out_has("validation passed (2 runs)");
  ck_assert(summary_number("bc", "log_sources") == 1);
  ck_assert(summary_number("bc", "sigma_log") == 1);
  ck_assert(summary_number("bc", "levels") == 2 * 700 - 1);
  cJSON *root = cJSON_Parse(slurp(j));
  ck_assert_ptr_nonnull(root);
  const cJSON *runs = cJSON_GetObjectItem(root, "runs");
  ck_assert_int_eq(cJSON_GetArraySize(runs), 2);
  for (int k = 0; k < 2; k++) {
    const cJSON *ex = cJSON_GetObjectItem(cJSON_GetArrayItem(runs, k), "extra");
    ck_assert_ptr_nonnull(ex);
    ck_assert(cJSON_GetObjectItem(ex, "log_sources")->valuedouble == 1);
    ck_assert(cJSON_GetObjectItem(ex, "sigma_log")->valuedouble == 1);
  }
  cJSON_Delete(root);
  unlink(j);
  ck_assert_msg(run("--primitive", "bc", "--gen", "grid2d:700x700", "--src", "245350", "--validate") == 0, "%s",
                err_text);
  assert_out_has("validation passed (1 run)");
  ck_assert(summary_number("bc", "log_sources") == 0);
  ck_assert(summary_number("bc", "sigma_log") == 0);
  /* --tune bc-counts=log: logarithms from the start, on a graph whose
   * counts fit double: every source counted, still valid. */
  ck_assert_msg(run("--primitive", "bc", "--gen", "kron:9:8", "--sources", "5", "--tune", "bc-counts=log",
                    "--validate") == 0,
                "%s", err_text);
  assert_out_has("validation passed (1 run)");
  ck_assert(summary_number("bc", "log_sources") == 5);
  ck_assert(summary_number("bc", "sigma_log") == 1);
}
END_TEST

/* A run over many sources that takes more than a few seconds is announced
 * first with an estimate; a short one is not (CPU devices: on a GPU both
 * are short). */
START_TEST(bc_over_many_sources_prints_an_estimate_first) {
  if (on_gpu()) return;
  ck_assert_int_eq(run("--primitive", "bc", "--gen", "kron:14:16", "--sources", "4000"), 0);
  assert_err_has("sources: about");
  /* Three sources of a tiny grid: far below the 3 s announcement even in
   * sanitized builds, where one source's probe took up to 0.17 s (all 64
   * sources then crossed it under ThreadSanitizer). */
  ck_assert_int_eq(run("--primitive", "bc", "--gen", "grid2d:8x8", "--sources", "3"), 0);
  ck_assert_msg(!err_text || !strstr(err_text, "about"), "%s", err_text);
}
END_TEST

/* The iteration limit ends a run that has not converged (and says so); the
 * JSON has one change per iteration; --out ranks sum to 1. */
START_TEST(pr_iteration_limit_json_and_out) {
  char o[512], j[512];
  tmpfile_path(o, sizeof o, "pr.out");
  tmpfile_path(j, sizeof j, "pr.json");
  ck_assert_int_eq(run("--primitive", "pr", "--gen", "kron:11:8", "--max-iter", "4", "--validate", "--out", o, "--json",
                       j),
                   0);
  assert_out_has("(iteration limit)");
  assert_out_has("validation passed");
  ck_assert(summary_number("pr", "converged") == 0);
  ck_assert(summary_number("pr", "iterations") == 4);
  cJSON *root = cJSON_Parse(slurp(j));
  ck_assert_ptr_nonnull(root);
  const cJSON *run0 = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "runs"), 0);
  ck_assert_int_eq(cJSON_GetObjectItem(run0, "iterations")->valueint, 4);
  ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(run0, "iteration_limit")));
  const cJSON *l1 = cJSON_GetObjectItem(cJSON_GetObjectItem(run0, "extra"), "change");
  ck_assert_int_eq(cJSON_GetArraySize(l1), 4);
  for (int k = 1; k < 4; k++)
    ck_assert(cJSON_GetArrayItem(l1, k)->valuedouble < cJSON_GetArrayItem(l1, k - 1)->valuedouble);
  cJSON_Delete(root);
  FILE *f = fopen(o, "r");
  ck_assert_ptr_nonnull(f);
  double sum = 0, x = 0;
  unsigned long long id = 0, lines = 0;
  while (fscanf(f, "%llu %lf", &id, &x) == 2) {
    ck_assert(x > 0);
    sum += x;
    lines++;
  }
  fclose(f);
  ck_assert_uint_eq(lines, 2048);
  ck_assert(fabs(sum - 1) < 1e-5);
  unlink(o);
  unlink(j);
}
END_TEST

/* --damping reaches the run and its reference (validation passes at each
 * damping, on one device and on two), and the reports say which damping
 * the ranks are for: the text summary and each run's extra figures in the
 * JSON. The ranks move with it. */
START_TEST(pr_damping_validates_and_is_reported) {
  char o[512], j[512];
  tmpfile_path(o, sizeof o, "pr-damping.out");
  tmpfile_path(j, sizeof j, "pr-damping.json");
  const char *dampings[] = {"0", "0.5", "0.85", "0.99"};
  enum { N = 1024 };
  static double rank[4][N];
  for (int i = 0; i < 4; i++) {
    ck_assert_msg(run("--primitive", "pr", "--gen", "kron:10:8,directed", "--damping", dampings[i], "--max-iter", "3000",
                      "--validate", "--out", o, "--json", j) == 0,
                  "--damping %s:\n%s", dampings[i], err_text);
    assert_out_has("validation passed");
    ck_assert(summary_number("pr", "damping") == strtod(dampings[i], NULL));
    ck_assert(summary_number("pr", "converged") == 1);
    cJSON *root = cJSON_Parse(slurp(j));
    ck_assert_ptr_nonnull(root);
    const cJSON *run0 = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "runs"), 0);
    const cJSON *d = cJSON_GetObjectItem(cJSON_GetObjectItem(run0, "extra"), "damping");
    ck_assert_ptr_nonnull(d);
    ck_assert(d->valuedouble == strtod(dampings[i], NULL));
    cJSON_Delete(root);
    FILE *f = fopen(o, "r");
    ck_assert_ptr_nonnull(f);
    unsigned long long id = 0, lines = 0;
    double x = 0;
    for (; fscanf(f, "%llu %lf", &id, &x) == 2; lines++) {
      ck_assert_uint_lt(id, N);
      rank[i][id] = x;
    }
    fclose(f);
    ck_assert_uint_eq(lines, N);
  }
  /* Damping 0 is the uniform jump alone: every rank 1/n. Each damping's
   * ranks are far (in L1, beyond the tolerance) from the next one's. */
  for (int v = 0; v < N; v++) ck_assert(fabs(rank[0][v] - 1.0 / N) < 1e-8);
  for (int i = 1; i < 4; i++) {
    double l1 = 0;
    for (int v = 0; v < N; v++) l1 += fabs(rank[i][v] - rank[i - 1][v]);
    ck_assert_msg(l1 > 1e-2, "damping %s and %s: L1 distance %g", dampings[i - 1], dampings[i], l1);
  }
  /* Two CPU devices (the GPU variant has test_gr_run_multi's). */
  if (!on_gpu()) {
    ck_assert_msg(run("--primitive", "pr", "--gen", "kron:10:8,directed", "--damping", "0.6", "--gpus", "2",
                      "--direction", "push", "--validate") == 0,
                  "%s", err_text);
    assert_out_has("validation passed");
    ck_assert(summary_number("pr", "damping") == 0.6);
  }
  /* Without --damping: 0.85. */
  ck_assert_int_eq(run("--primitive", "pr", "--gen", "kron:8:4"), 0);
  ck_assert(summary_number("pr", "damping") == 0.85);
  unlink(o);
  unlink(j);
}
END_TEST

START_TEST(out_file_lists_every_vertex_by_input_id) {
  char g[512], o[512];
  /* 1-2-3 path plus an isolated vertex 4 (1-based ids as in the file). */
  gr_test_write_file(g, sizeof g, "path.mtx",
                     "%%MatrixMarket matrix coordinate pattern symmetric\n4 4 2\n2 1\n3 2\n");
  tmpfile_path(o, sizeof o, "path.out");
  ck_assert_int_eq(run(g, "--src", "1", "--out", o, "--mark-pred"), 0);
  FILE *f = fopen(o, "r");
  ck_assert_ptr_nonnull(f);
  char line[128];
  const char *expect[] = {"1 0 -1", "2 1 1", "3 2 2", "4 -1 -1"};
  for (int i = 0; i < 4; i++) {
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    line[strcspn(line, "\n")] = '\0';
    ck_assert_str_eq(line, expect[i]);
  }
  ck_assert_ptr_null(fgets(line, sizeof line, f));
  fclose(f);
  unlink(o);
}
END_TEST

START_TEST(out_file_uses_original_ids_of_edge_lists) {
  char g[512], o[512];
  gr_test_write_file(g, sizeof g, "sparse.txt", "# sparse ids\n100 7\n7 5000000000\n");
  tmpfile_path(o, sizeof o, "sparse.out");
  ck_assert_int_eq(run(g, "--src", "100", "--out", o), 0);
  FILE *f = fopen(o, "r");
  ck_assert_ptr_nonnull(f);
  char all[256] = "";
  size_t got = fread(all, 1, sizeof all - 1, f);
  all[got] = '\0';
  fclose(f);
  ck_assert_str_eq(all, "7 1\n100 0\n5000000000 2\n");
  unlink(o);
}
END_TEST

START_TEST(json_report_has_the_summary_and_devices) {
  char j[512];
  tmpfile_path(j, sizeof j, "report.json");
  ck_assert_int_eq(run("--gen", "kron:10:8", "--runs", "3", "--validate", "--json", j), 0);
  FILE *f = fopen(j, "r");
  ck_assert_ptr_nonnull(f);
  static char text[1 << 20];
  size_t n = fread(text, 1, sizeof text - 1, f);
  text[n] = '\0';
  fclose(f);
  cJSON *root = cJSON_Parse(text);
  ck_assert_ptr_nonnull(root);
  ck_assert_str_eq(cJSON_GetObjectItem(root, "primitive")->valuestring, "bfs");
  ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root, "runs")), 3);
  cJSON *sum = cJSON_GetObjectItem(root, "summary");
  ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(sum, "validation_passed")));
  ck_assert(cJSON_GetObjectItem(sum, "median_ms")->valuedouble > 0);
  cJSON *devs = cJSON_GetObjectItem(root, "devices");
  ck_assert_int_eq(cJSON_GetArraySize(devs), 1);
  ck_assert(cJSON_GetObjectItem(cJSON_GetArrayItem(devs, 0), "peak_bytes")->valuedouble > 0);
  /* What the automatic choices read: a GPU's L2 and memory bandwidth (0 on a CPU device). */
  ck_assert(cJSON_IsNumber(cJSON_GetObjectItem(cJSON_GetArrayItem(devs, 0), "l2_bytes")));
  ck_assert(cJSON_IsNumber(cJSON_GetObjectItem(cJSON_GetArrayItem(devs, 0), "memory_bandwidth")));
  ck_assert_ptr_nonnull(cJSON_GetObjectItem(root, "versions"));
  ck_assert(cJSON_GetArraySize(cJSON_GetObjectItem(root, "command_line")) > 3);
  cJSON *run0 = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "runs"), 0);
  ck_assert(cJSON_GetArraySize(cJSON_GetObjectItem(run0, "frontier_sizes")) > 1);
  cJSON_Delete(root);
  unlink(j);
}
END_TEST

/* The device's peak from a --json report. */
static double json_peak(const char *path) {
  cJSON *root = cJSON_Parse(slurp(path));
  ck_assert_ptr_nonnull(root);
  const cJSON *peak = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "devices"), 0), "peak_bytes");
  ck_assert(cJSON_IsNumber(peak));
  const double v = peak->valuedouble;
  cJSON_Delete(root);
  return v;
}

/* Weights reach a device only for a primitive that reads them: a weighted
 * graph run by the others holds what the same graph unweighted holds (4
 * bytes an arc more otherwise, as many as the neighbour ids), and SSSP's
 * part holds its weights. */
START_TEST(weights_reach_the_device_only_where_read) {
  const char *prims[] = {"bfs", "dobfs", "cc", "pr", "bc"};
  char j[512];
  tmpfile_path(j, sizeof j, "weights.json");
  for (size_t i = 0; i < sizeof prims / sizeof *prims; i++) {
    ck_assert_int_eq(run("--primitive", prims[i], "--gen", "kron:12:8", "--runs", "1", "--quiet", "--json", j), 0);
    const double plain = json_peak(j);
    ck_assert_int_eq(run("--primitive", prims[i], "--gen", "kron:12:8", "--weights", "random:1:255", "--runs", "1",
                         "--quiet", "--json", j),
                     0);
    const double weighted = json_peak(j);
    ck_assert_msg(weighted == plain, "%s: peak %.0f bytes on a weighted graph, %.0f unweighted", prims[i], weighted,
                  plain);
  }
  /* kron:12:8 holds 65,500-odd arcs: SSSP's peak holds their 4-byte weights. */
  ck_assert_int_eq(run("--primitive", "sssp", "--gen", "kron:12:8", "--weights", "random:1:255", "--runs", "1",
                       "--quiet", "--json", j),
                   0);
  const double sssp = json_peak(j);
  ck_assert_msg(sssp >= 4.0 * 60000, "sssp's peak %.0f bytes cannot hold its weights", sssp);
  unlink(j);
}
END_TEST

/* --graph-memory host: every primitive reads its column indices (and
 * weights) from host memory and validates; device placement under a
 * device memory limit smaller than the graph ends with exit 3 and names
 * the way out; auto takes host memory then, and validates. */
START_TEST(graph_memory_host_validates_every_primitive) {
  static const struct {
    const char *prim, *weights;
  } prims[] = {{"bfs", NULL}, {"dobfs", NULL}, {"sssp", "random:1:9"}, {"cc", NULL},
               {"pr", NULL},  {"bc", NULL},    {"reach", NULL}};
  for (size_t i = 0; i < sizeof prims / sizeof prims[0]; i++) {
    const char *w = prims[i].weights;
    const int rc = w ? run("--primitive", prims[i].prim, "--gen", "kron:11:8", "--weights", w, "--graph-memory", "host",
                           "--runs", "2", "--validate")
                     : run("--primitive", prims[i].prim, "--gen", "kron:11:8", "--graph-memory", "host", "--runs", "2",
                           "--validate");
    ck_assert_msg(rc == 0, "%s with the graph in host memory: exit %d\n%s", prims[i].prim, rc, err_text);
    assert_out_has("validation passed (2 runs)");
    assert_out_has("graph arrays in host memory");
  }
  /* Directed: the CSC gets its own host arrays. */
  ck_assert_int_eq(run("--primitive", "dobfs", "--gen", "kron:11:8,directed", "--graph-memory", "host", "--runs", "2",
                       "--validate"),
                   0);
  /* kron:13:8's arrays (about 500 KiB; 930 KiB with 64-bit ids) do not fit
   * in 320 KiB (640 KiB with 64-bit ids, whose state is twice as large);
   * its offsets and BFS's state do (gr_run has this build's ids). */
  const char *limit = GR_VID_BITS == 64 ? "640K" : "320K";
  ck_assert_int_eq(run("--gen", "kron:13:8", "--graph-memory", "device", "--device-memory-limit", limit), 3);
  assert_err_has("--graph-memory host");
  ck_assert_int_eq(run("--gen", "kron:13:8", "--device-memory-limit", limit, "--runs", "2", "--validate"), 0);
  assert_out_has("graph arrays in host memory");
  /* Room enough: auto keeps the arrays on the device. */
  ck_assert_int_eq(run("--gen", "kron:13:8", "--runs", "1", "--validate"), 0);
  ck_assert_ptr_null(strstr(out_text, "graph arrays in host memory"));
}
END_TEST

/* Peak device memory of the last run's device 0, in bytes (the summary's
 * "peak memory 4.25 MiB"). */
static double peak_memory(void) {
  const char *at = out_text ? strstr(out_text, "peak memory ") : NULL;
  ck_assert_msg(at, "no peak memory in:\n%s", out_text ? out_text : "");
  double x = 0;
  char unit[8] = "";
  ck_assert_int_eq(sscanf(at + strlen("peak memory "), "%lf %7s", &x, unit), 2);
  const char *units[] = {"B", "KiB", "MiB", "GiB"};
  for (int i = 0; i < 4; i++, x *= 1024)
    if (!strncmp(unit, units[i], strlen(units[i])) && (unit[strlen(units[i])] == ',' || !unit[strlen(units[i])]))
      return x;
  ck_abort_msg("unit '%s'", unit);
  return 0;
}

/* --compress packed: every primitive validates with packed lists (CPU
 * devices here, the GPU in the GPU variant), in less memory; a bad value
 * and a conflicting tuning are refused with exit 2 and the reason. */
START_TEST(compress_packed_validates_every_primitive) {
  static const struct {
    const char *prim, *spec, *weights;
  } ok[] = {{"bfs", "kron:11:8", NULL},          {"bfs", "uniform:10:4,directed", NULL},
            {"dobfs", "kron:11:16", NULL},       {"dobfs", "kron:10:8,directed", NULL},
            {"sssp", "grid2d:20x30", "random:1:9"}, {"reach", "kron:10:8,directed", NULL}};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    const char *w = ok[i].weights;
    const int rc = w ? run("--primitive", ok[i].prim, "--gen", ok[i].spec, "--weights", w, "--compress", "packed",
                           "--runs", "2", "--validate", "--mark-pred")
                     : run("--primitive", ok[i].prim, "--gen", ok[i].spec, "--compress", "packed", "--runs", "2",
                           "--validate", "--mark-pred");
    ck_assert_msg(rc == 0, "%s %s with packed lists: exit %d\n%s", ok[i].prim, ok[i].spec, rc, err_text);
    assert_out_has("validation passed (2 runs)");
  }
  {
    /* Idempotent claims; weights in host memory beside packed lists. */
    ck_assert_int_eq(run("--gen", "kron:11:8", "--compress", "packed", "--tune", "status=idempotent", "--mark-pred",
                         "--runs", "2", "--validate"),
                     0);
    assert_out_has("validation passed (2 runs)");
    ck_assert_int_eq(run("--primitive", "sssp", "--gen", "kron:10:8,directed", "--weights", "random:1:9", "--compress",
                         "packed", "--graph-memory", "host", "--runs", "2", "--validate"),
                     0);
    assert_out_has("validation passed (2 runs)");
    assert_out_has("graph arrays in host memory");
    /* Kronecker 14's ids packed: the device holds well under its 4-byte ids. */
    ck_assert_int_eq(run("--gen", "kron:14:16", "--compress", "none", "--runs", "1"), 0);
    const double plain = peak_memory();
    ck_assert_int_eq(run("--gen", "kron:14:16", "--compress", "packed", "--runs", "1"), 0);
    const double packed = peak_memory();
    ck_assert_msg(packed < 0.75 * plain, "peak memory %.0f packed, %.0f plain", packed, plain);
  }
  /* cc, pr (pull and push) and bc decode lists in loops of their own. */
  static const struct {
    const char *prim, *spec, *dir;
  } own[] = {{"cc", "kron:11:8", "auto"},        {"cc", "uniform:10:2,directed", "auto"},
             {"pr", "kron:11:8", "auto"},        {"pr", "uniform:10:4,directed", "push"},
             {"pr", "grid2d:20x30", "auto"},     {"bc", "kron:10:8", "auto"},
             {"bc", "kron:9:4,directed", "auto"}};
  for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
    const int rc = run("--primitive", own[i].prim, "--gen", own[i].spec, "--direction", own[i].dir, "--compress",
                       "packed", "--runs", "2", "--validate");
    ck_assert_msg(rc == 0, "%s %s with packed lists: exit %d\n%s", own[i].prim, own[i].spec, rc, err_text);
    assert_out_has("validation passed (2 runs)");
  }
  /* Every row walked a thread per block, its blocks copied to shared
   * memory first or read in place, under each primitive that walks (on
   * the GPU, every level through the push: no device-side loop over small
   * frontiers; the CPU backend reads lists its own way). */
  const char *walks[] = {"long-rows=1,walk-stage=on,small=off", "long-rows=1,walk-stage=off,small=off"};
  static const struct {
    const char *prim, *weights;
  } walkers[] = {{"bfs", "none"}, {"sssp", "random:1:63"}, {"bc", "none"}, {"reach", "none"}};
  for (size_t i = 0; i < sizeof walkers / sizeof walkers[0]; i++)
    for (size_t k = 0; k < 2; k++) {
      const int rc = run("--primitive", walkers[i].prim, "--gen", "kron:12:16", "--weights", walkers[i].weights,
                         "--compress", "packed", "--tune", walks[k], "--runs", "2", "--validate");
      ck_assert_msg(rc == 0, "%s --tune %s with packed lists: exit %d\n%s", walkers[i].prim, walks[k], rc, err_text);
      assert_out_has("validation passed (2 runs)");
    }
  /* pr's relabelled pull would keep the ids unpacked beside the packed. */
  ck_assert_int_eq(run("--primitive", "pr", "--gen", "kron:8:4", "--compress", "packed", "--tune", "relabel=on"), 2);
  assert_err_has("relabel=on");
  ck_assert_int_eq(run("--gen", "kron:8:4", "--compress", "zip"), 2);
  assert_err_has("expected none or packed");
}
END_TEST

START_TEST(help_lists_every_option_with_defaults) {
  ck_assert_int_eq(run("--help"), 0);
  const char *opts[] = {"--primitive", "--gpus", "--cpu", "--src", "--runs", "--seed", "--validate",
                        "--json", "--out", "--undirected", "--gen", "--quiet", "--mark-pred",
                        "--self-loops", "--duplicates", "--weights", "--no-cache", "--cache-dir",
                        "--progress", "--max-iter", "--mem", "--format", "--cpu-threads", "--delta", "sssp",
                        "--tolerance", "--damping", "0.85", "pr", "cc", "--sources", "--normalize", "bc",
                        "--graph-memory", "--device-memory-limit", "--compress", "default"};
  for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) assert_out_has(opts[i]);
}
END_TEST

START_TEST(quiet_prints_nothing) {
  ck_assert_int_eq(run("--gen", "kron:8:4", "--quiet", "--validate"), 0);
  ck_assert_str_eq(out_text, "");
}
END_TEST

START_TEST(same_seed_same_sources) {
  ck_assert_int_eq(run("--gen", "kron:10:8", "--runs", "3", "--seed", "5"), 0);
  char *first = strdup(out_text);
  ck_assert_int_eq(run("--gen", "kron:10:8", "--runs", "3", "--seed", "5"), 0);
  /* The run table's source column must match line by line. */
  const char *a = strstr(first, "run "), *b = strstr(out_text, "run ");
  ck_assert_ptr_nonnull(a);
  ck_assert_ptr_nonnull(b);
  for (int i = 0; i < 3; i++) {
    a = strchr(a, '\n') + 1;
    b = strchr(b, '\n') + 1;
    int ra, rb;
    unsigned long long sa, sb;
    ck_assert_int_eq(sscanf(a, "%d %llu", &ra, &sa), 2);
    ck_assert_int_eq(sscanf(b, "%d %llu", &rb, &sb), 2);
    ck_assert_uint_eq(sa, sb);
  }
  free(first);
}
END_TEST

/* ---- failures ------------------------------------------------------------ */

START_TEST(injected_allocation_failure_exits_3_and_writes_nothing) {
  char o[512];
  tmpfile_path(o, sizeof o, "fault.out");
  unlink(o);
  const char *env[] = {"GR_FAULT_ALLOC=0:3", NULL};
  int rc = run_env(env, "--gen", "kron:10:8", "--out", o, NULL);
  ck_assert_int_eq(rc, 3);
  assert_err_has("injected");
  assert_err_has("device 0");
  ck_assert_int_ne(access(o, F_OK), 0);
}
END_TEST

START_TEST(validation_failure_exits_1) {
  const char *env[] = {"GR_FAULT_RESULT=1", NULL};
  int rc = run_env(env, "--gen", "kron:10:8", "--validate", NULL);
  ck_assert_int_eq(rc, 1);
  assert_out_has("validation FAILED");
  /* Distances of both weight kinds. */
  const char *weights[] = {"random:1:255", "random:0.5:1.5"};
  for (int w = 0; w < 2; w++) {
    rc = run_env(env, "--primitive", "sssp", "--gen", "kron:10:8", "--weights", weights[w], "--validate", NULL);
    ck_assert_int_eq(rc, 1);
    assert_out_has("validation FAILED");
    assert_out_has("distance");
  }
  /* Labels and ranks. */
  rc = run_env(env, "--primitive", "cc", "--gen", "kron:10:8", "--validate", NULL);
  ck_assert_int_eq(rc, 1);
  assert_out_has("validation FAILED");
  assert_out_has("label");
  rc = run_env(env, "--primitive", "pr", "--gen", "kron:10:8", "--validate", NULL);
  ck_assert_int_eq(rc, 1);
  assert_out_has("validation FAILED");
  assert_out_has("rank");
  rc = run_env(env, "--primitive", "bc", "--gen", "kron:10:8", "--validate", NULL);
  ck_assert_int_eq(rc, 1);
  assert_out_has("validation FAILED");
  assert_out_has("centrality");
}
END_TEST

START_TEST(sssp_bad_weights_exit_2_with_a_clear_message) {
  const bad_case cases[] = {
      {"neg.mtx", "%%MatrixMarket matrix coordinate integer general\n4 4 3\n1 2 3\n2 3 -2\n3 4 1\n",
       "edge 2 -> 3 has a negative weight (-2)"},
      {"negsym.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 1.5\n3 2 -0.5\n",
       "edge 2 -> 3 has a negative weight (-0.5)"},
      {"neg.txt", "7 8 1\n8 9 -4\n", "edge 8 -> 9 has a negative weight (-4)"},
      {"nan.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1\n2 3 nan\n", "nan"},
      {"inf.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 inf\n2 3 1\n", "inf"},
      {"nan.txt", "1 2 NaN\n", "NaN"},
      {"pattern.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n",
       "needs edge weights"},
  };
  char path[512];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    gr_test_write_file(path, sizeof path, cases[i].name, cases[i].text);
    int rc = run("--primitive", "sssp", path, "--no-cache", "--validate");
    ck_assert_msg(rc == 2, "%s: exit %d, stderr: %s", cases[i].name, rc, err_text);
    assert_err_has(cases[i].needle);
    assert_err_has(cases[i].name);
  }
  gr_test_write_file(path, sizeof path, "pattern.mtx", cases[6].text);
  ck_assert_int_eq(run("--primitive", "sssp", path, "--no-cache", "--weights", "none"), 2);
  assert_err_has("--weights none");
  /* Generated weights below 0. */
  ck_assert_int_eq(run("--primitive", "sssp", "--gen", "kron:8:4", "--weights", "random:-3:5"), 2);
  assert_err_has("negative weight");
  const char *deltas[] = {"0", "-1", "x", "nan", "inf", "1e39", ""};
  for (size_t d = 0; d < sizeof deltas / sizeof deltas[0]; d++) {
    ck_assert_int_eq(run("--primitive", "sssp", "--gen", "kron:8:4", "--weights", "random:1:5", "--delta", deltas[d]), 2);
    assert_err_has("--delta");
  }
}
END_TEST

START_TEST(malformed_inputs_exit_2_with_a_clear_message) {
  char big[256];
  snprintf(big, sizeof big, "%%%%MatrixMarket matrix coordinate pattern general\n1000 1000 %llu\n1 2\n",
           1000000000000ULL);
  const bad_case cases[] = {
      {"truncated.mtx", "%%MatrixMarket matrix coordinate pattern general\n5 5 3\n1 2\n2 ", "3"},
      {"fewer.mtx", "%%MatrixMarket matrix coordinate pattern general\n5 5 4\n1 2\n2 3\n", "4"},
      {"more.mtx", "%%MatrixMarket matrix coordinate pattern general\n5 5 1\n1 2\n2 3\n", "1"},
      {"zero.mtx", "%%MatrixMarket matrix coordinate pattern general\n5 5 1\n0 2\n", "0"},
      {"above.mtx", "%%MatrixMarket matrix coordinate pattern general\n5 5 1\n1 6\n", "6"},
      {"word.mtx", "%%MatrixMarket matrix coordinate pattern general\n5 5 1\n1 x\n", "x"},
      {"array.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", "array"},
      {"complex.mtx", "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1 1\n", "complex"},
      {"skew.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 1\n", "skew"},
      {"herm.mtx", "%%MatrixMarket matrix coordinate real hermitian\n2 2 1\n2 1 1\n", "ermitian"},
      {"empty.mtx", "", "empty"},
      {"huge.mtx", big, "1000000000000"},
      {"badlist.txt", "1 2\n3 x\n", "x"},
      {"negative.txt", "1 2\n-3 4\n", "-3"},
  };
  char path[512];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    gr_test_write_file(path, sizeof path, cases[i].name, cases[i].text);
    int rc = run(path, "--no-cache");
    ck_assert_msg(rc == 2, "%s: exit %d, stderr: %s", cases[i].name, rc, err_text);
    assert_err_has(cases[i].needle);
    assert_err_has(cases[i].name);
  }
}
END_TEST

START_TEST(missing_file_and_directory_exit_2) {
  ck_assert_int_eq(run("/nonexistent/graph.mtx"), 2);
  assert_err_has("/nonexistent/graph.mtx");
  assert_err_has("No such file");
  ck_assert_int_eq(run(gr_test_tmp_dir()), 2);
  assert_err_has("directory");
}
END_TEST

START_TEST(bad_options_exit_2) {
  char g[512];
  gr_test_write_file(g, sizeof g, "tiny.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n");
  ck_assert_int_eq(run(g, "--src", "4"), 2);
  assert_err_has("4");
  ck_assert_int_eq(run(g, "--src", "0"), 2);
  ck_assert_int_eq(run(g, "--src", "nowhere"), 2);
  assert_err_has("--src");
  ck_assert_int_eq(run(g, "--runs", "0"), 2);
  assert_err_has("--runs");
  ck_assert_int_eq(run(g, "--primitive", "nosuch"), 2);
  assert_err_has("nosuch");
  ck_assert_int_eq(run(g, "--frobnicate"), 2);
  assert_err_has("--frobnicate");
  ck_assert_int_eq(run(g, "--gen", "kron:4"), 2);
  ck_assert_int_eq(run("--gen", "kron:abc"), 2);
  assert_err_has("abc");
  ck_assert_int_eq(run(g, "--weights", "random:5:1"), 2);
  ck_assert_int_eq(run(g, "--mem", "lots"), 2);
  assert_err_has("--mem");
  ck_assert_int_eq(run(g, "--graph-memory", "somewhere"), 2);
  assert_err_has("graph memory");
  const char *limits[] = {"0", "12Q", "-5G", "", "G", "1.5G"};
  for (size_t k = 0; k < sizeof limits / sizeof limits[0]; k++) {
    ck_assert_int_eq(run(g, "--device-memory-limit", limits[k]), 2);
    assert_err_has("--device-memory-limit");
  }
  const char *tolerances[] = {"0", "-1e-4", "x", "nan", "inf", "2", "1e-4x", ""};
  for (size_t t = 0; t < sizeof tolerances / sizeof tolerances[0]; t++) {
    ck_assert_int_eq(run(g, "--primitive", "pr", "--tolerance", tolerances[t]), 2);
    assert_err_has("--tolerance");
  }
  /* 1 and above, negatives, NaN, infinities and non-numbers: refused with
   * the flag named, before any run. */
  const char *dampings[] = {"1", "1.0", "1.5", "-0.1", "-0", "nan", "NaN", "inf", "-inf", "x", "0.5x", "", "0x0.8"};
  for (size_t t = 0; t < sizeof dampings / sizeof dampings[0]; t++) {
    ck_assert_msg(run(g, "--primitive", "pr", "--damping", dampings[t]) == 2, "--damping '%s'", dampings[t]);
    assert_err_has("--damping needs a number from 0 up to (not including) 1");
  }
  ck_assert_int_eq(run(g, "--primitive", "pr", "--max-iter", "-3"), 2);
  assert_err_has("--max-iter");
  ck_assert_int_eq(run(g, "--primitive", "pr", "--direction", "sideways"), 2);
  assert_err_has("--direction");
  const char *counts[] = {"0", "-2", "x", "", "3all"};
  for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
    ck_assert_int_eq(run(g, "--primitive", "bc", "--sources", counts[k]), 2);
    assert_err_has("--sources");
  }
  /* Options of a primitive that sums over sources, on others. */
  ck_assert_int_eq(run(g, "--primitive", "bfs", "--sources", "4"), 2);
  assert_err_has("bc");
  ck_assert_int_eq(run(g, "--primitive", "pr", "--normalize"), 2);
  assert_err_has("--normalize");
  ck_assert_int_eq(run(g, "--primitive", "sssp", "--weights", "random:1:9", "--sources", "all"), 2);
  assert_err_has("--sources");
  ck_assert_int_eq(run(g, "--primitive", "bc", "--src", "1", "--sources", "4"), 2);
  assert_err_has("not both");
  ck_assert_int_eq(run(g, "--primitive", "bc", "--src", "99"), 2);
  assert_err_has("--src");
  ck_assert_int_eq(run("--primitive", "bc", "--gen", "kron:6:4", "--sources", "64"), 2);
  assert_err_has("out-edges");
  ck_assert_int_eq(run(NULL), 2);
}
END_TEST

START_TEST(more_gpus_than_exist_exit_2) {
  /* Without --cpu: asks for more GPUs than any machine here has. */
  const char *argv[] = {gr_run_bin(), "--gpus", "1000", "--gen", "kron:6:4", NULL};
  free(err_text);
  err_text = NULL;
  int rc = gr_test_run(argv, NULL, NULL, &err_text);
  ck_assert_int_eq(rc, 2);
  assert_err_has("exist");
}
END_TEST

/* GR_DEBUG=TRACE over ALLOC and PRIM names every device allocation and
 * free by its address, and PageRank names its ranks' buffer when the first
 * iteration has initialized it and when the extract copies it back: the
 * same address, which is what ties a compute-sanitizer report to a buffer. */
START_TEST(trace_names_allocations_by_address) {
  const char *env[] = {"GR_DEBUG=TRACE", "GR_DEBUG_SUBSYS=ALLOC,PRIM", NULL};
  ck_assert_int_eq(run_env(env, "--primitive", "pr", "--gen", "kron:8:4", "--runs", "1", "--validate", NULL), 0);
  const char *key = "bytes for pr ranks at ";
  const char *a = strstr(err_text, key);
  ck_assert_msg(a, "no allocation of the ranks in the trace:\n%s", err_text);
  char addr[40] = "";
  ck_assert_int_eq(sscanf(a + strlen(key), "%39s", addr), 1);
  ck_assert_msg(strcmp(addr, "(nil)") != 0, "the ranks' address: %s", addr);
  char want[96];
  snprintf(want, sizeof want, "256 ranks at %s initialized (256 owned)", addr);
  assert_err_has(want);
  snprintf(want, sizeof want, "copying back 256 ranks from %s", addr);
  assert_err_has(want);
  /* Freed by address too (a free's line has no "for"). */
  snprintf(want, sizeof want, "bytes at %s (in use", addr);
  assert_err_has(want);
}
END_TEST

/* Whether what occurs on the line that starts at line. */
static bool on_line(const char *line, const char *what) {
  const char *at = strstr(line, what), *eol = strchr(line, '\n');
  return at && (!eol || at < eol);
}

/* A device's iteration lines in the trace: every iteration begun ended,
 * and the first began, then SSSP said its bucket, then it ended, in that
 * order (the start is logged before the iteration's work, which is what
 * makes it useful when a run hangs). */
static void check_iteration_trace(int dev) {
  char key[64], first[64], bucket[64];
  snprintf(key, sizeof key, "gr TRACE: device %d: iteration ", dev);
  snprintf(first, sizeof first, "gr TRACE: device %d: iteration 0: ", dev);
  snprintf(bucket, sizeof bucket, "gr TRACE: sssp: device %d: iteration 0: bucket ", dev);
  int begun = 0, ended = 0;
  for (const char *q = err_text; (q = strstr(q, key)); q++) {
    if (on_line(q, " items in")) begun++;
    if (on_line(q, " items out, ")) ended++;
  }
  ck_assert_msg(begun > 0 && begun == ended, "device %d: %d iterations begun, %d ended:\n%s", dev, begun, ended,
                err_text);
  const char *b = strstr(err_text, first);
  ck_assert_msg(b && on_line(b, " items in"), "device %d: iteration 0 does not begin first:\n%s", dev, err_text);
  const char *k = strstr(b, bucket);
  ck_assert_msg(k, "device %d: no bucket for iteration 0 after its start:\n%s", dev, err_text);
  const char *e = strstr(k, first);
  ck_assert_msg(e && on_line(e, " items out, "), "device %d: iteration 0 does not end after its bucket:\n%s", dev,
                err_text);
}

/* GR_DEBUG=TRACE over PRIM follows each device's iterations as they start
 * and end, and SSSP says its relax's input before launching it: what a run
 * that stops making progress leaves on stderr about where it was. */
START_TEST(trace_follows_the_iterations) {
  const char *env[] = {"GR_DEBUG=TRACE", "GR_DEBUG_SUBSYS=PRIM", NULL};
  ck_assert_int_eq(run_env(env, "--primitive", "sssp", "--gen", "grid2d:8x8", "--weights", "random:1:4", "--src", "0",
                           "--runs", "1", "--validate", NULL),
                   0);
  /* One source: the first iteration takes it in, and its bucket is it. */
  assert_err_has("device 0: iteration 0: 1 items in");
  assert_err_has("sssp: device 0: iteration 0: bucket 1, pile 0, split ");
  check_iteration_trace(0);
  /* Two devices (CPU devices here; the GPU variant runs one GPU): each
   * device's own lines, every iteration begun ended. */
  if (!on_gpu()) {
    ck_assert_int_eq(run_env(env, "--gpus", "2", "--primitive", "sssp", "--gen", "grid2d:8x8", "--weights", "random:1:4",
                             "--src", "0", "--runs", "1", "--validate", NULL),
                     0);
    for (int d = 0; d < 2; d++) check_iteration_trace(d);
  }
}
END_TEST

int main(void) {
  if (on_gpu()) {
    const char *bin = getenv("GR_RUN");
    const char *argv[] = {bin ? bin : "gr_run", "--gpus", "1", "--gen", "kron:4:4", "--quiet", NULL};
    if (gr_test_run(argv, NULL, NULL, NULL) != 0) {
      printf("skip: no GPU for the GPU variant of the gr_run tests\n");
      return 77;
    }
  }
  Suite *s = suite_create("gr_run");
  TCase *runs = tcase_create("runs");
  tcase_set_timeout(runs, 900);
  tcase_add_test(runs, bfs_validates_on_generated_graphs);
  tcase_add_test(runs, weights_reach_the_device_only_where_read);
  tcase_add_test(runs, phases_account_for_the_wall_time);
  tcase_add_test(runs, bfs_validates_with_predecessors_and_sources);
  tcase_add_test(runs, bfs_validates_on_real_graphs);
  tcase_add_test(runs, dobfs_validates_in_every_direction);
  tcase_add_test(runs, sssp_validates_on_generated_graphs);
  tcase_add_test(runs, sssp_validates_on_real_graphs);
  tcase_add_test(runs, sssp_reads_weights_from_files);
  tcase_add_test(runs, gr_gen_writes_weights_that_sssp_reads_back);
  tcase_add_test(runs, sssp_json_reports_delta_and_bucket_sizes);
  tcase_add_test(runs, every_tuning_variant_validates);
  tcase_add_test(runs, cc_validates_on_generated_and_real_graphs);
  tcase_add_test(runs, cc_out_labels_components_by_input_ids);
  tcase_add_test(runs, pr_validates_on_generated_and_real_graphs);
  tcase_add_test(runs, pr_iteration_limit_json_and_out);
  tcase_add_test(runs, pr_damping_validates_and_is_reported);
  tcase_add_test(runs, bc_validates_on_generated_and_real_graphs);
  tcase_add_test(runs, bc_all_sources_of_karate_match_known_values);
  tcase_add_test(runs, bc_over_many_sources_prints_an_estimate_first);
  tcase_add_test(runs, bc_beyond_double_validates_and_reports_log_sources);
  tcase_add_test(runs, out_file_lists_every_vertex_by_input_id);
  tcase_add_test(runs, out_file_uses_original_ids_of_edge_lists);
  tcase_add_test(runs, json_report_has_the_summary_and_devices);
  tcase_add_test(runs, help_lists_every_option_with_defaults);
  tcase_add_test(runs, quiet_prints_nothing);
  tcase_add_test(runs, same_seed_same_sources);
  tcase_add_test(runs, graph_memory_host_validates_every_primitive);
  tcase_add_test(runs, compress_packed_validates_every_primitive);
  tcase_add_test(runs, trace_names_allocations_by_address);
  tcase_add_test(runs, trace_follows_the_iterations);
  suite_add_tcase(s, runs);
  TCase *bad = tcase_create("failures");
  tcase_set_timeout(bad, 300);
  tcase_add_test(bad, injected_allocation_failure_exits_3_and_writes_nothing);
  tcase_add_test(bad, validation_failure_exits_1);
  tcase_add_test(bad, malformed_inputs_exit_2_with_a_clear_message);
  tcase_add_test(bad, sssp_bad_weights_exit_2_with_a_clear_message);
  tcase_add_test(bad, missing_file_and_directory_exit_2);
  tcase_add_test(bad, bad_options_exit_2);
  tcase_add_test(bad, more_gpus_than_exist_exit_2);
  suite_add_tcase(s, bad);
  return gr_test_run_suite(s, 0);
}
