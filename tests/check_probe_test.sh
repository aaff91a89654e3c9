#!/usr/bin/env bash
# `trainproof check` on a script that imports nothing from trainproof (examples/python_plain):
# the probe records it, a restart gets --resume-args, and a broken resume names the missing
# state by its finding id, at the first step after the restart, and names nothing else. The
# correct script (MISTAKE none) holds every law and draws no finding.
#   check_probe_test.sh TRAINPROOF_BIN PYTHON MISTAKE[,MISTAKE...] [FINDING_ID[,FINDING_ID...]]
# Several mistakes (joined by commas) are planted in one run, each start of the script costing
# seconds: it must name exactly their findings. Mistakes that hide one another stay apart (a
# missing data position is named only while every RNG agrees).
# CHECK_KEEP: keep the runs there (the correct script's, whose uninterrupted trace the mistakes
# then take as CHECK_REFERENCE: a resume mistake changes nothing before the first restart).
# CHECK_HTML: write the HTML report there, and hold it to what a resume mistake's report shows:
# the runs plotted, the kill, the restart and the first departure marked, each finding at its step.
# CHECK_RUN: a kept run of a group the mistake was planted in, already judged as a whole: this
# test reads its own finding there (step, line, the first step after the restart) and starts nothing.
set -uo pipefail
bin=$1 py=$2 mistake=$3 want=${4:-}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out.log"; echo "0 passed, 1 failed"; exit 1; }
# Each wanted finding printed BROKEN, at the step and line the probe saw it: the torch.save onto
# the live checkpoint, or the optimizer step of the step the restart resumed at.
line_of() { grep -nF -- "$1" "$src/examples/python_plain/train.py" | head -1 | cut -d: -f1; }
named_at_its_line() {
  local id=$1 at
  grep -q "^BROKEN   \[$id\] exact resume" "$tmp/out.log" || fail "$id is not printed as BROKEN"
  case $id in
    non-atomic-checkpoint) grep -A1 "\[$id\]" "$tmp/out.log" | grep -qF "(train.py:$(line_of "torch.save(state, ckpt)"))" \
                             || fail "$id is not named at the torch.save onto the checkpoint" ;;
    *) at=$(sed -n 's/.*restart 1 resumed at step \([0-9]*\) (.*/\1/p' "$tmp/out.log" | head -1)
       [ -n "$at" ] || fail "restart 1 did not say where it resumed"
       grep -qF "[$id] exact resume at step $at (train.py:$(line_of "scaler.step(opt)"))" "$tmp/out.log" \
         || fail "$id is not named at step $at, where restart 1 resumed, on scaler.step(opt)"
       grep -A1 "\[$id\]" "$tmp/out.log" | grep -q "the first after restart" \
         || fail "$id is not at the first step after a restart" ;;
  esac
}
ids_of() {
  "$py" -c 'import json, sys; print(" ".join(f["id"] for f in json.load(open(sys.argv[1]))["findings"]))' "$1" \
    || fail "no JSON report with a findings list"
}
if [ -n "${CHECK_RUN:-}" ]; then  # planted with others: its group's run
  cp "$CHECK_RUN/out.log" "$tmp/out.log" || fail "no kept run in $CHECK_RUN"
  ids=$(ids_of "$CHECK_RUN/r.json")
  [ "$(tr ' ' '\n' <<<"$ids" | grep -cx -- "$want")" -eq 1 ] || fail "findings '$ids', expected one $want"
  named_at_its_line "$want"
  echo "check probe $mistake (planted with others): ok"
  echo "1 passed, 0 failed"
  exit 0
fi
keep=${CHECK_KEEP:-$tmp/runs}
rm -rf "$keep"
args=(--kills 2)  # seed 3: kill 1 lands in the checkpoint write after step 15 (restart 1 resumes at step 11), kill 2 after step 18
[ -n "${CHECK_REFERENCE:-}" ] && args=(--kills 1 --reference "$CHECK_REFERENCE")
[ -n "${CHECK_HTML:-}" ] && mkdir -p "$(dirname "$CHECK_HTML")" && args+=(--html "$CHECK_HTML")
# EVIDENCE=DIR: judge DIR/<group or mistake>, the runs a live check kept (tools/remake_evidence.sh),
# running nothing (check --replay; the reference trace travels with them); with REMAKE=1 as well,
# run live and keep the runs there as evidence (tools/evidence.py keep).
runs=(--keep "$keep")
evidence=""
if [ -n "${EVIDENCE:-}" ]; then
  evidence=$EVIDENCE/$(basename "${CHECK_GROUP_KEEP:-$mistake}")
  if [ -z "${REMAKE:-}" ]; then
    [ -f "$evidence/work.txt" ] || fail "no evidence in $evidence (tools/remake_evidence.sh makes it)"
    runs=(--replay "$evidence")
    [ -n "${CHECK_REFERENCE:-}" ] && args[3]=$evidence/reference.trace
  fi
fi
# PYTHONPATH unset: the probe must come from check alone, the script imports nothing.
env -u PYTHONPATH "$bin" check "${args[@]}" --seed 3 --resume-args '--resume' --json "$tmp/r.json" "${runs[@]}" \
  -- "$py" "$src/examples/python_plain/train.py" --out '{run_dir}' --mistake "$mistake" >"$tmp/out.log" 2>&1
rc=$?
ids=$(ids_of "$tmp/r.json")
if [ -z "$want" ]; then
  [ "$rc" -eq 0 ] || fail "the correct script broke a law (exit $rc)"
  [ -z "$ids" ] || fail "the correct script drew findings: $ids"
  grep -q "^held     exact resume" "$tmp/out.log" || fail "exact resume not held"
  # Past step 1: a restart that began again from scratch resumes "at step 1" and tests nothing.
  grep -Eq "restart 1 resumed at step ([2-9]|[1-9][0-9]+) " "$tmp/out.log" || fail "no restart resumed past step 1"
else
  [ "$rc" -eq 1 ] || fail "exit $rc with $mistake planted, expected 1"
  [ "$(tr ' ' '\n' <<<"$ids" | sort | tr '\n' ' ')" = "$(tr ',' '\n' <<<"$want" | sort | tr '\n' ' ')" ] \
    || fail "findings '$ids', expected exactly one each of '$want'"
  for id in ${want//,/ }; do named_at_its_line "$id"; done
  if [ -n "${CHECK_HTML:-}" ]; then
    for mark in "<h1>trainproof check: FAILED</h1>" "<h2>Runs</h2>" "killed and restarted" "killed after step" \
      "restart resumed at step" "first departs at step" "law: exact resume"; do
      grep -qF -- "$mark" "$CHECK_HTML" || fail "the HTML report lacks '$mark'"
    done
    for id in ${want//,/ }; do
      grep -qE -- "$id \(step [0-9]+\)</text>" "$CHECK_HTML" || fail "the HTML report marks no step of $id"
    done
    if grep -qF "Fingerprint differences" "$CHECK_HTML"; then fail "a check without a golden shows fingerprints"; fi
  fi
  if [ -n "${CHECK_GROUP_KEEP:-}" ]; then  # the run each mistake's own test reads (CHECK_RUN)
    rm -rf "$CHECK_GROUP_KEEP" && mkdir -p "$CHECK_GROUP_KEEP" && cp "$tmp/r.json" "$tmp/out.log" "$CHECK_GROUP_KEEP/" \
      || fail "cannot keep the run in $CHECK_GROUP_KEEP"
  fi
fi
# Nothing the command started outlives the check.
if pgrep -f "$src/examples/python_plain/train.py --out $tmp" >/dev/null; then fail "a process of the command outlived check"; fi
if [ -n "$evidence" ] && [ -n "${REMAKE:-}" ]; then  # the runs kept, the reference taken: evidence
  rm -rf "$evidence" && mkdir -p "$evidence" && find "$keep" -maxdepth 1 -type f -exec cp {} "$evidence/" \; \
    || fail "cannot copy the runs to $evidence"
  [ -z "${CHECK_REFERENCE:-}" ] || cp "$CHECK_REFERENCE" "$evidence/reference.trace" || fail "cannot keep the reference"
  "$py" "$src/tools/evidence.py" keep "$evidence" || fail "could not make $evidence evidence"
fi
echo "check probe $mistake: ok"
echo "1 passed, 0 failed"
