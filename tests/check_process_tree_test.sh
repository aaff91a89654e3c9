#!/usr/bin/env bash
# `check --kills` reaches every process of the command: DataLoader workers (num_workers=2, in
# the command's process group) and torchrun's ranks (torchrun --nproc-per-node 2 starts them in
# sessions of their own). The resume law holds, and no process of the run outlives its
# launcher or the check (tests/process_tree_watch.py). Negative control: a kill that reaches
# the process group only (TRAINPROOF_INJECT_FAULT=kill-misses-other-sessions) leaves
# torchrun's ranks alive, training on, and the watch finds them.
#   check_process_tree_test.sh TRAINPROOF_BIN PYTHON TORCHRUN workers|torchrun|control
set -uo pipefail
bin=$1 python=$2 torchrun=$3 case=$4
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
loop=$here/data/loops/workers_loop.py
case $case in
  workers) cmd=("$python" "$loop" --out '{run_dir}') ;;
  *) cmd=("$torchrun" --standalone --nproc-per-node 2 "$loop" --out '{run_dir}' --workers 0) ;;
esac
fault="" watch=()
# The control ends at its first survivor: the rest of its run tells nothing.
[ "$case" = control ] && fault=kill-misses-other-sessions watch=(--stop-at-survivor)
# --seed 10: the kill armed at step 11, so four checkpoint writes (steps 15-30) can take it, not
# the default seed's three (step 18): once, on a loaded CI machine, start 1 outran all three.
# CHECK_KEEP: keep the runs there (the torchrun case's uninterrupted trace is the control's
# CHECK_REFERENCE: the control needs only its preempted run).
keep=${CHECK_KEEP:-$tmp/keep}
rm -rf "$keep"
reference=()
[ -n "${CHECK_REFERENCE:-}" ] && reference=(--reference "$CHECK_REFERENCE")
TRAINPROOF_INJECT_FAULT=$fault "$python" "$here/process_tree_watch.py" "${watch[@]}" "$keep" -- \
  "$bin" check --kills 1 --runs 1 --seed 10 "${reference[@]}" --resume-args '--resume' --keep "$keep" -- "${cmd[@]}" \
  >"$tmp/out.log" 2>&1
rc=$?
fail() { echo "FAIL: $*"; cat "$tmp/out.log"; echo "0 passed, 1 failed"; exit 1; }
if [ "$case" = control ]; then
  grep -q "^survivors: [1-9]" "$tmp/out.log" || fail "with the kill reaching the group only, no rank survived it"
else
  [ "$rc" -eq 0 ] || fail "check exited $rc"
  grep -q "kill 1 sent while" "$tmp/out.log" || fail "the kill did not land during a write"
  grep -q "^held     exact resume" "$tmp/out.log" || fail "the resume law does not hold"
  grep -q "^survivors: 0$" "$tmp/out.log" || fail "a process of the run outlived its launcher or the check"
fi
echo "check kills the whole process tree ($case): ok"
echo "1 passed, 0 failed"
