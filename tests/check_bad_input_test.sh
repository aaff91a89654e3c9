#!/usr/bin/env bash
# `trainproof check` on bad input: each case exits 2 with a message naming the problem (and
# the file, where there is one); none writes a golden.
#   check_bad_input_test.sh TRAINPROOF_BIN
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
expect() {  # expect "WHAT IT MUST SAY" ARGS...
  local says=$1
  shift
  "$bin" check "$@" >"$tmp/out.log" 2>&1
  local rc=$?
  if [ "$rc" -ne 2 ] || ! grep -qF -- "$says" "$tmp/out.log"; then
    echo "FAIL: check $* -> exit $rc (expected 2, saying '$says'):"
    cat "$tmp/out.log"
    failed=1
  fi
}
expect "command not found: $tmp/absent" -- "$tmp/absent"
expect "not in PATH" -- trainproof-no-such-program
expect "failed on its first uninterrupted run (exit 1)" -- false
printf '#!/nonexistent/interpreter\n' >"$tmp/no-interpreter.sh" && chmod +x "$tmp/no-interpreter.sh"
expect "$tmp/no-interpreter.sh: cannot be started: No such file or directory" -- "$tmp/no-interpreter.sh"
expect "holds no record: no process of the command called backward() or stepped an optimizer" -- true
# --allow ID right before `--`: the command's own --flags stay the command's (the parser once
# took that `--` as the end of --allow's list, then read them as check's).
expect "holds no record: no process of the command called backward() or stepped an optimizer" --allow non-atomic-checkpoint -- true --dataset=tiny
expect "uninterrupted-1.trace: record 1 is damaged" -- sh -c "printf 'TPTRACE 1\nnot a record\n{}\n' >\"\$TRAINPROOF_TRACE\""
expect "the uninterrupted run holds no record" -- sh -c "printf 'TPTRACE 1\n' >\"\$TRAINPROOF_TRACE\""
expect "$tmp/absent.trace: no such trace (--reference)" --reference "$tmp/absent.trace" -- true
expect "--reference: not with --regen" --regen --golden "$tmp/g.h5" --reference "$tmp/absent.trace" -- true
expect "--runs 1: not with --regen" --regen --golden "$tmp/g.h5" --runs 1 -- true
expect "--band: only with --regen" --band -- true
expect "--runs 1: a band needs at least 3 runs" --regen --band --golden "$tmp/g.h5" --runs 1 -- true
expect "--kills: not in the band lane" --regen --band --runs 3 --golden "$tmp/g.h5" --kills 1 -- true
expect "--seed-arg: only in the band lane" --seed-arg '--seed {seed}' -- true
expect "--band-k: only when holding a band golden" --band-k 3 -- true
expect "--runs 3: must be 1 or 2 (more only with --band)" --runs 3 -- true
expect "--resume-args ''--resume': an unclosed ' quote" --kills 1 --resume-args "'--resume" -- true
expect "--expect-lr 'warmup-cosine --lr x'" --expect-lr 'warmup-cosine --lr x' -- true
expect "--expect-lr 'sawtooth'" --expect-lr 'sawtooth' -- true
expect "name the golden to write with --golden FILE" --regen -- true
expect "--ceiling 'rel(x)'" --regen --golden "$tmp/g.h5" --ceiling 'rel(x)' -- true
expect "--kills" --kills -1 -- true
expect "$tmp/none.h5: no such golden" --golden "$tmp/none.h5" -- true
printf 'not hdf5' >"$tmp/bad.h5"
expect "$tmp/bad.h5" --golden "$tmp/bad.h5" -- true
[ -e "$tmp/g.h5" ] && { echo "FAIL: a golden was written on bad input"; failed=1; }
if [ "$failed" -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit "$failed"
