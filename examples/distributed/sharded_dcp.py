"""One training loop, sharded with FSDP2 (fully_shard), replicated with DDP, or split by tensor
parallelism (--wrap tp: ColwiseParallel then RowwiseParallel, every rank fed the same whole batch, as
PyTorch's TP tutorial does), checkpointed with torch.distributed.checkpoint (DCP) the way PyTorch's
FSDP2 and DCP tutorials write it; runs under `torchrun --nproc-per-node 2` on CPU (gloo). --mistake
plants one resume or loop mistake. --rng-beside saves each rank's RNG state with torch.save (a
temporary file, then os.replace) into the step's folder before dcp.save, and a restart, which takes
only folders DCP finished, loads it back.

The global batch is fixed and each rank takes its share of it, so the loop trains on the same samples at
any world size, and a DCP checkpoint saved by 2 ranks resumes on 1 (or one saved by 1 on 2): DCP reshards
what it loads to the ranks that load it.
"""
import argparse
import atexit
import os
import re
import sys
import time

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
import torch.nn as nn
from torch.distributed.checkpoint.state_dict import (get_model_state_dict, get_state_dict, set_model_state_dict,
                                                     set_state_dict)
from torch.distributed.checkpoint.stateful import Stateful
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor import DTensor
from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

STEPS, WARMUP, GLOBAL_BATCH, CKPT_EVERY = 12, 4, 16, 4
MISTAKES = ("none", "no-optimizer", "newest-folder", "no-zero-grad", "per-rank-position")


class AppState(Stateful):
    """What a checkpoint holds. DCP calls state_dict() when saving and again when loading (to learn the
    shapes and shards to read into), then load_state_dict() with what it read."""

    def __init__(self, model, optimizer, scheduler, step, with_optimizer=True):
        self.model, self.optimizer, self.scheduler, self.step = model, optimizer, scheduler, step
        self.with_optimizer = with_optimizer
        self.seen = 0  # samples this rank has trained on

    def state_dict(self):
        if self.with_optimizer:
            model_sd, optim_sd = get_state_dict(self.model, self.optimizer)
            state = {"model": model_sd, "optim": optim_sd}
        else:  # the no-optimizer mistake: AdamW's moments are not saved
            state = {"model": get_model_state_dict(self.model)}
        state["scheduler"] = self.scheduler.state_dict()
        state["step"] = self.step
        state["seen"] = self.seen
        return state

    def load_state_dict(self, state):
        if self.with_optimizer:
            set_state_dict(self.model, self.optimizer, model_state_dict=state["model"], optim_state_dict=state["optim"])
        else:
            set_model_state_dict(self.model, state["model"])
        self.scheduler.load_state_dict(state["scheduler"])
        self.step = state["step"]
        self.seen = state["seen"]


def checkpoint_to_resume(out, mistake):
    """The newest step-N folder that DCP finished (it writes .metadata last, after every rank's data),
    or None. The newest-folder mistake takes the newest folder even if a kill tore it."""
    found = []
    for name in os.listdir(out) if os.path.isdir(out) else []:
        m = re.fullmatch(r"step-(\d+)", name)
        folder = os.path.join(out, name)
        if m and (mistake == "newest-folder" or os.path.exists(os.path.join(folder, ".metadata"))):
            found.append((int(m.group(1)), folder))
    return max(found)[1] if found else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wrap", choices=("fsdp2", "ddp", "tp"), default="fsdp2")
    ap.add_argument("--out", required=True, help="checkpoints go to OUT/step-N/")
    ap.add_argument("--resume", action="store_true", help="continue from the newest complete checkpoint in OUT")
    ap.add_argument("--mistake", choices=MISTAKES, default="none")
    ap.add_argument("--rng-beside", action="store_true", help="each rank's RNG state saved into the step's folder")
    ap.add_argument("--dump-final", metavar="PREFIX",
                    help="each rank saves its final local parameter and optimizer shards to PREFIX.rankR.pt")
    ap.add_argument("--stop-after", type=int, default=0, metavar="N",
                    help="end after step N, as a preempted job would (a checkpoint saved at N is kept)")
    ap.add_argument("--step-seconds", type=float, default=0.0,
                    help="pause this long after each step, so that an outside kill can land between checkpoints")
    a = ap.parse_args()

    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    os.makedirs(a.out, exist_ok=True)

    torch.manual_seed(0)  # before the layers are built: their initial weights come from it
    fc1 = nn.Linear(16, 64)
    relu = nn.ReLU()
    fc2 = nn.Linear(64, 2)
    model = nn.Sequential(fc1, relu, fc2)
    if a.wrap == "fsdp2":
        mesh = init_device_mesh("cpu", (world,))
        fully_shard(fc1, mesh=mesh)
        fully_shard(fc2, mesh=mesh)
        fully_shard(model, mesh=mesh)  # the root: its parameters turn into DTensors, one shard per rank
    elif a.wrap == "tp":  # fc1's outputs split over the ranks, fc2's inputs: its output summed back whole
        parallelize_module(model, init_device_mesh("cpu", (world,)), {"0": ColwiseParallel(), "2": RowwiseParallel()})
    else:
        model = DistributedDataParallel(model)

    # Decay on weight matrices only; biases are not regularised. Built after wrapping, so the groups hold
    # the parameters the wrapper trains (DTensors under FSDP2, whose dim() is the full tensor's).
    decay = [p for p in model.parameters() if p.dim() >= 2]
    no_decay = [p for p in model.parameters() if p.dim() < 2]
    optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01},
                                   {"params": no_decay, "weight_decay": 0.0}], lr=1e-2)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / WARMUP))

    # Fixed synthetic data from a generator of its own, so the global RNG plays no part in it; each rank
    # reads its own shard in a fixed order, so step N always trains on global batch N, at any world size.
    data = torch.Generator().manual_seed(1234)
    X = torch.randn(STEPS * GLOBAL_BATCH, 16, generator=data)
    y = (X[:, 0] + X[:, 1] > 0).long()
    sampler = DistributedSampler(TensorDataset(X, y), num_replicas=world, rank=rank, shuffle=False)
    batches = list(DataLoader(TensorDataset(X, y), batch_size=GLOBAL_BATCH // world, sampler=sampler))
    if a.wrap == "tp":  # every rank of a tensor-parallel group trains on the same, whole batch
        batches = list(DataLoader(TensorDataset(X, y), batch_size=GLOBAL_BATCH))

    app = AppState(model, optimizer, scheduler, 0, with_optimizer=a.mistake != "no-optimizer")
    folder = checkpoint_to_resume(a.out, a.mistake) if a.resume else None
    if folder:
        dcp.load({"app": app}, checkpoint_id=folder)
        if a.rng_beside:
            torch.set_rng_state(torch.load(os.path.join(folder, f"rng-{rank}.pt")))
        if rank == 0:
            print(f"resumed from {folder} at step {app.step + 1}", flush=True)

    # Where the data resumes: at the step's batch. The per-rank-position mistake counts the samples this
    # rank has seen, which means another batch once the ranks are more or fewer than at the save.
    position = app.seen // (GLOBAL_BATCH // world) if a.mistake == "per-rank-position" else app.step
    model.train()
    while app.step < STEPS:
        inputs, targets = batches[position % len(batches)]
        position += 1
        if a.mistake != "no-zero-grad":
            optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(inputs), targets)
        loss.backward()
        optimizer.step()
        scheduler.step()  # per optimizer step: the warmup counts steps
        app.step += 1
        app.seen += len(inputs)
        if rank == 0:
            print(f"step {app.step} loss {loss.item():.6f}", flush=True)
        if app.step % CKPT_EVERY == 0:
            step_folder = os.path.join(a.out, f"step-{app.step}")
            if a.rng_beside:  # beside DCP's files, each rank's own, written whole before DCP's .metadata
                os.makedirs(step_folder, exist_ok=True)
                torch.save(torch.get_rng_state(), os.path.join(step_folder, f"rng-{rank}.pt.tmp"))
                os.replace(os.path.join(step_folder, f"rng-{rank}.pt.tmp"), os.path.join(step_folder, f"rng-{rank}.pt"))
            dcp.save({"app": app}, checkpoint_id=step_folder)
        if a.step_seconds:
            time.sleep(a.step_seconds)
        if app.step == a.stop_after:
            break

    if a.dump_final:
        def local(t):  # this rank's shard of a sharded tensor; under TP the whole (a collective every rank makes)
            return (t.full_tensor() if a.wrap == "tp" else t.to_local()) if isinstance(t, DTensor) else t

        dump = {f"param.{n}": local(p.detach()).clone() for n, p in model.named_parameters()}
        names = {p: n for n, p in model.named_parameters()}
        for p, st in optimizer.state.items():
            for k, v in st.items():
                if isinstance(v, torch.Tensor):
                    dump[f"optim.{names[p]}.{k}"] = local(v).clone()
        torch.save(dump, f"{a.dump_final}.rank{rank}.pt")
    dist.barrier()  # every rank done before any tears the group down
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
    # In about one run in ten, one rank aborted after its last line of Python ran, with or
    # without trainproof: "terminate called without an active exception", no Python frame, in
    # the C++ teardown of torch's distributed state. The exit handlers run as usual (what a
    # watcher of the run writes at exit too); the process then ends without that teardown.
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
