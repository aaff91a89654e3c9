"""The targets' dependency graph, drawn from CMake, points one way.

usage: architecture_test.py GRAPHVIZ_DOT README [--write]

GRAPHVIZ_DOT is what `cmake --graphviz` wrote. Each trainproof library has a layer (LAYERS);
a dependency on a target of the same or a lower layer (an upward edge, or a cycle) fails,
and so does a trainproof target with no layer. docs/architecture.md's architecture section must be
the graph as drawn here; --write puts it there."""
import re
import sys

# Lower numbers are lower layers: a target may depend only on lower numbers.
LAYERS = {
    "trainproof_core": 0,
    "trainproof_process": 1,
    "trainproof_golden": 2,
    "trainproof_report": 2,
    "trainproof_training": 2,
    "trainproof_golden_probe": 3,
    "trainproof_runner": 3,
    "trainproof_distributed": 3,
    "trainproof_cli": 4,
    "trainproof_textclf": 5,
    "trainproof_bench": 5,
    "trainproof_harness": 5,
    "trainproof_main": 5,
    "trainproof_scenarios": 6,
    "trainproof": 7,
}
IGNORED = {"trainproof_warnings"}  # compile flags only, linked by every target
BEGIN, END = "<!-- architecture:begin -->", "<!-- architecture:end -->"


def read_graph(path):
    names, edges = {}, []
    for line in open(path):
        m = re.match(r'\s*"(node\d+)"\s*\[\s*label\s*=\s*"([^"]+)"', line)
        if m:
            names[m.group(1)] = m.group(2).replace("\\n", "").split("(")[0]  # "t(trainproof::alias)"
        m = re.match(r'\s*"(node\d+)"\s*->\s*"(node\d+)"', line)
        if m:
            edges.append((m.group(1), m.group(2)))
    graph = {}
    for a, b in edges:
        a, b = names.get(a, a), names.get(b, b)
        if a.startswith("trainproof") and a not in IGNORED:
            graph.setdefault(a, set())
            if b.startswith("trainproof") and b not in IGNORED:
                graph[a].add(b)
    for n in names.values():
        if n.startswith("trainproof") and n not in IGNORED:
            graph.setdefault(n, set())
    return graph


def drawing(graph):
    lines = []
    for layer in sorted(set(LAYERS.values()), reverse=True):
        for t in sorted(t for t in graph if LAYERS.get(t) == layer):
            deps = sorted(graph[t], key=lambda d: (-LAYERS.get(d, -1), d))
            lines.append(f"{t:<24} -> {', '.join(deps) if deps else '(LibTorch, libhdf5, ... only)'}")
    return "```\n" + "\n".join(lines) + "\n```"


def main(argv):
    dot, readme = argv[1], argv[2]
    graph = read_graph(dot)
    problems = []
    for t, deps in sorted(graph.items()):
        if t not in LAYERS:
            problems.append(f"{t} has no layer: add it to LAYERS in {__file__}")
            continue
        for d in sorted(deps):
            if d in LAYERS and LAYERS[d] >= LAYERS[t]:
                problems.append(f"{t} (layer {LAYERS[t]}) depends on {d} (layer {LAYERS[d]}): an upward edge")
    if "trainproof_core" not in graph:
        problems.append(f"no trainproof_core in {dot}: not a graph of this project")
    text = open(readme).read()
    want = drawing(graph)
    if BEGIN not in text or END not in text:
        problems.append(f"{readme} has no {BEGIN} ... {END} section")
    else:
        have = text.split(BEGIN, 1)[1].split(END, 1)[0].strip()
        if have != want:
            if "--write" in argv:
                text = text.split(BEGIN, 1)[0] + BEGIN + "\n" + want + "\n" + END + text.split(END, 1)[1]
                open(readme, "w").write(text)
            else:
                problems.append(f"{readme}'s architecture section is not the graph CMake draws; it should be:\n{want}")
    for p in problems:
        print("FAIL:", p)
    if not problems:
        print(f"{len(graph)} targets, every dependency points down a layer")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
