#!/usr/bin/env bash
# Installs everything trainproof needs on a fresh Debian machine, idempotently, then
# configures and builds. A second run with nothing to do takes seconds.
#   tools/bootstrap.sh            install what is missing, configure, build
# Environment: TRAINPROOF_BUILD_DIR (default: build), TRAINPROOF_CACHE (default:
# ${XDG_CACHE_HOME:-$HOME/.cache}/trainproof; the venv lives there, outside the checkout),
# TRAINPROOF_CMAKE_ARGS (extra configure arguments, e.g. -DTRAINPROOF_SANITIZE=ON).
set -euo pipefail

TORCH_VERSION=2.14.1  # the default Linux wheel: CUDA-enabled, runs on CPU, full C++ headers
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${TRAINPROOF_BUILD_DIR:-$root/build}
cache=${TRAINPROOF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/trainproof}
venv=$cache/venv-torch-$TORCH_VERSION
say() { printf '[bootstrap] %s\n' "$*" >&2; }
started=$SECONDS

# 1. Debian packages: the build tools and the C/C++ libraries trainproof builds on.
debs=(cmake ninja-build g++ ccache libgtest-dev librapidcheck-dev libhdf5-dev hdf5-tools
      libcli11-dev nlohmann-json3-dev libgloo-dev fortunes clang libclang-rt-14-dev chromium)
missing=()
for p in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  say "installing Debian packages: ${missing[*]}"
  sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# 2. The Python venv whose PyTorch wheel carries the LibTorch we build against, plus h5py
#    and numpy for the reference oracle and golden tooling. Kept outside the checkout and
#    keyed by the torch version, so every clone on this machine reuses it.
if [ ! -f "$venv/.complete" ]; then
  say "creating $venv (torch==$TORCH_VERSION; several GB, once per machine)"
  rm -rf "$venv"
  mkdir -p "$cache"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q --upgrade pip
  "$venv/bin/python" -m pip install -q "torch==$TORCH_VERSION" h5py numpy
  touch "$venv/.complete"
fi
torch_cmake=$("$venv/bin/python" -c 'import torch; print(torch.utils.cmake_prefix_path)')
header="$(dirname "$(dirname "$torch_cmake")")/include/torch/csrc/api/include/torch/torch.h"
if [ ! -f "$header" ]; then
  say "error: this torch wheel lacks the LibTorch C++ headers ($header); see README, 'Which LibTorch'"
  exit 2
fi

# 3. Configure once (or when the venv moved), then build only what changed.
if [ ! -f "$build_dir/build.ninja" ] || ! grep -q "Torch_DIR:PATH=$torch_cmake/Torch" "$build_dir/CMakeCache.txt" 2>/dev/null; then
  say "configuring $build_dir"
  cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTorch_DIR="$torch_cmake/Torch" -DTRAINPROOF_PYTHON="$venv/bin/python" ${TRAINPROOF_CMAKE_ARGS:-} \
    >"$build_dir.configure.log" 2>&1 \
    || { cat "$build_dir.configure.log" >&2; exit 1; }
fi
jobs=${TRAINPROOF_JOBS:-$(nproc)}
say "building with $jobs jobs"
cmake --build "$build_dir" -j "$jobs"
say "ready in $((SECONDS - started)) s: $build_dir/trainproof"
