"""A loop whose resume is exact although its checkpoint holds no RNG state, as the DDP tutorial's
loop is: nothing it computes draws from torch's global RNG once the model is built, but each
epoch's DataLoader iterator draws its base seed from it (shuffle=False and no workers: that seed
is never used). After a restart the global RNG's state departs from the uninterrupted run's
while every recorded value and the final parameters stay bitwise equal: `trainproof check` must
hold the resume and give the missing RNG state as advice. --mistake dropout adds a Dropout layer,
which draws from that RNG: then the values depart, and the resume is broken. --mistake clock
scales each batch by the wall clock's nanoseconds, which no seed fixes: no two runs are bitwise
equal, so a resume that departs is not the resume's fault, and one run (--runs 1) cannot tell;
check must run it again before it names any state as missing.

    trainproof check --kills 1 --resume-args '--resume' -- python rng_unused.py --out {run_dir}"""
import argparse
import os
import time

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
ap.add_argument("--resume", action="store_true")
ap.add_argument("--mistake", default="none", choices=("none", "dropout", "clock"))
a = ap.parse_args()
ckpt = os.path.join(a.out, "ckpt.pt")

torch.manual_seed(0)
X = torch.randn(32, 8, generator=torch.Generator().manual_seed(1))
y = X.sum(1, keepdim=True)
layers = [nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1)]
if a.mistake == "dropout":
    layers.insert(2, nn.Dropout(0.2))
model = nn.Sequential(*layers)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, y), batch_size=8, shuffle=False)
epoch = 0
if a.resume and os.path.exists(ckpt):
    state = torch.load(ckpt, weights_only=True)
    model.load_state_dict(state["model"])
    opt.load_state_dict(state["optimizer"])
    epoch = state["epoch"]  # the model, the optimizer and the position: no RNG state
while epoch < 6:
    for xb, yb in loader:  # a new iterator each epoch: it draws a base seed from torch's RNG
        opt.zero_grad()
        if a.mistake == "clock":
            xb = xb * (1 + 1e-6 * (time.perf_counter_ns() % 1000))
        nn.functional.mse_loss(model(xb), yb).backward()
        opt.step()
    epoch += 1
    torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": epoch}, ckpt + ".tmp")
    os.replace(ckpt + ".tmp", ckpt)
print(f"trained {epoch} epochs")
