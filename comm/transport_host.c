/* SPDX-License-Identifier: Apache-2.0 */
/* The host transport, for CPU devices: every device copies the packages meant
 * for it out of its peers' send buffers (all in host memory). */
#include <string.h>

#include "comm_internal.h"

/* Receive layout shared by the copying transports: peers' packages one
 * after another, in peer order. */
gr_status gr__transport_reserve_packed(gr_comm *c, gr__xfer *x) {
  (void)c;
  uint64_t total = 0;
  for (int j = 0; j < x->n; j++) {
    x->recv_offset[j] = total;
    total += x->in_bytes[j];
  }
  if (total) GR_CHECK(gr_buffer_reserve(x->recv, x->dev, total, 0, x->mem, 0, "exchange receive buffer"));
  return GR_SUCCESS;
}

static gr_status gr__host_move(gr_comm *c, gr__xfer *x) {
  for (int j = 0; j < x->n; j++) {
    if (j == x->me) continue;
    if (x->in_bytes[j])
      memcpy((unsigned char *)x->recv->ptr + x->recv_offset[j], c->send_ptr[j] + c->pkg_offset[j][x->me],
             x->in_bytes[j]);
    x->moved_to[j] = x->out_bytes[j];
  }
  return GR_SUCCESS;
}

const gr__transport_ops gr__transport_host = {"host", NULL, NULL, NULL, gr__transport_reserve_packed,
                                              gr__host_move};
