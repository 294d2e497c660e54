// SPDX-License-Identifier: Apache-2.0
// The exchange's per-element work on CUDA: the same meaning as
// exchange_cpu.c (tests/gpu compares them). Owned vertices are emitted with
// warp-aggregated atomics; per-peer counts go through a shared-memory
// histogram per block.
#include <cuda_runtime.h>

#include "exchange_kernels.h"
#include "gr/atomic.h"
#include "gr/cuda_check.h"
#include "operators/cuda/emit.cuh"

namespace {

constexpr int kBlock = 256;

unsigned blocks_for(gr_device *dev, unsigned long long items) {
  int sms = gr_device_sm_count(dev);
  return gr_cuda::grid_for(items, kBlock, (unsigned)(sms > 0 ? sms : 16) * 8u);
}

__global__ void __launch_bounds__(kBlock) split_kernel(gr_xk_split_args a) {
  __shared__ unsigned long long hist[GR_COMM_MAX_DEVICES];
  if (threadIdx.x < GR_COMM_MAX_DEVICES) hist[threadIdx.x] = 0;
  __syncthreads();
  for (gr_eid base = (gr_eid)blockIdx.x * kBlock; base < a.n_out; base += (gr_eid)gridDim.x * kBlock) {
    gr_eid i = base + threadIdx.x;
    bool mine = false;
    gr_vid v = 0;
    if (i < a.n_out) {
      v = a.out[i];
      int o = a.owner[v];
      if (o == a.me) {
        mine = true;
        gr_bitmap_test_and_set(a.cull, v);
      } else if (a.count_peers) {
        atomicAdd(&hist[o], 1ull);
      }
    }
    gr_cuda::warp_emit(mine, v, a.next, a.next_capacity, a.counts);
  }
  __syncthreads();
  if (a.count_peers && threadIdx.x < GR_COMM_MAX_DEVICES && hist[threadIdx.x])
    atomicAdd(&a.counts[1 + threadIdx.x], hist[threadIdx.x]);
}

__global__ void __launch_bounds__(kBlock) pack_kernel(gr_xk_pack_args a) {
  const gr_xk_layout *l = &a.layout;
  const int vb = l->value_bytes;
  for (gr_eid i = (gr_eid)blockIdx.x * kBlock + threadIdx.x; i < a.n_out; i += (gr_eid)gridDim.x * kBlock) {
    const gr_vid v = a.out[i];
    int part = 0;
    unsigned long long slot = i;
    if (a.owner) {
      part = a.owner[v];
      if (part == a.me) continue;
      slot = atomicAdd(&a.cursor[part], 1ull);
    }
    unsigned char *m = a.msg[part];
    const uint64_t cnt = a.msg_count[part];
    ((gr_vid *)m)[slot] = a.convert ? a.convert[v] : v;
    for (int k = 0; k < l->n_values; k++) {
      unsigned char *dst = m + gr_xk_section(l, cnt, 1 + k) + slot * vb;
      const unsigned char *src = (const unsigned char *)a.pay.values[k] + (size_t)v * vb;
      if (vb == 8) *(uint64_t *)dst = *(const uint64_t *)src;
      else *(uint32_t *)dst = *(const uint32_t *)src;
    }
    for (int k = 0; k < l->n_vertices; k++)
      ((gr_svid *)(m + gr_xk_section(l, cnt, 1 + l->n_values + k)))[slot] = a.pay.vertices[k][v];
  }
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
  switch (op) {
    case GR_COMBINE_MIN: return (U)x < atomicMin((U *)p, (U)x);
    case GR_COMBINE_MAX: return (S)x > atomicMax((S *)p, (S)x);
    case GR_COMBINE_SUM: atomicAdd((U *)p, (U)x); return x != 0;
    case GR_COMBINE_OR: {
      U old = atomicOr((U *)p, (U)x);
      return (old | (U)x) != old;
    }
    case GR_COMBINE_REPLACE: *p = x; return true;
  }
  return false;
}

template <class T, class B>
__device__ bool fp_cas(T *p, T x, gr_combine_op op) {
  B *q = reinterpret_cast<B *>(p);
  B cur = *reinterpret_cast<volatile B *>(q);
  for (;;) {
    T c = *reinterpret_cast<T *>(&cur);
    T nv;
    if (op == GR_COMBINE_MIN) {
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
    case GR_COMBINE_MAX: return fp_cas<float, unsigned int>(p, x, op);
    case GR_COMBINE_SUM: atomicAdd(p, x); return x != 0.0f;
    case GR_COMBINE_REPLACE: *p = x; return true;
    case GR_COMBINE_OR: return false;
  }
  return false;
}

__device__ bool op_apply(double *p, double x, gr_combine_op op) {
  switch (op) {
    case GR_COMBINE_MIN:
    case GR_COMBINE_MAX: return fp_cas<double, unsigned long long>(p, x, op);
    case GR_COMBINE_SUM: atomicAdd(p, x); return x != 0.0;
    case GR_COMBINE_REPLACE: *p = x; return true;
    case GR_COMBINE_OR: return false;
  }
  return false;
}

template <class T>
__global__ void __launch_bounds__(kBlock) combine_kernel(gr_xk_combine_args a) {
  const gr_xk_layout *l = &a.layout;
  const gr_vid *ids = (const gr_vid *)a.msg;
  const bool all_values = a.op == GR_COMBINE_SUM || a.op == GR_COMBINE_OR;
  const T *vals0 = (const T *)(a.msg + gr_xk_section(l, a.count, 1));
  for (gr_eid base = (gr_eid)blockIdx.x * kBlock; base < a.count; base += (gr_eid)gridDim.x * kBlock) {
    gr_eid i = base + threadIdx.x;
    bool emit = false;
    gr_vid v = 0;
    if (i < a.count) {
      v = ids[i];
      if (a.g2l) v = a.g2l[v];
      if (v != GR_NO_VERTEX) {
        T *loc0 = (T *)a.pay.values[0] + v;
        if (a.pass == 2) {
          if (*loc0 == vals0[i]) {
            for (int k = 1; k < l->n_values; k++)
              ((T *)a.pay.values[k])[v] = ((const T *)(a.msg + gr_xk_section(l, a.count, 1 + k)))[i];
            for (int k = 0; k < l->n_vertices; k++)
              a.pay.vertices[k][v] =
                  ((const gr_svid *)(a.msg + gr_xk_section(l, a.count, 1 + l->n_values + k)))[i];
          }
        } else {
          bool changed = op_apply(loc0, vals0[i], a.op);
          if (all_values || a.op == GR_COMBINE_REPLACE)
            for (int k = 1; k < l->n_values; k++)
              changed |= op_apply((T *)a.pay.values[k] + v,
                                  ((const T *)(a.msg + gr_xk_section(l, a.count, 1 + k)))[i], a.op);
          if (a.op == GR_COMBINE_REPLACE)
            for (int k = 0; k < l->n_vertices; k++)
              a.pay.vertices[k][v] =
                  ((const gr_svid *)(a.msg + gr_xk_section(l, a.count, 1 + l->n_values + k)))[i];
          emit = changed && (!a.owner || a.owner[v] == a.me) && gr_bitmap_test_and_set(a.cull, v);
        }
      }
    }
    // Pass 2 emits nothing; the loop bound is uniform over the block, so
    // the whole warp reaches warp_emit together.
    gr_cuda::warp_emit(emit, v, a.next, a.next_capacity, a.count_next);
  }
}

gr_status split_cuda(gr_device *dev, const gr_xk_split_args *a) {
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  split_kernel<<<blocks_for(dev, a->n_out), kBlock, 0, s>>>(*a);
  GR_CUDA_CHECK_LAUNCH();
  return GR_SUCCESS;
}

gr_status pack_cuda(gr_device *dev, const gr_xk_pack_args *a) {
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  pack_kernel<<<blocks_for(dev, a->n_out), kBlock, 0, s>>>(*a);
  GR_CUDA_CHECK_LAUNCH();
  return GR_SUCCESS;
}

gr_status combine_cuda(gr_device *dev, const gr_xk_combine_args *a) {
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  unsigned g = blocks_for(dev, a->count);
  switch (a->type) {
    case GR_VALUE_SVID: combine_kernel<gr_svid><<<g, kBlock, 0, s>>>(*a); break;
    case GR_VALUE_FLOAT: combine_kernel<float><<<g, kBlock, 0, s>>>(*a); break;
    case GR_VALUE_DOUBLE: combine_kernel<double><<<g, kBlock, 0, s>>>(*a); break;
  }
  GR_CUDA_CHECK_LAUNCH();
  return GR_SUCCESS;
}

__global__ void __launch_bounds__(kBlock) pack_bits_kernel(gr_xk_pack_bits_args a) {
  uint32_t *bits = (uint32_t *)(a.msg + 8);
  const gr_eid first = (gr_eid)blockIdx.x * kBlock + threadIdx.x;
  if (first == 0) {
    const unsigned char *src = (const unsigned char *)a.values + (size_t)a.out[0] * a.value_bytes;
    for (int b = 0; b < a.value_bytes; b++) a.msg[b] = src[b];
  }
  // Whole warps walk the items (the bound is rounded up to 32) so the
  // ballot that counts the newly set bits has every lane.
  const gr_eid padded = (a.n_out + 31) / 32 * 32;
  for (gr_eid i = first; i < padded; i += (gr_eid)gridDim.x * kBlock) {
    bool fresh = false;
    if (i < a.n_out) {
      const gr_vid id = a.convert ? a.convert[a.out[i]] : a.out[i];
      const uint32_t mask = 1u << (id & 31u);
      fresh = !(atomicOr(&bits[id >> 5], mask) & mask);
    }
    const unsigned ballot = __ballot_sync(gr_cuda::kFullMask, fresh);
    if ((threadIdx.x & 31) == 0 && ballot) atomicAdd(a.distinct, (unsigned long long)__popc(ballot));
  }
}

// A thread per word; the warp reserves its words' ids with one atomicAdd.
__global__ void __launch_bounds__(kBlock) unpack_bits_kernel(gr_xk_unpack_bits_args a) {
  const uint32_t *bits = (const uint32_t *)(a.msg + 8);
  const int vb = a.layout.value_bytes;
  gr_vid *ids = (gr_vid *)a.list;
  unsigned char *vals = a.list + gr_xk_section(&a.layout, a.count, 1);
  const gr_eid words = ((gr_eid)a.universe + 31) / 32;
  const int lane = threadIdx.x & 31;
  // Whole warps walk the words (the bound is rounded up to 32), so the
  // shuffles below always have every lane.
  const gr_eid padded = (words + 31) / 32 * 32;
  for (gr_eid w = (gr_eid)blockIdx.x * kBlock + threadIdx.x; w < padded; w += (gr_eid)gridDim.x * kBlock) {
    uint32_t word = w < words ? bits[w] : 0u;
    const unsigned cnt = (unsigned)__popc(word);
    unsigned incl = cnt;
    for (int o = 1; o < 32; o <<= 1) {
      const unsigned up = __shfl_up_sync(gr_cuda::kFullMask, incl, o);
      if (lane >= o) incl += up;
    }
    const unsigned total = __shfl_sync(gr_cuda::kFullMask, incl, 31);
    unsigned long long base = 0;
    if (lane == 31 && total) base = atomicAdd(a.cursor, (unsigned long long)total);
    base = __shfl_sync(gr_cuda::kFullMask, base, 31);
    unsigned long long pos = base + incl - cnt;
    for (; word; word &= word - 1, pos++) {
      if (pos >= a.count) break;  // the exchange checks the cursor against count afterwards
      ids[pos] = (gr_vid)(w * 32 + (gr_eid)(__ffs(word) - 1));
      for (int b = 0; b < vb; b++) vals[pos * vb + b] = a.msg[b];
    }
  }
}

gr_status pack_bits_cuda(gr_device *dev, const gr_xk_pack_bits_args *a) {
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  pack_bits_kernel<<<blocks_for(dev, a->n_out), kBlock, 0, s>>>(*a);
  GR_CUDA_CHECK_LAUNCH();
  return GR_SUCCESS;
}

gr_status unpack_bits_cuda(gr_device *dev, const gr_xk_unpack_bits_args *a) {
  cudaStream_t s = (cudaStream_t)gr_device_stream(dev);
  const unsigned long long words = ((unsigned long long)a->universe + 31) / 32;
  unpack_bits_kernel<<<blocks_for(dev, words), kBlock, 0, s>>>(*a);
  GR_CUDA_CHECK_LAUNCH();
  return GR_SUCCESS;
}

}  // namespace

extern "C" const gr_xk_ops gr__xk_ops_cuda = {split_cuda, pack_cuda, combine_cuda, pack_bits_cuda,
                                              unpack_bits_cuda};
