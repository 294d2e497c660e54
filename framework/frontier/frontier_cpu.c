/* SPDX-License-Identifier: Apache-2.0 */
/* Frontier conversions on the CPU backend. */
#include <stdlib.h>
#ifdef GR_HAVE_OPENMP
#include <omp.h>
#endif

#include "frontier/frontier_kernels.h"
#include "gr/atomic.h"
#include "gr/util.h"

gr_status gr__frontier_q2b_cpu(gr_device *dev, const gr_vid *q, gr_eid n, uint32_t *bits) {
  GR_CHECK(gr__device_launch(dev, "gr__frontier_q2b_cpu", NULL));
  int nt = gr_device_cpu_threads(dev);
#pragma omp parallel for num_threads(nt) schedule(static, 4096)
  for (gr_eid i = 0; i < n; i++) gr_atomic_or_u32(&bits[q[i] >> 5], 1u << (q[i] & 31u));
  return GR_SUCCESS;
}

gr_status gr__frontier_or_cpu(gr_device *dev, uint32_t *dst, const uint32_t *src, size_t words) {
  GR_CHECK(gr__device_launch(dev, "gr__frontier_or_cpu", NULL));
  int nt = gr_device_cpu_threads(dev);
#pragma omp parallel for num_threads(nt) schedule(static)
  for (size_t w = 0; w < words; w++) dst[w] |= src[w];
  return GR_SUCCESS;
}

gr_status gr__ids_map_cpu(gr_device *dev, gr_vid *ids, gr_eid n, const gr_vid *table, gr_vid n_table, gr_vid limit,
                         unsigned long long *bad) {
  GR_CHECK(gr__device_launch(dev, "gr__ids_map_cpu", NULL));
  const int nt = gr_device_cpu_threads(dev);
  unsigned long long lost = 0;
#pragma omp parallel for num_threads(nt) schedule(static, 1 << 16) reduction(+ : lost)
  for (gr_eid i = 0; i < n; i++) {
    /* A few table reads in flight ahead (random ids), within the thread's
     * own chunk (another thread may be rewriting the next). */
    const gr_eid ahead = i + 16;
    if (ahead < n && ahead >> 16 == i >> 16 && ids[ahead] < n_table) __builtin_prefetch(&table[ids[ahead]]);
    const gr_vid v = ids[i], l = v < n_table ? table[v] : GR_NO_VERTEX;
    const bool ok = v < n_table && l < limit;
    lost += !ok;
    ids[i] = ok ? l : 0;
  }
  if (lost) __atomic_fetch_add(bad, lost, __ATOMIC_RELAXED);
  return GR_SUCCESS;
}

/* Two passes over word ranges: count per thread, then write each thread's
 * ids at its offset, so the queue comes out in ascending order. With q NULL
 * only the count is returned. */
gr_status gr__frontier_b2q_cpu(gr_device *dev, const uint32_t *bits, gr_vid universe, gr_vid *q,
                               gr_eid *n) {
  GR_CHECK(gr__device_launch(dev, "gr__frontier_b2q_cpu", NULL));
  size_t words = gr_bitmap_words(universe);
  int nt = gr_device_cpu_threads(dev);
  if (nt > 256) nt = 256;
  uint64_t counts[257] = {0};
  int used = 1;
#pragma omp parallel num_threads(nt)
  {
    int t = 0, T = 1;
#ifdef GR_HAVE_OPENMP
    t = omp_get_thread_num();
    T = omp_get_num_threads();
#endif
#pragma omp single
    used = T;
    size_t lo = words * (size_t)t / (size_t)T, hi = words * (size_t)(t + 1) / (size_t)T;
    uint64_t c = 0;
    for (size_t w = lo; w < hi; w++) c += (uint64_t)__builtin_popcount(bits[w]);
    counts[t + 1] = c;
#pragma omp barrier
#pragma omp single
    for (int i = 1; i <= T; i++) counts[i] += counts[i - 1];
    if (q) {
      uint64_t pos = counts[t];
      for (size_t w = lo; w < hi; w++) {
        uint32_t x = bits[w];
        while (x) {
          int b = __builtin_ctz(x);
          q[pos++] = (gr_vid)(w * 32 + (size_t)b);
          x &= x - 1;
        }
      }
    }
  }
  *n = counts[used];
  return GR_SUCCESS;
}

gr_status gr__frontier_degrees_cpu(gr_device *dev, const gr_vid *q, gr_eid n, const gr_eid *offsets,
                                   gr_eid *sum) {
  GR_CHECK(gr__device_launch(dev, "gr__frontier_degrees_cpu", NULL));
  gr_eid t = 0;
  const int nt = gr_device_cpu_threads(dev);
#pragma omp parallel for num_threads(nt) reduction(+ : t) schedule(static)
  for (gr_eid i = 0; i < n; i++) t += offsets[q[i] + 1] - offsets[q[i]];
  *sum = t;
  return GR_SUCCESS;
}
