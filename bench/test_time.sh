#!/usr/bin/env bash
# The README's test command timed, revisions side by side in one run: for each REV a fresh
# clone is bootstrapped (ccache warm: that is not what is measured), then
# `ctest --test-dir build -j 2 -LE nightly` is timed, and after it the nightly label (what
# `.ci/nightly` runs); it prints per revision both wall times, the test count, the negative
# controls (of both), the label totals and the ten slowest tests of the README's command.
#   bench/test_time.sh [--quick] [REV...]   default: HEAD; --quick: the README's command only
#   bench/test_time.sh --build-dir DIR   time the suite of an existing build tree only
# A revision named twice is timed twice, on the clone already built (this machine's speed varies
# by up to a quarter between runs: `--quick A B A B` interleaves them).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Times the suite of one build tree; prints its summary under the name $2.
time_suite() {
  local build=$1 name=$2 log=$out/$2.log t0 t1
  t0=$(date +%s.%N)
  ctest --test-dir "$build" -j 2 -LE nightly >"$log" 2>&1
  local rc=$?
  t1=$(date +%s.%N)
  local rc_nightly=0
  if [ -z "$quick" ]; then
    ctest --test-dir "$build" -j 2 -L nightly >"$log.nightly" 2>&1
    rc_nightly=$?
  fi
  local wall wall_nightly
  wall=$(echo "$t1 - $t0" | bc)
  wall_nightly=$(echo "$(date +%s.%N) - $t1" | bc)
  local total controls cases names
  total=$(ctest --test-dir "$build" -N | sed -n 's/^Total Tests: //p')
  # What is tested, whichever way it is registered: CTest's tests but the GoogleTest ones
  # (one per case, or one per shard), and the executable's cases.
  names=$({
    ctest --test-dir "$build" -N | sed -nE 's/^ *Test +#[0-9]+: ([^ ]+).*/\1/p' | grep -vE '^[a-z]+\.shard-' |
      grep -vxFf <("$build/tests/trainproof_tests" --gtest_list_tests | awk '/^[^ ]/{s=$1} /^  /{print s $1}')
    "$build/tests/trainproof_tests" --gtest_list_tests | awk '/^[^ ]/{s=$1} /^  /{print s $1}'
  } | sort -u)
  cases=$(wc -l <<<"$names")
  controls=$(grep -ciE 'control|Fails?$|Sabotage|\.no-|non-atomic|unseeded|per-epoch|short-warmup|after-step|MultiProcess/|SingleProcess/' <<<"$names")
  printf '%s: wall %.0f s, exit %d, %s CTest tests; %s tests in all (GoogleTest cases counted one each; %s negative controls), %s\n' \
    "$name" "$wall" "$rc" "$total" "$cases" "$controls" "$(grep -E 'tests passed|tests failed' "$log" | tail -1)"
  sed -n '/The following tests FAILED:/,/^$/p' "$log" | sed 's/^/    /'
  sed -n '/Label Time Summary:/,/^$/p' "$log" | sed 's/^/    /'
  echo "    ten slowest:"
  grep -E '^ *[0-9]+/[0-9]+ Test +#' "$log" | sed -E 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) .* ([0-9.]+) sec$/\2 \1/' |
    sort -rn | head -10 | awk '{printf "      %7.1f s  %s\n", $1, $2}'
  [ -n "$quick" ] && return 0
  printf '    then the nightly label: wall %.0f s, exit %d, %s\n' "$wall_nightly" "$rc_nightly" \
    "$(grep -E 'tests passed|tests failed|No tests were found' "$log.nightly" | tail -1)"
  sed -n '/The following tests FAILED:/,/^$/p' "$log.nightly" | sed 's/^/    /'
}

quick=
if [ "${1:-}" = --quick ]; then
  quick=1
  shift
fi

if [ "${1:-}" = --build-dir ]; then
  time_suite "$2" "$(basename "$2")"
  exit 0
fi
[ $# -gt 0 ] || set -- HEAD
declare -A timed
for rev in "$@"; do
  sha=$(git -C "$root" rev-parse --short "$rev") || exit 2
  clone=$out/clone-$sha
  if [ ! -d "$clone" ]; then
    git clone -q "$root" "$clone" && git -C "$clone" checkout -q "$sha" || exit 2
    (cd "$clone" && tools/bootstrap.sh >"$out/bootstrap-$sha.log" 2>&1) || { tail -20 "$out/bootstrap-$sha.log"; exit 2; }
  fi
  n=$(( ${timed[$sha]:-0} + 1 ))
  timed[$sha]=$n
  time_suite "$clone/build" "$rev ($sha, run $n)"
done
