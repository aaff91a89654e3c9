"""What trainproof's probe costs a training script, probe off, on, and on with op digests (as in
check's rerun of two runs that parted), side by side in one run.

    python bench/probe_cost.py [--repeat 3] [--steps 40]

Three loops, each run as its own process with the probe off (no TRAINPROOF_PROBE) and on (as
`trainproof check` loads it: the sitecustomize on PYTHONPATH, TRAINPROOF_PROBE=1, a trace file):
  - gpt: a small GPT-style model (token embedding, 2 transformer blocks, tied head) trained
    with AdamW on the CPU; the loop times its own steps (after 3 warm-up steps), so process
    start-up is not in it;
  - examples/python_plain and examples/python_loop: the whole process, wall time, start-up
    included (that is what `check` pays per start).
It prints the median of --repeat runs for each, and the cost per step and in percent of the
probe and of the probe with op digests (TRAINPROOF_OP_DIGESTS set past the last step, so that
every op of every step is digested)."""
import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
GPT = r'''
import sys, time, torch, torch.nn as nn
torch.manual_seed(0)
V, D, T, B, steps = 256, 128, 64, 8, int(sys.argv[1])
class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok, self.pos = nn.Embedding(V, D), nn.Embedding(T, D)
        self.blocks = nn.ModuleList(nn.TransformerEncoderLayer(D, 4, 4 * D, dropout=0.1, batch_first=True,
                                                               norm_first=True) for _ in range(2))
        self.ln = nn.LayerNorm(D)
    def forward(self, x):
        h = self.tok(x) + self.pos(torch.arange(x.shape[1]))
        mask = nn.Transformer.generate_square_subsequent_mask(x.shape[1])
        for b in self.blocks:
            h = b(h, src_mask=mask, is_causal=True)
        return self.ln(h) @ self.tok.weight.T
model = GPT()
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
    loss = nn.functional.cross_entropy(model(x).reshape(-1, V), y.reshape(-1))
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    times.append(time.perf_counter() - t0)
print(sum(times[3:]) / len(times[3:]) * 1e3)
'''


MODES = ("off", "on", "digests")  # the probe off; on; on with op digests


def run(cmd, mode, tmp):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRAINPROOF_")}
    if mode != "off":
        env.update(TRAINPROOF_PROBE="1", TRAINPROOF_TRACE=str(tmp / f"trace-{time.monotonic_ns()}"),
                   PYTHONPATH=f"{ROOT / 'python' / 'trainproof_boot'}:{ROOT / 'python'}")
    if mode == "digests":
        env["TRAINPROOF_OP_DIGESTS"] = str(10**9)
    t0 = time.perf_counter()
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - t0, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--steps", type=int, default=40)
    a = ap.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as d:
        tmp = pathlib.Path(d)
        gpt = tmp / "gpt.py"
        gpt.write_text(GPT)
        loops = [("gpt (ms/step, in-loop)", [py, str(gpt), str(a.steps)], a.steps, True),
                 ("python_plain (s/process)", [py, str(ROOT / "examples/python_plain/train.py"), "--out", str(tmp / "p")],
                  30, False),
                 ("python_loop (s/process)", [py, str(ROOT / "examples/python_loop/train.py"), "--run-dir",
                                              str(tmp / "l")], 60, False)]
        print(f"{'loop':28} {'probe off':>10} {'probe on':>10} {'cost/step':>12} {'cost':>8}"
              f" {'+op digests':>12} {'cost/step':>12} {'cost':>8}")
        for name, cmd, steps, in_loop in loops:
            got = {m: [] for m in MODES}
            for _ in range(a.repeat):  # interleaved, so that drift hits every mode alike
                for mode in MODES:
                    for p in tmp.glob("[pl]"):
                        subprocess.run(["rm", "-rf", str(p)])
                    wall, out = run(cmd, mode, tmp)
                    got[mode].append(float(out.strip().splitlines()[-1]) if in_loop else wall)
            m = {k: statistics.median(v) for k, v in got.items()}
            row = f"{name:28} {m['off']:10.3f}"
            for mode in ("on", "digests"):
                per_step_ms = (m[mode] - m["off"]) if in_loop else (m[mode] - m["off"]) / steps * 1e3
                row += f" {m[mode]:10.3f} {per_step_ms:9.3f} ms {100 * (m[mode] - m['off']) / m['off']:7.1f}%"
                if mode == "on":
                    row += " "
            print(row)

if __name__ == "__main__":
    main()
