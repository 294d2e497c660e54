// SPDX-License-Identifier: Apache-2.0
// CC's operators on CUDA: the same per-element functions as the CPU backend,
// wrapped in functors for the operator templates. The remaining arcs go
// through the edge-balanced advance, so a vertex of any degree outside the
// largest component is spread over as many threads as it has arcs.
#include "cc/cc.h"
#include "operators/cuda/operators.cuh"

#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

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

// lower_root: best[root of v] lowered to v's label, as gr_cc_lower_root
// does, except for the largest tree's root (the root of c.hot), whose
// values each thread keeps the smallest of, and each block lowers it once.
// Read vertex by vertex, that root's best is one word that half the
// vertices of a device read (Kronecker 25 on 2 logical devices of an H200:
// a pass of its own took 239 us over 24 M vertices, against 56 us for a
// compress over the same vertices). Every vertex has been compressed.
__global__ void __launch_bounds__(gr_cuda::kBlock)
    lower_root_kernel(const gr_vid *__restrict__ in, gr_eid n, gr_vid first, gr_cc_ctx c) {
  __shared__ gr_svid block_least;
  if (threadIdx.x == 0) block_least = GR_SVID_MAX;
  const gr_svid h = c.vote ? *c.vote : c.hot;
  const gr_svid hot = h < 0 ? (gr_svid)-1 : c.parent[h];
  __syncthreads();
  gr_svid least = GR_SVID_MAX;
  for (gr_eid i = blockIdx.x * (gr_eid)gr_cuda::kBlock + threadIdx.x; i < n;
       i += (gr_eid)gridDim.x * gr_cuda::kBlock) {
    const gr_vid v = in ? in[i] : (gr_vid)(first + i);
    const gr_svid r = c.parent[v];
    const gr_svid x = c.label[v];
    if (r == hot) least = x < least ? x : least;
    else gr__cc_lower(&c, r, x);
  }
  if (least < GR_SVID_MAX) gr_atomic_min_svid(&block_least, least);
  __syncthreads();
  if (threadIdx.x == 0 && block_least < GR_SVID_MAX) gr__cc_lower(&c, hot, block_least);
}

struct Lookup {
  gr_cc_ctx c;
  __device__ void operator()(gr_vid i) const { gr_cc_lookup(&c, i); }
};
struct VoteRoot {
  gr_cc_ctx c;
  __device__ void operator()(gr_vid i) const { gr_cc_vote_root(&c, i); }
};
struct Settle {
  gr_cc_ctx c;
  __device__ void operator()(gr_vid v) const { gr_cc_settle(&c, v); }
};
struct TakeLabel {
  gr_cc_ctx c;
  __device__ int operator()(gr_vid v) const { return gr_cc_take_label(&c, v); }
};
struct TakeFirst {
  gr_cc_ctx c;
  __device__ int operator()(gr_vid v) const { return gr_cc_take_first(&c, v); }
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
gr_status lower_root_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_cc_ctx *c) {
  (void)ws;
  if (a->n == 0) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  lower_root_kernel<<<gr_cuda::grid_for(a->n, gr_cuda::kBlock, gr_cuda::max_blocks(dev)), gr_cuda::kBlock, 0, s>>>(
      a->in, a->n, a->first, *c);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}
gr_status take_label_cuda(gr_device *dev, gr_workspace *ws, gr_split_args *a, const gr_cc_ctx *c) {
  return gr_cuda::split(dev, ws, a, TakeLabel{*c});
}
gr_status take_first_cuda(gr_device *dev, gr_workspace *ws, gr_split_args *a, const gr_cc_ctx *c) {
  return gr_cuda::split(dev, ws, a, TakeFirst{*c});
}

// The vote (gr_cc_mode's choice) in one block: the samples sorted, each
// run's start found by a max-scan of the starts, the longest run (the
// first of equal ones: the smallest root) by a reduction of (length,
// -start). On the host it was a read of the samples and a sort there,
// which the next pass waited for.
constexpr int kVoteThreads = 256;
constexpr int kVoteItems = GR_CC_SAMPLES / kVoteThreads;
static_assert(kVoteThreads * kVoteItems == GR_CC_SAMPLES, "the vote's block holds every sample");

struct Larger {
  template <class T>
  __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};

__global__ void __launch_bounds__(kVoteThreads) vote_kernel(gr_svid *samples) {
  using Sort = cub::BlockRadixSort<gr_svid, kVoteThreads, kVoteItems>;
  using Scan = cub::BlockScan<int, kVoteThreads>;
  using Reduce = cub::BlockReduce<unsigned long long, kVoteThreads>;
  __shared__ union {
    typename Sort::TempStorage sort;
    typename Scan::TempStorage scan;
    typename Reduce::TempStorage reduce;
  } tmp;
  __shared__ gr_svid sorted[GR_CC_SAMPLES];
  gr_svid keys[kVoteItems];
  const int base = threadIdx.x * kVoteItems;
  for (int i = 0; i < kVoteItems; i++) keys[i] = samples[base + i];
  Sort(tmp.sort).Sort(keys);
  for (int i = 0; i < kVoteItems; i++) sorted[base + i] = keys[i];
  __syncthreads();
  int start[kVoteItems];
  for (int i = 0; i < kVoteItems; i++) {
    const int at = base + i;
    start[i] = at == 0 || sorted[at - 1] != sorted[at] ? at : 0;
  }
  Scan(tmp.scan).InclusiveScan(start, start, Larger());
  __syncthreads();
  unsigned long long best = 0;
  for (int i = 0; i < kVoteItems; i++) {
    const int at = base + i;
    if (at + 1 < GR_CC_SAMPLES && sorted[at + 1] == sorted[at]) continue;
    const unsigned long long run = (unsigned long long)(at - start[i] + 1);
    const unsigned long long key = run << 32 | (unsigned long long)(GR_CC_SAMPLES - 1 - start[i]);
    if (key > best) best = key;
  }
  best = Reduce(tmp.reduce).Reduce(best, Larger());
  if (threadIdx.x == 0) samples[GR_CC_SAMPLES] = sorted[GR_CC_SAMPLES - 1 - (int)(best & 0xffffffffu)];
}

gr_status vote_cuda(gr_device *dev, gr_workspace *ws, const gr_cc_ctx *c) {
  (void)ws;
  vote_kernel<<<1, kVoteThreads, 0, (cudaStream_t)gr_device_stream(dev)>>>(c->samples);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

gr_status lookup_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_cc_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, Lookup{*c});
}
gr_status vote_root_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_cc_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, VoteRoot{*c});
}
gr_status settle_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_cc_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, Settle{*c});
}
struct CopyHot {
  gr_cc_ctx c;
  __device__ void operator()(gr_vid v) const { gr_cc_copy_hot(&c, v); }
};
gr_status copy_hot_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_cc_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, CopyHot{*c});
}

struct Pair {
  gr_cc_ctx c;
  __device__ int operator()(gr_vid v) const { return gr_cc_pair(&c, v); }
};
struct Pack {
  gr_cc_ctx c;
  __device__ void operator()(gr_vid i) const { gr_cc_pack(&c, i); }
};

gr_status pair_cuda(gr_device *dev, gr_workspace *ws, gr_split_args *a, const gr_cc_ctx *c) {
  return gr_cuda::split(dev, ws, a, Pair{*c});
}
gr_status pack_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_cc_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, Pack{*c});
}

// The merge (gr_cc_merge_args): the table cleared, the labels put in,
// the pairs joined; on the device, nothing read. Kernels of their own,
// not gr_cuda::for_each's, so that a timeline names each step apart from
// Afforest's passes.
__global__ void merge_init_kernel(gr_cc_merge_args m, gr_eid slots) {
  for (gr_eid i = blockIdx.x * (gr_eid)blockDim.x + threadIdx.x; i < slots; i += (gr_eid)gridDim.x * blockDim.x)
    gr_cc_merge_init(&m, i);
}
__global__ void merge_insert_kernel(gr_cc_merge_args m) {
  for (gr_eid i = blockIdx.x * (gr_eid)blockDim.x + threadIdx.x; i < 2 * m.n_pairs;
       i += (gr_eid)gridDim.x * blockDim.x)
    gr_cc_merge_insert(&m, i);
}
__global__ void merge_link_kernel(gr_cc_merge_args m) {
  for (gr_eid i = blockIdx.x * (gr_eid)blockDim.x + threadIdx.x; i < m.n_pairs; i += (gr_eid)gridDim.x * blockDim.x)
    gr_cc_merge_link(&m, i);
}

gr_status merge_cuda(gr_device *dev, gr_workspace *ws, const gr_cc_merge_args *m) {
  (void)ws;
  if (!m->n_pairs) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  const gr_eid slots = (gr_eid)1 << m->bits;
  const unsigned cap = gr_cuda::max_blocks(dev);
  merge_init_kernel<<<gr_cuda::grid_for(slots, gr_cuda::kBlock, cap), gr_cuda::kBlock, 0, s>>>(*m, slots);
  GR_CUDA_CHECK_LAUNCH(dev);
  merge_insert_kernel<<<gr_cuda::grid_for(2 * m->n_pairs, gr_cuda::kBlock, cap), gr_cuda::kBlock, 0, s>>>(*m);
  GR_CUDA_CHECK_LAUNCH(dev);
  merge_link_kernel<<<gr_cuda::grid_for(m->n_pairs, gr_cuda::kBlock, cap), gr_cuda::kBlock, 0, s>>>(*m);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

// gr_cc_merge_apply over a list (a split's input); the first thread also
// takes the largest tree's root, which no list holds.
__global__ void __launch_bounds__(gr_cuda::kBlock)
    merge_apply_kernel(const gr_vid *__restrict__ in, gr_eid n, gr_vid first, gr_eid n_first, gr_cc_ctx c) {
  const gr_eid t = blockIdx.x * (gr_eid)gr_cuda::kBlock + threadIdx.x;
  if (t == 0 && c.hot_root >= 0) gr_cc_merge_apply(&c, (gr_vid)c.hot_root);
  for (gr_eid i = t; i < n; i += (gr_eid)gridDim.x * gr_cuda::kBlock)
    gr_cc_merge_apply(&c, gr_split_item(in, first, n_first, i));
}

gr_status merge_apply_cuda(gr_device *dev, gr_workspace *ws, const gr_split_args *a, const gr_cc_ctx *c) {
  (void)ws;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  const gr_eid n = a->n_in ? a->n_in : 1;
  merge_apply_kernel<<<gr_cuda::grid_for(n, gr_cuda::kBlock, gr_cuda::max_blocks(dev)), gr_cuda::kBlock, 0, s>>>(
      a->in, a->n_in, a->first, a->n_first, *c);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

}  // namespace

extern "C" const gr_cc_ops gr__cc_ops_cuda = {init_cuda,          link_round_cuda, compress_cuda,   sample_cuda,
                                              needs_rest_cuda,    link_arcs_cuda,
                                              lower_root_cuda,    take_label_cuda, take_first_cuda,
                                              lookup_cuda,        vote_root_cuda,  settle_cuda,
                                              copy_hot_cuda,      vote_cuda,
                                              pair_cuda,          pack_cuda,       merge_cuda,
                                              merge_apply_cuda};

GR_CUDA_PRELOAD(gr__cc_cuda_preload)
