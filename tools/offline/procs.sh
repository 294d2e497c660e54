# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# Sourced by the GPU machines' runners (compute-sanitizer.sh,
# repeat-runs.sh): what they share about the processes they start and
# their logs.

# The processes below a process, each before its own children (pgrep).
descendants() {
  local c
  for c in $(pgrep -P "$1"); do
    echo "$c"
    descendants "$c"
  done
}

# reports_in LOG [TOOL]: what compute-sanitizer reported in a run's log,
# from its own summary lines only (its prefix; the program's output shares
# the log). racecheck sums up as "RACECHECK SUMMARY: N hazards displayed
# (E errors, W warnings)", N counting the warnings too; the other tools as
# "ERROR SUMMARY: N errors". Without TOOL, either.
reports_in() {
  local summary='========= (ERROR|RACECHECK) SUMMARY: [0-9]+'
  case ${2:-} in
    racecheck) summary='========= RACECHECK SUMMARY: [0-9]+' ;;
    ?*) summary='========= ERROR SUMMARY: [0-9]+' ;;
  esac
  grep -oE "$summary" "$1" | awk '{s += $4} END {print s + 0}'
}
