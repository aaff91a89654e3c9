#!/usr/bin/env bash
# `trainproof check` on an example loop (examples/python_loop, examples/cpp_loop): the correct
# loop holds every law; each planted mistake is caught by the law it breaks, and the message
# names that law.
#   check_test.sh TRAINPROOF_BIN MISTAKE EXPECTED_BROKEN_LAW WHAT_IT_SAYS KILLS -- LOOP_COMMAND...
# WHAT_IT_SAYS: text the broken law's message must hold (the step, the likely cause).
# LOOP_COMMAND gets `--run-dir {run_dir} --mistake MISTAKE`. MISTAKE `control-kill-between-writes`
# is the negative control of the kill-during-write: the correct loop, with the first kill moved
# off every write (TRAINPROOF_INJECT_FAULT). Evidence that a kill really landed during a write
# comes from the loop itself, not from check: on restart it reports the ckpt.pt.tmp it found.
# CHECK_FINDINGS: the finding ids (comma-separated, "-" for none) the probe must name, exactly,
# where it records the loop (the Python loop); unset for a loop without the probe.
# CHECK_KEEP: keep the runs there (the correct loop's uninterrupted trace, which the resume
# cases then take as CHECK_REFERENCE instead of running the loop uninterrupted twice again).
set -uo pipefail
bin=$1 mistake=$2 law=$3 says=$4 kills=$5
shift 5
[ "${1:-}" = "--" ] && shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out.log"; echo "0 passed, 1 failed"; exit 1; }
keep=${CHECK_KEEP:-$tmp/runs}
rm -rf "$keep"
reference=()
[ -n "${CHECK_REFERENCE:-}" ] && reference=(--reference "$CHECK_REFERENCE")
planted=$mistake
[ "$mistake" = control-kill-between-writes ] && planted=none
fault=
[ "$mistake" = control-kill-between-writes ] && fault=check-kill-between-writes
# A schedule mistake shows in one run: the second, uninterrupted run checks determinism only.
runs=2
[ "$law" = "the schedule" ] && runs=1
TRAINPROOF_INJECT_FAULT=$fault "$bin" check --kills "$kills" --runs "$runs" --seed 1 --keep "$keep" "${reference[@]}" --json "$tmp/r.json" \
  --expect-lr 'warmup-cosine --lr 3e-3 --warmup 6 --total 60' -- "$@" --run-dir '{run_dir}' --mistake "$planted" \
  >"$tmp/out.log" 2>&1
rc=$?
evidence="found an interrupted checkpoint write: ckpt.pt.tmp"
# What the restart after kill 1 printed (check heads each start in the log).
after_kill_1() { sed -n '/^--- trainproof check: start 2 (after kill 1) ---$/,/^--- trainproof check: start 3/p' "$keep/preempted.log"; }
case $mistake in
  none)
    [ "$rc" -eq 0 ] || fail "the correct loop broke a law (exit $rc)"
    for l in determinism "exact resume" "the schedule"; do
      grep -q "^held     $l" "$tmp/out.log" || fail "'$l' not held"
    done
    grep -q "kill 1 sent while ckpt.pt.tmp was being written" "$tmp/out.log" || fail "check says no kill hit a write"
    after_kill_1 | grep -q "$evidence" || fail "the restart after kill 1 found no interrupted write"
    ;;
  control-kill-between-writes)
    # Not the loop's failure: the law could not be tested (its own status and exit code).
    [ "$rc" -eq 4 ] || fail "exit $rc with the first kill off every write, expected 4 (a law not tested)"
    grep -q "^NOT TESTED exact resume" "$tmp/out.log" || fail "exact resume not reported NOT TESTED"
    grep -q "no kill landed during a write into the run folder" "$tmp/out.log" || fail "the missing write-kill is not reported"
    grep -q "kill 1 sent between writes" "$tmp/out.log" || fail "the control did not run"
    after_kill_1 | grep -q "^--- trainproof check: start 2" || fail "no restart after kill 1 in the log"
    if after_kill_1 | grep -q "$evidence"; then fail "the restart after kill 1 found an interrupted write"; fi
    ;;
  *)
    [ "$rc" -eq 1 ] || fail "exit $rc with the mistake $mistake planted, expected 1"
    grep -q "^BROKEN   $law" "$tmp/out.log" || fail "the law '$law' is not reported BROKEN"
    grep -A1 "^BROKEN   $law" "$tmp/out.log" | grep -qF -- "$says" || fail "the broken law does not say '$says'"
    # Two uninterrupted runs that differ: a departure after a restart blames no state, the
    # resume law is not tested (its control: the correct loop, case none, holds it).
    if [ "$law" = determinism ] && [ "$kills" -gt 0 ]; then
      grep -A1 "^NOT TESTED exact resume" "$tmp/out.log" | grep -q "two uninterrupted runs already differ" \
        || fail "exact resume is not reported NOT TESTED for runs that differ"
    fi
    ;;
esac
ids=$(python3 -c "import json, sys; print(','.join(sorted(f['id'] for f in json.load(open(sys.argv[1]))['findings'])))" \
  "$tmp/r.json") || fail "no JSON report with a findings list"
if [ -n "${CHECK_FINDINGS:-}" ]; then
  want=$(tr ',' '\n' <<<"${CHECK_FINDINGS#-}" | sed '/^$/d' | sort | paste -sd,)
  [ "$ids" = "$want" ] || fail "findings '$ids', expected exactly '$want'"
fi
echo "check $mistake: ok"
echo "1 passed, 0 failed"
