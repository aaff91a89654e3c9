"""Recorded evidence for the quick suite: what a live `trainproof check --keep DIR` kept (each run's
traces, logs and exit codes, the preempted run's kills), which `check --replay DIR` judges again
without running anything.

  evidence.py keep DIR      after a live check kept DIR: drop the runs' folders (checkpoints no
                            judging reads), put neutral paths for this checkout's and the home
                            folder's in every file (trace records re-checksummed), and note the
                            sources the runs came from (made-from.txt)
  evidence.py stale ROOT [CHECKOUT]
                            list the cases under ROOT whose sources (in CHECKOUT; default: this
                            checkout) changed since they were made, or that carry no stamp;
                            exit 1 if any (remake them: tools/remake_evidence.sh)

A case's sources, everything that makes it: the probe (python/trainproof) and the boot hook that
loads it (python/trainproof_boot); the C++ that launches, kills and reruns the runs and parses
check's options (MAKERS); the test script that ran the case, with the options it gives check
(TESTS); the example or loop scripts its runs started (the files of this checkout their traces'
argv name); and the version of torch the runs imported. `keep` stamps a case only once, after the
live check that made it: a case already stamped is refused (remake it instead)."""
import functools
import hashlib
import os
import pathlib
import shutil
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
from trainproof import fnv1a64  # noqa: E402  (the trace's own checksum)

NEUTRAL = (("checkout", str(ROOT), "/checkout"), ("home", os.path.expanduser("~"), "/home/user"))


def neutral(text):
    for _, path, stand_in in NEUTRAL:
        if path and path != "/":
            text = text.replace(path, stand_in)
    return text


def rewrite_trace(path):
    lines = path.read_bytes().split(b"\n")
    out = []
    for line in lines:
        payload, tab, digest = line.rpartition(b"\t")
        if tab and digest == f"{fnv1a64(payload):016x}".encode():
            payload = neutral(payload.decode()).encode()
            line = payload + b"\t" + f"{fnv1a64(payload):016x}".encode()
        else:
            line = neutral(line.decode(errors="surrogateescape")).encode(errors="surrogateescape")
        out.append(line)
    path.write_bytes(b"\n".join(out))


# Files of python/trainproof that no run of a check imports: `trainproof mutate` runs mutate.py
# on a script before any check of it, and a check's runs never load it.
NOT_RUN = {"mutate.py"}
# The C++ that decides what a case's runs are: which processes start, with which arguments and
# environment, where the kills land, which runs are rerun, and the options check parses.
MAKERS = ("src/process/process.cpp", "src/process/process.h", "src/check/processes.cpp", "src/check/processes.h",
          "src/check/check_runs.cpp", "src/check/check_runs.h", "src/check/check_resume.cpp", "src/check/reshard.cpp",
          "src/check/op_reruns.cpp", "src/check/op_reruns.h", "src/check/laws/determinism.cpp", "src/cli/check.cpp")
# The test script that makes each group of cases (the folder above the case), and what it sources.
TESTS = {"distributed": "tests/check_distributed_test.sh", "findings": "tests/check_findings_test.sh",
         "first-op": "tests/check_first_op_test.sh", "frameworks": "tests/check_frameworks_test.sh",
         "loop-shapes": "tests/check_loop_shapes_test.py", "near-miss": "tests/check_near_miss_test.sh",
         "probe": "tests/check_probe_test.sh", "resume-shapes": "tests/check_resume_shapes_test.py",
         "silent-bugs": "tests/check_silent_bugs_test.py",
         "values-law": "tests/check_values_law_test.sh"}
SUPPORT = ("tests/support/evidence.sh", "tests/support/evidence_check.py")


@functools.lru_cache(maxsize=None)
def torch_version():
    """The version of torch this Python imports, read without importing it (once: every case asks)."""
    from importlib import metadata
    try:
        return metadata.version("torch")
    except metadata.PackageNotFoundError:
        return "(no torch)"


def sources(case, root=ROOT):
    """The files of the checkout at `root` that make the case, by their path in the checkout."""
    probe = [p for d in ("trainproof", "trainproof_boot") for p in (root / "python" / d).rglob("*.py")]
    found = sorted(str(p.relative_to(root)) for p in probe if p.name not in NOT_RUN)
    found += list(MAKERS) + list(SUPPORT)
    group = pathlib.Path(case).resolve().parent.name
    if group not in TESTS:
        raise SystemExit(f"evidence: {case}: its folder '{group}' names no test that makes it "
                         f"(tools/evidence.py TESTS: {', '.join(sorted(TESTS))})")
    found.append(TESTS[group])
    for trace in case.glob("*.trace*"):
        for word in trace.read_text(errors="replace").replace('"', " ").split():
            if word.startswith("/checkout/") and word.endswith(".py"):
                found.append(word[len("/checkout/"):])
    return sorted(set(found))


def fingerprint(case, root=ROOT, torch=None):
    """A case's stamp: its sources' digest, and the torch its runs imported (`torch`: this Python's)."""
    h = hashlib.sha256()
    for rel in sources(case, root):
        p = root / rel
        h.update(rel.encode() + b"\0" + (p.read_bytes() if p.exists() else b"(missing)") + b"\0")
    torch = torch or torch_version()
    h.update(b"torch " + torch.encode())
    return f"{h.hexdigest()[:16]} torch {torch}"


def keep(case):
    case = pathlib.Path(case)
    if (case / "made-from.txt").exists():
        print(f"evidence: {case} is already stamped: keep makes evidence once, of a live check's runs "
              f"(remake the case: tools/remake_evidence.sh)", file=sys.stderr)
        return 1
    if not (case / "check.json").exists():
        print(f"evidence: {case} holds no check.json: not the runs a live `check --keep` kept", file=sys.stderr)
        return 1
    for p in case.iterdir():
        if p.is_dir():
            shutil.rmtree(p)  # a run's folder: its checkpoints; replay reads none of it
        elif p.name.endswith(".trace") or ".trace." in p.name:
            rewrite_trace(p)
        else:
            p.write_text(neutral(p.read_text(errors="replace")))
    (case / "made-from.txt").write_text(fingerprint(case) + "\n")
    return 0


def stale(root, checkout=ROOT):
    """Every case under `root` (a folder with a check.json) checked against the sources of `checkout`."""
    old = []
    for made in sorted(p.parent for p in pathlib.Path(root).rglob("check.json")):
        name = str(made.relative_to(root))
        stamp = made / "made-from.txt"
        if not stamp.exists():
            old.append(f"{name} (no made-from.txt: a case not made by tools/remake_evidence.sh)")
            continue
        was, now = stamp.read_text().strip(), fingerprint(made, checkout)
        if was != now:
            # The stamp is "<digest> torch <version>"; the digest covers the version too.
            why = "the torch its runs imported is not this one" if was.split(" torch ")[-1] != now.split(" torch ")[-1] \
                else "its sources changed since it was made"
            old.append(f"{name} ({why}: made from {was}, now {now})")
    for line in old:
        print(f"stale: {line}: tools/remake_evidence.sh")
    print(f"evidence: {len(old)} stale case(s) under {root}")
    return 1 if old else 0


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4) or sys.argv[1] not in ("keep", "stale") or (
            len(sys.argv) == 4 and sys.argv[1] != "stale"):
        print(__doc__)
        sys.exit(2)
    if sys.argv[1] == "keep":
        sys.exit(keep(sys.argv[2]))
    sys.exit(stale(sys.argv[2], pathlib.Path(sys.argv[3]).resolve() if len(sys.argv) == 4 else ROOT))
