#!/usr/bin/env bash
# Other machines simulated on this one: scenarios under every CPU execution path (ATen
# capability, MKL/oneDNN limits, threads), each path in its own process, against the committed
# goldens (`verify --paths`).
#   hardware_paths_test.sh TRAINPROOF_BIN single|ranks [PATH_SET]
# single: every single-process scenario under every path, or the comma-separated PATH_SET (the
#   README's test command takes two: native, and the generic kernels on one thread with MKL's and
#   oneDNN's oldest code; the nightly label every path).
# ranks: the data-parallel scenarios under every path: about forty starts of the CLI per path
#   for their ranks, for kernels the single-process scenarios already take down every path.
#   Alone on 2 cores (Xeon), `single` took 42 s and `ranks` 187 s: `ranks` carries the nightly
#   label, which CI's second phase runs (`ctest --test-dir build -L nightly`).
set -uo pipefail
bin=$1 which=$2 path_set=${3:-all}
scenarios=$("$bin" list --json | python3 -c 'import json, sys
ranks = sys.argv[1] == "ranks"
print(" ".join(s["name"] for s in json.load(sys.stdin) if s["multi_process"] == ranks))' "$which") ||
  { echo "FAIL: trainproof list --json"; exit 1; }
[ -n "$scenarios" ] || { echo "FAIL: no $which scenarios listed"; exit 1; }
exec "$bin" verify --paths --path-set "$path_set" --device cpu --jobs 1 $scenarios
