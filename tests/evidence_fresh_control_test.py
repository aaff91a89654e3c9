"""The control of EvidenceFreshTest: a recorded case goes stale when anything that makes it changes,
and a case without a stamp fails. One case (resume-shapes/micro) and the files that make it are
copied into a temporary checkout; a byte added to each kind of source in turn (the probe, the boot
hook, the C++ that launches and kills, the test script, the loop script) must make `evidence.py
stale` exit 1 naming the case, as must another torch, a missing stamp, and `keep` on a case that is
already stamped.
usage: evidence_fresh_control_test.py"""
import importlib.util
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("evidence", ROOT / "tools" / "evidence.py")
evidence = importlib.util.module_from_spec(spec)
spec.loader.exec_module(evidence)
CASE = "resume-shapes/micro"
failures = []


def stale(ev, checkout):
    p = subprocess.run([sys.executable, str(ROOT / "tools" / "evidence.py"), "stale", str(ev), str(checkout)],
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


with tempfile.TemporaryDirectory() as tmp:
    tmp = pathlib.Path(tmp)
    ev, checkout = tmp / "evidence", tmp / "checkout"
    shutil.copytree(ROOT / "tests" / "data" / "evidence" / CASE, ev / CASE)
    made_by = evidence.sources(ev / CASE)
    for rel in made_by:
        (checkout / rel).parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / rel).exists():
            shutil.copy(ROOT / rel, checkout / rel)
    # Stamped as a remake would stamp it, from the copied sources: the control holds whether or not
    # the committed evidence is fresh (EvidenceFreshTest says that).
    (ev / CASE / "made-from.txt").write_text(evidence.fingerprint(ev / CASE, checkout) + "\n")
    rc, out = stale(ev, checkout)
    if rc != 0:
        failures.append(f"the case stamped from its sources, unchanged, is called stale:\n{out}")
    kinds = {"probe": "python/trainproof/probe/core.py", "boot hook": "python/trainproof_boot/sitecustomize.py",
             "launcher": "src/check/check_resume.cpp", "process": "src/process/process.cpp",
             "options": "src/cli/check.cpp", "test script": "tests/check_resume_shapes_test.py",
             "loop script": "tests/data/loops/resume_shapes.py"}
    for kind, rel in kinds.items():
        if rel not in made_by:
            failures.append(f"{kind} ({rel}) is not among the sources of {CASE}")
            continue
        original = (checkout / rel).read_bytes()
        (checkout / rel).write_bytes(original + b"\n")
        rc, out = stale(ev, checkout)
        if rc != 1 or CASE not in out:
            failures.append(f"a byte added to the {kind} ({rel}) leaves {CASE} fresh (exit {rc}):\n{out}")
        (checkout / rel).write_bytes(original)
    stamp = (ev / CASE / "made-from.txt").read_text().strip()
    if evidence.fingerprint(ev / CASE, checkout, torch="0.0.0-another") == stamp:
        failures.append("another torch leaves the stamp unchanged")
    if evidence.keep(ev / CASE) != 1:
        failures.append("keep re-stamped a case already stamped, without a run")
    (ev / CASE / "made-from.txt").unlink()
    rc, out = stale(ev, checkout)
    if rc != 1 or "no made-from.txt" not in out:
        failures.append(f"a case without a stamp is not called stale (exit {rc}):\n{out}")

for f in failures:
    print(f"FAIL: {f}")
print(f"{len(kinds) + 4 - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
