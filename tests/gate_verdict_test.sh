#!/usr/bin/env bash
# ci/gate.sh (verify) prints the regen command for a code change only: the underflow golden (made
# here) with one value moved prints it; the same golden with another CPU model in its
# fingerprint, the value moved beyond the envelope (both), prints none and says why.
#   gate_verdict_test.sh TRAINPROOF_BIN PYTHON_WITH_H5PY
set -uo pipefail
bin=$1 py=$2
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out.log"; echo "0 passed, 1 failed"; exit 1; }
edit() {  # edit GOLDEN [another-cpu]: finfo_eps[2] += 0.01, and the CPU model renamed if asked
  "$py" - "$@" <<'PY'
import json, sys
import h5py
with h5py.File(sys.argv[1], "r+") as f:
    g = f["cpu"]
    if len(sys.argv) > 2:
        fp = json.loads(g.attrs["fingerprint"])
        fp["cpu_model"] = "Another " + fp["cpu_model"]
        g.attrs["fingerprint"] = json.dumps(fp)
    v = g["finfo_eps"][...]
    v[2] += 0.01
    g["finfo_eps"][...] = v
PY
}
gate() { TRAINPROOF_BIN=$bin TRAINPROOF_REPORT=$tmp/r.json bash "$root/ci/gate.sh" underflow --device cpu --golden "$1" \
  >"$tmp/out.log" 2>&1; }
mkdir -p "$tmp/code" "$tmp/both"
# The golden made here (the committed one may come from another CPU: that alone is not a code change).
"$bin" regen underflow --device cpu --golden "$tmp/code" --path-set aten-default >"$tmp/out.log" 2>&1 ||
  fail "could not make the underflow golden here"
cp "$tmp/code/underflow.h5" "$tmp/both/"
edit "$tmp/code/underflow.h5" || fail "cannot edit the golden with h5py"
edit "$tmp/both/underflow.h5" another-cpu || fail "cannot edit the golden with h5py"
gate "$tmp/code"
[ $? -eq 1 ] || fail "a moved value did not fail the gate"
grep -q "code change: the environment is the golden's" "$tmp/out.log" || fail "no code-change verdict"
grep -q " regen .*--golden" "$tmp/out.log" || fail "no regen command for a code change"
gate "$tmp/both"
[ $? -eq 1 ] || fail "a moved value under another fingerprint did not fail the gate"
grep -q "both: the environment differs" "$tmp/out.log" || fail "no 'both' verdict"
grep -q "No regen command is printed" "$tmp/out.log" || fail "the gate does not say why it prints no regen command"
grep -q " regen .*--golden" "$tmp/out.log" && fail "a regen command printed for 'both'"
echo "gate verdicts: ok"
echo "1 passed, 0 failed"
