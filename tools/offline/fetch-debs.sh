#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Gathers the Debian packages gr's build needs beyond the CUDA toolkit, as
# .deb files, for a GPU machine without network: Check (tests), cJSON,
# METIS, zlib headers. Run on a machine with apt; carry DIR (default: .deps,
# which git ignores) to the GPU machine and run gpu-node.sh there.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$top/.deps}
mkdir -p "$dir"
pkgs=(check libsubunit-dev libsubunit0 libcjson-dev libcjson1 libmetis-dev libmetis5 zlib1g-dev zlib1g)
if [ ! -d /var/lib/apt/lists ] || [ -z "$(ls -A /var/lib/apt/lists 2>/dev/null | grep -v lock)" ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
fi
(cd "$dir" && rm -f ./*.deb && apt-get download "${pkgs[@]}")
ls -l "$dir"/*.deb
