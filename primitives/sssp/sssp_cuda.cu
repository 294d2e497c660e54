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
struct MapId {
  gr_sssp_ctx c;
  __device__ void operator()(gr_vid i) const { gr_sssp_map_id(&c, i); }
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

// split_rows: a warp per row. Each row's light arcs, counted 32 at a time
// by ballot, give the split offsets.
__global__ void __launch_bounds__(kBlock)
    rows_count_kernel(const gr_eid *__restrict__ off, const gr_weight *__restrict__ w, gr_vid rows, float heavy,
                      gr_eid *__restrict__ split) {
  const unsigned lane = threadIdx.x & 31u;
  const gr_eid warps = (gr_eid)gridDim.x * (kBlock / 32);
  for (gr_eid u = (blockIdx.x * (gr_eid)kBlock + threadIdx.x) / 32; u < rows; u += warps) {
    const gr_eid b = off[u], end = off[u + 1];
    gr_eid light = 0;
    for (gr_eid k = b + lane; k - lane < end; k += 32) {
      const bool l = k < end && w[k] < heavy;
      light += (gr_eid)__popc(__ballot_sync(gr_cuda::kFullMask, l));
    }
    if (lane == 0) {
      split[2 * u] = b;
      split[2 * u + 1] = b + light;
      if (u + 1 == rows) split[2 * u + 2] = end;
    }
  }
}

// The rows [r0, r1), whose arcs lie in the tmp arrays from arc `base` on:
// a warp per row writes its light arcs from the row's start and its heavy
// ones from its split, each kind in order (ranks by ballot).
__global__ void __launch_bounds__(kBlock)
    rows_partition_kernel(const gr_eid *__restrict__ split, gr_vid r0, gr_vid r1, gr_eid base,
                          const gr_vid *__restrict__ tmp_ids, const gr_weight *__restrict__ tmp_w, float heavy,
                          gr_vid *__restrict__ ids, gr_weight *__restrict__ w) {
  const unsigned lane = threadIdx.x & 31u, below = (1u << lane) - 1u;
  const gr_eid warps = (gr_eid)gridDim.x * (kBlock / 32);
  for (gr_eid u = r0 + (blockIdx.x * (gr_eid)kBlock + threadIdx.x) / 32; u < r1; u += warps) {
    const gr_eid b = split[2 * u], end = split[2 * u + 2];
    gr_eid light_at = b, heavy_at = split[2 * u + 1];
    for (gr_eid k = b + lane; k - lane < end; k += 32) {
      const bool valid = k < end;
      const gr_weight x = valid ? tmp_w[k - base] : 0;
      const bool l = valid && x < heavy;
      const unsigned lb = __ballot_sync(gr_cuda::kFullMask, l), hb = __ballot_sync(gr_cuda::kFullMask, valid && !l);
      if (valid) {
        const gr_eid at = l ? light_at + __popc(lb & below) : heavy_at + __popc(hb & below);
        ids[at] = tmp_ids[k - base];
        w[at] = x;
      }
      light_at += __popc(lb);
      heavy_at += __popc(hb);
    }
  }
}

// Rows in batches whose arcs fit the tmp arrays (copied there, then written
// back partitioned), all on the stream.
gr_status split_rows_cuda(gr_device *dev, const gr_csr *g, gr_vid rows, float heavy, gr_eid *split,
                          const gr_eid *host_offsets, gr_vid *tmp_ids, gr_weight *tmp_weights, gr_eid tmp_arcs) {
  if (rows == 0) return gr_device_memset(dev, split, 0, sizeof(gr_eid));
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  const unsigned grid = gr_cuda::grid_for((gr_eid)rows * 32, kBlock, gr_cuda::max_blocks(dev));
  rows_count_kernel<<<grid, kBlock, 0, s>>>(g->offsets, g->weights, rows, heavy, split);
  GR_CUDA_CHECK_LAUNCH(dev);
  for (gr_vid r0 = 0; r0 < rows;) {
    // The most rows from r0 whose arcs fit (at least one: tmp_arcs holds
    // the longest row).
    gr_vid lo = r0 + 1, hi = rows;
    while (lo < hi) {
      const gr_vid mid = lo + (hi - lo + 1) / 2;
      if (host_offsets[mid] - host_offsets[r0] <= tmp_arcs) lo = mid;
      else hi = mid - 1;
    }
    const gr_vid r1 = lo;
    const gr_eid base = host_offsets[r0], arcs = host_offsets[r1] - base;
    if (arcs > tmp_arcs) return gr_errorf(GR_ERR_INTERNAL, "sssp: row %llu holds more arcs than the reorder's room",
                                          (unsigned long long)r0);
    if (arcs) {
      GR_CHECK(gr_device_copy(dev, tmp_ids, g->indices + base, (size_t)arcs * sizeof(gr_vid), GR_COPY_D2D));
      GR_CHECK(gr_device_copy(dev, tmp_weights, g->weights + base, (size_t)arcs * sizeof(gr_weight), GR_COPY_D2D));
      const unsigned pg = gr_cuda::grid_for((gr_eid)(r1 - r0) * 32, kBlock, gr_cuda::max_blocks(dev));
      rows_partition_kernel<<<pg, kBlock, 0, s>>>(split, r0, r1, base, tmp_ids, tmp_weights, heavy, g->indices,
                                                  g->weights);
      GR_CUDA_CHECK_LAUNCH(dev);
    }
    r0 = r1;
  }
  return GR_SUCCESS;
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

// take_heavy (gr_sssp_take_heavy's set) a bitmap word a thread: the
// bucket's end passes over n / 32 words, most of them zero, where a thread
// per vertex read every word 32 times (110 us a pass over the 33.5 M
// vertices of Kronecker 25 on an H200). Nothing else runs on the bits
// meanwhile: the thread writes its word back whole. The ids kept go out a
// warp at a time (one atomic per warp).
__global__ void __launch_bounds__(kBlock)
    take_heavy_kernel(gr_eid n, gr_sssp_ctx c, gr_vid *__restrict__ out, gr_eid cap, unsigned long long *count) {
  const gr_eid words = (n + 31) / 32;
  const unsigned lane = threadIdx.x & 31u;
  const gr_eid stride = (gr_eid)gridDim.x * kBlock;
  // Whole warps stay in the loop together (the shuffles below).
  for (gr_eid base = blockIdx.x * (gr_eid)kBlock + (threadIdx.x & ~31u); base < words; base += stride) {
    const gr_eid i = base + lane;
    uint32_t w = i < words ? c.heavy_bits[i] : 0u, keep = 0u;
    for (uint32_t rest = w; rest; rest &= rest - 1u) {
      const unsigned b = (unsigned)__ffs(rest) - 1u;
      const gr_vid v = (gr_vid)(i * 32 + b);
      if (gr_sssp_dist(&c, v) < c.split) keep |= 1u << b;
    }
    if (keep) c.heavy_bits[i] = w & ~keep;
    const unsigned k = (unsigned)__popc(keep);
    unsigned before = k;
    for (int d = 1; d < 32; d <<= 1) {
      const unsigned x = __shfl_up_sync(gr_cuda::kFullMask, before, d);
      if (lane >= (unsigned)d) before += x;
    }
    const unsigned total = __shfl_sync(gr_cuda::kFullMask, before, 31);
    before -= k;
    unsigned long long at = 0;
    if (lane == 31 && total) at = atomicAdd(count, (unsigned long long)total);
    at = __shfl_sync(gr_cuda::kFullMask, at, 31) + before;
    for (uint32_t rest = keep; rest; rest &= rest - 1u, at++)
      if (at < cap) out[at] = (gr_vid)(i * 32 + (unsigned)__ffs(rest) - 1u);
  }
}

gr_status map_ids_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_sssp_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, MapId{*c});
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

// The heavy take (counted into the second counter) and the pile's least
// (into the first), either or both on the stream, then one read.
gr_status take_heavy_least_cuda(gr_device *dev, gr_workspace *ws, gr_filter_args *a, const gr_vid *pile, gr_eid n,
                                const gr_sssp_ctx *c, float *least) {
  *least = gr__sssp_float(GR_SSSP_INF_BITS);
  a->n_out = 0;
  if (a->n_in == 0 && n == 0) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  GR_CHECK(gr_workspace_zero_counters(ws, 2));
  unsigned long long *ctr = (unsigned long long *)ws->counters.ptr;
  if (a->n_in) {
    const gr_eid words = (a->n_in + 31) / 32;
    take_heavy_kernel<<<gr_cuda::grid_for(words, kBlock, gr_cuda::max_blocks(dev)), kBlock, 0, s>>>(
        a->n_in, *c, a->out, a->out_capacity, ctr + 1);
    GR_CUDA_CHECK_LAUNCH(dev);
  }
  if (n) {
    pile_min_kernel<<<gr_cuda::grid_for(n, kBlock, gr_cuda::max_blocks(dev)), kBlock, 0, s>>>(pile, n, *c, ctr);
    GR_CUDA_CHECK_LAUNCH(dev);
  }
  GR_CHECK(gr_workspace_read_counters(ws, 2));
  *least = gr__sssp_float(GR_SSSP_INF_BITS - (uint32_t)ws->host_counters[0]);
  a->n_out = (gr_eid)ws->host_counters[1];
  if (a->n_out > a->out_capacity)
    return gr_errorf(GR_ERR_INTERNAL, "sssp: %llu vertices await their heavy arcs, room for %llu",
                     (unsigned long long)a->n_out, (unsigned long long)a->out_capacity);
  return GR_SUCCESS;
}

gr_status take_heavy_cuda(gr_device *dev, gr_workspace *ws, gr_filter_args *a, const gr_sssp_ctx *c) {
  float least = 0;
  return take_heavy_least_cuda(dev, ws, a, nullptr, 0, c, &least);
}

gr_status pile_min_cuda(gr_device *dev, gr_workspace *ws, const gr_vid *pile, gr_eid n, const gr_sssp_ctx *c,
                        float *least) {
  gr_filter_args none;
  memset(&none, 0, sizeof none);
  return take_heavy_least_cuda(dev, ws, &none, pile, n, c, least);
}

}  // namespace

extern "C" const gr_sssp_ops gr__sssp_ops_cuda = {relax_cuda,      split_input_cuda, split_pile_cuda,   init_cuda,
                                                  publish_cuda,    absorb_cuda,      relax_levels_cuda, pile_min_cuda,
                                                  take_heavy_cuda, map_ids_cuda,     split_rows_cuda,
                                                  take_heavy_least_cuda};

GR_CUDA_PRELOAD(gr__sssp_cuda_preload)
