/* SPDX-License-Identifier: Apache-2.0 */
/* A CUPTI injection library: counts a process's kernel launches, kernel by
 * kernel, with the most dynamic shared memory a launch of each asked, and
 * thread by thread, and prints the tables when the process exits.
 *
 * Why: racecheck (compute-sanitizer) checks shared memory only, and a run
 * too long for one command can be split into windows of its launches
 * (racecheck-slices.sh WINDOWS and WINDOW, or an item's @w/W/L). This says how many launches a run
 * makes, to size the windows, and which kernels touch shared memory at
 * all (with the static sizes ptxas gives: nvcc --resource-usage): leaving
 * out those that have none (--kernel-name-exclude) loses none of
 * racecheck's coverage. Threads are listed too, in the order of their
 * first launch, with the number of launches before their first and their
 * last: where a run's first launches come from threads one after another
 * (a one-GPU answer computed before devices sharing a GPU run), the first
 * launch of the first thread whose launches overlap another's is a
 * --launch-skip that leaves out exactly that prefix, the same every run
 * (where no kernel filter changes what the tool counts).
 *
 * The build makes it where CUDA and CUPTI are (build-gpu/tools/launch-count.so,
 * target gr_launch_count); by hand:
 *   cc -shared -fPIC -O2 -o launch-count.so tools/offline/launch-count.c \
 *     -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcupti
 * (where libcupti is elsewhere, e.g. /usr/local/cuda/targets/x86_64-linux/lib,
 * give that folder to -L and to LD_LIBRARY_PATH)
 *   CUDA_INJECTION64_PATH=$PWD/launch-count.so [LAUNCH_COUNT_OUT=file] program ...
 *
 * Counted in CUPTI's driver domain (cuLaunchKernel and its kinds), where
 * every launch arrives whichever runtime call made it, kernels of
 * libraries (CUB) too. The table goes to LAUNCH_COUNT_OUT (appended) or
 * stderr, from the exiting process only: run Check tests with CK_FORK=no. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <cuda.h>
#include <cupti.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LC_SLOTS 4096 /* kernels told apart; more than any gr program has */
#define LC_THREADS 1024 /* threads told apart, in the order of their first launch */

typedef struct lc_kernel {
  char *name;
  uint64_t launches;
  unsigned dynamic_max; /* the most dynamic shared memory a launch asked */
} lc_kernel;

static lc_kernel lc_table[LC_SLOTS];
static int lc_kernels;
static uint64_t lc_total, lc_untold; /* untold: past the table, or no name */
static pthread_mutex_t lc_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct lc_thread {
  uint64_t first;    /* launches of the process before this thread's first */
  uint64_t last;     /* launches of the process before this thread's last */
  uint64_t launches; /* this thread's */
} lc_thread;
static lc_thread lc_threads[LC_THREADS];
static int lc_n_threads;
static int lc_threads_dropped; /* threads that launched past the list's end */
static _Thread_local int lc_me = -1; /* index in lc_threads; -1 before a launch */

static uint64_t lc_hash(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static void lc_count(const char *name, unsigned dynamic) {
  pthread_mutex_lock(&lc_lock);
  if (lc_me < 0) {
    if (lc_n_threads < LC_THREADS) {
      lc_me = lc_n_threads++;
      lc_threads[lc_me].first = lc_total;
    } else {
      lc_threads_dropped = 1;
    }
  }
  if (lc_me >= 0) {
    lc_threads[lc_me].launches++;
    lc_threads[lc_me].last = lc_total;
  }
  lc_total++;
  if (!name) {
    lc_untold++;
    goto out;
  }
  for (uint64_t i = lc_hash(name) % LC_SLOTS, probes = 0; probes < LC_SLOTS; i = (i + 1) % LC_SLOTS, probes++) {
    lc_kernel *k = &lc_table[i];
    if (!k->name) {
      if (!(k->name = strdup(name))) break;
      lc_kernels++;
    } else if (strcmp(k->name, name)) {
      continue;
    }
    k->launches++;
    if (dynamic > k->dynamic_max) k->dynamic_max = dynamic;
    goto out;
  }
  lc_untold++;
out:
  pthread_mutex_unlock(&lc_lock);
}

/* The driver calls that launch a kernel: the only ones called back, so
 * that the program's other driver calls (copies, waits) pay nothing. */
static const CUpti_CallbackId lc_launch_calls[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
};

static void CUPTIAPI lc_callback(void *user, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void *data) {
  (void)user;
  const CUpti_CallbackData *cb = data;
  if (domain != CUPTI_CB_DOMAIN_DRIVER_API || cb->callbackSite != CUPTI_API_ENTER) return;
  switch (id) {
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
    /* The cooperative kinds take the same leading parameters. */
    const cuLaunchKernel_params *p = cb->functionParams;
    lc_count(cb->symbolName, p->sharedMemBytes);
    break;
  }
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
    const cuLaunchKernelEx_params *p = cb->functionParams;
    lc_count(cb->symbolName, p->config ? p->config->sharedMemBytes : 0);
    break;
  }
  default:
    break;
  }
}

static int lc_by_launches(const void *a, const void *b) {
  const lc_kernel *x = a, *y = b;
  return x->launches < y->launches ? 1 : x->launches > y->launches ? -1 : strcmp(x->name, y->name);
}

static void lc_report(void) {
  pthread_mutex_lock(&lc_lock);
  const char *path = getenv("LAUNCH_COUNT_OUT");
  FILE *out = path && *path ? fopen(path, "a") : NULL;
  if (!out) out = stderr;
  lc_kernel *k = malloc(sizeof *k * (size_t)(lc_kernels ? lc_kernels : 1));
  int n = 0;
  for (int i = 0; k && i < LC_SLOTS; i++)
    if (lc_table[i].name) k[n++] = lc_table[i];
  if (k) qsort(k, (size_t)n, sizeof *k, lc_by_launches);
  fprintf(out, "launch-count: %llu launches, %d kernels, %llu not told apart\n", (unsigned long long)lc_total, n,
          (unsigned long long)lc_untold);
  if (!k) fprintf(out, "launch-count: no memory for the table of %d kernels\n", lc_kernels);
  fprintf(out, "launch-count: launches  dynamic-smem-max  kernel\n");
  for (int i = 0; i < n; i++)
    fprintf(out, "launch-count: %8llu  %16u  %s\n", (unsigned long long)k[i].launches, k[i].dynamic_max, k[i].name);
  free(k);
  for (int t = 0; t < lc_n_threads; t++)
    fprintf(out, "launch-count: thread %d: %llu launches, the first and last after %llu and %llu of the process's\n",
            t, (unsigned long long)lc_threads[t].launches, (unsigned long long)lc_threads[t].first,
            (unsigned long long)lc_threads[t].last);
  if (lc_threads_dropped) fprintf(out, "launch-count: threads past %d not listed\n", LC_THREADS);
  if (out != stderr) fclose(out);
  pthread_mutex_unlock(&lc_lock);
}

/* Called by the CUDA driver when CUDA_INJECTION64_PATH names this library. */
int InitializeInjection(void) {
  CUpti_SubscriberHandle sub;
  if (cuptiSubscribe(&sub, (CUpti_CallbackFunc)lc_callback, NULL) != CUPTI_SUCCESS) {
    fprintf(stderr, "launch-count: CUPTI would not take the callback; nothing is counted\n");
    return 0;
  }
  for (size_t i = 0; i < sizeof lc_launch_calls / sizeof *lc_launch_calls; i++)
    if (cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, lc_launch_calls[i]) != CUPTI_SUCCESS) {
      cuptiUnsubscribe(sub);
      fprintf(stderr, "launch-count: CUPTI would not call back for kernel launches; nothing is counted\n");
      return 0;
    }
  atexit(lc_report);
  return 1;
}
