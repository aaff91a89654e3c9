#!/usr/bin/env bash
# `trainproof` starts trainproof-cpu where no GPU driver is found, and that start loads none of
# LibTorch's CUDA libraries; where a driver is found, trainproof-cuda. The control: the same
# look at a start of trainproof-cuda sees libtorch_cuda loaded. A bad TRAINPROOF_PROGRAM
# exits 2 naming it.
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
out=$(TRAINPROOF_PROGRAM=gpu "$bin" --version 2>&1)
[ $? -eq 2 ] && [[ $out == *"TRAINPROOF_PROGRAM='gpu': expected cpu or cuda"* ]] || fail "bad TRAINPROOF_PROGRAM: '$out'"
echo "launcher (${driver:-no GPU driver}): ok"
echo "1 passed, 0 failed"
