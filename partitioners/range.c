/* SPDX-License-Identifier: Apache-2.0 */
/* Range partitioner, a cheap baseline that keeps id locality: contiguous
 * ranges, the first n mod parts of them one vertex longer than the rest. */
#include "partition_internal.h"

gr_status gr__partition_range(int32_t *owner, gr_graph *g, const gr_partition_options *o) {
  const uint64_t n = gr_graph_num_vertices(g);
  const uint64_t parts = (uint64_t)o->parts;
  if (n == 0) return GR_SUCCESS;
  /* Quotient and remainder rather than v * parts / n, which could overflow
   * 64 bits with 64-bit vertex ids. parts <= n, so q >= 1. */
  const uint64_t q = n / parts, r = n % parts;
  const uint64_t long_end = r * (q + 1); /* vertices in the longer ranges */
  GR__PART_OMP(parallel for schedule(static) num_threads(gr__part_threads(o->threads)))
  for (uint64_t v = 0; v < n; v++)
    owner[v] = (int32_t)(v < long_end ? v / (q + 1) : r + (v - long_end) / q);
  return GR_SUCCESS;
}
