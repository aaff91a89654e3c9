"""A training loop written the way the documents teach, and held to their laws by
`trainproof check`:

    trainproof check --kills 3 --expect-lr 'warmup-cosine --lr 3e-3 --warmup 6 --total 60' \
        -- python examples/python_loop/train.py --run-dir {run_dir}

AdamW with weight decay on weights only, warmup-cosine LambdaLR stepped per optimizer step,
bf16 autocast with a GradScaler (disabled on the CPU, as the documents do), dropout,
2-step gradient accumulation, clipping after unscale_, and an atomic checkpoint every 10
steps of model, optimizer, scheduler, scaler, step, data position and RNG state, resumed on
start. --mistake plants one of the classic errors, each of which `check` must catch:
    no-scheduler-state, no-rng-state, no-optimizer-state, no-data-position  (exact resume)
    unseeded-shuffle                                                        (determinism)
    non-atomic-save (torch.save straight onto the live checkpoint)          (exact resume)
    scheduler-per-epoch (a per-step schedule stepped once per epoch)       (the schedule)
    short-warmup (3 warmup steps where the schedule says 6)                (the schedule)
    lr-logged-after-step (the rate read after scheduler.step())            (the schedule)
On start it says when it finds an interrupted checkpoint write (a ckpt.pt.tmp left by a kill):
independent evidence that `check` killed it during a write."""
import argparse
import io
import math
import os
import pathlib
import sys

import torch
import torch.nn as nn

try:
    import trainproof
except ImportError:  # run from a checkout without `pip install ./python`
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python"))
    import trainproof

MISTAKES = ("none", "no-scheduler-state", "no-rng-state", "no-optimizer-state", "no-data-position",
            "unseeded-shuffle", "non-atomic-save", "scheduler-per-epoch", "short-warmup", "lr-logged-after-step")
ACCUM, BATCH, CKPT_EVERY = 2, 32, 10


def write_file(path, data):
    """A large checkpoint takes a while to reach the disk: written in chunks, each synced (1 KiB
    chunks: this small one takes some 8 ms on a local disk, long enough for a kill to land in)."""
    with open(path, "wb") as f:
        for i in range(0, len(data), 1024):
            f.write(data[i:i + 1024])
            f.flush()
            os.fsync(f.fileno())


def save_checkpoint(run_dir, state, atomic):
    buf = io.BytesIO()
    torch.save(state, buf)
    final = run_dir / "ckpt.pt"
    if not atomic:
        write_file(final, buf.getvalue())  # the mistake: a kill mid-write leaves a torn checkpoint
        return
    tmp = run_dir / "ckpt.pt.tmp"
    write_file(tmp, buf.getvalue())
    os.replace(tmp, final)  # a checkpoint is either complete or absent


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run-dir", required=True)
    ap.add_argument("--mistake", default="none", choices=MISTAKES)
    ap.add_argument("--steps", type=int, default=60, help="optimizer steps (the schedule's total)")
    ap.add_argument("--dropout", type=float, default=0.1, help="a change to the training code that moves its curve")
    a = ap.parse_args()
    STEPS = a.steps
    WARMUP = 3 if a.mistake == "short-warmup" else 6
    run_dir = pathlib.Path(a.run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    torn = run_dir / "ckpt.pt.tmp"
    if torn.exists():  # a kill during a write: the live checkpoint is untouched, the torn one is dropped
        print(f"found an interrupted checkpoint write: {torn.name} ({torn.stat().st_size} bytes), discarded", flush=True)
        torn.unlink()
    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True)

    data_gen = torch.Generator().manual_seed(1234)
    X = torch.randn(512, 16, generator=data_gen)
    y = (X[:, :4].sum(1) > 0).long()
    fc1, relu, drop, fc2 = nn.Linear(16, 64), nn.ReLU(), nn.Dropout(a.dropout), nn.Linear(64, 2)
    model = nn.Sequential(fc1, relu, drop, fc2)
    decay = [p for n, p in model.named_parameters() if not n.endswith("bias")]
    no_decay = [p for n, p in model.named_parameters() if n.endswith("bias")]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01}, {"params": no_decay, "weight_decay": 0.0}],
                            lr=3e-3, foreach=False)

    def warmup_cosine(step):
        if step < WARMUP:
            return (step + 1) / WARMUP
        return 0.5 * (1 + math.cos(math.pi * (step - WARMUP) / (STEPS - WARMUP)))

    sched = torch.optim.lr_scheduler.LambdaLR(opt, warmup_cosine)
    scaler = torch.amp.GradScaler("cpu", enabled=False)  # bf16 needs no scaler
    step, epoch, batch = 0, 0, 0

    ckpt = run_dir / "ckpt.pt"
    if ckpt.exists():  # resume, as a preemptible job does
        s = torch.load(ckpt, weights_only=True)  # document 003: never unpickle arbitrary code
        model.load_state_dict(s["model"])
        if a.mistake != "no-optimizer-state":
            opt.load_state_dict(s["optimizer"])
        if a.mistake != "no-scheduler-state":
            sched.load_state_dict(s["scheduler"])
        scaler.load_state_dict(s["scaler"])
        step, epoch = s["step"], s["epoch"]
        batch = 0 if a.mistake == "no-data-position" else s["batch"]
        if a.mistake != "no-rng-state":
            torch.set_rng_state(s["rng"])

    rec = trainproof.Recorder()
    per_epoch = len(X) // (BATCH * ACCUM)
    model.train()
    while step < STEPS:
        shuffle = torch.Generator()
        if a.mistake != "unseeded-shuffle":
            shuffle.manual_seed(1000 + epoch)  # the data order is a function of the epoch
        else:
            shuffle.seed()
        order = torch.randperm(len(X), generator=shuffle)
        while batch < per_epoch and step < STEPS:
            opt.zero_grad()
            total = 0.0
            for micro in range(ACCUM):
                idx = order[(batch * ACCUM + micro) * BATCH:(batch * ACCUM + micro + 1) * BATCH]
                with torch.autocast("cpu", dtype=torch.bfloat16):
                    loss = nn.functional.cross_entropy(model(X[idx]), y[idx]) / ACCUM
                scaler.scale(loss).backward()
                total += loss.item()
            scaler.unscale_(opt)
            norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
            lr = sched.get_last_lr()[0]  # the rate this step uses
            scaler.step(opt)
            scaler.update()
            if a.mistake != "scheduler-per-epoch":
                sched.step()  # per optimizer step, not per epoch
            if a.mistake == "lr-logged-after-step":
                lr = sched.get_last_lr()[0]  # the next step's rate
            batch += 1
            step += 1
            rec.log(step, loss=total, lr=lr, grad_norm=norm)
            if step % CKPT_EVERY == 0:
                state = {"model": model.state_dict(), "optimizer": opt.state_dict(), "scheduler": sched.state_dict(),
                         "scaler": scaler.state_dict(), "step": step, "epoch": epoch, "batch": batch,
                         "rng": torch.get_rng_state()}
                save_checkpoint(run_dir, state, atomic=a.mistake != "non-atomic-save")
        if batch == per_epoch:
            epoch, batch = epoch + 1, 0
            if a.mistake == "scheduler-per-epoch":
                sched.step()
    rec.params(model)
    rec.close()
    print(f"trained {step} steps")


if __name__ == "__main__":
    main()
