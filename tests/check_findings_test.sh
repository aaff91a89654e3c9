#!/usr/bin/env bash
# A mistake of document 003 planted in a script that imports nothing from trainproof
# (examples/python_plain), found by `trainproof check` through the probe: named by its id
# alone, at the script's own line. (That the correct script draws no finding is
# CheckProbeTest.none.)
#   check_findings_test.sh TRAINPROOF_BIN PYTHON MISTAKE FINDING_ID 'LINE TEXT' [NTH] [advice]
# LINE TEXT: the finding must name the line of train.py holding it (the NTH such line).
# CHECK_REFERENCE (for a mistake seen only on a restart): that trace stands for the
# uninterrupted run, and the run is killed once and restarted with --resume.
set -uo pipefail
bin=$1 py=$2 mistake=$3 want=$4 text=$5 nth=${6:-1} kind=${7:-law}
script=$(cd "$(dirname "$0")/.." && pwd)/examples/python_plain/train.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out.log"; echo "0 passed, 1 failed"; exit 1; }
line=$(grep -nF -- "$text" "$script" | sed -n "${nth}p" | cut -d: -f1)
[ -n "$line" ] || fail "no line of train.py holds '$text'"
args=(--runs 1)
[ -n "${CHECK_REFERENCE:-}" ] && args=(--reference "$CHECK_REFERENCE" --kills 1 --seed 3 --resume-args --resume)
env -u PYTHONPATH "$bin" check "${args[@]}" --json "$tmp/r.json" -- "$py" "$script" --out '{run_dir}' \
  --mistake "$mistake" >"$tmp/out.log" 2>&1
rc=$?
found=$("$py" -c 'import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print(f["id"], f["where"], f["advice"])' "$tmp/r.json") || fail "no JSON report with a findings list"
[ "$(echo "$found" | cut -d' ' -f1 | tr '\n' ' ')" = "$want " ] || fail "findings '$found', expected exactly $want"
[ "$(echo "$found" | cut -d' ' -f2)" = "train.py:$line" ] || fail "$want names '$(echo "$found" | cut -d' ' -f2)', expected train.py:$line ($text)"
if [ "$kind" = advice ]; then
  [ "$rc" -eq 0 ] || fail "advice broke a law (exit $rc)"
  grep -q "^advice   \[$want\]" "$tmp/out.log" || fail "not printed as advice"
else
  [ "$rc" -eq 1 ] || fail "exit $rc with $mistake planted, expected 1"
  grep -q "^BROKEN   \[$want\]" "$tmp/out.log" || fail "not printed as BROKEN"
  # --allow accepts it knowingly: exit 0, and the report says it was allowed (tried on one).
  [ "$mistake" = softmax-before-ce ] || { echo "finding $want: ok"; echo "1 passed, 0 failed"; exit 0; }
  env -u PYTHONPATH "$bin" check "${args[@]}" --allow "$want" --json "$tmp/a.json" -- "$py" "$script" \
    --out '{run_dir}' --mistake "$mistake" >"$tmp/out.log" 2>&1
  rc=$?
  [ "$rc" -eq 0 ] || fail "--allow $want: exit $rc, expected 0"
  grep -q "^allowed  \[$want\]" "$tmp/out.log" || fail "--allow $want: not printed as allowed"
fi
echo "finding $want: ok"
echo "1 passed, 0 failed"
