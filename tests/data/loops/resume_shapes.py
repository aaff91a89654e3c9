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
  actor-critic  an actor-critic loop: each step rolls out 8 moves in an environment whose
             randomness comes from a numpy generator of its own (as gymnasium's env.np_random),
             actions sampled from the policy (torch's RNG); the checkpoint holds the environment
  streamed   an IterableDataset that streams the samples through a shuffle buffer of 16 drawn
             from a generator of its own (as torchdata's shuffler); the checkpoint holds the
             stream's offset, its buffer and its generator; the DataLoader has a generator of its own
Mistakes: accum-amp no-scheduler (the checkpoint leaves the scheduler out), ema ema-not-saved
(the checkpoint leaves the EMA out; a restart rebuilds it from the loaded weights), micro
micro-not-restored (saved, but a restart counts from 0 again), workers reseeded-workers (the
augmentation drawn from the worker's RNG, which every new iterator seeds from the loader's own
generator, not restored: the same samples, other values) and workers lost-position (a restart
begins its epoch at the first batch: other samples), actor-critic env-not-saved (the checkpoint
leaves the environment out: a restart begins a fresh one), streamed buffer-lost (the offset and the
generator restored, the buffer not: a restart refills it from the offset, and trains on other
samples).
usage: resume_shapes.py --shape S --out DIR [--mistake M] [--resume]"""
import argparse
import os

import numpy as np
import torch
from torch import nn
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn
from torch.utils.data import DataLoader, Dataset, IterableDataset, RandomSampler

p = argparse.ArgumentParser()
p.add_argument("--shape", required=True, choices=["accum-amp", "ema", "micro", "workers", "actor-critic", "streamed"])
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


class Walk:
    """An environment: a point pushed left or right toward a goal, with noise, a new goal drawn
    when it is reached; all of its randomness from a numpy generator of its own."""

    def __init__(self):
        self.rng = np.random.default_rng(3)
        self.pos, self.goal = 0.0, float(self.rng.uniform(-1, 1))

    def observe(self):
        return torch.tensor([self.pos, self.goal] + [0.0] * 14)

    def move(self, action):
        self.pos += (0.1 if action else -0.1) + float(self.rng.normal(0, 0.05))
        reward = -abs(self.pos - self.goal)
        if abs(self.pos - self.goal) < 0.05:
            self.goal = float(self.rng.uniform(-1, 1))
        return reward

    def state_dict(self):
        return {"pos": self.pos, "goal": self.goal, "rng": self.rng.bit_generator.state}

    def load_state_dict(self, state):
        self.pos, self.goal, self.rng.bit_generator.state = state["pos"], state["goal"], state["rng"]


class Stream(IterableDataset):
    """The samples of x in order from an offset, through a shuffle buffer of 16 drawn from a
    generator of its own."""

    def __init__(self):
        self.offset, self.buffer, self.gen = 0, [], torch.Generator().manual_seed(2)

    def __iter__(self):
        while True:
            while len(self.buffer) < 16:
                self.buffer.append(self.offset % len(x))
                self.offset += 1
            i = self.buffer.pop(int(torch.randint(len(self.buffer), (1,), generator=self.gen)))
            yield x[i], y[i]

    def state_dict(self):
        return {"offset": self.offset, "buffer": list(self.buffer), "gen": self.gen.get_state()}

    def load_state_dict(self, state):
        self.offset, self.gen = state["offset"], self.gen.set_state(state["gen"])
        if args.mistake != "buffer-lost":
            self.buffer = list(state["buffer"])


env = Walk() if args.shape == "actor-critic" else None
streamed = Stream() if args.shape == "streamed" else None
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
    if "env" in state:
        env.load_state_dict(state["env"])
    if "stream" in state:
        streamed.load_state_dict(state["stream"])
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
    if env is not None and args.mistake != "env-not-saved":
        state["env"] = env.state_dict()
    if streamed is not None:
        state["stream"] = streamed.state_dict()
    torch.save(state, ckpt + ".tmp")
    os.replace(ckpt + ".tmp", ckpt)


def rollout_loss():
    """One update's rollout of 8 moves: the policy's log-probabilities times the advantages, and
    the value's squared error."""
    logps, values, rewards = [], [], []
    for _ in range(8):
        out = model(env.observe())
        policy = torch.distributions.Categorical(logits=out[:2])
        action = policy.sample()
        logps.append(policy.log_prob(action))
        values.append(out[2])
        rewards.append(env.move(int(action)))
    returns = torch.tensor(rewards).flip(0).cumsum(0).flip(0)
    values = torch.stack(values)
    return -(torch.stack(logps) * (returns - values.detach())).mean() + (values - returns).pow(2).mean()


model.train()
stream = loader_batches(step) if args.shape == "workers" else None
# Its own generator: a new iterator's base seed is not drawn from torch's RNG the checkpoint restored.
stream = iter(DataLoader(streamed, batch_size=8, generator=torch.Generator().manual_seed(1))) if streamed is not None else stream
while step < args.steps:
    total = 0.0
    for m in range(micro_batches if env is None else 0):
        at = (step * micro_batches + m) * 8
        xb, yb = next(stream) if stream is not None else (x[at:at + 8], y[at:at + 8])
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=args.shape == "accum-amp"):
            loss = nn.functional.cross_entropy(model(xb), yb) / micro_batches
        scaler.scale(loss).backward()
        total += loss.item()
    if env is not None:
        loss = rollout_loss()
        loss.backward()
        total = loss.item()
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
