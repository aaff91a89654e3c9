#!/usr/bin/env bash
# How much of the documents' mistakes `check` catches on scripts, measured by `trainproof mutate`:
# nanoGPT (a checkout of https://github.com/karpathy/nanoGPT, fetched, not vendored) and every
# example under examples/ that `check` runs, the framework examples included. A row per script:
# the mutants planted, caught, survived and not applicable, the detection rate over the
# applicable ones, and the findings the unmutated script draws (false ones, on correct code).
#   bench/mutate_public.sh NANOGPT_DIR [PYTHON] [TRAINPROOF_BIN]
# NANOGPT_DIR as bench/nanogpt_mistakes.sh takes it (its tiny data set is made there when absent).
# MUTATE_ONLY=ID,ID passes --only to every script; MUTATE_SCRIPTS=name,name runs some rows;
# MUTATE_KEEP=DIR keeps each script's mutate output and JSON report there (NAME.log, NAME.json).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$1" && pwd) py=${2:-$HOME/.cache/trainproof/venv-torch-2.14.1/bin/python} bin=${3:-$root/build/trainproof}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
tmp=${MUTATE_KEEP:-$scratch}
mkdir -p "$tmp"
only=()
[ -n "${MUTATE_ONLY:-}" ] && only=(--only "$MUTATE_ONLY")
# The nanoGPT copy and its data, as the mistakes bench runs them (one layer, 30 iterations).
"$py" "$root/bench/nanogpt_tiny_data.py" "$src"
nanogpt=(--dataset=tiny --device=cpu --compile=False --dtype=float32 --n_layer=1 --n_head=2 --n_embd=32 --block_size=32
         --batch_size=4 --max_iters=30 --lr_decay_iters=30 --warmup_iters=5 --eval_interval=10 --eval_iters=2
         --log_interval=10 --dropout=0.1 --out_dir='{run_dir}' --always_save_checkpoint=True)
rm -rf "$tmp/nanogpt" && mkdir -p "$tmp/nanogpt" && cp "$src"/{train.py,model.py,configurator.py} "$tmp/nanogpt/" && ln -s "$src/data" "$tmp/nanogpt/data"
# name|folder to run in|check options|command (words split on blanks)
rows=("nanoGPT|$tmp/nanogpt|--kills 1 --runs 1 --resume-args --init_from=resume|$py train.py ${nanogpt[*]}"
      "python_plain|$root|--kills 1 --runs 1 --seed 3 --resume-args --resume|$py examples/python_plain/train.py --out {run_dir}"
      "hf_trainer|$root|--kills 1 --runs 1 --resume-args --resume|$py examples/frameworks/hf_trainer.py --out {run_dir}"
      "lightning_loop|$root|--kills 1 --runs 1 --resume-args --resume|$py examples/frameworks/lightning_loop.py --out {run_dir}"
      "accelerate_loop|$root|--kills 1 --runs 1 --resume-args --resume|$py examples/frameworks/accelerate_loop.py --out {run_dir}")
printf '%-16s %8s %7s %9s %15s %10s  %s\n' script mutants caught survived "not applicable" detection "unmutated script's findings"
for row in "${rows[@]}"; do
  IFS='|' read -r name dir opts cmd <<<"$row"
  [ -n "${MUTATE_SCRIPTS:-}" ] && [[ ",$MUTATE_SCRIPTS," != *",$name,"* ]] && continue
  # shellcheck disable=SC2086
  (cd "$dir" && "$bin" mutate $opts "${only[@]}" --json "$tmp/$name.json" -- $cmd >"$tmp/$name.log" 2>&1)
  "$py" - "$tmp/$name.json" "$name" "$tmp/$name.log" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except (OSError, ValueError):
    print(f"{sys.argv[2]:<16} no report: " + " | ".join(open(sys.argv[3]).read().strip().splitlines()[-2:]))
    sys.exit()
s = r["summary"]
rate = f"{s['caught'] / (s['caught'] + s['survived']):.0%}" if s["caught"] + s["survived"] else "-"
print(f"{sys.argv[2]:<16} {s['mutants']:>8} {s['caught']:>7} {s['survived']:>9} {s['not_applicable']:>15} {rate:>10}  "
      + ("; ".join(r["unmutated_findings"]) or "none"))
for m in r["mutants"]:  # each mutant: what caught it, or why not
    said = m.get("by") if m["outcome"] == "caught" else m.get("why", "")
    print(f"    {m['outcome']:<15} {m['id']:<29} {m['where']:<24} {said}")
PY
done
