// SPDX-License-Identifier: Apache-2.0
// Warp-aggregated enqueue: the lanes of a warp that emit an id reserve room
// with one atomicAdd per warp (ballot + popc), as in scan-free BFS queues.
// Every lane of the warp must call it together (the loops that use it keep
// the whole warp in step).
#ifndef GR_CUDA_EMIT_CUH
#define GR_CUDA_EMIT_CUH

#include "gr/types.h"

namespace gr_cuda {

constexpr unsigned kFullMask = 0xffffffffu;

__device__ __forceinline__ void warp_emit(bool pred, gr_vid v, gr_vid *out, gr_eid cap,
                                          unsigned long long *count) {
  unsigned ballot = __ballot_sync(kFullMask, pred);
  if (!ballot) return;
  int lane = threadIdx.x & 31;
  int leader = __ffs(ballot) - 1;
  unsigned long long base = 0;
  if (lane == leader) base = atomicAdd(count, (unsigned long long)__popc(ballot));
  base = __shfl_sync(kFullMask, base, leader);
  if (pred) {
    unsigned long long pos = base + (unsigned long long)__popc(ballot & ((1u << lane) - 1u));
    if (pos < cap) out[pos] = v;
  }
}

inline unsigned grid_for(unsigned long long items, unsigned block, unsigned max_blocks) {
  unsigned long long g = (items + block - 1) / block;
  if (g < 1) g = 1;
  return (unsigned)(g < max_blocks ? g : max_blocks);
}

}  // namespace gr_cuda

#endif
