"""A training loop written with Hugging Face Accelerate, as its documentation writes one: it imports
nothing from trainproof, and resumes only when given --resume. `trainproof check` runs it as it is:

    trainproof check --kills 1 --resume-args '--resume' -- python examples/frameworks/accelerate_loop.py --out {run_dir}

Accelerator(cpu=True) prepares a small MLP with dropout, AdamW (weight decay on the weights only),
a warmup-then-linear LambdaLR stepped per optimizer step, and a DataLoader over a seeded synthetic
TensorDataset, shuffled by accelerate's seedable sampler (the order of epoch e depends on the seed
and e only, so a restart can rebuild it). 32 steps of 10-batch epochs; every 8 steps
accelerator.save_state() writes model, optimizer, scheduler and RNG states into step_N.tmp,
renamed to step_N once complete. --resume loads the newest step_N with accelerator.load_state(),
and accelerator.skip_first_batches() skips the batches of the epoch that step already trained.
The last line printed is `final-digest HEX`: sha256 over every tensor of the final state_dict.

--mistake plants one mistake where Accelerate leaves it to the user (the finding `check` names):
  decay-on-bias     AdamW(model.parameters(), weight_decay=...) (weight-decay-on-bias-or-norm)
  no-zero-grad      optimizer.zero_grad() left out of the loop (zero-grad-missing)
  no-data-position  resume without skip_first_batches: the epoch restarts at its first batch
                    (resume-missing-data-position)
  non-atomic-save   save_state() straight into step_N, the folder a restart loads
                    (non-atomic-checkpoint)
  reshuffle         a plain shuffled DataLoader (no seedable sampler, no generator of its own):
                    load_state restores the torch RNG, and the restart's new iterator draws a new
                    order from it (resume-rng-redrawn)
--stop-after N stops after step N without a kill, to try a resume by hand."""
import argparse
import hashlib
import os
import re
import shutil

import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import DataLoaderConfiguration, set_seed
from torch.utils.data import DataLoader, TensorDataset

MISTAKES = ("none", "decay-on-bias", "no-zero-grad", "no-data-position", "non-atomic-save", "reshuffle")
STEPS, WARMUP, BATCH, SAMPLES, CKPT_EVERY, SEED = 32, 4, 8, 80, 8, 0


def digest(model):
    """sha256 over the bytes of every tensor of the state_dict, in name order."""
    h = hashlib.sha256()
    for name, t in sorted(model.state_dict().items()):
        h.update(name.encode())
        h.update(t.detach().cpu().contiguous().view(-1).view(torch.uint8).numpy().tobytes())
    return h.hexdigest()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True, help="checkpoint folder")
    p.add_argument("--resume", action="store_true", help="resume from the newest step_N in --out")
    p.add_argument("--mistake", default="none", choices=MISTAKES)
    p.add_argument("--stop-after", type=int, default=0, help="stop after this step (no kill)")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    torch.set_num_threads(1)  # a tiny model: one thread is fastest, and the digest then holds on any core count

    seedable = args.mistake != "reshuffle"
    accelerator = Accelerator(cpu=True, dataloader_config=DataLoaderConfiguration(use_seedable_sampler=seedable))
    set_seed(SEED)
    data = torch.Generator().manual_seed(SEED)
    x = torch.randn(SAMPLES, 16, generator=data)
    y = (x[:, :8].sum(1) > 0).long() + 2 * (x[:, 8:].sum(1) > 0).long()
    loader = DataLoader(TensorDataset(x, y), batch_size=BATCH, shuffle=True, num_workers=0,
                        generator=torch.Generator().manual_seed(SEED) if seedable else None)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 4))
    if args.mistake == "decay-on-bias":
        groups = model.parameters()
    else:
        groups = [{"params": [q for q in model.parameters() if q.ndim >= 2], "weight_decay": 0.05},
                  {"params": [q for q in model.parameters() if q.ndim < 2], "weight_decay": 0.0}]
    optimizer = torch.optim.AdamW(groups, lr=1e-2, weight_decay=0.05)
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: (s + 1) / WARMUP if s < WARMUP else (STEPS - s) / (STEPS - WARMUP))
    model, optimizer, loader, scheduler = accelerator.prepare(model, optimizer, loader, scheduler)

    step = 0
    saved = [int(m.group(1)) for m in (re.fullmatch(r"step_(\d+)", d) for d in os.listdir(args.out)) if m]
    if args.resume and saved:
        step = max(saved)
        accelerator.load_state(os.path.join(args.out, f"step_{step}"))
    model.train()
    stop = min(args.stop_after or STEPS, STEPS)
    while step < stop:
        epoch, done = divmod(step, len(loader))
        loader.set_epoch(epoch)
        batches = loader
        if done and args.mistake != "no-data-position":
            batches = accelerator.skip_first_batches(loader, done)
        for inputs, targets in batches:
            loss = F.cross_entropy(model(inputs), targets)
            accelerator.backward(loss)
            optimizer.step()
            scheduler.step()
            if args.mistake != "no-zero-grad":
                optimizer.zero_grad()
            step += 1
            if step % CKPT_EVERY == 0:
                final = os.path.join(args.out, f"step_{step}")
                if args.mistake == "non-atomic-save":
                    accelerator.save_state(final)
                else:
                    tmp = final + ".tmp"
                    shutil.rmtree(tmp, ignore_errors=True)
                    accelerator.save_state(tmp)
                    shutil.rmtree(final, ignore_errors=True)  # a step_N left by an earlier run
                    os.replace(tmp, final)
            if step == stop:
                break
    print(f"stopped after step {step}")
    print(f"final-digest {digest(accelerator.unwrap_model(model))}")


if __name__ == "__main__":
    main()
