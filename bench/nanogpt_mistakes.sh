#!/usr/bin/env bash
# The documents' mistakes planted, one at a time, into a training script none of us wrote:
# nanoGPT's train.py and model.py (a checkout of https://github.com/karpathy/nanoGPT), each
# copy changed by one line, each held by `trainproof check --runs 1` (one run: the findings),
# and the unmodified script first. A row per mistake: the finding ids check named, and whether
# the planted one is among them at the planted line.
#   bench/nanogpt_mistakes.sh NANOGPT_DIR [PYTHON] [TRAINPROOF_BIN]
# NANOGPT_DIR holds train.py, model.py, configurator.py; the tiny data set (20,000 random
# tokens of a 65-token vocabulary) is made beside them when absent. Each run takes a Python
# start and 30 iterations of a one-layer model on the CPU.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$1" && pwd) py=${2:-$HOME/.cache/trainproof/venv-torch-2.14.1/bin/python} bin=${3:-$root/build/trainproof}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=(--dataset=tiny --device=cpu --compile=False --dtype=float32 --n_layer=1 --n_head=2 --n_embd=32
      --block_size=32 --batch_size=4 --max_iters=30 --lr_decay_iters=30 --warmup_iters=5 --eval_interval=10
      --eval_iters=2 --log_interval=10 --dropout=0.1)
if [ ! -f "$src/data/tiny/train.bin" ]; then
  mkdir -p "$src/data/tiny"
  "$py" - "$src/data/tiny" <<'PY'
import pickle, sys
import numpy as np
rng = np.random.default_rng(0)
for split in ("train", "val"):
    rng.integers(0, 65, 20000).astype(np.uint16).tofile(f"{sys.argv[1]}/{split}.bin")
pickle.dump({"vocab_size": 65}, open(f"{sys.argv[1]}/meta.pkl", "wb"))
PY
fi

# plant ID FILE LINE_REGEX SED_EXPRESSION: a copy of the script with one line changed; runs check.
plant() {
  local id=$1 file=$2 where=$3 edit=$4 dir=$tmp/$1 line rc found
  rm -rf "$dir" && mkdir -p "$dir" && cp "$src"/{train.py,model.py,configurator.py} "$dir/" && ln -s "$src/data" "$dir/data"
  if [ -n "$file" ]; then
    line=$(grep -nE -- "$where" "$dir/$file" | head -1 | cut -d: -f1)
    [ -n "$line" ] || { printf '%-30s %s\n' "$id" "NOT PLANTED: no line matches '$where' in $file"; return; }
    sed -i "${line}${edit}" "$dir/$file"
    cmp -s "$dir/$file" "$src/$file" && { printf '%-30s %s\n' "$id" "NOT PLANTED: '$edit' changed nothing"; return; }
  fi
  local cmd=("$py" train.py "${args[@]}" --out_dir='{run_dir}')
  [ "$id" = unsafe-torch-load ] && cmd=(sh -c "$(printf '%q ' "${cmd[@]}") && $(printf '%q ' "${cmd[@]}") --init_from=resume --max_iters=31")
  (cd "$dir" && "$bin" check --runs 1 --json "$dir/report.json" -- "${cmd[@]}" >"$dir/out.log" 2>&1)
  rc=$?
  found=$("$py" -c "import json,sys; print(' '.join(f['id']+'@'+(f.get('where') or '?') for f in json.load(open(sys.argv[1]))['findings']) or '(none)')" "$dir/report.json" 2>/dev/null || echo "(no report: exit $rc)")
  local verdict="-"
  if [ -n "$file" ]; then
    verdict="MISSED"
    grep -q -- "$id@$file:$line" <<<"$found" && verdict="named at $file:$line"
    grep -q -- "$id@" <<<"$found" && [ "$verdict" = MISSED ] && verdict="named, not at $file:$line"
  fi
  printf '%-30s %-28s exit %d  %s\n' "$id" "$verdict" "$rc" "$found"
}

printf '%-30s %-28s %s\n' "planted mistake" "verdict" "what check named (id@file:line)"
plant "(none: nanoGPT as it is)" "" "" ""
plant zero-grad-missing train.py 'optimizer\.zero_grad\(set_to_none=True\)' 'd'
plant eval-mode-forgotten train.py '^    model\.eval\(\)' 'd'
plant train-mode-forgotten train.py '^    model\.train\(\)' 'd'
plant softmax-before-cross-entropy model.py 'F\.cross_entropy\(logits\.view' 's/logits\.view(-1, logits\.size(-1))/logits.view(-1, logits.size(-1)).softmax(-1)/'
plant weight-decay-on-bias-or-norm model.py 'p\.dim\(\) >= 2\]' 's/p\.dim() >= 2/p.dim() >= 1/'
plant unsafe-torch-load train.py 'checkpoint = torch\.load\(ckpt_path' 's/map_location=device)/map_location=device, weights_only=False)/'
plant unseeded-rng train.py '^torch\.manual_seed\(1337' 'd'
plant validation-with-grad train.py '^@torch\.no_grad\(\)' 'd'
echo "(nanoGPT has no GradScaler on the CPU and no scheduler object: clip-before-unscale, scheduler-per-epoch and"
echo " scheduler-before-optimizer have nothing to be planted in.)"
