"""The recorded evidence (tests/data/evidence/) covers what check judges: each case replayed with the
options its check kept (check.json: `check --replay DIR`, no command), every finding of the catalog
(`trainproof list --findings --json`) is named by some case, each law is held in one and broken in
another, and some cases draw no finding at all (the near misses). A finding no case names yet is
listed below with the reason; the test fails when one listed is named after all (drop it from the
list) or when one not listed is named by none (record a case: tools/remake_evidence.sh).
usage: evidence_coverage_test.py TRAINPROOF_BIN [EVIDENCE_DIR]"""
import json
import pathlib
import subprocess
import sys
import tempfile

bin_ = sys.argv[1]
root = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else pathlib.Path(__file__).parent / "data" / "evidence")

# Named by no recorded case yet, and why; each named live elsewhere (the test that says so). Every
# finding of the catalog is recorded today: a new finding goes here only with the live test that
# names it, until its evidence is made.
NOT_RECORDED = {}
# The catalog's judged laws (`trainproof list --laws --json`) that no recorded case holds, and the
# live quick test that does: each other judged law must be both held and broken in the evidence.
# The test fails when one listed here is held by the evidence after all, or one not listed is not.
NOT_IN_EVIDENCE = {"the schedule": "CheckTest.cpp.* (--expect-lr, live in every run)",
                   "the golden curve": "CheckTest.cpp.golden (--golden, live in every run)",
                   "the band": "BandTest (the band's arithmetic); CheckBandTest, nightly",
                   "the final loss": "BandTest (the Welch test it is judged by); CheckBandTest, nightly"}
# The cases recorded as bad input (exit 2, "error: check:"), and why: any other case that exits 2
# fails the test.
BAD_INPUT = {"loop-shapes/backward-only": "backward() with no optimizer and no update: no step to judge"}


def fail(why):
    print(f"FAIL: {why}\n0 passed, 1 failed")
    sys.exit(1)


catalog = [row["id"] for row in json.loads(subprocess.run([bin_, "list", "--findings", "--json"], check=True,
                                                          capture_output=True, text=True).stdout)]
LAWS = [row["id"] for row in json.loads(subprocess.run([bin_, "list", "--laws", "--json"], check=True,
                                                       capture_output=True, text=True).stdout) if row["judged"]]
named, laws, clean = {}, {}, []
cases = sorted(p.parent for p in root.rglob("check.json"))
if not cases:
    fail(f"no recorded case under {root} (tools/remake_evidence.sh makes them)")
with tempfile.TemporaryDirectory() as tmp:
    for case in cases:
        report = pathlib.Path(tmp) / "r.json"
        p = subprocess.run([bin_, "check", "--replay", str(case), "--json", str(report)], capture_output=True,
                           text=True)
        if p.returncode == 2 and str(case.relative_to(root)) in BAD_INPUT and "error: check:" in p.stderr:
            print(f"{case.relative_to(root)}: bad input, as recorded ({BAD_INPUT[str(case.relative_to(root))]}): "
                  f"{p.stderr.strip().splitlines()[-1][:100]}")
            continue
        if p.returncode not in (0, 1, 4) or not report.exists():
            fail(f"{case.relative_to(root)}: replay exit {p.returncode}\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
        r = json.loads(report.read_text())
        name = str(case.relative_to(root))
        for f in r["findings"]:
            named.setdefault(f["id"], []).append(name)
        for e in r["results"]:
            if e["kind"] == "invariant":
                laws.setdefault(e["name"].split(":")[0], set()).add(e["status"])
        if not r["findings"] and all(e["status"] == "pass" for e in r["results"] if e["kind"] == "invariant"):
            clean.append(name)

for fid in catalog:
    print(f"{fid:34} {', '.join(named.get(fid, [])) or '-- ' + NOT_RECORDED.get(fid, 'NOT RECORDED')}")
missing = [f for f in catalog if f not in named and f not in NOT_RECORDED]
if missing:
    fail(f"no recorded case names {missing}: record one (tools/remake_evidence.sh), or list it with the reason")
stale = [f for f in NOT_RECORDED if f in named]
if stale:
    fail(f"{stale} listed as not recorded, but {[named[f] for f in stale]} name them: drop them from the list")
unknown = [f for f in named if f not in catalog]
if unknown:
    fail(f"findings {unknown} are not in the catalog")
for law in LAWS:
    seen = laws.get(law, set())
    print(f"law {law:30} {sorted(seen) or '-- ' + NOT_IN_EVIDENCE.get(law, 'NOT IN THE EVIDENCE')}")
    if law in NOT_IN_EVIDENCE and seen:
        fail(f"the law '{law}' is listed as not in the evidence, but cases judge it ({sorted(seen)}): drop it from the list")
    if law not in NOT_IN_EVIDENCE and not {"pass", "BROKEN"} <= seen:
        fail(f"the law '{law}' is not both held and broken in the evidence: {sorted(seen)}")
unlisted = [law for law in NOT_IN_EVIDENCE if law not in LAWS]
if unlisted:
    fail(f"{unlisted} listed as laws not in the evidence, but the catalog judges no such law")
print(f"{len(clean)} case(s) draw no finding and hold every law: {', '.join(clean)}")
if len(clean) < 3:
    fail("fewer than three near misses in the evidence")
print(f"{len(cases)} cases replayed; {len(catalog) - len(NOT_RECORDED)} of {len(catalog)} findings named")
print("1 passed, 0 failed")
