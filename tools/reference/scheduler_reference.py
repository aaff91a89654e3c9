"""Reference learning-rate curves from PyTorch's own Python schedulers, for many
configurations beyond the documents'. The C++ schedulers must reproduce every value
bitwise (tests/lr_scheduler_test.cpp). Regenerate with the bootstrap venv's python:
    python tools/reference/scheduler_reference.py > tests/data/scheduler_reference.json
"""
import itertools
import json
import math
import random

import torch
import torch.nn as nn


def optimizer(lr):
    return torch.optim.AdamW(nn.Linear(4, 1).parameters(), lr=lr)


def per_step(opt, sched, steps):
    lrs = []
    for _ in range(steps):
        lrs.append(sched.get_last_lr()[0])  # the rate in force for this step
        opt.step()
        sched.step()
    return lrs


def warmup_cosine(lr, warmup, total):
    opt = optimizer(lr)

    def fn(step):  # the document's function
        if step < warmup:
            return (step + 1) / warmup
        progress = (step - warmup) / (total - warmup)
        return 0.5 * (1 + math.cos(math.pi * progress))

    return per_step(opt, torch.optim.lr_scheduler.LambdaLR(opt, fn), total)


def warmup_linear(lr, warmup, total):
    """Linear warmup then linear decay, as PyTorch composes it: LinearLR twice in SequentialLR."""
    opt = optimizer(lr)
    S = torch.optim.lr_scheduler
    sched = S.SequentialLR(opt, [S.LinearLR(opt, start_factor=1 / warmup, end_factor=1.0, total_iters=warmup - 1),
                                 S.LinearLR(opt, start_factor=1.0, end_factor=0.0, total_iters=total - warmup)],
                           milestones=[warmup])
    return per_step(opt, sched, total)


def onecycle(max_lr, total_steps, pct_start, anneal, div_factor, final_div_factor, three_phase):
    opt = optimizer(1e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=max_lr, total_steps=total_steps, pct_start=pct_start, anneal_strategy=anneal,
        div_factor=div_factor, final_div_factor=final_div_factor, three_phase=three_phase)
    return per_step(opt, sched, total_steps)


def cosine(lr, t_max, eta_min, steps):
    opt = optimizer(lr)
    return per_step(opt, torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=t_max, eta_min=eta_min), steps)


def step(lr, step_size, gamma, steps):
    opt = optimizer(lr)
    return per_step(opt, torch.optim.lr_scheduler.StepLR(opt, step_size=step_size, gamma=gamma), steps)


def plateau(lr, mode, patience, factor, threshold, threshold_mode, cooldown, min_lr, eps, metrics):
    opt = optimizer(lr)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(
        opt, mode=mode, patience=patience, factor=factor, threshold=threshold,
        threshold_mode=threshold_mode, cooldown=cooldown, min_lr=min_lr, eps=eps)
    lrs = []
    for m in metrics:
        sched.step(m)
        lrs.append(opt.param_groups[0]["lr"])
    return lrs


def main():
    cases = []
    for lr, warmup, total in [(1e-3, 100, 1000), (3e-4, 10, 50), (0.1, 1, 7), (5e-5, 250, 251)]:
        cases.append(("warmup-cosine", dict(lr=lr, warmup=warmup, total=total), warmup_cosine(lr, warmup, total)))
    for lr, warmup, total in [(1e-3, 100, 1000), (3e-4, 10, 50), (0.1, 2, 7), (5e-5, 250, 251), (1.0, 3, 400)]:
        cases.append(("warmup-linear", dict(lr=lr, warmup=warmup, total=total), warmup_linear(lr, warmup, total)))
    for (max_lr, total, pct), anneal, three, (div, final) in itertools.product(
            [(1e-2, 100, 0.3), (0.5, 37, 0.25), (3e-3, 1000, 0.1)], ["cos", "linear"], [False, True],
            [(25.0, 1e4), (10.0, 100.0)]):
        args = dict(max_lr=max_lr, total_steps=total, pct_start=pct, anneal=anneal, div_factor=div,
                    final_div_factor=final, three_phase=three)
        cases.append(("onecycle", args, onecycle(**args)))
    for lr, t_max, eta_min, steps in [(1e-2, 10, 0.0, 10), (1e-2, 10, 0.0, 45), (0.1, 7, 1e-3, 60),
                                      (3e-4, 100, 1e-5, 100), (1.0, 1, 0.0, 9)]:
        cases.append(("cosine", dict(lr=lr, t_max=t_max, eta_min=eta_min, steps=steps),
                      cosine(lr, t_max, eta_min, steps)))
    for lr, size, gamma, steps in [(0.1, 30, 0.1, 100), (1e-3, 1, 0.9, 40), (0.5, 7, 0.5, 50)]:
        cases.append(("step", dict(lr=lr, step_size=size, gamma=gamma, steps=steps), step(lr, size, gamma, steps)))
    rng = random.Random(0)
    doc = [0.90, 0.70, 0.60, 0.61, 0.60, 0.62, 0.55, 0.56, 0.57, 0.58, 0.56]
    walk = [round(1.0 + 0.1 * math.sin(i / 3) + rng.uniform(-0.05, 0.05), 4) for i in range(60)]
    for mode, tmode, patience, factor, threshold, cooldown, min_lr, eps, metrics in [
            ("min", "rel", 2, 0.5, 1e-4, 0, 0.0, 1e-8, doc),
            ("min", "rel", 10, 0.1, 1e-4, 0, 0.0, 1e-8, walk),
            ("min", "abs", 1, 0.5, 0.01, 2, 1e-4, 1e-8, walk),
            ("max", "rel", 2, 0.3, 1e-3, 1, 0.0, 1e-8, walk),
            ("max", "abs", 0, 0.9, 0.0, 0, 5e-4, 1e-5, walk),
            ("min", "rel", 3, 0.5, 0.0, 3, 1e-6, 1e-3, walk)]:
        args = dict(lr=1e-3, mode=mode, patience=patience, factor=factor, threshold=threshold,
                    threshold_mode=tmode, cooldown=cooldown, min_lr=min_lr, eps=eps, metrics=metrics)
        cases.append(("plateau", args, plateau(**args)))
    json.dump({"torch_version": torch.__version__,
               "cases": [{"kind": k, "args": a, "lrs": l} for k, a, l in cases]}, __import__("sys").stdout, indent=1)


if __name__ == "__main__":
    main()
