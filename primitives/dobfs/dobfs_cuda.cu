// SPDX-License-Identifier: Apache-2.0
// DOBFS's pull helpers on CUDA: the same per-element functions as the CPU
// backend, wrapped in functors for the operator templates.
#include "dobfs/dobfs.h"
#include "operators/cuda/operators.cuh"

namespace {

struct InFrontier {
  gr_dobfs_ctx c;
  __device__ bool operator()(gr_vid v) const { return gr_dobfs_in_frontier(&c, v); }
};

gr_status bits_cuda(gr_device *dev, gr_workspace *ws, gr_bitmap_args *a, const gr_dobfs_ctx *c) {
  (void)ws;
  return gr_cuda::bitmap(dev, a, InFrontier{*c});
}

}  // namespace

extern "C" const gr_dobfs_ops gr__dobfs_ops_cuda = {bits_cuda};

GR_CUDA_PRELOAD(gr__dobfs_cuda_preload)
