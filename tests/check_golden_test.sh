#!/usr/bin/env bash
# `trainproof check --golden`: --regen writes a golden of the loop's curve (its cross-machine
# tolerances measured on one more execution path) and a Markdown change report; the same loop
# holds it; a change to the training code that moves the curve breaks it; a loop that breaks a
# law is refused a golden; a missing or truncated golden is bad input (exit 2) naming the file.
#   check_golden_test.sh TRAINPROOF_BIN -- LOOP_COMMAND...   (LOOP_COMMAND gets --run-dir {run_dir})
# CHECK_GOLDEN_KEEP: a folder to keep the golden --regen wrote in, as loop.h5.
set -uo pipefail
bin=$1
shift
[ "${1:-}" = "--" ] && shift
loop=("$@" --run-dir '{run_dir}')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=$tmp/out.log
source "$(dirname "$0")/support/check_expect.sh"
golden=$tmp/golden/loop.h5

expect 0 "--regen" --regen --golden "$golden" --markdown "$tmp/pr.md" --path-set aten-default
[ -s "$golden" ] || fail "--regen wrote no golden"
# CHECK_GOLDEN_KEEP: keep the golden there (the gate test's consumer starts from it).
if [ -n "${CHECK_GOLDEN_KEEP:-}" ]; then
  mkdir -p "$CHECK_GOLDEN_KEEP" && cp "$golden" "$CHECK_GOLDEN_KEEP/loop.h5" || fail "cannot keep the golden"
fi
says "loss  *new \(60 values, float64\)" "no per-series change report"
grep -q '`loss`' "$tmp/pr.md" || fail "no Markdown change report"

# Holding a golden needs one run (--runs 1): determinism is checked where the golden is made.
expect 0 "the unchanged loop does not hold its golden" --golden "$golden" --runs 1
says "^held     the golden curve" "the golden law is not reported held"

expect 1 "a change that moves the curve" --golden "$golden" --runs 1 -- --dropout 0.2
says "^BROKEN   the golden curve" "the moved curve is not reported BROKEN"

cp "$golden" "$tmp/before.h5"
# (A law that one run shows broken: a broken determinism would add the op-level rerun's starts.)
expect 1 "--regen over a broken law" --regen --golden "$golden" --path-set aten-default \
  --expect-lr 'warmup-cosine --lr 3e-3 --warmup 6 --total 60' -- --mistake short-warmup
says "REFUSED: the law 'the schedule" "the refusal does not name the broken law"
says "other execution path\(s\) not run: a broken law refuses the golden" "the paths ran for a refused golden"
cmp -s "$golden" "$tmp/before.h5" || fail "a refused --regen changed the golden"

expect 2 "a missing golden" --golden "$tmp/golden/absent.h5"
says "absent.h5: no such golden" "the missing golden is not named"

head -c 3000 "$golden" >"$tmp/truncated.h5"
expect 2 "a truncated golden" --golden "$tmp/truncated.h5"
says "truncated.h5: .*truncated" "the truncated golden is not named"
echo "check --golden: ok"
echo "1 passed, 0 failed"
