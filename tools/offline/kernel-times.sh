#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Where a command's GPU time goes, kernel by kernel: runs it under Nsight
# Compute reading only each launch's duration (clocks and caches left as they
# are, so the figures stay close to an unprofiled run's), then prints the
# kernels by total time.
#   tools/offline/kernel-times.sh OUT.csv COMMAND [ARGS...]
set -euo pipefail
out=$1
shift
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1 || true)
if [ -z "$ncu" ]; then
  echo "kernel-times: ncu (Nsight Compute) not found" >&2
  exit 2
fi
"$ncu" --clock-control none --cache-control none --metrics gpu__time_duration.sum \
  --print-units base --csv --log-file "$out" "$@" >/dev/null
python3 "$(dirname "$0")/../kernel_times.py" "$out"
