/* SPDX-License-Identifier: Apache-2.0 */
/* Random partitioner (the default): the part of each aligned block of ids
 * comes from a counter-based random number of (seed, block), so the result
 * is the same for any thread count and balanced in expectation. Blocks of
 * 32 ids (gr_partition_random_block) keep what a device reads of its own
 * vertices together: a bitmap word, a 128-byte line of a 4-byte array and
 * a warp's run of ids belong to one device. Dealt out one id at a time, a
 * device's vertices interleave with the others' and each of its passes
 * over them reads about every line of the whole array (DOBFS's pulls on
 * two logical devices of Kronecker 25: 8 % more work a device than in
 * blocks of 32, docs/performance.md). */
#include "partition_internal.h"
#include "gr/util.h"

/* Stream id that keeps these draws apart from the generators' and weights'. */
#define GR__RANDOM_STREAM 0x72616e646f6dull

uint32_t gr_partition_random_block(uint64_t n, int parts, uint32_t requested) {
  if (requested > 0) return requested;
  const uint64_t want = (uint64_t)GR_PARTITION_BLOCK * GR_PARTITION_BLOCKS_PER_PART * (uint64_t)(parts > 0 ? parts : 1);
  return n >= want ? GR_PARTITION_BLOCK : 1u;
}

gr_status gr__partition_random(int32_t *owner, gr_graph *g, const gr_partition_options *o) {
  const uint64_t n = gr_graph_num_vertices(g);
  const uint64_t parts = (uint64_t)o->parts;
  const uint64_t seed = o->seed;
  const uint64_t block = gr_partition_random_block(n, o->parts, o->block);
  const uint64_t blocks = (n + block - 1) / block;
  /* One draw a block. The modulo's bias is below parts / 2^64: far under
   * any sampling noise. */
  GR__PART_OMP(parallel for schedule(static) num_threads(gr__part_threads(o->threads)))
  for (uint64_t b = 0; b < blocks; b++) {
    const int32_t part = (int32_t)(gr_rand64(seed, GR__RANDOM_STREAM, b) % parts);
    const uint64_t end = (b + 1) * block < n ? (b + 1) * block : n;
    for (uint64_t v = b * block; v < end; v++) owner[v] = part;
  }
  return GR_SUCCESS;
}
