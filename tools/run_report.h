/* SPDX-License-Identifier: Apache-2.0 */
/* gr_run's reports: the text summary, the --json file and the --out file. */
#ifndef GR_RUN_REPORT_H
#define GR_RUN_REPORT_H

#include <stdio.h>

#include "gr/enactor.h"
#include "gr/graph.h"
#include "gr/primitive.h"
#include "partitioner.h"

typedef struct gr_run_record {
  uint64_t source;     /* as in the input file */
  double ms;
  int iterations;
  gr_eid edges;        /* edges visited by the operators */
  gr_eid traversed;    /* Graph500 count for TEPS */
  gr_vid reached;
  double gteps;
  int validated;       /* 1 passed, 0 not checked, -1 failed */
  gr_eid *frontier;    /* per-iteration input frontier sizes */
  int frontier_len;
  gr_eid *level_edges; /* per iteration: edges visited, ms, the primitive's tag */
  double *level_ms;
  char *level_tag;
  uint64_t *level_bytes; /* per iteration: bytes exchanged, all devices */
  bool iteration_limit;
  gr_device_run_stats *dev; /* per device: time split, bytes sent */
  int n_dev;
  gr_extra extra;           /* the primitive's own figures (sssp: delta, bucket sizes) */
} gr_run_record;

/* Wall seconds of each phase of a gr_run invocation (time to answer). */
typedef struct gr_run_phases {
  double load;      /* reading or generating the graph */
  double partition; /* assigning owners (several devices) */
  double build;     /* the subgraphs of the devices */
  double setup;     /* opening the devices, uploading, the primitive's init */
  double runs;      /* the runs themselves, with their host-side bookkeeping */
  double extract;   /* gathering results to the host, counting what was reached */
  double validate;  /* the CPU reference and the checks */
  double total;     /* from start to the report */
} gr_run_phases;

typedef struct gr_run_report {
  const char *primitive;
  bool sourceless; /* the primitive takes no source (cc, pr): none is printed */
  const char *graph;
  gr_vid vertices;
  gr_eid edges;
  gr_eid arcs;
  bool directed;
  bool weighted;
  double load_seconds;
  bool from_cache;
  const char *backend; /* "cuda" or "cpu" */
  int n_devices;
  gr_device_report *devices;
  /* several devices: how the graph was split and how devices talk */
  const gr_partition *partition;
  const char *proxy;
  const char *comm;
  const char *transport;
  gr_run_record *runs;
  int n_runs;
  bool validate;
  bool timeline; /* print each iteration's timeline (the run nearest the median) */
  gr_run_phases phases;
  char validation_error[1024];
  int argc;
  char **argv;
} gr_run_report;

void gr_report_print(FILE *f, const gr_run_report *r);
gr_status gr_report_write_json(const char *path, const gr_run_report *r);
/* One line per vertex: its id as in the input, its value (-1 unreached), and
 * its predecessor's id when predecessors were recorded. Written to a
 * temporary file and renamed, so a failure leaves no half-written output. */
gr_status gr_report_write_out(const char *path, const gr_graph *g, const gr_result *res);

#endif
