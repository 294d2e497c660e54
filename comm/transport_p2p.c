/* SPDX-License-Identifier: Apache-2.0 */
/* The peer-to-peer transport between GPUs: every device copies the packages
 * meant for it out of its peers' send buffers with cudaMemcpyPeerAsync on
 * its compute stream, so its combines follow the copies without a host wait.
 * Peer access is enabled where the GPUs allow it (direct NVLink/PCIe
 * copies); where they do not, the CUDA runtime stages the copy through host
 * memory itself. */
#include <cuda_runtime_api.h>

#include "comm_internal.h"
#include "gr/cuda_check.h"
#include "gr/log.h"

static gr_status gr__p2p_attach(gr_comm *c, int me, gr_device *dev) {
  (void)dev;
  for (int j = 0; j < c->n; j++) {
    if (j == me || c->gpu[j] == c->gpu[me]) continue;
    int can = 0;
    GR_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, c->gpu[me], c->gpu[j]));
    if (!can) {
      gr_log(GR_LOG_INFO, GR_SUBSYS_COMM, "GPU %d cannot access GPU %d directly; copies are staged by CUDA",
             c->gpu[me], c->gpu[j]);
      continue;
    }
    cudaError_t e = cudaDeviceEnablePeerAccess(c->gpu[j], 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled) {
      cudaGetLastError();
      continue;
    }
    GR_CUDA_CHECK(e);
  }
  return GR_SUCCESS;
}

static gr_status gr__p2p_move(gr_comm *c, gr__xfer *x) {
  GR_CHECK(gr__transport_reserve_packed(c, x));
  cudaStream_t s = (cudaStream_t)gr_device_stream(x->dev);
  for (int j = 0; j < x->n; j++) {
    if (j == x->me) continue;
    x->moved_to[j] = c->pkg[x->me][j].copy;
    const gr__pkg *m = &c->pkg[j][x->me];
    if (!m->copy) continue;
    gr__device_activity_copy();
    GR_CUDA_CHECK(cudaMemcpyPeerAsync((unsigned char *)x->recv->ptr + x->recv_offset[j], c->gpu[x->me], m->ptr,
                                      c->gpu[j], (size_t)m->copy, s));
  }
  return GR_SUCCESS;
}

const gr__transport_ops gr__transport_p2p = {"p2p", NULL, NULL, gr__p2p_attach, gr__p2p_move, NULL, NULL};
