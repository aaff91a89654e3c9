"""What the README and docs/ claim in numbers and names is what the code has.

usage: claims_test.py TRAINPROOF_BIN SOURCE_DIR [--docs DIR] [--verify-json FILE] [--cache DIR]

- docs/scenarios.md's negative-control table lists, per scenario, exactly the faults
  `trainproof list --json` declares (CUDA-only ones marked "(CUDA)");
- docs/testing.md's count of scheduler reference values and cases is
  tests/data/scheduler_reference.json's;
- docs/check.md's findings table lists exactly the finding ids the code names
  (src/check/*.cpp), and the README's "names N mistakes" is that count less the
  resume-state ids that are not the documents' mistakes but their diagnosis.
- docs/scenarios.md's "N document lines in M scenarios", and its "K negative controls (D
  distinct mistakes" on the CPU, are what `list --json` declares.
- docs/scenarios.md's "N invariants are checked on the CPU (M scenarios)" is what `verify
  --device cpu --json` reports (one run of every scenario; --verify-json FILE reads an
  earlier run's report instead).
- the README's `verify` sample: its rows, checks, document lines and "all N scenarios" are that
  run's counts, and each fingerprint line it shows (`cpu_model: golden "X" | here "Y"  (WHO)`,
  and cpu_capability's) names exactly the goldens whose fingerprint (golden/*.h5, read with
  h5dump) says X, every golden of another value than Y is named by one, and a field the goldens
  differ in has a line: the goldens' CPUs are what the sample and the sentence above it say.
- every line number a page quotes from examples/python_plain/train.py (`train.py:N`) or
  examples/frameworks/hf_trainer.py is the line of the statement the sample says: `aten::OP at
  train.py:N` a torch.OP( call, `[finding-id] ... (train.py:N)` the statement that finding is
  named at (NAMED_AT below), `hf_trainer.py:N via` the trainer.train( call; docs/check.md's
  mutate sample is row by row the mutants `python -m trainproof.mutate list` finds in the
  script (mutation and site), and its last line counts them. A quote no rule reads fails, except
  in a paragraph about nanoGPT (its own train.py), and docs/nanogpt.md is not read (nanoGPT at
  the commit it names; each of its quotes gives the line's text).
- docs/setup.md's list of Debian packages is the list tools/bootstrap.sh installs (`debs=`).
- docs/cli.md has a usage line for every subcommand `trainproof --help` lists (and each of
  theirs), naming every long option that subcommand's --help lists and none it does not.
--docs DIR reads the pages from DIR instead (the negative control gives it drifted copies);
--cache DIR keeps the binary's and mutate.py's answers there, for the negative control's runs."""
import concurrent.futures
import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

binary, src = sys.argv[1], pathlib.Path(sys.argv[2])
docs = pathlib.Path(sys.argv[sys.argv.index("--docs") + 1]) if "--docs" in sys.argv else src / "docs"
readme = docs.parent / "README.md" if "--docs" in sys.argv else src / "README.md"
failures = []
skips = []  # checks this machine cannot make, each with why
cache = pathlib.Path(sys.argv[sys.argv.index("--cache") + 1]) if "--cache" in sys.argv else None


def output_of(args, env=None):
    """The stdout of a command that must succeed; with --cache, kept there for the next run."""
    kept = cache / hashlib.sha256("\0".join(map(str, args)).encode()).hexdigest() if cache else None
    if kept and kept.exists():
        return kept.read_text()
    out = subprocess.run(args, capture_output=True, text=True, check=True, env=env).stdout
    if kept:
        cache.mkdir(parents=True, exist_ok=True)
        kept.write_text(out)
    return out


# 1. Negative controls per scenario.
listed = json.loads(output_of([binary, "list", "--json"]))
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

# 3. Finding ids: the catalog (trainproof/check/findings.h), as `list --findings --json` exports it,
# against docs/check.md's findings table (its ids in its order, advice marked) and mutate.py's
# mutations (each mutation the catalog says plants a finding is one of mutate.py's).
catalog = json.loads(output_of([binary, "list", "--findings", "--json"]))
code_ids = {k["id"] for k in catalog}
findings_section = (docs / "check.md").read_text().split("\n## Findings\n", 1)[-1].split("\n## ", 1)[0]
doc_rows = re.findall(r"^\| `([a-z-]+)`( \(advice\))? \|", findings_section, re.M)
doc_ids = {i for i, _ in doc_rows}
if [i for i, _ in doc_rows] != [k["id"] for k in catalog]:
    failures.append(f"docs/check.md: the findings table lists {[i for i, _ in doc_rows]}, the catalog "
                    f"{[k['id'] for k in catalog]} (in its order)")
for i, advice in doc_rows:
    kind = next((k for k in catalog if k["id"] == i), None)
    if kind and kind["advice"] != bool(advice):
        failures.append(f"docs/check.md: {i} is {'' if advice else 'not '}marked advice; the catalog says "
                        f"{'advice' if kind['advice'] else 'a finding'}")
mutate_py = (readme.parent / "python/trainproof/mutate.py").read_text()
mutation_ids = set(re.findall(r'^    id = "([a-z-]+)"', mutate_py, re.M))
planted_by = {m for k in catalog for m in k["planted_by"]}
if not mutation_ids:
    failures.append("python/trainproof/mutate.py: no mutation's id found (its form changed?)")
if planted_by - mutation_ids:
    failures.append(f"the findings catalog says {sorted(planted_by - mutation_ids)} plant findings; "
                    f"python/trainproof/mutate.py has no such mutation")
# A mutation's own id may be its finding's ("scheduler-per-epoch"); any other spelling is a copy.
if re.search(r'"(' + "|".join(map(re.escape, code_ids)) + r')"', re.sub(r'(?m)^    id = .*$', "", mutate_py)):
    failures.append("python/trainproof/mutate.py spells a finding id: the catalog's planted_by says what catches a "
                    "mutation")
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

# 7. The README's verify sample: that run's counts, and the CPUs the goldens were made on.
text = readme.read_text()
if skipped:
    skips.append("the README's verify sample: this build's verify skipped a scenario, so its counts differ")
else:
    m = re.search(r"verify --device cpu`, (\d+) rows", text)
    if not m or int(m.group(1)) != len(cpu):
        failures.append(f"README.md: the verify sample says {m.group(1) if m else 'no number of'} rows; verify makes "
                        f"{len(cpu)} checks")
    m = re.search(r"verify: (\d+) checks, (\d+) not passing \((\d+) passed, (\d+) failed, (\d+) skipped\)", text)
    if not m or int(m.group(1)) != len(cpu) or int(m.group(1)) != sum(map(int, m.group(3, 4, 5))):
        failures.append(f"README.md: the verify sample ends '{m.group(0) if m else 'with no verify: N checks line'}'; "
                        f"verify makes {len(cpu)} checks")
    m = re.search(r"document lines: (\d+)/(\d+) printed", text)
    total = report.get("document_lines", {}).get("total", 0)
    if not m or int(m.group(2)) != total or int(m.group(1)) > total:
        failures.append(f"README.md: the verify sample's document lines read {m.group(0) if m else 'nothing'}; "
                        f"verify compares {total}")
    for n in re.findall(r"\(all (\d+) scenarios", text):
        if int(n) != scenarios:
            failures.append(f"README.md: the verify sample says 'all {n} scenarios'; verify runs {scenarios} on the CPU")
fingerprints = {}  # scenario -> the fingerprint of its CPU golden, as h5dump prints it
if shutil.which("h5dump"):
    goldens = sorted((src / "golden").glob("*.h5"))
    dump = subprocess.run(["h5dump", "-w", "0", "-a", "/cpu/fingerprint", *map(str, goldens)], capture_output=True,
                          text=True).stdout
    for name, body in re.findall(r'^HDF5 "[^"]*?([^/"]+)\.h5" \{\n(.*?)(?=^HDF5 "|\Z)', dump, re.M | re.S):
        fingerprints[name] = body
    if len(fingerprints) != len(goldens):
        failures.append(f"golden/: h5dump read the fingerprint of {len(fingerprints)} of {len(goldens)} goldens")
    shown = re.findall(r'^ +(cpu_model|cpu_capability): golden "([^"]*)" \| here "([^"]*)"  \((.*)\)$', text, re.M)
    for field in ("cpu_capability", "cpu_model"):
        value = {s: (re.search(rf'"{field}":"([^"]*)"', fp) or [None, None])[1] for s, fp in fingerprints.items()}
        lines = [s[1:] for s in shown if s[0] == field]
        if not lines:
            if len(set(value.values())) > 1:  # then a verify anywhere shows that field differing
                failures.append(f"README.md: the verify sample shows no {field} line; the goldens were made on "
                                f"{sorted(map(str, set(value.values())))}")
            continue
        for golden, here, who in lines:
            made = {s for s, v in value.items() if v == golden}
            m = re.match(r"all (\d+) scenarios(?: but (.*))?$", who)
            if m:
                named = set(value) - {w.split("/")[0] for w in (m.group(2) or "").split(", ") if w}
            else:
                named = {w.split("/")[0] for w in who.split(", ")}
            if named != made:
                failures.append(f"README.md: the verify sample's {field} line for golden \"{golden}\" " + " and ".join(
                    ([f"names {sorted(named - made)}, not made there"] if named - made else []) +
                    ([f"leaves out {sorted(made - named)}, made there"] if made - named else [])))
        # Every golden made elsewhere than the sample's machine ("here") is on one of its lines.
        unnamed = {s for s, v in value.items() if v not in {golden for golden, _, _ in lines} and v != lines[0][1]}
        if unnamed:
            failures.append(f"README.md: the verify sample's {field} lines leave out the goldens {sorted(unnamed)}, "
                            f"made on {sorted({str(value[s]) for s in unnamed})}")
else:
    skips.append("the README's verify sample's fingerprint lines: no h5dump here to read the goldens' fingerprints")

# 8. The lines the docs' samples quote from the examples: each the statement the sample says.
SCRIPTS = {"train.py": src / "examples/python_plain/train.py", "hf_trainer.py": src / "examples/frameworks/hf_trainer.py"}
script_lines = {k: p.read_text().splitlines() for k, p in SCRIPTS.items()}
# A finding is named at this statement of examples/python_plain/train.py (the probe's frame).
NAMED_AT = {"zero-grad-missing": [".backward("], "eval-mode-forgotten": ["model(X_val)"],
            "validation-with-grad": ["model(X_val)"], "train-mode-forgotten": ["model(inputs)"],
            "clip-before-unscale": ["clip_grad_norm_("], "softmax-before-cross-entropy": ["cross_entropy("],
            "weight-decay-on-bias-or-norm": ["AdamW("], "unsafe-torch-load": ["torch.load("],
            "non-atomic-checkpoint": ["torch.save("], "checkpoint-missing-state": ["torch.save("],
            "scheduler-before-optimizer": ["scaler.step(opt)"],  # the optimizer step that found it stepped
            "scheduler-per-epoch": ["lr_scheduler.LambdaLR("],  # the scheduler, where it was made
            "unseeded-rng": ["torch.manual_seed(", "nn.Linear("],  # the late seed, or the first draw
            # the silent bugs' of an optimizer: where it was built
            "optimizer-step-changes-nothing": ["optim.AdamW("], "trained-param-in-no-optimizer": ["optim.AdamW("],
            "optimizer-param-without-grad": ["optim.AdamW("]}
RESUMED_AT = ["scaler.step(opt)"]  # resume-*: the optimizer step of the first step after a restart
mutants = [json.loads(line) for line in output_of(
    [sys.executable, "-m", "trainproof.mutate", "list", str(SCRIPTS["train.py"])],
    env={**os.environ, "PYTHONPATH": str(src / "python")}).splitlines()]
for page in [readme, *sorted(docs.glob("*.md"))]:
    if page.name == "nanogpt.md":
        continue
    text, name = page.read_text(), "README.md" if page == readme else f"docs/{page.name}"
    read = set()  # where the quotes a rule reads start

    def holds(m, group, want, what, script="train.py"):
        read.add(m.start(group))
        n, lines = int(m.group(group)), script_lines[script]
        line = lines[n - 1] if 0 < n <= len(lines) else ""
        if not any(w in line for w in want):
            at = [i + 1 for i, x in enumerate(lines) if any(w in x for w in want)]
            failures.append(f"{name}: quotes {script}:{n} for {what}, which is '{line.strip()}'; "
                            f"{' or '.join(want)} is at {script}:{', '.join(map(str, at)) or '?'}")

    for m in re.finditer(r"aten::(\w+) at train\.py:(\d+)", text):
        holds(m, 2, [f"torch.{m.group(1)}("], f"aten::{m.group(1)}")
    for m in re.finditer(r"\[([a-z-]+)\][^\[\n]*?\(train\.py:(\d+)\)", text):
        want = RESUMED_AT if m.group(1).startswith("resume-") else NAMED_AT.get(m.group(1))
        if want:
            holds(m, 2, want, f"[{m.group(1)}]")
    for m in re.finditer(r"hf_trainer\.py:(\d+) via", text):
        holds(m, 1, ["trainer.train("], "the call into the Trainer", "hf_trainer.py")
    rows = list(re.finditer(r"^ {4}(caught|SURVIVED|not applicable) +([a-z-]+) +(?:train\.py:(\d+)|-)|"
                            r"^ {4}\.\.\. \((\d+) more ([a-z-]+) rows[^\n]*?all (caught|SURVIVED|not applicable)",
                            text, re.M))
    if rows:
        at, tally = 0, {"caught": 0, "SURVIVED": 0, "not applicable": 0}
        for r in rows:
            # A mutation with no site in the script: its row says "-" where a site's says file:line.
            where = f"train.py:{r.group(3)}" if r.group(3) else "-"
            got = [(r.group(2), where)] if r.group(1) else [(r.group(5), None)] * int(r.group(4))
            if r.group(3):
                read.add(r.start(3))
            for mutation, where in got:
                want = mutants[at] if at < len(mutants) else {"id": "no mutant", "where": "?"}
                if mutation != want["id"] or where not in (None, want.get("where", "-")):
                    failures.append(f"{name}: the mutate sample's row {at + 1} is {mutation} at {where or '...'}; "
                                    f"mutate.py's mutant {at + 1} is {want['id']} at {want.get('where', '-')}")
                at += 1
            tally[r.group(1) or r.group(6)] += len(got)
        m = re.search(r"mutate: (\d+) mutants, (\d+) caught, (\d+) survived, (\d+) not applicable", text)
        counts = (len(mutants), tally["caught"], tally["SURVIVED"], tally["not applicable"])
        if at != len(mutants) or not m or tuple(map(int, m.groups())) != counts:
            failures.append(f"{name}: the mutate sample shows {at} rows and ends "
                            f"'{m.group(0) if m else 'with no mutate: line'}'; mutate.py finds {len(mutants)} mutants "
                            f"({counts[1]} caught, {counts[2]} survived, {counts[3]} not applicable in its rows)")
    for m in re.finditer(r"\b(train|hf_trainer)\.py:(\d+)", text):
        if m.start(2) in read:
            continue
        paragraph = text[text.rfind("\n\n", 0, m.start()) + 1:text.find("\n\n", m.end()) % (len(text) + 1)]
        if "nanoGPT" not in paragraph:
            failures.append(f"{name}: quotes {m.group(0)}, which no rule of claims_test.py reads (say what is on that "
                            f"line as a sample the rules know, or add a rule)")

# 9. The Debian packages the bootstrap installs are the ones docs/setup.md names.
m = re.search(r"^debs=\(([^)]*)\)", (src / "tools/bootstrap.sh").read_text(), re.M)
debs = m.group(1).split() if m else []
bullet = re.search(r"^- Debian packages:(.*?)(?=^- |\n\n)", (docs / "setup.md").read_text(), re.M | re.S)
spans = re.findall(r"`([^`]*)`", bullet.group(1)) if bullet else []
if not debs:
    failures.append("tools/bootstrap.sh: no debs=(...) list of Debian packages")
elif not spans:
    failures.append("docs/setup.md: no '- Debian packages: `...`' list")
elif set(spans[0].split()) != set(debs):  # the list: the bullet's first `...`
    named = set(spans[0].split())
    failures.append("docs/setup.md: its Debian packages " + " and ".join(
        ([f"leave out {sorted(set(debs) - named)}"] if set(debs) - named else []) +
        ([f"name {sorted(named - set(debs))}, which tools/bootstrap.sh does not install"] if named - set(debs) else [])))

# 10. docs/cli.md: every subcommand and every long option the binary's --help lists.
def options_and_subcommands(help_text):
    section, options, subcommands = None, set(), []
    for line in help_text.splitlines():
        if re.match(r"^[A-Z]\w*:$", line):
            section = line[:-1]
        elif section == "Options" and (m := re.match(r"^ {2}((?:-{1,2}[\w-]+,)*-{1,2}[\w-]+)", line)):
            options |= {o for o in m.group(1).split(",") if o.startswith("--")} - {"--help"}
        elif section == "Subcommands" and (m := re.match(r"^ {2}([a-z][\w-]*) ", line)):
            subcommands.append(m.group(1))
    return options, subcommands


tree, level = {}, [()]  # ("lr-curve", "onecycle") -> (its long options, its subcommands)
with concurrent.futures.ThreadPoolExecutor(4) as pool:
    while level:
        helps = pool.map(lambda path: output_of([binary, *path, "--help"]), level)
        tree.update({path: options_and_subcommands(h) for path, h in zip(level, helps)})
        level = [path + (s,) for path in level for s in tree[path][1]]
usage, path = {}, None  # the usage lines of docs/cli.md: the subcommand -> what its lines name
for line in (docs / "cli.md").read_text().splitlines():
    if m := re.match(r"^ {4}(?:\$ )?build/trainproof\b(.*)$", line):
        words, path = m.group(1).split(), ()
        while words and path + (words[0],) in tree:
            path += (words.pop(0),)
        if words and re.fullmatch(r"[a-z][\w-]*", words[0]) and tree[path][1]:
            failures.append(f"docs/cli.md: a usage line names `trainproof {' '.join(path + (words[0],))}`, which "
                            f"`trainproof {' '.join(path + ('--help',))}` does not list")
            path = None
            continue
        usage[path] = usage.get(path, "") + " " + re.split(r"\s#\s", " ".join(words))[0]
    elif path is not None and re.match(r"^ {5,}\S", line):
        usage[path] += " " + re.split(r"\s#\s", line)[0]
    else:
        path = None
for path, (options, subcommands) in tree.items():
    command = " ".join(("trainproof",) + path)
    if path not in usage:
        if options or not subcommands:
            failures.append(f"docs/cli.md: no usage line for `{command}`")
        continue
    named = set(re.findall(r"--[a-z0-9][a-z0-9-]*", usage[path])) - {"--help"}
    if options != named:
        failures.append(f"docs/cli.md: `{command}` " + " and ".join(
            ([f"leaves out {sorted(options - named)}"] if options - named else []) +
            ([f"names {sorted(named - options)}, which its --help does not list"] if named - options else [])))

for s in skips:
    print("SKIP:", s)
for f in failures:
    print("FAIL:", f)
skipping = bool(skipped or skips)
print(f"{int(not failures)} passed, {int(bool(failures))} failed" + (", 1 skipped" if skipping else ""))
# In CI a tool the bootstrap installs (h5dump) that is missing is the bootstrap's failure, not a skip.
if skipping and os.environ.get("CI"):
    print("FAIL: under CI (CI is set) nothing may be skipped: tools/bootstrap.sh installs hdf5-tools")
    sys.exit(1)
sys.exit(1 if failures else 77 if skipping else 0)
