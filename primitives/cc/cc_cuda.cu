// SPDX-License-Identifier: Apache-2.0
// CC's operators on CUDA: the same per-element functions as the CPU backend,
// wrapped in functors for the operator templates. The remaining arcs go
// through the edge-balanced advance, so a vertex of any degree outside the
// largest component is spread over as many threads as it has arcs.
#include "cc/cc.h"
#include "operators/cuda/operators.cuh"

namespace {

struct Init {
  gr_cc_ctx c;
  __device__ void operator()(gr_vid v) const { gr_cc_init_vertex(&c, v); }
};
struct LinkRound {
  gr_cc_ctx c;
  __device__ void operator()(gr_vid v) const { gr_cc_link_round(&c, v); }
};
struct Compress {
  gr_cc_ctx c;
  __device__ void operator()(gr_vid v) const { gr_cc_compress(&c, v); }
};
struct Sample {
  gr_cc_ctx c;
  __device__ void operator()(gr_vid i) const { gr_cc_sample(&c, i); }
};
struct NeedsRest {
  gr_cc_ctx c;
  __device__ bool operator()(gr_vid v) const { return gr_cc_needs_rest(&c, v); }
};
struct LinkArc {
  gr_cc_ctx c;
  __device__ bool operator()(gr_vid u, gr_vid v, gr_eid e) const { return gr_cc_link_arc(&c, u, v, e); }
};
struct BestOfTree {
  gr_cc_ctx c;
  __device__ void operator()(gr_vid v) const { gr_cc_best_of_tree(&c, v); }
};
struct LowerRoot {
  gr_cc_ctx c;
  __device__ void operator()(gr_vid v) const { gr_cc_lower_root(&c, v); }
};
struct TakeLabel {
  gr_cc_ctx c;
  __device__ int operator()(gr_vid v) const { return gr_cc_take_label(&c, v); }
};

gr_status init_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_cc_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, Init{*c});
}
gr_status link_round_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_cc_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, LinkRound{*c});
}
gr_status compress_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_cc_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, Compress{*c});
}
gr_status sample_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_cc_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, Sample{*c});
}
gr_status needs_rest_cuda(gr_device *dev, gr_workspace *ws, gr_filter_args *a, const gr_cc_ctx *c) {
  return gr_cuda::filter(dev, ws, a, NeedsRest{*c});
}
gr_status link_arcs_cuda(gr_device *dev, gr_workspace *ws, gr_advance_push_args *a, const gr_cc_ctx *c) {
  return gr_cuda::advance_push(dev, ws, a, LinkArc{*c});
}
gr_status best_of_tree_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_cc_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, BestOfTree{*c});
}
gr_status lower_root_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_cc_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, LowerRoot{*c});
}
gr_status take_label_cuda(gr_device *dev, gr_workspace *ws, gr_split_args *a, const gr_cc_ctx *c) {
  return gr_cuda::split(dev, ws, a, TakeLabel{*c});
}

}  // namespace

extern "C" const gr_cc_ops gr__cc_ops_cuda = {init_cuda,       link_round_cuda, compress_cuda,
                                              sample_cuda,     needs_rest_cuda, link_arcs_cuda,
                                              best_of_tree_cuda, lower_root_cuda, take_label_cuda};
