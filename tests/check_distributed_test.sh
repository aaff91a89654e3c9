#!/usr/bin/env bash
# `trainproof check` at scale, on the loops of examples/distributed/ (2 processes, gloo, CPU):
# every process recorded in a file of its own, laws judged per process, DCP checkpoints judged
# by their keys and their protocol, and each planted mistake named by its id at its line.
#   check_distributed_test.sh TRAINPROOF_BIN VENV_BIN CASE
# CASE:
#   fsdp2 | ddp          the correct sharded_dcp.py loop (--wrap): both laws held, no finding,
#                        the restart placed at the step the script printed, 2 ranks recorded
#   fsdp2-resume         the same FSDP2 loop, one uninterrupted run (--runs 1): exact resume held
#                        in each process, no finding, the restart placed as printed
#   spawn                spawn_loop.py (mp.spawn, no RANK): both laws held, no finding
#   hogwild-fork | hogwild-spawn   hogwild.py: determinism BROKEN naming the shared model as the
#                        cause, no op named, both workers' 20 steps each recorded
#   no-optimizer | newest-folder | no-zero-grad   sharded_dcp.py's twins, each named at its line
#   reshard-2to1 | reshard-1to2   the correct loop killed and restarted on another number of
#                        processes (--restart-nproc): the resharded resume's law held, no finding
#   no-optimizer-2to1    the no-optimizer twin killed and restarted on 1 process: the optimizer
#                        state it trains from is not the checkpoint's (reshard-state-differs)
#   per-rank-position | per-rank-position-1to2   its twin whose data position is a per-rank count:
#                        reshard-samples-differ at the step line, the rank that took another step's
#                        samples named (repeated, or taken ahead)
#   tp-2to1              the loop under tensor parallelism (--wrap tp: every rank fed the same whole
#                        batch) killed on 2 and restarted on 1: the ranks' replicas of the batch
#                        counted once, the resharded resume held, no finding
#   rng-beside           each rank's RNG state saved (a temporary file, then renamed) into the step's
#                        folder before dcp.save; the restart takes only finished folders: both laws
#                        held, no finding that breaks (a kill in the RNG file's write is not shown torn)
#   reshard-bad-input    --restart-nproc without a torchrun --nproc-per-node, on as many, or
#                        without --kills: exit 2, saying why
#   rank0-rng            spawn_loop.py's twin (every rank restores rank 0's RNG): the process whose
#                        state departs first is named, with its missing state, not rank 0's later
#                        departure (its parameters, after the all-reduce) as missing state
set -uo pipefail
bin=$1 venv=$2 case=$3
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PATH="$venv:$PATH" OMP_NUM_THREADS=1
loop=$src/examples/distributed/sharded_dcp.py
fail() { echo "FAIL: $*"; cat "$tmp/out.log"; echo "0 passed, 1 failed"; exit 1; }
line_of() { grep -nF -- "$1" "$2" | head -1 | cut -d: -f1; }
# EVIDENCE=DIR: judge DIR/CASE, the runs a live check of this case kept, running nothing (check
# --replay, with the options and command it kept); with REMAKE=1 as well, run the case live, keep
# its runs there and make them evidence (tests/support/evidence.sh, tools/remake_evidence.sh).
py=$venv/python
source "$src/tests/support/evidence.sh"
evidence_live_keep=$tmp/runs
runs=$(evidence_runs "$case")
check() { evidence_check "$case" "$tmp/report.json" "$@" >"$tmp/out.log" 2>&1; }
torchrun2=(torchrun --standalone --nproc-per-node 2)
laws_held() {
  grep -q "^check: 2 laws, 2 held, 0 broken, 0 finding(s)" "$tmp/out.log" || fail "the correct loop did not hold both laws without a finding"
  grep -q "in each of 2 processes" "$tmp/out.log" || fail "determinism was not judged in each of the 2 processes"
}
# Where the script said its restart resumed ("resumed from .../step-4 at step 5") is where check placed it.
placed_as_printed() {
  local printed placed
  printed=$(sed -n 's/^resumed from .* at step \([0-9]*\)$/\1/p' "$runs/preempted.log" | head -1)
  placed=$(sed -n 's/.*restart 1 resumed at step \([0-9]*\) (.*/\1/p' "$tmp/out.log" | head -1)
  [ -n "$printed" ] && [ "$printed" = "$placed" ] || fail "the script resumed at step '$printed', check placed it at '$placed'"
}
finding_at() {  # ID LINE-TEXT: printed BROKEN at the loop's line
  grep -qE "^BROKEN   \[$1\] .*\(sharded_dcp.py:$(line_of "$2" "$loop")\)" "$tmp/out.log" \
    || fail "[$1] is not named at sharded_dcp.py:$(line_of "$2" "$loop") ($2)"
}
case $case in
  fsdp2 | ddp)
    check --kills 1 --resume-args --resume -- "${torchrun2[@]}" "$loop" --wrap "$case" --out '{run_dir}'
    laws_held
    placed_as_printed
    [ -s "$runs/uninterrupted-1.trace.rank1" ] || fail "rank 1 wrote no trace of its own"
    ;;
  fsdp2-resume)
    check --runs 1 --kills 1 --resume-args --resume -- "${torchrun2[@]}" "$loop" --wrap fsdp2 --out '{run_dir}'
    grep -q "^check: 1 laws, 1 held, 0 broken, 0 finding(s)" "$tmp/out.log" || fail "the correct loop's resume did not hold without a finding"
    grep -q "^held     exact resume" "$tmp/out.log" || fail "exact resume not held"
    placed_as_printed
    [ -s "$runs/preempted.trace.rank1" ] || fail "rank 1 wrote no trace of its own in the preempted run"
    ;;
  spawn)
    check --kills 1 --resume-args --resume -- python "$src/examples/distributed/spawn_loop.py" --out '{run_dir}'
    laws_held
    [ -s "$runs/uninterrupted-1.trace.proc2" ] || fail "mp.spawn's second process wrote no trace of its own"
    ;;
  hogwild-fork | hogwild-spawn)
    check -- python "$src/examples/distributed/hogwild.py" --out '{run_dir}' --start "${case#hogwild-}"
    grep -q "^BROKEN   determinism" "$tmp/out.log" || fail "two Hogwild runs were judged bitwise equal"
    grep -q "2 processes (proc1, proc2) train one shared-memory model without a lock" "$tmp/out.log" \
      || fail "the shared model is not named as the cause"
    grep -q "nondeterministic-op" "$tmp/out.log" && fail "an op was compared across interleaved processes"
    for p in proc1 proc2; do
      n=$(grep -c '"kind":"probe"' "$runs/uninterrupted-1.trace.$p" 2>/dev/null)
      [ "${n:-0}" = 20 ] || fail "worker $p: ${n:-0} steps recorded of its 20"
    done
    ;;
  no-optimizer)
    check --kills 1 --resume-args --resume -- "${torchrun2[@]}" "$loop" --out '{run_dir}' --mistake "$case"
    finding_at checkpoint-missing-state 'dcp.save({"app": app}'
    grep -A1 "\[checkpoint-missing-state\]" "$tmp/out.log" | grep -q "lacks optimizer of the state" \
      || fail "the checkpoint's missing state is not the optimizer's"
    finding_at resume-missing-optimizer-state "optimizer.step()"
    ;;
  rank0-rng)
    check --kills 1 --resume-args --resume -- python "$src/examples/distributed/spawn_loop.py" --out '{run_dir}' --mistake "$case"
    grep -q "process proc2 departs first" "$tmp/out.log" || fail "the rank that resumed with another's RNG is not named first"
    grep -qE "^BROKEN   \[resume-missing-rng-state\]" "$tmp/out.log" || fail "its missing RNG state is not named"
    grep -A1 "\[resume-missing-rng-state\]" "$tmp/out.log" | grep -q "process proc2: " || fail "the finding does not name the process"
    grep -qE "\[resume-(params-differ|missing-optimizer-state)\]" "$tmp/out.log" \
      && fail "rank 0's later departure is blamed on state it restored"
    ;;
  newest-folder)
    check --kills 1 --resume-args --resume -- "${torchrun2[@]}" "$loop" --out '{run_dir}' --mistake "$case"
    finding_at non-atomic-checkpoint 'dcp.load({"app": app}'
    ;;
  no-zero-grad)
    check --kills 1 --resume-args --resume -- "${torchrun2[@]}" "$loop" --out '{run_dir}' --mistake "$case"
    finding_at zero-grad-missing "loss.backward()"
    grep -q "the loop never zeroes its gradients" "$tmp/out.log" || fail "the restart's departure is not put down to the carried gradients"
    grep -qE "\[resume-(params-differ|missing-optimizer-state)\]" "$tmp/out.log" \
      && fail "the checkpoint is blamed for the gradients no checkpoint holds"
    ;;
  reshard-2to1 | reshard-1to2)  # a resume at another world size: DCP reshards, the law holds
    from=${case:8:1} to=${case:11:1}
    check --kills 1 --restart-nproc "$to" --resume-args --resume -- \
      torchrun --standalone --nproc-per-node "$from" "$loop" --out '{run_dir}'
    grep -q "^held     resume at another world size: restarted on $to process(es) per node where it ran on $from" "$tmp/out.log" \
      || fail "the resume from $from process(es) to $to did not hold"
    grep -q "^check: 2 laws, 2 held, 0 broken, 0 finding(s)" "$tmp/out.log" || fail "a finding or a broken law on the correct loop"
    printed=$(sed -n 's/^resumed from .* at step \([0-9]*\)$/\1/p' "$runs/preempted.log" | head -1)
    grep -q "restart 1 resumed at step $printed on $to process(es)" "$tmp/out.log" \
      || fail "the script resumed at step '$printed' on $to process(es); check says otherwise"
    [ "$to" = 2 ] && { [ -s "$runs/preempted.trace.rank1" ] || fail "the rank the restart added recorded nothing"; }
    ;;
  no-optimizer-2to1)  # the twin that saves no optimizer state, resumed on 1 process: the state departs
    check --kills 1 --restart-nproc 1 --resume-args --resume -- "${torchrun2[@]}" "$loop" --out '{run_dir}' \
      --mistake no-optimizer
    grep -q "^BROKEN   resume at another world size" "$tmp/out.log" || fail "the optimizer state lost did not break the law"
    finding_at reshard-state-differs "optimizer.step()"
    grep -A1 "\[reshard-state-differs\]" "$tmp/out.log" | grep -q "the optimizer state it trains from are not the checkpoint's" \
      || fail "the state that departs is not named as the optimizer's"
    finding_at checkpoint-missing-state 'dcp.save({"app": app}'
    ;;
  per-rank-position | per-rank-position-1to2)  # the twin: the data position kept per rank is lost in the reshard
    from=2 to=1
    [ "$case" = per-rank-position-1to2 ] && from=1 to=2
    check --kills 1 --restart-nproc "$to" --resume-args --resume -- \
      torchrun --standalone --nproc-per-node "$from" "$loop" --out '{run_dir}' --mistake per-rank-position
    grep -q "^BROKEN   resume at another world size" "$tmp/out.log" || fail "the lost data position did not break the law"
    finding_at reshard-samples-differ "optimizer.step()"
    want=$([ "$to" = 1 ] && echo repeated || echo "taken ahead of their step")
    grep -A1 "\[reshard-samples-differ\]" "$tmp/out.log" | grep -qE "rank 0 first: it took [0-9]+ samples of step [0-9]+ \($want\)" \
      || fail "the rank that took another step's samples is not named, nor how ($want)"
    ;;
  tp-2to1)  # tensor parallelism: the ranks' one batch is a replica, not a shard of its own
    check --kills 1 --restart-nproc 1 --resume-args --resume -- "${torchrun2[@]}" "$loop" --wrap tp --out '{run_dir}'
    grep -q "^held     resume at another world size: restarted on 1 process(es) per node where it ran on 2" "$tmp/out.log" \
      || fail "the tensor-parallel resume from 2 processes to 1 did not hold"
    grep -q "^check: 2 laws, 2 held, 0 broken, 0 finding(s)" "$tmp/out.log" || fail "a finding or a broken law on the correct loop"
    ;;
  rng-beside)  # a file of its own beside DCP's, in the folder the restart takes only once finished
    check --kills 1 --resume-args --resume -- "${torchrun2[@]}" "$loop" --rng-beside --out '{run_dir}'
    grep -q "^check: 2 laws, 2 held, 0 broken" "$tmp/out.log" || fail "the correct loop did not hold both laws"
    grep -qE "^BROKEN   \[" "$tmp/out.log" && fail "a finding breaks a law of the correct loop"
    placed_as_printed
    ;;
  reshard-bad-input)  # no torchrun --nproc-per-node to rewrite, not a number, or the same number: bad input, exit 2
    "$bin" check --kills 1 --restart-nproc 1 -- python "$loop" >"$tmp/out.log" 2>&1
    [ $? = 2 ] || fail "a command without --nproc-per-node was not bad input"
    grep -q "gives torchrun no --nproc-per-node" "$tmp/out.log" || fail "the message does not say what is missing"
    "$bin" check --kills 1 --restart-nproc 2 -- "${torchrun2[@]}" "$loop" >"$tmp/out.log" 2>&1
    [ $? = 2 ] && grep -q "already runs 2 process(es) per node" "$tmp/out.log" || fail "a restart on as many processes was accepted"
    "$bin" check --restart-nproc 1 -- "${torchrun2[@]}" "$loop" >"$tmp/out.log" 2>&1
    [ $? = 2 ] && grep -q "only with --kills" "$tmp/out.log" || fail "--restart-nproc without --kills was accepted"
    "$bin" check --kills 1 --restart-nproc 1 -- torchrun --standalone --nproc-per-node=auto "$loop" >"$tmp/out.log" 2>&1
    [ $? = 2 ] && grep -q "nproc-per-node is not a number (auto" "$tmp/out.log" \
      || fail "--nproc-per-node=auto was taken for a world size"
    ;;
  *) echo "unknown case $case"; exit 2 ;;
esac
# A DCP checkpoint's own writes are not the script's: no finding names a torch.load inside DCP.
grep -q "\[unsafe-torch-load\]" "$tmp/out.log" && fail "DCP's own load was taken for the script's torch.load"
echo "$case: $(tail -1 "$tmp/out.log")"
evidence_passed "$case"
