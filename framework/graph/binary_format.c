/* SPDX-License-Identifier: Apache-2.0 */
/* gr's binary CSR format, which is also the load cache. Layout: a 256-byte
 * header (magic, version, id width, flags, sizes, the cached input's
 * identity and option key, where each array lies, checksums), then the
 * arrays, each 64-byte aligned: offsets (n+1 x u64), indices (m x gr_vid),
 * weights (m x f32, optional), original ids (n x u64, optional). Arrays are
 * checksummed with CRC32 (zlib) or, in builds without zlib, a 64-bit block
 * hash; the header with its own hash. Files are written to a temporary name
 * and renamed, and read by mapping them (MAP_PRIVATE) and using the arrays
 * in place. Multi-byte fields are in the writer's byte order, recorded by
 * the endian field. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef GR_HAVE_ZLIB
#include <zlib.h>
#endif

#include "gr/util.h"
#include "graph_internal.h"

#define GR__GRB_MAGIC "GRCSR\r\n\032"
#define GR__GRB_ENDIAN 0x0102030405060708ull
#define GR__GRB_ALIGN 64u

enum {
  GR__GRB_DIRECTED = 1u,
  GR__GRB_WEIGHTS = 2u,
  GR__GRB_ORIG_IDS = 4u,
  GR__GRB_CRC32 = 8u
};

enum { GR__A_OFFSETS = 0, GR__A_INDICES = 1, GR__A_WEIGHTS = 2, GR__A_ORIG = 3, GR__A_COUNT = 4 };
static const char *const gr__array_names[GR__A_COUNT] = {"offsets", "indices", "weights",
                                                        "original ids"};

typedef struct gr__grb_header {
  char magic[8];
  uint32_t version;
  uint32_t header_bytes;
  uint32_t vid_bits;
  uint32_t flags;
  uint64_t endian;
  uint64_t n, m, self_loops;
  int64_t id_base;
  uint64_t input_size;
  int64_t input_mtime_sec, input_mtime_nsec;
  uint64_t option_key;
  uint64_t at[GR__A_COUNT];    /* byte offset of each array, 0 when absent */
  uint64_t bytes[GR__A_COUNT]; /* its length */
  uint64_t sum[GR__A_COUNT];   /* its checksum */
  uint64_t file_bytes;
  uint64_t reserved[6];
  uint64_t header_sum;         /* over the header with this field zero */
} gr__grb_header;
_Static_assert(sizeof(gr__grb_header) == 256, "the binary header is 256 bytes");

bool gr__looks_like_binary(const char *data, size_t len) {
  return len >= 8 && !memcmp(data, GR__GRB_MAGIC, 8);
}

/* --- checksums ------------------------------------------------------------ */

#define GR__SUM_BLOCK ((size_t)4 << 20)

/* 64-bit block hash: each block hashed word by word, blocks mixed with
 * their index and summed, so blocks can be hashed in parallel. */
static uint64_t gr__hash_block(const unsigned char *p, size_t len) {
  uint64_t h = 0xcbf29ce484222325ull ^ len;
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t x;
    memcpy(&x, p + i, 8);
    h = (h ^ x) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  uint64_t tail = 0;
  memcpy(&tail, p + i, len - i);
  return gr_mix64(h ^ tail);
}

static gr_status gr__checksum(uint64_t *out, const void *data, size_t len, bool crc, int threads) {
  const unsigned char *p = data;
  const size_t blocks = len / GR__SUM_BLOCK + 1;
#ifdef GR_HAVE_ZLIB
  if (crc) {
    uLong *part = NULL;
    GR_CHECK(gr_host_alloc((void **)&part, blocks * sizeof *part, "checksum"));
    GR__OMP(parallel for schedule(dynamic, 1) num_threads(threads))
    for (size_t k = 0; k < blocks; k++) {
      size_t lo = k * GR__SUM_BLOCK, hi = lo + GR__SUM_BLOCK < len ? lo + GR__SUM_BLOCK : len;
      part[k] = crc32(0L, p + lo, (uInt)(hi - lo));
    }
    uLong c = part[0];
    for (size_t k = 1; k < blocks; k++) {
      size_t lo = k * GR__SUM_BLOCK, hi = lo + GR__SUM_BLOCK < len ? lo + GR__SUM_BLOCK : len;
      c = crc32_combine(c, part[k], (z_off_t)(hi - lo));
    }
    free(part);
    *out = (uint64_t)c;
    return GR_SUCCESS;
  }
#else
  (void)crc;
#endif
  uint64_t total = gr_mix64(len);
  GR__OMP(parallel for schedule(dynamic, 1) num_threads(threads) reduction(+ : total))
  for (size_t k = 0; k < blocks; k++) {
    size_t lo = k * GR__SUM_BLOCK, hi = lo + GR__SUM_BLOCK < len ? lo + GR__SUM_BLOCK : len;
    total += gr_mix64(gr__hash_block(p + lo, hi - lo) + k * 0x9e3779b97f4a7c15ull);
  }
  *out = total;
  return GR_SUCCESS;
}

static uint64_t gr__header_sum(const gr__grb_header *h) {
  gr__grb_header c = *h;
  c.header_sum = 0;
  return gr__hash_block((const unsigned char *)&c, sizeof c);
}

/* --- writing -------------------------------------------------------------- */

static gr_status gr__write_all(int fd, const void *data, size_t len, const char *path) {
  const char *p = data;
  while (len > 0) {
    size_t piece = len < ((size_t)1 << 30) ? len : ((size_t)1 << 30);
    ssize_t k = write(fd, p, piece);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return gr_errorf(GR_ERR_IO, "cannot write %s: %s", path, strerror(k < 0 ? errno : EIO));
    p += k;
    len -= (size_t)k;
  }
  return GR_SUCCESS;
}

static uint64_t gr__align(uint64_t x) { return (x + GR__GRB_ALIGN - 1) / GR__GRB_ALIGN * GR__GRB_ALIGN; }

gr_status gr__binary_write(const gr_graph *g, const char *path, const gr__file_id *input,
                           uint64_t key) {
  gr_status st = GR_SUCCESS;
  char *tmp = NULL;
  int fd = -1;
  const gr_csr *c = &g->out;
  const void *arrays[GR__A_COUNT] = {c->offsets, c->indices, c->weights, g->orig_ids};
  gr__grb_header h;
  memset(&h, 0, sizeof h);
  memcpy(h.magic, GR__GRB_MAGIC, 8);
  h.version = GR__BINARY_VERSION;
  h.header_bytes = sizeof h;
  h.vid_bits = GR_VID_BITS;
  h.endian = GR__GRB_ENDIAN;
  h.n = c->n;
  h.m = c->m;
  h.self_loops = g->self_loops;
  h.id_base = g->id_base;
  h.option_key = key;
  if (input) {
    h.input_size = input->size;
    h.input_mtime_sec = input->mtime_sec;
    h.input_mtime_nsec = input->mtime_nsec;
  }
  h.flags = (g->directed ? GR__GRB_DIRECTED : 0) | (c->weights ? GR__GRB_WEIGHTS : 0) |
            (g->orig_ids ? GR__GRB_ORIG_IDS : 0);
#ifdef GR_HAVE_ZLIB
  h.flags |= GR__GRB_CRC32;
#endif
  h.bytes[GR__A_OFFSETS] = ((uint64_t)c->n + 1) * sizeof(gr_eid);
  h.bytes[GR__A_INDICES] = c->m * sizeof(gr_vid);
  h.bytes[GR__A_WEIGHTS] = c->weights ? c->m * sizeof(gr_weight) : 0;
  h.bytes[GR__A_ORIG] = g->orig_ids ? (uint64_t)c->n * sizeof(uint64_t) : 0;
  uint64_t at = gr__align(sizeof h);
  for (int a = 0; a < GR__A_COUNT; a++) {
    if (!arrays[a]) continue;
    h.at[a] = at;
    GR_CHECK_GOTO(gr__checksum(&h.sum[a], arrays[a], (size_t)h.bytes[a], h.flags & GR__GRB_CRC32,
                               g->threads),
                  st, cleanup);
    at = gr__align(at + h.bytes[a]);
  }
  h.file_bytes = at;
  h.header_sum = gr__header_sum(&h);

  size_t plen = strlen(path);
  GR_CHECK_GOTO(gr_host_alloc((void **)&tmp, plen + 16, "file name"), st, cleanup);
  snprintf(tmp, plen + 16, "%s.tmp.XXXXXX", path);
  fd = mkstemp(tmp);
  if (fd < 0) {
    st = gr_errorf(GR_ERR_IO, "cannot create %s: %s", path, strerror(errno));
    free(tmp);
    tmp = NULL;
    goto cleanup;
  }
  fchmod(fd, 0644);
  static const char zeros[GR__GRB_ALIGN] = {0};
  uint64_t pos = 0;
  GR_CHECK_GOTO(gr__write_all(fd, &h, sizeof h, path), st, cleanup);
  pos = sizeof h;
  for (int a = 0; a < GR__A_COUNT; a++) {
    if (!arrays[a]) continue;
    GR_CHECK_GOTO(gr__write_all(fd, zeros, (size_t)(h.at[a] - pos), path), st, cleanup);
    GR_CHECK_GOTO(gr__write_all(fd, arrays[a], (size_t)h.bytes[a], path), st, cleanup);
    pos = h.at[a] + h.bytes[a];
  }
  GR_CHECK_GOTO(gr__write_all(fd, zeros, (size_t)(h.file_bytes - pos), path), st, cleanup);
  if (close(fd) != 0) {
    fd = -1;
    st = gr_errorf(GR_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    goto cleanup;
  }
  fd = -1;
  if (rename(tmp, path) != 0) {
    st = gr_errorf(GR_ERR_IO, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
    goto cleanup;
  }
  free(tmp);
  tmp = NULL;
cleanup:
  if (fd >= 0) close(fd);
  if (tmp) {
    unlink(tmp);
    free(tmp);
  }
  return st;
}

gr_status gr_graph_save_binary(const gr_graph *g, const char *path) {
  if (!g || !path) return gr_errorf(GR_ERR_INVALID_ARG, "gr_graph_save_binary: NULL argument");
  return gr__binary_write(g, path, NULL, 0);
}

/* --- reading -------------------------------------------------------------- */

#define GR__CORRUPT(...) gr_errorf(GR_ERR_BAD_INPUT, __VA_ARGS__)

/* Header fields that must agree with each other and the file's size. */
static gr_status gr__check_layout(const gr__grb_header *h, const char *path, uint64_t size) {
  /* The offsets alone take 8 bytes a vertex: this also keeps every size
   * below computed from n and m clear of overflow. */
  if (h->n > GR_MAX_VERTICES || h->n >= size / sizeof(gr_eid))
    return GR__CORRUPT("%s: corrupt header (%llu vertices)", path, (unsigned long long)h->n);
  if (h->id_base != 0 && h->id_base != 1)
    return GR__CORRUPT("%s: corrupt header (id base %lld)", path, (long long)h->id_base);
  if (h->self_loops > h->m)
    return GR__CORRUPT("%s: corrupt header (more self-loops than arcs)", path);
  if (h->file_bytes != size)
    return GR__CORRUPT("%s: truncated or extended file (%llu bytes, the header says %llu)", path,
                       (unsigned long long)size, (unsigned long long)h->file_bytes);
  const bool present[GR__A_COUNT] = {true, true, (h->flags & GR__GRB_WEIGHTS) != 0,
                                     (h->flags & GR__GRB_ORIG_IDS) != 0};
  if (h->m > size / sizeof(gr_vid)) return GR__CORRUPT("%s: corrupt header (%llu arcs)", path, (unsigned long long)h->m);
  const uint64_t want[GR__A_COUNT] = {(h->n + 1) * sizeof(gr_eid), h->m * sizeof(gr_vid),
                                      h->m * sizeof(gr_weight), h->n * sizeof(uint64_t)};
  for (int a = 0; a < GR__A_COUNT; a++) {
    if (!present[a]) {
      if (h->at[a] || h->bytes[a])
        return GR__CORRUPT("%s: corrupt header (%s present without its flag)", path, gr__array_names[a]);
      continue;
    }
    if (h->bytes[a] != want[a] || h->at[a] < sizeof *h || h->at[a] % GR__GRB_ALIGN ||
        h->at[a] > size || h->bytes[a] > size - h->at[a])
      return GR__CORRUPT("%s: corrupt header (%s at %llu, %llu bytes, in a file of %llu)", path,
                         gr__array_names[a], (unsigned long long)h->at[a],
                         (unsigned long long)h->bytes[a], (unsigned long long)size);
  }
  return GR_SUCCESS;
}

/* Weight bit patterns as ordered keys, as the CSR build sorts rows. */
static inline uint32_t gr__weight_key(uint32_t b) { return (b & 0x80000000u) ? ~b : (b | 0x80000000u); }

/* The hash of an arc (u, v) of weight bits wb for the symmetry check; hu is
 * gr_mix64(u). */
static inline uint64_t gr__arc_hash(uint64_t hu, uint64_t v, uint64_t wb) {
  return gr_mix64((hu + v) ^ (wb * 0x9e3779b97f4a7c15ull));
}

/* Checks that the arrays form the CSR gr's build makes, so that a file with
 * a matching checksum but wrong contents can still not send anyone out of
 * bounds, nor break what later stages rely on: offsets from 0 to m, never
 * decreasing; ids below n; rows sorted by neighbour, then weight; the
 * header's self-loop count; the id map ascending; and for an undirected
 * graph every arc present in both directions with the same weight. That
 * last check sums a hash of each arc's edge ({u, v}, w) over the arcs
 * from the lower end and over those from the higher end, in one streaming
 * pass: the sums agree for a symmetric graph and differ for any other but
 * with probability 2^-64 (the subgraph
 * builder still refuses a missing reverse arc exactly; an exact check here
 * would cost a transpose). */
static gr_status gr__check_csr(const gr_csr *c, const uint64_t *orig, bool undirected, uint64_t self_loops,
                               const char *path, int threads) {
  const uint64_t n = c->n;
  if (c->offsets[0] != 0 || c->offsets[n] != c->m)
    return GR__CORRUPT("%s: corrupt CSR (offsets do not run from 0 to %llu)", path,
                       (unsigned long long)c->m);
  uint64_t bad = 0;
  GR__OMP(parallel for num_threads(threads) reduction(+ : bad))
  for (uint64_t u = 0; u < n; u++) bad += c->offsets[u] > c->offsets[u + 1];
  if (bad) return GR__CORRUPT("%s: corrupt CSR (offsets decrease)", path);
  /* One pass over the arcs (the offsets run from 0 to m without
   * decreasing, so the rows cover them once): ids in range, rows sorted,
   * self-loops counted and the reverse arcs' hashes. An id out of range
   * only enters a hash, and is reported before anything else. */
  uint64_t unsorted = 0, loops = 0, fwd = 0, bwd = 0;
  GR__OMP(parallel for schedule(dynamic, 1024) num_threads(threads) reduction(+ : bad, unsorted, loops, fwd, bwd))
  for (uint64_t u = 0; u < n; u++) {
    const uint64_t hu = gr_mix64(u);
    for (gr_eid e = c->offsets[u]; e < c->offsets[u + 1]; e++) {
      const uint64_t v = c->indices[e];
      bad += v >= n;
      uint32_t wb = 0;
      if (c->weights) memcpy(&wb, &c->weights[e], sizeof wb);
      if (e > c->offsets[u]) {
        /* The build's order: by neighbour, then by weight (gr__wkey's
         * order of the bit patterns). */
        const gr_vid p = c->indices[e - 1];
        uint32_t pb = 0;
        if (c->weights) memcpy(&pb, &c->weights[e - 1], sizeof pb);
        unsorted += p > c->indices[e] || (p == c->indices[e] && gr__weight_key(pb) > gr__weight_key(wb));
      }
      loops += v == u;
      /* Each arc hashed once, as its edge {min, max} with its weight:
       * into fwd from the lower end's row, into bwd from the higher's
       * (a self-loop is its own reverse). A row is sorted, so the side
       * changes once per row, and half the arcs reuse the row's mix. */
      if (undirected && v != u) {
        if (u < v) fwd += gr__arc_hash(hu, v, wb);
        else bwd += gr__arc_hash(gr_mix64(v), u, wb);
      }
    }
  }
  if (bad) return GR__CORRUPT("%s: corrupt CSR (%llu neighbour ids out of range)", path, (unsigned long long)bad);
  if (unsorted) return GR__CORRUPT("%s: corrupt CSR (rows not sorted: %llu arcs out of order)", path,
                                   (unsigned long long)unsorted);
  if (loops != self_loops)
    return GR__CORRUPT("%s: corrupt header (%llu self-loops, the arrays hold %llu)", path,
                       (unsigned long long)self_loops, (unsigned long long)loops);
  if (fwd != bwd)
    return GR__CORRUPT("%s: corrupt CSR (an undirected graph whose arcs are not all paired with a reverse arc of "
                       "the same weight)",
                       path);
  if (orig) {
    GR__OMP(parallel for num_threads(threads) reduction(+ : bad))
    for (uint64_t u = 1; u < n; u++) bad += orig[u - 1] >= orig[u];
    if (bad) return GR__CORRUPT("%s: corrupt id map (original ids not ascending)", path);
  }
  return GR_SUCCESS;
}

gr_status gr__binary_adopt(gr_graph **out, void *map, size_t size, const char *path,
                           const gr__file_id *input, uint64_t key, int threads, bool *stale) {
  gr_status st = GR_SUCCESS;
  gr_graph *g = NULL;
  gr__grb_header h;
  *out = NULL;
  if (stale) *stale = false;
  if (size < sizeof h) {
    st = GR__CORRUPT("%s: truncated binary graph (%zu bytes; the header alone is %zu)", path, size,
                     sizeof h);
    goto cleanup;
  }
  memcpy(&h, map, sizeof h);
  if (memcmp(h.magic, GR__GRB_MAGIC, 8) != 0) {
    st = GR__CORRUPT("%s is not a gr binary graph (bad magic)", path);
    goto cleanup;
  }
  if (gr__header_sum(&h) != h.header_sum) {
    st = GR__CORRUPT("%s: corrupt header (checksum mismatch)", path);
    goto cleanup;
  }
  if (h.version != GR__BINARY_VERSION || h.header_bytes != sizeof h) {
    st = GR__CORRUPT("%s: binary format version %u is not supported (this build reads version %u)",
                     path, h.version, GR__BINARY_VERSION);
    goto cleanup;
  }
  if (h.endian != GR__GRB_ENDIAN) {
    st = gr_errorf(GR_ERR_UNSUPPORTED, "%s was written on a host of the other byte order", path);
    goto cleanup;
  }
  if (h.vid_bits != GR_VID_BITS) {
    st = gr_errorf(GR_ERR_UNSUPPORTED,
                   "%s holds %u-bit vertex ids but this build uses %d-bit ids (GR_VERTEX_64)", path,
                   h.vid_bits, GR_VID_BITS);
    goto cleanup;
  }
  if (input && (h.option_key != key || h.input_size != input->size ||
                h.input_mtime_sec != input->mtime_sec || h.input_mtime_nsec != input->mtime_nsec)) {
    if (stale) *stale = true;
    st = GR__CORRUPT("%s is stale: %s", path,
                     h.option_key != key ? "it was made with other load options"
                                         : "its input changed (size or modification time)");
    goto cleanup;
  }
#ifndef GR_HAVE_ZLIB
  if (h.flags & GR__GRB_CRC32) {
    st = gr_errorf(GR_ERR_UNSUPPORTED, "%s is checksummed with CRC32, which needs gr built with zlib", path);
    goto cleanup;
  }
#endif
  GR_CHECK_GOTO(gr__check_layout(&h, path, size), st, cleanup);
  for (int a = 0; a < GR__A_COUNT; a++) {
    if (!h.at[a]) continue;
    uint64_t sum = 0;
    GR_CHECK_GOTO(gr__checksum(&sum, (char *)map + h.at[a], (size_t)h.bytes[a], h.flags & GR__GRB_CRC32,
                               threads),
                  st, cleanup);
    if (sum != h.sum[a]) {
      st = GR__CORRUPT("%s: checksum mismatch in the %s (corrupt file)", path, gr__array_names[a]);
      goto cleanup;
    }
  }
  GR_CHECK_GOTO(gr__graph_alloc(&g), st, cleanup);
  char *base = map;
  g->out.n = (gr_vid)h.n;
  g->out.m = h.m;
  g->out.offsets = (gr_eid *)(void *)(base + h.at[GR__A_OFFSETS]);
  g->out.indices = (gr_vid *)(void *)(base + h.at[GR__A_INDICES]);
  g->out.weights = h.at[GR__A_WEIGHTS] ? (gr_weight *)(void *)(base + h.at[GR__A_WEIGHTS]) : NULL;
  g->orig_ids = h.at[GR__A_ORIG] ? (uint64_t *)(void *)(base + h.at[GR__A_ORIG]) : NULL;
  g->directed = (h.flags & GR__GRB_DIRECTED) != 0;
  g->self_loops = h.self_loops;
  g->id_base = (int)h.id_base;
  g->threads = threads;
  GR_CHECK_GOTO(gr__check_csr(&g->out, g->orig_ids, !g->directed, g->self_loops, path, threads), st, cleanup);
  g->map = map;
  g->map_bytes = size;
  map = NULL;
  *out = g;
  g = NULL;
cleanup:
  if (g) {
    /* Its arrays still point into the mapping, which is released below. */
    g->out = (gr_csr){0, 0, NULL, NULL, NULL, NULL};
    g->orig_ids = NULL;
    gr_graph_destroy(&g);
  }
  if (map) munmap(map, size);
  return st;
}

gr_status gr__binary_map(gr_graph **out, const char *path, const gr__file_id *input, uint64_t key,
                         int threads, bool *stale) {
  gr_status st = GR_SUCCESS;
  void *map = NULL;
  struct stat s;
  *out = NULL;
  if (stale) *stale = false;
  int fd = -1;
  GR_CHECK(gr__open_input(path, &fd, &s));
  if ((uint64_t)s.st_size < sizeof(gr__grb_header)) {
    st = GR__CORRUPT("%s: truncated binary graph (%llu bytes; the header alone is %zu)", path,
                     (unsigned long long)s.st_size, sizeof(gr__grb_header));
    goto cleanup;
  }
  if ((uint64_t)s.st_size > SIZE_MAX) {
    st = gr_errorf(GR_ERR_TOO_LARGE, "%s is too large to map on this host", path);
    goto cleanup;
  }
  map = mmap(NULL, (size_t)s.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED) {
    st = gr_errorf(GR_ERR_IO, "cannot map %s: %s", path, strerror(errno));
    goto cleanup;
  }
  /* The mapping is the graph's from here on, or released on failure. */
  st = gr__binary_adopt(out, map, (size_t)s.st_size, path, input, key, threads, stale);
cleanup:
  close(fd);
  return st;
}

gr_status gr__binary_seal(void *file, size_t size) {
  gr__grb_header h;
  if (size < sizeof h) return gr_errorf(GR_ERR_INVALID_ARG, "a binary graph of %zu bytes has no header", size);
  memcpy(&h, file, sizeof h);
  for (int a = 0; a < GR__A_COUNT; a++) {
    if (!h.at[a] || h.at[a] > size || h.bytes[a] > size - h.at[a]) continue;
    GR_CHECK(gr__checksum(&h.sum[a], (char *)file + h.at[a], (size_t)h.bytes[a], h.flags & GR__GRB_CRC32, 1));
  }
  h.header_sum = gr__header_sum(&h);
  memcpy(file, &h, sizeof h);
  return GR_SUCCESS;
}
