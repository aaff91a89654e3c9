"""The trace's page (python/trainproof/probe/TRACE.md) names every record kind the probe and the
Recorder write and check reads, and every fact the probe writes: the one contract between them.
usage: probe_trace_doc_test.py SOURCE_ROOT [TRACE.md] (another page: the negative control)"""
import glob
import os
import re
import sys

root = sys.argv[1]
page = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "python/trainproof/probe/TRACE.md")
python = [open(f).read() for f in glob.glob(os.path.join(root, "python/trainproof/**/*.py"), recursive=True)]
reader = open(os.path.join(root, "src/core/recorded_trace.cpp")).read()
kinds = {k for text in python for k in re.findall(r'"kind": "([a-z-]+)"', text)}
kinds |= set(re.findall(r'kind == "([a-z-]+)"', reader))
facts = {f for text in python for f in re.findall(r'\b(?:probe|self)\.fact\(\s*"([a-z-]+)"', text)}
text = open(page).read()
missing = sorted(f"record kind '{k}'" for k in kinds if f"`{k}`" not in text)
missing += sorted(f"fact '{f}'" for f in facts if f"`{f}`" not in text)
if len(kinds) < 8 or len(facts) < 10:
    missing.append(f"only {len(kinds)} record kinds and {len(facts)} facts found: the patterns no longer match the code")
for m in missing:
    print(f"FAIL: {page} does not name the {m}")
print(f"{len(kinds)} record kinds, {len(facts)} facts: {len(missing)} not named")
sys.exit(1 if missing else 0)
