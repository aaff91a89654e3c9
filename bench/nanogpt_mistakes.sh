#!/usr/bin/env bash
# The documents' mistakes planted, one at a time, into a training script none of us wrote:
# nanoGPT's train.py and model.py (a checkout of https://github.com/karpathy/nanoGPT), each
# copy changed by one line, each held by `trainproof check --runs 1` (one run: the findings),
# and the unmodified script first. A row per mistake: whether its id was named, and every finding
# with its step, file:line and the text of that line (a deleted line is named where its absence
# shows: a forgotten zero_grad at the next backward, a forgotten eval() at the forward).
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

# plant ID FILE LINE_REGEX SED_EXPRESSION: a copy of the script with one line changed (or, with
# FILE empty, as it is); runs check and prints what it named, each with the named line's text.
plant() {
  local id=$1 file=$2 where=$3 edit=$4 dir=$tmp/$1 line rc
  rm -rf "$dir" && mkdir -p "$dir" && cp "$src"/{train.py,model.py,configurator.py} "$dir/" && ln -s "$src/data" "$dir/data"
  if [ -n "$file" ]; then
    line=$(grep -nE -- "$where" "$dir/$file" | head -1 | cut -d: -f1)
    [ -n "$line" ] || { printf '%-30s NOT PLANTED: no line matches %s in %s\n' "$id" "$where" "$file"; return; }
    sed -i "${line}${edit}" "$dir/$file"
    cmp -s "$dir/$file" "$src/$file" && { printf '%-30s NOT PLANTED: %s changed nothing\n' "$id" "$edit"; return; }
  fi
  local cmd=("$py" train.py "${args[@]}" --out_dir='{run_dir}')
  # A resume loads the checkpoint: the first run writes it, a second resumes from it.
  [ "$id" = unsafe-torch-load ] &&
    cmd=(sh -c "$(printf '%q ' "${cmd[@]}") && $(printf '%q ' "${cmd[@]}") --init_from=resume --max_iters=31")
  (cd "$dir" && "$bin" check --runs 1 --json "$dir/report.json" -- "${cmd[@]}" >"$dir/out.log" 2>&1)
  rc=$?
  local verdict=MISSED
  [ -z "$file" ] && verdict="-"
  "$py" - "$dir" "$id" "$rc" "$verdict" <<'PY'
import json, pathlib, sys
d, want, rc, verdict = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
try:
    findings = json.load(open(d / "report.json"))["findings"]
except (OSError, ValueError):
    tail = (d / "out.log").read_text(errors="replace").strip().splitlines()[-3:]
    print(f"{want:<30} no report (exit {rc}): {' | '.join(tail)}")
    sys.exit()
named = []
for f in findings:
    where = f.get("where") or ""
    text = ""
    if ":" in where:
        name, line = where.rsplit(":", 1)
        lines = (d / name).read_text().splitlines() if (d / name).exists() else []
        text = lines[int(line) - 1].strip() if line.isdigit() and 0 < int(line) <= len(lines) else ""
    named.append(f"{f['id']} at step {f.get('step', '?')} {where} `{text[:60]}`")
    if f["id"] == want:
        verdict = "named"
print(f"{want:<30} {verdict:<7} exit {rc}: " + ("; ".join(named) or "(no finding)"))
PY
}

printf '%-30s %-7s %s\n' "planted mistake" "verdict" "what check named: id, step, file:line and that line"
plant none "" "" ""  # nanoGPT as it is
plant zero-grad-missing train.py 'optimizer\.zero_grad\(set_to_none=True\)' 'd'
plant eval-mode-forgotten train.py '^    model\.eval\(\)' 'd'
plant train-mode-forgotten train.py '^    model\.train\(\)' 'd'
plant softmax-before-cross-entropy model.py 'F\.cross_entropy\(logits\.view' 's/logits\.view(-1, logits\.size(-1))/logits.view(-1, logits.size(-1)).softmax(-1)/'
plant weight-decay-on-bias-or-norm model.py "'params': nodecay_params, 'weight_decay': 0\.0" "s/'weight_decay': 0\.0/'weight_decay': weight_decay/"
plant unsafe-torch-load train.py 'checkpoint = torch\.load\(ckpt_path' 's/map_location=device)/map_location=device, weights_only=False)/'
plant unseeded-rng train.py '^torch\.manual_seed\(1337' 'd'
plant validation-with-grad train.py '^@torch\.no_grad\(\)' 'd'
echo "(nanoGPT has no GradScaler on the CPU and no scheduler object: clip-before-unscale, scheduler-per-epoch and"
echo " scheduler-before-optimizer have nothing to be planted in.)"
