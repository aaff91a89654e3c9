"""`trainproof check --runs 1` on the loops of tests/data/loops/silent_bugs.py, whose truth
silent_bugs_truth_test.py shows without trainproof: each silent bug named at its line, with the
parameters or the op it concerns, and the correct loop (a frozen backbone in no optimizer, Monte
Carlo dropout by a Dropout module set to train, a BatchNorm without running statistics) draws none.
usage: check_silent_bugs_test.py TRAINPROOF_BIN PYTHON CASE
  none                   exit 0, none of the findings below
  optimizer-over-frozen  optimizer-step-changes-nothing at the optimizer's line (and
                         trained-param-in-no-optimizer there, naming the head and the temperature)
  frozen-after-built     optimizer-param-without-grad at the optimizer's line, naming block.proj.weight
  temperature-left-out   trained-param-in-no-optimizer at the optimizer's line, naming temperature
  functional-dropout     train-op-in-eval-mode at the F.dropout line, naming dropout and Block
  custom-batch-norm      train-op-in-eval-mode at the F.batch_norm line, naming batch_norm and Block
EVIDENCE=DIR: judge DIR/CASE, the runs a live check kept (tools/remake_evidence.sh), running nothing
(check --replay); with REMAKE=1 as well, run live and keep the runs there as evidence."""
import json
import os
import subprocess
import sys
import tempfile

bin_, python, case = sys.argv[1:4]
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "support"))
import evidence_check  # noqa: E402  (tests/support)
loop = os.path.join(here, "data", "loops", "silent_bugs.py")
lines = open(loop).read().splitlines()
NEW = {"optimizer-step-changes-nothing", "optimizer-param-without-grad", "trained-param-in-no-optimizer",
       "train-op-in-eval-mode"}


def line_of(text):
    return f"silent_bugs.py:{next(i + 1 for i, line in enumerate(lines) if text in line)}"


# case: {finding: (its line, words its detail names)}; other findings of NEW it may draw as well
WANT = {"none": {},
        "optimizer-over-frozen": {"optimizer-step-changes-nothing": (line_of("AdamW(model.backbone"), ["backbone.0.weight"]),
                                  "trained-param-in-no-optimizer": (line_of("AdamW(model.backbone"), ["out.weight", "and 1 more"])},
        "frozen-after-built": {"optimizer-param-without-grad": (line_of("AdamW(head + [model.temperature]"),
                                                                ["block.proj.weight", "block.proj.bias"])},
        "temperature-left-out": {"trained-param-in-no-optimizer": (line_of("AdamW(head, lr"), ["temperature"])},
        "functional-dropout": {"train-op-in-eval-mode": (line_of("h = F.dropout(h, 0.1)"), ["dropout", "Block"])},
        "custom-batch-norm": {"train-op-in-eval-mode": (line_of("return F.batch_norm"), ["batch_norm", "Block"])}}


def fail(why, out=""):
    print(f"FAIL: {case}: {why}\n{out}\n0 passed, 1 failed")
    sys.exit(1)


with tempfile.TemporaryDirectory() as tmp:
    runs, keep = evidence_check.runs(case, tmp, fail)
    p = subprocess.run([bin_, "check"] + runs + ["--json", os.path.join(tmp, "r.json"), "--runs", "1", "--", python,
                                                 loop, "--mistake", case, "--out", "{run_dir}"],
                       capture_output=True, text=True, timeout=300)
    out = p.stdout + p.stderr
    if not os.path.exists(os.path.join(tmp, "r.json")):
        fail(f"exit {p.returncode} and no report", out)
    report = json.load(open(os.path.join(tmp, "r.json")))
    named = {f["id"]: f for f in report["findings"]}
    breaking = sorted(f["id"] for f in report["findings"] if not f["advice"])
    said = f"exit {p.returncode}, findings that break {breaking}"
    want = WANT[case]
    if p.returncode != (1 if want else 0) or set(breaking) != set(want):
        fail(f"{said}: want exactly {sorted(want) or 'none'} (silent_bugs_truth_test.py shows each)", out)
    for fid, (where, words) in want.items():
        f = named[fid]
        if f["where"] != where:
            fail(f"{fid} named at {f['where']}, not at {where}", out)
        missing = [w for w in words if w not in f["detail"]]
        if missing:
            fail(f"{fid}'s detail does not name {missing}: {f['detail']}", out)
    print(f"{case}: {said}")
    evidence_check.passed(keep, python)
