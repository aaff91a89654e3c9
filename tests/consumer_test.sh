#!/usr/bin/env bash
# Installs trainproof into a temporary prefix and builds and tests the example consumer
# (examples/consumer) against the installed package, as `ctest --build-and-test` does.
set -euo pipefail
build=$1 source=$2 torch_dir=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
ctest --build-and-test "$source/examples/consumer" "$tmp/build" --build-generator Ninja \
  --build-options -DCMAKE_PREFIX_PATH="$tmp/prefix" -DTorch_DIR="$torch_dir" -DCMAKE_BUILD_TYPE=Release \
  --test-command ctest --output-on-failure
