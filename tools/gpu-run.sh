#!/usr/bin/env bash
# Verifies a GPU machine: builds trainproof against the LibTorch of that machine's own CUDA
# PyTorch (`python3 -c 'import torch'`), runs `ctest -L cuda` and
# `trainproof verify --device cuda`; with --regen first writes the /cuda goldens.
# The other build dependencies come from tools/gpu-prepare.sh (run where registries are).
#   tools/gpu-run.sh [--regen] [--out DIR] [--deps DIR] [--python PY]
# Results and logs go to DIR (default gpu-results/): ctest-cuda.log, verify-cuda.txt,
# verify-cuda.json, fingerprint lines, and with --regen the golden/ files to commit.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
regen=0 out=$root/gpu-results deps=$root/.gpu-deps py=python3
while (($#)); do
  case $1 in
    --regen) regen=1 ;;
    --out) out=$2; shift ;;
    --deps) deps=$2; shift ;;
    --python) py=$2; shift ;;
    *) echo "gpu-run: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$out"
log() { printf '[gpu-run %4ds] %s\n' "$SECONDS" "$*" | tee -a "$out/gpu-run.log" >&2; }
[ -d "$deps" ] || { log "no $deps: run tools/gpu-prepare.sh on a machine with package registries"; exit 2; }

torch_cmake=$("$py" -c 'import torch; print(torch.utils.cmake_prefix_path)') || { log "$py has no torch"; exit 2; }
log "torch: $("$py" -c 'import torch; print(torch.__version__, "cuda", torch.version.cuda, "gpu", torch.cuda.is_available())')"
if ! command -v cmake >/dev/null || ! command -v ninja >/dev/null; then
  "$py" -m pip install -q --no-index --no-deps --target /tmp/trainproof-tools "$deps"/wheels/*.whl
  export PATH=/tmp/trainproof-tools/bin:$PATH PYTHONPATH=/tmp/trainproof-tools${PYTHONPATH:+:$PYTHONPATH}
fi
export LD_LIBRARY_PATH=$deps/hdf5/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
build=$root/build-gpu
log "configuring $build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTorch_DIR="$torch_cmake/Torch" \
  -DCMAKE_PREFIX_PATH="$deps/root/usr;$deps/root/usr/lib/x86_64-linux-gnu/cmake" \
  -DHDF5_ROOT="$deps/hdf5" -DHDF5_NO_FIND_PACKAGE_CONFIG_FILE=ON -DHDF5_C_COMPILER_EXECUTABLE=/nonexistent \
  -DTRAINPROOF_PYTHON= >"$out/configure.log" 2>&1 || { log "configure failed (configure.log)"; tail -30 "$out/configure.log" >&2; exit 2; }
grep -h "trainproof:" "$out/configure.log" | while read -r line; do log "$line"; done  # raw CUDA, NCCL: compiled or why not
log "building with $(nproc) jobs"
cmake --build "$build" -j "$(nproc)" >"$out/build.log" 2>&1 || { log "build failed (build.log)"; tail -30 "$out/build.log" >&2; exit 2; }

log "ctest -L cuda"
(cd "$root" && ctest --test-dir "$build" -L cuda --output-on-failure -j 4) >"$out/ctest-cuda.log" 2>&1
ctest_rc=$?
tail -5 "$out/ctest-cuda.log" >&2
if ((regen)); then
  log "regen --device cuda"
  "$build/trainproof" regen --device cuda >"$out/regen-cuda.txt" 2>&1 || log "regen failed (regen-cuda.txt)"
  mkdir -p "$out/golden" && cp "$root"/golden/*.h5 "$out/golden/"
fi
log "verify --device cuda"
"$build/trainproof" verify --device cuda --report "$out/verify-cuda.json" >"$out/verify-cuda.txt" 2>&1
verify_rc=$?
tail -3 "$out/verify-cuda.txt" >&2
log "done: ctest -L cuda exit $ctest_rc, verify exit $verify_rc (results in $out)"
((ctest_rc == 0)) || exit 1
exit "$verify_rc"
