/* SPDX-License-Identifier: Apache-2.0 */
/* A GPU device's copies: reads from the device of every size around the
 * pinned stage small reads go through (framework/device/cuda), into
 * pageable and pinned memory, land exactly and touch nothing past their
 * end, from one thread and from several reading their own slices of one
 * device at once (without the stage's lock their bytes would cross); a
 * device sync drains what was queued; uploads from a fill, staged or not,
 * land whole. The reads' results are checked,
 * not which path took them. Skips (exit 77) where no GPU exists. Runs
 * with CK_NOFORK: CUDA must not cross a fork. */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gr/buffer.h"
#include "gr/device.h"
#include "testutil.h"

enum { BYTES = 3 * 4096 + 17, GUARD = 64 };

static gr_device *gpu;

static void setup(void) { ck_assert_int_eq(gr_device_create(&gpu, GR_BACKEND_CUDA, 0, NULL), GR_SUCCESS); }
static void teardown(void) { gr_device_destroy(&gpu); }

/* Byte i of a buffer filled with `seed`: a hash of the position, so that
 * no two slices hold the same bytes (a read from the wrong place, or one
 * thread's bytes landing in another's, differs). */
static unsigned char pattern(size_t i, unsigned seed) {
  uint32_t x = (uint32_t)i * 2654435761u ^ (seed * 40503u + 0x9e3779b9u);
  x ^= x >> 15;
  x *= 2246822519u;
  x ^= x >> 13;
  return (unsigned char)(x >> 7);
}

/* The device buffer holds pattern(i, seed) at byte i. */
static void fill(gr_buffer *b, unsigned seed) {
  unsigned char *h = malloc(BYTES);
  ck_assert_ptr_nonnull(h);
  for (size_t i = 0; i < BYTES; i++) h[i] = pattern(i, seed);
  ck_assert_int_eq(gr_device_copy(gpu, b->ptr, h, BYTES, GR_COPY_H2D), GR_SUCCESS);
  free(h);
}

/* Reads `bytes` from offset `at` into dst (with GUARD bytes of 0xa5 on
 * either side) and checks them and the guards. */
static void read_and_check(gr_device *dev, const gr_buffer *b, unsigned seed, size_t at, size_t bytes,
                           unsigned char *room) {
  memset(room, 0xa5, bytes + 2 * GUARD);
  ck_assert_int_eq(gr_device_copy(dev, room + GUARD, (const unsigned char *)b->ptr + at, bytes, GR_COPY_D2H),
                   GR_SUCCESS);
  for (size_t i = 0; i < GUARD; i++) {
    ck_assert_uint_eq(room[i], 0xa5);
    ck_assert_uint_eq(room[GUARD + bytes + i], 0xa5);
  }
  for (size_t i = 0; i < bytes; i++)
    if (room[GUARD + i] != pattern(at + i, seed))
      ck_abort_msg("a read of %zu bytes at %zu: byte %zu is %u, not %u", bytes, at, i, room[GUARD + i],
                   pattern(at + i, seed));
}

START_TEST(reads_of_every_size_land_exactly) {
  gr_buffer b = {0};
  ck_assert_int_eq(gr_buffer_resize(&b, gpu, BYTES, 0, "test bytes"), GR_SUCCESS);
  fill(&b, 3);
  const size_t sizes[] = {1, 3, 8, 24, 88, 255, 4095, 4096, 4097, 8192, 2 * 4096 + 1, BYTES - 5};
  unsigned char *pageable = malloc(BYTES + 2 * GUARD);
  unsigned char *pinned = NULL;
  ck_assert_ptr_nonnull(pageable);
  ck_assert_int_eq(gr_device_host_alloc(gpu, (void **)&pinned, BYTES + 2 * GUARD, "test room"), GR_SUCCESS);
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    for (size_t at = 0; at + sizes[k] <= BYTES && at < 12; at += 5) {
      read_and_check(gpu, &b, 3, at, sizes[k], pageable);
      read_and_check(gpu, &b, 3, at, sizes[k], pinned);
    }
  }
  /* A read follows the stream's work: a kernel-free write (a memset)
   * queued before it is seen. */
  ck_assert_int_eq(gr_device_memset(gpu, b.ptr, 0x5a, 100), GR_SUCCESS);
  unsigned char got[100];
  ck_assert_int_eq(gr_device_copy(gpu, got, b.ptr, sizeof got, GR_COPY_D2H), GR_SUCCESS);
  for (size_t i = 0; i < sizeof got; i++) ck_assert_uint_eq(got[i], 0x5a);
  ck_assert_int_eq(gr_device_sync(gpu), GR_SUCCESS);
  gr_device_host_free(gpu, pinned);
  free(pageable);
  gr_buffer_release(&b);
}
END_TEST

typedef struct {
  const gr_buffer *b;
  int id;
  int failures;
} reader_arg;

/* Small reads of its own slice, many times. */
static void *reader(void *p) {
  reader_arg *a = p;
  unsigned char room[512 + 2 * GUARD];
  for (int r = 0; r < 400; r++) {
    const size_t bytes = 1 + (size_t)((r * 37 + a->id * 11) % 512);
    const size_t at = (size_t)a->id * 1024 + (size_t)(r % 7) * 13;
    memset(room, 0xa5, sizeof room);
    if (gr_device_copy(gpu, room + GUARD, (const unsigned char *)a->b->ptr + at, bytes, GR_COPY_D2H) < 0) {
      a->failures++;
      continue;
    }
    for (size_t i = 0; i < bytes; i++)
      if (room[GUARD + i] != pattern(at + i, 9)) {
        a->failures++;
        break;
      }
    if (room[GUARD + bytes] != 0xa5 || room[GUARD - 1] != 0xa5) a->failures++;
  }
  return NULL;
}

START_TEST(threads_reading_one_device_each_get_their_own_bytes) {
  gr_buffer b = {0};
  ck_assert_int_eq(gr_buffer_resize(&b, gpu, BYTES, 0, "test bytes"), GR_SUCCESS);
  fill(&b, 9);
  enum { THREADS = 6 };
  pthread_t t[THREADS];
  reader_arg a[THREADS];
  for (int i = 0; i < THREADS; i++) {
    a[i] = (reader_arg){&b, i, 0};
    ck_assert_int_eq(pthread_create(&t[i], NULL, reader, &a[i]), 0);
  }
  int failures = 0;
  for (int i = 0; i < THREADS; i++) {
    pthread_join(t[i], NULL);
    failures += a[i].failures;
  }
  ck_assert_int_eq(failures, 0);
  gr_buffer_release(&b);
}
END_TEST

/* Byte i of the data a fill writes, and what it was asked for. */
typedef struct fill_count {
  unsigned long long asked;
} fill_count;

static void fill_pattern(void *ctx, void *to, size_t off, size_t len) {
  fill_count *c = ctx;
  for (size_t i = 0; i < len; i++) ((unsigned char *)to)[i] = pattern(off + i, 7);
  __atomic_fetch_add(&c->asked, (unsigned long long)len, __ATOMIC_RELAXED);
}

/* gr_device_upload_fill: every byte lands where it belongs, asked for
 * once, through ordinary memory (under 256 MiB) and through the two pinned
 * stages (an odd size past four of them, so that the stages alternate and
 * the last is short), and nothing past the end is written. */
START_TEST(uploads_from_a_fill_land_whole) {
  const size_t sizes[] = {17, ((size_t)1 << 20) + 3, ((size_t)257 << 20) + 4093};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    const size_t n = sizes[k];
    gr_buffer b = {0};
    ck_assert_int_eq(gr_buffer_resize(&b, gpu, n + GUARD, 0, "fill"), GR_SUCCESS);
    ck_assert_int_eq(gr_device_memset(gpu, b.ptr, 0xa5, n + GUARD), GR_SUCCESS);
    fill_count c = {0};
    ck_assert_int_eq(gr_device_upload_fill(gpu, b.ptr, n, fill_pattern, &c), GR_SUCCESS);
    ck_assert_uint_eq(c.asked, n);
    unsigned char *h = malloc(n + GUARD);
    ck_assert_ptr_nonnull(h);
    ck_assert_int_eq(gr_device_copy(gpu, h, b.ptr, n + GUARD, GR_COPY_D2H), GR_SUCCESS);
    for (size_t i = 0; i < n; i++)
      if (h[i] != pattern(i, 7)) ck_abort_msg("upload of %zu bytes: byte %zu is %u, not %u", n, i, h[i], pattern(i, 7));
    for (size_t i = n; i < n + GUARD; i++) ck_assert_uint_eq(h[i], 0xa5);
    free(h);
    gr_buffer_release(&b);
  }
}
END_TEST

int main(void) {
  if (!gr_test_have_gpu()) return 77;
  Suite *s = suite_create("device_cuda");
  const gr_test_case cases[] = {
      {"reads_of_every_size_land_exactly", reads_of_every_size_land_exactly, 0},
      {"threads_reading_one_device_each_get_their_own_bytes", threads_reading_one_device_each_get_their_own_bytes, 0},
      {"uploads_from_a_fill_land_whole", uploads_from_a_fill_land_whole, 0},
  };
  gr_test_add_cases(s, cases, sizeof cases / sizeof cases[0], setup, teardown, 300);
  return gr_test_run_suite(s, 1);
}
