/* SPDX-License-Identifier: Apache-2.0 */
/* The host transport, for CPU devices: every device copies the packages meant
 * for it out of its peers' send buffers (all in host memory). */
#include <string.h>

#include "comm_internal.h"

gr_status gr__transport_reserve_packed(gr_comm *c, gr__xfer *x) {
  (void)c;
  uint64_t total = 0;
  for (int j = 0; j < x->n; j++) {
    x->recv_offset[j] = total;
    if (j != x->me && !x->in_place[j] && !x->land[j]) total += x->pkg[j][x->me].bytes;
  }
  if (total > x->recv->capacity)
    GR_CHECK(gr_buffer_reserve(x->recv, x->dev, total, 0, x->mem, 0, "exchange receive buffer"));
  return GR_SUCCESS;
}

static gr_status gr__host_move(gr_comm *c, gr__xfer *x) {
  (void)c;
  GR_CHECK(gr__transport_reserve_packed(c, x));
  for (int j = 0; j < x->n; j++) {
    if (j == x->me) continue;
    const gr__pkg *m = &x->pkg[j][x->me];
    unsigned char *to = x->land[j] ? x->land[j] : (unsigned char *)x->recv->ptr + x->recv_offset[j];
    if (m->copy && !x->in_place[j]) memcpy(to, m->ptr, m->copy);
    x->moved_to[j] = x->pkg[x->me][j].copy;
  }
  return GR_SUCCESS;
}

/* CPU devices share the host's memory: a combine reads every package
 * where its sender wrote it. */
static bool gr__host_in_place(const gr_comm *c, int me, int j, uint64_t bytes, bool once) {
  (void)c, (void)me, (void)j, (void)bytes, (void)once;
  return true;
}

/* CPU devices' atomics are the host's, on one memory. */
static bool gr__host_writes_peer(const gr_comm *c, int me, int j) {
  (void)me, (void)j;
  return c->backend == GR_BACKEND_CPU;
}

const gr__transport_ops gr__transport_host = {"host",  NULL, NULL, NULL, gr__host_move, NULL, NULL, gr__host_in_place,
                                              gr__host_writes_peer};
