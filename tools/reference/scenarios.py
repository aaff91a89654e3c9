"""The documents' Python code, instrumented to write the same traces the C++ scenarios
write (golden schema v1, group /cpu, or /cuda with --device cuda): an independent oracle run by PyTorch itself.
    python tools/reference/scenarios.py [--device cpu|cuda] SCENARIO OUT.h5   write the trace
    python tools/reference/scenarios.py [--device cpu|cuda] --list            the scenarios it covers
    python tools/reference/scenarios.py [--device cpu|cuda] --all DIR         every trace, DIR/<name>.h5
Series names and dtypes follow scenarios/<name>.cpp; the code follows the documents."""
import json
import math
import os
import sys
import tempfile
import time

import h5py
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

import tpck  # this folder: the checkpoint container and its checksum

DTYPE_NAME = {torch.float64: "float64", torch.float32: "float32", torch.float16: "float16",
              torch.bfloat16: "bfloat16", torch.int64: "int64", torch.int32: "int32", torch.bool: "bool"}
DTYPE_CODE = {torch.float64: 0, torch.float32: 1, torch.float16: 2, torch.bfloat16: 3}  # include/trainproof/core/dtype.h order


class Trace:
    def __init__(self):
        self.series = {}

    def tensor(self, name, t):
        self.series[name] = (t.detach().cpu().reshape(-1).to(torch.float64 if t.is_floating_point() else torch.int64).numpy(),
                             DTYPE_NAME[t.dtype])

    def values(self, name, values, dtype):
        kind = np.int64 if dtype in ("int64", "int32", "bool") else np.float64
        self.series[name] = (np.asarray(values, dtype=kind), dtype)

    def write(self, path, scenario):
        with h5py.File(path, "w") as f:
            f.attrs["schema_version"] = np.int64(1)
            f.attrs["scenario"] = scenario
            f.attrs["trainproof_version"] = "python-reference"
            f.attrs["created_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            g = f.create_group(DEVICE.type, track_order=True)
            g.attrs["fingerprint"] = json.dumps({"reference": "python", "torch": torch.__version__})
            g.attrs["output"] = ""
            for name, (values, dtype) in self.series.items():
                storage = {"float64": "<f8", "int64": "<i8", "int32": "<i8", "bool": "<i8"}.get(dtype, "<f4")
                d = g.create_dataset(name, data=values.astype(storage))
                d.attrs["dtype_produced"] = dtype
                d.attrs["tolerance"] = "exact"
                d.attrs["tolerance_cross"] = "exact"
                d.attrs["unit"] = ""


# The device the twins run on (--device): the CPU, or CUDA for the twins in ON_CUDA. As the
# C++ scenarios do, data and models are made on the CPU (its generator) and then moved.
DEVICE = torch.device("cpu")


def on(x):
    return x.to(DEVICE)


def fnv1a_int64(data: bytes) -> int:
    """The checksum as the C++ trace stores it: FNV-1a 64 read as a signed int64."""
    h = tpck.fnv1a(data)
    return h - (1 << 64) if h >= 1 << 63 else h


def flat_params(model):
    return torch.cat([p.detach().reshape(-1) for p in model.parameters()])


# ---- Mixed Precision: What autocast Changes ----------------------------------------------
def autocast_dtypes(t):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 10))
    x, y = torch.randn(64, 256), torch.randint(0, 10, (64,))
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        logits = model(x)
        loss = nn.functional.cross_entropy(logits, y)
    loss.backward()
    t.values("dtype_codes_weights_logits_loss_grads",
             [DTYPE_CODE[model[0].weight.dtype], DTYPE_CODE[logits.dtype], DTYPE_CODE[loss.dtype],
              DTYPE_CODE[model[0].weight.grad.dtype]], "int32")
    t.tensor("logits", logits)
    t.tensor("loss", loss)


# ---- Why float16 Needs a Gradient Scaler --------------------------------------------------
def underflow(t):
    grad = 1e-8
    t.tensor("fp16_of_1e-8", torch.tensor(grad, dtype=torch.float16))
    t.tensor("bf16_of_1e-8", torch.tensor(grad, dtype=torch.bfloat16))
    t.tensor("fp16_of_1e-8_x65536", torch.tensor(grad * 65536, dtype=torch.float16))
    infos = [torch.finfo(dt) for dt in (torch.float16, torch.bfloat16, torch.float32)]
    t.values("finfo_max", [fi.max for fi in infos], "float64")
    t.values("finfo_smallest_normal", [fi.tiny for fi in infos], "float64")
    t.values("finfo_eps", [fi.eps for fi in infos], "float64")


# ---- A Mixed-Precision Training Loop ------------------------------------------------------
def amp_loop(t):
    device, amp_dtype = torch.device("cpu"), torch.bfloat16
    torch.manual_seed(0)
    X = torch.randn(4000, 256)
    y = (X[:, :10].sum(dim=1) > 0).long()
    loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True)
    model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 2)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler(device.type, enabled=(amp_dtype == torch.float16))
    losses, norms = [], []
    for epoch in range(1, 4):
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            optimizer.zero_grad()
            with torch.autocast(device_type=device.type, dtype=amp_dtype):
                loss = nn.functional.cross_entropy(model(xb), yb)
            scaler.scale(loss).backward()
            scaler.unscale_(optimizer)
            norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
            scaler.step(optimizer)
            scaler.update()
            losses.append(loss.item())
            norms.append(norm.item())
    per_epoch = len(losses) // 3
    t.values("loss_per_epoch", [losses[(e + 1) * per_epoch - 1] for e in range(3)], "float32")
    t.values("grad_norm_per_epoch", [norms[(e + 1) * per_epoch - 1] for e in range(3)], "float32")
    t.values("loss_per_step", losses, "float32")
    t.values("grad_norm_per_step", norms, "float32")
    # An enabled (float16-recipe) scaler on CPU: inf gradients skip the step, scale halves.
    m = nn.Linear(4, 1)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    s = torch.amp.GradScaler("cpu")
    s.scale(m(torch.ones(2, 4)).sum()).backward()
    m.weight.grad[0][0] = float("inf")
    before = s.get_scale()
    s.unscale_(opt)
    s.step(opt)
    s.update()
    t.values("inf_step_scale_before_after", [before, s.get_scale()], "float32")


# ---- Gradient Accumulation ----------------------------------------------------------------
def accumulation(t):
    torch.manual_seed(0)
    model = on(nn.Linear(8, 3))
    X, y = on(torch.randn(64, 8)), on(torch.randint(0, 3, (64,)))
    loss_fn = nn.CrossEntropyLoss()
    loss_fn(model(X), y).backward()
    full = model.weight.grad.clone()
    t.tensor("grad_full_batch", full)
    for divide in (True, False):
        model.zero_grad()
        for xb, yb in zip(X.split(16), y.split(16)):
            loss = loss_fn(model(xb), yb)
            (loss / 4 if divide else loss).backward()
        ratio = (model.weight.grad / full).mean().item()
        tag = "divided" if divide else "undivided"
        t.tensor("grad_" + tag, model.weight.grad)
        t.values("ratio_" + tag, [ratio], "float64")


def uneven_accumulation(t):
    torch.manual_seed(0)
    model = on(nn.Linear(8, 3))
    X, y = on(torch.randn(70, 8)), on(torch.randint(0, 3, (70,)))
    loss_fn = nn.CrossEntropyLoss()
    loss_fn(model(X), y).backward()
    t.tensor("grad_full_batch", model.weight.grad.clone())
    for tag, weight in [("divide_by_5", lambda n: 1 / 5), ("weight_by_size", lambda n: n / 70)]:
        model.zero_grad()
        for xb, yb in zip(X.split(16), y.split(16)):
            (loss_fn(model(xb), yb) * weight(len(yb))).backward()
        t.tensor("grad_" + tag, model.weight.grad)


# ---- Learning Rate Warmup, OneCycleLR, Reduce on Plateau ------------------------------------
def warmup_cosine(t):
    opt = torch.optim.AdamW(nn.Linear(4, 1).parameters(), lr=1e-3)
    WARMUP, TOTAL = 100, 1000

    def fn(step):
        if step < WARMUP:
            return (step + 1) / WARMUP
        progress = (step - WARMUP) / (TOTAL - WARMUP)
        return 0.5 * (1 + math.cos(math.pi * progress))

    sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=fn)
    lrs = []
    for step in range(TOTAL):
        lrs.append(sched.get_last_lr()[0])
        opt.step()
        sched.step()
    t.values("lr_per_step", lrs, "float64")


def onecycle(t):
    opt = torch.optim.AdamW(nn.Linear(4, 1).parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-2, total_steps=100, pct_start=0.3)
    lrs, beta1 = [], []
    for step in range(100):
        lrs.append(sched.get_last_lr()[0])
        beta1.append(opt.param_groups[0]["betas"][0])
        opt.step()
        sched.step()
    t.values("lr_per_step", lrs, "float64")
    t.values("beta1_per_step", beta1, "float64")


def plateau(t):
    opt = torch.optim.AdamW(nn.Linear(4, 1).parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", patience=2, factor=0.5)
    lrs = []
    for val_loss in [0.90, 0.70, 0.60, 0.61, 0.60, 0.62, 0.55, 0.56, 0.57, 0.58, 0.56]:
        sched.step(val_loss)
        lrs.append(opt.param_groups[0]["lr"])
    t.values("lr_per_epoch", lrs, "float64")


# ---- Checkpoint and Resume — Exactly ------------------------------------------------------
def resume_exact(t):
    def setup(dropout=0.0):
        torch.manual_seed(0)
        layers = [nn.Linear(10, 32), nn.ReLU()] + ([nn.Dropout(dropout)] if dropout else []) + [nn.Linear(32, 1)]
        model = nn.Sequential(*layers)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
        sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
        return model, opt, sched

    def train(model, opt, sched, epochs, losses=None):
        for epoch in epochs:
            g = torch.Generator().manual_seed(epoch)
            X = torch.randn(64, 10, generator=g)
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(X), X.sum(1, keepdim=True))
            loss.backward()
            opt.step()
            sched.step()
            if losses is not None:
                losses.append(loss.item())
        return loss.item()

    def resumed_params():
        model, opt, sched = setup()
        train(model, opt, sched, range(5))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "ckpt.pt")
            torch.save({"epoch": 4, "model": model.state_dict(), "opt": opt.state_dict(),
                        "sched": sched.state_dict()}, path)
            model, opt, sched = setup()
            ckpt = torch.load(path, weights_only=True)
        model.load_state_dict(ckpt["model"]); opt.load_state_dict(ckpt["opt"])
        sched.load_state_dict(ckpt["sched"])
        train(model, opt, sched, range(ckpt["epoch"] + 1, 10))
        return flat_params(model)

    model, opt, sched = setup()
    losses = []
    train(model, opt, sched, range(10), losses)
    params = flat_params(model)
    t.values("loss_per_epoch", losses, "float32")
    t.tensor("params_uninterrupted", params)
    t.values("checksum_uninterrupted", [fnv1a_int64(params.numpy().tobytes())], "int64")
    t.values("checksum_resumed", [fnv1a_int64(resumed_params().numpy().tobytes())], "int64")
    model, opt, sched = setup(0.1)
    train(model, opt, sched, range(10))
    t.tensor("params_dropout_uninterrupted", flat_params(model))


# ---- Practice ---------------------------------------------------------------------------
def precision_table(t):
    for dt in (torch.float32, torch.float16, torch.bfloat16):
        one = torch.tensor(1.0, dtype=dt, device=DEVICE)
        t.tensor(f"one_plus_0.001_{DTYPE_NAME[dt]}", one + 0.001)
        t.tensor(f"1000_plus_1_{DTYPE_NAME[dt]}", torch.tensor(1000.0, dtype=dt, device=DEVICE) + 1)


def early_stop(t):
    val_losses = [0.90, 0.70, 0.60, 0.61, 0.58, 0.59, 0.60, 0.61, 0.57]
    PATIENCE = 3
    best, bad_epochs, verdicts = float("inf"), 0, []
    for epoch, loss in enumerate(val_losses):
        if loss < best:
            best, bad_epochs = loss, 0
            verdicts.append(0)
        else:
            bad_epochs += 1
            verdicts.append(2 if bad_epochs == PATIENCE else 1)
            if bad_epochs == PATIENCE:
                break
    t.values("verdict_per_epoch", verdicts, "int32")
    t.values("best", [best], "float64")


# ---- The training loop (second document) --------------------------------------------------
def zero_grad(t):
    torch.manual_seed(0)
    model = on(nn.Linear(8, 3))
    X, y = on(torch.randn(32, 8)), on(torch.randint(0, 3, (32,)))
    loss_fn = nn.CrossEntropyLoss()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, foreach=False)
    loss_fn(model(X), y).backward()
    batch_grad = model.weight.grad.clone()
    opt.zero_grad()
    loss_fn(model(X), y).backward()
    with_zero_grad = model.weight.grad.clone()
    loss_fn(model(X), y).backward()
    t.tensor("grad_batch", batch_grad)
    t.tensor("grad_with_zero_grad", with_zero_grad)
    t.tensor("grad_zero_grad_forgotten", model.weight.grad)
    for zero in (True, False):
        torch.manual_seed(1)
        m = on(nn.Linear(8, 3))
        sgd = torch.optim.SGD(m.parameters(), lr=0.1, foreach=False)
        xs, ys = X.split(8), y.split(8)
        losses = []
        for step in range(10):
            if zero:
                sgd.zero_grad()
            loss = loss_fn(m(xs[step % 4]), ys[step % 4])
            loss.backward()
            sgd.step()
            losses.append(loss.item())
        t.values("loss_per_step_zero_grad" if zero else "loss_per_step_forgotten", losses, "float32")


def eval_mode(t):
    torch.manual_seed(0)
    fc1 = nn.Linear(8, 16)
    bn = nn.BatchNorm1d(16)
    relu = nn.ReLU()
    dropout = nn.Dropout(0.5)
    fc2 = nn.Linear(16, 3)
    model = on(nn.Sequential(fc1, bn, relu, dropout, fc2))
    X, y = on(torch.randn(64, 8)), on(torch.randint(0, 3, (64,)))
    Xv, yv = on(torch.randn(32, 8)), on(torch.randint(0, 3, (32,)))
    loss_fn = nn.CrossEntropyLoss()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, foreach=False)
    model.train()
    for _ in range(5):
        opt.zero_grad()
        loss_fn(model(X), y).backward()
        opt.step()
    for evaluate in (True, False):
        model.train(not evaluate)
        with torch.no_grad():
            first, second = model(Xv), model(Xv)
            tag = "eval" if evaluate else "train_mode"
            t.values("val_loss_twice_" + tag, [loss_fn(first, yv).item(), loss_fn(second, yv).item()], "float32")
        t.tensor("running_mean_after_" + tag, bn.running_mean)


def weight_decay_groups(t):
    lr, wd = 0.1, 0.1

    def make_model():
        torch.manual_seed(1)
        fc1 = nn.Linear(8, 16)
        norm = nn.LayerNorm(16)
        relu = nn.ReLU()
        fc2 = nn.Linear(16, 3)
        return nn.Sequential(fc1, norm, relu, fc2)

    def optimizer(model, grouped):
        if not grouped:
            return torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=wd)
        decay = [p for p in model.parameters() if p.ndim >= 2]
        no_decay = [p for p in model.parameters() if p.ndim < 2]  # biases and normalization weights
        return torch.optim.AdamW([{"params": decay}, {"params": no_decay, "weight_decay": 0.0}], lr=lr,
                                 weight_decay=wd)

    for grouped in (True, False):
        model = make_model()
        opt = optimizer(model, grouped)
        for p in model.parameters():
            p.grad = torch.zeros_like(p)
        opt.step()
        t.tensor("params_zero_grad_step_grouped" if grouped else "params_zero_grad_step_decay_all", flat_params(model))
    torch.manual_seed(0)
    X, y = torch.randn(64, 8), torch.randint(0, 3, (64,))
    loss_fn = nn.CrossEntropyLoss()
    for grouped in (True, False):
        model = make_model()
        opt = optimizer(model, grouped)
        losses = []
        for _ in range(20):
            opt.zero_grad()
            loss = loss_fn(model(X), y)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        t.values("loss_per_step_grouped" if grouped else "loss_per_step_decay_all", losses, "float32")


def softmax_before_ce(t):
    torch.manual_seed(0)
    X, y = on(torch.randn(64, 20)), on(torch.randint(0, 5, (64,)))
    loss_fn = nn.CrossEntropyLoss()
    norms = []
    for softmax_first in (False, True):
        torch.manual_seed(1)
        fc1 = nn.Linear(20, 64)
        relu = nn.ReLU()
        fc2 = nn.Linear(64, 5)
        model = on(nn.Sequential(fc1, relu, fc2))
        opt = torch.optim.AdamW(model.parameters(), lr=1e-2, foreach=False)
        losses = []
        for step in range(200):
            opt.zero_grad()
            logits = model(X)
            loss = loss_fn(torch.softmax(logits, 1) if softmax_first else logits, y)
            loss.backward()
            if step == 0:
                norms.append(math.sqrt(sum(p.grad.pow(2).sum().item() for p in model.parameters())))
            opt.step()
            losses.append(loss.item())
        t.values("loss_per_step_softmax_first" if softmax_first else "loss_per_step_logits", losses, "float32")
    t.values("grad_norm_step0_logits_softmax_first", norms, "float64")


def overfit_one_batch(t):
    torch.manual_seed(0)
    X, y = on(torch.randn(8, 16)), on(torch.randint(0, 4, (8,)))
    loss_fn = nn.CrossEntropyLoss()
    for bug in ("none", "labels_misaligned", "detached_outputs"):
        torch.manual_seed(1)
        fc1 = nn.Linear(16, 32)
        relu = nn.ReLU()
        fc2 = nn.Linear(32, 4)
        model = on(nn.Sequential(fc1, relu, fc2))
        opt = torch.optim.AdamW(model.parameters(), lr=1e-2, foreach=False)
        losses = []
        for _ in range(300):
            opt.zero_grad()
            out = model(X)
            if bug == "detached_outputs":
                out = out.detach().requires_grad_()
            labels = y[on(torch.randperm(8))] if bug == "labels_misaligned" else y
            loss = loss_fn(out, labels)
            losses.append(loss.item())
            if losses[-1] < 0.01:
                break
            loss.backward()
            opt.step()
        t.values("loss_per_step_" + bug, losses, "float32")


def warmup_linear(t):
    WARMUP, TOTAL = 100, 1000
    opt_a = torch.optim.AdamW(nn.Linear(4, 1).parameters(), lr=1e-3)
    opt_b = torch.optim.AdamW(nn.Linear(4, 1).parameters(), lr=1e-3)

    def fn(step):
        return (step + 1) / WARMUP if step < WARMUP else max(0.0, (TOTAL - step) / (TOTAL - WARMUP))

    lam = torch.optim.lr_scheduler.LambdaLR(opt_a, lr_lambda=fn)
    seq = sequential_warmup_linear(opt_b, WARMUP, TOTAL)
    lrs_a, lrs_b = [], []
    for _ in range(TOTAL):
        lrs_a.append(lam.get_last_lr()[0])
        lrs_b.append(seq.get_last_lr()[0])
        opt_a.step()
        opt_b.step()
        lam.step()
        seq.step()
    t.values("lr_per_step_lambda", lrs_a, "float64")
    t.values("lr_per_step_sequential", lrs_b, "float64")


def sequential_warmup_linear(opt, warmup, total):
    S = torch.optim.lr_scheduler
    return S.SequentialLR(opt, [S.LinearLR(opt, start_factor=1 / warmup, end_factor=1.0, total_iters=warmup - 1),
                                S.LinearLR(opt, start_factor=1.0, end_factor=0.0, total_iters=total - warmup)],
                          milestones=[warmup])


def undivided_sgd_vs_adam(t):
    torch.manual_seed(0)
    X, y = on(torch.randn(64, 8)), on(torch.randint(0, 3, (64,)))
    loss_fn = nn.CrossEntropyLoss()

    def train(adam, lr, divide):
        torch.manual_seed(1)
        model = on(nn.Linear(8, 3))
        opt = (torch.optim.AdamW if adam else torch.optim.SGD)(model.parameters(), lr=lr, foreach=False)
        start = flat_params(model)
        for step in range(3):
            opt.zero_grad()
            for xb, yb in zip(X.split(16), y.split(16)):
                loss = loss_fn(model(xb), yb)
                (loss * (1 / 4) if divide else loss * 1.0).backward()
            opt.step()
            if step == 0:
                first = flat_params(model) - start
        return first, flat_params(model) - start

    updates = {"sgd_undivided": train(False, 0.1, False), "sgd_divided": train(False, 0.1, True),
               "sgd_divided_4x_lr": train(False, 0.4, True), "adamw_undivided": train(True, 1e-3, False),
               "adamw_divided": train(True, 1e-3, True)}
    for name, (_, total) in updates.items():
        t.tensor("update_" + name, total)
    ratio = [(updates[k + "_undivided"][0].norm() / updates[k + "_divided"][0].norm()).item() for k in ("sgd", "adamw")]
    t.values("first_update_ratio_sgd_adamw", ratio, "float64")


def clip_order(t):
    torch.manual_seed(0)
    X, y = torch.randn(32, 8), torch.randint(0, 3, (32,))
    loss_fn = nn.CrossEntropyLoss()

    def run(order):
        torch.manual_seed(1)
        fc1 = nn.Linear(8, 16)
        relu = nn.ReLU()
        fc2 = nn.Linear(16, 3)
        model = nn.Sequential(fc1, relu, fc2)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        scaler = torch.amp.GradScaler("cpu", enabled=order != "true")
        scaler.scale(loss_fn(model(X), y)).backward()
        if order == "clip_first":
            norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.1)
        scaler.unscale_(opt)
        if order != "clip_first":
            norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.1)
        return norm.item(), torch.cat([p.grad.reshape(-1) for p in model.parameters()])

    runs = [run(o) for o in ("true", "unscale_first", "clip_first")]
    t.values("norm_seen_true_unscaled_first_clipped_first", [n for n, _ in runs], "float64")
    for name, (_, g) in zip(("grads_true_clipped", "grads_unscale_then_clip", "grads_clip_then_unscale"), runs):
        t.tensor(name, g)


def deterministic(t):
    torch.use_deterministic_algorithms(True)
    idx = torch.tensor([0, 0])
    ops = [lambda: torch.zeros(5).put_(idx, torch.ones(2)),
           lambda: torch.zeros(5).put_(idx, torch.ones(2), accumulate=True),
           lambda: torch.zeros(5).index_put_((idx,), torch.ones(2), accumulate=True),
           lambda: torch.zeros(5).scatter_add_(0, idx, torch.ones(2)),
           lambda: torch.zeros(5).index_add_(0, idx, torch.ones(2)),
           lambda: torch.bincount(idx, torch.ones(2)),
           lambda: torch.histc(torch.ones(4)),
           lambda: torch.ones(4).kthvalue(2),
           lambda: torch.ones(4).median(0),
           lambda: torch.ones(4, requires_grad=True).cumsum(0).sum().backward(),
           lambda: nn.functional.avg_pool3d(torch.ones(1, 1, 2, 2, 2, requires_grad=True), 2).sum().backward(),
           lambda: nn.functional.interpolate(torch.ones(1, 1, 2, 2, requires_grad=True), scale_factor=2,
                                             mode="bilinear", align_corners=False).sum().backward()]
    refuses = []
    for op in ops:
        try:
            op()
            refuses.append(0)
        except RuntimeError:
            refuses.append(1)
    torch.manual_seed(0)
    emb = nn.Embedding(50, 16)
    fc = nn.Linear(16, 3)
    opt = torch.optim.SGD(list(emb.parameters()) + list(fc.parameters()), lr=0.5)
    tokens, y = torch.randint(0, 50, (32, 6)), torch.randint(0, 3, (32,))
    for _ in range(20):
        opt.zero_grad()
        nn.functional.cross_entropy(fc(emb(tokens).mean(1)), y).backward()
        opt.step()
    torch.use_deterministic_algorithms(False)
    t.values("refuses_per_candidate_op", refuses, "int32")
    t.tensor("params_after_20_steps", torch.cat([flat_params(emb), flat_params(fc)]))


def activation_checkpointing(t):
    """torch.utils.checkpoint (reentrant, preserve_rng_state=True) on 7 of 8 dropout blocks.
    The bytes held for backward: storages that came alive during the forward pass and that
    the graph keeps (saved tensors, counted once each by saved_tensors_hooks), the loss, and
    the CPU RNG state each checkpointed segment keeps for its recompute (ctx.fwd_cpu_state)."""
    from torch.utils.checkpoint import checkpoint
    torch.manual_seed(0)
    X, y = torch.randn(64, 256), torch.randint(0, 10, (64,))
    held = []
    for checkpointed in (False, True):
        torch.manual_seed(1)
        blocks = []
        for _ in range(8):
            fc = nn.Linear(256, 256)
            relu = nn.ReLU()
            dropout = nn.Dropout(0.1)
            blocks.append(nn.Sequential(fc, relu, dropout))
        head = nn.Linear(256, 10)
        model = nn.ModuleList(blocks + [head])
        model.train()
        existing = {p.untyped_storage().data_ptr() for p in model.parameters()}
        existing |= {X.untyped_storage().data_ptr(), y.untyped_storage().data_ptr()}
        saved = {}

        def pack(tensor):
            st = tensor.untyped_storage()
            if st.data_ptr() not in existing:
                saved[st.data_ptr()] = st.nbytes()
            return tensor

        with torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
            x = X
            for i, block in enumerate(blocks):
                x = checkpoint(block, x, use_reentrant=True) if checkpointed and i > 0 else block(x)
            loss = nn.functional.cross_entropy(head(x), y)
        saved.setdefault(loss.untyped_storage().data_ptr(), loss.untyped_storage().nbytes())
        held.append(sum(saved.values()) + (7 * torch.get_rng_state().nbytes if checkpointed else 0))
        loss.backward()
        t.tensor("grad_norms_checkpointed" if checkpointed else "grad_norms_plain",
                 torch.stack([p.grad.norm() for p in model.parameters()]))
    t.values("bytes_held_for_backward_plain_checkpointed", held, "int64")


SCENARIOS = {f.__name__: f for f in (autocast_dtypes, underflow, amp_loop, accumulation, uneven_accumulation,
                                     warmup_cosine, onecycle, plateau, resume_exact, precision_table, early_stop,
                                     zero_grad, eval_mode, weight_decay_groups, softmax_before_ce,
                                     overfit_one_batch, warmup_linear, undivided_sgd_vs_adam, clip_order,
                                     deterministic, activation_checkpointing)}


# The twins that run on CUDA as their C++ scenarios do: those that touch no device at all (the
# schedulers) and those written with on(). The others are CPU-only twins so far.
ON_CUDA = {"warmup_cosine", "onecycle", "plateau", "early_stop", "warmup_linear", "precision_table", "accumulation",
           "uneven_accumulation", "zero_grad", "eval_mode", "softmax_before_ce", "overfit_one_batch",
           "undivided_sgd_vs_adam"}


def use_device(name):
    """CUDA as make_cuda_deterministic() sets it for the C++ scenarios."""
    global DEVICE
    if name == "cuda":
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
        torch.use_deterministic_algorithms(True)
        torch.backends.cudnn.deterministic = True
        torch.backends.cudnn.benchmark = False
    DEVICE = torch.device(name)


def run_all(names, device, out_dir):
    """Every scenario, each in a child forked from this process after `import torch`: the state of
    a fresh process, for the price of one import (the oracle tests share these files)."""
    os.makedirs(out_dir, exist_ok=True)
    # The first optimizer a process builds imports torch._dynamo (1.4 s on 2 cores): once, here,
    # not in every child. It draws no random number and leaves no state a scenario reads.
    torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
    failed = []
    for name in names:
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                use_device(device)
                torch.set_num_threads(torch.get_num_threads())
                t = Trace()
                SCENARIOS[name](t)
                t.write(os.path.join(out_dir, name + ".h5"), name)
                code = 0
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        if status != 0:
            failed.append(name)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


def main(argv):
    args = argv[1:]
    device = "cpu"
    if len(args) >= 2 and args[0] == "--device":
        device, args = args[1], args[2:]
    if device not in ("cpu", "cuda"):
        print(f"--device {device}: expected cpu or cuda", file=sys.stderr)
        return 2
    names = [n for n in SCENARIOS if device == "cpu" or n in ON_CUDA]
    if args == ["--list"]:
        print("\n".join(names))
        return 0
    if len(args) == 2 and args[0] == "--all":
        return run_all(names, device, args[1])
    if len(args) != 2 or args[0] not in SCENARIOS:
        print(f"usage: {argv[0]} [--device cpu|cuda] SCENARIO OUT.h5 | [--device D] --list | [--device D] --all DIR "
              f"(scenarios: {', '.join(SCENARIOS)})", file=sys.stderr)
        return 2
    if args[0] not in names:
        print(f"{args[0]}: no CUDA twin yet (it runs on the CPU only)", file=sys.stderr)
        return 3
    use_device(device)
    torch.set_num_threads(torch.get_num_threads())
    t = Trace()
    SCENARIOS[args[0]](t)
    t.write(args[1], args[0])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
