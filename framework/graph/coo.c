/* SPDX-License-Identifier: Apache-2.0 */
/* The COO edge list: exact reservations for readers and generators that know
 * their size, amortised growth for callers that push one edge at a time. */
#include <stdlib.h>

#include "gr/util.h"
#include "graph_internal.h"

static gr_status gr__coo_grow(gr_coo *c, uint64_t cap, bool weights) {
  /* Every array must stay addressable: capacity * 8 bytes fits in size_t. */
  if (cap > SIZE_MAX / sizeof(uint64_t))
    return gr_errorf(GR_ERR_HOST_OOM, "an edge list of %llu edges does not fit in memory",
                     (unsigned long long)cap);
  size_t vb = (size_t)cap * sizeof(gr_vid);
  GR_CHECK(gr_host_realloc((void **)&c->src, vb, "edge list sources"));
  GR_CHECK(gr_host_realloc((void **)&c->dst, vb, "edge list targets"));
  if (weights || c->w)
    GR_CHECK(gr_host_realloc((void **)&c->w, (size_t)cap * sizeof(gr_weight), "edge list weights"));
  c->capacity = cap;
  return GR_SUCCESS;
}

gr_status gr_coo_reserve(gr_coo *c, uint64_t edges, bool weights) {
  if (!c) return gr_errorf(GR_ERR_INVALID_ARG, "gr_coo_reserve: edge list is NULL");
  if (edges <= c->capacity && (!weights || c->w)) return GR_SUCCESS;
  return gr__coo_grow(c, edges > c->capacity ? edges : c->capacity, weights);
}

gr_status gr_coo_push(gr_coo *c, gr_vid s, gr_vid d, gr_weight w) {
  if (c->m == c->capacity) {
    uint64_t cap = c->capacity < 1024 ? 1024 : c->capacity + c->capacity / 2;
    GR_CHECK(gr__coo_grow(c, cap, false));
  }
  c->src[c->m] = s;
  c->dst[c->m] = d;
  if (c->w) c->w[c->m] = w;
  c->m++;
  return GR_SUCCESS;
}

void gr_coo_free(gr_coo *c) {
  if (!c) return;
  free(c->src);
  free(c->dst);
  free(c->w);
  free(c->orig_ids);
  *c = (gr_coo)GR_COO_INIT;
}
