// SPDX-License-Identifier: Apache-2.0
// A probe of compute-sanitizer's racecheck, apart from gr: several host
// threads share one GPU and its context, as gr's logical devices do under
// GR_DEVICE_MAP, each on a stream of its own, and do in every round what
// a device thread of gr's SSSP does in an iteration: a kernel that fills a
// block queue in shared memory (a shared counter, barriers, one global
// reservation per block), a copy of the count back and a wait on the
// stream, a buffer grown by cudaFree and cudaMalloc when the count
// outgrows it, a block reduction in shared memory with global atomics,
// and an exchange: a barrier between the threads, a copy from the next
// thread's output on the GPU, a barrier again. Grids of a few blocks, so
// that every block's loop runs several rounds and reuses its shared
// memory. Every loop of every kernel ends in a number of rounds set by its
// input, and no kernel waits for another, so a run that stops making
// progress under racecheck is the tool's. The host checks every count,
// and the sum and maximum of every output and of every copy of one.
// Built with gr's CUDA build as build-gpu/tools/racecheck-hang-probe, or
//   nvcc -O2 -arch=sm_90 -o racecheck-hang-probe tools/offline/racecheck-hang-probe.cu -lpthread
//   compute-sanitizer --tool racecheck --racecheck-report hazard build-gpu/tools/racecheck-hang-probe [THREADS [ROUNDS]]
// and looped like gr_run with tools/offline/repeat-runs.sh. Exits 1 on a
// wrong result, 2 on bad arguments or without a GPU, 0 otherwise; aborts
// (SIGABRT) on a CUDA error or a thread that cannot start, since the other
// threads would wait at the barrier for ever.
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

namespace {

constexpr unsigned kBlock = 256;
constexpr int kMaxThreads = 16;

// Items whose value is not a multiple of 3 are kept: each thread of a
// block claims a slot in shared memory, the block reserves its slots in
// the output once, then writes them; a round of the loop per block-wide
// stride of the input.
__global__ void __launch_bounds__(kBlock)
    keep_kernel(const unsigned *in, unsigned n, unsigned *out, unsigned cap, unsigned long long *count) {
  __shared__ unsigned slots;
  __shared__ unsigned long long base;
  __shared__ unsigned stage[kBlock];
  for (unsigned start = blockIdx.x * kBlock; start < n; start += gridDim.x * kBlock) {
    if (threadIdx.x == 0) slots = 0;
    __syncthreads();
    const unsigned i = start + threadIdx.x;
    if (i < n && in[i] % 3 != 0) stage[atomicAdd(&slots, 1u)] = in[i];
    __syncthreads();
    if (threadIdx.x == 0) base = atomicAdd(count, (unsigned long long)slots);
    __syncthreads();
    if (threadIdx.x < slots && base + threadIdx.x < cap) out[base + threadIdx.x] = stage[threadIdx.x];
    __syncthreads();
  }
}

// The largest value and the sum: a warp's by shuffles, the block's in
// shared memory, then one atomicMax and one atomicAdd per block.
__global__ void __launch_bounds__(kBlock)
    stats_kernel(const unsigned *a, unsigned n, unsigned *best, unsigned long long *sum) {
  __shared__ unsigned warp_max[kBlock / 32];
  __shared__ unsigned long long warp_sum[kBlock / 32];
  unsigned m = 0;
  unsigned long long t = 0;
  for (unsigned i = blockIdx.x * kBlock + threadIdx.x; i < n; i += gridDim.x * kBlock) {
    m = a[i] > m ? a[i] : m;
    t += a[i];
  }
  for (int d = 16; d > 0; d /= 2) {
    const unsigned o = __shfl_down_sync(0xffffffffu, m, d);
    m = o > m ? o : m;
    t += __shfl_down_sync(0xffffffffu, t, d);
  }
  if ((threadIdx.x & 31) == 0) {
    warp_max[threadIdx.x / 32] = m;
    warp_sum[threadIdx.x / 32] = t;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (unsigned w = 1; w < kBlock / 32; w++) {
      m = warp_max[w] > m ? warp_max[w] : m;
      t += warp_sum[w];
    }
    atomicMax(best, m);
    atomicAdd(sum, t);
  }
}

struct Shared {
  int threads, rounds;
  pthread_barrier_t barrier;
  unsigned *out[kMaxThreads];            // each thread's output, read by the one before it
  unsigned kept[kMaxThreads];            // its length this round
  unsigned top[kMaxThreads];             // its largest value this round, as the host computed it
  unsigned long long total[kMaxThreads]; // and its sum
};

struct Worker {
  int id;
  Shared *sh;
  long long wrong;
};

#define PROBE_CHECK(call)                                                                  \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      fprintf(stderr, "probe thread %d: %s: %s\n", w->id, #call, cudaGetErrorString(e_)); \
      abort(); /* the others would wait at the barrier for ever */                         \
    }                                                                                      \
  } while (0)

// At most 4 blocks: with up to 8,000 values each block's loop runs up to
// 8 rounds, reusing its shared memory as gr's grid-stride kernels do.
unsigned grid_for(unsigned n) {
  const unsigned g = (n + kBlock - 1) / kBlock;
  return g < 1 ? 1 : g > 4 ? 4 : g;
}

// The device's sum and maximum of n values at a, checked against the host's.
bool stats_match(cudaStream_t s, const unsigned *a, unsigned n, unsigned *best, unsigned long long *sum, unsigned top,
                 unsigned long long total, Worker *w) {
  PROBE_CHECK(cudaMemsetAsync(best, 0, sizeof *best, s));
  PROBE_CHECK(cudaMemsetAsync(sum, 0, sizeof *sum, s));
  stats_kernel<<<grid_for(n), kBlock, 0, s>>>(a, n, best, sum);
  PROBE_CHECK(cudaGetLastError());
  unsigned got_top = 0;
  unsigned long long got_total = 0;
  PROBE_CHECK(cudaMemcpyAsync(&got_top, best, sizeof got_top, cudaMemcpyDeviceToHost, s));
  PROBE_CHECK(cudaMemcpyAsync(&got_total, sum, sizeof got_total, cudaMemcpyDeviceToHost, s));
  PROBE_CHECK(cudaStreamSynchronize(s));
  return got_top == top && got_total == total;
}

void *work(void *p) {
  Worker *w = static_cast<Worker *>(p);
  Shared *sh = w->sh;
  cudaStream_t s;
  PROBE_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  unsigned long long *count = nullptr, *sum = nullptr;
  unsigned *best = nullptr, *in = nullptr, *host = nullptr;
  // The input holds a round's values and the next thread's kept ones,
  // never more than kMaxInput; the output grows.
  constexpr unsigned kMaxInput = 8000;
  unsigned out_cap = 64;
  PROBE_CHECK(cudaMalloc(&count, sizeof *count));
  PROBE_CHECK(cudaMalloc(&sum, sizeof *sum));
  PROBE_CHECK(cudaMalloc(&best, sizeof *best));
  PROBE_CHECK(cudaMalloc(&in, kMaxInput * sizeof *in));
  PROBE_CHECK(cudaMalloc(&sh->out[w->id], out_cap * sizeof(unsigned)));
  PROBE_CHECK(cudaMallocHost(&host, kMaxInput * sizeof *host));
  unsigned seed = 7919u * (unsigned)w->id + 1u;
  const int next = (w->id + 1) % sh->threads;
  for (int r = 0; r < sh->rounds; r++) {
    // Every eighth round the output starts small again, so that it grows
    // several times a run (a cudaFree, which waits for the GPU's work, the
    // other threads' kernels included).
    if (r % 8 == 7) {
      PROBE_CHECK(cudaFree(sh->out[w->id]));
      out_cap = 64;
      PROBE_CHECK(cudaMalloc(&sh->out[w->id], out_cap * sizeof(unsigned)));
    }
    // This round's input: 100 to 8,000 values, from the host, and what
    // the kept ones (not multiples of 3) must come to.
    const unsigned n = 100u + (unsigned)(rand_r(&seed) % (kMaxInput - 99));
    unsigned long long want = 0, total = 0;
    unsigned top = 0;
    for (unsigned i = 0; i < n; i++) {
      host[i] = 1u + (unsigned)rand_r(&seed) % 1000000u;
      if (host[i] % 3 == 0) continue;
      want++;
      total += host[i];
      top = host[i] > top ? host[i] : top;
    }
    PROBE_CHECK(cudaMemcpyAsync(in, host, n * sizeof *in, cudaMemcpyHostToDevice, s));
    // The kept values: the count back first, the output grown (cudaFree
    // of the old block, as gr's buffers grow) and the kernel run again
    // where it did not fit.
    unsigned long long got = 0;
    for (int pass = 0; pass < 2; pass++) {
      PROBE_CHECK(cudaMemsetAsync(count, 0, sizeof *count, s));
      keep_kernel<<<grid_for(n), kBlock, 0, s>>>(in, n, sh->out[w->id], out_cap, count);
      PROBE_CHECK(cudaGetLastError());
      PROBE_CHECK(cudaMemcpyAsync(&got, count, sizeof got, cudaMemcpyDeviceToHost, s));
      PROBE_CHECK(cudaStreamSynchronize(s));
      if (got <= out_cap) break;
      PROBE_CHECK(cudaFree(sh->out[w->id]));
      out_cap = (unsigned)(got + got / 2);
      PROBE_CHECK(cudaMalloc(&sh->out[w->id], out_cap * sizeof(unsigned)));
    }
    // A count that changed between the passes is wrong; only what the
    // output holds is read further.
    if (got != want) w->wrong++;
    if (got > out_cap) got = out_cap;
    if (!stats_match(s, sh->out[w->id], (unsigned)got, best, sum, top, total, w)) w->wrong++;
    sh->kept[w->id] = (unsigned)got;
    sh->top[w->id] = top;
    sh->total[w->id] = total;
    // The exchange: every output is complete (its stream waited on), so
    // each thread copies the next one's into its input and checks it
    // against the next thread's host figures; the second barrier keeps an
    // output from being grown or rewritten while it is read.
    pthread_barrier_wait(&sh->barrier);
    const unsigned m = sh->kept[next] < kMaxInput ? sh->kept[next] : kMaxInput;
    PROBE_CHECK(cudaMemcpyAsync(in, sh->out[next], m * sizeof *in, cudaMemcpyDeviceToDevice, s));
    if (!stats_match(s, in, m, best, sum, sh->top[next], sh->total[next], w)) w->wrong++;
    pthread_barrier_wait(&sh->barrier);
  }
  PROBE_CHECK(cudaFreeHost(host));
  PROBE_CHECK(cudaFree(in));
  PROBE_CHECK(cudaFree(best));
  PROBE_CHECK(cudaFree(sum));
  PROBE_CHECK(cudaFree(count));
  PROBE_CHECK(cudaStreamDestroy(s));
  return nullptr;
}

}  // namespace

int main(int argc, char **argv) {
  Shared sh;
  sh.threads = argc > 1 ? atoi(argv[1]) : 2;
  sh.rounds = argc > 2 ? atoi(argv[2]) : 300;
  if (sh.threads < 1 || sh.threads > kMaxThreads || sh.rounds < 1) {
    fprintf(stderr, "usage: %s [THREADS 1-%d [ROUNDS >= 1]]\n", argv[0], kMaxThreads);
    return 2;
  }
  if (cudaSetDevice(0) != cudaSuccess) {
    fprintf(stderr, "probe: no GPU\n");
    return 2;
  }
  pthread_barrier_init(&sh.barrier, nullptr, (unsigned)sh.threads);
  Worker w[kMaxThreads];
  pthread_t t[kMaxThreads];
  for (int i = 0; i < sh.threads; i++) {
    w[i] = Worker{i, &sh, 0};
    if (pthread_create(&t[i], nullptr, work, &w[i]) != 0) {
      // The threads started wait at the barrier for this one.
      fprintf(stderr, "probe: cannot start thread %d\n", i);
      abort();
    }
  }
  long long wrong = 0;
  for (int i = 0; i < sh.threads; i++) {
    pthread_join(t[i], nullptr);
    wrong += w[i].wrong;
  }
  pthread_barrier_destroy(&sh.barrier);
  for (int i = 0; i < sh.threads; i++) cudaFree(sh.out[i]);
  printf("racecheck-hang-probe: %d threads x %d rounds: %lld wrong counts or maxima\n", sh.threads, sh.rounds, wrong);
  return wrong ? 1 : 0;
}
