#!/usr/bin/env bash
# The probe changes no bit and does nothing outside `trainproof check`: the correct example's
# final parameters with the probe loaded (as check loads it) and without are bitwise equal; with
# the probe's sitecustomize on PYTHONPATH but no TRAINPROOF_PROBE=1 nothing is recorded.
#   probe_inert_test.sh PYTHON [control]
# control: the negative control; the probe is made to draw one random number per step
# (TRAINPROOF_INJECT_FAULT=probe-draws-a-random-number) and the comparison must catch it.
# PROBE_KEEP: keep the run without the probe there (the positive test); PROBE_REFERENCE: take
# that run's parameters instead of running the example without the probe again (the control).
set -uo pipefail
py=$1 control=${2:-}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out.log" 2>/dev/null; echo "0 passed, 1 failed"; exit 1; }
boot="$src/python/trainproof_boot:$src/python"
fault=
[ "$control" = control ] && fault=probe-draws-a-random-number
if [ -n "${PROBE_REFERENCE:-}" ]; then
  cp "$PROBE_REFERENCE" "$tmp/without.pt" || fail "no run without the probe at $PROBE_REFERENCE"
else
  env -u PYTHONPATH -u TRAINPROOF_PROBE -u TRAINPROOF_TRACE "$py" "$src/examples/python_plain/train.py" \
    --out "$tmp/a" --final "$tmp/without.pt" >"$tmp/out.log" 2>&1 || fail "the example failed without the probe"
  [ -n "${PROBE_KEEP:-}" ] && { mkdir -p "$PROBE_KEEP" && cp "$tmp/without.pt" "$PROBE_KEEP/"; }
fi
TRAINPROOF_INJECT_FAULT=$fault PYTHONPATH=$boot TRAINPROOF_PROBE=1 TRAINPROOF_TRACE=$tmp/probe.trace "$py" \
  "$src/examples/python_plain/train.py" --out "$tmp/b" --final "$tmp/with.pt" >"$tmp/out.log" 2>&1 \
  || fail "the example failed with the probe"
grep -q '"kind":"probe"' "$tmp/probe.trace" || fail "the probe recorded no step: it was not loaded, so nothing was compared"
if [ "$control" != control ]; then
  PYTHONPATH=$boot TRAINPROOF_TRACE=$tmp/inert.trace "$py" "$src/examples/python_plain/train.py" \
    --out "$tmp/c" >"$tmp/out.log" 2>&1 || fail "the example failed with the sitecustomize but no TRAINPROOF_PROBE"
  [ -e "$tmp/inert.trace" ] && fail "without TRAINPROOF_PROBE=1 the probe still wrote $tmp/inert.trace"
fi
"$py" - "$tmp/without.pt" "$tmp/with.pt" >"$tmp/out.log" 2>&1 <<'PY'
import sys, torch
a, b = torch.load(sys.argv[1]), torch.load(sys.argv[2])
assert a.keys() == b.keys()
for k in a:
    if not torch.equal(a[k].view(torch.uint8), b[k].view(torch.uint8)):
        sys.exit(f"{k} differs")
print(f"{len(a)} tensors bitwise equal with and without the probe")
PY
same=$?
cat "$tmp/out.log"
if [ "$control" = control ]; then
  [ "$same" -ne 0 ] || fail "a probe that draws random numbers left the results bitwise equal: the comparison is blind"
  # Caught by the comparison itself, not by a load error or a crash before it.
  grep -q "differs$" "$tmp/out.log" || fail "the control failed for another reason than differing parameters"
else
  [ "$same" -eq 0 ] || fail "the final parameters differ with the probe"
fi
echo "1 passed, 0 failed"
