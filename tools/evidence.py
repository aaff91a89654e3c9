"""Recorded evidence for the quick suite: what a live `trainproof check --keep DIR` kept (each run's
traces, logs and exit codes, the preempted run's kills), which `check --replay DIR` judges again
without running anything.

  evidence.py keep DIR      after a live check kept DIR: drop the runs' folders (checkpoints no
                            judging reads), put neutral paths for this checkout's and the home
                            folder's in every file (trace records re-checksummed), and note the
                            sources the runs came from (made-from.txt)
  evidence.py stale ROOT    list the cases under ROOT whose sources changed since they were made;
                            exit 1 if any is stale (remake them: tools/remake_evidence.sh)

A case's sources: the probe (python/trainproof), and the example or loop scripts its runs started
(the files of this checkout their traces' argv name)."""
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


def sources(case):
    """The files of this checkout the case's runs depend on, by their path in the checkout."""
    found = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "python" / "trainproof").rglob("*.py")
                   if p.name not in NOT_RUN)
    for trace in case.glob("*.trace*"):
        for word in trace.read_text(errors="replace").replace('"', " ").split():
            if word.startswith("/checkout/") and word.endswith(".py"):
                found.append(word[len("/checkout/"):])
    return sorted(set(found))


def fingerprint(case):
    h = hashlib.sha256()
    for rel in sources(case):
        p = ROOT / rel
        h.update(rel.encode() + b"\0" + (p.read_bytes() if p.exists() else b"(missing)") + b"\0")
    return h.hexdigest()[:16]


def keep(case):
    case = pathlib.Path(case)
    for p in case.iterdir():
        if p.is_dir():
            shutil.rmtree(p)  # a run's folder: its checkpoints; replay reads none of it
        elif p.name.endswith(".trace") or ".trace." in p.name:
            rewrite_trace(p)
        else:
            p.write_text(neutral(p.read_text(errors="replace")))
    (case / "made-from.txt").write_text(fingerprint(case) + "\n")


def stale(root):
    old = []
    for made in sorted(pathlib.Path(root).rglob("made-from.txt")):
        if made.read_text().strip() != fingerprint(made.parent):
            old.append(str(made.parent.relative_to(root)))
    for name in old:
        print(f"stale: {name} (its sources changed since it was made: tools/remake_evidence.sh)")
    print(f"evidence: {len(old)} stale case(s) under {root}")
    return 1 if old else 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("keep", "stale"):
        print(__doc__)
        sys.exit(2)
    sys.exit(keep(sys.argv[2]) or 0 if sys.argv[1] == "keep" else stale(sys.argv[2]))
