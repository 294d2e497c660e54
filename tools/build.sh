#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Configures and builds gr in BUILD_DIR (default: build). CUDA is used when
# nvcc is found (sm_90 unless CMAKE_CUDA_ARCHITECTURES is given). Extra
# arguments go to CMake, e.g. -DGR_VERTEX_64=ON.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
cmake -S "$top" -B "$build" "$@"
cmake --build "$build" -j "$(nproc)"
