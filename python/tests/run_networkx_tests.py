# SPDX-License-Identifier: Apache-2.0
"""Runs NetworkX's own tests of the functions gr's backend covers with every
NetworkX call sent through the backend (NetworkX's backend test mode:
NETWORKX_TEST_BACKEND=gr, NETWORKX_FALLBACK_TO_NX=1), then lists, per
function, how many calls gr answered and every call it declined, with the
reason (refused by can_run, or NotImplementedError from the call, after
which NetworkX ran its own code). Exits non-zero when a test fails or when a
covered function was never answered by gr (the run would prove nothing).

    python python/tests/run_networkx_tests.py [--json FILE] [pytest args]
"""
import argparse
import collections
import inspect
import json
import os
import sys

# The test mode is read when NetworkX's conftest configures pytest.
os.environ["NETWORKX_TEST_BACKEND"] = "gr"
os.environ["NETWORKX_FALLBACK_TO_NX"] = "True"

import networkx as nx  # noqa: E402
import pytest  # noqa: E402

import gr.nx as backend  # noqa: E402

# NetworkX's test files of the covered functions, under its package.
TEST_FILES = [
    "algorithms/traversal/tests/test_bfs.py",
    "algorithms/shortest_paths/tests/test_unweighted.py",
    "algorithms/shortest_paths/tests/test_weighted.py",
    "algorithms/shortest_paths/tests/test_generic.py",
    "algorithms/components/tests/test_connected.py",
    "algorithms/link_analysis/tests/test_pagerank.py",
    "algorithms/centrality/tests/test_betweenness_centrality.py",
]


class Ledger:
    """A pytest plugin that wraps the backend's entry points and records,
    per test, what gr did with each call."""

    def __init__(self):
        self.test = None
        self.ran = collections.Counter()
        self.declined = collections.defaultdict(list)   # function -> [(test, why)]
        self._wrap()

    def _wrap(self):
        iface = backend.BackendInterface
        original_can_run = iface.can_run

        def can_run(name, args, kwargs):
            ok = original_can_run(name, args, kwargs)
            if ok is not True:
                self.declined[name].append((self.test, "can_run: %s" % ok))
            return ok

        iface.can_run = staticmethod(can_run)
        for name in backend._IMPLS:
            setattr(iface, name, staticmethod(self._watch(name, getattr(iface, name))))

    def _watch(self, name, f):
        def call(*args, **kwargs):
            try:
                out = f(*args, **kwargs)
            except NotImplementedError as e:
                self.declined[name].append((self.test, "fell back: %s" % e))
                raise
            if inspect.isgenerator(out):   # its work (and errors) come when iterated
                return self._iterate(name, out)
            self.ran[name] += 1
            return out
        return call

    def _iterate(self, name, gen):
        yield from gen
        self.ran[name] += 1

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item):
        self.test = item.nodeid.split("networkx/", 1)[-1]
        yield
        self.test = None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="write the per-function figures here")
    opts, rest = ap.parse_known_args()
    root = os.path.dirname(nx.__file__)
    ledger = Ledger()
    files = [os.path.join(root, f) for f in TEST_FILES]
    rc = pytest.main(["-q", "-p", "no:cacheprovider", "--rootdir", root] + files + rest, plugins=[ledger])

    print("\ngr backend through NetworkX %s's tests: calls answered by gr, calls declined" % nx.__version__)
    never = []
    for name in backend._IMPLS:
        print("  %-36s %5d answered  %4d declined" % (name, ledger.ran[name], len(ledger.declined[name])))
        if ledger.ran[name] == 0:
            never.append(name)
    by_reason = collections.defaultdict(set)
    for name, calls in ledger.declined.items():
        for test, why in calls:
            by_reason[(name, why)].add(test or "(outside a test)")
    if by_reason:
        print("declined, by reason (NetworkX ran its own code for these calls):")
        for (name, why), tests in sorted(by_reason.items()):
            print("  %s: %s" % (name, why))
            for test in sorted(tests):
                print("      " + test)
    if opts.json:
        with open(opts.json, "w") as fh:
            json.dump({"networkx": nx.__version__, "pytest_exit": int(rc), "answered": dict(ledger.ran),
                       "declined": {k: [{"test": t, "why": w} for t, w in v] for k, v in ledger.declined.items()}},
                      fh, indent=1)
    if never:
        print("error: gr answered no call of %s" % ", ".join(never))
        return 1
    return int(rc)


if __name__ == "__main__":
    sys.exit(main())
