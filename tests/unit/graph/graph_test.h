/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by the graph module's tests: writing small inputs, loading
 * them with the cache off, expected failures checked by status and message,
 * and CSRs printed as compact text ("0:1,2 1:0 2:0") for exact comparison. */
#ifndef GR_GRAPH_TEST_H
#define GR_GRAPH_TEST_H

#include <check.h>
#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gr/graph.h"
#include "gr/status.h"
#include "gr/util.h"
#include "testutil.h"

static inline int gt__remove(const char *path, const struct stat *s, int flag, struct FTW *f) {
  (void)s;
  (void)f;
  if (flag == FTW_DP) {
    chmod(path, 0755);
    return rmdir(path) != 0;
  }
  return unlink(path) != 0;
}

/* Removes what this test process left in the scratch folder (every name
 * there starts with its pid), so repeated runs do not pile up files. */
static inline void gt_cleanup_scratch(void) {
  char prefix[32], path[4096];
  int k = snprintf(prefix, sizeof prefix, "%d-", (int)getpid());
  DIR *d = opendir(gr_test_tmp_dir());
  if (!d) return;
  for (struct dirent *e = readdir(d); e; e = readdir(d)) {
    if (strncmp(e->d_name, prefix, (size_t)k) != 0) continue;
    snprintf(path, sizeof path, "%s/%s", gr_test_tmp_dir(), e->d_name);
    chmod(path, 0755);
    nftw(path, gt__remove, 16, FTW_DEPTH | FTW_PHYS);
  }
  closedir(d);
}

/* A test case whose tests clean the scratch folder afterwards. */
static inline TCase *gt_tcase(const char *name) {
  TCase *tc = tcase_create(name);
  tcase_add_checked_fixture(tc, NULL, gt_cleanup_scratch);
  return tc;
}

/* Storage for paths handed out by the helpers: a ring of static slots, so
 * tests can keep a few paths without freeing them (and without leaks). */
#define GT_PATH_LEN 4096
static inline char *gt_path_slot(void) {
  static char slots[32][GT_PATH_LEN];
  static unsigned next;
  return slots[next++ % 32];
}

/* The scratch path for `name`: "<tmp>/<pid>-<name>". */
static inline const char *gt_scratch(const char *name) {
  char *path = gt_path_slot();
  snprintf(path, GT_PATH_LEN, "%s/%d-%s", gr_test_tmp_dir(), (int)getpid(), name);
  return path;
}

/* Writes a scratch file and returns its path. */
static inline const char *gt_write(const char *name, const char *text) {
  char *buf = gt_path_slot();
  ck_assert_ptr_nonnull(gr_test_write_file(buf, GT_PATH_LEN, name, text));
  return buf;
}

/* Load options for tests: no cache, no progress. */
static inline gr_load_options gt_options(void) {
  gr_load_options o = GR_LOAD_OPTIONS_INIT;
  o.use_cache = false;
  o.progress = -1;
  return o;
}

static inline gr_graph *gt_load_path(const char *path, const gr_load_options *o) {
  gr_graph *g = NULL;
  gr_status st = gr_graph_load(&g, path, o);
  ck_assert_msg(st == GR_SUCCESS, "loading %s failed: %s: %s", path, gr_status_name(st),
                gr_error_message());
  ck_assert_ptr_nonnull(g);
  return g;
}

static inline gr_graph *gt_load_text(const char *name, const char *text, const gr_load_options *o) {
  return gt_load_path(gt_write(name, text), o);
}

/* Asserts that loading fails with `status` and a message containing `part`. */
static inline void gt_load_fails_path(const char *path, const gr_load_options *o, gr_status status,
                                      const char *part) {
  gr_graph *g = NULL;
  gr_error_clear();
  gr_status st = gr_graph_load(&g, path, o);
  ck_assert_msg(st == status, "loading %s: expected %s, got %s (%s)", path, gr_status_name(status),
                gr_status_name(st), gr_error_message());
  ck_assert_ptr_null(g);
  ck_assert_msg(strstr(gr_error_message(), part) != NULL, "message \"%s\" does not contain \"%s\"",
                gr_error_message(), part);
}

static inline void gt_load_fails(const char *name, const char *text, gr_status status,
                                 const char *part) {
  gr_load_options o = gt_options();
  gt_load_fails_path(gt_write(name, text), &o, status, part);
}

/* "0:1,2 1:0 2:" with weights as "1(2.5)" when `weights`. */
static inline const char *gt_csr_text(const gr_csr *c, bool weights) {
  static char buf[1 << 16];
  size_t k = 0;
  buf[0] = '\0';
  for (gr_vid u = 0; u < c->n; u++) {
    k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%llu:", u ? " " : "", (unsigned long long)u);
    for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) {
      k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%llu", e > c->offsets[u] ? "," : "",
                            (unsigned long long)c->indices[e]);
      if (weights && c->weights) k += (size_t)snprintf(buf + k, sizeof buf - k, "(%g)", (double)c->weights[e]);
    }
    ck_assert_msg(k < sizeof buf - 64, "graph too large to print");
  }
  return buf;
}

static inline const char *gt_graph_text(const gr_graph *g) { return gt_csr_text(gr_graph_out(g), false); }

/* Check's assertions report every pass to the parent process, so loops over
 * millions of elements test with plain ifs and abort on the first failure. */
#define GT_REQUIRE(cond, ...)               \
  do {                                      \
    if (!(cond)) ck_abort_msg(__VA_ARGS__); \
  } while (0)

/* Offsets from 0 to m, neighbours in range, rows ascending. */
static inline void gt_check_csr(const gr_csr *c) {
  ck_assert_uint_eq(c->offsets[0], 0);
  ck_assert_uint_eq(c->offsets[c->n], c->m);
  for (gr_vid u = 0; u < c->n; u++) {
    GT_REQUIRE(c->offsets[u] <= c->offsets[u + 1], "offsets decrease at row %llu", (unsigned long long)u);
    for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) {
      GT_REQUIRE(c->indices[e] < c->n, "row %llu: neighbour %llu out of range", (unsigned long long)u,
                 (unsigned long long)c->indices[e]);
      GT_REQUIRE(e == c->offsets[u] || c->indices[e - 1] <= c->indices[e], "row %llu is not sorted",
                 (unsigned long long)u);
    }
  }
}

/* Exact equality of two CSRs (sizes and every array). */
static inline void gt_csr_equal(const gr_csr *a, const gr_csr *b) {
  ck_assert_uint_eq(a->n, b->n);
  ck_assert_uint_eq(a->m, b->m);
  ck_assert(memcmp(a->offsets, b->offsets, ((size_t)a->n + 1) * sizeof(gr_eid)) == 0);
  ck_assert(memcmp(a->indices, b->indices, (size_t)a->m * sizeof(gr_vid)) == 0);
  ck_assert((a->weights == NULL) == (b->weights == NULL));
  if (a->weights) ck_assert(memcmp(a->weights, b->weights, (size_t)a->m * sizeof(gr_weight)) == 0);
}

static inline gr_eid gt_self_loops(const gr_csr *c) {
  gr_eid k = 0;
  for (gr_vid u = 0; u < c->n; u++)
    for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) k += c->indices[e] == u;
  return k;
}

#endif
