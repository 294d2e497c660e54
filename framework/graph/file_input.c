/* SPDX-License-Identifier: Apache-2.0 */
/* Whole-file input for the text readers: plain files are mapped read-only,
 * gzip files (recognised by their magic bytes) are inflated into memory with
 * zlib, pipes are read to their end. Parsers then work on one byte range.
 * The same decoding applies to bytes already in memory (the fuzz targets). */
#include <errno.h>
#include <fcntl.h>
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

static void gr__file_id_from_stat(gr__file_id *out, const struct stat *s) {
  out->size = (uint64_t)s->st_size;
  out->mtime_sec = (int64_t)s->st_mtim.tv_sec;
  out->mtime_nsec = (int64_t)s->st_mtim.tv_nsec;
}

gr_status gr__file_identity(gr__file_id *out, const char *path) {
  struct stat s;
  if (stat(path, &s) != 0) return gr_errorf(GR_ERR_IO, "cannot open %s: %s", path, strerror(errno));
  if (S_ISDIR(s.st_mode)) return gr_errorf(GR_ERR_IO, "%s is a directory", path);
  gr__file_id_from_stat(out, &s);
  return GR_SUCCESS;
}

gr_status gr__open_input(const char *path, int *fd, struct stat *s) {
  gr_status st = GR_SUCCESS;
  *fd = open(path, O_RDONLY | O_CLOEXEC);
  if (*fd < 0) return gr_errorf(GR_ERR_IO, "cannot open %s: %s", path, strerror(errno));
  if (fstat(*fd, s) != 0) st = gr_errorf(GR_ERR_IO, "cannot open %s: %s", path, strerror(errno));
  else if (S_ISDIR(s->st_mode)) st = gr_errorf(GR_ERR_IO, "%s is a directory", path);
  if (st < 0) {
    close(*fd);
    *fd = -1;
  }
  return st;
}

/* Reads a stream that cannot be mapped (a pipe, a character device). */
static gr_status gr__read_stream(gr__text *t, int fd, const char *path) {
  size_t cap = 1u << 20, len = 0;
  GR_CHECK(gr_host_alloc((void **)&t->heap, cap, "file contents"));
  for (;;) {
    if (len == cap) {
      if (cap > SIZE_MAX / 2) return gr_errorf(GR_ERR_HOST_OOM, "%s is too large to read", path);
      cap *= 2;
      GR_CHECK(gr_host_realloc((void **)&t->heap, cap, "file contents"));
    }
    ssize_t k = read(fd, t->heap + len, cap - len);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) return gr_errorf(GR_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    if (k == 0) break;
    len += (size_t)k;
  }
  t->data = t->heap;
  t->len = len;
  return GR_SUCCESS;
}

#ifdef GR_HAVE_ZLIB
/* Inflates gzip data (several concatenated members allowed) into t->heap. */
static gr_status gr__inflate(gr__text *t, const unsigned char *in, size_t in_len, const char *path,
                             gr__progress *p, double lo, double hi) {
  gr_status st = GR_SUCCESS;
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  if (inflateInit2(&zs, 15 + 32) != Z_OK)
    return gr_errorf(GR_ERR_HOST_OOM, "cannot start decompressing %s: zlib has no memory", path);
  /* The gzip trailer holds the size modulo 2^32: a good first guess, but
   * never trusted beyond what deflate can reach (about 1032:1). */
  size_t guess = in_len * 4;
  if (in_len >= 4) {
    const unsigned char *e = in + in_len - 4;
    size_t isize = (size_t)e[0] | (size_t)e[1] << 8 | (size_t)e[2] << 16 | (size_t)e[3] << 24;
    if (isize > guess && isize / 1032 <= in_len) guess = isize;
  }
  size_t cap = guess + 4096, len = 0, used = 0;
  GR_CHECK_GOTO(gr_host_alloc((void **)&t->heap, cap, "decompressed file"), st, cleanup);
  for (;;) {
    if (len == cap) {
      if (cap > SIZE_MAX / 2) {
        st = gr_errorf(GR_ERR_HOST_OOM, "%s decompresses to more than this host can address", path);
        goto cleanup;
      }
      cap += cap / 2;
      GR_CHECK_GOTO(gr_host_realloc((void **)&t->heap, cap, "decompressed file"), st, cleanup);
    }
    /* Input in slices of a few MiB, so that progress moves during long
     * decompressions; output as far as the buffer goes (zlib counts in
     * 32-bit units). */
    const size_t in_slice = (size_t)4 << 20, out_slice = (size_t)1 << 30;
    const size_t avail_in = in_len - used, avail_out = cap - len;
    zs.next_in = (Bytef *)(uintptr_t)(in + used);
    zs.avail_in = (uInt)(avail_in < in_slice ? avail_in : in_slice);
    zs.next_out = (Bytef *)t->heap + len;
    zs.avail_out = (uInt)(avail_out < out_slice ? avail_out : out_slice);
    uInt before_in = zs.avail_in, before_out = zs.avail_out;
    int r = inflate(&zs, Z_NO_FLUSH);
    used += before_in - zs.avail_in;
    len += before_out - zs.avail_out;
    gr__progress_update(p, lo + (hi - lo) * (double)used / (double)in_len);
    if (r == Z_STREAM_END) {
      /* Another member may follow (gzip files can be concatenated); bytes
       * that are not one are ignored, as gzip itself does. */
      if (in_len - used >= 2 && in[used] == 0x1f && in[used + 1] == 0x8b) {
        inflateReset(&zs);
        continue;
      }
      break;
    }
    if (r == Z_MEM_ERROR) {
      st = gr_errorf(GR_ERR_HOST_OOM, "out of memory while decompressing %s", path);
      goto cleanup;
    }
    if (r == Z_DATA_ERROR || r == Z_NEED_DICT || r == Z_STREAM_ERROR) {
      st = gr_errorf(GR_ERR_BAD_INPUT, "%s: corrupt gzip data (%s)", path,
                     zs.msg ? zs.msg : "invalid stream");
      goto cleanup;
    }
    if (used == in_len && zs.avail_out > 0) {
      st = gr_errorf(GR_ERR_BAD_INPUT, "%s: gzip data ends early (truncated .gz file?)", path);
      goto cleanup;
    }
  }
  t->data = t->heap;
  t->len = len;
cleanup:
  inflateEnd(&zs);
  return st;
}
#endif

gr_status gr__text_read(gr__text *t, const char *path, gr__progress *p, double lo, double hi) {
  gr_status st = GR_SUCCESS;
  struct stat s;
  memset(&s, 0, sizeof s);
  void *raw = NULL;
  size_t raw_len = 0;
  int fd = -1;
  GR_CHECK(gr__open_input(path, &fd, &s));
  gr__file_id_from_stat(&t->id, &s);
  if (S_ISREG(s.st_mode)) {
    if (s.st_size == 0) {
      st = gr_errorf(GR_ERR_BAD_INPUT, "%s is empty", path);
      goto cleanup;
    }
    if ((uint64_t)s.st_size > SIZE_MAX) {
      st = gr_errorf(GR_ERR_TOO_LARGE, "%s is too large to map on this host", path);
      goto cleanup;
    }
    raw_len = (size_t)s.st_size;
    raw = mmap(NULL, raw_len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (raw == MAP_FAILED) {
      raw = NULL;
      st = gr_errorf(GR_ERR_IO, "cannot map %s: %s", path, strerror(errno));
      goto cleanup;
    }
    madvise(raw, raw_len, MADV_WILLNEED);
  } else {
    GR_CHECK_GOTO(gr__read_stream(t, fd, path), st, cleanup);
    raw = t->heap;
    raw_len = t->len;
    t->heap = NULL;
  }
  const unsigned char *b = raw;
  if (raw_len >= 2 && b[0] == 0x1f && b[1] == 0x8b) {
#ifdef GR_HAVE_ZLIB
    GR_CHECK_GOTO(gr__inflate(t, b, raw_len, path, p, lo, hi), st, cleanup);
#else
    st = gr_errorf(GR_ERR_UNSUPPORTED,
                   "%s is gzip-compressed but gr was built without zlib; "
                   "decompress it first (gunzip) or rebuild gr with zlib",
                   path);
    goto cleanup;
#endif
  } else if (S_ISREG(s.st_mode)) {
    t->map = raw;
    t->map_bytes = raw_len;
    t->data = raw;
    t->len = raw_len;
    raw = NULL;
  } else {
    t->heap = raw;
    t->data = raw;
    t->len = raw_len;
    raw = NULL;
  }
  if (t->len == 0) st = gr_errorf(GR_ERR_BAD_INPUT, "%s is empty", path);
cleanup:
  if (raw) {
    if (S_ISREG(s.st_mode)) munmap(raw, raw_len);
    else free(raw);
  }
  close(fd);
  if (st < 0) gr__text_free(t);
  return st;
}

gr_status gr__text_from_memory(gr__text *t, const void *data, size_t len, const char *name) {
  gr_status st = GR_SUCCESS;
  const unsigned char *b = data;
  *t = (gr__text)GR__TEXT_INIT;
  if (len >= 2 && b[0] == 0x1f && b[1] == 0x8b) {
#ifdef GR_HAVE_ZLIB
    GR_CHECK_GOTO(gr__inflate(t, b, len, name, NULL, 0.0, 1.0), st, cleanup);
#else
    st = gr_errorf(GR_ERR_UNSUPPORTED, "%s is gzip-compressed but gr was built without zlib", name);
    goto cleanup;
#endif
  } else {
    t->data = data;
    t->len = len;
  }
  if (t->len == 0) st = gr_errorf(GR_ERR_BAD_INPUT, "%s is empty", name);
cleanup:
  if (st < 0) gr__text_free(t);
  return st;
}

void gr__text_free(gr__text *t) {
  if (t->map) munmap(t->map, t->map_bytes);
  free(t->heap);
  *t = (gr__text)GR__TEXT_INIT;
}
