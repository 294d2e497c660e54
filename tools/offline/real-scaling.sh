#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Scaling on a machine with several GPUs: builds gr_run and gr_gen
# (gpu-node.sh; a build already in BUILD_DIR is reused), then runs each
# scaling config with tools/gr_scale.py on the GPUs of their own, every case
# measured and, with MODEL=1, once more with the devices taking turns for
# the model's prediction beside the measured speedup (gr_scale --model).
# Each config's outputs (scale.csv, scale.json, plots, its gr_run reports as
# one tar.gz, the printed tables) go to OUT_DIR/NAME; the tables are printed
# last. Generated graphs are kept in BUILD_DIR/graphs for the next command.
#   tools/offline/real-scaling.sh OUT_DIR CONFIG [CONFIG...]
# Environment (each overrides every config's key through gr_scale's
# options): PRIMS (primitives, a comma list), TRANSPORTS, PARTITIONERS,
# DEVICES (device counts, e.g. 1,2), RUNS (sources per case); MODEL (1, the default, or 0), VALIDATE (first,
# the default, or none), TIMEOUT (seconds per gr_run, default 300), EXTRA
# (more gr_run arguments), BUILD_DIR (default build-gpu), NAME_SUFFIX (added
# to each output folder's name), DEADLINE (seconds for the whole script,
# its build included: each config's gr_scale gets what is left less 15 s,
# for its archive and tables, and is reported "cut at DEADLINE" if it runs
# that long, its finished cases kept in scale.csv; a config that would get
# less than 30 s is reported "not started"; either exits 1. Default none: a
# device command's own limit otherwise cuts the script, its last config's
# reports unarchived and its tables unprinted).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: real-scaling.sh OUT_DIR CONFIG [CONFIG...]}
shift
[ $# -ge 1 ] || { echo "real-scaling: name at least one config" >&2; exit 2; }
build=${BUILD_DIR:-$top/build-gpu}
deadline=${DEADLINE:-}
if [ -n "$deadline" ] && ! [[ $deadline =~ ^[1-9][0-9]*$ ]]; then
  echo "real-scaling: DEADLINE=$deadline: give seconds, 1 or more" >&2
  exit 2
fi
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0
if [ ! -x "$build/tools/gr_run" ] || [ ! -x "$build/tools/gr_gen" ]; then
  GR_TESTS=none GR_TARGETS="gr_run gr_gen" BENCH_GRAPHS=none LOG_DIR="$build/logs" BUILD_DIR="$build" \
    bash "$top/tools/offline/gpu-node.sh" || exit 1
fi
libdir=$build/deps/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader >"$out/gpus.txt" 2>&1
nvidia-smi topo -m >>"$out/gpus.txt" 2>&1
status=0
for cfg in "$@"; do
  name=$(basename "$cfg" .json)${NAME_SUFFIX:-}
  dir=$out/$name
  mkdir -p "$dir"
  opts=(--gr-run "$build/tools/gr_run" --out-dir "$dir" --graph-dir "$build/graphs" --timeout "${TIMEOUT:-300}")
  [ -n "${PRIMS:-}" ] && opts+=(--primitives "$PRIMS")
  [ -n "${TRANSPORTS:-}" ] && opts+=(--transports "$TRANSPORTS")
  [ -n "${PARTITIONERS:-}" ] && opts+=(--partitioners "$PARTITIONERS")
  [ -n "${DEVICES:-}" ] && opts+=(--devices "$DEVICES")
  [ -n "${RUNS:-}" ] && opts+=(--runs "$RUNS")
  [ "${MODEL:-1}" = 1 ] && opts+=(--model)
  [ "${VALIDATE:-first}" = none ] && opts+=(--no-validate)
  limit=()
  if [ -n "$deadline" ]; then
    left=$((deadline - SECONDS - 15))
    if [ $left -lt 30 ]; then
      echo "== $name (not started: ${left} s left of DEADLINE=$deadline) =="
      status=1
      continue
    fi
    limit=(timeout "$left")
  fi
  PYTHONUNBUFFERED=1 ${limit[@]+"${limit[@]}"} python3 "$top/tools/gr_scale.py" "$cfg" "${opts[@]}" "--extra=${EXTRA:-}" \
    >"$dir/tables.txt" 2>"$dir/progress.txt"
  rc=$?
  [ $rc -eq 0 ] || status=1
  [ -d "$dir/reports" ] && tar -C "$dir" -czf "$dir/reports.tar.gz" reports && rm -rf "$dir/reports"
  if [ -n "$deadline" ] && [ $rc -eq 124 ]; then
    echo "== $name (gr_scale cut at DEADLINE=$deadline; the finished cases are in scale.csv) =="
  else
    echo "== $name (gr_scale exit $rc) =="
  fi
  tail -n 3 "$dir/progress.txt"
  cat "$dir/tables.txt"
done
exit $status
