// SPDX-License-Identifier: Apache-2.0
// BC's operators on CUDA: the same per-element functions as the CPU
// backend, wrapped in functors for the operator templates (the
// load-balanced push advance for both passes, filter and for-each).
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
#define GR__BC_KEEP(Name, fn)                                          \
  struct Name {                                                        \
    gr_bc_ctx c;                                                       \
    __device__ bool operator()(gr_vid v) const { return fn(&c, v); } \
  };
#define GR__BC_EACH(Name, fn)                                   \
  struct Name {                                                 \
    gr_bc_ctx c;                                                \
    __device__ void operator()(gr_vid v) const { fn(&c, v); } \
  };

GR__BC_VISIT(ForwardVisit, gr_bc_forward_visit)
GR__BC_VISIT(ForwardVisitLog, gr_bc_forward_visit_log)
GR__BC_EACH(ForwardPublish, gr_bc_forward_publish)
GR__BC_KEEP(ForwardMerge, gr_bc_forward_merge)
GR__BC_KEEP(ForwardMergeLog, gr_bc_forward_merge_log)
GR__BC_EACH(BackwardCompute, gr_bc_backward_compute)
GR__BC_EACH(BackwardComputeLog, gr_bc_backward_compute_log)
GR__BC_VISIT(BackwardVisit, gr_bc_backward_visit)
GR__BC_VISIT(BackwardVisitLog, gr_bc_backward_visit_log)
GR__BC_EACH(BackwardPublish, gr_bc_backward_publish)
GR__BC_EACH(BackwardPublishLog, gr_bc_backward_publish_log)
GR__BC_EACH(BackwardMerge, gr_bc_backward_merge)
GR__BC_EACH(BackwardMergeLog, gr_bc_backward_merge_log)
GR__BC_EACH(Scale, gr_bc_scale)
GR__BC_EACH(Fill, gr_bc_fill)

template <class F>
gr_status advance_cuda(gr_device *dev, gr_workspace *ws, gr_advance_push_args *a, const gr_bc_ctx *c) {
  return gr_cuda::advance_push(dev, ws, a, F{*c});
}
template <class F>
gr_status filter_cuda(gr_device *dev, gr_workspace *ws, gr_filter_args *a, const gr_bc_ctx *c) {
  return gr_cuda::filter(dev, ws, a, F{*c});
}
template <class F>
gr_status for_each_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_bc_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, F{*c});
}

}  // namespace

extern "C" const gr_bc_ops gr__bc_ops_cuda = {
    {advance_cuda<ForwardVisit>, advance_cuda<ForwardVisitLog>},
    for_each_cuda<ForwardPublish>,
    {filter_cuda<ForwardMerge>, filter_cuda<ForwardMergeLog>},
    {for_each_cuda<BackwardCompute>, for_each_cuda<BackwardComputeLog>},
    {advance_cuda<BackwardVisit>, advance_cuda<BackwardVisitLog>},
    {for_each_cuda<BackwardPublish>, for_each_cuda<BackwardPublishLog>},
    {for_each_cuda<BackwardMerge>, for_each_cuda<BackwardMergeLog>},
    for_each_cuda<Scale>,
    for_each_cuda<Fill>};
