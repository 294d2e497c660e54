/* SPDX-License-Identifier: Apache-2.0 */
/* The primitives' memory tests: the peak of device memory of one run. */
#ifndef GR_TEST_PEAK_H
#define GR_TEST_PEAK_H

#include <stdbool.h>
#include <stdint.h>

#include "gr/graph.h"
#include "gr/primitive.h"
#include "partitioner.h"

/* One run of `prim` from the highest-degree vertex of g on `devices` CPU
 * devices (one: the whole graph; more: random parts under `proxy`, the
 * selective exchange over host copies), with in-edges when `needs_in`;
 * at least `min_iterations` iterations. Returns the largest peak of device
 * memory over the devices. */
uint64_t gr_test_peak_bytes(gr_graph *g, const gr_primitive *prim, int devices, gr_proxy_mode proxy, bool needs_in,
                            int min_iterations);

#endif
