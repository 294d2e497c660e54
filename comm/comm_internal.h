/* SPDX-License-Identifier: Apache-2.0 */
/* The communication layer's shared state and the transport interface; seen
 * only inside comm/. */
#ifndef GR_COMM_INTERNAL_H
#define GR_COMM_INTERNAL_H

#include <stdbool.h>

#include "comm.h"
#include "exchange_kernels.h"
#include "gr/buffer.h"

/* One device's transfer of one iteration. Every peer j's package for this
 * device is in_bytes[j] long and starts at byte peer_offset[j] of peer j's
 * send buffer (the shared table has the buffers). The transport reserves
 * `recv` and tells where each peer's package landed (recv_offset). */
typedef struct gr__xfer {
  int me, n;
  gr_device *dev;
  gr_buffer *send;                          /* this device's packages */
  uint64_t out_bytes[GR_COMM_MAX_DEVICES];  /* to each peer */
  uint64_t out_offset[GR_COMM_MAX_DEVICES]; /* in this device's send buffer */
  uint64_t in_bytes[GR_COMM_MAX_DEVICES];   /* from each peer */
  uint64_t max_bytes;                       /* broadcast: the largest package of any device */
  bool broadcast;
  gr_buffer *recv;
  uint64_t recv_offset[GR_COMM_MAX_DEVICES];
  uint64_t moved_to[GR_COMM_MAX_DEVICES];   /* result: bytes this device put on the wire per peer */
  gr_sync *sync;
  const gr_mem_policy *mem;
} gr__xfer;

typedef struct gr__transport_ops {
  const char *name;
  /* Shared setup on the caller's thread (NCCL: the communicator). */
  gr_status (*create)(gr_comm *c);
  void (*destroy)(gr_comm *c);
  /* On each device's thread (p2p: peer access). */
  gr_status (*attach)(gr_comm *c, int me, gr_device *dev);
  /* Step 1, fallible local work before the devices meet (reserving). */
  gr_status (*prepare)(gr_comm *c, gr__xfer *x);
  /* Step 2, after a barrier: the copies themselves; complete on return.
   * A collective transport must not block forever when a peer failed. */
  gr_status (*move)(gr_comm *c, gr__xfer *x);
} gr__transport_ops;

/* Reserves x->recv for the peers' packages one after another. */
gr_status gr__transport_reserve_packed(gr_comm *c, gr__xfer *x);

extern const gr__transport_ops gr__transport_host;
#ifdef GR_HAVE_CUDA
extern const gr__transport_ops gr__transport_p2p;
#endif
#ifdef GR_HAVE_NCCL
extern const gr__transport_ops gr__transport_nccl;
#endif

struct gr_comm {
  gr_backend backend;
  int n;
  gr_comm_mode mode;
  gr_transport_kind transport;
  const gr__transport_ops *tops;
  void *tshared; /* the transport's shared state */
  int gpu[GR_COMM_MAX_DEVICES]; /* CUDA device ordinal of each device */
  /* Published by each device before the barrier of every exchange: its
   * send buffer, and for each peer the package's offset and size. */
  const unsigned char *send_ptr[GR_COMM_MAX_DEVICES];
  uint64_t pkg_offset[GR_COMM_MAX_DEVICES][GR_COMM_MAX_DEVICES];
  uint64_t pkg_bytes[GR_COMM_MAX_DEVICES][GR_COMM_MAX_DEVICES];
  uint64_t pkg_items[GR_COMM_MAX_DEVICES][GR_COMM_MAX_DEVICES];
  bool pkg_bitmap[GR_COMM_MAX_DEVICES]; /* broadcast: the device's package is a bitmap */
  gr_comm_format format;
};

#endif
