// SPDX-License-Identifier: Apache-2.0
// PageRank's operators on CUDA. The per-element functions are the CPU
// backend's; the pull goes tile by tile (pr.h's plan): a block gathers a
// tile's contributions into shared memory with all the tile's loads in
// flight, then sums its rows from there; chunks of heavy rows are tiles
// whose block sums meet in heavy_sum, finished by one thread per heavy
// row. Sums are double per row; each block adds its part of the change and
// the dangling rank to two device doubles, read once per step.
#include <cub/block/block_reduce.cuh>

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
// (the CSC's ids and contrib, or the relabelled copy and the contributions
// in position order: pr.h), and the first position read past L1.
struct Src {
  const gr_vid *__restrict__ idx;
  const float *__restrict__ con;
  gr_vid hot;
  gr_vid n_hub;  // positions below it are read from the block's shared copy
};

// A contribution: a hub's through L1 (the read-only path), anything else
// from L2 only, so that the tail's one-off reads do not evict the hubs.
__device__ __forceinline__ float gather(const Src &src, const float *hub, gr_vid u) {
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

__device__ __forceinline__ void load_ids(const Src &src, const Tile &x, gr_vid (&u)[kTilePer]) {
#pragma unroll
  for (int j = 0; j < kTilePer; j++) {
    const gr_eid k = threadIdx.x + (gr_eid)j * kBlock;
    u[j] = k < x.cnt ? __ldcs(src.idx + x.e0 + k) : 0;
  }
}

// The tile's rows' first in-edges (from the tile's first), old ranks and
// sinks, into shared memory. With `starts` (packed lists), each non-empty
// row also marks its first in-edge: bit (edge - first) of starts, and the
// row's index in row_of at its place in the tile.
__device__ __forceinline__ void load_rows(const gr_pr_ctx &c, const Tile &x, unsigned *row_at, float *old_rank,
                                          unsigned char *sink, unsigned *starts = nullptr, gr_eid first = 0,
                                          unsigned *row_of = nullptr) {
  const gr_vid rows = x.r1 - x.r0;
  for (gr_vid i = threadIdx.x; i <= rows; i += kBlock) {
    const gr_vid v = x.r0 + i;
    const gr_eid b = c.in_offsets[v];
    row_at[i] = (unsigned)(b - x.e0);
    if (i < rows) {
      old_rank[i] = c.rank[v];
      sink[i] = c.out_offsets[v + 1] == c.out_offsets[v];
      if (starts && c.in_offsets[v + 1] > b) {
        const unsigned at = (unsigned)(b - first);
        atomicOr(&starts[at >> 5], 1u << (at & 31u));
        row_of[b - x.e0] = (unsigned)i;
      }
    }
  }
}

// A contribution gathered into shared memory, as a float or its bits.
__device__ __forceinline__ double shared_value(const float *val, unsigned k) { return (double)val[k]; }
__device__ __forceinline__ double shared_value(const unsigned *val, unsigned k) {
  return (double)__uint_as_float(val[k]);
}

// Sums the tile's rows from the contributions in val (the tile's in-edges
// in order), 32 rows per warp at a time: a lane per row of at most kLong
// in-edges, the whole warp (lanes stride, a shuffle sum) for each longer
// one; rows of a tile are consecutive, so every per-row access is
// coalesced. Their new ranks, and the block's share of the change and the
// dangling rank.
template <class V>
__device__ __forceinline__ void sum_rows(const gr_pr_ctx &c, const Tile &x, const unsigned *row_at, const V *val,
                                         const float *old_rank, const unsigned char *sink, double &l1,
                                         double &dangling) {
  const unsigned lane = threadIdx.x & 31u;
  const gr_vid rows = x.r1 - x.r0;
  // The bound is the same for the whole warp, so every lane reaches the
  // ballot and the shuffles.
  for (gr_vid base = threadIdx.x & ~31u; base < rows; base += kBlock) {
    const gr_vid i = base + lane;
    const bool valid = i < rows;
    const unsigned b = valid ? row_at[i] : 0, e = valid ? row_at[i + 1] : 0;
    const bool wide = e - b > kLong;
    double s = 0;
    if (!wide)
      for (unsigned k = b; k < e; k++) s += shared_value(val, k);
    for (unsigned w = __ballot_sync(gr_cuda::kFullMask, wide); w; w &= w - 1) {
      const int l = __ffs(w) - 1;
      const unsigned lb = __shfl_sync(gr_cuda::kFullMask, b, l), le = __shfl_sync(gr_cuda::kFullMask, e, l);
      double p = 0;
      for (unsigned k = lb + lane; k < le; k += 32) p += shared_value(val, k);
      for (int o = 16; o > 0; o >>= 1) p += __shfl_xor_sync(gr_cuda::kFullMask, p, o);
      if ((int)lane == l) s = p;
    }
    const gr_vid v = x.r0 + i;
    if (valid && gr_pr_owned(&c, v)) c.rank[v] = gr_pr_next_rank(&c, s, old_rank[i], sink[i], &l1, &dangling);
  }
}

// A chunk of a heavy row: a thread's share of its sum, a warp's at a time
// into the row's.
template <int N>
__device__ __forceinline__ void add_chunk(const float (&a)[N], double *heavy_sum) {
  double p = 0;
#pragma unroll
  for (int j = 0; j < N; j++) p += (double)a[j];
  for (int o = 16; o > 0; o >>= 1) p += __shfl_xor_sync(gr_cuda::kFullMask, p, o);
  if ((threadIdx.x & 31u) == 0) atomicAdd(heavy_sum, p);
}

// Three blocks per SM (registers held to 80 per thread): measured on one
// H100 against two (103 registers) and four (64, with spills) per SM:
// Kronecker 22 1.13 / 1.08 / 1.35 ms per iteration, uniform 22 1.65 / 1.99
// / 2.00, the 4096^2 grid 0.64 / 0.97 / 0.77.
__global__ void __launch_bounds__(kBlock, 3)
    pull_tiles_kernel(gr_pr_ctx c, Src src, const gr_vid *__restrict__ tile_lo, const gr_vid *__restrict__ tile_hi,
                      const gr_vid *__restrict__ heavy, gr_eid n_tiles, double *__restrict__ heavy_sum) {
  __shared__ float val[GR_PR_TILE];
  __shared__ unsigned row_at[GR_PR_TILE_ROWS + 1];  // a row's first in-edge, from the tile's first
  __shared__ float old_rank[GR_PR_TILE_ROWS];
  __shared__ unsigned char sink[GR_PR_TILE_ROWS];   // no out-edges: a dangling vertex
  extern __shared__ float hub[];                    // the first n_hub positions' contributions
  double l1 = 0, dangling = 0;
  gr_eid t = blockIdx.x;
  if (t >= n_tiles) {
    block_add(l1, dangling, c.sums);
    return;
  }
  Tile x = tile_at(c, tile_lo, tile_hi, heavy, t);
  gr_vid u[kTilePer];
  load_ids(src, x, u);
  for (gr_vid i = threadIdx.x; i < src.n_hub; i += kBlock) hub[i] = __ldcg(src.con + i);
  __syncthreads();
  for (;;) {
    float a[kTilePer];
#pragma unroll
    for (int j = 0; j < kTilePer; j++) {
      const gr_eid k = threadIdx.x + (gr_eid)j * kBlock;
      a[j] = k < x.cnt ? gather(src, hub, u[j]) : 0.0f;
    }
    if (x.heavy == kNotHeavy) load_rows(c, x, row_at, old_rank, sink);
    // The next tile's ids, in flight while this one is summed.
    const gr_eid next = t + gridDim.x;
    const Tile y = next < n_tiles ? tile_at(c, tile_lo, tile_hi, heavy, next) : Tile{0, 0, 0, 0, kNotHeavy};
    load_ids(src, y, u);
    if (x.heavy != kNotHeavy) {
      add_chunk(a, &heavy_sum[x.heavy]);
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
    sum_rows(c, x, row_at, val, old_rank, sink, l1, dangling);
    if (next >= n_tiles) break;
    __syncthreads();  // the shared arrays are filled again by the next tile
    t = next;
    x = y;
  }
  block_add(l1, dangling, c.sums);
}

// The pull over packed in-lists (lists.cuh's PackedLists). Each warp reads
// whole 32-edge blocks of a tile's range, one block per slot: lane i holds
// the block's lane i, so lane 0 takes the block's base and every other lane
// either starts a row or adds its code to the lane before's id; no lane
// searches for its row and no warp sums a block for a head. The blocks'
// terms (base or code: block_term) need no rows, so a tile's are loaded
// while the tile before is summed, as the plain pull loads its ids ahead;
// the rows come next (each non-empty row marks where it starts: a bit in
// `starts`, its index in row_of), then a barrier, the ids (row starts'
// terms made ids, then warp_run_sum) and the gathers. Lanes outside the
// tile (the first and last blocks' edges of other rows) take no part; a
// heavy row's chunk decodes its row's edges of those blocks (so every head
// is the base or the row's start) and gathers only its own. The gathered
// contributions go to shared memory in the place row_of took (a barrier
// between), and the rows are summed as the plain pull sums them.
constexpr int kWarps = kBlock / 32;
// Blocks of 32 in-edges a tile can touch (it need not start at a block's
// first edge) and the slots each warp takes of them.
constexpr int kTileBlocks = GR_PR_TILE / 32 + 1;
constexpr int kPackedSlots = (kTileBlocks + kWarps - 1) / kWarps;

// The edge a lane holds in slot j of tile x, whose first block starts at
// edge `first`.
__device__ __forceinline__ gr_eid slot_edge(gr_eid first, int j) {
  return first + (gr_eid)((threadIdx.x >> 5) + (unsigned)j * kWarps) * GR_PACK_BLOCK + (threadIdx.x & 31u);
}

// A tile's block terms, and which of its slots' blocks are row-relative.
__device__ __forceinline__ void load_terms(const gr_cuda::PackedLists &lists, const Tile &x,
                                           gr_vid (&term)[kPackedSlots], unsigned &relative) {
  const gr_eid first = x.e0 / GR_PACK_BLOCK * GR_PACK_BLOCK, end = x.e0 + x.cnt;
  relative = 0;
#pragma unroll
  for (int j = 0; j < kPackedSlots; j++) {
    const gr_eid e = slot_edge(first, j);
    bool rel = false;
    term[j] = e - (threadIdx.x & 31u) < end ? lists.block_term(e / GR_PACK_BLOCK, threadIdx.x & 31u, rel) : 0;
    relative |= (unsigned)rel << j;
  }
}

__global__ void __launch_bounds__(kBlock, 3)
    pull_tiles_packed_kernel(gr_pr_ctx c, gr_cuda::PackedLists lists, const gr_vid *__restrict__ tile_lo,
                             const gr_vid *__restrict__ tile_hi, const gr_vid *__restrict__ heavy, gr_eid n_tiles,
                             double *__restrict__ heavy_sum) {
  static_assert(kPackedSlots <= 32, "a slot's row-relative flag is a bit of one word");
  // The gathered contributions (float bits); before them, each row start's
  // row index in the tile.
  __shared__ unsigned val[GR_PR_TILE];
  __shared__ unsigned row_at[GR_PR_TILE_ROWS + 1];
  __shared__ float old_rank[GR_PR_TILE_ROWS];
  __shared__ unsigned char sink[GR_PR_TILE_ROWS];
  __shared__ unsigned starts[kTileBlocks];  // bit per edge from the tile's first block's: a row starts there
  double l1 = 0, dangling = 0;
  const unsigned lane = threadIdx.x & 31u;
  gr_eid t = blockIdx.x;
  if (t >= n_tiles) {
    block_add(l1, dangling, c.sums);
    return;
  }
  Tile x = tile_at(c, tile_lo, tile_hi, heavy, t);
  gr_vid term[kPackedSlots];
  unsigned relative = 0;
  load_terms(lists, x, term, relative);
  for (unsigned i = threadIdx.x; i < kTileBlocks; i += kBlock) starts[i] = 0;
  __syncthreads();
  for (;;) {
    const bool chunk = x.heavy != kNotHeavy;
    const gr_eid first = x.e0 / GR_PACK_BLOCK * GR_PACK_BLOCK, end = x.e0 + x.cnt;
    if (!chunk) load_rows(c, x, row_at, old_rank, sink, starts, first, val);
    __syncthreads();
    const gr_eid row_s = chunk ? c.in_offsets[x.r0] : 0, row_e = chunk ? c.in_offsets[x.r0 + 1] : 0;
    float a[kPackedSlots];
#pragma unroll
    for (int j = 0; j < kPackedSlots; j++) {
      const gr_eid e = slot_edge(first, j), at = e - lane;
      a[j] = 0.0f;
      if (at >= end) continue;  // the same for the whole warp
      const bool in = e >= x.e0 && e < end;
      bool dec, start;
      if (chunk) {
        dec = e >= row_s && e < row_e;
        start = e == row_s;
      } else {
        dec = in;
        start = in && (starts[(at - first) / GR_PACK_BLOCK] >> lane & 1u);
      }
      gr_vid id = dec ? term[j] : 0;
      if (start && lane) {
        const gr_vid row = chunk ? x.r0 : x.r0 + val[e - x.e0];
        id = relative >> j & 1u ? (gr_vid)(row + gr_packed_unzigzag(id)) : id;
      }
      id = gr_cuda::warp_run_sum(id, dec && lane && !start);
      if (in) a[j] = __ldg(c.contrib + id);
    }
    // The next tile's terms, in flight while this one is summed.
    const gr_eid next = t + gridDim.x;
    const Tile y = next < n_tiles ? tile_at(c, tile_lo, tile_hi, heavy, next) : Tile{0, 0, 0, 0, kNotHeavy};
    load_terms(lists, y, term, relative);
    if (chunk) {
      add_chunk(a, &heavy_sum[x.heavy]);
      if (next >= n_tiles) break;
      t = next;
      x = y;
      continue;  // nothing shared was written: no barrier owed
    }
    __syncthreads();  // every warp has read row_of and starts
    for (unsigned i = threadIdx.x; i < kTileBlocks; i += kBlock) starts[i] = 0;
#pragma unroll
    for (int j = 0; j < kPackedSlots; j++) {
      const gr_eid e = slot_edge(first, j);
      if (e >= x.e0 && e < end) val[e - x.e0] = __float_as_uint(a[j]);
    }
    __syncthreads();
    sum_rows(c, x, row_at, val, old_rank, sink, l1, dangling);
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
size_t hub_shared_bytes(Src *src) {
  const size_t plain = 48 * 1024;
  // The tile's arrays and the block reduction's storage, with room to spare.
  constexpr size_t kStatic = GR_PR_TILE * sizeof(float) + (GR_PR_TILE_ROWS + 1) * sizeof(unsigned) +
                             GR_PR_TILE_ROWS * (sizeof(float) + 1) + 1024;
  size_t bytes = (size_t)src->n_hub * sizeof(float);
  if (bytes + kStatic <= plain) return bytes;
  cudaFuncAttributes fa;
  if (cudaFuncGetAttributes(&fa, pull_tiles_kernel) != cudaSuccess) {
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
      cudaFuncSetAttribute(pull_tiles_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)room) != cudaSuccess) {
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
  Src src{c->in_indices, c->contrib, GR_NO_VERTEX, 0};
  if (plan->relabelled) {
    src = Src{(const gr_vid *)plan->ids.ptr, (const float *)plan->sorted.ptr,
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
      pull_tiles_packed_kernel<<<grid, kBlock, 0, s>>>(*c, gr_cuda::PackedLists{c->in_packed}, lo, hi, heavy,
                                                       plan->n_tiles, hs);
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

// A source's count: most in-edges come from a few hubs, so a warp adds
// once per distinct source among its 32 ids (__match_any_sync) rather than
// once per id.
__global__ void count_sources_kernel(uint32_t *__restrict__ fed, const gr_vid *__restrict__ src, gr_eid m) {
  const gr_eid stride = (gr_eid)gridDim.x * blockDim.x;
  for (gr_eid base = (gr_eid)blockIdx.x * blockDim.x; base < m; base += stride) {
    const gr_eid e = base + threadIdx.x;
    const bool valid = e < m;
    const unsigned active = __ballot_sync(0xffffffffu, valid);
    if (!valid) continue;
    const gr_vid v = src[e];
    const unsigned same = __match_any_sync(active, v);
    if ((threadIdx.x & 31) == __ffs(same) - 1) atomicAdd(&fed[v], (unsigned)__popc(same));
  }
}

gr_status count_sources_cuda(gr_device *dev, uint32_t *fed, const gr_vid *src, gr_eid m) {
  if (!m) return GR_SUCCESS;
  count_sources_kernel<<<gr_cuda::grid_for(m, kBlock, gr_cuda::max_blocks(dev)), kBlock, 0,
                         (cudaStream_t)gr_device_stream(dev)>>>(fed, src, m);
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
                                              push_cuda,  push_out_cuda, relabel_cuda,   count_sources_cuda};

GR_CUDA_PRELOAD(gr__pr_cuda_preload)
