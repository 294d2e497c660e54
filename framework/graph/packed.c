/* SPDX-License-Identifier: Apache-2.0 */
/* The packed neighbour-list encoder (format in gr/packed.h): each group of
 * 512 blocks is sized, the group sizes are scanned, then each group is
 * written; both passes walk the rows forward from one binary search per
 * group, so the whole encode is linear in m. */
#include "gr/packed.h"

#include <string.h>

#include "gr/log.h"
#include "gr/util.h"
#include "graph_internal.h"

/* Block offsets within a group are 16-bit. */
_Static_assert((GR_PACK_GROUP - 1) * (GR_PACK_BASE_WORDS + GR_VID_BITS) < 65536,
               "a group of packed blocks must span fewer than 2^16 words");

static unsigned gr__bit_length(gr_vid x) {
#if GR_VID_BITS == 64
  return x ? 64u - (unsigned)__builtin_clzll(x) : 0u;
#else
  return x ? 32u - (unsigned)__builtin_clz(x) : 0u;
#endif
}

/* The codes of block b (lane 0's slot holds the mode bit) and their width.
 * *row is the row holding the block's first edge on entry and the one
 * holding its last edge on return. */
static unsigned gr__block_codes(const gr_csr *c, gr_eid b, gr_vid *row, gr_vid codes[GR_PACK_BLOCK]) {
  const gr_eid lo = b * GR_PACK_BLOCK;
  const unsigned count = c->m - lo < GR_PACK_BLOCK ? (unsigned)(c->m - lo) : GR_PACK_BLOCK;
  gr_vid relative[GR_PACK_BLOCK];
  uint32_t starts = 0;
  gr_vid abs_bits = 0, rel_bits = 0; /* OR of the codes: its bit length is the max's */
  gr_vid r = *row;
  memset(codes, 0, GR_PACK_BLOCK * sizeof *codes);
  for (unsigned i = 1; i < count; i++) {
    const gr_eid e = lo + i;
    while (c->offsets[r + 1] <= e) r++;
    const gr_vid v = c->indices[e];
    if (c->offsets[r] == e) {
      starts |= 1u << i;
      codes[i] = v;
      relative[i] = gr_packed_zigzag((gr_vid)(v - r));
      abs_bits |= v;
      rel_bits |= relative[i];
    } else {
      codes[i] = (gr_vid)(v - c->indices[e - 1]);
      abs_bits |= codes[i];
      rel_bits |= codes[i];
    }
  }
  *row = r;
  const unsigned w_abs = gr__bit_length(abs_bits);
  unsigned w_rel = gr__bit_length(rel_bits);
  if (w_rel == 0) w_rel = 1; /* the mode bit needs a slot */
  if (w_rel >= w_abs) return w_abs;
  for (unsigned i = 1; i < count; i++)
    if (starts & (1u << i)) codes[i] = relative[i];
  codes[0] = 1;
  return w_rel;
}

/* ORs a w-bit code into lane's slot of a zeroed payload. */
static void gr__put(uint32_t *pay, unsigned w, unsigned lane, gr_vid code) {
  const unsigned bit = lane * w, k = bit >> 5, sh = bit & 31u;
  const uint64_t x = (uint64_t)code;
  pay[k] |= (uint32_t)(x << sh);
  unsigned put = 32u - sh;
  if (put < w) {
    pay[k + 1] |= (uint32_t)(x >> put);
    put += 32u;
  }
  if (put < w) pay[k + 2] |= (uint32_t)(x >> put);
}

void gr_packed_free(gr_packed *p) {
  if (!p) return;
  gr_host_free(p->bytes);
  gr_host_free(p->block_offsets);
  gr_host_free(p->group_offsets);
  *p = (gr_packed)GR_PACKED_INIT;
}

gr_status gr_packed_encode(gr_packed *out, const gr_csr *csr) {
  gr_status st = GR_SUCCESS;
  gr_packed p = GR_PACKED_INIT;
  if (!out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_packed_encode: no output");
  *out = p;
  if (!csr) return gr_errorf(GR_ERR_INVALID_ARG, "gr_packed_encode: no CSR");
  const gr_eid m = csr->m;
  /* An empty CSR may come without offsets. */
  const bool empty = csr->n == 0 && m == 0;
  if ((!csr->offsets && !empty) || (csr->offsets && (csr->offsets[0] != 0 || csr->offsets[csr->n] != m)) ||
      (m > 0 && !csr->indices))
    return gr_errorf(GR_ERR_INVALID_ARG,
                     "gr_packed_encode: the CSR's offsets must run from 0 to m = %llu with %llu ids",
                     (unsigned long long)m, (unsigned long long)m);
  const double t0 = gr_time_now();
  p.n = csr->n;
  p.m = m;
  p.n_blocks = (m + GR_PACK_BLOCK - 1) / GR_PACK_BLOCK;
  const uint64_t groups = gr_packed_groups(p.n_blocks);
  GR_CHECK_GOTO(gr_host_alloc((void **)&p.block_offsets, (size_t)(p.n_blocks + 1) * sizeof *p.block_offsets,
                              "packed block offsets"),
                st, cleanup);
  GR_CHECK_GOTO(gr_host_alloc((void **)&p.group_offsets, (size_t)groups * sizeof *p.group_offsets,
                              "packed group offsets"),
                st, cleanup);

  /* Sizes: each group's blocks in order, offsets within the group as they
   * go; the block after the last (n_blocks) gets its end offset too. */
  GR__OMP(parallel for schedule(dynamic, 4))
  for (uint64_t g = 0; g < groups; g++) {
    const gr_eid b0 = g * GR_PACK_GROUP;
    const gr_eid b1 = b0 + GR_PACK_GROUP < p.n_blocks ? b0 + GR_PACK_GROUP : p.n_blocks;
    gr_vid row = b0 < b1 ? gr_packed_row_of(csr->offsets, csr->n, b0 * GR_PACK_BLOCK) : 0;
    gr_vid codes[GR_PACK_BLOCK];
    uint64_t words = 0;
    for (gr_eid b = b0; b < b1; b++) {
      p.block_offsets[b] = (uint16_t)words;
      words += GR_PACK_BASE_WORDS + gr__block_codes(csr, b, &row, codes);
    }
    if (g == groups - 1) p.block_offsets[p.n_blocks] = (uint16_t)words; /* the end */
    p.group_offsets[g] = words;
  }
  const uint64_t total = gr_prefix_sum_u64(p.group_offsets, (size_t)groups);
  if (total > SIZE_MAX / 4) {
    st = gr_errorf(GR_ERR_TOO_LARGE, "packed lists of %llu words do not fit in memory", (unsigned long long)total);
    goto cleanup;
  }
  p.n_bytes = (size_t)total * 4;
  GR_CHECK_GOTO(gr_host_alloc((void **)&p.bytes, p.n_bytes, "packed neighbour lists"), st, cleanup);

  GR__OMP(parallel for schedule(dynamic, 4))
  for (uint64_t g = 0; g < groups; g++) {
    const gr_eid b0 = g * GR_PACK_GROUP;
    const gr_eid b1 = b0 + GR_PACK_GROUP < p.n_blocks ? b0 + GR_PACK_GROUP : p.n_blocks;
    gr_vid row = b0 < b1 ? gr_packed_row_of(csr->offsets, csr->n, b0 * GR_PACK_BLOCK) : 0;
    gr_vid codes[GR_PACK_BLOCK];
    for (gr_eid b = b0; b < b1; b++) {
      const unsigned w = gr__block_codes(csr, b, &row, codes);
      uint32_t *blk = (uint32_t *)(void *)p.bytes + gr_packed_block_word(&p, b);
      const gr_vid base = csr->indices[b * GR_PACK_BLOCK];
      blk[0] = (uint32_t)base;
#if GR_VID_BITS == 64
      blk[1] = (uint32_t)(base >> 32);
#endif
      uint32_t *pay = blk + GR_PACK_BASE_WORDS;
      memset(pay, 0, (size_t)w * sizeof *pay);
      for (unsigned i = 0; i < GR_PACK_BLOCK; i++)
        if (codes[i]) gr__put(pay, w, i, codes[i]);
    }
  }
  gr_log(GR_LOG_TRACE, GR_SUBSYS_GRAPH, "packed %llu ids into %llu bytes (%.3f bytes an id) in %.3f s",
         (unsigned long long)m, (unsigned long long)p.n_bytes, m ? (double)p.n_bytes / (double)m : 0.0,
         gr_time_now() - t0);
  *out = p;
  p = (gr_packed)GR_PACKED_INIT;
cleanup:
  gr_packed_free(&p);
  return st;
}

gr_status gr_packed_decode_all(gr_vid *out, const gr_packed *p, const gr_eid *offsets) {
  if (!p || (p->m > 0 && (!out || !offsets || !p->bytes)))
    return gr_errorf(GR_ERR_INVALID_ARG, "gr_packed_decode_all: missing output, packed lists or offsets");
  if (p->m == 0) return GR_SUCCESS;
  if (offsets[0] != 0 || p->n == 0 || offsets[p->n] != p->m)
    return gr_errorf(GR_ERR_INVALID_ARG, "gr_packed_decode_all: the offsets do not run from 0 to m = %llu",
                     (unsigned long long)p->m);
  const uint64_t groups = gr_packed_groups(p->n_blocks);
  GR__OMP(parallel for schedule(dynamic, 4))
  for (uint64_t g = 0; g < groups; g++) {
    const gr_eid b0 = g * GR_PACK_GROUP;
    const gr_eid b1 = b0 + GR_PACK_GROUP < p->n_blocks ? b0 + GR_PACK_GROUP : p->n_blocks;
    if (b0 >= b1) continue;
    gr_vid row = gr_packed_row_of(offsets, p->n, b0 * GR_PACK_BLOCK);
    for (gr_eid b = b0; b < b1; b++) {
      const unsigned count = gr_packed_decode_block(p, offsets, b, row, out + b * GR_PACK_BLOCK);
      /* On to the row of the block's last edge: the walk stays linear. */
      const gr_eid last = b * GR_PACK_BLOCK + count - 1;
      while (offsets[row + 1] <= last) row++;
    }
  }
  return GR_SUCCESS;
}

gr_packed_sizes gr_packed_get_sizes(const gr_packed *p) {
  gr_packed_sizes s = {0, 0, 0, 0};
  if (!p) return s;
  s.bases = (uint64_t)p->n_blocks * GR_PACK_BASE_WORDS * 4;
  s.codes = (uint64_t)p->n_bytes - s.bases;
  s.index = (uint64_t)(p->n_blocks + 1) * sizeof *p->block_offsets +
            gr_packed_groups(p->n_blocks) * sizeof *p->group_offsets;
  s.total = s.codes + s.bases + s.index;
  return s;
}
