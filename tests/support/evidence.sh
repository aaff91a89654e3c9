# Sourced by a test script that runs `trainproof check`: its check live, or judged from recorded
# evidence (tests/data/evidence/; tools/remake_evidence.sh remakes it).
#   EVIDENCE unset   evidence_check runs the check live;
#   EVIDENCE=DIR     it replays DIR/CASE (check --replay, the options and command the live check
#                    kept in check.json), running nothing;
#   REMAKE=1 too     it runs live and keeps the runs in DIR/CASE; evidence_passed then makes them
#                    evidence (tools/evidence.py keep: neutral paths, no checkpoints).
# The caller defines `bin` (trainproof), `py` (Python) and `fail`; it may set `evidence_live_keep`,
# the folder a live check keeps its runs in (a test that reads them: evidence_runs).
evidence_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
evidence_live_keep=

# evidence_runs CASE: the folder the runs of CASE are kept in: the evidence (replayed or remade), or
# evidence_live_keep for a live check.
evidence_runs() {
  if [ -n "${EVIDENCE:-}" ]; then echo "$EVIDENCE/$1"; else echo "$evidence_live_keep"; fi
}

# evidence_check CASE REPORT ARGS...: `check --json REPORT ARGS...` (ARGS: options, --, command), or
# its replay; sets rc.
evidence_check() {
  local case=$1 report=$2
  shift 2
  if [ -z "${EVIDENCE:-}" ]; then
    env -u PYTHONPATH "$bin" check ${evidence_live_keep:+--keep "$evidence_live_keep"} --json "$report" "$@"
  elif [ -n "${REMAKE:-}" ]; then
    rm -rf "${EVIDENCE:?}/$case" && mkdir -p "$EVIDENCE"
    env -u PYTHONPATH "$bin" check --keep "$EVIDENCE/$case" --json "$report" "$@"
  else
    [ -f "$EVIDENCE/$case/check.json" ] || fail "no evidence in $EVIDENCE/$case (tools/remake_evidence.sh makes it)"
    "$bin" check --replay "$EVIDENCE/$case" --json "$report"
  fi
  rc=$?
}

# evidence_passed CASE: the end of a test that passed; a remade case made evidence.
evidence_passed() {
  if [ -n "${EVIDENCE:-}" ] && [ -n "${REMAKE:-}" ]; then
    "$py" "$evidence_root/tools/evidence.py" keep "$EVIDENCE/$1" || fail "could not make $EVIDENCE/$1 evidence"
  fi
  echo "1 passed, 0 failed"
  exit 0
}
