#!/usr/bin/env bash
# A check golden's fingerprint is the trained process's: made under torch 2.13.0 and held under
# torch 2.14.1, the golden law says the environment moved and names torch with both versions; its
# control, held under the same torch 2.13.0, names no environment that moved. The 2.13.0 torch is
# the cached venv of tests/wheel_test.sh (made here if missing), seen through a .pth file.
#   check_golden_env_test.sh TRAINPROOF_BIN PYTHON_2_14
set -uo pipefail
# One thread: under torch 2.13.0 with two, the loop's clipped grad norm parted between two runs in
# about one regen in three here (1.34281099 vs 1.34281111 at step 7); determinism is not this
# test's subject, the environment's fingerprint is.
export OMP_NUM_THREADS=1
bin=$1 py14=$2
src=$(cd "$(dirname "$0")/.." && pwd)
cache=${TRAINPROOF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/trainproof}
torch13=$cache/venv-torch-2.13.0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out.log" 2>/dev/null; echo "0 passed, 1 failed"; exit 1; }
if [ ! -f "$torch13/.complete" ]; then
  rm -rf "$torch13" && mkdir -p "$cache" && python3 -m venv "$torch13" &&
    "$torch13/bin/python" -m pip install -q torch==2.13.0 && touch "$torch13/.complete" || fail "torch 2.13.0 did not install"
fi
purelib='import sysconfig; print(sysconfig.get_path("purelib"))'
python3 -m venv "$tmp/v13"
echo "$("$torch13/bin/python" -c "$purelib")" >"$("$tmp/v13/bin/python" -c "$purelib")/torch_2_13.pth"
"$tmp/v13/bin/python" -m pip install -q numpy >"$tmp/pip.log" 2>&1 || fail "numpy did not install: $(tail -3 "$tmp/pip.log")"
loop=("$src/examples/python_plain/train.py" --out '{run_dir}')
"$bin" check --regen --path-set native --golden "$tmp/g.h5" -- "$tmp/v13/bin/python" "${loop[@]}" >"$tmp/out.log" 2>&1 ||
  fail "the golden was not written under torch 2.13.0"
"$bin" check --runs 1 --golden "$tmp/g.h5" -- "$py14" "${loop[@]}" >"$tmp/out.log" 2>&1
grep -qE "made in another environment \([^)]*torch 2\.13\.0 -> 2\.14\.1" "$tmp/out.log" ||
  fail "held under torch 2.14.1, the golden law does not name torch 2.13.0 -> 2.14.1 as what moved"
"$bin" check --runs 1 --golden "$tmp/g.h5" -- "$tmp/v13/bin/python" "${loop[@]}" >"$tmp/out.log" 2>&1
grep -q "made in this environment" "$tmp/out.log" || fail "held under the golden's own torch, an environment is said to have moved"
echo "a torch upgrade is the environment moving, named; the same torch is not"
echo "1 passed, 0 failed"
