#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds gr with sanitizers and runs the CPU test suite under them (CI runs
# both; docs/reliability.md says what each covers and why):
#   asan  AddressSanitizer + UndefinedBehaviorSanitizer and the leak check
#         (GR_SANITIZE=address,undefined, the default compiler): every CPU
#         test, the fuzz replays included.
#   tsan  ThreadSanitizer (GR_SANITIZE=thread) over every CPU test: those
#         that run several devices are the point (the enactor's barriers,
#         the exchange, failure propagation); the rest cost two minutes and
#         cover the parallel loader and the device thread beside the caller.
#         Built with clang and its OpenMP runtime, whose Archer tool tells
#         ThreadSanitizer about OpenMP's own synchronisation (a runtime it
#         cannot see, such as GCC's libgomp, makes every parallel loop look
#         racy), so the OpenMP loops inside each device are checked too.
#         Without Archer the OpenMP teams are held to one thread
#         (OMP_THREAD_LIMIT=1): the device threads still race freely.
# Both leave CUDA out (GPU tests skip anyway; the CUDA runtime and
# AddressSanitizer need special settings to share a process).
#   tools/run-sanitizers.sh [asan] [tsan]        (default: both)
# Environment: BUILD_DIR_ASAN (default build-asan), BUILD_DIR_TSAN (default
# build-tsan), TSAN_CC (default clang), GR_CMAKE_ARGS (extra CMake arguments).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kinds=${*:-asan tsan}
jobs=$(nproc)
gen=()
command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
status=0

# A sanitizer report ends the process with SIGABRT, which no test mistakes
# for one of gr_run's exit codes (1 invalid, 2 bad input, 3 runtime).
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:check_initialization_order=1:strict_init_order=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1

build() { # dir, cmake args...
  local dir=$1
  shift
  mkdir -p "$dir"
  # shellcheck disable=SC2086
  cmake -S "$top" -B "$dir" "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGR_WITH_CUDA=OFF -DGR_WERROR=ON \
    -DGR_BUILD_TESTS=ON "$@" ${GR_CMAKE_ARGS:-} >"$dir/configure.log" 2>&1 &&
    cmake --build "$dir" -j "$jobs" >"$dir/build.log" 2>&1 || {
    tail -n 60 "$dir/configure.log" "$dir/build.log" >&2
    echo "run-sanitizers: building $dir failed" >&2
    return 1
  }
}

for kind in $kinds; do
  t0=$SECONDS
  case $kind in
    asan)
      dir=${BUILD_DIR_ASAN:-$top/build-asan}
      if build "$dir" -DGR_SANITIZE=address,undefined; then
        (cd "$dir" && ctest --output-on-failure -j "$jobs" --timeout 1800) || status=1
      else
        status=1
      fi
      ;;
    tsan)
      dir=${BUILD_DIR_TSAN:-$top/build-tsan}
      cc=${TSAN_CC:-clang}
      if ! command -v "$cc" >/dev/null 2>&1; then
        echo "run-sanitizers: $cc not found (Debian: clang libomp-dev; tools/install-deps.sh)" >&2
        status=1
        continue
      fi
      if ! build "$dir" -DCMAKE_C_COMPILER="$cc" -DGR_SANITIZE=thread; then
        status=1
        continue
      fi
      archer=$("$cc" -print-file-name=libarcher.so)
      [ -f "$archer" ] || archer=$(ls /usr/lib/llvm-*/lib/libarcher.so 2>/dev/null | head -1)
      if [ -n "$archer" ] && [ -f "$archer" ]; then
        export OMP_TOOL_LIBRARIES=$archer
        unset OMP_THREAD_LIMIT
        echo "run-sanitizers: OpenMP under ThreadSanitizer through $archer"
      else
        export OMP_THREAD_LIMIT=1
        echo "run-sanitizers: no Archer (libomp-dev): OpenMP teams of one thread"
      fi
      # ignore_noninstrumented_modules: reports inside the uninstrumented
      # OpenMP runtime itself are not gr's (Archer's documented setting).
      export TSAN_OPTIONS="halt_on_error=1:abort_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1"
      (cd "$dir" && ctest --output-on-failure -j "$jobs" --timeout 1800) || status=1
      unset OMP_TOOL_LIBRARIES OMP_THREAD_LIMIT TSAN_OPTIONS
      ;;
    *)
      echo "run-sanitizers: unknown kind '$kind' (asan, tsan)" >&2
      exit 2
      ;;
  esac
  echo "run-sanitizers: $kind took $((SECONDS - t0)) s"
done
exit $status
