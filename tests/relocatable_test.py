"""No object depends on where the checkout lies, so a fresh clone in another folder takes its
objects from the compiler cache (ccache, with CCACHE_BASEDIR) instead of compiling them again:
  - no compile definition holds the source or build folder's path, but in src/core/data_dirs.cpp,
    the one small source that names the build tree's folders;
  - every C and C++ compile maps __FILE__ relative to the checkout (-fmacro-prefix-map), which
    LibTorch's and GoogleTest's macros expand.

usage: relocatable_test.py CODEMODEL_REPLY|GROUPS.json SOURCE_ROOT [BUILD_ROOT]
GROUPS.json (the negative control) gives each target's compile groups directly:
{"target": [{"language": "CXX", "sources": [...], "defines": [...], "fragments": [...]}]}.
Prints each problem as FAIL: and exits 1 when there is one.
"""
import json
import os
import sys

from architecture_test import codemodel_targets

PATHS_ALLOWED_IN = {"src/core/data_dirs.cpp"}


def read_groups(reply):
    """Target name -> its compile groups (language, sources, defines, command fragments)."""
    if os.path.isfile(reply):
        return json.load(open(reply))
    out = {}
    for name, target in codemodel_targets(reply):
        sources = target.get("sources", [])
        out[name] = [{
            "language": g.get("language", ""),
            "sources": [sources[i]["path"] for i in g.get("sourceIndexes", [])],
            "defines": [d["define"] for d in g.get("defines", [])],
            "fragments": [f["fragment"] for f in g.get("compileCommandFragments", [])],
        } for g in target.get("compileGroups", [])]
    return out


def problems(groups, source_root, build_root):
    roots = [r.rstrip("/") for r in (source_root, build_root) if r]
    mapping = f"-fmacro-prefix-map={source_root.rstrip('/')}/="
    found = []
    for target in sorted(groups):
        for g in groups[target]:
            files = ", ".join(g["sources"][:3]) + (", ..." if len(g["sources"]) > 3 else "")
            if not set(g["sources"]) <= PATHS_ALLOWED_IN:
                for d in g["defines"]:
                    if any(r in d for r in roots):
                        found.append(f"{target} ({files}): the definition {d} holds the checkout's path; "
                                     "name the folder in src/core/data_dirs.cpp (build_tree_dir) instead")
            if g["language"] in ("C", "CXX") and not any(mapping in f for f in g["fragments"]):
                found.append(f"{target} ({files}): compiled without {mapping}: __FILE__ holds the checkout's path")
    return found


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    groups = read_groups(argv[1])
    found = problems(groups, argv[2], argv[3] if len(argv) > 3 else "")
    for p in found:
        print("FAIL:", p)
    if found:
        return 1
    n = sum(len(g) for g in groups.values())
    print(f"ok: {n} compile groups of {len(groups)} targets; no path in a definition outside "
          f"{', '.join(sorted(PATHS_ALLOWED_IN))}, __FILE__ relative everywhere")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
