"""Every invariant of every scenario has a negative control. Each scenario declares the mistakes its
invariants exist to catch (`trainproof list --json`: a control's fault and the invariants it
breaks, each named by a part of its name); every invariant the README's main job checked on the
CPU (VerifyTest.TheReadmesMainJobPasses's report, whose clean runs it requires to pass) must be
named by one of them, and every scenario that ran must check at least one. An invariant without a
control is a check nobody has seen fail. That each control does break what it names is
NegativeControlTest's.
--control: the first scenario's first control is left out of the listing, and the invariants it
alone names must then be reported uncovered.
usage: invariant_coverage_test.py TRAINPROOF_BIN VERIFY_JSON [--control]"""
import json
import subprocess
import sys

bin_, verify_json = sys.argv[1], sys.argv[2]
control = "--control" in sys.argv[3:]

listing = json.loads(subprocess.run([bin_, "list", "--json"], check=True, capture_output=True, text=True).stdout)
if control:
    dropped = listing[0]["controls"].pop(0)
    print(f"control: {listing[0]['name']}'s control {dropped['fault']} left out")
with open(verify_json) as f:
    results = json.load(f)["results"]

invariants, skipped = {}, set()
for r in results:
    if r.get("status") == "skipped":
        skipped.add(r["scenario"])
    if r.get("kind") == "invariant":
        invariants.setdefault(r["scenario"], []).append(r["name"])

problems, checked = [], 0
for s in listing:
    name = s["name"]
    if name in skipped:
        continue  # it skipped itself on this machine
    names = invariants.get(name, [])
    if not names:
        problems.append(f"{name}: the verify report holds no invariant of it (it checks none)")
    parts = [p for c in s["controls"] for p in c["breaks"]]
    for inv in names:
        checked += 1
        if not any(p in inv for p in parts):
            problems.append(f"{name}: invariant '{inv}' has no negative control (TRAINPROOF_SCENARIO_INFO)")

for p in problems:
    print("FAIL:", p)
if problems:
    print(f"0 passed, {len(problems)} failed")
    sys.exit(1)
print(f"{checked} invariants of {len(listing) - len(skipped)} scenarios, each named by a control")
print("1 passed, 0 failed")
