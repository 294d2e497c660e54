# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# Sourced by the GPU machines' runners (compute-sanitizer.sh,
# repeat-runs.sh): what they share about the processes they start.

# The processes below a process, each before its own children (pgrep).
descendants() {
  local c
  for c in $(pgrep -P "$1"); do
    echo "$c"
    descendants "$c"
  done
}
