#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where the threads of a hung process are, on a machine without gdb.

    tools/offline/thread-stacks.py [--stop] PID BINARY

For each thread: its system call (or "running"), then, from the stack
pointer the kernel saved at that call, every 8-byte word of the stack that
points into an executable mapping; those inside BINARY are named with
addr2line (innermost first, up to 40), the others counted per library and
the first few named by the nearest exported symbol (nm -D). A heuristic
backtrace: stale return addresses left on the stack show up too. A running
thread (a spin) has no saved stack pointer; --stop stops the process
(SIGSTOP) while reading, so that every thread has one and its program
counter is named too, then lets it go on (SIGCONT). Needs read access to
/proc/PID/mem (the same user, or root), addr2line and nm (binutils).

compute-sanitizer.sh reads every run near its limit with it (THREAD_STACKS),
so that a hang under a tool says where each thread waits."""
import bisect
import functools
import os
import signal
import subprocess
import sys
import time

_symbols = {}


def symbol(path, vaddr):
    """The exported symbol at or below vaddr in the library at path."""
    if path not in _symbols:
        out = subprocess.run(['nm', '-D', '--defined-only', path], capture_output=True, text=True).stdout
        table = sorted((int(p[0], 16), p[2]) for p in (l.split() for l in out.splitlines())
                       if len(p) == 3 and p[1] in 'TtWi')
        _symbols[path] = ([a for a, _ in table], [n for _, n in table])
    addrs, names = _symbols[path]
    k = bisect.bisect_right(addrs, vaddr) - 1
    return f'{names[k]}+{vaddr - addrs[k]:#x}' if k >= 0 else f'{vaddr:#x}'


def main():
    args = sys.argv[1:]
    stop = args[:1] == ['--stop']
    if stop:
        args = args[1:]
    if len(args) != 2:
        sys.exit(__doc__)
    pid, binary = int(args[0]), os.path.realpath(args[1])
    if stop:
        os.kill(pid, signal.SIGSTOP)
        time.sleep(0.2)
    try:
        read(pid, binary)
    except PermissionError as e:
        sys.exit(f'thread-stacks.py: cannot read process {pid}: {e} (same user or root needed; '
                 'ptrace restrictions such as Yama may forbid it)')
    finally:
        if stop:
            os.kill(pid, signal.SIGCONT)


def read(pid, binary):
    maps = []
    with open(f'/proc/{pid}/maps') as f:
        for line in f:
            p = line.split()
            lo, hi = (int(x, 16) for x in p[0].split('-'))
            maps.append((lo, hi, p[1], int(p[2], 16), p[5] if len(p) > 5 else ''))

    # Where each file is loaded: the start of its mapping at file offset 0,
    # so that an address less that start is the library's own address.
    load_base = {}
    for lo, hi, perm, off, path in maps:
        if path and off == 0 and path not in load_base:
            load_base[path] = lo

    def where(addr):
        for lo, hi, perm, off, path in maps:
            if lo <= addr < hi and 'x' in perm and path:
                return path, addr - lo + off
        return None

    @functools.lru_cache(maxsize=None)
    def is_binary(path):
        return os.path.realpath(path) == binary

    def lib_name(addr):
        for lo, hi, perm, off, path in maps:
            if lo <= addr < hi and 'x' in perm and path:
                return f'{os.path.basename(path)}:{symbol(path, addr - load_base.get(path, lo))}'
        return f'{addr:#x}'

    with open(f'/proc/{pid}/mem', 'rb', 0) as mem:
        for tid in sorted(os.listdir(f'/proc/{pid}/task'), key=int):
            base = f'/proc/{pid}/task/{tid}'
            try:
                with open(base + '/comm') as f:
                    comm = f.read().strip()
                with open(base + '/syscall') as f:
                    sc = f.read().split()
            except FileNotFoundError:
                continue  # the thread ended meanwhile
            print(f'== thread {tid} {comm} syscall {sc[0]}')
            if len(sc) < 3:
                continue
            sp = int(sc[-2], 16)
            pc = int(sc[-1], 16)
            w = where(pc)
            if w and is_binary(w[0]):
                out = subprocess.run(['addr2line', '-f', '-C', '-e', binary, hex(w[1])],
                                     capture_output=True, text=True).stdout.split('\n')
                print('  pc:', out[0])
            elif w:
                print('  pc:', lib_name(pc))
            end = next((hi for lo, hi, _, _, _ in maps if lo <= sp < hi), sp)
            try:
                mem.seek(sp)
                data = mem.read(min(end - sp, 262144))
            except OSError as e:
                print('  cannot read the stack:', e)
                continue
            words = (int.from_bytes(data[i:i + 8], 'little') for i in range(0, len(data) - 7, 8))
            hits = [(a, w[0], w[1]) for a, w in ((a, where(a)) for a in words) if w]
            ours = [hex(off) for _, path, off in hits if is_binary(path)]
            # Stale words crowd a scan (deep ones under the sanitizers), and
            # the thread's entry (main, gr__slot_main) lies at the stack's
            # far end: keep the nearest words and the outermost ones.
            if len(ours) > 48:
                ours = ours[:36] + ours[-12:]
            theirs = [(a, path) for a, path, _ in hits if not is_binary(path)]
            if theirs:
                print('  library words:', ' <- '.join(lib_name(a) for a, _ in theirs[:8]))
            libs = {}
            for _, path in theirs:
                libs[os.path.basename(path)] = libs.get(os.path.basename(path), 0) + 1
            if ours:
                # -i: a word inside a function that others were inlined into
                # names the inlined ones and then it (gr__slot_run inlined
                # into gr__slot_main); -a marks where each word's names start.
                out = subprocess.run(['addr2line', '-a', '-i', '-f', '-C', '-e', binary] + ours,
                                     capture_output=True, text=True).stdout.split('\n')
                names, k = [], 0
                while k < len(out):
                    if out[k].startswith('0x'):
                        k += 1
                        continue
                    if out[k] and out[k] != '??':
                        names.append(out[k])
                    k += 2
                print('  ' + ' <- '.join(names))
            print('  libs:', ' '.join(f'{k}:{v}' for k, v in
                                      sorted(libs.items(), key=lambda kv: -kv[1])[:6]))


if __name__ == '__main__':
    main()
