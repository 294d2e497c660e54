/* SPDX-License-Identifier: Apache-2.0 */
/* Packed neighbour lists: a CSR's index array as bit-packed blocks of 32
 * edges that decode independently (a warp or a thread per block), found in
 * O(1) from a global edge id, so that kernels can read lists from device
 * memory or over the host link in fewer bytes. Offsets and weights stay as
 * they are; only the ids are packed.
 *
 * Format. Block b holds edges [32b, 32b + 32) of [0, m), regardless of rows:
 * edge e is block e / 32, lane e % 32. A block is, in 32-bit little-endian
 * words, one base word (two with GR_VERTEX_64) holding the id at lane 0,
 * then w words: 32 codes of w bits each, code i at bits [i*w, i*w + w) of
 * that bit string. Lane i > 0 codes its id v as
 *   - v - v[i-1]                  inside a row (edge i - 1 in the same row),
 *   - a row start's id            when the block is in "absolute" mode, or
 *     zigzag(v - row)             when it is in "row-relative" mode,
 * all modulo 2^GR_VID_BITS, so unsorted rows, duplicates and any id round-trip
 * exactly; sorted rows only make the codes small. w (0..GR_VID_BITS) is the
 * bit length of the largest code. Lane 0's slot holds no value: its low bit
 * is the mode (1 = row-relative; w = 0 means absolute). Codes of lanes past
 * m in the last block are 0. So every block is exactly base + w words and w
 * is implied by the block's size: there is no header byte and no padding.
 * Block b starts at word group_offsets[b / 512] + block_offsets[b]
 * (16-bit offsets relative to a 64-bit one every 512 blocks: 2 bytes per 32
 * edges, and O(1) to find a block; block n_blocks is the end).
 *
 * Why this and not one width byte, v[0] in the w bits and zigzag deltas
 * across rows with 64-bit block offsets (the first plan): measured on
 * gr's graphs (tools/gr_info --packed, bytes per edge, all included),
 *                        first plan  + row-aware  chosen  (plain ids: 4)
 *   kron:20:16               2.80       2.77       1.94
 *   uniform:20:16            2.97       2.79       2.36
 *   grid2d:1024x1024         2.75       2.75       1.56
 *   cnr-2000 out / in        2.57/2.57  2.57/2.57  1.59/0.87
 *   uk-2007-05-100k out/in   2.35/2.31  2.34/2.31  1.46/0.73
 * The id at lane 0 sets w for the whole block when it is coded in the w
 * bits (about log2 n bits even in the middle of a long sorted row); a base
 * word costs 1 bit per edge and frees that. Inside a row the delta is
 * non-negative when the row is sorted, so no zigzag bit is spent on it.
 * Row starts: their absolute id is small in random graphs (the smallest of
 * a row's neighbours), their distance to the row small in local ones
 * (grids, roads, crawled web graphs); one mode for all, per block, takes
 * the better (absolute only: 2.56 B/edge on grid2d, 2.20 on cnr-2000 out;
 * row-relative only: 2.66 on uniform:20:16). A row start also decodes
 * without the lanes before it, so a row's list costs only its own codes.
 * The first plan's header byte and 3 bytes of padding a block (4-byte
 * alignment: 0.094 B/edge of padding, 3-11% of the packed size) and 8-byte
 * block offsets add 0.375 B/edge; here there is no header or padding and
 * the index takes 0.063.
 *
 * Decoding needs the row structure (row starts, and the row of a row
 * start), which every kernel has: a vertex-centric one walks a row, an
 * edge-balanced one finds each edge's source row in the offsets anyway.
 * A warp decodes block b with lane i holding edge e = 32b + i (e < m):
 *   blk = gr_packed_block(p, b, &w);
 *   start = offsets[row] == e;              (row: the row of edge e)
 *   x = gr_packed_term(blk, w, i, start, row);
 *   heads = __ballot_sync(mask, i == 0 || start);
 *   h = gr_packed_segment_head(heads, i);
 *   for (d = 1; d < 32; d *= 2) {           (segmented inclusive sum)
 *     y = __shfl_up_sync(mask, x, d);
 *     if (i >= h + d) x += y;               (gr_vid arithmetic: mod 2^bits)
 *   }
 * and x is the id of edge e. A thread per block uses
 * gr_packed_decode_block; a row at a time, gr_packed_decode_row.
 *
 * gr_packed is plain data: a device copy is the three arrays copied to the
 * device with the struct's sizes, passed by value to kernels. */
#ifndef GR_PACKED_H
#define GR_PACKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gr/graph.h"
#include "gr/status.h"
#include "gr/types.h"

#define GR_PACK_BLOCK 32u
/* Blocks per 64-bit group offset: 511 blocks of at most base + GR_VID_BITS
 * words (66 with 64-bit ids) keep a block's offset in its group below 2^16. */
#define GR_PACK_GROUP 512u
/* Words of the base id at the start of every block. */
#define GR_PACK_BASE_WORDS (GR_VID_BITS / 32)
/* Zero bytes a copy read by the CUDA operators carries past its last
 * block: a lane there reads two words at any code's position without a
 * bounds test (a block of width 0 ends where its codes would start). */
#define GR_PACK_PAD_BYTES 8u

typedef struct gr_packed {
  gr_vid n;                 /* rows of the CSR it was made from */
  gr_eid m;                 /* edges */
  gr_eid n_blocks;          /* ceil(m / 32) */
  uint8_t *bytes;           /* n_bytes: the blocks, as 32-bit words */
  size_t n_bytes;           /* a multiple of 4 */
  uint16_t *block_offsets;  /* n_blocks + 1: words from the group's start */
  uint64_t *group_offsets;  /* n_blocks / 512 + 1: words from the start */
} gr_packed;
#define GR_PACKED_INIT {0, 0, 0, NULL, 0, NULL, NULL}

/* Where the bytes go: codes (w bits a lane, lane 0's and the last block's
 * empty lanes included), bases (one id a block) and the block index. */
typedef struct gr_packed_sizes {
  uint64_t codes;
  uint64_t bases;
  uint64_t index;
  uint64_t total;
} gr_packed_sizes;

#ifdef __cplusplus
extern "C" {
#endif

/* Packs csr's index array (rows, sorted or not, are taken as they are).
 * Linear passes in parallel over groups of blocks. On failure *out is
 * empty (GR_PACKED_INIT) and nothing is left allocated. */
gr_status gr_packed_encode(gr_packed *out, const gr_csr *csr);
/* Frees the arrays and empties *p; accepts NULL and an empty struct. */
void gr_packed_free(gr_packed *p);
/* Decodes every id into out[0 .. m) (for tests and checks), in parallel.
 * offsets are the CSR's (n + 1 entries). */
gr_status gr_packed_decode_all(gr_vid *out, const gr_packed *p, const gr_eid *offsets);
gr_packed_sizes gr_packed_get_sizes(const gr_packed *p);

#ifdef __cplusplus
}
#endif

GR_HD uint64_t gr_packed_groups(gr_eid n_blocks) { return n_blocks / GR_PACK_GROUP + 1; }

/* Word offset of block b (b == n_blocks: the end). */
GR_HD uint64_t gr_packed_block_word(const gr_packed *p, gr_eid b) {
  return p->group_offsets[b / GR_PACK_GROUP] + p->block_offsets[b];
}

/* Block b's word offset and its width. Block b + 1's offset is relative to
 * b's group for 511 blocks in 512, so most lookups read one 64-bit group
 * offset, not two. */
GR_HD uint64_t gr_packed_block_at(const gr_packed *p, gr_eid b, unsigned *w) {
  const uint64_t g = p->group_offsets[b / GR_PACK_GROUP];
  const uint64_t s = g + p->block_offsets[b];
  const uint64_t next = ((b + 1) % GR_PACK_GROUP ? g : p->group_offsets[(b + 1) / GR_PACK_GROUP]) +
                        p->block_offsets[b + 1];
  *w = (unsigned)(next - s) - GR_PACK_BASE_WORDS;
  return s;
}

/* Block b's first word and its width. */
GR_HD const uint32_t *gr_packed_block(const gr_packed *p, gr_eid b, unsigned *w) {
  return (const uint32_t *)(const void *)p->bytes + gr_packed_block_at(p, b, w);
}

/* The id at lane 0. */
GR_HD gr_vid gr_packed_base(const uint32_t *blk) {
#if GR_VID_BITS == 64
  return (gr_vid)blk[0] | (gr_vid)blk[1] << 32;
#else
  return blk[0];
#endif
}

/* The w-bit code of a lane, as stored (a CUDA lane extracts its own). */
GR_HD gr_vid gr_packed_code(const uint32_t *blk, unsigned w, unsigned lane) {
  if (w == 0) return 0;
  const uint32_t *pay = blk + GR_PACK_BASE_WORDS;
  const unsigned bit = lane * w; /* below 32 * 64 */
  const unsigned k = bit >> 5, sh = bit & 31u;
  uint64_t x = pay[k] >> sh;
  unsigned got = 32u - sh;
  /* Read only words the code reaches, so the last block is never overrun. */
  if (got < w) {
    x |= (uint64_t)pay[k + 1] << got;
    got += 32u;
  }
#if GR_VID_BITS == 64
  if (got < w) x |= (uint64_t)pay[k + 2] << got; /* got = 64 - sh, sh > 0 */
#endif
  return (gr_vid)(w >= 64 ? x : x & ((UINT64_C(1) << w) - 1));
}

/* Zigzag on GR_VID_BITS-bit two's complement: small magnitudes, either
 * sign, give small codes; a bijection, so any difference round-trips. */
GR_HD gr_vid gr_packed_zigzag(gr_vid d) {
  return (gr_vid)(d << 1) ^ (gr_vid)(0u - (d >> (GR_VID_BITS - 1)));
}
GR_HD gr_vid gr_packed_unzigzag(gr_vid c) { return (gr_vid)(c >> 1) ^ (gr_vid)(0u - (c & 1u)); }

/* Whether the block's row starts are coded relative to their row. */
GR_HD bool gr_packed_row_relative(const uint32_t *blk, unsigned w) {
  return w > 0 && (blk[GR_PACK_BASE_WORDS] & 1u);
}

/* The id of row `row`'s first edge from its code c (not at lane 0): the
 * code itself, or in a row-relative block the zig-zagged distance to row. */
GR_HD gr_vid gr_packed_row_start_id(const uint32_t *blk, unsigned w, gr_vid c, gr_vid row) {
  return gr_packed_row_relative(blk, w) ? (gr_vid)(row + gr_packed_unzigzag(c)) : c;
}

/* What lane `lane` contributes to the block's segmented sum: at lane 0 the
 * base, at a row start (row_start: offsets[row] is this edge) its id, else
 * the difference to the lane before. Lane 0 and row starts begin segments. */
GR_HD gr_vid gr_packed_term(const uint32_t *blk, unsigned w, unsigned lane, bool row_start, gr_vid row) {
  if (lane == 0) return gr_packed_base(blk);
  const gr_vid c = gr_packed_code(blk, w, lane);
  return row_start ? gr_packed_row_start_id(blk, w, c, row) : c;
}

/* How far lane is from the head of its segment, given the warp's mask of
 * segment heads (bit 0 always set): the heads at or below lane shifted to
 * the top, then their leading zeros (one shift and one count). */
GR_HD unsigned gr_packed_segment_distance(uint32_t heads, unsigned lane) {
  const uint32_t up = heads << (31u - lane);
#if defined(__CUDA_ARCH__)
  return (unsigned)__clz(up);
#else
  return (unsigned)__builtin_clz(up);
#endif
}

/* The lane that begins lane's segment (bit 0 of heads always set). */
GR_HD unsigned gr_packed_segment_head(uint32_t heads, unsigned lane) {
  return lane - gr_packed_segment_distance(heads, lane);
}

/* The row holding edge e (offsets[r] <= e < offsets[r + 1]); e < m, n > 0. */
GR_HD gr_vid gr_packed_row_of(const gr_eid *offsets, gr_vid n, gr_eid e) {
  gr_vid lo = 0, hi = n - 1;
  while (lo < hi) {
    const gr_vid mid = lo + (gr_vid)((hi - lo) / 2 + 1);
    if (offsets[mid] <= e) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* The id of edge e, which is in row `row`: the codes from the later of the
 * block's start and the row's start up to e. */
GR_HD gr_vid gr_packed_get(const gr_packed *p, const gr_eid *offsets, gr_vid row, gr_eid e) {
  const gr_eid b = e / GR_PACK_BLOCK, lo = b * GR_PACK_BLOCK, start = offsets[row];
  unsigned w;
  const uint32_t *blk = gr_packed_block(p, b, &w);
  const gr_eid first = start > lo ? start : lo;
  gr_vid v = gr_packed_term(blk, w, (unsigned)(first - lo), first == start, row);
  for (unsigned i = (unsigned)(first - lo) + 1, last = (unsigned)(e - lo); i <= last; i++)
    v += gr_packed_code(blk, w, i);
  return v;
}

/* Decodes block b into out (up to 32 ids) and returns how many. row: the row
 * holding the block's first edge, or any row before it (the walk skips
 * forward). One thread, lanes in order. */
GR_HD unsigned gr_packed_decode_block(const gr_packed *p, const gr_eid *offsets, gr_eid b, gr_vid row,
                                      gr_vid *out) {
  const gr_eid lo = b * GR_PACK_BLOCK;
  const unsigned count = p->m - lo < GR_PACK_BLOCK ? (unsigned)(p->m - lo) : GR_PACK_BLOCK;
  unsigned w;
  const uint32_t *blk = gr_packed_block(p, b, &w);
  gr_vid v = gr_packed_base(blk);
  out[0] = v;
  for (unsigned i = 1; i < count; i++) {
    const gr_eid e = lo + i;
    while (offsets[row + 1] <= e) row++;
    if (offsets[row] == e) v = gr_packed_term(blk, w, i, true, row);
    else v += gr_packed_code(blk, w, i);
    out[i] = v;
  }
  return count;
}

/* A walk along one row's list, an id at a time (a thread that visits a
 * row's edges in order, as the CPU operators do): start at the row's first
 * edge s, then next for s + 1, s + 2, ... up to the row's end. */
typedef struct gr_packed_walk {
  const uint32_t *blk;
  unsigned w;
  gr_eid b;
  gr_vid v;
} gr_packed_walk;

GR_HD gr_vid gr_packed_walk_start(gr_packed_walk *k, const gr_packed *p, gr_eid s, gr_vid r) {
  k->b = s / GR_PACK_BLOCK;
  k->blk = gr_packed_block(p, k->b, &k->w);
  k->v = gr_packed_term(k->blk, k->w, (unsigned)(s % GR_PACK_BLOCK), true, r);
  return k->v;
}

GR_HD gr_vid gr_packed_walk_next(gr_packed_walk *k, const gr_packed *p, gr_eid e) {
  const unsigned lane = (unsigned)(e % GR_PACK_BLOCK);
  if (lane == 0) {
    k->blk = gr_packed_block(p, ++k->b, &k->w);
    k->v = gr_packed_base(k->blk);
  } else {
    k->v += gr_packed_code(k->blk, k->w, lane);
  }
  return k->v;
}

/* Decodes row r's list, offsets[r] .. offsets[r + 1], into out. */
GR_HD void gr_packed_decode_row(const gr_packed *p, const gr_eid *offsets, gr_vid r, gr_vid *out) {
  const gr_eid s = offsets[r], t = offsets[r + 1];
  if (s == t) return;
  gr_packed_walk k;
  out[0] = gr_packed_walk_start(&k, p, s, r);
  for (gr_eid e = s + 1; e < t; e++) out[e - s] = gr_packed_walk_next(&k, p, e);
}

#endif
