#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# tools/trace/host_calls.cu (gr_host_calls): bad settings refused (exit 2);
# where a GPU exists, every case measured (16 rows of median, 10th and
# 90th percentile, in order, none negative); where none does, a clear
# error at its first call and exit 1, with no table at all.
import re
import subprocess
import sys

tool = sys.argv[1]


def run(*args):
    return subprocess.run([tool, *args], capture_output=True, text=True, timeout=120)


for bad in (["--iters", "3"], ["--bytes", "0"], ["--bytes", "5000"], ["--what"]):
    r = run(*bad)
    assert r.returncode == 2, (bad, r.returncode, r.stderr)
    assert "gr_host_calls" in r.stderr or "usage" in r.stderr, r.stderr

r = run("--iters", "50", "--bytes", "24")
if r.returncode == 1:
    # Only where no GPU can be used: its first call fails, before any row.
    assert r.stderr.startswith("gr_host_calls: stream: "), r.stderr
    assert re.search(r"driver|no CUDA-capable device|no device", r.stderr), r.stderr
    assert r.stdout == "", r.stdout
    print("no GPU here: gr_host_calls exits 1 with", r.stderr.strip())
    sys.exit(0)
assert r.returncode == 0, r.stderr
rows = [ln for ln in r.stdout.splitlines()[1:] if ln.strip()]
assert len(rows) == 16, r.stdout
for ln in rows:
    nums = [float(x) for x in re.findall(r"-?\d+\.\d+", ln)[-3:]]
    assert len(nums) == 3 and all(x >= 0 for x in nums), ln
    assert nums[1] <= nums[0] <= nums[2], ln
assert "(--bytes)" in r.stdout
print("ok")
