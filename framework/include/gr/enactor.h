/* SPDX-License-Identifier: Apache-2.0 */
/* The enactor: one pthread per device, each owning its device context; runs
 * a primitive's bulk-synchronous loop (core iteration, split and package,
 * exchange, combine, global stop). Any error on any device is recorded with
 * its device and cause; every thread leaves at the next barrier and frees
 * what it holds. */
#ifndef GR_ENACTOR_H
#define GR_ENACTOR_H

#include "gr/buffer.h"
#include "gr/device.h"
#include "gr/exchange.h"
#include "gr/primitive.h"
#include "gr/subgraph.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gr_enactor gr_enactor;

typedef struct gr_enactor_config {
  const gr_primitive *prim;
  const gr_prim_options *opts;
  gr_backend backend;
  int n_devices;
  int cpu_threads;          /* per CPU device; 0 = host threads / devices */
  gr_mem_policy mem;
  gr_subgraph *const *subs; /* n_devices parts */
  /* Between devices (required when n_devices > 1): the communication
   * layer's exchange and its shared state. */
  const gr_exchange_ops *exchange;
  void *exchange_shared;
  bool broadcast;           /* the exchange sends every change to every device */
  bool timeline;            /* keep per-iteration figures of every device (gr_timeline_entry) */
  /* CUDA backend, optional: the GPU of each device (n_devices physical
   * ordinals, repeats allowed); NULL = device i on GPU i (GR_DEVICE_MAP). */
  const int *gpus;
  /* The devices take turns during runs: a device works only while it holds
   * the run's turn, which it gives up (its stream drained) whenever it
   * waits at a barrier. Each device's work is then timed alone even where
   * several share one GPU (logical devices): gr_timeline_entry.work_ms is
   * what it would take on a GPU of its own. Runs take longer; transports
   * whose transfers need every device at once (NCCL) cannot take turns. */
  bool turns;
} gr_enactor_config;

typedef struct gr_device_report {
  char name[288];
  uint64_t peak_bytes;
  uint64_t allocations;
  uint64_t reallocations;
  uint64_t host_graph_bytes; /* --graph-memory host: the arrays kernels read from host memory */
  uint64_t l2_bytes;         /* the GPU's L2, 0 on the CPU */
  uint64_t memory_bandwidth; /* the GPU memory's peak, bytes a second; 0 on the CPU or unknown */
} gr_device_report;

typedef struct gr_run_stats {
  double ms;              /* the traversal, reset excluded */
  int iterations;
  gr_eid edges;           /* edges visited by the operators */
  gr_eid *frontier;       /* input frontier size of each iteration (all devices) */
  int frontier_len;
  /* per iteration, like frontier (entries of the levels a device-side loop
   * ran at once are 0 / the loop's): edges visited, ms, the primitive's tag */
  gr_eid *level_edges;
  double *level_ms;
  char *level_tag;
  uint64_t *level_bytes;  /* bytes the exchange moved, all devices */
  int level_capacity;     /* entries allocated in the five arrays above */
  gr_status status;       /* GR_SUCCESS or GR_ITERATION_LIMIT */
  int n_devices;
  gr_device_run_stats *devices; /* per device: time split and bytes sent */
} gr_run_stats;
void gr_run_stats_free(gr_run_stats *s);

/* Opens the devices (one thread each), uploads each part and initialises the
 * primitive on it. */
gr_status gr_enactor_create(gr_enactor **out, const gr_enactor_config *cfg);
/* One run: reset, then iterate until the global stop. */
gr_status gr_enactor_run(gr_enactor *e, const gr_run_args *args, gr_run_stats *stats);
/* Gathers the last run's results (global ids) into r, allocated here. */
gr_status gr_enactor_extract(gr_enactor *e, gr_result *r);
/* The same into r, a result of an earlier extract or GR_RESULT_INIT, whose
 * arrays are kept when they fit (results of a big graph are hundreds of
 * megabytes: fresh ones cost page faults every run). */
gr_status gr_enactor_extract_reuse(gr_enactor *e, gr_result *r);
int gr_enactor_device_count(const gr_enactor *e);
void gr_enactor_device_report(const gr_enactor *e, int device, gr_device_report *rep);
void gr_enactor_destroy(gr_enactor **e);

#ifdef __cplusplus
}
#endif

#endif
