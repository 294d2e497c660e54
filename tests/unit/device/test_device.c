/* SPDX-License-Identifier: Apache-2.0 */
/* CPU device contexts: memory accounting, uploads from a fill, just-enough
 * buffers and the memory policies, the allocation fault-injection hook, time
 * marks, clear errors for devices that do not exist. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "gr/buffer.h"
#include "gr/device.h"
#include "gr/util.h"
#include "testutil.h"

START_TEST(cpu_device_counts_bytes_and_peak) {
  gr_device *d = NULL;
  ck_assert_int_eq(gr_device_create(&d, GR_BACKEND_CPU, 0, NULL), GR_SUCCESS);
  ck_assert_int_eq(gr_device_backend(d), GR_BACKEND_CPU);
  ck_assert_int_ge(gr_device_cpu_threads(d), 1);
  void *a = NULL, *b = NULL;
  ck_assert_int_eq(gr_device_malloc(d, &a, 1000, "a"), GR_SUCCESS);
  ck_assert_int_eq(gr_device_malloc(d, &b, 3000, "b"), GR_SUCCESS);
  gr_device_mem_stats m = gr_device_mem_stats_get(d);
  ck_assert_uint_eq(m.bytes_in_use, 4000);
  ck_assert_uint_eq(m.peak_bytes, 4000);
  ck_assert_uint_eq(m.allocations, 2);
  gr_device_free(d, b, 3000);
  m = gr_device_mem_stats_get(d);
  ck_assert_uint_eq(m.bytes_in_use, 1000);
  ck_assert_uint_eq(m.peak_bytes, 4000);
  gr_device_free(d, a, 1000);
  gr_device_destroy(&d);
  ck_assert_ptr_null(d);
  gr_device_destroy(&d); /* NULL is accepted */
}
END_TEST

START_TEST(copies_and_memset_work_on_the_cpu) {
  gr_device *d = NULL;
  ck_assert_int_eq(gr_device_create(&d, GR_BACKEND_CPU, 0, NULL), GR_SUCCESS);
  int src[4] = {1, 2, 3, 4}, dst[4] = {0};
  void *p = NULL;
  ck_assert_int_eq(gr_device_malloc(d, &p, sizeof src, "x"), GR_SUCCESS);
  ck_assert_int_eq(gr_device_copy(d, p, src, sizeof src, GR_COPY_H2D), GR_SUCCESS);
  ck_assert_int_eq(gr_device_copy(d, dst, p, sizeof src, GR_COPY_D2H), GR_SUCCESS);
  ck_assert_int_eq(memcmp(src, dst, sizeof src), 0);
  ck_assert_int_eq(gr_device_memset(d, p, 0xff, sizeof src), GR_SUCCESS);
  ck_assert_int_eq(gr_device_copy(d, dst, p, sizeof src, GR_COPY_D2H), GR_SUCCESS);
  ck_assert_int_eq(dst[2], -1);
  gr_device_free(d, p, sizeof src);
  gr_device_destroy(&d);
}
END_TEST

/* A fill that writes byte i of the data as a hash of i, and counts the
 * bytes it was asked for. */
typedef struct fill_count {
  unsigned long long asked;
} fill_count;

static unsigned char fill_byte(size_t i) { return (unsigned char)((i * 2654435761u) >> 11); }

static void fill_hashed(void *ctx, void *to, size_t off, size_t len) {
  fill_count *c = ctx;
  for (size_t i = 0; i < len; i++) ((unsigned char *)to)[i] = fill_byte(off + i);
  __atomic_fetch_add(&c->asked, (unsigned long long)len, __ATOMIC_RELAXED);
}

/* gr_device_upload_fill puts every byte where it belongs, asking for each
 * once, whatever the size (pieces of 1 MiB over the device's threads, the
 * last one short), and writes nothing past the end. */
START_TEST(an_upload_from_a_fill_lands_whole_on_the_cpu) {
  gr_device *d = NULL;
  ck_assert_int_eq(gr_device_create(&d, GR_BACKEND_CPU, 0, NULL), GR_SUCCESS);
  const size_t sizes[] = {1, 4096, ((size_t)1 << 20) - 1, (size_t)1 << 20, 3 * ((size_t)1 << 20) + 17};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    const size_t n = sizes[k];
    unsigned char *p = NULL;
    ck_assert_int_eq(gr_device_malloc(d, (void **)&p, n + 64, "fill"), GR_SUCCESS);
    memset(p, 0xa5, n + 64);
    fill_count c = {0};
    ck_assert_int_eq(gr_device_upload_fill(d, p, n, fill_hashed, &c), GR_SUCCESS);
    ck_assert_uint_eq(c.asked, n);
    for (size_t i = 0; i < n; i++)
      if (p[i] != fill_byte(i)) ck_abort_msg("upload of %zu bytes: byte %zu is %u, not %u", n, i, p[i], fill_byte(i));
    for (size_t i = n; i < n + 64; i++) ck_assert_uint_eq(p[i], 0xa5);
    gr_device_free(d, p, n + 64);
  }
  fill_count none = {0};
  ck_assert_int_eq(gr_device_upload_fill(d, NULL, 0, fill_hashed, &none), GR_SUCCESS);
  ck_assert_uint_eq(none.asked, 0);
  gr_device_destroy(&d);
}
END_TEST

/* A plain upload from an array, small (one copy) and past 16 MiB (over
 * the device's threads), lands whole and writes nothing past its end. */
START_TEST(an_upload_from_an_array_lands_whole_on_the_cpu) {
  gr_device *d = NULL;
  ck_assert_int_eq(gr_device_create(&d, GR_BACKEND_CPU, 0, NULL), GR_SUCCESS);
  const size_t sizes[] = {4096 + 5, ((size_t)17 << 20) + 3};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    const size_t n = sizes[k];
    unsigned char *src = malloc(n), *p = NULL;
    ck_assert_ptr_nonnull(src);
    for (size_t i = 0; i < n; i++) src[i] = fill_byte(i);
    ck_assert_int_eq(gr_device_malloc(d, (void **)&p, n + 64, "upload"), GR_SUCCESS);
    memset(p, 0xa5, n + 64);
    ck_assert_int_eq(gr_device_upload(d, p, src, n), GR_SUCCESS);
    ck_assert(memcmp(p, src, n) == 0);
    for (size_t i = n; i < n + 64; i++) ck_assert_uint_eq(p[i], 0xa5);
    gr_device_free(d, p, n + 64);
    free(src);
  }
  gr_device_destroy(&d);
}
END_TEST

START_TEST(buffers_grow_just_enough_and_count_reallocations) {
  gr_device *d = NULL;
  ck_assert_int_eq(gr_device_create(&d, GR_BACKEND_CPU, 0, NULL), GR_SUCCESS);
  gr_buffer b = GR_BUFFER_INIT;
  ck_assert_int_eq(gr_buffer_resize(&b, d, 100, 0, "b"), GR_SUCCESS);
  ck_assert_uint_eq(b.capacity, 100);
  memset(b.ptr, 7, 100);
  ck_assert_int_eq(gr_buffer_resize(&b, d, 50, 0, "b"), GR_SUCCESS); /* shrinking keeps capacity */
  ck_assert_uint_eq(b.capacity, 100);
  ck_assert_uint_eq(b.size, 50);
  ck_assert_int_eq(gr_buffer_resize(&b, d, 400, 1, "b"), GR_SUCCESS); /* grow, keep contents */
  ck_assert_uint_eq(b.capacity, 400);
  ck_assert_int_eq(((unsigned char *)b.ptr)[49], 7);
  gr_device_mem_stats m = gr_device_mem_stats_get(d);
  ck_assert_uint_eq(m.reallocations, 1);
  ck_assert_uint_eq(m.bytes_in_use, 400);
  ck_assert_uint_eq(m.peak_bytes, 500); /* old and new held during the copy */
  gr_mem_policy pre;
  ck_assert_int_eq(gr_mem_policy_parse(&pre, "prealloc:2"), GR_SUCCESS);
  ck_assert_int_eq(gr_buffer_reserve(&b, d, 1000, 0, &pre, 0, "b"), GR_SUCCESS);
  ck_assert_uint_eq(b.capacity, 2000);
  gr_mem_policy mx;
  ck_assert_int_eq(gr_mem_policy_parse(&mx, "max"), GR_SUCCESS);
  ck_assert_int_eq(gr_buffer_reserve(&b, d, 3000, 0, &mx, 10000, "b"), GR_SUCCESS);
  ck_assert_uint_eq(b.capacity, 10000);
  gr_buffer_release(&b);
  ck_assert_ptr_null(b.ptr);
  ck_assert_uint_eq(gr_device_mem_stats_get(d).bytes_in_use, 0);
  gr_device_destroy(&d);
}
END_TEST

/* A buffer that grows without keeping its contents gives its old room
 * back first: the device never holds both (the peak is the larger, not the
 * sum), and a failed growth leaves it empty, its bytes counted out. */
START_TEST(buffers_growing_without_keeping_never_hold_both) {
  gr_device *d = NULL;
  ck_assert_int_eq(gr_device_create(&d, GR_BACKEND_CPU, 0, NULL), GR_SUCCESS);
  gr_buffer b = GR_BUFFER_INIT;
  ck_assert_int_eq(gr_buffer_resize(&b, d, 1000, 0, "b"), GR_SUCCESS);
  ck_assert_int_eq(gr_buffer_resize(&b, d, 3000, 0, "b"), GR_SUCCESS);
  gr_device_mem_stats m = gr_device_mem_stats_get(d);
  ck_assert_uint_eq(m.peak_bytes, 3000);
  ck_assert_uint_eq(m.bytes_in_use, 3000);
  ck_assert_uint_eq(m.reallocations, 1);
  /* An empty buffer (size 0) asked to keep has nothing to keep either. */
  ck_assert_int_eq(gr_buffer_resize(&b, d, 0, 0, "b"), GR_SUCCESS);
  ck_assert_int_eq(gr_buffer_resize(&b, d, 5000, 1, "b"), GR_SUCCESS);
  ck_assert_uint_eq(gr_device_mem_stats_get(d).peak_bytes, 5000);
  gr_buffer_release(&b);
  gr_device_destroy(&d);
  /* The growth's allocation fails: the old room is gone, the buffer empty. */
  setenv("GR_FAULT_ALLOC", "0:2", 1);
  ck_assert_int_eq(gr_device_create(&d, GR_BACKEND_CPU, 0, NULL), GR_SUCCESS);
  unsetenv("GR_FAULT_ALLOC");
  gr_buffer c = GR_BUFFER_INIT;
  ck_assert_int_eq(gr_buffer_resize(&c, d, 100, 0, "c"), GR_SUCCESS);
  ck_assert_int_eq(gr_buffer_resize(&c, d, 200, 0, "c"), GR_ERR_DEVICE_OOM);
  ck_assert_ptr_null(c.ptr);
  ck_assert_uint_eq(c.capacity, 0);
  ck_assert_uint_eq(c.size, 0);
  ck_assert_uint_eq(gr_device_mem_stats_get(d).bytes_in_use, 0);
  ck_assert_int_eq(gr_buffer_resize(&c, d, 200, 0, "c"), GR_SUCCESS);
  gr_buffer_release(&c);
  gr_device_destroy(&d);
}
END_TEST

/* A buffer that grows by small steps (a frontier on a high-diameter graph)
 * must not be reallocated at every step. */
START_TEST(buffers_growing_in_small_steps_reallocate_logarithmically) {
  gr_device *d = NULL;
  ck_assert_int_eq(gr_device_create(&d, GR_BACKEND_CPU, 0, NULL), GR_SUCCESS);
  gr_buffer b = GR_BUFFER_INIT;
  gr_mem_policy je = GR_MEM_POLICY_INIT;
  for (size_t bytes = 1000; bytes <= 1000000; bytes += 1000) {
    ck_assert_int_eq(gr_buffer_reserve(&b, d, bytes, 1, &je, 0, "steps"), GR_SUCCESS);
    ck_assert_uint_ge(b.capacity, bytes);
    ck_assert_uint_le(b.capacity, bytes + bytes / 2 + 1000);
  }
  ck_assert_uint_le(gr_device_mem_stats_get(d).reallocations, 20);
  gr_buffer_release(&b);
  gr_device_destroy(&d);
}
END_TEST

START_TEST(memory_policy_rejects_bad_text) {
  gr_mem_policy p;
  ck_assert_int_eq(gr_mem_policy_parse(&p, "just-enough"), GR_SUCCESS);
  ck_assert_int_eq(p.kind, GR_MEM_JUST_ENOUGH);
  ck_assert_int_eq(gr_mem_policy_parse(&p, "prealloc:0.5"), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_mem_policy_parse(&p, "prealloc:"), GR_ERR_INVALID_ARG);
  ck_assert_int_eq(gr_mem_policy_parse(&p, "lots"), GR_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "lots"));
}
END_TEST

/* GR_FAULT_LAUNCH fails exactly the N-th launch of its device, once, and
 * another device's launches not at all; a malformed value is ignored. */
START_TEST(fault_injection_fails_the_nth_launch) {
  setenv("GR_FAULT_LAUNCH", "1:3", 1);
  gr_device *d0 = NULL, *d1 = NULL;
  ck_assert_int_eq(gr_device_create(&d0, GR_BACKEND_CPU, 0, NULL), GR_SUCCESS);
  ck_assert_int_eq(gr_device_create(&d1, GR_BACKEND_CPU, 1, NULL), GR_SUCCESS);
  unsetenv("GR_FAULT_LAUNCH");
  for (int i = 1; i <= 5; i++) {
    ck_assert_int_eq(gr__device_launch(d0, "k", NULL), GR_SUCCESS);
    const gr_status st = gr__device_launch(d1, "the_kernel", "file.cu:7");
    ck_assert_int_eq(st, i == 3 ? GR_ERR_INTERNAL : GR_SUCCESS);
    if (i == 3) {
      ck_assert_ptr_nonnull(strstr(gr_error_message(), "device 1"));
      ck_assert_ptr_nonnull(strstr(gr_error_message(), "kernel launch 3 failed (the_kernel at file.cu:7)"));
      ck_assert_ptr_nonnull(strstr(gr_error_message(), "GR_FAULT_LAUNCH"));
    }
  }
  gr_device_destroy(&d0);
  gr_device_destroy(&d1);
  setenv("GR_FAULT_LAUNCH", "1:0", 1);
  ck_assert_int_eq(gr_device_create(&d1, GR_BACKEND_CPU, 1, NULL), GR_SUCCESS);
  unsetenv("GR_FAULT_LAUNCH");
  ck_assert_int_eq(gr__device_launch(d1, "k", NULL), GR_SUCCESS);
  gr_device_destroy(&d1);
}
END_TEST

/* GR_DEVICE_MEMORY_LIMIT: the total and free memory a device reports, and
 * the allocations it refuses beyond the limit. */
START_TEST(memory_limit_caps_reports_and_allocations) {
  setenv("GR_DEVICE_MEMORY_LIMIT", "64K", 1);
  gr_device *d = NULL;
  ck_assert_int_eq(gr_device_create(&d, GR_BACKEND_CPU, 0, NULL), GR_SUCCESS);
  unsetenv("GR_DEVICE_MEMORY_LIMIT");
  size_t free_b = 0, total_b = 0;
  void *a = NULL, *b = NULL;
  ck_assert_int_eq(gr_device_malloc(d, &a, 40 << 10, "first"), GR_SUCCESS);
  ck_assert_int_eq(gr_device_mem_info(d, &free_b, &total_b), GR_SUCCESS);
  ck_assert_uint_eq(total_b, 64 << 10);
  ck_assert_uint_eq(free_b, 24 << 10);
  ck_assert_int_eq(gr_device_malloc(d, &b, 30 << 10, "second"), GR_ERR_DEVICE_OOM);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "GR_DEVICE_MEMORY_LIMIT"));
  ck_assert_int_eq(gr_device_malloc(d, &b, 24 << 10, "third"), GR_SUCCESS);
  gr_device_free(d, a, 40 << 10);
  gr_device_free(d, b, 24 << 10);
  gr_device_destroy(&d);
}
END_TEST

START_TEST(fault_injection_fails_the_nth_allocation) {
  setenv("GR_FAULT_ALLOC", "0:2", 1);
  gr_device *d = NULL;
  ck_assert_int_eq(gr_device_create(&d, GR_BACKEND_CPU, 0, NULL), GR_SUCCESS);
  unsetenv("GR_FAULT_ALLOC");
  void *a = NULL, *b = NULL, *c = NULL;
  ck_assert_int_eq(gr_device_malloc(d, &a, 10, "first"), GR_SUCCESS);
  ck_assert_int_eq(gr_device_malloc(d, &b, 10, "second"), GR_ERR_DEVICE_OOM);
  ck_assert_ptr_null(b);
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "second"));
  ck_assert_ptr_nonnull(strstr(gr_error_message(), "injected"));
  ck_assert_int_eq(gr_device_malloc(d, &c, 10, "third"), GR_SUCCESS);
  gr_device_free(d, a, 10);
  gr_device_free(d, c, 10);
  gr_device_destroy(&d);
}
END_TEST

/* Time marks: a span reads 0 until both its marks are recorded, the time
 * between them once they are, and 0 again once they are forgotten (the
 * exchange skips the marks around a move that enqueued nothing). */
START_TEST(time_marks_read_their_span_until_forgotten) {
  gr_device *d = NULL;
  ck_assert_int_eq(gr_device_create(&d, GR_BACKEND_CPU, 0, NULL), GR_SUCCESS);
  gr_device_marks *m = NULL;
  ck_assert_int_eq(gr_device_marks_create(&m, d, 2), GR_SUCCESS);
  ck_assert(gr_device_marks_ms(m, 0, 1) == 0.0);
  ck_assert_int_eq(gr_device_mark(m, 0), GR_SUCCESS);
  ck_assert(gr_device_marks_ms(m, 0, 1) == 0.0);
  const double t0 = gr_time_now();
  while (gr_time_now() - t0 < 2e-3) {
  }
  ck_assert_int_eq(gr_device_mark(m, 1), GR_SUCCESS);
  ck_assert(gr_device_marks_ms(m, 0, 1) >= 2.0);
  gr_device_marks_clear(m);
  ck_assert(gr_device_marks_ms(m, 0, 1) == 0.0);
  ck_assert_int_eq(gr_device_mark(m, 1), GR_SUCCESS);
  ck_assert(gr_device_marks_ms(m, 0, 1) == 0.0);
  ck_assert_int_eq(gr_device_mark(m, 2), GR_ERR_INVALID_ARG);
  gr_device_marks_clear(NULL);
  gr_device_marks_destroy(&m);
  ck_assert_ptr_null(m);
  gr_device_destroy(&d);
}
END_TEST

START_TEST(cuda_backend_absent_or_missing_gpu_is_a_clear_error) {
  int n = -1;
  ck_assert_int_eq(gr_device_count(GR_BACKEND_CUDA, &n), GR_SUCCESS);
  ck_assert_int_ge(n, 0);
  gr_device *d = NULL;
  gr_status st = gr_device_create(&d, GR_BACKEND_CUDA, n, NULL);
  ck_assert_int_eq(st, GR_ERR_NO_DEVICE);
  ck_assert_ptr_null(d);
  ck_assert_str_ne(gr_error_message(), "");
}
END_TEST

int main(void) {
  Suite *s = suite_create("device");
  TCase *tc = tcase_create("cpu");
  tcase_add_test(tc, cpu_device_counts_bytes_and_peak);
  tcase_add_test(tc, copies_and_memset_work_on_the_cpu);
  tcase_add_test(tc, an_upload_from_a_fill_lands_whole_on_the_cpu);
  tcase_add_test(tc, an_upload_from_an_array_lands_whole_on_the_cpu);
  tcase_add_test(tc, buffers_grow_just_enough_and_count_reallocations);
  tcase_add_test(tc, buffers_growing_in_small_steps_reallocate_logarithmically);
  tcase_add_test(tc, buffers_growing_without_keeping_never_hold_both);
  tcase_add_test(tc, memory_policy_rejects_bad_text);
  tcase_add_test(tc, fault_injection_fails_the_nth_allocation);
  tcase_add_test(tc, fault_injection_fails_the_nth_launch);
  tcase_add_test(tc, memory_limit_caps_reports_and_allocations);
  tcase_add_test(tc, time_marks_read_their_span_until_forgotten);
  tcase_add_test(tc, cuda_backend_absent_or_missing_gpu_is_a_clear_error);
  suite_add_tcase(s, tc);
  return gr_test_run_suite(s, 0);
}
