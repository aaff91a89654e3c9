#!/usr/bin/env bash
# Remakes the recorded evidence the quick suite judges (tests/data/evidence/): each case run live
# by its test script, its runs kept and made evidence (tools/evidence.py keep), then checked as a
# replay. Run it after a change to the probe or to an example the cases run; `tools/evidence.py
# stale tests/data/evidence` (the nightly EvidenceFreshTest) says which are stale.
#   tools/remake_evidence.sh [CASE...]     (default: every case there is; distributed/<case>)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${TRAINPROOF_BIN:-$root/build/trainproof}
venv=${TRAINPROOF_VENV_BIN:-$HOME/.cache/trainproof/venv-torch-2.14.1/bin}
evidence=$root/tests/data/evidence
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  for d in "$evidence"/distributed/*/; do cases+=("distributed/$(basename "$d")"); done
fi
for c in "${cases[@]}"; do
  kind=${c%%/*} name=${c#*/}
  case $kind in
    distributed) script=$root/tests/check_distributed_test.sh ;;
    *) echo "remake_evidence: unknown kind '$kind' in $c (distributed/<case>)"; exit 2 ;;
  esac
  echo "== $c (live)"
  EVIDENCE=$evidence/$kind REMAKE=1 bash "$script" "$bin" "$venv" "$name" | tail -1
  echo "== $c (replayed)"
  EVIDENCE=$evidence/$kind bash "$script" "$bin" "$venv" "$name" | tail -1
done
"$venv/python" "$root/tools/evidence.py" stale "$evidence"
