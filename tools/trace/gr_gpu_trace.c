/* SPDX-License-Identifier: Apache-2.0 */
/* A GPU timeline of any CUDA program, for machines without Nsight Systems:
 * loaded by the CUDA driver into the program (CUDA_INJECTION64_PATH), it
 * records through CUPTI's activity interface when each kernel, copy and
 * memset ran on the GPU, and when each thread of the program was inside a
 * CUDA runtime call (launches, copies, synchronizations), on one clock, and
 * writes them as CSV when the program exits:
 *
 *   GR_GPU_TRACE=trace.csv CUDA_INJECTION64_PATH=build/tools/libgr_gpu_trace.so gr_run ...
 *   tools/gpu_trace.py trace.csv
 *
 * Unlike Nsight Compute, which replays each kernel alone, nothing is
 * serialized: the records are what the program did, kernels overlapping
 * where they overlapped. Columns: kind (kernel, memcpy, memset, api),
 * name, device, stream, start and end (ns), bytes, thread, correlation (an
 * API call's id, which the kernel or copy it issued carries too). */
#define _POSIX_C_SOURCE 200809L
#include <cupti.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { GR_TRACE_BUFFER = 8 << 20, GR_TRACE_ALIGN = 8 };

static FILE *gr__out;
static pthread_mutex_t gr__lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t gr__dropped;

static const char *gr__copy_kind(uint8_t k) {
  switch (k) {
  case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "HtoD";
  case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "DtoH";
  case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "DtoD";
  case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return "PtoP";
  case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return "HtoH";
  default: return "other";
  }
}

static void CUPTIAPI gr__buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
  uint8_t *b = NULL;
  if (posix_memalign((void **)&b, GR_TRACE_ALIGN, GR_TRACE_BUFFER) != 0) b = NULL;
  *buffer = b;
  *size = b ? GR_TRACE_BUFFER : 0;
  *max_records = 0;
}

/* One record as a CSV line (kernel names are the mangled ones: the
 * reader shortens them). */
static void gr__write(const CUpti_Activity *r) {
  switch (r->kind) {
  case CUPTI_ACTIVITY_KIND_KERNEL:
  case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
    const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)r;
    fprintf(gr__out, "kernel,%s,%u,%u,%llu,%llu,0,0,%u\n", k->name ? k->name : "?", k->deviceId, k->streamId,
            (unsigned long long)k->start, (unsigned long long)k->end, k->correlationId);
    break;
  }
  case CUPTI_ACTIVITY_KIND_MEMCPY: {
    const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *)r;
    fprintf(gr__out, "memcpy,%s,%u,%u,%llu,%llu,%llu,0,%u\n", gr__copy_kind(m->copyKind), m->deviceId, m->streamId,
            (unsigned long long)m->start, (unsigned long long)m->end, (unsigned long long)m->bytes, m->correlationId);
    break;
  }
  case CUPTI_ACTIVITY_KIND_MEMCPY2: {
    const CUpti_ActivityMemcpyPtoP4 *m = (const CUpti_ActivityMemcpyPtoP4 *)r;
    fprintf(gr__out, "memcpy,PtoP,%u,%u,%llu,%llu,%llu,0,%u\n", m->deviceId, m->streamId,
            (unsigned long long)m->start, (unsigned long long)m->end, (unsigned long long)m->bytes, m->correlationId);
    break;
  }
  case CUPTI_ACTIVITY_KIND_MEMSET: {
    const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *)r;
    fprintf(gr__out, "memset,memset,%u,%u,%llu,%llu,%llu,0,%u\n", m->deviceId, m->streamId,
            (unsigned long long)m->start, (unsigned long long)m->end, (unsigned long long)m->bytes, m->correlationId);
    break;
  }
  case CUPTI_ACTIVITY_KIND_RUNTIME: {
    const CUpti_ActivityAPI *a = (const CUpti_ActivityAPI *)r;
    const char *name = NULL;
    if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, a->cbid, &name) != CUPTI_SUCCESS || !name) name = "?";
    fprintf(gr__out, "api,%s,0,0,%llu,%llu,0,%u,%u\n", name, (unsigned long long)a->start,
            (unsigned long long)a->end, a->threadId, a->correlationId);
    break;
  }
  default: break;
  }
}

static void CUPTIAPI gr__buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                                          size_t valid) {
  (void)ctx;
  (void)stream;
  (void)size;
  CUpti_Activity *r = NULL;
  pthread_mutex_lock(&gr__lock);
  if (gr__out)
    while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) gr__write(r);
  size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS) gr__dropped += dropped;
  pthread_mutex_unlock(&gr__lock);
  free(buffer);
}

static void gr__finish(void) {
  cuptiActivityFlushAll(1);
  pthread_mutex_lock(&gr__lock);
  if (gr__out) {
    if (gr__dropped) fprintf(stderr, "gr_gpu_trace: %llu records dropped\n", (unsigned long long)gr__dropped);
    fclose(gr__out);
    gr__out = NULL;
  }
  pthread_mutex_unlock(&gr__lock);
}

/* The entry point the CUDA driver calls when CUDA_INJECTION64_PATH names
 * this library. */
int InitializeInjection(void) {
  const char *path = getenv("GR_GPU_TRACE");
  if (!path || !*path) path = "gr_gpu_trace.csv";
  gr__out = fopen(path, "w");
  if (!gr__out) {
    fprintf(stderr, "gr_gpu_trace: cannot write %s\n", path);
    return 0;
  }
  fprintf(gr__out, "kind,name,device,stream,start_ns,end_ns,bytes,thread,correlation\n");
  const CUpti_ActivityKind kinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                      CUPTI_ACTIVITY_KIND_MEMCPY2, CUPTI_ACTIVITY_KIND_MEMSET,
                                      CUPTI_ACTIVITY_KIND_RUNTIME};
  if (cuptiActivityRegisterCallbacks(gr__buffer_requested, gr__buffer_completed) != CUPTI_SUCCESS) {
    fprintf(stderr, "gr_gpu_trace: CUPTI refused the activity callbacks\n");
    return 0;
  }
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
    if (cuptiActivityEnable(kinds[i]) != CUPTI_SUCCESS)
      fprintf(stderr, "gr_gpu_trace: CUPTI could not record activity kind %d\n", (int)kinds[i]);
  atexit(gr__finish);
  return 1;
}
