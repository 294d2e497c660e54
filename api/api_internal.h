/* SPDX-License-Identifier: Apache-2.0 */
/* What the public interface's files share: the parsed settings behind a
 * gr_options handle and the context's state. */
#ifndef GR_API_INTERNAL_H
#define GR_API_INTERNAL_H

#include "comm.h"
#include "gr/buffer.h"
#include "gr/device.h"
#include "gr/gr.h"
#include "gr/graph.h"
#include "gr/primitive.h"
#include "partitioner.h"

typedef enum gr__backend_choice { GR__BACKEND_AUTO = 0, GR__BACKEND_CPU = 1, GR__BACKEND_GPU = 2 } gr__backend_choice;
typedef enum gr__proxy_choice { GR__PROXY_AUTO = 0, GR__PROXY_ALL = 1, GR__PROXY_1HOP = 2 } gr__proxy_choice;

enum { GR__MAX_GPU_IDS = 1024 };

struct gr_options {
  /* devices */
  gr__backend_choice backend;
  int devices;
  int n_gpu_ids;                   /* > 0: the GPU of each device (gpu-ids), devices = n_gpu_ids */
  int gpu_ids[GR__MAX_GPU_IDS];
  int cpu_threads;
  gr_mem_policy mem;
  gr_partitioner_kind partitioner;
  uint32_t part_block; /* random partitioner's block of ids (0: its own choice) */
  double bias;
  gr__proxy_choice proxy;
  bool comm_given; /* else the primitive's exchange */
  gr_comm_mode comm;
  gr_transport_kind transport;
  gr_comm_format comm_format;
  bool timeline;
  bool turns;
  uint64_t seed;
  /* graphs (cache_dir owned) */
  gr_load_options load;
  char *cache_dir;
  /* primitives */
  gr_prim_options prim;
  uint64_t sources; /* sources of each gr_problem_run: 1 the one given, K a draw */
  bool sources_all; /* every vertex */
};

/* The defaults every handle starts from. */
void gr__options_defaults(gr_options *o);
/* A copy of src (defaults when src is NULL) into dst, strings duplicated. */
gr_status gr__options_copy(gr_options *dst, const gr_options *src);
void gr__options_clear(gr_options *o);
/* The load options of o (or defaults) with the shared seed applied. */
gr_load_options gr__options_load(const gr_options *o);

/* Draw `draw` of `count` distinct vertices with out-edges (dense ids), as
 * gr_graph_sample_sources describes. */
gr_status gr__graph_sample(const gr_graph *g, uint64_t seed, int draw, uint64_t count, gr_vid *out);

struct gr_context {
  gr_options opts;
  gr_backend backend;
  int devices;
  /* The exchange, opened up front so that a transport that cannot work here
   * fails at once; lent to one problem at a time (its state is per run of
   * devices), and a problem made while it is lent opens its own. */
  gr_comm *comm;
  bool comm_lent; /* atomic */
  /* References: the handle's and each problem's, so that the context goes
   * with the last of them (gr__context_release). Atomic: a binding may
   * destroy problems on several threads. */
  int refs;
};

void gr__context_hold(gr_context *c);
void gr__context_release(gr_context *c);

/* The GPU of each device (gpu-ids), or NULL: device i on GPU i. */
static inline const int *gr__context_gpus(const gr_context *c) {
  return c->backend == GR_BACKEND_CUDA && c->opts.n_gpu_ids ? c->opts.gpu_ids : NULL;
}

#endif
