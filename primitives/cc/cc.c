/* SPDX-License-Identifier: Apache-2.0 */
/* Connected components as a primitive spec (the algorithm: cc.h). The first
 * iteration runs Afforest on the device's own arcs; on one device that is
 * the answer and the run ends. Between devices a proxy whose label fell is
 * sent to its owner (MIN), the next iteration merges every device's trees
 * in one step (gr__cc_merge), and the largest trees' labels are compared
 * (cc.h: the repair, whose label rounds refresh the copies of owned
 * vertices from their owners, pass the labels that arrived to the local
 * trees and send on the proxies that changed, until no label changes
 * anywhere). */
#include <stdlib.h>
#include <string.h>

#include "cc/cc.h"
#include "gr/log.h"

/* The devices whose words the joins and a round's end gather on the stack
 * (a mask bit each in gr__cc_join_largest). */
enum { GR__CC_MAX_DEVICES = 64 };

/* Behind the samples on the device, the first iteration's tail: the vote's
 * word (samples[GR_CC_SAMPLES]), then from byte GR__CC_EDGES_AT the arcs
 * the rest's advances visited (out, then in), which their counters leave
 * on the device. One read after Afforest's last pass brings all three
 * back: on one device the run's only read after the filter's, where the
 * samples' read (the vote on the host) and the advance's each waited for
 * the device. */
enum {
  GR__CC_EDGES_AT = GR_CC_SAMPLES * (int)sizeof(gr_svid) + 8,
  GR__CC_TAIL_BYTES = 8 + 2 * (int)sizeof(uint64_t),
  GR__CC_SAMPLES_BYTES = GR_CC_SAMPLES * (int)sizeof(gr_svid) + GR__CC_TAIL_BYTES
};
_Static_assert(sizeof(gr_svid) <= 8, "the vote's word fits its 8 bytes");

typedef struct gr__cc_slice {
  gr_buffer parent;  /* the forest (one device: also the labels) */
  gr_buffer label;   /* several devices: labels (global ids), the payload */
  gr_buffer best;    /* several devices: per local root, its tree's smallest label */
  gr_buffer rest;    /* vertices whose remaining arcs need linking: owned ones only (rows are the owned
                      * vertices'), so room for the owned */
  gr_buffer samples; /* roots of the sampled vertices */
  gr_buffer owners;  /* duplicate-all between devices: the owner table */
  const uint8_t *owner_table;
  gr_vid owned_first;
  gr_vid rows;       /* local ids [0, rows) hold every row (the device's CSR rows) */
  bool multi;
  bool directed;
  gr_svid largest;   /* several devices: the root the vote chose (-1: none) */
  gr_svid vote_root; /* several devices: that root's root after the rest's links, and its key (gr_cc_vote_root) */
  gr_svid vote_root_key;
  bool repair;       /* several devices: link the arcs the vote skipped, next iteration */
  bool repaired;     /* ... done in this run: nothing is skipped any more */
  /* Several devices: the last iteration was a label round over the border
   * lists, so rest[0, owned_changed) holds every owned label its takes
   * lowered (the next refresh sends those and the input only). */
  bool tracked;
  gr_eid owned_changed;
  bool whole; /* several devices: the last iteration took every vertex (settled them all) */
  /* Several devices: the largest tree's root (largest) and its best are
   * known on the host (the join after Afforest; not after the merge, which
   * may lower it, nor after a repair, which links trees anew). */
  bool hot_known;
  gr_svid hot_best;
  /* Several devices: the join found every device's largest tree in one
   * component, so all of them hold one label (hot_best) until the merge,
   * the same on every device, and that label stays home (unless --tune
   * cc-one-label=off). */
  bool one_label;
  /* Several devices, the merge (gr__cc_merge): every device's pairs, and
   * the union-find's table where rest has no room for it. */
  gr_buffer merge_all;
  gr_buffer merge_work;
  gr_buffer arcs; /* several devices: a bit per local vertex that has arcs here (gr_cc_take_first) */
  /* Several devices: the last iteration was the merge and left the
   * largest tree's best where it was, so the run's end brings up the
   * labels of the first take's list alone (rest[0, n_settle)). */
  bool settle_list;
  gr_eid n_settle;
  gr_eid round_arcs; /* arcs the sampling rounds link */
  /* Several devices: the first take passed over the owned vertices alone
   * (duplicate-1-hop proxies, one label): the copies' paths are not
   * compressed and their labels not written until the merge's pass over
   * them (gr_cc_ctx.copies_loose). */
  bool copies_loose;
  int tail_edges; /* words of the tail's arcs the rest's advances left (0-2) */
} gr__cc_slice;

const gr_cc_ops *gr__cc_ops(const gr_device *dev) {
#ifdef GR_HAVE_CUDA
  if (gr_device_backend(dev) == GR_BACKEND_CUDA) return &gr__cc_ops_cuda;
#endif
  (void)dev;
  return &gr__cc_ops_cpu;
}

static int gr__cc_cmp_svid(const void *a, const void *b) {
  const gr_svid x = *(const gr_svid *)a, y = *(const gr_svid *)b;
  return (x > y) - (x < y);
}

/* Sorts n <= GR_CC_SAMPLES ids ascending: a radix sort of their bits (the
 * sign flipped, so that unsigned order is signed order), a byte a pass,
 * skipping the bytes every id shares (the samples are mostly one root and
 * small ids: two or three passes). libc's qsort of the 1,024 samples took
 * 34 us on a build machine. The CPU backend's vote and gr_cc_finish's
 * giant label sort here; a GPU votes on the device (cc_cuda.cu). */
static void gr__cc_sort_samples(gr_svid *ids, int n) {
  uint64_t a[GR_CC_SAMPLES], b[GR_CC_SAMPLES];
  const uint64_t flip = (uint64_t)1 << 63;
  for (int i = 0; i < n; i++) a[i] = (uint64_t)(int64_t)ids[i] ^ flip;
  uint64_t *src = a, *dst = b;
  for (int shift = 0; shift < 64; shift += 8) {
    int count[256] = {0};
    for (int i = 0; i < n; i++) count[(src[i] >> shift) & 0xff]++;
    if (count[(src[0] >> shift) & 0xff] == n) continue;
    int at = 0;
    for (int d = 0; d < 256; d++) {
      const int c = count[d];
      count[d] = at;
      at += c;
    }
    for (int i = 0; i < n; i++) dst[count[(src[i] >> shift) & 0xff]++] = src[i];
    uint64_t *t = src;
    src = dst;
    dst = t;
  }
  for (int i = 0; i < n; i++) ids[i] = (gr_svid)(int64_t)(src[i] ^ flip);
}

gr_svid gr_cc_mode(gr_svid *roots, int n) {
  if (n <= 0) return -1;
  if (n <= GR_CC_SAMPLES) gr__cc_sort_samples(roots, n);
  else qsort(roots, (size_t)n, sizeof *roots, gr__cc_cmp_svid);
  gr_svid best = roots[0];
  int best_run = 0;
  for (int i = 0; i < n;) {
    int j = i;
    while (j < n && roots[j] == roots[i]) j++;
    /* Sorted ascending: a later run must be strictly longer to win. */
    if (j - i > best_run) {
      best_run = j - i;
      best = roots[i];
    }
    i = j;
  }
  return best;
}

gr_status gr_cc_prepare(gr_graph *g, gr_prim_options *o) {
  (void)o;
  const uint64_t n = gr_graph_num_vertices(g);
  if (n > (uint64_t)GR_SVID_MAX)
    return gr_errorf(GR_ERR_UNSUPPORTED, "cc labels vertices with signed %d-bit ids; %s has %llu vertices (build with "
                                         "-DGR_VERTEX_64=ON)",
                     GR_VID_BITS, gr_graph_name(g), (unsigned long long)n);
  return GR_SUCCESS;
}

static void gr__cc_release_buffers(gr__cc_slice *s) {
  gr_buffer *b[] = {&s->parent,  &s->label,  &s->best,      &s->rest,       &s->samples,
                    &s->owners,  &s->arcs,   &s->merge_all, &s->merge_work};
  for (size_t i = 0; i < sizeof b / sizeof *b; i++) gr_buffer_release(b[i]);
}

/* Several devices: a bit per local vertex with arcs in this device's rows
 * (out, or for a directed graph in), built on the host once a problem: the
 * first take lists the trees outside the largest one by such vertices,
 * and a tree's root with none is a vertex of its own (a third of
 * Kronecker 25's vertices), where reading its offsets on the device took
 * a device of 2 about 15 us a run. The merge's sparse refresh leans on it:
 * a vertex that peers copy has arcs here (copies are the vertices their
 * devices' rows reach, in-rows included for a directed graph), so an owned
 * one outside the largest tree is in that list; proxies that no arc
 * reached would break it. */
static gr_status gr__cc_mark_arcs(gr__cc_slice *s, gr_part *p) {
  const gr_vid n = p->sub->n_local;
  const size_t words = gr_bitmap_words(n ? n : 1);
  uint32_t *bits = NULL;
  GR_CHECK(gr_host_calloc((void **)&bits, words, sizeof *bits, "cc vertices with arcs"));
  const gr_csr *out = &p->sub->out, *in = &p->sub->in;
  const bool with_in = s->directed && in->offsets;
  for (gr_vid v = 0; v < n; v++)
    if (out->offsets[v + 1] > out->offsets[v] || (with_in && in->offsets[v + 1] > in->offsets[v]))
      bits[v >> 5] |= 1u << (v & 31);
  gr_status st = gr_buffer_resize(&s->arcs, p->dev, words * sizeof *bits, 0, "cc vertices with arcs");
  if (st >= 0) st = gr_device_copy(p->dev, s->arcs.ptr, bits, words * sizeof *bits, GR_COPY_H2D);
  free(bits);
  return st;
}

static gr_status cc_init(void **slice, gr_part *p) {
  gr__cc_slice *s = NULL;
  gr_status st = GR_SUCCESS;
  if (p->sub->n_global > (gr_vid)GR_SVID_MAX)
    return gr_errorf(GR_ERR_UNSUPPORTED, "cc labels vertices with signed ids; the graph has %llu vertices",
                     (unsigned long long)p->sub->n_global);
  GR_CHECK(gr_host_calloc((void **)&s, 1, sizeof *s, "cc state"));
  const gr_vid n = p->sub->n_local;
  const size_t slots = n ? (size_t)n : 1;
  s->multi = p->count > 1;
  /* An undirected graph's in-edges are its out-edges (one copy); a directed
   * one's in-edges are the other half of every arc's undirected reading. */
  s->directed = p->in.offsets && p->in.offsets != p->out.offsets;
  for (gr_vid v = 0; v < n; v++) {
    const gr_eid d = p->sub->out.offsets[v + 1] - p->sub->out.offsets[v];
    s->round_arcs += d < GR_CC_ROUNDS ? d : GR_CC_ROUNDS;
  }
  GR_CHECK_GOTO(gr_buffer_resize(&s->parent, p->dev, slots * sizeof(gr_svid), 0, "cc forest"), st, fail);
  /* rest holds owned vertices only (the filter's, which have rows, and the
   * takes' owned labels that changed): a device of 4 on Kronecker 21 holds
   * 2.2 local vertices per owned one. */
  const size_t owned_slots = p->sub->n_owned ? (size_t)p->sub->n_owned : 1;
  GR_CHECK_GOTO(gr_buffer_resize(&s->rest, p->dev, owned_slots * sizeof(gr_vid), 0, "cc vertices to link"), st,
                fail);
  if (s->multi) {
    GR_CHECK_GOTO(gr_buffer_resize(&s->label, p->dev, slots * sizeof(gr_svid), 0, "cc labels"), st, fail);
    GR_CHECK_GOTO(gr_buffer_resize(&s->best, p->dev, slots * sizeof(gr_svid), 0, "cc labels of roots"), st, fail);
    GR_CHECK_GOTO(gr_part_owners(p, &s->owners, &s->owner_table, &s->owned_first), st, fail);
    GR_CHECK_GOTO(gr__cc_mark_arcs(s, p), st, fail);
  }
  GR_CHECK_GOTO(gr_buffer_resize(&s->samples, p->dev, GR__CC_SAMPLES_BYTES, 0, "cc samples"), st, fail);
  /* Zeroed once: the tail's read takes its 24 bytes whole, the words no
   * advance wrote and the vote word's upper half (32-bit ids) included. */
  GR_CHECK_GOTO(gr_device_memset(p->dev, s->samples.ptr, 0, GR__CC_SAMPLES_BYTES), st, fail);
  /* The rows the device holds (the enactor's: under 1-hop proxies the
   * owned vertices', a copy's row being empty), so that the passes that
   * read rows (the sampling rounds, the filter of the rest) skip the
   * copies, about 0.3 of a device's local vertices on two devices of
   * Kronecker 27. A directed graph's CSC holds the same rows. */
  s->rows = p->out.n;
  if (s->directed && p->in.n != s->rows) {
    st = gr_errorf(GR_ERR_INTERNAL, "cc: device %d holds %llu CSR rows and %llu CSC rows", p->index,
                   (unsigned long long)s->rows, (unsigned long long)p->in.n);
    goto fail;
  }
  *slice = s;
  return GR_SUCCESS;
fail:
  gr__cc_release_buffers(s);
  free(s);
  return st;
}

static void cc_release(void *slice, gr_part *p) {
  (void)p;
  gr__cc_slice *s = slice;
  gr__cc_release_buffers(s);
  free(s);
}

static gr_cc_ctx gr__cc_ctx(gr__cc_slice *s, const gr_part *p) {
  gr_cc_ctx c;
  memset(&c, 0, sizeof c);
  c.parent = s->parent.ptr;
  c.label = s->multi ? s->label.ptr : NULL;
  c.best = s->multi ? s->best.ptr : NULL;
  c.local_to_global = p->local_to_global;
  c.owner = s->owner_table;
  c.me = p->index;
  c.n = p->sub->n_local;
  c.n_owned_first = s->owned_first;
  c.out_offsets = p->out.offsets;
  c.in_offsets = s->directed ? p->in.offsets : NULL;
  c.indices = p->out.indices;
  if (p->out.packed) c.packed = *p->out.packed;
  c.largest = -1;
  c.hot = s->largest;
  c.hot_root = -1;
  c.arcs = s->multi ? s->arcs.ptr : NULL;
  c.samples = s->samples.ptr;
  c.seed = 0x6363u;
  return c;
}

static gr_status cc_reset(void *slice, gr_part *p, const gr_run_args *a, gr_frontier *first) {
  (void)slice;
  (void)a;
  /* No source: the first iteration starts from every vertex. */
  first->size = 0;
  if (gr_frontier_capacity(first) < 1) GR_CHECK(gr_frontier_reserve(first, p->dev, 1, 0, &p->mem));
  return GR_SUCCESS;
}

/* An advance of the rest's arcs: the arcs it visited, or where it left its
 * counters on the device (counts_later), their word copied into the tail
 * (the workspace's counters serve the next operator). */
static gr_status gr__cc_rest_edges(gr__cc_slice *s, gr_part *p, gr_iter *it, const gr_advance_push_args *a) {
  if (!a->counts) {
    it->edges += a->edges;
    return GR_SUCCESS;
  }
  if (s->tail_edges >= 2) return gr_errorf(GR_ERR_INTERNAL, "cc: more than two advances of the rest's arcs");
  unsigned char *at = (unsigned char *)s->samples.ptr + GR__CC_EDGES_AT + (size_t)s->tail_edges * sizeof(uint64_t);
  GR_CHECK(gr_device_copy(p->dev, at, a->counts + 1, sizeof(uint64_t), GR_COPY_D2D));
  s->tail_edges++;
  return GR_SUCCESS;
}

/* Steps 4 and 5 (cc.h): the remaining arcs of every vertex outside the
 * tree gr_cc_largest(c) (every vertex when it is -1), then compress,
 * unless `take_compresses`: between devices the first take compresses
 * each vertex as it reads it (gr_cc_take_first), one pass over the local
 * vertices where the compress and the take were two. `later`: the
 * advances' arcs stay on the device, in the tail (s->tail_edges words),
 * for one read after the compress; otherwise each advance reads its own. */
static gr_status gr__cc_rest(gr__cc_slice *s, gr_part *p, gr_iter *it, gr_cc_ctx *c, bool take_compresses,
                             bool later) {
  const gr_cc_ops *ops = gr__cc_ops(p->dev);
  const gr_vid n = p->sub->n_local;
  gr_filter_args f;
  memset(&f, 0, sizeof f);
  f.n_in = s->rows;
  f.out = s->rest.ptr;
  f.out_capacity = p->sub->n_owned;
  GR_CHECK(ops->needs_rest(p->dev, p->ws, &f, c));
  if (f.n_out) {
    gr_advance_push_args a;
    memset(&a, 0, sizeof a);
    a.g = &p->out;
    a.in = s->rest.ptr;
    a.n_in = f.n_out;
    a.counts_later = later;
    c->offsets = p->out.offsets;
    c->skip = GR_CC_ROUNDS;
    GR_CHECK(ops->link_arcs(p->dev, p->ws, &a, c));
    GR_CHECK(gr__cc_rest_edges(s, p, it, &a));
    if (s->directed) {
      memset(&a, 0, sizeof a);
      a.g = &p->in;
      a.in = s->rest.ptr;
      a.n_in = f.n_out;
      a.counts_later = later;
      c->offsets = p->in.offsets;
      c->skip = 0;
      GR_CHECK(ops->link_arcs(p->dev, p->ws, &a, c));
      GR_CHECK(gr__cc_rest_edges(s, p, it, &a));
    }
  }
  if (take_compresses) return GR_SUCCESS;
  gr_for_each_args all = {NULL, n, 0};
  return ops->compress(p->dev, p->ws, &all, c);
}

/* Afforest on this device's arcs (cc.h, steps 1-5). */
static gr_status gr__cc_local(gr__cc_slice *s, gr_part *p, gr_iter *it, gr_cc_ctx *c) {
  const gr_cc_ops *ops = gr__cc_ops(p->dev);
  const gr_vid n = p->sub->n_local;
  gr_for_each_args all = {NULL, n, 0};
  gr_for_each_args rows = {NULL, s->rows, 0};
  /* Under duplicate-1-hop proxies the copies (local ids from owned_first
   * on) are never parents: every link has an owned end, whose walker only
   * climbs through owned vertices, and a link hooks the larger root (a
   * copy's id is larger than any owned one) under the other side's parent,
   * so the parent a link or a halving writes is owned. Every step of a
   * path past its first vertex is then an owned vertex's: the compresses
   * between the rounds pass over the owned vertices alone (about 0.3 of a
   * device's local vertices are copies on two devices of Kronecker 27),
   * leaving a copy one step from a compressed path; the last compress
   * (gr__cc_rest) takes every vertex. */
  gr_for_each_args trees = {NULL, s->owned_first ? s->owned_first : n, 0};
  GR_CHECK(ops->init(p->dev, p->ws, &all, c));
  for (int r = 0; r < GR_CC_ROUNDS; r++) {
    c->round = (gr_eid)r;
    GR_CHECK(ops->link_round(p->dev, p->ws, &rows, c));
    GR_CHECK(ops->compress(p->dev, p->ws, &trees, c));
  }
  it->edges += s->round_arcs;
  /* The largest tree's vertices skip their remaining arcs, between devices
   * too (cc.h says why nothing is lost). The vote stays on the device,
   * where the passes below read it (gr_cc_ctx.vote). */
  s->tail_edges = 0;
  c->hot = -1;
  if (n > 0) {
    gr_for_each_args k = {NULL, GR_CC_SAMPLES, 0};
    GR_CHECK(ops->sample(p->dev, p->ws, &k, c));
    GR_CHECK(ops->vote(p->dev, p->ws, c));
    c->vote = (const gr_svid *)s->samples.ptr + GR_CC_SAMPLES;
  }
  /* Between devices the last compress is the first take's (below, after
   * the join, whose lookups find their roots). A root's best stays its own
   * global id, under duplicate-1-hop proxies the smallest of its tree's
   * owned vertices (owned local ids ascend with their global ids, and a
   * root is its tree's smallest local id): a copy's smaller id reaches the
   * component's label where it is owned (cc.h), and gathering the copies'
   * ids at the roots, with the compress, took a pass over every local
   * vertex (90 us a device of 4 on Kronecker 25, one H100). */
  GR_CHECK(gr__cc_rest(s, p, it, c, s->multi, true));
  s->largest = s->vote_root = s->vote_root_key = -1;
  if (n == 0 && !s->tail_edges) return GR_SUCCESS;
  /* Between devices the vote's root's root and key (gr_cc_vote_root, in
   * the spent samples' first words) come back with the tail: one read of
   * the samples' room whole (4 kB, as long as the tail's alone). */
  const bool root_too = s->multi && n > 0;
  if (root_too) {
    gr_for_each_args one = {NULL, 1, 0};
    GR_CHECK(ops->vote_root(p->dev, p->ws, &one, c));
  }
  unsigned char room[GR__CC_SAMPLES_BYTES];
  const size_t tail_at = GR_CC_SAMPLES * sizeof(gr_svid), from = root_too ? 0 : tail_at;
  GR_CHECK(gr_device_copy(p->dev, room + from, (const unsigned char *)s->samples.ptr + from,
                          GR__CC_SAMPLES_BYTES - from, GR_COPY_D2H));
  const unsigned char *tail = room + tail_at;
  if (n > 0) memcpy(&s->largest, tail, sizeof s->largest);
  if (root_too) {
    memcpy(&s->vote_root, room, sizeof s->vote_root);
    memcpy(&s->vote_root_key, room + sizeof(gr_svid), sizeof s->vote_root_key);
  }
  for (int k = 0; k < s->tail_edges; k++) {
    uint64_t e = 0;
    memcpy(&e, tail + 8 + (size_t)k * sizeof e, sizeof e);
    it->edges += e;
  }
  if (s->largest < -1 || s->largest >= (gr_svid)n)
    return gr_errorf(GR_ERR_INTERNAL, "cc: device %d's vote found root %lld of %llu vertices", p->index,
                     (long long)s->largest, (unsigned long long)n);
  c->vote = NULL;
  c->largest = c->hot = s->largest;
  return GR_SUCCESS;
}

/* The roots of k local vertices (ids) and those roots' bests, into out[2i]
 * and out[2i + 1]: one pass over the lookups in the samples' room and one
 * read. */
static gr_status gr__cc_lookup(gr__cc_slice *s, gr_part *p, gr_cc_ctx *c, const gr_svid *ids, int k, gr_svid *out) {
  if (3 * (size_t)k > GR_CC_SAMPLES)
    return gr_errorf(GR_ERR_INTERNAL, "cc: %d lookups exceed the samples' room", k);
  GR_CHECK(gr_device_copy(p->dev, s->samples.ptr, ids, (size_t)k * sizeof *ids, GR_COPY_H2D));
  c->lookups = (gr_vid)k;
  gr_for_each_args a = {NULL, (gr_eid)k, 0};
  GR_CHECK(gr__cc_ops(p->dev)->lookup(p->dev, p->ws, &a, c));
  return gr_device_copy(p->dev, out, (gr_svid *)s->samples.ptr + k, 2 * (size_t)k * sizeof *out, GR_COPY_D2H);
}

/* The devices joined to device `from` (a bit each), directly or through
 * others, by every device's mask of the peers it joined. */
static gr_eid gr__cc_group(const gr_eid *masks, int n_dev, int from) {
  gr_eid group = (gr_eid)1 << from, grown = group;
  do {
    group = grown;
    for (int d = 0; d < n_dev; d++)
      if (group & ((gr_eid)1 << d) || masks[d] & group) grown |= masks[d] | ((gr_eid)1 << d);
  } while (grown != group);
  return group;
}

/* Several devices, after Afforest: every device's largest tree has taken
 * the smallest global id it holds, but its component's smallest id may be
 * held by one device only (a vertex no other device's arcs reach, or a
 * proxy that only a skipped arc would have linked). Its label then crosses
 * by label rounds: every vertex of the other largest trees changes a round
 * later, and their copies travel again, one round more in all. Two
 * devices' largest trees that share a vertex are one component: each
 * device publishes two of its tree's vertices (the smallest id and the
 * root), looks the others' up in its own forest, and every largest tree of
 * a group so joined starts from the group's smallest label. A label stays
 * the id of a vertex of its component, so the rounds end with the labels
 * they would have reached (and the largest trees agree, which the end of
 * the run checks as before). Up to 64 devices (a mask each). The roots are
 * found on the device: its own tree's root with the vote's read
 * (gr_cc_vote_root), the peers' vertices' by one lookup (gr__cc_lookup),
 * so a device waits once here whatever its peers' count, where a read per
 * lookup made it wait 2 + 2 per peer. */
static gr_status gr__cc_join_largest(gr__cc_slice *s, gr_part *p, gr_cc_ctx *c) {
  enum { MAX_DEVICES = GR__CC_MAX_DEVICES };
  const int n_dev = p->count, me = p->index;
  s->one_label = false;
  if (n_dev > MAX_DEVICES) return GR_SUCCESS;
  const gr_eid none = UINT64_MAX;
  gr_svid *best = s->best.ptr;
  gr_eid mine[2] = {none, none};
  if (s->largest >= 0) {
    /* A tree the rest linked into one of smaller id has that root now
     * (gr_cc_vote_root, read with the vote). */
    if (s->vote_root < 0 || s->vote_root >= (gr_svid)p->sub->n_local)
      return gr_errorf(GR_ERR_INTERNAL, "cc: device %d's vote's root %lld has root %lld of %llu vertices", p->index,
                       (long long)s->largest, (long long)s->vote_root, (unsigned long long)p->sub->n_local);
    s->largest = s->vote_root;
    mine[0] = (gr_eid)s->vote_root_key;
    mine[1] = (gr_eid)gr_subgraph_global(p->sub, (gr_vid)s->vote_root);
  }
  gr_eid all[2 * MAX_DEVICES];
  GR_CHECK(gr_part_gather(p, mine, 2, all));
  gr_eid links = 0;
  if (s->largest >= 0) {
    /* The peers' two vertices that this device holds, and their roots. */
    gr_svid ids[2 * MAX_DEVICES], found[4 * MAX_DEVICES];
    int of[2 * MAX_DEVICES], k = 0;
    for (int d = 0; d < n_dev; d++)
      for (int q = 0; d != me && q < 2; q++) {
        gr_vid l = 0;
        if (all[2 * d + q] == none || !gr_subgraph_local(p->sub, (gr_vid)all[2 * d + q], &l)) continue;
        ids[k] = (gr_svid)l;
        of[k++] = d;
      }
    if (k) GR_CHECK(gr__cc_lookup(s, p, c, ids, k, found));
    for (int i = 0; i < k; i++)
      if (found[2 * i] == s->largest) links |= (gr_eid)1 << of[i];
  }
  gr_eid masks[MAX_DEVICES];
  GR_CHECK(gr_part_gather(p, &links, 1, masks));
  /* Whether device 0's group holds every device, each with a largest
   * tree: then every group is that one (the joins are symmetric), and
   * every device reaches the same answer from the same words. */
  const gr_eid every = n_dev == MAX_DEVICES ? ~(gr_eid)0 : ((gr_eid)1 << n_dev) - 1;
  bool all_have = true;
  for (int d = 0; d < n_dev; d++) all_have = all_have && all[2 * d] != none;
  s->one_label = p->ws->tune.cc_one_label && all_have && gr__cc_group(masks, n_dev, 0) == every;
  if (s->largest < 0) return GR_SUCCESS;
  const gr_eid group = gr__cc_group(masks, n_dev, me);
  gr_eid least = mine[0];
  for (int d = 0; d < n_dev; d++)
    if (group & ((gr_eid)1 << d) && all[2 * d] < least) least = all[2 * d];
  /* Written whatever it is: init wrote no best, and the first take reads
   * this root's here (the others' are their own ids). */
  const gr_svid v = (gr_svid)least;
  GR_CHECK(gr_device_copy(p->dev, best + s->largest, &v, sizeof v, GR_COPY_H2D));
  s->hot_known = true;
  s->hot_best = (gr_svid)least;
  return GR_SUCCESS;
}

/* Several devices, at the end of each round: the labels that changed on
 * any device, and, once none did, whether every device's largest tree
 * ended with the same label (then no arc that both sides skipped joins two
 * components; cc.h). A device where no label changed posts its largest
 * tree's label with the count (as a pair whose minima give the smallest
 * and the largest label), so one gather answers both. The words ride the
 * exchange's barrier (gr_iter.post) and cc_arrived decides: a gather of
 * their own took a barrier a round (on 2 logical devices of an H200 taking
 * turns, a barrier drains the device's stream: 3 a run of 16). */
enum { GR__CC_ROUND_WORDS = 3 };
_Static_assert((int)GR__CC_ROUND_WORDS <= (int)GR_PART_GATHER_VALUES, "a round's words fit gr_iter.post");

static gr_status gr__cc_round_post(gr__cc_slice *s, gr_part *p, gr_eid changed_here, gr_iter *it) {
  if (p->count > GR__CC_MAX_DEVICES)
    return gr_errorf(GR_ERR_UNSUPPORTED, "cc: %d devices, at most %d", p->count, GR__CC_MAX_DEVICES);
  gr_eid *mine = it->post;
  mine[0] = changed_here;
  mine[1] = mine[2] = UINT64_MAX;
  it->n_post = GR__CC_ROUND_WORDS;
  if (!changed_here && !s->repaired && s->largest >= 0) {
    /* A root's best is its tree's label (its own label may lag); known
     * without a read since the join or this round's lowers. */
    gr_svid l = s->hot_best;
    if (!s->hot_known)
      GR_CHECK(gr_device_copy(p->dev, &l, (const gr_svid *)s->best.ptr + s->largest, sizeof l, GR_COPY_D2H));
    mine[1] = (gr_eid)l;
    mine[2] = UINT64_MAX - (gr_eid)l;
  }
  return GR_SUCCESS;
}

/* The round's end as every device posted it (gr__cc_round_post): the same
 * answers on every device. */
static gr_status gr__cc_round_end(gr_part *p, gr_eid *changed, bool *agree) {
  gr_eid all[GR__CC_ROUND_WORDS * GR__CC_MAX_DEVICES];
  GR_CHECK(gr_part_posted(p, all));
  gr_eid sum = 0, lo = UINT64_MAX, hi = UINT64_MAX;
  for (int d = 0; d < p->count; d++) {
    sum += all[GR__CC_ROUND_WORDS * d];
    if (all[GR__CC_ROUND_WORDS * d + 1] < lo) lo = all[GR__CC_ROUND_WORDS * d + 1];
    if (all[GR__CC_ROUND_WORDS * d + 2] < hi) hi = all[GR__CC_ROUND_WORDS * d + 2];
  }
  *changed = sum;
  *agree = lo == UINT64_MAX || lo == UINT64_MAX - hi;
  return GR_SUCCESS;
}

/* take_label over what `from` names (its input: every local vertex, a
 * list, or the border lists): class 0 (copies that changed) into the
 * output, class 1 (owned ones) into rest. */
static gr_status gr__cc_take(gr__cc_slice *s, gr_part *p, gr_iter *it, const gr_cc_ctx *c, gr_split_args from,
                             gr_eid *copies, gr_eid *owned) {
  gr_status (*take)(gr_device *, gr_workspace *, gr_split_args *, const gr_cc_ctx *) =
      c->fresh ? gr__cc_ops(p->dev)->take_first : gr__cc_ops(p->dev)->take_label;
  gr_split_args sp = from;
  sp.out[0] = gr_frontier_items(it->out) + *copies;
  sp.out_capacity[0] = gr_frontier_capacity(it->out) - *copies;
  sp.out[1] = (gr_vid *)s->rest.ptr + *owned;
  sp.out_capacity[1] = p->sub->n_owned - *owned;
  GR_CHECK(take(p->dev, p->ws, &sp, c));
  *copies += sp.n_out[0];
  *owned += sp.n_out[1];
  return GR_SUCCESS;
}

/* A split's input over both border lists in one pass: the copies (a range
 * of ids under 1-hop proxies, or a list) and then the owned vertices, the
 * two lists one array (checked by the caller). */
static gr_split_args gr__cc_border_input(const gr_borders *b) {
  gr_split_args sp = {.in = b->copies ? b->copies : b->owned,
                      .n_in = b->n_copies + b->n_owned,
                      .first = b->copies_first,
                      .n_first = b->copies ? 0 : b->n_copies};
  return sp;
}

/* Several devices, the iteration after Afforest's (cc.h, the merge): the
 * copies take their owners' labels (every one: after Afforest every label
 * moved), each device lists the pairs of its border vertices whose tree's
 * best and label differ, every device's pairs go to every device, and one
 * union-find over their labels, the same on every device, lowers each
 * tree that holds a border vertex to its component's smallest label. No
 * label moves after it, where label rounds went on until one changed
 * nothing: two rounds on 2 devices of Kronecker 25, three on 4, each with
 * a refresh and an exchange. */
static gr_status gr__cc_merge(gr__cc_slice *s, gr_part *p, gr_cc_ctx *c, const gr_borders *b, const gr_frontier *in,
                              gr_frontier *out) {
  const gr_cc_ops *ops = gr__cc_ops(p->dev);
  if (p->count > GR__CC_MAX_DEVICES)
    return gr_errorf(GR_ERR_UNSUPPORTED, "cc: %d devices, at most %d", p->count, GR__CC_MAX_DEVICES);
  /* The largest tree's best as the join left it (no lower since). */
  c->hot_root = s->hot_known ? s->largest : -1;
  c->hot_label = s->hot_best;
  /* The pair pass compresses the copies the first take left (every copy:
   * under duplicate-1-hop proxies every copy is a border copy). */
  c->copies_loose = s->copies_loose;
  s->copies_loose = false;
  /* rest holds the first take's owned vertices outside the largest tree
   * ([0, kc)); behind them go the copies this pass chooses and then the
   * pairs, twice as wide: the chosen copies' and those of the owned
   * vertices the exchange lowered (the input, whose labels alone differ
   * from their trees' bests among the owned vertices). A few per cent of
   * the copies are chosen on Kronecker graphs; rest grows (keeping the
   * first take's list) where more are. */
  const gr_eid kc = s->owned_changed, n_in = in->size;
  void *arrays[1] = {s->label.ptr};
  if (s->one_label) {
    /* Every device's largest tree holds one label, L, and an owned label
     * other than L is the first take's list's (an owned vertex outside the
     * largest tree with arcs; one without arcs is a tree of its own that
     * no peer copies) or the exchange lowered it (the input). Only those
     * travel (records of position and label), and every copy takes L
     * before they land: the copies of the owned vertices left unsent. Most
     * border vertices of a Kronecker graph are the giant component's,
     * L before the merge: on 2 devices of Kronecker 25 the refresh sent
     * 28 MB a device, each border vertex's label. */
    gr_for_each_args cp = {b->copies, b->n_copies, b->copies ? 0 : b->copies_first};
    if (cp.n) GR_CHECK(ops->copy_hot(p->dev, p->ws, &cp, c));
    const gr_vid *lists[2] = {gr_frontier_items(in), s->rest.ptr};
    const gr_eid counts[2] = {n_in, kc};
    GR_CHECK(gr_part_refresh_some(p, arrays, 1, (int)sizeof(gr_svid), lists, counts, 2, NULL, NULL));
  } else {
    GR_CHECK(gr_part_refresh(p, arrays, 1, (int)sizeof(gr_svid)));
  }
  const gr_eid from = (kc + 1) & ~(gr_eid)1; /* pairs start 8-byte aligned */
  gr_split_args sp = {.in = b->copies,
                      .n_in = b->n_copies,
                      .first = b->copies_first,
                      .n_first = b->copies ? 0 : b->n_copies,
                      .count_past = true};
  gr_eid room = 0;
  for (int pass = 0;; pass++) {
    const gr_eid cap = (gr_eid)(s->rest.capacity / sizeof(gr_vid));
    room = cap > from ? ((cap - from) / 3) & ~(gr_eid)1 : 0;
    sp.out[0] = (gr_vid *)s->rest.ptr + from;
    sp.out_capacity[0] = room;
    GR_CHECK(ops->pair(p->dev, p->ws, &sp, c));
    const gr_eid need = sp.n_out[0] + n_in;
    if (need <= room) break;
    if (pass)
      return gr_errorf(GR_ERR_INTERNAL, "cc: device %d counted %llu vertices to merge, then %llu", p->index,
                       (unsigned long long)room, (unsigned long long)need);
    GR_CHECK(gr_buffer_reserve(&s->rest, p->dev, (size_t)(from + 3 * (need + 2)) * sizeof(gr_vid), 1, &p->mem, 0,
                               "cc vertices to link"));
  }
  const gr_eid k = sp.n_out[0];
  gr_vid *chosen = (gr_vid *)s->rest.ptr + from;
  _Static_assert(sizeof(gr_svid) == sizeof(gr_vid), "a pair takes the room of two ids");
  const size_t pair_bytes = 2 * sizeof(gr_svid);
  gr_svid *pairs = (gr_svid *)(chosen + room);
  c->pairs = pairs;
  if (k) {
    c->merge_ids = chosen;
    gr_for_each_args each = {NULL, k, 0};
    GR_CHECK(ops->pack(p->dev, p->ws, &each, c));
  }
  if (n_in) {
    c->merge_ids = gr_frontier_items(in);
    c->pairs = pairs + 2 * k;
    gr_for_each_args each = {NULL, n_in, 0};
    GR_CHECK(ops->pack(p->dev, p->ws, &each, c));
  }
  const gr_eid mine = k + n_in;
  uint64_t at[GR__CC_MAX_DEVICES + 1];
  GR_CHECK(gr_part_allgather(p, pairs, (uint64_t)mine * pair_bytes, &s->merge_all, "cc pairs of every device", at));
  if (at[p->count] % pair_bytes)
    return gr_errorf(GR_ERR_INTERNAL, "cc: device %d received %llu bytes of pairs", p->index,
                     (unsigned long long)at[p->count]);
  const gr_eid n_pairs = at[p->count] / pair_bytes;
  if (!n_pairs) return GR_SUCCESS;
  /* The table's slots are labels' type (gr_svid), at most 6 a pair. */
  if (n_pairs > (gr_eid)GR_SVID_MAX / 8)
    return gr_errorf(GR_ERR_UNSUPPORTED, "cc: %llu pairs of labels to merge, at most %llu", (unsigned long long)n_pairs,
                     (unsigned long long)GR_SVID_MAX / 8);
  /* The table's two arrays (2^bits slots each) where memory is free
   * during the merge: rest behind the chosen copies (the pairs' room is
   * free once they went out) and the output queue (this iteration outputs
   * nothing). What fits in neither takes merge_work, which stays. */
  gr_cc_merge_args m;
  m.pairs = s->merge_all.ptr;
  m.n_pairs = n_pairs;
  m.bits = gr_cc_merge_bits(n_pairs);
  m.seed = c->hot_root >= 0 ? c->hot_label : -1;
  const size_t slots = (size_t)1 << m.bits, bytes = slots * sizeof(gr_svid);
  const uintptr_t free_at = ((uintptr_t)(chosen + k) + 7) & ~(uintptr_t)7,
                  rest_end = (uintptr_t)((unsigned char *)s->rest.ptr + s->rest.capacity);
  unsigned char *room_at[2] = {(unsigned char *)gr_frontier_items(out), (unsigned char *)free_at};
  size_t room_bytes[2] = {(size_t)gr_frontier_capacity(out) * sizeof(gr_vid),
                          free_at < rest_end ? (size_t)(rest_end - free_at) : 0};
  gr_svid *table[2] = {NULL, NULL};
  size_t missing = 0;
  for (int a = 0; a < 2; a++) {
    for (int r = 0; r < 2 && !table[a]; r++)
      if (room_at[r] && room_bytes[r] >= bytes) {
        table[a] = (gr_svid *)room_at[r];
        room_at[r] += bytes;
        room_bytes[r] -= bytes;
      }
    if (!table[a]) missing += bytes;
  }
  if (missing) {
    GR_CHECK(gr_buffer_reserve(&s->merge_work, p->dev, missing, 0, &p->mem, 0, "cc union-find of the pairs"));
    unsigned char *w = s->merge_work.ptr;
    for (int a = 0; a < 2; a++)
      if (!table[a]) {
        table[a] = (gr_svid *)w;
        w += bytes;
      }
  }
  m.keys = table[0];
  m.parent = table[1];
  GR_CHECK(ops->merge(p->dev, p->ws, &m));
  c->merge_keys = m.keys;
  c->merge_parent = m.parent;
  c->merge_bits = m.bits;
  /* A tree the merge can lower holds a border vertex, and so an owned
   * vertex with arcs (a copy joined its tree over an arc of an owned
   * vertex): the largest tree's root, or a tree of the first take's list
   * (every vertex with a pair is in one of them). A pass over every owned
   * border vertex took a device of 2 on Kronecker 25 0.12 ms, most of its
   * vertices in the largest tree. */
  const gr_split_args cold = {.in = s->rest.ptr, .n_in = kc};
  return ops->merge_apply(p->dev, p->ws, &cold, c);
}

static gr_status cc_iterate(void *slice, gr_part *p, gr_iter *it) {
  gr__cc_slice *s = slice;
  const gr_cc_ops *ops = gr__cc_ops(p->dev);
  const gr_vid n = p->sub->n_local;
  /* An iteration outputs each copy whose label fell once (owned vertices
   * that change reach the exchange's next frontier, which reserves its own
   * room): the queues hold the copies, not every local vertex (one device
   * outputs nothing). */
  const gr_eid room = n > p->sub->n_owned ? (gr_eid)(n - p->sub->n_owned) : 1;
  if (gr_frontier_capacity(it->out) < room) GR_CHECK(gr_frontier_reserve(it->out, p->dev, room, 0, &p->mem));
  it->out->size = 0;
  gr_cc_ctx c = gr__cc_ctx(s, p);
  gr_for_each_args all = {NULL, n, 0};
  /* A label round passes over the vertices whose labels can move the
   * others': the border lists (gr_part_borders: the copies, which the
   * refresh changes and whose changes go to their owners, and the owned
   * vertices that others copy, which the exchange lowers and the refresh
   * reads). Any other vertex's label stays behind its root's best until the
   * run ends, when one pass brings every label up. The first iteration,
   * and one whose repair links trees anew, pass over every vertex. (The
   * first could take over the border lists alone, every label having
   * started as its vertex's global id on every device; on two H200s,
   * Kronecker 27, its two passes over the lists took as long as the one
   * over every vertex, and the refresh after it, of the owned labels that
   * changed, marked and selected nearly every one: 0.3 ms a run more.) */
  bool whole = it->iteration == 0;
  s->settle_list = false;
  gr_borders b;
  memset(&b, 0, sizeof b);
  if (it->iteration == 0) {
    s->repair = s->repaired = false;
    s->hot_known = false;
    GR_CHECK(gr__cc_local(s, p, it, &c));
    if (!s->multi) return GR_SUCCESS;
    GR_CHECK(gr__cc_join_largest(s, p, &c));
    /* No label was written since init: the take below writes them all,
     * and lists the owned vertices outside the largest tree for the
     * merge. */
    c.fresh = true;
    c.hot_root = s->hot_known ? s->largest : -1;
    c.hot_stays = s->one_label;
  } else {
    if (!s->multi) return GR_SUCCESS;
    GR_CHECK(gr_part_borders(p, &b));
    if (it->iteration == 1 && !s->repair) {
      /* Every label moved in Afforest's iteration: the merge settles them
       * in one step (a repair, if the votes differ, then goes by rounds). */
      GR_CHECK(gr__cc_merge(s, p, &c, &b, it->in, it->out));
      /* The largest tree's best after the merge (the round's end posts
       * it): where it stayed, the trees the merge may have lowered are
       * the first take's list's, and a vertex of its own keeps its id, so
       * the run's end passes over that list, not over every owned vertex
       * (a device of 2 on Kronecker 25: 75 us). */
      bool stayed = true;
      if (s->largest >= 0) {
        gr_svid l = 0;
        GR_CHECK(gr_device_copy(p->dev, &l, (const gr_svid *)s->best.ptr + s->largest, sizeof l, GR_COPY_D2H));
        stayed = s->hot_known && l == s->hot_best;
        s->hot_best = l;
        s->hot_known = true;
      }
      s->settle_list = stayed;
      s->n_settle = s->owned_changed;
      it->out->size = 0;
      s->tracked = false;
      s->owned_changed = 0;
      s->whole = false;
      return gr__cc_round_post(s, p, 0, it);
    }
    if (s->repair) {
      /* The votes found different components: every arc is linked, and
       * every label is brought up first, so that the roots of the trees
       * it joins start from their trees' labels (the copies' paths
       * compressed first where the first take left them: no merge ran,
       * which does). */
      if (s->copies_loose) {
        gr_for_each_args loose = {NULL, n - s->owned_first, s->owned_first};
        GR_CHECK(ops->compress(p->dev, p->ws, &loose, &c));
        s->copies_loose = false;
      }
      gr_eid cp = 0, ow = 0;
      GR_CHECK(gr__cc_take(s, p, it, &c, (gr_split_args){.n_in = n}, &cp, &ow));
      s->repair = false;
      s->repaired = true;
      s->hot_known = false;
      whole = true;
      c.largest = -1;
      GR_CHECK(gr__cc_rest(s, p, it, &c, false, false));
    }
    /* Copies take their owners' labels (never higher: a copy whose label
     * fell went to its owner, whose MIN took it), then every root the
     * smallest label of its tree: the labels that fell are the copies'
     * and those of the owned vertices the exchange lowered (the input). */
    void *arrays[1] = {s->label.ptr};
    if (whole) {
      GR_CHECK(gr_part_refresh(p, arrays, 1, (int)sizeof(gr_svid)));
      GR_CHECK(ops->lower_root(p->dev, p->ws, &all, &c));
    } else {
      /* After a round over the border lists an owned label differs from
       * its copies' only where that round's takes lowered it (rest) or the
       * exchange did (the input): only those travel, and only the copies
       * they wrote can lower a root (any other copy's label is its root's
       * best or above, from the last take). After Afforest every label
       * moved: all of them travel. */
      const gr_vid *copies = b.copies;
      gr_eid n_copies = b.n_copies;
      if (s->tracked) {
        const gr_vid *lists[2] = {gr_frontier_items(it->in), s->rest.ptr};
        const gr_eid counts[2] = {it->in->size, s->owned_changed};
        GR_CHECK(gr_part_refresh_some(p, arrays, 1, (int)sizeof(gr_svid), lists, counts, 2, &copies, &n_copies));
      } else {
        GR_CHECK(gr_part_refresh(p, arrays, 1, (int)sizeof(gr_svid)));
      }
      gr_for_each_args in = {gr_frontier_items(it->in), it->in->size, 0};
      gr_for_each_args cp = {copies, n_copies, copies ? 0 : b.copies_first};
      if (in.n) GR_CHECK(ops->lower_root(p->dev, p->ws, &in, &c));
      if (cp.n) GR_CHECK(ops->lower_root(p->dev, p->ws, &cp, &c));
    }
  }
  /* Proxies that changed go to their owners; owned vertices that changed
   * are counted (their copies take them at the next refresh). */
  gr_eid copies = 0, owned = 0;
  if (whole) {
    /* Where no copy is sent (c.hot_stays) and the copies are the last
     * local ids (duplicate-1-hop proxies), the first take passes over the
     * owned vertices alone: the merge writes every copy's label (the
     * largest tree's, then its owner's) and its pass over the copies
     * compresses their paths (a third of a device's local vertices on 2
     * devices of Kronecker 25, 80 us of the take's 245). */
    const bool owned_only = c.fresh && c.hot_stays && s->owned_first > 0;
    s->copies_loose = owned_only && s->owned_first < n;
    GR_CHECK(gr__cc_take(s, p, it, &c, (gr_split_args){.n_in = owned_only ? s->owned_first : n}, &copies, &owned));
  } else {
    /* Both border lists in one pass (the copies' range and the owned
     * list, or one array, owned after copies): the take sorts copies from
     * owned vertices itself. */
    if (b.copies && b.owned != b.copies + b.n_copies)
      return gr_errorf(GR_ERR_INTERNAL, "cc: device %d's border lists are not one array", p->index);
    if (b.n_copies + b.n_owned) GR_CHECK(gr__cc_take(s, p, it, &c, gr__cc_border_input(&b), &copies, &owned));
  }
  it->out->size = copies;
  s->tracked = !whole;
  s->owned_changed = owned;
  s->whole = whole;
  return gr__cc_round_post(s, p, copies + owned, it);
}

/* Between devices, once the exchange is done: whether the run goes on
 * (cc_iterate posted what this round changed). */
static gr_status cc_arrived(void *slice, gr_part *p, gr_iter *it, gr_frontier *next) {
  (void)next;
  gr__cc_slice *s = slice;
  gr_eid changed = 0;
  bool agree = true;
  GR_CHECK(gr__cc_round_end(p, &changed, &agree));
  bool done = !changed && s->repaired;
  if (!changed && !s->repaired) {
    if (!agree) {
      gr_log(GR_LOG_INFO, GR_SUBSYS_PRIM, "cc: device %d: the largest trees' labels differ between devices; "
             "linking the arcs they skipped", p->index);
      s->repair = true;
      it->pending = 1;
    }
    done = agree;
  }
  if (!done) {
    if (changed) it->pending = 1;
    return GR_SUCCESS;
  }
  /* No label moves any more: every owned label takes its root's, the
   * labels the extract reads (1-hop: the owned vertices come first; else
   * every local vertex, the copies' labels going unread). One pass with no
   * output and no read, where a take over every local vertex sorted out
   * the ones that changed (Kronecker 22 on 2 devices: 1.5 local vertices
   * per owned one, 2.2 on 4). */
  if (!s->whole) {
    gr_cc_ctx c = gr__cc_ctx(s, p);
    gr_for_each_args own = {NULL, s->owned_first ? s->owned_first : p->sub->n_local, 0};
    if (s->settle_list) own = (gr_for_each_args){s->rest.ptr, s->n_settle, 0};
    if (own.n) GR_CHECK(gr__cc_ops(p->dev)->settle(p->dev, p->ws, &own, &c));
  }
  return GR_SUCCESS;
}

static gr_status cc_payload(void *slice, gr_part *p, gr_payload *out) {
  (void)p;
  gr__cc_slice *s = slice;
  memset(out, 0, sizeof *out);
  out->n_values = 1;
  out->values[0] = s->label.ptr;
  return GR_SUCCESS;
}

static gr_status cc_extract(void *slice, gr_part *p, gr_result *r) {
  gr__cc_slice *s = slice;
  GR_CHECK(gr_part_gather_svid(p, s->multi ? s->label.ptr : s->parent.ptr, r->values));
  if (p->index != 0) return GR_SUCCESS;
  gr_extra *x = &r->extra;
  gr_extra_free(x);
  x->n_numbers = 1;
  x->number_names[0] = "weakly_connected";
  x->numbers[0] = s->directed ? 1.0 : 0.0;
  return GR_SUCCESS;
}

gr_status gr_cc_finish(gr_result *r) {
  const gr_vid n = r->n;
  const gr_svid *label = r->values;
  gr_vid *size = NULL;
  GR_CHECK(gr_host_calloc((void **)&size, n ? (size_t)n : 1, sizeof *size, "cc component sizes"));
  /* The vertices of the giant component (half or more of a power-law
   * graph's, all with one label) count in per-thread sums: on one shared
   * counter the threads' increments serialized (Kronecker 25 on a 16-core
   * host: 0.7 s a run, a hundred times the run itself). Its label is the
   * most frequent of evenly spaced samples; every other label's vertices
   * count in the table, so the figures do not depend on the sample. */
  gr_svid sample[GR_CC_SAMPLES];
  int n_sample = 0;
  for (uint64_t i = 0; n && i < GR_CC_SAMPLES; i++) {
    const gr_svid l = label[i * (uint64_t)n / GR_CC_SAMPLES];
    if (l >= 0 && (gr_vid)l < n) sample[n_sample++] = l;
  }
  const gr_svid giant = gr_cc_mode(sample, n_sample);
  uint64_t components = 0, in_giant = 0;
#pragma omp parallel for schedule(static) reduction(+ : components, in_giant)
  for (gr_vid v = 0; v < n; v++) {
    const gr_svid l = label[v];
    /* A label outside the ids is the validator's to report. */
    if (l < 0 || (gr_vid)l >= n) continue;
    components += (gr_vid)l == v;
    if (l == giant) {
      in_giant++;
    } else {
#pragma omp atomic
      size[l]++;
    }
  }
  if (giant >= 0) size[giant] = (gr_vid)in_giant;
  gr_vid largest = 0;
#pragma omp parallel for schedule(static) reduction(max : largest)
  for (gr_vid v = 0; v < n; v++) largest = size[v] > largest ? size[v] : largest;
  free(size);
  gr_extra *x = &r->extra;
  int k = x->n_numbers;
  if (k + 2 <= GR_EXTRA_MAX) {
    x->number_names[k] = "components";
    x->numbers[k] = (double)components;
    x->number_names[k + 1] = "largest";
    x->numbers[k + 1] = (double)largest;
    x->n_numbers = k + 2;
  }
  r->values_are_ids = true;
  return GR_SUCCESS;
}

const gr_primitive gr_cc_primitive = {
    .name = "cc",
    .summary = "connected components (weakly connected for directed graphs): each vertex labelled with the "
               "smallest vertex id of its component",
    /* Labels go from proxies to owners only, and a device needs no vertex
     * but its own and their neighbours: 1-hop proxies, which gr_run
     * --proxy auto takes on every partition (Afforest's passes then cover
     * a device's own vertices and their neighbours, not |V|). */
    .proxy = GR_PROXY_1HOP,
    .auto_1hop = true,
    .comm = GR_COMM_SELECTIVE,
    .n_vertex_assoc = 0,
    .n_value_assoc = 1,
    .combine = GR_COMBINE_MIN,
    .value_type = GR_VALUE_SVID,
    .needs_source = false,
    /* Directed graphs: every arc is linked from both of its ends' owners. */
    .needs_in_edges = true,
    .needs_weights = false,
    /* Sampling rounds decode their one neighbour (gr_packed_get); the
     * remaining arcs go through the advance. */
    .reads_packed_lists = true,
    .refreshes_copies = true,
    .device_lists_only = true,
    /* Its label rounds advance nothing; Afforest's rest measures its own. */
    .skips_in_edges = true,
    .state_bytes_per_vertex = {24, 96},
    .init = cc_init,
    .release = cc_release,
#ifdef GR_HAVE_CUDA
    .preload = gr__cc_cuda_preload,
#endif
    .reset = cc_reset,
    .iterate = cc_iterate,
    .converged = NULL,
    .arrived = cc_arrived,
    .payload = cc_payload,
    .extract = cc_extract,
    .finish = gr_cc_finish,
    .prepare = gr_cc_prepare,
    .reference = gr_cc_reference,
    .validate = gr_cc_validate,
    .traversed_edges = NULL,
};
