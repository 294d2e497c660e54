#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A change's effect on each device's kernel time, on one GPU machine in one
# call: builds gr_run twice (OLD_SRC, a source tree of the commit to compare
# against, and this tree; gpu-node.sh, the two at once), then runs each
# case with the two builds in turn, REPS times, under the GPU timeline
# library (logical devices of GPU 0 taking turns), and prints each case's
# slowest device's kernel time and the operations that moved most
# (tools/kernel_ab.py). The machines have no git history: make OLD_SRC
# before the call, e.g. `git archive REV | tar -x -C out/oldsrc`.
#   tools/offline/ab-kernels.sh OUT_DIR OLD_SRC GRAPH CASE [CASE ...]
# GRAPH: a graph file or a generator spec (kron:25:16: written once by the
# new build's gr_gen into BUILD_DIR/graphs). CASE: PRIMITIVE:DEVICES, with
# more gr_run arguments after a second colon, commas for spaces
# (sssp:2:--weights,random:1:255).
# Environment: REPS (default 2), RUNS (sources a run, default 5; the first
# run is validated and left out of the figures), BUILD_DIR (default
# build-gpu), OLD_BUILD_DIR (default build-old), DEADLINE (seconds from the
# start after which no case starts, default 500), DEB_DIR (the carried
# Debian packages, default .deps); GR_RUN_OLD, GR_RUN_NEW,
# TRACE_LIB_OLD, TRACE_LIB_NEW (built programs and libgr_gpu_trace.so:
# nothing is built when all four are given).
# Outputs in OUT_DIR: each run's log and kernel table (CASE__BUILD__REP),
# ab.csv (each run's slowest and summed kernel time), ab-ops.csv (every
# operation of the slowest device, per case and build), ab.txt (the
# table). A GPU call brings back a few files: copy those three.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -lt 4 ]; then
  echo "usage: ab-kernels.sh OUT_DIR OLD_SRC GRAPH CASE [CASE ...]" >&2
  exit 2
fi
out=$1 old_src=$2 graph=$3
shift 3
reps=${REPS:-2} runs=${RUNS:-5} deadline=${DEADLINE:-500}
case "$reps$runs$deadline" in
  *[!0-9]*)
    echo "ab-kernels: REPS, RUNS and DEADLINE are whole numbers" >&2
    exit 2
    ;;
esac
if [ "$runs" -lt 2 ] || [ "$reps" -lt 1 ]; then
  echo "ab-kernels: RUNS is at least 2 (the first is left out), REPS at least 1" >&2
  exit 2
fi
for c in "$@"; do
  if ! [[ $c =~ ^[a-z]+:[0-9]+(:.*)?$ ]]; then
    echo "ab-kernels: case '$c': PRIMITIVE:DEVICES[:ARGS]" >&2
    exit 2
  fi
done
mkdir -p "$out"
t0=$SECONDS
# A name for files: letters, digits, '_', '.', '-' kept, the rest '_'.
file_name() { printf '%s' "$1" | tr -c 'A-Za-z0-9_.-' '_'; }
build=${BUILD_DIR:-$top/build-gpu}
old_build=${OLD_BUILD_DIR:-$top/build-old}
new_run=${GR_RUN_NEW:-$build/tools/gr_run}
old_run=${GR_RUN_OLD:-$old_build/tools/gr_run}
new_lib=${TRACE_LIB_NEW:-$build/tools/libgr_gpu_trace.so}
old_lib=${TRACE_LIB_OLD:-$old_build/tools/libgr_gpu_trace.so}
if [ -z "${GR_RUN_OLD:-}" ] || [ -z "${GR_RUN_NEW:-}" ] || [ -z "${TRACE_LIB_OLD:-}" ] || [ -z "${TRACE_LIB_NEW:-}" ]; then
  if [ ! -f "$old_src/CMakeLists.txt" ]; then
    echo "ab-kernels: $old_src holds no source tree" >&2
    exit 2
  fi
  debs=${DEB_DIR:-$top/.deps}
  # The old tree's build beside the new one's, each with its own logs.
  (GR_TESTS=none BENCH_GRAPHS=none BUILD_DIR="$old_build" LOG_DIR="$out/build-old" GR_TARGETS="gr_run gr_gpu_trace" \
    bash "$old_src/tools/offline/gpu-node.sh" "$debs" >"$out/build-old.txt" 2>&1) &
  old_pid=$!
  GR_TESTS=none BENCH_GRAPHS=none BUILD_DIR="$build" LOG_DIR="$out/build-new" GR_TARGETS="gr_run gr_gen gr_gpu_trace" \
    bash "$top/tools/offline/gpu-node.sh" "$debs" >"$out/build-new.txt" 2>&1
  new_rc=$?
  wait "$old_pid"
  old_rc=$?
  if [ $new_rc -ne 0 ] || [ $old_rc -ne 0 ]; then
    echo "ab-kernels: a build failed (new $new_rc, old $old_rc; $out/build-*.txt)" >&2
    exit 3
  fi
  export LD_LIBRARY_PATH=$build/deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
for f in "$new_run" "$old_run" "$new_lib" "$old_lib"; do
  if [ ! -e "$f" ]; then
    echo "ab-kernels: $f not found" >&2
    exit 3
  fi
done
if [ ! -e "$graph" ]; then
  gen=${GR_GEN:-$build/tools/gr_gen}
  file=$build/graphs/$(file_name "$graph").grb
  mkdir -p "$build/graphs"
  if [ ! -e "$file" ] && ! "$gen" "$graph" -o "$file" -q >"$out/gen.txt" 2>&1; then
    echo "ab-kernels: could not write $graph ($out/gen.txt)" >&2
    exit 3
  fi
  graph=$file
fi
export NCCL_NVLS_ENABLE=0
status=0
for rep in $(seq 1 "$reps"); do
  for b in old new; do
    if [ $b = old ]; then run=$old_run lib=$old_lib; else run=$new_run lib=$new_lib; fi
    for c in "$@"; do
      if [ $((SECONDS - t0)) -gt "$deadline" ]; then
        echo "ab-kernels: past the deadline ($deadline s): $c ($b, rep $rep) not started" | tee -a "$out/skipped.txt" >&2
        status=4
        continue
      fi
      prim=${c%%:*} rest=${c#*:}
      devices=${rest%%:*} extra=()
      [ "$rest" != "$devices" ] && IFS=, read -r -a extra <<<"${rest#*:}"
      map=0
      for ((i = 1; i < devices; i++)); do map=$map,0; done
      name=$(file_name "$c")__${b}__$rep
      trace=$out/$name.trace.csv
      GR_DEVICE_MAP=$map GR_GPU_TRACE=$trace CUDA_INJECTION64_PATH=$lib \
        "$run" --primitive "$prim" --gpus "$devices" "${extra[@]}" --runs "$runs" --validate-first --turns \
        --transport p2p "$graph" >"$out/$name.log" 2>&1
      rc=$?
      if [ $rc -ne 0 ]; then
        echo "ab-kernels: $c ($b, rep $rep) exited $rc ($out/$name.log)" >&2
        status=1
      elif ! python3 "$top/tools/gpu_trace.py" "$trace" --marks --skip 1 --kernels-csv "$out/$name.csv" \
        >"$out/$name.trace.txt" 2>&1; then
        echo "ab-kernels: $c ($b, rep $rep): its timeline could not be read ($out/$name.trace.txt)" >&2
        status=1
      fi
      # Tens of MB a run; the table keeps what the comparison reads.
      rm -f "$trace"
    done
  done
done
python3 "$top/tools/kernel_ab.py" "$out" --csv "$out/ab.csv" --ops-csv "$out/ab-ops.csv" | tee "$out/ab.txt"
[ "${PIPESTATUS[0]}" -ne 0 ] && status=1
exit $status
