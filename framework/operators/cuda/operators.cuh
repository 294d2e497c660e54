// SPDX-License-Identifier: Apache-2.0
// CUDA operators as templates over a primitive's per-element functor. A
// primitive's _cuda.cu file wraps its GR_HD functions in small functors and
// instantiates these; results equal the portable definition's
// (operators_cpu.h) as sets.
//
// advance_push is edge-balanced: the frontier's degrees are scanned (CUB) and
// every thread takes one edge rank, finding its source by binary search, so a
// vertex of any degree is spread over as many threads as it has edges. The
// ranks come in chunks of one block; a pre-pass finds every chunk's first
// source in parallel, so each thread searches only within its chunk (the
// serial variant, kept for comparison, has one thread of each block search
// the whole frontier while the block waits).
// advance=twc maps each vertex to a block, a warp or a share of a block-wide
// edge list by its degree, with no pre-pass; advance=auto picks it per level
// for frontiers without hubs.
// advance_push_levels runs many levels of small frontiers in one cooperative
// launch, with a grid-wide barrier between levels instead of a host round
// trip.
// advance_pull gives each light candidate a thread and each heavy one a warp;
// both stop at the first parent found in the frontier bitmap.
// split sends each item to one of two block-staged queues (or neither) in
// one pass.
// Every kernel that emits ids does so through a block-staged queue
// (emit.cuh), which can also measure the output's degrees for the next
// level.
// The kernels that read neighbour lists are templates over how they read
// them (lists.cuh): plain ids, or packed lists decoded a warp at a time
// (--compress packed); a graph's csr.packed picks the second at the launch.
#ifndef GR_CUDA_OPERATORS_CUH
#define GR_CUDA_OPERATORS_CUH

#include <cooperative_groups.h>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_partition.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "gr/atomic.h"
#include "gr/cuda_check.h"
#include "gr/device.h"
#include "gr/operators.h"
#include "gr/workspace.h"
#include "operators/cuda/emit.cuh"
#include "operators/cuda/lists.cuh"

namespace gr_cuda {

constexpr int kBlock = 256;

// The input's degrees as the scan reads them (no pass of their own): item
// i < n_in is in[i]'s, item n_in is 0, so the exclusive scan's last entry
// is the level's edges.
struct InputDegree {
  const gr_eid *offsets;
  const gr_vid *in;
  gr_eid n_in;
  __device__ __forceinline__ gr_eid operator()(gr_eid i) const {
    if (i >= n_in) return 0;
    const gr_vid u = in[i];
    return offsets[u + 1] - offsets[u];
  }
};
using InputDegrees = thrust::transform_iterator<InputDegree, thrust::counting_iterator<gr_eid>, gr_eid>;
inline InputDegrees input_degrees(const gr_eid *offsets, const gr_vid *in, gr_eid n_in) {
  return InputDegrees(thrust::counting_iterator<gr_eid>(0), InputDegree{offsets, in, n_in});
}
// Every chunk's first source, and the push's counters set as
// small_prep_kernel sets them (ids written 0, the edges scan[n_in], the
// output's degree sum and maximum 0): no memset before and no copy after.
__global__ void chunk_start_kernel(const gr_eid *__restrict__ scan, gr_eid n_in, gr_eid *__restrict__ chunks,
                                   gr_eid max_chunks, unsigned long long *ctr);
// A small input's preparation for the edge-balanced push in one block of
// kBlock threads (n_in at most kSmallPrepMax): its degrees scanned into
// scan[0..n_in] (exclusive; scan[n_in] the level's edges), tile after tile
// of kBlock * kSmallPrepItems, the push's counters set (ids written,
// edges, the output's degree sum and maximum: 0, the edges, 0, 0). The
// larger inputs' path takes three launches for the same (CUB's two scan
// kernels over the degrees, the chunk table, which sets the counters),
// tens of us of an H200 host's time where a tile of one block takes 1-2 us
// of the GPU's: inputs of up to 8 tiles come here.
constexpr int kSmallPrepItems = 4;
constexpr int kSmallPrepTiles = 8;
constexpr gr_eid kSmallPrepTile = (gr_eid)kBlock * kSmallPrepItems;
constexpr gr_eid kSmallPrepMax = kSmallPrepTile * kSmallPrepTiles;
__global__ void small_prep_kernel(const gr_eid *__restrict__ offsets, const gr_vid *__restrict__ in, gr_eid n_in,
                                  gr_eid *__restrict__ scan, unsigned long long *ctr);
// For advance_push_rows: the 32-edge blocks each of the first *n_long rows
// of `in` touches, the others' degrees, and 0 at n_in (to be scanned); the
// rows' degrees (the level's edges) are added to *edges.
__global__ void rows_degree_kernel(const gr_eid *__restrict__ offsets, const gr_vid *__restrict__ in, gr_eid n_in,
                                   const unsigned long long *n_long, gr_eid *__restrict__ deg,
                                   unsigned long long *edges);
// The frontier's out-edges (ctr[0]) and largest degree (ctr[1]).
__global__ void frontier_stats_kernel(const gr_eid *__restrict__ offsets, const gr_vid *__restrict__ in,
                                      gr_eid n_in, unsigned long long *ctr);

// Largest i in [lo, hi] with scan[i] <= rank (scan is non-decreasing).
__device__ __forceinline__ gr_eid scan_search(const gr_eid *__restrict__ scan, gr_eid lo, gr_eid hi,
                                              gr_eid rank) {
  while (lo < hi) {
    gr_eid mid = lo + (hi - lo + 1) / 2;
    if (scan[mid] <= rank) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// A bit of a bitmap the kernel only reads, through the read-only cache (the
// portable gr_bitmap_test loads relaxed, bypassing L1, for bitmaps that
// change under it).
__device__ __forceinline__ bool frontier_test(const uint32_t *__restrict__ bits, gr_vid v) {
  return (__ldg(&bits[v >> 5]) >> (v & 31u)) & 1u;
}

// The push advances' queue: culling available for idempotent visits.
using PushQueue = BlockQueue<kBlock, 1024, 512>;

template <class Lists, class Visit>
__global__ void __launch_bounds__(kBlock, Lists::kPushMinBlocks)
    advance_push_lb_kernel(const gr_eid *__restrict__ offsets, Lists lists,
                           const gr_vid *__restrict__ in, gr_eid n_in,
                           const gr_eid *__restrict__ scan, gr_vid *__restrict__ out, gr_eid cap,
                           unsigned long long *count, const gr_eid *deg, unsigned long long *deg_ctr,
                           bool cull, Visit visit, const unsigned long long *first_row = nullptr) {
  __shared__ gr_eid s_lo, s_hi;
  __shared__ typename PushQueue::Storage qs;
  PushQueue q(qs, out, cap, count, deg);
  // first_row (device memory): the input's rows before it are another
  // kernel's (the long rows of advance_push_rows); the ranks here start at
  // its scan value.
  const gr_eid first = first_row ? (gr_eid)*first_row : 0;
  const gr_eid r0 = scan[first];
  const gr_eid total = scan[n_in] - r0;
  // The loop bound is the same for the whole block, as the queue needs.
  for (gr_eid base = (gr_eid)blockIdx.x * kBlock; base < total;
       base += (gr_eid)gridDim.x * kBlock) {
    gr_eid last = base + kBlock - 1 < total ? base + kBlock - 1 : total - 1;
    __syncthreads();
    if (threadIdx.x == 0) s_lo = scan_search(scan, first, n_in - 1, r0 + base);
    if (threadIdx.x == 32) s_hi = scan_search(scan, first, n_in - 1, r0 + last);
    __syncthreads();
    const gr_eid rank = r0 + base + threadIdx.x;
    const bool valid = base + threadIdx.x <= last;
    gr_vid u = 0;
    gr_eid s = 0, e = 0;
    if (valid) {
      gr_eid i = scan_search(scan, s_lo, s_hi, rank);
      u = in[i];
      s = offsets[u];
      e = s + (rank - scan[i]);
    }
    // Ranks are consecutive across the warp: the lane before holds e - 1
    // unless e starts its row.
    const gr_vid v = lists.warp_id(valid, u, s, e, valid && (threadIdx.x & 31u) && e != s, false, 0);
    const bool keep = valid && visit(u, v, e);
    if (cull) q.push_unique(keep, v);
    else q.push(keep, v);
  }
  q.finish(deg_ctr);
}

template <class Lists, class Visit>
__global__ void __launch_bounds__(kBlock, Lists::kPushMinBlocks)
    advance_push_chunked_kernel(const gr_eid *__restrict__ offsets, Lists lists,
                                const gr_vid *__restrict__ in, gr_eid n_in, const gr_eid *__restrict__ scan,
                                const gr_eid *__restrict__ chunks, gr_eid max_chunks, gr_vid *__restrict__ out,
                                gr_eid cap, unsigned long long *count, const gr_eid *deg,
                                unsigned long long *deg_ctr, bool cull, Visit visit) {
  __shared__ typename PushQueue::Storage qs;
  PushQueue q(qs, out, cap, count, deg);
  const gr_eid total = scan[n_in];
  // The loop bound is the same for the whole block, as the queue needs.
  for (gr_eid c = blockIdx.x; c * kBlock < total; c += gridDim.x) {
    const gr_eid base = c * kBlock;
    // Chunks past the table (a frontier with more edges than the table was
    // sized for) search from scratch.
    const gr_eid lo = c < max_chunks ? chunks[c] : scan_search(scan, 0, n_in - 1, base);
    const gr_eid hi = base + kBlock >= total ? n_in - 1
                      : c + 1 < max_chunks  ? chunks[c + 1]
                                            : scan_search(scan, 0, n_in - 1, base + kBlock);
    const gr_eid rank = base + threadIdx.x;
    const bool valid = rank < total;
    gr_vid u = 0;
    gr_eid s = 0, e = 0;
    if (valid) {
      gr_eid i = scan_search(scan, lo, hi, rank);
      u = in[i];
      s = offsets[u];
      e = s + (rank - scan[i]);
    }
    // Ranks are consecutive across the warp: the lane before holds e - 1
    // unless e starts its row.
    const gr_vid v = lists.warp_id(valid, u, s, e, valid && (threadIdx.x & 31u) && e != s, false, 0);
    const bool keep = valid && visit(u, v, e);
    if (cull) q.push_unique(keep, v);
    else q.push(keep, v);
  }
  q.finish(deg_ctr);
}

// The input's first *n_long rows (long rows, in device memory) as 32-edge
// blocks of their lists, a thread per block: scan holds each long row's
// block count (exclusive sums), a thread finds its row by binary search in
// its block's range of rows, as the edge-balanced kernels do, and steps
// through the block's 32 lanes, visiting those in its row. A step is one
// id for a thread (a load, or a packed code from a register window) where
// the edge-balanced kernel spends a search and, packed, a warp-wide
// segmented sum on every edge; the price is the lanes of a row's first
// and last block outside the row. Packed blocks (32-bit ids) can first be
// copied by each warp to shared memory (Lists::walk_stage, stage_words >
// 0): read in place, a warp's load of one word of 32 blocks touches 32
// sectors, which pays where those loads make the L2 the wall.
template <class Lists, class Visit>
__global__ void __launch_bounds__(kBlock, Lists::kPushMinBlocks)
    advance_push_rows_kernel(const gr_eid *__restrict__ offsets, Lists lists, const gr_vid *__restrict__ in,
                             const unsigned long long *n_long, const gr_eid *__restrict__ scan,
                             gr_vid *__restrict__ out, gr_eid cap, unsigned long long *count, const gr_eid *deg,
                             unsigned long long *deg_ctr, bool cull, Visit visit, unsigned stage_words) {
  __shared__ gr_eid s_lo, s_hi;
  __shared__ typename PushQueue::Storage qs;
  // Each warp's copy of its blocks (Lists::walk_stage): stage_words and two
  // of look-ahead past the last, in the launch's dynamic shared memory (none
  // when the walk reads its blocks in place: stage_words 0).
  extern __shared__ uint32_t s_stage[];
  uint32_t *const stage = s_stage + threadIdx.x / 32 * (stage_words + 2);
  PushQueue q(qs, out, cap, count, deg);
  const gr_eid rows = (gr_eid)*n_long;
  const gr_eid total = scan[rows];
  // The loop bounds are the same for the whole block, as the queue needs.
  for (gr_eid base = (gr_eid)blockIdx.x * kBlock; base < total; base += (gr_eid)gridDim.x * kBlock) {
    const gr_eid last = base + kBlock - 1 < total ? base + kBlock - 1 : total - 1;
    __syncthreads();
    if (threadIdx.x == 0) s_lo = scan_search(scan, 0, rows - 1, base);
    if (threadIdx.x == 32) s_hi = scan_search(scan, 0, rows - 1, last);
    __syncthreads();
    const gr_eid j = base + threadIdx.x;
    const bool valid = j <= last;
    gr_vid u = 0;
    gr_eid first = 0;
    // The block's lanes in the row, a bit each, and the row's first edge's
    // bit where the row starts in this block (two words where the bounds
    // and a flag took three: the loop is held to 32 registers).
    uint32_t lanes = 0, start_lane = 0;
    typename Lists::Walk w{};
    if (valid) {
      const gr_eid i = scan_search(scan, s_lo, s_hi, j);
      u = in[i];
      const gr_eid s = offsets[u], end = offsets[u + 1];
      const gr_eid b = s / GR_PACK_BLOCK + (j - scan[i]);
      first = b * GR_PACK_BLOCK;
      const unsigned lo = s >= first ? (unsigned)(s - first) : 0u;
      const unsigned hi = end - first < GR_PACK_BLOCK ? (unsigned)(end - first) : GR_PACK_BLOCK;
      lanes = (hi == GR_PACK_BLOCK ? kFullMask : (1u << hi) - 1u) & ~((1u << lo) - 1u);
      start_lane = s >= first ? 1u << lo : 0u;
      lists.walk_begin(w, b);
    }
    lists.walk_stage(w, valid, stage, stage_words);
    for (unsigned k = 0; k < GR_PACK_BLOCK; k++) {
      const bool in_row = (lanes >> k) & 1u;
      gr_vid v = 0;
      if (valid) v = lists.walk_step(w, k, in_row, (start_lane >> k) & 1u, first + k, u);
      const bool keep = in_row && visit(u, v, first + k);
      if (cull) q.push_unique(keep, v);
      else q.push(keep, v);
    }
  }
  q.finish(deg_ctr);
}

// Thread/warp/block mapping (Merrill's TWC), no pre-pass: a block takes 256
// frontier vertices; those of >= 256 edges are walked by the whole block
// one at a time, those of 32..255 by a warp each, and the rest as one flat
// list of the tile's remaining edges (block scan of their degrees, each
// thread finding its edge's source by a search in shared memory). Good when
// no vertex dominates (a block walks its hubs alone); the edge-balanced
// advance is for skewed frontiers.
constexpr int kTwcStage = 2048;

template <class Lists, class Visit>
__global__ void __launch_bounds__(kBlock)
    advance_push_twc_kernel(const gr_eid *__restrict__ offsets, Lists lists,
                            const gr_vid *__restrict__ in, gr_eid n_in, gr_vid *__restrict__ out, gr_eid cap,
                            unsigned long long *count, unsigned long long *edges, const gr_eid *deg,
                            unsigned long long *deg_ctr, bool cull, Visit visit) {
  using Queue = BlockQueue<kBlock, kTwcStage, 512>;
  using Scan = cub::BlockScan<unsigned, kBlock>;
  __shared__ typename Queue::Storage qs;
  __shared__ typename Scan::TempStorage scan_tmp;
  __shared__ unsigned s_start[kBlock];
  __shared__ gr_vid s_src[kBlock];
  __shared__ gr_eid s_first[kBlock];
  __shared__ int s_owner;
  __shared__ gr_vid s_u;
  __shared__ gr_eid s_b, s_d;
  Queue q(qs, out, cap, count, deg);
  const int lane = threadIdx.x & 31;
  unsigned long long visited = 0;
  if (threadIdx.x == 0) s_owner = -1;  // the first barrier below orders this before any claim
  for (gr_eid tile = blockIdx.x * (gr_eid)kBlock; tile < n_in; tile += (gr_eid)gridDim.x * kBlock) {
    const gr_eid i = tile + threadIdx.x;
    gr_vid u = 0;
    gr_eid b = 0, d = 0;
    if (i < n_in) {
      u = in[i];
      b = offsets[u];
      d = offsets[u + 1] - b;
      visited += d;
    }
    // Block: one vertex at a time, the highest thread holding one first.
    // The claim is a shared-memory atomic, not a plain store that any of
    // the candidates may win: concurrent plain stores are a data race in
    // CUDA's memory model, and compute-sanitizer's racecheck says so.
    while (__syncthreads_or(d >= kBlock)) {
      if (d >= kBlock) atomicMax(&s_owner, (int)threadIdx.x);
      __syncthreads();
      if (s_owner == (int)threadIdx.x) {
        s_u = u;
        s_b = b;
        s_d = d;
        d = 0;
      }
      __syncthreads();
      if (threadIdx.x == 0) s_owner = -1;  // read by all above; claimed again only after the next barrier
      const gr_vid bu = s_u;
      const gr_eid bb = s_b, bd = s_d;
      for (gr_eid at = Lists::align(bb); at < bb + bd; at += kBlock) {
        const gr_eid e = at + threadIdx.x;
        const bool valid = e >= bb && e < bb + bd;
        const gr_vid v = lists.warp_id(valid, bu, bb, e, valid && lane && e > bb, false, 0);
        const bool keep = valid && visit(bu, v, e);
        if (cull) q.push_unique(keep, v);
        else q.push(keep, v);
      }
    }
    // Warp: one vertex at a time per warp.
    while (__any_sync(kFullMask, d >= 32)) {
      const int src = __ffs(__ballot_sync(kFullMask, d >= 32)) - 1;
      const gr_vid wu = __shfl_sync(kFullMask, u, src);
      const gr_eid wb = __shfl_sync(kFullMask, b, src), wd = __shfl_sync(kFullMask, d, src);
      if (lane == src) d = 0;
      for (gr_eid at = Lists::align(wb); at < wb + wd; at += 32) {
        const gr_eid e = at + lane;
        const bool valid = e >= wb && e < wb + wd;
        const gr_vid v = lists.warp_id(valid, wu, wb, e, valid && lane && e > wb, false, 0);
        const bool keep = valid && visit(wu, v, e);
        q.warp_push(keep, v);
      }
    }
    q.sync();
    // Thread: the tile's remaining edges (< 32 per vertex) as one list.
    unsigned start = 0, total = 0;
    Scan(scan_tmp).ExclusiveSum((unsigned)d, start, total);
    s_start[threadIdx.x] = start;
    s_src[threadIdx.x] = u;
    s_first[threadIdx.x] = b;
    __syncthreads();
    for (unsigned r = 0; r < total; r += kBlock) {
      const unsigned rank = r + threadIdx.x;
      const bool valid = rank < total;
      gr_vid u = 0;
      gr_eid first = 0, e = 0;
      if (valid) {
        // The last vertex starting at or before rank (one with no edges
        // left shares its start with the next, so the last is the owner).
        int lo = 0, hi = kBlock - 1;
        while (lo < hi) {
          const int mid = (lo + hi + 1) >> 1;
          if (s_start[mid] <= rank) lo = mid;
          else hi = mid - 1;
        }
        u = s_src[lo];
        first = s_first[lo];
        e = first + (rank - s_start[lo]);
      }
      const gr_vid v = lists.warp_id(valid, u, first, e, valid && lane && e != first, false, 0);
      const bool keep = valid && visit(u, v, e);
      if (cull) q.push_unique(keep, v);
      else q.push(keep, v);
    }
    __syncthreads();  // the next tile rewrites the shared arrays and the scan storage
  }
  q.finish(deg_ctr);
  block_add<kBlock>(visited, edges);
}

// Warp-aggregated enqueue that also sums and maxes the out-degrees of what
// it emits (the next level's size in edges). Every lane of the warp calls it.
__device__ __forceinline__ void warp_emit_deg(bool pred, gr_vid v, const gr_eid *__restrict__ offsets,
                                              gr_vid *out, gr_eid cap, unsigned long long *count,
                                              unsigned long long *edges, unsigned long long *max_deg) {
  unsigned ballot = __ballot_sync(kFullMask, pred);
  if (!ballot) return;
  const int lane = threadIdx.x & 31;
  unsigned long long d = pred ? (unsigned long long)(offsets[v + 1] - offsets[v]) : 0ull;
  unsigned long long sum = d, mx = d;
  warp_sum_max(sum, mx);
  const int leader = __ffs(ballot) - 1;
  unsigned long long base = 0;
  if (lane == leader) {
    base = atomicAdd(count, (unsigned long long)__popc(ballot));
    atomicAdd(edges, sum);
    atomicMax(max_deg, mx);
  }
  base = __shfl_sync(kFullMask, base, leader);
  if (pred) {
    unsigned long long pos = base + (unsigned long long)__popc(ballot & ((1u << lane) - 1u));
    if (pos < cap) out[pos] = v;
  }
}

// Counters of advance_push_levels, in the workspace: three sets of (size,
// edges, max degree) used round-robin by level, then the result.
enum { kLvSize = 0, kLvEdges = 1, kLvMaxDeg = 2, kLvSets = 3, kLvLevels = 9, kLvEdgesVisited = 10,
       kLvCounters = 11 };

template <class Lists, class LevelVisit>
__global__ void __launch_bounds__(kBlock)
    advance_push_levels_kernel(const gr_eid *__restrict__ offsets, Lists lists,
                               gr_vid *q0, gr_vid *q1, gr_eid cap, int first_level, int max_levels,
                               gr_eid max_vertices, gr_eid max_edges, gr_eid max_degree, gr_eid n_in,
                               gr_eid *__restrict__ level_sizes, gr_vid *__restrict__ trail, gr_eid trail_cap,
                               const uint32_t *stop, unsigned long long *ctr, LevelVisit visit) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  const int lane = threadIdx.x & 31;
  const gr_eid warp = (blockIdx.x * (gr_eid)blockDim.x + threadIdx.x) >> 5;
  const gr_eid warps = ((gr_eid)gridDim.x * blockDim.x) >> 5;
  unsigned long long visited = 0;
  // The input's size, edges and largest degree, which the first level's
  // check needs (the counters start zeroed).
  {
    if (blockIdx.x == 0 && threadIdx.x == 0) ctr[kLvSize] = n_in;
    unsigned long long sum = 0, mx = 0;
    list_degrees(offsets, q0, n_in, sum, mx);
    static_assert(kLvMaxDeg == kLvEdges + 1, "block_add_max writes a sum and the maximum after it");
    block_add_max(sum, mx, ctr + kLvEdges);
    grid.sync();
  }
  int l = 0;
  gr_eid trail_used = 0;
  for (;; l++) {
    // Set l % 3 describes this level's input, (l + 1) % 3 collects its
    // output; (l + 2) % 3 was last read before the previous barrier.
    unsigned long long *cur = ctr + 3 * (l % kLvSets);
    unsigned long long *nxt = ctr + 3 * ((l + 1) % kLvSets);
    if (blockIdx.x == 0 && threadIdx.x == 0) {
      unsigned long long *old = ctr + 3 * ((l + 2) % kLvSets);
      old[kLvSize] = old[kLvEdges] = old[kLvMaxDeg] = 0;
    }
    const gr_eid n = cur[kLvSize];
    // A raise from a finished level (at most first_level + l) ends the loop
    // in every block; one from this level, by a faster block, in none.
    const uint32_t raised = stop ? *(volatile const uint32_t *)stop : 0u;
    if (n == 0 || n > max_vertices || cur[kLvEdges] > max_edges || cur[kLvMaxDeg] > max_degree ||
        l >= max_levels || (raised && raised <= (uint32_t)(first_level + l)) || (trail && trail_used + n > trail_cap))
      break;
    if (blockIdx.x == 0 && threadIdx.x == 0) level_sizes[l] = n;
    const gr_vid *in = (l & 1) ? q1 : q0;
    gr_vid *out = (l & 1) ? q0 : q1;
    if (trail) {
      for (gr_eid i = blockIdx.x * (gr_eid)blockDim.x + threadIdx.x; i < n; i += (gr_eid)gridDim.x * blockDim.x)
        trail[trail_used + i] = in[i];
      trail_used += n;
    }
    const int level = first_level + l;
    // G lanes per vertex, as many as the grid's threads allow (one lane per
    // vertex for large frontiers, a whole warp for tiny ones), so a level
    // of few vertices still spreads its edges over the grid.
    int G = 32;
    while (G > 1 && (gr_eid)G * n > warps * 32) G >>= 1;
    const int per_warp = 32 / G, sub = lane % G;
    for (gr_eid base = warp * per_warp; base < n; base += warps * per_warp) {
      const gr_eid i = base + lane / G;
      const bool valid = i < n;
      gr_vid u = 0;
      gr_eid b = 0, d = 0;
      if (valid) {
        u = in[i];
        b = offsets[u];
        d = offsets[u + 1] - b;
        if (sub == 0) visited += d;
      }
      // Vertices of more than 32 edges: the whole warp takes them one by
      // one, 32 edges at a time.
      unsigned big = __ballot_sync(kFullMask, valid && sub == 0 && d > 32);
      while (big) {
        const int src = __ffs(big) - 1;
        big &= big - 1;
        const gr_vid bu = __shfl_sync(kFullMask, u, src);
        const gr_eid bb = __shfl_sync(kFullMask, b, src), bd = __shfl_sync(kFullMask, d, src);
        for (gr_eid at = Lists::align(bb); at < bb + bd; at += 32) {
          const gr_eid e = at + lane;
          const bool valid = e >= bb && e < bb + bd;
          const gr_vid v = lists.warp_id(valid, bu, bb, e, valid && lane && e > bb, false, 0);
          const bool keep = valid && visit(level, bu, v, e);
          warp_emit_deg(keep, v, offsets, out, cap, nxt + kLvSize, nxt + kLvEdges, nxt + kLvMaxDeg);
        }
      }
      // The others: each group of G lanes strides its vertex's edges, in
      // step across the warp.
      const gr_eid mine = valid && d <= 32 ? d : 0;
      gr_eid most = (mine + G - 1) / G;
      for (int o = 16; o; o >>= 1) {
        gr_eid other = __shfl_xor_sync(kFullMask, most, o);
        most = other > most ? other : most;
      }
      // The group's first lane carries on from the id its last lane read
      // in the round before (the edge before its own).
      gr_vid last = 0;
      for (gr_eid r = 0; r < most; r++) {
        const gr_eid k = r * G + sub;
        const bool valid = k < mine;
        const gr_vid v = lists.warp_id(valid, u, b, b + k, valid && sub > 0, r > 0 && sub == 0, last);
        const bool keep = valid && visit(level, u, v, b + k);
        last = __shfl_sync(kFullMask, v, lane | (G - 1));
        warp_emit_deg(keep, v, offsets, out, cap, nxt + kLvSize, nxt + kLvEdges, nxt + kLvMaxDeg);
      }
    }
    grid.sync();
  }
  if (visited) atomicAdd(ctr + kLvEdgesVisited, visited);
  if (blockIdx.x == 0 && threadIdx.x == 0) ctr[kLvLevels] = (unsigned long long)l;
}

// Pull, one thread per candidate: vertices of at most `light` in-edges
// scan them alone (most vertices of a large pull find a parent among their
// first few); heavier ones are set aside for the warp kernel, so no thread
// walks a hub's in-edges by itself, once the thread has tested their first
// `tries` in-edges (gr_tuning.pull_try; 8 by default). A thread loads
// kPullBatch in-edges and their frontier bits at once (independent loads in
// flight together) before testing them in order, so a candidate costs
// about two memory round trips per batch rather than two per edge.
constexpr int kPullBatch = 4;

// A pull's finds into a bitmap (gr_advance_pull_args.found_bits): the lanes
// of a warp whose ids share a word or their bits together and one of them
// sets them, one atomic a word instead of one a find. Candidates run in id
// order, so a warp's finds mostly share a few words (DOBFS's biggest pull on
// Kronecker 25 between two devices: 5.9 M reductions at the L2 a device, up
// to 32 of them on one word). Every lane of the warp calls it. The word
// goes to its slot among the part's own words where the bits are kept so
// (gr_advance_pull_args.found_slots).
__device__ __forceinline__ void warp_set_found(uint32_t *bits, const gr_owner_slots &slots, bool found, gr_vid v) {
  const unsigned long long word = found ? (unsigned long long)(v >> 5) : ~0ull;
  const unsigned peers = __match_any_sync(kFullMask, word);
  const unsigned all = __reduce_or_sync(peers, found ? 1u << (v & 31u) : 0u);
  if (found && (int)(threadIdx.x & 31) == __ffs((int)peers) - 1) atomicOr(&bits[gr_owner_slot(slots, word)], all);
}

template <class Lists, class Wanted, class Visit>
__global__ void __launch_bounds__(kBlock, Lists::kPullMinBlocks)
    advance_pull_thread_kernel(const gr_eid *__restrict__ offsets, Lists lists,
                               const uint32_t *__restrict__ fbits, const gr_vid *__restrict__ cand, gr_eid n,
                               gr_vid *__restrict__ out, gr_eid cap, unsigned long long *count,
                               unsigned long long *edges, gr_vid *heavy, unsigned long long *n_heavy,
                               gr_eid light, const gr_eid *deg, unsigned long long *deg_ctr, gr_vid *rem,
                               gr_eid rem_cap, unsigned long long *n_rem, uint32_t *found_bits,
                               gr_owner_slots found_slots, gr_eid tries, Wanted wanted,
                               Visit visit) {
  __shared__ typename BlockQueue<kBlock>::Storage qs, hs, rs;
  BlockQueue<kBlock> q(qs, out, cap, count, deg), h(hs, heavy, n, n_heavy), r(rs, rem, rem_cap, n_rem);
  unsigned long long examined = 0;
  for (gr_eid base = blockIdx.x * (gr_eid)kBlock; base < n; base += (gr_eid)gridDim.x * kBlock) {
    const gr_eid i = base + threadIdx.x;
    bool found = false, big = false, want = false;
    gr_vid v = 0;
    if (i < n) {
      v = cand ? cand[i] : (gr_vid)i;
      want = wanted(v);
      if (want) {
        const gr_eid b = offsets[v], end = offsets[v + 1];
        // A heavy row: its first `tries` in-edges here, the rest (where
        // none of them is a parent) from the warp kernel, which starts
        // past them (gr_tuning.pull_try).
        const bool heavy = end - b > light;
        const gr_eid stop = heavy ? b + tries : end;  // tries <= light
        if (stop > b) {
          typename Lists::Cursor cur;
          lists.begin(cur, v, b);
          for (gr_eid k = b; k < stop && !found; k += kPullBatch) {
            gr_vid u[kPullBatch];
            bool hit[kPullBatch];
#pragma unroll
            for (int j = 0; j < kPullBatch; j++) u[j] = k + j < stop ? lists.at(cur, k + j) : 0;
#pragma unroll
            for (int j = 0; j < kPullBatch; j++) hit[j] = k + j < stop && frontier_test(fbits, u[j]);
#pragma unroll
            for (int j = 0; j < kPullBatch; j++) {
              if (k + j >= stop) break;
              examined++;
              if (hit[j] && visit(u[j], v, k + j)) {
                found = true;
                break;
              }
            }
          }
        }
        big = heavy && !found;
      }
    }
    if (found_bits) warp_set_found(found_bits, found_slots, found, v);
    q.push(found, v);
    h.push(big, v);
    // Still unvisited and not found (heavy ones: decided by the warp kernel).
    if (rem) r.push(want && !found && !big, v);
  }
  q.finish(deg_ctr);
  h.finish();
  r.finish();
  block_add<kBlock>(examined, edges);
}

// Pull, a warp per candidate, 32 candidates at a time: lane j first loads
// candidate j's id, whether it is wanted, its row and the row's first block
// (Lists::head), so that 32 candidates' chains of dependent loads are in
// flight together; the warp then walks each wanted row in turn, 32 edges a
// round, from its looked-up block (past the first `skip` edges of each row,
// which the thread kernel tested). Walked one at a time, every candidate
// paid that whole chain before its first id (packed lists one lookup more
// than plain ids), and the kernel waited on memory (DOBFS Kronecker 25's
// big pull level: docs/performance.md).
template <class Lists, class Wanted, class Visit>
__global__ void __launch_bounds__(kBlock)
    advance_pull_warp_kernel(const gr_eid *__restrict__ offsets, Lists lists,
                             const uint32_t *__restrict__ fbits, const gr_vid *__restrict__ cand,
                             gr_eid n, const unsigned long long *n_dev, gr_vid *__restrict__ out, gr_eid cap,
                             unsigned long long *count, unsigned long long *edges, const gr_eid *deg,
                             unsigned long long *deg_ctr, gr_vid *rem, gr_eid rem_cap, unsigned long long *n_rem,
                             uint32_t *found_bits, gr_owner_slots found_slots, gr_eid skip,
                             Wanted wanted, Visit visit) {
  const int lane = threadIdx.x & 31;
  __shared__ typename BlockQueue<kBlock>::Storage qs, rs;
  BlockQueue<kBlock> q(qs, out, cap, count, deg), r(rs, rem, rem_cap, n_rem);
  unsigned long long examined = 0;
  if (n_dev) n = (gr_eid)*n_dev;  // written by the kernel before this one
  // The bound is block-uniform, as the queue needs.
  for (gr_eid base = blockIdx.x * (gr_eid)kBlock; base < n; base += (gr_eid)gridDim.x * kBlock) {
    const gr_eid w = base + threadIdx.x;  // this lane's candidate
    gr_vid v = 0;
    gr_eid b = 0, end = 0;
    typename Lists::Head head{};
    if (w < n) v = cand ? cand[w] : (gr_vid)w;
    const bool want = w < n && wanted(v);
    if (want) {
      b = offsets[v];
      end = offsets[v + 1];
      // The first edge to test: a heavy candidate's thread tested the
      // first `skip` of its row already (the thread kernel's tries, none a
      // parent). The walk starts at the block holding it, whose ids packed
      // lists decode from the block's or the row's start (b stays the
      // row's start; at its end where nothing is left to test).
      if (end - b > skip) head = lists.head(b + skip);
      else b = end;
    }
    bool mine = false;  // lane j: candidate j found a parent
    for (unsigned todo = __ballot_sync(kFullMask, end > b); todo; todo &= todo - 1) {
      const int j = __ffs(todo) - 1;
      const gr_vid vj = __shfl_sync(kFullMask, v, j);
      const gr_eid bj = __shfl_sync(kFullMask, b, j), ej = __shfl_sync(kFullMask, end, j);
      const gr_eid fj = bj + skip;  // below ej (above)
      typename Lists::Head h = Lists::share(head, j);
      bool found = false;
      for (gr_eid chunk = Lists::align(fj); chunk < ej && !found; chunk += 32) {
        const gr_eid k = chunk + lane;
        const bool valid = k >= bj && k < ej;
        if (chunk != Lists::align(fj)) h = lists.head(chunk);
        const gr_vid u = lists.warp_id_aligned(h, valid, vj, bj, k);
        const bool tested = valid && k >= fj;
        const bool hit = tested && frontier_test(fbits, u);
        unsigned bal = __ballot_sync(kFullMask, hit);
        // Edges examined: the chunk's, or those up to the parent found.
        const unsigned in_row = __ballot_sync(kFullMask, tested);
        gr_eid span = (gr_eid)__popc(in_row);
        while (bal) {
          int l = __ffs(bal) - 1;
          gr_vid ul = __shfl_sync(kFullMask, u, l);
          gr_eid kl = __shfl_sync(kFullMask, k, l);
          int ok = 0;
          if (lane == 0) ok = visit(ul, vj, kl) ? 1 : 0;
          ok = __shfl_sync(kFullMask, ok, 0);
          if (ok) {
            found = true;
            span = (gr_eid)__popc(in_row & ((2u << l) - 1u));
            break;
          }
          bal &= bal - 1;
        }
        examined += span;
      }
      if (lane == j) mine = found;
    }
    if (found_bits) warp_set_found(found_bits, found_slots, mine, v);
    q.push(mine, v);
    if (rem) r.push(want && !mine, v);
  }
  q.finish(deg_ctr);
  r.finish();
  block_add<kBlock>(lane == 0 ? examined : 0, edges);
}

template <class Keep>
__global__ void __launch_bounds__(kBlock)
    filter_kernel(const gr_vid *__restrict__ in, gr_eid n, gr_vid *__restrict__ out, gr_eid cap,
                  uint32_t *cull, unsigned long long *count, Keep keep) {
  __shared__ typename BlockQueue<kBlock>::Storage qs;
  BlockQueue<kBlock> q(qs, out, cap, count);
  for (gr_eid base = (gr_eid)blockIdx.x * kBlock; base < n; base += (gr_eid)gridDim.x * kBlock) {
    gr_eid i = base + threadIdx.x;
    bool k = false;
    gr_vid v = 0;
    if (i < n) {
      v = in ? in[i] : (gr_vid)i;
      k = keep(v) && (!cull || gr_bitmap_test_and_set(cull, v));
    }
    q.push(k, v);
  }
  q.finish();
}

// Two block-staged queues, one per class; every thread pushes to both each
// round (the queues need block-uniform calls).
template <class Klass>
__global__ void __launch_bounds__(kBlock)
    split_kernel(const gr_vid *__restrict__ in, gr_eid n, const gr_eid *n_at, gr_vid first, gr_eid n_first,
                 gr_vid *__restrict__ out0, gr_eid cap0, gr_vid *__restrict__ out1, gr_eid cap1,
                 unsigned long long *count, Klass klass) {
  // The input's size where an earlier pass on the stream left it (n a
  // bound): the same for every thread, so the loop's bound stays uniform.
  if (n_at && *n_at < n) n = *n_at;
  __shared__ typename BlockQueue<kBlock>::Storage qs0, qs1;
  BlockQueue<kBlock> q0(qs0, out0, cap0, count), q1(qs1, out1, cap1, count + 1);
  for (gr_eid base = (gr_eid)blockIdx.x * kBlock; base < n; base += (gr_eid)gridDim.x * kBlock) {
    const gr_eid i = base + threadIdx.x;
    int k = -1;
    gr_vid v = 0;
    if (i < n) {
      v = gr_split_item(in, first, n_first, i);
      k = klass(v);
    }
    q0.push(k == 0, v);
    q1.push(k == 1, v);
  }
  q0.finish();
  q1.finish();
}

// A warp per kBitmapWords words at a time, a ballot per word: lane l tests
// id l of each word, so the predicate's reads are coalesced, and the
// words' reads are independent, so a thread has kBitmapWords of them in
// flight. With one read a thread the resident warps held about 1 MB in
// flight, too little for the HBM: DOBFS's frontier pass over Kronecker 25's
// depths (134 MB) took 68-70 us on an H200, 1.9 TB/s.
constexpr int kBitmapWords = 4;
template <class Pred>
__global__ void __launch_bounds__(kBlock) bitmap_kernel(gr_vid n, uint32_t *__restrict__ bits, bool keep, Pred pred) {
  const gr_eid words = ((gr_eid)n + 31) / 32;
  const int lane = threadIdx.x & 31;
  const gr_eid warp = ((gr_eid)blockIdx.x * kBlock + threadIdx.x) >> 5;
  const gr_eid stride = ((gr_eid)gridDim.x * kBlock >> 5) * kBitmapWords;
  // The bound is warp-uniform: whole warps enter the ballots together.
  for (gr_eid w0 = warp * kBitmapWords; w0 < words; w0 += stride) {
    bool hit[kBitmapWords];
#pragma unroll
    for (int j = 0; j < kBitmapWords; j++) {
      const gr_eid i = (w0 + j) * 32 + lane;
      hit[j] = i < n && pred((gr_vid)i);
    }
    unsigned mine = 0;  // lane j keeps word j: one store for the group
#pragma unroll
    for (int j = 0; j < kBitmapWords; j++) {
      const unsigned word = __ballot_sync(kFullMask, hit[j]);
      if (lane == j) mine = word;
    }
    if (lane < kBitmapWords && w0 + lane < words) bits[w0 + lane] = keep ? bits[w0 + lane] | mine : mine;
  }
}

template <class Op>
__global__ void __launch_bounds__(kBlock) for_each_kernel(const gr_vid *__restrict__ in, gr_eid n, gr_vid first,
                                                          Op op) {
  for (gr_eid i = blockIdx.x * (gr_eid)kBlock + threadIdx.x; i < n; i += (gr_eid)gridDim.x * kBlock)
    op(in ? in[i] : (gr_vid)(first + i));
}

inline unsigned max_blocks(gr_device *dev) {
  int sms = gr_device_sm_count(dev);
  return (unsigned)(sms > 0 ? sms : 16) * 8u;
}

// Blocks of kBlock threads of `kernel` (with `dynamic` bytes of dynamic
// shared memory each) that fit on an SM at once (0 when the query fails).
template <class Kernel>
int blocks_per_sm(Kernel kernel, size_t dynamic = 0) {
  int b = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, kernel, kBlock, dynamic) != cudaSuccess) {
    (void)cudaGetLastError();  // the query's own failure, cleared: the launch then uses `want`
    return 0;
  }
  return b;
}

// A grid-stride launch of `want` blocks, cut to those resident at once
// when fewer fit (per_sm from blocks_per_sm): a second, partial wave would
// leave most SMs idle while it runs (packed lists' decode takes the push
// kernels past 32 registers, to 6 blocks an SM).
inline unsigned resident_grid(gr_device *dev, int per_sm, unsigned want) {
  const int sms = gr_device_sm_count(dev);
  if (per_sm < 1 || sms < 1) return want;
  const unsigned most = (unsigned)sms * (unsigned)per_sm;
  return want < most ? want : most;
}

inline gr_status check_overflow(unsigned long long count, gr_eid cap, const char *op) {
  if (count > cap)
    return gr_errorf(GR_ERR_INTERNAL, "%s produced %llu items for an output of capacity %llu", op,
                     count, (unsigned long long)cap);
  return GR_SUCCESS;
}

// TWC pays for a hub with one block walking it alone, hub after hub; the
// edge-balanced advance pays a pre-pass and a search per edge. advance=auto
// measures the frontier and takes TWC only when no vertex needs the block
// phase: on the H100, TWC was 7% faster than the edge-balanced advance on
// uniform 2^22 (largest degree ~70) but 5.8x slower on Kronecker 22, whose
// big levels hold hubs of 10^4-10^5 edges (docs/performance.md).
inline bool twc_fits(unsigned long long edges, unsigned long long max_degree) {
  return edges > 0 && max_degree < (unsigned long long)kBlock;
}

// The push advances' counters: ids written, edges visited, the output's
// degree sum and maximum.
inline gr_status push_results(gr_workspace *ws, gr_advance_push_args *a, const char *op) {
  if (a->counts_later) {
    // Left where the kernels wrote them (gr_advance_push_args.counts): the
    // caller's next pass reads them on the stream, and the overflow check
    // is its (the kernels wrote at most out_capacity ids).
    a->counts = (const gr_eid *)ws->counters.ptr;
    a->n_out = a->out_capacity;
    a->edges = a->out_edges = a->out_max_degree = 0;
    return GR_SUCCESS;
  }
  GR_CHECK(gr_workspace_read_counters(ws, 4));
  GR_CHECK(check_overflow(ws->host_counters[0], a->out_capacity, op));
  a->n_out = ws->host_counters[0];
  a->edges = ws->host_counters[1];
  a->out_edges = ws->host_counters[2];
  a->out_max_degree = ws->host_counters[3];
  return GR_SUCCESS;
}

template <class Lists, class Visit>
gr_status advance_push_twc(gr_device *dev, gr_workspace *ws, gr_advance_push_args *a, Lists lists, Visit visit) {
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  GR_CHECK(gr_workspace_zero_counters(ws, 4));
  unsigned long long *ctr = (unsigned long long *)ws->counters.ptr;
  static const int per_sm = blocks_per_sm(advance_push_twc_kernel<Lists, Visit>);
  advance_push_twc_kernel<Lists, Visit><<<resident_grid(dev, per_sm, grid_for(a->n_in, kBlock, max_blocks(dev))),
                                          kBlock, 0, s>>>(
      a->g->offsets, lists, a->in, a->n_in, a->out, a->out_capacity, ctr, ctr + 1, a->next_offsets,
      ctr + 2, a->idempotent, visit);
  GR_CUDA_CHECK_LAUNCH(dev);
  return push_results(ws, a, "advance (push, twc)");
}

// Whether a row has at least min edges (the long rows of advance_push_rows).
struct LongRow {
  const gr_eid *offsets;
  gr_eid min;
  __device__ __forceinline__ bool operator()(gr_vid u) const { return offsets[u + 1] - offsets[u] >= min; }
};

// The least arcs a level's input holds before the automatic choice walks
// its long rows (see advance_push).
constexpr gr_eid kWalkMinArcs = (gr_eid)1 << 25;
// A block's dynamic shared memory for its warps' copies of their blocks:
// stage_words and two of look-ahead a warp, as advance_push_rows_kernel
// lays them out (none for stage_words 0: the blocks are read in place).
constexpr size_t walk_stage_bytes(unsigned stage_words) {
  return stage_words ? (size_t)kBlock / 32 * (stage_words + 2) * sizeof(uint32_t) : 0;
}

// The edge-balanced push with rows of at least long_rows edges walked
// a thread per 32-edge block (advance_push_rows_kernel): the input
// partitioned (long rows first, CUB), one scan of block counts for the long
// rows and degrees for the others, the long rows' kernel, then the others'
// (the edge-balanced kernel from the first short row, read on the device:
// no host round trip).
template <class Lists, class Visit>
gr_status advance_push_rows(gr_device *dev, gr_workspace *ws, gr_advance_push_args *a, Lists lists, Visit visit,
                            gr_eid long_rows) {
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  const LongRow pred{a->g->offsets, long_rows};
  unsigned long long *ctr = (unsigned long long *)ws->counters.ptr;
  // ctr: 0 ids written, 1 edges, 2-3 the output's degrees, 4 long rows.
  size_t part_temp = 0, scan_temp = 0;
  GR_CUDA_CHECK(cub::DevicePartition::If(nullptr, part_temp, a->in, (gr_vid *)nullptr, ctr + 4, a->n_in, pred, s));
  GR_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_temp, (gr_eid *)nullptr, (gr_eid *)nullptr, a->n_in + 1, s));
  GR_CHECK(gr_buffer_reserve(&ws->scan, dev, (a->n_in + 1) * sizeof(gr_eid), 0, &ws->policy, 0,
                             "advance degree scan"));
  GR_CHECK(gr_buffer_reserve(&ws->sorted, dev, a->n_in * sizeof(gr_vid), 0, &ws->policy, 0,
                             "advance partitioned input"));
  GR_CHECK(gr_buffer_reserve(&ws->temp, dev, part_temp > scan_temp ? part_temp : scan_temp, 0, &ws->policy, 0,
                             "CUB scan storage"));
  gr_eid *scan = (gr_eid *)ws->scan.ptr;
  const gr_vid *in = (const gr_vid *)ws->sorted.ptr;
  GR_CHECK(gr_workspace_zero_counters(ws, 5));
  GR_CUDA_CHECK_LIB(dev, cub::DevicePartition::If(ws->temp.ptr, part_temp, a->in, (gr_vid *)ws->sorted.ptr, ctr + 4,
                                                  a->n_in, pred, s));
  rows_degree_kernel<<<grid_for(a->n_in + 1, kBlock, max_blocks(dev)), kBlock, 0, s>>>(a->g->offsets, in, a->n_in,
                                                                                       ctr + 4, scan, ctr + 1);
  GR_CUDA_CHECK_LAUNCH(dev);
  GR_CUDA_CHECK_LIB(dev, cub::DeviceScan::ExclusiveSum(ws->temp.ptr, scan_temp, scan, scan, a->n_in + 1, s));
  // The warps' copies of their blocks (walk_stage): where asked, or (auto)
  // where the walk's scattered reads make the L2 the wall
  // (gr_tuning_walk_stage).
  const bool stage = Lists::kWalkStageWords > 0 &&
                     gr_tuning_walk_stage(&ws->tune, (uint64_t)a->g->n, gr_device_l2_bytes(dev),
                                          gr_device_memory_bandwidth(dev));
  const unsigned stage_words = stage ? Lists::kWalkStageWords : 0u;
  static const int rows_per_sm[2] = {
      blocks_per_sm(advance_push_rows_kernel<Lists, Visit>),
      blocks_per_sm(advance_push_rows_kernel<Lists, Visit>, walk_stage_bytes(Lists::kWalkStageWords))};
  advance_push_rows_kernel<Lists, Visit>
      <<<resident_grid(dev, rows_per_sm[stage], max_blocks(dev)), kBlock, walk_stage_bytes(stage_words), s>>>(
          a->g->offsets, lists, in, ctr + 4, scan, a->out, a->out_capacity, ctr, a->next_offsets, ctr + 2,
          a->idempotent, visit, stage_words);
  GR_CUDA_CHECK_LAUNCH(dev);
  static const int lb_per_sm = blocks_per_sm(advance_push_lb_kernel<Lists, Visit>);
  advance_push_lb_kernel<Lists, Visit><<<resident_grid(dev, lb_per_sm, max_blocks(dev)), kBlock, 0, s>>>(
      a->g->offsets, lists, in, a->n_in, scan, a->out, a->out_capacity, ctr, a->next_offsets, ctr + 2, a->idempotent,
      visit, ctr + 4);
  GR_CUDA_CHECK_LAUNCH(dev);
  return push_results(ws, a, "advance (push, long rows)");
}

template <class Lists, class Visit>
gr_status advance_push_with(gr_device *dev, gr_workspace *ws, gr_advance_push_args *a, Lists lists, Visit visit) {
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  if (ws->tune.advance == GR_ADVANCE_TWC) return advance_push_twc(dev, ws, a, lists, visit);
  if (ws->tune.advance == GR_ADVANCE_AUTO) {
    gr_eid edges = a->in_edges, max_degree = a->in_max_degree;
    if (!a->in_known) {
      GR_CHECK(gr_workspace_zero_counters(ws, 2));
      frontier_stats_kernel<<<grid_for(a->n_in, kBlock, max_blocks(dev)), kBlock, 0, s>>>(
          a->g->offsets, a->in, a->n_in, (unsigned long long *)ws->counters.ptr);
      GR_CUDA_CHECK_LAUNCH(dev);
      GR_CHECK(gr_workspace_read_counters(ws, 2));
      edges = ws->host_counters[0];
      max_degree = ws->host_counters[1];
    }
    if (twc_fits(edges, max_degree)) return advance_push_twc(dev, ws, a, lists, visit);
  }
  // Lists in host memory come over the host link fastest in address order:
  // the input sorted by id first (a radix sort over the ids' bits), where
  // asked or where the graph is in host memory and the input is large.
  const bool sort = ws->tune.sort_input == GR_SORT_ON ||
                    (ws->tune.sort_input == GR_SORT_AUTO && ws->graph_on_host && a->n_in >= 4096);
  // Rows walked a block at a time: where asked, or (auto) with lists whose
  // reader gains by it, on levels whose rows average a block or more (a
  // row's first and last blocks leave lanes idle: on shorter rows those
  // cost more than the decode saves) and that read enough arcs to repay
  // the partition pass and the extra launches (about 0.1 ms). Measured per
  // level on Kronecker 22 and 25, packed: levels of 2^25+ arcs averaging
  // 36+ arcs a row gain 5-30 %, those averaging 28 or fewer lose 5-45 %
  // whatever their size, and levels under 2^25 arcs (DOBFS's push levels)
  // gain nothing or lose.
  gr_eid long_rows = ws->tune.long_rows;
  if (long_rows == GR_LONG_ROWS_AUTO)
    long_rows = Lists::kLongRows > 0 && a->in_known && a->in_edges >= kWalkMinArcs &&
                        a->in_edges >= (gr_eid)Lists::kLongRows * a->n_in
                    ? Lists::kLongRows
                    : 0;
  if (!sort && long_rows > 0) return advance_push_rows(dev, ws, a, lists, visit, long_rows);
  GR_CHECK(gr_buffer_reserve(&ws->scan, dev, (a->n_in + 1) * sizeof(gr_eid), 0, &ws->policy, 0,
                             "advance degree scan"));
  gr_eid *scan = (gr_eid *)ws->scan.ptr;
  unsigned long long *ctr = (unsigned long long *)ws->counters.ptr;
  static const int chunked_per_sm = blocks_per_sm(advance_push_chunked_kernel<Lists, Visit>);
  if (!sort && a->n_in <= kSmallPrepMax && ws->tune.advance != GR_ADVANCE_SERIAL) {
    // A small input (between devices every small level comes here; one
    // device runs them in its device-side loop): one block prepares it,
    // and the push's blocks find their chunks' first vertices by a search
    // of at most 13 steps (no chunk table), 3 stream operations where the
    // path below takes 8 (about 50 us a level on an H200 host; the time
    // is the launches', not the kernels').
    small_prep_kernel<<<1, kBlock, 0, s>>>(a->g->offsets, a->in, a->n_in, scan, ctr);
    GR_CUDA_CHECK_LAUNCH(dev);
    unsigned want = max_blocks(dev);
    if (a->in_known) {
      const gr_eid chunks = (a->in_edges + kBlock - 1) / kBlock;
      if (chunks < (gr_eid)want) want = chunks > 0 ? (unsigned)chunks : 1u;
    }
    advance_push_chunked_kernel<Lists, Visit><<<resident_grid(dev, chunked_per_sm, want), kBlock, 0, s>>>(
        a->g->offsets, lists, a->in, a->n_in, scan, (const gr_eid *)nullptr, 0, a->out, a->out_capacity, ctr,
        a->next_offsets, ctr + 2, a->idempotent, visit);
    GR_CUDA_CHECK_LAUNCH(dev);
    return push_results(ws, a, "advance (push)");
  }
  // The degrees are read by the scan itself (InputDegree), and the chunk
  // table's kernel sets the counters: 3 stream operations besides the
  // push, where a memset, a degree pass and a copy of the edges made 6.
  size_t temp = 0, sort_temp = 0;
  GR_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp, input_degrees(a->g->offsets, a->in, a->n_in), scan,
                                              a->n_in + 1, s));
  const gr_vid *in = a->in;
  int bits = 1;
  while (bits < (int)(8 * sizeof(gr_vid)) && ((gr_eid)1 << bits) < (gr_eid)a->g->n) bits++;
  if (sort) {
    GR_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, sort_temp, a->in, (gr_vid *)nullptr, a->n_in, 0, bits, s));
    GR_CHECK(gr_buffer_reserve(&ws->sorted, dev, a->n_in * sizeof(gr_vid), 0, &ws->policy, 0, "advance sorted input"));
  }
  GR_CHECK(gr_buffer_reserve(&ws->temp, dev, temp > sort_temp ? temp : sort_temp, 0, &ws->policy, 0,
                             "CUB scan storage"));
  if (sort) {
    GR_CUDA_CHECK_LIB(dev, cub::DeviceRadixSort::SortKeys(ws->temp.ptr, sort_temp, a->in, (gr_vid *)ws->sorted.ptr,
                                                          a->n_in, 0, bits, s));
    in = (const gr_vid *)ws->sorted.ptr;
  }
  GR_CUDA_CHECK_LIB(dev, cub::DeviceScan::ExclusiveSum(ws->temp.ptr, temp, input_degrees(a->g->offsets, in, a->n_in),
                                                       scan, a->n_in + 1, s));
  if (ws->tune.advance == GR_ADVANCE_SERIAL) {
    GR_CHECK(gr_workspace_zero_counters(ws, 4));
    static const int per_sm = blocks_per_sm(advance_push_lb_kernel<Lists, Visit>);
    advance_push_lb_kernel<Lists, Visit><<<resident_grid(dev, per_sm, max_blocks(dev)), kBlock, 0, s>>>(
        a->g->offsets, lists, in, a->n_in, scan, a->out, a->out_capacity, ctr, a->next_offsets, ctr + 2,
        a->idempotent, visit);
    GR_CUDA_CHECK_LAUNCH(dev);
    GR_CUDA_CHECK(cudaMemcpyAsync(ctr + 1, scan + a->n_in, sizeof(gr_eid), cudaMemcpyDeviceToDevice, s));
  } else {
    // The chunk table covers the frontier's edges: measured ones when the
    // caller knows them (a small level then writes a small table instead of
    // one entry per 256 arcs of the whole graph: 4M entries on Kronecker 25,
    // every level), else the graph's arcs, which bound a frontier of
    // distinct vertices. One with repeated vertices (after an idempotent
    // level) may have more: its measured edges count them, and the kernel
    // searches from scratch past the table's end in any case.
    const gr_eid edges_bound = a->in_known ? a->in_edges : a->g->m;
    const gr_eid max_chunks = edges_bound / kBlock + 2;
    GR_CHECK(gr_buffer_reserve(&ws->chunks, dev, max_chunks * sizeof(gr_eid), 0, &ws->policy, 0,
                               "advance chunk table"));
    gr_eid *chunks = (gr_eid *)ws->chunks.ptr;
    chunk_start_kernel<<<grid_for(max_chunks, kBlock, max_blocks(dev)), kBlock, 0, s>>>(scan, a->n_in, chunks,
                                                                                         max_chunks, ctr);
    GR_CUDA_CHECK_LAUNCH(dev);
    advance_push_chunked_kernel<Lists, Visit><<<resident_grid(dev, chunked_per_sm, max_blocks(dev)), kBlock, 0, s>>>(
        a->g->offsets, lists, in, a->n_in, scan, chunks, max_chunks, a->out, a->out_capacity, ctr,
        a->next_offsets, ctr + 2, a->idempotent, visit);
    GR_CUDA_CHECK_LAUNCH(dev);
  }
  return push_results(ws, a, "advance (push)");
}

template <class Visit>
gr_status advance_push(gr_device *dev, gr_workspace *ws, gr_advance_push_args *a, Visit visit) {
  a->n_out = 0;
  a->edges = 0;
  a->counts = nullptr;
  if (a->n_in == 0) return GR_SUCCESS;
  if (a->g->packed) return advance_push_with(dev, ws, a, PackedLists{*a->g->packed}, visit);
  return advance_push_with(dev, ws, a, PlainLists{a->g->indices}, visit);
}

// Runs levels while the frontier stays small (see gr_advance_levels_args).
// Needs cooperative launch; a->levels = 0 when the input does not fit.
template <class Lists, class LevelVisit>
gr_status advance_push_levels_with(gr_device *dev, gr_workspace *ws, gr_advance_levels_args *a, Lists lists,
                                   LevelVisit visit) {
  static_assert((int)kLvCounters <= (int)GR_WS_COUNTERS, "advance_push_levels counters");
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  unsigned long long *ctr = (unsigned long long *)ws->counters.ptr;
  GR_CUDA_CHECK(cudaMemsetAsync(ctr, 0, kLvCounters * sizeof(unsigned long long), s));
  int blocks = 0;
  GR_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, advance_push_levels_kernel<Lists, LevelVisit>,
                                                              kBlock, 0));
  int sms = gr_device_sm_count(dev);
  if (blocks < 1 || sms < 1) return GR_SUCCESS;
  unsigned grid = (unsigned)sms;  // one block per SM keeps the grid barrier cheap
  const gr_eid *offsets = a->g->offsets;
  gr_vid *q0 = a->queue[0], *q1 = a->queue[1];
  gr_eid cap = a->capacity;
  int first = a->first_level, maxl = a->max_levels;
  gr_eid mv = a->max_vertices, me = a->max_edges, md = a->max_degree, n_in = a->n_in;
  gr_eid *ls = a->level_sizes;
  gr_vid *trail = a->trail;
  gr_eid trail_cap = a->trail_capacity;
  const uint32_t *stop = a->stop;
  void *args[] = {(void *)&offsets, (void *)&lists, (void *)&q0, (void *)&q1, (void *)&cap,
                  (void *)&first, (void *)&maxl, (void *)&mv, (void *)&me, (void *)&md,
                  (void *)&n_in, (void *)&ls, (void *)&trail, (void *)&trail_cap, (void *)&stop,
                  (void *)&ctr, (void *)&visit};
  GR_CUDA_CHECK_LIB(dev, cudaLaunchCooperativeKernel((const void *)advance_push_levels_kernel<Lists, LevelVisit>, grid, kBlock,
                                            args, 0, s));
  unsigned long long h[kLvCounters];
  GR_CUDA_CHECK(cudaMemcpyAsync(h, ctr, sizeof h, cudaMemcpyDeviceToHost, s));
  gr__device_activity_wait();
  GR_CUDA_CHECK(cudaStreamSynchronize(s));
  const int levels = (int)h[kLvLevels];
  a->levels = levels;
  a->out_queue = levels & 1;
  a->n_out = h[3 * (levels % kLvSets) + kLvSize];
  a->out_edges = h[3 * (levels % kLvSets) + kLvEdges];
  a->out_max_degree = h[3 * (levels % kLvSets) + kLvMaxDeg];
  a->edges = h[kLvEdgesVisited];
  GR_CHECK(check_overflow(a->n_out, a->capacity, "advance (levels)"));
  return GR_SUCCESS;
}

template <class LevelVisit>
gr_status advance_push_levels(gr_device *dev, gr_workspace *ws, gr_advance_levels_args *a, LevelVisit visit) {
  a->levels = 0;
  a->out_queue = 0;
  a->n_out = a->n_in;
  a->edges = 0;
  if (a->n_in == 0 || a->n_in > a->max_vertices || a->max_levels < 1) return GR_SUCCESS;
  if (a->g->packed) return advance_push_levels_with(dev, ws, a, PackedLists{*a->g->packed}, visit);
  return advance_push_levels_with(dev, ws, a, PlainLists{a->g->indices}, visit);
}

template <class Lists, class Wanted, class Visit>
gr_status advance_pull_with(gr_device *dev, gr_workspace *ws, gr_advance_pull_args *a, gr_eid n, Lists lists,
                            Wanted wanted, Visit visit) {
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  // Counters: found, edges examined, heavy candidates, out-degree sum/max,
  // candidates remaining.
  GR_CHECK(gr_workspace_zero_counters(ws, 6));
  gr_vid *rem = a->remaining;
  const gr_eid rem_cap = a->remaining_capacity;
  unsigned long long *ctr = (unsigned long long *)ws->counters.ptr;
  // The warp kernel loops over its candidates 32 per warp at a time: a
  // grid of the blocks resident at once (46 registers with plain ids, 48
  // with packed lists: 5 blocks an SM), no partial second wave.
  static const int warp_per_sm = blocks_per_sm(advance_pull_warp_kernel<Lists, Wanted, Visit>);
  static const int thread_per_sm = blocks_per_sm(advance_pull_thread_kernel<Lists, Wanted, Visit>);
  if (ws->tune.pull == GR_PULL_HYBRID) {
    // The heavy candidates go to a list for the warp kernel, which reads
    // their number on the device: no round trip between the two.
    GR_CHECK(gr_buffer_reserve(&ws->scan, dev, (n + 1) * sizeof(gr_vid), 0, &ws->policy, 0, "pull heavy list"));
    gr_vid *heavy = (gr_vid *)ws->scan.ptr;
    // Below the light rows' bound: a heavy row's tries stop short of its end.
    const gr_eid tries = ws->tune.pull_try < ws->tune.pull_light ? ws->tune.pull_try : ws->tune.pull_light;
    // One resident wave of blocks, each looping over its candidates: a
    // block's set-up and its queues' flushes are paid once a block, and
    // between devices each device pays them over fewer candidates. Four
    // waves cost the thread kernels of DOBFS's pulls on Kronecker 25 8 %
    // more instructions and 2.5 % more time than one on 2 logical devices
    // of an H200, 15 % and 7 % on 4, 5 % and 0.8 % on one device
    // (docs/performance.md).
    const unsigned grid = resident_grid(dev, thread_per_sm, grid_for(n, kBlock, max_blocks(dev)));
    advance_pull_thread_kernel<Lists, Wanted, Visit><<<grid, kBlock, 0, s>>>(
        a->g->offsets, lists, a->frontier_bits, a->candidates, n, a->out, a->out_capacity, ctr, ctr + 1,
        heavy, ctr + 2, ws->tune.pull_light, a->next_offsets, ctr + 3, rem, rem_cap, ctr + 5, a->found_bits,
        a->found_slots, tries, wanted, visit);
    GR_CUDA_CHECK_LAUNCH(dev);
    advance_pull_warp_kernel<Lists, Wanted, Visit><<<resident_grid(dev, warp_per_sm, max_blocks(dev)), kBlock, 0, s>>>(
        a->g->offsets, lists, a->frontier_bits, heavy, 0, ctr + 2, a->out, a->out_capacity, ctr, ctr + 1,
        a->next_offsets, ctr + 3, rem, rem_cap, ctr + 5, a->found_bits, a->found_slots, tries, wanted, visit);
    GR_CUDA_CHECK_LAUNCH(dev);
  } else {
    advance_pull_warp_kernel<Lists, Wanted, Visit><<<resident_grid(dev, warp_per_sm, grid_for(n, kBlock, max_blocks(dev))),
                                                     kBlock, 0, s>>>(
        a->g->offsets, lists, a->frontier_bits, a->candidates, n, nullptr, a->out, a->out_capacity, ctr,
        ctr + 1, a->next_offsets, ctr + 3, rem, rem_cap, ctr + 5, a->found_bits, a->found_slots, 0, wanted, visit);
    GR_CUDA_CHECK_LAUNCH(dev);
  }
  GR_CHECK(gr_workspace_read_counters(ws, 6));
  GR_CHECK(check_overflow(ws->host_counters[0], a->out_capacity, "advance (pull)"));
  if (rem) GR_CHECK(check_overflow(ws->host_counters[5], rem_cap, "advance (pull, remaining candidates)"));
  a->n_remaining = rem ? ws->host_counters[5] : 0;
  a->n_out = ws->host_counters[0];
  a->edges = ws->host_counters[1];
  a->out_edges = ws->host_counters[3];
  a->out_max_degree = ws->host_counters[4];
  return GR_SUCCESS;
}

template <class Wanted, class Visit>
gr_status advance_pull(gr_device *dev, gr_workspace *ws, gr_advance_pull_args *a, Wanted wanted,
                       Visit visit) {
  a->n_out = 0;
  a->edges = 0;
  const gr_eid n = a->candidates ? a->n_candidates : (gr_eid)a->g->n;
  if (n == 0) return GR_SUCCESS;
  if (a->g->packed) return advance_pull_with(dev, ws, a, n, PackedLists{*a->g->packed}, wanted, visit);
  return advance_pull_with(dev, ws, a, n, PlainLists{a->g->indices}, wanted, visit);
}

template <class Keep>
gr_status filter(gr_device *dev, gr_workspace *ws, gr_filter_args *a, Keep keep) {
  a->n_out = 0;
  if (a->n_in == 0) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  GR_CHECK(gr_workspace_zero_counters(ws, 1));
  unsigned long long *ctr = (unsigned long long *)ws->counters.ptr;
  filter_kernel<Keep><<<grid_for(a->n_in, kBlock, max_blocks(dev)), kBlock, 0, s>>>(
      a->in, a->n_in, a->out, a->out_capacity, a->cull_bits, ctr, keep);
  GR_CUDA_CHECK_LAUNCH(dev);
  GR_CHECK(gr_workspace_read_counters(ws, 1));
  GR_CHECK(check_overflow(ws->host_counters[0], a->out_capacity, "filter"));
  a->n_out = ws->host_counters[0];
  return GR_SUCCESS;
}

template <class Klass>
gr_status split(gr_device *dev, gr_workspace *ws, gr_split_args *a, Klass klass) {
  a->n_out[0] = a->n_out[1] = 0;
  if (a->n_in == 0) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  // Counts left on the device (counts_at, zeroed by the caller) are read
  // by the caller with its own; n_out stays zero.
  unsigned long long *ctr = (unsigned long long *)a->counts_at;
  if (!ctr) {
    GR_CHECK(gr_workspace_zero_counters(ws, 2));
    ctr = (unsigned long long *)ws->counters.ptr;
  }
  split_kernel<Klass><<<grid_for(a->n_in, kBlock, max_blocks(dev)), kBlock, 0, s>>>(
      a->in, a->n_in, a->n_in_at, a->first, a->n_first, a->out[0], a->out_capacity[0], a->out[1], a->out_capacity[1],
      ctr, klass);
  GR_CUDA_CHECK_LAUNCH(dev);
  if (a->counts_at) return GR_SUCCESS;
  GR_CHECK(gr_workspace_read_counters(ws, 2));
  if (!a->count_past) {
    GR_CHECK(check_overflow(ws->host_counters[0], a->out_capacity[0], "split (first output)"));
    GR_CHECK(check_overflow(ws->host_counters[1], a->out_capacity[1], "split (second output)"));
  }
  a->n_out[0] = ws->host_counters[0];
  a->n_out[1] = ws->host_counters[1];
  return GR_SUCCESS;
}

template <class Pred>
gr_status bitmap(gr_device *dev, gr_bitmap_args *a, Pred pred) {
  if (a->n == 0) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  bitmap_kernel<Pred><<<grid_for(a->n, kBlock * kBitmapWords, max_blocks(dev) * 4), kBlock, 0, s>>>(a->n, a->bits,
                                                                                                     a->keep, pred);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

template <class Op>
gr_status for_each(gr_device *dev, gr_for_each_args *a, Op op) {
  if (a->n == 0) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  for_each_kernel<Op><<<grid_for(a->n, kBlock, max_blocks(dev)), kBlock, 0, s>>>(a->in, a->n, a->first, op);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

}  // namespace gr_cuda

#endif
