#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs one command again and again, several at once, for a while, to catch
# what happens in one run of many (a hang, a tool's failure). A run still
# going after WATCH seconds is read before it is killed at LIMIT: its
# process tree's threads (state, wait channel, system call), the frames of
# every process in it (thread-stacks.py --stop) and the GPUs' use by
# process (nvidia-smi pmon), then the same again 20 s later where the
# limit leaves time. Prints a table last; exits 1 when a run failed, was
# read or reported errors.
#   tools/offline/repeat-runs.sh COMMAND [ARG...]
# e.g. on one GPU, SSSP on two logical devices under racecheck:
#   CUDA_VISIBLE_DEVICES=0 GR_DEVICE_MAP=0,0 tools/offline/repeat-runs.sh compute-sanitizer --tool racecheck \
#     --error-exitcode 99 build-gpu/tools/gr_run --gpus 2 --transport p2p --primitive sssp --gen kron:12:8 --validate
# Environment: PARALLEL (runs at once, default 4), DURATION (seconds in
# which new runs start, default 120), LIMIT (seconds a run may take,
# default 75), WATCH (seconds after which a run still going is read,
# default 35; 0: never), LOG_DIR (default repeat-runs; emptied of an
# earlier loop's files first), THREAD_STACKS (default
# tools/offline/thread-stacks.py). The log of a run that failed, was read
# or reported errors is kept as LOG_DIR/wW-I.log, its reads as
# LOG_DIR/wW-I.log.hang; every run is a line of LOG_DIR/runs.txt. Reports
# are counted from compute-sanitizer's summaries ("ERROR SUMMARY: N",
# "RACECHECK SUMMARY: N"), where the command runs under it. An interrupt
# (Ctrl-C) or TERM ends every run and the loop.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
par=${PARALLEL:-4}
dur=${DURATION:-120}
limit=${LIMIT:-75}
watch_at=${WATCH:-35}
logs=${LOG_DIR:-repeat-runs}
stacks=${THREAD_STACKS:-$top/tools/offline/thread-stacks.py}
for v in "PARALLEL=$par" "DURATION=$dur" "LIMIT=$limit" "WATCH=$watch_at"; do
  if ! [[ ${v#*=} =~ ^(0|[1-9][0-9]*)$ ]]; then
    echo "repeat-runs: $v: give whole seconds (or runs), 0 or more" >&2
    exit 2
  fi
done
if [ "$par" -lt 1 ] || [ "$limit" -lt 1 ] || [ "$dur" -lt 1 ]; then
  echo "repeat-runs: PARALLEL, DURATION and LIMIT must be 1 or more" >&2
  exit 2
fi
if [ $# -eq 0 ]; then
  echo "usage: tools/offline/repeat-runs.sh COMMAND [ARG...]" >&2
  exit 2
fi
# A command that is not there would fail ten times a second for the whole
# loop, each failure's log kept.
if ! command -v "$1" >/dev/null 2>&1; then
  echo "repeat-runs: $1: command not found" >&2
  exit 2
fi
[ "$watch_at" -ge "$limit" ] &&
  echo "repeat-runs: WATCH=$watch_at is not below LIMIT=$limit: no run will be read" >&2
mkdir -p "$logs"
# An earlier loop's reads would mark this loop's runs of the same name.
rm -f "$logs"/w*-*.log "$logs"/w*-*.log.hang "$logs"/w*-*.log.done
: >"$logs/runs.txt"

# descendants PID: the processes below a process; reports_in LOG: what
# compute-sanitizer reported in a run's log.
# shellcheck source=tools/offline/procs.sh
. "$top/tools/offline/procs.sh"

# What a run still going looks like: every process below its timeout, each
# thread's state, wait channel and system call ("running" for a thread in
# user space), the GPUs' use by process, and each process's frames. Each
# frame read is bounded and followed by a SIGCONT, so that nothing stays
# stopped.
read_run() { # pid out label
  local pid=$1 out=$2 label=$3 p t c exe procs
  # A run that ended meanwhile is not read (nor counted as read).
  procs=$(descendants "$pid")
  if [ -z "$procs" ] || ! kill -0 "$pid" 2>/dev/null; then return 0; fi
  {
    echo "##### $label"
    command -v nvidia-smi >/dev/null 2>&1 && timeout 30 nvidia-smi pmon -c 1 -s u 2>&1 | head -40
    for p in $procs; do
      echo "=== pid $p $(cat "/proc/$p/comm" 2>/dev/null) exe $(readlink "/proc/$p/exe" 2>/dev/null)"
      for t in /proc/"$p"/task/*; do
        [ -e "$t/stat" ] || continue
        printf '  %s %s state %s wchan %s syscall %s\n' "${t##*/}" "$(cat "$t/comm" 2>/dev/null)" \
          "$(awk '{print $3}' "$t/stat" 2>/dev/null)" "$(cat "$t/wchan" 2>/dev/null)" \
          "$(cut -d' ' -f1 "$t/syscall" 2>/dev/null)"
      done
    done
    for p in $procs; do
      exe=$(readlink "/proc/$p/exe" 2>/dev/null) || continue
      c=$(cat "/proc/$p/comm" 2>/dev/null)
      echo "=== frames of pid $p $c"
      timeout -s INT 60 "$stacks" --stop "$p" "$exe" 2>&1
      kill -CONT "$p" 2>/dev/null
    done
  } >>"$out" 2>&1
}

# Waits for the run (the pid of its timeout); reads it at WATCH s and
# again 20 s later while it goes on. Ends within 0.1 s of the run's end,
# which the worker marks (done) once it has the run's status: after that
# the pid may be another process's. Counted in sleeps of 0.1 s, not by
# $SECONDS, whose whole seconds would read a run as much as a second early.
watch_run() { # pid out done
  local pid=$1 out=$2 done=$3 k=0 start=$SECONDS
  [ "$watch_at" -gt 0 ] || return 0
  while [ $k -lt $((watch_at * 10)) ]; do
    sleep 0.1
    k=$((k + 1))
    if [ -e "$done" ] || ! kill -0 "$pid" 2>/dev/null; then return 0; fi
  done
  read_run "$pid" "$out" "$((SECONDS - start)) s into the run"
  [ -e "$out" ] || return 0
  k=0
  while [ $k -lt 200 ]; do
    sleep 0.1
    k=$((k + 1))
    if [ -e "$done" ] || ! kill -0 "$pid" 2>/dev/null; then
      echo "##### the run ended after the first read" >>"$out"
      return 0
    fi
  done
  [ ! -e "$done" ] && read_run "$pid" "$out" "$((SECONDS - start)) s into the run"
}

worker() { # w end command...
  local w=$1 end=$2 i=0 pid wp rc t0 t1 log errs hung
  shift 2
  while [ "$SECONDS" -lt "$end" ]; do
    i=$((i + 1))
    log=$logs/w$w-$i.log
    rm -f "$log.done"
    t0=$(date +%s.%N)
    timeout -k 5 "$limit" "$@" >"$log" 2>&1 &
    pid=$!
    watch_run "$pid" "$log.hang" "$log.done" &
    wp=$!
    wait "$pid"
    rc=$?
    # The run's own time, not the time its reads take.
    t1=$(date +%s.%N)
    : >"$log.done"
    wait "$wp"
    rm -f "$log.done"
    errs=$(reports_in "$log")
    hung=no
    [ -e "$log.hang" ] && hung=yes
    printf 'w%d-%d rc %d seconds %s errors %d read %s\n' "$w" "$i" "$rc" \
      "$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')" "$errs" "$hung" >>"$logs/runs.txt"
    [ "$rc" -eq 0 ] && [ "$errs" -eq 0 ] && [ "$hung" = no ] && rm -f "$log"
  done
}

# An interrupt or TERM ends every run (each timeout passes the signal on
# to its command) and the workers, stopped ones included.
stop() {
  trap - INT TERM
  local p
  for p in $(descendants $$); do
    kill -TERM "$p" 2>/dev/null
    kill -CONT "$p" 2>/dev/null
  done
  echo "repeat-runs: interrupted; logs in $logs" >&2
  exit 130
}
trap stop INT TERM
end=$((SECONDS + dur))
for w in $(seq 1 "$par"); do worker "$w" "$end" "$@" & done
wait

r=$logs/runs.txt
n=$(wc -l <"$r")
failed=$(awk '$3 != 0' "$r" | wc -l)
errors=$(awk '$7 != 0' "$r" | wc -l)
read_=$(awk '$9 == "yes"' "$r" | wc -l)
timed=$(awk '$3 == 124 || $3 == 137' "$r" | wc -l)
times=$(awk '{print $5}' "$r" | sort -n | awk '{a[NR] = $1} END {if (NR) printf "%s / %s", a[int((NR + 1) / 2)], a[NR]; else printf "-"}')
echo
echo "== $n runs of: $*"
printf '%-8s %-8s %-14s %-12s %-10s %s\n' runs failed "with reports" "read at ${watch_at}s" "killed" "seconds (median / max)"
printf '%-8s %-8s %-14s %-12s %-10s %s\n' "$n" "$failed" "$errors" "$read_" "$timed" "$times"
echo "logs in $logs"
[ "$failed" -eq 0 ] && [ "$errors" -eq 0 ] && [ "$read_" -eq 0 ]
