"""A training script as a team writes it: it imports nothing from trainproof, and resumes
only when given --resume. `trainproof check` holds it to the documents' laws all the same:

    trainproof check --kills 2 --resume-args '--resume' -- python examples/python_plain/train.py --out {run_dir}

AdamW with weight decay on weights only and a warmup-cosine LambdaLR stepped per optimizer
step, dropout, an enabled GradScaler (on the CPU too, so that its state matters) unscaled
before clipping, the data reshuffled each epoch from the global torch RNG, a validation every
10 steps (eval mode, no grad, then back to train mode), and a checkpoint every 5 steps written
atomically (a temporary file, then os.replace) holding model, optimizer, scheduler, scaler,
step, data position and RNG state, loaded with weights_only=True.

--compile [BACKEND] trains the model torch.compile'd: the probe observes it from outside the compiled
region and must draw the same verdicts.

--mistake plants mistakes of document 003 (one, or several joined by commas, which `check` names in
one run); `check` must name each by its finding id:
  resume:  no-rng-state, no-optimizer-state, no-scheduler-state, no-data-position,
           no-scaler-state, no-model-state, non-atomic-save (torch.save onto the live checkpoint)
  loop:    no-zero-grad, eval-forgotten, train-forgotten, validate-first-train-forgotten (a
           validation before the first step, as nanoGPT's, then no model.train()),
           validation-with-grad, softmax-before-ce,
           decay-on-bias, clip-before-unscale, scheduler-per-epoch, scheduler-before-optimizer,
           unsafe-load, incomplete-checkpoint (no RNG state saved), unseeded (seeded after the model), never-seeded
  determinism: unseeded-noise (input noise from a generator seeded by the OS), and its correct twin
           seeded-noise (the same noise from a seeded generator)
  resume, unseen: unsaved-generator (a noise layer drawing from a generator of its own, whose state
           the checkpoint does not hold), and its correct twin saved-generator"""
import argparse
import math
import os

import torch
import torch.nn as nn

MISTAKES = ("none", "no-rng-state", "no-optimizer-state", "no-scheduler-state", "no-data-position",
            "no-scaler-state", "no-model-state", "non-atomic-save", "no-zero-grad", "eval-forgotten",
            "train-forgotten", "validation-with-grad", "softmax-before-ce", "decay-on-bias", "clip-before-unscale",
            "scheduler-per-epoch", "scheduler-before-optimizer", "unsafe-load", "incomplete-checkpoint", "unseeded",
            "never-seeded", "unseeded-noise", "seeded-noise", "validate-first-train-forgotten", "unsaved-generator",
            "saved-generator")


def planted_mistakes(text):
    """--mistake's value: the set of mistakes named, each one of MISTAKES."""
    named = set(text.split(","))
    unknown = named - set(MISTAKES)
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown mistake {', '.join(sorted(unknown))}; known: {', '.join(MISTAKES)}")
    return named


STEPS, WARMUP, BATCH, CKPT_EVERY, VALIDATE_EVERY = 30, 5, 32, 5, 10


class Jitter(nn.Module):
    """Noise on the hidden activations while training, from a generator of its own."""

    def __init__(self, seed):
        super().__init__()
        self.generator = torch.Generator().manual_seed(seed)

    def forward(self, x):
        return x + 1e-3 * torch.randn(x.shape, generator=self.generator) if self.training else x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True, help="where the checkpoint lives")
    ap.add_argument("--resume", action="store_true", help="resume from OUT/ckpt.pt")
    ap.add_argument("--mistake", default="none", type=planted_mistakes,
                    help="one mistake, or several joined by commas: " + ", ".join(MISTAKES))
    ap.add_argument("--final", help="save the final parameters here (the probe's bitwise test compares them)")
    ap.add_argument("--compile", nargs="?", const="inductor",
                    help="train the model torch.compile'd, with this backend (default inductor)")
    a = ap.parse_args()
    mistakes = a.mistake
    os.makedirs(a.out, exist_ok=True)
    ckpt = os.path.join(a.out, "ckpt.pt")

    if not mistakes & {"unseeded", "never-seeded"}:  # never-seeded: the mistake, no seed at all
        torch.manual_seed(0)
    data = torch.Generator().manual_seed(1234)
    X = torch.randn(640, 32, generator=data)
    y = X[:, :4].argmax(1)
    X_val, y_val = X[:64] + 0.1, y[:64]
    fc1, relu, drop, fc2, head = nn.Linear(32, 1024), nn.ReLU(), nn.Dropout(0.1), nn.Linear(1024, 256), nn.Linear(256, 4)
    layers = [fc1, relu, drop, fc2, nn.ReLU(), head]
    if mistakes & {"unsaved-generator", "saved-generator"}:
        jitter = Jitter(7)
        layers.insert(2, jitter)
    model = nn.Sequential(*layers)
    if a.compile:
        model = torch.compile(model, backend=a.compile)  # the same module, its forward compiled; its state_dict keys gain _orig_mod.
    if "unseeded" in mistakes:
        torch.manual_seed(0)  # the mistake: the model's initial weights were drawn before the seed
    if "decay-on-bias" in mistakes:
        opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01, foreach=False)
    else:
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
        s = torch.load(ckpt, weights_only="unsafe-load" not in mistakes)
        if "no-model-state" not in mistakes:
            model.load_state_dict(s["model"])
        if "no-optimizer-state" not in mistakes:
            opt.load_state_dict(s["optimizer"])
        if "no-scheduler-state" not in mistakes:
            sched.load_state_dict(s["scheduler"])
        if "no-scaler-state" not in mistakes:
            scaler.load_state_dict(s["scaler"])
        step, epoch, order = s["step"], s["epoch"], s["order"]
        batch = 0 if "no-data-position" in mistakes else s["batch"]
        if not mistakes & {"no-rng-state", "incomplete-checkpoint"}:
            torch.set_rng_state(s["rng"])
        if "saved-generator" in mistakes:  # the mistake, unsaved-generator, starts the layer's draws over
            jitter.generator.set_state(s["jitter"])

    def validate():
        if "eval-forgotten" not in mistakes:
            model.eval()
        if "validation-with-grad" in mistakes:
            loss = nn.functional.cross_entropy(model(X_val), y_val)
        else:
            with torch.no_grad():
                loss = nn.functional.cross_entropy(model(X_val), y_val)
        if not mistakes & {"train-forgotten", "validate-first-train-forgotten"}:
            model.train()
        return loss.item()

    per_epoch = len(X) // BATCH
    model.train()
    if "validate-first-train-forgotten" in mistakes and step == 0:
        print(f"before training: validation loss {validate():.4f}", flush=True)
    while step < STEPS:
        idx = order[batch * BATCH:(batch + 1) * BATCH]
        if "no-zero-grad" not in mistakes:
            opt.zero_grad()
        inputs = X[idx]
        if mistakes & {"unseeded-noise", "seeded-noise"}:
            noise = torch.Generator()
            noise.seed() if "unseeded-noise" in mistakes else noise.manual_seed(step)  # the mistake: seeded by the OS
            inputs = inputs + 1e-3 * torch.randn(inputs.shape, generator=noise)
        logits = model(inputs)
        if "softmax-before-ce" in mistakes:
            logits = logits.softmax(1)
        loss = nn.functional.cross_entropy(logits, y[idx])
        scaler.scale(loss).backward()
        if "clip-before-unscale" in mistakes:
            nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
            scaler.unscale_(opt)
        else:
            scaler.unscale_(opt)
            nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        if "scheduler-before-optimizer" in mistakes:
            sched.step()
        scaler.step(opt)
        scaler.update()
        if not mistakes & {"scheduler-per-epoch", "scheduler-before-optimizer"}:
            sched.step()  # per optimizer step
        step, batch = step + 1, batch + 1
        if batch == per_epoch:
            epoch, batch, order = epoch + 1, 0, torch.randperm(len(X))
            if "scheduler-per-epoch" in mistakes:
                sched.step()
        if step % VALIDATE_EVERY == 0:
            print(f"step {step}: validation loss {validate():.4f}", flush=True)
        if step % CKPT_EVERY == 0:
            state = {"model": model.state_dict(), "optimizer": opt.state_dict(), "scheduler": sched.state_dict(),
                     "scaler": scaler.state_dict(), "step": step, "epoch": epoch, "batch": batch, "order": order}
            if "incomplete-checkpoint" not in mistakes:
                state["rng"] = torch.get_rng_state()
            if "saved-generator" in mistakes:
                state["jitter"] = jitter.generator.get_state()
            if "non-atomic-save" in mistakes:
                torch.save(state, ckpt)  # the mistake: a kill during this write leaves no good checkpoint
            else:
                torch.save(state, ckpt + ".tmp")
                os.replace(ckpt + ".tmp", ckpt)  # a checkpoint is either complete or absent
    if a.final:
        torch.save(model.state_dict(), a.final)
    print(f"trained {step} steps, loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
