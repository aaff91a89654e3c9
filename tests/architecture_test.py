"""The targets' dependency graph, drawn from CMake, points one way, and each target links
what it includes and includes what it links.

usage: architecture_test.py GRAPHVIZ_DOT README [--sources CODEMODEL_REPLY|MAP.json SOURCE_ROOT] [--write|--no-drawing]

GRAPHVIZ_DOT is what `cmake --graphviz` wrote. Each trainproof library has a layer (LAYERS);
a dependency on a target of the same or a lower layer (an upward edge, or a cycle) fails,
and so does a trainproof target with no layer. docs/architecture.md's architecture section must be
the graph as drawn here; --write puts it there.
With --sources (CMake's file API codemodel reply folder, and the source tree): an include of
another target's headers (trainproof/LAYER/..., src/LAYER/..., scenarios/...) in a target's
sources, or in a library's own headers, fails unless the target links that one (directly or
through what it links); a library's direct link to another library whose headers none of its
files include fails too."""
import glob
import json
import os
import re
import sys

# Lower numbers are lower layers: a target may depend only on lower numbers.
LAYERS = {
    "trainproof_core": 0,
    "trainproof_process": 1,
    "trainproof_golden": 2,
    "trainproof_training": 2,
    "trainproof_verdict": 3,
    "trainproof_golden_probe": 3,
    "trainproof_report": 4,
    "trainproof_runner": 4,
    "trainproof_distributed": 5,
    "trainproof_check": 5,
    "trainproof_cli": 6,
    "trainproof_cli_lite": 6,  # cli's sources built without LibTorch (TWINS)
    "trainproof_textclf": 7,
    "trainproof_bench": 7,
    "trainproof_harness": 7,
    "trainproof_main": 7,
    "trainproof_scenarios": 8,
    "trainproof_cpu": 9,
    "trainproof_cuda": 9,
    "trainproof_lite": 9,  # the CLI without LibTorch, for replays
    "trainproof": 10,  # the launcher: starts trainproof-cpu or trainproof-cuda
}
IGNORED = {"trainproof_warnings"}  # compile flags only, linked by every target
# A library built from another's sources another way (cli_lite: cli's, without LibTorch): it
# includes the other's headers, and what links it has the other's headers to include; what its
# sources include only in the other's build (under #if) the other links.
TWINS = {"trainproof_cli_lite": "trainproof_cli"}
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


INCLUDE = re.compile(r'^\s*#\s*include\s*"((?:trainproof|src)/([a-z_]+)/[^"]+|scenarios/[^"]+)"', re.M)


def codemodel_targets(reply):
    """(name, target object) for each target of a CMake file API codemodel reply folder."""
    index = json.load(open(sorted(glob.glob(os.path.join(reply, "index-*.json")))[-1]))
    model = next(o for o in index["objects"] if o["kind"] == "codemodel")
    codemodel = json.load(open(os.path.join(reply, model["jsonFile"])))
    for t in codemodel["configurations"][0]["targets"]:
        yield t["name"], json.load(open(os.path.join(reply, t["jsonFile"])))


def read_sources(reply):
    """Target name -> its source files (paths as the codemodel gives them), from a file API reply
    (or from a JSON file of that map, as the negative control gives it)."""
    if os.path.isfile(reply):
        return json.load(open(reply))
    return {name: [src["path"] for src in target.get("sources", [])] for name, target in codemodel_targets(reply)}


def included_targets(path):
    """The targets whose headers a file includes: {target: the include line's path}."""
    out = {}
    for m in INCLUDE.finditer(open(path, errors="replace").read()):
        target = "trainproof_scenarios" if m.group(2) is None else f"trainproof_{m.group(2)}"
        if target in LAYERS:
            out.setdefault(target, m.group(1))
    return out


def reachable(graph, t):
    seen, todo = set(), [t]
    while todo:
        for d in graph.get(todo.pop(), ()):
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def include_problems(graph, sources, root):
    problems = []
    for t in sorted(sources):
        if t not in LAYERS or t not in graph:
            continue
        files = [os.path.join(root, f) if not os.path.isabs(f) else f for f in sources[t]]
        layer = TWINS.get(t, t)[len("trainproof_"):]
        library = os.path.isdir(os.path.join(root, "src", layer))  # a library: its headers are its own too
        if library:
            files += glob.glob(os.path.join(root, "include", "trainproof", layer, "*.h"))
            files += glob.glob(os.path.join(root, "src", layer, "**", "*.h"), recursive=True)
        used = {}
        for f in sorted(set(files)):
            if os.path.isfile(f):
                for d, line in included_targets(f).items():
                    used.setdefault(d, (os.path.relpath(f, root), line))
        reach = reachable(graph, t) | {t}
        reach |= {TWINS[r] for r in reach if r in TWINS}
        if t in TWINS:  # its twin's sources: what they include only where the twin is built (#if) links there
            reach |= reachable(graph, TWINS[t])
        for d, (f, line) in sorted(used.items()):
            if d != t and d not in reach:
                problems.append(f"{t} includes {d}'s headers ({f}: {line}) but does not link {d}")
        if library:
            for d in sorted(graph[t]):
                if os.path.isdir(os.path.join(root, "src", d[len("trainproof_"):])) and d not in used:
                    problems.append(f"{t} links {d}, which none of its files include")
    return problems


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
    if "--sources" in argv:
        reply, root = argv[argv.index("--sources") + 1:argv.index("--sources") + 3]
        problems += include_problems(graph, read_sources(reply), root)
    text = open(readme).read()
    want = drawing(graph)
    if "--no-drawing" in argv:
        pass
    elif BEGIN not in text or END not in text:
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
        print(f"{len(graph)} targets, every dependency points down a layer"
              + (", each links what it includes and includes what it links" if "--sources" in argv else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
