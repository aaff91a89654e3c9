"""Loops of the shapes people write besides one optimizer stepped once an iteration, each printing
`step N <name> <value>` for what it would log, so that a test can hold the probe's records to them.
--shape: manual (SGD by hand, p.data.add_, no optimizer), closure (LBFGS, its closure called up to
20 times a step), two-optimizers (a GAN's D and G in one iteration), random-seed (the seed drawn
with random.randint), fixed-seed (its near miss), backward-only (gradients of the input, never an
update: a loop with no step), epoch-files (dcgan's way: the model's state_dict saved at each
epoch's end, resumed with --net OUT/net_epoch_0.pth, the optimizer's state left behind);
near misses of scheduler-per-epoch, each correct: sequential-warmup (a SequentialLR whose warmup
child, an unclamped LambdaLR, steps only until its milestone), chained (a ChainedScheduler),
long-warmup (a warmup longer than the run), per-epoch-cosine (a CosineAnnealingLR sized for 90
epochs, stepped at each epoch's end, the run cut short after 3), per-epoch-lambda (the docs'
LambdaLR(0.95 ** epoch), stepped per epoch); and its mistake, cosine-per-epoch (a CosineAnnealingLR
sized for the run's 24 steps, stepped per epoch)."""
import argparse
import os
import random

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--shape", required=True,
                choices=("manual", "closure", "two-optimizers", "random-seed", "fixed-seed", "backward-only",
                         "epoch-files", "sequential-warmup", "chained", "long-warmup", "per-epoch-cosine",
                         "per-epoch-lambda", "cosine-per-epoch"))
ap.add_argument("--out", default=".")
ap.add_argument("--net", default="", help="epoch-files: resume the model from this file")
a = ap.parse_args()

seed = random.randint(1, 10000) if a.shape == "random-seed" else 0
torch.manual_seed(seed)
data = torch.Generator().manual_seed(1234)  # the data from a generator of its own: the same in every run
X = torch.randn(64, 4, generator=data)
y = X.sum(1, keepdim=True)


def step(net, opt, i):
    """One optimizer step on the i-th batch of 8; its loss."""
    opt.zero_grad()
    loss = nn.functional.mse_loss(net(X[i * 8:(i + 1) * 8]), y[i * 8:(i + 1) * 8])
    loss.backward()
    opt.step()
    return loss


if a.shape == "two-optimizers":
    D = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    G = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 4))
    opt_d, opt_g = torch.optim.Adam(D.parameters(), lr=1e-3), torch.optim.Adam(G.parameters(), lr=1e-3)
    bce = nn.BCEWithLogitsLoss()
    noise = torch.randn(48, 2, generator=data)
    for i in range(6):
        D.zero_grad()
        err_real = bce(D(X[i * 8:(i + 1) * 8]), torch.ones(8, 1))
        err_real.backward()
        fake = G(noise[i * 8:(i + 1) * 8])
        err_fake = bce(D(fake.detach()), torch.zeros(8, 1))
        err_fake.backward()
        opt_d.step()
        G.zero_grad()
        err_g = bce(D(fake), torch.ones(8, 1))
        err_g.backward()
        opt_g.step()
        print(f"step {i + 1} loss {err_real.item() + err_fake.item():.9g} opt1.loss {err_g.item():.9g}", flush=True)
elif a.shape == "epoch-files":
    net = nn.Linear(4, 1)
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    if a.net:
        net.load_state_dict(torch.load(a.net, weights_only=True))
    for epoch in range(3):
        for i in range(8):
            step(net, opt, i)
        torch.save(net.state_dict(), os.path.join(a.out, f"net_epoch_{epoch}.pth"))
elif a.shape in ("sequential-warmup", "chained", "long-warmup"):
    net = nn.Linear(4, 1)
    opt = torch.optim.AdamW(net.parameters(), lr=1e-2, weight_decay=0.0)
    if a.shape == "sequential-warmup":
        warmup = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: (s + 1) / 4)
        cosine = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=16)
        sched = torch.optim.lr_scheduler.SequentialLR(opt, [warmup, cosine], milestones=[4])
    elif a.shape == "chained":
        sched = torch.optim.lr_scheduler.ChainedScheduler([torch.optim.lr_scheduler.LambdaLR(opt, lambda s: 0.99 ** s),
                                                           torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)])
    else:
        sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 1000))
    for i in range(8):
        loss = step(net, opt, i)
        sched.step()  # every optimizer step: correct
        print(f"step {i + 1} loss {loss.item():.9g}", flush=True)
elif a.shape in ("per-epoch-cosine", "per-epoch-lambda", "cosine-per-epoch"):
    net = nn.Linear(4, 1)
    opt = torch.optim.SGD(net.parameters(), lr=1e-2)
    if a.shape == "per-epoch-cosine":
        sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=90)  # 90 epochs; this run does 3
    elif a.shape == "per-epoch-lambda":
        sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda epoch: 0.95 ** epoch)
    else:
        sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=3 * 8)  # the mistake: sized in steps
    for epoch in range(3):
        for i in range(8):
            loss = step(net, opt, i)
            print(f"step {epoch * 8 + i + 1} loss {loss.item():.9g}", flush=True)
        sched.step()  # once per epoch
elif a.shape == "closure":
    fc = nn.Linear(4, 1)
    opt = torch.optim.LBFGS(fc.parameters(), lr=0.1, max_iter=20)
    for i in range(4):
        batch = slice(i * 16, (i + 1) * 16)

        def closure():
            opt.zero_grad()
            loss = nn.functional.mse_loss(fc(X[batch]), y[batch])
            loss.backward()
            return loss

        loss = opt.step(closure)  # the closure's first call: what the script logs
        print(f"step {i + 1} loss {loss.item():.9g}", flush=True)
else:
    fc = nn.Linear(4, 1)
    criterion = nn.MSELoss()  # a module too (word_language_model's nn.NLLLoss): not the model trained
    for i in range(8):
        inputs = X[i * 8:(i + 1) * 8].clone().requires_grad_(a.shape == "backward-only")
        loss = criterion(fc(inputs), y[i * 8:(i + 1) * 8])
        fc.zero_grad()
        loss.backward()
        if a.shape != "backward-only":
            for p in fc.parameters():  # the update by hand: word_language_model's and regression's way
                p.data.add_(p.grad, alpha=-0.1)
        print(f"step {i + 1} loss {loss.item():.9g}", flush=True)
