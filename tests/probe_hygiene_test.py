"""The probe keeps nothing of the script's alive and its memory bounded, its wrappers of torch's
random functions compile under torch.jit.script and trace, and its frames are not in the tracebacks
the script's errors print (a torch.load of a file not there runs from the script's line into torch): a script that makes an
optimizer and a scheduler per fold frees each fold's as it would unwatched (weak references), and
a loop that calls backward for long without ever stepping holds a bounded batch digest. Each
check runs under the probe (as `trainproof check` loads it) and fails where the probe holds on.
usage: probe_hygiene_test.py PYTHON"""
import os
import subprocess
import sys
import tempfile

python = sys.argv[1]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = r'''
import gc, weakref, torch, torch.nn as nn
from trainproof import probe
assert probe._probe is not None, "the probe is not installed"


@torch.jit.script  # before any draw: the probe's wrappers of torch.rand* are in place
def noisy(x: torch.Tensor) -> torch.Tensor:
    return x + torch.rand(x.shape[0]) + torch.randn_like(x)


traced = torch.jit.trace(lambda x: x + torch.randn(3), torch.zeros(3), check_trace=False)  # it draws: no rerun
print("scripted and traced:", tuple(noisy(torch.zeros(3)).shape), tuple(traced(torch.zeros(3)).shape))
freed = []
for fold in range(3):
    net = nn.Linear(4, 1)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, 2)
    for i in range(3):
        opt.zero_grad(); net(torch.ones(2, 4)).sum().backward(); opt.step(); sched.step()
    refs = [weakref.ref(opt), weakref.ref(sched)]
    del opt, sched, net
    gc.collect()
    freed.append(all(r() is None for r in refs))
print("freed per fold:", freed)
assert all(freed), "the probe keeps each fold's optimizer or scheduler alive"
x = torch.ones(64, 512, requires_grad=True)  # 128 KiB: digested by sums, not hashed whole
net = nn.Linear(512, 1)
for p in net.parameters():
    p.requires_grad_(False)
for i in range(6000):  # backward only, never a step: the probe's batch digest must not grow with it
    net(x).sum().backward()
batch = probe._probe.part(probe.ModuleModes).batch
held = len(batch._sums) if batch is not None else 0
print("batch sums held after 6000 backwards:", held)
assert held < 4096, f"the probe holds {held} sums of a batch digest"
'''
with tempfile.TemporaryDirectory() as tmp:
    py = os.path.join(root, "python")
    env = dict(os.environ, TRAINPROOF_PROBE="1", TRAINPROOF_TRACE=os.path.join(tmp, "trace"),
               PYTHONPATH=os.pathsep.join([os.path.join(py, "trainproof_boot"), py]))
    script = os.path.join(tmp, "folds.py")  # a file: torch.jit.script reads its source
    with open(script, "w") as f:
        f.write(SCRIPT)
    p = subprocess.run([python, script], env=env, capture_output=True, text=True, timeout=300)
    print(p.stdout + p.stderr)
    ok = p.returncode == 0
    missing = os.path.join(tmp, "missing.py")
    with open(missing, "w") as f:
        f.write("import torch\ntorch.load('no-such-checkpoint.pt', weights_only=True)\n")
    q = subprocess.run([python, missing], env=env, capture_output=True, text=True, timeout=300, cwd=tmp)
    shown = "missing.py\", line 2" in q.stderr and "FileNotFoundError" in q.stderr and "serialization.py" in q.stderr
    if not shown or "trainproof" + os.sep + "probe" in q.stderr:
        ok = False
        print("the traceback of a failed torch.load shows the probe's frames, or not the script's:\n" + q.stderr)
    else:
        print("a failed torch.load's traceback: the script's line, then torch's; no frame of the probe")
    print("1 passed, 0 failed" if ok else "0 passed, 1 failed")
    sys.exit(0 if ok else 1)
