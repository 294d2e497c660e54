#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# The GPU machines' test runners (tools/offline/multi-gpu-tests.sh and
# racecheck-slices.sh) where there is no GPU: the multi-device tests'
# runner on CPU devices (its table, its share of host threads, a test
# not started before its deadline, bad settings refused with exit 2), and
# racecheck-slices.sh's refusal of bad settings before it looks for a GPU
# or compute-sanitizer. A device command costs minutes; a runner that
# breaks there loses them, so its breakage is caught here.
import os
import subprocess
import sys
import tempfile

top, build = sys.argv[1], sys.argv[2]
multi = os.path.join(top, "tools", "offline", "multi-gpu-tests.sh")
race = os.path.join(top, "tools", "offline", "racecheck-slices.sh")
tmp = tempfile.mkdtemp(prefix="gr-offline-")


def run(script, env, *args):
    e = dict(os.environ)
    for k in ("JOBS", "RUN_JOBS", "LIMIT", "DEADLINE", "TESTS", "SLICES", "OMP_NUM_THREADS", "PER_GPU", "ITEMS"):
        e.pop(k, None)
    e.update(env)
    return subprocess.run(["bash", script, *args], env=e, capture_output=True, text=True, timeout=600)


def rows(out):
    return {line.split()[0]: line for line in out.splitlines() if line and not line.startswith(("test ", "multi-gpu"))}


quick = "bad_multi_device_options_exit_2 pr_pull_needs_the_broadcast_exchange"
base = {"BACKEND": "cpu", "LOG_DIR": os.path.join(tmp, "multi")}

# Two tests, two at once, two runs at once in each: both pass, the table
# has a row for each with its runs counted, and each run gets its share of
# the host's threads (nproc / 4, at least 1).
r = run(multi, dict(base, TESTS=quick, JOBS="2", RUN_JOBS="2"), build)
assert r.returncode == 0, r.stdout + r.stderr
t = rows(r.stdout)
for name in quick.split():
    assert name in t and " passed " in t[name], r.stdout
assert int(t["bad_multi_device_options_exit_2"].split()[4]) >= 1, r.stdout
share = max(1, os.cpu_count() // 4)
assert f"OMP_NUM_THREADS={share} a run" in r.stdout, r.stdout
r = run(multi, dict(base, TESTS=quick, JOBS="1", OMP_NUM_THREADS="3"), build)
assert r.returncode == 0 and "OMP_NUM_THREADS=3 a run" in r.stdout, r.stdout + r.stderr

# A deadline too short to start anything: every test "not started", exit 1.
r = run(multi, dict(base, TESTS=quick, DEADLINE="20"), build)
assert r.returncode == 1, r.stdout + r.stderr
t = rows(r.stdout)
assert all("not started" in t[n] for n in quick.split()), r.stdout

# A slice of a sliced test runs; a slice of one that is not sliced, or
# one out of range, is refused.
r = run(multi, dict(base, TESTS="bad_multi_device_options_exit_2@0/2"), build)
assert r.returncode == 2 and "only the tests tagged sliced" in r.stderr, r.stdout + r.stderr
r = run(multi, dict(base, TESTS="failure_on_one_device_ends_cc_pr_and_bc_cleanly@2/2"), build)
assert r.returncode == 2, r.stdout + r.stderr

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

# racecheck-slices.sh refuses bad numbers before it needs a GPU.
for env, said in (({"PER_GPU": "0"}, "PER_GPU=0"), ({"SLICES": "x"}, "SLICES=x"), ({"DEADLINE": "-1"}, "DEADLINE=-1"),
                  ({"MIN_LEFT": "soon"}, "MIN_LEFT=soon")):
    r = run(race, dict(env, LOG_DIR=os.path.join(tmp, "race")), build)
    assert r.returncode == 2 and said in r.stderr, (env, r.stdout, r.stderr)
print("ok")
