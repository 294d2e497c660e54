# SPDX-License-Identifier: Apache-2.0
"""Runs the Python module's pytest suite; exits 77 (skipped) with the
reason when pytest, numpy or networkx are missing or the build says the
test cannot run (GR_PYTHON_TEST_SKIP), so the reason shows instead of a
failure."""
import importlib.util
import os
import sys

reason = os.environ.get("GR_PYTHON_TEST_SKIP")
if reason:
    print("test_python: skipped: " + reason)
    sys.exit(77)
missing = [m for m in ("pytest", "numpy", "networkx") if importlib.util.find_spec(m) is None]
if missing:
    print("test_python: skipped, %s has no module %s" % (sys.executable, ", ".join(missing)))
    sys.exit(77)
import pytest  # noqa: E402

sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", sys.argv[1]]))
