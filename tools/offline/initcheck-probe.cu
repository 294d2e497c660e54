// SPDX-License-Identifier: Apache-2.0
// A probe of compute-sanitizer's initcheck, apart from gr: several host
// threads share one GPU (as gr's logical devices do under GR_DEVICE_MAP),
// each on a stream of its own, and in every round allocate buffers, write
// every entry with a kernel, read every entry back with a kernel (its sum)
// and with a copy to the host, check both, and free them. Nothing is ever read
// before it is written on the same stream, so any "uninitialized" report
// under initcheck is the tool's, not the program's; the host checks prove
// the writes landed and the kernel read them.
//   nvcc -O2 -arch=sm_90 -o initcheck-probe tools/offline/initcheck-probe.cu -lpthread
//   compute-sanitizer --tool initcheck ./initcheck-probe [THREADS [ROUNDS]]
// Exits 1 on a CUDA error, a wrong value copied back or a wrong sum, 0
// otherwise.
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

namespace {

constexpr int kBuffers = 8;
constexpr unsigned kBlock = 256;

__global__ void fill(float *a, unsigned n, float base) {
  for (unsigned i = blockIdx.x * kBlock + threadIdx.x; i < n; i += gridDim.x * kBlock) a[i] = base + (float)i;
}

__global__ void add_up(const float *a, unsigned n, double *out) {
  double s = 0;
  for (unsigned i = blockIdx.x * kBlock + threadIdx.x; i < n; i += gridDim.x * kBlock) s += a[i];
  atomicAdd(out, s);
}

struct Worker {
  int id, rounds;
  long long wrong;
  cudaError_t err;
};

#define PROBE_CHECK(call)                \
  do {                                   \
    cudaError_t e_ = (call);             \
    if (e_ != cudaSuccess) {             \
      w->err = e_;                       \
      fprintf(stderr, "probe thread %d: %s: %s\n", w->id, #call, cudaGetErrorString(e_)); \
      return nullptr;                    \
    }                                    \
  } while (0)

void *work(void *p) {
  Worker *w = static_cast<Worker *>(p);
  cudaStream_t s;
  PROBE_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  double *sum = nullptr;
  PROBE_CHECK(cudaMalloc(&sum, sizeof(double)));
  unsigned seed = 7919u * (unsigned)w->id + 1u;
  float *host = static_cast<float *>(malloc(16384 * sizeof(float)));
  if (!host) {
    w->err = cudaErrorMemoryAllocation;
    return nullptr;
  }
  for (int r = 0; r < w->rounds; r++) {
    float *buf[kBuffers];
    unsigned n[kBuffers];
    // Sizes of gr's small runs' arrays (a few hundred bytes to 64 KB), so
    // that allocations and frees of the threads interleave in the same
    // pages of the GPU's memory.
    for (int k = 0; k < kBuffers; k++) {
      n[k] = 64u + (unsigned)(rand_r(&seed) % 16000);
      PROBE_CHECK(cudaMalloc(&buf[k], n[k] * sizeof(float)));
      fill<<<(n[k] + kBlock - 1) / kBlock, kBlock, 0, s>>>(buf[k], n[k], (float)k);
      PROBE_CHECK(cudaGetLastError());
    }
    for (int k = 0; k < kBuffers; k++) {
      PROBE_CHECK(cudaMemsetAsync(sum, 0, sizeof(double), s));
      add_up<<<(n[k] + kBlock - 1) / kBlock, kBlock, 0, s>>>(buf[k], n[k], sum);
      PROBE_CHECK(cudaGetLastError());
      double total = 0;
      PROBE_CHECK(cudaMemcpyAsync(&total, sum, sizeof total, cudaMemcpyDeviceToHost, s));
      PROBE_CHECK(cudaMemcpyAsync(host, buf[k], n[k] * sizeof(float), cudaMemcpyDeviceToHost, s));
      PROBE_CHECK(cudaStreamSynchronize(s));
      for (unsigned i = 0; i < n[k]; i++)
        if (host[i] != (float)k + (float)i) w->wrong++;
      // The kernel's read too: whole numbers far below 2^53 add exactly.
      if (total != (double)n[k] * k + (double)n[k] * (n[k] - 1) / 2) w->wrong++;
    }
    for (int k = 0; k < kBuffers; k++) PROBE_CHECK(cudaFree(buf[k]));
  }
  free(host);
  PROBE_CHECK(cudaFree(sum));
  PROBE_CHECK(cudaStreamDestroy(s));
  return nullptr;
}

}  // namespace

int main(int argc, char **argv) {
  const int threads = argc > 1 ? atoi(argv[1]) : 3;
  const int rounds = argc > 2 ? atoi(argv[2]) : 200;
  if (threads < 1 || threads > 64 || rounds < 1) {
    fprintf(stderr, "usage: %s [THREADS 1-64 [ROUNDS >= 1]]\n", argv[0]);
    return 2;
  }
  if (cudaSetDevice(0) != cudaSuccess) {
    fprintf(stderr, "probe: no GPU\n");
    return 2;
  }
  Worker w[64];
  pthread_t t[64];
  for (int i = 0; i < threads; i++) {
    w[i] = Worker{i, rounds, 0, cudaSuccess};
    if (pthread_create(&t[i], nullptr, work, &w[i]) != 0) {
      fprintf(stderr, "probe: cannot start thread %d\n", i);
      return 2;
    }
  }
  long long wrong = 0;
  int failed = 0;
  for (int i = 0; i < threads; i++) {
    pthread_join(t[i], nullptr);
    wrong += w[i].wrong;
    failed += w[i].err != cudaSuccess;
  }
  printf("initcheck-probe: %d threads x %d rounds x %d buffers: %lld wrong values or sums, %d threads failed\n",
         threads, rounds, kBuffers, wrong, failed);
  return wrong || failed ? 1 : 0;
}
