/* SPDX-License-Identifier: Apache-2.0 */
/* Matrix Market coordinate reader: the banner and size line are read
 * serially and checked against what the file can hold, then the entries are
 * parsed in parallel chunks straight into their place in the edge list. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gr/util.h"
#include "graph_internal.h"

typedef enum { GR__MTX_PATTERN, GR__MTX_INTEGER, GR__MTX_REAL } gr__mtx_field;

typedef struct gr__mtx_header {
  gr__mtx_field field;
  bool symmetric;
  uint64_t rows, cols, nnz;
  uint64_t size_line;   /* line number of the size line */
  size_t body;          /* byte offset of the line after it */
} gr__mtx_header;

bool gr__looks_like_mtx(const char *data, size_t len) {
  return len >= 14 && !strncasecmp(data, "%%MatrixMarket", 14);
}

static const char *gr__line_end(const char *p, const char *end) {
  const char *nl = memchr(p, '\n', (size_t)(end - p));
  return nl ? nl : end;
}

/* Copies the next blank-separated word of [*p, eol) into buf ("" at the end). */
static void gr__next_word(const char **p, const char *eol, char *buf, size_t len) {
  const char *q = *p;
  while (q < eol && gr__is_blank(*q)) q++;
  size_t k = 0;
  while (q < eol && !gr__is_blank(*q)) {
    if (k + 1 < len) buf[k++] = *q;
    q++;
  }
  buf[k] = '\0';
  *p = q;
}

static gr_status gr__mtx_banner(gr__mtx_header *h, const char *path, const char *p,
                                const char *eol) {
  char w[5][48];
  for (int k = 0; k < 5; k++) gr__next_word(&p, eol, w[k], sizeof w[k]);
  if (strcasecmp(w[0], "%%MatrixMarket") != 0)
    return gr_errorf(GR_ERR_BAD_INPUT,
                     "%s:1: missing the '%%%%MatrixMarket matrix coordinate ...' header line", path);
  if (!w[4][0])
    return gr_errorf(GR_ERR_BAD_INPUT,
                     "%s:1: incomplete header; expected '%%%%MatrixMarket matrix coordinate "
                     "FIELD SYMMETRY'",
                     path);
  if (strcasecmp(w[1], "matrix") != 0)
    return gr_errorf(GR_ERR_BAD_INPUT, "%s:1: Matrix Market object '%s' is not supported (only 'matrix')",
                     path, w[1]);
  if (!strcasecmp(w[2], "array"))
    return gr_errorf(GR_ERR_BAD_INPUT,
                     "%s:1: Matrix Market 'array' (dense) files are not supported; gr reads "
                     "'coordinate' files",
                     path);
  if (strcasecmp(w[2], "coordinate") != 0)
    return gr_errorf(GR_ERR_BAD_INPUT, "%s:1: unknown Matrix Market format '%s' (expected coordinate)",
                     path, w[2]);
  if (!strcasecmp(w[3], "pattern")) h->field = GR__MTX_PATTERN;
  else if (!strcasecmp(w[3], "integer")) h->field = GR__MTX_INTEGER;
  else if (!strcasecmp(w[3], "real") || !strcasecmp(w[3], "double")) h->field = GR__MTX_REAL;
  else if (!strcasecmp(w[3], "complex"))
    return gr_errorf(GR_ERR_BAD_INPUT,
                     "%s:1: Matrix Market 'complex' files are not supported (pattern, integer or real)",
                     path);
  else
    return gr_errorf(GR_ERR_BAD_INPUT, "%s:1: unknown Matrix Market field '%s'", path, w[3]);
  if (!strcasecmp(w[4], "general")) h->symmetric = false;
  else if (!strcasecmp(w[4], "symmetric")) h->symmetric = true;
  else if (!strcasecmp(w[4], "skew-symmetric") || !strcasecmp(w[4], "hermitian"))
    return gr_errorf(GR_ERR_BAD_INPUT,
                     "%s:1: Matrix Market '%s' files are not supported (general or symmetric)",
                     path, w[4]);
  else
    return gr_errorf(GR_ERR_BAD_INPUT, "%s:1: unknown Matrix Market symmetry '%s'", path, w[4]);
  return GR_SUCCESS;
}

static gr_status gr__mtx_size_line(gr__mtx_header *h, const char *path, uint64_t line,
                                   const char *p, const char *eol) {
  static const char *what[3] = {"rows", "columns", "entries"};
  uint64_t v[3];
  for (int k = 0; k < 3; k++) {
    while (p < eol && gr__is_blank(*p)) p++;
    char tok[64];
    gr__token_text(tok, sizeof tok, p, eol);
    if (p == eol)
      return gr_errorf(GR_ERR_BAD_INPUT,
                       "%s:%llu: the size line must be 'rows columns entries'; %s are missing",
                       path, (unsigned long long)line, what[k]);
    int r = gr__scan_u64(p, eol, &v[k], &p);
    if (r == 3)
      return gr_errorf(GR_ERR_BAD_INPUT, "%s:%llu: negative number of %s '%s'", path,
                       (unsigned long long)line, what[k], tok);
    if (r == 2)
      return gr_errorf(GR_ERR_TOO_LARGE, "%s:%llu: number of %s %s does not fit in 64 bits",
                       path, (unsigned long long)line, what[k], tok);
    if (r)
      return gr_errorf(GR_ERR_BAD_INPUT,
                       "%s:%llu: the size line must be 'rows columns entries', found '%s'", path,
                       (unsigned long long)line, tok);
  }
  while (p < eol && gr__is_blank(*p)) p++;
  if (p < eol) {
    char tok[64];
    gr__token_text(tok, sizeof tok, p, eol);
    return gr_errorf(GR_ERR_BAD_INPUT,
                     "%s:%llu: unexpected '%s' after 'rows columns entries' on the size line", path,
                     (unsigned long long)line, tok);
  }
  h->rows = v[0];
  h->cols = v[1];
  h->nnz = v[2];
  return GR_SUCCESS;
}

static gr_status gr__mtx_header_read(gr__mtx_header *h, const char *path, const char *data,
                                     size_t len) {
  const char *end = data + len, *p = data;
  const char *eol = gr__line_end(p, end);
  GR_CHECK(gr__mtx_banner(h, path, p, eol));
  uint64_t line = 1;
  for (p = eol + 1; p < end; p = eol + 1) {
    line++;
    eol = gr__line_end(p, end);
    if (!gr__is_data_line(p, eol, "%")) continue;
    GR_CHECK(gr__mtx_size_line(h, path, line, p, eol));
    h->size_line = line;
    h->body = eol < end ? (size_t)(eol + 1 - data) : len;
    return GR_SUCCESS;
  }
  return gr_errorf(GR_ERR_BAD_INPUT, "%s:%llu: the file ends before the size line (rows columns entries)",
                   path, (unsigned long long)line);
}

static gr_status gr__mtx_check_vertices(const gr__mtx_header *h, const char *path) {
  uint64_t n = h->rows > h->cols ? h->rows : h->cols;
  if (n <= GR_MAX_VERTICES) return GR_SUCCESS;
  char where[4200];
  snprintf(where, sizeof where, "%s:%llu", path, (unsigned long long)h->size_line);
  return gr__vertex_limit_error(where, n);
}

/* The header's entry count against the entries found (counting allocates
 * nothing sized by the header), then against the host's memory. */
static gr_status gr__mtx_check_entries(const gr__mtx_header *h, const char *path, const gr__chunks *ch,
                                       size_t body_len, bool weights) {
  if (ch->total_entries < h->nnz) {
    /* The shortest entry is "1 1\n" (4 bytes) or "1 1 1\n" (6); the last
     * line may lack its newline. */
    const uint64_t shortest = h->field == GR__MTX_PATTERN ? 4 : 6;
    const uint64_t room = ((uint64_t)body_len + 1) / shortest;
    char why[96];
    if (h->nnz > room)
      snprintf(why, sizeof why, "the rest of the file could hold at most %llu; wrong size line?",
               (unsigned long long)room);
    else
      snprintf(why, sizeof why, "truncated?");
    return gr_errorf(GR_ERR_BAD_INPUT,
                     "%s:%llu: the file ends after %llu of the %llu entries the header declares (%s)",
                     path, (unsigned long long)(h->size_line + ch->total_lines),
                     (unsigned long long)ch->total_entries, (unsigned long long)h->nnz, why);
  }
  const uint64_t n = h->rows > h->cols ? h->rows : h->cols;
  const uint64_t arcs = h->symmetric ? 2 * h->nnz : h->nnz;
  return gr__check_host_memory(path, n, h->nnz, arcs, weights);
}

/* Finds the line of the entry with the given index (0-based) for an error
 * about entries beyond the declared count. */
static uint64_t gr__entry_line(const gr__chunks *c, const char *body, uint64_t entry) {
  for (size_t k = 0; k < c->count; k++) {
    if (entry >= c->first_entry[k] + c->entries[k]) continue;
    uint64_t seen = c->first_entry[k], line = c->first_line[k];
    const char *p = body + c->begin[k], *e = body + c->end[k];
    while (p < e) {
      const char *eol = gr__line_end(p, e);
      if (gr__is_data_line(p, eol, "%")) {
        if (seen == entry) return line;
        seen++;
      }
      line++;
      p = eol + 1;
    }
  }
  return 0;
}

typedef struct gr__mtx_ctx {
  const gr__mtx_header *h;
  gr_vid *src, *dst;
  gr_weight *w;
} gr__mtx_ctx;

#define GR__FAIL(...)                                 \
  do {                                                \
    snprintf(msg, msg_len, __VA_ARGS__);              \
    return GR_ERR_BAD_INPUT;                          \
  } while (0)

static gr_status gr__mtx_index(const char **pp, const char *eol, uint64_t limit, const char *what,
                               uint64_t *out, char *msg, size_t msg_len) {
  const char *p = *pp;
  while (p < eol && gr__is_blank(*p)) p++;
  if (p == eol) GR__FAIL("missing the %s index (an entry is 'row column[ value]')", what);
  const char *start = p;
  int r = gr__scan_u64(p, eol, out, pp);
  if (r) {
    char tok[64];
    gr__token_text(tok, sizeof tok, start, eol);
    if (r == 3) GR__FAIL("negative %s index %s", what, tok);
    if (r == 2) GR__FAIL("%s index %s is outside 1..%llu", what, tok, (unsigned long long)limit);
    GR__FAIL("'%s' is not a %s index", tok, what);
  }
  if (*out == 0 || *out > limit)
    GR__FAIL("%s index %llu is outside 1..%llu", what, (unsigned long long)*out,
             (unsigned long long)limit);
  return GR_SUCCESS;
}

static gr_status gr__mtx_entry(const gr__mtx_ctx *x, uint64_t e, const char *p, const char *eol,
                               char *msg, size_t msg_len) {
  const gr__mtx_header *h = x->h;
  uint64_t i, j;
  gr_status st = gr__mtx_index(&p, eol, h->rows, "row", &i, msg, msg_len);
  if (st < 0) return st;
  st = gr__mtx_index(&p, eol, h->cols, "column", &j, msg, msg_len);
  if (st < 0) return st;
  double v = 0.0;
  if (h->field != GR__MTX_PATTERN) {
    const bool integer = h->field == GR__MTX_INTEGER;
    while (p < eol && gr__is_blank(*p)) p++;
    if (p == eol) GR__FAIL("missing the value (the header says %s)", integer ? "integer" : "real");
    const char *start = p;
    int r = gr__scan_value(p, eol, integer, &v, &p);
    if (r || fabs(v) > FLT_MAX) {
      char tok[64];
      gr__token_text(tok, sizeof tok, start, eol);
      if (r == 1) GR__FAIL("'%s' is not %s", tok, integer ? "an integer" : "a real number");
      GR__FAIL("value %s does not fit a 32-bit float weight", tok);
    }
  }
  while (p < eol && gr__is_blank(*p)) p++;
  if (p < eol) {
    char tok[64];
    gr__token_text(tok, sizeof tok, p, eol);
    GR__FAIL("unexpected '%s' after the entry (a %s entry is '%s')", tok,
             h->field == GR__MTX_PATTERN ? "pattern" : "valued",
             h->field == GR__MTX_PATTERN ? "row column" : "row column value");
  }
  x->src[e] = (gr_vid)(i - 1);
  x->dst[e] = (gr_vid)(j - 1);
  if (x->w) x->w[e] = (gr_weight)v;
  return GR_SUCCESS;
}

gr_status gr__mtx_parse(gr_coo *out, const char *path, const char *data, size_t len,
                        bool want_weights, int threads, gr__progress *prog) {
  gr_status st = GR_SUCCESS;
  gr__mtx_header h;
  gr__chunks ch = GR__CHUNKS_INIT;
  gr__chunk_error *errs = NULL;
  gr_coo coo = GR_COO_INIT;
  memset(&h, 0, sizeof h);
  GR_CHECK_GOTO(gr__mtx_header_read(&h, path, data, len), st, cleanup);
  const bool weights = want_weights && h.field != GR__MTX_PATTERN;
  const char *body = data + h.body;
  const size_t body_len = len - h.body;
  GR_CHECK_GOTO(gr__mtx_check_vertices(&h, path), st, cleanup);
  GR_CHECK_GOTO(gr__chunks_split(&ch, body, body_len, "%", h.size_line + 1, threads), st, cleanup);
  if (ch.total_entries > h.nnz) {
    st = gr_errorf(GR_ERR_BAD_INPUT, "%s:%llu: more entries than the %llu the header declares",
                   path, (unsigned long long)gr__entry_line(&ch, body, h.nnz),
                   (unsigned long long)h.nnz);
    goto cleanup;
  }
  GR_CHECK_GOTO(gr__mtx_check_entries(&h, path, &ch, body_len, weights), st, cleanup);
  GR_CHECK_GOTO(gr_coo_reserve(&coo, h.nnz, weights), st, cleanup);
  GR_CHECK_GOTO(gr_host_calloc((void **)&errs, ch.count, sizeof *errs, "parse errors"), st, cleanup);
  gr__mtx_ctx x = {&h, coo.src, coo.dst, coo.w};
  uint64_t done = 0;
  GR__OMP(parallel for schedule(dynamic, 1) num_threads(threads))
  for (size_t k = 0; k < ch.count; k++) {
    const char *p = body + ch.begin[k], *e = body + ch.end[k];
    uint64_t entry = ch.first_entry[k], line = ch.first_line[k];
    while (p < e) {
      const char *eol = gr__line_end(p, e);
      if (gr__is_data_line(p, eol, "%")) {
        gr_status r = gr__mtx_entry(&x, entry, p, eol, errs[k].message, sizeof errs[k].message);
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
    if (gr__thread_id() == 0) gr__progress_update(prog, 0.4 + 0.3 * (double)now / (double)(body_len + 1));
  }
  GR_CHECK_GOTO(gr__chunk_errors_report(errs, ch.count, path), st, cleanup);
  coo.n = h.rows > h.cols ? h.rows : h.cols;
  coo.m = h.nnz;
  coo.symmetric = h.symmetric;
  coo.id_base = 1;
  gr_coo_free(out);
  *out = coo;
  coo = (gr_coo)GR_COO_INIT;
cleanup:
  gr_coo_free(&coo);
  gr__chunks_free(&ch);
  free(errs);
  return st;
}
