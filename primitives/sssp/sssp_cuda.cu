// SPDX-License-Identifier: Apache-2.0
// SSSP's operators on CUDA: the same per-element functions as the CPU
// backend, wrapped in functors for the operator templates, and the far
// pile's minimum (a block reduction, one atomic per block).
#include <cub/block/block_reduce.cuh>

#include "operators/cuda/operators.cuh"
#include "sssp/sssp.h"

namespace {

struct Relax {
  gr_sssp_ctx c;
  __device__ bool operator()(gr_vid u, gr_vid v, gr_eid e) const { return gr_sssp_relax(&c, u, v, e); }
};
struct RelaxLevel {
  gr_sssp_ctx c;
  __device__ bool operator()(int level, gr_vid u, gr_vid v, gr_eid e) const {
    return gr_sssp_relax_level(&c, level, u, v, e);
  }
};
struct ClassifyInput {
  gr_sssp_ctx c;
  __device__ int operator()(gr_vid v) const { return gr_sssp_classify_input(&c, v); }
};
struct ClassifyPile {
  gr_sssp_ctx c;
  __device__ int operator()(gr_vid v) const { return gr_sssp_classify_pile(&c, v); }
};
struct Init {
  gr_sssp_ctx c;
  __device__ void operator()(gr_vid v) const { gr_sssp_init_vertex(&c, v); }
};
struct Publish {
  gr_sssp_ctx c;
  __device__ void operator()(gr_vid v) const { gr_sssp_publish(&c, v); }
};
struct Absorb {
  gr_sssp_ctx c;
  __device__ void operator()(gr_vid v) const { gr_sssp_absorb(&c, v); }
};

constexpr int kBlock = gr_cuda::kBlock;

struct Larger {
  __device__ unsigned operator()(unsigned a, unsigned b) const { return a > b ? a : b; }
};

// The smallest key as float bits: keys are non-negative or +inf, whose bits
// order as the values do. The counter starts at zero, so the block
// publishes inf - bits and the largest of those wins.
__global__ void __launch_bounds__(kBlock)
    pile_min_kernel(const gr_vid *__restrict__ pile, gr_eid n, gr_sssp_ctx c, unsigned long long *ctr) {
  using Reduce = cub::BlockReduce<unsigned, kBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  unsigned best = 0;
  for (gr_eid i = blockIdx.x * (gr_eid)kBlock + threadIdx.x; i < n; i += (gr_eid)gridDim.x * kBlock) {
    const unsigned k = GR_SSSP_INF_BITS - gr__sssp_bits(gr_sssp_pile_key(&c, pile[i]));
    best = k > best ? k : best;
  }
  const unsigned block = Reduce(tmp).Reduce(best, Larger());
  if (threadIdx.x == 0 && block) atomicMax(ctr, (unsigned long long)block);
}

gr_status relax_cuda(gr_device *dev, gr_workspace *ws, gr_advance_push_args *a, const gr_sssp_ctx *c) {
  return gr_cuda::advance_push(dev, ws, a, Relax{*c});
}

gr_status split_input_cuda(gr_device *dev, gr_workspace *ws, gr_split_args *a, const gr_sssp_ctx *c) {
  return gr_cuda::split(dev, ws, a, ClassifyInput{*c});
}

gr_status split_pile_cuda(gr_device *dev, gr_workspace *ws, gr_split_args *a, const gr_sssp_ctx *c) {
  return gr_cuda::split(dev, ws, a, ClassifyPile{*c});
}

gr_status init_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_sssp_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, Init{*c});
}

gr_status publish_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_sssp_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, Publish{*c});
}

gr_status absorb_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_sssp_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, Absorb{*c});
}

gr_status relax_levels_cuda(gr_device *dev, gr_workspace *ws, gr_advance_levels_args *a, const gr_sssp_ctx *c) {
  return gr_cuda::advance_push_levels(dev, ws, a, RelaxLevel{*c});
}

gr_status pile_min_cuda(gr_device *dev, gr_workspace *ws, const gr_vid *pile, gr_eid n, const gr_sssp_ctx *c,
                        float *least) {
  *least = gr__sssp_float(GR_SSSP_INF_BITS);
  if (n == 0) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  GR_CHECK(gr_workspace_zero_counters(ws, 1));
  unsigned long long *ctr = (unsigned long long *)ws->counters.ptr;
  pile_min_kernel<<<gr_cuda::grid_for(n, kBlock, gr_cuda::max_blocks(dev)), kBlock, 0, s>>>(pile, n, *c, ctr);
  GR_CUDA_CHECK_LAUNCH(dev);
  GR_CHECK(gr_workspace_read_counters(ws, 1));
  *least = gr__sssp_float(GR_SSSP_INF_BITS - (uint32_t)ws->host_counters[0]);
  return GR_SUCCESS;
}

}  // namespace

extern "C" const gr_sssp_ops gr__sssp_ops_cuda = {relax_cuda,   split_input_cuda, split_pile_cuda,   init_cuda,
                                                  publish_cuda, absorb_cuda,      relax_levels_cuda, pile_min_cuda};

GR_CUDA_PRELOAD(gr__sssp_cuda_preload)
