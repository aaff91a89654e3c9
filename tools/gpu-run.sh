#!/usr/bin/env bash
# Verifies a GPU machine in one go, and proves things before it writes anything. Phases, in
# order, each timed and logged under the results folder:
#   build         configure and build against this machine's own CUDA PyTorch (its version)
#   ctest-cuda    ctest -L cuda: every CUDA invariant (the CUDA oracle tests are the next phase)
#   oracle-cuda   the Python twins on CUDA against the C++ scenarios on CUDA, bitwise
#   deterministic two CUDA runs of every scenario with deterministic algorithms: bitwise equal
#   cpu-vs-cuda   the committed CPU goldens against the CUDA traces, each series within the
#                 ceiling its scenario declares (not the recipes that differ by design)
#   aot-export    compile_speed's AOTInductor package exported for CUDA here, and timed
#   nccl          the data-parallel scenarios on NCCL ranks (one per GPU; N=1 on one GPU)
#   regen         regen --device cuda: refused when any earlier phase failed
#   verify-all    verify --device all against the goldens
#   tools/gpu-run.sh [--out DIR] [--deps DIR] [--python PY] [--build-dir DIR] [--no-build]
#                    [--verify-only 'SCENARIO...']
# --verify-only: verify-all verifies only these scenarios (the script's own tests take one).
# DIR (default gpu-results/) gets one log per phase, summary.txt (a table a person reads in a
# minute), and after a regen golden/ (the files to commit). A phase that needs a GPU is
# skipped, with the reason, where there is none. Exit 0 when every phase passed, 1 when one
# failed (or regen was refused), 2 when there is no GPU to verify. The build dependencies
# other than PyTorch come from tools/gpu-prepare.sh (run where package registries are).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/gpu-results deps=$root/.gpu-deps py=python3 build=$root/build-gpu no_build=0 verify_only=()
while (($#)); do
  case $1 in
    --out) out=$2; shift ;;
    --deps) deps=$2; shift ;;
    --python) py=$2; shift ;;
    --build-dir) build=$2; shift ;;
    --no-build) no_build=1 ;;
    --verify-only) read -ra verify_only <<<"$2"; shift ;;
    *) echo "gpu-run: unknown argument $1 (see the header of $0)" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
: >"$out/gpu-run.log"
log() { printf '[gpu-run %4ds] %s\n' "$SECONDS" "$*" | tee -a "$out/gpu-run.log" >&2; }
tp() { "$build/trainproof" "$@"; }
SKIP=77

gpu=0
if "$py" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then gpu=1; fi
no_gpu() { echo "no GPU: $py's torch.cuda.is_available() is False"; return $SKIP; }
scenarios() { tp list --json | "$py" -c 'import json, sys; print("\n".join(s["name"] for s in json.load(sys.stdin)))'; }

# ---- the phases: each one's output goes to $out/NAME.log, and the last line it prints is its
# one-line detail for the summary; it returns 0 (pass), $SKIP (skipped), 3 (refused) or
# anything else (failed).

phase_build() {
  local version
  version=$("$py" -c 'import torch; print(torch.__version__, "CUDA", torch.version.cuda)') || {
    echo "$py has no torch"; return 1; }
  if ((no_build)); then
    [ -x "$build/trainproof" ] || { echo "--no-build: no $build/trainproof"; return 1; }
    echo "torch $version; existing build $build (--no-build)"
    return 0
  fi
  local torch_cmake python_opt=-DTRAINPROOF_PYTHON=
  torch_cmake=$("$py" -c 'import torch; print(torch.utils.cmake_prefix_path)')
  # With h5py, the oracle tests and the AOTInductor export are configured too.
  "$py" -c 'import h5py, numpy' 2>/dev/null && python_opt=-DTRAINPROOF_PYTHON=$(command -v "$py")
  if ! command -v cmake >/dev/null || ! command -v ninja >/dev/null; then
    "$py" -m pip install -q --no-index --no-deps --target /tmp/trainproof-tools "$deps"/wheels/*.whl
    export PATH=/tmp/trainproof-tools/bin:$PATH PYTHONPATH=/tmp/trainproof-tools${PYTHONPATH:+:$PYTHONPATH}
  fi
  [ -d "$deps" ] || { echo "no $deps: run tools/gpu-prepare.sh on a machine with package registries"; return 1; }
  export LD_LIBRARY_PATH=$deps/hdf5/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTorch_DIR="$torch_cmake/Torch" \
    -DCMAKE_PREFIX_PATH="$deps/root/usr;$deps/root/usr/lib/x86_64-linux-gnu/cmake" \
    -DHDF5_ROOT="$deps/hdf5" -DHDF5_NO_FIND_PACKAGE_CONFIG_FILE=ON -DHDF5_C_COMPILER_EXECUTABLE=/nonexistent \
    "$python_opt" || { echo "configure failed (build.log)"; return 1; }
  cmake --build "$build" -j "$(nproc)" || { echo "build failed (build.log)"; return 1; }
  echo "torch $version; $(grep -h 'trainproof:' "$out/build.log" | tr '\n' ' ')"
}

phase_ctest_cuda() {
  ((gpu)) || no_gpu || return
  (cd "$root" && ctest --test-dir "$build" -L cuda -E '^OracleCudaTest[.]' --output-on-failure -j 4)
  local rc=$?
  grep -h "tests passed" "$out/ctest-cuda.log" | tail -1
  return $rc
}

phase_oracle_cuda() {
  ((gpu)) || no_gpu || return
  local all cuda none
  all=$("$py" "$root/tools/reference/scenarios.py" --list | sort)
  cuda=$("$py" "$root/tools/reference/scenarios.py" --device cuda --list | sort)
  none=$(comm -23 <(echo "$all") <(echo "$cuda") | tr '\n' ' ')
  (cd "$root" && ctest --test-dir "$build" -R '^OracleCudaTest[.]' --output-on-failure -j 4)
  local rc=$?
  echo "$(grep -h 'tests passed' "$out/oracle-cuda.log" | tail -1); the failures are where the GPU's kernels" \
    "and Python's differ (the log shows each series); twins still CPU-only: ${none:-none}"
  return $rc
}

phase_deterministic() {
  ((gpu)) || no_gpu || return
  local s rc=0 differ=()
  tp regen --device cuda --golden "$out/trace-a" || rc=1
  tp regen --device cuda --golden "$out/trace-b" || rc=1
  for s in $(scenarios); do
    [ "$s" = compile_speed ] && continue  # its series are timings
    [ -f "$out/trace-a/$s.h5" ] || continue
    tp compare "$out/trace-a/$s.h5" "$out/trace-b/$s.h5" --device cuda --tolerance exact || differ+=("$s")
  done
  echo "two CUDA runs: ${#differ[@]} scenarios differ${differ:+: ${differ[*]}} (compile_speed's timings not compared)"
  ((rc == 0 && ${#differ[@]} == 0))
}

phase_cpu_vs_cuda() {
  ((gpu)) || no_gpu || return
  local s outside=() compared=0
  for s in $(scenarios); do
    case $s in amp_loop | autocast_dtypes | compile_speed) continue ;; esac  # bf16 vs fp16 by design; timings
    [ -f "$out/trace-a/$s.h5" ] || continue
    compared=$((compared + 1))
    tp compare "$root/golden/$s.h5" "$out/trace-a/$s.h5" --device cpu --observed-device cuda --tolerance ceiling \
      || outside+=("$s")
  done
  echo "$compared scenarios, CPU golden against CUDA within each series' ceiling: ${#outside[@]} outside" \
    "${outside:+(${outside[*]})}; not compared: amp_loop and autocast_dtypes (CPU bf16, CUDA fp16), compile_speed"
  ((compared > 0 && ${#outside[@]} == 0))
}

phase_aot_export() {
  ((gpu)) || no_gpu || return
  local t0=$SECONDS
  "$py" "$root/tools/export_compile_speed.py" "$out/export" || { echo "export failed"; return 1; }
  [ -f "$out/export/mlp_cuda.pt2" ] || { echo "no mlp_cuda.pt2 was exported"; return 1; }
  TRAINPROOF_EXPORT_DIR=$out/export tp run compile_speed --device cuda || { echo "compile_speed failed on CUDA"; return 1; }
  echo "exported for CUDA in $((SECONDS - t0)) s; $(grep -h 'ms' "$out/aot-export.log" | tail -2 | tr '\n' ' ')"
}

phase_nccl() {
  ((gpu)) || no_gpu || return
  local rc=0
  tp run ddp_equivalence --device cuda || rc=1
  tp run ddp_resume --device cuda || rc=1
  (cd "$root" && ctest --test-dir "$build" -R 'DistributedTest[.]Nccl' --output-on-failure) || rc=1
  local ranks
  ranks=$(grep -h "one GPU:" "$out/nccl.log" | head -1)
  echo "${ranks:-NCCL ranks one per GPU}; $(grep -h 'tests passed' "$out/nccl.log" | tail -1)"
  return $rc
}

phase_regen() {
  if ((${#failed[@]})); then
    echo "refused: earlier phases failed (${failed[*]}); nothing was written"
    return 3
  fi
  ((gpu)) || no_gpu || return
  tp regen --device cuda || { echo "regen refused or failed (regen.log)"; return 1; }
  mkdir -p "$out/golden" && cp "$root"/golden/*.h5 "$out/golden/"
  echo "wrote the /cuda groups of $(ls "$out/golden" | wc -l) goldens; copies in $out/golden"
}

phase_verify_all() {
  tp verify --device all --json "$out/verify-all.json" "${verify_only[@]}"
  local rc=$?
  grep -h "^verify:" "$out/verify-all.log" | tail -1
  return $rc
}

# ---- run them in order, and write the summary --------------------------------------------
names=(build ctest-cuda oracle-cuda deterministic cpu-vs-cuda aot-export nccl regen verify-all)
failed=() rows=()
for name in "${names[@]}"; do
  t0=$SECONDS
  log "phase $name"
  if [ "$name" != build ] && [ "$name" != regen ] && ! [ -x "$build/trainproof" ]; then
    detail="no build to run" rc=1
  else
    "phase_${name//-/_}" >"$out/$name.log" 2>&1
    rc=$?
    detail=$(tail -n 1 "$out/$name.log")  # each phase ends by printing its one-line detail
  fi
  case $rc in
    0) status=pass ;;
    "$SKIP") status=skipped ;;
    3) status=REFUSED; failed+=("$name") ;;
    *) status=FAIL; failed+=("$name") ;;
  esac
  rows+=("$(printf '%-14s %-8s %6ds  %s' "$name" "$status" $((SECONDS - t0)) "$(echo "$detail" | tail -1)")")
  log "phase $name: $status ($((SECONDS - t0)) s)"
done

{
  echo "trainproof gpu-run on $(hostname), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "gpu: $("$py" -c 'import torch; print(torch.cuda.get_device_name(0) if torch.cuda.is_available() else "none")' 2>/dev/null || echo "none ($py has no torch)")"
  echo
  printf '%-14s %-8s %7s  %s\n' phase status seconds detail
  printf '%s\n' "${rows[@]}"
  echo
  echo "total: ${SECONDS} s (the budget is 600 s on a 16-core machine with one GPU)"
  if ((${#failed[@]})); then
    echo "verdict: FAILED: ${failed[*]} (logs: $out/<phase>.log)"
  elif ((gpu == 0)); then
    echo "verdict: NO GPU: only the CPU was verified; run this on a GPU machine"
  else
    echo "verdict: passed; commit $out/golden/*.h5 (the /cuda groups)"
  fi
} >"$out/summary.txt"
cat "$out/summary.txt"
((${#failed[@]} == 0)) || exit 1
((gpu)) || exit 2
exit 0
