"""Nothing below the CLI prints, to stdout or stderr. What a command shows is the CLI's (src/cli/)
and the console reporter's (src/report/console.cpp); the layers below return reports, and hand
their progress to the sink they are given (core/progress.h). (The golden probe, a program of
its own, replies on stdout.)

usage: prints_test.py SOURCE_DIR [FILE ...]

Reads every .cpp, .h and .cu under SOURCE_DIR/src but those, and fails on each print:
fmt::print, std::cout or std::cerr, printf or fprintf, puts, or stdout or stderr named. With FILE
arguments only those are read (the negative control gives it a file with each kind)."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1]).resolve()
# The CLI and its console reporter; and the golden probe, a program of its own whose reply is its stdout.
ALLOWED = ("src/cli/", "src/report/console.cpp", "src/golden/golden_probe_main.cpp")
PRINTS = re.compile(r"fmt::print\(|std::c(?:out|err|log)\b|(?<![\w:])(?:std::)?f?printf\(|\bputs\(|\bstd(?:out|err)\b")
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')  # a literal's text is not code: "stderr" names a file
files = [pathlib.Path(p).resolve() for p in sys.argv[2:]] or [
    p for p in sorted((root / "src").rglob("*")) if p.suffix in (".cpp", ".h", ".cu")
    and not str(p.relative_to(root)).startswith(ALLOWED)]
problems = []
for f in files:
    for n, line in enumerate(f.read_text().splitlines(), 1):
        code = STRING.sub('""', line).split("//")[0]
        if PRINTS.search(code):
            problems.append(f"{f}:{n}: prints below the CLI: {line.strip()}")
print("\n".join(problems))
print(f"{len(files)} files read; {len(problems)} print(s) below the CLI")
sys.exit(1 if problems else 0)
