// SPDX-License-Identifier: Apache-2.0
// BFS's operators on CUDA: the same per-element functions as the CPU
// backend, wrapped in functors for the operator templates.
#include "bfs/bfs.h"
#include "operators/cuda/operators.cuh"

namespace {

struct Visit {
  gr_bfs_ctx c;
  __device__ bool operator()(gr_vid u, gr_vid v, gr_eid e) const { return gr_bfs_visit(&c, u, v, e); }
};
struct IdemVisit {
  gr_bfs_ctx c;
  __device__ bool operator()(gr_vid u, gr_vid v, gr_eid e) const { return gr_bfs_visit_idem(&c, u, v, e); }
};
struct Unvisited {
  gr_bfs_ctx c;
  __device__ bool operator()(gr_vid v) const { return gr_bfs_unvisited(&c, v); }
};
struct Reached {
  gr_bfs_ctx c;
  __device__ bool operator()(gr_vid v) const { return gr_bfs_reached(&c, v); }
};
struct PullVisit {
  gr_bfs_ctx c;
  __device__ bool operator()(gr_vid u, gr_vid v, gr_eid e) const {
    return gr_bfs_pull_visit(&c, u, v, e);
  }
};

// The depth a level assigns is its number plus one. The loop's levels are
// small and latency-bound: a bitmap test in front of the depth would add a
// dependent load to every level (4% on the 4096^2 grid), so the loop skips
// the bitmap; the few vertices it claims are found through depth later.
struct LevelVisit {
  gr_bfs_ctx c;
  __device__ bool operator()(int level, gr_vid u, gr_vid v, gr_eid e) const {
    gr_bfs_ctx k = c;
    k.next = (gr_svid)level + 1;
    k.visited = nullptr;
    return gr_bfs_visit(&k, u, v, e);
  }
};

gr_status push_cuda(gr_device *dev, gr_workspace *ws, gr_advance_push_args *a, const gr_bfs_ctx *c) {
  return gr_cuda::advance_push(dev, ws, a, Visit{*c});
}

gr_status push_idem_cuda(gr_device *dev, gr_workspace *ws, gr_advance_push_args *a, const gr_bfs_ctx *c) {
  return gr_cuda::advance_push(dev, ws, a, IdemVisit{*c});
}

gr_status pull_cuda(gr_device *dev, gr_workspace *ws, gr_advance_pull_args *a, const gr_bfs_ctx *c) {
  return gr_cuda::advance_pull(dev, ws, a, Unvisited{*c}, PullVisit{*c});
}

gr_status levels_cuda(gr_device *dev, gr_workspace *ws, gr_advance_levels_args *a, const gr_bfs_ctx *c) {
  return gr_cuda::advance_push_levels(dev, ws, a, LevelVisit{*c});
}

gr_status visited_bits_cuda(gr_device *dev, gr_workspace *ws, gr_bitmap_args *a, const gr_bfs_ctx *c) {
  (void)ws;
  return gr_cuda::bitmap(dev, a, Reached{*c});
}

}  // namespace

extern "C" const gr_bfs_ops gr__bfs_ops_cuda = {push_cuda, pull_cuda, levels_cuda, push_idem_cuda, visited_bits_cuda};

GR_CUDA_PRELOAD(gr__bfs_cuda_preload)
