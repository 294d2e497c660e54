/* SPDX-License-Identifier: Apache-2.0 */
/* The peer-to-peer transport between GPUs: every device copies the packages
 * meant for it out of its peers' send buffers on its compute stream, so its
 * combines follow the copies without a host wait. The exchange's small
 * packages from peers this GPU reads directly are not moved at all: the
 * combine reads them in place (gr__p2p_in_place). Small packages that are
 * moved (the refreshes') from several peers are read by one kernel at once
 * (gr__xk_peer_copies_cuda),
 * where copies on one stream queue one after another, each paying the copy
 * engine's start: on four H200s each device's transfers took twice as long
 * a run as on two (Kronecker 27, BFS 0.47 -> 0.91 ms, SSSP 2.1 -> 4.6 ms),
 * and NCCL, which moves every peer's data at once, was the faster there.
 * Large packages, and a lone small one, stay cudaMemcpyPeerAsync: on one
 * H200 with 4 logical devices taking turns (Kronecker 25), the kernel took
 * BFS's and SSSP's transfers (packages of about 1.4 MB) from 0.19-0.24 to
 * 0.11-0.12 ms and 0.72-0.75 to 0.41-0.48 ms a run, but PageRank's (about
 * 5.7 MB) from 0.53-0.56 to 1.09-1.10 ms. Peer access is enabled where the
 * GPUs allow it (direct NVLink/PCIe reads); where they do not, the CUDA
 * runtime stages a peer copy through host memory itself, and those peers'
 * packages stay copies. */
#include <stdlib.h> /* free */

#include <cuda_runtime_api.h>

#include "comm_internal.h"
#include "gr/cuda_check.h"
#include "gr/log.h"
#include "gr/util.h"

/* The largest package a kernel reads from a peer, moving it or combining
 * it in place (above, the copy engine's rate wins). */
#define GR__P2P_SMALL_BYTES ((uint64_t)2 << 20)

/* direct[i][j]: device i's kernels can read device j's memory (peer access
 * enabled, or one GPU). Each device writes its own row at attach. */
/* atomics[i][j]: and its atomics there are atomic against j's own (one
 * GPU, or native peer atomics: NVLink; not every PCIe pair). */
typedef struct gr__p2p_shared {
  bool direct[GR_COMM_MAX_DEVICES][GR_COMM_MAX_DEVICES];
  bool atomics[GR_COMM_MAX_DEVICES][GR_COMM_MAX_DEVICES];
} gr__p2p_shared;

static gr_status gr__p2p_create(gr_comm *c) {
  return gr_host_calloc(&c->tshared, 1, sizeof(gr__p2p_shared), "peer-to-peer transport's table");
}

static void gr__p2p_destroy(gr_comm *c) {
  free(c->tshared);
  c->tshared = NULL;
}

static gr_status gr__p2p_attach(gr_comm *c, int me, gr_device *dev) {
  (void)dev;
  gr__p2p_shared *sh = c->tshared;
  for (int j = 0; j < c->n; j++) {
    sh->direct[me][j] = false;
    sh->atomics[me][j] = false;
    if (j == me) continue;
    if (c->gpu[j] == c->gpu[me]) {
      sh->direct[me][j] = true;
      sh->atomics[me][j] = true;
      continue;
    }
    int can = 0;
    GR_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, c->gpu[me], c->gpu[j]));
    if (!can) {
      gr_log(GR_LOG_INFO, GR_SUBSYS_COMM, "GPU %d cannot access GPU %d directly; copies are staged by CUDA",
             c->gpu[me], c->gpu[j]);
      continue;
    }
    cudaError_t e = cudaDeviceEnablePeerAccess(c->gpu[j], 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled)
      cudaGetLastError();
    else
      GR_CUDA_CHECK(e);
    sh->direct[me][j] = true;
    int native = 0;
    GR_CUDA_CHECK(cudaDeviceGetP2PAttribute(&native, cudaDevP2PAttrNativeAtomicSupported, c->gpu[me], c->gpu[j]));
    sh->atomics[me][j] = native != 0;
  }
  return GR_SUCCESS;
}

/* A small package of a peer this GPU reads directly is read by the
 * combine where it lies: no copy to start and wait for (each a few
 * microseconds of a level that moves kilobytes). Larger ones are copied,
 * the copy engine being the faster reader there (see above), but for an
 * or-round's (`once`), which the union reads once, in order: copied, its
 * bytes would be read twice and written once, and the copy's start waited
 * for (DOBFS's owner words on 2 logical devices of Kronecker 25, 2.1 MB a
 * peer: 0.015-0.028 ms a pull level, as long as the whole bitmap's copy). */
static bool gr__p2p_in_place(const gr_comm *c, int me, int j, uint64_t bytes, bool once) {
  const gr__p2p_shared *sh = c->tshared;
  return sh->direct[me][j] && (once || bytes <= GR__P2P_SMALL_BYTES);
}

static bool gr__p2p_writes_peer(const gr_comm *c, int me, int j) {
  const gr__p2p_shared *sh = c->tshared;
  return sh->direct[me][j] && sh->atomics[me][j];
}

static gr_status gr__p2p_move(gr_comm *c, gr__xfer *x) {
  GR_CHECK(gr__transport_reserve_packed(c, x));
  cudaStream_t s = (cudaStream_t)gr_device_stream(x->dev);
  gr_xk_peer_copies direct;
  direct.n = 0;
  int first = -1;
  for (int j = 0; j < x->n; j++) {
    if (j == x->me) continue;
    x->moved_to[j] = x->pkg[x->me][j].copy;
    const gr__pkg *m = &x->pkg[j][x->me];
    if (!m->copy || x->in_place[j]) continue;
    gr__device_activity_copy();
    unsigned char *to = x->land[j] ? x->land[j] : (unsigned char *)x->recv->ptr + x->recv_offset[j];
    /* What the exchange would read in place, moved (a refresh's): one
     * kernel reads them all. */
    if (gr__p2p_in_place(c, x->me, j, m->copy, false)) {
      if (direct.n == 0) first = j;
      direct.src[direct.n] = m->ptr;
      direct.dst[direct.n] = to;
      direct.bytes[direct.n] = m->copy;
      direct.n++;
      continue;
    }
    GR_CUDA_CHECK(cudaMemcpyPeerAsync(to, c->gpu[x->me], m->ptr, c->gpu[j], (size_t)m->copy, s));
  }
  /* One small package: the copy engine, with no kernel to launch. */
  if (direct.n == 1) {
    GR_CUDA_CHECK(cudaMemcpyPeerAsync(direct.dst[0], c->gpu[x->me], direct.src[0], c->gpu[first],
                                      (size_t)direct.bytes[0], s));
  } else if (direct.n > 1) {
    GR_CHECK(gr__xk_peer_copies_cuda(x->dev, &direct));
  }
  return GR_SUCCESS;
}

const gr__transport_ops gr__transport_p2p = {"p2p", gr__p2p_create, gr__p2p_destroy, gr__p2p_attach, gr__p2p_move,
                                             NULL, NULL, gr__p2p_in_place, gr__p2p_writes_peer};
