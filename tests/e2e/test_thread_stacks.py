#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# tools/offline/thread-stacks.py on a running gr_run (two CPU devices, many
# runs): every thread is listed; with --stop every thread, busy ones
# included, has its program counter named, the main thread's stack names
# main and a device thread's gr__slot_main; the process runs on afterwards
# (not left stopped). Skips (77) where this user may not read another
# process's memory or binutils is missing.
import os
import shutil
import signal
import subprocess
import sys
import time

top, gr_run = sys.argv[1], sys.argv[2]
tool = os.path.join(top, "tools", "offline", "thread-stacks.py")
if not shutil.which("addr2line") or not shutil.which("nm"):
    print("skipped: addr2line or nm missing")
    sys.exit(77)

p = subprocess.Popen([gr_run, "--cpu", "--gpus", "2", "--gen", "kron:14:8", "--runs", "1000000", "--quiet"],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    # Until both device threads exist (the main thread, OpenMP's and two
    # device threads): generation and the first run take milliseconds.
    deadline = time.time() + 30
    while time.time() < deadline and len(os.listdir(f"/proc/{p.pid}/task")) < 3:
        time.sleep(0.1)
    time.sleep(1.0)
    assert p.poll() is None, "gr_run ended early"
    tasks = len(os.listdir(f"/proc/{p.pid}/task"))

    plain = subprocess.run([sys.executable, tool, str(p.pid), gr_run], capture_output=True, text=True)
    if plain.returncode != 0 and "cannot read process" in plain.stderr:
        # The tool is the run's sibling, not its parent: ptrace rules
        # (Yama's scope 1 and up) may forbid it to read the run's memory.
        print("skipped:", plain.stderr.strip())
        sys.exit(77)
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout.count("== thread ") >= tasks - 1, plain.stdout

    r = subprocess.run([sys.executable, tool, "--stop", str(p.pid), gr_run], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    threads = out.count("== thread ")
    assert threads >= 3, out
    # Stopped, every thread has a saved program counter, running or not.
    assert out.count("  pc: ") == threads, out
    assert " main" in out and "gr__slot_main" in out, out

    # Let go: the process runs on (state R or S, not T).
    time.sleep(0.3)
    with open(f"/proc/{p.pid}/stat") as f:
        state = f.read().rsplit(")", 1)[1].split()[0]
    assert state != "T", f"left stopped (state {state})"
    assert p.poll() is None, "gr_run ended while being read"

    # Bad arguments: the usage, non-zero.
    bad = subprocess.run([sys.executable, tool, "--stop"], capture_output=True, text=True)
    assert bad.returncode != 0 and "thread-stacks.py" in bad.stderr, bad.stderr
finally:
    p.send_signal(signal.SIGKILL)
    p.wait()
print("thread-stacks: ok")
