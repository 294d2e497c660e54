/* SPDX-License-Identifier: Apache-2.0 */
/* Strong scaling through the public interface: generates one graph and runs
 * a primitive on 1, 2, 4, ... devices up to a limit, validating each and
 * printing the median time, GTEPS and where the time went per device count.
 *
 *   scaling [PRIMITIVE [SPEC [MAX_DEVICES [RUNS]]]]
 *   scaling bfs kron:14:16 4 3
 *
 * Devices are GPUs when the machine has them (up to their number), else
 * CPU devices. */
#include <gr/gr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int report(gr_status st, const char *what) {
  fprintf(stderr, "scaling: %s: %s (%s)\n", what, gr_error_message(), gr_status_name(st));
  return 1;
}

/* One device count: a context, a problem, `runs` runs. */
static int run_on(gr_graph *g, const char *prim, int devices, int runs, const int64_t *sources) {
  int rc = 0;
  gr_status st;
  char text[16];
  gr_options *o = NULL;
  gr_context *ctx = NULL;
  gr_problem *p = NULL;
  double *ms = calloc((size_t)runs, sizeof *ms);
  double compute = 0, exchange = 0, wait = 0, gteps = 0;
  if (!ms) return report(GR_ERR_HOST_OOM, "calloc");
  snprintf(text, sizeof text, "%d", devices);
  if ((st = gr_options_create(&o)) < 0 || (st = gr_options_set(o, "devices", text)) < 0) {
    rc = report(st, "options");
    goto cleanup;
  }
  if ((st = gr_context_create(&ctx, o)) < 0) {
    rc = report(st, "gr_context_create");
    goto cleanup;
  }
  if ((st = gr_problem_create(&p, ctx, g, prim, o)) < 0) {
    rc = report(st, "gr_problem_create");
    goto cleanup;
  }
  for (int r = 0; r < runs; r++) {
    gr_stats *s = NULL;
    gr_run_summary sum;
    if ((st = gr_problem_run(p, sources[r], &s)) < 0) {
      rc = report(st, "gr_problem_run");
      goto cleanup;
    }
    gr_stats_get_summary(s, &sum);
    ms[r] = sum.ms;
    gteps += sum.gteps / runs;
    for (int d = 0; d < sum.devices; d++) {
      gr_device_split x;
      if (gr_stats_get_device(s, d, &x) < 0) continue;
      compute += x.compute_ms / runs / sum.devices;
      exchange += (x.package_ms + x.transfer_ms + x.combine_ms) / runs / sum.devices;
      wait += x.wait_ms / runs / sum.devices;
    }
    gr_stats_destroy(&s);
    if (r == 0 && (st = gr_problem_validate(p)) < 0) {
      rc = report(st, "validation");
      goto cleanup;
    }
  }
  qsort(ms, (size_t)runs, sizeof *ms, cmp_double);
  gr_context_info ci;
  gr_context_get_info(ctx, &ci);
  printf("%7d %5s %12.3f %9.3f %11.3f %11.3f %9.3f\n", devices, ci.backend, ms[runs / 2], gteps, compute, exchange,
         wait);
cleanup:
  free(ms);
  gr_problem_destroy(&p);
  gr_context_destroy(&ctx);
  gr_options_destroy(&o);
  return rc;
}

int main(int argc, char **argv) {
  const char *prim = argc > 1 ? argv[1] : "bfs";
  const char *spec = argc > 2 ? argv[2] : "kron:12:16";
  int max_devices = argc > 3 ? atoi(argv[3]) : 4;
  const int runs = argc > 4 ? atoi(argv[4]) : 3;
  if (max_devices < 1 || runs < 1) {
    fprintf(stderr, "usage: scaling [PRIMITIVE [SPEC [MAX_DEVICES [RUNS]]]]\n");
    return 2;
  }
  int gpus = 0, rc = 0;
  gr_status st = gr_gpu_count(&gpus);
  if (st < 0) return report(st, "gr_gpu_count");
  if (gpus > 0 && max_devices > gpus) max_devices = gpus;

  gr_primitive_info pi;
  if ((st = gr_primitive_get_info(prim, &pi)) < 0) return report(st, "primitive");
  gr_options *o = NULL;
  gr_graph *g = NULL;
  int64_t *sources = calloc((size_t)runs, sizeof *sources);
  if (!sources) return report(GR_ERR_HOST_OOM, "calloc");
  if ((st = gr_options_create(&o)) < 0 || (pi.needs_weights && (st = gr_options_set(o, "weights", "random:1:64")) < 0)) {
    rc = report(st, "options");
    goto cleanup;
  }
  if ((st = gr_graph_generate(&g, spec, o)) < 0) {
    rc = report(st, "gr_graph_generate");
    goto cleanup;
  }
  if ((st = gr_graph_sources(g, "random", 1, runs, sources)) < 0) {
    rc = report(st, "gr_graph_sources");
    goto cleanup;
  }
  gr_graph_info gi;
  gr_graph_get_info(g, &gi);
  printf("%s on %s: %llu vertices, %llu edges, %d runs per device count\n", prim, gi.name,
         (unsigned long long)gi.vertices, (unsigned long long)gi.edges, runs);
  printf("%7s %5s %12s %9s %11s %11s %9s\n", "devices", "kind", "median_ms", "GTEPS", "compute_ms", "exchange_ms",
         "wait_ms");
  for (int d = 1; d <= max_devices && rc == 0; d *= 2) rc = run_on(g, prim, d, runs, sources);
cleanup:
  free(sources);
  gr_graph_destroy(&g);
  gr_options_destroy(&o);
  return rc;
}
