/* SPDX-License-Identifier: Apache-2.0 */
/* Uniform random edges (Erdos-Renyi G(n, m) with repeats): both endpoints
 * uniform over [0, 2^scale), from the edge's own counter-based draw. */
#include "gen_internal.h"

void gr__gen_uniform(gr_vid *src, gr_vid *dst, uint64_t m, const gr_gen_spec *spec,
                     int threads) {
  const uint64_t seed = spec->seed;
  const uint64_t mask = (1ull << spec->scale) - 1;
  /* Up to 32 bits per endpoint one draw serves both; wider ids (64-bit
   * builds) take a second stream. n is a power of two, so masking is exact. */
  const bool wide = spec->scale > 32;
#ifdef GR_HAVE_OPENMP
#pragma omp parallel for schedule(static) num_threads(gr__gen_team(threads)) if (m >= 65536)
#endif
  for (uint64_t e = 0; e < m; e++) {
    const uint64_t r = gr_rand64(seed, GR__GEN_STREAM_UNIFORM, e);
    const uint64_t hi = wide ? gr_rand64(seed, GR__GEN_STREAM_UNIFORM_HI, e) : r >> 32;
    src[e] = (gr_vid)(r & mask);
    dst[e] = (gr_vid)(hi & mask);
  }
}
