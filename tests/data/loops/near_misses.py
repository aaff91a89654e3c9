"""Correct code that a detector of `trainproof check` could mistake for a documented mistake,
all in one small loop: check must name nothing here. Each near miss has a --mistake twin, the
real mistake it resembles, which check must name (so the test of the near misses can fail).

  near miss (correct)                                   --mistake twin -> finding
  SequentialLR (warmup, then cosine): its constructor   sequential-before-optimizer: stepped
    steps its first scheduler                             before the optimizer -> scheduler-before-optimizer
  an fp16-style GradScaler whose first steps are        (none: the skip is the near miss)
    skipped on inf gradients, the scheduler stepped
    after each as the documents do
  a GAN: the generator's backward flows through the     gan-no-zero: the discriminator's
    discriminator after its step; the discriminator       gradients never zeroed -> zero-grad-missing
    zeroes its gradients (in place) before its next
  a frozen perceptual scorer in eval mode, with         (none)
    dropout, that the generator's loss flows through
  an EMA teacher in train mode under no_grad (its       dropout-validation: the generator validated
    dropout on by design; no optimizer trains it)         in train mode with dropout -> eval-mode-forgotten
  the generator validated in train mode under no_grad
    with Dropout(p=0): nothing stochastic
  an FSDP-style flat parameter (1-D, standing for a     flat-decay: the biases decayed too
    matrix) in the decayed group                          -> weight-decay-on-bias-or-norm
"""
import argparse
import copy

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--out", default=".")
ap.add_argument("--mistake", default="none")
mistakes = set(ap.parse_args().mistake.split(","))

torch.manual_seed(0)
STEPS, Z = 12, 8
data = torch.randn(STEPS * 16, 16, generator=torch.Generator().manual_seed(1))
G = nn.Sequential(nn.Linear(Z, 32), nn.ReLU(), nn.Dropout(0.3 if "dropout-validation" in mistakes else 0.0),
                  nn.Linear(32, 16))
D = nn.Sequential(nn.Linear(16, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
# An input projection of D's kept FSDP-style: one flat 1-D buffer standing for a 16x16 matrix.
proj = nn.Parameter(torch.eye(16).reshape(-1))
proj._is_flat_param = True  # as torch.distributed.fsdp's FlatParameter marks itself
scorer = nn.Sequential(nn.Linear(16, 16), nn.Dropout(0.5), nn.Linear(16, 1)).eval().requires_grad_(False)
teacher = copy.deepcopy(G).requires_grad_(False)  # an EMA of G, in train mode (dropout on by design)

opt_g = torch.optim.AdamW(G.parameters(), lr=1e-3, weight_decay=0.0)
if "flat-decay" in mistakes:
    opt_d = torch.optim.AdamW([{"params": [p for p in D.parameters() if p.dim() > 1] + [proj], "weight_decay": 0.01},
                               {"params": [p for p in D.parameters() if p.dim() <= 1], "weight_decay": 0.01}], lr=1e-3)
else:  # weight decay on the matrices (the flat one too); the biases in a group of their own without it
    opt_d = torch.optim.AdamW([{"params": [p for p in D.parameters() if p.dim() > 1] + [proj], "weight_decay": 0.01},
                               {"params": [p for p in D.parameters() if p.dim() <= 1], "weight_decay": 0.0}], lr=1e-3)
warmup = torch.optim.lr_scheduler.LinearLR(opt_g, start_factor=0.1, total_iters=3)
cosine = torch.optim.lr_scheduler.CosineAnnealingLR(opt_g, T_max=STEPS - 3)
sched = torch.optim.lr_scheduler.SequentialLR(opt_g, [warmup, cosine], milestones=[3])
# float16 autocast (as on a GPU) under a scale so large that the first steps' float16 gradients
# overflow: those steps are skipped, and the scale backs off.
scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 24, growth_interval=1000)
bce = nn.BCEWithLogitsLoss()

for step in range(STEPS):
    real = data[step * 16:(step + 1) * 16]
    fake = G(torch.randn(16, Z))
    # The discriminator: its gradients zeroed in place before its own backward.
    if "gan-no-zero" not in mistakes:
        opt_d.zero_grad(set_to_none=False)
    loss_d = bce(D(real @ proj.view(16, 16)), torch.ones(16, 1)) + bce(D(fake.detach()), torch.zeros(16, 1))
    loss_d.backward()
    opt_d.step()
    # The generator: its loss flows through the discriminator (onto D's gradients, zeroed above
    # before D's next step) and through the frozen scorer.
    opt_g.zero_grad()
    with torch.autocast("cpu", dtype=torch.float16):
        loss_g = bce(D(fake), torch.ones(16, 1)) + 0.1 * scorer(fake).mean()
    if "sequential-before-optimizer" in mistakes:
        sched.step()
    scaler.scale(loss_g).backward()
    scaler.step(opt_g)
    scaler.update()
    if "sequential-before-optimizer" not in mistakes:
        sched.step()
    with torch.no_grad():
        for t, p in zip(teacher.parameters(), G.parameters()):
            t.mul_(0.9).add_(p, alpha=0.1)
        target = teacher(torch.randn(16, Z))  # the teacher's dropout on: by design
        val = G(torch.randn(16, Z)).pow(2).mean()  # validated in train mode: Dropout(p=0) changes nothing
print(f"trained {STEPS} steps; GradScaler's scale {scaler.get_scale():g}")
