// SPDX-License-Identifier: Apache-2.0
// Reach's operators on CUDA: the same per-element function as the CPU
// backend, wrapped in a functor for the operator template.
#include "_template/reach.h"
#include "operators/cuda/operators.cuh"

namespace {

struct Visit {
  gr_reach_ctx c;
  __device__ bool operator()(gr_vid u, gr_vid v, gr_eid e) const { return gr_reach_visit(&c, u, v, e); }
};

gr_status push_cuda(gr_device *dev, gr_workspace *ws, gr_advance_push_args *a, const gr_reach_ctx *c) {
  return gr_cuda::advance_push(dev, ws, a, Visit{*c});
}

}  // namespace

extern "C" const gr_reach_ops gr__reach_ops_cuda = {push_cuda};

GR_CUDA_PRELOAD(gr__reach_cuda_preload)
