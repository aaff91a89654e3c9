#!/usr/bin/env bash
# The CI gate a training-code repository runs, from its own root:
#   <trainproof>/ci/gate.sh [verify options]               verify scenarios against their goldens
#   <trainproof>/ci/gate.sh check [check options] -- CMD   hold the repository's own training
#                                                          command to the laws (trainproof check)
# It sets trainproof up (tools/bootstrap.sh; TRAINPROOF_BIN=<a built trainproof> skips that),
# runs, and on a changed trace prints the command that accepts the change (for check, only when
# the environment is the golden's: a code change, not one mixed with the machine's): from the directory
# the gate ran in, with that repository's paths and flags, without the report flags
# (--json, --junit, --html) that only verify and check take.
# Exit codes are trainproof's: 0 pass, 1 mismatch or broken law, 2 bad input, 3 internal error
# (something failed to run: regenerating would not fix it).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${TRAINPROOF_BIN:-}" ]; then
  bin=$TRAINPROOF_BIN
else
  "$root/tools/bootstrap.sh" || exit 2
  bin=$root/build/trainproof
fi
# The binary as the person reading the log types it, from here.
shown_bin=$(realpath -s --relative-to="$PWD" "$bin" 2>/dev/null || echo "$bin")
case $shown_bin in /*|./*|../*) ;; *) shown_bin=./$shown_bin ;; esac

# The arguments minus the report options and flags regen does not take (each given as
# `--opt value` or `--opt=value`), quoted for a shell.
accept_args() {
  local -a drop_value=(--json --report --junit --html --keep --kills --seed --timeout --runs --reference)
  local -a drop_flag=(--cross --require-all-devices --paths)
  local out="" skip=0 a d after_dd=0
  for a in "$@"; do
    if ((skip)); then skip=0; continue; fi
    if ((!after_dd)); then
      [ "$a" = -- ] && after_dd=1
      for d in "${drop_value[@]}"; do
        [ "$a" = "$d" ] && { skip=1; continue 2; }
        case $a in "$d"=*) continue 2 ;; esac
      done
      for d in "${drop_flag[@]}"; do [ "$a" = "$d" ] && continue 2; done
    fi
    out+=" $(printf '%q' "$a")"
  done
  printf '%s' "$out"
}

# The value of option $1 in the remaining arguments, or $2.
option_value() {
  local want=$1 fallback=$2 prev=""
  shift 2
  for a in "$@"; do
    [ "$a" = -- ] && break
    [ "$prev" = "$want" ] && { printf '%s' "$a"; return; }
    case $a in "$want"=*) printf '%s' "${a#*=}"; return ;; esac
    prev=$a
  done
  printf '%s' "$fallback"
}

if [ "${1:-}" = check ]; then
  shift
  out=$(mktemp)
  trap 'rm -f "$out"' EXIT
  "$bin" check "$@" | tee "$out"
  rc=${PIPESTATUS[0]}
  golden=$(option_value --golden "" "$@")
  if [ "$rc" -eq 1 ] && [ -n "$golden" ] && grep -q "Verdict: both:" "$out"; then
    echo
    echo "trainproof: the training curve moved beyond what the environment explains, and the environment differs"
    echo "from the golden's too (see the Verdict above). Regenerating here would bake this machine into the golden:"
    echo "run the gate in the golden's environment to see the code's change alone. No accept command is printed."
  elif [ "$rc" -eq 1 ] && [ -n "$golden" ]; then
    echo
    echo "trainproof: a law is broken or the training curve moved beyond its golden's tolerances."
    echo "If the change to the curve is intended (and every law above holds), accept it from here:"
    echo "    $shown_bin check --regen$(accept_args "$@") && git add $(printf '%q' "$golden")"
  fi
else
  report=${TRAINPROOF_REPORT:-$root/build/verify-report.json}
  "$bin" verify --json "$report" "$@"
  rc=$?
  if [ "$rc" -eq 1 ] && grep -q 'both: the environment differs' "$report" 2>/dev/null; then
    echo
    echo "trainproof: values moved beyond what the environment explains, and the environment differs from the"
    echo "goldens' too (see 'why the values moved' above; report: $report). Regenerating here would bake this"
    echo "machine into the goldens: run the gate in their environment first. No regen command is printed."
  elif [ "$rc" -eq 1 ]; then
    golden_dir=$(option_value --golden "$(realpath -s --relative-to="$PWD" "$root/golden")" "$@")
    echo
    echo "trainproof: a trace changed beyond its tolerance or an invariant broke (report: $report)."
    echo "If the change is intended, regenerate the goldens from here and commit them with the change:"
    echo "    $shown_bin regen$(accept_args "$@") && git add $(printf '%q' "$golden_dir")"
  fi
fi
if [ "$rc" -eq 3 ]; then
  echo
  echo "trainproof: a scenario, the command or trainproof itself failed to run (exit 3)."
  echo "This is not a change in the traces: do not regenerate the goldens; read the errors above."
fi
exit "$rc"
