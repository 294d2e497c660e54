// SPDX-License-Identifier: Apache-2.0
// BC's operators on CUDA: the same per-element functions as the CPU
// backend, wrapped in functors for the operator templates (the
// load-balanced push advance for both passes, filter and for-each).
#include "bc/bc.h"
#include "operators/cuda/operators.cuh"

namespace {

struct ForwardVisit {
  gr_bc_ctx c;
  __device__ bool operator()(gr_vid u, gr_vid v, gr_eid e) const { return gr_bc_forward_visit(&c, u, v, e); }
};
struct ForwardPublish {
  gr_bc_ctx c;
  __device__ void operator()(gr_vid v) const { gr_bc_forward_publish(&c, v); }
};
struct ForwardMerge {
  gr_bc_ctx c;
  __device__ bool operator()(gr_vid v) const { return gr_bc_forward_merge(&c, v); }
};
struct BackwardCompute {
  gr_bc_ctx c;
  __device__ void operator()(gr_vid v) const { gr_bc_backward_compute(&c, v); }
};
struct BackwardVisit {
  gr_bc_ctx c;
  __device__ bool operator()(gr_vid w, gr_vid v, gr_eid e) const { return gr_bc_backward_visit(&c, w, v, e); }
};
struct BackwardPublish {
  gr_bc_ctx c;
  __device__ void operator()(gr_vid v) const { gr_bc_backward_publish(&c, v); }
};
struct BackwardMerge {
  gr_bc_ctx c;
  __device__ void operator()(gr_vid v) const { gr_bc_backward_merge(&c, v); }
};
struct Scale {
  gr_bc_ctx c;
  __device__ void operator()(gr_vid v) const { gr_bc_scale(&c, v); }
};

gr_status forward_cuda(gr_device *dev, gr_workspace *ws, gr_advance_push_args *a, const gr_bc_ctx *c) {
  return gr_cuda::advance_push(dev, ws, a, ForwardVisit{*c});
}
gr_status forward_publish_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_bc_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, ForwardPublish{*c});
}
gr_status forward_merge_cuda(gr_device *dev, gr_workspace *ws, gr_filter_args *a, const gr_bc_ctx *c) {
  return gr_cuda::filter(dev, ws, a, ForwardMerge{*c});
}
gr_status backward_compute_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_bc_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, BackwardCompute{*c});
}
gr_status backward_cuda(gr_device *dev, gr_workspace *ws, gr_advance_push_args *a, const gr_bc_ctx *c) {
  return gr_cuda::advance_push(dev, ws, a, BackwardVisit{*c});
}
gr_status backward_publish_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_bc_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, BackwardPublish{*c});
}
gr_status backward_merge_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_bc_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, BackwardMerge{*c});
}
gr_status scale_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_bc_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, Scale{*c});
}

}  // namespace

extern "C" const gr_bc_ops gr__bc_ops_cuda = {forward_cuda,          forward_publish_cuda, forward_merge_cuda,
                                              backward_compute_cuda, backward_cuda,        backward_publish_cuda,
                                              backward_merge_cuda,   scale_cuda};
