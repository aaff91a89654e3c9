#!/usr/bin/env bash
# Configures this source tree in a scratch folder only to have CMake describe it: the target
# graph (`cmake --graphviz`, DIR/targets.dot) and each target's sources and compile groups
# (CMake's file API, DIR/build/.cmake/api/v1/reply). architecture_test.py and
# relocatable_test.py check that description; one configure serves both (a CTest fixture).
# usage: architecture_test.sh DIR SOURCE -D... (the cache values the build was made with)
set -euo pipefail
dir=$1 source=$2; shift 2
rm -rf "$dir"
mkdir -p "$dir/build/.cmake/api/v1/query" && touch "$dir/build/.cmake/api/v1/query/codemodel-v2"
cmake -S "$source" -B "$dir/build" -G Ninja --graphviz="$dir/targets.dot" -DTRAINPROOF_BUILD_TESTS=OFF \
  -DTRAINPROOF_PYTHON= -DTRAINPROOF_USE_CCACHE=OFF "$@" >"$dir/configure.log" 2>&1 \
  || { cat "$dir/configure.log"; exit 1; }
echo "described: $dir"
