/* SPDX-License-Identifier: Apache-2.0 */
/* Device contexts: a CUDA GPU or a CPU worker behind one interface, so that
 * everything above (buffers, operators, the enactor) runs on either. Each
 * context owns a compute and a communication stream (CUDA) and keeps its
 * memory accounting: bytes in use, peak bytes, allocations, reallocations. */
#ifndef GR_DEVICE_H
#define GR_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gr/status.h"
#include "gr/util.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gr_backend { GR_BACKEND_CPU = 0, GR_BACKEND_CUDA = 1 } gr_backend;

typedef struct gr_device gr_device;

typedef struct gr_device_options {
  /* CPU backend: worker threads of this device (0 = the host's threads
   * divided among the devices of the run). */
  int cpu_threads;
  /* How many devices share the host (for the default thread split). */
  int devices_in_run;
  /* CUDA backend: the GPU this device runs on; -1 = by its ordinal
   * (through GR_DEVICE_MAP where set). A caller's list of GPUs (the public
   * interface's gpu-ids) sets it per device. */
  int gpu;
  /* The most device memory gr may use on this device (bytes; 0: none, or
   * GR_DEVICE_MEMORY_LIMIT where set): what the device reports and hands
   * out, so that a small GPU can be reproduced on a large one. */
  uint64_t memory_limit;
} gr_device_options;
#define GR_DEVICE_OPTIONS_INIT {0, 1, -1, 0}

typedef enum gr_copy_kind {
  GR_COPY_H2D = 0,
  GR_COPY_D2H = 1,
  GR_COPY_D2D = 2,
  GR_COPY_H2H = 3
} gr_copy_kind;

/* Whether this build has the CUDA backend. */
int gr_cuda_available(void);
/* CUDA runtime and driver versions (e.g. 13000), 0 without CUDA. */
void gr_cuda_versions(int *runtime, int *driver);
/* Number of devices of a backend. CUDA: the GPUs the driver shows (0 with no
 * driver or no GPU, which is not an error); CPU: unbounded, reported as the
 * host's thread count. */
gr_status gr_device_count(gr_backend backend, int *count);
/* The GPUs the driver shows (physical ordinals 0..count-1), whatever
 * GR_DEVICE_MAP presents; 0 without CUDA. */
gr_status gr_device_physical_gpus(int *count);

/* Opens device `ordinal` of `backend`. CUDA: sets the device on the calling
 * thread and creates its streams. Errors: GR_ERR_NO_DEVICE when the ordinal
 * does not exist (the message says how many do). */
gr_status gr_device_create(gr_device **out, gr_backend backend, int ordinal,
                           const gr_device_options *options);
/* Frees the streams; accepts NULL and sets *dev to NULL. Memory still held is
 * reported by GR_DEBUG=WARN and released. */
void gr_device_destroy(gr_device **dev);

/* Makes the device current on the calling thread (cudaSetDevice). */
gr_status gr_device_activate(gr_device *dev);

/* Loads every kernel of the CUDA module (a .cu file's) that holds `kernel`
 * (any __global__ function of it) on the device's GPU, so that none is
 * loaded at its first launch: CUDA loads kernels lazily by default (since
 * 12.2), which put a few milliseconds of loading into a process's first run
 * (DOBFS on one H200, Kronecker 25: 5.2 ms against 1.6 ms after). Once per
 * module and GPU; nothing on CPU devices, where the driver cannot load a
 * function on request (before CUDA 12.4) or in a build with a toolkit
 * older than 12.5. Makes the device current.
 * GR_CUDA_PRELOAD (gr/cuda_check.h) gives a .cu file its function to
 * call. */
gr_status gr_device_preload(gr_device *dev, const void *kernel);

gr_backend gr_device_backend(const gr_device *dev);
int gr_device_ordinal(const gr_device *dev);
/* The CUDA device ordinal the device runs on (see GR_DEVICE_MAP in the
 * README); -1 on the CPU backend. */
int gr_device_gpu(const gr_device *dev);
/* The CUDA device ordinal that gr's CUDA device `ordinal` will run on,
 * before it is opened. */
gr_status gr_device_gpu_of(int ordinal, int *gpu);
const char *gr_device_name(const gr_device *dev);
int gr_device_cpu_threads(const gr_device *dev);
/* cudaStream_t as void*, NULL on the CPU backend. */
void *gr_device_stream(const gr_device *dev);
/* Properties for tuning (CUDA): multiprocessors, L2 bytes, the device
 * memory's peak bandwidth in bytes a second (from its clock and bus width).
 * 0 on the CPU or where the device does not say. */
int gr_device_sm_count(const gr_device *dev);
uint64_t gr_device_l2_bytes(const gr_device *dev);
uint64_t gr_device_memory_bandwidth(const gr_device *dev);

/* Device memory. Allocation failures are GR_ERR_DEVICE_OOM with a message
 * saying how much was asked, how much is in use and how much the device has.
 * A documented fault-injection hook (GR_FAULT_ALLOC=DEVICE:N, see README)
 * makes the N-th allocation on a device fail, to prove the error paths.
 * GR_DEVICE_MEMORY_LIMIT=BYTES (a number, optionally followed by K, M, G or
 * T for binary multiples) makes every device report at most that much total
 * memory and refuse allocations beyond it, so that a graph too large for a
 * device can be shown on any machine (CPU devices' memory is the host's). */
gr_status gr_device_malloc(gr_device *dev, void **out, size_t bytes,
                           const char *what);
void gr_device_free(gr_device *dev, void *p, size_t bytes);
gr_status gr_device_mem_info(gr_device *dev, size_t *free_bytes,
                             size_t *total_bytes);

typedef struct gr_device_mem_stats {
  uint64_t bytes_in_use;
  uint64_t peak_bytes;
  uint64_t allocations;
  uint64_t reallocations; /* counted by gr_buffer when a buffer grows */
} gr_device_mem_stats;
gr_device_mem_stats gr_device_mem_stats_get(const gr_device *dev);
void gr_device_mem_stats_reset_peak(gr_device *dev);
void gr__device_count_realloc(gr_device *dev);

/* Copies and fills, ordered on the device's compute stream. With a pageable
 * host pointer CUDA completes a D2H copy before returning. */
gr_status gr_device_copy(gr_device *dev, void *dst, const void *src,
                         size_t bytes, gr_copy_kind kind);
gr_status gr_device_memset(gr_device *dev, void *p, int byte, size_t bytes);
/* A large copy from ordinary (pageable) host memory to the device, for
 * uploading graphs: on a GPU, staged through two pinned buffers that a share
 * of the host's threads fill while the previous one is copied (pageable
 * copies run at a fraction of the host link's bandwidth). Complete when it
 * returns. */
gr_status gr_device_upload(gr_device *dev, void *dst, const void *src, size_t bytes);
/* As gr_device_upload, for data that no host array holds whole (a part's
 * lists gathered from the whole graph's rows): `fill` writes it piece by
 * piece into the pinned staging buffers (on a CPU device, into dst). One
 * host copy where building the array first and uploading it take two. */
gr_status gr_device_upload_fill(gr_device *dev, void *dst, size_t bytes, gr_fill_fn fill, void *ctx);

/* Waits for all work on the device's streams. */
gr_status gr_device_sync(gr_device *dev);

/* Brackets a timed run for profilers: start before its first operation,
 * stop after its last one completed. On GPUs cudaProfilerStart and
 * cudaProfilerStop, which a tool tracing the runtime's calls reads as
 * marks (tools/gpu_trace.py --marks: each run's kernels, with no guess
 * from idle gaps) and Nsight Systems takes as its capture range
 * (--capture-range=cudaProfilerApi); nothing on CPU devices. Without a
 * profiler both calls do nothing; an error from them is cleared, never
 * reported (a run does not fail for its marks). */
void gr_device_run_mark(gr_device *dev, bool start);

/* Time marks on a device's compute stream, for splitting a step that runs
 * without host waits into its parts (e.g. copies then combines): mark k is
 * recorded when the stream reaches it, and the milliseconds between two
 * marks are read once the stream was synchronized. CUDA events on GPUs;
 * the host clock on CPU devices, whose work completes as it is issued. */
typedef struct gr_device_marks gr_device_marks;
gr_status gr_device_marks_create(gr_device_marks **out, gr_device *dev, int n);
void gr_device_marks_destroy(gr_device_marks **m);
gr_status gr_device_mark(gr_device_marks *m, int k);
/* Forgets every mark recorded so far (gr_device_marks_ms then reads 0 for
 * them until they are recorded again): a span that enqueued nothing need
 * not pay for its marks. */
void gr_device_marks_clear(gr_device_marks *m);
/* Milliseconds from mark a to mark b (both recorded, the stream synchronized
 * since); 0 when either is missing. */
double gr_device_marks_ms(gr_device_marks *m, int a, int b);

/* What the calling thread has asked of devices so far. Each device of a run
 * is driven by one thread of its own (the enactor's), so a thread's counts
 * are its device's: the per-iteration timeline reads them around each step
 * to show where fixed costs come from. */
typedef struct gr_device_activity {
  uint64_t launches;    /* kernels launched by gr's launchers, library ones (CUB) included */
  uint64_t waits;       /* the host waiting for a device: synchronizations, reads into host memory */
  uint64_t copies;      /* copies enqueued (any direction) */
  uint64_t memsets;
  uint64_t allocations; /* device allocations and frees */
} gr_device_activity;
gr_device_activity gr_device_activity_get(void);
/* Counting hooks for the backends and launchers. */
void gr__device_activity_launch(void);
/* Every kernel launch of gr's launchers on `dev`, counted for the timeline:
 * CUDA launchers call it after the launch (GR_CUDA_CHECK_LAUNCH), the CPU
 * operators before their loop; `launcher` names the function and `where`
 * (or NULL) the file and line. Fails only
 * under the documented hook GR_FAULT_LAUNCH=DEVICE:N (README), which makes
 * the N-th launch on device DEVICE fail as a launch error would (GR_ERR_CUDA
 * on a GPU, GR_ERR_INTERNAL on a CPU device), to prove that a device whose
 * kernel cannot run ends the run cleanly. */
gr_status gr__device_launch(gr_device *dev, const char *launcher, const char *where);
void gr__device_activity_wait(void);
void gr__device_activity_copy(void);

/* Host-pinned memory where the backend benefits from it (CUDA), plain host
 * memory otherwise. */
gr_status gr_device_host_alloc(gr_device *dev, void **out, size_t bytes,
                               const char *what);
void gr_device_host_free(gr_device *dev, void *p);

/* Host memory the device's kernels read directly (zero-copy): CUDA's
 * pinned, mapped memory, *device the address kernels use; on the CPU
 * backend plain host memory (*device = *host). Freed with
 * gr_device_host_free(dev, *host). For graphs whose arrays live in host
 * memory (--graph-memory host): counted as host memory, not the device's. */
gr_status gr_device_host_mapped_alloc(gr_device *dev, void **host, void **device, size_t bytes, const char *what);

/* "64G", "512M", "1048576" (K, M, G, T: powers of 1024): bytes, > 0. */
bool gr_parse_bytes(const char *s, uint64_t *out);

#ifdef __cplusplus
}
#endif

#endif
