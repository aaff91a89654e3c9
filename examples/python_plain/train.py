"""A training script as a team writes it: it imports nothing from trainproof, and resumes
only when given --resume. `trainproof check` holds it to the documents' laws all the same:

    trainproof check --kills 2 --resume-args '--resume' -- python examples/python_plain/train.py --out {run_dir}

AdamW with a warmup-cosine LambdaLR stepped per optimizer step, dropout, an enabled GradScaler
(on the CPU too, so that its state matters), the data reshuffled each epoch from the global
torch RNG, and a checkpoint every 5 steps written atomically (a temporary file, then
os.replace) holding model, optimizer, scheduler, scaler, step, data position and RNG state.
--mistake plants one resume mistake of document 003, each of which `check` must name:
    no-rng-state, no-optimizer-state, no-scheduler-state, no-data-position, no-scaler-state,
    no-model-state, non-atomic-save (torch.save straight onto the checkpoint it resumes from)"""
import argparse
import math
import os

import torch
import torch.nn as nn

MISTAKES = ("none", "no-rng-state", "no-optimizer-state", "no-scheduler-state", "no-data-position",
            "no-scaler-state", "no-model-state", "non-atomic-save")
STEPS, WARMUP, BATCH, CKPT_EVERY = 30, 5, 32, 5


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True, help="where the checkpoint lives")
    ap.add_argument("--resume", action="store_true", help="resume from OUT/ckpt.pt")
    ap.add_argument("--mistake", default="none", choices=MISTAKES)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    ckpt = os.path.join(a.out, "ckpt.pt")

    torch.manual_seed(0)
    data = torch.Generator().manual_seed(1234)
    X = torch.randn(640, 32, generator=data)
    y = X[:, :4].argmax(1)
    fc1, relu, drop, fc2, head = nn.Linear(32, 1024), nn.ReLU(), nn.Dropout(0.1), nn.Linear(1024, 256), nn.Linear(256, 4)
    model = nn.Sequential(fc1, relu, drop, fc2, nn.ReLU(), head)
    decay = [p for n, p in model.named_parameters() if p.dim() > 1]
    no_decay = [p for n, p in model.named_parameters() if p.dim() <= 1]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01}, {"params": no_decay, "weight_decay": 0.0}],
                            lr=1e-3, foreach=False)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: (s + 1) / WARMUP if s < WARMUP else 0.5 * (1 + math.cos(math.pi * (s - WARMUP) / (STEPS - WARMUP))))
    scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 8, growth_interval=3)
    step, epoch, batch = 0, 0, 0
    order = torch.randperm(len(X))

    if a.resume and os.path.exists(ckpt):
        s = torch.load(ckpt, weights_only=True)
        if a.mistake != "no-model-state":
            model.load_state_dict(s["model"])
        if a.mistake != "no-optimizer-state":
            opt.load_state_dict(s["optimizer"])
        if a.mistake != "no-scheduler-state":
            sched.load_state_dict(s["scheduler"])
        if a.mistake != "no-scaler-state":
            scaler.load_state_dict(s["scaler"])
        step, epoch, order = s["step"], s["epoch"], s["order"]
        batch = 0 if a.mistake == "no-data-position" else s["batch"]
        if a.mistake != "no-rng-state":
            torch.set_rng_state(s["rng"])

    per_epoch = len(X) // BATCH
    model.train()
    while step < STEPS:
        idx = order[batch * BATCH:(batch + 1) * BATCH]
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(X[idx]), y[idx])
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        scaler.step(opt)
        scaler.update()
        sched.step()
        step, batch = step + 1, batch + 1
        if batch == per_epoch:
            epoch, batch, order = epoch + 1, 0, torch.randperm(len(X))
        if step % CKPT_EVERY == 0:
            state = {"model": model.state_dict(), "optimizer": opt.state_dict(), "scheduler": sched.state_dict(),
                     "scaler": scaler.state_dict(), "step": step, "epoch": epoch, "batch": batch, "order": order,
                     "rng": torch.get_rng_state()}
            if a.mistake == "non-atomic-save":
                torch.save(state, ckpt)  # the mistake: a kill during this write leaves no good checkpoint
            else:
                torch.save(state, ckpt + ".tmp")
                os.replace(ckpt + ".tmp", ckpt)  # a checkpoint is either complete or absent
    print(f"trained {step} steps, loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
