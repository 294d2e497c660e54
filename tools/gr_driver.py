# SPDX-License-Identifier: Apache-2.0
"""Helpers shared by the drivers that run gr_run over an experiment list
(gr_bench.py, gr_scale.py): where the real graphs live, generating a
generator spec once in gr's binary format, and file names made from labels.
Standard library only."""

import os
import subprocess
import sys
import time


def default_data_dir():
    """The real graphs beside the checkout (../shared/data), as the tests
    expect them."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data")


def safe_name(text, keep=""):
    """A file name from a label: letters and digits stay, so do the
    characters in keep, everything else becomes '_'."""
    return "".join(c if c.isalnum() or c in keep else "_" for c in text)


def prepare_graph(graph, gr_run, data_dir, gen_dir):
    """gr_run's input arguments for a graph of an experiment list: '@name'
    is a file of data_dir, an existing path is used as it is, anything else
    is a generator spec, generated once into gen_dir in the binary format
    (gr_gen beside gr_run) and reused by later calls. Returns (args, None)
    or (None, why)."""
    if graph.startswith("@"):
        path = os.path.join(data_dir, graph[1:])
        if not os.path.exists(path):
            return None, f"missing {path}"
        return [path], None
    if os.path.exists(graph):
        return [graph], None
    path = os.path.join(gen_dir, safe_name(graph, ".-") + ".grb")
    if not os.path.exists(path):
        gr_gen = os.path.join(os.path.dirname(gr_run), "gr_gen")
        print(f"generating {graph} ...", file=sys.stderr)
        t = time.time()
        # A partial file must not pass for a finished graph on the next call.
        tmp = path + ".part.grb"
        r = subprocess.run([gr_gen, graph, "-o", tmp, "--format", "binary", "--quiet"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            if os.path.exists(tmp):
                os.unlink(tmp)
            return None, f"gr_gen {graph}: {r.stderr.strip()}"
        os.replace(tmp, path)
        print(f"generated {graph} in {time.time() - t:.1f} s", file=sys.stderr)
    return [path], None
