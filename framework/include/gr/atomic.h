/* SPDX-License-Identifier: Apache-2.0 */
/* Atomics usable from GR_HD per-element functions: CUDA's atomics in device
 * code, the GCC builtins on the host (the CPU backend runs these functions
 * from many threads at once). */
#ifndef GR_ATOMIC_H
#define GR_ATOMIC_H

#include "gr/types.h"

#if defined(__CUDA_ARCH__)

GR_HD bool gr_atomic_cas_svid(gr_svid *p, gr_svid expected, gr_svid desired) {
#ifdef GR_VERTEX_64
  return atomicCAS((unsigned long long *)p, (unsigned long long)expected,
                   (unsigned long long)desired) == (unsigned long long)expected;
#else
  return atomicCAS((unsigned int *)p, (unsigned int)expected, (unsigned int)desired) ==
         (unsigned int)expected;
#endif
}
GR_HD gr_svid gr_atomic_min_svid(gr_svid *p, gr_svid v) {
#ifdef GR_VERTEX_64
  return (gr_svid)atomicMin((long long *)p, (long long)v);
#else
  return atomicMin((int *)p, (int)v);
#endif
}
GR_HD uint32_t gr_atomic_or_u32(uint32_t *p, uint32_t v) { return atomicOr((unsigned int *)p, v); }
GR_HD uint32_t gr_atomic_and_u32(uint32_t *p, uint32_t v) { return atomicAnd((unsigned int *)p, v); }
GR_HD uint32_t gr_atomic_min_u32(uint32_t *p, uint32_t v) { return atomicMin((unsigned int *)p, v); }
GR_HD int32_t gr_atomic_exch_i32(int32_t *p, int32_t v) { return atomicExch((int *)p, v); }
/* Returns the value before (the swap happened when it equals expected). */
GR_HD uint32_t gr_atomic_cas_u32(uint32_t *p, uint32_t expected, uint32_t desired) {
  return atomicCAS((unsigned int *)p, expected, desired);
}
/* Returns the value before (the swap happened when it equals expected). */
GR_HD uint64_t gr_atomic_cas_u64(uint64_t *p, uint64_t expected, uint64_t desired) {
  return atomicCAS((unsigned long long *)p, (unsigned long long)expected, (unsigned long long)desired);
}
GR_HD uint64_t gr_load_relaxed_u64(const uint64_t *p) { return *(volatile const uint64_t *)p; }
GR_HD uint64_t gr_atomic_add_u64(uint64_t *p, uint64_t v) {
  return atomicAdd((unsigned long long *)p, (unsigned long long)v);
}
GR_HD gr_svid gr_load_relaxed_svid(const gr_svid *p) { return *(volatile const gr_svid *)p; }
GR_HD void gr_store_relaxed_svid(gr_svid *p, gr_svid v) { *(volatile gr_svid *)p = v; }
GR_HD uint32_t gr_load_relaxed_u32(const uint32_t *p) { return *(volatile const uint32_t *)p; }
/* Adds v to *p (sums of many terms, e.g. PageRank's, kept in double). */
GR_HD void gr_atomic_add_f64(double *p, double v) { atomicAdd(p, v); }

#else

GR_HD bool gr_atomic_cas_svid(gr_svid *p, gr_svid expected, gr_svid desired) {
  return __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED,
                                     __ATOMIC_RELAXED);
}
GR_HD gr_svid gr_atomic_min_svid(gr_svid *p, gr_svid v) {
  gr_svid cur = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v < cur &&
         !__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return cur;
}
GR_HD uint32_t gr_atomic_or_u32(uint32_t *p, uint32_t v) {
  return __atomic_fetch_or(p, v, __ATOMIC_RELAXED);
}
GR_HD uint32_t gr_atomic_and_u32(uint32_t *p, uint32_t v) {
  return __atomic_fetch_and(p, v, __ATOMIC_RELAXED);
}
GR_HD uint32_t gr_atomic_min_u32(uint32_t *p, uint32_t v) {
  uint32_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v < cur &&
         !__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return cur;
}
GR_HD int32_t gr_atomic_exch_i32(int32_t *p, int32_t v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); }
GR_HD uint32_t gr_atomic_cas_u32(uint32_t *p, uint32_t expected, uint32_t desired) {
  __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return expected;
}
GR_HD uint64_t gr_atomic_cas_u64(uint64_t *p, uint64_t expected, uint64_t desired) {
  __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return expected;
}
GR_HD uint64_t gr_load_relaxed_u64(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
GR_HD uint64_t gr_atomic_add_u64(uint64_t *p, uint64_t v) {
  return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}
GR_HD gr_svid gr_load_relaxed_svid(const gr_svid *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
GR_HD void gr_store_relaxed_svid(gr_svid *p, gr_svid v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
GR_HD uint32_t gr_load_relaxed_u32(const uint32_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
GR_HD void gr_atomic_add_f64(double *p, double v) {
  union {
    double d;
    uint64_t u;
  } cur, next;
  cur.u = __atomic_load_n((uint64_t *)p, __ATOMIC_RELAXED);
  do {
    next.d = cur.d + v;
  } while (!__atomic_compare_exchange_n((uint64_t *)p, &cur.u, next.u, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}

#endif

/* A read where a stale value will do: the running kernel's threads leave
 * the word alone, or change it only to values its reader may take as well
 * (CC's compress moves a parent only up to an ancestor). On a GPU a cached
 * load: a relaxed load is volatile there, so a word that every warp reads
 * (a giant tree's root) costs one request of every warp to one L2 line,
 * where each SM's L1 serves a cached one (gr_bitmap_test_hint, below, reads
 * bitmaps so). On the host a relaxed load (other threads write the array
 * meanwhile). */
GR_HD gr_svid gr_load_hint_svid(const gr_svid *p) {
#ifdef __CUDA_ARCH__
  return *p;
#else
  return gr_load_relaxed_svid(p);
#endif
}

/* Bitmaps of 32-bit words. */
GR_HD bool gr_bitmap_test(const uint32_t *bits, gr_vid v) {
  return (gr_load_relaxed_u32(&bits[v >> 5]) >> (v & 31u)) & 1u;
}
/* A hint read of a bitmap that other threads set meanwhile: it may miss
 * bits set since the caller's cache line was filled (never shows a bit that
 * was not set), in exchange for a cached load. Callers treat a clear bit as
 * "look at the authoritative state". */
GR_HD bool gr_bitmap_test_hint(const uint32_t *bits, gr_vid v) {
#ifdef __CUDA_ARCH__
  return (bits[v >> 5] >> (v & 31u)) & 1u;
#else
  return gr_bitmap_test(bits, v);
#endif
}
/* Clears the bit (other bits of its word may change meanwhile). */
GR_HD void gr_bitmap_clear(uint32_t *bits, gr_vid v) { gr_atomic_and_u32(&bits[v >> 5], ~(1u << (v & 31u))); }
/* Sets the bit; true when this call set it (it was clear). */
GR_HD bool gr_bitmap_test_and_set(uint32_t *bits, gr_vid v) {
  uint32_t mask = 1u << (v & 31u);
  if (gr_load_relaxed_u32(&bits[v >> 5]) & mask) return false;
  return !(gr_atomic_or_u32(&bits[v >> 5], mask) & mask);
}

/* A levels loop's stop flag (gr_advance_levels_args.stop), raised from a
 * visit of `level`: holds the first raising level plus one, so a loop
 * reading it after a barrier tells raises of finished levels from those
 * of the level under way. */
GR_HD void gr_levels_raise(uint32_t *stop, int level) {
  if (!gr_load_relaxed_u32(stop)) gr_atomic_cas_u32(stop, 0u, (uint32_t)level + 1u);
}

#endif
