/* SPDX-License-Identifier: Apache-2.0 */
/* Kronecker/R-MAT edges (Graph500): each edge descends `scale` levels of the
 * adjacency matrix, picking a quadrant per level with probabilities a, b, c,
 * d, then both endpoints are relabelled by a keyed permutation. */
#include "gen_internal.h"

/* Step between an edge's successive draws (SplitMix64's increment). */
#define GR__GEN_DRAW_STEP 0x9e3779b97f4a7c15ull

void gr__gen_perm_init(gr__gen_perm *p, int scale, uint64_t seed) {
  p->mask = scale >= 64 ? UINT64_MAX : (1ull << scale) - 1;
  /* Half the width mixes the high half into the low one and, with the
   * multiplications carrying low bits up, every bit reaches every other in
   * a few rounds; at least 1 keeps the xor-shift a bijection. */
  p->shift = (unsigned)(scale + 1) / 2;
  if (p->shift == 0) p->shift = 1;
  for (int r = 0; r < GR__GEN_PERM_ROUNDS; r++) {
    p->add[r] = gr_rand64(seed, GR__GEN_STREAM_PERM, 2 * (uint64_t)r) & p->mask;
    p->mul[r] = gr_rand64(seed, GR__GEN_STREAM_PERM, 2 * (uint64_t)r + 1) | 1;
  }
}

/* 32-bit threshold of a cumulative probability; 2^32 for 1 so that a level
 * never passes a quadrant of probability 1. */
static uint64_t gr__threshold(double p) {
  if (!(p > 0.0)) return 0;
  if (p >= 1.0) return 1ull << 32;
  double t = p * 4294967296.0 + 0.5;
  return t >= 4294967296.0 ? 1ull << 32 : (uint64_t)t;
}

/* Everything an edge needs, passed by value so that the loop keeps it in
 * registers (inside an OpenMP region shared locals are reached through a
 * pointer and reloaded after every store). */
typedef struct gr__kron_params {
  uint64_t seed;
  int scale;
  bool permute;
  uint64_t t1, t2, t31;
  gr__gen_perm perm;
} gr__kron_params;

/* Edges [lo, hi). */
static void gr__kron_block(gr_vid *restrict src, gr_vid *restrict dst, uint64_t lo, uint64_t hi,
                           const gr__kron_params *params) {
  const gr__kron_params p = *params;
  const int draws = (p.scale + 1) / 2;
  const unsigned extra = (unsigned)p.scale & 1u;
  for (uint64_t e = lo; e < hi; e++) {
    /* One counter-based draw per edge, then a SplitMix64 run from it: every
     * bit depends on (seed, e) alone, whatever thread makes the edge. */
    const uint64_t state = gr_rand64(p.seed, GR__GEN_STREAM_KRON, e);
    uint64_t row = 0, col = 0, r = state;
    for (int k = 0; k < draws; k++) {
      if (k) r = gr_mix64(state + (uint64_t)k * GR__GEN_DRAW_STEP);
      uint64_t u = r & 0xffffffffu;
      uint64_t bit = u >= p.t2;
      row = 2 * row + bit;
      col = 2 * col + (u >= p.t1 + (p.t31 & (0 - bit)));
      u = r >> 32;
      bit = u >= p.t2;
      row = 2 * row + bit;
      col = 2 * col + (u >= p.t1 + (p.t31 & (0 - bit)));
    }
    /* An odd scale made one level too many: drop the last. */
    row >>= extra;
    col >>= extra;
    if (p.permute) {
      row = gr__gen_perm_apply(&p.perm, row);
      col = gr__gen_perm_apply(&p.perm, col);
    }
    src[e] = (gr_vid)row;
    dst[e] = (gr_vid)col;
  }
}

/* Edges per parallel block: large enough to amortise the call, small
 * enough to balance. */
#define GR__KRON_BLOCK 16384u

void gr__gen_kronecker(gr_vid *src, gr_vid *dst, uint64_t m, const gr_gen_spec *spec,
                       int threads) {
  gr__kron_params p;
  p.seed = spec->seed;
  p.scale = spec->scale;
  p.permute = spec->permute;
  /* A level's 32 random bits u pick quadrant a (top left) below t1, b (top
   * right) below t2, c (bottom left) below t3, else d. The row bit is
   * u >= t2; the column bit is u >= t1 in the top half and u >= t3 in the
   * bottom one, which saves a comparison per level over counting all three
   * thresholds. */
  p.t1 = gr__threshold(spec->a);
  p.t2 = gr__threshold(spec->a + spec->b);
  p.t31 = gr__threshold(spec->a + spec->b + spec->c) - p.t1;
  gr__gen_perm_init(&p.perm, spec->scale, spec->seed);
  const uint64_t blocks = (m + GR__KRON_BLOCK - 1) / GR__KRON_BLOCK;
#ifdef GR_HAVE_OPENMP
#pragma omp parallel for schedule(static) num_threads(gr__gen_team(threads)) if (blocks > 4)
#endif
  for (uint64_t b = 0; b < blocks; b++) {
    const uint64_t lo = b * GR__KRON_BLOCK;
    gr__kron_block(src, dst, lo, m - lo < GR__KRON_BLOCK ? m : lo + GR__KRON_BLOCK, &p);
  }
}
