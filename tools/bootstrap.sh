#!/usr/bin/env bash
# Installs everything trainproof needs on a fresh Debian machine, idempotently, then
# configures and builds. A second run with nothing to do takes seconds.
#   tools/bootstrap.sh            install what is missing, configure, build
# Environment: TRAINPROOF_PRESET (a configure preset of CMakePresets.json; default:
# default), TRAINPROOF_BUILD_DIR (default: build, or build-<preset>), TRAINPROOF_CACHE
# (default: ${XDG_CACHE_HOME:-$HOME/.cache}/trainproof; the venv lives there, outside the
# checkout), TRAINPROOF_CMAKE_ARGS (extra configure arguments, e.g. -DTRAINPROOF_WERROR=ON).
set -euo pipefail

TORCH_VERSION=2.14.1  # the default Linux wheel: CUDA-enabled, runs on CPU, full C++ headers
# LibTorch's CMake config asks for nvcc and a CUDA toolkit even for CPU-only use. The wheel
# brings the CUDA runtime and headers; these bring nvcc, NVVM and the CCCL headers, at the
# wheel's CUDA version (13.0), so no system CUDA install is needed.
CUDA_TOOLS=(nvidia-cuda-nvcc==13.0.88 nvidia-nvvm==13.0.88 nvidia-cuda-crt==13.0.88 nvidia-cuda-cccl==13.0.85)
root=$(cd "$(dirname "$0")/.." && pwd)
preset=${TRAINPROOF_PRESET:-default}
if [ "$preset" = default ]; then build_dir=${TRAINPROOF_BUILD_DIR:-$root/build}; else build_dir=${TRAINPROOF_BUILD_DIR:-$root/build-$preset}; fi
cache=${TRAINPROOF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/trainproof}
venv=$cache/venv-torch-$TORCH_VERSION
say() { printf '[bootstrap] %s\n' "$*" >&2; }
started=$SECONDS

# 1. Debian packages: the build tools and the C/C++ libraries trainproof builds on.
debs=(cmake ninja-build g++ ccache libgtest-dev librapidcheck-dev libhdf5-dev hdf5-tools
      libcli11-dev nlohmann-json3-dev libgloo-dev fortunes clang libclang-rt-14-dev chromium
      clang-format strace)
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
if [ ! -f "$venv/.cuda-tools-complete" ]; then
  say "installing nvcc and the CUDA headers from PyPI into the venv: ${CUDA_TOOLS[*]}"
  "$venv/bin/python" -m pip install -q "${CUDA_TOOLS[@]}"
  touch "$venv/.cuda-tools-complete"
fi
# The recorder a training script calls (python/trainproof), reinstalled when its files change.
recorder_sum=$(cd "$root/python" && cat pyproject.toml trainproof/*.py | sha256sum | cut -d' ' -f1)
if [ "$(cat "$venv/.trainproof-recorder" 2>/dev/null)" != "$recorder_sum" ]; then
  say "installing the trainproof recorder (python/) into the venv"
  tmp_src=$(mktemp -d)  # built from a copy: the checkout gets no build/ or egg-info
  cp -r "$root/python/." "$tmp_src/"
  "$venv/bin/python" -m pip install -q --no-deps --no-build-isolation "$tmp_src"
  rm -rf "$tmp_src"
  echo "$recorder_sum" >"$venv/.trainproof-recorder"
fi
# The frameworks of examples/frameworks (Hugging Face Trainer, Lightning, accelerate), pinned, for
# check's tests on the stacks teams train with; torch pinned on the same line, so that pip never
# moves it. Optional: where they cannot be installed, those tests skip and say why.
frameworks_sum=$(sha256sum <"$root/examples/frameworks/requirements.txt" | cut -c1-16)
if [ "$(cat "$venv/.frameworks" 2>/dev/null)" != "$frameworks_sum" ]; then
  say "installing the frameworks of examples/frameworks into the venv"
  if "$venv/bin/python" -m pip install -q -r "$root/examples/frameworks/requirements.txt" "torch==$TORCH_VERSION"; then
    echo "$frameworks_sum" >"$venv/.frameworks"
  else
    say "warning: the frameworks of examples/frameworks did not install; check's tests on them will skip"
  fi
fi
torch_cmake=$("$venv/bin/python" -c 'import torch; print(torch.utils.cmake_prefix_path)')

# The toolkit as CMake and nvcc expect it laid out (bin/, include/, nvvm/, lib64/ with
# unversioned library names), as links into the venv's nvidia/cu13 folder.
cu13=$("$venv/bin/python" -c 'import nvidia, os; print(os.path.join(nvidia.__path__[0], "cu13"))')
toolkit=$cache/cuda-toolkit-13.0-torch-$TORCH_VERSION
if [ ! -f "$toolkit/.complete" ]; then
  say "assembling a CUDA toolkit folder at $toolkit"
  rm -rf "$toolkit"
  mkdir -p "$toolkit/bin" "$toolkit/lib64"
  ln -s "$cu13/include" "$toolkit/include"
  ln -s "$cu13/nvvm" "$toolkit/nvvm"
  for f in "$cu13"/bin/*; do ln -s "$f" "$toolkit/bin/"; done  # files: nvcc finds ../lib64 from here
  for f in "$cu13"/lib/*; do
    ln -s "$f" "$toolkit/lib64/"
    case $f in *.so.*) base=$(basename "$f"); [ -e "$toolkit/lib64/${base%%.so.*}.so" ] || ln -s "$f" "$toolkit/lib64/${base%%.so.*}.so" ;; esac
  done
  touch "$toolkit/.complete"
fi
header="$(dirname "$(dirname "$torch_cmake")")/include/torch/csrc/api/include/torch/torch.h"
if [ ! -f "$header" ]; then
  say "error: this torch wheel lacks the LibTorch C++ headers ($header); see README, 'Which LibTorch'"
  exit 2
fi

# 3. Configure with the preset once (or when the venv, the toolkit, the presets or the extra
#    arguments changed), then build only what changed. The presets read these:
export TRAINPROOF_TORCH_DIR=$torch_cmake/Torch TRAINPROOF_PYTHON=$venv/bin/python TRAINPROOF_CUDA_TOOLKIT=$toolkit
stamp="$preset|$torch_cmake|$toolkit|${TRAINPROOF_CMAKE_ARGS:-}|$(sha1sum <"$root/CMakePresets.json" | cut -c1-12)"
if [ ! -f "$build_dir/build.ninja" ] || [ "$(cat "$build_dir/.bootstrap-configured" 2>/dev/null)" != "$stamp" ]; then
  say "configuring $build_dir (preset $preset)"
  # A cache made with another toolkit or torch keeps their compiler checks: start it afresh.
  rm -rf "$build_dir/CMakeCache.txt" "$build_dir/CMakeFiles" "$build_dir/.bootstrap-configured"
  mkdir -p "$build_dir"
  (cd "$root" && cmake --preset "$preset" -B "$build_dir" ${TRAINPROOF_CMAKE_ARGS:-}) >"$build_dir.configure.log" 2>&1 \
    || { cat "$build_dir.configure.log" >&2; exit 1; }
  echo "$stamp" >"$build_dir/.bootstrap-configured"
fi
jobs=${TRAINPROOF_JOBS:-$(nproc)}
say "building with $jobs jobs"
cmake --build "$build_dir" -j "$jobs"
# 4. A new build tree has no test timings of its own, so CTest would start its slowest tests in
#    no particular order (one left for last runs alone, both cores waiting on it): it starts from
#    the times committed in tests/ctest_costs.txt (CTest's own cost file, refreshed from a warm
#    run with tools/ctest_costs.sh), and CTest keeps them up to date from then on.
costs=$build_dir/Testing/Temporary/CTestCostData.txt
if [ ! -f "$costs" ] && [ -f "$root/tests/ctest_costs.txt" ]; then
  mkdir -p "$(dirname "$costs")" && cp "$root/tests/ctest_costs.txt" "$costs"
fi
say "ready in $((SECONDS - started)) s: $build_dir/trainproof"
