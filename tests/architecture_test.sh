#!/usr/bin/env bash
# Configures this source tree in a scratch folder only to have CMake describe it, then checks
# that description:
#   architecture: the target graph (`cmake --graphviz`) and each target's sources (CMake's file
#                 API), with architecture_test.py;
#   relocatable:  each target's compile groups (the file API), with relocatable_test.py.
# usage: architecture_test.sh architecture|relocatable SOURCE PYTHON -D... (the cache values the
# build was made with)
set -euo pipefail
check=$1 source=$2 python=$3; shift 3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/build/.cmake/api/v1/query" && touch "$tmp/build/.cmake/api/v1/query/codemodel-v2"  # targets' sources
cmake -S "$source" -B "$tmp/build" -G Ninja --graphviz="$tmp/targets.dot" -DTRAINPROOF_BUILD_TESTS=OFF \
  -DTRAINPROOF_PYTHON= -DTRAINPROOF_USE_CCACHE=OFF "$@" >"$tmp/configure.log" 2>&1 \
  || { cat "$tmp/configure.log"; exit 1; }
reply=$tmp/build/.cmake/api/v1/reply
case $check in
  architecture)
    "$python" "$source/tests/architecture_test.py" "$tmp/targets.dot" "$source/docs/architecture.md" \
      --sources "$reply" "$source" ${TRAINPROOF_ARCHITECTURE_WRITE:+--write} ;;
  relocatable) "$python" "$source/tests/relocatable_test.py" "$reply" "$source" "$tmp/build" ;;
  *) echo "architecture_test.sh: unknown check '$check'" >&2; exit 2 ;;
esac
