/* SPDX-License-Identifier: Apache-2.0 */
/* Host result arrays in global ids. */
#include <stdlib.h>
#include <string.h>

#include "gr/primitive.h"
#include "gr/subgraph.h"
#include "gr/util.h"

static size_t gr__value_size(gr_value_type t) {
  switch (t) {
    case GR_VALUE_SVID:
      return sizeof(gr_svid);
    case GR_VALUE_FLOAT:
      return sizeof(float);
    case GR_VALUE_DOUBLE:
      return sizeof(double);
  }
  return sizeof(double);
}

gr_status gr_result_alloc(gr_result *r, gr_vid n, gr_value_type type, bool preds) {
  gr_result z = GR_RESULT_INIT;
  *r = z;
  r->n = n;
  r->type = type;
  GR_CHECK(gr_host_alloc(&r->values, (size_t)n * gr__value_size(type), "results"));
  /* Unwritten entries read as "unreached" (-1) rather than garbage. */
  memset(r->values, 0xff, (size_t)n * gr__value_size(type));
  if (preds) {
    gr_status st = gr_host_alloc((void **)&r->preds, (size_t)n * sizeof(gr_svid), "predecessors");
    if (st < 0) {
      gr_result_free(r);
      return st;
    }
    memset(r->preds, 0xff, (size_t)n * sizeof(gr_svid));
  }
  return GR_SUCCESS;
}

void gr_extra_free(gr_extra *x) {
  for (int i = 0; i < x->n_series && i < GR_EXTRA_MAX; i++) free(x->series[i]);
  memset(x, 0, sizeof *x);
}

void gr_result_free(gr_result *r) {
  free(r->values);
  free(r->preds);
  gr_extra_free(&r->extra);
  r->values = NULL;
  r->preds = NULL;
  r->n = 0;
}

/* Seeds one value of `size` bytes at the source's owner. */
static gr_status gr__part_seed(gr_part *p, gr_vid source, void *values, const void *value, size_t size,
                               gr_frontier *first) {
  first->size = 0;
  gr_vid src = 0;
  if (!gr_subgraph_local(p->sub, source, &src) || !gr_subgraph_owns(p->sub, src)) return GR_SUCCESS;
  GR_CHECK(gr_device_copy(p->dev, (unsigned char *)values + (size_t)src * size, value, size, GR_COPY_H2D));
  GR_CHECK(gr_frontier_assign(first, p->dev, &src, 1));
  return gr_device_sync(p->dev);
}

gr_status gr_part_seed(gr_part *p, gr_vid source, gr_svid *values, gr_svid value, gr_frontier *first) {
  return gr__part_seed(p, source, values, &value, sizeof value, first);
}

gr_status gr_part_seed_float(gr_part *p, gr_vid source, float *values, float value, gr_frontier *first) {
  return gr__part_seed(p, source, values, &value, sizeof value, first);
}

/* Owned entries of a device array of `size`-byte values, to global ids. */
static gr_status gr__part_gather(gr_part *p, const void *values, size_t size, void *global) {
  const gr_vid n = p->sub->n_local;
  unsigned char *h = NULL;
  GR_CHECK(gr_host_alloc((void **)&h, (size_t)n * size, "results"));
  gr_status st = gr_device_copy(p->dev, h, values, (size_t)n * size, GR_COPY_D2H);
  /* Each device's thread scatters its own vertices with a share of the
   * host's threads (owners write disjoint entries). */
  const int threads = gr_host_threads() / p->count > 1 ? gr_host_threads() / p->count : 1;
  (void)threads;
  if (st >= 0) {
#pragma omp parallel for num_threads(threads) schedule(static) if (n > 65536)
    for (gr_vid v = 0; v < n; v++)
      if (gr_subgraph_owns(p->sub, v))
        memcpy((unsigned char *)global + (size_t)gr_subgraph_global(p->sub, v) * size, h + (size_t)v * size, size);
  }
  free(h);
  return st;
}

gr_status gr_part_gather_svid(gr_part *p, const gr_svid *values, gr_svid *global) {
  return gr__part_gather(p, values, sizeof *values, global);
}

gr_status gr_part_gather_float(gr_part *p, const float *values, float *global) {
  return gr__part_gather(p, values, sizeof *values, global);
}
