// SPDX-License-Identifier: Apache-2.0
// Frontier conversions on CUDA: queue to bitmap with atomicOr; bitmap to an
// ordered queue by a scan of per-word popcounts (CUB).
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "frontier/frontier_kernels.h"
#include "gr/cuda_check.h"
#include "operators/cuda/emit.cuh"

namespace {

__global__ void q2b_kernel(const gr_vid *q, gr_eid n, uint32_t *bits) {
  for (gr_eid i = blockIdx.x * (gr_eid)blockDim.x + threadIdx.x; i < n;
       i += (gr_eid)gridDim.x * blockDim.x)
    atomicOr(&bits[q[i] >> 5], 1u << (q[i] & 31u));
}

// ids[i] = table[ids[i]]; an id without an entry below `limit` becomes 0,
// counted into *bad (a corrupt input's arcs only: one atomic a thread that
// met any).
__global__ void ids_map_kernel(gr_vid *__restrict__ ids, gr_eid n, const gr_vid *__restrict__ table, gr_vid n_table,
                               gr_vid limit, unsigned long long *bad) {
  unsigned lost = 0;
  for (gr_eid i = blockIdx.x * (gr_eid)blockDim.x + threadIdx.x; i < n; i += (gr_eid)gridDim.x * blockDim.x) {
    const gr_vid v = ids[i];
    const gr_vid l = v < n_table ? table[v] : GR_NO_VERTEX;
    const bool ok = v < n_table && l < limit;
    lost += !ok;
    ids[i] = ok ? l : 0;
  }
  if (lost) atomicAdd(bad, (unsigned long long)lost);
}

// dst |= src: four words a thread where both are 16-byte aligned, the
// rest one by one. A pass whose predicate read a word per lane (DOBFS's
// pull finds into its visited bits, Kronecker 27) took 0.13-0.15 ms where
// this one moves 50 MB.
__global__ void or_kernel(uint32_t *__restrict__ dst, const uint32_t *__restrict__ src, size_t words, bool vec) {
  const size_t stride = (size_t)gridDim.x * blockDim.x, t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  size_t done = 0;
  if (vec) {
    done = words & ~(size_t)3;
    uint4 *d = reinterpret_cast<uint4 *>(dst);
    const uint4 *s = reinterpret_cast<const uint4 *>(src);
    for (size_t i = t; i < words / 4; i += stride) {
      uint4 a = d[i];
      const uint4 b = s[i];
      a.x |= b.x;
      a.y |= b.y;
      a.z |= b.z;
      a.w |= b.w;
      d[i] = a;
    }
  }
  for (size_t w = done + t; w < words; w += stride) dst[w] |= src[w];
}

__global__ void word_count_kernel(const uint32_t *bits, size_t words, gr_eid *counts) {
  for (size_t w = blockIdx.x * (size_t)blockDim.x + threadIdx.x; w <= words;
       w += (size_t)gridDim.x * blockDim.x)
    counts[w] = w < words ? (gr_eid)__popc(bits[w]) : 0;
}

__global__ void word_write_kernel(const uint32_t *bits, size_t words, const gr_eid *offsets,
                                  gr_vid *q) {
  for (size_t w = blockIdx.x * (size_t)blockDim.x + threadIdx.x; w < words;
       w += (size_t)gridDim.x * blockDim.x) {
    uint32_t x = bits[w];
    gr_eid pos = offsets[w];
    while (x) {
      int b = __ffs(x) - 1;
      q[pos++] = (gr_vid)(w * 32 + (size_t)b);
      x &= x - 1;
    }
  }
}

struct DegreeOf {
  const gr_vid *q;
  const gr_eid *offsets;
  __device__ gr_eid operator()(gr_eid i) const { return offsets[q[i] + 1] - offsets[q[i]]; }
};

}  // namespace

extern "C" gr_status gr__frontier_degrees_cuda(gr_device *dev, gr_workspace *ws, const gr_vid *q, gr_eid n,
                                               const gr_eid *offsets, gr_eid *sum) {
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  thrust::counting_iterator<gr_eid> idx(0);
  thrust::transform_iterator<DegreeOf, thrust::counting_iterator<gr_eid>, gr_eid> deg(idx, DegreeOf{q, offsets});
  gr_eid *out = (gr_eid *)ws->counters.ptr;
  size_t temp = 0;
  GR_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, temp, deg, out, n, s));
  GR_CHECK(gr_buffer_reserve(&ws->temp, dev, temp, 0, &ws->policy, 0, "CUB reduce storage"));
  GR_CUDA_CHECK_LIB(dev, cub::DeviceReduce::Sum(ws->temp.ptr, temp, deg, out, n, s));
  return gr_device_copy(dev, sum, out, sizeof *sum, GR_COPY_D2H);
}

extern "C" gr_status gr__frontier_q2b_cuda(gr_device *dev, const gr_vid *q, gr_eid n,
                                           uint32_t *bits) {
  if (!n) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  unsigned grid = gr_cuda::grid_for(n, 256, 65535);
  q2b_kernel<<<grid, 256, 0, s>>>(q, n, bits);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

extern "C" gr_status gr__ids_map_cuda(gr_device *dev, gr_vid *ids, gr_eid n, const gr_vid *table, gr_vid n_table,
                                      gr_vid limit, unsigned long long *bad) {
  if (!n) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  unsigned grid = gr_cuda::grid_for(n, 256, 65535);
  ids_map_kernel<<<grid, 256, 0, s>>>(ids, n, table, n_table, limit, bad);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

extern "C" gr_status gr__frontier_or_cuda(gr_device *dev, uint32_t *dst, const uint32_t *src, size_t words) {
  if (!words) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  const bool vec = (((uintptr_t)dst | (uintptr_t)src) & 15u) == 0;
  unsigned grid = gr_cuda::grid_for(vec ? words / 4 + 1 : words, 256, 65535);
  or_kernel<<<grid, 256, 0, s>>>(dst, src, words, vec);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

extern "C" gr_status gr__frontier_b2q_cuda(gr_device *dev, gr_workspace *ws, const uint32_t *bits,
                                           gr_vid universe, gr_frontier *f) {
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  size_t words = gr_bitmap_words(universe);
  GR_CHECK(gr_buffer_reserve(&ws->words, dev, (words + 1) * sizeof(gr_eid), 0, &ws->policy, 0,
                             "bitmap compaction counts"));
  gr_eid *counts = (gr_eid *)ws->words.ptr;
  size_t temp = 0;
  GR_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp, counts, counts, words + 1, s));
  GR_CHECK(gr_buffer_reserve(&ws->temp, dev, temp, 0, &ws->policy, 0, "CUB scan storage"));
  unsigned grid = gr_cuda::grid_for(words + 1, 256, 65535);
  word_count_kernel<<<grid, 256, 0, s>>>(bits, words, counts);
  GR_CUDA_CHECK_LAUNCH(dev);
  GR_CUDA_CHECK_LIB(dev, cub::DeviceScan::ExclusiveSum(ws->temp.ptr, temp, counts, counts, words + 1, s));
  gr_eid n = 0;
  GR_CHECK(gr_device_copy(dev, &n, counts + words, sizeof n, GR_COPY_D2H));
  if (gr_frontier_capacity(f) < n) GR_CHECK(gr_frontier_reserve(f, dev, n, 0, &ws->policy));
  if (n) {
    word_write_kernel<<<gr_cuda::grid_for(words, 256, 65535), 256, 0, s>>>(bits, words, counts,
                                                                            gr_frontier_items(f));
    GR_CUDA_CHECK_LAUNCH(dev);
  }
  f->size = n;
  return GR_SUCCESS;
}

GR_CUDA_PRELOAD(gr__frontier_cuda_preload)
