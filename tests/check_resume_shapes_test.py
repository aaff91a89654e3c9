"""`trainproof check --kills 1` on the loops of tests/data/loops/resume_shapes.py, whose truth
resume_shapes_truth_test.py shows without trainproof: every verdict is the one the run shows.
usage: check_resume_shapes_test.py TRAINPROOF_BIN PYTHON CASE
  accum-amp-first-ckpt   kill 1 lands in the write of the first checkpoint (seed 5): the restart
                         rightly begins again; check says so, kills once more after the first
                         whole checkpoint, and holds the law; no finding breaks
  no-scheduler-first-ckpt  its twin under the same kill: the law broken by the second kill, with
                         resume-missing-scheduler-state named (the first kill no longer hides it)
  accum-amp, ema, micro  the correct forms killed past their first checkpoint (seed 1): held, no
                         finding that breaks (micro: the step saved as "micro" draws none)
  ema-not-saved          the EMA left out of the checkpoint: the law broken at the final file
                         ema.pt, resume-carried-state-differs at the checkpoint's torch.save line
  micro-not-restored     the counter saved but not restored: the law broken
  workers                DataLoader workers and a random augmentation seeded by the epoch and the
                         sample, resumed by skipping to the saved position: held
  reseeded-workers       the augmentation from the workers' RNG, seeded anew by the restart: the same
                         samples with other values, resume-sample-values-differ (not a lost position)
  lost-position          the restart begins its epoch at the first batch: other samples,
                         resume-missing-data-position
  actor-critic, streamed an environment with a numpy generator of its own, and an IterableDataset
                         through a shuffle buffer, each saved with the checkpoint: held
  env-not-saved          the environment left out of the checkpoint: resume-missing-data-position,
                         whose fix names the environment and its generator (no sampler's indices seen)
  buffer-lost            the shuffle buffer not restored: resume-missing-data-position, whose fix
                         names the stream's shuffle buffer (no order seen, so not "the same samples")
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
loop = os.path.join(here, "data", "loops", "resume_shapes.py")
lines = open(loop).read().splitlines()
# case: (shape, mistake, seed)
CASES = {"accum-amp-first-ckpt": ("accum-amp", "none", 5), "no-scheduler-first-ckpt": ("accum-amp", "no-scheduler", 5),
         "accum-amp": ("accum-amp", "none", 1), "ema": ("ema", "none", 1), "micro": ("micro", "none", 1),
         "ema-not-saved": ("ema", "ema-not-saved", 1), "micro-not-restored": ("micro", "micro-not-restored", 1),
         "workers": ("workers", "none", 1), "reseeded-workers": ("workers", "reseeded-workers", 1),
         "lost-position": ("workers", "lost-position", 1), "actor-critic": ("actor-critic", "none", 1),
         "env-not-saved": ("actor-critic", "env-not-saved", 1), "streamed": ("streamed", "none", 1),
         "buffer-lost": ("streamed", "buffer-lost", 1)}
shape, mistake, seed = CASES[case]


def line_of(text):
    return next(i + 1 for i, line in enumerate(lines) if text in line)


def fail(why, out=""):
    print(f"FAIL: {case}: {why}\n{out}\n0 passed, 1 failed")
    sys.exit(1)


with tempfile.TemporaryDirectory() as tmp:
    runs, keep = evidence_check.runs(case, tmp, fail)
    p = subprocess.run([bin_, "check"] + runs + ["--json", os.path.join(tmp, "r.json"), "--kills", "1", "--seed",
                                                 str(seed), "--resume-args", "--resume", "--", python, loop, "--shape",
                                                 shape, "--mistake", mistake, "--out", "{run_dir}"],
                       capture_output=True, text=True, timeout=300)
    out = p.stdout + p.stderr
    if not os.path.exists(os.path.join(tmp, "r.json")):
        fail(f"exit {p.returncode} and no report", out)
    report = json.load(open(os.path.join(tmp, "r.json")))
    laws = {e["name"].split(":")[0]: e for e in report["results"] if e["kind"] == "invariant"}
    resume = laws["exact resume"]
    breaking = sorted((f["id"], f["where"]) for f in report["findings"] if not f["advice"])
    said = f"exit {p.returncode}, exact resume {resume['status']}, findings that break {breaking}"
    if mistake == "none":
        if p.returncode != 0 or resume["status"] != "pass" or breaking:
            fail(f"{said}: a correct loop, bitwise exact under kills (resume_shapes_truth_test.py)", out)
        if case == "accum-amp-first-ckpt" and "kill 1 came before any checkpoint was whole" not in out:
            fail("kill 1 in the first checkpoint's write is not said, nor the kill after it", out)
        if case == "micro" and any(f["id"] == "checkpoint-missing-state" for f in report["findings"]):
            fail("the step saved under 'micro', restored by the restart, is named missing", out)
    else:
        if p.returncode != 1 or resume["status"] != "BROKEN":
            fail(f"{said}: the twin's resume is not exact (resume_shapes_truth_test.py)", out)
        want = {"no-scheduler-first-ckpt": ("resume-missing-scheduler-state", None),
                "ema-not-saved": ("resume-carried-state-differs",
                                  f"resume_shapes.py:{line_of('torch.save(state, ckpt')}"),
                "micro-not-restored": (None, None),
                "reseeded-workers": ("resume-sample-values-differ", None),
                "lost-position": ("resume-missing-data-position", None),
                "env-not-saved": ("resume-missing-data-position", None),
                "buffer-lost": ("resume-missing-data-position", None)}[case]
        if want[0] and not any(f == want[0] and (want[1] is None or w == want[1]) for f, w in breaking):
            fail(f"{said}: want {want[0]} at {want[1] or 'its line'}", out)
        wrong = {"reseeded-workers": "resume-missing-data-position", "lost-position": "resume-sample-values-differ",
                 "buffer-lost": "resume-sample-values-differ"}
        if case in wrong and any(f == wrong[case] for f, _ in breaking):
            fail(f"{said}: {wrong[case]} is the wrong diagnosis here, and its fix the wrong fix", out)
        fix = {"env-not-saved": "an environment's state and its own generator", "buffer-lost": "a shuffle buffer"}
        details = " ".join(f["detail"] for f in report["findings"] if f["id"] == want[0])
        if case in fix and fix[case] not in details:
            fail(f"{said}: the fix does not name {fix[case]!r}: {details}", out)
    print(f"{case}: {said}")
    evidence_check.passed(keep, python)
