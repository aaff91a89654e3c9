#!/usr/bin/env bash
# Correct code that the detectors could mistake for the documents' mistakes (a SequentialLR, AMP
# steps skipped on inf, a GAN, a frozen scorer, an EMA teacher, Dropout(p=0), an FSDP-style
# flat parameter: tests/data/loops/near_misses.py) draws no finding from `trainproof check`; its
# twin with the real mistakes planted draws exactly theirs, so the first test can fail.
#   check_near_miss_test.sh TRAINPROOF_BIN PYTHON [mistakes]
# EVIDENCE=DIR (tests/support/evidence.sh): judged from the runs recorded in DIR/none or DIR/mistakes.
set -uo pipefail
bin=$1 py=$2 planted=${3:-}
script=$(cd "$(dirname "$0")" && pwd)/data/loops/near_misses.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out.log"; echo "0 passed, 1 failed"; exit 1; }
mistakes=none want=""
if [ "$planted" = mistakes ]; then
  mistakes=sequential-before-optimizer,gan-no-zero,dropout-validation,flat-decay
  want="eval-mode-forgotten scheduler-before-optimizer weight-decay-on-bias-or-norm zero-grad-missing"
fi
source "$(dirname "$0")/support/evidence.sh"  # EVIDENCE=DIR: judged from DIR/${planted:-none}, recorded
evidence_check "${planted:-none}" "$tmp/r.json" --runs 1 -- "$py" "$script" --out '{run_dir}' \
  --mistake "$mistakes" >"$tmp/out.log" 2>&1
found=$("$py" -c 'import json, sys
print(" ".join(sorted(f["id"] for f in json.load(open(sys.argv[1]))["findings"])))' "$tmp/r.json") ||
  fail "no JSON report (exit $rc)"
[ "$found" = "$want" ] || fail "findings '$found', expected '${want:-none}'"
if [ -z "$want" ]; then
  [ "$rc" -eq 0 ] || fail "exit $rc with no finding, expected 0"
else
  [ "$rc" -eq 1 ] || fail "exit $rc with $want, expected 1"
  # The first backward onto the discriminator's last gradients: the generator's, through it.
  grep -q "^BROKEN   \[zero-grad-missing\] .*near_misses.py:$(grep -n '^    scaler.scale(loss_g).backward()' "$script" | cut -d: -f1))" \
    "$tmp/out.log" || fail "zero-grad-missing not placed at the generator's backward through the discriminator"
fi
echo "findings: ${want:-none}, as expected (exit $rc)"
evidence_passed "${planted:-none}"
