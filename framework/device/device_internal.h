/* SPDX-License-Identifier: Apache-2.0 */
/* The device context's layout, shared by the dispatching layer and the two
 * backends; nothing outside framework/device sees it. */
#ifndef GR_DEVICE_INTERNAL_H
#define GR_DEVICE_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "gr/device.h"

struct gr_device {
  gr_backend backend;
  int ordinal;       /* the device's index in gr (logical) */
  int gpu;           /* CUDA device ordinal (GR_DEVICE_MAP may map several to one); -1 on the CPU */
  int cpu_threads;
  int host_threads;  /* the host threads this device's thread may use (its share) */
  int sm_count;
  uint64_t l2_bytes;
  uint64_t memory_bandwidth; /* bytes a second, peak; 0 if unknown */
  char name[288];
  void *compute_stream; /* cudaStream_t: the one stream every operation goes on */
  /* Pinned host memory that small reads from the device land in (CUDA):
   * a copy into pageable memory costs the host more (gr__cuda_copy). */
  void *read_stage;
  pthread_mutex_t read_lock; /* the stage's: a device's own thread reads, but nothing forbids others */
  gr_device_mem_stats mem;
  int64_t fault_countdown; /* fail the allocation that makes it 0; <0 off */
  int64_t launch_countdown; /* fail the launch that makes it 0; <0 off (GR_FAULT_LAUNCH) */
  int64_t launch_fault_at;  /* N of GR_FAULT_LAUNCH, for the message */
  unsigned fault_delay_ms;  /* the hooks' delays before they fail (DEVICE:N:MS) */
  unsigned launch_delay_ms;
  int64_t slow_us;          /* GR_FAULT_SLOW: microseconds the stream stalls after each host wait; <=0 off */
  uint64_t memory_limit;    /* GR_DEVICE_MEMORY_LIMIT: the total the device reports; 0 none */
};

/* Backend entry points. */
gr_status gr__cpu_device_init(gr_device *d, const gr_device_options *o);
gr_status gr__cpu_device_count(int *count);

#ifdef GR_HAVE_CUDA
gr_status gr__cuda_device_count(int *count);
gr_status gr__cuda_gpu_of(int ordinal, int *gpu);
/* The GPUs the driver shows, GR_DEVICE_MAP aside. */
gr_status gr__cuda_physical_count(int *count);
void gr__cuda_versions(int *runtime, int *driver);
gr_status gr__cuda_device_init(gr_device *d);
void gr__cuda_device_fini(gr_device *d);
gr_status gr__cuda_activate(gr_device *d);
gr_status gr__cuda_preload(gr_device *d, const void *kernel);
gr_status gr__cuda_malloc(gr_device *d, void **out, size_t bytes);
/* GR_FAULT_SLOW: the compute stream holds `us` microseconds before its
 * next work (a host function that sleeps), the host thread goes on. */
gr_status gr__cuda_stall(gr_device *d, int64_t us);
void gr__cuda_free(gr_device *d, void *p);
gr_status gr__cuda_mem_info(gr_device *d, size_t *free_b, size_t *total_b);
gr_status gr__cuda_copy(gr_device *d, void *dst, const void *src, size_t bytes,
                        gr_copy_kind kind);
gr_status gr__cuda_memset(gr_device *d, void *p, int byte, size_t bytes);
gr_status gr__cuda_sync(gr_device *d);
void gr__cuda_run_mark(gr_device *d, bool start);
gr_status gr__cuda_host_alloc(gr_device *d, void **out, size_t bytes);
gr_status gr__cuda_host_mapped_alloc(gr_device *d, void **host, void **device, size_t bytes);
gr_status gr__cuda_upload(gr_device *d, void *dst, const void *src, size_t bytes);
gr_status gr__cuda_upload_fill(gr_device *d, void *dst, size_t bytes, gr_fill_fn fill, void *ctx);
gr_status gr__cuda_event_create(void **ev);
void gr__cuda_event_destroy(void *ev);
gr_status gr__cuda_event_record(gr_device *d, void *ev);
double gr__cuda_event_ms(void *a, void *b);
void gr__cuda_host_free(gr_device *d, void *p);
#endif

#endif
