#!/usr/bin/env bash
# ci/gate.sh from a consumer repository's root, both ways it gates, with the workflow's report
# flags: a changed trace exits 1 and prints an accept command; that command, run as printed
# from the consumer's root, accepts the change, and the gate then passes with its reports.
#   gate_test.sh TRAINPROOF_BIN PYTHON
set -uo pipefail
bin=$(realpath "$1") py=$2
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=$tmp/out.log
fail() { echo "FAIL: $*"; cat "$log"; echo "0 passed, 1 failed"; exit 1; }
# The consumer: its own repository, its goldens, its training script, trainproof vendored.
consumer=$tmp/consumer
mkdir -p "$consumer/golden" "$consumer/third_party"
ln -s "$src" "$consumer/third_party/trainproof"
cp "$src/examples/python_loop/train.py" "$consumer/train.py"
cd "$consumer" && git init -q . && git config user.email ci@example.org && git config user.name ci
gate() { TRAINPROOF_BIN=$bin third_party/trainproof/ci/gate.sh "$@" >"$log" 2>&1; }
accept_command() { sed -n 's/^    \(.* && git add .*\)$/\1/p' "$log" | tail -1; }
export PYTHONPATH=$src/python

# 1. check: the golden made at dropout 0.1, then a change to the training code (dropout 0.2).
# GATE_GOLDEN: that golden, made already (CheckTest.python.golden's --regen of the same loop).
if [ -n "${GATE_GOLDEN:-}" ]; then
  cp "$GATE_GOLDEN" golden/loop.h5 || fail "no golden at $GATE_GOLDEN"
else
  "$bin" check --regen --golden golden/loop.h5 --path-set native -- "$py" train.py --run-dir '{run_dir}' \
    >"$log" 2>&1 || fail "could not make the first golden"
fi
# --path-set stays in the accept command (its regen then runs this machine's path only, not all
# ten: what is tested here is the gate, not the envelope; each path is a start of the loop);
# --kills 0 and --runs 1 (a CI that checks determinism elsewhere) are dropped from it: regen
# checks determinism before it writes.
flags=(--kills 0 --runs 1 --path-set native --junit reports/check.xml --html reports/check.html --golden golden/loop.h5)
mkdir -p reports
gate check "${flags[@]}" -- "$py" train.py --run-dir '{run_dir}' --dropout 0.2
rc=$?
[ "$rc" -eq 1 ] || fail "a moved curve: gate exit $rc, expected 1"
cmd=$(accept_command)
[ -n "$cmd" ] || fail "no accept command printed"
case $cmd in *--junit*|*--html*|*--kills*|*--runs*) fail "the accept command keeps check-only flags: $cmd" ;; esac
case $cmd in third_party/trainproof/*|../*|./*) ;; *) fail "the accept command's binary is not relative to here: $cmd" ;; esac
bash -c "$cmd" >"$log" 2>&1 || fail "the accept command failed: $cmd"
git diff --cached --quiet -- golden/loop.h5 && fail "the accept command staged no golden"
gate check "${flags[@]}" -- "$py" train.py --run-dir '{run_dir}' --dropout 0.2
rc=$?
[ "$rc" -eq 0 ] || fail "after accepting, gate exit $rc"
[ -s reports/check.xml ] && [ -s reports/check.html ] || fail "no JUnit or HTML report"

# 2. verify: the consumer's golden (made here: the committed one may come from another CPU,
# and a golden from elsewhere that moved gets no accept command) with one value changed.
"$bin" regen warmup_cosine --device cpu --golden golden --path-set aten-default >"$log" 2>&1 ||
  fail "could not make the warmup_cosine golden"
"$py" - golden/warmup_cosine.h5 <<'EOF' || fail "could not tamper the golden"
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    d = f["cpu/lr_per_step"]
    v = d[...]
    v[3] *= 1.01
    d[...] = v
EOF
gate warmup_cosine --device cpu --golden golden --junit reports/v.xml --html reports/v.html
rc=$?
[ "$rc" -eq 1 ] || fail "a tampered golden: gate exit $rc, expected 1"
cmd=$(accept_command)
case $cmd in *regen\ warmup_cosine\ --device\ cpu\ --golden\ golden\ \&\&\ git\ add\ golden) ;;
  *) fail "unexpected accept command: $cmd" ;; esac
bash -c "$cmd" >"$log" 2>&1 || fail "the accept command failed: $cmd"
gate warmup_cosine --device cpu --golden golden --junit reports/v.xml --html reports/v.html
rc=$?
[ "$rc" -eq 0 ] || fail "after accepting, gate exit $rc"
echo "gate: ok"
echo "1 passed, 0 failed"
