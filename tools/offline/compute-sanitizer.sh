#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# On a GPU machine: runs gr's GPU test programs and gr_run on one and on two
# devices under compute-sanitizer's four tools (memcheck, racecheck,
# synccheck, initcheck), one log per run, and prints a table last: tool,
# program, errors reported (racecheck: hazards, warnings included), exit
# code, seconds. Exits 1 when any run reports an error or fails.
#   tools/offline/compute-sanitizer.sh [BUILD_DIR]    (default build-gpu)
# Needs: a CUDA build of gr with its tests (tools/offline/gpu-node.sh makes
# one in build-gpu: run it first, e.g. with GR_TESTS=none BENCH_GRAPHS=none),
# compute-sanitizer (CUDA toolkit; /usr/local/cuda/bin is searched), one GPU;
# the two-device runs use two GPUs, or two logical devices on GPU 0
# (GR_DEVICE_MAP=0,0) where there is one, without NCCL then.
# Environment: TOOLS (default "memcheck racecheck synccheck initcheck"; one
# tool per command keeps each within a few minutes), GRAPH (default
# kron:12:8), LOG_DIR (default BUILD_DIR/compute-sanitizer), RUN_TIMEOUT
# (seconds per run, default 240; a run that takes longer counts as failed),
# TEST_PROGRAMS (the GPU test programs to run, default all six; "none": only
# gr_run. racecheck and initcheck take minutes per test program: the gr_run
# runs reach every kernel of every primitive on a small graph in seconds),
# GR_RUN_RUNS (default yes; no: the test programs only, e.g. for several
# instances at once, one program and tool each, LOG_DIR apart; or some of
# "1gpu p2p nccl": those groups of gr_run runs only, so that one tool's
# groups can run as instances at once), PRIMS (the primitives of the
# gr_run runs, default "bfs dobfs sssp cc pr bc" and reach on one GPU;
# e.g. PRIMS=bc to finish one a shorter command left out), THREAD_STACKS (the hung-run
# reader, default tools/offline/thread-stacks.py: a run still going
# shortly before its limit has the frames of its program's threads read
# into LOG_DIR/TOOL-NAME.stacks before it is killed, so that a hang shows
# where each thread waits; needs pgrep, and python3, binutils and leave to
# read the process's memory (root, or the same user where ptrace is not
# restricted) for the reader).
#
# NCCL: at communicator creation NCCL asks the CUDA runtime about its own
# kernels (cudaFuncGetAttributes on kernels that are not built for every
# architecture), gets errors back by design and handles them. compute-
# sanitizer reports every failing API call by default, which would bury
# gr's own results under NCCL's probes. The NCCL runs therefore pass
# --report-api-errors no: they still report every memory, race and
# synchronisation error in any kernel, NCCL's included. gr's own API errors
# are not lost: the same two-device runs over the p2p transport (no NCCL in
# the process) keep API error reporting on, and gr checks every CUDA call it
# makes itself (GR_CUDA_CHECK).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$top/build-gpu}
logs=${LOG_DIR:-$build/compute-sanitizer}
tools=${TOOLS:-memcheck racecheck synccheck initcheck}
programs=${TEST_PROGRAMS:-test_operators_cuda test_exchange_cuda test_sssp_cuda test_cc_cuda test_pr_cuda test_bc_cuda}
[ "$programs" = none ] && programs=
graph=${GRAPH:-kron:12:8}
limit=${RUN_TIMEOUT:-240}
if ! [[ $limit =~ ^[1-9][0-9]*$ ]]; then
  echo "compute-sanitizer: RUN_TIMEOUT=$limit: give whole seconds, 1 or more" >&2
  exit 2
fi
stacks=${THREAD_STACKS:-$top/tools/offline/thread-stacks.py}
runs=${GR_RUN_RUNS:-yes}
[ "$runs" = yes ] && runs="1gpu p2p nccl"
[ "$runs" = no ] && runs=
for r in $runs; do
  case $r in
    1gpu | p2p | nccl) ;;
    *)
      echo "compute-sanitizer: GR_RUN_RUNS: '$r' is none of yes, no, 1gpu, p2p, nccl" >&2
      exit 2
      ;;
  esac
done
group() { [[ " $runs " == *" $1 "* ]]; }
prims=${PRIMS:-bfs dobfs sssp cc pr bc reach}
prims=${prims//,/ }
for p in $prims; do
  case $p in
    bfs | dobfs | sssp | cc | pr | bc | reach) ;;
    *)
      echo "compute-sanitizer: PRIMS: '$p' is none of bfs, dobfs, sssp, cc, pr, bc, reach" >&2
      exit 2
      ;;
  esac
done
# Of the primitives given, those PRIMS asked for (reach: one GPU only).
picked() { local p; for p in "$@"; do [[ " $prims " == *" $p "* ]] && echo "$p"; done; }
[ -x /usr/local/cuda/bin/compute-sanitizer ] && export PATH=/usr/local/cuda/bin:$PATH
if ! command -v compute-sanitizer >/dev/null 2>&1; then
  echo "compute-sanitizer: not found (it comes with the CUDA toolkit)" >&2
  exit 2
fi
gr_run=$build/tools/gr_run
if [ ! -x "$gr_run" ]; then
  echo "compute-sanitizer: $gr_run is missing: build gr with CUDA first (tools/offline/gpu-node.sh)" >&2
  exit 2
fi
# Libraries unpacked by gpu-node.sh (Check, cJSON) for the test programs.
[ -d "$build/deps/usr/lib/x86_64-linux-gnu" ] &&
  export LD_LIBRARY_PATH=$build/deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export NCCL_NVLS_ENABLE=0
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU') || gpus=0
if [ "$gpus" -lt 1 ]; then
  echo "compute-sanitizer: no GPU on this machine" >&2
  exit 2
fi
mkdir -p "$logs" "$build/test-tmp"
export GR_TEST_TMP_DIR=$build/test-tmp
: >"$logs/table.txt"
status=0

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

# Watches a run (the pid of its timeout) of the program at path prog: if it
# is still going a little before its limit (10 s; at half the limit when
# that is 20 s or less; not at all under 2 s), reads the frames of every
# process of that program below it into the stacks file (for a test
# program, the forked test too). Each read is bounded (an interrupt makes
# the reader let the process go on) and followed by a SIGCONT of its own,
# so that no process stays stopped. The watcher ends by itself within 0.2 s
# of the run's end, or of its reads.
watch_run() {
  local run=$1 out=$2 prog=$3 start=$SECONDS at=$((limit > 20 ? limit - 10 : limit / 2)) p comm
  [ "$at" -ge 1 ] || return 0
  while [ $((SECONDS - start)) -lt "$at" ]; do
    sleep 0.2
    kill -0 "$run" 2>/dev/null || return 0
  done
  command -v pgrep >/dev/null 2>&1 || { echo "no pgrep: stacks not read" >"$out"; return 0; }
  # The kernel keeps 15 characters of a program's name.
  comm=$(basename "$prog")
  comm=${comm:0:15}
  for p in $(descendants "$run"); do
    [ "$(cat "/proc/$p/comm" 2>/dev/null)" = "$comm" ] || continue
    {
      echo "== $comm, pid $p, $((SECONDS - start)) s into the run"
      timeout -s INT 60 "$stacks" --stop "$p" "$prog" 2>&1
      kill -CONT "$p" 2>/dev/null
    } >>"$out"
  done
}

# One run: name, tool, extra sanitizer options (split on blanks, may be
# empty), then the command (env and its settings first, where it has them).
# compute-sanitizer follows child processes and prints a summary per
# process (reports_in sums them).
sanitize() {
  local name=$1 tool=$2 extra=$3
  shift 3
  local log=$logs/$tool-$name.log stk=$tool-$name.stacks t0=$SECONDS rc run watch prog=$1 a shared=no
  # The program, past env and its settings; GR_DEVICE_MAP among them puts
  # the run's devices on one GPU.
  for a in "$@"; do
    case $a in GR_DEVICE_MAP=*) shared=yes ;; env | *=*) ;; *) prog=$a && break ;; esac
  done
  rm -f "$logs/$stk"
  # -k: a run that a TERM does not end (stopped, say) is killed 10 s later
  # (rc 137, as for any run killed by SIGKILL).
  # shellcheck disable=SC2086
  timeout -k 10 "$limit" compute-sanitizer --tool "$tool" --error-exitcode 99 --print-limit 50 $extra "$@" >"$log" 2>&1 &
  run=$!
  watch_run "$run" "$logs/$stk" "$prog" &
  watch=$!
  wait "$run"
  rc=$?
  wait "$watch"
  local errors
  errors=$(reports_in "$log" "$tool")
  local verdict=ok
  [ "$rc" -eq 77 ] && verdict=skipped
  if [ "$errors" -gt 0 ] || { [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; }; then verdict=FAILED; status=1; fi
  [ "$rc" -eq 124 ] && verdict="FAILED (timeout ${limit}s)"
  # racecheck with two host threads launching into one context sometimes
  # leaves a kernel running without end, in gr and in a program apart from
  # gr alike (docs/history/reliability.md), so such a
  # timeout is said apart: run it again before reading it as gr's.
  [ "$rc" -eq 124 ] && [ "$tool" = racecheck ] && [ "$shared" = yes ] &&
    verdict="$verdict, devices sharing a GPU (racecheck's own hang there: run again)"
  [ "$rc" -eq 137 ] && verdict="FAILED (killed)"
  # The tool's own failure (racecheck's summary counts it as a hazard):
  # said apart, since it is not a report about gr's code.
  grep -q 'Internal Sanitizer Error' "$log" && verdict="$verdict, the tool's internal error"
  # A run read near its limit: where its threads were (it may still have
  # ended in time).
  [ -s "$logs/$stk" ] && verdict="$verdict, stacks: $stk"
  printf '%-10s %-28s %6d %5d %6ds  %s\n' "$tool" "$name" "$errors" "$rc" $((SECONDS - t0)) "$verdict" >>"$logs/table.txt"
}

# A primitive's gr_run options, in pa: SSSP with random weights.
prim_args() {
  pa=(--primitive "$1")
  [ "$1" = sssp ] && pa+=(--weights random:1:255)
  return 0
}
# Two devices: two GPUs, or two logical devices on GPU 0 for these runs only.
two=("$gr_run" --gpus 2)
# shellcheck disable=SC2054 # the comma is the map's
[ "$gpus" -ge 2 ] || two=(env GR_DEVICE_MAP=0,0 "$gr_run" --gpus 2)
for tool in $tools; do
  # The GPU test programs (CUDA kernels against the portable definition,
  # the exchange's kernels, SSSP, CC and PageRank), as ctest runs them.
  for t in $programs; do
    exe=$(find "$build/tests" -type f -name "$t" -perm -u+x 2>/dev/null | head -1)
    if [ "$t" = test_operators_cuda ] && [ -n "$exe" ]; then
      # Its case "errors" makes CUDA calls fail on purpose (a device that does
      # not exist, an impossible allocation): run it apart, API error reports
      # off; every other case with them on.
      CK_EXCLUDE_TAGS=api-errors sanitize "$t" "$tool" "" "$exe"
      CK_RUN_CASE=errors sanitize "$t-errors" "$tool" "--report-api-errors no" "$exe"
    elif [ -n "$exe" ]; then
      sanitize "$t" "$tool" "" "$exe"
    else
      printf '%-10s %-28s %6s %5s %7s  %s\n' "$tool" "$t" - - - "FAILED (not built)" >>"$logs/table.txt"
      status=1
    fi
  done
  # Every primitive on one GPU, validated.
  if group 1gpu; then
    for p in $(picked bfs dobfs sssp cc pr bc reach); do
      prim_args "$p"
      sanitize "gr_run-1gpu-$p" "$tool" "" "$gr_run" --gpus 1 "${pa[@]}" --gen "$graph" --runs 2 --validate --quiet
    done
  fi
  # Two devices through peer copies, every primitive that exchanges (BFS
  # with 1-hop proxies and the selective exchange, the others as default).
  if group p2p; then
    for p in $(picked bfs dobfs sssp cc pr bc); do
      prim_args "$p"
      [ "$p" = bfs ] && pa+=(--proxy 1hop --comm selective)
      sanitize "gr_run-2dev-p2p-$p" "$tool" "" "${two[@]}" --transport p2p "${pa[@]}" --gen "$graph" --runs 2 \
        --validate --quiet
    done
  fi
  # Two real GPUs through NCCL (NCCL refuses two devices on one GPU), every
  # primitive that exchanges. Under initcheck NCCL's peer-to-peer path is
  # off: NCCL's kernels read staging buffers that the other GPU fills with
  # stores over NVLink, which initcheck, watching one process's writes per
  # device, reports as never written (docs/reliability.md); through host
  # memory nothing is reported, gr's buffers included.
  if [ "$gpus" -ge 2 ] && group nccl; then
    nccl=("$gr_run")
    [ "$tool" = initcheck ] && nccl=(env NCCL_P2P_DISABLE=1 "$gr_run")
    for p in $(picked bfs dobfs sssp cc pr bc); do
      prim_args "$p"
      sanitize "gr_run-2gpu-nccl-$p" "$tool" "--report-api-errors no" "${nccl[@]}" --gpus 2 --transport nccl \
        "${pa[@]}" --gen "$graph" --runs 2 --validate --quiet
    done
  fi
done

echo
echo "== compute-sanitizer on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1) x $gpus" \
  "($(compute-sanitizer --version | grep -o 'Version [0-9.]*' | head -1)), graph $graph"
printf '%-10s %-28s %6s %5s %7s  %s\n' tool program errors exit time verdict
cat "$logs/table.txt"
echo "logs in $logs"
exit $status
