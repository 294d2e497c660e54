#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where the threads of a hung process are, on a machine without gdb.

    tools/offline/thread-stacks.py PID BINARY

For each thread: its system call (or "running"), then, from the stack
pointer the kernel saved at that call, every 8-byte word of the stack that
points into an executable mapping; those inside BINARY are named with
addr2line (innermost first, up to 40), the others counted per library. A
heuristic backtrace: stale return addresses left on the stack show up too,
and a running thread's stack cannot be read. Needs read access to
/proc/PID/mem (the same user, or root) and addr2line (binutils)."""
import os
import subprocess
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    pid, binary = int(sys.argv[1]), os.path.realpath(sys.argv[2])
    maps = []
    with open(f'/proc/{pid}/maps') as f:
        for line in f:
            p = line.split()
            lo, hi = (int(x, 16) for x in p[0].split('-'))
            maps.append((lo, hi, p[1], int(p[2], 16), p[5] if len(p) > 5 else ''))

    def where(addr):
        for lo, hi, perm, off, path in maps:
            if lo <= addr < hi and 'x' in perm and path:
                return path, addr - lo + off
        return None

    with open(f'/proc/{pid}/mem', 'rb', 0) as mem:
        for tid in sorted(os.listdir(f'/proc/{pid}/task'), key=int):
            base = f'/proc/{pid}/task/{tid}'
            with open(base + '/comm') as f:
                comm = f.read().strip()
            with open(base + '/syscall') as f:
                sc = f.read().split()
            print(f'== thread {tid} {comm} syscall {sc[0]}')
            if len(sc) < 3:
                continue
            sp = int(sc[-2], 16)
            end = next((hi for lo, hi, _, _, _ in maps if lo <= sp < hi), sp)
            try:
                mem.seek(sp)
                data = mem.read(min(end - sp, 262144))
            except OSError as e:
                print('  cannot read the stack:', e)
                continue
            hits = [w for w in (where(int.from_bytes(data[i:i + 8], 'little'))
                                for i in range(0, len(data) - 7, 8)) if w]
            ours = [hex(off) for path, off in hits if os.path.realpath(path) == binary][:40]
            libs = {}
            for path, _ in hits:
                if os.path.realpath(path) != binary:
                    libs[os.path.basename(path)] = libs.get(os.path.basename(path), 0) + 1
            if ours:
                out = subprocess.run(['addr2line', '-f', '-C', '-e', binary] + ours,
                                     capture_output=True, text=True).stdout.split('\n')
                names = [out[k] for k in range(0, len(out) - 1, 2)]
                print('  ' + ' <- '.join(n for n in names if n and n != '??'))
            print('  libs:', ' '.join(f'{k}:{v}' for k, v in
                                      sorted(libs.items(), key=lambda kv: -kv[1])[:6]))


if __name__ == '__main__':
    main()
