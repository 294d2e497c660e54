#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# On a GPU machine without network: unpacks the carried .deb files into a
# prefix inside the build area (never into /), builds gr with CUDA, runs the
# test suite (GPU tests included) and a short BFS benchmark, and prints a
# table last. Logs go to $LOG_DIR (default: the build folder).
#   tools/offline/gpu-node.sh [DEB_DIR]      (DEB_DIR default: .deps)
# Environment: BUILD_DIR (default build-gpu), CUDA_ARCH (default 90),
# BENCH_GRAPHS (generator specs or graph files, default "kron:20:16 uniform:20:16
# grid2d:1024x1024"; "none" skips the benchmark), BENCH_RUNS (sources per graph, default 8), GR_CMAKE_ARGS,
# GR_TESTS (a ctest -R pattern: only those tests; "none" skips them; the
# default and any pattern that matches test_gr_run_multi_gpu run the whole
# GPU e2e matrix, which had not ended after 8 minutes on one H200: spread
# it over commands with multi-gpu-tests.sh),
# GR_TARGETS (build only these targets, e.g. "gr_run gr_gen").
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
debs=${1:-$top/.deps}
build=${BUILD_DIR:-$top/build-gpu}
logs=${LOG_DIR:-$build}
prefix=$build/deps
mkdir -p "$build" "$logs" "$prefix"

unpack() {
  local deb=$1
  if command -v dpkg-deb >/dev/null 2>&1; then
    dpkg-deb -x "$deb" "$prefix"
  else
    local tmp
    tmp=$(mktemp -d)
    (cd "$tmp" && ar x "$deb" && tar -xf data.tar.* -C "$prefix")
    rm -rf "$tmp"
  fi
}
shopt -s nullglob
for deb in "$debs"/*.deb; do unpack "$deb"; done
shopt -u nullglob
libdir=$prefix/usr/lib/x86_64-linux-gnu
# zlib's development link is absolute (/lib/...libz.so.1.2.13); point it at
# the copy unpacked beside it so the build never reaches outside the prefix.
if [ -L "$libdir/libz.so" ] && [ -e "$prefix/lib/x86_64-linux-gnu/libz.so.1" ]; then
  ln -sf "$prefix/lib/x86_64-linux-gnu/libz.so.1" "$libdir/libz.so"
  cp -P "$prefix"/lib/x86_64-linux-gnu/libz.so.1* "$libdir/" 2>/dev/null
fi
export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -x /usr/local/cuda/bin/nvcc ] && export PATH=/usr/local/cuda/bin:$PATH
export NCCL_NVLS_ENABLE=0
# The multi-device tests run their matrix on the GPUs present and map extra
# logical devices onto them (GR_DEVICE_MAP).
GR_E2E_GPUS=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU') || GR_E2E_GPUS=0
export GR_E2E_GPUS

status=0
step() { # name, command...
  local name=$1; shift
  local t0=$SECONDS
  if "$@" >"$logs/$name.log" 2>&1; then
    printf '%-10s ok      %4ds  %s\n' "$name" $((SECONDS - t0)) "$logs/$name.log" >>"$logs/steps.txt"
  else
    printf '%-10s FAILED  %4ds  %s\n' "$name" $((SECONDS - t0)) "$logs/$name.log" >>"$logs/steps.txt"
    tail -n 40 "$logs/$name.log"
    status=1
  fi
}
: >"$logs/steps.txt"
gen=()
command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
step configure cmake -S "$top" -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix/usr" -DGR_WITH_CUDA=ON -DGR_WERROR=ON \
  -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" ${GR_CMAKE_ARGS:-}
targets=()
for t in ${GR_TARGETS:-}; do targets+=(--target "$t"); done
step build cmake --build "$build" -j "$(nproc)" "${targets[@]}"
[ "${GR_TESTS:-}" = none ] || step tests bash -c "cd '$build' && ctest --output-on-failure -j 4 --timeout 1200 -R '${GR_TESTS:-.}'"

bench=$logs/bench.txt
: >"$bench"
if [ -x "$build/tools/gr_run" ] && [ "${BENCH_GRAPHS:-}" != none ]; then
  for g in ${BENCH_GRAPHS:-kron:20:16 uniform:20:16 grid2d:1024x1024}; do
    # A path that exists is a graph file; anything else a generator spec.
    if [ -e "$g" ]; then input=("$g"); label=$(basename "$g"); else input=(--gen "$g"); label=$g; fi
    name=bench-$(printf '%s' "$label" | tr -c 'A-Za-z0-9.-' '_')
    "$build/tools/gr_run" --primitive bfs "${input[@]}" --runs "${BENCH_RUNS:-8}" --validate \
      --json "$logs/$name.json" >"$logs/$name.log" 2>&1
    rc=$?
    med=$(grep -o 'median [0-9.]* ms' "$logs/$name.log" | head -1)
    gteps=$(grep -o 'median [0-9.]* GTEPS' "$logs/$name.log" | head -1)
    peak=$(grep -o 'peak memory [0-9.]* [KMG]iB' "$logs/$name.log" | head -1)
    printf '%-24s rc=%d  %-20s %-18s %s\n' "$label" "$rc" "$med" "$gteps" "$peak" >>"$bench"
    [ $rc -eq 0 ] || status=1
  done
fi

echo
echo "== gr on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1) =="
cat "$logs/steps.txt"
grep -E 'tests passed|tests failed' "$logs/tests.log" 2>/dev/null
echo "-- BFS (${BENCH_RUNS:-8} random sources per graph, validated) --"
cat "$bench"
exit $status
