"""The README and docs/: no dead link, no missing file, and the README stays short.

usage: docs_test.py SOURCE_DIR [FILE.md ...]

Every relative Markdown link (`[text](path)` or `(path#anchor)`) must name a file that exists,
and an anchor must be a heading of that file. Every path in backticks that starts with a
top-level folder of the repository (`src/...`, `tests/...`, `examples/...`, ...) must exist
(globs and placeholders like `<name>` are skipped). The README has at most 250 lines.
With FILE.md arguments only those are read (the negative control gives it a broken page)."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1]).resolve()
pages = [pathlib.Path(p).resolve() for p in sys.argv[2:]] or [root / "README.md", *sorted((root / "docs").glob("*.md"))]
FOLDERS = ("src/", "include/", "tests/", "tools/", "bench/", "examples/", "python/", "ci/", "golden/", "scenarios/",
           "docs/", "cmake/", "workloads/", "app/")
failures = []


def anchors(page):
    out = set()
    for line in page.read_text().splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            out.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return out


for page in pages:
    text = page.read_text()
    where = page.relative_to(root) if page.is_relative_to(root) else page
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+://", target) or target.startswith("mailto:"):
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            failures.append(f"{where}: dead link ({target}): {dest.relative_to(root) if dest.is_relative_to(root) else dest} does not exist")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            failures.append(f"{where}: dead link ({target}): no heading '#{anchor}' in {dest.name}")
    for token in re.findall(r"`([^`\s]+)`", text):
        token = token.rstrip(".,:;)")
        if not token.startswith(FOLDERS) or any(c in token for c in "*<>{}[]$|"):
            continue
        if not (root / token).exists():
            failures.append(f"{where}: names `{token}`, which does not exist")
    if page.name == "README.md" and page.parent == root:
        n = len(text.splitlines())
        if n > 250:
            failures.append(f"README.md: {n} lines, more than 250: move detail to docs/")

for f in failures:
    print("FAIL:", f)
print(f"{len(pages)} pages read; {len(failures)} problem(s)")
print(f"{int(not failures)} passed, {int(bool(failures))} failed")
sys.exit(1 if failures else 0)
