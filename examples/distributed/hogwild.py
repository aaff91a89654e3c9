"""Hogwild training as pytorch/examples' mnist_hogwild does it: one model in shared memory, two
worker processes each stepping it with an optimizer of its own, with no lock. The workers' updates
race, so two runs end with different parameters even though everything is seeded.
"""
import argparse
import os

import torch
import torch.multiprocessing as mp
import torch.nn as nn

STEPS, BATCH, WORKERS = 20, 8, 2


def train(rank, model, start):
    torch.manual_seed(1 + rank)  # each worker draws its own data
    X = torch.randn(STEPS * BATCH, 16)
    y = (X[:, 0] + X[:, 1] > 0).long()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.5)
    model.train()
    # Both workers begin together: these steps take milliseconds, and a worker that started while the
    # other was still importing torch would finish before it began, and nothing would race.
    start.wait()
    for step in range(STEPS):
        optimizer.zero_grad()
        batch = slice(step * BATCH, (step + 1) * BATCH)
        loss = nn.functional.cross_entropy(model(X[batch]), y[batch])
        loss.backward()
        optimizer.step()  # writes straight into the shared parameters, racing the other worker
        print(f"worker {rank} step {step + 1} loss {loss.item():.6f}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--start", choices=("spawn", "fork"), default="spawn", help="how the workers are started")
    ap.add_argument("--out", required=True, help="the final parameters are saved to OUT/model.pt")
    ap.add_argument("--dump-final", metavar="FILE", help="also save the final parameters to FILE")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    mp.set_start_method(a.start)

    torch.manual_seed(0)  # before the layers are built: their initial weights come from it
    fc1 = nn.Linear(16, 64)
    relu = nn.ReLU()
    fc2 = nn.Linear(64, 2)
    model = nn.Sequential(fc1, relu, fc2)
    model.share_memory()  # the workers receive this storage, not copies: gradients must not be shared too

    start = mp.Barrier(WORKERS)
    workers = [mp.Process(target=train, args=(rank, model, start)) for rank in range(WORKERS)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    if any(w.exitcode != 0 for w in workers):
        raise SystemExit(f"a worker failed: exit codes {[w.exitcode for w in workers]}")

    final = {n: p.detach().clone() for n, p in model.named_parameters()}
    torch.save(final, os.path.join(a.out, "model.pt"))
    if a.dump_final:
        torch.save(final, a.dump_final)


if __name__ == "__main__":
    main()
