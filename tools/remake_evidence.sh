#!/usr/bin/env bash
# Remakes the recorded evidence the quick suite judges (tests/data/evidence/): each case run live
# by its test script into a scratch folder and made evidence there (tools/evidence.py keep); only
# when every live test of the group passed does the scratch folder take the group's place, and
# the replays then judge it; a replay that fails puts the old folder back. A failed remake leaves
# the committed evidence as it was.
# Run it after a change to anything that makes a case (tools/evidence.py says what);
# `tools/evidence.py stale tests/data/evidence` (the quick EvidenceFreshTest) says which are stale.
#   tools/remake_evidence.sh [CASE...]     (distributed/<case>, findings, probe, loop-shapes, values-law,
#                                          near-miss, first-op, resume-shapes, silent-bugs,
#                                          frameworks; default: all)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${TRAINPROOF_BIN:-$root/build/trainproof}
venv=${TRAINPROOF_VENV_BIN:-$HOME/.cache/trainproof/venv-torch-2.14.1/bin}
evidence=$root/tests/data/evidence
scratch=$(mktemp -d "$evidence/../.remake.XXXXXX")  # beside the evidence: a rename replaces a group
trap 'rm -rf "$scratch"' EXIT
# remade GROUP: the group's folder in the scratch, a copy of the committed one to remake into
remade() {
  rm -rf "${scratch:?}/$1" && mkdir -p "$(dirname "$scratch/$1")"
  if [ -e "$evidence/$1" ]; then cp -r "$evidence/$1" "$scratch/$1"; else mkdir -p "$scratch/$1"; fi
  echo "$scratch/$1"
}
# replace GROUP REPLAY...: the remade folder takes the committed one's place; REPLAY judges it
# there; if it fails, the old folder goes back and the remake stops.
replace() {
  local group=$1 old="$scratch/$1.old"
  shift
  rm -rf "$old" && mkdir -p "$old" && mv "$evidence/$group" "$old" 2>/dev/null || true
  mv "$scratch/$group" "$evidence/$group"
  if ! "$@"; then
    rm -rf "${evidence:?}/$group" && { [ ! -e "$old/$(basename "$group")" ] || mv "$old/$(basename "$group")" "$evidence/$group"; }
    echo "remake_evidence: $group: its replay failed on the remade runs; the old evidence is back"
    exit 1
  fi
}
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  for d in "$evidence"/distributed/*/; do [ -d "$d" ] && cases+=("distributed/$(basename "$d")"); done
  cases+=(findings probe loop-shapes values-law near-miss first-op resume-shapes silent-bugs frameworks)
fi
for c in "${cases[@]}"; do
  case $c in
    distributed/*)  # examples/distributed under torchrun, mp.spawn, Hogwild
      name=${c#*/}
      dir=$(remade "$c")
      echo "== $c (live)"
      EVIDENCE=$(dirname "$dir") REMAKE=1 bash "$root/tests/check_distributed_test.sh" "$bin" "$venv" "$name" | tail -1
      echo "== $c (replayed)"
      replace "$c" bash -c 'set -o pipefail; EVIDENCE=$0/distributed bash "$1" "$2" "$3" "$4" | tail -1' "$evidence" \
        "$root/tests/check_distributed_test.sh" "$bin" "$venv" "$name" ;;
    frameworks)  # accelerate's re-drawn shuffle: its live test's runs, then replayed
      dir=$(remade "$c")
      EVIDENCE=$dir REMAKE=1 ctest --test-dir "$root/build" -R '^CheckFrameworksTest\.AccelerateReshuffleNamed$' | tail -3
      replace "$c" bash -c 'set -o pipefail; ctest --test-dir "$0" -R "^CheckFrameworksEvidenceTest\\." | tail -3' "$root/build" ;;
    findings | probe | loop-shapes | values-law | near-miss | first-op | resume-shapes | silent-bugs)  # the live tests' runs, then replayed
      test=$(case $c in findings) echo CheckFindingTest ;; probe) echo CheckProbeTest ;; loop-shapes) echo CheckLoopShapesTest ;;
               values-law) echo CheckValuesLawTest ;; near-miss) echo CheckNearMissTest ;;
               resume-shapes) echo CheckResumeShapesTest ;; silent-bugs) echo CheckSilentBugsTest ;; *) echo CheckFirstOpTest ;; esac)
      dir=$(remade "$c")
      EVIDENCE=$dir REMAKE=1 ctest --test-dir "$root/build" -R "^${test%Test}LiveTest\\." -j 2 | tail -3
      replace "$c" bash -c 'set -o pipefail; ctest --test-dir "$0" -R "^$1\\." -j 2 | tail -3' "$root/build" "$test" ;;
    *) echo "remake_evidence: unknown case '$c' (distributed/<case>, findings, probe, loop-shapes, values-law, near-miss, first-op, resume-shapes, silent-bugs or frameworks)"; exit 2 ;;
  esac
done
"$venv/python" "$root/tools/evidence.py" stale "$evidence"
