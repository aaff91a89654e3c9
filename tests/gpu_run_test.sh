#!/usr/bin/env bash
# tools/gpu-run.sh's CPU-side logic, with CUDA absent: every phase runs in order and is
# accounted for in the summary (status and seconds), the GPU phases skip with the reason,
# verify-all still runs, and regen is refused when an earlier phase failed. timeout: a phase
# that hangs is killed at its limit, with all it started, and the summary said how far the run
# had got while it hung; commands: --command a then b, the folder $OUT/gpu-results by default,
# b's summary holding a's rows.
#   gpu_run_test.sh BUILD_DIR VENV_PYTHON no-gpu | refused | timeout | commands
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1 py=$2 case=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out/summary.txt" 2>/dev/null; echo "0 passed, 1 failed"; exit 1; }
phases="build triage ctest-cuda oracle-cuda deterministic cpu-vs-cuda aot-export nccl regen verify-all"
expect_status() { grep -Eq "^$1 +$2 " "$tmp/out/summary.txt" || fail "phase $1 is not $2"; }
case $case in
  no-gpu)
    bash "$root/tools/gpu-run.sh" --build-dir "$build" --no-build --python "$py" --out "$tmp/out" \
      --verify-only underflow >"$tmp/log" 2>&1
    rc=$?
    [ "$rc" -eq 2 ] || fail "exit $rc without a GPU, expected 2"
    expect_status build pass
    for p in triage ctest-cuda oracle-cuda deterministic cpu-vs-cuda aot-export nccl regen; do expect_status "$p" skipped; done
    expect_status verify-all pass
    grep -q '"underflow"' "$tmp/out/verify-all.json" || fail "verify-all did not verify underflow"
    grep -q '"warmup_cosine"' "$tmp/out/verify-all.json" && fail "verify-all verified more than --verify-only named"
    grep -q "no GPU: .*torch.cuda.is_available() is False" "$tmp/out/summary.txt" || fail "no reason for the skips"
    grep -q "^verdict: NO GPU" "$tmp/out/summary.txt" || fail "the verdict does not say there was no GPU"
    [ ! -d "$tmp/out/golden" ] || fail "goldens were written without a GPU"
    ;;
  refused)
    bash "$root/tools/gpu-run.sh" --build-dir "$build" --no-build --python /bin/false --out "$tmp/out" \
      --verify-only underflow >"$tmp/log" 2>&1
    rc=$?
    [ "$rc" -eq 1 ] || fail "exit $rc after a failed phase, expected 1"
    grep -Eq "^build +FAIL " "$tmp/out/summary.txt" || fail "the build phase did not fail"
    grep -Eq "^regen +REFUSED .*earlier phases failed \(build\)" "$tmp/out/summary.txt" || fail "regen was not refused"
    grep -q "^verdict: FAILED: build regen" "$tmp/out/summary.txt" || fail "the verdict does not name the failures"
    ;;
  timeout)
    TRAINPROOF_INJECT_FAULT=gpu-run-hangs-in-verify-all TRAINPROOF_GPU_PHASE_LIMITS="verify-all=4" \
      bash "$root/tools/gpu-run.sh" --build-dir "$build" --no-build --python "$py" --out "$tmp/out" \
      --verify-only underflow >"$tmp/log" 2>&1 &
    run=$!
    seen=""
    # While verify-all hangs, the summary already holds what went before (up to 60 s to get
    # there: on a loaded machine the phases before it took over 10 s).
    for _ in $(seq 600); do
      kill -0 "$run" 2>/dev/null || break
      if grep -Eq "^verify-all +running " "$tmp/out/summary.txt" 2>/dev/null; then
        seen=$(cat "$tmp/out/summary.txt")
        break
      fi
      sleep 0.1
    done
    wait "$run"
    rc=$?
    [ -n "$seen" ] || fail "the summary never showed verify-all running"
    grep -Eq "^build +pass " <<<"$seen" || fail "the summary written during the hang lacks the build's row"
    grep -q "^verdict: running (phase verify-all)" <<<"$seen" || fail "the summary during the run has no running verdict"
    [ "$rc" -eq 1 ] || fail "exit $rc with a phase past its limit, expected 1"
    expect_status verify-all TIMEOUT
    grep -Eq "^verify-all +TIMEOUT .*killed after 4 s, its limit" "$tmp/out/summary.txt" || fail "the kill is not said"
    grep -q "^verdict: FAILED: verify-all" "$tmp/out/summary.txt" || fail "the verdict does not name the hung phase"
    pgrep -xf "sleep 3600" >/dev/null && fail "the hung phase's process outlived its kill"
    ;;
  commands)
    OUT=$tmp/o bash "$root/tools/gpu-run.sh" --build-dir "$build" --no-build --python "$py" --command a >"$tmp/log" 2>&1
    [ -f "$tmp/o/gpu-results/summary.txt" ] || fail "--out is not \$OUT/gpu-results by default"
    a=$(cat "$tmp/o/gpu-results/summary.txt")
    grep -Eq "^build +pass " <<<"$a" || fail "command a did not run its build phase"
    grep -Eq "^oracle-cuda +pending " <<<"$a" || fail "command a ran a phase of command b"
    bash "$root/tools/gpu-run.sh" --build-dir "$build" --python "$py" --out "$tmp/o/gpu-results" --command b \
      --verify-only underflow >"$tmp/log" 2>&1
    rc=$?
    [ "$rc" -eq 2 ] || fail "exit $rc without a GPU, expected 2"
    mkdir -p "$tmp/out" && cp "$tmp/o/gpu-results"/* "$tmp/out/"
    expect_status build pass  # a's row, kept
    expect_status verify-all pass
    grep -q "(--no-build)" "$tmp/out/build.log" || fail "command b ran a build phase, or lost a's log"
    ;;
  *) echo "unknown case $case" >&2; exit 2 ;;
esac
# Every phase, in order, with whole seconds that add up to no more than the total.
listed=$(awk 'f && NF == 0 {exit} f {print $1} /^phase +status/ {f = 1}' "$tmp/out/summary.txt" | tr '\n' ' ')
[ "$listed" = "$phases " ] || fail "phases listed: '$listed', expected '$phases '"
sum=$(awk 'f && NF == 0 {exit} f {sub("s$", "", $3); s += $3} /^phase +status/ {f = 1} END {print s + 0}' "$tmp/out/summary.txt")
total=$(sed -n 's/^total: \([0-9]*\) s.*/\1/p' "$tmp/out/summary.txt")
[ -n "$total" ] && [ "$sum" -le "$total" ] || fail "phase seconds ($sum) do not fit the total ($total)"
for p in $phases; do [ -f "$tmp/out/$p.log" ] || fail "no log for phase $p"; done
echo "gpu-run $case: ok"
echo "1 passed, 0 failed"
