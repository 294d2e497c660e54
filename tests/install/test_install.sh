#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test_install.sh SOURCE BUILD SCRATCH CC CMAKE: `cmake --install` into
# SCRATCH/prefix, then the examples built with find_package(gr CONFIG) and
# with pkg-config (shared and static), each run and checked.
set -euo pipefail
src=$1 build=$2 scratch=$3 cc=$4 cmake=$5
rm -rf "$scratch"
mkdir -p "$scratch"
prefix=$scratch/prefix
"$cmake" --install "$build" --prefix "$prefix" > "$scratch/install.log"

fail() { echo "test_install: $*" >&2; exit 1; }
libdir=$(dirname "$(find "$prefix" -name 'libgr.so' | head -1)")
[ -n "$libdir" ] || fail "no libgr.so under $prefix"
for f in include/gr/gr.h include/gr/status.h bin/gr_run bin/gr_gen bin/gr_info; do
  [ -e "$prefix/$f" ] || fail "$f was not installed"
done
[ -e "$libdir/libgr.a" ] || fail "libgr.a was not installed"
soname=$(objdump -p "$libdir/libgr.so" | awk '/SONAME/ {print $2}')
[[ $soname == libgr.so.* ]] || fail "libgr.so has SONAME '$soname'"
[ -e "$libdir/$soname" ] || fail "$soname is missing beside libgr.so"
# Only the public interface leaves the shared library.
if nm -D --defined-only "$libdir/libgr.so" | awk '{print $3}' | grep -v '^GR_' |
   grep -Ev '^gr_(library|gpu|options|primitive|context|graph|problem|stats|status|error|errorf|verrorf)' ; then
  fail "libgr.so exports internal symbols (above)"
fi
"$prefix/bin/gr_run" --cpu --gen kron:8:8 --validate --quiet || fail "installed gr_run failed"
"$prefix/bin/gr_info" --gen kron:8:8 --packed --no-cache > "$scratch/gr_info.txt" || fail "installed gr_info failed"
grep -q packed "$scratch/gr_info.txt" || fail "installed gr_info printed no packed size"

# The programs print their results and check them against known answers;
# run each on one and two devices.
# On a machine with fewer GPUs than a run asks for, the extra devices are
# logical ones on the GPUs present (GR_DEVICE_MAP), as the other GPU tests do.
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU') || gpus=0
on_devices() { # devices, command...
  local d=$1
  shift
  if [ "$gpus" -ge 1 ] && [ "$d" -gt "$gpus" ]; then
    local map="" i
    for ((i = 0; i < d; i++)); do map+="${map:+,}$((i % gpus))"; done
    GR_DEVICE_MAP=$map "$@"
  else
    "$@"
  fi
}

check_run() {
  local exe=$1
  for d in 1 2; do
    out=$(on_devices "$d" "$exe" "$d") || fail "$exe $d failed"
    grep -q "vertex 5  depth 3" <<< "$out" || fail "$exe $d printed no depth 3 for vertex 5:\n$out"
    grep -q "sum 1.000000" <<< "$out" || fail "$exe $d: ranks do not sum to 1:\n$out"
  done
}

# find_package(gr CONFIG)
"$cmake" -S "$src/examples" -B "$scratch/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
  > "$scratch/cmake.log" || { cat "$scratch/cmake.log"; fail "configuring examples with find_package failed"; }
"$cmake" --build "$scratch/cmake" -j 2 > "$scratch/cmake-build.log" ||
  { cat "$scratch/cmake-build.log"; fail "building examples with find_package failed"; }
check_run "$scratch/cmake/bfs_from_arrays"
check_run "$scratch/cmake/bfs_from_arrays_static"
on_devices 2 "$scratch/cmake/scaling" bfs kron:10:8 2 2 > "$scratch/scaling.txt" || fail "scaling failed"
grep -Eq '^ +2 ' "$scratch/scaling.txt" || fail "scaling printed no line for 2 devices: $(cat "$scratch/scaling.txt")"

# pkg-config
if command -v pkg-config > /dev/null; then
  export PKG_CONFIG_PATH=$libdir/pkgconfig
  pkg-config --exists gr || fail "pkg-config does not find gr.pc"
  mkdir -p "$scratch/pc"
  # shellcheck disable=SC2046
  "$cc" -std=c11 -Wall -Werror -o "$scratch/pc/bfs_from_arrays" "$src/examples/bfs_from_arrays.c" \
    $(pkg-config --cflags --libs gr) -Wl,-rpath,"$libdir" || fail "building with pkg-config failed"
  check_run "$scratch/pc/bfs_from_arrays"
  # Static: libgr.a in place of -lgr, and what it needs (Libs.private).
  static_libs=$(pkg-config --static --libs gr | sed -E 's/(^| )-lgr( |$)/ /')
  # shellcheck disable=SC2046,SC2086
  "$cc" -std=c11 -Wall -Werror -o "$scratch/pc/bfs_from_arrays_static" "$src/examples/bfs_from_arrays.c" \
    $(pkg-config --cflags gr) "$libdir/libgr.a" $static_libs || fail "building statically with pkg-config failed"
  check_run "$scratch/pc/bfs_from_arrays_static"
else
  echo "test_install: pkg-config not found; skipped its part" >&2
fi
echo "test_install: passed"
