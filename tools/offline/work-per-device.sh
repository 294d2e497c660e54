#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Work per device on one GPU machine: builds gr_run and gr_gen
# (gpu-node.sh), then runs every primitive on 1, 2 and 4 logical devices of
# GPU 0 (GR_DEVICE_MAP=0,0,0,0) taking turns (gr_scale.py --turns), so that
# each device's work per iteration is timed alone, and prints the work table
# and the model's prediction for GPUs of their own. Outputs (scale.csv,
# scale.json, plots, the reports as one tar.gz, the printed table) go to
# OUT_DIR; the build's logs to BUILD_DIR/logs.
#   tools/offline/work-per-device.sh OUT_DIR [GRAPH]      (GRAPH default kron:25:16)
# Environment: DEVICES (default 1,2,4), RUNS (sources per case, default 4),
# PRIMS (a comma list, default every primitive of strong-kron25.json),
# VALIDATE (first or none, default first), PARTS (partitioners, a comma list,
# default the config's: random), EXTRA (more gr_run arguments),
# DEVICE_MAP (default 0,0,0,0,0,0,0,0), BUILD_DIR (default build-gpu),
# KERNELS (1: every case once more under the GPU timeline library,
# gr_scale.py --trace-lib, for each run's kernel time per device).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: work-per-device.sh OUT_DIR [GRAPH]}
graph=${2:-kron:25:16}
build=${BUILD_DIR:-$top/build-gpu}
mkdir -p "$out"
targets="gr_run gr_gen"
trace=()
if [ "${KERNELS:-0}" = 1 ]; then
  targets="$targets gr_gpu_trace"
  trace=(--trace-lib "$build/tools/libgr_gpu_trace.so")
fi
GR_TESTS=none GR_TARGETS="$targets" BENCH_GRAPHS=none LOG_DIR="$build/logs" BUILD_DIR="$build" \
  bash "$top/tools/offline/gpu-node.sh" || exit 1
prims=()
[ -n "${PRIMS:-}" ] && prims=(--primitives "$PRIMS")
parts=()
[ -n "${PARTS:-}" ] && parts=(--partitioners "$PARTS")
validate=()
[ "${VALIDATE:-first}" = none ] && validate=(--no-validate)
PYTHONUNBUFFERED=1 python3 "$top/tools/gr_scale.py" "$top/configs/scaling/strong-kron25.json" --graph "$graph" \
  --transports p2p "${prims[@]}" "${parts[@]}" --gr-run "$build/tools/gr_run" --out-dir "$out/scale" \
  --graph-dir "$build/graphs" --device-map "${DEVICE_MAP:-0,0,0,0,0,0,0,0}" --devices "${DEVICES:-1,2,4}" \
  --runs "${RUNS:-4}" --turns "${validate[@]}" "${trace[@]}" "--extra=${EXTRA:-}" 2>&1 | tee "$out/work-per-device.txt"
rc=${PIPESTATUS[0]}
# The timelines stay out of the tarball (tens of MB a case).
rm -f "$out"/scale/reports/*-trace.csv
tar -C "$out/scale" -czf "$out/reports.tar.gz" reports && rm -rf "$out/scale/reports"
exit "$rc"
