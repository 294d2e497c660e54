// SPDX-License-Identifier: Apache-2.0
// CUDA operators as templates over a primitive's per-element functor. A
// primitive's _cuda.cu file wraps its GR_HD functions in small functors and
// instantiates these; results equal the portable definition's
// (operators_cpu.h) as sets.
//
// advance_push is edge-balanced: the frontier's degrees are scanned (CUB) and
// every thread takes one edge rank, finding its source by binary search, so a
// vertex of any degree is spread over as many threads as it has edges.
// advance_pull gives each wanted vertex a warp that scans its in-edges 32 at
// a time and stops at the first parent found in the frontier.
#ifndef GR_CUDA_OPERATORS_CUH
#define GR_CUDA_OPERATORS_CUH

#include <cub/device/device_scan.cuh>

#include "gr/atomic.h"
#include "gr/cuda_check.h"
#include "gr/device.h"
#include "gr/operators.h"
#include "gr/workspace.h"
#include "operators/cuda/emit.cuh"

namespace gr_cuda {

constexpr int kBlock = 256;

__global__ void degree_kernel(const gr_eid *__restrict__ offsets, const gr_vid *__restrict__ in,
                              gr_eid n_in, gr_eid *__restrict__ deg);

// Largest i in [lo, hi] with scan[i] <= rank (scan is non-decreasing).
__device__ __forceinline__ gr_eid scan_search(const gr_eid *__restrict__ scan, gr_eid lo, gr_eid hi,
                                              gr_eid rank) {
  while (lo < hi) {
    gr_eid mid = lo + (hi - lo + 1) / 2;
    if (scan[mid] <= rank) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

template <class Visit>
__global__ void __launch_bounds__(kBlock)
    advance_push_lb_kernel(const gr_eid *__restrict__ offsets, const gr_vid *__restrict__ indices,
                           const gr_vid *__restrict__ in, gr_eid n_in,
                           const gr_eid *__restrict__ scan, gr_vid *__restrict__ out, gr_eid cap,
                           unsigned long long *count, Visit visit) {
  __shared__ gr_eid s_lo, s_hi;
  const gr_eid total = scan[n_in];
  // The loop bound is the same for the whole block, so every warp stays in
  // step for warp_emit.
  for (gr_eid base = (gr_eid)blockIdx.x * kBlock; base < total;
       base += (gr_eid)gridDim.x * kBlock) {
    gr_eid last = base + kBlock - 1 < total ? base + kBlock - 1 : total - 1;
    __syncthreads();
    if (threadIdx.x == 0) s_lo = scan_search(scan, 0, n_in - 1, base);
    if (threadIdx.x == 32) s_hi = scan_search(scan, 0, n_in - 1, last);
    __syncthreads();
    gr_eid rank = base + threadIdx.x;
    bool keep = false;
    gr_vid v = 0;
    if (rank <= last) {
      gr_eid i = scan_search(scan, s_lo, s_hi, rank);
      gr_vid u = in[i];
      gr_eid e = offsets[u] + (rank - scan[i]);
      v = indices[e];
      keep = visit(u, v, e);
    }
    warp_emit(keep, v, out, cap, count);
  }
}

template <class Wanted, class Visit>
__global__ void __launch_bounds__(kBlock)
    advance_pull_warp_kernel(const gr_eid *__restrict__ offsets, const gr_vid *__restrict__ indices,
                             const uint32_t *__restrict__ fbits, const gr_vid *__restrict__ cand,
                             gr_eid n, gr_vid *__restrict__ out, gr_eid cap,
                             unsigned long long *count, unsigned long long *edges, Wanted wanted,
                             Visit visit) {
  const int lane = threadIdx.x & 31;
  const gr_eid warp = (blockIdx.x * (gr_eid)blockDim.x + threadIdx.x) >> 5;
  const gr_eid warps = ((gr_eid)gridDim.x * blockDim.x) >> 5;
  unsigned long long examined = 0;
  for (gr_eid w = warp; w < n; w += warps) {
    gr_vid v = cand ? cand[w] : (gr_vid)w;
    if (!wanted(v)) continue;
    gr_eid b = offsets[v], end = offsets[v + 1];
    bool found = false;
    for (gr_eid chunk = b; chunk < end && !found; chunk += 32) {
      gr_eid k = chunk + lane;
      gr_vid u = 0;
      bool hit = false;
      if (k < end) {
        u = indices[k];
        hit = gr_bitmap_test(fbits, u);
      }
      unsigned bal = __ballot_sync(kFullMask, hit);
      gr_eid span = end - chunk < 32 ? end - chunk : 32;
      while (bal) {
        int l = __ffs(bal) - 1;
        gr_vid ul = __shfl_sync(kFullMask, u, l);
        gr_eid kl = __shfl_sync(kFullMask, k, l);
        int ok = 0;
        if (lane == 0) ok = visit(ul, v, kl) ? 1 : 0;
        ok = __shfl_sync(kFullMask, ok, 0);
        if (ok) {
          found = true;
          span = (gr_eid)l + 1;
          break;
        }
        bal &= bal - 1;
      }
      examined += span;
    }
    if (found && lane == 0) {
      unsigned long long pos = atomicAdd(count, 1ull);
      if (pos < cap) out[pos] = v;
    }
  }
  if (lane == 0 && examined) atomicAdd(edges, examined);
}

template <class Keep>
__global__ void __launch_bounds__(kBlock)
    filter_kernel(const gr_vid *__restrict__ in, gr_eid n, gr_vid *__restrict__ out, gr_eid cap,
                  uint32_t *cull, unsigned long long *count, Keep keep) {
  for (gr_eid base = (gr_eid)blockIdx.x * kBlock; base < n; base += (gr_eid)gridDim.x * kBlock) {
    gr_eid i = base + threadIdx.x;
    bool k = false;
    gr_vid v = 0;
    if (i < n) {
      v = in[i];
      k = keep(v) && (!cull || gr_bitmap_test_and_set(cull, v));
    }
    warp_emit(k, v, out, cap, count);
  }
}

template <class Op>
__global__ void __launch_bounds__(kBlock) for_each_kernel(const gr_vid *__restrict__ in, gr_eid n, Op op) {
  for (gr_eid i = blockIdx.x * (gr_eid)kBlock + threadIdx.x; i < n; i += (gr_eid)gridDim.x * kBlock)
    op(in ? in[i] : (gr_vid)i);
}

inline unsigned max_blocks(gr_device *dev) {
  int sms = gr_device_sm_count(dev);
  return (unsigned)(sms > 0 ? sms : 16) * 8u;
}

inline gr_status check_overflow(unsigned long long count, gr_eid cap, const char *op) {
  if (count > cap)
    return gr_errorf(GR_ERR_INTERNAL, "%s produced %llu items for an output of capacity %llu", op,
                     count, (unsigned long long)cap);
  return GR_SUCCESS;
}

template <class Visit>
gr_status advance_push(gr_device *dev, gr_workspace *ws, gr_advance_push_args *a, Visit visit) {
  a->n_out = 0;
  a->edges = 0;
  if (a->n_in == 0) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  GR_CHECK(gr_buffer_reserve(&ws->scan, dev, (a->n_in + 1) * sizeof(gr_eid), 0, &ws->policy, 0,
                             "advance degree scan"));
  gr_eid *scan = (gr_eid *)ws->scan.ptr;
  size_t temp = 0;
  GR_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp, scan, scan, a->n_in + 1, s));
  GR_CHECK(gr_buffer_reserve(&ws->temp, dev, temp, 0, &ws->policy, 0, "CUB scan storage"));
  GR_CHECK(gr_workspace_zero_counters(ws, 2));
  degree_kernel<<<grid_for(a->n_in + 1, kBlock, 65535), kBlock, 0, s>>>(a->g->offsets, a->in,
                                                                         a->n_in, scan);
  GR_CUDA_CHECK_LAUNCH();
  GR_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(ws->temp.ptr, temp, scan, scan, a->n_in + 1, s));
  unsigned long long *ctr = (unsigned long long *)ws->counters.ptr;
  advance_push_lb_kernel<Visit><<<max_blocks(dev), kBlock, 0, s>>>(
      a->g->offsets, a->g->indices, a->in, a->n_in, scan, a->out, a->out_capacity, ctr, visit);
  GR_CUDA_CHECK_LAUNCH();
  GR_CUDA_CHECK(cudaMemcpyAsync(ctr + 1, scan + a->n_in, sizeof(gr_eid), cudaMemcpyDeviceToDevice, s));
  GR_CHECK(gr_workspace_read_counters(ws, 2));
  GR_CHECK(check_overflow(ws->host_counters[0], a->out_capacity, "advance (push)"));
  a->n_out = ws->host_counters[0];
  a->edges = ws->host_counters[1];
  return GR_SUCCESS;
}

template <class Wanted, class Visit>
gr_status advance_pull(gr_device *dev, gr_workspace *ws, gr_advance_pull_args *a, Wanted wanted,
                       Visit visit) {
  a->n_out = 0;
  a->edges = 0;
  gr_eid n = a->candidates ? a->n_candidates : (gr_eid)a->g->n;
  if (n == 0) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  GR_CHECK(gr_workspace_zero_counters(ws, 2));
  unsigned long long *ctr = (unsigned long long *)ws->counters.ptr;
  unsigned grid = grid_for(n * 32, kBlock, max_blocks(dev));
  advance_pull_warp_kernel<Wanted, Visit><<<grid, kBlock, 0, s>>>(
      a->g->offsets, a->g->indices, a->frontier_bits, a->candidates, n, a->out, a->out_capacity, ctr,
      ctr + 1, wanted, visit);
  GR_CUDA_CHECK_LAUNCH();
  GR_CHECK(gr_workspace_read_counters(ws, 2));
  GR_CHECK(check_overflow(ws->host_counters[0], a->out_capacity, "advance (pull)"));
  a->n_out = ws->host_counters[0];
  a->edges = ws->host_counters[1];
  return GR_SUCCESS;
}

template <class Keep>
gr_status filter(gr_device *dev, gr_workspace *ws, gr_filter_args *a, Keep keep) {
  a->n_out = 0;
  if (a->n_in == 0) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  GR_CHECK(gr_workspace_zero_counters(ws, 1));
  unsigned long long *ctr = (unsigned long long *)ws->counters.ptr;
  filter_kernel<Keep><<<grid_for(a->n_in, kBlock, max_blocks(dev)), kBlock, 0, s>>>(
      a->in, a->n_in, a->out, a->out_capacity, a->cull_bits, ctr, keep);
  GR_CUDA_CHECK_LAUNCH();
  GR_CHECK(gr_workspace_read_counters(ws, 1));
  GR_CHECK(check_overflow(ws->host_counters[0], a->out_capacity, "filter"));
  a->n_out = ws->host_counters[0];
  return GR_SUCCESS;
}

template <class Op>
gr_status for_each(gr_device *dev, gr_for_each_args *a, Op op) {
  if (a->n == 0) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  for_each_kernel<Op><<<grid_for(a->n, kBlock, max_blocks(dev)), kBlock, 0, s>>>(a->in, a->n, op);
  GR_CUDA_CHECK_LAUNCH();
  return GR_SUCCESS;
}

}  // namespace gr_cuda

#endif
