/* SPDX-License-Identifier: Apache-2.0 */
/* Static partitioner, a cheap baseline: vertex v goes to part v mod parts
 * (round robin), so part sizes differ by at most one. */
#include "partition_internal.h"

gr_status gr__partition_static(int32_t *owner, gr_graph *g, const gr_partition_options *o) {
  const uint64_t n = gr_graph_num_vertices(g);
  const uint64_t parts = (uint64_t)o->parts;
  GR__PART_OMP(parallel for schedule(static) num_threads(gr__part_threads(o->threads)))
  for (uint64_t v = 0; v < n; v++) owner[v] = (int32_t)(v % parts);
  return GR_SUCCESS;
}
