#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the fuzz targets (clang, GR_FUZZ=ON: libFuzzer with AddressSanitizer
# and UndefinedBehaviorSanitizer) and runs each for a time budget, starting
# from its seed corpus and its regressions, several targets at once. Prints a
# table last (executions, executions per second, coverage, corpus, crashes)
# and exits 1 when any target crashed, timed out or ran out of memory, after
# printing how to replay the input and keep it as a regression.
#   tools/run-fuzz.sh [--time S] [--parallel N] [--procs LIST] [--targets LIST]
#                     [--out DIR] [--no-build]
#   --time S       seconds per target (default 60)
#   --parallel N   targets run at once (default: the number of cores)
#   --procs LIST   fuzzing processes per target, "K" for all or "t:K,t:K"
#                  (default 1); a target's processes share its corpus
#   --targets LIST space- or comma-separated subset (default: all)
#   --out DIR      logs, new corpus units and crashes (default build-fuzz/fuzz-out)
#   --no-build     use the fuzz targets already built in BUILD_DIR
# Environment: BUILD_DIR (default build-fuzz), CC (default clang),
# GR_CMAKE_ARGS (extra CMake arguments).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build-fuzz}
all_targets="mtx mtx_gz edgelist binary gen_spec tune options build"
time_s=60
parallel=$(nproc)
procs_spec=1
targets=$all_targets
out=""
do_build=1
while [ $# -gt 0 ]; do
  case $1 in
    --time) time_s=$2; shift 2 ;;
    --parallel) parallel=$2; shift 2 ;;
    --procs) procs_spec=$2; shift 2 ;;
    --targets) targets=$(printf '%s' "$2" | tr ',' ' '); shift 2 ;;
    --out) out=$2; shift 2 ;;
    --no-build) do_build=0; shift ;;
    -h|--help) sed -n '3,20p' "$0"; exit 0 ;;
    *) echo "run-fuzz: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
out=${out:-$build/fuzz-out}
for t in $targets; do
  case " $all_targets " in *" $t "*) ;; *) echo "run-fuzz: unknown target '$t' (targets: $all_targets)" >&2; exit 2 ;; esac
done

if [ $do_build -eq 1 ]; then
  cc=${CC:-clang}
  if ! command -v "$cc" >/dev/null 2>&1; then
    echo "run-fuzz: $cc not found; the fuzz targets need clang with its sanitizer runtimes" >&2
    echo "  (Debian/Ubuntu: apt-get install clang libclang-rt-dev; tools/install-deps.sh installs them)" >&2
    exit 2
  fi
  gen=()
  command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
  mkdir -p "$build"
  # shellcheck disable=SC2086
  cmake -S "$top" -B "$build" "${gen[@]}" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DGR_FUZZ=ON -DGR_BUILD_TESTS=OFF -DGR_WERROR=ON ${GR_CMAKE_ARGS:-} >"$build/configure.log" 2>&1 || {
    cat "$build/configure.log" >&2
    echo "run-fuzz: configuring the fuzz build failed (log above)" >&2
    exit 2
  }
  fz=()
  for t in $targets; do fz+=(--target "fuzz_$t"); done
  cmake --build "$build" -j "$(nproc)" "${fz[@]}" >"$build/build.log" 2>&1 || {
    tail -n 60 "$build/build.log" >&2
    echo "run-fuzz: building the fuzz targets failed (log: $build/build.log)" >&2
    exit 2
  }
fi

procs_for() { # target -> processes
  local t=$1 k=1 item
  case $procs_spec in
    *:*) for item in $(printf '%s' "$procs_spec" | tr ',' ' '); do [ "${item%%:*}" = "$t" ] && k=${item#*:}; done ;;
    *) k=$procs_spec ;;
  esac
  echo "$k"
}

rm -rf "$out"
mkdir -p "$out/logs" "$out/corpus" "$out/crashes"
fuzz_dir=$top/tests/fuzz

# One target: K libFuzzer processes over one shared corpus folder (new
# units go there; the seeds and regressions in the tree are only read).
run_target() {
  local t=$1 k=$2 bin=$build/tests/fuzz/fuzz_$t
  local inputs=("$fuzz_dir/corpus/$t")
  [ -d "$fuzz_dir/regressions/$t" ] && inputs+=("$fuzz_dir/regressions/$t")
  local opts=(-max_total_time="$time_s" -print_final_stats=1 -timeout=20 -rss_limit_mb=2048
              -reload=1 -artifact_prefix="$out/crashes/$t/")
  [ -f "$fuzz_dir/dict/$t.dict" ] && opts+=(-dict="$fuzz_dir/dict/$t.dict")
  mkdir -p "$out/corpus/$t" "$out/crashes/$t"
  local pids=() rc=0 j
  for ((j = 0; j < k; j++)); do
    "$bin" "$out/corpus/$t" "${inputs[@]}" "${opts[@]}" >"$out/logs/$t.$j.log" 2>&1 &
    pids+=($!)
  done
  for j in "${pids[@]}"; do wait "$j" || rc=1; done
  echo $rc >"$out/logs/$t.rc"
}

t0=$SECONDS
running=0
for t in $targets; do
  if [ ! -x "$build/tests/fuzz/fuzz_$t" ]; then
    echo "run-fuzz: $build/tests/fuzz/fuzz_$t is missing (build first, or drop --no-build)" >&2
    exit 2
  fi
  while [ "$running" -ge "$parallel" ]; do wait -n; running=$((running - 1)); done
  run_target "$t" "$(procs_for "$t")" &
  running=$((running + 1))
done
wait

# The table: figures summed over a target's processes; coverage (edges) and
# features are the best any process reached.
status=0
printf '\n%-9s %5s %5s %12s %9s %6s %7s %7s %8s  %s\n' target procs secs executions exec/s cov features corpus crashes status
for t in $targets; do
  execs=0 rate=0 cov=0 ft=0 k=0
  for log in "$out"/logs/"$t".*.log; do
    k=$((k + 1))
    e=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    r=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    # The last status line ("#N ... cov: C ft: F ...") when the final
    # statistics are missing (a crash ends a process before them).
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    [ -n "$e" ] || e=$(printf '%s' "$last" | sed -n 's/^#\([0-9]*\).*/\1/p')
    c=$(printf '%s' "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
    f=$(printf '%s' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
    execs=$((execs + ${e:-0}))
    rate=$((rate + ${r:-0}))
    [ "${c:-0}" -gt "$cov" ] && cov=$c
    [ "${f:-0}" -gt "$ft" ] && ft=$f
  done
  corpus=$(find "$out/corpus/$t" -type f | wc -l)
  crashes=$(find "$out/crashes/$t" -type f | wc -l)
  st=ok
  if [ "$(cat "$out/logs/$t.rc" 2>/dev/null)" != 0 ] || [ "$crashes" -gt 0 ]; then st=FAILED; status=1; fi
  printf '%-9s %5d %5d %12d %9d %6d %7d %7d %8d  %s\n' "$t" "$k" "$time_s" "$execs" "$rate" "$cov" "$ft" \
    "$corpus" "$crashes" "$st"
done
echo "wall time $((SECONDS - t0)) s; logs, new corpus units and crashes in $out"

if [ $status -ne 0 ]; then
  echo
  for t in $targets; do
    for f in "$out"/crashes/"$t"/*; do
      [ -f "$f" ] || continue
      echo "== $t crashed on $f ($(stat -c %s "$f") bytes)"
      grep -h -m1 -E 'fuzz oracle:|ERROR: (AddressSanitizer|libFuzzer|LeakSanitizer)|runtime error:' "$out"/logs/"$t".*.log
      [ "$(stat -c %s "$f")" -le 4096 ] && { echo "  input (base64):"; base64 -w 76 "$f" | sed 's/^/    /'; }
      echo "  replay:  $build/tests/fuzz/fuzz_$t $f"
      echo "  keep it: cp $f tests/fuzz/regressions/$t/<what-it-is>  (replayed by fuzz_replay_$t in every test run)"
    done
    if [ "$(cat "$out/logs/$t.rc" 2>/dev/null)" != 0 ] && [ -z "$(ls -A "$out/crashes/$t")" ]; then
      echo "== $t failed without a crash input; its log:"
      tail -n 30 "$out"/logs/"$t".0.log
    fi
  done
fi
exit $status
