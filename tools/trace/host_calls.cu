// SPDX-License-Identifier: Apache-2.0
// What the host pays for the CUDA calls a level of a run makes, on this
// machine: each call's own time (nothing waits), and round trips (a tiny
// kernel, then what waits for it). gr's small reads and device syncs are
// shaped by these figures (docs/architecture.md, "Devices and memory").
//
//   gr_host_calls [--iters N] [--bytes B]
//
// Prints the median, 10th and 90th percentile of N timings (default
// 20,000) per case, in microseconds; B (default 8, at most 4096) is the
// size of the reads. Exits 1 where the GPU or a call fails.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

__global__ void tiny(int *p) {
  if (p && threadIdx.x == 0) p[0] += 1;
}

double now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool ok(cudaError_t e, const char *what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "gr_host_calls: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}

void report(const char *name, std::vector<double> &t) {
  std::sort(t.begin(), t.end());
  std::printf("%-44s %8.2f %8.2f %8.2f\n", name, t[t.size() / 2], t[t.size() / 10], t[t.size() * 9 / 10]);
  t.clear();
}

}  // namespace

int main(int argc, char **argv) {
  int iters = 20000, bytes = 8;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--iters") && i + 1 < argc) iters = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--bytes") && i + 1 < argc) bytes = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: gr_host_calls [--iters N] [--bytes B]\n");
      return 2;
    }
  }
  if (iters < 10 || bytes < 1 || bytes > 4096) {
    std::fprintf(stderr, "gr_host_calls: --iters at least 10, --bytes 1 to 4096\n");
    return 2;
  }
  cudaStream_t s = nullptr, idle = nullptr;
  int *d = nullptr;
  unsigned char *pinned = nullptr;
  cudaEvent_t ta = nullptr, tb = nullptr, nt = nullptr;
  if (!ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream") ||
      !ok(cudaStreamCreateWithFlags(&idle, cudaStreamNonBlocking), "stream") ||
      !ok(cudaMalloc(&d, 1 << 16), "cudaMalloc") || !ok(cudaMemset(d, 0, 1 << 16), "cudaMemset") ||
      !ok(cudaMallocHost(&pinned, 4096), "cudaMallocHost") || !ok(cudaEventCreate(&ta), "event") ||
      !ok(cudaEventCreate(&tb), "event") || !ok(cudaEventCreateWithFlags(&nt, cudaEventDisableTiming), "event"))
    return 1;
  std::vector<unsigned char> pageable(4096);
  std::vector<double> t;
  t.reserve((size_t)iters);
  std::printf("%-44s %8s %8s %8s\n", "us (host)", "median", "p10", "p90");
  // Each call alone: the stream drained every 64 calls so that it never
  // fills up.
  const char *one[] = {"launch",
                       "memsetAsync (4 KiB)",
                       "eventRecord (timing)",
                       "eventRecord (no timing)",
                       "eventQuery x2 + eventElapsedTime",
                       "streamSynchronize of an idle stream",
                       "memcpyAsync H2D 64 B pageable",
                       "memcpyAsync H2D 64 B pinned",
                       "memcpyAsync D2D 4 KiB",
                       "streamWaitEvent"};
  for (int c = 0; c < (int)(sizeof one / sizeof one[0]); c++) {
    for (int i = 0; i < iters; i++) {
      if (c == 4) {
        cudaEventRecord(ta, s);
        cudaEventRecord(tb, s);
        cudaStreamSynchronize(s);
      }
      if (c == 9) cudaEventRecord(nt, idle);
      const double t0 = now_us();
      float ms = 0;
      switch (c) {
        case 0: tiny<<<1, 32, 0, s>>>(nullptr); break;
        case 1: cudaMemsetAsync(d, 0, 4096, s); break;
        case 2: cudaEventRecord(ta, s); break;
        case 3: cudaEventRecord(nt, s); break;
        case 4: cudaEventQuery(tb), cudaEventQuery(ta), cudaEventElapsedTime(&ms, ta, tb); break;
        case 5: cudaStreamSynchronize(idle); break;
        case 6: cudaMemcpyAsync(d, pageable.data(), 64, cudaMemcpyHostToDevice, s); break;
        case 7: cudaMemcpyAsync(d, pinned, 64, cudaMemcpyHostToDevice, s); break;
        case 8: cudaMemcpyAsync(d + 2048, d, 4096, cudaMemcpyDeviceToDevice, s); break;
        case 9: cudaStreamWaitEvent(s, nt, 0); break;
      }
      t.push_back(now_us() - t0);
      if ((i & 63) == 63) cudaStreamSynchronize(s);
    }
    if (!ok(cudaStreamSynchronize(s), one[c])) return 1;
    report(one[c], t);
  }
  // Round trips: a tiny kernel, then what waits for it.
  char name[96];
  const char *trip[] = {"kernel + streamSynchronize", "kernel + 2 streamSynchronize (one idle)",
                        "kernel + read into pageable memory", "kernel + read into pinned memory",
                        "kernel + read into pinned, memcpy out", "2 kernels + streamSynchronize"};
  for (int c = 0; c < (int)(sizeof trip / sizeof trip[0]); c++) {
    for (int i = 0; i < iters; i++) {
      const double t0 = now_us();
      tiny<<<1, 32, 0, s>>>(d);
      switch (c) {
        case 0: cudaStreamSynchronize(s); break;
        case 1: cudaStreamSynchronize(s), cudaStreamSynchronize(idle); break;
        case 2:
          cudaMemcpyAsync(pageable.data(), d, (size_t)bytes, cudaMemcpyDeviceToHost, s);
          cudaStreamSynchronize(s);
          break;
        case 3:
          cudaMemcpyAsync(pinned, d, (size_t)bytes, cudaMemcpyDeviceToHost, s);
          cudaStreamSynchronize(s);
          break;
        case 4:
          cudaMemcpyAsync(pinned, d, (size_t)bytes, cudaMemcpyDeviceToHost, s);
          cudaStreamSynchronize(s);
          std::memcpy(pageable.data(), pinned, (size_t)bytes);
          break;
        case 5:
          tiny<<<1, 32, 0, s>>>(d);
          cudaStreamSynchronize(s);
          break;
      }
      t.push_back(now_us() - t0);
    }
    if (!ok(cudaGetLastError(), trip[c])) return 1;
    std::snprintf(name, sizeof name, "%s%s", trip[c], c >= 2 && c <= 4 ? " (--bytes)" : "");
    report(name, t);
  }
  cudaEventDestroy(ta);
  cudaEventDestroy(tb);
  cudaEventDestroy(nt);
  cudaFreeHost(pinned);
  cudaFree(d);
  cudaStreamDestroy(idle);
  cudaStreamDestroy(s);
  return 0;
}
