#!/usr/bin/env bash
# The exact-resume law is about values (tests/data/loops/rng_unused.py): a restart whose torch
# RNG state departs while every recorded value and the final parameters stay bitwise equal holds
# the law, the missing RNG state given as advice; with a Dropout drawing from that RNG
# (--mistake dropout) the values depart and the same missing state breaks the law, which a second
# uninterrupted run, made only because the resume departed, shows is the resume's. With a wall
# clock in the loop (--mistake clock) no two runs are equal: that second run differs, the resume
# is not tested, and no state is named missing. Its control (clock-control, replayed only: the
# fault resume-trusts-one-run skips that second run) names the false finding the guard prevents.
#   check_values_law_test.sh TRAINPROOF_BIN PYTHON none|dropout|clock|clock-control
# EVIDENCE=DIR (tests/support/evidence.sh): judged from the runs recorded in DIR/none|dropout|clock.
set -uo pipefail
bin=$1 py=$2 mistake=$3
if [ "$mistake" = clock-control ]; then
  [ -z "${REMAKE:-}" ] || { echo "clock-control: replays clock's evidence, remakes nothing"; echo "1 passed, 0 failed"; exit 0; }
  export TRAINPROOF_INJECT_FAULT=resume-trusts-one-run
fi
case_=${mistake%-control}
script=$(cd "$(dirname "$0")" && pwd)/data/loops/rng_unused.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out.log"; echo "0 passed, 1 failed"; exit 1; }
source "$(dirname "$0")/support/evidence.sh"  # EVIDENCE=DIR: judged from DIR/$mistake, recorded
evidence_check "$case_" "$tmp/r.json" --runs 1 --kills 1 --seed 3 --resume-args --resume -- "$py" "$script" \
  --out '{run_dir}' --mistake "$case_" >"$tmp/out.log" 2>&1
# The step the restart resumed at (which checkpoint kill 1 caught depends on timing): the
# departure is named there, at the restart's first step.
at=$(sed -n 's/.*restart 1 resumed at step \([0-9][0-9]*\) .*/\1/p' "$tmp/out.log" | head -1)
[ -n "$at" ] && [ "$at" -gt 1 ] || fail "no restart resumed from a checkpoint (resumed at step ${at:-none})"
case $mistake in
  none)
    [ "$rc" -eq 0 ] || fail "exit $rc, expected 0: a state nothing depends on broke the resume"
    grep -q "^held     exact resume" "$tmp/out.log" || fail "exact resume not held"
    grep -q "^advice   \[resume-missing-rng-state\] exact resume at step $at " "$tmp/out.log" ||
      fail "the missing RNG state is not given as advice at step $at, where the restart resumed"
    grep -q "nothing in this run depends on that state yet" "$tmp/out.log" || fail "the advice does not say why"
    grep -q "determinism" "$tmp/out.log" && fail "a resume that held made a second run (determinism judged)" ;;
  dropout)
    [ "$rc" -eq 1 ] || fail "exit $rc, expected 1"
    grep -q "^BROKEN   exact resume" "$tmp/out.log" || fail "exact resume not broken"
    grep -q "^BROKEN   \[resume-missing-rng-state\] exact resume at step $at " "$tmp/out.log" ||
      fail "resume-missing-rng-state not BROKEN at step $at, where the restart resumed"
    grep -q "^held     determinism" "$tmp/out.log" ||
      fail "the resume departed on one run, and no second run showed the loop deterministic" ;;
  clock)
    [ "$rc" -eq 1 ] || fail "exit $rc, expected 1 (determinism broken)"
    grep -q "^BROKEN   determinism" "$tmp/out.log" || fail "two runs of a loop with a clock in it judged equal"
    grep -q "^NOT TESTED exact resume" "$tmp/out.log" || fail "the resume of a loop that is not deterministic was judged"
    grep -q "but two uninterrupted runs already differ" "$tmp/out.log" || fail "the resume's verdict does not say why"
    grep -q "\[resume-" "$tmp/out.log" && fail "a state was named missing from a resume of a loop that is not deterministic" ;;
  clock-control)
    grep -qE "^BROKEN   \[resume-[a-z-]*\] exact resume" "$tmp/out.log" ||
      fail "with one run trusted, the departure of the clock's resume was not named as the resume's (the control shows nothing)" ;;
esac
echo "exact resume with $mistake: as expected (exit $rc)"
evidence_passed "$case_"
