/* SPDX-License-Identifier: Apache-2.0 */
/* Matrix Market writer: general for directed graphs, the lower triangle
 * (row >= column) marked symmetric for undirected ones, 1-based, weights as
 * real values; a path ending in .gz is compressed when zlib is there. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef GR_HAVE_ZLIB
#include <zlib.h>
#endif

#include "gr/util.h"
#include "graph_internal.h"

typedef struct gr__writer {
  FILE *f;
#ifdef GR_HAVE_ZLIB
  gzFile gz;
#endif
  const char *path;
} gr__writer;

static gr_status gr__writer_open(gr__writer *w, const char *path) {
  memset(w, 0, sizeof *w);
  w->path = path;
  size_t len = strlen(path);
  if (len > 3 && !strcmp(path + len - 3, ".gz")) {
#ifdef GR_HAVE_ZLIB
    w->gz = gzopen(path, "wb6");
    if (!w->gz) return gr_errorf(GR_ERR_IO, "cannot create %s: %s", path, strerror(errno));
    return GR_SUCCESS;
#else
    return gr_errorf(GR_ERR_UNSUPPORTED, "cannot write %s: gr was built without zlib", path);
#endif
  }
  w->f = fopen(path, "wb");
  if (!w->f) return gr_errorf(GR_ERR_IO, "cannot create %s: %s", path, strerror(errno));
  return GR_SUCCESS;
}

static gr_status gr__writer_put(gr__writer *w, const char *data, size_t len) {
#ifdef GR_HAVE_ZLIB
  if (w->gz) {
    if (len && gzwrite(w->gz, data, (unsigned)len) != (int)len)
      return gr_errorf(GR_ERR_IO, "cannot write %s: %s", w->path, strerror(errno));
    return GR_SUCCESS;
  }
#endif
  if (fwrite(data, 1, len, w->f) != len)
    return gr_errorf(GR_ERR_IO, "cannot write %s: %s", w->path, strerror(errno));
  return GR_SUCCESS;
}

/* Closes the file; reports the first failure of the writes or the close. */
static gr_status gr__writer_close(gr__writer *w, gr_status st) {
  int bad = 0;
#ifdef GR_HAVE_ZLIB
  if (w->gz) bad = gzclose(w->gz) != Z_OK;
  w->gz = NULL;
#endif
  if (w->f) bad = fclose(w->f) != 0;
  w->f = NULL;
  if (st >= 0 && bad) st = gr_errorf(GR_ERR_IO, "cannot write %s: %s", w->path, strerror(errno));
  return st;
}

static size_t gr__put_u64(char *p, uint64_t x) {
  char tmp[24];
  size_t k = 0;
  do {
    tmp[k++] = (char)('0' + x % 10);
    x /= 10;
  } while (x);
  for (size_t i = 0; i < k; i++) p[i] = tmp[k - 1 - i];
  return k;
}

gr_status gr_graph_save_mtx(const gr_graph *g, const char *path) {
  gr_status st = GR_SUCCESS;
  gr__writer w;
  char *buf = NULL;
  memset(&w, 0, sizeof w);
  if (!g || !path) return gr_errorf(GR_ERR_INVALID_ARG, "gr_graph_save_mtx: NULL argument");
  const gr_csr *c = &g->out;
  const bool lower = !g->directed;
  uint64_t entries = 0;
  if (lower) {
    GR__OMP(parallel for schedule(dynamic, 1024) num_threads(g->threads) reduction(+ : entries))
    for (uint64_t u = 0; u < (uint64_t)c->n; u++)
      for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) entries += c->indices[e] <= (gr_vid)u;
  } else {
    entries = c->m;
  }
  const size_t cap = (size_t)1 << 20;
  GR_CHECK(gr_host_alloc((void **)&buf, cap, "output buffer"));
  GR_CHECK_GOTO(gr__writer_open(&w, path), st, cleanup);
  int k = snprintf(buf, cap,
                   "%%%%MatrixMarket matrix coordinate %s %s\n%% written by gr from %s\n%llu %llu %llu\n",
                   c->weights ? "real" : "pattern", lower ? "symmetric" : "general", gr_graph_name(g),
                   (unsigned long long)c->n, (unsigned long long)c->n, (unsigned long long)entries);
  size_t len = (size_t)k;
  for (uint64_t u = 0; u < (uint64_t)c->n; u++)
    for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) {
      if (lower && c->indices[e] > (gr_vid)u) continue;
      /* Two ids, a weight and separators stay under 128 bytes. */
      if (len + 128 > cap) {
        GR_CHECK_GOTO(gr__writer_put(&w, buf, len), st, cleanup);
        len = 0;
      }
      len += gr__put_u64(buf + len, u + 1);
      buf[len++] = ' ';
      len += gr__put_u64(buf + len, (uint64_t)c->indices[e] + 1);
      if (c->weights) len += (size_t)snprintf(buf + len, 64, " %.9g", (double)c->weights[e]);
      buf[len++] = '\n';
    }
  GR_CHECK_GOTO(gr__writer_put(&w, buf, len), st, cleanup);
cleanup:
  st = gr__writer_close(&w, st);
  free(buf);
  return st;
}
