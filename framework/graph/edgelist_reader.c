/* SPDX-License-Identifier: Apache-2.0 */
/* Plain and SNAP edge lists: "src dst [weight]" lines separated by blanks or
 * commas, '#' and '%' comments. Ids are any 64-bit numbers; they are
 * relabelled to dense ids in ascending order of the original id, through a
 * bitmap with ranks when the ids are compact and a radix sort when not. */
#include <math.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gr/log.h"
#include "gr/util.h"
#include "graph_internal.h"

#define GR__EL_COMMENT "#%"

static const char *gr__el_line_end(const char *p, const char *end) {
  const char *nl = memchr(p, '\n', (size_t)(end - p));
  return nl ? nl : end;
}

/* Splits a line into at most 4 tokens. Returns the token count (5 for more
 * than 4), or -1 for an empty value between commas (message in msg). */
static int gr__el_tokens(const char *p, const char *eol, const char **tok, char *msg,
                         size_t msg_len) {
  int n = 0;
  while (p < eol && gr__is_blank(*p)) p++;
  while (p < eol) {
    if (*p == ',') {
      snprintf(msg, msg_len, "empty value before ','");
      return -1;
    }
    if (n == 4) return 5;
    tok[n++] = p;
    while (p < eol && !gr__is_blank(*p) && *p != ',') p++;
    while (p < eol && gr__is_blank(*p)) p++;
    if (p < eol && *p == ',') {
      p++;
      while (p < eol && gr__is_blank(*p)) p++;
      if (p == eol) {
        snprintf(msg, msg_len, "empty value after the last ','");
        return -1;
      }
    }
  }
  return n;
}

typedef struct gr__el_ctx {
  int columns;
  uint64_t first_line;
  uint64_t *src, *dst;
  gr_weight *w;
} gr__el_ctx;

#define GR__FAIL(...)                    \
  do {                                   \
    snprintf(msg, msg_len, __VA_ARGS__); \
    return GR_ERR_BAD_INPUT;             \
  } while (0)

static gr_status gr__el_count_error(int n, int columns, uint64_t first_line, char *msg,
                                    size_t msg_len) {
  if ((n == 2 || n == 3) && columns)
    GR__FAIL("%d values, but the first edge (line %llu) has %d; a file must not mix 2 and 3 columns",
             n, (unsigned long long)first_line, columns);
  if (n == 5) GR__FAIL("expected 2 or 3 values (source target [weight]), found more than 4");
  GR__FAIL("expected 2 or 3 values (source target [weight]), found %d", n);
}

static gr_status gr__el_id(const char *p, const char *eol, uint64_t *out, char *msg, size_t msg_len) {
  char text[64];
  const char *next;
  int r = gr__scan_u64(p, eol, out, &next);
  if (r == 0) return GR_SUCCESS;
  gr__token_text(text, sizeof text, p, eol);
  if (r == 3) GR__FAIL("negative vertex id %s", text);
  if (r == 2) GR__FAIL("vertex id %s does not fit in 64 bits", text);
  GR__FAIL("'%s' is not a vertex id", text);
}

static gr_status gr__el_entry(const gr__el_ctx *x, uint64_t e, const char *p, const char *eol,
                              char *msg, size_t msg_len) {
  const char *tok[4];
  int n = gr__el_tokens(p, eol, tok, msg, msg_len);
  if (n < 0) return GR_ERR_BAD_INPUT;
  if (n != x->columns) return gr__el_count_error(n, x->columns, x->first_line, msg, msg_len);
  gr_status st = gr__el_id(tok[0], eol, &x->src[e], msg, msg_len);
  if (st < 0) return st;
  st = gr__el_id(tok[1], eol, &x->dst[e], msg, msg_len);
  if (st < 0) return st;
  if (n == 3) {
    double v;
    const char *next;
    int r = gr__scan_value(tok[2], eol, false, &v, &next);
    if (r || fabs(v) > FLT_MAX) {
      char text[64];
      gr__token_text(text, sizeof text, tok[2], eol);
      if (r == 1) GR__FAIL("weight '%s' is not a number", text);
      GR__FAIL("weight %s does not fit a 32-bit float", text);
    }
    if (x->w) x->w[e] = (gr_weight)v;
  }
  return GR_SUCCESS;
}

/* --- relabelling ------------------------------------------------------------ */

static inline unsigned gr__popcount(uint64_t x) { return (unsigned)__builtin_popcountll(x); }

/* Stable LSD radix sort of 64-bit keys, 8 bits a pass, skipping the passes
 * where every key has the same byte. Parallel over contiguous blocks. */
static gr_status gr__radix_sort_u64(uint64_t *a, size_t n, int threads) {
  gr_status st = GR_SUCCESS;
  uint64_t *tmp = NULL, *hist = NULL;
  int T = threads < 1 ? 1 : (threads > 64 ? 64 : threads);
  GR_CHECK_GOTO(gr_host_alloc((void **)&tmp, n * sizeof *tmp, "vertex id sort"), st, cleanup);
  GR_CHECK_GOTO(gr_host_calloc((void **)&hist, (size_t)T * 256, sizeof *hist, "vertex id sort"), st, cleanup);
  uint64_t *from = a, *to = tmp;
  for (int shift = 0; shift < 64; shift += 8) {
    memset(hist, 0, (size_t)T * 256 * sizeof *hist);
    GR__OMP(parallel for num_threads(T) schedule(static, 1))
    for (int t = 0; t < T; t++) {
      const size_t lo = (size_t)gr__part(n, (uint64_t)t, (uint64_t)T), hi = (size_t)gr__part(n, (uint64_t)t + 1, (uint64_t)T);
      uint64_t *h = hist + (size_t)t * 256;
      for (size_t i = lo; i < hi; i++) h[(from[i] >> shift) & 255]++;
    }
    bool trivial = false;
    for (int b = 0; b < 256 && !trivial; b++) {
      uint64_t s = 0;
      for (int t = 0; t < T; t++) s += hist[(size_t)t * 256 + (size_t)b];
      trivial = s == n;
    }
    if (trivial) continue;
    uint64_t sum = 0;
    for (int b = 0; b < 256; b++)
      for (int t = 0; t < T; t++) {
        uint64_t c = hist[(size_t)t * 256 + (size_t)b];
        hist[(size_t)t * 256 + (size_t)b] = sum;
        sum += c;
      }
    GR__OMP(parallel for num_threads(T) schedule(static, 1))
    for (int t = 0; t < T; t++) {
      const size_t lo = (size_t)gr__part(n, (uint64_t)t, (uint64_t)T), hi = (size_t)gr__part(n, (uint64_t)t + 1, (uint64_t)T);
      uint64_t *h = hist + (size_t)t * 256;
      for (size_t i = lo; i < hi; i++) to[h[(from[i] >> shift) & 255]++] = from[i];
    }
    uint64_t *x = from;
    from = to;
    to = x;
  }
  if (from != a) memcpy(a, from, n * sizeof *a);
cleanup:
  free(tmp);
  free(hist);
  return st;
}

static gr_status gr__too_many_vertices(const char *path, uint64_t n) {
  return n <= GR_MAX_VERTICES ? GR_SUCCESS : gr__vertex_limit_error(path, n);
}

/* Compact ids: a bitmap of the ids present and the number of set bits
 * before each word give every id its rank in O(1). */
static gr_status gr__relabel_bitmap(gr_coo *coo, const uint64_t *s64, const uint64_t *d64,
                                    uint64_t m, uint64_t max_id, int threads, const char *path) {
  gr_status st = GR_SUCCESS;
  uint64_t *bits = NULL, *rank = NULL;
  const size_t words = (size_t)(max_id / 64) + 1;
  GR_CHECK_GOTO(gr_host_calloc((void **)&bits, words, sizeof *bits, "vertex id bitmap"), st, cleanup);
  GR_CHECK_GOTO(gr_host_alloc((void **)&rank, (words + 1) * sizeof *rank, "vertex id ranks"), st, cleanup);
  GR__OMP(parallel for num_threads(threads))
  for (uint64_t e = 0; e < m; e++) {
    GR__OMP(atomic)
    bits[s64[e] >> 6] |= 1ull << (s64[e] & 63);
    GR__OMP(atomic)
    bits[d64[e] >> 6] |= 1ull << (d64[e] & 63);
  }
  GR__OMP(parallel for num_threads(threads))
  for (size_t k = 0; k < words; k++) rank[k] = gr__popcount(bits[k]);
  rank[words] = 0;
  const uint64_t n = gr_prefix_sum_u64(rank, words + 1);
  GR_CHECK_GOTO(gr__too_many_vertices(path, n), st, cleanup);
  GR_CHECK_GOTO(gr_host_alloc((void **)&coo->orig_ids, n * sizeof(uint64_t), "original vertex ids"), st, cleanup);
  GR__OMP(parallel for num_threads(threads) schedule(static, 4096))
  for (size_t k = 0; k < words; k++) {
    uint64_t b = bits[k], at = rank[k];
    while (b) {
      coo->orig_ids[at++] = (uint64_t)k * 64 + (uint64_t)__builtin_ctzll(b);
      b &= b - 1;
    }
  }
  GR__OMP(parallel for num_threads(threads))
  for (uint64_t e = 0; e < m; e++) {
    uint64_t s = s64[e], d = d64[e];
    coo->src[e] = (gr_vid)(rank[s >> 6] + gr__popcount(bits[s >> 6] & ((1ull << (s & 63)) - 1)));
    coo->dst[e] = (gr_vid)(rank[d >> 6] + gr__popcount(bits[d >> 6] & ((1ull << (d & 63)) - 1)));
  }
  coo->n = n;
cleanup:
  free(bits);
  free(rank);
  return st;
}

static inline uint64_t gr__find_id(const uint64_t *ids, uint64_t n, uint64_t id) {
  uint64_t lo = 0, hi = n;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (ids[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Sparse ids: sort all endpoints, keep the distinct ones, binary search. */
static gr_status gr__relabel_sort(gr_coo *coo, const uint64_t *s64, const uint64_t *d64,
                                  uint64_t m, int threads, const char *path) {
  gr_status st = GR_SUCCESS;
  uint64_t *all = NULL;
  if (m > SIZE_MAX / 2 / sizeof(uint64_t))
    return gr_errorf(GR_ERR_HOST_OOM, "%s: too many edges to relabel on this host", path);
  GR_CHECK_GOTO(gr_host_alloc((void **)&all, (size_t)m * 2 * sizeof *all, "vertex id relabelling"), st, cleanup);
  memcpy(all, s64, (size_t)m * sizeof *all);
  memcpy(all + m, d64, (size_t)m * sizeof *all);
  GR_CHECK_GOTO(gr__radix_sort_u64(all, (size_t)m * 2, threads), st, cleanup);
  uint64_t n = 0;
  for (uint64_t i = 0; i < 2 * m; i++)
    if (i == 0 || all[i] != all[n - 1]) all[n++] = all[i];
  GR_CHECK_GOTO(gr__too_many_vertices(path, n), st, cleanup);
  GR_CHECK_GOTO(gr_host_realloc((void **)&all, n * sizeof *all, "original vertex ids"), st, cleanup);
  GR__OMP(parallel for num_threads(threads))
  for (uint64_t e = 0; e < m; e++) {
    coo->src[e] = (gr_vid)gr__find_id(all, n, s64[e]);
    coo->dst[e] = (gr_vid)gr__find_id(all, n, d64[e]);
  }
  coo->orig_ids = all;
  coo->n = n;
  all = NULL;
cleanup:
  free(all);
  return st;
}

/* Drops the map when it is the identity (ids 0..n-1) or shifted by one
 * (ids 1..n): the id base then says everything. */
static void gr__relabel_simplify(gr_coo *coo, int threads) {
  const uint64_t n = coo->n, *ids = coo->orig_ids;
  if (!ids) return;
  int base = n > 0 && ids[0] == 1 ? 1 : 0;
  uint64_t off = 0;
  GR__OMP(parallel for num_threads(threads) reduction(+ : off))
  for (uint64_t i = 0; i < n; i++) off += ids[i] != i + (uint64_t)base;
  if (off) return;
  free(coo->orig_ids);
  coo->orig_ids = NULL;
  coo->id_base = base;
}

static gr_status gr__relabel(gr_coo *coo, const uint64_t *s64, const uint64_t *d64, uint64_t m,
                             int threads, const char *path) {
  uint64_t max_id = 0;
  GR__OMP(parallel for num_threads(threads) reduction(max : max_id))
  for (uint64_t e = 0; e < m; e++) {
    uint64_t x = s64[e] > d64[e] ? s64[e] : d64[e];
    if (x > max_id) max_id = x;
  }
  /* The bitmap costs max_id / 8 bytes: take it while that is at most about
   * as much as the edge list itself. */
  if (max_id / 8 <= 16 * m + ((uint64_t)8 << 20))
    GR_CHECK(gr__relabel_bitmap(coo, s64, d64, m, max_id, threads, path));
  else {
    gr_log(GR_LOG_INFO, GR_SUBSYS_GRAPH, "%s: sparse vertex ids (largest %llu): relabelling by sort",
           path, (unsigned long long)max_id);
    GR_CHECK(gr__relabel_sort(coo, s64, d64, m, threads, path));
  }
  gr__relabel_simplify(coo, threads);
  return GR_SUCCESS;
}

/* --- the reader -------------------------------------------------------------- */

/* Finds the first data line and its column count (2 or 3). */
static gr_status gr__el_first(const char *path, const char *body, size_t len, uint64_t first_line,
                              int *columns, uint64_t *line_out) {
  const char *end = body + len;
  uint64_t line = first_line;
  for (const char *p = body; p < end; line++) {
    const char *eol = gr__el_line_end(p, end);
    if (gr__is_data_line(p, eol, GR__EL_COMMENT)) {
      const char *tok[4];
      char msg[128];
      int n = gr__el_tokens(p, eol, tok, msg, sizeof msg);
      if (n < 0) return gr_errorf(GR_ERR_BAD_INPUT, "%s:%llu: %s", path, (unsigned long long)line, msg);
      if (n != 2 && n != 3) {
        gr__el_count_error(n, 0, 0, msg, sizeof msg);
        return gr_errorf(GR_ERR_BAD_INPUT, "%s:%llu: %s", path, (unsigned long long)line, msg);
      }
      *columns = n;
      *line_out = line;
      return GR_SUCCESS;
    }
    p = eol + 1;
  }
  return gr_errorf(GR_ERR_BAD_INPUT, "%s has no edges (only comments and blank lines)", path);
}

gr_status gr__edgelist_parse(gr_coo *out, const char *path, const char *data, size_t len,
                             bool want_weights, int threads, gr__progress *prog) {
  gr_status st = GR_SUCCESS;
  gr__chunks ch = GR__CHUNKS_INIT;
  gr__chunk_error *errs = NULL;
  uint64_t *s64 = NULL, *d64 = NULL;
  gr_coo coo = GR_COO_INIT;
  /* A UTF-8 byte order mark is not part of the first id. */
  if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3)) {
    data += 3;
    len -= 3;
  }
  gr__el_ctx x = {0, 0, NULL, NULL, NULL};
  GR_CHECK_GOTO(gr__el_first(path, data, len, 1, &x.columns, &x.first_line), st, cleanup);
  const bool weights = want_weights && x.columns == 3;
  GR_CHECK_GOTO(gr__chunks_split(&ch, data, len, GR__EL_COMMENT, 1, threads), st, cleanup);
  const uint64_t m = ch.total_entries;
  /* The 64-bit ids read first count as a second edge list. */
  GR_CHECK_GOTO(gr__check_host_memory(path, 0, m > UINT64_MAX / 3 ? UINT64_MAX : 3 * m, m, weights),
                st, cleanup);
  GR_CHECK_GOTO(gr_host_alloc((void **)&s64, (size_t)m * sizeof *s64, "edge list sources"), st, cleanup);
  GR_CHECK_GOTO(gr_host_alloc((void **)&d64, (size_t)m * sizeof *d64, "edge list targets"), st, cleanup);
  GR_CHECK_GOTO(gr_coo_reserve(&coo, m, weights), st, cleanup);
  GR_CHECK_GOTO(gr_host_calloc((void **)&errs, ch.count, sizeof *errs, "parse errors"), st, cleanup);
  x.src = s64;
  x.dst = d64;
  x.w = coo.w;
  uint64_t done = 0;
  GR__OMP(parallel for schedule(dynamic, 1) num_threads(threads))
  for (size_t k = 0; k < ch.count; k++) {
    const char *p = data + ch.begin[k], *e = data + ch.end[k];
    uint64_t entry = ch.first_entry[k], line = ch.first_line[k];
    while (p < e) {
      const char *eol = gr__el_line_end(p, e);
      if (gr__is_data_line(p, eol, GR__EL_COMMENT)) {
        gr_status r = gr__el_entry(&x, entry, p, eol, errs[k].message, sizeof errs[k].message);
        if (r < 0) {
          errs[k].status = r;
          errs[k].line = line;
          break;
        }
        entry++;
      }
      line++;
      p = eol + 1;
    }
    uint64_t now;
    GR__OMP(atomic capture)
    now = done += ch.end[k] - ch.begin[k];
    if (gr__thread_id() == 0) gr__progress_update(prog, 0.4 + 0.25 * (double)now / (double)(len + 1));
  }
  GR_CHECK_GOTO(gr__chunk_errors_report(errs, ch.count, path), st, cleanup);
  GR_CHECK_GOTO(gr__relabel(&coo, s64, d64, m, threads, path), st, cleanup);
  gr__progress_update(prog, 0.7);
  coo.m = m;
  coo.symmetric = false;
  gr_coo_free(out);
  *out = coo;
  coo = (gr_coo)GR_COO_INIT;
cleanup:
  gr_coo_free(&coo);
  gr__chunks_free(&ch);
  free(errs);
  free(s64);
  free(d64);
  return st;
}
