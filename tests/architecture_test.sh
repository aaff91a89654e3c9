#!/usr/bin/env bash
# Configures this source tree in a scratch folder only to have CMake describe it: the target
# graph (`cmake --graphviz`, DIR/targets.dot) and each target's sources and compile groups
# (CMake's file API, DIR/build/.cmake/api/v1/reply). architecture_test.py and
# relocatable_test.py check that description; one configure serves both (a CTest fixture).
# Twice: as the build is made (DIR), and without precompiled headers (DIR/no-pch), where a
# target that reuses LibTorch's precompiled header gains no link from it: each must link what
# it includes on its own.
# usage: architecture_test.sh DIR SOURCE -D... (the cache values the build was made with)
set -euo pipefail
dir=$1 source=$2; shift 2
rm -rf "$dir"
describe() {  # describe OUT -D...
  local out=$1; shift
  mkdir -p "$out/build/.cmake/api/v1/query" && touch "$out/build/.cmake/api/v1/query/codemodel-v2"
  cmake -S "$source" -B "$out/build" -G Ninja --graphviz="$out/targets.dot" -DTRAINPROOF_BUILD_TESTS=OFF \
    -DTRAINPROOF_PYTHON= -DTRAINPROOF_USE_CCACHE=OFF "$@" >"$out/configure.log" 2>&1 \
    || { cat "$out/configure.log"; exit 1; }
  echo "described: $out"
}
# Both at once (a configure waits on its compiler checks more than it computes); each must pass.
describe "$dir" "$@" &
as_built=$!
describe "$dir/no-pch" "$@" -DTRAINPROOF_USE_PCH=OFF &
no_pch=$!
ok=0
wait "$as_built" || ok=1
wait "$no_pch" || ok=1
exit $ok
