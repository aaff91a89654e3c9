"""What the README and docs/ claim in numbers and names is what the code has.

usage: claims_test.py TRAINPROOF_BIN SOURCE_DIR [--docs DIR]

- docs/scenarios.md's negative-control table lists, per scenario, exactly the faults
  `trainproof list --json` declares (CUDA-only ones marked "(CUDA)");
- docs/testing.md's count of scheduler reference values and cases is
  tests/data/scheduler_reference.json's;
- docs/check.md's findings table lists exactly the finding ids the code names
  (src/runner/probe_findings.cpp), and the README's "names N mistakes" is that count less the
  resume-state ids that are not the documents' mistakes but their diagnosis.
- docs/scenarios.md's "N document lines in M scenarios", and its "K negative controls (D
  distinct mistakes" on the CPU, are what `list --json` declares.
- docs/scenarios.md's "N invariants are checked on the CPU (M scenarios)" is what `verify
  --device cpu --json` reports (one run of every scenario; --verify-json FILE reads an
  earlier run's report instead).
--docs DIR reads the pages from DIR instead (the negative control gives it drifted copies)."""
import json
import pathlib
import re
import subprocess
import sys
import tempfile

binary, src = sys.argv[1], pathlib.Path(sys.argv[2])
docs = pathlib.Path(sys.argv[sys.argv.index("--docs") + 1]) if "--docs" in sys.argv else src / "docs"
readme = docs.parent / "README.md" if "--docs" in sys.argv else src / "README.md"
failures = []

# 1. Negative controls per scenario.
listed = json.loads(subprocess.run([binary, "list", "--json"], capture_output=True, text=True, check=True).stdout)
declared = {s["name"]: {c["fault"] for c in s["controls"]} for s in listed}
table = {}
for line in (docs / "scenarios.md").read_text().splitlines():
    m = re.match(r"\| (\w+) \| (\d+) \| (.*) \|$", line)
    if m and m.group(1) in declared:
        table[m.group(1)] = set(re.findall(r"`([a-z0-9-]+)`", m.group(3)))
for name, faults in declared.items():
    if name not in table:
        failures.append(f"docs/scenarios.md: no row for scenario {name} in the negative-control table")
    elif table[name] != faults:
        failures.append(f"docs/scenarios.md: {name} lists {sorted(table[name])}, the code declares {sorted(faults)}")

# 2. Scheduler reference values.
ref = json.loads((src / "tests/data/scheduler_reference.json").read_text())
cases = next(v for v in ref.values() if isinstance(v, list))
values = sum(len(c["lrs"]) for c in cases)
m = re.search(r"bitwise against ([\d,]+) values in (\d+) cases", (docs / "testing.md").read_text())
if not m:
    failures.append("docs/testing.md: no 'bitwise against N values in M cases' claim")
elif (int(m.group(1).replace(",", "")), int(m.group(2))) != (values, len(cases)):
    failures.append(f"docs/testing.md: claims {m.group(1)} values in {m.group(2)} cases; the file holds {values:,} in "
                    f"{len(cases)}")

# 3. Finding ids.
code = (src / "src/runner/probe_findings.cpp").read_text()
code_ids = set(re.findall(r'(?:finding\(|add\(|\.id = )"([a-z-]+)"', code))
findings_section = (docs / "check.md").read_text().split("\n## Findings\n", 1)[-1].split("\n## ", 1)[0]
doc_ids = set(re.findall(r"^\| `([a-z-]+)`", findings_section, re.M))
if code_ids != doc_ids:
    failures.append(f"docs/check.md: the findings table lists {sorted(doc_ids - code_ids)} the code does not name, "
                    f"and misses {sorted(code_ids - doc_ids)}")
mistakes = len(code_ids - {"resume-state-equal-values-differ"})
m = re.search(r"It names (\d+) mistakes", readme.read_text())
if not m or int(m.group(1)) != mistakes:
    failures.append(f"README.md: says it names {m.group(1) if m else '?'} mistakes; the code names {mistakes}")

# 4. The documents' printed lines verify compares.
lines = sum(s["document_lines"] for s in listed)
printing = sum(1 for s in listed if s["document_lines"])
m = re.search(r"(\d+) document\s+lines in (\d+) scenarios", (docs / "scenarios.md").read_text())
if not m or (int(m.group(1)), int(m.group(2))) != (lines, printing):
    failures.append(f"docs/scenarios.md: claims {m.group(1) + ' document lines in ' + m.group(2) if m else 'no count of'}"
                    f" scenarios; the code declares {lines} in {printing}")

# 5. The CPU's negative controls, and the distinct mistakes they plant.
cpu_faults = [c["fault"] for s in listed for c in s["controls"] if c["device"] != "cuda"]
m = re.search(r"(\d+) negative controls \((\d+)\s+distinct mistakes", (docs / "scenarios.md").read_text())
if not m or (int(m.group(1)), int(m.group(2))) != (len(cpu_faults), len(set(cpu_faults))):
    failures.append(f"docs/scenarios.md: claims {m.group(1) + ' negative controls (' + m.group(2) if m else 'no count of'}"
                    f" distinct); the code declares {len(cpu_faults)} ({len(set(cpu_faults))} distinct)")

# 6. The invariants verify checks on the CPU.
if "--verify-json" in sys.argv:
    report = json.loads(pathlib.Path(sys.argv[sys.argv.index("--verify-json") + 1]).read_text())
else:
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([binary, "verify", "--device", "cpu", "--json", f"{d}/v.json"], capture_output=True)
        report = json.loads(pathlib.Path(d, "v.json").read_text())
cpu = [e for e in report["results"] if e["device"] == "cpu"]
invariants, scenarios = sum(1 for e in cpu if e["kind"] == "invariant"), len({e["scenario"] for e in cpu})
# A scenario this build cannot run (compile_speed without its AOTInductor package, in a build
# configured without Python) checks none of its invariants: the count cannot be held here.
skipped = [f"{e['scenario']} ({e['detail']})" for e in cpu if e["kind"] == "run" and e["status"] == "skipped"]
m = re.search(r"(\d+) invariants are checked on the CPU \((\d+) scenarios\)", (docs / "scenarios.md").read_text())
if not m:
    failures.append("docs/scenarios.md: claims no count of invariants checked on the CPU")
elif skipped:
    print("SKIP: the count of invariants is not held in this build; verify skipped", "; ".join(skipped))
elif (int(m.group(1)), int(m.group(2))) != (invariants, scenarios):
    failures.append(f"docs/scenarios.md: claims {m.group(1)} invariants in {m.group(2)}"
                    f" scenarios; verify checks {invariants} in {scenarios}")

for f in failures:
    print("FAIL:", f)
print(f"{int(not failures)} passed, {int(bool(failures))} failed" + (", 1 skipped" if skipped else ""))
sys.exit(1 if failures else 77 if skipped else 0)
