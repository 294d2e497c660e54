/* SPDX-License-Identifier: Apache-2.0 */
/* gr_run's reports: the text summary, the --json file (cJSON) and the --out
 * file. */
#include "run_report.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gr/device.h"
#include "gr/util.h"

#ifndef GR_VERSION
#define GR_VERSION "unknown"
#endif

static int gr__cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct gr__summary {
  double median, min, max, mean_gteps, median_gteps;
} gr__summary;

static gr__summary gr__summarize(const gr_run_report *r) {
  gr__summary s = {0, 0, 0, 0, 0};
  if (r->n_runs == 0) return s;
  double *t = malloc(sizeof(double) * (size_t)r->n_runs * 2);
  if (!t) return s;
  double *g = t + r->n_runs;
  for (int i = 0; i < r->n_runs; i++) {
    t[i] = r->runs[i].ms;
    g[i] = r->runs[i].gteps;
  }
  qsort(t, (size_t)r->n_runs, sizeof *t, gr__cmp_double);
  qsort(g, (size_t)r->n_runs, sizeof *g, gr__cmp_double);
  int n = r->n_runs;
  s.min = t[0];
  s.max = t[n - 1];
  s.median = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
  s.median_gteps = n % 2 ? g[n / 2] : 0.5 * (g[n / 2 - 1] + g[n / 2]);
  free(t);
  return s;
}

/* The run whose time is nearest the median (the timeline's example). */
static int gr__median_run(const gr_run_report *r, double median) {
  int best = 0;
  for (int i = 1; i < r->n_runs; i++)
    if (fabs(r->runs[i].ms - median) < fabs(r->runs[best].ms - median)) best = i;
  return best;
}

/* Every iteration of one run, device by device. */
static void gr__print_timeline(FILE *f, const gr_run_report *r) {
  const gr__summary s = gr__summarize(r);
  const int k = gr__median_run(r, s.median);
  const gr_run_record *x = &r->runs[k];
  fprintf(f, "timeline of run %d (%.3f ms; ms per step, host work per device and iteration):\n", k, x->ms);
  fprintf(f, "  %5s %6s %9s %8s %8s %8s %8s %5s %5s %5s %5s %5s %4s %12s\n", "iter", "device", "compute", "package",
          "transfer", "combine", "waiting", "launch", "wait", "copy", "mset", "alloc", "bar", "bytes");
  for (int d = 0; d < x->n_dev; d++) {
    const gr_device_run_stats *y = &x->dev[d];
    for (int i = 0; i < y->timeline_len; i++) {
      const gr_timeline_entry *t = &y->timeline[i];
      fprintf(f, "  %5d %6d %9.3f %8.3f %8.3f %8.3f %8.3f %5u %5u %5u %5u %5u %4u %12llu\n", t->iteration, d,
              t->compute_ms, t->package_ms, t->transfer_ms, t->combine_ms, t->wait_ms, t->launches, t->waits,
              t->copies, t->memsets, t->allocations, t->barriers, (unsigned long long)t->bytes);
    }
  }
}

static void gr__print_phases(FILE *f, const gr_run_phases *p) {
  fprintf(f,
          "wall time  %.3f s: load %.3f, partition %.3f, subgraphs %.3f, setup %.3f, runs %.3f, extract %.3f, "
          "validate %.3f\n",
          p->total, p->load, p->partition, p->build, p->setup, p->runs, p->extract, p->validate);
}

void gr_report_print(FILE *f, const gr_run_report *r) {
  char b1[32];
  fprintf(f, "primitive  %s\n", r->primitive);
  fprintf(f, "graph      %s: %llu vertices, %llu edges (%s%s), %llu arcs stored; loaded in %.3f s%s\n",
          r->graph, (unsigned long long)r->vertices, (unsigned long long)r->edges,
          r->directed ? "directed" : "undirected", r->weighted ? ", weighted" : "",
          (unsigned long long)r->arcs, r->load_seconds, r->from_cache ? " (from cache)" : "");
  fprintf(f, "devices    %d x %s\n", r->n_devices, r->backend);
  for (int i = 0; i < r->n_devices; i++)
    fprintf(f, "  device %d  %s, peak memory %s, %llu allocations, %llu reallocations\n", i,
            r->devices[i].name, gr_format_bytes(b1, sizeof b1, r->devices[i].peak_bytes),
            (unsigned long long)r->devices[i].allocations,
            (unsigned long long)r->devices[i].reallocations);
  if (r->partition) {
    gr_partition_print(f, r->partition);
    fprintf(f, "exchange   %s, %s proxies, %s transport\n", r->comm, r->proxy, r->transport);
  }
  fprintf(f, "%5s %12s %11s %6s %14s %12s %9s %s\n", "run", "source", "time_ms", "iters",
          "edges_visited", "reached", "GTEPS", r->validate ? "valid" : "");
  for (int i = 0; i < r->n_runs; i++) {
    const gr_run_record *x = &r->runs[i];
    char src[32];
    if (r->sourceless) snprintf(src, sizeof src, "-");
    else snprintf(src, sizeof src, "%llu", (unsigned long long)x->source);
    fprintf(f, "%5d %12s %11.3f %6d %14llu %12llu %9.3f %s%s\n", i, src, x->ms, x->iterations, (unsigned long long)x->edges, (unsigned long long)x->reached,
            x->gteps, x->validated > 0 ? "yes" : x->validated < 0 ? "NO" : "",
            x->iteration_limit ? " (iteration limit)" : "");
  }
  if (r->n_runs && (r->runs[0].n_dev > 1 || r->timeline)) {
    /* Where the time went, per device, averaged over the runs; and what
     * the host asked of each device per iteration (the fixed costs). */
    fprintf(f, "time split (mean per run, ms), bytes sent per run, host work per iteration:\n");
    fprintf(f, "  %6s %9s %9s %9s %9s %9s %13s %8s %8s %8s\n", "device", "compute", "package", "transfer",
            "combine", "waiting", "bytes_sent", "launches", "waits", "barriers");
    const int nd = r->runs[0].n_dev;
    for (int d = 0; d < nd; d++) {
      double c = 0, p = 0, t = 0, m = 0, w = 0, b = 0, la = 0, wa = 0, ba = 0, it = 0;
      for (int i = 0; i < r->n_runs; i++) {
        const gr_device_run_stats *x = &r->runs[i].dev[d];
        c += x->compute_ms;
        p += x->package_ms;
        t += x->transfer_ms;
        m += x->combine_ms;
        w += x->wait_ms;
        la += (double)x->launches;
        wa += (double)x->waits;
        ba += (double)x->barriers;
        it += r->runs[i].iterations;
        for (int j = 0; x->bytes_to && j < nd; j++) b += (double)x->bytes_to[j];
      }
      const double k = 1.0 / r->n_runs, ki = it > 0 ? 1.0 / it : 0.0;
      fprintf(f, "  %6d %9.3f %9.3f %9.3f %9.3f %9.3f %13.0f %8.1f %8.1f %8.1f\n", d, c * k, p * k, t * k, m * k,
              w * k, b * k, la * ki, wa * ki, ba * ki);
    }
  }
  if (r->timeline && r->n_runs) gr__print_timeline(f, r);
  if (r->n_runs && r->runs[0].extra.n_numbers) {
    /* The primitive's own figures, as in the first run. */
    const gr_extra *x = &r->runs[0].extra;
    fprintf(f, "%-10s", r->primitive);
    for (int k = 0; k < x->n_numbers && k < GR_EXTRA_MAX; k++)
      fprintf(f, "%s %s %.9g", k ? "," : "", x->number_names[k], x->numbers[k]);
    fprintf(f, "\n");
  }
  gr__summary s = gr__summarize(r);
  fprintf(f, "time       median %.3f ms, min %.3f ms, max %.3f ms over %d run%s; median %.3f GTEPS\n",
          s.median, s.min, s.max, r->n_runs, r->n_runs == 1 ? "" : "s", s.median_gteps);
  gr__print_phases(f, &r->phases);
  if (r->validate) {
    if (r->validation_error[0])
      fprintf(f, "validation FAILED: %s\n", r->validation_error);
    else {
      int checked = 0;
      for (int i = 0; i < r->n_runs; i++) checked += r->runs[i].validated > 0;
      fprintf(f, "validation passed (%d run%s)\n", checked, checked == 1 ? "" : "s");
    }
  }
}

static cJSON *gr__json_u64_array(const gr_eid *a, int n) {
  cJSON *arr = cJSON_CreateArray();
  for (int i = 0; arr && i < n; i++) cJSON_AddItemToArray(arr, cJSON_CreateNumber((double)a[i]));
  return arr;
}

gr_status gr_report_write_json(const char *path, const gr_run_report *r) {
  cJSON *root = cJSON_CreateObject();
  if (!root) return gr_errorf(GR_ERR_HOST_OOM, "cannot build the JSON report");
  int rt = 0, drv = 0;
  gr_cuda_versions(&rt, &drv);
  cJSON *ver = cJSON_AddObjectToObject(root, "versions");
  cJSON_AddStringToObject(ver, "gr", GR_VERSION);
  cJSON_AddNumberToObject(ver, "cuda_runtime", rt);
  cJSON_AddNumberToObject(ver, "cuda_driver", drv);
  cJSON_AddStringToObject(ver, "compiler", __VERSION__);
  cJSON_AddNumberToObject(ver, "vertex_id_bits", GR_VID_BITS);
  cJSON *cmd = cJSON_AddArrayToObject(root, "command_line");
  for (int i = 0; i < r->argc; i++) cJSON_AddItemToArray(cmd, cJSON_CreateString(r->argv[i]));
  cJSON_AddStringToObject(root, "primitive", r->primitive);
  cJSON *g = cJSON_AddObjectToObject(root, "graph");
  cJSON_AddStringToObject(g, "name", r->graph);
  cJSON_AddNumberToObject(g, "vertices", (double)r->vertices);
  cJSON_AddNumberToObject(g, "edges", (double)r->edges);
  cJSON_AddNumberToObject(g, "arcs", (double)r->arcs);
  cJSON_AddBoolToObject(g, "directed", r->directed);
  cJSON_AddBoolToObject(g, "weighted", r->weighted);
  cJSON_AddNumberToObject(g, "load_seconds", r->load_seconds);
  cJSON_AddBoolToObject(g, "from_cache", r->from_cache);
  cJSON_AddStringToObject(root, "backend", r->backend);
  if (r->partition) {
    const gr_partition *p = r->partition;
    cJSON *mg = cJSON_AddObjectToObject(root, "multi_device");
    cJSON_AddStringToObject(mg, "partitioner", gr_partitioner_name(p->kind));
    cJSON_AddStringToObject(mg, "proxy", r->proxy);
    cJSON_AddStringToObject(mg, "comm", r->comm);
    cJSON_AddStringToObject(mg, "transport", r->transport);
    cJSON *q = cJSON_AddObjectToObject(mg, "partition");
    cJSON_AddNumberToObject(q, "seconds", p->seconds);
    cJSON_AddNumberToObject(q, "edge_cut", (double)p->edge_cut);
    cJSON_AddNumberToObject(q, "arcs", (double)p->m);
    cJSON_AddNumberToObject(q, "border_total", (double)p->border_total);
    cJSON_AddNumberToObject(q, "proxies_total", (double)p->proxies_total);
    cJSON *parts = cJSON_AddArrayToObject(q, "parts");
    for (int i = 0; i < p->parts; i++) {
      cJSON *o = cJSON_CreateObject();
      cJSON_AddNumberToObject(o, "vertices", (double)p->vertices[i]);
      cJSON_AddNumberToObject(o, "edges", (double)p->edges[i]);
      cJSON_AddNumberToObject(o, "border", (double)p->border[i]);
      cJSON_AddNumberToObject(o, "proxies", (double)p->proxies[i]);
      cJSON_AddItemToArray(parts, o);
    }
  }
  cJSON *devs = cJSON_AddArrayToObject(root, "devices");
  for (int i = 0; i < r->n_devices; i++) {
    cJSON *d = cJSON_CreateObject();
    cJSON_AddNumberToObject(d, "index", i);
    cJSON_AddStringToObject(d, "name", r->devices[i].name);
    cJSON_AddNumberToObject(d, "peak_bytes", (double)r->devices[i].peak_bytes);
    cJSON_AddNumberToObject(d, "allocations", (double)r->devices[i].allocations);
    cJSON_AddNumberToObject(d, "reallocations", (double)r->devices[i].reallocations);
    cJSON_AddItemToArray(devs, d);
  }
  cJSON *runs = cJSON_AddArrayToObject(root, "runs");
  for (int i = 0; i < r->n_runs; i++) {
    const gr_run_record *x = &r->runs[i];
    cJSON *o = cJSON_CreateObject();
    if (r->sourceless) cJSON_AddNullToObject(o, "source");
    else cJSON_AddNumberToObject(o, "source", (double)x->source);
    cJSON_AddNumberToObject(o, "ms", x->ms);
    cJSON_AddNumberToObject(o, "iterations", x->iterations);
    cJSON_AddNumberToObject(o, "edges_visited", (double)x->edges);
    cJSON_AddNumberToObject(o, "traversed_edges", (double)x->traversed);
    cJSON_AddNumberToObject(o, "reached", (double)x->reached);
    cJSON_AddNumberToObject(o, "gteps", x->gteps);
    if (x->validated) cJSON_AddBoolToObject(o, "valid", x->validated > 0);
    cJSON_AddBoolToObject(o, "iteration_limit", x->iteration_limit);
    cJSON_AddItemToObject(o, "frontier_sizes", gr__json_u64_array(x->frontier, x->frontier_len));
    if (x->level_edges && x->level_ms && x->level_tag) {
      /* Per level: input frontier, edges visited, ms, the primitive's tag
       * (dobfs: P push, U pull; L a level of a device-side loop), and on
       * several devices the bytes the exchange moved. */
      cJSON *lv = cJSON_AddArrayToObject(o, "levels");
      for (int k = 0; k < x->frontier_len; k++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "frontier", (double)x->frontier[k]);
        cJSON_AddNumberToObject(e, "edges", (double)x->level_edges[k]);
        cJSON_AddNumberToObject(e, "ms", x->level_ms[k]);
        char tag[2] = {x->level_tag[k] ? x->level_tag[k] : '-', '\0'};
        cJSON_AddStringToObject(e, "tag", tag);
        if (x->n_dev > 1 && x->level_bytes) cJSON_AddNumberToObject(e, "bytes", (double)x->level_bytes[k]);
        cJSON_AddItemToArray(lv, e);
      }
    }
    if (x->extra.n_numbers || x->extra.n_series) {
      /* The primitive's own figures: numbers, and series with one entry
       * per iteration (as levels). */
      cJSON *ex = cJSON_AddObjectToObject(o, "extra");
      for (int k = 0; k < x->extra.n_numbers && k < GR_EXTRA_MAX; k++)
        cJSON_AddNumberToObject(ex, x->extra.number_names[k], x->extra.numbers[k]);
      for (int k = 0; k < x->extra.n_series && k < GR_EXTRA_MAX; k++) {
        cJSON *arr = cJSON_AddArrayToObject(ex, x->extra.series_names[k]);
        for (int j = 0; arr && j < x->extra.series_len; j++)
          cJSON_AddItemToArray(arr, cJSON_CreateNumber(x->extra.series[k][j]));
      }
    }
    if (x->n_dev > 1) {
      cJSON *ds = cJSON_AddArrayToObject(o, "devices");
      for (int d = 0; d < x->n_dev; d++) {
        const gr_device_run_stats *y = &x->dev[d];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "compute_ms", y->compute_ms);
        cJSON_AddNumberToObject(e, "package_ms", y->package_ms);
        cJSON_AddNumberToObject(e, "transfer_ms", y->transfer_ms);
        cJSON_AddNumberToObject(e, "combine_ms", y->combine_ms);
        cJSON_AddNumberToObject(e, "wait_ms", y->wait_ms);
        cJSON_AddNumberToObject(e, "items_sent", (double)y->items_sent);
        cJSON_AddNumberToObject(e, "items_received", (double)y->items_received);
        cJSON_AddNumberToObject(e, "launches", (double)y->launches);
        cJSON_AddNumberToObject(e, "waits", (double)y->waits);
        cJSON_AddNumberToObject(e, "allocations", (double)y->allocations);
        cJSON_AddNumberToObject(e, "barriers", (double)y->barriers);
        cJSON *bt = cJSON_AddArrayToObject(e, "bytes_to");
        for (int j = 0; j < x->n_dev; j++)
          cJSON_AddItemToArray(bt, cJSON_CreateNumber(y->bytes_to ? (double)y->bytes_to[j] : 0.0));
        cJSON_AddItemToArray(ds, e);
      }
    }
    if (r->timeline) {
      cJSON *tl = cJSON_AddArrayToObject(o, "timeline");
      for (int d = 0; d < x->n_dev; d++)
        for (int k = 0; k < x->dev[d].timeline_len; k++) {
          const gr_timeline_entry *t = &x->dev[d].timeline[k];
          cJSON *e = cJSON_CreateObject();
          cJSON_AddNumberToObject(e, "iteration", t->iteration);
          cJSON_AddNumberToObject(e, "device", d);
          cJSON_AddNumberToObject(e, "compute_ms", t->compute_ms);
          cJSON_AddNumberToObject(e, "package_ms", t->package_ms);
          cJSON_AddNumberToObject(e, "transfer_ms", t->transfer_ms);
          cJSON_AddNumberToObject(e, "combine_ms", t->combine_ms);
          cJSON_AddNumberToObject(e, "wait_ms", t->wait_ms);
          cJSON_AddNumberToObject(e, "launches", t->launches);
          cJSON_AddNumberToObject(e, "waits", t->waits);
          cJSON_AddNumberToObject(e, "copies", t->copies);
          cJSON_AddNumberToObject(e, "memsets", t->memsets);
          cJSON_AddNumberToObject(e, "allocations", t->allocations);
          cJSON_AddNumberToObject(e, "barriers", t->barriers);
          cJSON_AddNumberToObject(e, "bytes", (double)t->bytes);
          cJSON_AddItemToArray(tl, e);
        }
    }
    cJSON_AddItemToArray(runs, o);
  }
  cJSON *ph = cJSON_AddObjectToObject(root, "phases");
  cJSON_AddNumberToObject(ph, "load_s", r->phases.load);
  cJSON_AddNumberToObject(ph, "partition_s", r->phases.partition);
  cJSON_AddNumberToObject(ph, "build_s", r->phases.build);
  cJSON_AddNumberToObject(ph, "setup_s", r->phases.setup);
  cJSON_AddNumberToObject(ph, "runs_s", r->phases.runs);
  cJSON_AddNumberToObject(ph, "extract_s", r->phases.extract);
  cJSON_AddNumberToObject(ph, "validate_s", r->phases.validate);
  cJSON_AddNumberToObject(ph, "total_s", r->phases.total);
  gr__summary s = gr__summarize(r);
  cJSON *sum = cJSON_AddObjectToObject(root, "summary");
  cJSON_AddNumberToObject(sum, "median_ms", s.median);
  cJSON_AddNumberToObject(sum, "min_ms", s.min);
  cJSON_AddNumberToObject(sum, "max_ms", s.max);
  cJSON_AddNumberToObject(sum, "median_gteps", s.median_gteps);
  if (r->validate) {
    cJSON_AddBoolToObject(sum, "validation_passed", r->validation_error[0] == '\0');
    if (r->validation_error[0]) cJSON_AddStringToObject(sum, "validation_error", r->validation_error);
  }
  char *text = cJSON_Print(root);
  cJSON_Delete(root);
  if (!text) return gr_errorf(GR_ERR_HOST_OOM, "cannot print the JSON report");
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f) {
    free(text);
    return gr_errorf(GR_ERR_IO, "cannot write %s: %s", path, strerror(errno));
  }
  int bad = fputs(text, f) < 0 || fputc('\n', f) == EOF;
  bad = fclose(f) != 0 || bad;
  free(text);
  if (bad || rename(tmp, path) != 0) {
    unlink(tmp);
    return gr_errorf(GR_ERR_IO, "cannot write %s: %s", path, strerror(errno));
  }
  return GR_SUCCESS;
}

gr_status gr_report_write_out(const char *path, const gr_graph *g, const gr_result *res) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f) return gr_errorf(GR_ERR_IO, "cannot write %s: %s", path, strerror(errno));
  static char buf[1 << 16];
  setvbuf(f, buf, _IOFBF, sizeof buf);
  int bad = 0;
  for (gr_vid v = 0; v < res->n && !bad; v++) {
    unsigned long long id = (unsigned long long)gr_graph_original_id(g, v);
    int k;
    switch (res->type) {
      case GR_VALUE_SVID: {
        const gr_svid x = ((const gr_svid *)res->values)[v];
        /* A vertex id (cc's labels) is written as the input names it. */
        if (res->values_are_ids && x >= 0 && (uint64_t)x < (uint64_t)res->n)
          k = fprintf(f, "%llu %llu", id, (unsigned long long)gr_graph_original_id(g, (gr_vid)x));
        else
          k = fprintf(f, "%llu %lld", id, (long long)x);
        break;
      }
      case GR_VALUE_FLOAT: {
        float x = ((const float *)res->values)[v];
        k = isinf(x) || isnan(x) ? fprintf(f, "%llu -1", id) : fprintf(f, "%llu %.9g", id, (double)x);
        break;
      }
      default: {
        double x = ((const double *)res->values)[v];
        k = isinf(x) || isnan(x) ? fprintf(f, "%llu -1", id) : fprintf(f, "%llu %.17g", id, x);
        break;
      }
    }
    if (k >= 0 && res->preds) {
      gr_svid p = res->preds[v];
      k = p < 0 ? fprintf(f, " -1") : fprintf(f, " %llu", (unsigned long long)gr_graph_original_id(g, (gr_vid)p));
    }
    if (k < 0 || fputc('\n', f) == EOF) bad = 1;
  }
  bad = fclose(f) != 0 || bad;
  if (bad || rename(tmp, path) != 0) {
    int e = errno;
    unlink(tmp);
    return gr_errorf(GR_ERR_IO, "cannot write %s: %s", path, strerror(e));
  }
  return GR_SUCCESS;
}
