#!/usr/bin/env bash
# The CI gate a training-code repository runs: set up, build, verify every scenario
# against the committed goldens. On a mismatch it prints the exact command that accepts
# an intended change. Exit codes follow `trainproof verify`: 0 pass, 1 mismatch, 2 bad input.
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
fi
exit "$rc"
