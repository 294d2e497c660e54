#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Gathers the Debian packages gr's build needs beyond the CUDA toolkit, as
# .deb files, for a GPU machine without network: Check (tests), cJSON,
# METIS, zlib headers. Run on a machine with apt; carry DIR (default: .deps,
# which git ignores) to the GPU machine and run gpu-node.sh there.
#   tools/offline/fetch-debs.sh [--fuzz] [DIR]
# --fuzz adds clang 14 with its fuzzer and sanitizer runtimes for
# tools/offline/fuzz-long.sh (about 100 MB): clang-14, libclang-cpp14,
# libllvm14, libclang-common-14-dev (clang's headers), libclang-rt-14-dev
# (libFuzzer, AddressSanitizer, UndefinedBehaviorSanitizer), and the
# libraries libllvm14 needs that a GPU machine may lack (libz3-4, libedit2,
# libxml2 with libicu72). Versions as Debian 12 ships them; they run on newer
# glibc (the GPU machines' Ubuntu 24.04).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
fuzz=0
if [ "${1:-}" = "--fuzz" ]; then
  fuzz=1
  shift
fi
dir=${1:-$top/.deps}
mkdir -p "$dir"
pkgs=(check libsubunit-dev libsubunit0 libcjson-dev libcjson1 libmetis-dev libmetis5 zlib1g-dev zlib1g)
if [ $fuzz -eq 1 ]; then
  pkgs+=(clang-14 libclang-cpp14 libllvm14 libclang-common-14-dev libclang-rt-14-dev
         libz3-4 libedit2 libxml2 libicu72)
fi
if [ ! -d /var/lib/apt/lists ] || [ -z "$(ls -A /var/lib/apt/lists 2>/dev/null | grep -v lock)" ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
fi
(cd "$dir" && rm -f ./*.deb && apt-get download "${pkgs[@]}")
ls -l "$dir"/*.deb
