/* SPDX-License-Identifier: Apache-2.0 */
/* Random partitioner (the default): each vertex's part comes from a
 * counter-based random number of (seed, v), so the result is the same for
 * any thread count and balanced in expectation. */
#include "partition_internal.h"
#include "gr/util.h"

/* Stream id that keeps these draws apart from the generators' and weights'. */
#define GR__RANDOM_STREAM 0x72616e646f6dull

gr_status gr__partition_random(int32_t *owner, gr_graph *g, const gr_partition_options *o) {
  const uint64_t n = gr_graph_num_vertices(g);
  const uint64_t parts = (uint64_t)o->parts;
  const uint64_t seed = o->seed;
  /* The modulo's bias is below parts / 2^64: far under any sampling noise. */
  GR__PART_OMP(parallel for schedule(static) num_threads(gr__part_threads(o->threads)))
  for (uint64_t v = 0; v < n; v++) owner[v] = (int32_t)(gr_rand64(seed, GR__RANDOM_STREAM, v) % parts);
  return GR_SUCCESS;
}
