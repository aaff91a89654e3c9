#!/usr/bin/env bash
# Remakes the recorded evidence the quick suite judges (tests/data/evidence/): each case run live
# by its test script, its runs kept and made evidence (tools/evidence.py keep), then checked as a
# replay. Run it after a change to the probe or to an example the cases run; `tools/evidence.py
# stale tests/data/evidence` (the nightly EvidenceFreshTest) says which are stale.
#   tools/remake_evidence.sh [CASE...]     (distributed/<case>, findings, probe, loop-shapes, values-law,
#                                          near-miss, first-op, resume-shapes, frameworks; default: all)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${TRAINPROOF_BIN:-$root/build/trainproof}
venv=${TRAINPROOF_VENV_BIN:-$HOME/.cache/trainproof/venv-torch-2.14.1/bin}
evidence=$root/tests/data/evidence
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  for d in "$evidence"/distributed/*/; do [ -d "$d" ] && cases+=("distributed/$(basename "$d")"); done
  cases+=(findings probe loop-shapes values-law near-miss first-op resume-shapes frameworks)
fi
for c in "${cases[@]}"; do
  case $c in
    distributed/*)  # examples/distributed under torchrun, mp.spawn, Hogwild
      name=${c#*/}
      echo "== $c (live)"
      EVIDENCE=$evidence/distributed REMAKE=1 bash "$root/tests/check_distributed_test.sh" "$bin" "$venv" "$name" | tail -1
      echo "== $c (replayed)"
      EVIDENCE=$evidence/distributed bash "$root/tests/check_distributed_test.sh" "$bin" "$venv" "$name" | tail -1 ;;
    frameworks)  # accelerate's re-drawn shuffle: its live test's runs, then replayed
      EVIDENCE=$evidence/frameworks REMAKE=1 ctest --test-dir "$root/build" -R '^CheckFrameworksTest\.AccelerateReshuffleNamed$' | tail -3
      ctest --test-dir "$root/build" -R '^CheckFrameworksEvidenceTest\.' | tail -3 ;;
    findings | probe | loop-shapes | values-law | near-miss | first-op | resume-shapes)  # the live tests' runs, then replayed
      test=$(case $c in findings) echo CheckFindingTest ;; probe) echo CheckProbeTest ;; loop-shapes) echo CheckLoopShapesTest ;;
               values-law) echo CheckValuesLawTest ;; near-miss) echo CheckNearMissTest ;;
               resume-shapes) echo CheckResumeShapesTest ;; *) echo CheckFirstOpTest ;; esac)
      EVIDENCE=$evidence/$c REMAKE=1 ctest --test-dir "$root/build" -R "^${test%Test}LiveTest\\." -j 2 | tail -3
      ctest --test-dir "$root/build" -R "^$test\\." -j 2 | tail -3 ;;
    *) echo "remake_evidence: unknown case '$c' (distributed/<case>, findings, probe, loop-shapes, values-law, near-miss, first-op, resume-shapes or frameworks)"; exit 2 ;;
  esac
done
"$venv/python" "$root/tools/evidence.py" stale "$evidence"
