# SPDX-License-Identifier: Apache-2.0
"""Runs the Python module's pytest suite; exits 77 (skipped) when pytest,
numpy or networkx are missing, so the reason shows instead of a failure."""
import importlib
import sys

missing = [m for m in ("pytest", "numpy", "networkx") if importlib.util.find_spec(m) is None]
if missing:
    print("test_python: skipped, missing Python modules: " + ", ".join(missing))
    sys.exit(77)
import pytest  # noqa: E402

sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", sys.argv[1]]))
