"""The truth of tests/data/loops/resume_shapes.py without trainproof: each form run straight, and
run SIGKILLed (after a printed step, or while its first checkpoint's temporary file is written)
then restarted with --resume; every tensor of its final files (final.pt, ema.pt) compared with
torch.equal. The correct forms are exact under every kill; each twin is not, after a kill past its
first checkpoint. What check says of the same forms (check_resume_shapes_test.py) is held to this.
usage: resume_shapes_truth_test.py PYTHON [SHAPE...]"""
import os
import signal
import subprocess
import sys
import tempfile
import time

python = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
loop = os.path.join(here, "data", "loops", "resume_shapes.py")
FORMS = [("accum-amp", "none", True), ("accum-amp", "no-scheduler", False), ("ema", "none", True),
         ("ema", "ema-not-saved", False), ("micro", "none", True), ("micro", "micro-not-restored", False),
         ("workers", "none", True), ("workers", "reseeded-workers", False), ("workers", "lost-position", False),
         ("actor-critic", "none", True), ("actor-critic", "env-not-saved", False), ("streamed", "none", True),
         ("streamed", "buffer-lost", False)]
if len(sys.argv) > 2:  # SHAPE...: those shapes' forms only
    FORMS = [f for f in FORMS if f[0] in sys.argv[2:]]
COMPARE = """
import os, sys, torch
a, b = sys.argv[1:3]
for name in ("final.pt", "ema.pt"):
    if not os.path.exists(f"{a}/{name}"):
        continue
    x, y = torch.load(f"{a}/{name}"), torch.load(f"{b}/{name}")
    bad = [k for k in x if not torch.equal(x[k], y[k])]
    if bad:
        print(f"{name}: {len(bad)} of {len(x)} differ ({', '.join(bad[:3])})")
"""


def command(shape, mistake, out, resume=False):
    return [python, loop, "--shape", shape, "--mistake", mistake, "--out", out] + (["--resume"] if resume else [])


def killed(shape, mistake, out, after_step=None):
    """Runs the form into `out`, SIGKILLed after it prints `step N`, or (after_step None) while its
    first checkpoint's temporary file exists; then restarted to the end. Whether a kill landed."""
    p = subprocess.Popen(command(shape, mistake, out), stdout=subprocess.PIPE, text=True)
    landed = False
    if after_step is None:
        tmp = os.path.join(out, "ckpt.pt.tmp")
        while p.poll() is None and not landed:
            landed = os.path.exists(tmp)
            if landed:
                p.send_signal(signal.SIGKILL)
            time.sleep(0.0005)
    else:
        for line in p.stdout:
            if line.startswith(f"step {after_step} "):
                p.send_signal(signal.SIGKILL)
                landed = True
                break
    p.wait()
    if landed:
        subprocess.run(command(shape, mistake, out, resume=True), check=True, capture_output=True)
    return landed


failed = 0
with tempfile.TemporaryDirectory() as tmp:
    for shape, mistake, exact in FORMS:
        straight = os.path.join(tmp, f"{shape}-{mistake}-straight")
        os.makedirs(straight)
        subprocess.run(command(shape, mistake, straight), check=True, capture_output=True)
        for kill in (None, 9, 13):
            out = os.path.join(tmp, f"{shape}-{mistake}-{kill}")
            os.makedirs(out)
            if not killed(shape, mistake, out, kill):
                print(f"{shape} {mistake}: the kill {kill} did not land (the run ended first)")
                continue
            diff = subprocess.run([python, "-c", COMPARE, straight, out], capture_output=True, text=True,
                                  check=True).stdout.strip()
            where = "in the first checkpoint's write" if kill is None else f"after step {kill}"
            # Killed in the first checkpoint's write, every form starts over: exact.
            want_exact = exact or kill is None
            ok = (diff == "") == want_exact
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {shape} {mistake}, killed {where}: "
                  f"{'exact' if not diff else diff}{'' if ok else ' (expected ' + ('exact' if want_exact else 'a difference') + ')'}")
print(f"{len(FORMS) * 3 - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
