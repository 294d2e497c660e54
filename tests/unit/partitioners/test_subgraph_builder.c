/* SPDX-License-Identifier: Apache-2.0 */
/* Subgraph builder tests: for both proxy modes and 1..4 parts on generated
 * graphs and karate, the id maps round-trip, owned vertices come first,
 * proxies are exactly the remote neighbours and sit grouped by owner in
 * their peer ranges, owner_local points at the owner's own copy, and every
 * arc (with its weight) lands exactly once across the parts' CSRs and CSCs;
 * a lazy build's parts gather from the graph what a built part holds; an
 * undirected graph without reverse arcs is refused, never half-mapped. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef GR_HAVE_OPENMP
#include <omp.h>
#endif

#include "gr/graph.h"
#include "gr/status.h"
#include "graph_internal.h"
#include "gr/subgraph.h"
#include "part_test.h"
#include "partitioner.h"
#include "subgraph_builder.h"
#include "testutil.h"

static const struct {
  const char *spec; /* NULL: karate */
  bool weighted;
} graphs[] = {
    {"kron:10:8", false},    {"grid2d:20x30", false},         {"uniform:10:4,directed", false},
    {"kron:9:8", true},      {"uniform:9:4,directed", true}, {NULL, false},
};
#define N_GRAPHS ((int)(sizeof graphs / sizeof graphs[0]))

static gr_graph *graph_at(int i) {
  return graphs[i].spec ? pt_gen(graphs[i].spec, graphs[i].weighted) : pt_karate();
}

static gr_subgraph **build_ok(gr_graph *g, const gr_partition *p, gr_proxy_mode proxy, bool needs_in) {
  gr_subgraph **subs = NULL;
  gr_status st = gr_subgraphs_build(&subs, g, p, proxy, needs_in, true);
  ck_assert_msg(st == GR_SUCCESS, "building %d subgraphs: %s", p->parts, gr_error_message());
  ck_assert_ptr_nonnull(subs);
  return subs;
}

/* Arcs gathered from every part's CSR (in = false) or CSC (in = true) in
 * global ids, checking on the way that each row belongs to its part. */
static pt_arc *gather_arcs(gr_subgraph *const *subs, int parts, bool in, uint64_t *count) {
  uint64_t m = 0;
  for (int q = 0; q < parts; q++) m += in ? subs[q]->in.m : subs[q]->out.m;
  pt_arc *a = malloc((m ? m : 1) * sizeof *a);
  ck_assert_ptr_nonnull(a);
  uint64_t k = 0;
  for (int q = 0; q < parts; q++) {
    const gr_subgraph *s = subs[q];
    const gr_csr *c = in ? &s->in : &s->out;
    PT_CHECK((c->n) == (s->n_local));
    PT_CHECK((c->offsets[0]) == (0));
    PT_CHECK((c->offsets[c->n]) == (c->m));
    for (gr_vid r = 0; r < c->n; r++) {
      PT_CHECK((c->offsets[r]) <= (c->offsets[r + 1]));
      if (!gr_subgraph_owns(s, r)) {
        PT_CHECK_MSG(c->offsets[r + 1] == c->offsets[r], "part %d: row %llu of a vertex it does not own is not empty",
                      q, (unsigned long long)r);
        continue;
      }
      for (gr_eid e = c->offsets[r]; e < c->offsets[r + 1]; e++) {
        PT_CHECK((c->indices[e]) < (s->n_local));
        const gr_vid row = gr_subgraph_global(s, r), col = gr_subgraph_global(s, c->indices[e]);
        const gr_weight w = c->weights ? c->weights[e] : 0;
        a[k++] = in ? (pt_arc){col, row, w} : (pt_arc){row, col, w};
      }
    }
  }
  PT_CHECK((k) == (m));
  pt_sort_arcs(a, m);
  *count = m;
  return a;
}

static void expect_same_arcs(const pt_arc *want, uint64_t m_want, const pt_arc *got, uint64_t m_got,
                             const char *what) {
  PT_CHECK_MSG(m_got == m_want, "%s: %llu arcs across the parts, the graph has %llu", what,
                (unsigned long long)m_got, (unsigned long long)m_want);
  for (uint64_t i = 0; i < m_want; i++)
    PT_CHECK_MSG(want[i].src == got[i].src && want[i].dst == got[i].dst && want[i].w == got[i].w,
                  "%s: arc %llu is %llu -> %llu (%g), expected %llu -> %llu (%g)", what, (unsigned long long)i,
                  (unsigned long long)got[i].src, (unsigned long long)got[i].dst, (double)got[i].w,
                  (unsigned long long)want[i].src, (unsigned long long)want[i].dst, (double)want[i].w);
}

static void check_part_common(const gr_subgraph *s, int q, const gr_partition *p, gr_proxy_mode proxy,
                              bool needs_in, bool weighted) {
  ck_assert_int_eq(s->part, q);
  ck_assert_int_eq(s->n_parts, p->parts);
  ck_assert_int_eq(s->proxy, proxy);
  ck_assert_uint_eq(s->n_global, p->n);
  ck_assert_uint_eq(s->n_owned, p->vertices[q]);
  ck_assert(s->owns_arrays);
  ck_assert_ptr_nonnull(s->out.offsets);
  ck_assert(weighted == (s->out.weights != NULL));
  if (needs_in) {
    ck_assert_ptr_nonnull(s->in.offsets);
    ck_assert(weighted == (s->in.weights != NULL));
  } else {
    ck_assert_ptr_null(s->in.offsets);
    ck_assert_ptr_null(s->in.indices);
  }
}

static void check_duplicate_all(gr_subgraph *const *subs, const gr_partition *p) {
  for (int q = 0; q < p->parts; q++) {
    const gr_subgraph *s = subs[q];
    PT_CHECK((s->n_local) == (p->n));
    ck_assert_ptr_null(s->local_to_global);
    ck_assert_ptr_null(s->global_to_local);
    ck_assert_ptr_null(s->owner_local);
    ck_assert_ptr_null(s->peer_begin);
    ck_assert_ptr_nonnull(s->owner);
    PT_CHECK((s->owner) != (p->owner));
    PT_CHECK(memcmp(s->owner, p->owner, (size_t)p->n * sizeof *s->owner) == 0);
    for (gr_vid v = 0; v < p->n; v++) {
      gr_vid l = GR_NO_VERTEX;
      PT_CHECK(gr_subgraph_local(s, v, &l));
      PT_CHECK((l) == (v));
      PT_CHECK((gr_subgraph_global(s, v)) == (v));
    }
  }
}

static void check_duplicate_1hop(gr_graph *g, gr_subgraph *const *subs, const gr_partition *p, bool needs_in) {
  const gr_csr *c = gr_graph_out(g);
  const uint64_t n = p->n;
  const int parts = p->parts;
  char *want = malloc(n ? n : 1);
  ck_assert_ptr_nonnull(want);
  for (int q = 0; q < parts; q++) {
    const gr_subgraph *s = subs[q];
    ck_assert_ptr_nonnull(s->local_to_global);
    ck_assert_ptr_nonnull(s->global_to_local);
    ck_assert_ptr_nonnull(s->owner);
    ck_assert_ptr_nonnull(s->owner_local);
    ck_assert_ptr_nonnull(s->peer_begin);
    /* Maps round-trip both ways; exactly n_local globals are present. */
    for (gr_vid l = 0; l < s->n_local; l++) {
      const gr_vid v = s->local_to_global[l];
      PT_CHECK((v) < (n));
      PT_CHECK((s->global_to_local[v]) == (l));
      PT_CHECK((s->owner[l]) == (p->owner[v]));
    }
    uint64_t present = 0;
    for (gr_vid v = 0; v < n; v++) {
      const gr_vid l = s->global_to_local[v];
      if (l == GR_NO_VERTEX) continue;
      present++;
      PT_CHECK((l) < (s->n_local));
      PT_CHECK((s->local_to_global[l]) == (v));
    }
    PT_CHECK((present) == (s->n_local));
    /* Owned first, ascending; owner_local of an owned vertex is itself. */
    for (gr_vid l = 0; l < s->n_owned; l++) {
      PT_CHECK((s->owner[l]) == (q));
      PT_CHECK((s->owner_local[l]) == (l));
      if (l > 0) PT_CHECK((s->local_to_global[l - 1]) < (s->local_to_global[l]));
    }
    /* Proxies grouped by owner in their peer ranges, ascending within. */
    PT_CHECK((s->peer_begin[0]) == (s->n_owned));
    PT_CHECK((s->peer_begin[parts]) == (s->n_local));
    PT_CHECK((s->peer_begin[q]) == (s->peer_begin[q + 1]));
    for (int j = 0; j < parts; j++) {
      PT_CHECK((s->peer_begin[j]) <= (s->peer_begin[j + 1]));
      for (gr_vid l = s->peer_begin[j]; l < s->peer_begin[j + 1]; l++) {
        PT_CHECK((s->owner[l]) == (j));
        if (l > s->peer_begin[j]) PT_CHECK((s->local_to_global[l - 1]) < (s->local_to_global[l]));
        /* The owner holds the same vertex under owner_local. */
        const gr_subgraph *o = subs[j];
        PT_CHECK((s->owner_local[l]) < (o->n_owned));
        PT_CHECK((o->local_to_global[s->owner_local[l]]) == (s->local_to_global[l]));
      }
    }
    /* The proxies are exactly the remote ends of the part's arcs (out, and
     * in when needs_in). */
    memset(want, 0, n ? n : 1);
    for (uint64_t u = 0; u < n; u++)
      for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) {
        const gr_vid w = c->indices[e];
        if (p->owner[u] == q && p->owner[w] != q) want[w] = 1;
        if (needs_in && p->owner[w] == q && p->owner[u] != q) want[u] = 1;
      }
    uint64_t n_want = 0;
    for (gr_vid v = 0; v < n; v++) {
      if (!want[v]) continue;
      n_want++;
      gr_vid l = GR_NO_VERTEX;
      PT_CHECK_MSG(gr_subgraph_local(s, v, &l) && l >= s->n_owned, "part %d lacks proxy %llu", q,
                    (unsigned long long)v);
    }
    PT_CHECK((n_want) == (s->n_local - s->n_owned));
    /* Over both directions the proxies are what the report counted. */
    if (needs_in || !gr_graph_is_directed(g)) PT_CHECK((s->n_local - s->n_owned) == (p->proxies[q]));
  }
  free(want);
}

static void check_subgraphs(gr_graph *g, const gr_partition *p, gr_subgraph *const *subs, gr_proxy_mode proxy,
                            bool needs_in) {
  const bool weighted = gr_graph_has_weights(g);
  for (int q = 0; q < p->parts; q++) check_part_common(subs[q], q, p, proxy, needs_in, weighted);
  if (proxy == GR_PROXY_ALL) check_duplicate_all(subs, p);
  else check_duplicate_1hop(g, subs, p, needs_in);
  /* Every arc in exactly one CSR (the source's owner) and, with needs_in,
   * in exactly one CSC (the destination's owner). */
  uint64_t m_want = 0, m_got = 0;
  pt_arc *want = pt_graph_arcs(g, &m_want);
  pt_arc *got = gather_arcs(subs, p->parts, false, &m_got);
  expect_same_arcs(want, m_want, got, m_got, "out-edges");
  free(got);
  if (needs_in) {
    got = gather_arcs(subs, p->parts, true, &m_got);
    expect_same_arcs(want, m_want, got, m_got, "in-edges");
    free(got);
  }
  free(want);
}

static void run_case(int graph, gr_proxy_mode proxy) {
  gr_graph *g = graph_at(graph);
  if (!g) return;
  static const gr_partitioner_kind kinds[] = {GR_PART_RANDOM, GR_PART_BIASED, GR_PART_RANGE};
  for (int k = 0; k < 3; k++)
    for (int parts = 1; parts <= 4; parts++)
      for (int needs_in = 0; needs_in <= 1; needs_in++) {
        gr_partition *p = pt_partition(g, kinds[k], parts, 3, 0);
        gr_subgraph **subs = build_ok(g, p, proxy, needs_in);
        check_subgraphs(g, p, subs, proxy, needs_in);
        gr_subgraphs_destroy(&subs, parts);
        ck_assert_ptr_null(subs);
        gr_partition_destroy(&p);
      }
  gr_graph_destroy(&g);
}

/* ---- duplicate-all ------------------------------------------------------------ */

START_TEST(duplicate_all_keeps_global_ids_and_every_arc_once) { run_case(_i, GR_PROXY_ALL); }
END_TEST

/* ---- duplicate-1-hop ---------------------------------------------------------- */

START_TEST(duplicate_1hop_renumbers_owned_then_proxies_by_owner) { run_case(_i, GR_PROXY_1HOP); }
END_TEST

/* A partition whose part 1 owns nothing: its subgraph is empty (1-hop) or
 * all rows empty (duplicate-all), and the others still hold every arc. */
START_TEST(a_part_that_owns_nothing_gets_an_empty_subgraph) {
  gr_graph *g = pt_gen("kron:8:4", true);
  gr_partition *p = pt_partition(g, GR_PART_RANDOM, 3, 1, 0);
  for (gr_vid v = 0; v < p->n; v++)
    if (p->owner[v] == 1) p->owner[v] = 2;
  ck_assert_int_eq(gr_partition_update(p, g), GR_SUCCESS);
  ck_assert_uint_eq(p->vertices[1], 0);
  for (int proxy = 0; proxy <= 1; proxy++) {
    gr_subgraph **subs = build_ok(g, p, (gr_proxy_mode)proxy, true);
    ck_assert_uint_eq(subs[1]->n_owned, 0);
    ck_assert_uint_eq(subs[1]->out.m, 0);
    ck_assert_uint_eq(subs[1]->in.m, 0);
    if (proxy == GR_PROXY_1HOP) {
      ck_assert_uint_eq(subs[1]->n_local, 0);
      /* Nobody holds a proxy owned by part 1. */
      for (int q = 0; q < 3; q++) ck_assert_uint_eq(subs[q]->peer_begin[1], subs[q]->peer_begin[2]);
    }
    uint64_t m = 0, m_want = 0;
    pt_arc *want = pt_graph_arcs(g, &m_want);
    pt_arc *got = gather_arcs(subs, 3, false, &m);
    expect_same_arcs(want, m_want, got, m, "out-edges");
    free(got);
    got = gather_arcs(subs, 3, true, &m);
    expect_same_arcs(want, m_want, got, m, "in-edges");
    free(got);
    free(want);
    gr_subgraphs_destroy(&subs, 3);
  }
  gr_partition_destroy(&p);
  gr_graph_destroy(&g);
}
END_TEST

/* The 1-hop build of an undirected graph finds proxies from the partition's
 * neighbour-part masks, which assume every arc has its reverse. The binary
 * reader refuses graphs that lack one; should one get through anyway, the
 * build must refuse it rather than emit a neighbour without a local id
 * (which sent a BFS read past a device's arrays). The graph here is made
 * directed and then marked undirected by hand. */
START_TEST(a_1hop_build_refuses_an_undirected_graph_without_reverse_arcs) {
  /* Parts (v mod 2): {0, 2} and {1, 3}. Only 0 -> 1 crosses, and without
   * 1 -> 0 no mask tells part 0 that 1 is its neighbour. */
  static const gr_vid arcs[][2] = {{0, 1}, {2, 0}, {1, 3}};
  gr_graph *g = pt_edges(4, arcs, 3, false);
  g->directed = false;
  gr_partition *p = pt_partition(g, GR_PART_STATIC, 2, 1, 0);
  gr_subgraph **subs = NULL;
  ck_assert_int_eq(gr_subgraphs_build(&subs, g, p, GR_PROXY_1HOP, true, true), GR_ERR_BAD_INPUT);
  ck_assert_ptr_null(subs);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "have no reverse arc"));
  /* Built lazily, the parts' lists are read at their upload or
   * materialization, which refuses them then, the part left as it was. */
  ck_assert_int_eq(gr_subgraphs_build_lazy(&subs, g, p, GR_PROXY_1HOP, true, true), GR_SUCCESS);
  ck_assert_int_eq(gr_subgraph_materialize(subs[0]), GR_ERR_BAD_INPUT);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "have no reverse arc"));
  ck_assert(gr_subgraph_lists_deferred(subs[0]));
  ck_assert_ptr_null(subs[0]->out.indices);
  gr_subgraphs_destroy(&subs, 2);
  /* Duplicate-all keeps global ids and needs no proxies: it builds. */
  subs = build_ok(g, p, GR_PROXY_ALL, true);
  gr_subgraphs_destroy(&subs, 2);
  gr_partition_destroy(&p);
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(an_empty_graph_gives_empty_subgraphs) {
  gr_graph *g = pt_edges(0, NULL, 0, false);
  gr_partition *p = pt_partition(g, GR_PART_RANDOM, 2, 1, 0);
  for (int proxy = 0; proxy <= 1; proxy++) {
    gr_subgraph **subs = build_ok(g, p, (gr_proxy_mode)proxy, true);
    for (int q = 0; q < 2; q++) {
      ck_assert_uint_eq(subs[q]->n_local, 0);
      ck_assert_uint_eq(subs[q]->out.m, 0);
      ck_assert_uint_eq(subs[q]->out.offsets[0], 0);
    }
    gr_subgraphs_destroy(&subs, 2);
  }
  gr_partition_destroy(&p);
  gr_graph_destroy(&g);
}
END_TEST

/* ---- determinism -------------------------------------------------------------- */

static void expect_same_csr(const gr_csr *a, const gr_csr *b) {
  ck_assert_uint_eq(a->n, b->n);
  ck_assert_uint_eq(a->m, b->m);
  if (!a->offsets) {
    ck_assert_ptr_null(b->offsets);
    return;
  }
  ck_assert(memcmp(a->offsets, b->offsets, ((size_t)a->n + 1) * sizeof *a->offsets) == 0);
  ck_assert(memcmp(a->indices, b->indices, a->m * sizeof *a->indices) == 0);
  ck_assert((a->weights == NULL) == (b->weights == NULL));
  if (a->weights) ck_assert(memcmp(a->weights, b->weights, a->m * sizeof *a->weights) == 0);
}

/* ---- lists left in the graph ----------------------------------------------------- */

/* One array of a lazy part gathered by gr_subgraph_fill_lists in pieces
 * of `piece` elements (as an upload's staging asks for them: anywhere in
 * a row, across rows and runs), against the built part's array. */
static void expect_gathered(const gr_csr *built, const gr_subgraph *lazy, bool in, bool weights, size_t piece) {
  const size_t es = weights ? sizeof(gr_weight) : sizeof(gr_vid), bytes = (size_t)built->m * es;
  const void *want = weights ? (const void *)built->weights : (const void *)built->indices;
  unsigned char *got = malloc(bytes + 8);
  ck_assert_ptr_nonnull(got);
  memset(got, 0xa5, bytes + 8);
  unsigned long long unmapped = 0;
  gr_subgraph_lists l = gr_subgraph_lists_of(lazy, in, weights, &unmapped);
  for (size_t at = 0; at < bytes; at += piece * es) {
    const size_t len = bytes - at < piece * es ? bytes - at : piece * es;
    gr_subgraph_fill_lists(&l, got + at, at, len);
  }
  ck_assert(bytes == 0 || memcmp(got, want, bytes) == 0);
  for (size_t i = 0; i < 8; i++) ck_assert_uint_eq(got[bytes + i], 0xa5);
  ck_assert_uint_eq(unmapped, 0);
  free(got);
}

/* gr_subgraph_piece, for the host's readers: a built part's piece is a
 * pointer into its array; a lazy part's, gathered into the buffer, holds
 * the same elements, and nothing past the piece is written. */
static void expect_pieces(const gr_subgraph *built, const gr_subgraph *lazy, bool in, bool weights, size_t piece) {
  const gr_csr *c = in ? &built->in : &built->out;
  const size_t es = weights ? sizeof(gr_weight) : sizeof(gr_vid);
  const unsigned char *want = weights ? (const unsigned char *)c->weights : (const unsigned char *)c->indices;
  unsigned char *buf = malloc(piece * es + 8);
  ck_assert_ptr_nonnull(buf);
  for (gr_eid at = 0; at < c->m; at += piece) {
    const gr_eid len = c->m - at < piece ? c->m - at : (gr_eid)piece;
    ck_assert_ptr_eq(gr_subgraph_piece(built, in, weights, at, len, buf), want + (size_t)at * es);
    memset(buf, 0xa5, piece * es + 8);
    ck_assert_ptr_eq(gr_subgraph_piece(lazy, in, weights, at, len, buf), buf);
    ck_assert(memcmp(buf, want + (size_t)at * es, (size_t)len * es) == 0);
    for (size_t i = (size_t)len * es; i < piece * es + 8; i++) ck_assert_uint_eq(buf[i], 0xa5);
  }
  free(buf);
}

/* gr_subgraphs_build_lazy: a part holds the built part's offsets (and id
 * maps) and no lists of its own; gathered from the graph in pieces of any
 * size (1-hop ids converted on the way), and materialized, its ids and
 * weights (CSR and CSC) are the built part's. */
START_TEST(a_lazy_part_gathers_what_a_built_one_holds) {
  static const gr_partitioner_kind kinds[] = {GR_PART_RANDOM, GR_PART_BIASED, GR_PART_RANGE};
  static const size_t pieces[] = {1, 3, 1000, (size_t)1 << 20};
  gr_graph *g = graph_at(_i);
  if (!g) return;
  for (int k = 0; k < 3; k++)
    for (int parts = 1; parts <= 4; parts++)
      for (int needs_in = 0; needs_in <= 1; needs_in++)
        for (int proxy = 0; proxy <= 1; proxy++)
          for (int weights = 0; weights <= 1; weights++) {
            gr_partition *p = pt_partition(g, kinds[k], parts, 3, 0);
            gr_subgraph **a = NULL, **b = NULL;
            ck_assert_int_eq(gr_subgraphs_build(&a, g, p, (gr_proxy_mode)proxy, needs_in, weights), GR_SUCCESS);
            ck_assert_int_eq(gr_subgraphs_build_lazy(&b, g, p, (gr_proxy_mode)proxy, needs_in, weights),
                             GR_SUCCESS);
            for (int q = 0; q < parts; q++) {
              gr_subgraph *x = a[q], *y = b[q];
              ck_assert(gr_subgraph_lists_deferred(y));
              ck_assert(!gr_subgraph_lists_deferred(x));
              ck_assert_uint_eq(y->n_local, x->n_local);
              if (proxy == GR_PROXY_1HOP)
                ck_assert(memcmp(y->local_to_global, x->local_to_global, x->n_local * sizeof(gr_vid)) == 0);
              {
                ck_assert_ptr_null(y->out.indices);
                ck_assert_ptr_null(y->out.weights);
                ck_assert_uint_eq(y->out.m, x->out.m);
                ck_assert(memcmp(y->out.offsets, x->out.offsets, ((size_t)x->out.n + 1) * sizeof(gr_eid)) == 0);
                ck_assert((y->lists_out.weights != NULL) == (x->out.weights != NULL));
                for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++) {
                  expect_gathered(&x->out, y, false, false, pieces[i]);
                  if (x->out.weights) expect_gathered(&x->out, y, false, true, pieces[i]);
                  if (needs_in && x->in.offsets != x->out.offsets) {
                    expect_gathered(&x->in, y, true, false, pieces[i]);
                    if (x->in.weights) expect_gathered(&x->in, y, true, true, pieces[i]);
                  }
                  if (pieces[i] > 1 && pieces[i] < 1000000) {
                    expect_pieces(x, y, false, false, pieces[i]);
                    if (x->out.weights) expect_pieces(x, y, false, true, pieces[i]);
                    if (needs_in && x->in.offsets != x->out.offsets) expect_pieces(x, y, true, false, pieces[i]);
                  }
                }
                /* No weights to read: none gathered either. */
                if (!x->out.weights) ck_assert_ptr_null(gr_subgraph_piece(y, false, true, 0, 0, NULL));
                ck_assert_int_eq(gr_subgraph_materialize(y), GR_SUCCESS);
                ck_assert(!gr_subgraph_lists_deferred(y));
              }
              expect_same_csr(&x->out, &y->out);
              if (needs_in) {
                expect_same_csr(&x->in, &y->in);
                /* An undirected graph's CSC is its CSR, in both. */
                ck_assert((x->in.indices == x->out.indices) == (y->in.indices == y->out.indices));
              }
              ck_assert_int_eq(gr_subgraph_materialize(y), GR_SUCCESS); /* nothing left to do */
            }
            gr_subgraphs_destroy(&a, parts);
            gr_subgraphs_destroy(&b, parts);
            gr_partition_destroy(&p);
          }
  gr_graph_destroy(&g);
}
END_TEST

START_TEST(the_build_is_the_same_for_any_thread_count) {
#ifndef GR_HAVE_OPENMP
  fprintf(stderr, "skip: built without OpenMP, so the builder has one thread\n");
#else
  gr_graph *g = pt_gen("uniform:11:8,directed", true);
  gr_partition *p = pt_partition(g, GR_PART_RANDOM, 3, 1, 0);
  for (int proxy = 0; proxy <= 1; proxy++) {
    omp_set_num_threads(1);
    gr_subgraph **a = build_ok(g, p, (gr_proxy_mode)proxy, true);
    omp_set_num_threads(3);
    gr_subgraph **b = build_ok(g, p, (gr_proxy_mode)proxy, true);
    for (int q = 0; q < 3; q++) {
      ck_assert_uint_eq(a[q]->n_local, b[q]->n_local);
      expect_same_csr(&a[q]->out, &b[q]->out);
      expect_same_csr(&a[q]->in, &b[q]->in);
      if (proxy == GR_PROXY_1HOP) {
        const size_t nl = a[q]->n_local;
        ck_assert(memcmp(a[q]->local_to_global, b[q]->local_to_global, nl * sizeof(gr_vid)) == 0);
        ck_assert(memcmp(a[q]->owner_local, b[q]->owner_local, nl * sizeof(gr_vid)) == 0);
        ck_assert(memcmp(a[q]->peer_begin, b[q]->peer_begin, 4 * sizeof(gr_vid)) == 0);
      }
    }
    gr_subgraphs_destroy(&a, 3);
    gr_subgraphs_destroy(&b, 3);
  }
  gr_partition_destroy(&p);
  gr_graph_destroy(&g);
#endif
}
END_TEST

/* ---- weights -------------------------------------------------------------------- */

/* Built for a primitive that reads no weights, the parts of a weighted
 * graph hold none, and the rest is what a build with them holds. */
START_TEST(a_build_without_weights_leaves_them_out) {
  const char *specs[] = {"kron:9:8", "uniform:9:4,directed"};
  for (int i = 0; i < 2; i++) {
    gr_graph *g = pt_gen(specs[i], true);
    ck_assert(gr_graph_has_weights(g));
    gr_partition *p = pt_partition(g, GR_PART_RANDOM, 3, 1, 0);
    for (int proxy = 0; proxy <= 1; proxy++) {
      gr_subgraph **with = build_ok(g, p, (gr_proxy_mode)proxy, true), **without = NULL;
      ck_assert_int_eq(gr_subgraphs_build(&without, g, p, (gr_proxy_mode)proxy, true, false), GR_SUCCESS);
      for (int q = 0; q < 3; q++)
        for (int dir = 0; dir < 2; dir++) {
          const gr_csr *a = dir ? &with[q]->in : &with[q]->out, *b = dir ? &without[q]->in : &without[q]->out;
          ck_assert_ptr_null(b->weights);
          ck_assert_ptr_nonnull(a->weights);
          ck_assert_uint_eq(a->n, b->n);
          ck_assert_uint_eq(a->m, b->m);
          ck_assert(memcmp(a->offsets, b->offsets, ((size_t)a->n + 1) * sizeof *a->offsets) == 0);
          ck_assert(memcmp(a->indices, b->indices, a->m * sizeof *a->indices) == 0);
        }
      gr_subgraphs_destroy(&with, 3);
      gr_subgraphs_destroy(&without, 3);
    }
    gr_partition_destroy(&p);
    gr_graph_destroy(&g);
  }
}
END_TEST

/* ---- arguments ------------------------------------------------------------------ */

START_TEST(build_rejects_bad_arguments) {
  gr_graph *g = pt_gen("grid2d:4x4", false);
  gr_graph *h = pt_gen("grid2d:4x5", false);
  gr_partition *p = pt_partition(g, GR_PART_RANDOM, 2, 1, 0);
  gr_subgraph sentinel_part;
  gr_subgraph *sentinel = &sentinel_part;
  gr_subgraph **subs = &sentinel;
  ck_assert_int_eq(gr_subgraphs_build(NULL, g, p, GR_PROXY_ALL, false, true), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_subgraphs_build(&subs, NULL, p, GR_PROXY_ALL, false, true), GR_ERR_INVALID_ARG);
  ck_assert_ptr_null(subs);
  ck_assert_int_eq(gr_subgraphs_build(&subs, g, NULL, GR_PROXY_ALL, false, true), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_subgraphs_build(&subs, g, p, (gr_proxy_mode)5, false, true), GR_ERR_INVALID_ARG);
  ck_assert_msg(strstr(gr_error_message(), "proxy mode 5"), "%s", gr_error_message());
  ck_assert_int_eq(gr_subgraphs_build(&subs, h, p, GR_PROXY_1HOP, false, true), GR_ERR_INVALID_ARG);
  ck_assert_msg(strstr(gr_error_message(), "does not fit"), "%s", gr_error_message());
  ck_assert_ptr_null(subs);
  gr_subgraphs_destroy(&subs, 2);
  gr_subgraphs_destroy(NULL, 2);
  gr_partition_destroy(&p);
  gr_graph_destroy(&g);
  gr_graph_destroy(&h);
}
END_TEST

/* ---- allocation failures ------------------------------------------------------ */

/* Fails each allocation of a build in turn: every failure is a clear
 * GR_ERR_HOST_OOM with no output (the ASan build proves nothing leaks). */
START_TEST(every_allocation_failure_is_reported_and_cleaned_up) {
  gr_graph *g = pt_gen("uniform:7:4,directed", true);
  const gr_csr *in = NULL;
  ck_assert_int_eq(gr_graph_in(g, &in), GR_SUCCESS); /* built now, not under the failures */
  gr_partition *p = pt_partition(g, GR_PART_RANDOM, 3, 1, 0);
  for (int proxy = 0; proxy <= 1; proxy++) {
    long k = 0;
    for (;; k++) {
      gr_subgraph **subs = NULL;
      pt_fail_alloc_after(k);
      gr_status st = gr_subgraphs_build(&subs, g, p, (gr_proxy_mode)proxy, true, true);
      pt_fail_alloc_after(-1);
      if (st == GR_SUCCESS) {
        check_subgraphs(g, p, subs, (gr_proxy_mode)proxy, true);
        gr_subgraphs_destroy(&subs, 3);
        break;
      }
      ck_assert_msg(st == GR_ERR_HOST_OOM, "allocation %ld failing: %s (%s)", k, gr_status_name(st),
                    gr_error_message());
      ck_assert_ptr_null(subs);
    }
    ck_assert_msg(k >= 20, "only %ld allocations seen", k);
  }
  gr_partition_destroy(&p);
  gr_graph_destroy(&g);
}
END_TEST

static Suite *builder_suite(void) {
  Suite *s = suite_create("subgraph_builder");
  TCase *tc = tcase_create("arguments");
  tcase_add_test(tc, build_rejects_bad_arguments);
  suite_add_tcase(s, tc);

  tc = tcase_create("duplicate_all");
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, duplicate_all_keeps_global_ids_and_every_arc_once, 0, N_GRAPHS);
  suite_add_tcase(s, tc);

  tc = tcase_create("duplicate_1hop");
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, duplicate_1hop_renumbers_owned_then_proxies_by_owner, 0, N_GRAPHS);
  suite_add_tcase(s, tc);

  tc = tcase_create("edge_cases");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, a_part_that_owns_nothing_gets_an_empty_subgraph);
  tcase_add_test(tc, an_empty_graph_gives_empty_subgraphs);
  tcase_add_test(tc, a_1hop_build_refuses_an_undirected_graph_without_reverse_arcs);
  tcase_add_test(tc, a_build_without_weights_leaves_them_out);
  suite_add_tcase(s, tc);

  tc = tcase_create("lazy_lists");
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, a_lazy_part_gathers_what_a_built_one_holds, 0, N_GRAPHS);
  suite_add_tcase(s, tc);

  tc = tcase_create("determinism");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, the_build_is_the_same_for_any_thread_count);
  suite_add_tcase(s, tc);

  tc = tcase_create("alloc_failure");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, every_allocation_failure_is_reported_and_cleaned_up);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return gr_test_run_suite(builder_suite(), 0); }
