#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The long fuzz run, on a machine with many cores and no network (a GPU
# machine's host): builds the fuzz targets with clang and runs all of them
# at once for a time budget, the cores shared out among them (the slower
# targets get more processes), then prints tools/run-fuzz.sh's table:
# processes, seconds, executions, executions per second, coverage (edges),
# features, corpus units, crashes. Exits 1 when a target crashed, with the
# input and how to keep it as a regression.
#   tools/offline/fuzz-long.sh [DEB_DIR]          (default: .deps)
#
# What it needs:
#   * clang with its fuzzer and sanitizer runtimes (libclang_rt.fuzzer,
#     .asan, .ubsan_standalone). A clang in PATH that can link
#     -fsanitize=fuzzer,address,undefined is used as it is. Otherwise clang
#     is unpacked from the .deb files in DEB_DIR into the build folder (never
#     into /): tools/offline/fetch-debs.sh --fuzz downloads them (Debian 12's
#     clang 14: clang-14, libclang-cpp14, libllvm14, libclang-common-14-dev,
#     libclang-rt-14-dev, and libz3-4, libedit2, libxml2, libicu72 for
#     machines without them). The runtimes link against the machine's own
#     gcc installation (crt files, libstdc++), which CUDA builds need anyway.
#   * CMake, and the zlib and cJSON headers (system or the same DEB_DIR).
#   * llvm-symbolizer for readable stack traces, else addr2line (binutils);
#     a crash input is kept either way and replays anywhere.
#   * Or none of that: PREBUILT=DIR names a folder holding the fuzz_<target>
#     programs built elsewhere (tools/run-fuzz.sh builds them in
#     build-fuzz/tests/fuzz on any x86-64 machine with clang, where glibc is
#     no newer than here). libFuzzer and the sanitizer runtimes are linked
#     into each program statically, so they need only libc, libstdc++, zlib
#     and METIS (METIS from DEB_DIR when the machine lacks it). This is how
#     the figures in docs/reliability.md were taken: clang and its runtimes
#     come to about 100 MB of packages, more than a device call may carry.
# Environment: FUZZ_SECONDS (per target, default 480: with the build the
# command stays within 10 minutes), CORES (default: all), BUILD_DIR
# (default build-fuzz-long), OUT_DIR (default BUILD_DIR/fuzz-out), PREBUILT,
# SHARES (which targets run and their shares of the cores, as
# "target:weight ...": e.g. "build:2 edgelist:1 gen_spec:1" gives a second
# run's cores to the targets that fell short of an execution count).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
debs=${1:-$top/.deps}
build=${BUILD_DIR:-$top/build-fuzz-long}
out=${OUT_DIR:-$build/fuzz-out}
seconds=${FUZZ_SECONDS:-480}
cores=${CORES:-$(nproc)}
prefix=$build/deps
mkdir -p "$build" "$prefix"
t_start=$SECONDS

can_fuzz() { # compiler: links a fuzz target with both sanitizers
  local dir
  dir=$(mktemp -d)
  printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return (int)(d && n > 99); }\n' >"$dir/t.c"
  "$1" -fsanitize=fuzzer,address,undefined "$dir/t.c" -o "$dir/t" >"$dir/log" 2>&1 && "$dir/t" -runs=10 >>"$dir/log" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || sed 's/^/    /' "$dir/log" | tail -n 8 >&2
  rm -rf "$dir"
  return $rc
}

unpack() {
  if command -v dpkg-deb >/dev/null 2>&1; then
    dpkg-deb -x "$1" "$prefix"
  else
    local tmp
    tmp=$(mktemp -d)
    (cd "$tmp" && ar x "$1" && tar -xf data.tar.* -C "$prefix")
    rm -rf "$tmp"
  fi
}

shopt -s nullglob
debfiles=("$debs"/*.deb)
shopt -u nullglob
for deb in "${debfiles[@]}"; do unpack "$deb"; done
libdir=$prefix/usr/lib/x86_64-linux-gnu
# zlib's development link is absolute (as in gpu-node.sh): point it at the
# copy unpacked beside it.
if [ -L "$libdir/libz.so" ] && [ -e "$prefix/lib/x86_64-linux-gnu/libz.so.1" ]; then
  ln -sf "$prefix/lib/x86_64-linux-gnu/libz.so.1" "$libdir/libz.so"
  cp -P "$prefix"/lib/x86_64-linux-gnu/libz.so.1* "$libdir/" 2>/dev/null
fi
[ -d "$libdir" ] && export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

if [ -n "${PREBUILT:-}" ]; then
  mkdir -p "$build/tests/fuzz"
  for f in "$PREBUILT"/fuzz_*; do cp "$f" "$build/tests/fuzz/" && chmod +x "$build/tests/fuzz/${f##*/}"; done
  missing=$(ldd "$build"/tests/fuzz/fuzz_* 2>/dev/null | grep 'not found' | sort -u)
  if [ -n "$missing" ]; then
    echo "fuzz-long: the prebuilt fuzz targets lack libraries:" >&2
    echo "$missing" >&2
    exit 2
  fi
  sym=$(command -v llvm-symbolizer || command -v addr2line || true)
  [ -n "$sym" ] && export ASAN_SYMBOLIZER_PATH=$sym
  no_build=--no-build
  echo "fuzz-long: prebuilt fuzz targets from $PREBUILT"
else
no_build=""
cc=""
for c in ${CC:-} clang clang-18 clang-17 clang-16 clang-15 clang-14; do
  command -v "$c" >/dev/null 2>&1 || continue
  if can_fuzz "$(command -v "$c")"; then cc=$(command -v "$c"); break; fi
  echo "fuzz-long: $c cannot link a fuzz target (above); trying others" >&2
done
if [ -z "$cc" ]; then
  for c in "$prefix"/usr/lib/llvm-*/bin/clang; do
    [ -x "$c" ] || continue
    missing=$(ldd "$c" 2>/dev/null | grep 'not found')
    if [ -n "$missing" ]; then
      echo "fuzz-long: the unpacked $c lacks libraries:" >&2
      echo "$missing" >&2
      continue
    fi
    if can_fuzz "$c"; then cc=$c; break; fi
  done
fi
if [ -z "$cc" ]; then
  cat >&2 <<EOF
fuzz-long: no clang here can build the fuzz targets. Either install clang with
its runtimes (Debian/Ubuntu: clang libclang-rt-dev, or libclang-rt-<N>-dev for
clang-<N>), or on a machine with apt run
    tools/offline/fetch-debs.sh --fuzz
and carry .deps/ here (then: tools/offline/fuzz-long.sh .deps).
EOF
  exit 2
fi
echo "fuzz-long: $("$cc" --version | head -1) ($cc)"

sym=$(dirname "$cc")/llvm-symbolizer
if [ -x "$sym" ] || sym=$(command -v llvm-symbolizer); then
  export ASAN_SYMBOLIZER_PATH=$sym
elif command -v addr2line >/dev/null 2>&1; then
  export ASAN_SYMBOLIZER_PATH=$(command -v addr2line)
fi
fi

# Processes per target: shares of the cores, two or three times as many
# for the targets that execute slowest (each build exec builds two CSRs).
shares=${SHARES:-"build:3 mtx:2 edgelist:2 binary:1 gen_spec:1 mtx_gz:1 tune:1 options:1"}
total=0 targets=""
for s in $shares; do
  total=$((total + ${s#*:}))
  targets="$targets${targets:+,}${s%%:*}"
done
procs=""
for s in $shares; do
  t=${s%%:*} w=${s#*:}
  k=$((cores * w / total))
  [ $k -ge 1 ] || k=1
  procs="$procs${procs:+,}$t:$k"
done
echo "fuzz-long: $cores cores, $seconds s per target, processes $procs"

# shellcheck disable=SC2086
CC=${cc:-clang} BUILD_DIR=$build GR_CMAKE_ARGS="-DCMAKE_PREFIX_PATH=$prefix/usr ${GR_CMAKE_ARGS:-}" \
  "$top/tools/run-fuzz.sh" $no_build --time "$seconds" --parallel 8 --procs "$procs" --targets "$targets" --out "$out"
status=$?
echo "fuzz-long: done in $((SECONDS - t_start)) s (build included)"
exit $status
