// SPDX-License-Identifier: Apache-2.0
// The non-template kernels shared by every instantiation of the operators.
#include "operators/cuda/operators.cuh"

namespace gr_cuda {

__global__ void degree_kernel(const gr_eid *__restrict__ offsets, const gr_vid *__restrict__ in,
                              gr_eid n_in, gr_eid *__restrict__ deg) {
  for (gr_eid i = blockIdx.x * (gr_eid)blockDim.x + threadIdx.x; i <= n_in;
       i += (gr_eid)gridDim.x * blockDim.x) {
    if (i < n_in) {
      gr_vid u = in[i];
      deg[i] = offsets[u + 1] - offsets[u];
    } else {
      deg[i] = 0;
    }
  }
}

}  // namespace gr_cuda
