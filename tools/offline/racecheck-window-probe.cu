// SPDX-License-Identifier: Apache-2.0
// A probe of compute-sanitizer's racecheck, apart from gr: do the launches
// a kernel filter leaves out still count for --launch-skip and
// --launch-count? racecheck-slices.sh checks long runs in windows of
// launches with kernels that have no shared memory left out, and the
// windows must be sized in the unit the tool counts.
//
// The probe launches, in this order and one stream: probe_race_first
// once, probe_plain (no shared memory) PLAIN times, probe_race_last once.
// Both race kernels write one shared word from every thread of a block
// with no barrier between, a hazard racecheck reports whenever it checks
// the launch. So with --kernel-name-exclude kns=probe_plain
// --launch-skip 1 --launch-count 1:
//   - if left-out launches count, the window is the first probe_plain,
//     left out: no hazard;
//   - if only the launches kept count, the window is probe_race_last:
//     hazards in probe_race_last.
// Controls: the same window with no filter (probe_plain: no hazard), and
// --launch-skip PLAIN+1 --launch-count 1 with no filter (probe_race_last:
// hazards), which show that a window lands where it is counted to.
//   nvcc -O2 -arch=sm_90 -o racecheck-window-probe tools/offline/racecheck-window-probe.cu
//   compute-sanitizer --tool racecheck --kernel-name-exclude kns=probe_plain
//       --launch-skip 1 --launch-count 1 ./racecheck-window-probe [PLAIN]    (one command)
// PLAIN defaults to 10. Exits 1 on a CUDA error or a wrong value copied
// back, 0 otherwise (the hazards are racecheck's to print).
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

constexpr unsigned kBlock = 128;  // four warps: the writes race across warps

// Every thread writes the one shared word, then thread 0 reads it, with no
// barrier: write-after-write hazards among the warps and read-after-write
// ones. volatile keeps every access (no store forwarded or dropped). The
// names are extern "C" so that a filter's substring is the plain name.
extern "C" __global__ void probe_race_first(int *out) {
  volatile __shared__ int word;
  word = (int)threadIdx.x;
  if (threadIdx.x == 0) out[0] = word >= 0 ? 1 : 0;
}

extern "C" __global__ void probe_race_last(int *out) {
  volatile __shared__ int word;
  word = (int)threadIdx.x;
  if (threadIdx.x == 0) out[2] = word >= 0 ? 1 : 0;
}

// No shared memory: nothing for racecheck to check.
extern "C" __global__ void probe_plain(int *out) {
  if (threadIdx.x == 0) atomicAdd(&out[1], 1);
}

#define PROBE_CHECK(call)                                                                   \
  do {                                                                                      \
    cudaError_t e_ = (call);                                                                \
    if (e_ != cudaSuccess) {                                                                \
      fprintf(stderr, "racecheck-window-probe: %s: %s\n", #call, cudaGetErrorString(e_)); \
      return 1;                                                                             \
    }                                                                                       \
  } while (0)

int main(int argc, char **argv) {
  long plain = argc > 1 ? strtol(argv[1], NULL, 10) : 10;
  if (plain < 1 || plain > 1000000) {
    fprintf(stderr, "racecheck-window-probe: PLAIN must be 1..1000000\n");
    return 1;
  }
  int *d = NULL, h[3] = {0, 0, 0};
  PROBE_CHECK(cudaMalloc(&d, sizeof h));
  PROBE_CHECK(cudaMemset(d, 0, sizeof h));
  probe_race_first<<<1, kBlock>>>(d);
  PROBE_CHECK(cudaGetLastError());
  for (long i = 0; i < plain; i++) {
    probe_plain<<<1, kBlock>>>(d);
    PROBE_CHECK(cudaGetLastError());
  }
  probe_race_last<<<1, kBlock>>>(d);
  PROBE_CHECK(cudaGetLastError());
  PROBE_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  PROBE_CHECK(cudaFree(d));
  if (h[0] != 1 || h[1] != plain || h[2] != 1) {
    fprintf(stderr, "racecheck-window-probe: copied back %d %d %d, expected 1 %ld 1\n", h[0], h[1], h[2], plain);
    return 1;
  }
  printf("racecheck-window-probe: %ld launches (1 + %ld + 1), all ran\n", plain + 2, plain);
  return 0;
}
