"""What trainproof's probe costs a training script, probe off, on, and on with op digests (as in
check's rerun of two runs that parted), side by side in one run.

    python bench/probe_cost.py [--repeat 3] [--steps 40] [--only NAME] [--nanogpt DIR]

Each loop runs as its own process with the probe off (no TRAINPROOF_PROBE) and on (as
`trainproof check` loads it: the sitecustomize on PYTHONPATH, TRAINPROOF_PROBE=1, a trace file):
  - gpt: a GPT-style model (token embedding, transformer blocks, tied head) trained with AdamW
    on the CPU, small (2 blocks, 128 wide) and at nanoGPT's shakespeare_char size (6 blocks, 384
    wide, block 128, batch 8: 10.7M parameters, float32), eager and torch.compile'd; the loop
    times its own steps (the median, after 3 warm-up steps that compile), so start-up is not in it;
  - nanoGPT itself at that size, eager and compiled, with --nanogpt DIR (a folder that holds its
    train.py, model.py and configurator.py; bench/nanogpt_tiny_data.py makes its data there):
    the median of the iteration times it prints;
  - lbfgs: an LBFGS loop whose closure the optimizer calls up to 20 times a step (a small MLP on
    the CPU), timing its own steps as gpt does: what the probe costs a step of many closure calls;
  - examples/python_plain and examples/python_loop: the whole process, wall time, start-up
    included (that is what `check` pays per start).
It prints the median of --repeat runs for each, the cost per step and in percent of the probe,
and the probe's own time a step ("own": TRAINPROOF_PROBE_CLOCK=1, the time inside its hooks, the
median over the steps after the first three, measured in the same run as the step, so that the
drift between runs that the side-by-side figure carries is not in it); for the small loops also the cost with op digests
(TRAINPROOF_OP_DIGESTS set past the last step, so that every op of every step is digested)."""
import argparse
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
GPT = r'''
import sys, time, torch, torch.nn as nn
torch.manual_seed(0)
steps, V, D, T, B, L = (int(a) for a in sys.argv[1:7])
compiled = sys.argv[7] == "compile"
class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok, self.pos = nn.Embedding(V, D), nn.Embedding(T, D)
        self.blocks = nn.ModuleList(nn.TransformerEncoderLayer(D, 4, 4 * D, dropout=0.1, batch_first=True,
                                                               norm_first=True) for _ in range(L))
        self.ln = nn.LayerNorm(D)
    def forward(self, x):
        h = self.tok(x) + self.pos(torch.arange(x.shape[1]))
        mask = nn.Transformer.generate_square_subsequent_mask(x.shape[1])
        for b in self.blocks:
            h = b(h, src_mask=mask, is_causal=True)
        return self.ln(h) @ self.tok.weight.T
model = GPT()
forward = torch.compile(model) if compiled else model
decay = [p for p in model.parameters() if p.dim() > 1]
rest = [p for p in model.parameters() if p.dim() <= 1]
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": rest, "weight_decay": 0.0}], lr=3e-4)
data = torch.randint(V, (4096,), generator=torch.Generator().manual_seed(1))
times = []
for step in range(steps):
    t0 = time.perf_counter()
    ix = torch.randint(len(data) - T - 1, (B,))
    x = torch.stack([data[i:i + T] for i in ix]); y = torch.stack([data[i + 1:i + T + 1] for i in ix])
    opt.zero_grad(set_to_none=True)
    loss = nn.functional.cross_entropy(forward(x).reshape(-1, V), y.reshape(-1))
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    times.append(time.perf_counter() - t0)
print(sorted(times[3:])[len(times[3:]) // 2] * 1e3)  # the first steps compile (and warm the allocator)
'''

LBFGS = r'''
import sys, time, torch, torch.nn as nn
torch.manual_seed(0)
steps = int(sys.argv[1])
model = nn.Sequential(nn.Linear(64, 256), nn.Tanh(), nn.Linear(256, 1))
opt = torch.optim.LBFGS(model.parameters(), lr=0.1, max_iter=20, history_size=10, tolerance_grad=0,
                        tolerance_change=0)  # never converged: its closure called 20 times every step
X = torch.randn(512, 64, generator=torch.Generator().manual_seed(1))
y = X[:, :8].sum(1, keepdim=True)
times = []
for step in range(steps):
    t0 = time.perf_counter()
    def closure():
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(X), y)
        loss.backward()
        return loss
    opt.step(closure)
    times.append(time.perf_counter() - t0)
print(sorted(times[3:])[len(times[3:]) // 2] * 1e3)
'''


# nanoGPT's shakespeare_char size, as the issue that asked for it measured it: vocabulary 65, 384
# wide, block 128, batch 8, 6 layers: 10.7M parameters, float32 on the CPU.
NANOGPT = (65, 384, 128, 8, 6)
MODES = ("off", "on", "digests")  # the probe off; on; on with op digests
NANOGPT_ARGS = ["--dataset=tiny", "--device=cpu", "--dtype=float32", "--n_layer=6", "--n_head=6", "--n_embd=384",
                "--block_size=128", "--batch_size=8", "--gradient_accumulation_steps=1", "--eval_interval=100000",
                "--eval_iters=1", "--log_interval=1", "--always_save_checkpoint=False", "--dropout=0.0",
                "--bias=False", "--wandb_log=False"]


def run(cmd, mode, tmp, cwd=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRAINPROOF_")}
    if mode != "off":
        env.update(TRAINPROOF_PROBE="1", TRAINPROOF_TRACE=str(tmp / f"trace-{time.monotonic_ns()}"),
                   TRAINPROOF_PROBE_CLOCK="1", PYTHONPATH=f"{ROOT / 'python' / 'trainproof_boot'}:{ROOT / 'python'}")
    if mode == "digests":
        env["TRAINPROOF_OP_DIGESTS"] = str(10**9)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"{' '.join(cmd)} failed (exit {p.returncode}):\n{p.stderr[-2000:]}")
    own = re.search(r"trainproof probe: ([0-9.]+) ms of its own a step", p.stderr)
    return time.perf_counter() - t0, p.stdout, float(own[1]) if own else None


def nanogpt_step_ms(out):
    """The median of the iteration times nanoGPT prints, after its first 4 (compile, warm-up)."""
    times = sorted(float(t) for t in re.findall(r"time ([0-9.]+)ms", out)[4:])
    return times[len(times) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--big-steps", type=int, default=13, help="steps of the 10.7M-parameter loops")
    ap.add_argument("--only", default="", help="run only the loops whose name holds this")
    ap.add_argument("--nanogpt", type=pathlib.Path, help="a nanoGPT folder with data/tiny: its rows too")
    a = ap.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as d:
        tmp = pathlib.Path(d)
        gpt = tmp / "gpt.py"
        gpt.write_text(GPT)
        gpt_loop = lambda steps, *size: [py, str(gpt), str(steps), *map(str, size)]
        lbfgs = tmp / "lbfgs.py"
        lbfgs.write_text(LBFGS)
        # name, command, steps, how its step is read (a loop's own figure, nanoGPT's, or the process's
        # wall time), folder to run in
        loops = [("gpt (ms/step, in-loop)", gpt_loop(a.steps, 256, 128, 64, 8, 2, "eager"), a.steps, "loop", None),
                 ("gpt 10.7M (ms/step)", gpt_loop(a.big_steps, *NANOGPT, "eager"), a.big_steps, "loop", None),
                 ("gpt 10.7M compiled", gpt_loop(a.big_steps, *NANOGPT, "compile"), a.big_steps, "loop", None),
                 ("lbfgs closure x20 (ms/step)", [py, str(lbfgs), str(a.steps)], a.steps, "loop", None)]
        if a.nanogpt:
            subprocess.run([py, str(ROOT / "bench" / "nanogpt_tiny_data.py"), str(a.nanogpt)], check=True)
            for compiled in ("False", "True"):
                loops.append((f"nanoGPT 10.7M{' compiled' if compiled == 'True' else ''}",
                              [py, "train.py", *NANOGPT_ARGS, f"--max_iters={a.big_steps + 4}", f"--compile={compiled}",
                               f"--out_dir={tmp / 'nanogpt-out'}"], a.big_steps + 4, "nanogpt", a.nanogpt))
        loops += [("python_plain (s/process)", [py, str(ROOT / "examples/python_plain/train.py"), "--out", str(tmp / "p")],
                   30, "process", None),
                  ("python_loop (s/process)", [py, str(ROOT / "examples/python_loop/train.py"), "--run-dir",
                                               str(tmp / "l")], 60, "process", None)]
        print(f"{'loop':28} {'probe off':>10} {'probe on':>10} {'cost/step':>12} {'cost':>8} {'own/step':>11} {'own':>7}"
              f" {'+op digests':>12} {'cost/step':>12} {'cost':>8}")
        for name, cmd, steps, read, cwd in loops:
            if a.only not in name:
                continue
            modes = MODES[:2] if "10.7M" in name else MODES  # op digests there: minutes a run
            got = {m: [] for m in modes}
            own = []
            for _ in range(a.repeat):  # interleaved, so that drift hits every mode alike
                for mode in modes:
                    for p in tmp.glob("[pl]"):
                        subprocess.run(["rm", "-rf", str(p)])
                    wall, out, own_ms = run(cmd, mode, tmp, cwd)
                    got[mode].append({"loop": lambda: float(out.strip().splitlines()[-1]),
                                      "nanogpt": lambda: nanogpt_step_ms(out), "process": lambda: wall}[read]())
                    if mode == "on" and own_ms is not None:
                        own.append(own_ms)
            m = {k: statistics.median(v) for k, v in got.items()}
            row = f"{name:28} {m['off']:10.3f}"
            for mode in modes[1:]:
                per_step_ms = (m[mode] - m["off"]) if read != "process" else (m[mode] - m["off"]) / steps * 1e3
                row += f" {m[mode]:10.3f} {per_step_ms:9.3f} ms {100 * (m[mode] - m['off']) / m['off']:7.1f}%"
                if mode == "on":
                    own_ms = statistics.median(own) if own else float("nan")
                    step_ms = m["off"] if read != "process" else float("nan")  # a process's step: not measured
                    row += f" {own_ms:8.3f} ms {100 * own_ms / step_ms:6.1f}% "
            print(row, flush=True)


if __name__ == "__main__":
    main()
