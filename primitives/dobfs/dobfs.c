/* SPDX-License-Identifier: Apache-2.0 */
/* DOBFS as a primitive spec. Each level picks a direction from counts every
 * device shares (gr_part_sum), so all devices agree:
 *   push -> pull  when the frontier's out-edges exceed the unvisited part's
 *                 edges / do_a (Beamer's test, edges counted exactly);
 *   pull -> push  when the frontier shrinks and has at most n / do_b
 *                 vertices.
 * A pull needs every device to see the whole frontier: on one device, and
 * under the broadcast exchange (every device learns every depth), each
 * device marks the vertices at the frontier's depth. Between devices under
 * selective exchange (the default) with duplicate-all proxies (global ids)
 * the same holds by construction: the source is seeded on every device,
 * a push's claims go to every device (gr_iter.tell_all: its list whole to
 * every peer, or its routed bitmap of global ids), and a pull's finds
 * travel as a bitmap, or'ed over the devices inside the level's exchange
 * (gr_iter.or_bits) into the visited bits and, where those cannot serve
 * (below), into a union, the next pull's frontier as it is; a push's
 * claims are or'ed likewise into a union (gr_iter.claim_bits), the
 * frontier of a pull after it, so no pull reads a copy's depth (copies
 * keep their visited bits only between devices, as in BFS). The union is
 * cleared once a run, not at every push: it keeps the claims of the run's
 * earlier pushes, which no pull can take for parents (a vertex of an
 * earlier level had its out-edges visited at its own level, so every
 * vertex it reaches is visited and no candidate). For the same reason,
 * where every claim reaches the visited bits (kept, and no predecessors:
 * the combine settles each peer's claim against them), the visited bits
 * are that frontier, and no union is made. With 1-hop proxies under
 * selective exchange it pushes only. Every pull's union of
 * finds goes into the visited bits at the next level, so a push after
 * pulls claims none of them again; without visited bits (--tune
 * visited=state) it may claim copies whose owners found them by pulling
 * (no depth here), and the owners' MIN keeps the depth they have. Pull
 * candidates are the owned vertices still unvisited, handed on from pull to
 * pull, so a pull never rescans what earlier pulls settled.
 * Edges are exact except after idempotent claims (--tune
 * status=idempotent), where a vertex emitted twice counts twice: the test
 * then leans towards pulling early; depths are unaffected. */
#include <stdlib.h>
#include <string.h>

#include "dobfs/dobfs.h"
#include "gr/util.h"

typedef struct gr__dobfs_slice {
  gr_buffer depth;
  gr_buffer pred;
  bool mark_pred;
  gr_bfs_loop loop;
  gr_buffer owned;   /* owned local ids with in-edges: the first pull's candidates */
  gr_eid n_owned;
  gr_buffer cand[2]; /* the candidates the last pull handed on, and room for the next */
  int cur;
  gr_eid n_cand;
  gr_buffer bits;    /* the frontier as a bitmap (pull) */
  bool can_pull;     /* every device can see the whole frontier */
  bool or_bits;      /* ... between devices, duplicate-all proxies: pulls' finds or'ed, pushes told to all */
  gr_buffer visited; /* push's visited bitmap (gr_bfs_ctx.visited), or unallocated */
  bool pulled;       /* the last level pulled: the visited bitmap misses its finds */
  /* Between devices with or_bits: a pull's finds (published to the peers
   * by the exchange) and their union over the devices (the exchange's
   * or_union, the next pull's frontier; none where the visited bits are
   * whole, dobfs_visited_whole, which take it). The finds are this
   * device's owner words alone where the partition gives them
   * (owner.groups; asked at the first pull): 1/N of the bitmap's bytes to
   * clear, and to send to each peer, which reads each word from its
   * owner's alone. Two bitmaps of finds, a pull's and the last pull's:
   * peers may still read the last one's (gr_iter.or_kept) while this pull
   * clears and sets its own. */
  gr_buffer found[2];
  int found_at; /* this pull's */
  gr_buffer uni;
  gr_owner_words owner;
  bool owner_asked;
  bool or_next;      /* the last level or'ed its finds over the devices: every device alike */
  bool whole;        /* this level: their union (uni, or the visited bits) is the frontier */
  /* Between devices with or_bits: the last level pushed, and the exchange
   * left the union of its claims over the devices in `bits`
   * (gr_iter.claim_bits), or, with claimed_visited, in the visited bits. */
  bool claimed;
  bool claimed_visited;
  /* direction state, the same on every device */
  gr_direction dir;
  gr_eid m_total;    /* arcs of the whole graph */
  gr_eid m_visited;  /* out-edges of the vertices visited so far */
  gr_eid prev_frontier;
  gr_eid source_edges;  /* the source's out-edges here (its owner's, 0 elsewhere) */
  gr_eid source_global; /* ... summed over the devices: the first level's frontier edges */
} gr__dobfs_slice;

static const gr_dobfs_ops *gr__dobfs_ops(const gr_device *dev) {
#ifdef GR_HAVE_CUDA
  if (gr_device_backend(dev) == GR_BACKEND_CUDA) return &gr__dobfs_ops_cuda;
#endif
  (void)dev;
  return &gr__dobfs_ops_cpu;
}

static void dobfs_release(void *slice, gr_part *p) {
  (void)p;
  gr__dobfs_slice *s = slice;
  if (!s) return;
  gr_buffer_release(&s->depth);
  gr_buffer_release(&s->pred);
  gr_buffer_release(&s->owned);
  gr_buffer_release(&s->cand[0]);
  gr_buffer_release(&s->cand[1]);
  gr_buffer_release(&s->bits);
  gr_buffer_release(&s->found[0]);
  gr_buffer_release(&s->found[1]);
  gr_buffer_release(&s->uni);
  gr_buffer_release(&s->visited);
  gr_bfs_loop_release(&s->loop);
  free(s);
}

static gr_status dobfs_init(void **slice, gr_part *p) {
  gr__dobfs_slice *s = NULL;
  gr_vid *owned = NULL;
  gr_status st = GR_SUCCESS;
  const gr_subgraph *sub = p->sub;
  const gr_vid n = sub->n_local;
  /* Duplicate-all proxies: local ids are global ids, the same on every
   * device, so the devices' bitmaps can be or'ed. */
  const bool or_bits = p->count > 1 && !p->global_view && sub->proxy == GR_PROXY_ALL;
  if (p->opts->direction == GR_DIRECTION_PULL && !p->global_view && !or_bits)
    return gr_errorf(GR_ERR_INVALID_ARG,
                     "dobfs --direction pull on several devices needs duplicate-all proxies (--proxy all) or "
                     "--comm broadcast (a pull must see the whole frontier)");
  GR_CHECK(gr_host_calloc((void **)&s, 1, sizeof *s, "dobfs state"));
  s->or_bits = or_bits;
  s->can_pull = p->global_view || or_bits;
  s->mark_pred = p->opts->mark_pred;
  GR_CHECK_GOTO(gr_buffer_resize(&s->depth, p->dev, (size_t)n * sizeof(gr_svid), 0, "dobfs depths"), st, fail);
  if (s->mark_pred)
    GR_CHECK_GOTO(gr_buffer_resize(&s->pred, p->dev, (size_t)n * sizeof(gr_svid), 0, "dobfs predecessors"), st,
                  fail);
  GR_CHECK_GOTO(gr_host_alloc((void **)&owned, ((size_t)n + 1) * sizeof *owned, "dobfs owned vertices"), st, fail);
  /* A vertex without in-edges is never found by a pull (only as the
   * source, which reset sets): it is no candidate. Isolated vertices are
   * many in Kronecker graphs (43% at scale 22). */
  const gr_csr *in = sub->in.offsets ? &sub->in : &sub->out;
  for (gr_vid v = 0; v < n; v++)
    if (gr_subgraph_owns(sub, v) && in->offsets[v + 1] > in->offsets[v]) owned[s->n_owned++] = v;
  const size_t ob = (size_t)(s->n_owned ? s->n_owned : 1) * sizeof(gr_vid);
  GR_CHECK_GOTO(gr_buffer_resize(&s->owned, p->dev, ob, 0, "dobfs owned vertices"), st, fail);
  GR_CHECK_GOTO(gr_device_copy(p->dev, s->owned.ptr, owned, (size_t)s->n_owned * sizeof(gr_vid), GR_COPY_H2D), st,
                fail);
  free(owned);
  owned = NULL;
  *slice = s;
  return GR_SUCCESS;
fail:
  free(owned);
  dobfs_release(s, p);
  return st;
}

/* A bitmap of the local vertices, allocated at its first use: the
 * frontier (a pull's, and between devices a push's claims' union,
 * gr_iter.claim_bits), the pull's finds and their union. 16 bytes past
 * the bits: NCCL reads messages (the finds) in 16-byte pieces. */
static gr_status dobfs_bitmap(gr_buffer *b, const gr_part *p, const char *what) {
  if (b->ptr) return GR_SUCCESS;
  const size_t bytes = gr_bitmap_words(p->sub->n_local) * sizeof(uint32_t) + 16;
  return gr_buffer_resize(b, p->dev, bytes, 0, what);
}

/* Between devices with duplicate-all proxies: whether every claim of a
 * push reaches the visited bits on every device (the bits kept, no
 * predecessors: gr_iter.settled), which then are a pull's frontier after
 * it, and after a pull, whose finds' union goes into them alone;
 * otherwise the pushes lend the claims' union (dobfs_iterate) and the
 * pulls keep one of their finds. */
static bool dobfs_visited_whole(gr__dobfs_slice *s) {
  return s->or_bits && gr_bfs_visited_bits(&s->visited) && !s->mark_pred;
}

static gr_status dobfs_reset(void *slice, gr_part *p, const gr_run_args *a, gr_frontier *first) {
  gr__dobfs_slice *s = slice;
  gr_vid n = p->sub->n_local;
  GR_CHECK(gr_device_memset(p->dev, s->depth.ptr, 0xff, (size_t)n * sizeof(gr_svid)));
  if (s->mark_pred) GR_CHECK(gr_device_memset(p->dev, s->pred.ptr, 0xff, (size_t)n * sizeof(gr_svid)));
  GR_CHECK(gr_bfs_reserve(first, p, 1));
  s->source_edges = gr_bfs_source_edges(p, a->source);
  s->dir = p->opts->direction == GR_DIRECTION_PULL ? GR_DIRECTION_PULL : GR_DIRECTION_PUSH;
  s->m_total = s->m_visited = s->prev_frontier = 0;
  s->n_cand = 0; /* filled from the owned list at the first pull */
  s->cur = -1;
  s->pulled = false;
  s->or_next = s->whole = s->claimed = s->claimed_visited = false;
  gr_bfs_loop_reset(&s->loop);
  GR_CHECK(gr_bfs_visited_reset(&s->visited, p));
  if (s->or_bits && !dobfs_visited_whole(s)) {
    /* The pushes' union of claims (gr_iter.claim_bits) starts empty and
     * only grows during the run: the last run's vertices would be parents
     * to this one's pulls. */
    GR_CHECK(dobfs_bitmap(&s->bits, p, "dobfs frontier bitmap"));
    GR_CHECK(gr_device_memset(p->dev, s->bits.ptr, 0, gr_bitmap_words(n) * sizeof(uint32_t)));
  }
  GR_CHECK(gr_part_seed(p, a->source, s->depth.ptr, 0, first));
  gr_bfs_know_source(&s->loop, p, a->source);
  /* The first level's direction test reads the source's out-edges over
   * the devices: summed here, before the run, as one device knows them
   * here, so that the first level passes no barrier of its own (a third
   * one a level between devices; the enactor's loop leaves at once when
   * a device failed and this sum returns GR_ERR_ABORTED). Last: a device
   * that failed above meets the others' sum at its reset's barrier. */
  return gr_part_sum(p, s->source_edges, &s->source_global);
}

/* Every device takes the same decision from the same shared counts. */
static void dobfs_decide(gr__dobfs_slice *s, const gr_part *p, gr_eid frontier, gr_eid m_frontier) {
  const gr_prim_options *o = p->opts;
  const gr_eid m_unvisited =
      s->m_total > s->m_visited + m_frontier ? s->m_total - s->m_visited - m_frontier : 0;
  if (o->direction != GR_DIRECTION_AUTO || !s->can_pull) {
    s->dir = o->direction == GR_DIRECTION_PULL && s->can_pull ? GR_DIRECTION_PULL : GR_DIRECTION_PUSH;
  } else if (s->dir == GR_DIRECTION_PUSH) {
    if ((double)m_frontier > (double)m_unvisited / o->do_a) s->dir = GR_DIRECTION_PULL;
  } else if (frontier < s->prev_frontier && (double)frontier <= (double)p->sub->n_global / o->do_b) {
    s->dir = GR_DIRECTION_PUSH;
  }
}

/* One pull level: unvisited owned vertices look for a parent at depth L.
 * The first pull's candidates are the owned vertices with in-edges; each
 * pull hands on the ones it wanted and did not find (those settled by a
 * push in between drop out at the next pull's test). */
static gr_status dobfs_pull(gr__dobfs_slice *s, gr_part *p, gr_iter *it, const gr_bfs_ctx *c, bool claimed,
                            bool claimed_visited) {
  const gr_dobfs_ops *ops = gr__dobfs_ops(p->dev);
  const gr_vid n = p->sub->n_local;
  const size_t words = gr_bitmap_words(n);
  /* Between devices with the visited bits whole (dobfs_visited_whole) the
   * last pull's finds go into them alone, with no union of their own: the
   * bits hold only vertices of this level or earlier ones, which are no
   * parents to a pull (see the top), so they are the next pull's frontier
   * as they are. */
  const bool visited_whole = dobfs_visited_whole(s);
  size_t found_words = words;
  if (s->or_bits) {
    if (!s->owner_asked) {
      /* The same answer on every device (their owner tables are one). */
      if (p->ws->tune.owner_words) GR_CHECK(gr_part_owner_words(p, &s->owner));
      s->owner_asked = true;
    }
    if (s->owner.groups) found_words = (size_t)s->owner.count;
    /* 16 bytes past the words, as dobfs_bitmap's (NCCL). */
    for (int k = 0; k < 2; k++)
      if (!s->found[k].ptr)
        GR_CHECK(gr_buffer_resize(&s->found[k], p->dev, found_words * sizeof(uint32_t) + 16, 0, "dobfs pull's finds"));
    s->found_at ^= 1;
    if (!visited_whole) GR_CHECK(dobfs_bitmap(&s->uni, p, "dobfs frontier bitmap (union)"));
  }
  const size_t ob = (size_t)(s->n_owned ? s->n_owned : 1) * sizeof(gr_vid);
  for (int k = 0; k < 2; k++)
    if (s->cand[k].capacity < ob) GR_CHECK(gr_buffer_resize(&s->cand[k], p->dev, ob, 0, "dobfs pull candidates"));
  const uint32_t *frontier = NULL;
  if (s->whole) {
    /* The last pull's finds, or'ed over the devices by its exchange (into
     * the visited bits, and the union where there is one). */
    frontier = visited_whole ? c->visited : s->uni.ptr;
  } else if (claimed && claimed_visited) {
    /* The last push's claims reached every device's visited bits (its
     * own, and every peer's as the combine settled them), and the bits
     * hold only vertices of this level or earlier ones, which are no
     * parents to a pull (see the top): the bits are the frontier as they
     * are, with no union made in the exchange. */
    frontier = c->visited;
  } else if (p->count == 1 && it->in->size <= (gr_eid)n / 8) {
    /* One device: the input is the frontier, each vertex at depth L once
     * (a push's claims or a pull's finds). Its bits set one by one cost
     * less than a pass over every depth (Kronecker 25: 70 us a pull on an
     * H200) while it holds at most an eighth of the vertices. */
    GR_CHECK(dobfs_bitmap(&s->bits, p, "dobfs frontier bitmap"));
    GR_CHECK(gr_device_memset(p->dev, s->bits.ptr, 0, words * sizeof(uint32_t)));
    GR_CHECK(gr_bitmap_set_ids(p->dev, gr_frontier_items(it->in), it->in->size, s->bits.ptr));
    frontier = s->bits.ptr;
  } else {
    /* Every device knows every vertex of the frontier: on one device and
     * under broadcast exchange by construction; between devices with
     * duplicate-all proxies because the source is seeded on every device
     * and every push's claims went to every device (gr_iter.tell_all, or
     * one routed bitmap of global ids). A vertex of an earlier level that
     * some device claimed again for this depth (its copy there was stale)
     * is marked too; its neighbours are all visited, so no candidate finds
     * it through that mark. */
    if (s->or_bits && it->iteration > 0 && !it->last_told_all)
      return gr_errorf(GR_ERR_INTERNAL, "dobfs: device %d pulls after a level whose claims did not reach every device",
                       p->index);
    GR_CHECK(dobfs_bitmap(&s->bits, p, "dobfs frontier bitmap"));
    frontier = s->bits.ptr;
    /* After a push between devices the exchange left the union of its
     * claims in the bitmap (gr_iter.claim_bits: a device's own claims and
     * its peers', bitmaps or lists, over those of the run's earlier pushes,
     * harmless: see the top): the same marks, with no pass over
     * every depth (4 bytes a vertex; 0.22 ms a run on each of two devices
     * of Kronecker 27, as on one). The pass would miss vertices too: a
     * copy that a routing push claimed, or that arrived settled bare,
     * holds no depth here. */
    if (!claimed) {
      gr_dobfs_ctx dc = {(const gr_svid *)s->depth.ptr, (gr_svid)it->iteration};
      gr_bitmap_args ba = {n, s->bits.ptr, false};
      GR_CHECK(ops->frontier_bits(p->dev, p->ws, &ba, &dc));
    }
  }
  /* Peers may still read the last pull's finds (gr_iter.or_kept), in the
   * other bitmap. */
  uint32_t *found = s->or_bits ? s->found[s->found_at].ptr : NULL;
  if (found) GR_CHECK(gr_device_memset(p->dev, found, 0, found_words * sizeof(uint32_t)));
  const int next = s->cur < 0 ? 0 : 1 - s->cur;
  gr_advance_pull_args pa;
  memset(&pa, 0, sizeof pa);
  pa.g = &p->in;
  pa.frontier_bits = frontier;
  pa.candidates = s->cur < 0 ? s->owned.ptr : s->cand[s->cur].ptr;
  pa.n_candidates = s->cur < 0 ? s->n_owned : s->n_cand;
  pa.out = gr_frontier_items(it->out);
  pa.out_capacity = gr_frontier_capacity(it->out);
  pa.remaining = s->cand[next].ptr;
  pa.remaining_capacity = s->n_owned;
  /* The pull counts the out-degrees of what it finds (owned candidates,
   * each once): on one device for the next level's choices, between
   * devices so that the exchange takes them as the next frontier as they
   * are. */
  pa.next_offsets = p->out.offsets;
  /* Between devices the pull sets its finds' bits itself (the devices or
   * them), and they are whole once it has read its counters (a pull over
   * no candidate reads none: the exchange then drains the stream). */
  if (s->or_bits) {
    pa.found_bits = found;
    pa.found_slots = gr_owner_words_slots(&s->owner);
  }
  GR_CHECK(gr__bfs_ops(p->dev)->pull(p->dev, p->ws, &pa, c));
  s->cur = next;
  s->n_cand = pa.n_remaining;
  it->out->size = pa.n_out;
  it->edges += pa.edges;
  it->out_owned = true;
  it->out_edges = pa.out_edges;
  it->out_max_degree = pa.out_max_degree;
  if (s->or_bits) {
    /* Every device pulls in the same levels, so every one or's. */
    it->or_bits = found;
    it->or_bits_whole = pa.n_candidates > 0;
    /* This bitmap is written again two pulls on, past the next pull's
     * barrier, before which every device drains its stream (its pull
     * reads its counters; one over no candidate has its package drain
     * it). */
    it->or_kept = true;
    it->or_union = visited_whole ? NULL : s->uni.ptr;
    it->or_words = words;
    /* Every device's finds, the union, go into the visited bits as the
     * exchange writes the union: a push after the pulls then claims none
     * of them again (a peer's find has no depth here; such claims went to
     * every device and back to their owners: 5.4 MB a device at one level
     * of Kronecker 27 on two devices), and the bits stay whole, with no
     * pass over the depths before a big push. */
    it->or_also = c->visited;
    it->or_packed = s->owner.groups != NULL;
    s->or_next = true;
  }
  if (p->count == 1) gr_bfs_know(&s->loop, it->iteration + 1, pa.out_edges, pa.out_max_degree);
  return GR_SUCCESS;
}

static gr_status dobfs_iterate(void *slice, gr_part *p, gr_iter *it) {
  gr__dobfs_slice *s = slice;
  gr_vid n = p->sub->n_local;
  gr_status st = GR_SUCCESS;
  gr_eid m_local = 0, m_frontier = 0;
  s->m_total = p->m_global;
  if (it->in_measured) {
    /* Between devices the exchange measured the frontier while building
     * it, and the enactor summed it over the devices. */
    m_frontier = it->global_in_edges;
  } else {
    if (gr_bfs_known(&s->loop, it->iteration)) m_local = s->loop.known_edges;
    else GR_CHECK(gr_frontier_degree_sum(it->in, p->dev, p->ws, &p->out, &m_local));
    /* The first level's input is the source alone, whose out-edges over
     * the devices the reset summed. Later, every device calls the sum, in
     * the same order, whatever it holds (in_measured is the same on every
     * device). */
    if (it->iteration == 0) {
      m_frontier = s->source_global;
    } else {
      st = gr_part_sum(p, m_local, &m_frontier);
      if (st < 0) return st;
    }
  }
  dobfs_decide(s, p, it->global_in, m_frontier);
  s->whole = s->or_next;
  s->or_next = false;
  const bool claimed = s->claimed, claimed_visited = s->claimed_visited;
  s->claimed = s->claimed_visited = false;
  s->m_visited += m_frontier;
  s->prev_frontier = it->global_in;
  const gr_bfs_ctx c = {.depth = (gr_svid *)s->depth.ptr,
                        .pred = s->mark_pred ? (gr_svid *)s->pred.ptr : NULL,
                        .local_to_global = p->local_to_global,
                        .next = (gr_svid)it->iteration + 1,
                        .visited = gr_bfs_visited_bits(&s->visited)};
  if (s->dir == GR_DIRECTION_PULL) {
    it->tag = 'U';
    s->pulled = true;
    /* A pull sets depths, not bits (between devices its finds reach the
     * bits at the next level, above). */
    if (!s->or_bits) s->loop.bits_whole = false;
    /* A pull finds at most its candidates. */
    GR_CHECK(gr_bfs_reserve(it->out, p, s->cur < 0 ? s->n_owned : s->n_cand));
    return dobfs_pull(s, p, it, &c, claimed, claimed_visited);
  }
  it->tag = 'P';
  /* Between devices (duplicate-all proxies) a push's claims go to every
   * device: a routed level's bitmap does already, a list is sent whole to
   * every peer (lists are what is smaller than bitmaps), so that a pull
   * after it marks its frontier with no or-round. */
  it->tell_all = s->or_bits;
  const gr_eid bound = gr_bfs_push_bound(p, it, s->source_edges);
  /* As BFS: between devices the push reserves its output's room once it
   * knows whether it routes. */
  if (p->count == 1) GR_CHECK(gr_bfs_reserve(it->out, p, bound));
  /* A pull sets depths but not the bitmap (a word shared by 32 vertices
   * would cost an atomic per vertex found): the first push after pulls
   * sets it from the depths when its edges' depth tests would read more
   * than that pass (an edge's test past a clear bit reads a 32-byte
   * sector; the pass reads 4 bytes a vertex in order: at least n / 16
   * edges). A smaller push (the tail after the pulls; one device's
   * device-side loop reads depths anyway) tests the depths behind the
   * clear bits. Between devices the pulls' unions were or'ed into the
   * bits (above): nothing to set. */
  const gr_eid push_edges = it->in_measured ? it->in_edges : m_local;
  if (s->pulled && !s->or_bits && c.visited && push_edges >= (gr_eid)n / 16) {
    /* Or'ed into the bits, as in gr_bfs_push_level. */
    gr_bitmap_args ba = {n, c.visited, true};
    GR_CHECK(gr__bfs_ops(p->dev)->visited_bits(p->dev, p->ws, &ba, &c));
    s->loop.bits_whole = true;
  }
  s->pulled = false;
  /* Small frontiers on one GPU: BFS's device-side loop (a frontier small
   * enough for it is far below any switch to pull). */
  GR_CHECK(gr_bfs_loop_run(&s->loop, p, it, &c));
  if (it->levels > 1) {
    /* The loop visited every out-edge of the frontiers it ran. */
    s->m_visited += it->edges - m_frontier;
    s->prev_frontier = it->level_sizes[it->levels - 2];
  }
  if (it->levels > 0) return GR_SUCCESS;
  /* Between devices a pull at the next level (dobfs_pull) takes as its
   * frontier the visited bits where every claim reaches them: this
   * device's push sets the bit of each vertex it claims, and the combine
   * settles every peer's claim against the bits (gr_iter.settled, BFS's
   * without predecessors), copies included. Otherwise the claims' union
   * goes to the frontier bitmap (gr_iter.claim_bits), which the package
   * and the combines set claim by claim (an atomic a claim), and which a
   * routed level writes and ors whole (8 MB on Kronecker 25). */
  const bool visited_whole = dobfs_visited_whole(s);
  if (s->or_bits && !visited_whole) {
    GR_CHECK(dobfs_bitmap(&s->bits, p, "dobfs frontier bitmap"));
    it->claim_bits = s->bits.ptr;
  }
  GR_CHECK(gr_bfs_push_level(p, it, &c, &s->loop, bound));
  if (visited_whole && it->settled != c.visited)
    return gr_errorf(GR_ERR_INTERNAL, "dobfs: device %d's push leaves its peers' claims out of its visited bits",
                     p->index);
  s->claimed = s->or_bits;
  s->claimed_visited = visited_whole;
  /* What arrives for a copy needs only its visited bit, as in BFS: the
   * pulls take their frontiers from the unions above, not from the
   * copies' depths (under broadcast exchange they do: depths kept). */
  it->settle_copies_bare = it->settled != NULL && !p->global_view;
  return GR_SUCCESS;
}

static gr_status dobfs_payload(void *slice, gr_part *p, gr_payload *out) {
  (void)p;
  gr__dobfs_slice *s = slice;
  gr_bfs_payload_fill(out, s->depth.ptr, s->mark_pred ? s->pred.ptr : NULL);
  return GR_SUCCESS;
}

static gr_status dobfs_extract(void *slice, gr_part *p, gr_result *r) {
  gr__dobfs_slice *s = slice;
  GR_CHECK(gr_part_gather_svid(p, s->depth.ptr, r->values));
  if (s->mark_pred && r->preds) GR_CHECK(gr_part_gather_svid(p, s->pred.ptr, r->preds));
  return GR_SUCCESS;
}

#ifdef GR_HAVE_CUDA
/* Its pushes and pulls are BFS's operators (bfs_cuda.cu), its bitmaps its own. */
static gr_status gr__dobfs_preload(gr_device *dev) {
  GR_CHECK(gr__bfs_cuda_preload(dev));
  return gr__dobfs_cuda_preload(dev);
}
#endif

const gr_primitive gr_dobfs_primitive = {
    .name = "dobfs",
    .summary = "direction-optimizing BFS: push or pull per level; depth (and predecessor) of every vertex",
    .proxy = GR_PROXY_ALL,
    .comm = GR_COMM_SELECTIVE,
    .n_vertex_assoc = 1,
    .n_value_assoc = 1,
    .combine = GR_COMBINE_MIN,
    .value_type = GR_VALUE_SVID,
    .needs_source = true,
    .needs_in_edges = true,
    .needs_weights = false,
    .reads_packed_lists = true,
    .device_lists_only = true,
    .state_bytes_per_vertex = {44, 44},
    .init = dobfs_init,
    .release = dobfs_release,
#ifdef GR_HAVE_CUDA
    .preload = gr__dobfs_preload,
#endif
    .reset = dobfs_reset,
    .iterate = dobfs_iterate,
    .converged = NULL,
    .payload = dobfs_payload,
    .extract = dobfs_extract,
    .reference = gr_bfs_reference,
    .validate = gr_bfs_validate,
    .traversed_edges = gr_bfs_traversed_edges,
};
