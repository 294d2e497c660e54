#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# On a GPU machine: runs the GPU test programs' cases, the whole-primitive
# ones in slices (GR_TEST_SLICE=K/N: each slice keeps the case's
# combinations K, K+N, ...), under compute-sanitizer's racecheck (or
# another of its tools: TOOL), a few processes a GPU at a time, every
# slice bounded by what is left of a deadline, and prints a table last:
# program, case, slice, result (0 hazards, N hazards (errors under the
# other tools), a sanitizer error, the tool's own internal error (its
# records incomplete: run the slice again), past the limit (every
# thread's frames printed into the slice's log shortly before:
# GR_TEST_WATCHDOG), not started, crashed (the crashing thread's frames in
# the log: GR_TEST_BACKTRACE=1), failed, or empty: clean, but the slice
# held none of the case's combinations), seconds. Exits 1 when a slice
# reports a hazard or an error, crashes or fails, 3 when none did but some
# slices did not finish (past the limit or not started), 0 when every
# slice ran to the end clean.
#   tools/offline/racecheck-slices.sh [BUILD_DIR]     (default build-gpu)
# Why slices: under racecheck one case that runs a primitive through the
# enactor over its whole matrix (graphs x partitioners x proxies x
# exchanges x devices) takes longer than a device command may run; its N
# slices, run over one or several commands, together cover all of it.
# Environment:
#   TOOL      racecheck (default), memcheck, synccheck or initcheck; with
#             the last three a slice's result counts errors (0-errors,
#             N-errors, past-limit-with-errors) where racecheck's counts
#             hazards. The same cases, slices, parts and windows.
#   ITEMS     what to run, "program:case:K" words (a case's slice K of
#             SLICES) or "program:case:K:J" (of that slice's combinations,
#             only the sources in part J of SOURCES: GR_TEST_SOURCES=J/M);
#             default every slice of the eight cases below, and with
#             SOURCES past 1 every part of each. Any case of a GPU test
#             program may be named: one that is not cut into slices runs
#             whole as its slice 0 (its loop tests' several checks
#             included)
#   SLICES    N (default 16)
#   SOURCES   M (default 1): where one combination runs longer than a
#             command, its sources in M parts (BC's several sources of one
#             run become M runs of fewer). 2 keeps two sources in part 0,
#             so a second source on a used enactor (BFS, SSSP) and several
#             sources in one run (BC) are still checked. Five cases take
#             parts (those in "parted" below); a part past a combination's
#             last source keeps none of it (a part that kept none reads
#             "empty"). A part of another case is refused, and the default
#             items give those cases whole slices.
#   GPUS      the GPUs to use (default all, e.g. "1")
#   PER_GPU   processes at once on each GPU (default 4: with many more the
#             processes mostly wait for each other's share of the GPU and
#             of the host's cores); each gets OMP_NUM_THREADS host threads,
#             default the host's CPUs / the slices at once, at least 1
#   DEADLINE  seconds from the start by which every slice has ended, to
#             within a second or so (default 540): a slice gets what is
#             left less GRACE (default 30, at least 1), the time between
#             its TERM and its KILL, in which the sanitizer writes its
#             summary; more than GRACE + MIN_LEFT
#   MIN_LEFT  a slice is not started with fewer seconds for it, GRACE
#             taken off (default 30)
#   LOG_DIR   one log per slice (default BUILD_DIR/racecheck-slices)
#   WINDOWS   W (default 1): where one combination of a case on one device
#             runs longer than a command even alone, W processes each
#             check a window of its kernel launches and run the others
#             unchecked (compute-sanitizer's --launch-skip and
#             --launch-count): window w the launches w*WINDOW to
#             (w+1)*WINDOW - 1, the last every launch from (W-1)*WINDOW
#             on, so that the W windows cover every launch whatever their
#             number. Items "program:case:K@w" or "program:case:K:J@w";
#             the default items give each of the cases in "windowed" below
#             in every window. An item may carry its own windows,
#             "...@w/W/L" (window w of W, L launches each), where cases
#             differ in their launches; WINDOWS and WINDOW need not be
#             set then. Only those cases: on one device the
#             launches come in the same order every run, where the
#             threads of devices sharing a GPU launch in no fixed order
#             and windows of different runs would not fit together.
#   WINDOW    launches a window (needed with WINDOWS past 1)
#   TOOL_ARGS more compute-sanitizer options, split on blanks (default
#             none), e.g. a kernel filter: racecheck checks shared memory
#             only, so leaving out kernels that use none shortens a slice
#             without losing coverage; the table's first line names them
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$top/build-gpu}
logs=${LOG_DIR:-$build/racecheck-slices}
slices=${SLICES:-16}
parts=${SOURCES:-1}
windows=${WINDOWS:-1}
window=${WINDOW:-}
per_gpu=${PER_GPU:-4}
tool=${TOOL:-racecheck}
deadline=${DEADLINE:-540}
min_left=${MIN_LEFT:-30}
grace=${GRACE:-30}
# Numbers in decimal without leading zeros (bash reads 08 as octal). A
# GRACE or a slice's limit of 0 would mean no limit to timeout.
for v in "SLICES=$slices" "SOURCES=$parts" "WINDOWS=$windows" "PER_GPU=$per_gpu" "DEADLINE=$deadline" "GRACE=$grace" \
  ${window:+"WINDOW=$window"}; do
  if ! [[ ${v#*=} =~ ^[1-9][0-9]*$ ]]; then
    echo "racecheck-slices: $v: give a number, 1 or more" >&2
    exit 2
  fi
done
# What a slice's log says under the tool: its summary's count, and a
# report printed before it (which a slice cut at its limit has without
# the summary). racecheck prints "Race reported" or "hazard detected" per
# hazard; the other tools start each report with a line of its own after
# their prefix ("Invalid __global__ read ...", "Uninitialized __global__
# memory read ...", "Barrier error detected ...", "Program hit
# cudaError..."), where their other unindented lines are known: the
# banner, summaries, and the end of a process that did not exit cleanly.
# The tool's lines are taken from wherever they start (the program's
# output shares the log, and a line of it may be cut by one of the
# tool's), each from its prefix on.
case $tool in
  racecheck) summary='RACECHECK SUMMARY: [0-9]+ hazard' report='Race reported|hazard detected' unit=hazards ;;
  memcheck | synccheck | initcheck)
    summary='ERROR SUMMARY: [0-9]+ error' unit=errors
    report='^========= [^ ]' ;;
  *)
    echo "racecheck-slices: TOOL=$tool: give racecheck, memcheck, synccheck or initcheck" >&2
    exit 2
    ;;
esac
not_a_report='^========= (COMPUTE-SANITIZER|ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY|Error: process didn.t terminate successfully|Target application returned an error|Internal Sanitizer Error)'
if [ "$windows" != 1 ] && [ -z "$window" ]; then
  echo "racecheck-slices: WINDOWS=$windows needs WINDOW, the launches a window checks" >&2
  exit 2
fi
if ! [[ $min_left =~ ^(0|[1-9][0-9]*)$ ]]; then
  echo "racecheck-slices: MIN_LEFT=$min_left: give seconds, 0 or more" >&2
  exit 2
fi
if [ "$deadline" -le $((grace + min_left)) ]; then
  echo "racecheck-slices: DEADLINE=$deadline leaves no slice time to run: it must be more than GRACE + MIN_LEFT" \
    "($grace + $min_left)" >&2
  exit 2
fi
command -v compute-sanitizer >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
if ! command -v compute-sanitizer >/dev/null 2>&1; then
  echo "racecheck-slices: compute-sanitizer not found (it comes with the CUDA toolkit)" >&2
  exit 2
fi
[ -d "$build/deps/usr/lib/x86_64-linux-gnu" ] &&
  export LD_LIBRARY_PATH=$build/deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# GPU numbers as nvidia-smi gives them (PCI order), for CUDA_VISIBLE_DEVICES.
export CUDA_DEVICE_ORDER=PCI_BUS_ID
gpus=${GPUS:-$(nvidia-smi -L 2>/dev/null | awk -F'[ :]' '/^GPU/ {printf "%s ", $2}')}
if [ -z "${gpus// /}" ]; then
  echo "racecheck-slices: no GPU on this machine" >&2
  exit 2
fi
cases="test_bc_cuda:cuda_bc_equals_reference
test_sssp_cuda:cuda_sssp_equals_reference
test_bc_cuda:cuda_bc_beyond_double_equals_reference
test_exchange_cuda:bfs_on_devices_sharing_gpu_0_equals_one_cpu_device
test_sssp_cuda:sssp_on_devices_sharing_gpu_0_equals_reference
test_bc_cuda:bc_on_devices_sharing_gpu_0_equals_one_gpu
test_bc_cuda:bc_beyond_double_on_devices_sharing_gpu_0_equals_one_gpu
test_bc_cuda:cuda_bc_counts_as_logarithms_equal_reference"
# The cases whose combinations run several sources and take
# GR_TEST_SOURCES (gr_test_keep_sources); beyond double, a combination of
# BC's runs one source or sources whose count of logarithms the case
# checks, so those cases take no parts.
parted="test_bc_cuda:cuda_bc_equals_reference
test_exchange_cuda:bfs_on_devices_sharing_gpu_0_equals_one_cpu_device
test_sssp_cuda:sssp_on_devices_sharing_gpu_0_equals_reference
test_bc_cuda:bc_on_devices_sharing_gpu_0_equals_one_gpu
test_bc_cuda:cuda_bc_counts_as_logarithms_equal_reference"
takes_parts() { grep -qxF "$1" <<< "$parted"; }
# The cases on one device, whose launches come in one order every run
# (their runs are one device thread's, one after another), which may be
# checked in windows of launches.
windowed="test_bc_cuda:cuda_bc_equals_reference
test_sssp_cuda:cuda_sssp_equals_reference
test_bc_cuda:cuda_bc_beyond_double_equals_reference"
takes_windows() { grep -qxF "$1" <<< "$windowed"; }
items=${ITEMS:-$(for c in $cases; do for ((k = 0; k < slices; k++)); do
  if [ "$parts" = 1 ] || ! takes_parts "$c"; then
    echo "$c:$k"
  else
    for ((j = 0; j < parts; j++)); do echo "$c:$k:$j"; done
  fi
done; done | while IFS=: read -r p c rest; do
  if [ "$windows" = 1 ] || ! takes_windows "$p:$c"; then
    echo "$p:$c:$rest"
  else
    for ((w = 0; w < windows; w++)); do echo "$p:$c:$rest@$w"; done
  fi
done)}
# Each item once, in the order given.
items=$(printf '%s\n' $items | awk 'NF && !seen[$0]++')
# Each slice's OpenMP threads (the graphs' build, the CPU references): a
# share of the host's CPUs among the slices at once; left to OpenMP,
# every process takes them all. Copies of this script (or other work)
# sharing the host should set OMP_NUM_THREADS themselves.
at_once=$(($(wc -w <<< "$gpus") * per_gpu))
n_items=$(wc -w <<< "$items")
[ "$n_items" -lt "$at_once" ] && at_once=$n_items
[ "$at_once" -gt 0 ] || at_once=1
ncpu=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
share=$((ncpu / at_once))
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$((share > 1 ? share : 1))}
# An item's fields: prog, case, k, j (empty: every source) and w (empty:
# every launch); what names it in the table (K/N, K/N:J/M, with @w/W for a
# window) and in its log's name.
split_item() {
  local extra
  w=
  [[ $1 == *@* ]] && w=${1##*@}
  IFS=: read -r prog case k j extra <<< "${1%%@*}"
  slice=$k/$slices tag=$k
  if [ -n "$j" ]; then
    slice=$k/$slices:$j/$parts tag=$k-$j
  fi
  # A fifth field, or a fourth left empty, is no part; "@" with nothing
  # after it, or two of them, no window.
  if [ -n "$extra" ] || { [ -z "$j" ] && [[ $1 == *:*:*:* ]]; }; then j=bad; fi
  if [[ $1 == *@ ]] || [[ ${1#*@} == *@* ]]; then w=bad; fi
  # "@w/W/L": this item's own windows, W of L launches (a case's launches
  # differ, so do the windows that fit a command); its row and log name W
  # and L, so that two of one slice with windows of different sizes
  # neither share a log nor read alike. Without WINDOW there is one
  # window (WINDOWS 1), every launch.
  nw=$windows wl=${window:-0}
  if [[ $w == */* ]]; then
    IFS=/ read -r w nw wl extra <<< "$w"
    [ -n "$w" ] || w=bad
    if [ -n "$extra" ] || [[ $1 == */ ]] || ! [[ $nw =~ ^[1-9][0-9]*$ && $wl =~ ^[1-9][0-9]*$ ]]; then nw=bad; fi
    slice=$slice@$w/$nw/$wl tag=$tag-w$w-$nw-$wl
  elif [ -n "$w" ]; then
    slice=$slice@$w/$nw tag=$tag-w$w
  fi
}
# The compute-sanitizer options that check window w's launches only.
window_args() {
  [ -n "$w" ] || return 0
  if [ "$w" -lt $((nw - 1)) ]; then
    echo "--launch-skip $((w * wl)) --launch-count $wl"
  else
    echo "--launch-skip $((w * wl)) --launch-count 0"
  fi
}
# Refuses an item whose slice, part or window (value) is not an index
# below count.
index_ok() { # item value count message
  if ! [[ $2 =~ ^(0|[1-9][0-9]*)$ ]] || [ "$2" -ge "$3" ]; then
    echo "racecheck-slices: $1: $4" >&2
    exit 2
  fi
}
for it in $items; do
  split_item "$it"
  if [ ! -x "$build/tests/gpu/$prog" ]; then
    echo "racecheck-slices: $build/tests/gpu/$prog is missing: build gr's GPU tests first (tools/offline/gpu-node.sh)" >&2
    exit 2
  fi
  # A name Check does not know would run nothing and pass.
  if ! grep -q "{\"$case\"," "$top/tests/gpu/$prog.c" 2>/dev/null; then
    echo "racecheck-slices: $it: $prog has no case named $case" >&2
    exit 2
  fi
  index_ok "$it" "$k" "$slices" "the slice must be 0..$((slices - 1)) (SLICES=$slices)"
  [ -z "$j" ] || index_ok "$it" "$j" "$parts" "the sources' part must be 0..$((parts - 1)) (SOURCES=$parts)"
  if [ "$nw" = bad ]; then
    echo "racecheck-slices: $it: give an item's own windows as @w/W/L: window w of W, L launches each" >&2
    exit 2
  fi
  [ -z "$w" ] || index_ok "$it" "$w" "$nw" "the window must be 0..$((nw - 1)) (of $nw windows)"
  if [ -n "$j" ] && ! takes_parts "$prog:$case"; then
    echo "racecheck-slices: $it: $case takes no part of its sources: give it whole slices" >&2
    exit 2
  fi
  if [ -n "$w" ] && ! takes_windows "$prog:$case"; then
    echo "racecheck-slices: $it: $case runs devices whose threads launch in no fixed order: no windows" >&2
    exit 2
  fi
done
mkdir -p "$logs"
# One run a log folder: two would share the queue and the results.
exec 8>"$logs/run.lock"
if ! flock -n 8; then
  echo "racecheck-slices: another run uses $logs (LOG_DIR)" >&2
  exit 2
fi
queue=$logs/queue
printf '%s\n' $items >"$queue"
echo 0 >"$queue.next"
: >"$logs/results.txt"
t0=$SECONDS

# Takes the next item from the queue under a lock, so that the workers of
# every GPU share one queue and a GPU whose slices end early takes more.
take() {
  (
    flock 9
    local i
    i=$(cat "$queue.next")
    echo $((i + 1)) >"$queue.next"
    sed -n "$((i + 1))p" "$queue"
  ) 9>"$queue.lock"
}

worker() { # gpu
  local gpu=$1 it prog case k j w nw wl slice tag left wd log start rc n result printed lost crashed
  while it=$(take) && [ -n "$it" ]; do
    split_item "$it"
    # What is left of the deadline less the kill's grace below, so that
    # the last slices end by the deadline even when killed.
    left=$((deadline - (SECONDS - t0) - grace))
    if [ "$left" -lt "$min_left" ] || [ "$left" -lt 1 ]; then
      printf '%s %s %s not-started 0\n' "$prog" "$case" "$slice" >>"$logs/results.txt"
      continue
    fi
    log=$logs/$prog-$case-$tag.log
    start=$SECONDS
    # A slice still running near its limit prints every thread's frames
    # into its log (GR_TEST_WATCHDOG, counted from the program's start):
    # where a slice cut off at the limit stood.
    wd=$((left > 60 ? left - 20 : left * 3 / 4))
    [ "$wd" -ge 1 ] || wd=1
    # shellcheck disable=SC2086,SC2046
    CUDA_VISIBLE_DEVICES=$gpu GR_TEST_BACKTRACE=1 GR_TEST_WATCHDOG=$wd CK_RUN_CASE=$case GR_TEST_SLICE=$k/$slices GR_TEST_SOURCES=${j:+$j/$parts} \
      timeout -k "$grace" "$left" compute-sanitizer --tool "$tool" --error-exitcode 9 ${TOOL_ARGS:-} $(window_args) \
        "$build/tests/gpu/$prog" >"$log" 2>&1
    rc=$?
    n=$(grep -Eo "$summary" "$log" | grep -Eo '[0-9]+' | tail -1)
    # racecheck prints each hazard as its kernel ends and the summary at
    # exit (the other tools each error as it happens); exit 9 with none
    # is another error the tool reported (an API error, say). A pass
    # needs the case to have run: Check's line. A report printed (not the
    # summary's count, which a TERM may write as "0 hazards"), the tool's
    # own failure to track a launch, and the program's own death by a
    # signal (GR_TEST_BACKTRACE, set above, puts its report and frames in
    # the log). The reports are counted, not found with grep -q: a reader
    # that stops at the first match would leave the first grep to die of
    # SIGPIPE on a long log, and pipefail would read that as none.
    printed='' lost='' crashed=''
    [ "$(grep -Eo '=========.*' "$log" | grep -Ei "$report" | grep -Evc "$not_a_report")" -gt 0 ] && printed=1
    grep -q 'Internal Sanitizer Error' "$log" && lost=1
    grep -q '^gr_test: fatal signal' "$log" && crashed=1
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
      result=past-limit
      # A slice whose tool lost track of a launch gives no full coverage
      # however long it runs (seen: such slices ran on to their limit).
      # A TERM may make the tool write a summary of none, never a false
      # count of some (but racecheck counts its lost launch as a hazard).
      if [ -n "$printed" ] || { [ "${n:-0}" != 0 ] && [ -z "$lost" ]; }; then
        result=past-limit-with-$unit
      elif [ -n "$lost" ]; then
        result=tool-error+past-limit
      elif [ -n "$crashed" ]; then
        # Crashed, then hung (in its report, say) until the limit.
        result=crashed+past-limit
      fi
    elif [ -n "$lost" ] && [ -z "$printed" ]; then
      # The tool's own failure (seen: "failed to track a kernel launch.
      # Future records might be incomplete"), which its summary counts as
      # one hazard: no hazard in the program, but no full coverage either;
      # and the case's own failure, if it failed too.
      result=tool-error
      { [ "$rc" = 0 ] || [ "$rc" = 9 ]; } && grep -Eq '^100%: Checks: [1-9][0-9]*,' "$log" || result="tool-error+failed-rc-$rc"
    elif [ "${n:-0}" != 0 ]; then
      result="$n-$unit"
    elif [ -n "$crashed" ]; then
      result="crashed-rc-$rc"
    elif [ "$rc" = 9 ]; then
      result=sanitizer-error
    elif [ "$rc" = 0 ] && [ -n "$n" ] && grep -Eq '^100%: Checks: [1-9][0-9]*,' "$log"; then
      result=0-$unit
      # A slice past the case's last combination runs none (the test
      # says how many it ran), and a part past a combination's last
      # source keeps none: clean, but no coverage.
      grep -Eq '^gr_test_slice [0-9/]* ran 0 combinations|^gr_test_sources [0-9/]* kept 0 of' "$log" && result=empty
    else
      result="failed-rc-$rc"
    fi
    printf '%s %s %s %s %d gpu%s\n' "$prog" "$case" "$slice" "$result" $((SECONDS - start)) "$gpu" >>"$logs/results.txt"
  done
}

for gpu in $gpus; do
  for ((w = 0; w < per_gpu; w++)); do worker "$gpu" & done
done
wait

parts_note=
[ "$parts" != 1 ] && parts_note=" (sources in $parts parts)"
[ "$windows" != 1 ] && parts_note="$parts_note (launches in $windows windows of $window)"
echo "$tool over $(wc -l <"$queue") slices$parts_note, $per_gpu a GPU on GPUs: $gpus ($((SECONDS - t0)) s)" \
  "${TOOL_ARGS:+with compute-sanitizer options: $TOOL_ARGS}"
# Every slice has its line; a worker that stopped early (a shell error)
# would leave some without one, which must not read as clean.
missing=$(($(wc -l <"$queue") - $(wc -l <"$logs/results.txt")))
printf '%-20s %-58s %-15s %-24s %-7s %s\n' program case slice result seconds gpu
sort -k1,1 -k2,2 -k3,3V "$logs/results.txt" | awk '{printf "%-20s %-58s %-15s %-24s %-7s %s\n", $1, $2, $3, $4, $5, $6}'
if [ "$missing" -ne 0 ]; then
  echo "racecheck-slices: $missing slices have no result (a worker stopped early)" >&2
  exit 1
fi
if grep -Eq ' [1-9][0-9]*-(hazards|errors) | sanitizer-error | tool-error[ +]|[ +]failed-rc-| crashed[+-]|with-(hazards|errors)' \
  "$logs/results.txt"; then exit 1; fi
if grep -Eq ' past-limit | not-started ' "$logs/results.txt"; then exit 3; fi
exit 0
