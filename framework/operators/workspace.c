/* SPDX-License-Identifier: Apache-2.0 */
/* Operator scratch space: buffers grown on demand and a handful of counters
 * that kernels bump and the host reads back in one small copy. */
#include "gr/workspace.h"

gr_status gr_workspace_init(gr_workspace *ws, gr_device *dev, const gr_mem_policy *policy) {
  gr_workspace z = {0};
  *ws = z;
  ws->dev = dev;
  if (policy) ws->policy = *policy;
  gr_status st = gr_buffer_resize(&ws->counters, dev, GR_WS_COUNTERS * sizeof(gr_eid), 0,
                                  "operator counters");
  if (st < 0) return st;
  st = gr_device_host_alloc(dev, (void **)&ws->host_counters, GR_WS_COUNTERS * sizeof(gr_eid),
                            "operator counters");
  if (st < 0) {
    gr_buffer_release(&ws->counters);
    return st;
  }
  return gr_device_memset(dev, ws->counters.ptr, 0, GR_WS_COUNTERS * sizeof(gr_eid));
}

void gr_workspace_release(gr_workspace *ws) {
  gr_buffer_release(&ws->scan);
  gr_buffer_release(&ws->temp);
  gr_buffer_release(&ws->words);
  gr_buffer_release(&ws->counters);
  if (ws->host_counters) gr_device_host_free(ws->dev, ws->host_counters);
  ws->host_counters = NULL;
}

gr_status gr_workspace_zero_counters(gr_workspace *ws, int n) {
  return gr_device_memset(ws->dev, ws->counters.ptr, 0, (size_t)n * sizeof(gr_eid));
}

gr_status gr_workspace_read_counters(gr_workspace *ws, int n) {
  return gr_device_copy(ws->dev, ws->host_counters, ws->counters.ptr, (size_t)n * sizeof(gr_eid),
                        GR_COPY_D2H);
}
