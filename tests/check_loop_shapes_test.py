"""`trainproof check` on every loop shape (tests/data/loops/loop_shapes.py): the probe's record of
each step holds the values the script itself printed for it, one record an iteration.
usage: check_loop_shapes_test.py TRAINPROOF_BIN PYTHON SHAPE
  manual, closure, two-optimizers  determinism held, no finding; each step's recorded values (the
                      loss; D's as loss and G's as opt1.loss) equal the printed ones, as many steps
  random-seed         determinism BROKEN, unseeded-rng at the random.randint line (and the
                      manual_seed line said), no nondeterministic-op named
  fixed-seed          its near miss: both laws held, no finding
  sequential-warmup, chained, long-warmup   scheduler-per-epoch's near misses: no finding, and
                      each step recorded with the values the script printed
  per-epoch-cosine, per-epoch-lambda   its near misses stepped per epoch: a schedule sized in
                      epochs (cut short by the run), one that decays for ever; no finding
  cosine-per-epoch    the mistake: a schedule sized for the run's 24 steps stepped per epoch,
                      scheduler-per-epoch at the line that made it, nothing else
  backward-only       no step: exit 2, saying what the probe saw (backward calls, no optimizer)
  epoch-files         --kills 1 with --resume-args naming net_epoch_0.pth: the kill comes after the
                      run wrote it (the restart does not die on a missing file), the model-only
                      resume is named (resume-missing-optimizer-state), and the steps trained anew said
EVIDENCE=DIR: judge DIR/SHAPE, the runs a live check kept (tools/remake_evidence.sh), running nothing
(check --replay); with REMAKE=1 as well, run live and keep the runs there as evidence."""
import json
import os
import re
import subprocess
import sys
import tempfile

bin_, python, shape = sys.argv[1:4]
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "support"))
import evidence_check  # noqa: E402  (tests/support)
loop = os.path.join(here, "data", "loops", "loop_shapes.py")
lines = open(loop).read().splitlines()


def line_of(text):
    return next(i + 1 for i, line in enumerate(lines) if text in line)


def fail(why, out=""):
    print(f"FAIL: {why}\n{out}\n0 passed, 1 failed")
    sys.exit(1)


def passed():
    evidence_check.passed(keep, python)


def records(path):
    out = {}
    for raw in open(path, "rb").read().split(b"\n")[1:]:
        if raw:
            r = json.loads(raw.rpartition(b"\t")[0])
            if r["kind"] == "probe":
                out.setdefault(r["seq"], {}).update(r["values"])
    return out


with tempfile.TemporaryDirectory() as tmp:
    runs, keep = evidence_check.runs(shape, tmp, fail)
    env = dict(os.environ, PATH=os.path.dirname(python) + os.pathsep + os.environ["PATH"])
    resume = ["--kills", "1", "--seed", "1", "--resume-args", "--net {run_dir}/net_epoch_0.pth"] \
        if shape == "epoch-files" else []
    p = subprocess.run([bin_, "check"] + runs + ["--json", os.path.join(tmp, "r.json")] + resume +
                       ["--", python, loop, "--shape", shape, "--out", "{run_dir}"],
                       capture_output=True, text=True, env=env, timeout=300)
    out = p.stdout + p.stderr
    if shape == "epoch-files":
        ids = {f["id"] for f in json.load(open(os.path.join(tmp, "r.json")))["findings"]}
        if "failed" in out or "resume-missing-optimizer-state" not in ids:
            fail(f"the model-only resume is not diagnosed (findings {sorted(ids)})", out)
        m = re.search(r"restart 1 resumed at step (\d+) \(found by [^)]*\), and trained steps (\d+)-(\d+) anew", out)
        if not m or m.group(1) != "9":
            fail("the restart is not said to have resumed at step 9 (after epoch 0's file) and trained steps anew", out)
        print(f"epoch-files: resumed at step 9, steps {m.group(2)}-{m.group(3)} trained anew; {sorted(ids)}")
        passed()
    if shape == "backward-only":
        if p.returncode != 2 or not re.search(r"the probe saw the command import torch, call backward\(\) 8 time\(s\) "
                                              r"and make 0 optimizer\(s\), but no step", out):
            fail(f"exit {p.returncode}, not 2 saying what the probe saw", out)
        print("backward-only: exit 2, the probe's sight said")
        passed()
    if not os.path.exists(os.path.join(tmp, "r.json")):
        fail(f"exit {p.returncode} and no report", out)
    report = json.load(open(os.path.join(tmp, "r.json")))
    findings = [(f["id"], f["where"]) for f in report["findings"]]
    determinism = next(e for e in report["results"] if e["name"].startswith("determinism"))
    if shape == "random-seed":
        if determinism["status"] != "BROKEN":
            fail("two runs with seeds drawn anew were judged equal", out)
        want = ("unseeded-rng", f"loop_shapes.py:{line_of('random.randint(1, 10000)')}")
        if findings != [want]:
            fail(f"findings {findings}, want exactly {want}", out)
        if f"torch.manual_seed() (loop_shapes.py:{line_of('torch.manual_seed(seed)')})" not in out:
            fail("the manual_seed line is not said", out)
        print(f"random-seed: {want[0]} at {want[1]}")
        passed()
    if shape == "cosine-per-epoch":
        want = ("scheduler-per-epoch", f"loop_shapes.py:{line_of('T_max=3 * 8')}")
        if p.returncode != 1 or determinism["status"] != "pass" or findings != [want]:
            fail(f"exit {p.returncode}, determinism {determinism['status']}, findings {findings}, want [{want}]", out)
        print(f"cosine-per-epoch: {want[0]} at {want[1]}")
        passed()
    if p.returncode != 0 or determinism["status"] != "pass" or findings:
        fail(f"exit {p.returncode}, determinism {determinism['status']}, findings {findings}", out)
    if shape == "fixed-seed":
        print("fixed-seed: held, no finding")
        passed()
    printed = {}
    for line in open(os.path.join(keep, "uninterrupted-1.log")):
        m = re.match(r"step (\d+) (.*)", line)
        if m:
            words = m.group(2).split()
            printed[int(m.group(1))] = {words[i]: float(words[i + 1]) for i in range(0, len(words), 2)}
    recorded = records(os.path.join(keep, "uninterrupted-1.trace"))
    if sorted(recorded) != sorted(printed):
        fail(f"steps recorded {sorted(recorded)}, printed {sorted(printed)}", out)
    for step, values in printed.items():
        for name, value in values.items():
            got = recorded[step].get(name)
            if got is None or f"{got:.9g}" != f"{value:.9g}":
                fail(f"step {step}: {name} recorded {got}, the script printed {value}", out)
    print(f"{shape}: {len(printed)} steps, each recorded with the values the script printed")
    passed()
