#!/usr/bin/env bash
# The false-finding rate of `trainproof check`: the correct form of every stack teams train with,
# each unmodified, killed once and restarted (--kills 1 --seed 3), one row per stack with its laws,
# its findings, and those of them that are false (not in the row's list of what that script
# really has). The target is 0 false findings. It exits 1 when a stack draws a false finding, has
# no report, or breaks (or leaves NOT TESTED) a law its script does not really break; the
# laws a script really breaks are named in its row as law:<name> ("law:exact", "law:determinism").
#   [PYTORCH_EXAMPLES_DIR=DIR [PYTORCH_EXAMPLES_PYTHON=PY]] bench/false_findings.sh [NANOGPT_DIR] [PYTHON] [TRAINPROOF_BIN]
# Stacks: the plain loop (examples/python_plain), the same loop torch.compile'd (inductor), the
# resume shapes of tests/data/loops/resume_shapes.py (accumulation under autocast, an EMA, a counter,
# an actor-critic's environment, a streamed shuffle buffer), the silent bugs' correct loop,
# Hugging Face Trainer, Lightning and accelerate's own loop (examples/frameworks; skipped where
# the framework is not installed), a torchrun data-parallel loop (2 ranks on gloo,
# tests/data/loops/workers_loop.py), the loops of examples/distributed (FSDP2 and DDP with DCP
# checkpoints under torchrun, and DDP started by mp.spawn), with NANOGPT_DIR (a checkout of nanoGPT, as
# bench/nanogpt_mistakes.sh takes it), nanoGPT as it is, eager and compiled, and, with
# PYTORCH_EXAMPLES_DIR (a checkout of pytorch/examples), its loops as they are, on data made here:
# word_language_model (an update by hand, no optimizer), regression (unseeded), dcgan seeded,
# unseeded and resumed from its epoch files (FakeData; torchvision), time_sequence_prediction
# (LBFGS and its closure; matplotlib). PYTORCH_EXAMPLES_PYTHON runs them (default PYTHON). A row
# whose script has no resume path is not killed (--kills 0: a restart would start it over).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
nanogpt=${1:-} py=${2:-$HOME/.cache/trainproof/venv-torch-2.14.1/bin/python} bin=${3:-$root/build/trainproof}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
total=0 false_total=0 failed=0

# row NAME 'REAL FINDING IDS' [check options] -- CMD...: one stack's check and its row (killed once
# unless the options say --kills). FALSE_FINDINGS_ROWS=name,name runs those rows only.
row() {
  local name=$1 real=$2
  shift 2
  [ -n "${FALSE_FINDINGS_ROWS:-}" ] && [[ ",$FALSE_FINDINGS_ROWS," != *",$name,"* ]] && return
  local opts=() started=$SECONDS kills=(--kills 1 --seed 3)
  while [ "$1" != -- ]; do opts+=("$1"); shift; done
  shift
  [[ " ${opts[*]} " == *" --kills "* ]] && kills=()
  env -u PYTHONPATH "$bin" check "${kills[@]}" "${opts[@]}" --json "$tmp/$name.json" -- "$@" \
    >"$tmp/$name.log" 2>&1
  local rc=$?
  "$py" - "$tmp/$name.json" "$name" "$real" "$rc" "$((SECONDS - started))" "$tmp/$name.log" <<'PY'
import json, sys
path, name, real, rc, secs, log = sys.argv[1:7]
try:
    r = json.load(open(path))
except (OSError, ValueError):
    tail = " | ".join(open(log, errors="replace").read().strip().splitlines()[-2:])
    print(f"{name:<22} exit {rc:<2} no report: {tail}")
    sys.exit(2)
laws = ", ".join(f"{e['name'].split(':')[0]} {e['status']}" for e in r["results"] if e["kind"] == "invariant")
found = [f"{f['id']} ({f['where']})" for f in r["findings"]]
false = [f["id"] for f in r["findings"] if f["id"] not in real.split()]
# A law broken, or not tested, where the script does not really break it (law:exact names one that does).
unexpected = [e["name"].split(":")[0] for e in r["results"] if e["kind"] == "invariant"
              and e["status"] in ("fail", "not tested", "NOT TESTED", "broken", "BROKEN")
              and "law:" + e["name"].split(":")[0].split()[0] not in real.split()]
print(f"{name:<22} exit {rc:<2} {secs:>4} s  false {len(false)}  laws: {laws}; findings: {'; '.join(found) or 'none'}"
      + (f"  UNEXPECTED: {', '.join(unexpected)}" if unexpected else ""))
sys.exit(1 if false else 3 if unexpected else 0)
PY
  case $? in
    0) total=$((total + 1)) ;;
    1) total=$((total + 1)) false_total=$((false_total + 1)) failed=1 ;;
    *) total=$((total + 1)) failed=1 ;;
  esac
}

printf '%-22s %-7s %6s  %s\n' stack exit time "false findings, laws and findings (id and where)"
plain=("$py" "$root/examples/python_plain/train.py" --out '{run_dir}')
row plain-loop "" --resume-args --resume -- "${plain[@]}"
row compiled-loop "" --resume-args --resume -- "${plain[@]}" --compile
# Resumes judged by what the run shows (tests/data/loops/resume_shapes.py): gradient accumulation
# under autocast with a CPU GradScaler (its kill once in the first checkpoint's write, seed 5, once
# past it), an EMA held in the checkpoint, a step counter saved as "micro".
shapes=("$py" "$root/tests/data/loops/resume_shapes.py" --out '{run_dir}' --shape)
row accum-amp-first-ckpt "" --kills 1 --seed 5 --resume-args --resume -- "${shapes[@]}" accum-amp
row accum-amp "" --resume-args --resume -- "${shapes[@]}" accum-amp
row ema "" --resume-args --resume -- "${shapes[@]}" ema
row micro-counter "" --resume-args --resume -- "${shapes[@]}" micro
row actor-critic "" --resume-args --resume -- "${shapes[@]}" actor-critic
row streamed "" --resume-args --resume -- "${shapes[@]}" streamed
# The silent bugs' near miss (tests/data/loops/silent_bugs.py): a frozen backbone in no optimizer,
# Monte Carlo dropout by a module set to train, a batch norm without running statistics.
row silent-bugs-correct "" --resume-args --resume -- "$py" "$root/tests/data/loops/silent_bugs.py" --out '{run_dir}'
for s in hf_trainer lightning_loop accelerate_loop; do
  module=$(sed -n 's/^from \([a-z]*\) import.*/\1/p;s/^import \(lightning\|accelerate\|transformers\).*/\1/p' \
    "$root/examples/frameworks/$s.py" | grep -m1 -E 'transformers|lightning|accelerate')
  if ! "$py" -c "import $module" 2>/dev/null; then
    printf '%-22s skipped: %s is not installed (pip install -r examples/frameworks/requirements.txt torch==2.14.1)\n' "$s" "$module"
    continue
  fi
  real=""
  [ "$s" = hf_trainer ] && real=non-atomic-checkpoint  # Trainer writes checkpoint-N/ in place
  row "$s" "$real" --resume-args --resume -- "$py" "$root/examples/frameworks/$s.py" --out '{run_dir}'
done
torchrun=$(dirname "$py")/torchrun
row torchrun-ddp "" --resume-args --resume -- "$torchrun" --standalone --nproc-per-node 2 \
  "$root/tests/data/loops/workers_loop.py" --out '{run_dir}' --workers 0
distributed=$root/examples/distributed
row fsdp2-dcp "" --resume-args --resume -- "$torchrun" --standalone --nproc-per-node 2 "$distributed/sharded_dcp.py" \
  --wrap fsdp2 --out '{run_dir}'
row ddp-dcp "" --resume-args --resume -- "$torchrun" --standalone --nproc-per-node 2 "$distributed/sharded_dcp.py" \
  --wrap ddp --out '{run_dir}'
row fsdp2-dcp-2to1 "" --restart-nproc 1 --resume-args --resume -- "$torchrun" --standalone --nproc-per-node 2 \
  "$distributed/sharded_dcp.py" --out '{run_dir}'
row fsdp2-dcp-1to2 "" --restart-nproc 2 --resume-args --resume -- "$torchrun" --standalone --nproc-per-node 1 \
  "$distributed/sharded_dcp.py" --out '{run_dir}'
row mp-spawn-ddp "" --resume-args --resume -- "$py" "$distributed/spawn_loop.py" --out '{run_dir}'
if [ -n "$nanogpt" ]; then
  src=$(cd "$nanogpt" && pwd)
  # nanoGPT's own: its checkpoint lacks the RNG state, and it is written over the live file.
  real="checkpoint-missing-state non-atomic-checkpoint resume-missing-rng-state law:exact"
  args=(--dataset=tiny --device=cpu --dtype=float32 --n_layer=1 --n_head=2 --n_embd=32 --block_size=32 --batch_size=4
        --max_iters=30 --lr_decay_iters=30 --warmup_iters=5 --eval_interval=10 --eval_iters=2 --log_interval=10
        --dropout=0.1 --out_dir='{run_dir}')
  [ -f "$src/data/tiny/train.bin" ] || { echo "nanoGPT: no data/tiny in $src (bench/nanogpt_mistakes.sh makes it)"; exit 2; }
  cd "$src" || exit 2
  for compile in False True; do
    # Compiled on the CPU, its runs differ from step 1 (docs/check.md): determinism really breaks.
    [ $compile = True ] && real="$real law:determinism"
    row "nanogpt-compile-$compile" "$real" --resume-args --init_from=resume -- "$py" train.py "${args[@]}" \
      --compile=$compile
  done
fi
if [ -n "${PYTORCH_EXAMPLES_DIR:-}" ]; then
  ex=$(cd "$PYTORCH_EXAMPLES_DIR" && pwd) expy=${PYTORCH_EXAMPLES_PYTHON:-$py}
  [ -f "$ex/dcgan/main.py" ] || { echo "pytorch/examples: no dcgan/main.py in $ex"; exit 2; }
  # Their data, made here: a corpus of English-like lines for word_language_model, and
  # generate_sine_wave.py's sine waves, 8 of 100 points (its 100 of 1000 take minutes a step).
  mkdir -p "$tmp/corpus" "$tmp/sine"
  "$expy" - "$tmp/corpus" "$tmp/sine/traindata.pt" <<'PY'
import os, random, sys
import numpy as np
import torch
corpus, sine = sys.argv[1:3]
rng = random.Random(7)
parts = [s.split("|") for s in (
    "the cat|a dog|the old man|my sister|the river|a small bird|the teacher|our town|the machine|a stranger",
    "saw|found|carried|watched|followed|painted|forgot|remembered|built|opened",
    "a red door|the long road|an empty house|the morning light|a letter|the green hill|a quiet song|the last train",
    "before dawn|in the rain|near the market|after the storm|with great care|without a word|by the sea|late at night")]
for name, lines in (("train", 400), ("valid", 60), ("test", 60)):
    with open(os.path.join(corpus, name + ".txt"), "w") as f:
        for _ in range(lines):
            f.write(" " + " ".join(" ".join(rng.choice(p) for p in parts) + " ." for _ in range(rng.randint(1, 3))) + " \n")
np.random.seed(2)
x = np.arange(100) + np.random.randint(-80, 80, 8).reshape(8, 1)
torch.save(np.sin(x / 20.0).astype("float64"), open(sine, "wb"))
PY
  # Seeded (--seed 1111), an update by hand (p.data.add_), no resume path.
  row wlm-manual-sgd "" --kills 0 -- "$expy" "$ex/word_language_model/main.py" --data "$tmp/corpus" \
    --emsize 16 --nhid 16 --epochs 1 --bptt 8 --batch_size 4 --save '{run_dir}/model.pt'
  # Never seeded: the target polynomial and every batch are drawn anew in each run.
  row regression "unseeded-rng law:determinism" --kills 0 -- "$expy" "$ex/regression/main.py"
  if "$expy" -c "import torchvision" 2>/dev/null; then
    dcgan=("$expy" "$ex/dcgan/main.py" --dataset fake --niter 2 --batchSize 50 --nz 8 --ngf 4 --ndf 4 --outf '{run_dir}')
    row dcgan-seeded "" --kills 0 -- "${dcgan[@]}" --manualSeed 1
    # Without --manualSeed its seed is random.randint(1, 10000): another in every run.
    row dcgan-unseeded "unseeded-rng law:determinism" --kills 0 -- "${dcgan[@]}"
    # Its resume loads the models of epoch 0 alone, written in place: fresh Adam moments, the
    # RNG seeded anew, epoch 0's batches, and every epoch trained again.
    real="checkpoint-missing-state non-atomic-checkpoint resume-missing-optimizer-state resume-missing-rng-state"
    row dcgan-resume "$real resume-missing-data-position law:exact" \
      --resume-args '--netG {run_dir}/netG_epoch_0.pth --netD {run_dir}/netD_epoch_0.pth' -- "${dcgan[@]}" --manualSeed 1
  else
    printf '%-22s skipped: torchvision is not installed (pip install torch==2.14.1 torchvision==0.29.1)\n' dcgan
  fi
  if "$expy" -c "import matplotlib" 2>/dev/null; then
    # LBFGS and its closure; it reads traindata.pt and writes its plots in the working folder. Its
    # torch.load of a numpy array needs weights_only=False, which it does not pass (torch >= 2.6).
    cd "$tmp/sine" || exit 2
    row lbfgs-closure "" --kills 0 -- env TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD=1 \
      "$expy" "$ex/time_sequence_prediction/train.py" --steps 3
  else
    printf '%-22s skipped: matplotlib is not installed (pip install matplotlib==3.11.2)\n' lbfgs-closure
  fi
fi
echo "false-findings: $total stacks, $false_total with a false finding"
exit $failed
