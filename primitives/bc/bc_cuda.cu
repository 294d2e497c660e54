// SPDX-License-Identifier: Apache-2.0
// BC's operators on CUDA: the same per-element functions as the CPU
// backend, wrapped in functors for the operator templates (the
// load-balanced push advance for both passes, filter and for-each), and
// the device-side loops over small levels (one device): the advance's
// levels kernel forward, a pull of its own backward.
#include "bc/bc.h"
#include "operators/cuda/operators.cuh"

namespace {

// One functor per per-element function: F is the function, the functor
// only carries the context into the operator templates.
#define GR__BC_VISIT(Name, fn)                                                           \
  struct Name {                                                                          \
    gr_bc_ctx c;                                                                         \
    __device__ bool operator()(gr_vid u, gr_vid v, gr_eid e) const { return fn(&c, u, v, e); } \
  };
#define GR__BC_EACH(Name, fn)                                   \
  struct Name {                                                 \
    gr_bc_ctx c;                                                \
    __device__ void operator()(gr_vid v) const { fn(&c, v); } \
  };

GR__BC_VISIT(ForwardVisit, gr_bc_forward_visit)
GR__BC_VISIT(ForwardVisitLog, gr_bc_forward_visit_log)
GR__BC_EACH(BackwardCompute, gr_bc_backward_compute)
GR__BC_EACH(BackwardComputeLog, gr_bc_backward_compute_log)
GR__BC_VISIT(BackwardVisit, gr_bc_backward_visit)
GR__BC_VISIT(BackwardVisitLog, gr_bc_backward_visit_log)
GR__BC_EACH(Scale, gr_bc_scale)
GR__BC_EACH(Fill, gr_bc_fill)

// The forward loop's visits: the level comes from the loop.
template <int Mode>
struct LevelVisit {
  gr_bc_ctx c;
  __device__ bool operator()(int level, gr_vid u, gr_vid v, gr_eid e) const {
    if (Mode == GR_BC_LOG) return gr_bc_forward_level_visit_log(&c, level, u, v, e);
    return gr_bc_forward_level_visit(&c, level, u, v, e);
  }
};

template <int Mode>
__device__ __forceinline__ double sum_add(double a, double b) {
  if (Mode == GR_BC_LOG) return gr_log_add(a, b);
  return a + b;
}

// The sum of lanes [g * G, g * G + G) of a warp, in every one of them.
template <int Mode>
__device__ __forceinline__ double group_sum(double x, int G) {
  for (int o = G >> 1; o; o >>= 1) x = sum_add<Mode>(x, __shfl_xor_sync(gr_cuda::kFullMask, x, o));
  return x;
}

// The backward levels loop (gr_bc_levels_args), one cooperative launch:
// per level, G lanes per vertex (as many as the grid's threads allow) stride
// its out-edges and sum the successors' coefficients; vertices of more than
// 32 out-edges take the whole warp, one after another. A grid barrier ends
// each level, so the next one reads finished coefficients. Ids come through
// Lists (operators/cuda/lists.cuh), plain or packed, read the way the
// advance's levels loop reads them.
template <int Mode, class Lists>
__global__ void __launch_bounds__(gr_cuda::kBlock)
    backward_levels_kernel(const gr_eid *__restrict__ offsets, const Lists lists, const gr_vid *__restrict__ stack, const gr_eid *__restrict__ level_start, int hi, int lo,
                           bool acc_ready, gr_bc_ctx c, unsigned long long *edges) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  const unsigned full = gr_cuda::kFullMask;
  const double zero = Mode == GR_BC_LOG ? GR_LOG_ZERO : 0.0;
  const int lane = threadIdx.x & 31;
  const gr_eid warp = (blockIdx.x * (gr_eid)blockDim.x + threadIdx.x) >> 5;
  const gr_eid warps = ((gr_eid)gridDim.x * blockDim.x) >> 5;
  unsigned long long examined = 0;
  for (int d = hi; d >= lo; d--) {
    const gr_eid begin = level_start[d], n = level_start[d + 1] - begin;
    const gr_svid depth = (gr_svid)d;
    if (acc_ready && d == hi) {
      for (gr_eid i = blockIdx.x * (gr_eid)blockDim.x + threadIdx.x; i < n; i += (gr_eid)gridDim.x * blockDim.x) {
        const gr_vid v = stack[begin + i];
        const double sum = c.acc[v];
        c.acc[v] = zero;
        if (Mode == GR_BC_LOG) gr_bc_backward_finish_log(&c, v, sum);
        else gr_bc_backward_finish(&c, v, sum);
      }
      grid.sync();
      continue;
    }
    int G = 32;
    while (G > 1 && (gr_eid)G * n > warps * 32) G >>= 1;
    const int per_warp = 32 / G, sub = lane % G;
    for (gr_eid base = warp * per_warp; base < n; base += warps * per_warp) {
      const gr_eid i = base + lane / G;
      const bool valid = i < n;
      gr_vid v = 0;
      gr_eid b = 0, deg = 0;
      if (valid) {
        v = stack[begin + i];
        b = offsets[v];
        deg = offsets[v + 1] - b;
        if (sub == 0) examined += deg;
      }
      // Vertices of more than 32 out-edges: the whole warp, one by one.
      unsigned big = __ballot_sync(full, valid && sub == 0 && deg > 32);
      while (big) {
        const int src = __ffs(big) - 1;
        big &= big - 1;
        const gr_vid bv = __shfl_sync(full, v, src);
        const gr_eid bb = __shfl_sync(full, b, src), bd = __shfl_sync(full, deg, src);
        double sum = zero;
        // Rounds of 32 edges from the packed block holding the first (the
        // lanes before it idle): every round decodes one block.
        for (gr_eid at = Lists::align(bb); at < bb + bd; at += 32) {
          const gr_eid e = at + lane;
          const bool in = e >= bb && e < bb + bd;
          const gr_vid w = lists.warp_id(in, bv, bb, e, in && lane && e > bb, false, 0);
          if (in && gr_bc_is_successor(&c, depth, w)) sum = sum_add<Mode>(sum, c.coef[w]);
        }
        sum = group_sum<Mode>(sum, 32);
        if (lane == 0) {
          if (Mode == GR_BC_LOG) gr_bc_backward_finish_log(&c, bv, sum);
          else gr_bc_backward_finish(&c, bv, sum);
        }
      }
      // The others: each group of G lanes strides its vertex's edges, in
      // step across the warp.
      const gr_eid mine = valid && deg <= 32 ? deg : 0;
      gr_eid most = (mine + G - 1) / G;
      for (int o = 16; o; o >>= 1) {
        const gr_eid other = __shfl_xor_sync(full, most, o);
        most = other > most ? other : most;
      }
      // The group's first lane carries on from the id its last lane read in
      // the round before (the edge before its own).
      double sum = zero;
      gr_vid last = 0;
      for (gr_eid r = 0; r < most; r++) {
        const gr_eid k = r * G + sub;
        const bool in = k < mine;
        const gr_vid w = lists.warp_id(in, v, b, b + k, in && sub > 0, r > 0 && sub == 0, last);
        last = __shfl_sync(full, w, lane | (G - 1));
        if (in && gr_bc_is_successor(&c, depth, w)) sum = sum_add<Mode>(sum, c.coef[w]);
      }
      sum = group_sum<Mode>(sum, G);
      if (valid && sub == 0 && deg <= 32) {
        if (Mode == GR_BC_LOG) gr_bc_backward_finish_log(&c, v, sum);
        else gr_bc_backward_finish(&c, v, sum);
      }
    }
    grid.sync();
  }
  if (examined) atomicAdd(edges, examined);
}

template <int Mode, class Lists>
gr_status backward_levels_with(gr_device *dev, gr_workspace *ws, gr_bc_levels_args *a, const gr_bc_ctx *c,
                               const Lists &lists) {
  a->edges = 0;
  if (a->hi < a->lo) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  unsigned long long *ctr = (unsigned long long *)ws->counters.ptr;
  GR_CUDA_CHECK(cudaMemsetAsync(ctr, 0, sizeof(unsigned long long), s));
  int blocks = 0;
  GR_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, backward_levels_kernel<Mode, Lists>,
                                                              gr_cuda::kBlock, 0));
  const int sms = gr_device_sm_count(dev);
  if (blocks < 1 || sms < 1)
    return gr_errorf(GR_ERR_CUDA, "bc backward levels: no cooperative grid fits (%d blocks per SM, %d SMs)", blocks,
                     sms);
  const gr_eid *offsets = a->g->offsets;
  Lists l = lists;
  const gr_vid *stack = a->stack;
  const gr_eid *ls = a->level_start;
  int hi = a->hi, lo = a->lo;
  bool ready = a->acc_ready;
  gr_bc_ctx ctx = *c;
  void *args[] = {(void *)&offsets, (void *)&l,     (void *)&stack, (void *)&ls, (void *)&hi,
                  (void *)&lo,      (void *)&ready, (void *)&ctx,   (void *)&ctr};
  // One block per SM keeps the grid barrier cheap.
  GR_CUDA_CHECK_LIB(dev, cudaLaunchCooperativeKernel((const void *)backward_levels_kernel<Mode, Lists>, (unsigned)sms,
                                                     gr_cuda::kBlock, args, 0, s));
  unsigned long long h = 0;
  GR_CUDA_CHECK(cudaMemcpyAsync(&h, ctr, sizeof h, cudaMemcpyDeviceToHost, s));
  gr__device_activity_wait();
  GR_CUDA_CHECK(cudaStreamSynchronize(s));
  a->edges = (gr_eid)h;
  return GR_SUCCESS;
}

// Plain ids or packed lists, as the graph on this device holds them.
template <int Mode>
gr_status backward_levels_cuda(gr_device *dev, gr_workspace *ws, gr_bc_levels_args *a, const gr_bc_ctx *c) {
  if (a->g->packed) return backward_levels_with<Mode>(dev, ws, a, c, gr_cuda::PackedLists{*a->g->packed});
  return backward_levels_with<Mode>(dev, ws, a, c, gr_cuda::PlainLists{a->g->indices});
}

template <int Mode>
gr_status forward_levels_cuda(gr_device *dev, gr_workspace *ws, gr_advance_levels_args *a, const gr_bc_ctx *c) {
  return gr_cuda::advance_push_levels(dev, ws, a, LevelVisit<Mode>{*c});
}

template <class F>
gr_status advance_cuda(gr_device *dev, gr_workspace *ws, gr_advance_push_args *a, const gr_bc_ctx *c) {
  return gr_cuda::advance_push(dev, ws, a, F{*c});
}
template <class F>
gr_status for_each_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_bc_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, F{*c});
}

}  // namespace

extern "C" const gr_bc_ops gr__bc_ops_cuda = {
    {advance_cuda<ForwardVisit>, advance_cuda<ForwardVisitLog>},
    {forward_levels_cuda<GR_BC_LINEAR>, forward_levels_cuda<GR_BC_LOG>},
    {backward_levels_cuda<GR_BC_LINEAR>, backward_levels_cuda<GR_BC_LOG>},
    {for_each_cuda<BackwardCompute>, for_each_cuda<BackwardComputeLog>},
    {advance_cuda<BackwardVisit>, advance_cuda<BackwardVisitLog>},
    for_each_cuda<Scale>,
    for_each_cuda<Fill>};

GR_CUDA_PRELOAD(gr__bc_cuda_preload)
