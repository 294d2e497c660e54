/* SPDX-License-Identifier: Apache-2.0 */
/* The CUDA backend's device: streams, memory and copies through the CUDA
 * runtime. Every call is checked; a failed call's sticky error is cleared so
 * the next check reports its own. */
#include <cuda.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "device/device_internal.h"
#include "gr/cuda_check.h"
#include "gr/log.h"
#include "gr/util.h"

gr_status gr__cuda_physical_count(int *count) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) {
    cudaGetLastError();
    *count = 0;
    return GR_SUCCESS;
  }
  GR_CUDA_CHECK(e);
  *count = n;
  return GR_SUCCESS;
}

/* GR_DEVICE_MAP=0,0,1 (README, testing hooks) presents three devices to gr
 * that run on GPUs 0, 0 and 1, so the multi-device CUDA path can be tested
 * on a machine with fewer GPUs. Returns the number of mapped devices, 0 when
 * the variable is unset. */
static gr_status gr__cuda_device_map(int *map, int max, int *mapped) {
  *mapped = 0;
  const char *s = getenv("GR_DEVICE_MAP");
  if (!s || !*s) return GR_SUCCESS;
  int phys = 0;
  GR_CHECK(gr__cuda_physical_count(&phys));
  const char *c = s;
  int k = 0;
  while (*c) {
    char *end = NULL;
    long v = strtol(c, &end, 10);
    if (end == c || v < 0 || v >= phys || k >= max || (*end && *end != ','))
      return gr_errorf(GR_ERR_NO_DEVICE,
                       "GR_DEVICE_MAP=%s must be a comma-separated list of at most %d GPU ordinals "
                       "below %d", s, max, phys);
    map[k++] = (int)v;
    c = *end ? end + 1 : end;
  }
  *mapped = k;
  return GR_SUCCESS;
}

enum { GR__MAX_MAPPED = 1024 };
/* Reads of at most this many bytes go through the device's pinned stage. */
enum { GR__READ_STAGE_BYTES = 4096 };

gr_status gr__cuda_gpu_of(int ordinal, int *gpu) {
  int map[GR__MAX_MAPPED], mapped = 0;
  GR_CHECK(gr__cuda_device_map(map, GR__MAX_MAPPED, &mapped));
  if (mapped && ordinal >= mapped)
    return gr_errorf(GR_ERR_NO_DEVICE, "device %d is not in GR_DEVICE_MAP (%d devices)", ordinal, mapped);
  *gpu = mapped ? map[ordinal] : ordinal;
  return GR_SUCCESS;
}

gr_status gr__cuda_device_count(int *count) {
  int map[GR__MAX_MAPPED], mapped = 0;
  GR_CHECK(gr__cuda_device_map(map, GR__MAX_MAPPED, &mapped));
  if (mapped) {
    *count = mapped;
    return GR_SUCCESS;
  }
  return gr__cuda_physical_count(count);
}

void gr__cuda_versions(int *runtime, int *driver) {
  if (cudaRuntimeGetVersion(runtime) != cudaSuccess) *runtime = 0;
  if (cudaDriverGetVersion(driver) != cudaSuccess) *driver = 0;
  cudaGetLastError();
}

/* A release (a free, a stream or event destroy) that failed: cleared, or
 * the next launch's check (cudaGetLastError) would report this failure as
 * its own; logged (GR_DEBUG=WARN), since on a healthy device it is a bug (a
 * pointer freed twice, or not from the matching allocation), and
 * compute-sanitizer reports it too. After a device fault every release
 * fails the same way, and the fault was reported first. */
static void gr__cuda_released(cudaError_t e, const gr_device *d, const char *call, const void *p) {
  if (e == cudaSuccess) return;
  (void)cudaGetLastError();
  if (d)
    gr_log(GR_LOG_WARN, GR_SUBSYS_ALLOC, "device %d: %s(%p): %s", d->ordinal, call, p, cudaGetErrorString(e));
  else
    gr_log(GR_LOG_WARN, GR_SUBSYS_ALLOC, "%s(%p): %s", call, p, cudaGetErrorString(e));
}

gr_status gr__cuda_device_init(gr_device *d) {
  int n = 0;
  GR_CHECK(gr__cuda_device_count(&n));
  if (n == 0)
    return gr_errorf(GR_ERR_NO_DEVICE, "no CUDA GPU is visible (driver found none); use --cpu to run on the CPU backend");
  if (d->gpu >= 0) {
    /* Chosen by the caller: a physical ordinal, GR_DEVICE_MAP aside. */
    int phys = 0;
    GR_CHECK(gr__cuda_physical_count(&phys));
    if (d->gpu >= phys)
      return gr_errorf(GR_ERR_NO_DEVICE, "GPU %d was asked for (device %d), but only %d GPU%s exist%s", d->gpu,
                       d->ordinal, phys, phys == 1 ? "" : "s", phys == 1 ? "s" : "");
  } else {
    if (d->ordinal >= n)
      return gr_errorf(GR_ERR_NO_DEVICE, "GPU %d was asked for, but only %d GPU%s exist%s", d->ordinal, n,
                       n == 1 ? "" : "s", n == 1 ? "s" : "");
    int map[GR__MAX_MAPPED], mapped = 0;
    GR_CHECK(gr__cuda_device_map(map, GR__MAX_MAPPED, &mapped));
    d->gpu = mapped ? map[d->ordinal] : d->ordinal;
  }
  GR_CUDA_CHECK(cudaSetDevice(d->gpu));
  struct cudaDeviceProp prop;
  GR_CUDA_CHECK(cudaGetDeviceProperties(&prop, d->gpu));
  snprintf(d->name, sizeof d->name, "%s", prop.name);
  d->sm_count = prop.multiProcessorCount;
  d->l2_bytes = prop.l2CacheSize > 0 ? (uint64_t)prop.l2CacheSize : 0;
  /* Peak bandwidth: two transfers a memory clock (kHz) over the bus (bits).
   * A device that does not say leaves it 0, and the choices that ask for
   * it (walk-stage=auto) then take their default path. */
  int khz = 0, bits = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, d->gpu) != cudaSuccess ||
      cudaDeviceGetAttribute(&bits, cudaDevAttrGlobalMemoryBusWidth, d->gpu) != cudaSuccess) {
    (void)cudaGetLastError();
    khz = bits = 0;
  }
  d->memory_bandwidth = khz > 0 && bits > 0 ? 2u * (uint64_t)khz * 1000u * (uint64_t)bits / 8u : 0;
  cudaStream_t s1 = NULL;
  GR_CUDA_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  void *stage = NULL;
  const cudaError_t e = cudaMallocHost(&stage, GR__READ_STAGE_BYTES);
  if (e != cudaSuccess) {
    cudaGetLastError();
    gr__cuda_released(cudaStreamDestroy(s1), d, "cudaStreamDestroy", s1);
    return gr_errorf(e == cudaErrorMemoryAllocation ? GR_ERR_HOST_OOM : GR_ERR_CUDA,
                     "cudaMallocHost(%d bytes) for device %d's reads: %s", GR__READ_STAGE_BYTES, d->ordinal,
                     cudaGetErrorString(e));
  }
  d->compute_stream = s1;
  d->read_stage = stage;
  if (pthread_mutex_init(&d->read_lock, NULL) != 0) {
    gr__cuda_released(cudaFreeHost(stage), d, "cudaFreeHost", stage);
    gr__cuda_released(cudaStreamDestroy(s1), d, "cudaStreamDestroy", s1);
    d->compute_stream = d->read_stage = NULL;
    return gr_errorf(GR_ERR_INTERNAL, "device %d: its read stage's lock could not be made", d->ordinal);
  }
  return GR_SUCCESS;
}

void gr__cuda_device_fini(gr_device *d) {
  if (cudaSetDevice(d->gpu) != cudaSuccess) (void)cudaGetLastError();
  if (d->compute_stream)
    gr__cuda_released(cudaStreamDestroy((cudaStream_t)d->compute_stream), d, "cudaStreamDestroy", d->compute_stream);
  if (d->read_stage) {
    gr__cuda_released(cudaFreeHost(d->read_stage), d, "cudaFreeHost", d->read_stage);
    pthread_mutex_destroy(&d->read_lock);
  }
  d->compute_stream = d->read_stage = NULL;
}

gr_status gr__cuda_activate(gr_device *d) {
  GR_CUDA_CHECK(cudaSetDevice(d->gpu));
  return GR_SUCCESS;
}

/* The driver's functions that load a module's kernels on request (CUDA
 * 12.4), through the runtime's entry points (12.5) so that gr links no
 * driver library of its own. All NULL where the driver lacks one of them;
 * a toolkit older than 12.5 builds gr without the preload. */
#if CUDART_VERSION >= 12050
typedef CUresult (*gr__cu_func_get_module)(CUmodule *, CUfunction);
typedef CUresult (*gr__cu_module_count)(unsigned int *, CUmodule);
typedef CUresult (*gr__cu_module_enumerate)(CUfunction *, unsigned int, CUmodule);
typedef CUresult (*gr__cu_func_is_loaded)(CUfunctionLoadingState *, CUfunction);
typedef CUresult (*gr__cu_func_load)(CUfunction);
static struct {
  gr__cu_func_get_module get_module;
  gr__cu_module_count count;
  gr__cu_module_enumerate enumerate;
  gr__cu_func_is_loaded is_loaded;
  gr__cu_func_load load;
} gr__cu;
static pthread_once_t gr__cu_once = PTHREAD_ONCE_INIT;

static void *gr__cu_entry(const char *name) {
  void *fn = NULL;
  enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
  if (cudaGetDriverEntryPointByVersion(name, &fn, 12040, cudaEnableDefault, &q) != cudaSuccess ||
      q != cudaDriverEntryPointSuccess) {
    (void)cudaGetLastError();
    return NULL;
  }
  return fn;
}

static void gr__cu_resolve(void) {
  gr__cu.get_module = (gr__cu_func_get_module)gr__cu_entry("cuFuncGetModule");
  gr__cu.count = (gr__cu_module_count)gr__cu_entry("cuModuleGetFunctionCount");
  gr__cu.enumerate = (gr__cu_module_enumerate)gr__cu_entry("cuModuleEnumerateFunctions");
  gr__cu.is_loaded = (gr__cu_func_is_loaded)gr__cu_entry("cuFuncIsLoaded");
  gr__cu.load = (gr__cu_func_load)gr__cu_entry("cuFuncLoad");
}

/* The modules loaded whole, per GPU (a module's handle belongs to one
 * context: GR_DEVICE_MAP's devices on one GPU share it). */
enum { GR__PRELOADED_MAX = 256 };
static struct {
  int gpu;
  CUmodule mod;
} gr__preloaded[GR__PRELOADED_MAX];
static int gr__n_preloaded;
static pthread_mutex_t gr__preload_mu = PTHREAD_MUTEX_INITIALIZER;

static gr_status gr__cu_fail(CUresult r, const char *what, int gpu) {
  return gr_errorf(GR_ERR_CUDA, "GPU %d: %s failed while loading kernels (CUDA driver error %d)", gpu, what, (int)r);
}

gr_status gr__cuda_preload(gr_device *d, const void *kernel) {
  pthread_once(&gr__cu_once, gr__cu_resolve);
  if (!kernel || !gr__cu.get_module || !gr__cu.count || !gr__cu.enumerate || !gr__cu.is_loaded || !gr__cu.load)
    return GR_SUCCESS;
  GR_CUDA_CHECK(cudaSetDevice(d->gpu));
  cudaFunction_t f = NULL;
  GR_CUDA_CHECK(cudaGetFuncBySymbol(&f, kernel));
  CUmodule mod = NULL;
  CUresult r = gr__cu.get_module(&mod, (CUfunction)f);
  if (r != CUDA_SUCCESS) return gr__cu_fail(r, "cuFuncGetModule", d->gpu);
  /* Held while loading: a second device thread on the same GPU waits for
   * the module rather than loading it again beside it. */
  pthread_mutex_lock(&gr__preload_mu);
  gr_status st = GR_SUCCESS;
  CUfunction *fs = NULL;
  for (int i = 0; i < gr__n_preloaded; i++)
    if (gr__preloaded[i].gpu == d->gpu && gr__preloaded[i].mod == mod) goto done;
  unsigned n = 0;
  r = gr__cu.count(&n, mod);
  if (r != CUDA_SUCCESS) {
    st = gr__cu_fail(r, "cuModuleGetFunctionCount", d->gpu);
    goto done;
  }
  fs = n ? malloc(n * sizeof *fs) : NULL;
  if (n && !fs) {
    st = gr_errorf(GR_ERR_HOST_OOM, "loading kernels: no room for %u function handles", n);
    goto done;
  }
  r = n ? gr__cu.enumerate(fs, n, mod) : CUDA_SUCCESS;
  if (r != CUDA_SUCCESS) {
    st = gr__cu_fail(r, "cuModuleEnumerateFunctions", d->gpu);
    goto done;
  }
  for (unsigned i = 0; i < n; i++) {
    CUfunctionLoadingState s = CU_FUNCTION_LOADING_STATE_LOADED;
    r = gr__cu.is_loaded(&s, fs[i]);
    if (r == CUDA_SUCCESS && s != CU_FUNCTION_LOADING_STATE_LOADED) r = gr__cu.load(fs[i]);
    if (r != CUDA_SUCCESS) {
      st = gr__cu_fail(r, "cuFuncLoad", d->gpu);
      goto done;
    }
  }
  if (gr__n_preloaded < GR__PRELOADED_MAX) {
    gr__preloaded[gr__n_preloaded].gpu = d->gpu;
    gr__preloaded[gr__n_preloaded].mod = mod;
    gr__n_preloaded++;
  }
  gr_log(GR_LOG_TRACE, GR_SUBSYS_INIT, "device %d: GPU %d: %u kernels of a module loaded", d->ordinal, d->gpu, n);
done:
  pthread_mutex_unlock(&gr__preload_mu);
  free(fs);
  return st;
}
#else
gr_status gr__cuda_preload(gr_device *d, const void *kernel) {
  (void)d;
  (void)kernel;
  return GR_SUCCESS;
}
#endif

gr_status gr__cuda_malloc(gr_device *d, void **out, size_t bytes) {
  (void)d;
  cudaError_t e = cudaMalloc(out, bytes);
  if (e == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    *out = NULL;
    return GR_ERR_DEVICE_OOM;
  }
  GR_CUDA_CHECK(e);
  return GR_SUCCESS;
}

void gr__cuda_free(gr_device *d, void *p) { gr__cuda_released(cudaFree(p), d, "cudaFree", p); }

gr_status gr__cuda_mem_info(gr_device *d, size_t *free_b, size_t *total_b) {
  (void)d;
  GR_CUDA_CHECK(cudaMemGetInfo(free_b, total_b));
  return GR_SUCCESS;
}

gr_status gr__cuda_copy(gr_device *d, void *dst, const void *src, size_t bytes,
                        gr_copy_kind kind) {
  static const enum cudaMemcpyKind kinds[] = {cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost,
                                              cudaMemcpyDeviceToDevice, cudaMemcpyHostToHost};
  cudaStream_t s = (cudaStream_t)d->compute_stream;
  if (kind == GR_COPY_D2H && bytes <= GR__READ_STAGE_BYTES) {
    /* A small read (counters, a flag, a few labels), mostly into the
     * caller's stack: through pinned memory, whose copy the copy engine
     * takes directly. Into pageable memory the driver stages it itself,
     * which cost the host 0.5-2.7 us more a read on an H200 machine
     * (gr_host_calls: a kernel, then an 8-byte or 2 KiB read). A caller
     * whose memory is pinned already pays a memcpy of a few bytes more. */
    pthread_mutex_lock(&d->read_lock);
    const char *what = "cudaMemcpyAsync (a read through the stage)";
    cudaError_t e = cudaMemcpyAsync(d->read_stage, src, bytes, cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess) {
      what = "cudaStreamSynchronize (a read through the stage)";
      e = cudaStreamSynchronize(s);
    }
    if (e == cudaSuccess) memcpy(dst, d->read_stage, bytes);
    pthread_mutex_unlock(&d->read_lock);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      return gr_errorf(e == cudaErrorMemoryAllocation ? GR_ERR_DEVICE_OOM : GR_ERR_CUDA, "%s of %zu bytes: %s", what,
                       bytes, cudaGetErrorString(e));
    }
    return GR_SUCCESS;
  }
  GR_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kinds[kind], s));
  /* A copy to host memory is complete when this returns, whatever kind of
   * host memory it is, so callers may read it at once. */
  if (kind == GR_COPY_D2H || kind == GR_COPY_H2H) GR_CUDA_CHECK(cudaStreamSynchronize(s));
  return GR_SUCCESS;
}

static void CUDART_CB gr__cuda_stall_fn(void *arg) {
  const int64_t us = (int64_t)(intptr_t)arg;
  struct timespec ts = {(time_t)(us / 1000000), (long)(us % 1000000) * 1000L};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

gr_status gr__cuda_stall(gr_device *d, int64_t us) {
  GR_CUDA_CHECK(cudaLaunchHostFunc((cudaStream_t)d->compute_stream, gr__cuda_stall_fn, (void *)(intptr_t)us));
  return GR_SUCCESS;
}

gr_status gr__cuda_memset(gr_device *d, void *p, int byte, size_t bytes) {
  GR_CUDA_CHECK(cudaMemsetAsync(p, byte, bytes, (cudaStream_t)d->compute_stream));
  return GR_SUCCESS;
}

gr_status gr__cuda_sync(gr_device *d) {
  GR_CUDA_CHECK(cudaStreamSynchronize((cudaStream_t)d->compute_stream));
  return GR_SUCCESS;
}

void gr__cuda_run_mark(gr_device *d, bool start) {
  (void)d;
  /* The profiler's calls act on the process, whatever device is current. */
  const cudaError_t e = start ? cudaProfilerStart() : cudaProfilerStop();
  if (e != cudaSuccess) (void)cudaGetLastError();
}

gr_status gr__cuda_host_alloc(gr_device *d, void **out, size_t bytes) {
  (void)d;
  cudaError_t e = cudaMallocHost(out, bytes ? bytes : 1);
  if (e != cudaSuccess) {
    cudaGetLastError();
    *out = NULL;
    return gr_errorf(GR_ERR_HOST_OOM, "cudaMallocHost(%zu bytes): %s", bytes, cudaGetErrorString(e));
  }
  return GR_SUCCESS;
}

gr_status gr__cuda_host_mapped_alloc(gr_device *d, void **host, void **device, size_t bytes) {
  *host = *device = NULL;
  cudaError_t e = cudaHostAlloc(host, bytes ? bytes : 1, cudaHostAllocMapped | cudaHostAllocPortable);
  if (e != cudaSuccess) {
    cudaGetLastError();
    *host = NULL;
    return gr_errorf(GR_ERR_HOST_OOM, "cudaHostAlloc(%zu bytes, mapped): %s", bytes, cudaGetErrorString(e));
  }
  e = cudaHostGetDevicePointer(device, *host, 0);
  if (e != cudaSuccess) {
    cudaGetLastError();
    gr__cuda_released(cudaFreeHost(*host), d, "cudaFreeHost", *host);
    *host = *device = NULL;
    return gr_errorf(GR_ERR_CUDA, "cudaHostGetDevicePointer: %s", cudaGetErrorString(e));
  }
  return GR_SUCCESS;
}

void gr__cuda_host_free(gr_device *d, void *p) { gr__cuda_released(cudaFreeHost(p), d, "cudaFreeHost", p); }

gr_status gr__cuda_event_create(void **ev) {
  cudaEvent_t e = NULL;
  GR_CUDA_CHECK(cudaEventCreate(&e));
  *ev = e;
  return GR_SUCCESS;
}

void gr__cuda_event_destroy(void *ev) {
  if (ev) gr__cuda_released(cudaEventDestroy((cudaEvent_t)ev), NULL, "cudaEventDestroy", ev);
}

gr_status gr__cuda_event_record(gr_device *d, void *ev) {
  GR_CUDA_CHECK(cudaEventRecord((cudaEvent_t)ev, (cudaStream_t)d->compute_stream));
  return GR_SUCCESS;
}

double gr__cuda_event_ms(void *a, void *b) {
  float ms = 0.0f;
  /* Marks not reached yet (a step that waited for nothing after them)
   * count nothing. Asked first, so that no call fails: compute-sanitizer
   * reports cudaEventElapsedTime's "not ready" as an error (SSSP on two
   * logical devices, a device that received nothing). */
  if (cudaEventQuery((cudaEvent_t)b) != cudaSuccess || cudaEventQuery((cudaEvent_t)a) != cudaSuccess) {
    cudaGetLastError();
    return 0.0;
  }
  if (cudaEventElapsedTime(&ms, (cudaEvent_t)a, (cudaEvent_t)b) != cudaSuccess) {
    cudaGetLastError();
    return 0.0;
  }
  return (double)ms;
}

/* Two pinned staging buffers: the host threads fill one while the GPU
 * copies the other. Small copies go straight (staging costs two pinned
 * allocations). */
enum { GR__STAGE_BYTES = 64 << 20 };

/* The staged upload of a fill through two pinned stages; true in
 * *no_stages (and nothing done) where they could not be had. */
static gr_status gr__cuda_upload_staged(gr_device *d, void *dst, size_t bytes, gr_fill_fn fill, void *ctx,
                                        bool *no_stages);

gr_status gr__cuda_upload(gr_device *d, void *dst, const void *src, size_t bytes) {
  cudaStream_t s = (cudaStream_t)d->compute_stream;
  bool no_stages = false;
  if (bytes >= 4 * (size_t)GR__STAGE_BYTES) {
    /* The fill's context is only read. */
    const gr_status st = gr__cuda_upload_staged(d, dst, bytes, gr_fill_copy, (void *)(uintptr_t)src, &no_stages);
    if (!no_stages) return st;
  }
  /* Small, or no pinned memory to spare: the plain copy, slower for a
   * large array but with no host memory of its own. */
  GR_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s));
  GR_CUDA_CHECK(cudaStreamSynchronize(s));
  return GR_SUCCESS;
}

/* A failed upload's status (the error cleared). */
static gr_status gr__upload_error(cudaError_t e, size_t bytes) {
  cudaGetLastError();
  return gr_errorf(e == cudaErrorMemoryAllocation ? GR_ERR_DEVICE_OOM : GR_ERR_CUDA, "upload of %zu bytes: %s", bytes,
                   cudaGetErrorString(e));
}

/* A fill without pinned stages (one stage's worth or less, or none to be
 * had): one ordinary buffer of at most a stage, filled and copied in turn. */
static gr_status gr__cuda_upload_chunked(gr_device *d, void *dst, size_t bytes, gr_fill_fn fill, void *ctx,
                                         int threads) {
  cudaStream_t s = (cudaStream_t)d->compute_stream;
  const size_t chunk = bytes < (size_t)GR__STAGE_BYTES ? bytes : (size_t)GR__STAGE_BYTES;
  void *host = NULL;
  GR_CHECK(gr_host_alloc(&host, chunk, "upload staging"));
  gr_status st = GR_SUCCESS;
  cudaError_t e = cudaSuccess;
  for (size_t off = 0; off < bytes && e == cudaSuccess; off += chunk) {
    const size_t len = bytes - off < chunk ? bytes - off : chunk;
    gr_fill_parallel(threads, host, off, len, fill, ctx);
    e = cudaMemcpyAsync((char *)dst + off, host, len, cudaMemcpyHostToDevice, s);
    /* The buffer is written again next: the copy must be done. */
    if (e == cudaSuccess) e = cudaStreamSynchronize(s);
  }
  if (e != cudaSuccess) {
    st = gr__upload_error(e, bytes);
    (void)cudaStreamSynchronize(s);
  }
  free(host);
  return st;
}

gr_status gr__cuda_upload_fill(gr_device *d, void *dst, size_t bytes, gr_fill_fn fill, void *ctx) {
  const int threads = d->host_threads > 0 ? d->host_threads : 1;
  bool no_stages = true;
  if (bytes > (size_t)GR__STAGE_BYTES) {
    const gr_status st = gr__cuda_upload_staged(d, dst, bytes, fill, ctx, &no_stages);
    if (!no_stages) return st;
  }
  return gr__cuda_upload_chunked(d, dst, bytes, fill, ctx, threads);
}

static gr_status gr__cuda_upload_staged(gr_device *d, void *dst, size_t bytes, gr_fill_fn fill, void *ctx,
                                        bool *no_stages) {
  cudaStream_t s = (cudaStream_t)d->compute_stream;
  const int threads = d->host_threads > 0 ? d->host_threads : 1;
  *no_stages = false;
  gr_status st = GR_SUCCESS;
  void *stage[2] = {NULL, NULL};
  cudaEvent_t done[2] = {NULL, NULL};
  cudaError_t e = cudaSuccess;
  for (int k = 0; k < 2 && e == cudaSuccess; k++) {
    e = cudaMallocHost(&stage[k], GR__STAGE_BYTES);
    if (e == cudaSuccess) e = cudaEventCreateWithFlags(&done[k], cudaEventDisableTiming);
  }
  if (e != cudaSuccess) {
    /* No pinned memory to spare: the caller's slower way. */
    cudaGetLastError();
    for (int k = 0; k < 2; k++) {
      if (stage[k]) gr__cuda_released(cudaFreeHost(stage[k]), d, "cudaFreeHost", stage[k]);
      if (done[k]) gr__cuda_released(cudaEventDestroy(done[k]), d, "cudaEventDestroy", done[k]);
    }
    *no_stages = true;
    return GR_SUCCESS;
  }
  for (size_t off = 0, k = 0; off < bytes; off += GR__STAGE_BYTES, k ^= 1) {
    const size_t len = bytes - off < (size_t)GR__STAGE_BYTES ? bytes - off : (size_t)GR__STAGE_BYTES;
    if (off >= 2 * (size_t)GR__STAGE_BYTES) {
      e = cudaEventSynchronize(done[k]);
      if (e != cudaSuccess) break;
    }
    gr_fill_parallel(threads, stage[k], off, len, fill, ctx);
    e = cudaMemcpyAsync((char *)dst + off, stage[k], len, cudaMemcpyHostToDevice, s);
    if (e == cudaSuccess) e = cudaEventRecord(done[k], s);
    if (e != cudaSuccess) break;
  }
  if (e == cudaSuccess) e = cudaStreamSynchronize(s);
  if (e != cudaSuccess) st = gr__upload_error(e, bytes);
  /* Drained before the stages go, whatever happened; a failure here was
   * reported above (st) or is the sticky fault the next call reports. */
  (void)cudaStreamSynchronize(s);
  (void)cudaGetLastError();
  for (int k = 0; k < 2; k++) {
    gr__cuda_released(cudaFreeHost(stage[k]), d, "cudaFreeHost", stage[k]);
    gr__cuda_released(cudaEventDestroy(done[k]), d, "cudaEventDestroy", done[k]);
  }
  return st;
}
