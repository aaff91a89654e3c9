#!/usr/bin/env bash
# `trainproof check` on the stacks teams train with, the scripts unmodified
# (examples/frameworks: Hugging Face Trainer, Lightning, accelerate's own loop): the correct form
# draws only the findings it has (Trainer writes checkpoint-N/ in place: non-atomic-checkpoint),
# every law holds (with KILLS, exact resume tested, not NOT TESTED), and a mistake planted where the framework leaves it to the user is
# named by its id at the script's own line.
#   check_frameworks_test.sh TRAINPROOF_BIN PYTHON SCRIPT KILLS MISTAKE 'FINDING_ID...' [LINE TEXT]
# KILLS 0 runs the command twice (--runs 2: the determinism law, and the findings); 1 also kills it once and
# restarts it with --resume (the exact-resume law must then be tested and held). LINE TEXT: the
# first finding must name the script's line holding it. Exits 77 (skipped) where the framework
# is not installed in PYTHON (tools/bootstrap.sh installs examples/frameworks/requirements.txt);
# in CI (CI=true) that fails instead: a skip there would pass a suite that tested no framework.
# EVIDENCE=DIR (tests/support/evidence.sh): judge DIR/SCRIPT-MISTAKE, the runs a live check kept,
# running nothing (no framework needed then); with REMAKE=1 as well, run live and keep them there.
set -uo pipefail
bin=$1 py=$2 name=$3 kills=$4 mistake=$5 want=$6 text=${7:-}
script=$(cd "$(dirname "$0")/.." && pwd)/examples/frameworks/$name.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out.log"; echo "0 passed, 1 failed"; exit 1; }
source "$(dirname "$0")/support/evidence.sh"
case=$name-$mistake
module=$(sed -n 's/^from \([a-z]*\) import.*/\1/p;s/^import \(lightning\|accelerate\|transformers\).*/\1/p' "$script" | grep -m1 -E 'transformers|lightning|accelerate')
if { [ -z "${EVIDENCE:-}" ] || [ -n "${REMAKE:-}" ]; } && ! "$py" -c "import $module" 2>/dev/null; then
  # In CI a missing framework is the bootstrap's failure, not a reason to skip (exit 77 would pass).
  [ "${CI:-}" = true ] && { echo "FAIL: $module is not installed in $py (the bootstrap installs examples/frameworks)"; echo "0 passed, 1 failed"; exit 1; }
  echo "skipped: $module is not installed in $py (pip install -r examples/frameworks/requirements.txt torch==2.14.1)"
  exit 77
fi
args=(--runs 2)  # without kills, the determinism law: a correct form is held to a law, not to none
[ "$kills" -gt 0 ] && args=(--kills "$kills" --seed 3 --resume-args --resume)
evidence_check "$case" "$tmp/r.json" "${args[@]}" -- "$py" "$script" --out '{run_dir}' --mistake "$mistake" \
  >"$tmp/out.log" 2>&1
"$py" - "$tmp/r.json" "$want" "$rc" "$kills" "$script" "$text" "$mistake" >"$tmp/verdict.log" 2>&1 <<'PY'
import json, sys
report, want, rc, kills, script, text = sys.argv[1], sys.argv[2].split(), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
r = json.load(open(report))
found = sorted(f["id"] for f in r["findings"])
if found != sorted(want):
    sys.exit(f"findings {found}, expected {sorted(want)}")
laws = [e for e in r["results"] if e["kind"] == "invariant"]
if not laws:
    sys.exit("no law was tested")
for l in laws if sys.argv[7] == "none" else []:  # the correct form holds every law tested
    if l["status"] != "pass":
        sys.exit(f"the law '{l['name']}' is {l['status']}: {l['detail']}")
if kills and not any(l["name"].startswith("exact resume") and l["status"] != "NOT TESTED" for l in laws):
    sys.exit("no exact-resume law in the report")
if rc != (1 if want else 0):
    sys.exit(f"exit {rc}, expected {1 if want else 0}")
if text:
    line = next(i for i, l in enumerate(open(script), 1) if text in l)
    where = r["findings"][0]["where"]
    if not where.startswith(f"{script.rsplit('/', 1)[1]}:{line}"):
        sys.exit(f"{r['findings'][0]['id']} named at {where}, expected the script's line {line} ({text})")
print(f"findings {found or 'none'}; laws held: {len(laws)}; exit {rc}")
PY
ok=$?
cat "$tmp/verdict.log"
[ "$ok" -eq 0 ] || fail "$(tail -1 "$tmp/verdict.log")"
evidence_passed "$case"
