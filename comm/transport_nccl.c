/* SPDX-License-Identifier: Apache-2.0 */
/* The NCCL transport: one communicator over the run's GPUs (one rank per
 * device thread). Every exchange is one group of sends and receives of the
 * exact sizes in the shared table (broadcast included: the one message
 * goes to every peer, nothing is padded), enqueued on the compute stream so
 * that the combines follow without a host wait. The first run makes a
 * small exchange with every peer before its timed part, so that NCCL's
 * connections are made there. A device waiting for its stream while a peer
 * has failed aborts its communicator instead of waiting forever; after a
 * failure the communicators are aborted, not destroyed, when they are out
 * of step. */
#include <cuda_runtime_api.h>
#include <nccl.h>
#include <sched.h>
#include <stdlib.h>

#include "gr/log.h"
#include "gr/util.h"

#include "comm_internal.h"
#include "gr/cuda_check.h"

typedef struct gr__nccl {
  ncclComm_t comm[GR_COMM_MAX_DEVICES];
  bool warm[GR_COMM_MAX_DEVICES];
  /* Groups each device has enqueued (atomic): every device posts one per
   * exchange, in step, so peer j has posted the group this device waits
   * on when posted[j] >= posted[me]. */
  uint64_t posted[GR_COMM_MAX_DEVICES];
} gr__nccl;

/* How long a device whose peers have all posted their part keeps waiting
 * for the transfer after some device failed, before it aborts anyway. */
#define GR__NCCL_DRAIN_S 30.0

#define GR__NCCL_CHECK(call)                                                                   \
  do {                                                                                         \
    ncclResult_t gr__r = (call);                                                               \
    if (gr__r != ncclSuccess)                                                                  \
      return gr_errorf(GR_ERR_NCCL, "%s:%d: %s: %s", __FILE__, __LINE__, #call,                \
                       ncclGetErrorString(gr__r));                                             \
  } while (0)

static gr_status gr__nccl_create(gr_comm *c) {
  gr__nccl *s = calloc(1, sizeof *s);
  if (!s) return gr_errorf(GR_ERR_HOST_OOM, "NCCL state");
  for (int i = 0; i < c->n; i++)
    for (int j = 0; j < i; j++)
      if (c->gpu[i] == c->gpu[j]) {
        free(s);
        return gr_errorf(GR_ERR_INVALID_ARG,
                         "devices %d and %d run on the same GPU %d; NCCL needs one GPU per device "
                         "(use --transport p2p)", j, i, c->gpu[i]);
      }
  ncclResult_t r = ncclCommInitAll(s->comm, c->n, c->gpu);
  if (r != ncclSuccess) {
    free(s);
    return gr_errorf(GR_ERR_NCCL, "creating the NCCL communicator over %d GPUs: %s", c->n,
                     ncclGetErrorString(r));
  }
  c->tshared = s;
  return GR_SUCCESS;
}

/* Whether the communicators can still be used (and destroyed) normally:
 * none was aborted and every device has posted as many groups as the
 * others. A device that failed before posting its part of an exchange
 * leaves its peers' parts unmatched; a peer's part may even have completed
 * (NCCL sends a small message into the receiver's buffer without waiting
 * for it), so no one aborted, but the communicators are out of step. */
static bool gr__nccl_in_step(const gr_comm *c, const gr__nccl *s) {
  for (int i = 0; i < c->n; i++)
    if (!s->comm[i] || __atomic_load_n(&s->posted[i], __ATOMIC_ACQUIRE) !=
                           __atomic_load_n(&s->posted[0], __ATOMIC_ACQUIRE))
      return false;
  return true;
}

static void gr__nccl_destroy(gr_comm *c) {
  gr__nccl *s = c->tshared;
  if (!s) return;
  /* Communicators out of step are aborted, not destroyed: a destroy would
   * wait for parts that no peer will ever match. */
  const bool in_step = gr__nccl_in_step(c, s);
  gr_log(GR_LOG_TRACE, GR_SUBSYS_COMM, "NCCL communicators %s", in_step ? "destroyed" : "out of step: aborted");
  for (int i = 0; i < c->n; i++)
    if (s->comm[i]) {
      if (in_step) ncclCommDestroy(s->comm[i]);
      else ncclCommAbort(s->comm[i]);
    }
  free(s);
  c->tshared = NULL;
}

/* Whether every peer has enqueued its part of the group this device waits
 * on (then the transfer completes, failure elsewhere or not). */
static bool gr__nccl_all_posted(gr__nccl *s, gr__xfer *x) {
  const uint64_t mine = __atomic_load_n(&s->posted[x->me], __ATOMIC_ACQUIRE);
  for (int j = 0; j < x->n; j++)
    if (j != x->me && __atomic_load_n(&s->posted[j], __ATOMIC_ACQUIRE) < mine) return false;
  return true;
}

/* Waits for the compute stream. When some device has failed meanwhile, a
 * transfer that this device and all its peers posted still completes, so
 * it is waited for (within a bound); one that a peer never posted cannot,
 * so this device aborts its communicator (its peers then fail too) instead
 * of waiting forever. A device that failed before posting its own part
 * (x->posted unset) has no transfer of this exchange to wait for: whatever
 * its stream still holds is not drained by peers, so it aborts at once
 * rather than counting the peers' parts as a match for its own. */
static gr_status gr__nccl_wait(gr_comm *c, gr__xfer *x) {
  gr__nccl *s = c->tshared;
  cudaStream_t st = (cudaStream_t)gr_device_stream(x->dev);
  gr__device_activity_wait();
  double failed_at = 0;
  for (;;) {
    cudaError_t e = cudaStreamQuery(st);
    if (e == cudaSuccess) return GR_SUCCESS;
    if (e != cudaErrorNotReady) GR_CUDA_CHECK(e);
    if (gr_sync_failed(x->sync)) {
      const double now = gr_time_now();
      const bool all = gr__nccl_all_posted(s, x);
      if (failed_at == 0) {
        failed_at = now;
        gr_log(GR_LOG_TRACE, GR_SUBSYS_COMM, "device %d: a device failed while this one waits (posted %d, every peer posted %d)",
               x->me, x->posted, all);
      }
      if (!x->posted || !all || now - failed_at > GR__NCCL_DRAIN_S) {
        gr_log(GR_LOG_TRACE, GR_SUBSYS_COMM, "device %d: aborting its NCCL communicator", x->me);
        if (s->comm[x->me]) ncclCommAbort(s->comm[x->me]);
        s->comm[x->me] = NULL;
        gr_log(GR_LOG_TRACE, GR_SUBSYS_COMM, "device %d: NCCL communicator aborted after %.1f ms", x->me,
               (gr_time_now() - now) * 1e3);
        return gr_errorf(GR_ERR_NCCL, "NCCL transfer abandoned because another device failed");
      }
    }
    sched_yield();
  }
}

/* One group: what this device sends each peer and receives from it. */
static gr_status gr__nccl_group(gr_comm *c, gr__xfer *x, const unsigned char *const *send, const uint64_t *send_bytes,
                                unsigned char *const *recv, const uint64_t *recv_bytes) {
  gr__nccl *s = c->tshared;
  ncclComm_t comm = s->comm[x->me];
  if (!comm) return gr_errorf(GR_ERR_NCCL, "the NCCL communicator of device %d was aborted", x->me);
  cudaStream_t st = (cudaStream_t)gr_device_stream(x->dev);
  GR__NCCL_CHECK(ncclGroupStart());
  for (int j = 0; j < x->n; j++) {
    if (j == x->me) continue;
    if (send_bytes[j]) {
      ncclResult_t r = ncclSend(send[j], (size_t)send_bytes[j], ncclUint8, j, comm, st);
      if (r != ncclSuccess) {
        ncclGroupEnd();
        return gr_errorf(GR_ERR_NCCL, "ncclSend to device %d: %s", j, ncclGetErrorString(r));
      }
    }
    if (recv_bytes[j]) {
      ncclResult_t r = ncclRecv(recv[j], (size_t)recv_bytes[j], ncclUint8, j, comm, st);
      if (r != ncclSuccess) {
        ncclGroupEnd();
        return gr_errorf(GR_ERR_NCCL, "ncclRecv from device %d: %s", j, ncclGetErrorString(r));
      }
    }
  }
  GR__NCCL_CHECK(ncclGroupEnd());
  const uint64_t group = __atomic_add_fetch(&s->posted[x->me], 1, __ATOMIC_RELEASE);
  if (gr_log_enabled(GR_LOG_TRACE, GR_SUBSYS_COMM)) {
    uint64_t sent = 0, received = 0;
    for (int j = 0; j < x->n; j++) sent += send_bytes[j], received += recv_bytes[j];
    gr_log(GR_LOG_TRACE, GR_SUBSYS_COMM, "device %d: NCCL group %llu posted (%llu bytes out, %llu in)", x->me,
           (unsigned long long)group, (unsigned long long)sent, (unsigned long long)received);
  }
  x->posted = true;
  gr__device_activity_launch();
  return GR_SUCCESS;
}

/* Before the first timed run: 8 bytes to and from every peer, through
 * `scratch` (8 bytes per device). Every device calls it between two of the
 * enactor's barriers, so all of them take part or none does. */
static gr_status gr__nccl_prepare(gr_comm *c, gr__xfer *x, void *scratch) {
  gr__nccl *s = c->tshared;
  /* A communicator aborted in an earlier run cannot take part; every
   * device sees the same (they meet at a barrier before this), so all of
   * them refuse instead of some waiting inside NCCL for the others. */
  for (int j = 0; j < x->n; j++)
    if (!s->comm[j])
      return gr_errorf(GR_ERR_NCCL, "the NCCL communicator of device %d was aborted in an earlier run", j);
  if (s->warm[x->me]) {
    /* After the first run no device posts here, so the counts are still. */
    if (!gr__nccl_in_step(c, s))
      return gr_errorf(GR_ERR_NCCL, "the NCCL communicators are out of step after a failed run (a device failed "
                                    "before posting its part of an exchange)");
    return GR_SUCCESS;
  }
  const unsigned char *send[GR_COMM_MAX_DEVICES];
  unsigned char *recv[GR_COMM_MAX_DEVICES];
  uint64_t bytes[GR_COMM_MAX_DEVICES];
  unsigned char *base = scratch;
  for (int j = 0; j < x->n; j++) {
    send[j] = base + 8 * (size_t)x->me;
    recv[j] = base + 8 * (size_t)j;
    bytes[j] = j == x->me ? 0 : 8;
  }
  GR_CHECK(gr__nccl_group(c, x, send, bytes, recv, bytes));
  GR_CHECK(gr__nccl_wait(c, x));
  s->warm[x->me] = true;
  return GR_SUCCESS;
}

static gr_status gr__nccl_move(gr_comm *c, gr__xfer *x) {
  GR_CHECK(gr__transport_reserve_packed(c, x));
  const unsigned char *send[GR_COMM_MAX_DEVICES];
  unsigned char *recv[GR_COMM_MAX_DEVICES];
  uint64_t send_bytes[GR_COMM_MAX_DEVICES], recv_bytes[GR_COMM_MAX_DEVICES];
  for (int j = 0; j < x->n; j++) {
    send[j] = x->pkg[x->me][j].ptr;
    send_bytes[j] = j == x->me ? 0 : x->pkg[x->me][j].copy;
    recv[j] = x->land[j] ? x->land[j] : (unsigned char *)x->recv->ptr + x->recv_offset[j];
    recv_bytes[j] = j == x->me ? 0 : x->pkg[j][x->me].copy;
    x->moved_to[j] = send_bytes[j];
  }
  return gr__nccl_group(c, x, send, send_bytes, recv, recv_bytes);
}

const gr__transport_ops gr__transport_nccl = {"nccl", gr__nccl_create, gr__nccl_destroy, NULL, gr__nccl_move,
                                              gr__nccl_wait, gr__nccl_prepare, NULL, NULL};
