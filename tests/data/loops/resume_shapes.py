"""Loops whose resume `trainproof check` must judge by what the run shows, each correct unless
--mistake says otherwise (tests/check_resume_shapes_test.py):
  accum-amp  gradient accumulation over 4 micro-batches under bfloat16 autocast, a CPU GradScaler,
             a LambdaLR warmup, dropout; a checkpoint every 4 steps written atomically (a
             temporary file, then os.replace), a few MB so that a kill can land in its write
  ema        an EMA of the weights (torch.optim.swa_utils.AveragedModel), evaluated and saved
             at the end (ema.pt); the checkpoint holds it
  micro      the step counter saved under the key "micro"
  workers    a DataLoader with 2 workers and a random augmentation, 5 batches an epoch, each
             epoch's order drawn from a generator seeded by the epoch; a restart skips to its
             position; the augmentation drawn from a generator seeded by the epoch and the sample
Mistakes: accum-amp no-scheduler (the checkpoint leaves the scheduler out), ema ema-not-saved
(the checkpoint leaves the EMA out; a restart rebuilds it from the loaded weights), micro
micro-not-restored (saved, but a restart counts from 0 again), workers reseeded-workers (the
augmentation drawn from the worker's RNG, which every new iterator seeds from the loader's own
generator, not restored: the same samples, other values) and workers lost-position (a restart
begins its epoch at the first batch: other samples).
usage: resume_shapes.py --shape S --out DIR [--mistake M] [--resume]"""
import argparse
import os

import torch
from torch import nn
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn
from torch.utils.data import DataLoader, Dataset, RandomSampler

p = argparse.ArgumentParser()
p.add_argument("--shape", required=True, choices=["accum-amp", "ema", "micro", "workers"])
p.add_argument("--mistake", default="none")
p.add_argument("--out", required=True)
p.add_argument("--resume", action="store_true")
p.add_argument("--steps", type=int, default=24)
args = p.parse_args()
torch.set_num_threads(1)
torch.manual_seed(0)

wide = 384 if args.shape == "accum-amp" else 32
model = nn.Sequential(nn.Linear(16, wide), nn.ReLU(), nn.Dropout(0.1), nn.Linear(wide, wide), nn.ReLU(),
                      nn.Linear(wide, 4))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.0)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 8))
scaler = torch.amp.GradScaler("cpu", enabled=args.shape == "accum-amp")
ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9)) if args.shape == "ema" else None
micro_batches = 4 if args.shape == "accum-amp" else 1
x = torch.randn(40 if args.shape == "workers" else args.steps * micro_batches * 8, 16)
y = torch.randint(0, 4, (len(x),))
ckpt = os.path.join(args.out, "ckpt.pt")

step = 0
if args.resume and os.path.exists(ckpt):
    state = torch.load(ckpt)
    model.load_state_dict(state["model"])
    opt.load_state_dict(state["opt"])
    torch.set_rng_state(state["rng"])
    if "sched" in state:
        sched.load_state_dict(state["sched"])
    if "scaler" in state:
        scaler.load_state_dict(state["scaler"])
    if "ema" in state:
        ema.load_state_dict(state["ema"])
    elif ema is not None:
        ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
    if args.mistake != "micro-not-restored":
        step = state["micro"] if args.shape == "micro" else state["step"]


class Augmented(Dataset):
    """x with noise added, as a random augmentation would."""
    epoch = 0

    def __len__(self):
        return len(x)

    def __getitem__(self, i):
        if args.mistake == "reseeded-workers":
            noise = torch.randn(16)  # the worker's RNG: seeded anew by every iterator
        else:
            noise = torch.randn(16, generator=torch.Generator().manual_seed(self.epoch * 1009 + i))
        return x[i] + 0.1 * noise, y[i]


def loader_batches(step):
    """The batches from `step` on, 5 an epoch (a checkpoint every 4 steps falls inside one), each
    epoch's order a function of the epoch."""
    data, per_epoch, seeds = Augmented(), len(x) // 8, torch.Generator().manual_seed(1)
    resumed = True
    while True:
        epoch, skip = divmod(step, per_epoch)
        data.epoch = epoch
        order = torch.Generator().manual_seed(epoch)
        batches = iter(DataLoader(data, batch_size=8, sampler=RandomSampler(data, generator=order), num_workers=2,
                                  generator=seeds))
        if resumed and args.mistake == "lost-position":
            skip = 0
        for _ in range(skip):  # to the position the checkpoint saved
            next(batches)
        resumed = False
        for batch in batches:
            yield batch
            step += 1


def save_checkpoint(step):
    state = {"model": model.state_dict(), "opt": opt.state_dict(), "rng": torch.get_rng_state()}
    state["micro" if args.shape == "micro" else "step"] = step
    if args.shape == "accum-amp":
        state["scaler"] = scaler.state_dict()
        if args.mistake != "no-scheduler":
            state["sched"] = sched.state_dict()
    else:
        state["sched"] = sched.state_dict()
    if args.shape == "ema" and args.mistake != "ema-not-saved":
        state["ema"] = ema.state_dict()
    torch.save(state, ckpt + ".tmp")
    os.replace(ckpt + ".tmp", ckpt)


model.train()
stream = loader_batches(step) if args.shape == "workers" else None
while step < args.steps:
    total = 0.0
    for m in range(micro_batches):
        at = (step * micro_batches + m) * 8
        xb, yb = next(stream) if stream else (x[at:at + 8], y[at:at + 8])
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=args.shape == "accum-amp"):
            loss = nn.functional.cross_entropy(model(xb), yb) / micro_batches
        scaler.scale(loss).backward()
        total += loss.item()
    scaler.unscale_(opt)
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(opt)
    scaler.update()
    opt.zero_grad()
    sched.step()
    if ema is not None:
        ema.update_parameters(model)
    step += 1
    print(f"step {step} loss {total:.6f}", flush=True)
    if step % 4 == 0:
        save_checkpoint(step)

evaluated = ema if ema is not None else model
evaluated.eval()
with torch.no_grad():
    print(f"eval loss {nn.functional.cross_entropy(evaluated(x[:64]), y[:64]).item():.6f}")
torch.save(model.state_dict(), os.path.join(args.out, "final.pt"))
if ema is not None:
    torch.save(ema.state_dict(), os.path.join(args.out, "ema.pt"))
