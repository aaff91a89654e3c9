#!/usr/bin/env bash
# The CI gate a training-code repository runs: set up, build, verify every scenario
# against the committed goldens. On a mismatch it prints the exact command that accepts
# an intended change. Exit codes follow `trainproof verify`: 0 pass, 1 mismatch, 2 bad input,
# 3 internal error (a scenario or trainproof failed to run: regenerating would not fix it).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/bootstrap.sh" || exit 2
report=${TRAINPROOF_REPORT:-$root/build/verify-report.json}
"$root/build/trainproof" verify --json "$report" "$@"
rc=$?
if [ "$rc" -eq 1 ]; then
  echo
  echo "trainproof: a trace changed beyond its tolerance or an invariant broke (report: $report)."
  echo "If the change is intended, regenerate the goldens and commit them with the change:"
  echo "    build/trainproof regen $* && git add golden/"
elif [ "$rc" -eq 3 ]; then
  echo
  echo "trainproof: a scenario or trainproof itself failed to run (exit 3, report: $report)."
  echo "This is not a change in the traces: do not regenerate the goldens; read the ERROR rows above."
fi
exit "$rc"
