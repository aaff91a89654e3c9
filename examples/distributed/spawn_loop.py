"""A DDP loop whose two ranks are started with torch.multiprocessing.spawn rather than torchrun, so
they see no RANK or WORLD_SIZE in their environment: the script gives each rank its number itself.
Rank 0 checkpoints every 4 steps to OUT/ckpt.pt, and every rank its own RNG state (its dropout
masks are its own) to OUT/rng-<step>-rank<r>.pt; --resume loads them on every rank.
--mistake rank0-rng: rank 0's RNG state goes into the checkpoint alone, and every rank restores it
(a rank's state file dropped): rank 1 resumes with another rank's RNG.
"""
import argparse
import os
import socket
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel

STEPS, BATCH, CKPT_EVERY, WORLD = 12, 8, 4, 2


def free_port():
    """A port that nothing listens on now: the OS picks it for a socket bound to port 0."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def train(rank, a, port):
    os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"] = "127.0.0.1", str(port)
    dist.init_process_group("gloo", rank=rank, world_size=WORLD)
    ckpt = os.path.join(a.out, "ckpt.pt")

    torch.manual_seed(0)  # before the layers are built: their initial weights come from it
    fc1 = nn.Linear(16, 64)
    relu = nn.ReLU()
    drop = nn.Dropout(0.1)
    fc2 = nn.Linear(64, 2)
    model = DistributedDataParallel(nn.Sequential(fc1, relu, drop, fc2))
    torch.manual_seed(100 + rank)  # each rank its own dropout masks
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

    # Fixed data from a generator of its own; rank r reads rows r, r+2, ..., in order, so step N trains
    # on batch N and a resumed run needs only the step to find its place.
    data = torch.Generator().manual_seed(1234)
    X = torch.randn(STEPS * BATCH * WORLD, 16, generator=data)
    y = (X[:, 0] + X[:, 1] > 0).long()
    X, y = X[rank::WORLD], y[rank::WORLD]

    step = 0
    if a.resume and os.path.exists(ckpt):
        state = torch.load(ckpt, weights_only=True)
        model.module.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        step = state["step"]
        if a.mistake == "rank0-rng":
            torch.set_rng_state(state["rng"])  # rank 0's, on every rank
        else:
            torch.set_rng_state(torch.load(os.path.join(a.out, f"rng-{step}-rank{rank}.pt"), weights_only=True))
        if rank == 0:
            print(f"resumed from {ckpt} at step {step + 1}", flush=True)

    model.train()
    while step < STEPS:
        optimizer.zero_grad()
        batch = slice(step * BATCH, (step + 1) * BATCH)
        loss = nn.functional.cross_entropy(model(X[batch]), y[batch])
        loss.backward()
        optimizer.step()
        step += 1
        if rank == 0:
            print(f"step {step} loss {loss.item():.6f}", flush=True)
        if step % CKPT_EVERY == 0:
            if a.mistake != "rank0-rng":  # each rank's own RNG, written before the checkpoint that names its step
                rng = os.path.join(a.out, f"rng-{step}-rank{rank}.pt")
                torch.save(torch.get_rng_state(), rng + ".tmp")
                os.replace(rng + ".tmp", rng)
            dist.barrier()  # every rank's file is there before rank 0's checkpoint points at this step
            if rank == 0:  # the ranks hold the same replica; one copy is enough
                state = {"model": model.module.state_dict(), "optimizer": optimizer.state_dict(), "step": step}
                if a.mistake == "rank0-rng":
                    state["rng"] = torch.get_rng_state()
                torch.save(state, ckpt + ".tmp")
                os.replace(ckpt + ".tmp", ckpt)  # a kill leaves the old checkpoint or the new one, never half
        if a.step_seconds:
            time.sleep(a.step_seconds)

    if a.dump_final:
        dump = {f"param.{n}": p.detach().clone() for n, p in model.module.named_parameters()}
        names = {p: n for n, p in model.module.named_parameters()}
        for p, st in optimizer.state.items():
            for k, v in st.items():
                if isinstance(v, torch.Tensor):
                    dump[f"optim.{names[p]}.{k}"] = v.clone()
        torch.save(dump, f"{a.dump_final}.rank{rank}.pt")
    # Every rank done before any tears the group down: on gloo a collective's root (DCP's last
    # broadcast) can return while a peer still receives, and a peer whose connection closes under
    # it aborts ("terminate called without an active exception", seen once in 45 runs).
    dist.barrier()
    dist.destroy_process_group()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True, help="the checkpoint lives at OUT/ckpt.pt")
    ap.add_argument("--resume", action="store_true", help="continue from OUT/ckpt.pt if it exists")
    ap.add_argument("--mistake", choices=("none", "rank0-rng"), default="none")
    ap.add_argument("--dump-final", metavar="PREFIX",
                    help="each rank saves its final parameters and optimizer state to PREFIX.rankR.pt")
    ap.add_argument("--step-seconds", type=float, default=0.0,
                    help="pause this long after each step, so that an outside kill can land between checkpoints")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    mp.spawn(train, args=(a, free_port()), nprocs=WORLD)


if __name__ == "__main__":
    main()
