// SPDX-License-Identifier: Apache-2.0
// CUDA instantiations of the operator test functions.
#include "operators/cuda/operators.cuh"
#include "test_ops.h"

namespace {
struct Visit {
  test_ctx c;
  __device__ bool operator()(gr_vid u, gr_vid v, gr_eid e) const { return test_visit(&c, u, v, e); }
};
struct Wanted {
  test_ctx c;
  __device__ bool operator()(gr_vid v) const { return test_wanted(&c, v); }
};
struct PullVisit {
  test_ctx c;
  __device__ bool operator()(gr_vid u, gr_vid v, gr_eid e) const { return test_pull_visit(&c, u, v, e); }
};
struct Keep {
  test_ctx c;
  __device__ bool operator()(gr_vid v) const { return test_keep(&c, v); }
};
struct LevelVisit {
  test_ctx c;
  __device__ bool operator()(int level, gr_vid u, gr_vid v, gr_eid e) const {
    return test_level_visit(&c, level, u, v, e);
  }
};
struct Klass {
  test_ctx c;
  __device__ int operator()(gr_vid v) const { return test_klass(&c, v); }
};
struct Mark {
  test_ctx c;
  __device__ void operator()(gr_vid v) const { test_mark(&c, v); }
};

gr_status push_cuda(gr_device *d, gr_workspace *ws, gr_advance_push_args *a, const test_ctx *c) {
  return gr_cuda::advance_push(d, ws, a, Visit{*c});
}
gr_status pull_cuda(gr_device *d, gr_workspace *ws, gr_advance_pull_args *a, const test_ctx *c) {
  return gr_cuda::advance_pull(d, ws, a, Wanted{*c}, PullVisit{*c});
}
gr_status filter_cuda(gr_device *d, gr_workspace *ws, gr_filter_args *a, const test_ctx *c) {
  return gr_cuda::filter(d, ws, a, Keep{*c});
}
gr_status for_each_cuda(gr_device *d, gr_workspace *ws, gr_for_each_args *a, const test_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(d, a, Mark{*c});
}
gr_status split_cuda(gr_device *d, gr_workspace *ws, gr_split_args *a, const test_ctx *c) {
  return gr_cuda::split(d, ws, a, Klass{*c});
}
gr_status levels_cuda(gr_device *d, gr_workspace *ws, gr_advance_levels_args *a, const test_ctx *c) {
  return gr_cuda::advance_push_levels(d, ws, a, LevelVisit{*c});
}
}  // namespace

extern "C" const test_ops test_ops_cuda = {push_cuda, pull_cuda, filter_cuda, for_each_cuda, split_cuda, levels_cuda};
