#!/usr/bin/env bash
# One shard of a GoogleTest group (cmake/TrainproofTest.cmake): the binary with its filter, whose
# output and exit it passes on, failing where the shard ran no test at all (a suite renamed away
# from its group's filter would otherwise pass with nothing run).
#   gtest_shard.sh BINARY --gtest_filter=...
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ $rc -eq 0 ] && grep -q '^\[  PASSED  \] 0 tests' <<<"$out"; then
  echo "FAIL: this shard ran no test (${*:2}): its group's filter selects none, or too few for its shards"
  exit 1
fi
exit $rc
