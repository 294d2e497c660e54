/* SPDX-License-Identifier: Apache-2.0 */
/* Connected components: the component of every vertex, labelled with the
 * smallest vertex id in it. A directed input gives its weakly connected
 * components (an arc joins its ends whichever way it points). No source.
 *
 * The algorithm is Afforest's (Sutton, Ben-Nun, Barak, 2018), a member of
 * the Shiloach-Vishkin family: a union-find forest over the vertices in
 * which a tree's root is its smallest vertex (a link hooks the larger of two
 * roots onto the smaller by compare-and-swap, so a parent is never above its
 * child), and pointer jumping (compress) makes every vertex point at its
 * root. On one device:
 *   1. parent[v] = v;
 *   2. two sampling rounds: every vertex links with its r-th neighbour
 *      (r = 0, 1), each round followed by compress;
 *   3. 1,024 random vertices vote for the largest component (the most
 *      frequent root among them);
 *   4. every vertex outside that component links over its remaining
 *      out-edges (the ones after the sampled two) and, for a directed graph,
 *      all its in-edges; the load-balanced advance spreads a vertex's edges
 *      over threads. Vertices of the largest component skip theirs: an edge
 *      between it and another component is seen from the other end (the
 *      rows of an undirected graph hold both arcs; a directed graph's
 *      in-edges give the other end its arc);
 *   5. compress: parent[v] is v's root, the smallest id of its component,
 *      which is the label.
 *
 * Between devices each device runs the same on its own arcs (out-edges and,
 * for a directed graph, in-edges of the vertices it owns, proxies included
 * as ends), its own vote and skip included. Labels are global ids: a local
 * root's `best` starts as its own global id, the smallest among its tree's
 * owned vertices (a copy is never a parent under duplicate-1-hop proxies,
 * and owned local ids ascend with their global ids), and every vertex takes
 * its root's; each proxy whose label fell goes to its owner (the exchange,
 * MIN). A copy's own id, smaller than its tree's best, needs no gathering:
 * on its owner the vertex is in a tree whose best is at most its id, and
 * the merge gives every tree its component's smallest best. The next
 * iteration is the merge: every owner sends its vertices'
 * labels to the devices holding copies (gr_part_refresh), each device
 * lists the pairs (its tree's best, the label) of its border vertices
 * (gr_part_borders: its copies, and its owned vertices that other devices
 * copy) where the two differ, every device's pairs go to every device
 * (gr_part_allgather), and one union-find over their labels gives every
 * tree its component's smallest label at once (gr_cc_pair below). Labels
 * then are the smallest id of each component of the arcs linked on some
 * device. An arc is linked on neither side only when both ends were in
 * their devices' largest trees (each side skipped it); when every
 * device's largest tree ends with the same label, such an arc joins
 * vertices of one component and nothing is lost. Otherwise (devices whose
 * votes found different components) every device links its skipped arcs
 * too and the labels settle again by label rounds, until no label changes
 * on any device: an iteration refreshes the copies, lowers every root to
 * the smallest label in its tree, gives every border vertex its root's
 * label and sends the proxies that changed. That is the repair, which a
 * graph with one giant component never needs. */
#ifndef GR_CC_H
#define GR_CC_H

#include "gr/atomic.h"
#include "gr/operators.h"
#include "gr/packed.h"
#include "gr/primitive.h"
#include "gr/util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Vertices sampled to find the largest component. */
enum { GR_CC_SAMPLES = 1024 };
/* Neighbours linked by the sampling rounds. */
enum { GR_CC_ROUNDS = 2 };

/* What the kernels see. */
typedef struct gr_cc_ctx {
  gr_svid *parent;                /* per local vertex: its parent in the forest (local ids) */
  gr_svid *label;                 /* several devices, per local vertex: its label (global id) */
  gr_svid *best;                  /* several devices, per local root: its component's smallest label */
  const gr_vid *local_to_global;  /* NULL when local ids are global */
  const uint8_t *owner;           /* part owning each local vertex; NULL when all are owned */
  int me;
  gr_vid n;                       /* local vertices */
  gr_vid n_owned_first;           /* duplicate-1-hop: owned vertices are [0, n_owned_first); else 0 */
  const gr_eid *out_offsets;      /* CSR of the owned vertices' out-edges */
  const gr_eid *in_offsets;       /* CSC (directed graphs), or NULL */
  const gr_eid *offsets;          /* the rows the current advance walks (out or in) */
  const gr_vid *indices;          /* ... and their neighbours (the sampling rounds: out); NULL when packed */
  gr_packed packed;               /* --compress packed: the out-lists (bytes NULL otherwise), by value */
  gr_eid round;                   /* sampling round: the neighbour index linked */
  gr_eid skip;                    /* the advance: leading neighbours of each row already linked */
  gr_svid largest;                /* root of the sampled largest component; -1: no skip */
  gr_svid hot;                    /* several devices: a vertex of the largest tree, whose root's best the GPU
                                   * lowers once a block (lower_root); -1: none. A hint only */
  bool fresh;                     /* several devices, the first take: labels unwritten since init (gr_cc_take_first
                                   * writes every one) */
  bool hot_stays;                 /* ... and every device's largest tree holds one label: no copy is sent
                                   * (gr_cc_take_first) */
  bool copies_loose;              /* several devices, the merge: the first take passed over the owned vertices
                                   * alone, and gr_cc_pair compresses each copy's path as it reads it */
  /* Where the vote left the largest tree's root on the device (the ops'
   * vote, samples[GR_CC_SAMPLES]), read there in place of largest and hot
   * by the passes that follow it in the first iteration, so that no read
   * waits for the vote; NULL: largest and hot as they are. */
  const gr_svid *vote;
  gr_svid *samples;               /* GR_CC_SAMPLES roots, then the vote's word (samples[GR_CC_SAMPLES]; cc.c keeps
                                   * more behind it); between devices the lookups too (gr_cc_lookup) */
  /* Several devices, the merge (cc.c, gr__cc_merge): */
  gr_svid hot_root;               /* the largest tree's root (local id); -1: none */
  const uint32_t *arcs;           /* a bit per local vertex with arcs in the device's rows */
  gr_svid hot_label;              /* ... its best, known on the host (the join's) */
  const gr_vid *merge_ids;        /* gr_cc_pack: the vertices gr_cc_pair chose */
  gr_svid *pairs;                 /* gr_cc_pack: per chosen vertex its tree's best and its label */
  /* gr_cc_merge_apply: the merge's table (gr_cc_merge_args; 2^merge_bits slots) */
  const gr_svid *merge_keys;
  const gr_svid *merge_parent;
  int merge_bits;
  gr_vid lookups;                 /* gr_cc_lookup: ids in samples[0, lookups), results behind them */
  uint64_t seed;
} gr_cc_ctx;

GR_HD gr_svid gr__cc_parent(const gr_cc_ctx *c, gr_svid v) { return gr_load_relaxed_svid(&c->parent[v]); }
/* A parent read in a kernel that links nothing (compress, find): roots
 * stay roots there, and a parent changes only to an ancestor, so a stale
 * value leads up the same tree. Cached (gr_load_hint_svid): the giant
 * tree's root is the word every warp reads. */
GR_HD gr_svid gr__cc_parent_hint(const gr_cc_ctx *c, gr_svid v) { return gr_load_hint_svid(&c->parent[v]); }

/* The root of v's tree (the smallest id of the tree), in a kernel that
 * links nothing (the vote's samples, the filter). */
GR_HD gr_svid gr__cc_find_in(const gr_svid *parent, gr_svid v) {
  gr_svid p = gr_load_hint_svid(&parent[v]);
  while (p != v) {
    v = p;
    p = gr_load_hint_svid(&parent[v]);
  }
  return v;
}
GR_HD gr_svid gr_cc_find(const gr_cc_ctx *c, gr_svid v) { return gr__cc_find_in(c->parent, v); }

/* Joins the trees of u and v (Rem's union-find, run concurrently): a
 * walker from each end; the one whose parent is larger climbs, so they
 * meet at their first common vertex, and a walker at a root hooks it onto
 * the other's parent by compare-and-swap (a smaller id: a parent is never
 * above its child, no cycle forms; a lost race reads again). Past its
 * first step a walker halves the path it climbs (the vertex left points
 * at its grandparent, an ancestor: safe beside concurrent links, which
 * change roots only); the ends themselves are not written, as one end is
 * often a hub that thousands of links start from at once. The sampling
 * round after the first hooks thousands of trees at once into chains of
 * roots; climbing both ends two levels a try without writing walked those
 * chains again and again. One H200, 8 runs, the same call: Kronecker 25
 * 9.71 -> 7.24 ms, uniform 22 5.74 -> 1.23 ms, Kronecker 22 and the 4096^2
 * grid unchanged; finding both roots whole with halving everywhere was
 * 7.82, 2.38, 2.11 (the hubs' writes) and 1.88 ms.
 * `keys` (NULL: the ids themselves) orders the forest: the merge's slots
 * by their labels (read only), so that a set's root is its smallest
 * label's slot. `cached`: the parent words are read cached until a
 * compare-and-swap fails, then fresh. The merge's walks all read the
 * giant component's slot (a root for good); a stale word is an ancestor
 * that was (a parent only moves up), so a walk still climbs its own set,
 * two ends with one parent are one set, and a halving writes an ancestor;
 * a hook on a stale root fails its compare-and-swap, and the fresh reads
 * after it see the links made (a device of 4 on Kronecker 25: 45 us a
 * run with every read fresh). */
GR_HD void gr__cc_link_in(gr_svid *parent, const gr_svid *keys, bool cached, gr_svid u, gr_svid v) {
  gr_svid x = u, y = v;
  bool x_first = true, y_first = true, fresh = !cached;
  for (;;) {
    gr_svid px = fresh ? gr_load_relaxed_svid(&parent[x]) : gr_load_hint_svid(&parent[x]);
    gr_svid py = fresh ? gr_load_relaxed_svid(&parent[y]) : gr_load_hint_svid(&parent[y]);
    if (px == py) return;
    if (keys ? keys[px] < keys[py] : px < py) {
      const gr_svid t = x, pt = px;
      const bool ft = x_first;
      x = y, px = py, x_first = y_first;
      y = t, py = pt, y_first = ft;
    }
    /* px above py in the order: x's side climbs. */
    if (px == x) {
      if (gr_atomic_cas_svid(&parent[x], x, py)) return;
      fresh = true;
      continue;
    }
    if (!x_first) {
      const gr_svid gx = fresh ? gr_load_relaxed_svid(&parent[px]) : gr_load_hint_svid(&parent[px]);
      if (gx != px) gr_store_relaxed_svid(&parent[x], gx);
    }
    x = px;
    x_first = false;
  }
}
GR_HD void gr_cc_link(const gr_cc_ctx *c, gr_svid u, gr_svid v) { gr__cc_link_in(c->parent, NULL, false, u, v); }

GR_HD bool gr_cc_owned(const gr_cc_ctx *c, gr_vid v) {
  if (c->n_owned_first) return v < c->n_owned_first;
  return !c->owner || c->owner[v] == c->me;
}

GR_HD gr_svid gr_cc_key(const gr_cc_ctx *c, gr_vid v) {
  return (gr_svid)(c->local_to_global ? c->local_to_global[v] : v);
}

/* For each: a forest of single vertices. Labels are not written here:
 * the first take writes every one (gr_cc_ctx.fresh), which spares a
 * pass's worth of writes (a device of 2 on Kronecker 25: 24 M labels).
 * Nor are the roots' bests (between devices): a root's best is its own
 * global id until the join lowers the largest tree's, and the first take
 * writes each other root's as it passes over the root itself; a vertex
 * that is no root by then has no best that anything reads (a pass reads
 * best[r] only at a root r, and a vertex that stops being a root never
 * becomes one again). */
GR_HD void gr_cc_init_vertex(const gr_cc_ctx *c, gr_vid v) { c->parent[v] = (gr_svid)v; }

/* For each: a sampling round links v with its round-th out-neighbour. */
GR_HD void gr_cc_link_round(const gr_cc_ctx *c, gr_vid v) {
  const gr_eid e = c->out_offsets[v] + c->round;
  if (e >= c->out_offsets[v + 1]) return;
  /* A packed list decodes from the row's start: round r costs r + 1 codes. */
  const gr_vid u = c->packed.bytes ? gr_packed_get(&c->packed, c->out_offsets, v, e) : c->indices[e];
  gr_cc_link(c, (gr_svid)v, (gr_svid)u);
}

/* Pointer jumping until v points at its root; returns the root. */
GR_HD gr_svid gr__cc_compress_root(const gr_cc_ctx *c, gr_vid v) {
  gr_svid p = gr__cc_parent_hint(c, (gr_svid)v), pp = gr__cc_parent_hint(c, p);
  while (p != pp) {
    gr_store_relaxed_svid(&c->parent[v], pp);
    p = pp;
    pp = gr__cc_parent_hint(c, p);
  }
  return p;
}

/* For each: pointer jumping until v points at its root. */
GR_HD void gr_cc_compress(const gr_cc_ctx *c, gr_vid v) { (void)gr__cc_compress_root(c, v); }

/* For each i < GR_CC_SAMPLES: the root of a seeded random vertex. */
GR_HD void gr_cc_sample(const gr_cc_ctx *c, gr_vid i) {
  const gr_vid v = (gr_vid)(gr_rand64(c->seed, 0x4343u, i) % c->n);
  c->samples[i] = gr_cc_find(c, (gr_svid)v);
}

/* For i = 0 (several devices, after Afforest's rest, before the read of
 * the vote): the root of the vote's root, which the rest's links may have
 * hooked under a smaller one, and that root's key (its best, as every
 * root's starts), into samples[0] and samples[1], where the samples' roots
 * are spent (the vote read them). The read that brings the vote back
 * brings them too: the join looks up its own largest tree with no read of
 * its own (a copy each way and a wait a device). */
GR_HD void gr_cc_vote_root(const gr_cc_ctx *c, gr_vid i) {
  (void)i;
  const gr_svid v = *c->vote;
  /* A vote outside the ids finds nothing here; the host reports it. */
  const gr_svid r = v < 0 || (gr_vid)v >= c->n ? (gr_svid)-1 : gr_cc_find(c, v);
  c->samples[0] = r;
  c->samples[1] = r < 0 ? (gr_svid)-1 : gr_cc_key(c, (gr_vid)r);
}

/* For each i < c->lookups (several devices, after Afforest, before the
 * join writes a best): the root of vertex samples[i] and that root's
 * best, its own global id as every root's starts (gr_cc_init_vertex),
 * into samples[lookups + 2i] and the one after, so that a device reads
 * any number of them at once. Found, not read: a copy is not compressed
 * before the first take. */
GR_HD void gr_cc_lookup(const gr_cc_ctx *c, gr_vid i) {
  const gr_svid r = gr_cc_find(c, c->samples[i]);
  c->samples[c->lookups + 2 * (gr_eid)i] = r;
  c->samples[c->lookups + 2 * (gr_eid)i + 1] = gr_cc_key(c, (gr_vid)r);
}

/* The largest tree's root: the vote's word on the device where it left
 * one (c->vote), else c->largest. */
GR_HD gr_svid gr_cc_largest(const gr_cc_ctx *c) { return c->vote ? *c->vote : c->largest; }

/* Filter: the vertices whose remaining arcs still need linking (outside
 * the largest component, with out-edges beyond the sampled ones or with
 * in-edges). */
GR_HD bool gr_cc_needs_rest(const gr_cc_ctx *c, gr_vid v) {
  const bool more_out = c->out_offsets[v + 1] - c->out_offsets[v] > (gr_eid)GR_CC_ROUNDS;
  const bool any_in = c->in_offsets && c->in_offsets[v + 1] > c->in_offsets[v];
  if (!more_out && !any_in) return false;
  const gr_svid largest = gr_cc_largest(c);
  return largest < 0 || gr_cc_find(c, (gr_svid)v) != largest;
}

/* Advance visit: links the ends of each arc after the row's first `skip`.
 * Never emits. */
GR_HD bool gr_cc_link_arc(const gr_cc_ctx *c, gr_vid u, gr_vid v, gr_eid e) {
  if (e - c->offsets[u] >= c->skip) gr_cc_link(c, (gr_svid)u, (gr_svid)v);
  return false;
}

/* best[r] = min(best[r], x), read first: the vertices of a giant tree all
 * name one root, and millions of atomics on one address serialize (an
 * atomic only where the value is lower: a few per tree). */
GR_HD void gr__cc_lower(const gr_cc_ctx *c, gr_svid r, gr_svid x) {
  if (x < gr_load_relaxed_svid(&c->best[r])) gr_atomic_min_svid(&c->best[r], x);
}

/* For each local vertex (several devices, after compress): the root takes
 * the smallest label of its tree (labels lowered by peers: a proxy's by
 * its owner, an owned vertex's by a proxy's holder). */
GR_HD void gr_cc_lower_root(const gr_cc_ctx *c, gr_vid v) { gr__cc_lower(c, c->parent[v], c->label[v]); }

/* Split over every local vertex (several devices, a label round's take):
 * takes the root's label when it is lower; a proxy that changed is class
 * 0 (output, for its owner), an owned vertex that changed class 1
 * (counted: its copies elsewhere need it), anything else neither. */
GR_HD int gr_cc_take_label(const gr_cc_ctx *c, gr_vid v) {
  const gr_svid b = c->best[c->parent[v]];
  if (!(b < c->label[v])) return -1;
  c->label[v] = b;
  return gr_cc_owned(c, v) ? 1 : 0;
}

/* Split over every local vertex, the first take between devices (after
 * Afforest and the join, whose compress it is; no label written since
 * init, c->fresh): every label takes its root's best, which is at most
 * its vertex's id where the vertex is owned (a copy's may be above: its
 * owner's is not); a copy whose label fell below its id is class 0
 * (output, for its owner), an owned vertex with arcs outside the largest
 * tree (c->hot_root's) class 1 (the merge lowers the trees these hold,
 * gr_cc_merge_apply), anything else neither. Listing every owned vertex
 * that changed, nearly all of them, took a device of 2 on Kronecker 25
 * most of the pass's 0.18 ms for a list no later step read. */
GR_HD int gr_cc_take_first(const gr_cc_ctx *c, gr_vid v) {
  /* Afforest's last compress (gr__cc_rest leaves it to this pass): every
   * later step reads parent[v] as v's root. Roots stay roots, so
   * concurrent compresses meet them whatever order they run in. */
  const gr_svid r = gr__cc_compress_root(c, v);
  /* The root's best: the largest tree's as the join wrote it, any
   * other's its own global id, which the root writes as its best when
   * this pass reaches it (init wrote none: gr_cc_init_vertex). */
  gr_svid b;
  if (r == c->hot_root) {
    b = c->best[r];
  } else {
    b = gr_cc_key(c, (gr_vid)r);
    if (r == (gr_svid)v) c->best[v] = b;
  }
  c->label[v] = b;
  /* Where every device's largest tree holds one label (c->hot_stays), no
   * copy goes to its owner: the merge's refresh brings the owner's label
   * to every copy (the largest tree's, or its tree's best, the owner's
   * vertex then being in its first take's list), and the copy's pair
   * (this tree's best, that label) joins the two trees (gr__cc_merge),
   * where a copy sent to its owner joined them through the owner's pair
   * instead. A copy that is a tree of its own here gives no pair (1-hop
   * proxies, gr_cc_pair) and joins nothing: the owner's tree holds its
   * vertex. The iteration's exchange then moves nothing (on 2 devices of
   * Kronecker 25 its package and combine took 0.1 ms a device). */
  if (!gr_cc_owned(c, v)) return !c->hot_stays && b < gr_cc_key(c, v) ? 0 : -1;
  if (r == c->hot_root) return -1;
  /* A vertex with a parent is in a tree of several; a root with no arcs
   * is a tree of its own. */
  return r != (gr_svid)v || (c->arcs[v >> 5] >> (v & 31) & 1u) ? 1 : -1;
}

/* The merge (several devices, after Afforest, the first take and its
 * exchange, and a refresh of every copy's label). A label is the id of a
 * vertex of its component, and a border vertex v now carries a label m(v)
 * that its owner's tree holds as its best or was joined to: the refresh
 * brought the owner's label to every copy, and the owner's label is its
 * tree's best, lowered where the take sent a copy whose tree's best was
 * below v's id to the owner (MIN; not where every device's largest tree
 * holds one label, gr_cc_take_first). Two trees that hold one vertex v are
 * then joined by the pairs (best, m(v)) of the trees whose best is not
 * m(v): a copy's tree's, and the owner's where the exchange lowered its
 * label; so a union-find over the labels of every device's pairs gives
 * every tree's component its smallest label at once: what label rounds
 * found a device hop at a time, with two exchanges a round. An owned
 * vertex's label differs from its tree's best only where the exchange
 * lowered it (its input, which the caller packs as it is).
 *
 * Split over the copies: class 0 where v's tree's best differs from its
 * label, but for a copy that is a tree of its own under duplicate-1-hop
 * proxies (a copy is never a parent there: its owner's tree holds v, and
 * the owner's pair covers it; most copies outside the largest tree are
 * such, their owned neighbours here having skipped their arcs). Where the
 * first take passed over the owned vertices alone (c->copies_loose) it
 * compresses each copy's path first: every owned vertex on it points at
 * its root, so that is one more read a copy. The
 * largest tree's best is c->hot_label, read on no vertex (millions of its
 * vertices would read one word). */
GR_HD gr_svid gr__cc_tree_best(const gr_cc_ctx *c, gr_svid r) {
  return r == c->hot_root ? c->hot_label : c->best[r];
}
GR_HD int gr_cc_pair(const gr_cc_ctx *c, gr_vid v) {
  const gr_svid r = c->copies_loose ? gr__cc_compress_root(c, v) : c->parent[v];
  if (c->n_owned_first && v >= c->n_owned_first && r == (gr_svid)v) return -1;
  return c->label[v] != gr__cc_tree_best(c, r) ? 0 : -1;
}

/* For each i below the chosen vertices' count: the pair of the i-th (its
 * path compressed by gr_cc_pair). */
GR_HD void gr_cc_pack(const gr_cc_ctx *c, gr_vid i) {
  const gr_vid v = c->merge_ids[i];
  c->pairs[2 * (gr_eid)i] = gr__cc_tree_best(c, c->parent[v]);
  c->pairs[2 * (gr_eid)i + 1] = c->label[v];
}

/* The merge's union-find (gr_cc_ops.merge) over the labels of n_pairs
 * pairs, each pair two labels of one component, in a hash table of
 * 2^bits slots (open addressing, linear probing; at least 1.5 times the
 * pairs' labels, so that every probe meets an empty slot and the table is
 * at most 2/3 full whatever the labels: on Kronecker 22 about 0.42 of
 * them are distinct, 0.2-0.3 of the slots taken). A slot holds a label
 * once; the labels are put in first, each pair's two replaced by their
 * slots; then a forest over the slots, ordered by their labels
 * (gr__cc_link_in's walk), joins the two slots of each pair, so that a
 * set's root is the slot of its smallest label. Ordered by slot, the giant component's label (a pair's
 * in most pairs) was a root hooked again and again under smaller slots,
 * and the walks climbed its chain (a device of 4 on Kronecker 25: 0.19 ms
 * a run). A table needs no sort: CUB's radix sort of the labels, its
 * unique and two binary searches a pair took that device about 0.19 ms
 * too, most of it kernels of fixed cost over 0.25 M labels. */
typedef struct gr_cc_merge_args {
  gr_svid *pairs;  /* 2 n_pairs labels: pair i is pairs[2i], pairs[2i + 1]; the merge writes their slots over
                    * them */
  gr_eid n_pairs;
  int bits;        /* the table's 2^bits slots (gr_cc_merge_bits) */
  gr_svid *keys;   /* per slot: a label, or GR_CC_EMPTY */
  gr_svid *parent; /* per slot: its parent in the forest (a root: itself) */
  /* A label put in as the table is cleared, or -1: the giant component's,
   * which half the pairs' labels are (Kronecker 22 on 2 devices: 55,201
   * of 110,486), so that their inserts find it at their first read where
   * thousands raced to take its slot (a device of 2 on Kronecker 25: 92
   * us a run). Any label will do: one in no pair joins nothing. */
  gr_svid seed;
} gr_cc_merge_args;

/* A slot no label took (labels are global ids, never negative). */
#define GR_CC_EMPTY ((gr_svid)-1)

/* The table's size for n_pairs pairs: the least 2^bits of at least 1.5
 * times their 2 n_pairs labels (at least 2 slots). */
GR_HD int gr_cc_merge_bits(gr_eid n_pairs) {
  int bits = 1;
  while (((gr_eid)1 << bits) < 3 * n_pairs) bits++;
  return bits;
}

/* x's first slot: Fibonacci hashing (the top bits of x times 2^64 / phi),
 * which spreads ids that differ in their low bits, as a component's
 * labels on a random partition do. */
GR_HD gr_eid gr__cc_merge_hash(gr_svid x, int bits) {
  return (gr_eid)(((uint64_t)(int64_t)x * 0x9e3779b97f4a7c15ull) >> (64 - bits));
}

/* x's slot, taken for it where x has none (concurrent inserts of one label
 * meet at one slot: a compare-and-swap takes an empty slot, and a lost
 * race reads the winner's label there). A slot's label never changes once
 * taken, so the first read may be stale only as empty (a cached read:
 * half the inserts read the seed's slot). */
GR_HD gr_svid gr__cc_merge_insert(gr_svid *keys, int bits, gr_svid x) {
  const gr_eid mask = ((gr_eid)1 << bits) - 1;
  for (gr_eid h = gr__cc_merge_hash(x, bits);; h = (h + 1) & mask) {
    gr_svid k = gr_load_hint_svid(&keys[h]);
    if (k == GR_CC_EMPTY) {
      if (gr_atomic_cas_svid(&keys[h], GR_CC_EMPTY, x)) return (gr_svid)h;
      k = gr_load_relaxed_svid(&keys[h]);
    }
    if (k == x) return (gr_svid)h;
  }
}

/* x's slot once the table is built; -1 where x is in no pair. */
GR_HD gr_svid gr__cc_merge_slot(const gr_svid *keys, int bits, gr_svid x) {
  const gr_eid mask = ((gr_eid)1 << bits) - 1;
  for (gr_eid h = gr__cc_merge_hash(x, bits);; h = (h + 1) & mask) {
    const gr_svid k = keys[h];
    if (k == x) return (gr_svid)h;
    if (k == GR_CC_EMPTY) return -1;
  }
}

/* For each slot: empty (the seed's first slot: the seed), a root. */
GR_HD void gr_cc_merge_init(const gr_cc_merge_args *m, gr_eid i) {
  const bool seed = m->seed >= 0 && i == gr__cc_merge_hash(m->seed, m->bits);
  m->keys[i] = seed ? m->seed : GR_CC_EMPTY;
  m->parent[i] = (gr_svid)i;
}

/* For each of the pairs' 2 n_pairs labels: its slot, over it. */
GR_HD void gr_cc_merge_insert(const gr_cc_merge_args *m, gr_eid i) {
  m->pairs[i] = gr__cc_merge_insert(m->keys, m->bits, m->pairs[i]);
}

/* For each pair, once every label is in: its two slots joined, the
 * forest ordered by label (gr__cc_link_in). */
GR_HD void gr_cc_merge_link(const gr_cc_merge_args *m, gr_eid i) {
  gr__cc_link_in(m->parent, m->keys, true, m->pairs[2 * i], m->pairs[2 * i + 1]);
}

/* Once the merge is done: the smallest label the pairs join x to; -1
 * where x is in no pair. */
GR_HD gr_svid gr_cc_merged(const gr_svid *keys, const gr_svid *parent, int bits, gr_svid x) {
  const gr_svid s = gr__cc_merge_slot(keys, bits, x);
  return s < 0 ? -1 : keys[gr__cc_find_in(parent, s)];
}

/* For each owned vertex the first take listed (outside the largest tree,
 * with arcs), once every device's pairs are merged: its tree's root takes
 * the smallest label joined to its best. The largest tree's root is
 * passed too, once. */
GR_HD void gr_cc_merge_apply(const gr_cc_ctx *c, gr_vid v) {
  const gr_svid r = c->parent[v];
  /* Relaxed: another thread may be lowering the same root (either value
   * finds the same set). */
  const gr_svid l = gr_cc_merged(c->merge_keys, c->merge_parent, c->merge_bits, gr_load_relaxed_svid(&c->best[r]));
  if (l >= 0) gr__cc_lower(c, r, l);
}

/* For each border copy (several devices, the merge's sparse refresh):
 * the label every device's largest tree holds (c->hot_label), its owner's
 * label for every copy whose owner sends none (gr__cc_merge). */
GR_HD void gr_cc_copy_hot(const gr_cc_ctx *c, gr_vid v) { c->label[v] = c->hot_label; }

/* For each owned vertex (several devices, once no label moves): its
 * root's label where lower. Only the owned labels are read after it. */
GR_HD void gr_cc_settle(const gr_cc_ctx *c, gr_vid v) {
  const gr_svid b = c->best[c->parent[v]];
  if (b < c->label[v]) c->label[v] = b;
}

/* The operator instantiations of one backend. */
typedef struct gr_cc_ops {
  gr_status (*init)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_cc_ctx *);
  gr_status (*link_round)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_cc_ctx *);
  gr_status (*compress)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_cc_ctx *);
  gr_status (*sample)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_cc_ctx *);
  gr_status (*needs_rest)(gr_device *, gr_workspace *, gr_filter_args *, const gr_cc_ctx *);
  gr_status (*link_arcs)(gr_device *, gr_workspace *, gr_advance_push_args *, const gr_cc_ctx *);
  gr_status (*lower_root)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_cc_ctx *);
  gr_status (*take_label)(gr_device *, gr_workspace *, gr_split_args *, const gr_cc_ctx *);
  gr_status (*take_first)(gr_device *, gr_workspace *, gr_split_args *, const gr_cc_ctx *);
  gr_status (*lookup)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_cc_ctx *);
  gr_status (*vote_root)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_cc_ctx *);
  gr_status (*settle)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_cc_ctx *);
  gr_status (*copy_hot)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_cc_ctx *);
  /* The most frequent of samples[0, GR_CC_SAMPLES) (gr_cc_mode's choice)
   * into samples[GR_CC_SAMPLES], on the device: nothing waits for it. */
  gr_status (*vote)(gr_device *, gr_workspace *, const gr_cc_ctx *);
  gr_status (*pair)(gr_device *, gr_workspace *, gr_split_args *, const gr_cc_ctx *);
  gr_status (*pack)(gr_device *, gr_workspace *, gr_for_each_args *, const gr_cc_ctx *);
  /* gr_cc_merge_args: the table built over every pair, each set's
   * smallest at its root; on the device, nothing read. */
  gr_status (*merge)(gr_device *, gr_workspace *, const gr_cc_merge_args *);
  /* gr_cc_merge_apply over a split's input (nothing output). */
  gr_status (*merge_apply)(gr_device *, gr_workspace *, const gr_split_args *, const gr_cc_ctx *);
} gr_cc_ops;

extern const gr_cc_ops gr__cc_ops_cpu;
#ifdef GR_HAVE_CUDA
extern const gr_cc_ops gr__cc_ops_cuda;
/* Loads cc_cuda.cu's kernels on the device's GPU (gr_device_preload). */
gr_status gr__cc_cuda_preload(gr_device *dev);
#endif
const gr_cc_ops *gr__cc_ops(const gr_device *dev);

extern const gr_primitive gr_cc_primitive;

/* The most frequent of n roots (the smallest of the most frequent when
 * several tie), so that every backend picks the same. */
gr_svid gr_cc_mode(gr_svid *roots, int n);

/* Checks that the graph's ids fit the labels (gr_svid). */
gr_status gr_cc_prepare(gr_graph *g, gr_prim_options *o);

/* Plain serial reference: union-find over every arc, as undirected, then
 * each vertex labelled with the smallest id of its component. */
gr_status gr_cc_reference(gr_graph *g, const gr_run_args *a, const gr_prim_options *o, gr_result *ref);

/* Accepts exactly the correct answer: every label is a vertex id, the
 * smallest of the vertices carrying it and carried by itself; the ends of
 * every arc carry the same label; with a reference, the same partition of
 * the vertices (which with the rule above means the same labels). */
gr_status gr_cc_validate(gr_graph *g, const gr_run_args *a, const gr_prim_options *o, const gr_result *r,
                         const gr_result *ref);

/* The number of components and the largest one's size, into r->extra, and
 * marks the labels as vertex ids. */
gr_status gr_cc_finish(gr_result *r);

#ifdef __cplusplus
}
#endif

#endif
