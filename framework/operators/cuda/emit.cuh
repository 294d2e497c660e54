// SPDX-License-Identifier: Apache-2.0
// Scan-free enqueue of the ids a kernel emits.
//
// warp_emit: the lanes of a warp that emit reserve room with one atomicAdd
// per warp (ballot + popc). Every lane of the warp calls it together.
//
// BlockQueue: the warps of a block stage their ids in shared memory (warp
// ballot + one shared atomicAdd per warp) and the block reserves room in the
// output with one global atomicAdd per flush of up to kStage ids, writing
// them out coalesced. A single global counter hit once per warp serializes
// at the L2 (on the H100, a big BFS level's ~10^6 warp-level reservations
// on one address cost as much as its edge reads); one per flush does not.
// Every thread of the block calls push() the same number of times (the
// loops that use it have block-uniform bounds) and finish() at the end.
// Given degree offsets, it also sums and maxes the out-degrees of what it
// writes (the next level's edges and largest degree), reading them while
// flushing.
#ifndef GR_CUDA_EMIT_CUH
#define GR_CUDA_EMIT_CUH

#include "gr/types.h"

namespace gr_cuda {

constexpr unsigned kFullMask = 0xffffffffu;

__device__ __forceinline__ void warp_emit(bool pred, gr_vid v, gr_vid *out, gr_eid cap,
                                          unsigned long long *count) {
  unsigned ballot = __ballot_sync(kFullMask, pred);
  if (!ballot) return;
  int lane = threadIdx.x & 31;
  int leader = __ffs(ballot) - 1;
  unsigned long long base = 0;
  if (lane == leader) base = atomicAdd(count, (unsigned long long)__popc(ballot));
  base = __shfl_sync(kFullMask, base, leader);
  if (pred) {
    unsigned long long pos = base + (unsigned long long)__popc(ballot & ((1u << lane) - 1u));
    if (pos < cap) out[pos] = v;
  }
}

// Sum and maximum over the warp, left in every lane. Every lane calls it.
__device__ __forceinline__ void warp_sum_max(unsigned long long &sum, unsigned long long &mx) {
  for (int o = 16; o; o >>= 1) {
    sum += __shfl_xor_sync(kFullMask, sum, o);
    const unsigned long long other = __shfl_xor_sync(kFullMask, mx, o);
    mx = other > mx ? other : mx;
  }
}

// Out-degree sum and maximum of this thread's share (grid-stride) of a list.
__device__ __forceinline__ void list_degrees(const gr_eid *__restrict__ offsets, const gr_vid *__restrict__ list,
                                             gr_eid n, unsigned long long &sum, unsigned long long &mx) {
  for (gr_eid i = blockIdx.x * (gr_eid)blockDim.x + threadIdx.x; i < n; i += (gr_eid)gridDim.x * blockDim.x) {
    const gr_vid u = list[i];
    const unsigned long long d = offsets[u + 1] - offsets[u];
    sum += d;
    mx = d > mx ? d : mx;
  }
}

// Sums (ctr[0]) and maxes (ctr[1]) per-thread values over the block, one
// global atomic of each per block. Every thread of the block calls it.
__device__ __forceinline__ void block_add_max(unsigned long long sum, unsigned long long mx,
                                              unsigned long long *ctr) {
  __shared__ unsigned long long s_sum, s_max;
  warp_sum_max(sum, mx);
  if (threadIdx.x == 0) s_sum = s_max = 0;
  __syncthreads();
  if ((threadIdx.x & 31) == 0 && sum) {
    atomicAdd(&s_sum, sum);
    atomicMax(&s_max, mx);
  }
  __syncthreads();
  if (threadIdx.x == 0 && s_sum) {
    atomicAdd(ctr, s_sum);
    atomicMax(ctr + 1, s_max);
  }
}

// kHistory > 0 adds push_unique: duplicate culling for idempotent
// advances, which may emit a vertex more than once (Merrill's warp culling,
// __match_any_sync, and history culling, a small direct-mapped table of
// recently emitted ids per block). Culling is best effort: it only saves
// duplicate work; correctness never depends on it.
template <int kThreads, int kStage = 1024, int kHistory = 0>
struct BlockQueue {
  static_assert(kStage >= 2 * kThreads, "a flush must leave room for a full round");
  static_assert((kHistory & (kHistory - 1)) == 0, "the history table has a power-of-two size");
  struct Storage {
    gr_vid items[kStage];
    gr_vid history[kHistory > 0 ? kHistory : 1];
    unsigned n;
    unsigned long long base;
  };
  Storage &s;
  gr_vid *out;
  gr_eid cap;
  unsigned long long *count;
  unsigned staged;  // ids in s.items, the same in every thread
  const gr_eid *deg;
  unsigned long long dsum, dmax;

  __device__ BlockQueue(Storage &st, gr_vid *o, gr_eid c, unsigned long long *ct, const gr_eid *deg_offsets = nullptr)
      : s(st), out(o), cap(c), count(ct), staged(0), deg(deg_offsets), dsum(0), dmax(0) {
    if (threadIdx.x == 0) s.n = 0;
    for (int i = threadIdx.x; i < kHistory; i += kThreads) s.history[i] = (gr_vid)~(gr_vid)0;
    __syncthreads();
  }

  // push() after dropping ids this warp emits twice in the same step or
  // this block emitted recently. Every thread of the block calls it.
  __device__ __forceinline__ void push_unique(bool pred, gr_vid v) {
    if (kHistory > 0) {
      const unsigned peers = __match_any_sync(kFullMask, pred ? v : (gr_vid)~(gr_vid)0);
      pred = pred && (__ffs(peers) - 1) == (int)(threadIdx.x & 31);
      if (pred) {
        gr_vid *slot = &s.history[(unsigned)(v ^ (v >> 11)) & (kHistory - 1)];
        if (*slot == v) pred = false;
        else *slot = v;
      }
    }
    push(pred, v);
  }

  __device__ __forceinline__ void count_degree(gr_vid v) {
    const unsigned long long d = (unsigned long long)(deg[v + 1] - deg[v]);
    dsum += d;
    dmax = d > dmax ? d : dmax;
  }

  __device__ __forceinline__ void push(bool pred, gr_vid v) {
    const unsigned ballot = __ballot_sync(kFullMask, pred);
    if (ballot) {
      const int lane = threadIdx.x & 31;
      const int leader = __ffs(ballot) - 1;
      unsigned base = 0;
      if (lane == leader) base = atomicAdd(&s.n, (unsigned)__popc(ballot));
      base = __shfl_sync(kFullMask, base, leader);
      if (pred) s.items[base + __popc(ballot & ((1u << lane) - 1u))] = v;
    }
    // The barrier publishes the staged ids; its count keeps `staged` equal
    // in every thread, so all of them take the flush below or none.
    staged += (unsigned)__syncthreads_count(pred);
    if (staged > kStage - kThreads) flush();
  }

  // deg_ctr: where the degree sum and maximum go (ignored without offsets).
  __device__ void finish(unsigned long long *deg_ctr = nullptr) {
    if (staged) flush();
    if (deg && deg_ctr) block_add_max(dsum, dmax, deg_ctr);
  }

  // For loops whose trip counts differ between warps: every lane of one
  // warp calls it together. The warp stages its ids while they fit and
  // otherwise reserves room in the output itself. After warp_push calls,
  // the block calls sync() before the next push() or finish().
  __device__ __forceinline__ void warp_push(bool pred, gr_vid v) {
    const unsigned ballot = __ballot_sync(kFullMask, pred);
    if (!ballot) return;
    const int lane = threadIdx.x & 31;
    const int leader = __ffs(ballot) - 1;
    const unsigned cnt = (unsigned)__popc(ballot);
    unsigned long long base = 0;
    int fits = 0;
    if (lane == leader) {
      unsigned old = *(volatile unsigned *)&s.n;
      for (;;) {
        if (old + cnt > (unsigned)kStage) break;
        const unsigned prev = atomicCAS(&s.n, old, old + cnt);
        if (prev == old) {
          fits = 1;
          base = old;
          break;
        }
        old = prev;
      }
      if (!fits) base = atomicAdd(count, (unsigned long long)cnt);
    }
    fits = __shfl_sync(kFullMask, fits, leader);
    base = __shfl_sync(kFullMask, base, leader);
    if (pred) {
      const unsigned long long pos = base + (unsigned long long)__popc(ballot & ((1u << lane) - 1u));
      if (fits) {
        s.items[pos] = v;
      } else if (pos < cap) {
        out[pos] = v;
        if (deg) count_degree(v);
      }
    }
  }

  // Every thread of the block: takes in what warp_push staged (two
  // barriers: all read the count before anyone changes it) and flushes when
  // less than half the stage is free.
  __device__ void sync() {
    __syncthreads();
    const unsigned n = s.n;
    __syncthreads();
    staged = n;
    if (staged > kStage / 2) flush();
  }

 private:
  __device__ void flush() {
    if (threadIdx.x == 0) {
      s.base = atomicAdd(count, (unsigned long long)staged);
      s.n = 0;  // no thread stages again before the next barrier
    }
    __syncthreads();
    const unsigned long long base = s.base;
    for (unsigned i = threadIdx.x; i < staged; i += kThreads)
      if (base + i < cap) {
        const gr_vid v = s.items[i];
        out[base + i] = v;
        if (deg) count_degree(v);
      }
    staged = 0;
    __syncthreads();  // the ids are out before the next round overwrites them
  }
};

// Sums a per-thread count over the block into one global atomicAdd. Every
// thread of the block calls it.
template <int kThreads>
__device__ __forceinline__ void block_add(unsigned long long mine, unsigned long long *total) {
  __shared__ unsigned long long s_sum;
  for (int o = 16; o; o >>= 1) mine += __shfl_xor_sync(kFullMask, mine, o);
  if (threadIdx.x == 0) s_sum = 0;
  __syncthreads();
  if ((threadIdx.x & 31) == 0 && mine) atomicAdd(&s_sum, mine);
  __syncthreads();
  if (threadIdx.x == 0 && s_sum) atomicAdd(total, s_sum);
}

inline unsigned grid_for(unsigned long long items, unsigned block, unsigned max_blocks) {
  unsigned long long g = (items + block - 1) / block;
  if (g < 1) g = 1;
  return (unsigned)(g < max_blocks ? g : max_blocks);
}

}  // namespace gr_cuda

#endif
