#!/usr/bin/env bash
# The documents' mistakes planted, one at a time, into a training script none of us wrote:
# nanoGPT's train.py and model.py (a checkout of https://github.com/karpathy/nanoGPT), each
# copy changed by one line, each held by `trainproof check --runs 1` (one run: the findings;
# two where two runs part: nondeterministic-op and its twin),
# and the unmodified script first. A row per mistake: whether its id was named, and every finding
# with its step, file:line and the text of that line (a deleted line is named where its absence
# shows: a forgotten zero_grad at the next backward, a forgotten eval() at the forward).
#   bench/nanogpt_mistakes.sh NANOGPT_DIR [PYTHON] [TRAINPROOF_BIN]
# The eager rows of the first eight mistakes are what `trainproof mutate` plants by itself, from
# the syntax tree, with no sed line (bench/mutate_public.sh: each caught by the same id at the
# same line). Their rows stay here for the compiled form, which mutate's bench does not run
# (a compiled check per mutant), and for the twins mutate cannot build: nanoGPT has no
# scheduler and no CPU scaler to mutate, and noise from an OS-seeded generator is no mutation.
# NANOGPT_COMPILE=True runs every row with nanoGPT's --compile=True (torch.compile, inductor, its
# default): the verdicts must be the rows' eager ones.
# NANOGPT_DIR holds train.py, model.py, configurator.py; the tiny data set (20,000 random
# tokens of a 65-token vocabulary) is made beside them when absent. Each run takes a Python
# start and 30 iterations of a one-layer model on the CPU.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$1" && pwd) py=${2:-$HOME/.cache/trainproof/venv-torch-2.14.1/bin/python} bin=${3:-$root/build/trainproof}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=(--dataset=tiny --device=cpu --compile="${NANOGPT_COMPILE:-False}" --dtype=float32 --n_layer=1 --n_head=2 --n_embd=32
      --block_size=32 --batch_size=4 --max_iters=30 --lr_decay_iters=30 --warmup_iters=5 --eval_interval=10
      --eval_iters=2 --log_interval=10 --dropout=0.1)
"$py" "$root/bench/nanogpt_tiny_data.py" "$src"

# plant ID FILE [LINE_REGEX SED_EXPRESSION]...: a copy of the script with the lines changed,
# each edit on the first line its regex matches then (or, with FILE empty, as it is); runs check
# and prints what it named, each with the named line's text.
plant() {
  local id=$1 file=$2 dir=$tmp/$1 line rc
  shift 2
  rm -rf "$dir" && mkdir -p "$dir" && cp "$src"/{train.py,model.py,configurator.py} "$dir/" && ln -s "$src/data" "$dir/data"
  while [ $# -ge 2 ]; do
    line=$(grep -nE -- "$1" "$dir/$file" | head -1 | cut -d: -f1)
    [ -n "$line" ] || { printf '%-30s NOT PLANTED: no line matches %s in %s\n' "$id" "$1" "$file"; return; }
    sed -i "${line}$2" "$dir/$file"
    shift 2
  done
  [ -n "$file" ] && cmp -s "$dir/$file" "$src/$file" && { printf '%-30s NOT PLANTED: the edits changed nothing\n' "$id"; return; }
  local cmd=("$py" train.py "${args[@]}" --out_dir='{run_dir}')
  # A resume loads the checkpoint: the first run writes it, a second resumes from it.
  [ "$id" = unsafe-torch-load ] &&
    cmd=(sh -c "$(printf '%q ' "${cmd[@]}") && $(printf '%q ' "${cmd[@]}") --init_from=resume --max_iters=31")
  # Two runs where the mistake is that two runs part; one elsewhere (the findings need one).
  local runs=1
  [[ $id == nondeterministic-op || $id == twin-seeded-noise ]] && runs=2
  (cd "$dir" && "$bin" check --runs "$runs" --json "$dir/report.json" -- "${cmd[@]}" >"$dir/out.log" 2>&1)
  rc=$?
  local verdict=MISSED
  [ -z "$file" ] || [[ $id == twin-* ]] && verdict="-"
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
    step = f.get("step", -1)
    at = f"at step {step}" if step >= 0 else "(no single step)"
    named.append(f"{f['id']} {at} {where} `{text[:60]}`")
    if f["id"] == want:
        verdict = "named"
print(f"{want:<30} {verdict:<7} exit {rc}: " + ("; ".join(named) or "(no finding)"))
PY
}

printf '%-30s %-7s %s\n' "planted mistake" "verdict" "what check named: id, step, file:line and that line"
plant none ""  # nanoGPT as it is
plant zero-grad-missing train.py 'optimizer\.zero_grad\(set_to_none=True\)' 'd'
plant eval-mode-forgotten train.py '^    model\.eval\(\)' 'd'
plant train-mode-forgotten train.py '^    model\.train\(\)' 'd'
plant softmax-before-cross-entropy model.py 'F\.cross_entropy\(logits\.view' 's/logits\.view(-1, logits\.size(-1))/logits.view(-1, logits.size(-1)).softmax(-1)/'
plant weight-decay-on-bias-or-norm model.py "'params': nodecay_params, 'weight_decay': 0\.0" "s/'weight_decay': 0\.0/'weight_decay': weight_decay/"
plant unsafe-torch-load train.py 'checkpoint = torch\.load\(ckpt_path' 's/map_location=device)/map_location=device, weights_only=False)/'
plant unseeded-rng train.py '^torch\.manual_seed\(1337' 'd'
plant validation-with-grad train.py '^@torch\.no_grad\(\)' 'd'
# nanoGPT's GradScaler is CUDA's (a no-op on the CPU) and it sets the lr by hand. For the
# remaining mistakes the copies first get what the documents have there, each then checked as
# it is (a correct twin, which must draw nothing new) and with the mistake: a scaler the CPU
# runs (torch.amp.GradScaler('cpu')), and its get_lr handed to a LambdaLR stepped once an
# iteration after the optimizer, instead of its hand-set param_group['lr'].
cpu_scaler=('^scaler = torch\.cuda\.amp\.GradScaler' "s/torch\.cuda\.amp\.GradScaler(enabled=(dtype == 'float16'))/torch.amp.GradScaler('cpu')/")
no_unscale=('^        scaler\.unscale_\(optimizer\)' 'd')
scheduler=('^# training loop' 'i scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda it: get_lr(it) / learning_rate)'
           "^        param_group\['lr'\] = lr" 's/param_group.*/pass/')
after_optimizer=('^    scaler\.update\(\)' 'a\    scheduler.step()')
per_eval=('^    scaler\.update\(\)' 'a\    if iter_num % eval_interval == 0: scheduler.step()')
before_optimizer=('^    scaler\.step\(optimizer\)' 'i\    scheduler.step()')
plant twin-scaler-on-the-cpu train.py "${cpu_scaler[@]}"
plant clip-before-unscale train.py "${cpu_scaler[@]}" "${no_unscale[@]}"
plant twin-lambda-lr-per-step train.py "${scheduler[@]}" "${after_optimizer[@]}"
plant scheduler-per-epoch train.py "${scheduler[@]}" "${per_eval[@]}"
plant scheduler-before-optimizer train.py "${scheduler[@]}" "${before_optimizer[@]}"
# Noise on the embeddings from a generator the OS seeds: two runs part, and the op is named by
# the rerun with op-level digests; its twin seeds the generator.
noise=('^from torch\.nn import functional as F' 'a _noise = torch.Generator(); _noise.seed()'
       '^        x = self\.transformer\.drop\(tok_emb \+ pos_emb\)'
       's/tok_emb + pos_emb)/tok_emb + pos_emb + 1e-3 * torch.randn(tok_emb.shape, generator=_noise))/')
seeded=('^_noise = torch\.Generator\(\); _noise\.seed\(\)' 's/_noise\.seed()/_noise.manual_seed(0)/')
plant twin-seeded-noise model.py "${noise[@]}" "${seeded[@]}"
plant nondeterministic-op model.py "${noise[@]}"
