/* SPDX-License-Identifier: Apache-2.0 */
/* The communication layer: after each iteration, every device splits its
 * output frontier into the vertices it owns and the rest, packages the rest
 * with the payloads the primitive names, moves the packages to peers and
 * combines what arrives with the primitive's operator.
 *
 *   selective  each remote vertex goes to its owner only (ids converted to
 *              the owner's local ids under duplicate-1-hop proxies)
 *   broadcast  the whole output goes to every peer (global ids); each peer
 *              updates its copies, and the owner continues from the vertex
 *
 * Transports: host (memcpy; CPU devices), p2p (CUDA peer copies, with peer
 * access enabled where the GPUs allow it; the CUDA runtime stages through
 * host memory where they do not) and nccl (one communicator over the run's
 * GPUs: grouped send/receive for selective, all-gather for broadcast). The
 * sizes of every package are exchanged first through the shared host table,
 * so every receive buffer is sized just enough before the copy. */
#ifndef GR_COMM_H
#define GR_COMM_H

#include "gr/device.h"
#include "gr/exchange.h"
#include "gr/subgraph.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gr_transport_kind {
  GR_TRANSPORT_AUTO = 0, /* host for CPU devices; p2p for GPUs */
  GR_TRANSPORT_HOST = 1,
  GR_TRANSPORT_P2P = 2,
  GR_TRANSPORT_NCCL = 3
} gr_transport_kind;

/* How a broadcast package travels: as a list of ids with their values, or,
 * for uniform payloads (gr_payload.uniform), as one value and a bitmap of
 * the id space; auto takes whichever is smaller each iteration. */
typedef enum gr_comm_format {
  GR_COMM_FORMAT_AUTO = 0,
  GR_COMM_FORMAT_LIST = 1,
  GR_COMM_FORMAT_BITMAP = 2
} gr_comm_format;

typedef struct gr_comm_options {
  gr_comm_mode mode;
  gr_transport_kind transport;
  gr_comm_format format;
  /* CUDA, optional: the GPU of each device, as the enactor's (NULL: device
   * i on GPU i, through GR_DEVICE_MAP). */
  const int *gpus;
} gr_comm_options;

/* "auto", "list" or "bitmap". */
gr_status gr_comm_format_parse(gr_comm_format *out, const char *name);

/* "selective" or "broadcast". */
gr_status gr_comm_mode_parse(gr_comm_mode *out, const char *name);
const char *gr_comm_mode_name(gr_comm_mode m);
/* "auto", "host", "p2p" or "nccl". */
gr_status gr_transport_parse(gr_transport_kind *out, const char *name);
const char *gr_transport_name(gr_transport_kind t);
/* Whether this build has the NCCL transport. */
int gr_comm_have_nccl(void);

typedef struct gr_comm gr_comm;

/* The shared state of one exchange among n_devices devices of `backend`
 * (device ordinals 0..n_devices-1). Resolves GR_TRANSPORT_AUTO; a transport
 * that does not fit the backend (p2p or nccl on CPU devices, host on GPUs)
 * or is not built (nccl) is GR_ERR_INVALID_ARG / GR_ERR_UNSUPPORTED with a
 * message. NCCL's communicator is created here, over all the devices. */
gr_status gr_comm_create(gr_comm **out, gr_backend backend, int n_devices,
                         const gr_comm_options *o);
void gr_comm_destroy(gr_comm **c);
/* The transport actually used (after AUTO was resolved). */
gr_transport_kind gr_comm_transport(const gr_comm *c);
gr_comm_mode gr_comm_mode_of(const gr_comm *c);
/* Changes the exchange mode for the next enactor the exchange serves (not
 * while one is attached): one exchange, opened once, can serve primitives
 * whose default modes differ. */
void gr_comm_set_mode(gr_comm *c, gr_comm_mode m);

/* What the enactor calls; its shared state is the gr_comm. */
extern const gr_exchange_ops gr_comm_exchange_ops;

#ifdef __cplusplus
}
#endif

#endif
