// SPDX-License-Identifier: Apache-2.0
// How the CUDA operators read a neighbour id: from the plain index array, or
// decoded from packed lists (gr/packed.h). The operator kernels are
// templates over one of these two, so a graph without packed lists runs the
// same code as before (PlainLists compiles to the plain load).
//
// Two ways to read, as the kernels walk lists:
//   - a warp at a time (warp_id): every lane of the warp calls with its own
//     edge or none, and says whether the lane before holds the edge before
//     it (the caller's mapping knows). Such lanes form runs;
//     a packed run is decoded by one segmented sum over the warp (the first
//     lane of a run is its head, later lanes add their w-bit difference), so
//     a run costs each lane one code and five shuffles. A head knows its id
//     from the row's start (its absolute or row-relative code), from its
//     block's base (the first edge of a 32-edge block), from the id the same
//     lane decoded for the edge before (carried: a warp or a group walking a
//     long row round after round), or, when none of those holds (a run that
//     begins mid-row and mid-block, e.g. lane 0 of an edge-balanced warp),
//     from a sum the whole warp takes over that block's codes.
//   - a thread at a time (Cursor): a thread visiting one row's edges in
//     order keeps the last id and adds the next code.
//   - a thread per 32-edge block (Walk): a thread steps through the block's
//     lanes 0..31 in order, visiting those of its row. Packed, it keeps the
//     block's codes in a 64-bit window that takes in the next word as the
//     codes pass it (a word per 32/w steps), so a step costs a shift, a
//     mask and an add, and no warp-wide work at all. With 32-bit ids the
//     warp first copies its 32 blocks to shared memory (walk_stage), each
//     run of blocks consecutive in memory in coalesced loads, so that the
//     window's words come from there.
#ifndef GR_CUDA_LISTS_CUH
#define GR_CUDA_LISTS_CUH

#include "gr/packed.h"
#include "operators/cuda/emit.cuh"

namespace gr_cuda {

struct PlainLists {
  const gr_vid *__restrict__ idx;

  // Blocks an SM must hold at once in the edge-balanced push kernels (their
  // __launch_bounds__): 8, 32 registers a thread, what the compiler chose
  // for them unconstrained.
  static constexpr int kPushMinBlocks = 8;
  // The same for the thread-per-candidate pull: 32 registers unconstrained
  // with 32-bit ids. 64-bit ids are left unconstrained (1): held to 32
  // registers they spill.
  static constexpr int kPullMinBlocks = GR_VID_BITS == 64 ? 1 : 8;

  // long-rows=auto: never. A thread reading a block's ids one by one makes
  // 32 scattered loads where a warp makes one coalesced load per 32 ids;
  // measured slower for plain ids (docs/performance.md).
  static constexpr gr_eid kLongRows = 0;

  // Where a warp walking a row from edge s starts its rounds: at s itself.
  __device__ __forceinline__ static gr_eid align(gr_eid s) { return s; }

  // Where edge e's id is read from, looked up ahead of warp_id_aligned
  // (the pull's warps look up 32 rows' first blocks at once): nothing for
  // plain ids, whose edge is their address.
  struct Head {};
  __device__ __forceinline__ Head head(gr_eid e) const {
    (void)e;
    return Head{};
  }
  __device__ __forceinline__ static Head share(const Head &h, int lane) {
    (void)lane;
    return h;
  }
  // A round of a warp walking row `row` from align(s): lane i holds edge
  // chunk + i.
  __device__ __forceinline__ gr_vid warp_id_aligned(const Head &h, bool valid, gr_vid row, gr_eid s,
                                                    gr_eid e) const {
    (void)h;
    (void)row;
    (void)s;
    return valid ? idx[e] : 0;
  }

  // The id of edge e for each lane with valid set. row: the edge's row; s:
  // the row's first edge; follows: the lane before holds edge e - 1 of the
  // same row (valid); carried: prev is the id this lane read for edge e - 1
  // of the same row. Only PackedLists uses those. Every lane of the warp
  // calls.
  __device__ __forceinline__ gr_vid warp_id(bool valid, gr_vid row, gr_eid s, gr_eid e, bool follows, bool carried,
                                            gr_vid prev) const {
    (void)row;
    (void)s;
    (void)follows;
    (void)carried;
    (void)prev;
    return valid ? idx[e] : 0;
  }

  struct Cursor {};
  // A thread reads row `row`'s edges s, s + 1, ... in order through c.
  __device__ __forceinline__ void begin(Cursor &c, gr_vid row, gr_eid s) const {
    (void)c;
    (void)row;
    (void)s;
  }
  __device__ __forceinline__ gr_vid at(Cursor &c, gr_eid e) const {
    (void)c;
    return idx[e];
  }

  struct Walk {};
  // A thread walks block b (edges 32b .. 32b + 31): walk_begin, then
  // walk_stage with every lane of its warp (valid: this lane called
  // walk_begin; stage: the warp's stage_words + 2 words of shared memory,
  // stage_words at most kWalkStageWords, 0 for none: the blocks are then
  // read in place), then walk_step for lanes k = 0, 1, ..., 31 in order, every one
  // of them (so a window of codes moves), with want set where the caller
  // needs the id: edge e = 32b + k, of row `row`; start: e is the row's
  // first edge.
  static constexpr unsigned kWalkStageWords = 0;
  __device__ __forceinline__ void walk_begin(Walk & /*w*/, gr_eid /*b*/) const {}
  __device__ __forceinline__ void walk_stage(Walk & /*w*/, bool /*valid*/, uint32_t * /*stage*/,
                                             unsigned /*stage_words*/) const {}
  __device__ __forceinline__ gr_vid walk_step(Walk & /*w*/, unsigned /*k*/, bool want, bool /*start*/, gr_eid e,
                                              gr_vid /*row*/) const {
    return want ? idx[e] : 0;
  }
};

// The sum of a value over the warp (ids add modulo 2^GR_VID_BITS).
__device__ __forceinline__ gr_vid warp_id_sum(gr_vid x) {
#if GR_VID_BITS == 64
  for (int o = 16; o; o >>= 1) x += __shfl_xor_sync(kFullMask, x, o);
  return x;
#else
  return __reduce_add_sync(kFullMask, x);
#endif
}

// Runs of ids from their terms: a lane with cont set adds its term to the
// id of the lane before; the others (heads) hold their id already. A
// segmented inclusive sum over the warp (ids add modulo 2^GR_VID_BITS);
// every lane of the warp calls. Lane 0 is always a head. With each lane's
// distance to its head known (one shift and one count), a step is a
// shuffle, a compare and an add.
__device__ __forceinline__ gr_vid warp_run_sum(gr_vid x, bool cont) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned heads = __ballot_sync(kFullMask, !cont) | 1u;
  if (heads != kFullMask) {
    const unsigned dist = gr_packed_segment_distance(heads, lane);
    for (unsigned d = 1; d < 32; d <<= 1) {
      const gr_vid y = __shfl_up_sync(kFullMask, x, d);
      if (dist >= d) x += y;
    }
  }
  return x;
}

struct PackedLists {
  gr_packed p;  // device arrays, by value; the blocks with GR_PACK_PAD_BYTES after them

  // The decode takes the edge-balanced push to 38 registers, 6 blocks an SM
  // (75 % occupancy); held to 32, 8 blocks fit, as with plain ids.
  static constexpr int kPushMinBlocks = 8;
  // The thread-per-candidate pull: the cursor takes it to 40 registers (6
  // blocks an SM); held to 32 (8 blocks, as with plain ids) it spills 64
  // bytes and is still faster: DOBFS Kronecker 25's big pull level 1.19 ->
  // 1.01 ms in that kernel on the H200 (docs/performance.md). 64-bit ids
  // are left unconstrained (1): held to 32 registers they spill 314 bytes.
  static constexpr int kPullMinBlocks = GR_VID_BITS == 64 ? 1 : 8;

  // long-rows=auto: rows of 32 edges or more, where a thread decoding a
  // block in order spends a shift and an add per id, against a warp's
  // segmented sum for every 32 ids of the edge-balanced mapping.
  static constexpr gr_eid kLongRows = 32;

  // A warp walking a row starts its rounds at the block holding the row's
  // first edge (lanes before it idle), so every round is one whole block:
  // lane i holds the block's lane i, and no head needs the warp's sum.
  __device__ __forceinline__ static gr_eid align(gr_eid s) { return s / GR_PACK_BLOCK * GR_PACK_BLOCK; }

  // The low w bits set (w <= 32): one funnel shift, where the plain form
  // (w >= 32 ? ~0 : (1 << w) - 1) costs a shift, a compare and a select.
  __device__ __forceinline__ static uint32_t low_bits(unsigned w) { return __funnelshift_lc(~0u, 0u, w); }

  // A lane's w-bit code: with 32-bit ids one funnel shift of the two words
  // it spans (the padding makes the second always readable) and a mask;
  // lane 0's bits are the block's mode and are not an id's code.
  __device__ __forceinline__ static gr_vid code(const uint32_t *blk, unsigned w, unsigned lane) {
#if GR_VID_BITS == 64
    return gr_packed_code(blk, w, lane);
#else
    const uint32_t *pay = blk + GR_PACK_BASE_WORDS;
    const unsigned bit = lane * w, k = bit >> 5;
    return __funnelshift_r(pay[k], pay[k + 1], bit & 31u) & low_bits(w);
#endif
  }

  // Edge e's block: where it starts and its codes' width.
  struct Head {
    uint64_t at;
    unsigned w;
  };
  __device__ __forceinline__ Head head(gr_eid e) const {
    Head h;
    h.at = gr_packed_block_at(&p, e / GR_PACK_BLOCK, &h.w);
    return h;
  }
  // Lane `lane`'s head, to every lane of the warp.
  __device__ __forceinline__ static Head share(const Head &h, int lane) {
    return Head{__shfl_sync(kFullMask, h.at, lane), __shfl_sync(kFullMask, h.w, lane)};
  }

  // A round of a warp walking row `row` from align(s), its block looked up
  // already (h: head(e), the same for every lane): lane i holds the block's
  // lane i, so a run's head is lane 0 (the base) or the row's first edge,
  // and no lane needs a seed's sum.
  __device__ __forceinline__ gr_vid warp_id_aligned(const Head &h, bool valid, gr_vid row, gr_eid s,
                                                    gr_eid e) const {
    const unsigned pos = (unsigned)(e % GR_PACK_BLOCK);
    gr_vid x = 0;
    if (valid) {
      const uint32_t *blk = (const uint32_t *)(const void *)p.bytes + h.at;
      const gr_vid c = code(blk, h.w, pos);
      x = pos == 0 ? gr_packed_base(blk) : e == s ? gr_packed_row_start_id(blk, h.w, c, row) : c;
    }
    return warp_run_sum(x, valid && pos != 0 && e != s);
  }

  __device__ __forceinline__ gr_vid warp_id(bool valid, gr_vid row, gr_eid s, gr_eid e, bool follows, bool carried,
                                            gr_vid prev) const {
    const unsigned pos = (unsigned)(e % GR_PACK_BLOCK);
    const bool start = e == s;
    // A run continues where the lane before holds the edge before in the
    // same block; its head is any other valid lane.
    const bool cont = valid && follows && pos != 0 && !carried;
    const bool seed = valid && !follows && pos != 0 && !start && !carried;
    uint64_t at = 0;
    unsigned w = 0, span = 0;
    gr_vid x = 0;
    if (valid) {
      at = gr_packed_block_at(&p, e / GR_PACK_BLOCK, &w);
      const uint32_t *blk = (const uint32_t *)(const void *)p.bytes + at;
      const gr_vid c = code(blk, w, pos);
      x = pos == 0 ? gr_packed_base(blk) : start ? gr_packed_row_start_id(blk, w, c, row) : carried ? prev + c : c;
      // What a seed's warp sum needs besides the block: its width and the
      // lanes it sums, from the later of the block's and the row's start
      // (first) up to this edge, in one word for one shuffle.
      const gr_eid into = e - s;
      const unsigned first = into >= pos ? 0u : pos - (unsigned)into;
      span = w | first << 8 | pos << 16;
    }
    // Heads that begin mid-row and mid-block: the warp sums that block's
    // codes after its first lane in the row (the later of the block's and
    // the row's start) up to the edge, and the head adds the first lane's
    // term (the base, or the row start's id from its code).
    const unsigned need = __ballot_sync(kFullMask, seed);
    if (need == 1u) {
      // Lane 0 alone: every mapping's case (edge-balanced warps and the TWC
      // thread phase start mid-row only there; the rest start at blocks).
      x = seed_sum(x, span, at, row, 0);
    } else {
      for (unsigned rest = need; rest; rest &= rest - 1) x = seed_sum(x, span, at, row, __ffs(rest) - 1);
    }
    return warp_run_sum(x, cont);
  }

  // One seed's warp sum (see warp_id): lane l's id, returned to lane l
  // (the other lanes get their x back). Every lane of the warp calls.
  __device__ __forceinline__ gr_vid seed_sum(gr_vid x, unsigned span, uint64_t at, gr_vid row, int l) const {
    const unsigned lane = threadIdx.x & 31u;
    const unsigned sl = __shfl_sync(kFullMask, span, l);
    const uint64_t atl = __shfl_sync(kFullMask, at, l);
    const unsigned wl = sl & 0xffu, first = (sl >> 8) & 0xffu, last = sl >> 16;
    const uint32_t *blk = (const uint32_t *)(const void *)p.bytes + atl;
    const gr_vid c = code(blk, wl, lane);
    const gr_vid sum = warp_id_sum(lane > first && lane <= last ? c : 0);
    const gr_vid cf = __shfl_sync(kFullMask, c, (int)first);
    if ((int)lane != l) return x;
    return sum + (first == 0 ? gr_packed_base(blk) : gr_packed_row_start_id(blk, wl, cf, row));
  }

  // For a warp reading whole blocks (lane i holds the block's lane i), what
  // can be read before the rows are known: lane 0 the block's base, the
  // others their code; relative: the block codes row starts relative to
  // their row. The id then follows from the row starts (row_start_id at
  // a start, lane 0 excepted) and warp_run_sum.
  __device__ __forceinline__ gr_vid block_term(gr_eid b, unsigned lane, bool &relative) const {
    unsigned w;
    const uint32_t *blk = gr_packed_block(&p, b, &w);
    relative = gr_packed_row_relative(blk, w);
    return lane == 0 ? gr_packed_base(blk) : code(blk, w, lane);
  }

  // A thread reading one row's edges in order (the pull's light
  // candidates): a block is looked up at the row's start and at each block
  // boundary, every other id adds its code (one funnel shift and a mask)
  // to the id before.
  struct Cursor {
#if GR_VID_BITS == 64
    gr_packed_walk k;
#else
    const uint32_t *blk;
    unsigned w;
    gr_vid v;
#endif
    gr_vid row;
    gr_eid s;
  };
  __device__ __forceinline__ void begin(Cursor &c, gr_vid row, gr_eid s) const {
    c.row = row;
    c.s = s;
  }
  __device__ __forceinline__ gr_vid at(Cursor &c, gr_eid e) const {
#if GR_VID_BITS == 64
    return e == c.s ? gr_packed_walk_start(&c.k, &p, e, c.row) : gr_packed_walk_next(&c.k, &p, e);
#else
    const unsigned lane = (unsigned)(e % GR_PACK_BLOCK);
    if (lane == 0 || e == c.s) {
      c.blk = gr_packed_block(&p, e / GR_PACK_BLOCK, &c.w);
      c.v = lane == 0 ? gr_packed_base(c.blk) : gr_packed_row_start_id(c.blk, c.w, code(c.blk, c.w, lane), c.row);
    } else {
      c.v += code(c.blk, c.w, lane);
    }
    return c.v;
#endif
  }

  // With 32-bit ids the walked kernel is held to 32 registers (8 blocks an
  // SM); one word for the window's position, the width and the mode keeps
  // its loop from spilling (three words spilled 20 bytes, read and written
  // on every step: 125 M local-memory requests in Kronecker 27's largest
  // BFS level).
  struct Walk {
#if GR_VID_BITS == 64
    const uint32_t *blk;
    unsigned w;
    bool relative;
#else
    const uint32_t *next;  // the next payload word the window takes in
    uint64_t window;       // payload bits from bit `st & 63` of the current word on
    unsigned st;           // the window's bit, width << 8, row-relative << 16
#endif
    gr_vid last;  // the id at the lane before (lane 0: the block's base)
  };
  // Words of blocks a warp copies to shared memory before its walk, with
  // 32-bit ids: a thread reading its own block word by word makes a warp's
  // load touch 32 sectors, and the level's loads then wait on the L2
  // (Kronecker 27's largest BFS level: L2 90 % busy, L1 hits 6 %, on an
  // H100); the warp copies its blocks' runs of consecutive words in
  // coalesced loads instead. 20 words a lane (widths up to 19 bits) keep 8
  // blocks an SM within its shared memory; lanes past them read their
  // blocks where they are.
  static constexpr unsigned kWalkStageWords = GR_VID_BITS == 64 ? 0 : 640;

  __device__ __forceinline__ void walk_begin(Walk &k, gr_eid b) const {
    unsigned w;
    const uint32_t *blk = gr_packed_block(&p, b, &w);
#if GR_VID_BITS == 64
    k.last = gr_packed_base(blk);
    k.blk = blk;
    k.w = w;
    k.relative = gr_packed_row_relative(blk, w);
#else
    // The block is read in walk_stage, from shared memory or from here.
    k.next = blk;
    k.st = w << 8;
#endif
  }

  __device__ __forceinline__ void walk_stage(Walk &k, bool valid, uint32_t *stage, unsigned stage_words) const {
#if GR_VID_BITS == 64
    (void)k;
    (void)valid;
    (void)stage;
    (void)stage_words;
#else
    if (stage_words == 0) {  // the same for the whole launch
      if (valid) walk_window(k, k.next);
      return;
    }
    const unsigned lane = threadIdx.x & 31u;
    const unsigned w = (k.st >> 8) & 0xffu;
    const unsigned words = valid ? GR_PACK_BASE_WORDS + w : 0u;
    // Where each lane's block goes: the words of the lanes before it.
    unsigned at = words;
    for (unsigned d = 1; d < 32; d <<= 1) {
      const unsigned y = __shfl_up_sync(kFullMask, at, d);
      if (lane >= d) at += y;
    }
    at -= words;
    // Valid lanes are a prefix of the warp, and so are those that fit.
    const bool fits = valid && at + words <= stage_words;
    const unsigned end = fits ? at + words : 0u;
    const unsigned filled = __reduce_max_sync(kFullMask, end);
    // A run of blocks consecutive in memory (a long row's) is copied as one
    // range: a lane starts a run unless its block follows the lane before's.
    const uint32_t *before = (const uint32_t *)__shfl_up_sync(kFullMask, (unsigned long long)(k.next + words), 1);
    const bool head = fits && (lane == 0 || before != k.next);
    for (unsigned runs = __ballot_sync(kFullMask, head); runs; runs &= runs - 1) {
      const int h = __ffs(runs) - 1;
      const unsigned rest = runs & (runs - 1);
      const unsigned from = __shfl_sync(kFullMask, at, h);
      const unsigned to = rest ? __shfl_sync(kFullMask, at, __ffs(rest) - 1) : filled;
      const uint32_t *src = (const uint32_t *)__shfl_sync(kFullMask, (unsigned long long)k.next, h);
      for (unsigned i = lane; i < to - from; i += 32) stage[from + i] = src[i];
    }
    __syncwarp();
    if (!valid) return;
    // Two words past a block's payload are always readable: in shared
    // memory the next lane's or the stage's last two; in device memory the
    // next block's, or the padding after the last one. Their values are
    // never used.
    walk_window(k, fits ? stage + at : k.next);
#endif
  }

#if GR_VID_BITS == 32
  // The walk's start from its block's words (staged or in place): the base,
  // the mode, and the window's first two payload words.
  __device__ __forceinline__ static void walk_window(Walk &k, const uint32_t *blk) {
    const unsigned w = (k.st >> 8) & 0xffu;
    k.last = gr_packed_base(blk);
    const uint32_t *pay = blk + GR_PACK_BASE_WORDS;
    k.window = (uint64_t)pay[0] | (uint64_t)pay[1] << 32;
    k.next = pay + 2;
    k.st = w << 8 | (unsigned)gr_packed_row_relative(blk, w) << 16;
  }
#endif
  __device__ __forceinline__ gr_vid walk_step(Walk &k, unsigned lane, bool want, bool start, gr_eid /*e*/,
                                              gr_vid row) const {
#if GR_VID_BITS == 64
    const gr_vid c = gr_packed_code(k.blk, k.w, lane);
    const bool relative = k.relative;
#else
    const unsigned w = (k.st >> 8) & 0xffu;
    const gr_vid c = (uint32_t)(k.window >> (k.st & 63u)) & low_bits(w);
    k.st += w;
    if ((k.st & 63u) >= 32) {
      k.window = k.window >> 32 | (uint64_t)*k.next++ << 32;
      k.st -= 32;
    }
    const bool relative = (k.st >> 16) & 1u;
#endif
    // Lane 0 is the base (held since walk_begin); a row's first edge
    // decodes alone; a later one adds its difference to the id before it,
    // which this thread decoded at the step before.
    if (want && lane != 0) k.last = !start ? k.last + c : relative ? (gr_vid)(row + gr_packed_unzigzag(c)) : c;
    return k.last;
  }
};

}  // namespace gr_cuda

#endif
