#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# On a machine with GPUs: runs test_gr_run_multi's tests on them, each test
# a process of its own (CK_RUN_CASE=<test>), JOBS at a time, each within
# LIMIT seconds, and prints a table last: test, group, result, seconds, and
# the test's gr_run processes: how many, their seconds, and the part of them
# spent before the graph (gr_run's "start": on GPUs, the driver's start).
# Exits 1 when a test fails, runs past its limit, is not started, or runs
# no gr_run without saying why ("FAILED (ran nothing)"); a test that says
# why it cannot run here ("skip: ...": NCCL without 2 GPUs or a build
# with it, say) is "skipped", its reason listed under the table. The whole program takes
# longer than one command on a GPU machine may (every run starts CUDA, and
# the fault scans start hundreds of runs); apart, its tests can be spread
# over commands (TESTS or TEST_GROUPS) and run several at once.
#   tools/offline/multi-gpu-tests.sh [BUILD_DIR]    (default build-gpu)
# How many at once: every process at once has a context on each GPU of its
# run, and the GPU time-shares them, so each of a run's many short kernels
# and waits queues behind the others' time slices. Measured on a pair of
# H200s (2026-11-27): 38 processes at once, a 2-GPU run of a 2,048-vertex
# graph 12-20 s (an NCCL one 30-60 s); 6 at once, 2.4-4.2 s (NCCL, whose
# transfers need both GPUs' slices at once, 15-23 s); alone, 0.5 s (NCCL
# 1.2 s). JOBS x RUN_JOBS of about 6 a pair of GPUs, fewer for the NCCL
# tests, and the pairs of a larger machine side by side
# (CUDA_VISIBLE_DEVICES), get the most runs an hour.
# Needs a build with its tests (tools/offline/gpu-node.sh, e.g. with
# GR_TESTS=none GR_TARGETS="gr_run test_gr_run_multi").
# Environment: JOBS (default 3), LIMIT (seconds per test, default 540),
# DEADLINE (seconds for the whole script: a test then gets at most what is
# left of it less 10 s (a kill's grace and the table), reported "cut at
# DEADLINE" if it runs that long, and one that would get less than 30 s is
# reported "not started"; default none: a device command's own limit otherwise cuts
# the script, its table unwritten, when its later tests start late),
# TEST_GROUPS (the tests' tags: multi_device, failures, nccl_failures; default
# all three), TESTS (test names; default every test of TEST_GROUPS, in the
# program's order; NAME@K/N runs slice K of N of a test tagged "sliced",
# GR_TEST_SLICE), SLICES (N: every sliced test not given a slice runs as N
# processes, each a slice; default 1), RUN_JOBS (a matrix's gr_run
# processes at once within each test, GR_E2E_JOBS; default 1; JOBS x
# RUN_JOBS processes then share the GPUs; each gets OMP_NUM_THREADS host
# threads, default the host's CPUs / the processes at once, at least 1), LOG_DIR (default
# BUILD_DIR/multi-gpu-tests), BACKEND (gpu, or cpu to try the script where
# there is no GPU), CUDA_VISIBLE_DEVICES (the GPUs to use, numbered as
# nvidia-smi numbers them; default all).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$top/build-gpu}
logs=${LOG_DIR:-$build/multi-gpu-tests}
jobs=${JOBS:-3}
limit=${LIMIT:-540}
for v in "JOBS=$jobs" "LIMIT=$limit"; do
  if ! [[ ${v#*=} =~ ^[1-9][0-9]*$ ]]; then
    echo "multi-gpu-tests: $v: give a number, 1 or more" >&2
    exit 2
  fi
done
deadline=${DEADLINE:-}
if [ -n "$deadline" ] && ! [[ $deadline =~ ^[1-9][0-9]*$ ]]; then
  echo "multi-gpu-tests: DEADLINE=$deadline: give seconds, 1 or more" >&2
  exit 2
fi
groups=${TEST_GROUPS:-multi_device failures nccl_failures}
backend=${BACKEND:-gpu}
exe=$build/tests/e2e/test_gr_run_multi
src=$top/tests/e2e/test_gr_run_multi.c
if [ ! -x "$exe" ] || [ ! -x "$build/tools/gr_run" ]; then
  echo "multi-gpu-tests: $exe or gr_run is missing: build them first (tools/offline/gpu-node.sh)" >&2
  exit 2
fi
mkdir -p "$logs"

# The tests and their tags, as the program registers them:
# GR__CASE(name, "group[ sliced]", timeout).
list=$(sed -n 's/^ *GR__CASE(\([a-z0-9_]*\), "\([a-z_ ]*\)".*/\1 \2/p' "$src")
if [ -z "$list" ]; then
  echo "multi-gpu-tests: no GR__CASE entries in $src" >&2
  exit 2
fi
group_of() { awk -v t="${1%@*}" '$1 == t { print $2 }' <<< "$list"; }
sliced() { awk -v t="${1%@*}" '$1 == t && $3 == "sliced" { f = 1 } END { exit !f }' <<< "$list"; }
if [ -n "${TESTS:-}" ]; then
  tests=$TESTS
  for t in $tests; do
    [ -n "$(group_of "$t")" ] || { echo "multi-gpu-tests: no test named ${t%@*}" >&2; exit 2; }
    if [[ $t == *@* ]]; then
      sl=${t#*@}
      if ! sliced "$t" || ! [[ $sl =~ ^[0-9]+/[0-9]+$ ]] || [ "${sl%/*}" -ge "${sl#*/}" ]; then
        echo "multi-gpu-tests: $t: only the tests tagged sliced take a slice, written name@K/N with K < N" >&2
        exit 2
      fi
    fi
  done
else
  tests=$(awk -v g=" $groups " 'index(g, " " $2 " ") { print $1 }' <<< "$list")
fi
# SLICES=N: every sliced test not given a slice becomes N processes.
if ! [[ ${SLICES:-1} =~ ^[1-9][0-9]*$ ]]; then
  echo "multi-gpu-tests: SLICES=$SLICES: give a number of slices, 1 or more" >&2
  exit 2
fi
if [ "${SLICES:-1}" -gt 1 ]; then
  all=$tests tests=
  for t in $all; do
    if [[ $t != *@* ]] && sliced "$t"; then
      for ((k = 0; k < SLICES; k++)); do tests+=" $t@$k/$SLICES"; done
    else
      tests+=" $t"
    fi
  done
fi

if ! [[ ${RUN_JOBS:-1} =~ ^([1-9]|1[0-6])$ ]]; then
  echo "multi-gpu-tests: RUN_JOBS=$RUN_JOBS: give 1 to 16 runs at once" >&2
  exit 2
fi
# Each gr_run's OpenMP threads: a share of the host's CPUs among the
# processes at once (min(JOBS, tests) x RUN_JOBS). Left to OpenMP, each
# takes them all. Copies of this script sharing a host should set
# OMP_NUM_THREADS themselves.
at_once=$(wc -w <<< "$tests")
[ "$at_once" -gt "$jobs" ] && at_once=$jobs
[ "$at_once" -gt 0 ] || at_once=1
ncpu=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
share=$((ncpu / (at_once * ${RUN_JOBS:-1})))
omp_threads=${OMP_NUM_THREADS:-$((share > 1 ? share : 1))}
env_common=(OMP_NUM_THREADS="$omp_threads" GR_RUN="$build/tools/gr_run" GR_E2E_TIMES=1 GR_E2E_JOBS="${RUN_JOBS:-1}" NCCL_NVLS_ENABLE=0
  GR_TEST_DATA_DIR="${GR_TEST_DATA_DIR:-$top/../shared/data}")
# What the build found (NCCL, METIS), as ctest would pass it to the
# program: METIS in both variants' environment, NCCL in the GPU one's (a
# build without CUDA has only the first). Asked of ctest itself, whose
# JSON is the same in every CMake version (a pattern over
# CTestTestfile.cmake once missed the GPU variant's line on a GPU machine,
# and its NCCL tests then ran nothing and passed); the file's lines where
# ctest cannot answer (no ctest or python3, or no tests in its answer).
ctest_env=
if command -v ctest >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
  ctest_env=$(cd "$build" && ctest --show-only=json-v1 -R '^test_gr_run_multi(_gpu)?$' 2>/dev/null | python3 -c '
import json, sys
try:
    tests = json.load(sys.stdin).get("tests", [])
except ValueError:
    sys.exit(0)
for t in tests:
    for p in t.get("properties", []):
        if p.get("name") == "ENVIRONMENT":
            print(" ".join(p.get("value", [])))' 2>/dev/null)
fi
[ -n "$ctest_env" ] || ctest_env=$(grep -h 'test_gr_run_multi.*ENVIRONMENT' "$build/tests/e2e/CTestTestfile.cmake" 2>/dev/null)
found_nccl=no found_metis=no
[[ $ctest_env == *GR_E2E_NCCL=1* ]] && env_common+=(GR_E2E_NCCL=1) found_nccl=yes
[[ $ctest_env == *GR_E2E_METIS=1* ]] && env_common+=(GR_E2E_METIS=1) found_metis=yes
if [ "$backend" = gpu ]; then
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
  [ "$gpus" -gt 0 ] || { echo "multi-gpu-tests: no GPU (nvidia-smi -L); BACKEND=cpu runs on CPU devices" >&2; exit 2; }
  # CUDA_VISIBLE_DEVICES=2,3 keeps the tests to those GPUs (nvidia-smi
  # lists them all): two copies of this script, each on a pair of a
  # 4-GPU machine, run the 2-GPU tests twice as fast, each pair
  # time-sharing only its own processes.
  if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then
    # CUDA stops reading the list at its first entry that names no GPU,
    # so every entry must: an index nvidia-smi lists, or a GPU's whole
    # UUID (CUDA's UUID prefixes and MIG instances are not taken here).
    listed=$(nvidia-smi -L 2>/dev/null)
    n=0
    IFS=, read -ra want <<< "$CUDA_VISIBLE_DEVICES"
    for g in "${want[@]}"; do
      if { [[ $g =~ ^(0|[1-9][0-9]*)$ ]] && [ "$g" -lt "$gpus" ]; } || { [[ $g == GPU-* ]] && [[ $listed == *"UUID: $g)"* ]]; }; then
        n=$((n + 1))
      else
        echo "multi-gpu-tests: CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES: $g is not one of this machine's" \
          "$gpus GPUs (nvidia-smi -L)" >&2
        exit 2
      fi
    done
    [ "$n" -gt 0 ] || { echo "multi-gpu-tests: CUDA_VISIBLE_DEVICES is empty: no GPU to use" >&2; exit 2; }
    gpus=$n
    export CUDA_DEVICE_ORDER=PCI_BUS_ID
  fi
  env_common+=(GR_E2E_BACKEND=gpu GR_E2E_GPUS="$gpus")
fi

run_one() { # name[@K/N]
  local t=$1 t0=$SECONDS rc slice= lim=$limit
  [[ $t == *@* ]] && slice=${t#*@}
  local f=${t/\//of}
  rm -f "$logs/$f.row"
  local cut="past ${limit} s"
  if [ -n "$deadline" ]; then
    # 10 s kept: 5 for timeout's KILL after its TERM, 5 for the table.
    local rest=$((deadline - SECONDS - 10))
    if [ $rest -lt 30 ]; then
      printf '%-78s %-14s %-21s\n' "$t" "$(group_of "$t")" "not started" > "$logs/$f.row"
      return
    fi
    [ $rest -lt "$lim" ] && lim=$rest cut="cut at DEADLINE"
  fi
  env "${env_common[@]}" CK_RUN_CASE="${t%@*}" GR_TEST_SLICE="$slice" GR_TEST_TMP_DIR="$logs/tmp-$f" \
    timeout -k 5 "$lim" "$exe" > "$logs/$f.log" 2>&1
  rc=$?
  local result=passed
  # 124: stopped at the limit; 137 after the limit: killed there, as the
  # test ignored the TERM (137 before it is a crash or a kill of its own).
  local took=$((SECONDS - t0))
  if [ $rc -eq 124 ] || { [ $rc -eq 137 ] && [ $took -ge "$lim" ]; }; then
    result=$cut
  elif [ $rc -ne 0 ]; then
    result="FAILED (exit $rc)"
  fi
  grep -q '^100%: Checks: 1,' "$logs/$f.log" || { [ $rc -eq 0 ] && result="FAILED (no check ran)"; }
  # A slice past the test's last combination runs none (the test says how
  # many it ran): it passes, but covers nothing.
  [ "$result" = passed ] && grep -q '^gr_test_slice [0-9/]* ran 0 combinations' "$logs/$f.log" &&
    result="passed (empty)"
  # The test's own account of its gr_run processes (GR_E2E_TIMES: a line a
  # run as it ends, so a test stopped at the limit still shows how far it
  # got): how many, their seconds, and the part before the graph (gr_run's
  # "start": on GPUs mostly the driver's start) in those that printed it.
  local runs
  runs=$(awk '/^gr_run [0-9.]+ s, start / { n++; s += $2; if ($5 != "-") b += $5 }
              END { printf "%d %.1f %.1f", n, s, b }' "$logs/$f.log")
  # A test that ran no gr_run returned before its work. One that cannot
  # run here says why ("skip: ..."; NCCL's without 2 GPUs or a build with
  # NCCL, the address-space limit's on GPUs): skipped, listed under the
  # table. One that did nothing and said nothing covers nothing, and must
  # not read as passed.
  if [ "$result" = passed ] && [ "${runs%% *}" = 0 ]; then
    if grep -q '^skip: ' "$logs/$f.log"; then result=skipped; else result="FAILED (ran nothing)"; fi
  fi
  printf '%-78s %-14s %-21s %5d %6s %8s %8s\n' "$t" "$(group_of "$t")" "$result" $((SECONDS - t0)) $runs > "$logs/$f.row"
}

where="on CPU devices"
[ "$backend" = gpu ] && where="on $gpus GPUs"
echo "multi-gpu-tests: $(wc -w <<< "$tests") tests $where, $jobs at once, ${RUN_JOBS:-1} runs at once in each," \
  "OMP_NUM_THREADS=$omp_threads a run; the build has NCCL: $found_nccl, METIS: $found_metis"
running=0
for t in $tests; do
  run_one "$t" &
  running=$((running + 1))
  if [ $running -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait

status=0
printf '%-78s %-14s %-21s %5s %6s %8s %8s\n' test group result s runs "runs s" "start s"
for t in $tests; do
  f=${t/\//of}
  if [ -f "$logs/$f.row" ]; then
    cat "$logs/$f.row"
    grep -Eq ' (passed|skipped) ' "$logs/$f.row" || status=1
  else
    printf '%-78s %-14s %-21s\n' "$t" "$(group_of "$t")" "no result"
    status=1
  fi
done
# What each test left out, in its own words: why a skipped test did
# nothing, and what a passing one skipped (a real graph not carried, say),
# so that no coverage is claimed for it.
for t in $tests; do
  f=${t/\//of}
  grep '^skip: ' "$logs/$f.log" 2>/dev/null | sort -u | while IFS= read -r line; do echo "skip $t: ${line#skip: }"; done
done
exit $status
