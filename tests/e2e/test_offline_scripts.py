#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# The GPU machines' test runners (tools/offline/multi-gpu-tests.sh and
# racecheck-slices.sh) where there is no GPU: the multi-device tests'
# runner on CPU devices (its table, its share of host threads, a test not
# started before its deadline, bad settings refused with exit 2, the GPUs
# it is given checked against a stand-in nvidia-smi), and
# racecheck-slices.sh with stand-ins for compute-sanitizer and a GPU test
# program (its queue, verdicts, deadline and refusals), and
# compute-sanitizer.sh's runs of gr_run on two GPUs, and real-scaling.sh
# over a built gr_run on CPU devices, and ab-kernels.sh's A/B of two
# builds with stand-ins for their gr_run and timeline library. A device command
# costs minutes; a runner that breaks there loses them, so its breakage is
# caught here.
import csv
import os
import shutil
import subprocess
import sys
import tempfile
import time

top, build = sys.argv[1], sys.argv[2]
multi = os.path.join(top, "tools", "offline", "multi-gpu-tests.sh")
race = os.path.join(top, "tools", "offline", "racecheck-slices.sh")
holder = tempfile.TemporaryDirectory(prefix="gr-offline-")
tmp = holder.name

# Stand-ins first on PATH: nproc says 16 CPUs (so the thread share is a
# division, whatever this machine has), nvidia-smi lists two GPUs,
# compute-sanitizer runs the program it is given.
fake = os.path.join(tmp, "fake")
os.makedirs(os.path.join(fake, "bin"))
os.makedirs(os.path.join(fake, "build", "tests", "gpu"))
stand_ins = {
    "bin/nproc": "#!/bin/sh\necho 16\n",
    "bin/nvidia-smi": "#!/bin/sh\necho 'GPU 0: NVIDIA H200 (UUID: GPU-aaaa)'\necho 'GPU 1: NVIDIA H200 (UUID: GPU-bbbb)'\n",
    # compute-sanitizer runs the program it is given, and tells it the
    # tool (its reports and summary differ).
    "bin/compute-sanitizer": '#!/bin/sh\n[ -n "$ARGS_LOG" ] && echo "$@" >>"$ARGS_LOG"\n'
                             '[ "$1" = --tool ] && export CS_TOOL=$2\nfor a; do last=$a; done\nexec "$last"\n',
    # A GPU test program under racecheck (or another tool: CS_TOOL, its
    # report and summary): its slice says how it ends.
    "build/tests/gpu/test_bc_cuda": """#!/bin/sh
k=${GR_TEST_SLICE%/*}
summary() {
  if [ "$CS_TOOL" = racecheck ]; then echo "========= RACECHECK SUMMARY: $1 hazards displayed ($1 errors, 0 warnings)"
  else echo "========= ERROR SUMMARY: $1 errors"; fi
}
report() {
  if [ "$CS_TOOL" = racecheck ]; then echo "========= Error: Race reported between Write access at f+0x10 and Read access at f+0x20"
  else echo "========= Invalid __global__ read of size 4 bytes"; echo "=========     at f+0x10"; fi
}
echo "========= COMPUTE-SANITIZER"
# When the test harness would print every thread's frames.
[ -n "$GR_TEST_WATCHDOG" ] && echo "watchdog after $GR_TEST_WATCHDOG s"
# A part of the sources (GR_TEST_SOURCES=J/M): parts 0 and 1 keep one of
# two sources, the others none.
[ -n "$GR_TEST_SOURCES" ] && echo "gr_test_sources $GR_TEST_SOURCES kept $((${GR_TEST_SOURCES%/*} < 2 ? 1 : 0)) of 2 sources"
# Slices 5, 9, 13: the tool's own failure, which its summary counts as a
# hazard; alone, beside a real hazard, beside the case's own failure.
internal="========= Internal Sanitizer Error: Detected a failure to track a kernel launch. Future records might be incomplete"
case $k in
  5) echo "$internal"; echo "100%: Checks: 1, Failures: 0, Errors: 0"; summary 1; exit 9 ;;
  9) echo "$internal"; report; echo "100%: Checks: 1, Failures: 0, Errors: 0"; summary 2; exit 9 ;;
  13) echo "$internal"; echo "0%: Checks: 1, Failures: 1, Errors: 0"; summary 1; exit 9 ;;
  # Past the limit: after the tool's failure; after a hazard; after a
  # summary of none (what a TERM may make the tool write).
  14) echo "$internal"; trap '' TERM; exec sleep 100 ;;
  10) report; trap '' TERM; exec sleep 100 ;;
  6) echo "========= Error: process didn't terminate successfully"; echo "========= Target application returned an error"
     summary 0; trap '' TERM; exec sleep 100 ;;
  # Past the limit after more reports than a pipe holds; after a summary
  # of some (a TERM's); after a report that starts mid-line, cut into the
  # program's own output.
  20) i=0; while [ $i -lt 300 ]; do report; i=$((i + 1)); done; trap '' TERM; exec sleep 100 ;;
  21) summary 3; trap '' TERM; exec sleep 100 ;;
  22) printf 'gr_test: a line of the program'; report; trap '' TERM; exec sleep 100 ;;
  # A crash: the frames the test harness prints when GR_TEST_BACKTRACE=1
  # (the script sets it), then death by SIGSEGV.
  7) if [ "$GR_TEST_BACKTRACE" = 1 ]; then
       echo "gr_test: fatal signal, the crashing thread's frames:"; echo "test_bc_cuda(+0x1234)[0x55550000]"
     fi
     kill -SEGV $$ ;;
  # A crash whose report then hangs until the limit.
  15) echo "gr_test: fatal signal, the crashing thread's frames:"; trap '' TERM; exec sleep 100 ;;
  # A case of several checks (a loop test), all passed.
  11) echo "100%: Checks: 16, Failures: 0, Errors: 0"; summary 0; exit 0 ;;
  # Several checks, one failed.
  12) echo "93%: Checks: 16, Failures: 1, Errors: 0"; summary 0; exit 1 ;;
esac
case $((k % 4)) in
  0) echo "gr_test_slice $GR_TEST_SLICE ran $((k < 8 ? 1 : 0)) combinations"
     echo "100%: Checks: 1, Failures: 0, Errors: 0"; summary 0; exit 0 ;;
  1) report; echo "100%: Checks: 1, Failures: 0, Errors: 0"; summary 2; exit 9 ;;
  2) trap '' TERM; exec sleep 100 ;;
  3) echo "0%: Checks: 1, Failures: 1, Errors: 0"; summary 0; exit 1 ;;
esac
""",
}


def stand_in(path, text):
    """An executable script at path."""
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)


for name, text in stand_ins.items():
    stand_in(os.path.join(fake, name), text)
path = os.path.join(fake, "bin") + ":" + os.environ["PATH"]


def run(script, env, *args):
    e = dict(os.environ)
    for k in ("JOBS", "RUN_JOBS", "LIMIT", "DEADLINE", "TESTS", "SLICES", "SOURCES", "GR_TEST_SOURCES",
              "OMP_NUM_THREADS", "OMP_THREAD_LIMIT", "PER_GPU", "ITEMS", "GPUS", "GRACE", "MIN_LEFT", "CUDA_VISIBLE_DEVICES", "BACKEND", "TOOL_ARGS",
              "ARGS_LOG", "WINDOWS", "WINDOW", "TOOL", "CS_TOOL"):
        e.pop(k, None)
    e["PATH"] = path
    e.update(env)
    return subprocess.run(["bash", script, *args], env=e, capture_output=True, text=True, timeout=600)


def rows(out):
    return {line.split()[0]: line for line in out.splitlines() if line and not line.startswith(("test ", "multi-gpu"))}


quick = "bad_multi_device_options_exit_2 pr_pulls_and_pushes_under_either_exchange"
base = {"BACKEND": "cpu", "LOG_DIR": os.path.join(tmp, "multi")}

# Two tests, two at once, two runs at once in each: both pass, the table
# has a row for each with its runs counted, and each run gets its share of
# the 16 CPUs: 16 / (2 x 2).
r = run(multi, dict(base, TESTS=quick, JOBS="2", RUN_JOBS="2"), build)
assert r.returncode == 0, r.stdout + r.stderr
t = rows(r.stdout)
for name in quick.split():
    assert name in t and " passed " in t[name], r.stdout
assert int(t["bad_multi_device_options_exit_2"].split()[4]) >= 1, r.stdout
assert "2 tests on CPU devices" in r.stdout and "OMP_NUM_THREADS=4 a run" in r.stdout, r.stdout
# JOBS beyond the tests do not shrink the share: 16 / (2 x 1).
r = run(multi, dict(base, TESTS=quick, JOBS="8"), build)
assert r.returncode == 0 and "OMP_NUM_THREADS=8 a run" in r.stdout, r.stdout + r.stderr
r = run(multi, dict(base, TESTS=quick, JOBS="1", OMP_NUM_THREADS="3"), build)
assert r.returncode == 0 and "OMP_NUM_THREADS=3 a run" in r.stdout, r.stdout + r.stderr

# A slice past a test's last combination passes but covers nothing: the
# table says so ("passed (empty)"), and the run still exits 0.
r = run(multi, dict(base, TESTS="cc_on_many_devices_equals_one_device@399/400 " + quick), build)
assert r.returncode == 0, r.stdout + r.stderr
t = rows(r.stdout)
assert "passed (empty)" in t["cc_on_many_devices_equals_one_device@399/400"], r.stdout
assert all("passed (empty)" not in t[n] for n in quick.split()), r.stdout

# A test that needs NCCL returns at once on CPU devices and says why: it
# reads "skipped", with its reason under the table, and the run still
# passes. The settings line says what the build found, asked of ctest;
# where ctest fails, read from CTestTestfile.cmake alike.
with open(os.path.join(build, "tests", "e2e", "CTestTestfile.cmake")) as f:
    ctest_file = f.read()
found = "NCCL: %s, METIS: %s" % tuple("yes" if v + "=1" in ctest_file else "no" for v in ("GR_E2E_NCCL", "GR_E2E_METIS"))
no_ctest = os.path.join(tmp, "no-ctest")
os.makedirs(no_ctest)
stand_in(os.path.join(no_ctest, "ctest"), "#!/bin/sh\nexit 1\n")
for extra in ({}, {"PATH": no_ctest + ":" + path}):
    r = run(multi, dict(base, TESTS="bfs_over_nccl_equals_one_device " + quick, **extra), build)
    assert r.returncode == 0, r.stdout + r.stderr
    t = rows(r.stdout)
    assert " skipped " in t["bfs_over_nccl_equals_one_device"], r.stdout
    assert "skip bfs_over_nccl_equals_one_device: NCCL needs GPUs" in r.stdout, r.stdout
    assert all(" passed " in t[n] for n in quick.split()), r.stdout
    assert "the build has " + found in r.stdout, (extra, r.stdout)


# Build folders as CMake 4 writes them (test names in quotes, where CMake
# 3 wrote [=[...]=]; a pattern for the second alone missed NCCL on a GPU
# machine), with a stand-in program that passes without running anything
# and without saying why: "FAILED (ran nothing)", exit 1 (that is how
# those NCCL tests passed).
def cmake4_build(name, top_file, e2e_file):
    d = os.path.join(tmp, name)
    os.makedirs(os.path.join(d, "tests", "e2e"))
    os.makedirs(os.path.join(d, "tools"))
    prog = os.path.join(d, "tests", "e2e", "test_gr_run_multi")
    stand_in(prog, "#!/bin/sh\necho 'Running suite(s): gr_run_multi'\necho '100%: Checks: 1, Failures: 0, Errors: 0'\n")
    os.symlink(os.path.abspath(os.path.join(build, "tools", "gr_run")), os.path.join(d, "tools", "gr_run"))
    lines = ('add_test("test_gr_run_multi_gpu" "%s")\n' % prog +
             'set_tests_properties("test_gr_run_multi_gpu" PROPERTIES  ENVIRONMENT '
             '"GR_E2E_BACKEND=gpu;GR_E2E_METIS=1;GR_E2E_NCCL=1" LABELS "e2e;gpu;multigpu")\n')
    for where, has in ((os.path.join(d, "CTestTestfile.cmake"), top_file),
                       (os.path.join(d, "tests", "e2e", "CTestTestfile.cmake"), e2e_file)):
        with open(where, "w") as f:
            f.write(lines if has else "")
    return d


# Read from the file where ctest fails.
r = run(multi, dict(base, TESTS=quick, PATH=no_ctest + ":" + path), cmake4_build("cmake4-file", False, True))
assert r.returncode == 1 and "the build has NCCL: yes, METIS: yes" in r.stdout, r.stdout + r.stderr
t = rows(r.stdout)
assert all("FAILED (ran nothing)" in t[n] for n in quick.split()), r.stdout
# Asked of ctest where it can answer: here the tests are only in the top
# folder's file, which the file's reading never looks at.
if shutil.which("ctest") and shutil.which("python3"):
    r = run(multi, dict(base, TESTS=quick), cmake4_build("cmake4-ctest", True, False))
    assert r.returncode == 1 and "the build has NCCL: yes, METIS: yes" in r.stdout, r.stdout + r.stderr
    t = rows(r.stdout)
    assert all("FAILED (ran nothing)" in t[n] for n in quick.split()), r.stdout

# A deadline too short to start anything: every test "not started", exit 1.
r = run(multi, dict(base, TESTS=quick, DEADLINE="20"), build)
assert r.returncode == 1, r.stdout + r.stderr
t = rows(r.stdout)
assert all("not started" in t[n] for n in quick.split()), r.stdout

# A slice of a test not tagged sliced, or one out of range, is refused.
for bad in ("bad_multi_device_options_exit_2@0/2", "failure_on_one_device_ends_dobfs_cc_pr_and_bc_cleanly@2/2"):
    r = run(multi, dict(base, TESTS=bad), build)
    assert r.returncode == 2 and "only the tests tagged sliced" in r.stderr, r.stdout + r.stderr

# Bad settings: exit 2 with the setting named, nothing run.
for env, said in (({"JOBS": "0"}, "JOBS=0"), ({"JOBS": "x"}, "JOBS=x"), ({"LIMIT": "-5"}, "LIMIT=-5"),
                  ({"RUN_JOBS": "17"}, "RUN_JOBS=17"), ({"DEADLINE": "0"}, "DEADLINE=0"),
                  ({"SLICES": "two"}, "SLICES=two"), ({"TESTS": "no_such_test"}, "no_such_test")):
    e = dict(base, TESTS=quick)
    e.update(env)
    r = run(multi, e, build)
    assert r.returncode == 2 and said in r.stderr, (env, r.stdout, r.stderr)
r = run(multi, dict(base, TESTS=quick), os.path.join(tmp, "no-build"))
assert r.returncode == 2 and "build them first" in r.stderr, r.stderr

# On GPUs, CUDA_VISIBLE_DEVICES names the GPUs to use, each one that
# nvidia-smi lists (by index or UUID); anything else is refused before a
# test starts (CUDA would stop reading the list there and the tests would
# see fewer GPUs than they were told). The DEADLINE starts no test.
gpu = {"LOG_DIR": os.path.join(tmp, "multi-gpu"), "TESTS": quick, "DEADLINE": "20"}
r = run(multi, dict(gpu, CUDA_VISIBLE_DEVICES="1,GPU-aaaa"), build)
assert "2 tests on 2 GPUs" in r.stdout, r.stdout + r.stderr
r = run(multi, dict(gpu, CUDA_VISIBLE_DEVICES="1"), build)
assert "2 tests on 1 GPUs" in r.stdout, r.stdout + r.stderr
r = run(multi, gpu, build)
assert "2 tests on 2 GPUs" in r.stdout, r.stdout + r.stderr
for bad, said in (("2", "2 is not one of"), ("0,-1", "-1 is not one of"), ("GPU-cccc", "GPU-cccc is not one of"),
                  ("", "CUDA_VISIBLE_DEVICES is empty")):
    r = run(multi, dict(gpu, CUDA_VISIBLE_DEVICES=bad), build)
    assert r.returncode == 2 and said in r.stderr, (bad, r.stdout, r.stderr)

# A sliced test says how many of its combinations the slice ran (what
# racecheck-slices.sh reads to tell an empty slice from coverage): the
# second slice of 400 one, the last none (the test has between 2 and 399
# combinations on CPU devices).
for sl, ran in (("1/400", 1), ("399/400", 0)):
    e = dict(os.environ, GR_TEST_SLICE=sl, CK_RUN_CASE="cc_on_many_devices_equals_one_device",
             GR_RUN=os.path.join(build, "tools", "gr_run"), GR_TEST_TMP_DIR=os.path.join(tmp, "slice"))
    r = subprocess.run([os.path.join(build, "tests", "e2e", "test_gr_run_multi")], env=e, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0 and f"gr_test_slice {sl} ran {ran} combinations" in r.stdout, r.stdout + r.stderr

# racecheck-slices.sh refuses bad numbers before it needs a GPU, octal-
# looking ones included (bash's arithmetic would read 08 as octal).
for env, said in (({"PER_GPU": "0"}, "PER_GPU=0"), ({"SLICES": "x"}, "SLICES=x"), ({"DEADLINE": "-1"}, "DEADLINE=-1"),
                  ({"MIN_LEFT": "soon"}, "MIN_LEFT=soon"), ({"MIN_LEFT": "08"}, "MIN_LEFT=08"),
                  ({"GRACE": "1.5"}, "GRACE=1.5"), ({"GRACE": "0"}, "GRACE=0"), ({"GRACE": "08"}, "GRACE=08"),
                  ({"DEADLINE": "60"}, "DEADLINE=60 leaves no slice time"), ({"SOURCES": "0"}, "SOURCES=0"),
                  ({"WINDOWS": "2"}, "WINDOWS=2 needs WINDOW"), ({"WINDOWS": "0"}, "WINDOWS=0"),
                  ({"WINDOWS": "2", "WINDOW": "0"}, "WINDOW=0"), ({"WINDOW": "07"}, "WINDOW=07")):
    r = run(race, dict(env, LOG_DIR=os.path.join(tmp, "race")), build)
    assert r.returncode == 2 and said in r.stderr, (env, r.stdout, r.stderr)

# Its queue and verdicts, with the stand-in program.
fbuild = os.path.join(fake, "build")
item = "test_bc_cuda:cuda_bc_equals_reference:"
renv = {"GPUS": "0 1", "PER_GPU": "2"}


def race_run(items, logs, **env):
    return run(race, dict(renv, ITEMS=" ".join(item + str(k) for k in items), LOG_DIR=os.path.join(tmp, logs), **env),
               fbuild)


def verdicts(out):
    return {line.split()[2]: line.split()[3] for line in out.splitlines() if line.startswith("test_bc_cuda ")}


# Slice 8 runs clean but holds none of the case's combinations: "empty",
# not coverage (and not a failure).
r = race_run([0, 4, 8], "r1")
assert r.returncode == 0, r.stdout + r.stderr
assert verdicts(r.stdout) == {"0/16": "0-hazards", "4/16": "0-hazards", "8/16": "empty"}, r.stdout
r = race_run([0, 1, 3], "r2")
assert r.returncode == 1, r.stdout + r.stderr
assert verdicts(r.stdout) == {"0/16": "0-hazards", "1/16": "2-hazards", "3/16": "failed-rc-1"}, r.stdout
# The tool's internal error is neither a hazard of the program nor
# coverage: "tool-error", and the run fails.
r = race_run([0, 5, 9, 13], "r5")
assert r.returncode == 1, r.stdout + r.stderr
assert verdicts(r.stdout) == {"0/16": "0-hazards", "5/16": "tool-error", "9/16": "2-hazards",
                              "13/16": "tool-error+failed-rc-9"}, r.stdout
# A case not cut into slices, whose loop test makes several checks: a
# pass when all of them passed.
r = race_run([11, 12], "r21")
assert r.returncode == 1 and verdicts(r.stdout) == {"11/16": "0-hazards", "12/16": "failed-rc-1"}, r.stdout
# A crash is told apart from a failed check, its frames in the log.
r = race_run([0, 7], "r16")
assert r.returncode == 1, r.stdout + r.stderr
assert verdicts(r.stdout) == {"0/16": "0-hazards", "7/16": "crashed-rc-139"}, r.stdout
with open(os.path.join(tmp, "r16", "test_bc_cuda-cuda_bc_equals_reference-7.log")) as f:
    assert "test_bc_cuda(+0x1234)" in f.read()
# More compute-sanitizer options (a kernel filter, say) reach every slice
# and are named on the table's first line.
args_log = os.path.join(tmp, "args.log")
r = race_run([0, 4], "r7", TOOL_ARGS="--kernel-name-exclude kns=no_shared", ARGS_LOG=args_log)
assert r.returncode == 0 and "with compute-sanitizer options: --kernel-name-exclude kns=no_shared" in r.stdout, r.stdout
with open(args_log) as f:
    calls = f.read().splitlines()
assert len(calls) == 2 and all("--error-exitcode 9 --kernel-name-exclude kns=no_shared " in c for c in calls), calls
# Another tool (TOOL): it reaches every slice, and the verdicts count its
# errors; its other lines (the banner) are no report, a report printed
# before the limit is; a tool it lacks is refused.
args_log = os.path.join(tmp, "args-t.log")
r = race_run([0, 1, 3], "r17", TOOL="memcheck", ARGS_LOG=args_log)
assert r.returncode == 1, r.stdout + r.stderr
assert verdicts(r.stdout) == {"0/16": "0-errors", "1/16": "2-errors", "3/16": "failed-rc-1"}, r.stdout
assert r.stdout.startswith("memcheck over 3 slices"), r.stdout
with open(args_log) as f:
    calls = f.read().splitlines()
assert len(calls) == 3 and all(c.startswith("--tool memcheck --error-exitcode 9 ") for c in calls), calls
r = race_run([0, 4], "r18", TOOL="initcheck")
assert r.returncode == 0 and verdicts(r.stdout) == {"0/16": "0-errors", "4/16": "0-errors"}, r.stdout + r.stderr
r = race_run([10, 6], "r19", TOOL="synccheck", DEADLINE="10", GRACE="2", MIN_LEFT="2", PER_GPU="2")
assert r.returncode == 1, r.stdout + r.stderr
assert verdicts(r.stdout) == {"10/16": "past-limit-with-errors", "6/16": "past-limit"}, r.stdout
r = race_run([0], "r20", TOOL="leakcheck")
assert r.returncode == 2 and "TOOL=leakcheck" in r.stderr, r.stdout + r.stderr
# Sources in parts: an item's part J reaches the program as
# GR_TEST_SOURCES=J/M and names its row; a part that kept no source is
# "empty"; an item without a part runs every source.
r = race_run(["0:0", "0:1", "0:2", 4], "r8", SOURCES="3")
assert r.returncode == 0, r.stdout + r.stderr
assert verdicts(r.stdout) == {"0/16:0/3": "0-hazards", "0/16:1/3": "0-hazards", "0/16:2/3": "empty",
                              "4/16": "0-hazards"}, r.stdout
assert "slices (sources in 3 parts)" in r.stdout, r.stdout
with open(os.path.join(tmp, "r8", "test_bc_cuda-cuda_bc_equals_reference-0-1.log")) as f:
    assert "gr_test_sources 1/3 kept 1 of 2 sources" in f.read()
with open(os.path.join(tmp, "r8", "test_bc_cuda-cuda_bc_equals_reference-4.log")) as f:
    assert "gr_test_sources" not in f.read()
# Without ITEMS: every slice of the eight cases, the five that take parts
# in each part, the other three whole.
full = os.path.join(tmp, "full-build")
os.makedirs(os.path.join(full, "tests", "gpu"))
for prog in ("test_bc_cuda", "test_sssp_cuda", "test_exchange_cuda"):
    stand_in(os.path.join(full, "tests", "gpu", prog), stand_ins["build/tests/gpu/test_bc_cuda"])
r = run(race, dict(renv, SLICES="2", SOURCES="2", LOG_DIR=os.path.join(tmp, "r9")), full)
parted = [("test_bc_cuda", "cuda_bc_equals_reference"),
          ("test_exchange_cuda", "bfs_on_devices_sharing_gpu_0_equals_one_cpu_device"),
          ("test_sssp_cuda", "sssp_on_devices_sharing_gpu_0_equals_reference"),
          ("test_bc_cuda", "bc_on_devices_sharing_gpu_0_equals_one_gpu"),
          ("test_bc_cuda", "cuda_bc_counts_as_logarithms_equal_reference")]
whole = [("test_sssp_cuda", "cuda_sssp_equals_reference"), ("test_bc_cuda", "cuda_bc_beyond_double_equals_reference"),
         ("test_bc_cuda", "bc_beyond_double_on_devices_sharing_gpu_0_equals_one_gpu")]
labels = sorted(tuple(line.split()[:3]) for line in r.stdout.splitlines() if line.startswith("test_"))
assert labels == sorted([(p, c, f"{k}/2:{j}/2") for p, c in parted for k in range(2) for j in range(2)] +
                        [(p, c, f"{k}/2") for p, c in whole for k in range(2)]), r.stdout
assert "racecheck over 26 slices (sources in 2 parts)" in r.stdout, r.stdout
# Launches in windows: window w checks launches w*WINDOW on, WINDOW of
# them, the last every launch from there on (so the windows cover every
# launch whatever their number); each names its row.
args_log = os.path.join(tmp, "args-w.log")
r = race_run(["0@0", "0@1", "0:1@2"], "r11", WINDOWS="3", WINDOW="500", SOURCES="2", ARGS_LOG=args_log)
assert r.returncode == 0, r.stdout + r.stderr
assert verdicts(r.stdout) == {"0/16@0/3": "0-hazards", "0/16@1/3": "0-hazards", "0/16:1/2@2/3": "0-hazards"}, r.stdout
assert "(launches in 3 windows of 500)" in r.stdout, r.stdout
with open(args_log) as f:
    calls = sorted(c.split("--error-exitcode 9 ")[1].rsplit(" ", 1)[0] for c in f.read().splitlines())
assert calls == ["--launch-skip 0 --launch-count 500", "--launch-skip 1000 --launch-count 0",
                 "--launch-skip 500 --launch-count 500"], calls
assert all(os.path.exists(os.path.join(tmp, "r11", f"test_bc_cuda-cuda_bc_equals_reference-{t}.log"))
           for t in ("0-w0", "0-w1", "0-1-w2")), os.listdir(os.path.join(tmp, "r11"))
# An item's own windows (@w/W/L), beside the common ones: each case's
# launches in windows of its own size, the last of each open-ended. Such
# an item names W and L in its row and log, so one of the same slice and
# window number but other windows is apart from it.
args_log = os.path.join(tmp, "args-w2.log")
r = race_run(["0@1/2/700", "4@0/3/40", "4@2/3/40", "0@0", "0@1/3/40"], "r14", WINDOWS="2", WINDOW="9",
             ARGS_LOG=args_log)
assert r.returncode == 0, r.stdout + r.stderr
assert verdicts(r.stdout) == {"0/16@1/2/700": "0-hazards", "4/16@0/3/40": "0-hazards", "4/16@2/3/40": "0-hazards",
                              "0/16@0/2": "0-hazards", "0/16@1/3/40": "0-hazards"}, r.stdout
with open(args_log) as f:
    calls = sorted(c.split("--error-exitcode 9 ")[1].rsplit(" ", 1)[0] for c in f.read().splitlines())
assert calls == ["--launch-skip 0 --launch-count 40", "--launch-skip 0 --launch-count 9",
                 "--launch-skip 40 --launch-count 40", "--launch-skip 700 --launch-count 0",
                 "--launch-skip 80 --launch-count 0"], calls
assert sorted(f for f in os.listdir(os.path.join(tmp, "r14")) if f.endswith(".log")) == sorted(
    f"test_bc_cuda-cuda_bc_equals_reference-{t}.log" for t in ("0-w1-2-700", "4-w0-3-40", "4-w2-3-40", "0-w0",
                                                               "0-w1-3-40")), os.listdir(os.path.join(tmp, "r14"))
# A window of one (WINDOWS left at 1, no WINDOW) is every launch.
args_log = os.path.join(tmp, "args-w3.log")
r = race_run(["0@0"], "r15", ARGS_LOG=args_log)
assert r.returncode == 0 and verdicts(r.stdout) == {"0/16@0/1": "0-hazards"}, r.stdout + r.stderr
with open(args_log) as f:
    assert f.read().split("--error-exitcode 9 ")[1].rsplit(" ", 1)[0] == "--launch-skip 0 --launch-count 0"
# Without ITEMS, the three cases on one device in every window, the
# others as before: 20 parts (5 cases x 2 slices x 2 parts) + 6 slices,
# with the windowed ones' 4 parts and 4 slices twice.
r = run(race, dict(renv, SLICES="2", SOURCES="2", WINDOWS="2", WINDOW="9", LOG_DIR=os.path.join(tmp, "r12")), full)
assert "racecheck over 34 slices" in r.stdout, r.stdout + r.stderr
labels = [line.split()[2] for line in r.stdout.splitlines()
          if line.split()[:2] == ["test_sssp_cuda", "cuda_sssp_equals_reference"]]
assert sorted(labels) == ["0/2@0/2", "0/2@1/2", "1/2@0/2", "1/2@1/2"], r.stdout
r = race_run([0, 13], "r6")
assert r.returncode == 1 and verdicts(r.stdout)["13/16"] == "tool-error+failed-rc-9", r.stdout + r.stderr
# A slice past its limit that ignores the TERM (as a sanitizer writing its
# records may) is killed GRACE seconds later, by the deadline; one that
# would start with too little left is not started. Exit 3: nothing wrong
# seen, not everything ran. With the grace not taken off the slice's
# limit, the run would take DEADLINE + GRACE (20 s); without a kill, 100.
t = time.time()
r = race_run([2, 0, 6], "r3", DEADLINE="12", GRACE="8", MIN_LEFT="2", PER_GPU="1", GPUS="0")
took = time.time() - t
assert r.returncode == 3, r.stdout + r.stderr
assert verdicts(r.stdout) == {"2/16": "past-limit", "0/16": "not-started", "6/16": "not-started"}, r.stdout
assert took < 17, took
# Its threads' frames asked for before the limit (4 s, 12 less the grace,
# or 3 where a second ticked over before the slice started: bash counts
# whole seconds).
with open(os.path.join(tmp, "r3", "test_bc_cuda-cuda_bc_equals_reference-2.log")) as f:
    text = f.read()
    assert "watchdog after 3 s" in text or "watchdog after 2 s" in text, text
# Past the limit after the tool lost track of a launch: no coverage
# however long it ran, a failure of the run ("tool-error+past-limit");
# after a hazard: "past-limit-with-hazards"; a summary of none is neither.
r = race_run([14, 10, 6], "r10", DEADLINE="10", GRACE="2", MIN_LEFT="2", PER_GPU="2")
assert r.returncode == 1, r.stdout + r.stderr
assert verdicts(r.stdout) == {"14/16": "tool-error+past-limit", "10/16": "past-limit-with-hazards",
                              "6/16": "past-limit"}, r.stdout
# Reports past what a pipe holds, a summary's count of some and a report
# cut into a line of the program's are all read, under either tool.
for tool, unit in (("racecheck", "hazards"), ("memcheck", "errors")):
    r = race_run([20, 21, 22, 6], "r22-" + tool, TOOL=tool, SLICES="32", DEADLINE="10", GRACE="2", MIN_LEFT="2",
                 PER_GPU="2")
    assert r.returncode == 1, r.stdout + r.stderr
    assert verdicts(r.stdout) == {"20/32": "past-limit-with-" + unit, "21/32": "past-limit-with-" + unit,
                                  "22/32": "past-limit-with-" + unit, "6/32": "past-limit"}, r.stdout
r = race_run([14, 15], "r13", DEADLINE="10", GRACE="2", MIN_LEFT="2", PER_GPU="2")
assert r.returncode == 1 and verdicts(r.stdout) == {"14/16": "tool-error+past-limit",
                                                    "15/16": "crashed+past-limit"}, r.stdout + r.stderr
# Bad items: a case the program lacks, a slice out of range, no program.
for items, said in (("test_bc_cuda:no_such_case:0", "has no case named no_such_case"),
                    (item + "16", "the slice must be 0..15"),
                    (item + "0:1", "the sources' part must be 0..0"), (item + "0:x", "the sources' part must be"),
                    (item + "0:1:2", "the sources' part must be"), (item + "0:", "the sources' part must be"),
                    ("test_bc_cuda:cuda_bc_beyond_double_equals_reference:0:0", "takes no part of its sources"),
                    (item + "0@2", "the window must be 0..1"), (item + "0@", "the window must be"),
                    (item + "0@1@1", "the window must be"), (item + "0@x", "the window must be"),
                    (item + "0@3/3/0", "give an item's own windows"), (item + "0@1/2", "give an item's own windows"),
                    (item + "0@1/2/5/6", "give an item's own windows"), (item + "0@/2/5", "the window must be"),
                    (item + "0@1/2/5/", "give an item's own windows"),
                    (item + "0@2/2/5", "the window must be 0..1 (of 2 windows)"),
                    ("test_bc_cuda:bc_on_devices_sharing_gpu_0_equals_one_gpu:0@0", "no windows"),
                    ("test_sssp_cuda:cuda_sssp_equals_reference:0", "is missing")):
    r = run(race, dict(renv, ITEMS=items, WINDOWS="2", WINDOW="5", LOG_DIR=os.path.join(tmp, "r4")), fbuild)
    assert r.returncode == 2 and said in r.stderr, (items, r.stderr)
# compute-sanitizer.sh over gr_run only (TEST_PROGRAMS=none) on two GPUs,
# with stand-ins: a compute-sanitizer that runs the command it is given
# (its options dropped) and says how it was called, and a gr_run that
# says its arguments and whether NCCL's peer-to-peer path is off. Every
# primitive that exchanges runs over NCCL with API error reports off
# (NCCL's probes of its own kernels), and under initcheck with the
# peer-to-peer path off (NCCL's reads over NVLink); the table has a row
# for each run.
cs = os.path.join(top, "tools", "offline", "compute-sanitizer.sh")
csd = os.path.join(tmp, "cs")
os.makedirs(os.path.join(csd, "bin"))
os.makedirs(os.path.join(csd, "build", "tools"))
calls = os.path.join(csd, "calls.txt")
stand_in(os.path.join(csd, "bin", "compute-sanitizer"), """#!/bin/bash
[ "$1" = --version ] && { echo "Version 0.0"; exit 0; }
opts=
while [[ $1 == --* ]]; do
  case $1 in --tool | --error-exitcode | --print-limit | --report-api-errors) opts="$opts $1 $2"; shift 2 ;; *) opts="$opts $1"; shift ;; esac
done
echo "sanitizer$opts" >>"$CALLS"
# As the tool does: the program runs as a child, then the summary follows
# (racecheck has a summary of its own). Where the command holds RACES, two
# reports; where it holds LOST, the tool's own failure, which racecheck's
# summary counts as a hazard.
"$@"
rc=$?
n=0
case "$* " in *"${RACES:-no races}"*) n=2 ;; *"${LOST:-no loss}"*) n=1
  echo "========= Internal Sanitizer Error: Detected a failure to track a kernel launch. Future records might be incomplete" ;;
esac
if [[ $opts == *"--tool racecheck"* ]]; then echo "========= RACECHECK SUMMARY: $n hazards displayed ($n errors, 0 warnings)"
else echo "========= ERROR SUMMARY: $n errors"; fi
[ $n -gt 0 ] && exit 99
exit $rc
""")
stand_in(os.path.join(csd, "bin", "nvidia-smi"),
         "#!/bin/sh\ncase \"$*\" in *query*) echo 'NVIDIA H200' ;; *) echo 'GPU 0: NVIDIA H200 (UUID: GPU-a)'; "
         "[ -n \"$ONE_GPU\" ] || echo 'GPU 1: NVIDIA H200 (UUID: GPU-b)' ;; esac\n")
# A hang in a stand-in: waits until killed (gr_run: where its arguments hold HANG).
hang_sh = "trap 'kill $! 2>/dev/null; exit 143' TERM; sleep 30 & wait"
stand_in(os.path.join(csd, "build", "tools", "gr_run"),
         '#!/bin/sh\necho "gr_run $* map=${GR_DEVICE_MAP:-none} p2p-off=${NCCL_P2P_DISABLE:-no}" >>"$CALLS"\n'
         f'case "$* " in *"${{HANG:-no hang}}"*) {hang_sh} ;; esac\n')


def cs_run(logs, **env):
    e = dict(os.environ, PATH=os.path.join(csd, "bin") + ":" + os.environ["PATH"], CALLS=calls, TEST_PROGRAMS="none",
             LOG_DIR=os.path.join(csd, logs))
    for k in ("NCCL_P2P_DISABLE", "GR_RUN_RUNS", "GRAPH", "RUN_TIMEOUT", "CUDA_VISIBLE_DEVICES", "HANG", "THREAD_STACKS",
              "RACES", "LOST", "ONE_GPU", "PRIMS"):
        e.pop(k, None)
    e.update(env)
    return subprocess.run(["bash", cs, os.path.join(csd, "build")], env=e, capture_output=True, text=True, timeout=120)


r = cs_run("logs", TOOLS="initcheck memcheck")
assert r.returncode == 0, r.stdout + r.stderr
prims = ["bfs", "dobfs", "sssp", "cc", "pr", "bc"]
for tool in ("initcheck", "memcheck"):
    rows = [line.split()[1] for line in r.stdout.splitlines() if line.startswith(tool + " ")]
    assert [x for x in rows if "nccl" in x] == [f"gr_run-2gpu-nccl-{p}" for p in prims], r.stdout
    assert len(rows) == 7 + 6 + 6, rows
with open(calls) as f:
    lines = f.read().splitlines()
# Each gr_run line follows the sanitizer's line for it.
pairs = list(zip(lines[0::2], lines[1::2]))
nccl = [(t, g) for t, g in pairs if "--transport nccl" in g]
assert len(nccl) == 12, lines
for t, g in nccl:
    assert "--report-api-errors no" in t, t
    assert g.endswith("p2p-off=1") == ("--tool initcheck" in t), (t, g)
assert {g.split("--primitive ")[1].split()[0] for _, g in nccl} == set(prims), nccl
assert all("--report-api-errors" not in t for t, g in pairs if "--transport nccl" not in g), pairs
# Groups of gr_run runs (GR_RUN_RUNS), so that one tool's groups can run
# at once: only those asked for; a group it lacks is refused.
r = cs_run("logs2", TOOLS="memcheck", GR_RUN_RUNS="p2p nccl")
rows = [line.split()[1] for line in r.stdout.splitlines() if line.startswith("memcheck ")]
assert r.returncode == 0 and len(rows) == 12 and not any("1gpu" in x for x in rows), r.stdout + r.stderr
r = cs_run("logs3", TOOLS="memcheck", GR_RUN_RUNS="1gpu")
rows = [line.split()[1] for line in r.stdout.splitlines() if line.startswith("memcheck ")]
assert r.returncode == 0 and rows == [f"gr_run-1gpu-{p}" for p in prims + ["reach"]], r.stdout
r = cs_run("logs4", TOOLS="memcheck", GR_RUN_RUNS="1gpu two")
assert r.returncode == 2 and "'two' is none of" in r.stderr, r.stdout + r.stderr
# PRIMS: only those primitives' runs, in every group asked for; reach
# runs on one GPU only; a name it lacks is refused.
r = cs_run("logs10", TOOLS="memcheck", PRIMS="bc,reach")
rows = [line.split()[1] for line in r.stdout.splitlines() if line.startswith("memcheck ")]
assert r.returncode == 0 and rows == ["gr_run-1gpu-bc", "gr_run-1gpu-reach", "gr_run-2dev-p2p-bc",
                                      "gr_run-2gpu-nccl-bc"], r.stdout + r.stderr
r = cs_run("logs11", TOOLS="memcheck", PRIMS="bc dfs")
assert r.returncode == 2 and "'dfs' is none of" in r.stderr, r.stdout + r.stderr
# Reports are counted from the tool's summary (racecheck's counts hazards),
# and the tool's own failure is said apart.
for tool in ("racecheck", "memcheck"):
    r = cs_run("logs8", TOOLS=tool, GR_RUN_RUNS="p2p", RACES="--primitive cc", LOST="--primitive pr")
    rows = {line.split()[1]: line.split(None, 5) for line in r.stdout.splitlines() if line.startswith(tool + " ")}
    assert r.returncode == 1 and len(rows) == 6, r.stdout + r.stderr
    assert rows["gr_run-2dev-p2p-cc"][2:4] == ["2", "99"] and rows["gr_run-2dev-p2p-cc"][5] == "FAILED", rows
    assert rows["gr_run-2dev-p2p-pr"][3] == "99", rows
    assert rows["gr_run-2dev-p2p-pr"][5] == "FAILED, the tool's internal error", rows
    assert tool != "racecheck" or rows["gr_run-2dev-p2p-pr"][2] == "1", rows
    assert all(v[2:4] == ["0", "0"] and v[5] == "ok" for k, v in rows.items() if k[-3:] not in ("-cc", "-pr")), rows
# A run still going near its limit has the frames of its gr_run read
# (THREAD_STACKS, here a stand-in that says what it was given) before it
# is killed, and its row says where; the runs that end in time have none.
stand_in(os.path.join(csd, "stacks"), '#!/bin/sh\necho "stacks $* comm=$(cat /proc/$2/comm)"\n')
r = cs_run("logs5", TOOLS="racecheck", GR_RUN_RUNS="p2p", RUN_TIMEOUT="4", HANG="--primitive sssp",
           THREAD_STACKS=os.path.join(csd, "stacks"))
rows = {line.split()[1]: line for line in r.stdout.splitlines() if line.startswith("racecheck ")}
assert r.returncode == 1 and len(rows) == 6, r.stdout + r.stderr
assert rows["gr_run-2dev-p2p-sssp"].endswith("FAILED (timeout 4s), stacks: racecheck-gr_run-2dev-p2p-sssp.stacks"), rows
assert all(v.endswith(" ok") for k, v in rows.items() if k != "gr_run-2dev-p2p-sssp"), rows
assert sorted(f for f in os.listdir(os.path.join(csd, "logs5")) if f.endswith(".stacks")) == \
    ["racecheck-gr_run-2dev-p2p-sssp.stacks"]
with open(os.path.join(csd, "logs5", "racecheck-gr_run-2dev-p2p-sssp.stacks")) as f:
    got = f.read().splitlines()
pid = got[0].split("pid ")[1].split(",")[0]
assert got[0].startswith("== gr_run, pid ") and got[1:] == [
    f"stacks --stop {pid} {os.path.join(csd, 'build', 'tools', 'gr_run')} comm=gr_run"], got
# On one GPU the two-device runs share it (two logical devices, no NCCL
# runs), and there a timeout under racecheck is said apart as the tool's
# own hang, to be run again; not under another tool, nor on two GPUs
# (above). The verdict stays FAILED.
with open(calls) as f:
    before = len(f.read().splitlines())
r = cs_run("logs9", TOOLS="racecheck memcheck", GR_RUN_RUNS="p2p nccl", RUN_TIMEOUT="3", HANG="--primitive sssp",
           ONE_GPU="1", THREAD_STACKS=os.path.join(csd, "stacks"))
rows = {tuple(line.split()[:2]): line for line in r.stdout.splitlines() if line.split()[:1] in (["racecheck"], ["memcheck"])}
assert r.returncode == 1 and len(rows) == 12 and not any("nccl" in k[1] for k in rows), r.stdout + r.stderr
assert rows[("racecheck", "gr_run-2dev-p2p-sssp")].endswith(
    "FAILED (timeout 3s), devices sharing a GPU (racecheck's own hang there: run again), "
    "stacks: racecheck-gr_run-2dev-p2p-sssp.stacks"), rows
assert rows[("memcheck", "gr_run-2dev-p2p-sssp")].endswith(
    "FAILED (timeout 3s), stacks: memcheck-gr_run-2dev-p2p-sssp.stacks"), rows
assert all(v.endswith(" ok") for k, v in rows.items() if k[1] != "gr_run-2dev-p2p-sssp"), rows
with open(calls) as f:
    runs = [x for x in f.read().splitlines()[before:] if x.startswith("gr_run ")]
assert len(runs) == 12 and all(" map=0,0 " in x for x in runs), runs
# A test program's too, found by the 15 characters of its name that the
# kernel keeps (Check's forked tests carry the name too).
os.makedirs(os.path.join(csd, "build", "tests", "gpu"))
stand_in(os.path.join(csd, "build", "tests", "gpu", "test_operators_cuda"),
         f"#!/bin/sh\n{hang_sh}\n")
r = cs_run("logs6", TOOLS="memcheck", GR_RUN_RUNS="no", TEST_PROGRAMS="test_operators_cuda", RUN_TIMEOUT="3",
           THREAD_STACKS=os.path.join(csd, "stacks"))
rows = [line for line in r.stdout.splitlines() if line.startswith("memcheck ")]
assert r.returncode == 1 and len(rows) == 2, r.stdout + r.stderr
for row, case in zip(rows, ("", "-errors")):
    assert row.endswith(f"FAILED (timeout 3s), stacks: memcheck-test_operators_cuda{case}.stacks"), rows
    with open(os.path.join(csd, "logs6", f"memcheck-test_operators_cuda{case}.stacks")) as f:
        got = f.read().splitlines()
    assert got[0].startswith("== test_operators_, pid ") and got[1].endswith(" comm=test_operators_"), got
# A test program's timeout under racecheck on one GPU gets no word on
# devices sharing it: the note is for gr_run's two-device runs only.
r = cs_run("logs10", TOOLS="racecheck", GR_RUN_RUNS="no", TEST_PROGRAMS="test_operators_cuda", RUN_TIMEOUT="3",
           ONE_GPU="1", THREAD_STACKS=os.path.join(csd, "stacks"))
rows = [line for line in r.stdout.splitlines() if line.startswith("racecheck ")]
assert r.returncode == 1 and len(rows) == 2, r.stdout + r.stderr
assert all(row.endswith(f"FAILED (timeout 3s), stacks: racecheck-test_operators_cuda{case}.stacks")
           for row, case in zip(rows, ("", "-errors"))), rows
# Whole seconds only: timeout takes 2m or 0.5, which the reader's timing
# cannot; 0 would be no limit.
for bad in ("2m", "0.5", "0"):
    r = cs_run("logs7", TOOLS="memcheck", RUN_TIMEOUT=bad)
    assert r.returncode == 2 and f"RUN_TIMEOUT={bad}: give whole seconds" in r.stderr, r.stdout + r.stderr
# real-scaling.sh over this build's gr_run (already built: no GPU build
# starts) on CPU devices (ci-strong.json says cpu), with one more gr_run
# option in EXTRA: a single word that starts with a dash, which gr_scale's
# --extra must take as its value rather than as an option of its own (a
# value with a space argparse takes either way). Each case ran with it, and
# the tables and the reports' archive are there. Its plots need matplotlib: run under an interpreter that has
# it, where one exists.
plot_py = None
for cand in (sys.executable, "/usr/bin/python3", "/usr/local/bin/python3"):
    if os.path.exists(cand) and subprocess.run([cand, "-c", "import matplotlib"],
                                               capture_output=True).returncode == 0:
        plot_py = cand
        break
if plot_py and os.path.exists(os.path.join(build, "tools", "gr_run")):
    rsd = os.path.join(tmp, "rs")
    os.makedirs(os.path.join(rsd, "bin"))
    stand_in(os.path.join(rsd, "bin", "python3"), f'#!/bin/sh\nexec "{plot_py}" "$@"\n')
    e = dict(os.environ, PATH=os.path.join(rsd, "bin") + ":" + os.environ["PATH"], BUILD_DIR=build,
             EXTRA="--timeline", DEVICES="1,2", MODEL="0", RUNS="2")
    for k in ("PRIMS", "TRANSPORTS", "PARTITIONERS", "VALIDATE", "TIMEOUT", "NAME_SUFFIX"):
        e.pop(k, None)
    r = subprocess.run(["bash", os.path.join(top, "tools", "offline", "real-scaling.sh"), os.path.join(rsd, "out"),
                        os.path.join(top, "configs", "scaling", "ci-strong.json")],
                       env=e, capture_output=True, text=True, timeout=240)
    assert r.returncode == 0 and "(gr_scale exit 0)" in r.stdout, r.stdout + r.stderr
    cases = os.path.join(rsd, "out", "ci-strong")
    with open(os.path.join(cases, "scale.csv")) as f:
        lines = f.read().splitlines()[1:]
    assert len(lines) == 4 and all(" --timeline " in line for line in lines), lines
    assert os.path.exists(os.path.join(cases, "reports.tar.gz")), os.listdir(cases)
    assert "strong scaling" in r.stdout, r.stdout
    # DEADLINE: a config without 30 s left is not started; one that runs
    # past what is left (a stand-in gr_scale that sleeps) is cut and says
    # so; both exit 1, a bad value 2.
    e2 = dict(e, DEADLINE="1")
    cfg = os.path.join(top, "configs", "scaling", "ci-strong.json")
    r = subprocess.run(["bash", os.path.join(top, "tools", "offline", "real-scaling.sh"), os.path.join(rsd, "out2"),
                        cfg], env=e2, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "(not started: " in r.stdout, r.stdout + r.stderr
    r = subprocess.run(["bash", os.path.join(top, "tools", "offline", "real-scaling.sh"), os.path.join(rsd, "out3"),
                        cfg], env=dict(e, DEADLINE="2m"), capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "DEADLINE=2m: give seconds" in r.stderr, r.stdout + r.stderr
    os.makedirs(os.path.join(rsd, "slow"))
    stand_in(os.path.join(rsd, "slow", "python3"), "#!/bin/sh\nsleep 120\n")
    e3 = dict(e, DEADLINE="50", PATH=os.path.join(rsd, "slow") + ":" + os.environ["PATH"])
    r = subprocess.run(["bash", os.path.join(top, "tools", "offline", "real-scaling.sh"), os.path.join(rsd, "out4"),
                        cfg], env=e3, capture_output=True, text=True, timeout=90)
    assert r.returncode == 1 and "(gr_scale cut at DEADLINE=50;" in r.stdout, r.stdout + r.stderr
# ab-kernels.sh with stand-ins for the two builds' gr_run (each writes a
# timeline of marked runs, as gr_run under the timeline library does: a
# device's kernel K takes 10 us in the old build, 8 in the new, 1 us more
# on each later device, beside a kernel L of 2 us) and for the library:
# every case alternated, its first run left out, the slowest device
# compared; a case's extra arguments split at commas; refusals.
abd = os.path.join(tmp, "ab")
os.makedirs(abd)
fake_run = """#!/usr/bin/env python3
import csv, os, sys
a = sys.argv[1:]
gpus, runs = int(a[a.index("--gpus") + 1]), int(a[a.index("--runs") + 1])
with open(os.environ["ARGS_LOG"], "a") as f:
    f.write("%s|%s|%s\\n" % (os.environ["GR_DEVICE_MAP"], os.path.basename(os.environ["CUDA_INJECTION64_PATH"]),
                             " ".join(a)))
rows, t, c = [], 0, 0
for r in range(runs):
    for d in range(gpus):
        c += 1
        rows.append(("api", "cudaProfilerStart_v4000", 0, 0, t, t + 100, 0, 100 + d, c))
    for d in range(gpus):
        for name, ns in (("_Z1Kv", K_NS + 1000 * d), ("_Z1Lv", 2000)):
            c += 1
            rows.append(("api", "cudaLaunchKernel_v7000", 0, 0, t + 200, t + 300, 0, 100 + d, c))
            rows.append(("kernel", name, 0, 7 + d, t + 1000, t + 1000 + ns, 0, 0, c))
            t += 20000
    for d in range(gpus):
        c += 1
        rows.append(("api", "cudaProfilerStop_v4000", 0, 0, t, t + 100, 0, 100 + d, c))
    t += 1000000
with open(os.environ["GR_GPU_TRACE"], "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["kind", "name", "device", "stream", "start_ns", "end_ns", "bytes", "thread", "correlation"])
    w.writerows(rows)
"""
for b, k_ns in (("old", 10000), ("new", 8000)):
    stand_in(os.path.join(abd, "gr_run_" + b), fake_run.replace("K_NS", str(k_ns)))
    stand_in(os.path.join(abd, "lib_" + b + ".so"), "")
graph_file = os.path.join(abd, "g.grb")
open(graph_file, "w").close()
args_log = os.path.join(abd, "args.log")
e = dict(os.environ, GR_RUN_OLD=os.path.join(abd, "gr_run_old"), GR_RUN_NEW=os.path.join(abd, "gr_run_new"),
         TRACE_LIB_OLD=os.path.join(abd, "lib_old.so"), TRACE_LIB_NEW=os.path.join(abd, "lib_new.so"),
         ARGS_LOG=args_log, REPS="2", RUNS="3")
ab = os.path.join(top, "tools", "offline", "ab-kernels.sh")
r = subprocess.run(["bash", ab, os.path.join(abd, "out"), os.path.join(abd, "nosrc"), graph_file, "cc:2",
                    "sssp:1:--weights,random:1:255"], env=e, capture_output=True, text=True, timeout=120)
assert r.returncode == 0, r.stdout + r.stderr
with open(args_log) as f:
    calls = f.read().splitlines()
assert len(calls) == 8, calls
# Alternated: rep 1 old (both cases), new, then rep 2.
assert [c.split("|")[1] for c in calls] == ["lib_old.so"] * 2 + ["lib_new.so"] * 2 + ["lib_old.so"] * 2 + \
    ["lib_new.so"] * 2, calls
assert calls[0].startswith("0,0|") and " --gpus 2 " in calls[0] and calls[0].endswith(graph_file), calls[0]
assert calls[1].startswith("0|") and " --weights random:1:255 " in calls[1], calls[1]
assert all(" --runs 3 --validate-first --turns --transport p2p " in c for c in calls), calls
out_lines = r.stdout.splitlines()
# cc on 2 devices: device 1 is slowest, 10 + 1 + 2 us old, 8 + 1 + 2 new.
i = out_lines.index("cc_2: slowest device's kernels, ms")
assert out_lines[i + 1].split() == ["old", "0.0130", "0.0130", "median", "0.0130"], out_lines
assert out_lines[i + 2].split() == ["new", "0.0110", "0.0110", "median", "0.0110"], out_lines
assert out_lines[i + 3].split() == ["new", "/", "old", "0.846"], out_lines
assert out_lines[i + 5].split() == ["K", "11.0", "9.0"], out_lines
j = out_lines.index("sssp_1_--weights_random_1_255: slowest device's kernels, ms")
assert out_lines[j + 3].split() == ["new", "/", "old", "0.833"], out_lines
with open(os.path.join(abd, "out", "ab.csv")) as f:
    rows = list(csv.DictReader(f))
assert len(rows) == 8 and {r["kernel_sum_ms"] for r in rows if r["case"] == "cc_2" and r["build"] == "old"} == \
    {"0.0250"}, rows
assert not [n for n in os.listdir(os.path.join(abd, "out")) if n.endswith(".trace.csv")]
# Every operation of the slowest device, per case and build (K then L).
with open(os.path.join(abd, "out", "ab-ops.csv")) as f:
    ops = [(r["case"], r["build"], r["operation"], r["us_a_run"]) for r in csv.DictReader(f)]
assert [o for o in ops if o[0] == "cc_2"] == [("cc_2", "old", "K", "11.000"), ("cc_2", "old", "L", "2.000"),
                                             ("cc_2", "new", "K", "9.000"), ("cc_2", "new", "L", "2.000")], ops
assert len(ops) == 8, ops
# A case not PRIMITIVE:DEVICES, and a source tree to build that is not one.
r = subprocess.run(["bash", ab, os.path.join(abd, "out2"), abd, graph_file, "cc"], env=e, capture_output=True,
                   text=True, timeout=60)
assert r.returncode == 2 and "case 'cc': PRIMITIVE:DEVICES" in r.stderr, r.stdout + r.stderr
e_build = {k: v for k, v in e.items() if k != "GR_RUN_OLD"}
r = subprocess.run(["bash", ab, os.path.join(abd, "out3"), os.path.join(abd, "nosrc"), graph_file, "cc:2"],
                   env=e_build, capture_output=True, text=True, timeout=60)
assert r.returncode == 2 and "holds no source tree" in r.stderr, r.stdout + r.stderr
holder.cleanup()
print("ok")
