#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian/Ubuntu packages gr needs that are missing: a C
# compiler, CMake, pkg-config, Check, cJSON, METIS, zlib, matplotlib for the
# plots of the scaling driver (tools/gr_scale.py), numpy, scipy, networkx
# and pytest for the Python module's tests (python/), python3-venv for the
# Python package's test in a fresh virtual environment
# (tools/test-python-package.sh); and for the
# reliability runs of CI (docs/reliability.md): clang with its sanitizer and
# fuzzer runtimes (libclang-rt-dev, which Debian's clang package does not
# pull in) and LLVM's OpenMP runtime with its ThreadSanitizer tool, Archer
# (libomp-dev), plus llvm for llvm-symbolizer (readable sanitizer stack
# traces). CUDA (nvcc, CUB, NCCL) is used when present and is not installed
# here.
set -euo pipefail

pkgs=(build-essential cmake pkg-config check libsubunit-dev libcjson-dev libmetis-dev zlib1g-dev
      python3 python3-venv python3-matplotlib python3-numpy python3-scipy python3-networkx python3-pytest
      clang libclang-rt-dev libomp-dev llvm)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
