#!/usr/bin/env bash
# Mistakes of document 003 planted in a script that imports nothing from trainproof
# (examples/python_plain), found by `trainproof check` through the probe: each named by its id
# alone, at the script's own line. (That the correct script draws no finding is
# CheckProbeTest.none.)
#   check_findings_test.sh TRAINPROOF_BIN PYTHON MISTAKE FINDING_ID 'LINE TEXT' [NTH] [advice]
#   check_findings_test.sh TRAINPROOF_BIN PYTHON --group MISTAKE,... FINDING_ID,... KEEP_DIR [allow]
# LINE TEXT: the finding must name the line of train.py holding it (the NTH such line).
# --group plants several mistakes in one run (a start of the script costs seconds): it must
# name exactly those findings, each once and BROKEN (and, with allow, --allow of them all
# exits 0, each printed as allowed); the run is kept in KEEP_DIR, where each finding's own test (CHECK_RUN=KEEP_DIR) reads its line.
# CHECK_REFERENCE (for a mistake seen only on a restart): that trace stands for the
# uninterrupted run, and the run is killed once and restarted with --resume.
set -uo pipefail
bin=$1 py=$2
script=$(cd "$(dirname "$0")/.." && pwd)/examples/python_plain/train.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out.log"; echo "0 passed, 1 failed"; exit 1; }
args=(--runs 1)
[ -n "${CHECK_REFERENCE:-}" ] && args=(--reference "$CHECK_REFERENCE" --kills 1 --seed 3 --resume-args --resume)
# EVIDENCE=DIR: each check judges DIR/<group or mistake>, the runs a live check kept
# (tools/remake_evidence.sh), running nothing (check --replay); with REMAKE=1 as well, the first
# check of the test runs live and keeps its runs there as evidence (tools/evidence.py keep).
if [ "$3" = --group ]; then key=$(basename "$6"); else key=$3; fi
evidence=${EVIDENCE:+$EVIDENCE/$key}
# The reference trace a restart's case takes travels with its evidence.
[ -n "$evidence" ] && [ -z "${REMAKE:-}" ] && [ -n "${CHECK_REFERENCE:-}" ] && args[1]=$evidence/reference.trace
# check_run MISTAKES REPORT [CHECK FLAG...]: the script checked with MISTAKES planted; sets rc.
check_run() {
  local mistakes=$1 report=$2 how=()
  shift 2
  if [ -n "$evidence" ] && [ -n "${REMAKE:-}" ] && [ ! -f "$tmp/remade" ]; then
    rm -rf "$evidence" && how=(--keep "$evidence") && touch "$tmp/remade"
  elif [ -n "$evidence" ]; then
    [ -f "$evidence/work.txt" ] || fail "no evidence in $evidence (tools/remake_evidence.sh makes it)"
    how=(--replay "$evidence")
  fi
  env -u PYTHONPATH "$bin" check "${args[@]}" "${how[@]}" "$@" --json "$report" -- "$py" "$script" --out '{run_dir}' \
    --mistake "$mistakes" >"$tmp/out.log" 2>&1
  rc=$?
}
# The end of a test that passed: a remade case made evidence.
passed() {
  if [ -f "$tmp/remade" ]; then
    [ -z "${CHECK_REFERENCE:-}" ] || cp "$CHECK_REFERENCE" "$evidence/reference.trace" || fail "cannot keep the reference"
    "$py" "$(dirname "$script")/../../tools/evidence.py" keep "$evidence" || fail "could not make $evidence evidence"
  fi
  echo "1 passed, 0 failed"
  exit 0
}
# findings REPORT: "ID WHERE ADVICE" per finding of a JSON report.
findings() {
  "$py" -c 'import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print(f["id"], f["where"], f["advice"])' "$1" || fail "no JSON report with a findings list"
}

if [ "$3" = --group ]; then
  mistakes=$4 want=$5 keep=$6 also=${7:-}
  check_run "$mistakes" "$tmp/r.json"
  found=$(findings "$tmp/r.json")
  [ "$(echo "$found" | cut -d' ' -f1 | sort | tr '\n' ' ')" = "$(tr ',' '\n' <<<"$want" | sort | tr '\n' ' ')" ] ||
    fail "findings '$found', expected exactly one each of $want"
  [ "$rc" -eq 1 ] || fail "exit $rc with $mistakes planted, expected 1"
  for id in ${want//,/ }; do
    grep -q "^BROKEN   \[$id\]" "$tmp/out.log" || fail "$id not printed as BROKEN"
  done
  rm -rf "$keep" && mkdir -p "$keep" && cp "$tmp/r.json" "$tmp/out.log" "$keep/" || fail "cannot keep the run in $keep"
  echo "findings $want: each named once and BROKEN"
  if [ "$also" != allow ]; then
    passed
  fi
  # --allow accepts them knowingly: exit 0, and the report says each was allowed.
  allow=()
  for id in ${want//,/ }; do allow+=(--allow "$id"); done
  check_run "$mistakes" "$tmp/a.json" "${allow[@]}"
  [ "$rc" -eq 0 ] || fail "--allow of each: exit $rc, expected 0"
  for id in ${want//,/ }; do
    grep -q "^allowed  \[$id\]" "$tmp/out.log" || fail "--allow $id: not printed as allowed"
  done
  echo "--allow of each: exit 0, each printed as allowed"
  passed
fi

mistake=$3 want=$4 text=$5 nth=${6:-1} kind=${7:-law}
line=$(grep -nF -- "$text" "$script" | sed -n "${nth}p" | cut -d: -f1)
[ -n "$line" ] || fail "no line of train.py holds '$text'"
if [ -n "${CHECK_RUN:-}" ]; then  # planted with others: its group's run, already judged as a whole
  cp "$CHECK_RUN/out.log" "$tmp/out.log" || fail "no kept run in $CHECK_RUN"
  found=$(findings "$CHECK_RUN/r.json" | grep "^$want ")
  [ "$(wc -l <<<"$found")" -eq 1 ] && [ -n "$found" ] || fail "findings '$found', expected one $want"
else
  check_run "$mistake" "$tmp/r.json"
  found=$(findings "$tmp/r.json")
  [ "$(echo "$found" | cut -d' ' -f1 | tr '\n' ' ')" = "$want " ] || fail "findings '$found', expected exactly $want"
fi
[ "$(echo "$found" | cut -d' ' -f2)" = "train.py:$line" ] || fail "$want names '$(echo "$found" | cut -d' ' -f2)', expected train.py:$line ($text)"
if [ "$kind" = advice ]; then
  [ "$rc" -eq 0 ] || fail "advice broke a law (exit $rc)"
  grep -q "^advice   \[$want\]" "$tmp/out.log" || fail "not printed as advice"
else
  [ -n "${CHECK_RUN:-}" ] || [ "$rc" -eq 1 ] || fail "exit $rc with $mistake planted, expected 1"
  grep -q "^BROKEN   \[$want\] .*train.py:$line" "$tmp/out.log" || fail "not printed as BROKEN at train.py:$line"
fi
echo "finding $want: ok"
passed
