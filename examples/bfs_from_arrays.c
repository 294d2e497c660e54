/* SPDX-License-Identifier: Apache-2.0 */
/* Builds a small graph from arrays (CSR), runs BFS from vertex 0 and
 * PageRank on whatever devices exist (GPUs when present, else CPU devices),
 * checks both against the library's reference and prints the results. */
#include <gr/gr.h>
#include <stdio.h>
#include <stdlib.h>

/* Prints the failing call, the status and the library's message. */
static int report(gr_status st, const char *what) {
  fprintf(stderr, "bfs_from_arrays: %s: %s (%s)\n", what, gr_error_message(), gr_status_name(st));
  return 1;
}

#define TRY(call)                   \
  do {                              \
    gr_status st_ = (call);         \
    if (st_ < 0) {                  \
      rc = report(st_, #call);      \
      goto cleanup;                 \
    }                               \
  } while (0)

int main(int argc, char **argv) {
  /* Two triangles joined by the edge 2-3, and vertex 6 on its own:
   *   0-1, 0-2, 1-2, 2-3, 3-4, 3-5, 4-5 (undirected). */
  enum { N = 7 };
  static const int64_t offsets[N + 1] = {0, 2, 4, 7, 10, 12, 14, 14};
  static const int64_t indices[14] = {1, 2, 0, 2, 0, 1, 3, 2, 4, 5, 3, 5, 3, 4};
  const char *devices = argc > 1 ? argv[1] : "1";
  int rc = 0;
  gr_options *opts = NULL;
  gr_context *ctx = NULL;
  gr_graph *g = NULL;
  gr_problem *bfs = NULL, *pr = NULL;
  gr_stats *stats = NULL;

  TRY(gr_options_create(&opts));
  TRY(gr_options_set(opts, "undirected", "on"));
  TRY(gr_options_set(opts, "devices", devices));
  TRY(gr_options_set(opts, "mark-pred", "on"));
  TRY(gr_context_create(&ctx, opts));
  TRY(gr_graph_create_csr(&g, N, offsets, indices, NULL, opts));

  gr_context_info ci;
  gr_graph_info gi;
  TRY(gr_context_get_info(ctx, &ci));
  TRY(gr_graph_get_info(g, &gi));
  printf("graph: %llu vertices, %llu edges; %d %s device%s\n", (unsigned long long)gi.vertices,
         (unsigned long long)gi.edges, ci.devices, ci.backend, ci.devices == 1 ? "" : "s");

  TRY(gr_problem_create(&bfs, ctx, g, "bfs", opts));
  TRY(gr_problem_run(bfs, 0, &stats));
  TRY(gr_problem_validate(bfs));
  gr_values v;
  TRY(gr_problem_get_values(bfs, &v));
  const int64_t *depth = v.values;
  printf("bfs from 0:\n");
  for (uint64_t i = 0; i < v.n; i++)
    printf("  vertex %llu  depth %lld  parent %lld\n", (unsigned long long)i, (long long)depth[i],
           (long long)v.predecessors[i]);
  /* The graph above has fixed answers: a wrong one is an error here. */
  static const int64_t expect[N] = {0, 1, 1, 2, 3, 3, -1};
  for (int i = 0; i < N; i++)
    if (depth[i] != expect[i]) {
      fprintf(stderr, "bfs_from_arrays: vertex %d has depth %lld, expected %lld\n", i, (long long)depth[i],
              (long long)expect[i]);
      rc = 1;
    }
  gr_run_summary sum;
  TRY(gr_stats_get_summary(stats, &sum));
  printf("  %d iterations, %llu edges visited, %.3f ms\n", sum.iterations, (unsigned long long)sum.edges_visited,
         sum.ms);
  gr_stats_destroy(&stats);

  TRY(gr_problem_create(&pr, ctx, g, "pr", opts));
  TRY(gr_problem_run(pr, -1, NULL));
  TRY(gr_problem_validate(pr));
  TRY(gr_problem_get_values(pr, &v));
  double total = 0;
  printf("pagerank:\n");
  for (uint64_t i = 0; i < v.n; i++) {
    /* Ranks are 32-bit floats in this version; the type says so. */
    const double rank = v.type == GR_VALUES_FLOAT32 ? ((const float *)v.values)[i] : ((const double *)v.values)[i];
    printf("  vertex %llu  rank %.6f\n", (unsigned long long)i, rank);
    total += rank;
  }
  printf("  sum %.6f\n", total);
  if (total < 0.999 || total > 1.001) {
    fprintf(stderr, "bfs_from_arrays: the ranks sum to %.6f, not 1\n", total);
    rc = 1;
  }
  for (int d = 0; d < ci.devices; d++) {
    gr_device_info di;
    TRY(gr_problem_get_device(pr, d, &di));
    printf("device %d: %s, peak memory %llu bytes\n", d, di.name, (unsigned long long)di.peak_bytes);
  }

cleanup:
  gr_stats_destroy(&stats);
  gr_problem_destroy(&pr);
  gr_problem_destroy(&bfs);
  gr_graph_destroy(&g);
  gr_context_destroy(&ctx);
  gr_options_destroy(&opts);
  return rc;
}
