/* SPDX-License-Identifier: Apache-2.0 */
/* COO -> CSR in parallel, without a global sort or atomics: arcs (both
 * directions of undirected entries) are staged by buckets of rows, each
 * bucket is counted and placed by row, each row is sorted by (neighbour,
 * weight), and duplicates go in a compaction pass. Also the transpose
 * (CSC) and the host memory check made before every build. */
#include <stdlib.h>
#include <string.h>

#include "gr/log.h"
#include "gr/util.h"
#include "graph_internal.h"

static uint64_t gr__sat_mul(uint64_t a, uint64_t b) {
  return (b != 0 && a > UINT64_MAX / b) ? UINT64_MAX : a * b;
}
static uint64_t gr__sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

gr_status gr__check_host_memory(const char *what, uint64_t n, uint64_t coo_entries, uint64_t arcs,
                                bool weights) {
  /* The build peaks twice: edge list plus staged arcs, then staged arcs
   * plus the CSR (see gr__scatter). */
  const uint64_t wb = weights ? sizeof(gr_weight) : 0;
  const uint64_t coo = gr__sat_mul(coo_entries, 2 * sizeof(gr_vid) + wb);
  const uint64_t staged = gr__sat_mul(arcs, 2 * sizeof(gr_vid) + wb);
  const uint64_t csr = gr__sat_add(gr__sat_mul(gr__sat_add(n, 1), sizeof(gr_eid)),
                                   gr__sat_mul(arcs, sizeof(gr_vid) + wb));
  const uint64_t need = gr__sat_add(staged, coo > csr ? coo : csr);
  const uint64_t host = gr_host_memory_bytes();
  if (need <= SIZE_MAX && (host == 0 || need <= host)) return GR_SUCCESS;
  char nb[32], hb[32];
  if (need == UINT64_MAX)
    return gr_errorf(GR_ERR_HOST_OOM,
                     "%s: the graph (%llu vertices, %llu entries) needs more than 2^64 bytes of "
                     "host memory",
                     what, (unsigned long long)n, (unsigned long long)coo_entries);
  return gr_errorf(GR_ERR_HOST_OOM,
                   "%s: the graph (%llu vertices, %llu entries) needs %llu bytes (%s) of host "
                   "memory, but this host has %s",
                   what, (unsigned long long)n, (unsigned long long)coo_entries,
                   (unsigned long long)need, gr_format_bytes(nb, sizeof nb, need),
                   gr_format_bytes(hb, sizeof hb, host));
}

/* --- per-row sort ------------------------------------------------------------ */

/* Weights order by an integer key: equal floats give equal keys and NaNs
 * still sort somewhere definite, so the order never depends on the
 * scatter's (thread-dependent) order. */
static inline uint32_t gr__wkey(const gr_weight *w, size_t i) {
  uint32_t b;
  memcpy(&b, &w[i], sizeof b);
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

static inline bool gr__lt(const gr_vid *v, const gr_weight *w, size_t i, gr_vid pv, uint32_t pk) {
  return v[i] < pv || (w && v[i] == pv && gr__wkey(w, i) < pk);
}
static inline bool gr__gt(const gr_vid *v, const gr_weight *w, size_t i, gr_vid pv, uint32_t pk) {
  return v[i] > pv || (w && v[i] == pv && gr__wkey(w, i) > pk);
}
static inline void gr__swap(gr_vid *v, gr_weight *w, size_t i, size_t j) {
  gr_vid t = v[i];
  v[i] = v[j];
  v[j] = t;
  if (w) {
    gr_weight x = w[i];
    w[i] = w[j];
    w[j] = x;
  }
}
static inline uint32_t gr__key_at(const gr_weight *w, size_t i) { return w ? gr__wkey(w, i) : 0; }

static void gr__insertion_sort(gr_vid *v, gr_weight *w, size_t n) {
  for (size_t i = 1; i < n; i++) {
    gr_vid x = v[i];
    gr_weight y = w ? w[i] : 0;
    uint32_t k = gr__key_at(w, i);
    size_t j = i;
    while (j > 0 && gr__gt(v, w, j - 1, x, k)) {
      v[j] = v[j - 1];
      if (w) w[j] = w[j - 1];
      j--;
    }
    v[j] = x;
    if (w) w[j] = y;
  }
}

static void gr__sift_down(gr_vid *v, gr_weight *w, size_t root, size_t n) {
  for (;;) {
    size_t c = 2 * root + 1;
    if (c >= n) return;
    if (c + 1 < n && gr__lt(v, w, c, v[c + 1], gr__key_at(w, c + 1))) c++;
    if (!gr__lt(v, w, root, v[c], gr__key_at(w, c))) return;
    gr__swap(v, w, root, c);
    root = c;
  }
}

static void gr__heap_sort(gr_vid *v, gr_weight *w, size_t n) {
  for (size_t i = n / 2; i-- > 0;) gr__sift_down(v, w, i, n);
  for (size_t end = n; end-- > 1;) {
    gr__swap(v, w, 0, end);
    gr__sift_down(v, w, 0, end);
  }
}

/* Introsort: quicksort with a median-of-three pivot kept at the middle
 * (so Hoare's partition stays in bounds), heapsort past the depth limit. */
static void gr__intro_sort(gr_vid *v, gr_weight *w, size_t n, int depth) {
  while (n > 24) {
    if (depth-- == 0) {
      gr__heap_sort(v, w, n);
      return;
    }
    size_t mid = n / 2;
    if (gr__lt(v, w, mid, v[0], gr__key_at(w, 0))) gr__swap(v, w, mid, 0);
    if (gr__lt(v, w, n - 1, v[mid], gr__key_at(w, mid))) {
      gr__swap(v, w, n - 1, mid);
      if (gr__lt(v, w, mid, v[0], gr__key_at(w, 0))) gr__swap(v, w, mid, 0);
    }
    const gr_vid pv = v[mid];
    const uint32_t pk = gr__key_at(w, mid);
    size_t i = 0, j = n - 1;
    for (;;) {
      while (gr__lt(v, w, i, pv, pk)) i++;
      while (gr__gt(v, w, j, pv, pk)) j--;
      if (i >= j) break;
      gr__swap(v, w, i, j);
      i++;
      j--;
    }
    /* [0, j] and [j + 1, n): recurse into the smaller, loop on the larger. */
    size_t left = j + 1, right = n - left;
    if (left < right) {
      gr__intro_sort(v, w, left, depth);
      v += left;
      if (w) w += left;
      n = right;
    } else {
      gr__intro_sort(v + left, w ? w + left : NULL, right, depth);
      n = left;
    }
  }
  gr__insertion_sort(v, w, n);
}

/* Rows without weights sort plain ids: the same introsort without the
 * weight tie-break, and an LSD radix sort (8-bit digits, constant bytes
 * skipped) for long rows, which dominate in skewed graphs. */
static void gr__vid_insertion_sort(gr_vid *v, size_t n) {
  for (size_t i = 1; i < n; i++) {
    gr_vid x = v[i];
    size_t j = i;
    while (j > 0 && v[j - 1] > x) {
      v[j] = v[j - 1];
      j--;
    }
    v[j] = x;
  }
}

static void gr__vid_intro_sort(gr_vid *v, size_t n, int depth) {
  while (n > 24) {
    if (depth-- == 0) {
      gr__heap_sort(v, NULL, n);
      return;
    }
    size_t mid = n / 2;
    gr_vid t;
    if (v[mid] < v[0]) t = v[mid], v[mid] = v[0], v[0] = t;
    if (v[n - 1] < v[mid]) {
      t = v[n - 1], v[n - 1] = v[mid], v[mid] = t;
      if (v[mid] < v[0]) t = v[mid], v[mid] = v[0], v[0] = t;
    }
    const gr_vid p = v[mid];
    size_t i = 0, j = n - 1;
    for (;;) {
      while (v[i] < p) i++;
      while (v[j] > p) j--;
      if (i >= j) break;
      t = v[i], v[i] = v[j], v[j] = t;
      i++;
      j--;
    }
    size_t left = j + 1, right = n - left;
    if (left < right) {
      gr__vid_intro_sort(v, left, depth);
      v += left;
      n = right;
    } else {
      gr__vid_intro_sort(v + left, right, depth);
      n = left;
    }
  }
  gr__vid_insertion_sort(v, n);
}

static void gr__vid_radix_sort(gr_vid *v, gr_vid *tmp, size_t n) {
  gr_vid diff = 0;
  for (size_t i = 1; i < n; i++) diff |= v[i] ^ v[0];
  gr_vid *from = v, *to = tmp;
  for (unsigned shift = 0; shift < GR_VID_BITS; shift += 8) {
    if (((diff >> shift) & 255u) == 0) continue;
    size_t count[256] = {0};
    for (size_t i = 0; i < n; i++) count[(from[i] >> shift) & 255u]++;
    size_t sum = 0;
    for (int b = 0; b < 256; b++) {
      size_t c = count[b];
      count[b] = sum;
      sum += c;
    }
    for (size_t i = 0; i < n; i++) to[count[(from[i] >> shift) & 255u]++] = from[i];
    gr_vid *x = from;
    from = to;
    to = x;
  }
  if (from != v) memcpy(v, from, n * sizeof *v);
}

/* Rows longer than this use the radix sort when a buffer is at hand. */
#define GR__RADIX_MIN 384

static void gr__sort_row_with(gr_vid *v, gr_weight *w, size_t n, gr_vid *tmp) {
  if (n < 2) return;
  /* Rows often arrive sorted (files written in order): check first. */
  size_t i = 1;
  if (w) {
    while (i < n && !gr__lt(v, w, i, v[i - 1], gr__wkey(w, i - 1))) i++;
  } else {
    while (i < n && v[i] >= v[i - 1]) i++;
  }
  if (i == n) return;
  int depth = 0;
  for (size_t k = n; k > 1; k >>= 1) depth += 2;
  if (w) gr__intro_sort(v, w, n, depth);
  else if (tmp && n >= GR__RADIX_MIN) gr__vid_radix_sort(v, tmp, n);
  else gr__vid_intro_sort(v, n, depth);
}

void gr__sort_row(gr_vid *v, gr_weight *w, size_t n) { gr__sort_row_with(v, w, n, NULL); }

/* --- the build ---------------------------------------------------------------- */

static void gr__sort_rows(gr_csr *c, int threads) {
  const gr_eid *off = c->offsets;
  GR__OMP(parallel num_threads(threads))
  {
    /* One radix buffer per thread, grown to the longest row it meets; when
     * it cannot grow, the row is sorted in place instead. */
    gr_vid *tmp = NULL;
    size_t cap = 0;
    GR__OMP(for schedule(dynamic, 256))
    for (uint64_t u = 0; u < (uint64_t)c->n; u++) {
      const size_t len = (size_t)(off[u + 1] - off[u]);
      if (!c->weights && len >= GR__RADIX_MIN && len > cap) {
        gr_vid *grown = realloc(tmp, len * sizeof *tmp);
        if (grown) {
          tmp = grown;
          cap = len;
        }
      }
      gr__sort_row_with(c->indices + off[u], c->weights ? c->weights + off[u] : NULL, len,
                        len <= cap ? tmp : NULL);
    }
    free(tmp);
  }
}

/* Rows are sorted: keep the first of each run of equal neighbours, which
 * also holds the smallest weight. */
static gr_status gr__drop_duplicates(gr_csr *c, int threads) {
  gr_status st = GR_SUCCESS;
  gr_eid *noff = NULL;
  gr_vid *nidx = NULL;
  gr_weight *nw = NULL;
  const uint64_t n = c->n;
  const gr_eid *off = c->offsets;
  GR_CHECK_GOTO(gr_host_alloc((void **)&noff, (size_t)(n + 1) * sizeof *noff, "CSR offsets"), st, cleanup);
  GR__OMP(parallel for schedule(dynamic, 1024) num_threads(threads))
  for (uint64_t u = 0; u < n; u++) {
    uint64_t k = 0;
    for (gr_eid e = off[u]; e < off[u + 1]; e++) k += e == off[u] || c->indices[e] != c->indices[e - 1];
    noff[u] = k;
  }
  noff[n] = 0;
  const uint64_t m = gr_prefix_sum_u64(noff, (size_t)n + 1);
  if (m == c->m) goto cleanup;
  GR_CHECK_GOTO(gr_host_alloc((void **)&nidx, (size_t)m * sizeof *nidx, "CSR indices"), st, cleanup);
  if (c->weights)
    GR_CHECK_GOTO(gr_host_alloc((void **)&nw, (size_t)m * sizeof *nw, "CSR weights"), st, cleanup);
  GR__OMP(parallel for schedule(dynamic, 1024) num_threads(threads))
  for (uint64_t u = 0; u < n; u++) {
    gr_eid k = noff[u];
    for (gr_eid e = off[u]; e < off[u + 1]; e++) {
      if (e != off[u] && c->indices[e] == c->indices[e - 1]) continue;
      nidx[k] = c->indices[e];
      if (nw) nw[k] = c->weights[e];
      k++;
    }
  }
  free(c->offsets);
  free(c->indices);
  free(c->weights);
  c->offsets = noff;
  c->indices = nidx;
  c->weights = nw;
  c->m = m;
  noff = NULL;
  nidx = NULL;
  nw = NULL;
cleanup:
  free(noff);
  free(nidx);
  free(nw);
  return st;
}

static gr_eid gr__count_self_loops(const gr_csr *c, int threads) {
  gr_eid loops = 0;
  GR__OMP(parallel for schedule(dynamic, 1024) num_threads(threads) reduction(+ : loops))
  for (uint64_t u = 0; u < (uint64_t)c->n; u++) {
    gr_eid lo = c->offsets[u], hi = c->offsets[u + 1];
    while (lo < hi) {
      gr_eid mid = lo + (hi - lo) / 2;
      if (c->indices[mid] < (gr_vid)u) lo = mid + 1;
      else hi = mid;
    }
    for (gr_eid e = lo; e < c->offsets[u + 1] && c->indices[e] == (gr_vid)u; e++) loops++;
  }
  return loops;
}

/* The arcs to place: entries e in [0, m) stand for the arc a -> b with
 * a = row[e], b = col[e] (an edge list), or, for a transpose, a = col[e]
 * and b = the row of e in `offsets`. `both` adds b -> a for entries with
 * a != b; `drop_loops` skips entries with a == b. */
typedef struct gr__arcs {
  uint64_t n, m;
  bool transpose;
  const gr_vid *row, *col;
  const gr_eid *offsets;
  const gr_weight *w;
  bool both, drop_loops;
} gr__arcs;

/* The row of entry e in a CSR, for the start of a block. */
static uint64_t gr__row_of(const gr_eid *offsets, uint64_t n, uint64_t e) {
  uint64_t lo = 0, hi = n;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (offsets[mid + 1] <= e) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Rows go to buckets of 2^shift consecutive rows, at most this many. */
#define GR__BUCKETS_MAX 2048u

/* Scatters the arcs into a CSR (rows not yet sorted) without atomics: each
 * of `blocks` contiguous runs of entries counts its arcs per bucket and
 * copies them, in order, to its own slice of each bucket in a staging
 * area; then each bucket, whose rows fit in cache, is counted and placed
 * by row. Both passes stream through memory. */
static void gr__coo_release(gr_coo *coo) {
  free(coo->src);
  free(coo->dst);
  free(coo->w);
  coo->src = coo->dst = NULL;
  coo->w = NULL;
  coo->m = coo->capacity = 0;
}

/* `consume`, when given, is the edge list the arcs come from: it is freed
 * as soon as the arcs are staged, so that it and the CSR never coexist. */
static gr_status gr__scatter(gr_csr *out, const gr__arcs *a, gr_coo *consume, int threads) {
  gr_status st = GR_SUCCESS;
  gr_csr c = {(gr_vid)a->n, 0, NULL, NULL, NULL, NULL};
  uint64_t *hist = NULL, *bstart = NULL;
  gr_vid *srow = NULL, *scol = NULL;
  gr_weight *sw = NULL;
  const uint64_t n = a->n, m = a->m;
  unsigned shift = 0;
  while ((n >> shift) >= GR__BUCKETS_MAX) shift++;
  const uint64_t buckets = (n >> shift) + 1;
  const uint64_t blocks = (uint64_t)(threads > 0 ? threads : 1);
  GR_CHECK_GOTO(gr_host_calloc((void **)&hist, (size_t)(blocks * buckets), sizeof *hist, "CSR build counts"), st,
                cleanup);
  GR_CHECK_GOTO(gr_host_alloc((void **)&bstart, (size_t)(buckets + 1) * sizeof *bstart, "CSR build counts"), st,
                cleanup);

  uint64_t bad = UINT64_MAX;
  GR__OMP(parallel for num_threads(threads) schedule(static, 1) reduction(min : bad))
  for (uint64_t t = 0; t < blocks; t++) {
    const uint64_t lo = gr__part(m, t, blocks), hi = gr__part(m, t + 1, blocks);
    uint64_t *h = hist + t * buckets;
    uint64_t r = a->transpose && lo < hi ? gr__row_of(a->offsets, n, lo) : 0;
    for (uint64_t e = lo; e < hi; e++) {
      gr_vid x, y;
      if (!a->transpose) {
        x = a->row[e];
        y = a->col[e];
        if ((uint64_t)x >= n || (uint64_t)y >= n) {
          if (e < bad) bad = e;
          break;
        }
      } else {
        while (a->offsets[r + 1] <= e) r++;
        x = a->col[e];
        y = (gr_vid)r;
      }
      if (x == y && a->drop_loops) continue;
      h[x >> shift]++;
      if (a->both && x != y) h[y >> shift]++;
    }
  }
  if (bad != UINT64_MAX) {
    st = gr_errorf(GR_ERR_INVALID_ARG, "edge %llu (%llu -> %llu) names a vertex outside 0..%llu",
                   (unsigned long long)bad, (unsigned long long)a->row[bad],
                   (unsigned long long)a->col[bad], (unsigned long long)(n ? n - 1 : 0));
    goto cleanup;
  }
  /* Bucket-major prefix sum: block t's slice of bucket b follows the
   * slices of the blocks before it. */
  uint64_t arcs = 0;
  for (uint64_t b = 0; b < buckets; b++) {
    bstart[b] = arcs;
    for (uint64_t t = 0; t < blocks; t++) {
      uint64_t k = hist[t * buckets + b];
      hist[t * buckets + b] = arcs;
      arcs += k;
    }
  }
  bstart[buckets] = arcs;
  if (arcs > SIZE_MAX / sizeof(gr_vid) / 2) {
    st = gr_errorf(GR_ERR_HOST_OOM, "%llu arcs do not fit in this host's address space",
                   (unsigned long long)arcs);
    goto cleanup;
  }
  GR_CHECK_GOTO(gr_host_alloc((void **)&srow, (size_t)arcs * sizeof *srow, "CSR build staging"), st, cleanup);
  GR_CHECK_GOTO(gr_host_alloc((void **)&scol, (size_t)arcs * sizeof *scol, "CSR build staging"), st, cleanup);
  if (a->w) GR_CHECK_GOTO(gr_host_alloc((void **)&sw, (size_t)arcs * sizeof *sw, "CSR build staging"), st, cleanup);
  GR__OMP(parallel for num_threads(threads) schedule(static, 1))
  for (uint64_t t = 0; t < blocks; t++) {
    const uint64_t lo = gr__part(m, t, blocks), hi = gr__part(m, t + 1, blocks);
    uint64_t *h = hist + t * buckets;
    uint64_t r = a->transpose && lo < hi ? gr__row_of(a->offsets, n, lo) : 0;
    for (uint64_t e = lo; e < hi; e++) {
      gr_vid x, y;
      if (!a->transpose) {
        x = a->row[e];
        y = a->col[e];
      } else {
        while (a->offsets[r + 1] <= e) r++;
        x = a->col[e];
        y = (gr_vid)r;
      }
      if (x == y && a->drop_loops) continue;
      uint64_t p = h[x >> shift]++;
      srow[p] = x;
      scol[p] = y;
      if (sw) sw[p] = a->w[e];
      if (a->both && x != y) {
        p = h[y >> shift]++;
        srow[p] = y;
        scol[p] = x;
        if (sw) sw[p] = a->w[e];
      }
    }
  }
  free(hist);
  hist = NULL;
  if (consume) gr__coo_release(consume);

  GR_CHECK_GOTO(gr_host_alloc((void **)&c.offsets, (size_t)(n + 1) * sizeof(gr_eid), "CSR offsets"), st, cleanup);
  GR_CHECK_GOTO(gr_host_alloc((void **)&c.indices, (size_t)arcs * sizeof(gr_vid), "CSR indices"), st, cleanup);
  if (sw) GR_CHECK_GOTO(gr_host_alloc((void **)&c.weights, (size_t)arcs * sizeof(gr_weight), "CSR weights"), st, cleanup);
  const uint64_t span = (uint64_t)1 << shift;
  int failed = 0;
  GR__OMP(parallel num_threads(threads) reduction(+ : failed))
  {
    /* Per-thread cursors for the rows of one bucket (a few KiB). */
    uint64_t *cur = malloc((size_t)span * sizeof *cur);
    if (!cur) failed = 1;
    GR__OMP(for schedule(dynamic, 1))
    for (uint64_t b = 0; b < buckets; b++) {
      if (!cur) continue;
      const uint64_t r0 = b << shift, r1 = r0 + span < n ? r0 + span : n;
      memset(cur, 0, (size_t)span * sizeof *cur);
      for (uint64_t p = bstart[b]; p < bstart[b + 1]; p++) cur[srow[p] - r0]++;
      uint64_t at = bstart[b];
      for (uint64_t r = r0; r < r1; r++) {
        uint64_t k = cur[r - r0];
        c.offsets[r] = at;
        cur[r - r0] = at;
        at += k;
      }
      for (uint64_t p = bstart[b]; p < bstart[b + 1]; p++) {
        uint64_t q = cur[srow[p] - r0]++;
        c.indices[q] = scol[p];
        if (sw) c.weights[q] = sw[p];
      }
    }
    free(cur);
  }
  if (failed) {
    st = gr_errorf(GR_ERR_HOST_OOM, "cannot allocate the CSR build's row cursors");
    goto cleanup;
  }
  c.offsets[n] = arcs;
  c.m = arcs;
  *out = c;
  c = (gr_csr){0, 0, NULL, NULL, NULL, NULL};
cleanup:
  free(hist);
  free(bstart);
  free(srow);
  free(scol);
  free(sw);
  free(c.offsets);
  free(c.indices);
  free(c.weights);
  return st;
}

gr_status gr__csr_build(gr_csr *out, gr_eid *self_loops, gr_coo *coo, bool undirected,
                        bool drop_loops, bool drop_dups, int threads) {
  gr_status st = GR_SUCCESS;
  gr_csr c = {0, 0, NULL, NULL, NULL, NULL};
  const uint64_t m = coo->m;
  if (undirected && m > UINT64_MAX / 2)
    return gr_errorf(GR_ERR_TOO_LARGE, "%llu undirected edges are too many to store as arcs",
                     (unsigned long long)m);
  if (m > 0 && (!coo->src || !coo->dst))
    return gr_errorf(GR_ERR_INVALID_ARG, "edge list of %llu edges has no source or target array",
                     (unsigned long long)m);
  const double t0 = gr_time_now();
  const gr__arcs arcs = {coo->n, m, false, coo->src, coo->dst, NULL, coo->w, undirected, drop_loops};
  GR_CHECK_GOTO(gr__scatter(&c, &arcs, coo, threads), st, cleanup);
  const double t1 = gr_time_now();
  gr__sort_rows(&c, threads);
  const double t2 = gr_time_now();
  if (drop_dups) GR_CHECK_GOTO(gr__drop_duplicates(&c, threads), st, cleanup);
  *self_loops = gr__count_self_loops(&c, threads);
  gr_log(GR_LOG_TRACE, GR_SUBSYS_GRAPH,
         "CSR build of %llu entries: scatter %.3f s, row sort %.3f s, duplicates and loops %.3f s "
         "(%d threads)",
         (unsigned long long)m, t1 - t0, t2 - t1, gr_time_now() - t2, threads);
  *out = c;
  c = (gr_csr){0, 0, NULL, NULL, NULL, NULL};
cleanup:
  free(c.offsets);
  free(c.indices);
  free(c.weights);
  return st;
}

gr_status gr__csr_transpose(gr_csr *out, const gr_csr *in, int threads) {
  gr_csr t = {0, 0, NULL, NULL, NULL, NULL};
  const gr__arcs arcs = {in->n, in->m, true, NULL, in->indices, in->offsets, in->weights, false, false};
  GR_CHECK(gr__scatter(&t, &arcs, NULL, threads));
  gr__sort_rows(&t, threads);
  *out = t;
  return GR_SUCCESS;
}

gr_status gr__csr_to_coo(gr_coo *out, const gr_csr *c, bool lower, int threads) {
  gr_status st = GR_SUCCESS;
  gr_coo coo = GR_COO_INIT;
  uint64_t *at = NULL;
  const uint64_t n = c->n;
  GR_CHECK_GOTO(gr_host_alloc((void **)&at, (size_t)(n + 1) * sizeof *at, "edge list offsets"), st, cleanup);
  GR__OMP(parallel for schedule(dynamic, 1024) num_threads(threads))
  for (uint64_t u = 0; u < n; u++) {
    uint64_t k = 0;
    for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) k += !lower || c->indices[e] <= (gr_vid)u;
    at[u] = k;
  }
  at[n] = 0;
  const uint64_t m = gr_prefix_sum_u64(at, (size_t)n + 1);
  GR_CHECK_GOTO(gr_coo_reserve(&coo, m, c->weights != NULL), st, cleanup);
  GR__OMP(parallel for schedule(dynamic, 1024) num_threads(threads))
  for (uint64_t u = 0; u < n; u++) {
    uint64_t k = at[u];
    for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) {
      if (lower && c->indices[e] > (gr_vid)u) continue;
      coo.src[k] = (gr_vid)u;
      coo.dst[k] = c->indices[e];
      if (coo.w) coo.w[k] = c->weights[e];
      k++;
    }
  }
  coo.n = n;
  coo.m = m;
  coo.symmetric = lower;
  *out = coo;
  coo = (gr_coo)GR_COO_INIT;
cleanup:
  gr_coo_free(&coo);
  free(at);
  return st;
}
