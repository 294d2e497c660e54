/* SPDX-License-Identifier: Apache-2.0 */
/* Per-device scratch space for operators: degree scans, library temporary
 * storage and small counters read back by the host. Grown just enough by the
 * operator that needs it; one per device thread. */
#ifndef GR_WORKSPACE_H
#define GR_WORKSPACE_H

#include "gr/buffer.h"
#include "gr/types.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { GR_WS_COUNTERS = 8 };

typedef struct gr_workspace {
  gr_device *dev;
  gr_buffer scan;     /* gr_eid per frontier item, plus one */
  gr_buffer temp;     /* library (CUB) temporary storage */
  gr_buffer words;    /* per-word counts for bitmap compaction */
  gr_buffer counters; /* GR_WS_COUNTERS device-side gr_eid counters */
  gr_eid *host_counters; /* pinned mirror of the counters */
  gr_mem_policy policy;
} gr_workspace;

gr_status gr_workspace_init(gr_workspace *ws, gr_device *dev, const gr_mem_policy *policy);
void gr_workspace_release(gr_workspace *ws);
/* Zeroes the first n device counters. */
gr_status gr_workspace_zero_counters(gr_workspace *ws, int n);
/* Copies the first n device counters to ws->host_counters (synchronizes). */
gr_status gr_workspace_read_counters(gr_workspace *ws, int n);

#ifdef __cplusplus
}
#endif

#endif
