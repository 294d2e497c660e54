/* SPDX-License-Identifier: Apache-2.0 */
/* The primitives' tests on CPU devices: an enactor over one device or
 * several (random parts, selective exchange), and the memory tests' peak
 * of device memory. */
#ifndef GR_TEST_DEVICES_H
#define GR_TEST_DEVICES_H

#include <stdbool.h>
#include <stdint.h>

#include "comm.h"
#include "gr/enactor.h"
#include "gr/graph.h"
#include "gr/primitive.h"
#include "partitioner.h"

/* An enactor of `prim` on `devices` CPU devices of cpu_threads threads
 * each: one holds the whole graph; more hold random parts under `proxy`
 * and exchange selectively over host copies. In-edges when `needs_in`.
 * What it was built from is kept beside it, for gr_test_devices_destroy. */
typedef struct gr_test_devices {
  int devices;
  gr_partition *part;
  gr_subgraph **subs;
  gr_subgraph *whole;
  gr_comm *comm;
  gr_prim_options opts;
  gr_enactor *e;
} gr_test_devices;

void gr_test_devices_create(gr_test_devices *t, gr_graph *g, const gr_primitive *prim, int devices,
                            gr_proxy_mode proxy, bool needs_in, int cpu_threads);
/* The same on 2 or more devices (one thread each) over parts of g built
 * lazily (gr_subgraphs_build_lazy: their lists gathered at the upload)
 * under 1-hop proxies, from a partition of `kind`, no in-edges: the
 * enactor's status (t->e NULL where it failed; destroy t either way). */
gr_status gr_test_devices_create_lazy(gr_test_devices *t, gr_graph *g, const gr_primitive *prim, int devices,
                                      gr_partitioner_kind kind);
void gr_test_devices_destroy(gr_test_devices *t);

/* g cut in `parts` by `kind` on one thread (the same parts every time);
 * fails the test where it cannot be. */
gr_partition *gr_test_partition(gr_graph *g, gr_partitioner_kind kind, int parts);

/* One run of `prim` from `source` on such devices (cpu_threads 2): its
 * values as vertex ids or depths (the caller frees them) and, where asked,
 * its iterations. */
gr_svid *gr_test_run_svid(gr_graph *g, const gr_primitive *prim, int devices, gr_proxy_mode proxy, bool needs_in,
                          gr_vid source, int *iterations);

/* One run of `prim` from the highest-degree vertex of g on `devices` CPU
 * devices (gr_test_devices_create, one thread each), at least
 * `min_iterations` iterations. Returns the largest peak of device memory
 * over the devices. */
uint64_t gr_test_peak_bytes(gr_graph *g, const gr_primitive *prim, int devices, gr_proxy_mode proxy, bool needs_in,
                            int min_iterations);

/* Fails the test unless the peak per device of such a run on 4 devices is
 * at most `bound` times one device's. */
void gr_test_check_peak_on_four(gr_graph *g, const gr_primitive *prim, gr_proxy_mode proxy, bool needs_in,
                                int min_iterations, double bound);

#endif
