#!/usr/bin/env bash
# `trainproof` starts trainproof-cpu where no GPU driver is found, and that start loads none of
# LibTorch's CUDA libraries; where a driver is found, trainproof-cuda. The control: the same
# look at a start of trainproof-cuda sees libtorch_cuda loaded. A bad TRAINPROOF_PROGRAM
# exits 2 naming it. A replay of kept runs (`check --replay`) starts trainproof-lite, which loads
# no LibTorch at all, and judges as the LibTorch program does: the same report, finding for
# finding, on a recorded case with a broken resume; its controls: the same look sees
# libtorch_cpu in a replay given to trainproof-cpu, and a replay with --golden (which needs this
# program's LibTorch) is not sent to trainproof-lite.
#   launcher_test.sh TRAINPROOF_BIN
set -uo pipefail
bin=$1
fail() { echo "FAIL: $*"; echo "0 passed, 1 failed"; exit 1; }
loaded() { LD_DEBUG=files "$@" --version 2>&1 >/dev/null | grep -o 'file=[^ ]*libtorch_cuda[^ ]*' | head -1; }
driver=""
for p in /proc/driver/nvidia/version /dev/nvidiactl /dev/dxg; do [ -e "$p" ] && driver=$p; done
[ -x "$(dirname "$bin")/trainproof-cpu" ] || fail "no trainproof-cpu beside $bin"
if [ -z "$driver" ]; then
  [ -z "$(loaded "$bin")" ] || fail "a start of $bin without a GPU driver loaded $(loaded "$bin")"
else
  [ -n "$(loaded "$bin")" ] || fail "a start of $bin with a GPU driver ($driver) did not load libtorch_cuda"
  [ -z "$(TRAINPROOF_PROGRAM=cpu loaded "$bin")" ] || fail "TRAINPROOF_PROGRAM=cpu still loaded libtorch_cuda"
fi
if [ -x "$(dirname "$bin")/trainproof-cuda" ]; then
  [ -n "$(TRAINPROOF_PROGRAM=cuda loaded "$bin")" ] \
    || fail "control: the look sees no libtorch_cuda in a start of trainproof-cuda either"
fi
libtorch() { LD_DEBUG=files "$@" 2>&1 >/dev/null | grep -o 'file=[^ ]*libtorch_cpu[^ ]*' | head -1; }
case_=$(cd "$(dirname "$0")" && pwd)/data/evidence/probe/rng-optimizer
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$(dirname "$bin")/trainproof-lite" ] || fail "no trainproof-lite beside $bin"
[ -z "$(libtorch "$bin" check --replay "$case_")" ] || fail "a replay loaded $(libtorch "$bin" check --replay "$case_")"
[ -n "$(TRAINPROOF_PROGRAM=cpu libtorch "$bin" check --replay "$case_")" ] \
  || fail "control: the look sees no libtorch_cpu in a replay by trainproof-cpu either"
[ -n "$(libtorch "$bin" check --replay "$case_" --golden "$tmp/none.h5")" ] \
  || fail "a replay held to a golden was sent to trainproof-lite"
"$bin" check --replay "$case_" --json "$tmp/lite.json" >"$tmp/lite.log" 2>&1
lite_rc=$?
TRAINPROOF_PROGRAM=cpu "$bin" check --replay "$case_" --json "$tmp/cpu.json" >"$tmp/cpu.log" 2>&1
cpu_rc=$?
[ "$lite_rc" -eq 1 ] && [ "$cpu_rc" -eq 1 ] || fail "exit $lite_rc by trainproof-lite and $cpu_rc by trainproof-cpu, expected 1 (a broken resume)"
same=$(python3 -c 'import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
print(a["findings"] == b["findings"] and len(a["findings"]) > 0 and (a["passed"], a["failed"]) == (b["passed"], b["failed"])
      and [(r["name"], r["status"], r["detail"]) for r in a["results"]] == [(r["name"], r["status"], r["detail"]) for r in b["results"]])' \
  "$tmp/lite.json" "$tmp/cpu.json")
[ "$same" = True ] || fail "trainproof-lite and trainproof-cpu judged the replay differently: $(diff "$tmp/lite.log" "$tmp/cpu.log")"
out=$(TRAINPROOF_PROGRAM=gpu "$bin" --version 2>&1)
[ $? -eq 2 ] && [[ $out == *"TRAINPROOF_PROGRAM='gpu': expected cpu or cuda"* ]] || fail "bad TRAINPROOF_PROGRAM: '$out'"
echo "launcher (${driver:-no GPU driver}): ok"
echo "1 passed, 0 failed"
