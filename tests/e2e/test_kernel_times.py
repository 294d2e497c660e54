#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# tools/kernel_times.py on a small Nsight Compute CSV written here: kernel
# names shortened (templates, namespaces and anonymous namespaces dropped,
# so kernels of an anonymous namespace keep their names), durations in any
# unit summed per kernel, per stream (--by-stream) and listed per launch
# (--launches); ncu's own messages skipped; a CSV without kernel rows
# refused.
import os
import subprocess
import sys
import tempfile

top = sys.argv[1]
tool = os.path.join(top, "tools", "kernel_times.py")
header = '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size",' \
         '"Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"\n'


def row(i, kernel, stream, value, unit="nsecond"):
    return (f'"{i}","1","gr_run","h","{kernel}","1","{stream}","(256, 1, 1)","(1056, 1, 1)","0","9.0",'
            f'"Command line profiler metrics","gpu__time_duration.sum","{unit}","{value}"\n')


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "k.csv")
    with open(path, "w") as f:
        f.write("==PROF== Connected to process 1 (gr_run)\n")
        f.write(header)
        f.write(row(0, "void gr_cuda::advance_push_chunked_kernel<gr_cuda::PlainLists, <unnamed>::Visit>"
                       "(const unsigned long *, int)", 13, "1,000"))
        f.write(row(1, "<unnamed>::package_kernel(gr_xk_package_args)", 13, "2", "usecond"))
        f.write(row(2, "void <unnamed>::combine_list_kernel<float>(gr_xk_combine_args)", 15, "500"))
        f.write(row(3, "void gr_cuda::advance_push_chunked_kernel<gr_cuda::PlainLists, <unnamed>::Visit>"
                       "(const unsigned long *, int)", 15, "3,000"))
        f.write(row(4, "void (anonymous namespace)::seal_kernel(int)", 15, "0.001", "msecond"))
    r = subprocess.run([sys.executable, tool, path, "--by-stream", "--launches"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()

    def cells(prefix, start=0):
        for line in lines[start:]:
            if line.strip().startswith(prefix + " "):
                return line.split()
        raise AssertionError(f"no row {prefix!r} in\n{r.stdout}")

    # The whole run: the advance twice (4 us), the others once each.
    assert cells("advance_push_chunked_kernel")[1:3] == ["2", "4.0"], r.stdout
    assert cells("package_kernel")[1:3] == ["1", "2.0"], r.stdout
    assert cells("combine_list_kernel")[1:3] == ["1", "0.5"], r.stdout
    assert cells("seal_kernel")[1:3] == ["1", "1.0"], r.stdout
    assert cells("all")[2:4] == ["5", "7.5"], r.stdout
    # Per stream: 13 has the first advance and the package, 15 the rest.
    at13 = next(i for i, line in enumerate(lines) if line.startswith("stream 13:"))
    at15 = next(i for i, line in enumerate(lines) if line.startswith("stream 15:"))
    assert at13 < at15 and "2 launches, 3.0 us" in lines[at13] and "3 launches, 4.5 us" in lines[at15], r.stdout
    assert cells("advance_push_chunked_kernel", at13)[1:3] == ["1", "1.0"], r.stdout
    assert cells("advance_push_chunked_kernel", at15)[1:3] == ["1", "3.0"], r.stdout
    # Every launch in order.
    listed = [line.split() for line in lines if line.split()[:1] in (["0"], ["1"], ["2"], ["3"], ["4"])]
    assert [x[2] for x in listed] == ["advance_push_chunked_kernel", "package_kernel", "combine_list_kernel",
                                     "advance_push_chunked_kernel", "seal_kernel"], r.stdout
    assert [x[1] for x in listed] == ["13", "13", "15", "15", "15"], r.stdout
    # A CSV of ncu's messages only: refused.
    empty = os.path.join(tmp, "e.csv")
    with open(empty, "w") as f:
        f.write("==PROF== Disconnected\n")
    r = subprocess.run([sys.executable, tool, empty], capture_output=True, text=True)
    assert r.returncode == 1 and "no kernel rows" in r.stderr, (r.returncode, r.stderr)
print("kernel_times: ok")
