/* SPDX-License-Identifier: Apache-2.0 */
/* Owner words: a bitmap of the ids one part owns, kept as that part's words
 * alone. Where every whole word of 32 ids has one owner (the random
 * partition's aligned blocks of 32 ids or more) and ids are the same on
 * every device (duplicate-all proxies), the words of part o are numbered in
 * id order: word w's slot among them comes from o's entry for w's group of
 * 32 words, the ids past the last whole word (fewer than 32, where n is no
 * multiple of 32) take the slot after o's whole words. A part's finds kept
 * so take 1/N of the bitmap's bytes on N parts, and go to its peers as they
 * are (DOBFS's pulls between devices). */
#ifndef GR_OWNER_WORDS_H
#define GR_OWNER_WORDS_H

#include "gr/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One part's entry for a group of 32 words (words 32g to 32g + 31). */
typedef struct gr_word_group {
  uint32_t base; /* the part's words in the groups before this one */
  uint32_t mask; /* bit i: word 32g + i is the part's */
} gr_word_group;

/* Where one part's bits go: word w of the bitmap of every id is slot
 * gr_owner_slot(s, w) of the part's words. groups NULL: slot w (the
 * bitmap of every id itself). */
typedef struct gr_owner_slots {
  const gr_word_group *groups; /* the part's entries, every `stride` (the parts) */
  uint64_t words;              /* whole words: ids below 32 * words */
  uint64_t tail;               /* slot of the ids from 32 * words on: the part's whole words */
  int stride;
} gr_owner_slots;

/* Word w's slot among its owner's words, from the owner's entry for w's group. */
GR_HD uint64_t gr_word_group_slot(gr_word_group e, uint64_t w) {
  const uint32_t below = e.mask & ((1u << (w & 31u)) - 1u);
#if defined(__CUDA_ARCH__)
  return (uint64_t)e.base + (uint64_t)__popc(below);
#else
  return (uint64_t)e.base + (uint64_t)__builtin_popcount(below);
#endif
}

/* Only for words of the part's own ids (or the last, partial word). */
GR_HD uint64_t gr_owner_slot(gr_owner_slots s, uint64_t w) {
  if (!s.groups) return w;
  if (w >= s.words) return s.tail;
  return gr_word_group_slot(s.groups[(w >> 5) * (uint64_t)s.stride], w);
}

#ifdef __cplusplus
}
#endif

#endif
