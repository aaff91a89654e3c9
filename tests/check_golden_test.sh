#!/usr/bin/env bash
# `trainproof check --golden`: --regen writes a golden of the loop's curve (its cross-machine
# tolerances measured on one more execution path) and a Markdown change report; the same loop
# holds it; a change to the training code that moves the curve breaks it; a loop that breaks a
# law is refused a golden; a missing or truncated golden is bad input (exit 2) naming the file.
#   check_golden_test.sh TRAINPROOF_BIN -- LOOP_COMMAND...   (LOOP_COMMAND gets --run-dir {run_dir})
set -uo pipefail
bin=$1
shift
[ "${1:-}" = "--" ] && shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=$tmp/out.log
fail() { echo "FAIL: $*"; cat "$log"; echo "0 passed, 1 failed"; exit 1; }
run() { "$bin" check "$@" >"$log" 2>&1; }
golden=$tmp/golden/loop.h5

run --regen --golden "$golden" --markdown "$tmp/pr.md" --path-set aten-default -- "$@" --run-dir '{run_dir}'
rc=$?
[ "$rc" -eq 0 ] || fail "--regen exit $rc"
[ -s "$golden" ] || fail "--regen wrote no golden"
grep -q "loss  *new (60 values, float64)" "$log" || fail "no per-series change report"
grep -q '`loss`' "$tmp/pr.md" || fail "no Markdown change report"

run --golden "$golden" -- "$@" --run-dir '{run_dir}'
rc=$?
[ "$rc" -eq 0 ] || fail "the unchanged loop does not hold its golden (exit $rc)"
grep -q "^held     the golden curve" "$log" || fail "the golden law is not reported held"

run --golden "$golden" -- "$@" --run-dir '{run_dir}' --dropout 0.2
rc=$?
[ "$rc" -eq 1 ] || fail "a change that moves the curve: exit $rc, expected 1"
grep -q "^BROKEN   the golden curve" "$log" || fail "the moved curve is not reported BROKEN"

cp "$golden" "$tmp/before.h5"
run --regen --golden "$golden" --path-set aten-default -- "$@" --run-dir '{run_dir}' --mistake unseeded-shuffle
rc=$?
[ "$rc" -eq 1 ] || fail "--regen over a broken law: exit $rc, expected 1"
grep -q "REFUSED: the law 'determinism" "$log" || fail "the refusal does not name the broken law"
cmp -s "$golden" "$tmp/before.h5" || fail "a refused --regen changed the golden"

run --golden "$tmp/golden/absent.h5" -- "$@" --run-dir '{run_dir}'
rc=$?
[ "$rc" -eq 2 ] || fail "a missing golden: exit $rc, expected 2"
grep -q "absent.h5: no such golden" "$log" || fail "the missing golden is not named"

head -c 3000 "$golden" >"$tmp/truncated.h5"
run --golden "$tmp/truncated.h5" -- "$@" --run-dir '{run_dir}'
rc=$?
[ "$rc" -eq 2 ] || fail "a truncated golden: exit $rc, expected 2"
grep -q "truncated.h5: .*truncated" "$log" || fail "the truncated golden is not named"
echo "check --golden: ok"
echo "1 passed, 0 failed"
