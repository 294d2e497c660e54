// SPDX-License-Identifier: Apache-2.0
// CUDA instantiations of the operator test functions.
#include <cuda.h>

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
struct Flagged {
  const uint8_t *flags;
  __device__ bool operator()(gr_vid v) const { return flags[v] != 0; }
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

// Decodes every edge of a packed CSR through gr_cuda::PackedLists in the
// lane patterns the operators use, each edge written once to out[e].
__global__ void decode_kernel(gr_cuda::PackedLists lists, const gr_eid *offsets, gr_vid n, gr_eid m, int pattern,
                              gr_vid *out) {
  const unsigned lane = threadIdx.x & 31u;
  const gr_eid warp = (blockIdx.x * (gr_eid)blockDim.x + threadIdx.x) >> 5;
  const gr_eid warps = ((gr_eid)gridDim.x * blockDim.x) >> 5;
  if (pattern == 0) {
    // Edge-balanced with an offset: 32 consecutive edges per warp, across
    // rows, starting mid-block (lane 0 seeds from the warp's sum).
    for (gr_eid base = warp * 32; base < m + 32; base += warps * 32) {
      const gr_eid e = base + lane >= 7 ? base + lane - 7 : m;  // 7: every warp but the first starts mid-block
      const bool valid = e < m;
      const gr_vid row = valid ? gr_packed_row_of(offsets, n, e) : 0;
      const gr_eid s = valid ? offsets[row] : 0;
      const gr_vid v = lists.warp_id(valid, row, s, e, valid && lane && e != s, false, 0);
      if (valid) out[e] = v;
    }
  } else if (pattern == 1) {
    // A warp per row, rounds aligned to blocks.
    for (gr_eid r = warp; r < n; r += warps) {
      const gr_eid b = offsets[r], end = offsets[r + 1];
      for (gr_eid at = gr_cuda::PackedLists::align(b); at < end; at += 32) {
        const gr_eid e = at + lane;
        const bool valid = e >= b && e < end;
        const gr_vid v = lists.warp_id(valid, (gr_vid)r, b, e, valid && lane && e > b, false, 0);
        if (valid) out[e] = v;
      }
    }
  } else if (pattern == 2 || pattern == 3) {
    // Groups of G lanes per row striding its edges, the group's first lane
    // carrying on from its last (G = 4, or 1: a lane per row).
    const int G = pattern == 2 ? 4 : 1, sub = (int)lane % G;
    const gr_eid per = 32 / G;
    for (gr_eid base = warp * per; base < n + per; base += warps * per) {
      const gr_eid r = base + lane / G;
      const bool has = r < n;
      const gr_eid b = has ? offsets[r] : 0, d = has ? offsets[r + 1] - b : 0;
      gr_eid most = (d + G - 1) / G;
      for (int o = 16; o; o >>= 1) {
        const gr_eid other = __shfl_xor_sync(gr_cuda::kFullMask, most, o);
        most = other > most ? other : most;
      }
      gr_vid last = 0;
      for (gr_eid k = 0; k < most; k++) {
        const gr_eid i = k * G + sub;
        const bool valid = i < d;
        const gr_vid v = lists.warp_id(valid, (gr_vid)r, b, b + i, valid && sub > 0, k > 0 && sub == 0, last);
        last = __shfl_sync(gr_cuda::kFullMask, v, (int)lane | (G - 1));
        if (valid) out[b + i] = v;
      }
    }
  } else {
    // A thread per row, through a cursor.
    for (gr_eid r = blockIdx.x * (gr_eid)blockDim.x + threadIdx.x; r < n; r += (gr_eid)gridDim.x * blockDim.x) {
      gr_cuda::PackedLists::Cursor c;
      lists.begin(c, (gr_vid)r, offsets[r]);
      for (gr_eid e = offsets[r]; e < offsets[r + 1]; e++) out[e] = lists.at(c, e);
    }
  }
}

}  // namespace

extern "C" gr_status test_packed_decode_cuda(gr_device *dev, const gr_csr *g, int pattern, gr_vid *out) {
  if (!g->packed) return gr_errorf(GR_ERR_INVALID_ARG, "test_packed_decode_cuda: lists not packed");
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  decode_kernel<<<96, 128, 0, s>>>(gr_cuda::PackedLists{*g->packed}, g->offsets, g->n, g->m, pattern, out);
  GR_CUDA_CHECK_LAUNCH(dev);
  return gr_device_sync(dev);
}

extern "C" gr_status test_bitmap_cuda(gr_device *dev, gr_vid n, const uint8_t *flags, uint32_t *bits, bool keep) {
  gr_bitmap_args a = {n, bits, keep};
  GR_CHECK(gr_cuda::bitmap(dev, &a, Flagged{flags}));
  return gr_device_sync(dev);
}

extern "C" const test_ops test_ops_cuda = {push_cuda, pull_cuda, filter_cuda, for_each_cuda, split_cuda, levels_cuda};

GR_CUDA_PRELOAD(test_ops_cuda_preload)

// Asks the driver itself, through the runtime's entry points, as
// gr_device_preload does: a test of the preload must not trust its code.
extern "C" int test_ops_cuda_unloaded(int *total) {
#if CUDART_VERSION < 12050
  (void)total;
  return -1;
#else
  typedef CUresult (*get_module_fn)(CUmodule *, CUfunction);
  typedef CUresult (*count_fn)(unsigned int *, CUmodule);
  typedef CUresult (*enumerate_fn)(CUfunction *, unsigned int, CUmodule);
  typedef CUresult (*is_loaded_fn)(CUfunctionLoadingState *, CUfunction);
  void *p[4] = {nullptr, nullptr, nullptr, nullptr};
  const char *names[4] = {"cuFuncGetModule", "cuModuleGetFunctionCount", "cuModuleEnumerateFunctions",
                          "cuFuncIsLoaded"};
  for (int i = 0; i < 4; i++) {
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion(names[i], &p[i], 12040, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess)
      return -1;
  }
  // Any kernel of this file names its module; the anchor's loading is the
  // one this query causes.
  cudaFunction_t f = nullptr;
  if (cudaGetFuncBySymbol(&f, (const void *)test_ops_cuda_preload_anchor) != cudaSuccess) return -1;
  CUmodule mod = nullptr;
  unsigned n = 0;
  if (((get_module_fn)p[0])(&mod, (CUfunction)f) != CUDA_SUCCESS || ((count_fn)p[1])(&n, mod) != CUDA_SUCCESS)
    return -1;
  CUfunction fs[1024];
  if (n > 1024 || ((enumerate_fn)p[2])(fs, n, mod) != CUDA_SUCCESS) return -1;
  int unloaded = 0;
  for (unsigned i = 0; i < n; i++) {
    CUfunctionLoadingState st = CU_FUNCTION_LOADING_STATE_LOADED;
    if (((is_loaded_fn)p[3])(&st, fs[i]) != CUDA_SUCCESS) return -1;
    unloaded += st != CU_FUNCTION_LOADING_STATE_LOADED;
  }
  *total = (int)n;
  return unloaded;
#endif
}
