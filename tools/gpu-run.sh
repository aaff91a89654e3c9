#!/usr/bin/env bash
# Verifies a GPU machine in one go, and proves things before it writes anything. Phases, in
# order, each timed, each killed past its limit, and logged under the results folder:
#   build         configure and build against this machine's own CUDA PyTorch (its version)
#   triage        before anything starts children: `run resume_exact --device cpu` (no child:
#                 a crash there is not fork's), the CUDA libraries the binary loads, the
#                 std::filesystem symbols it binds (LD_DEBUG), and a crash's stack
#   ctest-cuda    every CUDA invariant (the gtest CUDA tests, one process that reruns the
#                 rest after a crash, so one scenario's crash hides no other)
#   oracle-cuda   the Python twins on CUDA against the C++ scenarios on CUDA, bitwise
#   deterministic two CUDA runs of every scenario with deterministic algorithms: bitwise equal
#   cpu-vs-cuda   the committed CPU goldens against the CUDA traces, each series within the
#                 ceiling its scenario declares (not the recipes that differ by design)
#   aot-export    compile_speed's AOTInductor package exported for CUDA here, and timed
#   nccl          the data-parallel scenarios on NCCL ranks (one per GPU; N=1 on one GPU)
#   regen         regen --device cuda: refused when any earlier phase failed
#   verify-all    verify --device all against the goldens
#   tools/gpu-run.sh [--out DIR] [--deps DIR] [--python PY] [--build-dir DIR] [--no-build]
#                    [--command a|b] [--verify-only 'SCENARIO...']
# --command a: build, triage and ctest-cuda; --command b: the rest, on that build (--no-build).
#   Each fits one 10-minute device call; b reads a's results from the same --out folder (a
#   failure there still refuses regen). Without --command, every phase.
# --verify-only: verify-all verifies only these scenarios (the script's own tests take one).
# DIR (default $OUT/gpu-results where $OUT is set, else gpu-results/) gets one log per phase,
# and summary.txt (a table a person reads in a minute), rewritten after every phase so that a
# run cut short still says how far it got; after a regen, golden/ (the files to commit). A
# phase that needs a GPU is skipped, with the reason, where there is none. A phase past its
# limit (seconds: LIMITS below; TRAINPROOF_GPU_PHASE_LIMITS="PHASE=S ..." overrides) is killed, TIMEOUT.
# Exit 0 when every phase passed, 1 when one failed (or regen was refused), 2 when there is
# no GPU to verify. The build dependencies other than PyTorch come from tools/gpu-prepare.sh
# (run where package registries are).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:+$OUT/gpu-results} deps=$root/.gpu-deps py=python3 build=$root/build-gpu no_build=0 verify_only=()
out=${out:-$root/gpu-results} command=all
while (($#)); do
  case $1 in
    --out) out=$2; shift ;;
    --deps) deps=$2; shift ;;
    --python) py=$2; shift ;;
    --build-dir) build=$2; shift ;;
    --no-build) no_build=1 ;;
    --command) command=$2; shift ;;
    --verify-only) read -ra verify_only <<<"$2"; shift ;;
    *) echo "gpu-run: unknown argument $1 (see the header of $0)" >&2; exit 2 ;;
  esac
  shift
done
names=(build triage ctest-cuda oracle-cuda deterministic cpu-vs-cuda aot-export nccl regen verify-all)
case $command in
  all) selected=("${names[@]}") ;;
  a) selected=(build triage ctest-cuda) ;;
  b) selected=(oracle-cuda deterministic cpu-vs-cuda aot-export nccl regen verify-all) no_build=1 ;;
  *) echo "gpu-run: --command $command: expected a or b" >&2; exit 2 ;;
esac
# Each phase's limit in seconds, within the 600 s of one device call.
declare -A LIMITS=([build]=420 [triage]=60 [ctest-cuda]=240 [oracle-cuda]=120 [deterministic]=120 [cpu-vs-cuda]=60
                   [aot-export]=120 [nccl]=120 [regen]=120 [verify-all]=120)
for o in ${TRAINPROOF_GPU_PHASE_LIMITS:-}; do  # "PHASE=SECONDS ...": a limit of one's own
  [ -n "${LIMITS[${o%%=*}]:-}" ] || { echo "gpu-run: TRAINPROOF_GPU_PHASE_LIMITS: no phase ${o%%=*}" >&2; exit 2; }
  LIMITS[${o%%=*}]=${o#*=}
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
: >>"$out/gpu-run.log"
log() { printf '[gpu-run %4ds] %s\n' "$SECONDS" "$*" | tee -a "$out/gpu-run.log" >&2; }
tp() { "$build/trainproof" "$@"; }
SKIP=77

# The tools and libraries the build found, for every phase (with --no-build too).
if [ -d "$deps" ]; then
  export LD_LIBRARY_PATH=$deps/hdf5/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  if ! command -v cmake >/dev/null || ! command -v ninja >/dev/null; then
    export PATH=/tmp/trainproof-tools/bin:$PATH PYTHONPATH=/tmp/trainproof-tools${PYTHONPATH:+:$PYTHONPATH}
  fi
fi

gpu=0  # one start of PyTorch for both: it takes seconds
gpu_name=$("$py" -c 'import torch; print(torch.cuda.get_device_name(0) if torch.cuda.is_available() else "none")' \
  2>/dev/null) || gpu_name="none ($py has no torch)"
[ -n "$gpu_name" ] && [ "${gpu_name%% *}" != none ] && gpu=1
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
  [ -d "$deps" ] || { echo "no $deps: run tools/gpu-prepare.sh on a machine with package registries"; return 1; }
  if ! command -v cmake >/dev/null || ! command -v ninja >/dev/null; then
    "$py" -m pip install -q --no-index --no-deps --target /tmp/trainproof-tools "$deps"/wheels/*.whl
  fi
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTorch_DIR="$torch_cmake/Torch" \
    -DCMAKE_PREFIX_PATH="$deps/root/usr;$deps/root/usr/lib/x86_64-linux-gnu/cmake" \
    -DHDF5_ROOT="$deps/hdf5" -DHDF5_NO_FIND_PACKAGE_CONFIG_FILE=ON -DHDF5_C_COMPILER_EXECUTABLE=/nonexistent \
    "$python_opt" || { echo "configure failed (build.log)"; return 1; }
  cmake --build "$build" -j "$(nproc)" || { echo "build failed (build.log)"; return 1; }
  echo "torch $version; $(grep -h 'trainproof:' "$out/build.log" | tr '\n' ' ')"
}

phase_triage() {
  ((gpu)) || no_gpu || return
  local bin=$build/trainproof-cuda code
  [ -x "$bin" ] || bin=$build/trainproof
  echo "== $bin run resume_exact --device cpu (it starts no child: a crash here is not fork's)"
  "$bin" run resume_exact --device cpu
  code=$?
  echo "== the CUDA libraries it loads, and libstdc++"
  ldd "$bin" | grep -E 'cudart|nccl|cufile|libstdc\+\+|libtorch_cpu'
  echo "== std::filesystem symbols, and the library each binds to (LD_DEBUG=bindings; list starts no child)"
  LD_DEBUG=bindings LD_DEBUG_OUTPUT=$out/triage-bindings "$bin" list >/dev/null 2>&1
  grep -h 'filesystem' "$out"/triage-bindings.* 2>/dev/null | sed 's/^ *[0-9]*: *//' | sort | uniq -c | sort -rn | head -40
  rm -f "$out"/triage-bindings.*
  if ((code != 0)) && command -v gdb >/dev/null; then
    echo "== its stack, under gdb"
    gdb -batch -ex run -ex bt --args "$bin" run resume_exact --device cpu 2>&1 | tail -60
  fi
  echo "run resume_exact --device cpu: exit $code$( ((code > 128)) && echo " (signal $((code - 128)); its stack is above)")"
  ((code == 0))
}

# The gtest CUDA tests in one process; after a crash, the ones it had not finished run again in
# a fresh one, less the test that crashed: a crash hides no other test.
phase_ctest_cuda() {
  ((gpu)) || no_gpu || return
  local filter='*CudaScenarioTest.*:CudaAmpRecipesTest.*:DeviceCheckTest.*' tests=$build/tests/trainproof_tests
  local done=() crashed=() rc=0 round=0 skip run_log
  [ -x "$tests" ] || { echo "no $tests"; return 1; }
  while ((round < 20)); do
    round=$((round + 1))
    skip=$(IFS=:; echo "${done[*]}${done:+:}${crashed[*]}")
    run_log=$out/ctest-cuda.round$round.log
    (cd "$root" && TRAINPROOF_BIN=$build/trainproof "$tests" "--gtest_filter=$filter${skip:+-$skip}") >"$run_log" 2>&1
    local code=$?
    cat "$run_log"
    mapfile -t finished < <(sed -n 's/^\[ *\(OK\|FAILED\|SKIPPED\) *\] \([A-Za-z0-9_./]*\) (.*/\2/p' "$run_log")
    done+=("${finished[@]}")
    grep -q '^\[  FAILED  \]' "$run_log" && rc=1
    ((code <= 128)) && break
    local last
    last=$(sed -n 's/^\[ RUN      \] //p' "$run_log" | tail -1)
    [ -n "$last" ] || { echo "the test binary crashed before any test (exit $code)"; return 1; }
    crashed+=("$last")
    echo "== $last crashed (exit $code, signal $((code - 128))); the rest again, without it"
    rc=1
  done
  local passed
  passed=$(cat "$out"/ctest-cuda.round*.log | grep -c '^\[       OK \]')
  echo "${passed} CUDA tests passed in $round process(es); crashed: ${crashed[*]:-none}"
  ((passed > 0)) || { echo "no CUDA test ran"; return 1; }
  return $rc
}

phase_oracle_cuda() {
  ((gpu)) || no_gpu || return
  local all cuda none
  all=$("$py" "$root/tools/reference/scenarios.py" --list | sort)
  cuda=$("$py" "$root/tools/reference/scenarios.py" --device cuda --list | sort)
  none=$(comm -23 <(echo "$all") <(echo "$cuda") | tr '\n' ' ')
  (cd "$root" && ctest --test-dir "$build" -R '^OracleCudaTest[.]' --no-tests=error --output-on-failure -j 4)
  local rc=$?
  echo "$(grep -h 'tests passed' "$out/oracle-cuda.log" | tail -1); the failures are where the GPU's kernels" \
    "and Python's differ (the log shows each series); twins still CPU-only: ${none:-none}"
  return $rc
}

phase_deterministic() {
  ((gpu)) || no_gpu || return
  local s rc=0 differ=() compared=0 listed
  listed=$(scenarios) || { echo "trainproof list failed: nothing to compare"; return 1; }
  tp regen --device cuda --golden "$out/trace-a" || rc=1
  tp regen --device cuda --golden "$out/trace-b" || rc=1
  for s in $listed; do
    [ "$s" = compile_speed ] && continue  # its series are timings
    [ -f "$out/trace-a/$s.h5" ] || continue
    compared=$((compared + 1))
    tp compare "$out/trace-a/$s.h5" "$out/trace-b/$s.h5" --device cuda --tolerance exact || differ+=("$s")
  done
  echo "two CUDA runs of $compared scenarios: ${#differ[@]} differ${differ:+: ${differ[*]}} (compile_speed's" \
    "timings not compared)"
  ((rc == 0 && compared > 0 && ${#differ[@]} == 0))
}

phase_cpu_vs_cuda() {
  ((gpu)) || no_gpu || return
  local s outside=() compared=0
  # A series its scenario declares to differ across devices by design (dropout masks from the
  # device's own generator, the autocast recipe, a per-device refusal) and an informational one
  # (a timing, a hash) are left out by compare itself, each row saying why.
  for s in $(scenarios); do
    [ -f "$out/trace-a/$s.h5" ] || continue
    compared=$((compared + 1))
    tp compare "$root/golden/$s.h5" "$out/trace-a/$s.h5" --device cpu --observed-device cuda --tolerance ceiling \
      || outside+=("$s")
  done
  echo "$compared scenarios, CPU golden against CUDA within each series' ceiling: ${#outside[@]} outside" \
    "${outside:+(${outside[*]})}; $(grep -c 'differs across devices by design' "$out/cpu-vs-cuda.log") series" \
    "left out as differing by design"
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
  (cd "$root" && ctest --test-dir "$build" -R 'DistributedTest[.]Nccl' --no-tests=error --output-on-failure) || rc=1
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

# ---- run them in order, each in its own process group (killed whole past its limit), and
# write the summary after each -----------------------------------------------------------------
declare -A status seconds detail
# A phase this command does not run keeps the row an earlier command wrote in the same folder.
if [ -f "$out/summary.txt" ]; then
  while read -r name st secs rest; do
    [ -n "${LIMITS[$name]:-}" ] || continue
    status[$name]=$st seconds[$name]=${secs%s} detail[$name]=$rest
  done < <(awk 'f && NF == 0 {exit} f {print} /^phase +status/ {f = 1}' "$out/summary.txt")
fi

# The phases that failed so far (FAIL, REFUSED, TIMEOUT), into the array `failed`: what the
# summary's verdict names, and what refuses regen.
failed_phases() {
  local name
  failed=()
  for name in "${names[@]}"; do
    case ${status[$name]:-} in FAIL | REFUSED | TIMEOUT) failed+=("$name") ;; esac
  done
}

write_summary() {
  local name failed
  failed_phases
  {
    echo "trainproof gpu-run on $(hostname), $(date -u +%Y-%m-%dT%H:%M:%SZ) (--command $command)"
    echo "gpu: $gpu_name"
    echo
    printf '%-14s %-8s %7s  %s\n' phase status seconds detail
    for name in "${names[@]}"; do
      printf '%-14s %-8s %6ds  %s\n' "$name" "${status[$name]:-pending}" "${seconds[$name]:-0}" "${detail[$name]:-}"
    done
    echo
    local earlier=0
    for name in "${names[@]}"; do
      [[ " ${selected[*]} " == *" $name "* ]] || earlier=$((earlier + ${seconds[$name]:-0}))
    done
    echo "total: $((SECONDS + earlier)) s (${SECONDS} s this command, ${earlier} s earlier ones; the budget is 600 s" \
      "a device call)"
    if [ "${1:-}" != final ]; then
      echo "verdict: running (phase ${running:-?})"
    elif ((${#failed[@]})); then
      echo "verdict: FAILED: ${failed[*]} (logs: $out/<phase>.log)"
    elif ((gpu == 0)); then
      echo "verdict: NO GPU: only the CPU was verified; run this on a GPU machine"
    elif [ "$command" = a ]; then
      echo "verdict: command a passed; run command b (--command b) with this --out"
    else
      echo "verdict: passed; commit $out/golden/*.h5 (the /cuda groups)"
    fi
  } >"$out/summary.txt.tmp" && mv "$out/summary.txt.tmp" "$out/summary.txt"
}

# Whether a process runs (a zombie, ended and not yet waited for, does not: kill -0 says it does).
running_pid() {
  local state
  state=$(sed -n 's/.*) \([A-Z]\) .*/\1/p' "/proc/$1/stat" 2>/dev/null)
  [ -n "$state" ] && [ "$state" != Z ]
}

set -m  # each phase a process group of its own: past its limit, killed with all it started
for name in "${selected[@]}"; do
  t0=$SECONDS running=$name
  limit=${LIMITS[$name]}
  status[$name]=running seconds[$name]=0 detail[$name]=""
  write_summary
  log "phase $name (limit $limit s)"
  failed_phases
  if [ "$name" != build ] && [ "$name" != regen ] && ! [ -x "$build/trainproof" ]; then
    detail[$name]="no build to run" rc=1
  else
    (
      [[ ",${TRAINPROOF_INJECT_FAULT:-}," == *",gpu-run-hangs-in-$name,"* ]] && sleep 3600
      "phase_${name//-/_}"
    ) >"$out/$name.log" 2>&1 &
    pid=$!
    timed_out=0
    while running_pid "$pid"; do
      if ((SECONDS - t0 >= limit)); then
        kill -TERM -- "-$pid" 2>/dev/null
        sleep 2
        kill -KILL -- "-$pid" 2>/dev/null
        timed_out=1
        break
      fi
      sleep 0.2
    done
    wait "$pid" 2>/dev/null
    rc=$?
    detail[$name]=$(tail -n 1 "$out/$name.log")  # each phase ends by printing its one-line detail
    ((timed_out)) && rc=124 detail[$name]="killed after $limit s, its limit (the log $name.log ends: ${detail[$name]})"
  fi
  case $rc in
    0) status[$name]=pass ;;
    "$SKIP") status[$name]=skipped ;;
    3) status[$name]=REFUSED ;;
    124) status[$name]=TIMEOUT ;;
    *) status[$name]=FAIL ;;
  esac
  seconds[$name]=$((SECONDS - t0))
  log "phase $name: ${status[$name]} (${seconds[$name]} s)"
  write_summary
done
write_summary final
cat "$out/summary.txt"
grep -q "^verdict: FAILED" "$out/summary.txt" && exit 1
((gpu)) || exit 2
exit 0
