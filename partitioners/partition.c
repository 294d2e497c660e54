/* SPDX-License-Identifier: Apache-2.0 */
/* The partition object: checks the options, dispatches to the partitioner
 * of the requested kind, times it, and computes the quality report (part
 * sizes, edge cut, border vertices, 1-hop proxies) in parallel. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gr/log.h"
#include "gr/util.h"
#include "partition_internal.h"

typedef gr_status (*gr__partition_fn)(int32_t *owner, gr_graph *g, const gr_partition_options *o);

static const struct {
  const char *name;
  gr__partition_fn fill;
} gr__partitioners[] = {
    [GR_PART_RANDOM] = {"random", gr__partition_random},
    [GR_PART_BIASED] = {"biased", gr__partition_biased},
    [GR_PART_METIS] = {"metis", gr__partition_metis},
    [GR_PART_STATIC] = {"static", gr__partition_static},
    [GR_PART_RANGE] = {"range", gr__partition_range},
};
#define GR__N_PARTITIONERS ((int)(sizeof gr__partitioners / sizeof gr__partitioners[0]))

int gr__part_threads(int requested) { return requested > 0 ? requested : gr_host_threads(); }

gr_status gr_partitioner_parse(gr_partitioner_kind *out, const char *name) {
  if (!out || !name) return gr_errorf(GR_ERR_INVALID_ARG, "gr_partitioner_parse: NULL argument");
  for (int k = 0; k < GR__N_PARTITIONERS; k++) {
    if (strcmp(name, gr__partitioners[k].name) == 0) {
      *out = (gr_partitioner_kind)k;
      return GR_SUCCESS;
    }
  }
  return gr_errorf(GR_ERR_INVALID_ARG,
                   "unknown partitioner \"%s\" (expected random, biased, metis, static or range)",
                   name);
}

const char *gr_partitioner_name(gr_partitioner_kind k) {
  return ((int)k >= 0 && (int)k < GR__N_PARTITIONERS) ? gr__partitioners[k].name : "?";
}

static gr_status gr__check_options(const gr_partition_options *o, uint64_t n) {
  if ((int)o->kind < 0 || (int)o->kind >= GR__N_PARTITIONERS)
    return gr_errorf(GR_ERR_INVALID_ARG, "partition: unknown partitioner kind %d", (int)o->kind);
  if (o->parts < 1)
    return gr_errorf(GR_ERR_INVALID_ARG, "partition: %d parts requested; at least 1 is needed",
                     o->parts);
  if (n > 0 && (uint64_t)o->parts > n)
    return gr_errorf(GR_ERR_INVALID_ARG,
                     "partition: %d parts requested for a graph of %llu vertices; at most one part "
                     "per vertex",
                     o->parts, (unsigned long long)n);
  if (!isfinite(o->bias_factor) || o->bias_factor < 0.0)
    return gr_errorf(GR_ERR_INVALID_ARG, "partition: bias factor %g must be finite and >= 0",
                     o->bias_factor);
  if (!isfinite(o->imbalance) || o->imbalance < 1.0)
    return gr_errorf(GR_ERR_INVALID_ARG,
                     "partition: imbalance %g must be finite and >= 1 (max part over the average)",
                     o->imbalance);
  if (o->threads < 0)
    return gr_errorf(GR_ERR_INVALID_ARG, "partition: %d threads requested", o->threads);
  if (o->block > 0 && o->kind != GR_PART_RANDOM)
    return gr_errorf(GR_ERR_INVALID_ARG,
                     "partition: a block of ids (%u) applies to the random partitioner only, not %s",
                     (unsigned)o->block, gr_partitioner_name(o->kind));
  return GR_SUCCESS;
}

/* Per-thread counters, padded apart so threads do not share cache lines. */
enum { GR__Q_VERTICES, GR__Q_EDGES, GR__Q_BORDER, GR__Q_PROXIES, GR__Q_KINDS };

/* The parts of up to 16 as a table of `bits` bits a vertex, 2^shift
 * vertices a word: 1, 2 or 4 bits for up to 2, 4 or 16 parts; NULL above,
 * or without room (the byte table serves). The report reads a random
 * vertex's part once per arc, and a table 8, 4 or 2 times smaller than the
 * byte one stays in the host's last-level cache on graphs whose byte table
 * does not (Kronecker 27: 16.8 MB against 134 MB). Used on undirected
 * graphs (the report's common case). */
static uint64_t *gr__part_packed(const uint8_t *o8, uint64_t n, int parts, int threads, int *bits_out,
                                 unsigned *shift_out) {
  if (parts > 16) return NULL;
  const int bits = parts <= 2 ? 1 : parts <= 4 ? 2 : 4;
  const unsigned shift = bits == 1 ? 6u : bits == 2 ? 5u : 4u; /* log2(64 / bits) */
  const uint64_t per = 1ull << shift, words = (n + per - 1) / per;
  uint64_t *t = NULL;
  if (gr_host_alloc((void **)&t, (size_t)(words ? words : 1) * sizeof *t, "partition parts (packed)") < 0) {
    gr_error_clear(); /* a speed-up only */
    return NULL;
  }
  GR__PART_OMP(parallel for schedule(static) num_threads(threads))
  for (uint64_t w = 0; w < words; w++) {
    uint64_t word = 0;
    const uint64_t v0 = w * per, v1 = v0 + per < n ? v0 + per : n;
    for (uint64_t v = v0; v < v1; v++) word |= (uint64_t)o8[v] << ((v - v0) * (uint64_t)bits);
    t[w] = word;
  }
  *bits_out = bits;
  *shift_out = shift;
  return t;
}

/* The quality report. With up to 64 parts a bitmask per vertex records the
 * other parts it is adjacent to (one pass over the out-arcs sees both ends
 * of each arc, so directed graphs need no in-edges; undirected ones need no
 * atomics); with more parts each vertex scans its out- and in-neighbours,
 * marking the parts seen. */
static gr_status gr__partition_quality(gr_partition *p, gr_graph *g, int threads) {
  gr_status st = GR_SUCCESS;
  uint64_t *count = NULL, *mask = NULL, *seen = NULL, *packed = NULL;
  const gr_csr *out = gr_graph_out(g);
  const gr_csr *in = NULL;
  const uint64_t n = p->n;
  const int parts = p->parts;
  const int32_t *owner = p->owner;
  const bool use_mask = parts <= 64;
  const bool directed = gr_graph_is_directed(g);
  const uint8_t *o8 = p->part8;
  const size_t stride = ((size_t)GR__Q_KINDS * (size_t)parts + 7) / 8 * 8 + 8;
  uint64_t cut = 0, bad = 0;
  gr_vid bad_v = 0;

  GR_CHECK_GOTO(gr_host_calloc((void **)&count, (size_t)threads * stride, sizeof *count, "partition quality"),
                st, cleanup);
  if (use_mask) {
    GR_CHECK_GOTO(gr_host_calloc((void **)&mask, n, sizeof *mask, "partition adjacency masks"), st,
                  cleanup);
  } else {
    if (directed) GR_CHECK_GOTO(gr_graph_in(g, &in), st, cleanup);
    GR_CHECK_GOTO(gr_host_alloc((void **)&seen, (size_t)threads * (size_t)parts * sizeof *seen,
                                "partition quality marks"),
                  st, cleanup);
  }

  GR__PART_OMP(parallel for schedule(static) num_threads(threads) reduction(+ : bad))
  for (uint64_t v = 0; v < n; v++)
    if (owner[v] < 0 || owner[v] >= parts) bad++;
  if (bad > 0) {
    for (uint64_t v = 0; v < n; v++)
      if (owner[v] < 0 || owner[v] >= parts) {
        bad_v = (gr_vid)v;
        break;
      }
    st = gr_errorf(GR_ERR_INTERNAL, "partitioner %s gave vertex %" GR_PRIvid " part %d of %d",
                   gr_partitioner_name(p->kind), bad_v, (int)owner[bad_v], parts);
    goto cleanup;
  }

  /* The common case's loop (below): an undirected graph's masks need no
   * atomics, and up to 64 parts fit the byte table and a mask. */
  const bool fast = use_mask && !directed && o8;
  int bits = 0;
  unsigned shift = 0;
  const double t_pack = gr_time_now();
  if (fast) packed = gr__part_packed(o8, n, parts, threads, &bits, &shift);
  const double t_arcs = gr_time_now();
  const uint64_t lane = (1ull << shift) - 1u, pmask = (1ull << bits) - 1u;
  const gr_eid m_all = out->offsets[n];
  GR__PART_OMP(parallel num_threads(threads) reduction(+ : cut))
  {
    uint64_t *c = count + (size_t)gr__part_thread_id() * stride;
    GR__PART_OMP(for schedule(dynamic, 1024))
    for (uint64_t u = 0; u < n; u++) {
      const int32_t a = owner[u];
      c[GR__Q_VERTICES * parts + a]++;
      c[GR__Q_EDGES * parts + a] += gr_csr_degree(out, (gr_vid)u);
      uint64_t mu = 0;
      const gr_eid e_end = out->offsets[u + 1];
      if (fast) {
        /* Undirected, up to 64 parts: no branch on the owner, whose
         * outcome a random partition makes a coin toss (the mispredicts
         * cost more than the loads); an arc to its own part sets no bit. */
        uint64_t cu = 0;
        for (gr_eid e = out->offsets[u]; e < e_end; e++) {
          /* 16 arcs ahead in the arc array, across rows: most rows of a
           * skewed graph are shorter than that, and a prefetch kept within
           * the row left their reads one at a time. */
          if (e + 16 < m_all) {
            const uint64_t ahead = out->indices[e + 16];
            __builtin_prefetch(packed ? (const void *)&packed[ahead >> shift] : (const void *)&o8[ahead]);
          }
          const uint64_t w = out->indices[e];
          const uint32_t b =
              packed ? (uint32_t)((packed[w >> shift] >> ((w & lane) * (uint64_t)bits)) & pmask) : (uint32_t)o8[w];
          const uint64_t other = b != (uint32_t)a;
          cu += other;
          mu |= other << b;
        }
        cut += cu;
        if (mu) mask[u] = mu;
        continue;
      }
      for (gr_eid e = out->offsets[u]; e < e_end; e++) {
        const gr_vid w = out->indices[e];
        /* Random reads of the owner table: a few arcs ahead in flight. */
        if (o8 && e + 16 < e_end) __builtin_prefetch(&o8[out->indices[e + 16]]);
        const int32_t b = o8 ? (int32_t)o8[w] : owner[w];
        if (b == a) continue;
        cut++;
        if (use_mask) {
          mu |= 1ull << b;
          /* An undirected graph also holds w -> u, so w's own row sets
           * this bit without an atomic on another vertex's mask. */
          if (directed) {
            GR__PART_OMP(atomic update)
            mask[w] |= 1ull << a;
          }
        }
      }
      if (mu && directed) {
        GR__PART_OMP(atomic update)
        mask[u] |= mu;
      } else if (mu) {
        mask[u] = mu;
      }
    }
  }

  const double t_masks = gr_time_now();
  GR__PART_OMP(parallel num_threads(threads))
  {
    const int t = gr__part_thread_id();
    uint64_t *c = count + (size_t)t * stride;
    uint64_t *mark = seen ? seen + (size_t)t * (size_t)parts : NULL;
    if (mark)
      for (int q = 0; q < parts; q++) mark[q] = UINT64_MAX;
    GR__PART_OMP(for schedule(dynamic, 1024))
    for (uint64_t w = 0; w < n; w++) {
      const int32_t a = owner[w];
      if (use_mask) {
        uint64_t m = mask[w];
        if (!m) continue;
        c[GR__Q_BORDER * parts + a]++;
        for (; m; m &= m - 1) c[GR__Q_PROXIES * parts + __builtin_ctzll(m)]++;
        continue;
      }
      /* w is a proxy of every other part it touches, once per part. */
      bool border = false;
      for (int dir = 0; dir < 2; dir++) {
        const gr_csr *cs = dir == 0 ? out : in;
        if (!cs) continue;
        for (gr_eid e = cs->offsets[w]; e < cs->offsets[w + 1]; e++) {
          const int32_t b = owner[cs->indices[e]];
          if (b == a || mark[b] == w) continue;
          mark[b] = w;
          c[GR__Q_PROXIES * parts + b]++;
          border = true;
        }
      }
      c[GR__Q_BORDER * parts + a] += border;
    }
  }

  /* Where the report's time goes, by pass, for hosts whose time cannot be
   * profiled otherwise. */
  gr_log(GR_LOG_TRACE, GR_SUBSYS_PART,
         "report on %d threads: packed table %.3f s (%d bits), arcs %.3f s, masks %.3f s", threads,
         t_arcs - t_pack, bits, t_masks - t_arcs, gr_time_now() - t_masks);
  p->edge_cut = cut;
  p->border_total = p->proxies_total = 0;
  for (int q = 0; q < parts; q++) {
    uint64_t sums[GR__Q_KINDS] = {0};
    for (int t = 0; t < threads; t++)
      for (int k = 0; k < GR__Q_KINDS; k++) sums[k] += count[(size_t)t * stride + (size_t)k * parts + q];
    p->vertices[q] = (gr_vid)sums[GR__Q_VERTICES];
    p->edges[q] = sums[GR__Q_EDGES];
    p->border[q] = (gr_vid)sums[GR__Q_BORDER];
    p->proxies[q] = (gr_vid)sums[GR__Q_PROXIES];
    p->border_total += p->border[q];
    p->proxies_total += p->proxies[q];
  }
  /* Kept for the subgraph builder (see gr_partition.adjacent). */
  p->adjacent = mask;
  mask = NULL;
cleanup:
  free(count);
  free(mask);
  free(seen);
  free(packed);
  return st;
}

/* Everything computed from owner: the byte copy, the quality report and
 * the neighbour-part masks (dropped first, so nothing stale survives a
 * failure). */
static gr_status gr__partition_derive(gr_partition *p, gr_graph *g, int threads) {
  const uint64_t n = p->n;
  free(p->part8);
  free(p->adjacent);
  p->part8 = NULL;
  p->adjacent = NULL;
  if (p->parts <= 255) {
    GR_CHECK(gr_host_alloc((void **)&p->part8, n ? n : 1, "partition owners (bytes)"));
    GR__PART_OMP(parallel for schedule(static) num_threads(threads))
    for (uint64_t v = 0; v < n; v++) p->part8[v] = (uint8_t)p->owner[v];
  }
  gr_status st = gr__partition_quality(p, g, threads);
  if (st < 0) {
    free(p->part8);
    p->part8 = NULL;
  }
  return st;
}

gr_status gr_partition_update(gr_partition *p, gr_graph *g) {
  if (!p || !g) return gr_errorf(GR_ERR_INVALID_ARG, "gr_partition_update: NULL argument");
  if ((uint64_t)p->n != (uint64_t)gr_graph_num_vertices(g))
    return gr_errorf(GR_ERR_INVALID_ARG, "gr_partition_update: a partition of %llu vertices for a graph of %llu",
                     (unsigned long long)p->n, (unsigned long long)gr_graph_num_vertices(g));
  return gr__partition_derive(p, g, gr__part_threads(0));
}

gr_status gr_partition_create(gr_partition **out, gr_graph *g, const gr_partition_options *o) {
  gr_status st = GR_SUCCESS;
  gr_partition *p = NULL;
  const gr_partition_options defaults = GR_PARTITION_OPTIONS_INIT;
  if (!out) return gr_errorf(GR_ERR_INVALID_ARG, "gr_partition_create: output is NULL");
  *out = NULL;
  if (!g) return gr_errorf(GR_ERR_INVALID_ARG, "gr_partition_create: graph is NULL");
  if (!o) o = &defaults;
  const uint64_t n = gr_graph_num_vertices(g);
  GR_CHECK(gr__check_options(o, n));
  const int threads = gr__part_threads(o->threads);
  const size_t parts = (size_t)o->parts;

  GR_CHECK_GOTO(gr_host_calloc((void **)&p, 1, sizeof *p, "partition"), st, cleanup);
  p->kind = o->kind;
  p->parts = o->parts;
  p->block = o->kind == GR_PART_RANDOM ? gr_partition_random_block(n, o->parts, o->block) : 1u;
  p->n = (gr_vid)n;
  p->m = gr_graph_num_arcs(g);
  GR_CHECK_GOTO(gr_host_alloc((void **)&p->owner, n * sizeof *p->owner, "partition owners"), st, cleanup);
  GR_CHECK_GOTO(gr_host_calloc((void **)&p->vertices, parts, sizeof *p->vertices, "partition report"), st,
                cleanup);
  GR_CHECK_GOTO(gr_host_calloc((void **)&p->edges, parts, sizeof *p->edges, "partition report"), st,
                cleanup);
  GR_CHECK_GOTO(gr_host_calloc((void **)&p->border, parts, sizeof *p->border, "partition report"), st,
                cleanup);
  GR_CHECK_GOTO(gr_host_calloc((void **)&p->proxies, parts, sizeof *p->proxies, "partition report"), st,
                cleanup);

  const double t0 = gr_time_now();
  st = gr__partitioners[o->kind].fill(p->owner, g, o);
  p->seconds = gr_time_now() - t0;
  if (st < 0) goto cleanup;
  const double t1 = gr_time_now();
  GR_CHECK_GOTO(gr__partition_derive(p, g, threads), st, cleanup);
  gr_log(GR_LOG_INFO, GR_SUBSYS_PART,
         "partition %s: %d parts of %llu vertices (blocks of %u ids) in %.3f s (report %.3f s), edge cut %llu of %llu "
         "arcs",
         gr_partitioner_name(p->kind), p->parts, (unsigned long long)n, (unsigned)p->block, p->seconds,
         gr_time_now() - t1,
         (unsigned long long)p->edge_cut, (unsigned long long)p->m);
  *out = p;
  p = NULL;
cleanup:
  gr_partition_destroy(&p);
  return st;
}

void gr_partition_destroy(gr_partition **pp) {
  if (!pp || !*pp) return;
  gr_partition *p = *pp;
  free(p->owner);
  free(p->part8);
  free(p->adjacent);
  free(p->vertices);
  free(p->edges);
  free(p->border);
  free(p->proxies);
  free(p);
  *pp = NULL;
}

bool gr_partition_1hop_pays(const gr_partition *p) {
  for (int q = 0; q < p->parts; q++)
    if ((uint64_t)p->vertices[q] + p->proxies[q] > (uint64_t)p->n / 2) return false;
  return true;
}

void gr_partition_print(FILE *f, const gr_partition *p) {
  if (!f || !p) return;
  if (p->block > 1)
    fprintf(f, "partition %s (blocks of %u ids): %d parts, %.3f s\n", gr_partitioner_name(p->kind), (unsigned)p->block,
            p->parts, p->seconds);
  else
    fprintf(f, "partition %s: %d parts, %.3f s\n", gr_partitioner_name(p->kind), p->parts, p->seconds);
  fprintf(f, "  %6s %14s %16s %14s %14s\n", "part", "vertices", "edges", "border", "proxies");
  uint64_t vmax = 0, emax = 0;
  for (int q = 0; q < p->parts; q++) {
    fprintf(f, "  %6d %14llu %16llu %14llu %14llu\n", q, (unsigned long long)p->vertices[q],
            (unsigned long long)p->edges[q], (unsigned long long)p->border[q],
            (unsigned long long)p->proxies[q]);
    if (p->vertices[q] > vmax) vmax = p->vertices[q];
    if (p->edges[q] > emax) emax = p->edges[q];
  }
  fprintf(f, "  %6s %14llu %16llu %14llu %14llu\n", "total", (unsigned long long)p->n,
          (unsigned long long)p->m, (unsigned long long)p->border_total,
          (unsigned long long)p->proxies_total);
  /* Imbalance: the largest part over the average (1.00 is perfect). */
  const double vavg = (double)p->n / p->parts, eavg = (double)p->m / p->parts;
  fprintf(f, "  edge cut %llu of %llu arcs (%.2f%%); imbalance: vertices %.3f, edges %.3f\n",
          (unsigned long long)p->edge_cut, (unsigned long long)p->m,
          p->m ? 100.0 * (double)p->edge_cut / (double)p->m : 0.0, vavg > 0 ? (double)vmax / vavg : 1.0,
          eavg > 0 ? (double)emax / eavg : 1.0);
}
