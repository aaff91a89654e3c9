#!/usr/bin/env bash
# When two uninterrupted runs part, `trainproof check` reruns both with op-level digests up to
# that step and names the first op with equal inputs and different outputs, at its line. The
# planted op: input noise from a generator the OS seeds (examples/python_plain, --mistake
# unseeded-noise). Its twin, the same noise from a seeded generator, parts nowhere and is named
# by nothing.
#   check_first_op_test.sh TRAINPROOF_BIN PYTHON unseeded-noise|seeded-noise
set -uo pipefail
bin=$1 py=$2 mistake=$3
script=$(cd "$(dirname "$0")/.." && pwd)/examples/python_plain/train.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out.log"; echo "0 passed, 1 failed"; exit 1; }
env -u PYTHONPATH "$bin" check --json "$tmp/r.json" -- "$py" "$script" --out '{run_dir}' --mistake "$mistake" \
  >"$tmp/out.log" 2>&1
rc=$?
found=$("$py" -c 'import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print(f["id"], f["where"], f["step"])' "$tmp/r.json") || fail "no JSON report with a findings list"
if [ "$mistake" = seeded-noise ]; then
  [ "$rc" -eq 0 ] || fail "the seeded twin broke a law (exit $rc)"
  [ -z "$found" ] || fail "the seeded twin drew findings: $found"
  grep -q "op-level digests" "$tmp/out.log" && fail "a rerun with op-level digests ran for runs that agree"
else
  line=$(grep -nF "torch.randn(inputs.shape, generator=noise)" "$script" | cut -d: -f1)
  [ "$rc" -eq 1 ] || fail "exit $rc with $mistake planted, expected 1"
  grep -q "^BROKEN   determinism" "$tmp/out.log" || fail "determinism not broken"
  [ "$(echo "$found" | cut -d' ' -f1-2)" = "nondeterministic-op train.py:$line" ] \
    || fail "findings '$found', expected exactly nondeterministic-op at train.py:$line"
  grep -A1 "\[nondeterministic-op\]" "$tmp/out.log" | grep -q "first op with equal inputs and different outputs: aten::" \
    || fail "the op is not named"
  grep -A1 "\[nondeterministic-op\]" "$tmp/out.log" | grep -q "a random op" || fail "not advised as a random op"
fi
echo "first op ($mistake): ok"
echo "1 passed, 0 failed"
