#!/usr/bin/env bash
# The false-finding rate of `trainproof check`: the correct form of every stack teams train with,
# each unmodified, killed once and restarted (--kills 1 --seed 3), one row per stack with its laws,
# its findings, and those of them that are false (not in the row's list of what that script
# really has). The target is 0 false findings. It exits 1 when a stack draws a false finding, has
# no report, or breaks (or leaves NOT TESTED) a law its script does not really break; the
# laws a script really breaks are named in its row as law:<name> ("law:exact", "law:determinism").
#   bench/false_findings.sh [NANOGPT_DIR] [PYTHON] [TRAINPROOF_BIN]
# Stacks: the plain loop (examples/python_plain), the same loop torch.compile'd (inductor),
# Hugging Face Trainer, Lightning and accelerate's own loop (examples/frameworks; skipped where
# the framework is not installed), a torchrun data-parallel loop (2 ranks on gloo,
# tests/data/loops/workers_loop.py), the loops of examples/distributed (FSDP2 and DDP with DCP
# checkpoints under torchrun, and DDP started by mp.spawn), and, with NANOGPT_DIR (a checkout of nanoGPT, as
# bench/nanogpt_mistakes.sh takes it), nanoGPT as it is, eager and compiled.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
nanogpt=${1:-} py=${2:-$HOME/.cache/trainproof/venv-torch-2.14.1/bin/python} bin=${3:-$root/build/trainproof}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
total=0 false_total=0 failed=0

# row NAME 'REAL FINDING IDS' [check options] -- CMD...: one stack's check and its row.
# FALSE_FINDINGS_ROWS=name,name runs those rows only.
row() {
  local name=$1 real=$2
  shift 2
  [ -n "${FALSE_FINDINGS_ROWS:-}" ] && [[ ",$FALSE_FINDINGS_ROWS," != *",$name,"* ]] && return
  local opts=() started=$SECONDS
  while [ "$1" != -- ]; do opts+=("$1"); shift; done
  shift
  env -u PYTHONPATH "$bin" check --kills 1 --seed 3 "${opts[@]}" --json "$tmp/$name.json" -- "$@" \
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
echo "false-findings: $total stacks, $false_total with a false finding"
exit $failed
