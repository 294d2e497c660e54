// SPDX-License-Identifier: Apache-2.0
// PageRank's operators on CUDA. The per-element functions are the CPU
// backend's; the pull spreads rows over threads by their in-degree (pr.h's
// plan): a thread per light row (a pass over all rows, reading the offsets
// coalesced), a group of lanes per small row and a warp per medium row
// (lanes stride the row, a shuffle sum),
// blocks of GR_PR_CHUNK in-edges for heavy rows (a block sum added to the
// row's total, then one thread per heavy row finishes it). Sums are double
// per row; each block adds its part of the change and the dangling rank to
// two device doubles, read once per step.
#include <cub/block/block_reduce.cuh>

#include "operators/cuda/operators.cuh"
#include "pr/pr.h"

namespace {

constexpr int kBlock = gr_cuda::kBlock;

struct Init {
  gr_pr_ctx c;
  __device__ void operator()(gr_vid v) const { gr_pr_init_vertex(&c, v); }
};
struct Publish {
  gr_pr_ctx c;
  __device__ void operator()(gr_vid v) const { gr_pr_publish(&c, v); }
};
struct PushOut {
  gr_pr_ctx c;
  __device__ void operator()(gr_vid v) const { gr_pr_push_out(&c, v); }
};
struct PushVisit {
  gr_pr_ctx c;
  __device__ bool operator()(gr_vid u, gr_vid v, gr_eid e) const { return gr_pr_push_visit(&c, u, v, e); }
};

struct Pair {
  double l1, dangling;
};
struct AddPair {
  __device__ Pair operator()(const Pair &x, const Pair &y) const { return Pair{x.l1 + y.l1, x.dangling + y.dangling}; }
};

// The block's share of the change and the dangling rank, added once.
__device__ __forceinline__ void block_add(double l1, double dangling, double *sums) {
  using Reduce = cub::BlockReduce<Pair, kBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  const Pair p = Reduce(tmp).Reduce(Pair{l1, dangling}, AddPair());
  if (threadIdx.x == 0) {
    atomicAdd(&sums[0], p.l1);
    atomicAdd(&sums[1], p.dangling);
  }
}

// The sum of contributions over in-edges b, b + S, b + 2S, ... below e.
// Four edges per step, their index loads issued together and then their
// gathers: the loads of one step do not wait on each other, where a plain
// loop waits an index load and a gather (two memory latencies) per edge.
// Kernel times on Kronecker 22 (one H100) were latency, not bandwidth (the
// four pull kernels moved ~0.6 GB per step in 2.1 ms). The
// contributions are not written during a pull step, so they go through the
// read-only cache; the in-edge ids, read once per step, are streamed
// (evict-first), so that they do not push contributions out of L1 and L2
// (measured: 1.6% per iteration on Kronecker 22 and uniform 22). Sums in
// double as the CPU backend's (the order of additions differs: ranks agree
// to rounding).
template <int S>
__device__ __forceinline__ double strided_sum(const gr_pr_ctx &c, gr_eid k, gr_eid e) {
  const gr_vid *__restrict__ idx = c.in_indices;
  const float *__restrict__ con = c.contrib;
  double s = 0;
  for (; k + 3 * (gr_eid)S < e; k += 4 * (gr_eid)S) {
    const gr_vid u0 = __ldcs(idx + k), u1 = __ldcs(idx + k + S), u2 = __ldcs(idx + k + 2 * S),
                 u3 = __ldcs(idx + k + 3 * S);
    const float a0 = __ldg(con + u0), a1 = __ldg(con + u1), a2 = __ldg(con + u2), a3 = __ldg(con + u3);
    s += ((double)a0 + (double)a1) + ((double)a2 + (double)a3);
  }
  for (; k < e; k += S) s += (double)__ldg(con + __ldcs(idx + k));
  return s;
}

__global__ void __launch_bounds__(kBlock) pull_light_kernel(gr_pr_ctx c, gr_vid n) {
  double l1 = 0, dangling = 0;
  for (gr_eid i = blockIdx.x * (gr_eid)kBlock + threadIdx.x; i < n; i += (gr_eid)gridDim.x * kBlock) {
    const gr_vid v = (gr_vid)i;
    if (!gr_pr_owned(&c, v)) continue;
    const gr_eid b = c.in_offsets[v], e = c.in_offsets[v + 1];
    if (e - b > (gr_eid)GR_PR_LIGHT) continue;
    gr_pr_update(&c, v, strided_sum<1>(c, b, e), &l1, &dangling);
  }
  block_add(l1, dangling, c.sums);
}

// A group of G lanes per row (32 / G rows per warp at once): the lanes
// stride the row, then a shuffle sum within the group.
template <int G>
__global__ void __launch_bounds__(kBlock)
    pull_group_kernel(gr_pr_ctx c, const gr_vid *__restrict__ rows, gr_eid n_rows) {
  static_assert(G >= 1 && G <= 32 && (G & (G - 1)) == 0, "groups divide a warp");
  constexpr gr_eid kPerWarp = 32 / G;
  const unsigned lane = threadIdx.x & 31u, sub = lane & (G - 1u);
  const gr_eid warps = ((gr_eid)gridDim.x * kBlock) >> 5;
  double l1 = 0, dangling = 0;
  // The bound is the same for the whole warp, so the shuffles see every
  // lane; a group past the last row sums nothing.
  for (gr_eid w = (blockIdx.x * (gr_eid)kBlock + threadIdx.x) >> 5; w * kPerWarp < n_rows; w += warps) {
    const gr_eid i = w * kPerWarp + lane / G;
    const bool valid = i < n_rows;
    const gr_vid v = valid ? rows[i] : 0;
    double s = 0;
    if (valid) {
      const gr_eid b = c.in_offsets[v], e = c.in_offsets[v + 1];
      s = strided_sum<G>(c, b + sub, e);
    }
    for (int o = G / 2; o > 0; o >>= 1) s += __shfl_down_sync(gr_cuda::kFullMask, s, o, G);
    if (valid && sub == 0) gr_pr_update(&c, v, s, &l1, &dangling);
  }
  block_add(l1, dangling, c.sums);
}

__global__ void __launch_bounds__(kBlock)
    pull_heavy_kernel(gr_pr_ctx c, const gr_vid *__restrict__ rows, const gr_eid *__restrict__ start,
                      gr_eid n_heavy, gr_eid n_chunks, double *heavy_sum) {
  using Reduce = cub::BlockReduce<double, kBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  for (gr_eid ch = blockIdx.x; ch < n_chunks; ch += gridDim.x) {
    const gr_eid h = gr_cuda::scan_search(start, 0, n_heavy - 1, ch);
    const gr_vid v = rows[h];
    const gr_eid b = c.in_offsets[v] + (ch - start[h]) * (gr_eid)GR_PR_CHUNK, row_end = c.in_offsets[v + 1];
    const gr_eid e = b + (gr_eid)GR_PR_CHUNK < row_end ? b + (gr_eid)GR_PR_CHUNK : row_end;
    double s = strided_sum<kBlock>(c, b + threadIdx.x, e);
    s = Reduce(tmp).Sum(s);
    if (threadIdx.x == 0) atomicAdd(&heavy_sum[h], s);
    __syncthreads();  // tmp is used again by the next chunk
  }
}

__global__ void __launch_bounds__(kBlock)
    pull_heavy_finish_kernel(gr_pr_ctx c, const gr_vid *__restrict__ rows, gr_eid n_heavy,
                             const double *__restrict__ heavy_sum) {
  double l1 = 0, dangling = 0;
  for (gr_eid i = blockIdx.x * (gr_eid)kBlock + threadIdx.x; i < n_heavy; i += (gr_eid)gridDim.x * kBlock)
    gr_pr_update(&c, rows[i], heavy_sum[i], &l1, &dangling);
  block_add(l1, dangling, c.sums);
}

__global__ void __launch_bounds__(kBlock) push_step_kernel(gr_pr_ctx c, gr_vid n) {
  double l1 = 0, dangling = 0;
  for (gr_eid i = blockIdx.x * (gr_eid)kBlock + threadIdx.x; i < n; i += (gr_eid)gridDim.x * kBlock) {
    const gr_vid v = (gr_vid)i;
    if (gr_pr_owned(&c, v)) gr_pr_update(&c, v, gr_pr_push_sum(&c, v), &l1, &dangling);
  }
  block_add(l1, dangling, c.sums);
}

// The two sums of a step, back on the host (the one wait of the step).
gr_status read_sums(gr_device *dev, const gr_pr_ctx *c, double *l1, double *dangling) {
  double h[2];
  GR_CHECK(gr_device_copy(dev, h, c->sums, sizeof h, GR_COPY_D2H));
  *l1 = h[0];
  *dangling = h[1];
  return GR_SUCCESS;
}

gr_status pull_step_cuda(gr_device *dev, gr_workspace *ws, const gr_pr_plan *plan, gr_vid n, const gr_pr_ctx *c,
                         double *l1, double *dangling) {
  (void)ws;
  if (plan->n_rows != n)
    return gr_errorf(GR_ERR_INTERNAL, "pr: a pull plan of %llu rows for %llu vertices", (unsigned long long)plan->n_rows,
                     (unsigned long long)n);
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  const unsigned most = gr_cuda::max_blocks(dev);
  GR_CHECK(gr_device_memset(dev, c->sums, 0, 2 * sizeof(double)));
  if (n) {
    pull_light_kernel<<<gr_cuda::grid_for(n, kBlock, most), kBlock, 0, s>>>(*c, n);
    GR_CUDA_CHECK_LAUNCH(dev);
  }
  if (plan->n_small) {
    pull_group_kernel<GR_PR_GROUP><<<gr_cuda::grid_for(plan->n_small * GR_PR_GROUP, kBlock, most), kBlock, 0, s>>>(
        *c, (const gr_vid *)plan->small.ptr, plan->n_small);
    GR_CUDA_CHECK_LAUNCH(dev);
  }
  if (plan->n_medium) {
    pull_group_kernel<32><<<gr_cuda::grid_for(plan->n_medium * 32u, kBlock, most), kBlock, 0, s>>>(
        *c, (const gr_vid *)plan->medium.ptr, plan->n_medium);
    GR_CUDA_CHECK_LAUNCH(dev);
  }
  if (plan->n_heavy) {
    double *hs = (double *)plan->heavy_sum.ptr;
    GR_CHECK(gr_device_memset(dev, hs, 0, (size_t)plan->n_heavy * sizeof(double)));
    const unsigned long long chunks = plan->n_chunks;
    pull_heavy_kernel<<<(unsigned)(chunks < most ? chunks : most), kBlock, 0, s>>>(
        *c, (const gr_vid *)plan->heavy.ptr, (const gr_eid *)plan->chunk_start.ptr, plan->n_heavy, plan->n_chunks, hs);
    GR_CUDA_CHECK_LAUNCH(dev);
    pull_heavy_finish_kernel<<<gr_cuda::grid_for(plan->n_heavy, kBlock, most), kBlock, 0, s>>>(
        *c, (const gr_vid *)plan->heavy.ptr, plan->n_heavy, hs);
    GR_CUDA_CHECK_LAUNCH(dev);
  }
  return read_sums(dev, c, l1, dangling);
}

gr_status push_step_cuda(gr_device *dev, gr_workspace *ws, gr_vid n, const gr_pr_ctx *c, double *l1,
                         double *dangling) {
  (void)ws;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  GR_CHECK(gr_device_memset(dev, c->sums, 0, 2 * sizeof(double)));
  if (n) {
    push_step_kernel<<<gr_cuda::grid_for(n, kBlock, gr_cuda::max_blocks(dev)), kBlock, 0, s>>>(*c, n);
    GR_CUDA_CHECK_LAUNCH(dev);
  }
  return read_sums(dev, c, l1, dangling);
}

gr_status init_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_pr_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, Init{*c});
}
gr_status publish_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_pr_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, Publish{*c});
}
gr_status push_out_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_pr_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, PushOut{*c});
}
gr_status push_cuda(gr_device *dev, gr_workspace *ws, gr_advance_push_args *a, const gr_pr_ctx *c) {
  return gr_cuda::advance_push(dev, ws, a, PushVisit{*c});
}

}  // namespace

extern "C" const gr_pr_ops gr__pr_ops_cuda = {init_cuda, publish_cuda, pull_step_cuda, push_step_cuda, push_cuda,
                                              push_out_cuda};
