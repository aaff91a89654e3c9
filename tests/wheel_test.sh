#!/usr/bin/env bash
# `pip install trainproof` as a team does it: builds the wheel from SOURCE (pyproject.toml:
# scikit-build-core, no LibTorch), installs it into a fresh venv whose only other package is
# torch==2.13.0, and from a folder outside the checkout holds examples/python_plain/train.py to the
# laws with the installed `trainproof check`: the correct loop passes (exit 0), the loop without
# zero_grad is caught by its finding id (exit 1). The installed program links no LibTorch and finds
# the installed probe (it is built to know no checkout: TRAINPROOF_FIND_BUILD_TREE=OFF).
# The torch venv is made once and kept outside the checkout, in
# ${TRAINPROOF_CACHE:-${XDG_CACHE_HOME:-~/.cache}/trainproof}/venv-torch-2.13.0; each run's fresh
# venv sees it through a .pth file.
# usage: wheel_test.sh SOURCE_DIR
# The wheel's build fetches nothing at configure time (fmt's headers are vendored in third_party/fmt).
set -euo pipefail
# One thread: under torch 2.13.0 with two, examples/python_plain's clipped grad norm parts between
# two runs now and then (1.32128286 vs 1.32128298 at step 10), which would break determinism
# here; what this test is about is the installed wheel, not that.
export OMP_NUM_THREADS=1
source=$(cd "$1" && pwd)
TORCH_VERSION=2.13.0
cache=${TRAINPROOF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/trainproof}
torch_venv=$cache/venv-torch-$TORCH_VERSION
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
problems=()
fail() { problems+=("$*"); echo "FAIL: $*"; }
since() { echo "$(($(date +%s%N) / 1000000 - $1)) ms"; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

if [ ! -f "$torch_venv/.complete" ]; then
  echo "creating $torch_venv (torch==$TORCH_VERSION; once per machine)"
  rm -rf "$torch_venv"
  mkdir -p "$cache"
  python3 -m venv "$torch_venv"
  "$torch_venv/bin/python" -m pip install -q "torch==$TORCH_VERSION"
  touch "$torch_venv/.complete"
fi
purelib='import sysconfig; print(sysconfig.get_path("purelib"))'
torch_site=$("$torch_venv/bin/python" -c "$purelib")

# A fresh venv, torch from the cached one, nothing else.
venv=$tmp/venv
python3 -m venv "$venv"
echo "$torch_site" >"$("$venv/bin/python" -c "$purelib")/torch_from_cache.pth"
"$venv/bin/python" -W ignore -c 'import torch' >"$tmp/torch.log" 2>&1 ||
  { echo "FAIL: the fresh venv does not see the cached torch:"; cat "$tmp/torch.log"; exit 1; }

t0=$(now_ms)
"$venv/bin/python" -m pip wheel -q --no-deps -w "$tmp/dist" "$source" >"$tmp/wheel.log" 2>&1 || { echo "FAIL: building the wheel:"; tail -40 "$tmp/wheel.log"; exit 1; }
wheel=$(ls "$tmp"/dist/trainproof-*.whl)
echo "built $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KiB) in $(since "$t0")"
t0=$(now_ms)
"$venv/bin/python" -m pip install -q "$wheel" >"$tmp/install.log" 2>&1 ||
  { echo "FAIL: pip install of the wheel:"; cat "$tmp/install.log"; exit 1; }
echo "pip install: $(since "$t0")"

installed=$venv/bin/trainproof
if ldd "$installed" | grep -E 'libtorch|libc10'; then fail "the installed trainproof links LibTorch"; fi
if grep -qF "$source" "$installed"; then fail "the installed trainproof names the checkout's folder"; fi
version=$("$venv/bin/python" -m trainproof --version) || fail "python -m trainproof --version exited $?"
[[ $version == "trainproof "* ]] || fail "python -m trainproof --version printed '$version'"

# As a team runs it: from its own folder, the venv's python and trainproof on PATH, nothing of
# trainproof's set in the environment.
mkdir -p "$tmp/team"
cp "$source/examples/python_plain/train.py" "$tmp/team/"
run_check() {  # run_check NAME ARGS...: exit status in $rc, output in $tmp/NAME.{out,err}
  local name=$1
  shift
  t0=$(now_ms)
  rc=0
  (cd "$tmp/team" && env -u PYTHONPATH -u TRAINPROOF_BIN -u TRAINPROOF_PYTHON_DIR -u TRAINPROOF_GOLDEN_PROBE \
    PATH="$venv/bin:$PATH" trainproof check "$@" >"$tmp/$name.out" 2>"$tmp/$name.err") || rc=$?
  echo "check ($name): exit $rc in $(since "$t0")"
}

run_check correct -- python train.py --out '{run_dir}'
if [ "$rc" -ne 0 ] || ! grep -q "recorded by the probe" "$tmp/correct.err"; then
  fail "check of the correct loop: exit $rc (want 0, the steps recorded by the installed probe)"
  cat "$tmp/correct.out" "$tmp/correct.err"
fi

run_check no-zero-grad --runs 1 -- python train.py --out '{run_dir}' --mistake no-zero-grad
if [ "$rc" -ne 1 ] || ! grep -qF "[zero-grad-missing]" "$tmp/no-zero-grad.out"; then
  fail "check of the loop without zero_grad: exit $rc (want 1, naming [zero-grad-missing])"
  cat "$tmp/no-zero-grad.out" "$tmp/no-zero-grad.err"
fi

if ((${#problems[@]})); then
  echo "0 passed, 1 failed"
  exit 1
fi
echo "1 passed, 0 failed"
