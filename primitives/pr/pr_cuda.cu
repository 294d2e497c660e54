// SPDX-License-Identifier: Apache-2.0
// PageRank's operators on CUDA. The per-element functions are the CPU
// backend's; the pull goes tile by tile (pr.h's plan): a block gathers a
// tile's contributions into shared memory with all the tile's loads in
// flight, then sums its rows from there; chunks of heavy rows are tiles
// whose block sums meet in heavy_sum, finished by one thread per heavy
// row. Sums are double per row; each block adds its part of the change and
// the dangling rank to two device doubles, read once per step.
#include <cub/block/block_reduce.cuh>
#include <type_traits>

#include "operators/cuda/operators.cuh"
#include "pr/pr.h"

namespace {

constexpr int kBlock = gr_cuda::kBlock;

struct Init {
  gr_pr_ctx c;
  __device__ void operator()(gr_vid v) const { gr_pr_init_vertex(&c, v); }
};
struct Publish {
  gr_pr_ctx c;
  __device__ void operator()(gr_vid v) const { gr_pr_publish(&c, v); }
};
struct PushOut {
  gr_pr_ctx c;
  __device__ void operator()(gr_vid v) const { gr_pr_push_out(&c, v); }
};
struct PushVisit {
  gr_pr_ctx c;
  __device__ bool operator()(gr_vid u, gr_vid v, gr_eid e) const { return gr_pr_push_visit(&c, u, v, e); }
};

struct Pair {
  double l1, dangling;
};
struct AddPair {
  __device__ Pair operator()(const Pair &x, const Pair &y) const { return Pair{x.l1 + y.l1, x.dangling + y.dangling}; }
};

// The block's share of the change and the dangling rank, added once.
__device__ __forceinline__ void block_add(double l1, double dangling, double *sums) {
  using Reduce = cub::BlockReduce<Pair, kBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  const Pair p = Reduce(tmp).Reduce(Pair{l1, dangling}, AddPair());
  if (threadIdx.x == 0) {
    atomicAdd(&sums[0], p.l1);
    atomicAdd(&sums[1], p.dangling);
  }
}

// Where a pull step gathers from: the in-edge ids and the contributions
// (the CSC's ids, plain or packed, and contrib, or the relabelled copy and
// the contributions in position order: pr.h), and the first position read
// past L1.
template <class Lists>
struct Src {
  Lists lists;
  const float *__restrict__ con;
  gr_vid hot;
  gr_vid n_hub;  // positions below it are read from the block's shared copy
};

// A contribution: a hub's through L1 (the read-only path), anything else
// from L2 only, so that the tail's one-off reads do not evict the hubs.
template <class Lists>
__device__ __forceinline__ float gather(const Src<Lists> &src, const float *hub, gr_vid u) {
  return u < src.n_hub ? hub[u] : u < src.hot ? __ldg(src.con + u) : __ldcg(src.con + u);
}

// The relabelled pull's contributions in position order, after the
// exchange filled the proxies' slots.
__global__ void __launch_bounds__(kBlock)
    order_contrib_kernel(float *__restrict__ sorted, const float *__restrict__ contrib,
                         const gr_vid *__restrict__ order, gr_vid n) {
  for (gr_eid i = blockIdx.x * (gr_eid)kBlock + threadIdx.x; i < n; i += (gr_eid)gridDim.x * kBlock)
    sorted[i] = __ldg(contrib + order[i]);
}

__global__ void relabel_kernel(gr_vid *__restrict__ ids, const gr_vid *__restrict__ src,
                               const gr_vid *__restrict__ position, gr_eid m) {
  for (gr_eid e = blockIdx.x * (gr_eid)kBlock + threadIdx.x; e < m; e += (gr_eid)gridDim.x * kBlock)
    ids[e] = position[src[e]];
}

// A tile of consecutive rows (pr.h, GR_PR_TILE). Kernel times on
// Kronecker 22 (one H100) showed the pull latency-bound (warps waiting on
// long scoreboards, L2 half busy, DRAM 10%), so a tile issues every load it
// needs at once: its in-edge ids were loaded while the previous tile was
// summed (kPer per thread, kept in registers), its gathers and its rows'
// offsets, old ranks and out-degrees go to shared memory together; then the
// block sums the rows from there, 32 rows per warp at a time: a lane per
// row of at most kLong in-edges, the whole warp (lanes stride, a shuffle
// sum) for each longer one. Rows of a tile are consecutive, so every
// per-row access is coalesced.
constexpr int kTilePer = GR_PR_TILE / kBlock;
constexpr unsigned kLong = 16;
static_assert(GR_PR_TILE % kBlock == 0, "a tile is whole loads of the block");

// A tile's rows [r0, r1) and in-edges [e0, e0 + cnt); a chunk of heavy
// row `heavy` has no rows of its own (r0 = r1 = the heavy row's vertex,
// which a packed list's decode needs).
struct Tile {
  gr_vid r0, r1;
  gr_eid e0, cnt;
  gr_eid heavy;
};
constexpr gr_eid kNotHeavy = ~(gr_eid)0;

__device__ __forceinline__ Tile tile_at(const gr_pr_ctx &c, const gr_vid *__restrict__ lo,
                                        const gr_vid *__restrict__ hi, const gr_vid *__restrict__ heavy, gr_eid t) {
  Tile x;
  const gr_vid l = lo[t], h = hi[t];
  if (h & GR_PR_CHUNK_TILE) {
    const gr_vid v = heavy[l];
    const gr_eid end = c.in_offsets[v + 1];
    x.r0 = x.r1 = v;
    x.e0 = c.in_offsets[v] + (gr_eid)(h & ~GR_PR_CHUNK_TILE) * GR_PR_TILE;
    x.cnt = end - x.e0 < (gr_eid)GR_PR_TILE ? end - x.e0 : (gr_eid)GR_PR_TILE;
    x.heavy = l;
  } else {
    x.r0 = l;
    x.r1 = h;
    x.e0 = c.in_offsets[l];
    x.cnt = c.in_offsets[h] - x.e0;
    x.heavy = kNotHeavy;
  }
  return x;
}

__device__ __forceinline__ void load_ids(const Src<gr_cuda::PlainLists> &src, const Tile &x, gr_vid (&u)[kTilePer]) {
#pragma unroll
  for (int j = 0; j < kTilePer; j++) {
    const gr_eid k = threadIdx.x + (gr_eid)j * kBlock;
    u[j] = k < x.cnt ? __ldcs(src.lists.idx + x.e0 + k) : 0;
  }
}

// Packed lists: a warp decodes 32 consecutive in-edges of the tile at a
// time (lists.cuh's warp_id), which needs each edge's row and the row's
// first edge: a chunk's row is its heavy row; a row tile's come from its
// row_at (filled, and the block synchronised, before this), searched from
// the row the slot before found (a thread's slots go up in edge order).
__device__ __forceinline__ void decode_ids(const Src<gr_cuda::PackedLists> &src, const gr_pr_ctx &c, const Tile &x,
                                           const unsigned *row_at, gr_vid (&u)[kTilePer]) {
  const unsigned lane = threadIdx.x & 31u;
  const bool chunk = x.heavy != kNotHeavy;
  const gr_eid chunk_start = chunk ? c.in_offsets[x.r0] : 0;
  const gr_vid last_row = x.r1 > x.r0 ? x.r1 - x.r0 - 1 : 0;
  gr_vid lo = 0;
#pragma unroll
  for (int j = 0; j < kTilePer; j++) {
    const gr_eid k = threadIdx.x + (gr_eid)j * kBlock;
    const bool valid = k < x.cnt;
    gr_vid row = x.r0;
    gr_eid s = chunk_start;
    if (valid && !chunk) {
      // The last row whose first in-edge is at or before k: the non-empty
      // row holding it (empty rows share their start with the next).
      gr_vid hi = last_row;
      while (lo < hi) {
        const gr_vid mid = lo + (hi - lo + 1) / 2;
        if (row_at[mid] <= (unsigned)k) lo = mid;
        else hi = mid - 1;
      }
      row = x.r0 + lo;
      s = x.e0 + row_at[lo];
    }
    const gr_eid e = x.e0 + k;
    u[j] = src.lists.warp_id(valid, row, s, e, valid && lane && e != s, false, 0);
  }
}

// The rows' first in-edges (from the tile's first), old ranks and sinks
// into shared memory.
__device__ __forceinline__ void load_rows(const gr_pr_ctx &c, const Tile &x, unsigned *row_at, float *old_rank,
                                          unsigned char *sink) {
  const gr_vid rows = x.r1 - x.r0;
  for (gr_vid i = threadIdx.x; x.heavy == kNotHeavy && i <= rows; i += kBlock) {
    const gr_vid v = x.r0 + i;
    row_at[i] = (unsigned)(c.in_offsets[v] - x.e0);
    if (i < rows) {
      old_rank[i] = c.rank[v];
      sink[i] = c.out_offsets[v + 1] == c.out_offsets[v];
    }
  }
}

// Three blocks per SM (registers held to 80 per thread): measured on one
// H100 against two (103 registers) and four (64, with spills) per SM:
// Kronecker 22 1.13 / 1.08 / 1.35 ms per iteration, uniform 22 1.65 / 1.99
// / 2.00, the 4096^2 grid 0.64 / 0.97 / 0.77.
//
// With packed lists a tile's ids decode only once its rows are known, so
// they are not loaded ahead while the tile before is summed: the rows
// first, a barrier, then the decode and the gathers.
template <class Lists>
__global__ void __launch_bounds__(kBlock, 3)
    pull_tiles_kernel(gr_pr_ctx c, Src<Lists> src, const gr_vid *__restrict__ tile_lo,
                      const gr_vid *__restrict__ tile_hi, const gr_vid *__restrict__ heavy, gr_eid n_tiles,
                      double *__restrict__ heavy_sum) {
  constexpr bool kPacked = std::is_same<Lists, gr_cuda::PackedLists>::value;
  __shared__ float val[GR_PR_TILE];
  __shared__ unsigned row_at[GR_PR_TILE_ROWS + 1];  // a row's first in-edge, from the tile's first
  __shared__ float old_rank[GR_PR_TILE_ROWS];
  __shared__ unsigned char sink[GR_PR_TILE_ROWS];   // no out-edges: a dangling vertex
  extern __shared__ float hub[];                    // the first n_hub positions' contributions
  double l1 = 0, dangling = 0;
  const unsigned lane = threadIdx.x & 31u;
  gr_eid t = blockIdx.x;
  if (t >= n_tiles) {
    block_add(l1, dangling, c.sums);
    return;
  }
  Tile x = tile_at(c, tile_lo, tile_hi, heavy, t);
  gr_vid u[kTilePer];
  if constexpr (!kPacked) load_ids(src, x, u);
  for (gr_vid i = threadIdx.x; i < src.n_hub; i += kBlock) hub[i] = __ldcg(src.con + i);
  __syncthreads();
  for (;;) {
    if constexpr (kPacked) {
      load_rows(c, x, row_at, old_rank, sink);
      __syncthreads();
      decode_ids(src, c, x, row_at, u);
    }
    float a[kTilePer];
#pragma unroll
    for (int j = 0; j < kTilePer; j++) {
      const gr_eid k = threadIdx.x + (gr_eid)j * kBlock;
      a[j] = k < x.cnt ? gather(src, hub, u[j]) : 0.0f;
    }
    const gr_vid rows = x.r1 - x.r0;
    if constexpr (!kPacked) load_rows(c, x, row_at, old_rank, sink);
    // The next tile's ids, in flight while this one is summed.
    const gr_eid next = t + gridDim.x;
    const Tile y = next < n_tiles ? tile_at(c, tile_lo, tile_hi, heavy, next) : Tile{0, 0, 0, 0, kNotHeavy};
    if constexpr (!kPacked) load_ids(src, y, u);
    if (x.heavy != kNotHeavy) {
      // A chunk of a heavy row: its sum, a warp's at a time, into the row's.
      double p = 0;
#pragma unroll
      for (int j = 0; j < kTilePer; j++) p += (double)a[j];
      for (int o = 16; o > 0; o >>= 1) p += __shfl_xor_sync(gr_cuda::kFullMask, p, o);
      if (lane == 0) atomicAdd(&heavy_sum[x.heavy], p);
      if (next >= n_tiles) break;
      t = next;
      x = y;
      continue;
    }
#pragma unroll
    for (int j = 0; j < kTilePer; j++) {
      const gr_eid k = threadIdx.x + (gr_eid)j * kBlock;
      if (k < x.cnt) val[k] = a[j];
    }
    __syncthreads();
    // The bound is the same for the whole warp, so every lane reaches the
    // ballot and the shuffles.
    for (gr_vid base = threadIdx.x & ~31u; base < rows; base += kBlock) {
      const gr_vid i = base + lane;
      const bool valid = i < rows;
      const unsigned b = valid ? row_at[i] : 0, e = valid ? row_at[i + 1] : 0;
      const bool wide = e - b > kLong;
      double s = 0;
      if (!wide)
        for (unsigned k = b; k < e; k++) s += (double)val[k];
      for (unsigned w = __ballot_sync(gr_cuda::kFullMask, wide); w; w &= w - 1) {
        const int l = __ffs(w) - 1;
        const unsigned lb = __shfl_sync(gr_cuda::kFullMask, b, l), le = __shfl_sync(gr_cuda::kFullMask, e, l);
        double p = 0;
        for (unsigned k = lb + lane; k < le; k += 32) p += (double)val[k];
        for (int o = 16; o > 0; o >>= 1) p += __shfl_xor_sync(gr_cuda::kFullMask, p, o);
        if ((int)lane == l) s = p;
      }
      const gr_vid v = x.r0 + i;
      if (valid && gr_pr_owned(&c, v)) c.rank[v] = gr_pr_next_rank(&c, s, old_rank[i], sink[i], &l1, &dangling);
    }
    if (next >= n_tiles) break;
    __syncthreads();  // the shared arrays are filled again by the next tile
    t = next;
    x = y;
  }
  block_add(l1, dangling, c.sums);
}

__global__ void __launch_bounds__(kBlock)
    pull_heavy_finish_kernel(gr_pr_ctx c, const gr_vid *__restrict__ rows, gr_eid n_heavy,
                             const double *__restrict__ heavy_sum) {
  double l1 = 0, dangling = 0;
  for (gr_eid i = blockIdx.x * (gr_eid)kBlock + threadIdx.x; i < n_heavy; i += (gr_eid)gridDim.x * kBlock)
    gr_pr_update(&c, rows[i], heavy_sum[i], &l1, &dangling);
  block_add(l1, dangling, c.sums);
}

__global__ void __launch_bounds__(kBlock) push_step_kernel(gr_pr_ctx c, gr_vid n) {
  double l1 = 0, dangling = 0;
  for (gr_eid i = blockIdx.x * (gr_eid)kBlock + threadIdx.x; i < n; i += (gr_eid)gridDim.x * kBlock) {
    const gr_vid v = (gr_vid)i;
    if (gr_pr_owned(&c, v)) gr_pr_update(&c, v, gr_pr_push_sum(&c, v), &l1, &dangling);
  }
  block_add(l1, dangling, c.sums);
}

// The shared memory a pull block takes for the hubs' copy: src->n_hub
// clamped to what a block may hold beside the tile's arrays. Up to the
// 48 KiB every block may use, no attribute needs setting (the default hub);
// past it the kernel is allowed the opt-in maximum.
template <class Lists>
size_t hub_shared_bytes(Src<Lists> *src) {
  const size_t plain = 48 * 1024;
  // The tile's arrays and the block reduction's storage, with room to spare.
  constexpr size_t kStatic = GR_PR_TILE * sizeof(float) + (GR_PR_TILE_ROWS + 1) * sizeof(unsigned) +
                             GR_PR_TILE_ROWS * (sizeof(float) + 1) + 1024;
  size_t bytes = (size_t)src->n_hub * sizeof(float);
  if (bytes + kStatic <= plain) return bytes;
  cudaFuncAttributes fa;
  if (cudaFuncGetAttributes(&fa, pull_tiles_kernel<Lists>) != cudaSuccess) {
    (void)cudaGetLastError();
    src->n_hub = 0;
    return 0;
  }
  if (fa.sharedSizeBytes + bytes <= plain) return bytes;
  int d = 0, optin = 0;
  if (cudaGetDevice(&d) != cudaSuccess ||
      cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, d) != cudaSuccess ||
      (size_t)optin <= fa.sharedSizeBytes) {
    (void)cudaGetLastError();
    optin = (int)plain;
  }
  const size_t room = (size_t)optin > fa.sharedSizeBytes ? (size_t)optin - fa.sharedSizeBytes : 0;
  if (bytes > room) bytes = room / sizeof(float) * sizeof(float);
  src->n_hub = (gr_vid)(bytes / sizeof(float));
  // The limit is the kernel's, shared by every device thread on this GPU:
  // always the whole room (the same value from every caller), never this
  // call's size, so that no thread lowers it under another's launch.
  if (bytes + fa.sharedSizeBytes > plain &&
      cudaFuncSetAttribute(pull_tiles_kernel<Lists>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)room) != cudaSuccess) {
    (void)cudaGetLastError();
    bytes = fa.sharedSizeBytes < plain ? (plain - fa.sharedSizeBytes) / sizeof(float) * sizeof(float) : 0;
    src->n_hub = (gr_vid)(bytes / sizeof(float));
  }
  return bytes;
}

// The two sums of a step, back on the host (the one wait of the step).
gr_status read_sums(gr_device *dev, const gr_pr_ctx *c, double *l1, double *dangling) {
  double h[2];
  GR_CHECK(gr_device_copy(dev, h, c->sums, sizeof h, GR_COPY_D2H));
  *l1 = h[0];
  *dangling = h[1];
  return GR_SUCCESS;
}

gr_status pull_step_cuda(gr_device *dev, gr_workspace *ws, const gr_pr_plan *plan, gr_vid n, const gr_pr_ctx *c,
                         double *l1, double *dangling) {
  (void)ws;
  if (plan->n_rows != n)
    return gr_errorf(GR_ERR_INTERNAL, "pr: a pull plan of %llu rows for %llu vertices", (unsigned long long)plan->n_rows,
                     (unsigned long long)n);
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  const unsigned most = gr_cuda::max_blocks(dev);
  GR_CHECK(gr_device_memset(dev, c->sums, 0, 2 * sizeof(double)));
  Src<gr_cuda::PlainLists> src{{c->in_indices}, c->contrib, GR_NO_VERTEX, 0};
  if (plan->relabelled) {
    src = Src<gr_cuda::PlainLists>{{(const gr_vid *)plan->ids.ptr}, (const float *)plan->sorted.ptr,
                                   plan->hot < (gr_eid)GR_NO_VERTEX ? (gr_vid)plan->hot : GR_NO_VERTEX,
                                   (gr_vid)(plan->hub < (gr_eid)n ? plan->hub : n)};
    if (n) {
      order_contrib_kernel<<<gr_cuda::grid_for(n, kBlock, most), kBlock, 0, s>>>(
          (float *)plan->sorted.ptr, c->contrib, (const gr_vid *)plan->order.ptr, n);
      GR_CUDA_CHECK_LAUNCH(dev);
    }
  }
  double *hs = (double *)plan->heavy_sum.ptr;
  if (plan->n_heavy) GR_CHECK(gr_device_memset(dev, hs, 0, (size_t)plan->n_heavy * sizeof(double)));
  if (plan->n_tiles) {
    const unsigned long long tiles = plan->n_tiles;
    const unsigned grid = (unsigned)(tiles < most ? tiles : most);
    const gr_vid *lo = (const gr_vid *)plan->tile_lo.ptr, *hi = (const gr_vid *)plan->tile_hi.ptr,
                 *heavy = (const gr_vid *)plan->heavy.ptr;
    if (c->in_packed.bytes) {
      // Never relabelled (pr.c): the CSC's own lists, decoded per tile.
      Src<gr_cuda::PackedLists> packed{{c->in_packed}, c->contrib, GR_NO_VERTEX, 0};
      pull_tiles_kernel<<<grid, kBlock, hub_shared_bytes(&packed), s>>>(*c, packed, lo, hi, heavy, plan->n_tiles,
                                                                          hs);
    } else {
      const size_t hub_bytes = hub_shared_bytes(&src);
      pull_tiles_kernel<<<grid, kBlock, hub_bytes, s>>>(*c, src, lo, hi, heavy, plan->n_tiles, hs);
    }
    GR_CUDA_CHECK_LAUNCH(dev);
  }
  if (plan->n_heavy) {
    pull_heavy_finish_kernel<<<gr_cuda::grid_for(plan->n_heavy, kBlock, most), kBlock, 0, s>>>(
        *c, (const gr_vid *)plan->heavy.ptr, plan->n_heavy, hs);
    GR_CUDA_CHECK_LAUNCH(dev);
  }
  return read_sums(dev, c, l1, dangling);
}

gr_status push_step_cuda(gr_device *dev, gr_workspace *ws, gr_vid n, const gr_pr_ctx *c, double *l1,
                         double *dangling) {
  (void)ws;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  GR_CHECK(gr_device_memset(dev, c->sums, 0, 2 * sizeof(double)));
  if (n) {
    push_step_kernel<<<gr_cuda::grid_for(n, kBlock, gr_cuda::max_blocks(dev)), kBlock, 0, s>>>(*c, n);
    GR_CUDA_CHECK_LAUNCH(dev);
  }
  return read_sums(dev, c, l1, dangling);
}

gr_status relabel_cuda(gr_device *dev, gr_vid *ids, const gr_vid *src, const gr_vid *position, gr_eid m) {
  if (!m) return GR_SUCCESS;
  relabel_kernel<<<gr_cuda::grid_for(m, kBlock, gr_cuda::max_blocks(dev)), kBlock, 0,
                   (cudaStream_t)gr_device_stream(dev)>>>(ids, src, position, m);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

gr_status init_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_pr_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, Init{*c});
}
gr_status publish_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_pr_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, Publish{*c});
}
gr_status push_out_cuda(gr_device *dev, gr_workspace *ws, gr_for_each_args *a, const gr_pr_ctx *c) {
  (void)ws;
  return gr_cuda::for_each(dev, a, PushOut{*c});
}
gr_status push_cuda(gr_device *dev, gr_workspace *ws, gr_advance_push_args *a, const gr_pr_ctx *c) {
  return gr_cuda::advance_push(dev, ws, a, PushVisit{*c});
}

}  // namespace

extern "C" const gr_pr_ops gr__pr_ops_cuda = {init_cuda, publish_cuda, pull_step_cuda, push_step_cuda,
                                              push_cuda,  push_out_cuda, relabel_cuda};
