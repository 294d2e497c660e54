#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Quick start: installs what is missing, builds gr, and runs BFS on a
# generated Kronecker graph (on the GPU when there is one, else on the CPU
# backend), validating the result.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/tools/install-deps.sh"
"$top/tools/build.sh" -DGR_BUILD_TESTS=OFF
build=${BUILD_DIR:-$top/build}
"$build/tools/gr_run" --primitive bfs --gen kron:16:16 --runs 4 --validate
