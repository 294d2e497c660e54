#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# The README's commands work as a user copies them. The shell blocks marked
# "<!-- readme-test: ... -->" (those that need no GPU) run in a scratch
# folder whose build/ is this build, line by line in one shell, and must
# all succeed; they hold an example of every primitive. In every other
# block, each tools/ path must exist and each option given to gr_run,
# gr_gen or gr_info must be one its --help lists, so that the GPU examples
# do not rot either.
#   test_readme_commands.py SOURCE_DIR BUILD_DIR
import os
import re
import subprocess
import sys
import tempfile

top, build = sys.argv[1], os.path.abspath(sys.argv[2])
MARK = "<!-- readme-test:"
PRIMITIVES = ("bfs", "dobfs", "sssp", "cc", "pr", "bc")


def blocks(text):
    """(marked, lines) of each ```sh block, continuation lines joined."""
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        if lines[i].strip() == "```sh":
            j = i - 1
            while j >= 0 and not lines[j].strip():
                j -= 1
            marked = j >= 0 and lines[j].startswith(MARK)
            body, i = [], i + 1
            while lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            out.append((marked, "\n".join(body).replace("\\\n", " ").split("\n")))
        i += 1
    return out


with open(os.path.join(top, "README.md")) as f:
    found = blocks(f.read())
marked = [b for m, b in found if m]
assert marked, "README.md: no block marked " + MARK
text = "\n".join("\n".join(b) for b in marked)
for p in PRIMITIVES:
    assert re.search(rf"--primitive {p}\b", text), f"README.md: no example of {p} that runs without a GPU"

# The marked blocks, as a user runs them after tools/quickstart.sh.
with tempfile.TemporaryDirectory(prefix="gr-readme-") as tmp:
    os.symlink(build, os.path.join(tmp, "build"))
    for b in marked:
        script = "set -eo pipefail\ntrap 'echo \"README command failed: $BASH_COMMAND\" >&2' ERR\n" + "\n".join(b)
        r = subprocess.run(["bash", "-c", script], cwd=tmp, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    for out in ("depths.txt", "labels.txt", "ranks.txt", "bc.txt"):
        path = os.path.join(tmp, out)
        assert os.path.getsize(path) > 0, f"{out} missing or empty"

# Every block: the paths exist and the tools know the options.
helps = {}
for tool in ("gr_run", "gr_gen", "gr_info"):
    r = subprocess.run([os.path.join(build, "tools", tool), "--help"], capture_output=True, text=True)
    helps[tool] = r.stdout + r.stderr
for _, b in found:
    for line in b:
        cmd = line.split("#", 1)[0]
        for path in re.findall(r"(?<![\w./-])(tools/[\w./-]+)", cmd):
            assert os.path.exists(os.path.join(top, path)), f"README.md: {path} does not exist: {line}"
        words = cmd.split()
        for k, w in enumerate(words):
            tool = os.path.basename(w)
            if tool not in helps:
                continue
            for opt in words[k + 1:]:
                if opt in ("|", "&&", ";"):
                    break
                name = opt.split("=", 1)[0]
                if name.startswith("--"):
                    assert re.search(rf"{re.escape(name)}\b", helps[tool]), \
                        f"README.md: {tool} does not know {name} ({line})"
print(f"readme: {len(marked)} block(s) ran, {len(found)} checked")
