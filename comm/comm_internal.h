/* SPDX-License-Identifier: Apache-2.0 */
/* The communication layer's shared state and the transport interface; seen
 * only inside comm/. */
#ifndef GR_COMM_INTERNAL_H
#define GR_COMM_INTERNAL_H

#include <stdbool.h>

#include "comm.h"
#include "exchange_kernels.h"
#include "gr/buffer.h"

/* One package, as its sender publishes it in the shared table before the
 * barrier that starts the transfer. */
typedef struct gr__pkg {
  const unsigned char *ptr; /* device memory of the sender; NULL when empty */
  uint64_t bytes;  /* its room in a receive buffer (a multiple of 8) */
  uint64_t copy;   /* the bytes written, which are the ones moved (<= bytes) */
  uint64_t items; /* list: records; bitmap: the ids set */
  int format;     /* GR_XK_LIST, GR_XK_BITMAP, GR_XK_OR, GR_XK_OR_IDS, GR_XK_SPARSE, GR_XK_DENSE or GR_XK_IDS */
  gr_vid universe; /* bitmap: its id space */
  /* Holds vertices of other owners than its receiver (a routed bitmap
   * under duplicate-all proxies): the combine needs the owner table. */
  bool mixed;
  /* A refresh's values of one array for every entry of the border list
   * between sender and receiver, in its order: a receiver whose copies of
   * the sender's vertices are contiguous local ids in that order
   * (gr_comm.lands) takes it straight into the array (gr__xfer.land). */
  bool whole;
  /* GR_XK_IDS: the value every id takes (gr_xk_combine_args.value). */
  uint64_t value;
} gr__pkg;

/* One device's transfer of one iteration: the packages of every peer j for
 * this device are in the shared table (pkg[j][me]); the transport reserves
 * `recv`, enqueues the moves on the device's compute stream (so the
 * combines that follow need no host wait) and says where each package
 * lands (recv_offset). */
typedef struct gr__xfer {
  int me, n;
  gr_device *dev;
  gr_buffer *recv;
  uint64_t recv_offset[GR_COMM_MAX_DEVICES];
  uint64_t moved_to[GR_COMM_MAX_DEVICES]; /* result: bytes this device put on the wire per peer */
  gr_sync *sync;
  const gr_mem_policy *mem;
  /* Set by a transport once this device's part of the exchange is enqueued
   * (a device that failed before that has nothing of it to wait for). */
  bool posted;
  /* Set by the exchange before the move: peer j's package is read where it
   * lies by this device's combine (gr__transport_ops.reads_in_place), so
   * the move leaves it. */
  bool in_place[GR_COMM_MAX_DEVICES];
  /* Set by a refresh before the move: where peer j's package lands instead
   * of the receive buffer (the copies' own slots of the refreshed array;
   * NULL: the receive buffer). Such a package takes no room there. */
  unsigned char *land[GR_COMM_MAX_DEVICES];
  /* The moves' time on the device, read once the combine's read returned
   * (its events' queries are host calls: read once an exchange). */
  double moved_ms;
  /* The table this step's packages are published in (gr_comm.pkg, or
   * gr_comm.rpkg / gpkg for a refresh's / an all-gather's). */
  gr__pkg (*pkg)[GR_COMM_MAX_DEVICES];
} gr__xfer;

typedef struct gr__transport_ops {
  const char *name;
  /* Shared setup on the caller's thread (NCCL: the communicator). */
  gr_status (*create)(gr_comm *c);
  void (*destroy)(gr_comm *c);
  /* On each device's thread (p2p: peer access). */
  gr_status (*attach)(gr_comm *c, int me, gr_device *dev);
  /* Reserves x->recv for the packages of the table and enqueues the moves
   * (after the barrier that published them). */
  gr_status (*move)(gr_comm *c, gr__xfer *x);
  /* Waits until the device's compute stream has drained; a transport whose
   * moves need peers' participation gives up when a peer has failed
   * instead of waiting forever. NULL: a plain synchronization. */
  gr_status (*wait)(gr_comm *c, gr__xfer *x);
  /* Before a run's timed part, on every device between two barriers (so
   * every device takes part): NCCL makes its connections at the first.
   * `scratch`: 8 bytes of device memory per device. NULL: nothing. */
  gr_status (*prepare)(gr_comm *c, gr__xfer *x, void *scratch);
  /* Whether device me's kernels may read a package of `bytes` in device
   * j's memory where it lies, instead of moving it first: host memory,
   * or a peer whose memory this GPU reads directly, for packages small
   * enough that the read costs less than a copy's start, or of any size
   * where the combine reads each of its bytes once, in order (`once`: an
   * or-round's words or ids, where a copy would only add a read and a
   * write before that read). NULL: never. */
  bool (*reads_in_place)(const gr_comm *c, int me, int j, uint64_t bytes, bool once);
  /* Whether device me's kernels may write device j's memory with atomics
   * that are atomic against j's own (gr_part_peers): host memory, one GPU,
   * or peer access with native peer atomics. NULL: never. */
  bool (*writes_peer)(const gr_comm *c, int me, int j);
} gr__transport_ops;

/* Receive layout shared by the transports: peers' packages one after
 * another, in peer order, in x->recv (those read in place take no room). */
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
  /* Written by each device at attach: the vertices it owns (the id space of
   * bitmaps sent to it under duplicate-1-hop selective exchange). */
  gr_vid n_owned[GR_COMM_MAX_DEVICES];
  /* Published by each device before the barrier of every exchange: pkg[i][j]
   * is what device i sends device j this iteration; recv_capacity[i] the
   * bytes device i can receive without growing. */
  gr__pkg pkg[GR_COMM_MAX_DEVICES][GR_COMM_MAX_DEVICES];
  /* The refreshes' table (gr_part_refresh) and the all-gathers'
   * (gr_part_allgather), apart from the exchange's and each other's: a
   * refresh or an all-gather ends without its closing barrier (a slower
   * peer may still read its table) and the next step, of another kind,
   * publishes in its own. */
  gr__pkg rpkg[GR_COMM_MAX_DEVICES][GR_COMM_MAX_DEVICES];
  gr__pkg gpkg[GR_COMM_MAX_DEVICES][GR_COMM_MAX_DEVICES];
  uint64_t recv_capacity[GR_COMM_MAX_DEVICES];
  gr_comm_format format;
  /* While the border lists are made (gr_part_refresh): each device's copies
   * of other devices' vertices, as ids on their owners, grouped by owner:
   * owner i's at border_ids[j][border_begin[j][i] .. border_begin[j][i+1])
   * of device j (host memory, read by owner i after a barrier). */
  const gr_vid *border_ids[GR_COMM_MAX_DEVICES];
  uint64_t border_begin[GR_COMM_MAX_DEVICES][GR_COMM_MAX_DEVICES + 1];
  /* Set by each device when its border lists are made: its copies are
   * contiguous local ids in the lists' order (duplicate-1-hop proxies), so
   * a refresh's whole packages land in its arrays (gr__pkg.whole). */
  bool lands[GR_COMM_MAX_DEVICES];
};

/* Whether any device must grow its receive buffer for the packages of
 * table `tab` (every device reads the same table, so all decide alike). */
bool gr__comm_any_recv_grows(const gr_comm *c, gr__pkg (*tab)[GR_COMM_MAX_DEVICES]);

#endif
