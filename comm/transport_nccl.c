/* SPDX-License-Identifier: Apache-2.0 */
/* The NCCL transport: one communicator over the run's GPUs (one rank per
 * device thread). Selective exchange is a group of sends and receives with
 * the sizes already known from the shared table; broadcast is one
 * all-gather, every device's package padded to the largest. A device that
 * waits for a collective while a peer has failed aborts its communicator
 * instead of waiting forever. */
#include <cuda_runtime_api.h>
#include <nccl.h>
#include <sched.h>
#include <stdlib.h>

#include "comm_internal.h"
#include "gr/cuda_check.h"

typedef struct gr__nccl {
  ncclComm_t comm[GR_COMM_MAX_DEVICES];
} gr__nccl;

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

static void gr__nccl_destroy(gr_comm *c) {
  gr__nccl *s = c->tshared;
  if (!s) return;
  for (int i = 0; i < c->n; i++)
    if (s->comm[i]) ncclCommDestroy(s->comm[i]);
  free(s);
  c->tshared = NULL;
}

static gr_status gr__nccl_prepare(gr_comm *c, gr__xfer *x) {
  if (!x->broadcast) return gr__transport_reserve_packed(c, x);
  if (!x->max_bytes) return GR_SUCCESS;
  /* all-gather moves the same count from every rank: pad to the largest. */
  const size_t send_bytes = x->send->size;
  GR_CHECK(gr_buffer_reserve(x->send, x->dev, (size_t)x->max_bytes, send_bytes ? 1 : 0, x->mem, 0,
                             "exchange send buffer"));
  GR_CHECK(gr_buffer_reserve(x->recv, x->dev, (size_t)x->max_bytes * (size_t)x->n, 0, x->mem, 0,
                             "exchange receive buffer"));
  for (int j = 0; j < x->n; j++) x->recv_offset[j] = (uint64_t)j * x->max_bytes;
  return GR_SUCCESS;
}

/* Waits for the stream; gives up (aborting the communicator, whose peers
 * then fail too) when another device has failed meanwhile. */
static gr_status gr__nccl_wait(gr_comm *c, gr__xfer *x, cudaStream_t st) {
  gr__nccl *s = c->tshared;
  for (;;) {
    cudaError_t e = cudaStreamQuery(st);
    if (e == cudaSuccess) return GR_SUCCESS;
    if (e != cudaErrorNotReady) GR_CUDA_CHECK(e);
    if (gr_sync_failed(x->sync)) {
      ncclCommAbort(s->comm[x->me]);
      s->comm[x->me] = NULL;
      return gr_errorf(GR_ERR_NCCL, "NCCL transfer abandoned because another device failed");
    }
    sched_yield();
  }
}

static gr_status gr__nccl_move(gr_comm *c, gr__xfer *x) {
  gr__nccl *s = c->tshared;
  ncclComm_t comm = s->comm[x->me];
  if (!comm) return gr_errorf(GR_ERR_NCCL, "the NCCL communicator of device %d was aborted", x->me);
  cudaStream_t st = (cudaStream_t)gr_device_comm_stream(x->dev);
  unsigned char *send = x->send->ptr, *recv = x->recv->ptr;
  if (x->broadcast) {
    if (!x->max_bytes) return GR_SUCCESS;
    GR__NCCL_CHECK(ncclAllGather(send, recv, (size_t)x->max_bytes, ncclUint8, comm, st));
    for (int j = 0; j < x->n; j++)
      if (j != x->me) x->moved_to[j] = x->max_bytes;
  } else {
    GR__NCCL_CHECK(ncclGroupStart());
    for (int j = 0; j < x->n; j++) {
      if (j == x->me) continue;
      if (x->out_bytes[j]) {
        ncclResult_t r = ncclSend(send + x->out_offset[j], (size_t)x->out_bytes[j], ncclUint8, j, comm, st);
        if (r != ncclSuccess) {
          ncclGroupEnd();
          return gr_errorf(GR_ERR_NCCL, "ncclSend to device %d: %s", j, ncclGetErrorString(r));
        }
        x->moved_to[j] = x->out_bytes[j];
      }
      if (x->in_bytes[j]) {
        ncclResult_t r = ncclRecv(recv + x->recv_offset[j], (size_t)x->in_bytes[j], ncclUint8, j, comm, st);
        if (r != ncclSuccess) {
          ncclGroupEnd();
          return gr_errorf(GR_ERR_NCCL, "ncclRecv from device %d: %s", j, ncclGetErrorString(r));
        }
      }
    }
    GR__NCCL_CHECK(ncclGroupEnd());
  }
  return gr__nccl_wait(c, x, st);
}

const gr__transport_ops gr__transport_nccl = {"nccl", gr__nccl_create, gr__nccl_destroy, NULL, gr__nccl_prepare,
                                              gr__nccl_move};
