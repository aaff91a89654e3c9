"""The truth of tests/data/loops/silent_bugs.py without trainproof: each form run as it is (runpy, in
this process), then its own objects asked. Which parameters its 12 steps changed (against the same
seeded model before any step: --steps 0), which parameters the optimizer holds and which get a
gradient, whether the model in eval mode gives the same output twice (no dropout active), and
whether a forward in eval mode moves the block's running statistics. Each mistake shows its bug and
the correct form shows none of them. What check says of the same forms (check_silent_bugs_test.py)
is held to this.
usage: silent_bugs_truth_test.py"""
import os
import runpy
import sys
import tempfile

import torch

loop = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "loops", "silent_bugs.py")
MISTAKES = ["none", "optimizer-over-frozen", "frozen-after-built", "temperature-left-out", "functional-dropout",
            "custom-batch-norm"]


def run(mistake, out, steps):
    sys.argv = [loop, "--mistake", mistake, "--out", out, "--steps", str(steps)]
    return runpy.run_path(loop, run_name="__main__")


def truth(mistake, tmp):
    before = run(mistake, os.path.join(tmp, "0"), 0)["model"].state_dict()
    g = run(mistake, os.path.join(tmp, "12"), 12)
    model, opt, x, y = g["model"], g["opt"], g["x"], g["y"]
    after = model.state_dict()
    params = dict(model.named_parameters())
    changed = sorted(n for n in params if not torch.equal(before[n], after[n]))
    held = {id(p) for group in opt.param_groups for p in group["params"]}
    model.train()
    model.zero_grad(set_to_none=True)
    torch.nn.functional.cross_entropy(model(x[:8]), y[:8]).backward()
    held_no_grad = sorted(n for n, p in params.items() if id(p) in held and p.requires_grad is False)
    grad_not_held = sorted(n for n, p in params.items() if p.grad is not None and id(p) not in held)
    model.eval()
    with torch.no_grad():
        mean = model.block.mean.clone()
        same = torch.equal(model(x[:32]), model(x[:32]))
        stats_moved = not torch.equal(mean, model.block.mean)
    return {"changed": changed, "held_no_grad": held_no_grad, "grad_not_held": grad_not_held,
            "eval_dropout": not same, "eval_stats_moved": stats_moved}


def expected(mistake, t):
    """What a reader of each form says its bug is, held to what the run showed."""
    bugs = {"optimizer-over-frozen": not t["changed"], "frozen-after-built": "block.proj.weight" in t["held_no_grad"],
            "temperature-left-out": "temperature" in t["grad_not_held"] and "temperature" not in t["changed"],
            "functional-dropout": t["eval_dropout"], "custom-batch-norm": t["eval_stats_moved"]}
    clean = {"optimizer-over-frozen": bool(t["changed"]), "frozen-after-built": not t["held_no_grad"],
             "temperature-left-out": not t["grad_not_held"], "functional-dropout": not t["eval_dropout"],
             "custom-batch-norm": not t["eval_stats_moved"]}
    if mistake == "none":
        return all(clean.values()) and not any(n.startswith("backbone.") for n in t["changed"])
    # Its own bug shows, and no other; but optimizer-over-frozen's one line does three things: its
    # optimizer holds frozen parameters (frozen before it was built) and none of those that train.
    also = {"optimizer-over-frozen": ("temperature-left-out", "frozen-after-built")}.get(mistake, ())
    others = [k for k in clean if k != mistake and k not in also]
    return bugs[mistake] and all(clean[k] for k in others)


failed = 0
with tempfile.TemporaryDirectory() as tmp:
    for m in MISTAKES:
        os.makedirs(os.path.join(tmp, m, "0"))
        os.makedirs(os.path.join(tmp, m, "12"))
        t = truth(m, os.path.join(tmp, m))
        ok = expected(m, t)
        failed += not ok
        shown = dict(t, changed=f"{len(t['changed'])} parameters changed")
        print(f"{'ok  ' if ok else 'FAIL'} {m}: {shown}")
print(f"{len(MISTAKES) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
