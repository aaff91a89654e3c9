#!/usr/bin/env bash
# When two uninterrupted runs part, `trainproof check` reruns both with op-level digests up to
# that step and names the first op with equal inputs and different outputs, at its line. The
# planted op: input noise from a generator the OS seeds (examples/python_plain, --mistake
# unseeded-noise). Its twin, the same noise from a seeded generator, parts nowhere and is named
# by nothing.
# So too when a resume parts from the uninterrupted run with every digest of the state equal:
# the restart and the uninterrupted run are rerun with op-level digests of that step. The
# planted op: a noise layer's draws from a generator of its own that the checkpoint does not
# save (--mistake unsaved-generator); its twin saves and restores it (saved-generator).
#   check_first_op_test.sh TRAINPROOF_BIN PYTHON unseeded-noise|seeded-noise|unsaved-generator|saved-generator
# CHECK_KEEP: keep the runs there; CHECK_REFERENCE: an uninterrupted trace to stand for the
# command's own (the twins' uninterrupted runs are bitwise equal: one serves both). EVIDENCE=DIR
# (tests/support/evidence.sh): judged from the runs recorded in DIR/$mistake.
set -uo pipefail
bin=$1 py=$2 mistake=$3
script=$(cd "$(dirname "$0")/.." && pwd)/examples/python_plain/train.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out.log"; echo "0 passed, 1 failed"; exit 1; }
case $mistake in
  *-generator) flags=(--kills 1 --runs 1 --resume-args --resume) id=resume-state-equal-values-differ law="exact resume"
               text="torch.randn(x.shape, generator=self.generator)" ;;
  # Killed once too: runs that differ already leave the resume untested, no state named.
  *) flags=(--kills 1 --seed 3 --resume-args --resume) id=nondeterministic-op law=determinism
     text="torch.randn(inputs.shape, generator=noise)" ;;
esac
[ -n "${CHECK_KEEP:-}" ] && [ -z "${EVIDENCE:-}" ] && rm -rf "$CHECK_KEEP" && flags+=(--keep "$CHECK_KEEP")
[ -n "${CHECK_REFERENCE:-}" ] && flags+=(--reference "$CHECK_REFERENCE")
source "$(dirname "$0")/support/evidence.sh"  # EVIDENCE=DIR: judged from DIR/$mistake, recorded
evidence_check "$mistake" "$tmp/r.json" "${flags[@]}" -- "$py" "$script" --out '{run_dir}' \
  --mistake "$mistake" >"$tmp/out.log" 2>&1
# Remade: the reference trace the next case takes is this one's (the fixture's CHECK_KEEP).
[ -n "${CHECK_KEEP:-}" ] && [ -n "${REMAKE:-}" ] && rm -rf "$CHECK_KEEP" && cp -r "$EVIDENCE/$mistake" "$CHECK_KEEP"
found=$("$py" -c 'import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print(f["id"], f["where"], f["step"])' "$tmp/r.json") || fail "no JSON report with a findings list"
if [ "$mistake" = seeded-noise ] || [ "$mistake" = saved-generator ]; then
  [ "$rc" -eq 0 ] || fail "the correct twin broke a law (exit $rc)"
  [ -z "$found" ] || fail "the correct twin drew findings: $found"
  grep -q "op-level digests" "$tmp/out.log" && fail "a rerun with op-level digests ran for runs that agree"
else
  line=$(grep -nF "$text" "$script" | cut -d: -f1)
  [ "$rc" -eq 1 ] || fail "exit $rc with $mistake planted, expected 1"
  grep -q "^BROKEN   $law" "$tmp/out.log" || fail "$law not broken"
  if [ "$mistake" = unseeded-noise ]; then
    grep -q "^NOT TESTED exact resume" "$tmp/out.log" || fail "exact resume not NOT TESTED for runs that differ"
  fi
  [ "$(echo "$found" | cut -d' ' -f1-2)" = "$id train.py:$line" ] \
    || fail "findings '$found', expected exactly $id at train.py:$line"
  grep -A1 "\[$id\]" "$tmp/out.log" | grep -q "first op with equal inputs and different outputs.* aten::randn at train.py:$line" \
    || fail "the op is not named"
  grep -A1 "\[$id\]" "$tmp/out.log" | grep -q "a random op" || fail "not advised as a random op"
fi
echo "first op ($mistake): ok"
evidence_passed "$mistake"
