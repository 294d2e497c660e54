/* SPDX-License-Identifier: Apache-2.0 */
/* Device contexts: dispatch to the CPU or CUDA backend, memory accounting and
 * the fault-injection and memory-limit hooks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/device_internal.h"
#include "gr/log.h"
#include "gr/util.h"

/* One set of counts per thread: each device is driven by its own thread. */
static _Thread_local gr_device_activity gr__activity;

gr_device_activity gr_device_activity_get(void) { return gr__activity; }
void gr__device_activity_launch(void) { gr__activity.launches++; }
void gr__device_activity_wait(void) { gr__activity.waits++; }
void gr__device_activity_copy(void) { gr__activity.copies++; }

int gr_cuda_available(void) {
#ifdef GR_HAVE_CUDA
  return 1;
#else
  return 0;
#endif
}

void gr_cuda_versions(int *runtime, int *driver) {
  *runtime = *driver = 0;
#ifdef GR_HAVE_CUDA
  gr__cuda_versions(runtime, driver);
#endif
}

gr_status gr_device_count(gr_backend backend, int *count) {
  *count = 0;
  if (backend == GR_BACKEND_CPU) return gr__cpu_device_count(count);
#ifdef GR_HAVE_CUDA
  return gr__cuda_device_count(count);
#else
  return GR_SUCCESS;
#endif
}

gr_status gr_device_physical_gpus(int *count) {
  *count = 0;
#ifdef GR_HAVE_CUDA
  return gr__cuda_physical_count(count);
#else
  return GR_SUCCESS;
#endif
}

/* GR_DEVICE_MEMORY_LIMIT=BYTES[K|M|G|T]: the most memory a device reports
 * and hands out; 0 when unset (or malformed, with a warning). */
bool gr_parse_bytes(const char *s, uint64_t *out) {
  if (!s || !*s) return false;
  size_t len = strlen(s);
  unsigned shift = 0;
  switch (s[len - 1]) {
    case 'K': case 'k': shift = 10; break;
    case 'M': case 'm': shift = 20; break;
    case 'G': case 'g': shift = 30; break;
    case 'T': case 't': shift = 40; break;
    default: break;
  }
  if (shift) len--;
  uint64_t v = 0;
  if (!gr_parse_count(s, len, &v) || v == 0 || v > (UINT64_MAX >> shift)) return false;
  *out = v << shift;
  return true;
}

static uint64_t gr__memory_limit(void) {
  const char *s = getenv("GR_DEVICE_MEMORY_LIMIT");
  if (!s || !*s) return 0;
  uint64_t v = 0;
  if (!gr_parse_bytes(s, &v)) {
    fprintf(stderr, "gr: warning: GR_DEVICE_MEMORY_LIMIT=%s is not a byte count (e.g. 64M); ignored\n", s);
    return 0;
  }
  return v;
}

gr_status gr_device_create(gr_device **out, gr_backend backend, int ordinal,
                           const gr_device_options *options) {
  gr_device_options defaults = GR_DEVICE_OPTIONS_INIT;
  if (!options) options = &defaults;
  *out = NULL;
  if (ordinal < 0)
    return gr_errorf(GR_ERR_INVALID_ARG, "device ordinal %d is negative", ordinal);
  gr_device *d = NULL;
  gr_status st = gr_host_calloc((void **)&d, 1, sizeof *d, "device context");
  if (st < 0) return st;
  d->backend = backend;
  d->ordinal = ordinal;
  d->gpu = options->gpu; /* -1: the CUDA backend picks by ordinal */
  /* The fault hooks (GR_FAULT_ALLOC: the N-th allocation fails as if the
   * device were out of memory; GR_FAULT_LAUNCH: the N-th kernel launch
   * fails as a launch error would) are read once here, so that the paths
   * they guard cost one comparison when they are unset. */
  d->fault_countdown = gr__fault_hook("GR_FAULT_ALLOC", ordinal, &d->fault_delay_ms);
  d->launch_countdown = gr__fault_hook("GR_FAULT_LAUNCH", ordinal, &d->launch_delay_ms);
  d->launch_fault_at = d->launch_countdown;
  /* GR_FAULT_SLOW=DEVICE:US: a device whose work runs late behind its host
   * thread, so that a peer which reads this device's buffers without
   * waiting for the kernels that write them reads them unwritten. */
  {
    unsigned unused_ms = 0;
    d->slow_us = gr__fault_hook("GR_FAULT_SLOW", ordinal, &unused_ms);
  }
  d->memory_limit = options->memory_limit ? options->memory_limit : gr__memory_limit();
  {
    const int per = options->devices_in_run > 0 ? options->devices_in_run : 1;
    d->host_threads = gr_host_threads() / per > 1 ? gr_host_threads() / per : 1;
  }
  if (backend == GR_BACKEND_CPU) {
    st = gr__cpu_device_init(d, options);
  } else {
#ifdef GR_HAVE_CUDA
    st = gr__cuda_device_init(d);
#else
    st = gr_errorf(GR_ERR_NO_DEVICE, "this build of gr has no CUDA backend (configure with nvcc on the PATH); use --cpu");
#endif
  }
  if (st < 0) {
    free(d);
    return st;
  }
  gr_log(GR_LOG_INFO, GR_SUBSYS_INIT, "device %d: %s", ordinal, d->name);
  *out = d;
  return GR_SUCCESS;
}

void gr_device_destroy(gr_device **dev) {
  if (!dev || !*dev) return;
  gr_device *d = *dev;
  if (d->mem.bytes_in_use)
    gr_log(GR_LOG_WARN, GR_SUBSYS_ALLOC, "device %d destroyed with %llu bytes still allocated",
           d->ordinal, (unsigned long long)d->mem.bytes_in_use);
#ifdef GR_HAVE_CUDA
  if (d->backend == GR_BACKEND_CUDA) gr__cuda_device_fini(d);
#endif
  free(d);
  *dev = NULL;
}

gr_status gr_device_preload(gr_device *dev, const void *kernel) {
#ifdef GR_HAVE_CUDA
  if (dev->backend == GR_BACKEND_CUDA) return gr__cuda_preload(dev, kernel);
#endif
  (void)dev;
  (void)kernel;
  return GR_SUCCESS;
}

gr_status gr_device_activate(gr_device *dev) {
#ifdef GR_HAVE_CUDA
  if (dev->backend == GR_BACKEND_CUDA) return gr__cuda_activate(dev);
#endif
  (void)dev;
  return GR_SUCCESS;
}

gr_backend gr_device_backend(const gr_device *dev) { return dev->backend; }
int gr_device_ordinal(const gr_device *dev) { return dev->ordinal; }
int gr_device_gpu(const gr_device *dev) { return dev->gpu; }

gr_status gr_device_gpu_of(int ordinal, int *gpu) {
#ifdef GR_HAVE_CUDA
  return gr__cuda_gpu_of(ordinal, gpu);
#else
  *gpu = ordinal;
  return GR_SUCCESS;
#endif
}
const char *gr_device_name(const gr_device *dev) { return dev->name; }
int gr_device_cpu_threads(const gr_device *dev) { return dev->cpu_threads; }
void *gr_device_stream(const gr_device *dev) { return dev->compute_stream; }
int gr_device_sm_count(const gr_device *dev) { return dev->sm_count; }
uint64_t gr_device_l2_bytes(const gr_device *dev) { return dev->l2_bytes; }
uint64_t gr_device_memory_bandwidth(const gr_device *dev) { return dev->memory_bandwidth; }

gr_status gr_device_mem_info(gr_device *dev, size_t *free_bytes, size_t *total_bytes) {
#ifdef GR_HAVE_CUDA
  if (dev->backend == GR_BACKEND_CUDA) GR_CHECK(gr__cuda_mem_info(dev, free_bytes, total_bytes));
#endif
  if (dev->backend == GR_BACKEND_CPU) {
    uint64_t total = gr_host_memory_bytes();
    *total_bytes = (size_t)total;
    *free_bytes = (size_t)(total > dev->mem.bytes_in_use ? total - dev->mem.bytes_in_use : 0);
  }
  if (dev->memory_limit) {
    const uint64_t lim = dev->memory_limit;
    const uint64_t left = lim > dev->mem.bytes_in_use ? lim - dev->mem.bytes_in_use : 0;
    if (*total_bytes > lim) *total_bytes = (size_t)lim;
    if (*free_bytes > left) *free_bytes = (size_t)left;
  }
  return GR_SUCCESS;
}

gr_status gr__device_launch(gr_device *dev, const char *launcher, const char *where) {
  gr__activity.launches++;
  if (dev->launch_countdown < 0 || --dev->launch_countdown) return GR_SUCCESS;
  gr__fault_delay(dev->launch_delay_ms);
  return gr_errorf(dev->backend == GR_BACKEND_CUDA ? GR_ERR_CUDA : GR_ERR_INTERNAL,
                   "device %d (%s): kernel launch %lld failed (%s%s%s) [injected by GR_FAULT_LAUNCH]", dev->ordinal,
                   dev->name, (long long)dev->launch_fault_at, launcher, where ? " at " : "", where ? where : "");
}

static gr_status gr__device_oom(gr_device *dev, size_t bytes, const char *what,
                                const char *why) {
  char a[32], u[32], t[32];
  size_t free_b = 0, total_b = 0;
  gr_device_mem_info(dev, &free_b, &total_b);
  return gr_errorf(GR_ERR_DEVICE_OOM,
                   "device %d (%s): cannot allocate %s for %s%s (in use by gr: %s; device total: %s)",
                   dev->ordinal, dev->name, gr_format_bytes(a, sizeof a, bytes),
                   what ? what : "data", why, gr_format_bytes(u, sizeof u, dev->mem.bytes_in_use),
                   gr_format_bytes(t, sizeof t, total_b));
}

gr_status gr_device_malloc(gr_device *dev, void **out, size_t bytes, const char *what) {
  *out = NULL;
  if (dev->fault_countdown > 0 && --dev->fault_countdown == 0) {
    gr__fault_delay(dev->fault_delay_ms);
    return gr__device_oom(dev, bytes, what, " [injected by GR_FAULT_ALLOC]");
  }
  if (dev->memory_limit &&
      bytes > (dev->memory_limit > dev->mem.bytes_in_use ? dev->memory_limit - dev->mem.bytes_in_use : 0))
    return gr__device_oom(dev, bytes, what, " [beyond the device memory limit: --device-memory-limit or GR_DEVICE_MEMORY_LIMIT]");
  size_t req = bytes ? bytes : 1;
  if (dev->backend == GR_BACKEND_CPU) {
    /* 256-byte alignment matches what CUDA gives and keeps vector loads in
     * the CPU kernels aligned. */
    size_t rounded = (req + 255) & ~(size_t)255;
    *out = aligned_alloc(256, rounded);
    if (!*out) return gr__device_oom(dev, bytes, what, "");
  } else {
#ifdef GR_HAVE_CUDA
    gr_status st = gr__cuda_malloc(dev, out, req);
    if (st == GR_ERR_DEVICE_OOM) return gr__device_oom(dev, bytes, what, "");
    if (st < 0) return st;
#endif
  }
  dev->mem.bytes_in_use += bytes;
  dev->mem.allocations++;
  gr__activity.allocations++;
  if (dev->mem.bytes_in_use > dev->mem.peak_bytes) dev->mem.peak_bytes = dev->mem.bytes_in_use;
  /* The address lets a sanitizer's report (which names an address) be
   * matched to the allocation and its device. */
  gr_log(GR_LOG_TRACE, GR_SUBSYS_ALLOC, "device %d: +%zu bytes for %s at %p (in use %llu)", dev->ordinal, bytes,
         what ? what : "data", *out, (unsigned long long)dev->mem.bytes_in_use);
  return GR_SUCCESS;
}

void gr_device_free(gr_device *dev, void *p, size_t bytes) {
  if (!p) return;
  gr__activity.allocations++;
  dev->mem.bytes_in_use -= bytes <= dev->mem.bytes_in_use ? bytes : dev->mem.bytes_in_use;
  /* Logged before the free: a freed pointer's value is indeterminate. */
  gr_log(GR_LOG_TRACE, GR_SUBSYS_ALLOC, "device %d: -%zu bytes at %p (in use %llu)", dev->ordinal, bytes, p,
         (unsigned long long)dev->mem.bytes_in_use);
  if (dev->backend == GR_BACKEND_CPU) {
    free(p);
  } else {
#ifdef GR_HAVE_CUDA
    gr__cuda_free(dev, p);
#endif
  }
}

gr_device_mem_stats gr_device_mem_stats_get(const gr_device *dev) { return dev->mem; }
void gr_device_mem_stats_reset_peak(gr_device *dev) { dev->mem.peak_bytes = dev->mem.bytes_in_use; }
void gr__device_count_realloc(gr_device *dev) { dev->mem.reallocations++; }

#ifdef GR_HAVE_CUDA
/* After a host wait on a GPU: GR_FAULT_SLOW holds the stream back. */
static gr_status gr__device_waited(gr_device *dev) {
  return dev->slow_us > 0 ? gr__cuda_stall(dev, dev->slow_us) : GR_SUCCESS;
}
#endif

gr_status gr_device_copy(gr_device *dev, void *dst, const void *src, size_t bytes,
                         gr_copy_kind kind) {
  if (!bytes) return GR_SUCCESS;
  gr__activity.copies++;
  if (kind == GR_COPY_D2H || kind == GR_COPY_H2H) gr__activity.waits++;
#ifdef GR_HAVE_CUDA
  if (dev->backend == GR_BACKEND_CUDA) {
    GR_CHECK(gr__cuda_copy(dev, dst, src, bytes, kind));
    return kind == GR_COPY_D2H || kind == GR_COPY_H2H ? gr__device_waited(dev) : GR_SUCCESS;
  }
#endif
  (void)kind;
  memmove(dst, src, bytes);
  return GR_SUCCESS;
}

gr_status gr_device_upload_fill(gr_device *dev, void *dst, size_t bytes, gr_fill_fn fill, void *ctx) {
  if (!bytes) return GR_SUCCESS;
  gr__activity.copies++;
#ifdef GR_HAVE_CUDA
  if (dev->backend == GR_BACKEND_CUDA) {
    gr__activity.waits++;
    return gr__cuda_upload_fill(dev, dst, bytes, fill, ctx);
  }
#endif
  /* A CPU device's memory is the host's: the data goes straight there. */
  gr_fill_parallel(dev->host_threads > 0 ? dev->host_threads : 1, dst, 0, bytes, fill, ctx);
  return GR_SUCCESS;
}

gr_status gr_device_upload(gr_device *dev, void *dst, const void *src, size_t bytes) {
  if (!bytes) return GR_SUCCESS;
#ifdef GR_HAVE_CUDA
  if (dev->backend == GR_BACKEND_CUDA) {
    gr__activity.copies++;
    gr__activity.waits++;
    return gr__cuda_upload(dev, dst, src, bytes);
  }
#endif
  /* A part's arrays are gigabytes: copied by the device's share of the
   * host's threads, not by one. */
  if (bytes >= (size_t)16 << 20) {
    gr__activity.copies++;
    gr_fill_parallel(dev->host_threads > 0 ? dev->host_threads : 1, dst, 0, bytes, gr_fill_copy,
                     (void *)(uintptr_t)src);
    return GR_SUCCESS;
  }
  return gr_device_copy(dev, dst, src, bytes, GR_COPY_H2D);
}

gr_status gr_device_memset(gr_device *dev, void *p, int byte, size_t bytes) {
  if (!bytes) return GR_SUCCESS;
  gr__activity.memsets++;
#ifdef GR_HAVE_CUDA
  if (dev->backend == GR_BACKEND_CUDA) return gr__cuda_memset(dev, p, byte, bytes);
#endif
  memset(p, byte, bytes);
  return GR_SUCCESS;
}

gr_status gr_device_sync(gr_device *dev) {
  gr__activity.waits++;
#ifdef GR_HAVE_CUDA
  if (dev->backend == GR_BACKEND_CUDA) {
    GR_CHECK(gr__cuda_sync(dev));
    return gr__device_waited(dev);
  }
#endif
  (void)dev;
  return GR_SUCCESS;
}

void gr_device_run_mark(gr_device *dev, bool start) {
#ifdef GR_HAVE_CUDA
  if (dev->backend == GR_BACKEND_CUDA) gr__cuda_run_mark(dev, start);
#endif
  (void)dev;
  (void)start;
}

gr_status gr_device_host_alloc(gr_device *dev, void **out, size_t bytes, const char *what) {
#ifdef GR_HAVE_CUDA
  if (dev->backend == GR_BACKEND_CUDA) {
    gr_status st = gr__cuda_host_alloc(dev, out, bytes);
    if (st < 0) return gr_error_prefix(st, "pinned host memory for %s: ", what ? what : "data");
    return st;
  }
#endif
  return gr_host_alloc(out, bytes, what);
}

gr_status gr_device_host_mapped_alloc(gr_device *dev, void **host, void **device, size_t bytes, const char *what) {
  *host = *device = NULL;
#ifdef GR_HAVE_CUDA
  if (dev->backend == GR_BACKEND_CUDA) {
    gr_status st = gr__cuda_host_mapped_alloc(dev, host, device, bytes);
    if (st < 0) return gr_error_prefix(st, "mapped host memory for %s: ", what ? what : "data");
    return st;
  }
#endif
  GR_CHECK(gr_host_alloc(host, bytes ? bytes : 1, what));
  *device = *host;
  return GR_SUCCESS;
}

void gr_device_host_free(gr_device *dev, void *p) {
  if (!p) return;
#ifdef GR_HAVE_CUDA
  if (dev->backend == GR_BACKEND_CUDA) {
    gr__cuda_host_free(dev, p);
    return;
  }
#endif
  free(p);
}

struct gr_device_marks {
  gr_device *dev;
  int n;
  void **ev;      /* CUDA events */
  double *t;      /* host clock (CPU devices) */
  bool *recorded;
};

gr_status gr_device_marks_create(gr_device_marks **out, gr_device *dev, int n) {
  *out = NULL;
  gr_device_marks *m = NULL;
  gr_status st = GR_SUCCESS;
  GR_CHECK(gr_host_calloc((void **)&m, 1, sizeof *m, "device marks"));
  m->dev = dev;
  m->n = n;
  GR_CHECK_GOTO(gr_host_calloc((void **)&m->recorded, (size_t)n, sizeof *m->recorded, "device marks"), st, fail);
  if (dev->backend == GR_BACKEND_CUDA) {
#ifdef GR_HAVE_CUDA
    GR_CHECK_GOTO(gr_host_calloc((void **)&m->ev, (size_t)n, sizeof *m->ev, "device marks"), st, fail);
    for (int k = 0; k < n; k++) GR_CHECK_GOTO(gr__cuda_event_create(&m->ev[k]), st, fail);
#endif
  } else {
    GR_CHECK_GOTO(gr_host_calloc((void **)&m->t, (size_t)n, sizeof *m->t, "device marks"), st, fail);
  }
  *out = m;
  return GR_SUCCESS;
fail:
  gr_device_marks_destroy(&m);
  return st;
}

void gr_device_marks_destroy(gr_device_marks **mp) {
  if (!mp || !*mp) return;
  gr_device_marks *m = *mp;
#ifdef GR_HAVE_CUDA
  for (int k = 0; m->ev && k < m->n; k++) gr__cuda_event_destroy(m->ev[k]);
#endif
  free(m->ev);
  free(m->t);
  free(m->recorded);
  free(m);
  *mp = NULL;
}

gr_status gr_device_mark(gr_device_marks *m, int k) {
  if (k < 0 || k >= m->n) return gr_errorf(GR_ERR_INVALID_ARG, "mark %d of %d", k, m->n);
  m->recorded[k] = true;
#ifdef GR_HAVE_CUDA
  if (m->ev) return gr__cuda_event_record(m->dev, m->ev[k]);
#endif
  m->t[k] = gr_time_now();
  return GR_SUCCESS;
}

void gr_device_marks_clear(gr_device_marks *m) {
  if (m) memset(m->recorded, 0, (size_t)m->n * sizeof *m->recorded);
}

double gr_device_marks_ms(gr_device_marks *m, int a, int b) {
  if (a < 0 || b < 0 || a >= m->n || b >= m->n || !m->recorded[a] || !m->recorded[b]) return 0.0;
#ifdef GR_HAVE_CUDA
  if (m->ev) return gr__cuda_event_ms(m->ev[a], m->ev[b]);
#endif
  return (m->t[b] - m->t[a]) * 1e3;
}
