"""The documents' Python code, instrumented to write the same traces the C++ scenarios
write (golden schema v1, group /cpu): an independent oracle run by PyTorch itself.
    python tools/reference/scenarios.py SCENARIO OUT.h5     write the trace
    python tools/reference/scenarios.py --list              the scenarios it covers
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
            g = f.create_group("cpu", track_order=True)
            g.attrs["fingerprint"] = json.dumps({"reference": "python", "torch": torch.__version__})
            g.attrs["output"] = ""
            for name, (values, dtype) in self.series.items():
                storage = {"float64": "<f8", "int64": "<i8", "int32": "<i8", "bool": "<i8"}.get(dtype, "<f4")
                d = g.create_dataset(name, data=values.astype(storage))
                d.attrs["dtype_produced"] = dtype
                d.attrs["tolerance"] = "exact"
                d.attrs["tolerance_cross"] = "exact"
                d.attrs["unit"] = ""


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
    model = nn.Linear(8, 3)
    X, y = torch.randn(64, 8), torch.randint(0, 3, (64,))
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
    model = nn.Linear(8, 3)
    X, y = torch.randn(70, 8), torch.randint(0, 3, (70,))
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
        one = torch.tensor(1.0, dtype=dt)
        t.tensor(f"one_plus_0.001_{DTYPE_NAME[dt]}", one + 0.001)
        t.tensor(f"1000_plus_1_{DTYPE_NAME[dt]}", torch.tensor(1000.0, dtype=dt) + 1)


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


SCENARIOS = {f.__name__: f for f in (autocast_dtypes, underflow, amp_loop, accumulation, uneven_accumulation,
                                     warmup_cosine, onecycle, plateau, resume_exact, precision_table, early_stop)}


def main(argv):
    if argv[1:] == ["--list"]:
        print("\n".join(SCENARIOS))
        return 0
    if len(argv) != 3 or argv[1] not in SCENARIOS:
        print(f"usage: {argv[0]} SCENARIO OUT.h5 | --list (scenarios: {', '.join(SCENARIOS)})", file=sys.stderr)
        return 2
    torch.set_num_threads(torch.get_num_threads())
    t = Trace()
    SCENARIOS[argv[1]](t)
    t.write(argv[2], argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
