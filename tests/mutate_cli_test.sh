#!/usr/bin/env bash
# `trainproof mutate` on the correct example (examples/python_plain): every mutant it plants that
# runs is caught, by the finding its mistake stands for; a mutant check cannot see survives and
# the command says so (exit 1); a command with no Python script is bad input (exit 2).
#   mutate_cli_test.sh TRAINPROOF_BIN PYTHON quick|full|frameworks
# quick: two mutations, no kill, one check of the unmutated script for both: a seed deleted
#   (caught by its own finding where it runs, not applicable where it never runs), and, the
#   negative control, a deleted zero_grad() whose finding is accepted knowingly (--allow), so
#   that nothing names it: it must survive, and mutate exit 1.
# full (nightly): every mutation, the resume mistakes through the unmutated run's reference.
# frameworks (nightly): a Hugging Face Trainer script (examples/frameworks/hf_trainer.py), whose
#   sites are the framework's settings, its seed and the checkpoint it resumes from: each caught.
#   Exit 77 where transformers is not installed.
set -uo pipefail
bin=$1 py=$2 which=$3
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out.log"; echo "0 passed, 1 failed"; exit 1; }
script=$src/examples/python_plain/train.py
run() {
  env -u PYTHONPATH "$bin" mutate --runs 1 --seed 3 --resume-args --resume --json "$tmp/r.json" \
    --junit "$tmp/r.xml" --markdown "$tmp/r.md" "$@" -- "$py" "$script" --out '{run_dir}' >"$tmp/out.log" 2>&1
}
case $which in
  quick) run --kills 0 --allow zero-grad-missing --only delete-manual-seed,delete-zero-grad ;;
  full) run --kills 1 ;;
  frameworks)
    script=$src/examples/frameworks/hf_trainer.py
    if ! "$py" -c "import transformers" 2>/dev/null; then
      # In CI a missing framework is the bootstrap's failure, not a reason to skip (exit 77 would pass).
      [ "${CI:-}" = true ] && fail "transformers is not installed in $py (the bootstrap installs examples/frameworks)"
      echo "skipped: transformers is not installed in $py"; exit 77
    fi
    run --kills 1 --only delete-manual-seed,delete-restore,save-only-model,ignore-data-skip ;;
esac
rc=$?
summary=$(grep "^mutate: " "$tmp/out.log" | tail -1)
[ -n "$summary" ] || fail "no summary line"
if [ "$which" = quick ]; then
  [ "$rc" -eq 1 ] || fail "exit $rc with a mutant nothing can see, expected 1"
  grep -q "^SURVIVED *delete-zero-grad *train.py:[0-9]" "$tmp/out.log" || fail "the deleted zero_grad() did not survive"
  [ "$summary" = "mutate: 3 mutants, 1 caught, 1 survived, 1 not applicable" ] || fail "summary '$summary'"
  # Bad input: nothing to plant into.
  "$bin" mutate -- echo hi >"$tmp/bad.log" 2>&1
  [ $? -eq 2 ] || fail "exit other than 2 for a command without a Python script"
  grep -q "PYTHON SCRIPT.py" "$tmp/bad.log" || fail "the bad input is not named: $(cat "$tmp/bad.log")"
  # The reporters' mutate reports: a testcase per mutant (the survivor a failure), a row each.
  grep -q '<testsuite name="trainproof mutate" tests="3" failures="1" skipped="1">' "$tmp/r.xml" \
    || fail "the JUnit report does not count the mutants: $(head -3 "$tmp/r.xml")"
  [ "$(grep -c '<testcase ' "$tmp/r.xml")" -eq 3 ] || fail "the JUnit report has not a testcase per mutant"
  grep -q "^| SURVIVED | delete-zero-grad | train.py:[0-9]" "$tmp/r.md" || fail "the Markdown lacks the survivor's row"
  tail -1 "$tmp/r.md" | grep -qxF "$summary" || fail "the Markdown does not end with the summary"
else
  [ "$rc" -eq 0 ] || fail "exit $rc: a mutant survived on the correct example"
fi
# Each planted mutant that ran is caught by one of the findings its mutation plants (the
# catalog's planted_by), not by chance, or (a key dropped from the checkpoint) by the resume law, when the
# restart that reads the key fails; the rest never ran (branches of the example's own planted
# mistakes) or are equivalent (a model.train() on a model in train mode already).
"$bin" list --findings --json >"$tmp/catalog.json" || fail "list --findings --json failed"
"$py" - "$tmp/r.json" "$tmp/catalog.json" "$which" <<'PY' || fail "the mutants' outcomes are not as expected"
import collections, json, sys
catches = collections.defaultdict(set)
for kind in json.load(open(sys.argv[2])):
    for mutation in kind["planted_by"]:
        catches[mutation].add(kind["id"])
r = json.load(open(sys.argv[1]))
caught = [m for m in r["mutants"] if m["outcome"] == "caught"]
for m in r["mutants"]:
    if sys.argv[3] == "quick" and m["id"] == "delete-zero-grad":  # the control
        assert m["outcome"] == "SURVIVED", m
        continue
    assert m["outcome"] != "SURVIVED", m
    if m["outcome"] == "caught" and m["by"].startswith("["):
        fid = m["by"].split("]")[0].lstrip("[")
        assert fid in catches[m["id"]], f"{m['id']} at {m['where']} caught by {m['by']}, not its own finding"
    elif m["outcome"] == "caught":  # a law broke: a checkpoint without the key fails the restart that reads
        # it; a Trainer given no checkpoint to resume from begins again, and resumes nothing
        assert m["id"] in ("drop-checkpoint-key", "delete-restore") and m["by"] == "exact resume BROKEN", m
    else:
        assert m["why"], m
ids = {m["id"] for m in caught}
# Every mutation with a site in the script (a mutation with none says so, and why).
# Named, not read back from the report: a mutate that stops finding a site must fail here (a want
# made of the report's own rows with a site would shrink with it and pass).
if sys.argv[3] == "quick":
    want = {"delete-manual-seed"}
elif sys.argv[3] == "frameworks":
    want = {"delete-manual-seed", "delete-restore", "save-only-model", "ignore-data-skip"}
else:  # every mutation with a site in the plain example, as measured (26 mutants of 14 mutations)
    want = {"atomic-save-made-direct", "delete-eval", "delete-manual-seed", "delete-no-grad", "delete-restore",
            "delete-train", "delete-unscale", "delete-zero-grad", "drop-checkpoint-key", "no-decay-group-decayed",
            "scheduler-before-optimizer", "scheduler-per-epoch", "softmax-before-cross-entropy", "weights-only-false"}
assert want <= ids, f"not caught: {want - ids}"
print(f"{len(caught)} caught, each by its own finding")
PY
echo "mutate $which: ok ($summary)"
echo "1 passed, 0 failed"
