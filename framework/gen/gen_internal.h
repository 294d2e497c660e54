/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by the generator files: spec validation and sizes, the per-kind
 * fillers that write edges straight into preallocated arrays by edge index,
 * and the keyed vertex permutation (exposed so that tests can check it). */
#ifndef GR_GEN_INTERNAL_H
#define GR_GEN_INTERNAL_H

#include <stdint.h>

#include "gr/gen.h"
#include "gr/types.h"
#include "gr/util.h"

/* Independent random streams of one seed, one per use. */
#define GR__GEN_STREAM_KRON 0x6b726f6e00000001ull
#define GR__GEN_STREAM_PERM 0x7065726d00000002ull
#define GR__GEN_STREAM_UNIFORM 0x756e696600000003ull
#define GR__GEN_STREAM_UNIFORM_HI 0x756e696600000004ull

/* Largest edge count a spec may ask for: keeps every byte count of the edge
 * arrays far from overflowing size_t. */
#define GR__GEN_MAX_EDGES (1ull << 61)

/* Checks a spec (ranges, probabilities, sizes against the vertex-id width)
 * and returns its vertex and edge counts. Errors are GR_ERR_INVALID_ARG and
 * name the offending field. */
gr_status gr__gen_size(const gr_gen_spec *spec, uint64_t *n, uint64_t *m);

/* OpenMP team size for a generator loop: threads > 0 wins, else all. */
int gr__gen_team(int threads);

/* A bijection of [0, 2^scale) keyed by a seed, computable per vertex:
 * rounds of add-key, multiply-by-odd-key and xor-shift, all mod 2^scale. */
#define GR__GEN_PERM_ROUNDS 4
typedef struct gr__gen_perm {
  uint64_t mask;
  unsigned shift;
  uint64_t add[GR__GEN_PERM_ROUNDS];
  uint64_t mul[GR__GEN_PERM_ROUNDS];
} gr__gen_perm;

void gr__gen_perm_init(gr__gen_perm *p, int scale, uint64_t seed);

static inline uint64_t gr__gen_perm_apply(const gr__gen_perm *p, uint64_t x) {
  for (int r = 0; r < GR__GEN_PERM_ROUNDS; r++) {
    x = ((x + p->add[r]) * p->mul[r]) & p->mask;
    x ^= x >> p->shift;
  }
  return x;
}

/* Fillers: write m edges into src/dst (each m long) for a validated spec. */
void gr__gen_kronecker(gr_vid *src, gr_vid *dst, uint64_t m, const gr_gen_spec *spec,
                       int threads);
void gr__gen_uniform(gr_vid *src, gr_vid *dst, uint64_t m, const gr_gen_spec *spec,
                     int threads);
void gr__gen_grid(gr_vid *src, gr_vid *dst, uint64_t m, const gr_gen_spec *spec,
                  int threads);

#endif
