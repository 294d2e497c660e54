/* SPDX-License-Identifier: Apache-2.0 */
/* Chunked parallel parsing of text: the split at line boundaries, the first
 * counting pass (lines and data lines per chunk), token scanning shared by
 * the readers, and the report of the first error in file order. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gr/util.h"
#include "graph_internal.h"

/* Chunk sizes follow the input alone (never the thread count): about 256
 * chunks, each between 256 KiB and 64 MiB. The smallest size can be
 * lowered for tests, which then reach many chunk boundaries with small
 * inputs. */
#define GR__CHUNK_MIN ((size_t)256 << 10)
#define GR__CHUNK_MAX ((size_t)64 << 20)

static size_t gr__chunk_min = GR__CHUNK_MIN;

void gr__chunks_set_min(size_t bytes) { gr__chunk_min = bytes ? bytes : GR__CHUNK_MIN; }

bool gr__is_data_line(const char *p, const char *eol, const char *comment) {
  while (p < eol && gr__is_blank(*p)) p++;
  if (p == eol) return false;
  for (const char *c = comment; *c; c++)
    if (*p == *c) return false;
  return true;
}

gr_status gr__chunks_split(gr__chunks *c, const char *body, size_t len, const char *comment,
                           uint64_t first_line, int threads) {
  gr_status st = GR_SUCCESS;
  uint64_t *lines = NULL;
  size_t target = len / 256;
  if (target < gr__chunk_min) target = gr__chunk_min;
  if (target > GR__CHUNK_MAX) target = GR__CHUNK_MAX;
  size_t count = len / target + 1;
  c->count = count;
  GR_CHECK_GOTO(gr_host_calloc((void **)&c->begin, count, sizeof(size_t), "parse chunks"), st, cleanup);
  GR_CHECK_GOTO(gr_host_calloc((void **)&c->end, count, sizeof(size_t), "parse chunks"), st, cleanup);
  GR_CHECK_GOTO(gr_host_calloc((void **)&c->first_line, count, sizeof(uint64_t), "parse chunks"), st, cleanup);
  GR_CHECK_GOTO(gr_host_calloc((void **)&c->first_entry, count, sizeof(uint64_t), "parse chunks"), st, cleanup);
  GR_CHECK_GOTO(gr_host_calloc((void **)&c->entries, count, sizeof(uint64_t), "parse chunks"), st, cleanup);
  GR_CHECK_GOTO(gr_host_calloc((void **)&lines, count, sizeof(uint64_t), "parse chunks"), st, cleanup);

  /* Each boundary moves forward to the start of a line. */
  size_t prev = 0;
  for (size_t k = 1; k < count; k++) {
    size_t b = (size_t)gr__part(len, k, count);
    if (b < prev) b = prev;
    if (b > 0 && b < len && body[b - 1] != '\n') {
      const char *nl = memchr(body + b, '\n', len - b);
      b = nl ? (size_t)(nl - body) + 1 : len;
    }
    c->end[k - 1] = b;
    c->begin[k] = b;
    prev = b;
  }
  c->begin[0] = 0;
  c->end[count - 1] = len;

  GR__OMP(parallel for schedule(dynamic, 1) num_threads(threads))
  for (size_t k = 0; k < count; k++) {
    const char *p = body + c->begin[k], *e = body + c->end[k];
    uint64_t nl = 0, data = 0;
    while (p < e) {
      const char *eol = memchr(p, '\n', (size_t)(e - p));
      if (!eol) eol = e;
      else nl++;
      if (gr__is_data_line(p, eol, comment)) data++;
      p = eol + 1;
    }
    lines[k] = nl;
    c->entries[k] = data;
  }

  uint64_t line = first_line, entry = 0;
  for (size_t k = 0; k < count; k++) {
    c->first_line[k] = line;
    c->first_entry[k] = entry;
    line += lines[k];
    entry += c->entries[k];
  }
  c->total_entries = entry;
  c->total_lines = line - first_line + (len > 0 && body[len - 1] != '\n');
cleanup:
  free(lines);
  if (st < 0) gr__chunks_free(c);
  return st;
}

void gr__chunks_free(gr__chunks *c) {
  free(c->begin);
  free(c->end);
  free(c->first_line);
  free(c->first_entry);
  free(c->entries);
  *c = (gr__chunks)GR__CHUNKS_INIT;
}

gr_status gr__chunk_errors_report(const gr__chunk_error *e, size_t count, const char *path) {
  for (size_t k = 0; k < count; k++)
    if (e[k].status < 0)
      return gr_errorf(e[k].status, "%s:%llu: %s", path, (unsigned long long)e[k].line, e[k].message);
  return GR_SUCCESS;
}

int gr__scan_value(const char *p, const char *eol, bool integer, double *out, const char **next) {
  const char *q = p;
  while (q < eol && !gr__token_end(*q)) q++;
  *next = q;
  size_t n = (size_t)(q - p);
  char buf[64];
  if (n == 0 || n >= sizeof buf) return 1;
  memcpy(buf, p, n);
  buf[n] = '\0';
  char *end = NULL;
  errno = 0;
  if (integer) {
    long long v = strtoll(buf, &end, 10);
    if (end != buf + n) return 1;
    if (errno == ERANGE) return 2;
    *out = (double)v;
  } else {
    double v = strtod(buf, &end);
    if (end != buf + n) return 1;
    if (!isfinite(v) || (errno == ERANGE && fabs(v) > 1.0)) return 2;
    *out = v;
  }
  return 0;
}

void gr__token_text(char *buf, size_t len, const char *p, const char *eol) {
  size_t k = 0;
  const char *q = p;
  while (q < eol && !gr__token_end(*q) && k + 4 < len && q - p < 40) {
    unsigned char ch = (unsigned char)*q++;
    buf[k++] = (ch >= 32 && ch < 127) ? (char)ch : '?';
  }
  if (q < eol && !gr__token_end(*q) && k + 4 <= len) {
    memcpy(buf + k, "...", 3);
    k += 3;
  }
  buf[k] = '\0';
}
