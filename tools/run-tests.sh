#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds gr with warnings as errors and runs the whole test suite (GPU tests
# skip where no GPU exists). Extra arguments go to CMake; CTEST_ARGS (e.g.
# "-L unit") narrows the tests that run.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
"$top/tools/build.sh" -DGR_WERROR=ON -DGR_BUILD_TESTS=ON "$@"
cd "$build"
# shellcheck disable=SC2086
ctest --output-on-failure -j "$(nproc)" --timeout 1200 ${CTEST_ARGS:-}
