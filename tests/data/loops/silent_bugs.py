"""Loops with silent bugs that leave the loss curve plausible, each correct unless --mistake says
otherwise (tests/check_silent_bugs_test.py). The correct loop fine-tunes a head on a frozen backbone
(requires_grad False, in no optimizer), learns a temperature its optimizer holds, runs its own
attention-like block (functional dropout and batch norm that follow the module's mode), keeps a
Dropout module active at validation on purpose (Monte Carlo dropout: that module set to train), and
has a BatchNorm without running statistics (it normalizes by the batch in eval too, by design).
Mistakes:
  optimizer-over-frozen  the optimizer is built over the frozen backbone alone: no step changes any
                         parameter (and the head and the temperature, which get gradients, are in
                         no optimizer)
  frozen-after-built     the block's projection is frozen after the optimizer was built: the
                         optimizer holds parameters that never get a gradient
  temperature-left-out   the temperature gets a gradient, but the optimizer holds only the head
  functional-dropout     the block calls F.dropout with training left at its default (True):
                         dropout at validation, with the model in eval mode
  custom-batch-norm      the block calls F.batch_norm with training=True: batch statistics (and
                         running-statistics updates) at validation, in eval mode
usage: silent_bugs.py --out DIR [--mistake M] [--resume] [--steps N]"""
import argparse
import os

import torch
import torch.nn.functional as F
from torch import nn

p = argparse.ArgumentParser()
p.add_argument("--mistake", default="none")
p.add_argument("--out", required=True)
p.add_argument("--resume", action="store_true")
p.add_argument("--steps", type=int, default=12)
args = p.parse_args()
torch.set_num_threads(1)
torch.manual_seed(0)


class Block(nn.Module):
    """A projection, dropout and a norm written with torch's functions, as attention kernels are."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(32, 32)
        self.weight, self.bias = nn.Parameter(torch.ones(32)), nn.Parameter(torch.zeros(32))
        self.register_buffer("mean", torch.zeros(32))
        self.register_buffer("var", torch.ones(32))

    def forward(self, h):
        h = self.proj(h)
        if args.mistake == "functional-dropout":
            h = F.dropout(h, 0.1)
        else:
            h = F.dropout(h, 0.1, training=self.training)
        training = True if args.mistake == "custom-batch-norm" else self.training
        return F.batch_norm(h, self.mean, self.var, self.weight, self.bias, training=training)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(16, 32), nn.ReLU())
        self.block = Block()
        self.mc = nn.Dropout(0.1)  # kept active at validation on purpose
        self.norm = nn.BatchNorm1d(32, track_running_stats=False)
        self.out = nn.Linear(32, 4)
        self.temperature = nn.Parameter(torch.ones(()))

    def forward(self, x):
        return self.out(self.norm(self.mc(torch.relu(self.block(self.backbone(x)))))) / self.temperature


model = Net()
model.backbone.requires_grad_(False)  # a pretrained backbone, frozen
head = [p for n, p in model.named_parameters() if not n.startswith("backbone.") and n != "temperature"]
if args.mistake == "optimizer-over-frozen":
    opt = torch.optim.AdamW(model.backbone.parameters(), lr=1e-2, weight_decay=0.0)
elif args.mistake == "temperature-left-out":
    opt = torch.optim.AdamW(head, lr=1e-2, weight_decay=0.0)
else:
    opt = torch.optim.AdamW(head + [model.temperature], lr=1e-2, weight_decay=0.0)
if args.mistake == "frozen-after-built":
    model.block.proj.requires_grad_(False)
x, y = torch.randn(args.steps * 8, 16), torch.randint(0, 4, (args.steps * 8,))
ckpt = os.path.join(args.out, "ckpt.pt")
step = 0
if args.resume and os.path.exists(ckpt):
    state = torch.load(ckpt)
    model.load_state_dict(state["model"])
    opt.load_state_dict(state["opt"])
    torch.set_rng_state(state["rng"])
    step = state["step"]


def validate():
    model.eval()
    model.mc.train()  # Monte Carlo dropout: this module samples at validation too
    with torch.no_grad():
        loss = F.cross_entropy(model(x[:32]), y[:32]).item()
    model.train()
    return loss


model.train()
while step < args.steps:
    loss = F.cross_entropy(model(x[step * 8:step * 8 + 8]), y[step * 8:step * 8 + 8])
    loss.backward()
    opt.step()
    opt.zero_grad()
    step += 1
    print(f"step {step} loss {loss.item():.6f}", flush=True)
    if step % 4 == 0:
        print(f"validation loss {validate():.6f}", flush=True)
        state = {"model": model.state_dict(), "opt": opt.state_dict(), "rng": torch.get_rng_state(), "step": step}
        torch.save(state, ckpt + ".tmp")
        os.replace(ckpt + ".tmp", ckpt)
torch.save(model.state_dict(), os.path.join(args.out, "final.pt"))
