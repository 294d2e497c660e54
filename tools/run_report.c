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

/* "1.50 GiB": bytes in the largest unit that keeps a number above 1. */
static const char *format_bytes(char *buf, size_t len, uint64_t bytes) {
  static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = (double)bytes;
  int u = 0;
  while (v >= 1024.0 && u < 5) {
    v /= 1024.0;
    u++;
  }
  if (u == 0) snprintf(buf, len, "%llu B", (unsigned long long)bytes);
  else snprintf(buf, len, "%.2f %s", v, units[u]);
  return buf;
}

/* A short quality table of the partition: per part vertices, edges, border
 * and proxies, then the edge cut and the imbalance. */
static void print_partition(FILE *f, const gr_run_report *r) {
  const gr_problem_info *p = &r->info;
  const int parts = r->n_devices;
  if (p->partition_block > 1)
    fprintf(f, "partition %s (blocks of %u ids): %d parts, %.3f s\n", p->partitioner, (unsigned)p->partition_block,
            parts, p->partition_seconds);
  else
    fprintf(f, "partition %s: %d parts, %.3f s\n", p->partitioner, parts, p->partition_seconds);
  fprintf(f, "  %6s %14s %16s %14s %14s\n", "part", "vertices", "edges", "border", "proxies");
  uint64_t vmax = 0, emax = 0;
  for (int q = 0; q < parts; q++) {
    const gr_part_info *x = &r->parts[q];
    fprintf(f, "  %6d %14llu %16llu %14llu %14llu\n", q, (unsigned long long)x->vertices,
            (unsigned long long)x->edges, (unsigned long long)x->border, (unsigned long long)x->proxies);
    if (x->vertices > vmax) vmax = x->vertices;
    if (x->edges > emax) emax = x->edges;
  }
  fprintf(f, "  %6s %14llu %16llu %14llu %14llu\n", "total", (unsigned long long)r->graph.vertices,
          (unsigned long long)p->arcs, (unsigned long long)p->border_total, (unsigned long long)p->proxies_total);
  /* Imbalance: the largest part over the average (1.00 is perfect). */
  const double vavg = (double)r->graph.vertices / parts, eavg = (double)p->arcs / parts;
  fprintf(f, "  edge cut %llu of %llu arcs (%.2f%%); imbalance: vertices %.3f, edges %.3f\n",
          (unsigned long long)p->edge_cut, (unsigned long long)p->arcs,
          p->arcs ? 100.0 * (double)p->edge_cut / (double)p->arcs : 0.0, vavg > 0 ? (double)vmax / vavg : 1.0,
          eavg > 0 ? (double)emax / eavg : 1.0);
}

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
    t[i] = r->runs[i].sum.ms;
    g[i] = r->runs[i].sum.gteps;
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
    if (fabs(r->runs[i].sum.ms - median) < fabs(r->runs[best].sum.ms - median)) best = i;
  return best;
}

/* Every iteration of one run, device by device. */
static void gr__print_timeline(FILE *f, const gr_run_report *r) {
  const gr__summary s = gr__summarize(r);
  const int k = gr__median_run(r, s.median);
  const gr_run_record *x = &r->runs[k];
  fprintf(f, "timeline of run %d (%.3f ms; ms per step, host work per device and iteration):\n", k, x->sum.ms);
  fprintf(f, "  %5s %6s %9s %8s %8s %8s %8s %8s %5s %5s %5s %5s %5s %4s %12s %12s\n", "iter", "device", "work",
          "compute", "package", "transfer", "combine", "waiting", "launch", "wait", "copy", "mset", "alloc", "bar",
          "bytes_out", "bytes_in");
  for (int d = 0; d < x->sum.devices; d++) {
    gr_device_split y;
    if (gr_stats_get_device(x->stats, d, &y) < 0) continue;
    for (int i = 0; i < y.timeline_len; i++) {
      gr_timeline_step ts, *t = &ts;
      if (gr_stats_get_timeline(x->stats, d, i, t) < 0) continue;
      fprintf(f, "  %5d %6d %9.3f %8.3f %8.3f %8.3f %8.3f %8.3f %5u %5u %5u %5u %5u %4u %12llu %12llu\n", t->iteration,
              d, t->work_ms, t->compute_ms, t->package_ms, t->transfer_ms, t->combine_ms, t->wait_ms, t->launches,
              t->waits, t->copies, t->memsets, t->allocations, t->barriers, (unsigned long long)t->bytes,
              (unsigned long long)t->bytes_in);
    }
  }
}

static void gr__print_phases(FILE *f, const gr_run_phases *p) {
  fprintf(f,
          "wall time  %.3f s: start %.3f, load %.3f, partition %.3f, subgraphs %.3f, setup %.3f, runs %.3f, extract %.3f, "
          "validate %.3f\n",
          p->total, p->start, p->load, p->partition, p->build, p->setup, p->runs, p->extract, p->validate);
}

void gr_report_print(FILE *f, const gr_run_report *r) {
  char b1[32];
  fprintf(f, "primitive  %s\n", r->primitive);
  fprintf(f, "graph      %s: %llu vertices, %llu edges (%s%s), %llu arcs stored; loaded in %.3f s%s\n",
          r->graph.name, (unsigned long long)r->graph.vertices, (unsigned long long)r->graph.edges,
          r->graph.directed ? "directed" : "undirected", r->graph.weighted ? ", weighted" : "",
          (unsigned long long)r->graph.arcs, r->graph.load_seconds, r->graph.from_cache ? " (from cache)" : "");
  fprintf(f, "devices    %d x %s\n", r->n_devices, r->info.backend);
  for (int i = 0; i < r->n_devices; i++) {
    char b2[32];
    fprintf(f, "  device %d  %s, peak memory %s, %llu allocations, %llu reallocations", i, r->devices[i].name,
            format_bytes(b1, sizeof b1, r->devices[i].peak_bytes), (unsigned long long)r->devices[i].allocations,
            (unsigned long long)r->devices[i].reallocations);
    if (r->devices[i].host_graph_bytes)
      fprintf(f, "; graph arrays in host memory: %s", format_bytes(b2, sizeof b2, r->devices[i].host_graph_bytes));
    if (r->devices[i].l2_bytes)
      fprintf(f, "; L2 %s", format_bytes(b2, sizeof b2, r->devices[i].l2_bytes));
    if (r->devices[i].memory_bandwidth)
      fprintf(f, "; memory %.2f TB/s", (double)r->devices[i].memory_bandwidth / 1e12);
    fprintf(f, "\n");
  }
  if (r->parts) {
    print_partition(f, r);
    fprintf(f, "exchange   %s, %s proxies, %s transport\n", r->info.comm, r->info.proxy, r->info.transport);
  }
  fprintf(f, "%5s %12s %11s %6s %14s %12s %9s %s\n", "run", "source", "time_ms", "iters",
          "edges_visited", "reached", "GTEPS", r->validate ? "valid" : "");
  for (int i = 0; i < r->n_runs; i++) {
    const gr_run_summary *x = &r->runs[i].sum;
    const int validated = r->runs[i].validated;
    char src[32];
    if (r->sourceless) snprintf(src, sizeof src, "-");
    else snprintf(src, sizeof src, "%llu", (unsigned long long)x->source);
    fprintf(f, "%5d %12s %11.3f %6d %14llu %12llu %9.3f %s%s\n", i, src, x->ms, x->iterations,
            (unsigned long long)x->edges_visited, (unsigned long long)x->reached, x->gteps,
            validated > 0 ? "yes" : validated < 0 ? "NO" : "", x->iteration_limit ? " (iteration limit)" : "");
  }
  if (r->n_runs && (r->runs[0].sum.devices > 1 || r->timeline || r->turns)) {
    /* Where the time went, per device, averaged over the runs; and what
     * the host asked of each device per iteration (the fixed costs). */
    fprintf(f, "time split (mean per run, ms%s), bytes sent per run, host work per iteration:\n",
            r->turns ? "; the devices took turns, so work is each one's alone" : "");
    fprintf(f, "  %6s %9s %9s %9s %9s %9s %9s %13s %8s %8s %8s\n", "device", "work", "compute", "package",
            "transfer", "combine", "waiting", "bytes_sent", "launches", "waits", "barriers");
    const int nd = r->runs[0].sum.devices;
    for (int d = 0; d < nd; d++) {
      double c = 0, p = 0, t = 0, m = 0, w = 0, b = 0, la = 0, wa = 0, ba = 0, it = 0, wk = 0;
      for (int i = 0; i < r->n_runs; i++) {
        gr_device_split xs, *x = &xs;
        if (gr_stats_get_device(r->runs[i].stats, d, x) < 0) continue;
        c += x->compute_ms;
        p += x->package_ms;
        t += x->transfer_ms;
        m += x->combine_ms;
        w += x->wait_ms;
        wk += x->work_ms;
        la += (double)x->launches;
        wa += (double)x->waits;
        ba += (double)x->barriers;
        it += r->runs[i].sum.iterations;
        for (int j = 0; j < nd; j++) b += (double)gr_stats_bytes_to(r->runs[i].stats, d, j);
      }
      const double k = 1.0 / r->n_runs, ki = it > 0 ? 1.0 / it : 0.0;
      fprintf(f, "  %6d %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %13.0f %8.1f %8.1f %8.1f\n", d, wk * k, c * k, p * k,
              t * k, m * k, w * k, b * k, la * ki, wa * ki, ba * ki);
    }
  }
  if (r->timeline && r->n_runs) gr__print_timeline(f, r);
  if (r->n_runs && gr_stats_extra_numbers(r->runs[0].stats)) {
    /* The primitive's own figures, as in the first run. */
    const gr_stats *x = r->runs[0].stats;
    fprintf(f, "%-10s", r->primitive);
    for (int k = 0; k < gr_stats_extra_numbers(x); k++) {
      const char *name = "";
      double v = 0;
      gr_stats_get_extra_number(x, k, &name, &v);
      fprintf(f, "%s %s %.9g", k ? "," : "", name, v);
    }
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

gr_status gr_report_write_json(const char *path, const gr_run_report *r) {
  cJSON *root = cJSON_CreateObject();
  if (!root) return gr_errorf(GR_ERR_HOST_OOM, "cannot build the JSON report");
  gr_library_info li;
  gr_library_get_info(&li);
  cJSON *ver = cJSON_AddObjectToObject(root, "versions");
  cJSON_AddStringToObject(ver, "gr", li.version);
  cJSON_AddNumberToObject(ver, "cuda_runtime", li.cuda_runtime);
  cJSON_AddNumberToObject(ver, "cuda_driver", li.cuda_driver);
  cJSON_AddStringToObject(ver, "compiler", __VERSION__);
  cJSON_AddNumberToObject(ver, "vertex_id_bits", li.vertex_id_bits);
  cJSON *cmd = cJSON_AddArrayToObject(root, "command_line");
  for (int i = 0; i < r->argc; i++) cJSON_AddItemToArray(cmd, cJSON_CreateString(r->argv[i]));
  cJSON_AddStringToObject(root, "primitive", r->primitive);
  cJSON *g = cJSON_AddObjectToObject(root, "graph");
  cJSON_AddStringToObject(g, "name", r->graph.name);
  cJSON_AddNumberToObject(g, "vertices", (double)r->graph.vertices);
  cJSON_AddNumberToObject(g, "edges", (double)r->graph.edges);
  cJSON_AddNumberToObject(g, "arcs", (double)r->graph.arcs);
  cJSON_AddBoolToObject(g, "directed", r->graph.directed);
  cJSON_AddBoolToObject(g, "weighted", r->graph.weighted);
  cJSON_AddNumberToObject(g, "load_seconds", r->graph.load_seconds);
  cJSON_AddBoolToObject(g, "from_cache", r->graph.from_cache);
  cJSON_AddStringToObject(root, "backend", r->info.backend);
  cJSON_AddBoolToObject(root, "turns", r->turns);
  if (r->parts) {
    const gr_problem_info *p = &r->info;
    cJSON *mg = cJSON_AddObjectToObject(root, "multi_device");
    cJSON_AddStringToObject(mg, "partitioner", p->partitioner);
    cJSON_AddStringToObject(mg, "proxy", p->proxy);
    cJSON_AddStringToObject(mg, "comm", p->comm);
    cJSON_AddStringToObject(mg, "transport", p->transport);
    cJSON *q = cJSON_AddObjectToObject(mg, "partition");
    cJSON_AddNumberToObject(q, "seconds", p->partition_seconds);
    cJSON_AddNumberToObject(q, "block", (double)p->partition_block);
    cJSON_AddNumberToObject(q, "edge_cut", (double)p->edge_cut);
    cJSON_AddNumberToObject(q, "arcs", (double)p->arcs);
    cJSON_AddNumberToObject(q, "border_total", (double)p->border_total);
    cJSON_AddNumberToObject(q, "proxies_total", (double)p->proxies_total);
    cJSON *parts = cJSON_AddArrayToObject(q, "parts");
    for (int i = 0; i < r->n_devices; i++) {
      cJSON *o = cJSON_CreateObject();
      cJSON_AddNumberToObject(o, "vertices", (double)r->parts[i].vertices);
      cJSON_AddNumberToObject(o, "edges", (double)r->parts[i].edges);
      cJSON_AddNumberToObject(o, "border", (double)r->parts[i].border);
      cJSON_AddNumberToObject(o, "proxies", (double)r->parts[i].proxies);
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
    cJSON_AddNumberToObject(d, "host_graph_bytes", (double)r->devices[i].host_graph_bytes);
    cJSON_AddNumberToObject(d, "l2_bytes", (double)r->devices[i].l2_bytes);
    cJSON_AddNumberToObject(d, "memory_bandwidth", (double)r->devices[i].memory_bandwidth);
    cJSON_AddItemToArray(devs, d);
  }
  cJSON *runs = cJSON_AddArrayToObject(root, "runs");
  for (int i = 0; i < r->n_runs; i++) {
    const gr_run_summary *x = &r->runs[i].sum;
    const gr_stats *st = r->runs[i].stats;
    cJSON *o = cJSON_CreateObject();
    if (r->sourceless) cJSON_AddNullToObject(o, "source");
    else cJSON_AddNumberToObject(o, "source", (double)x->source);
    cJSON_AddNumberToObject(o, "ms", x->ms);
    cJSON_AddNumberToObject(o, "iterations", x->iterations);
    cJSON_AddNumberToObject(o, "edges_visited", (double)x->edges_visited);
    cJSON_AddNumberToObject(o, "traversed_edges", (double)x->traversed_edges);
    cJSON_AddNumberToObject(o, "reached", (double)x->reached);
    cJSON_AddNumberToObject(o, "gteps", x->gteps);
    if (r->runs[i].validated) cJSON_AddBoolToObject(o, "valid", r->runs[i].validated > 0);
    cJSON_AddBoolToObject(o, "iteration_limit", x->iteration_limit);
    cJSON *fs = cJSON_AddArrayToObject(o, "frontier_sizes");
    for (int k = 0; fs && k < x->levels; k++) {
      gr_level_info lv;
      if (gr_stats_get_level(st, k, &lv) == GR_SUCCESS)
        cJSON_AddItemToArray(fs, cJSON_CreateNumber((double)lv.frontier));
    }
    if (x->has_levels) {
      /* Per level: input frontier, edges visited, ms, the primitive's tag
       * (dobfs: P push, U pull; L a level of a device-side loop), and on
       * several devices the bytes the exchange moved. */
      cJSON *lv = cJSON_AddArrayToObject(o, "levels");
      for (int k = 0; k < x->levels; k++) {
        gr_level_info l;
        if (gr_stats_get_level(st, k, &l) < 0) continue;
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "frontier", (double)l.frontier);
        cJSON_AddNumberToObject(e, "edges", (double)l.edges);
        cJSON_AddNumberToObject(e, "ms", l.ms);
        char tag[2] = {l.tag ? l.tag : '-', '\0'};
        cJSON_AddStringToObject(e, "tag", tag);
        if (x->has_level_bytes) cJSON_AddNumberToObject(e, "bytes", (double)l.bytes);
        cJSON_AddItemToArray(lv, e);
      }
    }
    if (gr_stats_extra_numbers(st) || gr_stats_extra_series(st)) {
      /* The primitive's own figures: numbers, and series with one entry
       * per iteration (as levels). */
      cJSON *ex = cJSON_AddObjectToObject(o, "extra");
      for (int k = 0; k < gr_stats_extra_numbers(st); k++) {
        const char *name = "";
        double v = 0;
        gr_stats_get_extra_number(st, k, &name, &v);
        cJSON_AddNumberToObject(ex, name, v);
      }
      for (int k = 0; k < gr_stats_extra_series(st); k++) {
        const char *name = "";
        const double *v = NULL;
        int len = 0;
        gr_stats_get_extra_series(st, k, &name, &v, &len);
        cJSON *arr = cJSON_AddArrayToObject(ex, name);
        for (int j = 0; arr && v && j < len; j++) cJSON_AddItemToArray(arr, cJSON_CreateNumber(v[j]));
      }
    }
    if (x->devices > 1 || r->turns) {
      cJSON *ds = cJSON_AddArrayToObject(o, "devices");
      for (int d = 0; d < x->devices; d++) {
        gr_device_split ys, *y = &ys;
        if (gr_stats_get_device(st, d, y) < 0) continue;
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "compute_ms", y->compute_ms);
        cJSON_AddNumberToObject(e, "package_ms", y->package_ms);
        cJSON_AddNumberToObject(e, "transfer_ms", y->transfer_ms);
        cJSON_AddNumberToObject(e, "combine_ms", y->combine_ms);
        cJSON_AddNumberToObject(e, "wait_ms", y->wait_ms);
        cJSON_AddNumberToObject(e, "work_ms", y->work_ms);
        cJSON_AddNumberToObject(e, "bytes_received", (double)y->bytes_received);
        cJSON_AddNumberToObject(e, "items_sent", (double)y->items_sent);
        cJSON_AddNumberToObject(e, "items_received", (double)y->items_received);
        cJSON_AddNumberToObject(e, "launches", (double)y->launches);
        cJSON_AddNumberToObject(e, "waits", (double)y->waits);
        cJSON_AddNumberToObject(e, "allocations", (double)y->allocations);
        cJSON_AddNumberToObject(e, "barriers", (double)y->barriers);
        cJSON *bt = cJSON_AddArrayToObject(e, "bytes_to");
        for (int j = 0; j < x->devices; j++)
          cJSON_AddItemToArray(bt, cJSON_CreateNumber((double)gr_stats_bytes_to(st, d, j)));
        cJSON_AddItemToArray(ds, e);
      }
    }
    if (r->timeline) {
      cJSON *tl = cJSON_AddArrayToObject(o, "timeline");
      for (int d = 0; d < x->devices; d++) {
        gr_device_split y;
        if (gr_stats_get_device(st, d, &y) < 0) continue;
        for (int k = 0; k < y.timeline_len; k++) {
          gr_timeline_step ts, *t = &ts;
          if (gr_stats_get_timeline(st, d, k, t) < 0) continue;
          cJSON *e = cJSON_CreateObject();
          cJSON_AddNumberToObject(e, "iteration", t->iteration);
          cJSON_AddNumberToObject(e, "device", d);
          cJSON_AddNumberToObject(e, "compute_ms", t->compute_ms);
          cJSON_AddNumberToObject(e, "package_ms", t->package_ms);
          cJSON_AddNumberToObject(e, "transfer_ms", t->transfer_ms);
          cJSON_AddNumberToObject(e, "combine_ms", t->combine_ms);
          cJSON_AddNumberToObject(e, "wait_ms", t->wait_ms);
          cJSON_AddNumberToObject(e, "work_ms", t->work_ms);
          cJSON_AddNumberToObject(e, "bytes_in", (double)t->bytes_in);
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
    }
    cJSON_AddItemToArray(runs, o);
  }
  cJSON *ph = cJSON_AddObjectToObject(root, "phases");
  cJSON_AddNumberToObject(ph, "start_s", r->phases.start);
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

gr_status gr_report_write_out(const char *path, const gr_graph *g, gr_problem *p) {
  gr_values res;
  gr_graph_info gi;
  GR_CHECK(gr_problem_get_values(p, &res));
  GR_CHECK(gr_graph_get_info(g, &gi));
  int64_t *ids = malloc((size_t)gi.vertices * sizeof *ids + 1);
  if (!ids) return gr_errorf(GR_ERR_HOST_OOM, "cannot hold the ids of %llu vertices", (unsigned long long)gi.vertices);
  GR_CHECK(gr_graph_ids(g, ids));
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f) {
    free(ids);
    return gr_errorf(GR_ERR_IO, "cannot write %s: %s", path, strerror(errno));
  }
  static char buf[1 << 16];
  setvbuf(f, buf, _IOFBF, sizeof buf);
  int bad = 0;
  for (uint64_t v = 0; v < res.n && !bad; v++) {
    unsigned long long id = (unsigned long long)ids[v];
    int k;
    switch (res.type) {
      case GR_VALUES_INT64: {
        /* A vertex id (cc's labels) comes as the input names it. */
        const long long x = (long long)((const int64_t *)res.values)[v];
        if (res.values_are_ids && x >= 0) k = fprintf(f, "%llu %llu", id, (unsigned long long)x);
        else k = fprintf(f, "%llu %lld", id, x);
        break;
      }
      case GR_VALUES_FLOAT32: {
        float x = ((const float *)res.values)[v];
        k = isinf(x) || isnan(x) ? fprintf(f, "%llu -1", id) : fprintf(f, "%llu %.9g", id, (double)x);
        break;
      }
      default: {
        double x = ((const double *)res.values)[v];
        k = isinf(x) || isnan(x) ? fprintf(f, "%llu -1", id) : fprintf(f, "%llu %.17g", id, x);
        break;
      }
    }
    if (k >= 0 && res.predecessors) {
      int64_t q = res.predecessors[v];
      k = q < 0 ? fprintf(f, " -1") : fprintf(f, " %llu", (unsigned long long)q);
    }
    if (k < 0 || fputc('\n', f) == EOF) bad = 1;
  }
  free(ids);
  bad = fclose(f) != 0 || bad;
  if (bad || rename(tmp, path) != 0) {
    int e = errno;
    unlink(tmp);
    return gr_errorf(GR_ERR_IO, "cannot write %s: %s", path, strerror(e));
  }
  return GR_SUCCESS;
}
