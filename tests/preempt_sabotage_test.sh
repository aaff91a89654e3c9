#!/usr/bin/env bash
# `trainproof preempt --sabotage MODE`: the sabotaged resume is caught (exit 1) and the trial
# names what the sabotage took: the piece of state its checkpoints lack, the data position a
# restart got wrong, or the torn checkpoints a restart found.
#   preempt_sabotage_test.sh TRAINPROOF_BIN MODE TRIALS
set -uo pipefail
bin=$1 mode=$2 trials=$3
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail() { echo "FAIL: $*"; cat "$out"; echo "0 passed, 1 failed"; exit 1; }
"$bin" preempt --trials "$trials" --steps 200 --sabotage "$mode" >"$out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "exit $rc with --sabotage $mode, expected 1"
case $mode in
  drop-optimizer) says="its checkpoints lack the optimizer$" ;;
  drop-scheduler) says="its checkpoints lack the scheduler$" ;;
  drop-scaler) says="its checkpoints lack the GradScaler$" ;;
  drop-rng) says="its checkpoints lack the RNG$" ;;
  drop-data-position) says="the data position differs: batch " ;;
  non-atomic-save) says="damaged checkpoints seen [1-9]" ;;
  *) fail "unknown mode $mode" ;;
esac
grep "DIFFERENT" "$out" | grep -q -- "$says" || fail "no DIFFERENT trial says '$says'"
echo "preempt --sabotage $mode: ok"
echo "1 passed, 0 failed"
