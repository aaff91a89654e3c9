"""What evidence.sh is to a shell test, for a Python test that runs `trainproof check`: its check
live, or judged from recorded evidence (tests/data/evidence/; tools/remake_evidence.sh remakes it).
  EVIDENCE unset   the check runs live, keeping its runs in a temporary folder;
  EVIDENCE=DIR     it replays DIR/CASE (check --replay, the options and command the live check kept);
  REMAKE=1 too     it runs live and keeps the runs in DIR/CASE; passed() then makes them evidence."""
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def runs(case, tmp, fail):
    """(check's options that say where the runs are: --keep or --replay, the folder that holds them)."""
    keep = os.path.join(tmp, "runs")
    if not os.environ.get("EVIDENCE"):
        return ["--keep", keep], keep
    keep = os.path.join(os.environ["EVIDENCE"], case)
    if os.environ.get("REMAKE"):
        shutil.rmtree(keep, ignore_errors=True)
        return ["--keep", keep], keep
    if not os.path.exists(os.path.join(keep, "work.txt")):
        fail(f"no evidence in {keep} (tools/remake_evidence.sh makes it)")
    return ["--replay", keep], keep


def passed(keep, python):
    """The end of a test that passed: a remade case made evidence, and the closing line."""
    if os.environ.get("EVIDENCE") and os.environ.get("REMAKE"):
        subprocess.run([python, os.path.join(ROOT, "tools", "evidence.py"), "keep", keep], check=True)
    print("1 passed, 0 failed")
    sys.exit(0)
