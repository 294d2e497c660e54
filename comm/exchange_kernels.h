/* SPDX-License-Identifier: Apache-2.0 */
/* The exchange's per-element work, with one implementation per backend
 * (exchange_cpu.c, the portable definition; cuda/exchange_cuda.cu): package
 * an output frontier (owned vertices to the next frontier, the rest into
 * one message per peer, in one pass) and combine an arriving message into
 * local state. Launchers take device pointers, never allocate and never
 * synchronize; counts come back through device counters, read by the host
 * once per step.
 *
 * Messages come in two formats:
 *   list    `count` records, one per vertex: its id, then its value
 *           payloads, then its vertex payloads, each field at its natural
 *           alignment (gr_xk_layout); a record's bytes are contiguous, so a
 *           message of any count is one contiguous range;
 *   bitmap  for uniform payloads (one value, the same for every vertex of
 *           the message, no vertex payloads): the value in 8 bytes, then a
 *           bit per id of [0, universe) in 32-bit words. */
#ifndef GR_COMM_EXCHANGE_KERNELS_H
#define GR_COMM_EXCHANGE_KERNELS_H

#include "gr/device.h"
#include "gr/primitive.h"
#include "gr/types.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { GR_COMM_MAX_DEVICES = 32 };

/* Where each field of a list record lies. */
typedef struct gr_xk_layout {
  int n_values;
  int value_bytes; /* 4 or 8 */
  int n_vertices;
  int value_offset;  /* bytes from the record's start to value payload 0 */
  int vertex_offset; /* ... to vertex payload 0 */
  int record_bytes;  /* a multiple of the widest field */
} gr_xk_layout;

/* Fills the offsets: the id, the values (each value_bytes, aligned to
 * value_bytes), the vertices (each sizeof(gr_svid)); the record padded to
 * the widest field so that records stay aligned one after another. */
GR_HD gr_xk_layout gr_xk_layout_make(int n_values, int value_bytes, int n_vertices) {
  gr_xk_layout l;
  const int idb = (int)sizeof(gr_vid), vxb = (int)sizeof(gr_svid);
  int widest = idb > value_bytes ? idb : value_bytes;
  widest = widest > vxb ? widest : vxb;
  l.n_values = n_values;
  l.value_bytes = value_bytes;
  l.n_vertices = n_vertices;
  l.value_offset = (idb + value_bytes - 1) / value_bytes * value_bytes;
  const int after_values = l.value_offset + n_values * value_bytes;
  l.vertex_offset = (after_values + vxb - 1) / vxb * vxb;
  const int end = l.vertex_offset + n_vertices * vxb;
  l.record_bytes = (end + widest - 1) / widest * widest;
  return l;
}

GR_HD uint64_t gr_xk_align8(uint64_t b) { return (b + 7u) & ~(uint64_t)7u; }

/* Bytes of a list message of `count` records. */
GR_HD uint64_t gr_xk_list_bytes(const gr_xk_layout *l, uint64_t count) {
  return gr_xk_align8(count * (uint64_t)l->record_bytes);
}
/* A bit per id of [0, universe), in 32-bit words, padded to 8 bytes. */
GR_HD uint64_t gr_xk_bits_bytes(gr_vid universe) { return gr_xk_align8(((uint64_t)universe + 31u) / 32u * 4u); }
/* A bitmap message over ids [0, universe): the value in its first
 * GR_XK_BITMAP_HEADER bytes, then a bit per id. */
enum { GR_XK_BITMAP_HEADER = 8 };
GR_HD uint64_t gr_xk_bitmap_bytes(gr_vid universe) { return GR_XK_BITMAP_HEADER + gr_xk_bits_bytes(universe); }
GR_HD const uint32_t *gr_xk_bitmap_words(const unsigned char *msg) {
  return (const uint32_t *)(msg + GR_XK_BITMAP_HEADER);
}

/* The device counters of one exchange step (unsigned long long each). */
enum {
  GR_XK_NEXT = 0,        /* items written to the next frontier */
  GR_XK_NEXT_EDGES = 1,  /* their out-degrees, summed (when degree offsets are given) */
  GR_XK_NEXT_MAXDEG = 2, /* and the largest */
  GR_XK_PEER = 3         /* then, per message j: GR_XK_PEER + j list records reserved;
                          * GR_XK_PEER + P + j ids newly set in the bitmap;
                          * GR_XK_PEER + 2P + j ids a combine found in message j's bitmap;
                          * then gr_xk_out_counter(P) and the one after it: a package's
                          * copy of the output's size and of the edges its advance
                          * visited, where it read them on the device
                          * (gr_xk_package_args.counts) */
};
/* Counters of an exchange among `parts` devices. */
GR_HD int gr_xk_counters(int parts) { return GR_XK_PEER + 3 * parts + 2; }
GR_HD int gr_xk_out_counter(int parts) { return GR_XK_PEER + 3 * parts; }

/* GR_XK_OR: a bitmap the receiver ors into gr_exchange_step.or_union
 * (gr_iter.or_bits), with no combine. GR_XK_OR_IDS: the same bits as the
 * ids they stand for (the output's list), where those take fewer bytes:
 * the receiver sets them in or_union. */
/* GR_XK_SPARSE: a refresh's (position, values) records
 * (gr_part_refresh_some), where a list of values would be longer. */
/* GR_XK_DENSE: positions in a border list (gr_xk_package_args.positions)
 * with one value payload each, as a bitmap over the list's `universe`
 * positions, padded to 8 bytes, then a value slot per position
 * (gr_xk_dense_bytes): 8 bytes a position and a bit for a double, where a
 * record takes 16, so that a level that sends most copies moves about
 * half (BC's widest). Only the set positions' slots are read. */
/* GR_XK_IDS: a uniform payload's message as bare ids (4 or 8 bytes each,
 * no value), every one taking the value the package names
 * (gr_xk_combine_args.value): a step told to all sends its output list
 * itself, with no pass to make records of it (gr__package_ids). */
enum {
  GR_XK_LIST = 1,
  GR_XK_BITMAP = 2,
  GR_XK_OR = 3,
  GR_XK_SPARSE = 4,
  GR_XK_OR_IDS = 5,
  GR_XK_DENSE = 6,
  GR_XK_IDS = 7
};
GR_HD uint64_t gr_xk_dense_bytes(gr_vid universe, int value_bytes) {
  return gr_xk_bits_bytes(universe) + (uint64_t)universe * (uint64_t)value_bytes;
}

/* Package: one pass over `out` (local ids, each vertex once).
 *   - An item owned here (owner[v] == me) goes to `next` (its cull bit set
 *     where there is a culling bitmap, its out-degree summed over `deg`
 *     when given).
 *   - Selective: an item owned by part j != me goes to message j. Broadcast:
 *     every item goes to message 0 (one message read by every peer).
 *   - A message j with list[j] gets a record at a slot it reserves through
 *     counter GR_XK_PEER + j (records past list_capacity[j] are counted but
 *     not written: the caller grows and repeats); with bits[j] (a message
 *     whose words are clear) the id's bit is set, newly set ones counted at
 *     GR_XK_PEER + P + j, and the value written to the message's first 8
 *     bytes (payloads are uniform, so every writer writes the same).
 * The id written is gr_xk_package_id's. */
/* Owners as runs of local ids: the table is `n` runs, run k holding the
 * ids [end[k - 1], end[k]) (end[-1] = 0), all of part part[k]. Under
 * duplicate-1-hop proxies a device's own vertices come first and its
 * copies follow grouped by owner: as many runs as devices hold copies
 * here, plus one. A pass finds a vertex's owner by a scan of the ends
 * (each lane of a warp reading the same end at once) instead of a random
 * byte of the table (a sector each: one of the package's three random
 * reads per record of SSSP's, with the culling bit or the owner-local id
 * and the value). */
enum { GR_XK_RANGES_MAX = 16 };
typedef struct gr_xk_ranges {
  int n; /* 0: not runs (read the table) */
  gr_vid end[GR_XK_RANGES_MAX];
  uint8_t part[GR_XK_RANGES_MAX];
} gr_xk_ranges;

/* The runs of an owner table of n entries, or out->n = 0 where it has more
 * than GR_XK_RANGES_MAX. */
void gr_xk_owner_ranges(const uint8_t *owner, uint64_t n, gr_xk_ranges *out);

/* The owner of local id v < the last end. A fixed trip count, unrolled on
 * the GPU, so that every end is read at a constant offset (a kernel's
 * argument read at a varying one is first copied to each thread's local
 * memory). */
GR_HD int gr_xk_range_owner(const gr_xk_ranges *r, gr_vid v) {
  int o = r->part[0];
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
  for (int k = 0; k + 1 < GR_XK_RANGES_MAX; k++)
    if (k + 1 < r->n && v >= r->end[k]) o = r->part[k + 1];
  return o;
}

/* The first local id of v's run (v < the last end). */
GR_HD gr_vid gr_xk_range_start(const gr_xk_ranges *r, gr_vid v) {
  gr_vid s = 0;
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
  for (int k = 0; k + 1 < GR_XK_RANGES_MAX; k++)
    if (k + 1 < r->n && v >= r->end[k]) s = r->end[k];
  return s;
}

typedef struct gr_xk_package_args {
  const gr_vid *out;
  gr_eid n_out;
  /* Or NULL: the output's size is counts[0] (device memory, written by the
   * advance before this pass on the same stream: gr_advance_push_args
   * .counts), of which n_out is a bound; the pass takes the smaller, and
   * copies counts[0] and counts[1] (the advance's edges) to
   * counters[gr_xk_out_counter(parts)] and the one after, for the host's
   * one read of them all. */
  const gr_eid *counts;
  const uint8_t *owner; /* part of each local vertex */
  gr_xk_ranges ranges;  /* the same as runs, where ranges.n > 0: read instead of owner */
  int me, parts;
  int broadcast;
  /* Each item's id on its owner: convert[v - convert_first] (1-hop,
   * selective: the copies' ids on their owners, the table starting at the
   * first copy; broadcast: every vertex's global id, from 0), else v. */
  const gr_vid *convert;
  gr_vid convert_first;
  /* Without convert (1-hop, selective, owners as runs, border lists made):
   * each item's position among this device's copies of its owner's
   * vertices, v less the start of its run, which is its entry in the
   * border list between the two; the owner reads its own id there
   * (gr_xk_combine_args.g2l), and no device holds the copies' ids on their
   * owners. */
  bool positions;
  /* With positions and one value payload: message j as GR_XK_DENSE over
   * dense_universe[j] positions (zeroed), instead of list[j]; its items
   * counted at GR_XK_PEER + j as a list's. */
  unsigned char *dense[GR_COMM_MAX_DEVICES];
  gr_vid dense_universe[GR_COMM_MAX_DEVICES];
  gr_payload pay;
  gr_xk_layout layout;
  gr_vid *next;
  gr_eid next_capacity;
  /* Or NULL where the step settles what arrives (gr_exchange_step.settled):
   * every output vertex has its settled bit, set by the claim that output
   * it, so the combines drop the peers' records for it and no culling
   * bit is needed. `settled` names those bits then (the CPU pass checks
   * each owned item's). */
  uint32_t *cull;
  const uint32_t *settled;
  const gr_eid *deg; /* CSR offsets, or NULL */
  unsigned char *list[GR_COMM_MAX_DEVICES];
  uint64_t list_capacity[GR_COMM_MAX_DEVICES]; /* records */
  unsigned char *bits[GR_COMM_MAX_DEVICES];
  unsigned long long *counters; /* gr_xk_counters(parts), zeroed */
  /* Optional (NULL: none): a bitmap over local ids in which every output
   * vertex's bit is set (gr_exchange_step.claim_bits of a step told to all:
   * this device's claims, in the pass that reads them anyway). */
  uint32_t *claims;
} gr_xk_package_args;

/* The id a package writes for the item v that goes to a peer. */
GR_HD gr_vid gr_xk_package_id(const gr_xk_package_args *a, gr_vid v) {
  if (a->convert) return a->convert[v - a->convert_first];
  return a->positions ? v - gr_xk_range_start(&a->ranges, v) : v;
}

/* Bitmaps a combine takes in one pass besides its first (gr_xk_combine_args.n_more). */
enum { GR_XK_MORE_MAX = 7 };

/* Combine one arriving message (list of `count` records, or bitmap over
 * [0, universe)). Pass 1 applies the operator to the first value payload
 * (SUM, OR, LOGADD: to every value payload; REPLACE: writes every payload); a
 * changed vertex that this device owns joins `next` once (cull), its
 * out-degree summed over `deg` when given. Pass 2 (MIN and MAX with more
 * than one payload, after pass 1 of every message) copies the other
 * payloads where the local value equals the arriving one. Ids are local, or
 * global when g2l is given (entries GR_NO_VERTEX are not held here and are
 * skipped). A bitmap's ids are counted at counter `found` (the exchange
 * checks them against what the sender announced). */
typedef struct gr_xk_combine_args {
  const unsigned char *msg;
  int format;
  uint64_t count;  /* list: records */
  gr_vid universe; /* bitmap */
  /* Or, for a message of positions (gr_xk_package_args.positions), this
   * device's border list to its sender: the ids at those positions. */
  const gr_vid *g2l;
  const uint8_t *owner; /* NULL: every vertex is owned */
  int me;
  gr_payload pay;
  gr_xk_layout layout;
  gr_value_type type;
  gr_combine_op op;
  int pass;
  /* gr_exchange_step.guard and stamp (NULL: no guard): list messages only. */
  gr_svid *guard;
  gr_svid stamp;
  /* NULL where settled is given: the settled bit lets one record of a
   * vertex through, and the package's own vertices have theirs. */
  uint32_t *cull;
  /* gr_exchange_step.settled (MIN, one value payload, no followers): a
   * vertex whose bit is set is skipped, every vertex combined gets its bit
   * set. A bitmap message without g2l sets whole words (a thread per
   * word); any other sets bits atomically. */
  uint32_t *settled;
  /* With settled: a vertex another device owns (owner given) is settled
   * and keeps its value (gr_exchange_step.settle_copies_bare). */
  bool settle_copies_bare;
  /* MIN: a value equal to the vertex's own counts as a change
   * (gr_exchange_step.min_ties). */
  bool min_ties;
  /* Optional: every id of the message set in it as it is read
   * (gr_exchange_step.claim_bits, the step's union of claims): a bitmap
   * without g2l a word at a time by the word's only writer, a list's ids
   * one by one. */
  uint32_t *claims;
  gr_vid *next;
  gr_eid next_capacity;
  const gr_eid *deg;
  unsigned long long *counters; /* GR_XK_NEXT, GR_XK_NEXT_EDGES, GR_XK_NEXT_MAXDEG and `found` */
  int found;
  /* Optional beside owner: the one owner of each whole word's 32 ids
   * (gr_xk_word_owners), read instead of 32 bytes of owner a word. */
  const uint8_t *word_owner;
  /* n_more more messages of the first's format, combined in the same pass.
   * Bitmaps over the same universe: each word or'ed over all of them
   * before anything else, message k's ids counted at
   * counters[more_found[k]]; their value is the first message's (a uniform
   * payload's value is the iteration's, the same on every device,
   * gr_payload.uniform). One pass instead of one per peer, each reading and
   * writing the settled and claimed words. Lists (one g2l for all, none
   * of positions; no REPLACE): message k's more_count[k] records after the
   * first's `count`, one grid over them all; a vertex two peers sent is
   * combined by both, in either order (the operators other than REPLACE
   * commute). One launch instead of one per peer. */
  int n_more;
  const unsigned char *more_msg[GR_XK_MORE_MAX];
  int more_found[GR_XK_MORE_MAX];
  uint64_t more_count[GR_XK_MORE_MAX];
  /* GR_XK_IDS (a list format: n_more as for lists): every id's value, in
   * its low value_bytes; one value payload, no vertex payloads. own_first:
   * the first list (`msg`, `count`) is this device's own output, whose
   * vertices this device claimed and settled itself: its owned ids join
   * `next` (owner given) and nothing is combined, the step's package pass
   * over the output done here, in the same launch as the peers' lists. */
  uint64_t value;
  bool own_first;
} gr_xk_combine_args;

/* This device's routed bitmap (`n_words` words over local ids) becomes the
 * next frontier: every id set (that owner[] gives to `me`, where owner is
 * given) goes to `next` at a slot reserved through counters[GR_XK_NEXT]
 * (ids past next_capacity are counted, not written), its out-degree over
 * `deg` summed and maxed into GR_XK_NEXT_EDGES and GR_XK_NEXT_MAXDEG. Where
 * `values` is given (value_bytes 4 or 8 apart), each such id's value
 * becomes `value`: the routing push claims with bits alone, and an owned
 * claim gets its value here, in id order, rather than a store to a random
 * address per claim in the push (gr__bfs_route). A claim is a vertex's
 * first: its value is none (all ones, a signed id's -1), or `value` where
 * the push stored it itself (no visited bits), until this pass, which
 * stores without comparing (the CPU pass checks it and fails with
 * GR_ERR_INTERNAL where another value was set). */
typedef struct gr_xk_compact_args {
  const uint32_t *words;
  uint64_t n_words;
  const uint8_t *owner;
  int me;
  gr_vid *next;
  gr_eid next_capacity;
  const gr_eid *deg;
  unsigned long long *counters;
  void *values;
  int value_bytes;
  uint64_t value;
  /* Optional beside owner: the one owner of each whole word's 32 ids
   * (gr_xk_word_owners). */
  const uint8_t *word_owner;
  /* Optional: the bitmap is a message too (`words` is sealed + 2): the
   * pass seals it as seal does, `value` in its first 8 bytes and every id
   * it holds, owned here or not, counted at `sealed`, so that no second
   * pass reads the bitmap. */
  uint32_t *sealed_msg;
  unsigned long long *sealed;
  /* Optional (NULL: none): bitmaps that take the routed bitmap's words as
   * the pass reads them, all of them, owned here or not (the culling
   * bitmap, and the step's claims: gr_exchange_step.claim_bits), in place
   * of a copy each. */
  uint32_t *copy_to[2];
} gr_xk_compact_args;

/* Where every whole word of 32 local ids (ids 32k to 32k + 31 < n) has one
 * owner, as the random partition's aligned blocks of 32 ids or more make
 * it: a table of that owner per word (n / 32 bytes), which bitmap kernels
 * read instead of the word's 32 bytes of the owner table (at DOBFS's
 * biggest level on Kronecker 25, 33.5 MB of the 150 MB the compact reads
 * and of the 127 MB a combine of a peer's bitmap reads). NULL in *out (and
 * GR_SUCCESS) where some word's ids have several owners. A host table,
 * freed by the caller. */
gr_status gr_xk_word_owners(const uint8_t *owner, uint64_t n, uint8_t **out);

/* Owner words (gr/owner_words.h) from gr_xk_word_owners's table of `words`
 * whole words: *out gets groups of 32 words times `parts` entries (entry
 * g * parts + o: part o's words before group g, and which of g's are o's;
 * a host table, freed by the caller) and part_words[o] part o's words.
 * NULL in *out (and GR_SUCCESS) where a part would count 2^32 words or
 * more, or a word's owner is no part. */
gr_status gr_xk_word_groups(const uint8_t *word_owner, uint64_t words, int parts, gr_word_group **out,
                            uint64_t *part_words);

/* The union of an or-round (gr_iter.or_bits) in one pass: for w < words,
 * dst[w] = base[w] | src[0][w] | ... | src[n_src - 1][w] (base may be dst:
 * or'ed into it), and also[w] |= dst[w] where `also` is set (gr_iter.
 * or_also: DOBFS's visited bits). One read of each bitmap and one write of
 * dst (and also), where a copy of the device's own bits and an or per peer
 * and per extra bitmap read and wrote the union once each. dst NULL (with
 * also): the union goes into `also` alone, whose words where nothing was
 * found are neither read nor written (base may be `also` then). */
enum { GR_XK_OR_MAX = 8 };
typedef struct gr_xk_or_args {
  uint32_t *dst;
  const uint32_t *base;
  const uint32_t *src[GR_XK_OR_MAX];
  int n_src;
  uint32_t *also;
  uint64_t words;
} gr_xk_or_args;

/* An or-round's union from owner words (gr_exchange_step.or_packed): each
 * whole word w < words read from its owner's words alone, dst[w] =
 * from[o][slot] for o = word_owner[w] and w's slot among o's words (from[o]
 * NULL: the part sent none, 0), and where `tail` the last word (the ids
 * past 32 * words) the or of every part's slot part_words[o]; also[w] |=
 * dst[w] where `also` is set. A word is read from one part, not from
 * every part's bitmap of every id. dst NULL: the union goes into `also`
 * alone (as in gr_xk_or_args). */
typedef struct gr_xk_or_owned_args {
  uint32_t *dst;
  uint32_t *also;
  const uint8_t *word_owner;
  const gr_word_group *groups;
  uint64_t words;
  bool tail;
  int parts;
  const uint32_t *from[GR_COMM_MAX_DEVICES];
  uint64_t part_words[GR_COMM_MAX_DEVICES];
} gr_xk_or_owned_args;

/* Ids to set in one or two bitmaps: ids[i][k] for k < n[i], i < lists, in
 * one pass. An or-round's ids from 3 peers into its union and or_also
 * took 6 launches a pull level (DOBFS, 4 devices: about 40 us of the
 * host's time a level), and a sparse refresh's lists one each. */
enum { GR_XK_MARK_MAX = 8 };
typedef struct gr_xk_mark_args {
  uint32_t *bits[2]; /* bits[1] NULL: one bitmap */
  const gr_vid *ids[GR_XK_MARK_MAX];
  uint64_t n[GR_XK_MARK_MAX];
  int lists;
} gr_xk_mark_args;

typedef struct gr_xk_ops {
  gr_status (*package)(gr_device *dev, const gr_xk_package_args *a);
  gr_status (*combine)(gr_device *dev, const gr_xk_combine_args *a);
  /* Loads the combines of a value type on the device now (NULL: nothing
   * to load). The combines are launched behind the transport's moves; a
   * kernel loaded lazily at its first launch waits for the device's work
   * in flight, an NCCL group included, and an NCCL group whose peer failed
   * never ends: the launch would wait forever before the transport could
   * notice the failure and abort. */
  gr_status (*load)(gr_device *dev, gr_value_type type);
  /* Values by position, for refreshing copies (gr_part_refresh): gather
   * dst[k] = src[ids[k]], scatter dst[ids[k]] = src[k], for k < n, of
   * elements of elem_bytes (4 or 8). */
  gr_status (*gather)(gr_device *dev, void *dst, const void *src, const gr_vid *ids, uint64_t n, int elem_bytes);
  gr_status (*scatter)(gr_device *dev, void *dst, const void *src, const gr_vid *ids, uint64_t n, int elem_bytes);
  /* An or-round's union (gr_xk_or_args). */
  gr_status (*or_union)(gr_device *dev, const gr_xk_or_args *a);
  /* A routed bitmap (gr_part_route) becomes a message: `value` in its
   * first 8 bytes (msg is 4-byte aligned), and the ids set in its `words`
   * words (from msg + 2) added to *counter. */
  gr_status (*seal)(gr_device *dev, uint32_t *msg, uint64_t words, uint64_t value, unsigned long long *counter);
  /* This device's routed bitmap becomes the next frontier, its ids taking
   * the step's value (gr_xk_compact_args). */
  gr_status (*compact)(gr_device *dev, const gr_xk_compact_args *a);
  /* Sets the bits of every id of a's lists in a's bitmaps
   * (gr_part_refresh_some: the owned vertices that changed; an or-round:
   * the ids peers sent). */
  gr_status (*mark)(gr_device *dev, const gr_xk_mark_args *a);
  /* The entries of a border list whose vertex's bit is set: for each k < n
   * with bits[ids[k]] set, a slot r reserved through *counter (in no set
   * order) gets pos[r] = k and id[r] = ids[k]; slots past capacity are
   * counted, not written. */
  gr_status (*select)(gr_device *dev, const uint32_t *bits, const gr_vid *ids, uint64_t n, gr_vid *pos, gr_vid *id,
                      uint64_t capacity, unsigned long long *counter);
  /* dst[k] = (src ? src[k] : k) + base for k < n: the local ids of copies
   * at positions of a border list whose copies are the ids from base on
   * (a sparse refresh's records; NULL: the whole list). */
  gr_status (*offset)(gr_device *dev, gr_vid *dst, const gr_vid *src, uint64_t n, gr_vid base);
  /* An or-round's union from owner words (gr_xk_or_owned_args). */
  gr_status (*or_owned)(gr_device *dev, const gr_xk_or_owned_args *a);
} gr_xk_ops;

extern const gr_xk_ops gr__xk_ops_cpu;
#ifdef GR_HAVE_CUDA
extern const gr_xk_ops gr__xk_ops_cuda;

/* The peer-to-peer transport's moves into one device from several peers
 * at once: n byte ranges, src[k] in a peer's memory (peer access enabled,
 * or this GPU's own for a logical device beside it), into dst[k] here. */
typedef struct gr_xk_peer_copies {
  const unsigned char *src[GR_COMM_MAX_DEVICES];
  unsigned char *dst[GR_COMM_MAX_DEVICES];
  uint64_t bytes[GR_COMM_MAX_DEVICES];
  int n;
} gr_xk_peer_copies;
/* One kernel on the device's compute stream reads every range at once. */
gr_status gr__xk_peer_copies_cuda(gr_device *dev, const gr_xk_peer_copies *a);
#endif

#ifdef __cplusplus
}
#endif

#endif
