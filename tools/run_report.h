/* SPDX-License-Identifier: Apache-2.0 */
/* gr_run's reports: the text summary, the --json file and the --out file,
 * written from what the public interface (gr/gr.h) gives. */
#ifndef GR_RUN_REPORT_H
#define GR_RUN_REPORT_H

#include <stdio.h>

#include "gr/gr.h"

typedef struct gr_run_record {
  gr_stats *stats;     /* the run's figures (owned) */
  gr_run_summary sum;
  int validated;       /* 1 passed, 0 not checked, -1 failed */
} gr_run_record;

/* Wall seconds of each phase of a gr_run invocation (time to answer). */
typedef struct gr_run_phases {
  double start;     /* before the graph: finding the GPUs (the driver's start), opening the exchange */
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
  gr_graph_info graph;
  const gr_problem *problem;
  gr_problem_info info; /* devices, and with several how the graph was split */
  int n_devices;
  gr_device_info *devices;
  gr_part_info *parts;  /* n_devices entries with several devices, else NULL */
  gr_run_record *runs;
  int n_runs;
  bool validate;
  bool timeline; /* print each iteration's timeline (the run nearest the median) */
  bool turns;    /* the devices took turns: each one's work was timed alone */
  gr_run_phases phases;
  char validation_error[1024];
  int argc;
  char **argv;
} gr_run_report;

void gr_report_print(FILE *f, const gr_run_report *r);
gr_status gr_report_write_json(const char *path, const gr_run_report *r);
/* One line per vertex: its id as in the input, its value (-1 unreached), and
 * its predecessor's id when predecessors were recorded: the problem's last
 * run. Written to a temporary file and renamed, so a failure leaves no
 * half-written output. */
gr_status gr_report_write_out(const char *path, const gr_graph *g, gr_problem *p);

#endif
