// SPDX-License-Identifier: Apache-2.0
// The exchange's per-element work on CUDA: the same meaning as
// exchange_cpu.c (tests/gpu compares them). Nothing here touches one global
// counter per item or per warp: a same-address atomic serializes at the L2,
// and one per item cost as much as a big level's whole advance (the package
// of a 7-million-vertex output took 7 ms that way). Slots are reserved per
// tile of a block instead: lanes with the same destination are matched
// (__match_any_sync), their leader adds to a shared count, and one global
// atomicAdd per destination per tile reserves the block's range.
#include <cuda_runtime.h>

#include "exchange_kernels.h"
#include "gr/atomic.h"
#include "gr/logspace.h"
#include "gr/cuda_check.h"
#include "operators/cuda/emit.cuh"

namespace {

constexpr int kBlock = 256;
constexpr int kItems = 4;  // items per thread per tile of the package kernel
constexpr int kNext = GR_COMM_MAX_DEVICES;  // the next frontier's index among the destinations

unsigned blocks_for(gr_device *dev, unsigned long long items) {
  int sms = gr_device_sm_count(dev);
  return gr_cuda::grid_for(items, kBlock, (unsigned)(sms > 0 ? sms : 16) * 8u);
}

// This lane's rank among the lanes of its warp with the same key, after
// their leader reserved all of them in count[key] (shared memory). key < 0:
// no reservation (rank meaningless). Every lane of the warp calls it.
__device__ __forceinline__ unsigned warp_reserve(int key, unsigned *count) {
  const unsigned peers = __match_any_sync(gr_cuda::kFullMask, key);
  const int lane = threadIdx.x & 31, leader = __ffs(peers) - 1;
  unsigned b = 0;
  if (key >= 0 && lane == leader) b = atomicAdd(&count[key], (unsigned)__popc(peers));
  b = __shfl_sync(gr_cuda::kFullMask, b, leader);
  return b + (unsigned)__popc(peers & ((1u << lane) - 1u));
}

// The set bits of a warp's 32 words (one a lane), dealt out 32 at a time:
// lane l of round r takes the (32 r + l)-th set bit in word order. A lane
// per word walking its own bits took as many rounds as the warp's fullest
// word has bits, most lanes idle meanwhile (the routed bitmaps of a big
// BFS or DOBFS level: a few bits a word, up to a dozen in some). Every lane
// of the warp calls the constructor and nth() alike.
struct WarpBits {
  uint32_t word;
  unsigned before;  // set bits in the lower lanes' words
  unsigned total;   // ... in all 32
  __device__ __forceinline__ explicit WarpBits(uint32_t w) : word(w) {
    const int lane = threadIdx.x & 31;
    const unsigned cnt = (unsigned)__popc(w);
    unsigned incl = cnt;
    for (int o = 1; o < 32; o <<= 1) {
      const unsigned y = __shfl_up_sync(gr_cuda::kFullMask, incl, o);
      if (lane >= o) incl += y;
    }
    total = __shfl_sync(gr_cuda::kFullMask, incl, 31);
    before = incl - cnt;
  }
  // The j-th set bit (j < total; any j for lanes with nothing to take, whose
  // answer is unused): the lane whose word holds it and the bit's index.
  __device__ __forceinline__ void nth(unsigned j, int *src, int *bit) const {
    // The last lane whose count before it is at most j: its word holds bit
    // j (a lane with an empty word has the next lane's count before it).
    int lo = 0;
    for (int step = 16; step; step >>= 1) {
      const unsigned b = __shfl_sync(gr_cuda::kFullMask, before, lo + step);
      if (b <= j) lo += step;
    }
    const uint32_t w = __shfl_sync(gr_cuda::kFullMask, word, lo);
    const unsigned b = __shfl_sync(gr_cuda::kFullMask, before, lo);
    *src = lo;
    *bit = (int)__fns(w, 0, (int)(j - b) + 1);
  }
};

// The bits of word k of a routed bitmap over global ids whose vertices
// owner[] gives to `me`. A whole word's 32 owner bytes are one aligned
// 32-byte sector, read as two vectors, a warp's words side by side: a read
// per set bit, each waiting for the last, left a compact of Kronecker 27's
// biggest level waiting on memory 83 % of its time. Where every whole word
// has one owner, its byte in word_owner is read instead (a 32-byte sector
// holds 32 words' owners). The last word may end past the table: its bits
// are read one by one.
__device__ __forceinline__ uint32_t owned_bits(const uint8_t *owner, const uint8_t *word_owner, unsigned long long k,
                                               bool full, bool aligned, int me, uint32_t w) {
  if (!w) return 0u;
  // One byte a word where every whole word has one owner (gr_xk_word_owners).
  if (word_owner && full) return word_owner[k] == (uint8_t)me ? w : 0u;
  if (!full || !aligned) {
    for (uint32_t m = w; m; m &= m - 1u)
      if (owner[k * 32ull + (unsigned long long)(__ffs((int)m) - 1)] != me) w &= ~(m & (0u - m));
    return w;
  }
  const uint4 *o = reinterpret_cast<const uint4 *>(owner + k * 32ull);
  const uint4 lo = o[0], hi = o[1];
  const uint32_t part[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
  const uint32_t rep = 0x01010101u * (uint32_t)(uint8_t)me;
  uint32_t mask = 0;
#pragma unroll
  for (int i = 0; i < 8; i++) {
    // 0x80 in each byte equal to me (its xor is zero), exactly.
    const uint32_t x = part[i] ^ rep;
    const uint32_t z = ~(((x & 0x7f7f7f7fu) + 0x7f7f7f7fu) | x | 0x7f7f7f7fu);
    mask |= (((z >> 7) & 1u) | ((z >> 14) & 2u) | ((z >> 21) & 4u) | ((z >> 28) & 8u)) << (4 * i);
  }
  return w & mask;
}

// A routed claim's value (gr_xk_compact_args): v holds none yet (or this
// value), so a plain store, which the L2 takes without reading the sector
// first. A reduction (atomic min) had to fetch each claim's sector from
// memory: Kronecker 27's biggest DOBFS level on two logical devices spent
// 0.55 ms more in its package than the push saved by not storing depths.
__device__ __forceinline__ void store_routed(const gr_xk_compact_args &a, gr_vid v) {
  if (a.value_bytes == 8) ((unsigned long long *)a.values)[v] = (unsigned long long)a.value;
  else ((unsigned int *)a.values)[v] = (unsigned int)a.value;
}

__device__ __forceinline__ void write_record(unsigned char *rec, const gr_xk_layout &l, const gr_payload &pay,
                                             gr_vid id, gr_vid v) {
  *(gr_vid *)rec = id;
  const int vb = l.value_bytes;
  // Padding is zeroed, so that no byte a peer copies was never written
  // (fields and records are multiples of 4 bytes).
  for (int b = (int)sizeof(gr_vid); b < l.value_offset; b += 4) *(uint32_t *)(rec + b) = 0u;
  for (int k = 0; k < l.n_values; k++) {
    const unsigned char *src = (const unsigned char *)pay.values[k] + (size_t)v * vb;
    if (vb == 8) *(uint64_t *)(rec + l.value_offset + 8 * k) = *(const uint64_t *)src;
    else *(uint32_t *)(rec + l.value_offset + 4 * k) = *(const uint32_t *)src;
  }
  for (int b = l.value_offset + l.n_values * vb; b < l.vertex_offset; b += 4) *(uint32_t *)(rec + b) = 0u;
  for (int k = 0; k < l.n_vertices; k++)
    *(gr_svid *)(rec + l.vertex_offset + sizeof(gr_svid) * k) = pay.vertices[k][v];
  for (int b = l.vertex_offset + l.n_vertices * (int)sizeof(gr_svid); b < l.record_bytes; b += 4)
    *(uint32_t *)(rec + b) = 0u;
}

__global__ void __launch_bounds__(kBlock) package_kernel(gr_xk_package_args a) {
  __shared__ unsigned s_cnt[GR_COMM_MAX_DEVICES + 1];
  __shared__ unsigned s_fresh[GR_COMM_MAX_DEVICES];
  __shared__ unsigned long long s_base[GR_COMM_MAX_DEVICES + 1];
  const int n_msg = a.broadcast ? 1 : a.parts;
  for (int t = threadIdx.x; t <= GR_COMM_MAX_DEVICES; t += kBlock) {
    s_cnt[t] = 0;
    if (t < GR_COMM_MAX_DEVICES) s_fresh[t] = 0;
  }
  __syncthreads();
  unsigned long long dsum = 0, dmax = 0;
  const gr_eid tile = (gr_eid)kBlock * kItems;
  // The output's size where the advance left it (gr_xk_package_args.counts):
  // the smaller of it and the bound, the same for every thread.
  gr_eid n_out = a.n_out;
  if (a.counts) {
    const gr_eid c = a.counts[0];
    if (c < n_out) n_out = c;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
      a.counters[gr_xk_out_counter(a.parts)] = c;
      a.counters[gr_xk_out_counter(a.parts) + 1] = a.counts[1];
    }
  }
  // The bound is the same for the whole block, so every barrier below is
  // reached by every thread.
  for (gr_eid base = (gr_eid)blockIdx.x * tile; base < n_out; base += (gr_eid)gridDim.x * tile) {
    gr_vid v[kItems];
    int dst[kItems];
    bool mine[kItems], lst[kItems];
    unsigned rn[kItems], rm[kItems];
#pragma unroll
    for (int k = 0; k < kItems; k++) {
      const gr_eid i = base + (gr_eid)k * kBlock + threadIdx.x;
      v[k] = 0;
      dst[k] = -1;
      mine[k] = false;
      if (i < n_out) {
        v[k] = a.out[i];
        if (a.claims) atomicOr(&a.claims[v[k] >> 5], 1u << (v[k] & 31u));
        const int o = a.ranges.n ? gr_xk_range_owner(&a.ranges, v[k]) : a.owner[v[k]];
        const bool owned = o == a.me;
        dst[k] = a.broadcast ? 0 : owned ? -1 : o;
        // An output holds each vertex once; the cull bit keeps next so even
        // if a vertex came twice, and where the step settles what arrives
        // (no cull) the combines drop the peers' records for it.
        mine[k] = owned && (!a.cull || gr_bitmap_test_and_set(a.cull, v[k]));
      }
      rn[k] = warp_reserve(mine[k] ? kNext : -1, s_cnt);
      // A dense message: the item's bit and value slot by its position
      // (one writer a slot), counted as a list's records are.
      const bool dn = dst[k] >= 0 && a.dense[dst[k]] != nullptr;
      if (dn) {
        const gr_vid id = gr_xk_package_id(&a, v[k]);
        unsigned char *msg = a.dense[dst[k]];
        atomicOr((uint32_t *)msg + (id >> 5), 1u << (id & 31u));
        unsigned char *slot = msg + gr_xk_bits_bytes(a.dense_universe[dst[k]]) +
                              (unsigned long long)id * a.layout.value_bytes;
        const unsigned char *src = (const unsigned char *)a.pay.values[0] + (size_t)v[k] * a.layout.value_bytes;
        if (a.layout.value_bytes == 8) *(uint64_t *)slot = *(const uint64_t *)src;
        else *(uint32_t *)slot = *(const uint32_t *)src;
      }
      lst[k] = dst[k] >= 0 && (a.list[dst[k]] != nullptr || dn);
      rm[k] = warp_reserve(lst[k] ? dst[k] : -1, s_cnt);
      bool fresh = false;
      if (dst[k] >= 0 && a.bits[dst[k]]) {
        const gr_vid id = gr_xk_package_id(&a, v[k]);
        uint32_t *words = (uint32_t *)(a.bits[dst[k]] + 8);
        const uint32_t mask = 1u << (id & 31u);
        fresh = !(atomicOr(&words[id >> 5], mask) & mask);
        if (fresh) {
          // Uniform payloads: every writer stores the same bytes.
          const unsigned char *src = (const unsigned char *)a.pay.values[0] + (size_t)v[k] * a.layout.value_bytes;
          if (a.layout.value_bytes == 8) *(volatile uint64_t *)a.bits[dst[k]] = *(const uint64_t *)src;
          else *(volatile uint32_t *)a.bits[dst[k]] = *(const uint32_t *)src;
        }
      }
      warp_reserve(fresh ? dst[k] : -1, s_fresh);
    }
    __syncthreads();
    for (int t = threadIdx.x; t <= GR_COMM_MAX_DEVICES; t += kBlock) {
      if (t != kNext && t >= n_msg) continue;
      if (s_cnt[t]) {
        s_base[t] = atomicAdd(&a.counters[t == kNext ? GR_XK_NEXT : GR_XK_PEER + t], (unsigned long long)s_cnt[t]);
        s_cnt[t] = 0;
      }
      if (t < n_msg && s_fresh[t]) {
        atomicAdd(&a.counters[GR_XK_PEER + a.parts + t], (unsigned long long)s_fresh[t]);
        s_fresh[t] = 0;
      }
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kItems; k++) {
      if (mine[k]) {
        const unsigned long long pos = s_base[kNext] + rn[k];
        if (pos < a.next_capacity) {
          a.next[pos] = v[k];
          if (a.deg) {
            const unsigned long long d = a.deg[v[k] + 1] - a.deg[v[k]];
            dsum += d;
            dmax = d > dmax ? d : dmax;
          }
        }
      }
      if (lst[k] && a.list[dst[k]]) {
        const int j = dst[k];
        const unsigned long long slot = s_base[j] + rm[k];
        if (slot < a.list_capacity[j])
          write_record(a.list[j] + slot * (unsigned long long)a.layout.record_bytes, a.layout, a.pay,
                       gr_xk_package_id(&a, v[k]), v[k]);
      }
    }
  }
  if (a.deg) gr_cuda::block_add_max(dsum, dmax, &a.counters[GR_XK_NEXT_EDGES]);
}

// ---- combine operators: true when the local value changed -----------------

// "No value" (-1) loses to every value: as unsigned, -1 is the largest.
__device__ bool op_apply(gr_svid *p, gr_svid x, gr_combine_op op) {
#ifdef GR_VERTEX_64
  typedef unsigned long long U;
  typedef long long S;
#else
  typedef unsigned int U;
  typedef int S;
#endif
  // MIN and MAX move a value one way only while a combine runs, so a plain
  // read that already beats x settles it without the atomic: most of what
  // a big level receives was reached there already (BFS, Kronecker 27, 2
  // devices: the combine 1.8 -> 1.5 ms a run).
  switch (op) {
    case GR_COMBINE_MIN:
      if (*(volatile U *)p <= (U)x) return false;
      return (U)x < atomicMin((U *)p, (U)x);
    case GR_COMBINE_MAX:
      if (*(volatile S *)p >= (S)x) return false;
      return (S)x > atomicMax((S *)p, (S)x);
    case GR_COMBINE_SUM: atomicAdd((U *)p, (U)x); return x != 0;
    case GR_COMBINE_OR: {
      U old = atomicOr((U *)p, (U)x);
      return (old | (U)x) != old;
    }
    case GR_COMBINE_REPLACE: *p = x; return true;
    case GR_COMBINE_LOGADD: return false;  // refused for integers by the exchange
  }
  return false;
}

__device__ __forceinline__ float log_add(float a, float b) { return gr_log_add_f32(a, b); }
__device__ __forceinline__ double log_add(double a, double b) { return gr_log_add(a, b); }

template <class T, class B>
__device__ bool fp_cas(T *p, T x, gr_combine_op op) {
  B *q = reinterpret_cast<B *>(p);
  B cur = *reinterpret_cast<volatile B *>(q);
  for (;;) {
    T c = *reinterpret_cast<T *>(&cur);
    T nv;
    if (op == GR_COMBINE_LOGADD) {
      // No hardware log-add: a compare-and-swap loop, as for MIN and MAX.
      if (x == -INFINITY) return false;
      nv = log_add(c, x);
    } else if (op == GR_COMBINE_MIN) {
      if (!(x < c)) return false;
      nv = x;
    } else {
      if (!(x > c)) return false;
      nv = x;
    }
    B nb = *reinterpret_cast<B *>(&nv);
    B seen = atomicCAS(q, cur, nb);
    if (seen == cur) return true;
    cur = seen;
  }
}

__device__ bool op_apply(float *p, float x, gr_combine_op op) {
  switch (op) {
    case GR_COMBINE_MIN:
    case GR_COMBINE_MAX:
    case GR_COMBINE_LOGADD: return fp_cas<float, unsigned int>(p, x, op);
    case GR_COMBINE_SUM: atomicAdd(p, x); return x != 0.0f;
    case GR_COMBINE_REPLACE: *p = x; return true;
    case GR_COMBINE_OR: return false;
  }
  return false;
}

__device__ bool op_apply(double *p, double x, gr_combine_op op) {
  switch (op) {
    case GR_COMBINE_MIN:
    case GR_COMBINE_MAX:
    case GR_COMBINE_LOGADD: return fp_cas<double, unsigned long long>(p, x, op);
    case GR_COMBINE_SUM: atomicAdd(p, x); return x != 0.0;
    case GR_COMBINE_REPLACE: *p = x; return true;
    case GR_COMBINE_OR: return false;
  }
  return false;
}

// One item into local vertex v: the value payloads at vals, the vertex
// payloads at vtx (records only). True when v joins the next frontier.
// settled: a.settled where this item's bit is still to test and set (the
// caller took whole words otherwise). owned: the caller knows v is owned
// here and combined once in this step (its settled bit newly set by the
// word's one thread, copies dropped with their owners' words): neither the
// owner table nor the culling bitmap is read (a claim's own 32-byte sector
// each, where the word's owner came from gr_xk_word_owners).
template <class T>
__device__ __forceinline__ bool combine_one(const gr_xk_combine_args &a, gr_vid v, const unsigned char *vals,
                                            const unsigned char *vtx, uint32_t *settled, bool owned = false) {
  const gr_xk_layout &l = a.layout;
  // A settled vertex keeps its value; the first to combine one settles it
  // (the step's value is the same in every item). A plain read first: most
  // items of a big level find the bit set.
  if (settled) {
    const uint32_t bit = 1u << (v & 31u);
    if ((gr_load_relaxed_u32(&settled[v >> 5]) & bit) || (atomicOr(&settled[v >> 5], bit) & bit)) return false;
  }
  // A copy the primitive never reads once settled (the word or the bit
  // above settled it).
  if (!owned && a.settle_copies_bare && a.owner && a.owner[v] != a.me) return false;
  T *loc0 = (T *)a.pay.values[0] + v;
  const T x0 = *(const T *)vals;
  if (a.pass == 2) {
    if (*loc0 == x0) {
      for (int k = 1; k < l.n_values; k++) ((T *)a.pay.values[k])[v] = ((const T *)vals)[k];
      for (int k = 0; k < l.n_vertices; k++) a.pay.vertices[k][v] = ((const gr_svid *)vtx)[k];
    }
    return false;
  }
  if (a.guard) {
    // A guarded sum (gr_iter.guard): the first stamp wins, records for a
    // vertex stamped otherwise are dropped, and a combined owned vertex
    // joins the next frontier whatever its sum.
    const gr_svid seen =
        gr_atomic_cas_svid(&a.guard[v], -1, a.stamp) ? (gr_svid)-1 : gr_load_relaxed_svid(&a.guard[v]);
    if (seen >= 0 && seen != a.stamp) return false;
    op_apply(loc0, x0, a.op);
    return (!a.owner || a.owner[v] == a.me) && (!a.cull || gr_bitmap_test_and_set(a.cull, v));
  }
  bool changed = op_apply(loc0, x0, a.op);
  // A peer lowered the vertex in place to the record's value (min_ties).
  if (!changed && a.min_ties) changed = *(volatile T *)loc0 == x0;
  if (a.op == GR_COMBINE_SUM || a.op == GR_COMBINE_OR || a.op == GR_COMBINE_REPLACE || a.op == GR_COMBINE_LOGADD)
    for (int k = 1; k < l.n_values; k++) changed |= op_apply((T *)a.pay.values[k] + v, ((const T *)vals)[k], a.op);
  if (a.op == GR_COMBINE_REPLACE)
    for (int k = 0; k < l.n_vertices; k++) a.pay.vertices[k][v] = ((const gr_svid *)vtx)[k];
  if (owned) return changed;
  // Without a culling bitmap the settled bit above let this record alone
  // through (gr_xk_combine_args.cull).
  return changed && (!a.owner || a.owner[v] == a.me) && (!a.cull || gr_bitmap_test_and_set(a.cull, v));
}

// Which of `lists` lists, numbered one after another, holds position r (r
// becomes the position within it): the combine's peers' lists and the
// mark's. Unrolled, so that the counts are read at constant indices, where
// the kernel's arguments are.
template <int kMax>
__device__ __forceinline__ int list_holding(const uint64_t (&n)[kMax], int lists, unsigned long long &r) {
  int i = 0;
#pragma unroll
  for (int k = 0; k + 1 < kMax; k++) {
    if (k + 1 >= lists || r < n[k]) break;
    r -= n[k];
    i = k + 1;
  }
  return i;
}

using Queue = gr_cuda::BlockQueue<kBlock>;

// kMore: the other peers' lists of the pass too (gr_xk_combine_args.n_more,
// more_count), their records numbered after the first's.
template <class T, bool kMore>
__global__ void __launch_bounds__(kBlock) combine_list_kernel(gr_xk_combine_args a, gr_eid total) {
  __shared__ Queue::Storage qs;
  Queue q(qs, a.next, a.next_capacity, &a.counters[GR_XK_NEXT], a.deg);
  const gr_xk_layout &l = a.layout;
  // A block-uniform bound: every thread reaches every push.
  for (gr_eid base = (gr_eid)blockIdx.x * kBlock; base < total; base += (gr_eid)gridDim.x * kBlock) {
    const gr_eid i = base + threadIdx.x;
    bool emit = false;
    gr_vid v = 0;
    if (i < total) {
      const unsigned char *msg = a.msg;
      unsigned long long at = i;
      if (kMore && at >= a.count) {
        at -= a.count;
        msg = a.more_msg[list_holding(a.more_count, a.n_more, at)];
      }
      // Bare ids (GR_XK_IDS) take the value the package named.
      const bool ids = a.format == GR_XK_IDS;
      const unsigned char *rec = msg + at * (gr_eid)(ids ? (int)sizeof(gr_vid) : l.record_bytes);
      v = *(const gr_vid *)rec;
      if (a.g2l) v = a.g2l[v];
      if (v != GR_NO_VERTEX && a.claims) atomicOr(&a.claims[v >> 5], 1u << (v & 31u));
      if (v == GR_NO_VERTEX) {
      } else if (ids && a.own_first && i < (gr_eid)a.count) {
        // This device's own output: claimed and settled here, its owned
        // vertices join the next frontier as they are.
        emit = !a.owner || a.owner[v] == a.me;
      } else if (ids) {
        const uint64_t value = a.value;
        emit = combine_one<T>(a, v, (const unsigned char *)&value, nullptr, a.settled);
      } else {
        emit = combine_one<T>(a, v, rec + l.value_offset, rec + l.vertex_offset, a.settled);
      }
    }
    q.push(emit, v);
  }
  q.finish(&a.counters[GR_XK_NEXT_EDGES]);
}

// A dense message (GR_XK_DENSE): a thread per position, the set ones
// combined from their value slots into the vertex the border list names.
template <class T>
__global__ void __launch_bounds__(kBlock) combine_dense_kernel(gr_xk_combine_args a) {
  __shared__ Queue::Storage qs;
  Queue q(qs, a.next, a.next_capacity, &a.counters[GR_XK_NEXT], a.deg);
  const uint32_t *words = (const uint32_t *)a.msg;
  const T *vals = (const T *)(a.msg + gr_xk_bits_bytes(a.universe));
  // A block-uniform bound: every thread reaches every push.
  for (gr_eid base = (gr_eid)blockIdx.x * kBlock; base < a.universe; base += (gr_eid)gridDim.x * kBlock) {
    const gr_eid i = base + threadIdx.x;
    bool emit = false;
    gr_vid v = 0;
    if (i < a.universe && (words[i >> 5] >> (i & 31u) & 1u)) {
      v = a.g2l[i];
      if (a.claims) atomicOr(&a.claims[v >> 5], 1u << (v & 31u));
      emit = combine_one<T>(a, v, (const unsigned char *)(vals + i), nullptr, a.settled);
    }
    q.push(emit, v);
  }
  q.finish(&a.counters[GR_XK_NEXT_EDGES]);
}

// A thread per word of the bitmap; a warp deals its words' bits out to its
// lanes (WarpBits), so the staging queue's warp-level calls always have
// every lane.
// kMore: the pass takes the other peers' bitmaps too (gr_xk_combine_args.
// n_more); a kernel of its own, as their counts' registers made the one
// bitmap's pass 20-26 % slower (two logical devices of Kronecker 25).
template <class T, bool kMore>
__global__ void __launch_bounds__(kBlock) combine_bits_kernel(gr_xk_combine_args a) {
  __shared__ Queue::Storage qs;
  Queue q(qs, a.next, a.next_capacity, &a.counters[GR_XK_NEXT], a.deg);
  const uint32_t *bits = gr_xk_bitmap_words(a.msg);
  const gr_eid words = ((gr_eid)a.universe + 31) / 32;
  const bool aligned = ((uintptr_t)a.owner & 15u) == 0;
  // Settled a word at a time with the copies dropped: what is left is
  // owned and new (combine_one's `owned`).
  const bool owned = a.settled && !a.g2l && a.settle_copies_bare && a.owner;
  unsigned long long found = 0, more[kMore ? GR_XK_MORE_MAX : 1] = {0};
  for (gr_eid base = (gr_eid)blockIdx.x * kBlock; base < words; base += (gr_eid)gridDim.x * kBlock) {
    const gr_eid w = base + threadIdx.x;
    uint32_t word = w < words ? bits[w] : 0u;
    found += (unsigned long long)__popc(word);
    // The other peers' bitmaps of the pass (gr_xk_combine_args.n_more).
#pragma unroll
    for (int k = 0; kMore && k < GR_XK_MORE_MAX; k++) {
      if (k >= a.n_more) break;
      const uint32_t mk = w < words ? gr_xk_bitmap_words(a.more_msg[k])[w] : 0u;
      more[k] += (unsigned long long)__popc(mk);
      word |= mk;
    }
    if (a.claims && !a.g2l && word) a.claims[w] |= word;
    // Bits are local ids (no g2l): the settled ones go a word at a time,
    // this thread being the word's only writer.
    if (a.settled && !a.g2l && word) {
      const uint32_t done = a.settled[w];
      a.settled[w] = done | word;
      word &= ~done;
      // The copies are settled with their bits: only the owned go on.
      if (a.settle_copies_bare && a.owner)
        word = owned_bits(a.owner, a.word_owner, w, w + 1 < words, aligned, a.me, word);
    }
    const WarpBits wb(word);
    const gr_eid first = w - (gr_eid)(threadIdx.x & 31);  // the warp's first word
    for (unsigned r = 0; r < wb.total; r += 32) {
      const unsigned j = r + (threadIdx.x & 31);
      int src = 0, bit = 0;
      wb.nth(j, &src, &bit);
      bool emit = false;
      gr_vid v = 0;
      if (j < wb.total) {
        v = (gr_vid)((first + (gr_eid)src) * 32 + (gr_eid)bit);
        if (a.g2l) v = a.g2l[v];
        if (v != GR_NO_VERTEX) emit = combine_one<T>(a, v, a.msg, nullptr, a.g2l ? a.settled : nullptr, owned);
      }
      q.warp_push(emit, v);
    }
    q.sync();
  }
  q.finish(&a.counters[GR_XK_NEXT_EDGES]);
  gr_cuda::block_add<kBlock>(found, &a.counters[a.found]);
#pragma unroll
  for (int k = 0; kMore && k < GR_XK_MORE_MAX; k++)
    if (k < a.n_more) gr_cuda::block_add<kBlock>(more[k], &a.counters[a.more_found[k]]);
}

gr_status package_cuda(gr_device *dev, const gr_xk_package_args *a) {
  if (!a->cull && !a->settled)
    return gr_errorf(GR_ERR_INTERNAL, "exchange package: no culling bitmap and no settled bits");
  if (!a->n_out) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  const unsigned long long tiles = (a->n_out + (unsigned long long)kBlock * kItems - 1) / ((unsigned long long)kBlock * kItems);
  int sms = gr_device_sm_count(dev);
  package_kernel<<<gr_cuda::grid_for(tiles, 1, (unsigned)(sms > 0 ? sms : 16) * 8u), kBlock, 0, s>>>(*a);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

template <class T>
gr_status combine_typed(gr_device *dev, const gr_xk_combine_args *a, cudaStream_t s) {
  if (a->n_more < 0 || a->n_more > GR_XK_MORE_MAX ||
      (a->n_more && (a->format == GR_XK_DENSE || (a->format == GR_XK_LIST && a->op == GR_COMBINE_REPLACE))))
    return gr_errorf(GR_ERR_INTERNAL,
                     "exchange combine: %d more messages (at most %d; bitmaps, and lists that do not replace)",
                     a->n_more, GR_XK_MORE_MAX);
  if (a->format == GR_XK_BITMAP) {
    const unsigned long long words = ((unsigned long long)a->universe + 31) / 32;
    if (a->n_more)
      combine_bits_kernel<T, true><<<blocks_for(dev, words), kBlock, 0, s>>>(*a);
    else
      combine_bits_kernel<T, false><<<blocks_for(dev, words), kBlock, 0, s>>>(*a);
  } else if (a->format == GR_XK_DENSE) {
    if (!a->g2l || a->layout.n_values != 1 || a->layout.n_vertices)
      return gr_errorf(GR_ERR_INTERNAL, "exchange combine: a dense message needs its border list and one value");
    if (!a->universe) return GR_SUCCESS;
    combine_dense_kernel<T><<<blocks_for(dev, a->universe), kBlock, 0, s>>>(*a);
  } else {
    gr_eid total = a->count;
    for (int k = 0; k < a->n_more; k++) total += a->more_count[k];
    if (!total) return GR_SUCCESS;
    if (a->n_more)
      combine_list_kernel<T, true><<<blocks_for(dev, total), kBlock, 0, s>>>(*a, total);
    else
      combine_list_kernel<T, false><<<blocks_for(dev, total), kBlock, 0, s>>>(*a, total);
  }
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

gr_status combine_cuda(gr_device *dev, const gr_xk_combine_args *a) {
  if (!a->cull && !a->settled)
    return gr_errorf(GR_ERR_INTERNAL, "exchange combine: no culling bitmap and no settled bits");
  if (a->format == GR_XK_IDS && (a->layout.n_values != 1 || a->layout.n_vertices || a->pass != 1))
    return gr_errorf(GR_ERR_INTERNAL, "exchange combine: bare ids with %d value and %d vertex payloads (pass %d)",
                     a->layout.n_values, a->layout.n_vertices, a->pass);
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  switch (a->type) {
    case GR_VALUE_SVID: return combine_typed<gr_svid>(dev, a, s);
    case GR_VALUE_FLOAT: return combine_typed<float>(dev, a, s);
    case GR_VALUE_DOUBLE: return combine_typed<double>(dev, a, s);
  }
  return gr_errorf(GR_ERR_INTERNAL, "exchange combine: unknown value type %d", (int)a->type);
}

// Values by position (gr_part_refresh): a thread per element, grid-stride.
template <class E>
__global__ void __launch_bounds__(kBlock) gather_kernel(E *dst, const E *src, const gr_vid *ids, unsigned long long n) {
  for (unsigned long long k = blockIdx.x * (unsigned long long)kBlock + threadIdx.x; k < n;
       k += (unsigned long long)gridDim.x * kBlock)
    dst[k] = src[ids[k]];
}

template <class E>
__global__ void __launch_bounds__(kBlock) scatter_kernel(E *dst, const E *src, const gr_vid *ids, unsigned long long n) {
  for (unsigned long long k = blockIdx.x * (unsigned long long)kBlock + threadIdx.x; k < n;
       k += (unsigned long long)gridDim.x * kBlock)
    dst[ids[k]] = src[k];
}

gr_status gather_cuda(gr_device *dev, void *dst, const void *src, const gr_vid *ids, uint64_t n, int elem_bytes) {
  if (!n) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  if (elem_bytes == 8)
    gather_kernel<<<blocks_for(dev, n), kBlock, 0, s>>>((uint64_t *)dst, (const uint64_t *)src, ids, n);
  else
    gather_kernel<<<blocks_for(dev, n), kBlock, 0, s>>>((uint32_t *)dst, (const uint32_t *)src, ids, n);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

gr_status scatter_cuda(gr_device *dev, void *dst, const void *src, const gr_vid *ids, uint64_t n, int elem_bytes) {
  if (!n) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  if (elem_bytes == 8)
    scatter_kernel<<<blocks_for(dev, n), kBlock, 0, s>>>((uint64_t *)dst, (const uint64_t *)src, ids, n);
  else
    scatter_kernel<<<blocks_for(dev, n), kBlock, 0, s>>>((uint32_t *)dst, (const uint32_t *)src, ids, n);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

__global__ void __launch_bounds__(kBlock) offset_kernel(gr_vid *dst, const gr_vid *src, unsigned long long n,
                                                        gr_vid base) {
  for (unsigned long long k = blockIdx.x * (unsigned long long)kBlock + threadIdx.x; k < n;
       k += (unsigned long long)gridDim.x * kBlock)
    dst[k] = (gr_vid)((src ? src[k] : (gr_vid)k) + base);
}

gr_status offset_cuda(gr_device *dev, gr_vid *dst, const gr_vid *src, uint64_t n, gr_vid base) {
  if (!n) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  offset_kernel<<<blocks_for(dev, n), kBlock, 0, s>>>(dst, src, n, base);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

// An or-round's union: the base and every source read once, the union
// (and the bitmap that also takes it) written once. The sources' loop has
// a fixed trip count, unrolled, so that each pointer is read at a constant
// offset of the argument (indexed at a varying one, the argument was
// copied to every thread's local memory first: a 104-byte stack frame).
__global__ void __launch_bounds__(kBlock) or_union_kernel(gr_xk_or_args a) {
  for (unsigned long long k = blockIdx.x * (unsigned long long)kBlock + threadIdx.x; k < a.words;
       k += (unsigned long long)gridDim.x * kBlock) {
    uint32_t v = a.base[k];
#pragma unroll
    for (int j = 0; j < GR_XK_OR_MAX; j++)
      if (j < a.n_src) v |= a.src[j][k];
    if (a.dst) a.dst[k] = v;
    // A word with nothing found leaves `also` as it is: no read and write.
    if (a.also && v) a.also[k] |= v;
  }
}

gr_status or_union_cuda(gr_device *dev, const gr_xk_or_args *a) {
  if (a->n_src < 0 || a->n_src > GR_XK_OR_MAX || (!a->dst && !a->also) || !a->base)
    return gr_errorf(GR_ERR_INTERNAL, "exchange: an or of %d bitmaps (at most %d, into a union from a base)", a->n_src,
                     (int)GR_XK_OR_MAX);
  if (!a->words) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  or_union_kernel<<<blocks_for(dev, a->words), kBlock, 0, s>>>(*a);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

// An or-round's union from owner words: a word read from its owner's words
// alone. The parts' word pointers go to shared memory first (read by a
// constant offset of the argument each), where a word's owner indexes them.
__global__ void __launch_bounds__(kBlock) or_owned_kernel(gr_xk_or_owned_args a) {
  __shared__ const uint32_t *from[GR_COMM_MAX_DEVICES];
  if (threadIdx.x == 0) {
#pragma unroll
    for (int j = 0; j < GR_COMM_MAX_DEVICES; j++)
      if (j < a.parts) from[j] = a.from[j];
  }
  __syncthreads();
  for (unsigned long long k = blockIdx.x * (unsigned long long)kBlock + threadIdx.x; k < a.words;
       k += (unsigned long long)gridDim.x * kBlock) {
    const int o = a.word_owner[k];
    const uint32_t *f = from[o];
    const uint32_t v = f ? f[gr_word_group_slot(a.groups[(k >> 5) * (unsigned long long)a.parts + o], k)] : 0u;
    if (a.dst) a.dst[k] = v;
    // A word with nothing found leaves `also` as it is: no read and write.
    if (a.also && v) a.also[k] |= v;
  }
  if (a.tail && blockIdx.x == 0 && threadIdx.x == 0) {
    uint32_t v = 0;
#pragma unroll
    for (int j = 0; j < GR_COMM_MAX_DEVICES; j++)
      if (j < a.parts && from[j]) v |= from[j][a.part_words[j]];
    if (a.dst) a.dst[a.words] = v;
    if (a.also) a.also[a.words] |= v;
  }
}

gr_status or_owned_cuda(gr_device *dev, const gr_xk_or_owned_args *a) {
  if ((!a->dst && !a->also) || !a->word_owner || !a->groups || a->parts < 1 || a->parts > GR_COMM_MAX_DEVICES)
    return gr_errorf(GR_ERR_INTERNAL, "exchange: a union of owner words of %d parts without its tables", a->parts);
  if (!a->words && !a->tail) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  or_owned_kernel<<<blocks_for(dev, a->words ? a->words : 1), kBlock, 0, s>>>(*a);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

// A routed bitmap becomes a message: the value in its first 8 bytes, and
// the ids it holds counted (a warp's popcounts summed, then one atomic).
__global__ void __launch_bounds__(kBlock) seal_kernel(uint32_t *msg, unsigned long long words, unsigned long long value,
                                                      unsigned long long *counter) {
  // Two 32-bit stores: a message is 4-byte aligned wherever its stride
  // puts it.
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    msg[0] = (uint32_t)value;
    msg[1] = (uint32_t)(value >> 32);
  }
  const uint32_t *w = msg + 2;
  unsigned long long ids = 0;
  for (unsigned long long k = blockIdx.x * (unsigned long long)kBlock + threadIdx.x; k < words;
       k += (unsigned long long)gridDim.x * kBlock)
    ids += (unsigned long long)__popc(w[k]);
  for (int o = 16; o > 0; o >>= 1) ids += __shfl_down_sync(gr_cuda::kFullMask, ids, o);
  if ((threadIdx.x & 31) == 0 && ids) atomicAdd(counter, ids);
}

gr_status seal_cuda(gr_device *dev, uint32_t *msg, uint64_t words, uint64_t value, unsigned long long *counter) {
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  seal_kernel<<<blocks_for(dev, words ? words : 1), kBlock, 0, s>>>(msg, words, value, counter);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

// This device's routed bitmap becomes the next frontier: a thread per word,
// one reservation per warp, the warp's bits dealt out to its lanes in word
// order (WarpBits), the j-th to the reservation's j-th slot.
__global__ void __launch_bounds__(kBlock) compact_kernel(gr_xk_compact_args a) {
  unsigned long long dsum = 0, dmax = 0, all = 0;
  const int lane = threadIdx.x & 31;
  if (a.sealed_msg && blockIdx.x == 0 && threadIdx.x == 0) {
    a.sealed_msg[0] = (uint32_t)a.value;
    a.sealed_msg[1] = (uint32_t)(a.value >> 32);
  }
  // Every lane of a warp runs the same trip count (the bound is rounded up
  // to whole warps), so the shuffles below see the full warp.
  const unsigned long long stride = (unsigned long long)gridDim.x * kBlock;
  const unsigned long long n_words = a.n_words, bound = (n_words + 31ull) & ~31ull;
  const bool aligned = ((uintptr_t)a.owner & 15u) == 0;
  for (unsigned long long k = blockIdx.x * (unsigned long long)kBlock + threadIdx.x; k < bound; k += stride) {
    uint32_t w = k < n_words ? a.words[k] : 0u;
    if (k < n_words) {
      if (a.copy_to[0]) a.copy_to[0][k] = w;
      if (a.copy_to[1]) a.copy_to[1][k] = w;
    }
    all += (unsigned long long)__popc(w);
    if (a.owner) w = owned_bits(a.owner, a.word_owner, k, k + 1 < n_words, aligned, a.me, w);
    // The warp's bits dealt out to its lanes: the j-th goes to base + j, so
    // the writes are in order and every lane reads a degree each round.
    const WarpBits wb(w);
    unsigned long long base = 0;
    if (lane == 31 && wb.total) base = atomicAdd(&a.counters[GR_XK_NEXT], (unsigned long long)wb.total);
    base = __shfl_sync(gr_cuda::kFullMask, base, 31);
    const unsigned long long first = k - (unsigned long long)lane;  // the warp's first word
    for (unsigned r = 0; r < wb.total; r += 32) {
      const unsigned j = r + (unsigned)lane;
      int src = 0, bit = 0;
      wb.nth(j, &src, &bit);
      if (j >= wb.total) continue;
      const gr_vid v = (gr_vid)((first + (unsigned long long)src) * 32ull + (unsigned long long)bit);
      const unsigned long long pos = base + j;
      if (pos < a.next_capacity) a.next[pos] = v;
      if (a.values) store_routed(a, v);
      if (a.deg) {
        const unsigned long long d = a.deg[v + 1] - a.deg[v];
        dsum += d;
        dmax = d > dmax ? d : dmax;
      }
    }
  }
  if (a.deg) gr_cuda::block_add_max(dsum, dmax, &a.counters[GR_XK_NEXT_EDGES]);
  if (a.sealed) gr_cuda::block_add<kBlock>(all, a.sealed);
}

gr_status compact_cuda(gr_device *dev, const gr_xk_compact_args *a) {
  if (!a->n_words) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  compact_kernel<<<blocks_for(dev, a->n_words), kBlock, 0, s>>>(*a);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

template <class T>
gr_status load_typed() {
  // cudaFuncGetAttributes loads a kernel that lazy loading (the default
  // since CUDA 12.2) would load at its first launch.
  cudaFuncAttributes attr;
  GR_CUDA_CHECK(cudaFuncGetAttributes(&attr, combine_bits_kernel<T, false>));
  GR_CUDA_CHECK(cudaFuncGetAttributes(&attr, combine_bits_kernel<T, true>));
  GR_CUDA_CHECK(cudaFuncGetAttributes(&attr, combine_list_kernel<T, false>));
  GR_CUDA_CHECK(cudaFuncGetAttributes(&attr, combine_list_kernel<T, true>));
  GR_CUDA_CHECK(cudaFuncGetAttributes(&attr, combine_dense_kernel<T>));
  // The refresh's scatter follows the moves too.
  GR_CUDA_CHECK(cudaFuncGetAttributes(&attr, scatter_kernel<uint32_t>));
  GR_CUDA_CHECK(cudaFuncGetAttributes(&attr, scatter_kernel<uint64_t>));
  // A sparse refresh's gather of the copies' ids follows the moves too.
  GR_CUDA_CHECK(cudaFuncGetAttributes(&attr, gather_kernel<uint32_t>));
  GR_CUDA_CHECK(cudaFuncGetAttributes(&attr, gather_kernel<uint64_t>));
  // ... or, where the copies are a range of ids, their offset.
  GR_CUDA_CHECK(cudaFuncGetAttributes(&attr, offset_kernel));
  GR_CUDA_CHECK(cudaFuncGetAttributes(&attr, or_union_kernel));
  GR_CUDA_CHECK(cudaFuncGetAttributes(&attr, or_owned_kernel));
  return GR_SUCCESS;
}

// The lists one after another: position k of the whole is found by
// walking the (at most GR_XK_MARK_MAX) counts.
__global__ void __launch_bounds__(kBlock) mark_kernel(gr_xk_mark_args a, unsigned long long total) {
  for (unsigned long long k = blockIdx.x * (unsigned long long)kBlock + threadIdx.x; k < total;
       k += (unsigned long long)gridDim.x * kBlock) {
    unsigned long long r = k;
    const int i = list_holding(a.n, a.lists, r);
    const gr_vid v = a.ids[i][r];
    const uint32_t bit = 1u << (v & 31u);
    atomicOr(&a.bits[0][v >> 5], bit);
    if (a.bits[1]) atomicOr(&a.bits[1][v >> 5], bit);
  }
}

gr_status mark_cuda(gr_device *dev, const gr_xk_mark_args *a) {
  if (a->lists < 0 || a->lists > GR_XK_MARK_MAX)
    return gr_errorf(GR_ERR_INTERNAL, "exchange mark: %d lists, at most %d", a->lists, (int)GR_XK_MARK_MAX);
  unsigned long long total = 0;
  for (int i = 0; i < a->lists; i++) total += a->n[i];
  if (!total) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  mark_kernel<<<blocks_for(dev, total), kBlock, 0, s>>>(*a, total);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

// The border list's entries whose bit is set, in tiles as the package
// reserves: lanes' slots in a shared count, then one global atomicAdd per
// tile that has any (a reservation per warp on one counter serialized at
// the L2: 0.1-0.3 ms a refresh on Kronecker 25, more than the values'
// gather).
__global__ void __launch_bounds__(kBlock) select_kernel(const uint32_t *bits, const gr_vid *ids, unsigned long long n,
                                                        gr_vid *pos, gr_vid *id, unsigned long long capacity,
                                                        unsigned long long *counter) {
  __shared__ unsigned s_cnt[1];
  __shared__ unsigned long long s_base;
  const unsigned long long tile = (unsigned long long)kBlock * kItems;
  // The bound is the same for the whole block, so every barrier below is
  // reached by every thread.
  for (unsigned long long base = blockIdx.x * tile; base < n; base += (unsigned long long)gridDim.x * tile) {
    if (threadIdx.x == 0) s_cnt[0] = 0;
    __syncthreads();
    gr_vid v[kItems];
    bool hit[kItems];
    unsigned rank[kItems];
#pragma unroll
    for (int k = 0; k < kItems; k++) {
      const unsigned long long i = base + (unsigned long long)k * kBlock + threadIdx.x;
      v[k] = 0;
      hit[k] = false;
      if (i < n) {
        v[k] = ids[i];
        hit[k] = (bits[v[k] >> 5] >> (v[k] & 31u)) & 1u;
      }
      rank[k] = warp_reserve(hit[k] ? 0 : -1, s_cnt);
    }
    __syncthreads();
    if (threadIdx.x == 0) s_base = s_cnt[0] ? atomicAdd(counter, (unsigned long long)s_cnt[0]) : 0ull;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kItems; k++) {
      const unsigned long long slot = s_base + rank[k];
      if (hit[k] && slot < capacity) {
        pos[slot] = (gr_vid)(base + (unsigned long long)k * kBlock + threadIdx.x);
        id[slot] = v[k];
      }
    }
    __syncthreads();
  }
}

gr_status select_cuda(gr_device *dev, const uint32_t *bits, const gr_vid *ids, uint64_t n, gr_vid *pos, gr_vid *id,
                      uint64_t capacity, unsigned long long *counter) {
  if (!n) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  const unsigned long long tiles = (n + (unsigned long long)kBlock * kItems - 1) / ((unsigned long long)kBlock * kItems);
  const int sms = gr_device_sm_count(dev);
  select_kernel<<<gr_cuda::grid_for(tiles, 1, (unsigned)(sms > 0 ? sms : 16) * 8u), kBlock, 0, s>>>(
      bits, ids, n, pos, id, capacity, counter);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

}  // namespace

// Every kernel of this file, the package's and the compaction's too, where
// the driver loads a module on request (gr_device_preload).
GR_CUDA_PRELOAD(gr__xk_cuda_preload)

namespace {

gr_status load_cuda(gr_device *dev, gr_value_type type) {
  GR_CHECK(gr_device_activate(dev));
  switch (type) {
    case GR_VALUE_SVID: GR_CHECK(load_typed<gr_svid>()); break;
    case GR_VALUE_FLOAT: GR_CHECK(load_typed<float>()); break;
    case GR_VALUE_DOUBLE: GR_CHECK(load_typed<double>()); break;
    default: return gr_errorf(GR_ERR_INTERNAL, "exchange: unknown value type %d", (int)type);
  }
  return gr__xk_cuda_preload(dev);
}

// Copies from several peers at once (gr__xk_peer_copies_cuda): blockIdx.y
// picks the range. Words of 16 bytes where both ends are aligned so, of 8
// where they are (the packages' offsets are multiples of 8), of 4 (a
// refresh's values landing in the copies' slots of a 4-byte array), then
// the tail byte by byte; 4 loads in flight a thread before their stores, as a
// peer's word is a round trip over its link. Read through the L2 only:
// nothing here is read twice.
template <class W>
__device__ unsigned long long copy_words(const unsigned char *src, unsigned char *dst, unsigned long long n,
                                         unsigned long long t, unsigned long long stride) {
  const W *s = (const W *)src;
  W *d = (W *)dst;
  const unsigned long long words = n / sizeof(W);
  unsigned long long i = t;
  for (; i + 3 * stride < words; i += 4 * stride) {
    const W w0 = __ldcg(s + i), w1 = __ldcg(s + i + stride), w2 = __ldcg(s + i + 2 * stride),
            w3 = __ldcg(s + i + 3 * stride);
    d[i] = w0;
    d[i + stride] = w1;
    d[i + 2 * stride] = w2;
    d[i + 3 * stride] = w3;
  }
  for (; i < words; i += stride) d[i] = __ldcg(s + i);
  return words * sizeof(W);
}

__global__ void __launch_bounds__(kBlock) peer_copies_kernel(gr_xk_peer_copies a) {
  const int k = blockIdx.y;
  const unsigned char *src = a.src[k];
  unsigned char *dst = a.dst[k];
  const unsigned long long n = a.bytes[k];
  const unsigned long long t = blockIdx.x * (unsigned long long)kBlock + threadIdx.x;
  const unsigned long long stride = (unsigned long long)gridDim.x * kBlock;
  const uintptr_t ends = (uintptr_t)src | (uintptr_t)dst;
  unsigned long long done = 0;
  if ((ends & 15u) == 0)
    done = copy_words<uint4>(src, dst, n, t, stride);
  else if ((ends & 7u) == 0)
    done = copy_words<unsigned long long>(src, dst, n, t, stride);
  else if ((ends & 3u) == 0)
    done = copy_words<unsigned int>(src, dst, n, t, stride);
  for (unsigned long long i = done + t; i < n; i += stride) dst[i] = __ldcg(src + i);
}

}  // namespace

extern "C" gr_status gr__xk_peer_copies_cuda(gr_device *dev, const gr_xk_peer_copies *a) {
  unsigned long long most = 0;
  for (int k = 0; k < a->n; k++)
    if (a->bytes[k] > most) most = a->bytes[k];
  if (!most) return GR_SUCCESS;
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  // Blocks a range: its 16-byte words, 4 a thread, up to about 4 blocks an
  // SM over all ranges together (an 8-byte range takes twice the sweeps).
  int sms = gr_device_sm_count(dev);
  const unsigned cap = (unsigned)(sms > 0 ? sms : 16) * 4u / (unsigned)a->n;
  const unsigned x = gr_cuda::grid_for((most + 15) / 16, kBlock * 4, cap > 0 ? cap : 1u);
  peer_copies_kernel<<<dim3(x, (unsigned)a->n), kBlock, 0, s>>>(*a);
  GR_CUDA_CHECK_LAUNCH(dev);
  return GR_SUCCESS;
}

extern "C" const gr_xk_ops gr__xk_ops_cuda = {package_cuda, combine_cuda, load_cuda,   gather_cuda,
                                              scatter_cuda, or_union_cuda, seal_cuda,   compact_cuda,
                                              mark_cuda,    select_cuda,   offset_cuda, or_owned_cuda};
