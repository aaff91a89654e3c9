#!/usr/bin/env bash
# Configures this source tree in a scratch folder only to have CMake draw the target graph
# (`cmake --graphviz`) and list each target's sources (CMake's file API), then checks both with
# architecture_test.py.
# usage: architecture_test.sh SOURCE PYTHON -D... (the cache values the build was made with)
set -euo pipefail
source=$1 python=$2; shift 2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/build/.cmake/api/v1/query" && touch "$tmp/build/.cmake/api/v1/query/codemodel-v2"  # targets' sources
cmake -S "$source" -B "$tmp/build" -G Ninja --graphviz="$tmp/targets.dot" -DTRAINPROOF_BUILD_TESTS=OFF \
  -DTRAINPROOF_PYTHON= -DTRAINPROOF_USE_CCACHE=OFF "$@" >"$tmp/configure.log" 2>&1 \
  || { cat "$tmp/configure.log"; exit 1; }
"$python" "$source/tests/architecture_test.py" "$tmp/targets.dot" "$source/docs/architecture.md" \
  --sources "$tmp/build/.cmake/api/v1/reply" "$source" ${TRAINPROOF_ARCHITECTURE_WRITE:+--write}
