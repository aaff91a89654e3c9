#!/usr/bin/env bash
# The negative control of claims_test.py: README and docs/ copies with one claim drifted at a
# time (a count of reference values, a negative control left out of a scenario's row, the
# number of mistakes check names, the counts of document lines, controls and invariants, the
# README's verify sample and the goldens its fingerprint lines name, a line number a sample
# quotes from the example, a row and the total of the mutate sample, a quote no rule reads, a
# Debian package, a subcommand or an option of the command line, a finding id spelled in
# mutate.py instead of the catalog's planted_by); each must fail, naming the
# page. One verify run serves every drift, and one cache the binary's --help answers
# (CLAIMS_CACHE: the one ClaimsTest.TheDocsSayWhatTheCodeHas filled; else made here).
#   claims_control_test.sh TRAINPROOF_BIN SOURCE_DIR [VERIFY_JSON]   (without it, verify runs here)
set -uo pipefail
bin=$1 src=$2 verify_json=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
drift() {  # drift PAGE SED_EXPRESSION WHAT_THE_FAILURE_NAMES
  rm -rf "$tmp/copy" && mkdir -p "$tmp/copy/python/trainproof" && cp -r "$src/docs" "$src/README.md" "$tmp/copy/"
  cp "$src/python/trainproof/mutate.py" "$tmp/copy/python/trainproof/"
  sed -i "$2" "$tmp/copy/$1"
  cmp -s "$tmp/copy/$1" "$src/$1" && { echo "FAIL: '$2' changed nothing in $1"; failed=1; return; }
  python3 "$src/tests/claims_test.py" "$bin" "$src" --docs "$tmp/copy/docs" --verify-json "$verify_json" \
    --cache "${CLAIMS_CACHE:-$tmp/cache}" >"$tmp/out.log" 2>&1
  local rc=$?
  if [ "$rc" -eq 0 ]; then
    echo "FAIL: claims_test passed with $1 drifted ($2)"; failed=1
  elif [ "$rc" -eq 77 ] && ! grep -q "FAIL:" "$tmp/out.log"; then
    echo "skipped: $1 ($2): $(grep '^SKIP:' "$tmp/out.log")"  # this build cannot hold that claim
  elif ! grep -q "FAIL: $3" "$tmp/out.log"; then
    echo "FAIL: drifted $1 ($2) not named:"; cat "$tmp/out.log"; failed=1
  fi
}
if [ -z "$verify_json" ]; then  # one run for every drift below
  verify_json=$tmp/verify.json
  "$bin" verify --device cpu --json "$verify_json" >/dev/null 2>&1
fi
drift docs/testing.md 's/12,837 values/12,838 values/' "docs/testing.md"
drift docs/scenarios.md 's/| `zero-grad-forgotten` |/| |/' "docs/scenarios.md: no row for scenario zero_grad"
drift README.md 's/It names \([0-9]*\) mistakes/It names 99 mistakes/' "README.md"
drift docs/check.md '/^| `unseeded-rng`/d' "docs/check.md"
drift docs/scenarios.md 's/55 document$/54 document/' "docs/scenarios.md: claims 54 document lines"
drift docs/scenarios.md 's/and 48 negative controls/and 47 negative controls/' "docs/scenarios.md: claims 47 negative"
drift docs/scenarios.md 's/69 invariants are checked/68 invariants are checked/' "docs/scenarios.md: claims 68 invariants"
drift README.md 's/verify: [0-9]* checks/verify: 9999 checks/' "README.md: the verify sample ends"
drift README.md 's/[0-9]* rows, shortened/9999 rows, shortened/' "README.md: the verify sample says 9999 rows"
drift README.md '/cpu_model: golden/s/, undivided_sgd_vs_adam\/cpu//' "README.md: the verify sample's cpu_model line"
drift README.md '/cpu_model: golden/d' "README.md: the verify sample shows no cpu_model line"
drift README.md 's/(train\.py:[0-9]*)$/(train.py:1)/' "README.md: quotes train.py:1 for"
drift docs/check.md 's/aten::randn at train\.py:[0-9]*`/aten::randn at train.py:1`/' "docs/check.md: quotes train.py:1 for aten::randn"
drift docs/check.md 's/^\(    caught *delete-zero-grad *train\.py:\)[0-9]*/\11/' "docs/check.md: the mutate sample's row 1 "
drift docs/check.md 's/mutate: [0-9]* mutants/mutate: 9999 mutants/' "docs/check.md: the mutate sample shows"
drift docs/check.md '$a The seed is at train.py:12.' "docs/check.md: quotes train.py:12, which no rule"
drift docs/setup.md 's/ strace`/`/' "docs/setup.md: its Debian packages leave out"
drift docs/cli.md 's/ \[--band-k K\]//' "docs/cli.md: .trainproof check. leaves out"
drift docs/cli.md 's/\[--only ID,ID\]/[--only ID,ID] [--every-mutant]/' "docs/cli.md: .trainproof mutate. names"
drift python/trainproof/mutate.py 's/^    id = "delete-zero-grad"$/&\n    catches = ("zero-grad-missing",)/' \
  "python/trainproof/mutate.py spells a finding id"
drift docs/cli.md '/^    build\/trainproof preempt/d' "docs/cli.md: no usage line for .trainproof preempt."
drift docs/cli.md 's/^    build\/trainproof bench /    build\/trainproof benchmark /' "docs/cli.md: a usage line names .trainproof benchmark."
if [ "$failed" -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit "$failed"
