// SPDX-License-Identifier: Apache-2.0
// The non-template kernels shared by every instantiation of the operators.
#include "operators/cuda/operators.cuh"

namespace gr_cuda {

__global__ void rows_degree_kernel(const gr_eid *__restrict__ offsets, const gr_vid *__restrict__ in, gr_eid n_in,
                                   const unsigned long long *n_long, gr_eid *__restrict__ deg,
                                   unsigned long long *edges) {
  const gr_eid rows = (gr_eid)*n_long;
  unsigned long long sum = 0;
  for (gr_eid i = blockIdx.x * (gr_eid)blockDim.x + threadIdx.x; i <= n_in;
       i += (gr_eid)gridDim.x * blockDim.x) {
    if (i < n_in) {
      const gr_vid u = in[i];
      const gr_eid s = offsets[u], d = offsets[u + 1] - s;
      sum += d;
      // A long row has at least one edge.
      deg[i] = i < rows ? (s + d - 1) / GR_PACK_BLOCK - s / GR_PACK_BLOCK + 1 : d;
    } else {
      deg[i] = 0;
    }
  }
  block_add<kBlock>(sum, edges);
}

__global__ void chunk_start_kernel(const gr_eid *__restrict__ scan, gr_eid n_in, gr_eid *__restrict__ chunks,
                                   gr_eid max_chunks, unsigned long long *ctr) {
  const gr_eid total = scan[n_in];
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    ctr[0] = 0;
    ctr[1] = total;
    ctr[2] = 0;
    ctr[3] = 0;
  }
  const gr_eid n_chunks = (total + kBlock - 1) / kBlock;
  for (gr_eid c = blockIdx.x * (gr_eid)blockDim.x + threadIdx.x; c < n_chunks && c < max_chunks;
       c += (gr_eid)gridDim.x * blockDim.x)
    chunks[c] = scan_search(scan, 0, n_in - 1, c * kBlock);
}

__global__ void __launch_bounds__(kBlock) small_prep_kernel(const gr_eid *__restrict__ offsets,
                                                             const gr_vid *__restrict__ in, gr_eid n_in,
                                                             gr_eid *__restrict__ scan, unsigned long long *ctr) {
  static_assert(kSmallPrepTile == (gr_eid)kBlock * kSmallPrepItems, "one block holds a tile");
  typedef cub::BlockScan<gr_eid, kBlock> Scan;
  __shared__ typename Scan::TempStorage tmp;
  // Tile after tile, each a blocked arrangement (thread t holds items
  // t * kSmallPrepItems on), the tiles' totals carried into the next.
  gr_eid carry = 0;
  for (gr_eid at = 0; at < n_in; at += kSmallPrepTile) {
    gr_eid d[kSmallPrepItems];
    const gr_eid first = at + (gr_eid)threadIdx.x * kSmallPrepItems;
#pragma unroll
    for (int k = 0; k < kSmallPrepItems; k++) {
      const gr_eid i = first + k;
      d[k] = 0;
      if (i < n_in) {
        const gr_vid u = in[i];
        d[k] = offsets[u + 1] - offsets[u];
      }
    }
    gr_eid total = 0;
    Scan(tmp).ExclusiveSum(d, d, total);
    __syncthreads();  // the scan's storage serves the next tile
#pragma unroll
    for (int k = 0; k < kSmallPrepItems; k++)
      if (first + k < n_in) scan[first + k] = carry + d[k];
    carry += total;
  }
  if (threadIdx.x == 0) {
    scan[n_in] = carry;
    ctr[0] = 0;
    ctr[1] = carry;
    ctr[2] = 0;
    ctr[3] = 0;
  }
}

__global__ void frontier_stats_kernel(const gr_eid *__restrict__ offsets, const gr_vid *__restrict__ in,
                                      gr_eid n_in, unsigned long long *ctr) {
  unsigned long long sum = 0, mx = 0;
  list_degrees(offsets, in, n_in, sum, mx);
  block_add_max(sum, mx, ctr);
}

}  // namespace gr_cuda

GR_CUDA_PRELOAD(gr__operators_cuda_preload)
