#!/usr/bin/env bash
# Refreshes tests/ctest_costs.txt, the test timings a new build tree starts from (tools/bootstrap.sh
# copies it to Testing/Temporary/CTestCostData.txt, where CTest reads each test's average time and
# starts the slowest first): from the cost file of a build tree whose README test command has run
# (default build/), the tests timed at least once, slowest first, without its list of failures.
#   tools/ctest_costs.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
costs=${1:-$root/build}/Testing/Temporary/CTestCostData.txt
[ -f "$costs" ] || { echo "ctest_costs: no $costs (run the README's test command there first)"; exit 2; }
tmp=$(mktemp "$root/tests/ctest_costs.txt.XXXXXX")
trap 'rm -f "$tmp"' EXIT
# Lines "NAME RUNS AVERAGE_SECONDS" up to the "---" that heads the failures; a name has no spaces.
awk '$0 == "---" {exit} NF == 3 && $2 > 0 {print}' "$costs" | sort -k3,3 -gr >"$tmp"
[ -s "$tmp" ] || { echo "ctest_costs: $costs holds no timed test"; exit 1; }
echo "---" >>"$tmp"
mv "$tmp" "$root/tests/ctest_costs.txt"
trap - EXIT
echo "ctest_costs: $(($(wc -l <"$root/tests/ctest_costs.txt") - 1)) tests' times written to tests/ctest_costs.txt"
