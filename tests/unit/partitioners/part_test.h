/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by the partitioner tests: small graphs (generated, from an
 * edge list, or karate), partitions that must succeed, and the arcs of a
 * graph as a sorted list for exact multiset comparison. */
#ifndef GR_PART_TEST_H
#define GR_PART_TEST_H

#include <check.h>
#include <stdbool.h>
#include <stdint.h>

#include "gr/graph.h"
#include "partitioner.h"

/* Checks for loops over vertices and arcs: Check's own assertions record
 * the place of every passing call in a file, which costs seconds there. */
#define PT_CHECK(cond)                                                          \
  do {                                                                          \
    if (!(cond)) ck_abort_msg("%s:%d: check failed: %s", __FILE__, __LINE__, #cond); \
  } while (0)
#define PT_CHECK_MSG(cond, ...)                                                 \
  do {                                                                          \
    if (!(cond)) ck_abort_msg(__VA_ARGS__);                                     \
  } while (0)

/* A generated graph (gr_gen_parse spec), with random weights in [1, 9]
 * when weighted; fails the test on error. */
gr_graph *pt_gen(const char *spec, bool weighted);
/* A graph from an edge list of m (src, dst) pairs over n vertices. */
gr_graph *pt_edges(uint64_t n, const gr_vid (*edges)[2], uint64_t m, bool undirected);
/* karate.mtx from the real-graph folder, or NULL (reason printed) when absent. */
gr_graph *pt_karate(void);
/* A partition that must succeed. */
gr_partition *pt_partition(gr_graph *g, gr_partitioner_kind kind, int parts, uint64_t seed, int threads);

/* Allocation failure injection: the test executables link with
 * --wrap=malloc,calloc,realloc, so the n-th allocation from now on (0: the
 * next) returns NULL, once; -1 disarms. For proving that every error path
 * reports GR_ERR_HOST_OOM and frees what it took. */
void pt_fail_alloc_after(long n);

/* One arc with its weight (0 when the graph has none). */
typedef struct pt_arc {
  gr_vid src, dst;
  gr_weight w;
} pt_arc;
/* Sorts arcs by (src, dst, weight). */
void pt_sort_arcs(pt_arc *a, uint64_t m);
/* The graph's arcs, sorted (malloc'd, m entries). */
pt_arc *pt_graph_arcs(const gr_graph *g, uint64_t *m);

#endif
