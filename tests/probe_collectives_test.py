"""The probe never issues a collective: FSDP2 + DCP (examples/distributed/sharded_dcp.py) on 2
ranks (torchrun, gloo), with and without zero_grad, run once without the probe and once with it.
Every rank issues the same collectives, counted by name (tests/data/loops/count_collectives.py),
and ends with bitwise the same local shards; the probe recorded every step on both ranks.
--control: the probe computes on DTensors as a whole (TRAINPROOF_INJECT_FAULT), as it once did:
its stale-gradient check is then an all-reduce, and the counts must differ.
--mistakes: which forms of the loop (default none,no-zero-grad; the quick test runs no-zero-grad).
usage: probe_collectives_test.py PYTHON TORCHRUN [--control] [--mistakes M[,M...]]"""
import json
import os
import subprocess
import sys
import tempfile

python, torchrun = sys.argv[1], sys.argv[2]
control = "--control" in sys.argv[3:]
mistakes = sys.argv[sys.argv.index("--mistakes") + 1].split(",") if "--mistakes" in sys.argv else ["none", "no-zero-grad"]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
loop = os.path.join(root, "examples", "distributed", "sharded_dcp.py")
counter = os.path.join(root, "tests", "data", "loops", "count_collectives.py")


def run(tmp, name, mistake, probe):
    out = os.path.join(tmp, name)
    os.makedirs(out)
    env = dict(os.environ, OMP_NUM_THREADS="1")
    for k in ("TRAINPROOF_PROBE", "TRAINPROOF_TRACE", "TRAINPROOF_INJECT_FAULT"):
        env.pop(k, None)
    if probe:
        py = os.path.join(root, "python")
        env.update(TRAINPROOF_PROBE="1", TRAINPROOF_TRACE=os.path.join(out, "trace"),
                   PYTHONPATH=os.pathsep.join([os.path.join(py, "trainproof_boot"), py, env.get("PYTHONPATH", "")]))
        if control:
            env["TRAINPROOF_INJECT_FAULT"] = "probe-computes-on-dtensors"
    cmd = [torchrun, "--standalone", "--nproc-per-node", "2", counter, out, loop, "--out", os.path.join(out, "ckpt"),
           "--mistake", mistake, "--dump-final", os.path.join(out, "final")]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        return None, f"{name}: exit {p.returncode}: {p.stdout[-1500:]}{p.stderr[-1500:]}"
    counts = [json.load(open(os.path.join(out, f"collectives.{r}.json"))) for r in (0, 1)]
    return (out, counts), ""


def shards_equal(a, b):
    import torch
    for r in (0, 1):
        x = torch.load(f"{a}/final.rank{r}.pt", weights_only=True)
        y = torch.load(f"{b}/final.rank{r}.pt", weights_only=True)
        if x.keys() != y.keys() or not all(torch.equal(x[k], y[k]) for k in x):
            return f"rank {r}: final shards differ"
    return ""


def probe_steps(out):
    steps = []
    for f in ("trace", "trace.rank1"):
        path = os.path.join(out, f)
        n = sum(1 for line in open(path, "rb") if line.startswith(b'{"') and b'"kind":"probe"' in line) \
            if os.path.exists(path) else 0
        steps.append(n)
    return steps


problems = []
with tempfile.TemporaryDirectory() as tmp:
    for mistake in mistakes:
        plain, err1 = run(tmp, f"{mistake}-plain", mistake, probe=False)
        probed, err2 = run(tmp, f"{mistake}-probed", mistake, probe=True)
        if err1 or err2:
            problems += [e for e in (err1, err2) if e]
            continue
        if plain[1] != probed[1]:
            problems.append(f"{mistake}: collectives per rank without the probe {plain[1]}, with it {probed[1]}")
        if not control:
            if diff := shards_equal(plain[0], probed[0]):
                problems.append(f"{mistake}: {diff} with the probe")
            if probe_steps(probed[0]) != [12, 12]:
                problems.append(f"{mistake}: the probe recorded {probe_steps(probed[0])} steps on ranks 0 and 1, not 12 each")
        print(f"{mistake}: collectives per rank {plain[1][0]} / {plain[1][1]} without the probe, "
              f"{probed[1][0]} / {probed[1][1]} with it")

if control:
    ok = any("collectives per rank" in p or "exit" in p for p in problems)
    print("control: the probe computing on whole DTensors " + ("is caught: " + "; ".join(problems) if ok else "went unseen"))
else:
    ok = not problems
    print("\n".join(problems) or "the probe issued no collective and changed no bit, on both ranks")
print("1 passed, 0 failed" if ok else "0 passed, 1 failed")
sys.exit(0 if ok else 1)
