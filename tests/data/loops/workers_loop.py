"""A loop whose processes `check` must kill together: DataLoader workers (--workers, default 2,
persistent) and, under torchrun, ranks that torchrun starts in sessions of their own. It
resumes on --resume from OUT/ckpt.pt (model, optimizer, step, RNG; rank 0 writes it
atomically, every rank reads it) and is otherwise plain: no dropout, the data in a fixed
order, so that a resumed run is bitwise the uninterrupted one."""
import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

STEPS, BATCH, CKPT_EVERY, WIDTH = 30, 16, 5, 1536  # WIDTH: a 19 MB checkpoint, written long enough to be caught


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    ddp = int(os.environ.get("WORLD_SIZE", "1")) > 1
    if ddp:
        dist.init_process_group("gloo")
    rank = dist.get_rank() if ddp else 0
    os.makedirs(a.out, exist_ok=True)
    ckpt = os.path.join(a.out, "ckpt.pt")
    torch.manual_seed(0)
    data = torch.Generator().manual_seed(1234)
    X = torch.randn(2048, 16, generator=data)
    y = X[:, :2].argmax(1)
    model = nn.Sequential(nn.Linear(16, WIDTH), nn.ReLU(), nn.Linear(WIDTH, WIDTH), nn.ReLU(), nn.Linear(WIDTH, 2))
    net = nn.parallel.DistributedDataParallel(model) if ddp else model
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    step = 0
    if a.resume and os.path.exists(ckpt):
        s = torch.load(ckpt, weights_only=True)
        model.load_state_dict(s["model"])
        opt.load_state_dict(s["optimizer"])
        step = s["step"]
        torch.set_rng_state(s["rng"])
    dataset = TensorDataset(X, y)
    sampler = DistributedSampler(dataset, shuffle=False) if ddp else None
    loader = DataLoader(dataset, batch_size=BATCH, sampler=sampler, num_workers=a.workers,
                        persistent_workers=a.workers > 0)
    batches = iter(loader)
    for _ in range(step):  # the data position: the batches already trained on
        next(batches)
    while step < STEPS:
        inputs, targets = next(batches)
        opt.zero_grad()
        loss = nn.functional.cross_entropy(net(inputs), targets)
        loss.backward()
        opt.step()
        step += 1
        if step % CKPT_EVERY == 0:
            if rank == 0:
                torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "step": step,
                            "rng": torch.get_rng_state()}, ckpt + ".tmp")
                os.replace(ckpt + ".tmp", ckpt)
            if ddp:
                dist.barrier()
    print(f"rank {rank}: trained {step} steps, loss {loss.item():.4f}", flush=True)
    if ddp:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
