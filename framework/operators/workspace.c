/* SPDX-License-Identifier: Apache-2.0 */
/* Operator scratch space: buffers grown on demand and a handful of counters
 * that kernels bump and the host reads back in one small copy. */
#include "gr/workspace.h"

#include <stdlib.h>
#include <string.h>

#include "gr/util.h"

gr_status gr_workspace_init(gr_workspace *ws, gr_device *dev, const gr_mem_policy *policy) {
  gr_workspace z = {0};
  *ws = z;
  ws->dev = dev;
  gr_tuning t = GR_TUNING_INIT;
  ws->tune = t;
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
  gr_buffer_release(&ws->chunks);
  gr_buffer_release(&ws->sorted);
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

/* auto, on or off. */
static bool gr__tune_mode(const char *v, gr_sort_mode *out) {
  if (!strcmp(v, "auto")) *out = GR_SORT_AUTO;
  else if (!strcmp(v, "on")) *out = GR_SORT_ON;
  else if (!strcmp(v, "off")) *out = GR_SORT_OFF;
  else return false;
  return true;
}

static bool gr__tune_count(const char *v, gr_eid *out) {
  uint64_t x = 0;
  if (!gr_parse_count(v, strlen(v), &x)) return false;
  *out = (gr_eid)x;
  return true;
}

gr_status gr_tuning_parse(gr_tuning *t, const char *text) {
  char buf[512];
  if (!text || strlen(text) >= sizeof buf)
    return gr_errorf(GR_ERR_INVALID_ARG, "--tune: expected KEY=VALUE[,KEY=VALUE...]");
  strcpy(buf, text);
  gr_tuning r = *t;
  for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(kv, '=');
    if (!eq) return gr_errorf(GR_ERR_INVALID_ARG, "--tune: '%s' is not KEY=VALUE", kv);
    *eq = '\0';
    const char *k = kv, *v = eq + 1;
    bool ok = true;
    if (!strcmp(k, "advance")) {
      if (!strcmp(v, "chunked")) r.advance = GR_ADVANCE_CHUNKED;
      else if (!strcmp(v, "serial")) r.advance = GR_ADVANCE_SERIAL;
      else if (!strcmp(v, "twc")) r.advance = GR_ADVANCE_TWC;
      else if (!strcmp(v, "auto")) r.advance = GR_ADVANCE_AUTO;
      else ok = false;
    } else if (!strcmp(k, "pull")) {
      if (!strcmp(v, "hybrid")) r.pull = GR_PULL_HYBRID;
      else if (!strcmp(v, "warp")) r.pull = GR_PULL_WARP;
      else ok = false;
    } else if (!strcmp(k, "small")) {
      if (!strcmp(v, "on")) r.small_loop = true;
      else if (!strcmp(v, "off")) r.small_loop = false;
      else ok = false;
    } else if (!strcmp(k, "small-vertices")) {
      ok = gr__tune_count(v, &r.small_vertices);
    } else if (!strcmp(k, "small-edges")) {
      ok = gr__tune_count(v, &r.small_edges);
    } else if (!strcmp(k, "small-degree")) {
      ok = gr__tune_count(v, &r.small_degree);
    } else if (!strcmp(k, "status")) {
      if (!strcmp(v, "atomic")) r.idempotent = false;
      else if (!strcmp(v, "idempotent")) r.idempotent = true;
      else ok = false;
    } else if (!strcmp(k, "pull-light")) {
      ok = gr__tune_count(v, &r.pull_light) && r.pull_light >= 1;
    } else if (!strcmp(k, "pull-try")) {
      ok = gr__tune_count(v, &r.pull_try);
    } else if (!strcmp(k, "sort")) {
      ok = gr__tune_mode(v, &r.sort_input);
    } else if (!strcmp(k, "relabel")) {
      ok = gr__tune_mode(v, &r.relabel);
    } else if (!strcmp(k, "hot")) {
      ok = gr__tune_count(v, &r.hot);
    } else if (!strcmp(k, "hub")) {
      ok = gr__tune_count(v, &r.hub);
    } else if (!strcmp(k, "long-rows")) {
      if (!strcmp(v, "auto")) r.long_rows = GR_LONG_ROWS_AUTO;
      else ok = gr__tune_count(v, &r.long_rows) && r.long_rows != GR_LONG_ROWS_AUTO;
    } else if (!strcmp(k, "walk-stage")) {
      ok = gr__tune_mode(v, &r.walk_stage);
    } else if (!strcmp(k, "visited")) {
      if (!strcmp(v, "bitmap")) r.visited_bitmap = true;
      else if (!strcmp(v, "state")) r.visited_bitmap = false;
      else ok = false;
    } else if (!strcmp(k, "bc-counts")) {
      if (!strcmp(v, "log")) r.bc_log = true;
      else if (!strcmp(v, "auto")) r.bc_log = false;
      else ok = false;
    } else if (!strcmp(k, "sssp-heavy")) {
      if (!strcmp(v, "once")) r.sssp_heavy_once = true;
      else if (!strcmp(v, "always")) r.sssp_heavy_once = false;
      else ok = false;
    } else if (!strcmp(k, "sssp-tail")) {
      ok = gr__tune_count(v, &r.sssp_tail);
    } else if (!strcmp(k, "sssp-early")) {
      ok = gr__tune_count(v, &r.sssp_early);
    } else if (!strcmp(k, "sssp-peers")) {
      if (!strcmp(v, "on")) r.sssp_peers = true;
      else if (!strcmp(v, "off")) r.sssp_peers = false;
      else ok = false;
    } else if (!strcmp(k, "owner-words")) {
      if (!strcmp(v, "on")) r.owner_words = true;
      else if (!strcmp(v, "off")) r.owner_words = false;
      else ok = false;
    } else if (!strcmp(k, "cc-one-label")) {
      if (!strcmp(v, "on")) r.cc_one_label = true;
      else if (!strcmp(v, "off")) r.cc_one_label = false;
      else ok = false;
    } else {
      return gr_errorf(GR_ERR_INVALID_ARG,
                       "--tune: unknown key '%s' (advance, pull, small, small-vertices, small-edges, small-degree, "
                       "visited, pull-light, status, sort, relabel, hot, hub, long-rows, walk-stage, bc-counts, sssp-heavy, "
                       "sssp-tail, sssp-early, sssp-peers, owner-words, cc-one-label, pull-try)",
                       k);
    }
    if (!ok) return gr_errorf(GR_ERR_INVALID_ARG, "--tune: bad value '%s' for %s", v, k);
  }
  *t = r;
  return GR_SUCCESS;
}

/* Measured, BFS (docs/performance.md): on an H100 (50 MiB of L2, 3.35
 * TB/s) the copy made Kronecker 27 (its depths 10.2 times the L2) 7 %
 * faster and cost 1 % on Kronecker 26 (5.1 times), 4-5 % on Kronecker 25
 * and 6-10 % on Kronecker 22; on an H200 (4.8 TB/s), whose L2 the walk's
 * scattered reads never made the wall, it cost 8 % on Kronecker 27. */
bool gr_tuning_walk_stage(const gr_tuning *t, uint64_t n, uint64_t l2_bytes, uint64_t bandwidth) {
  if (t->walk_stage != GR_SORT_AUTO) return t->walk_stage == GR_SORT_ON;
  /* 4 n >= 8 l2, as n >= 2 l2: no product to overflow. */
  return l2_bytes > 0 && n >= 2 * l2_bytes && bandwidth > 0 && bandwidth < GR_WALK_STAGE_BANDWIDTH;
}
