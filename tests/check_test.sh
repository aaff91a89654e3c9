#!/usr/bin/env bash
# `trainproof check` on examples/python_loop/train.py: the correct loop holds every law; each
# planted mistake is caught by the law it breaks, and the message names that law.
#   check_test.sh TRAINPROOF_BIN PYTHON MISTAKE EXPECTED_BROKEN_LAW
set -uo pipefail
bin=$1 py=$2 mistake=$3 law=${4:-}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" check --kills 3 --seed 1 --json "$tmp/r.json" -- "$py" "$root/examples/python_loop/train.py" \
  --run-dir '{run_dir}' --mistake "$mistake" >"$tmp/out.log" 2>&1
rc=$?
fail() { echo "FAIL: $*"; cat "$tmp/out.log"; echo "0 passed, 1 failed"; exit 1; }
if [ "$mistake" = none ]; then
  [ "$rc" -eq 0 ] || fail "the correct loop broke a law (exit $rc)"
  grep -q "^held     determinism" "$tmp/out.log" || fail "determinism not held"
  grep -q "^held     exact resume" "$tmp/out.log" || fail "exact resume not held"
  grep -q "kill 1 sent while ckpt.pt.tmp was being written" "$tmp/out.log" || fail "no kill landed on a write"
else
  [ "$rc" -eq 1 ] || fail "exit $rc with the mistake $mistake planted, expected 1"
  grep -q "^BROKEN   $law" "$tmp/out.log" || fail "the law '$law' is not reported BROKEN"
fi
python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$tmp/r.json" || fail "no JSON report"
echo "check $mistake: ok"
echo "1 passed, 0 failed"
