#!/usr/bin/env bash
# Installs trainproof into a temporary prefix. The installed trainproof must read its own
# copies of the goldens and the compile_speed package (not the build tree's) and pass
# verify; then the example consumer (examples/consumer) builds and tests against the
# installed package, as `ctest --build-and-test` does, with one of trainproof's own scenarios
# (underflow) built from its source the way a user's scenario is.
set -euo pipefail
build=$1 source=$2 torch_dir=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null

installed=$tmp/prefix/bin/trainproof
want="golden folder: $tmp/prefix/share/trainproof/golden"
"$installed" list | grep -qxF "$want" || { echo "FAIL: installed trainproof does not read its installed goldens (want '$want'):"; "$installed" list; exit 1; }
# Single-process scenarios: the installed data are what is being checked, not the ranks.
scenarios=$("$installed" list --json | python3 -c 'import json,sys; print(" ".join(s["name"] for s in json.load(sys.stdin) if not s["multi_process"]))')
"$installed" verify $scenarios --device cpu --json "$tmp/installed.json" >"$tmp/installed.log" 2>&1 ||
  { echo "FAIL: installed trainproof verify:"; cat "$tmp/installed.log"; exit 1; }
if [ -f "$build/export/mlp_cpu.pt2" ]; then
  python3 - "$tmp/installed.json" <<'PY' || { echo "FAIL: the installed trainproof skipped compile_speed"; exit 1; }
import json, sys
results = json.load(open(sys.argv[1]))["results"]
sys.exit(any(r["scenario"] == "compile_speed" and r["status"] == "skipped" for r in results))
PY
fi
# As if the build tree were gone: the installed trainproof (and the probe it starts) must
# open nothing under the build tree or the source tree's golden/ (strace sees every open).
(cd "$tmp" && strace -f -qq -e trace=open,openat,stat,newfstatat,access,execve -o "$tmp/files.log" \
  "$installed" verify underflow compile_speed --device cpu) >"$tmp/traced.log" 2>&1 ||
  { echo "FAIL: installed trainproof verify under strace:"; cat "$tmp/traced.log"; exit 1; }
if grep -E "\"($build|$source/golden)/" "$tmp/files.log" >"$tmp/touched.log"; then
  echo "FAIL: the installed trainproof reached into the build tree or the source goldens:"; head -20 "$tmp/touched.log"; exit 1
fi
grep -q "\"$tmp/prefix/share/trainproof/golden/underflow.h5\"" "$tmp/files.log" ||
  { echo "FAIL: strace did not see the installed golden being read (is strace working?)"; exit 1; }
echo "installed trainproof: verify passed from $tmp/prefix, reading nothing of the build tree"

# Compiled through ccache when it is there, from copies of the sources in this temporary folder
# and with paths relative to it, so a second run (another clone, another temporary folder)
# compiles nothing that has not changed.
launcher=()
mkdir -p "$tmp/src"
cp -r "$source/examples/consumer" "$source/examples/cpp_loop" "$source/scenarios/underflow.cpp" "$tmp/src/"
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR=$tmp CCACHE_NOHASHDIR=true CCACHE_SLOPPINESS=include_file_mtime,include_file_ctime
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
ctest --build-and-test "$tmp/src/consumer" "$tmp/build" --build-generator Ninja \
  --build-options -DCMAKE_PREFIX_PATH="$tmp/prefix" -DTorch_DIR="$torch_dir" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
  -DTRAINPROOF_OWN_SCENARIO="$tmp/src/underflow.cpp" -DTRAINPROOF_OWN_GOLDEN_DIR="$source/golden" \
  --test-command ctest --output-on-failure
ctest --test-dir "$tmp/build" -N >"$tmp/consumer_tests.txt"
grep -q "own_scenario.verify" "$tmp/consumer_tests.txt" ||
  { echo "FAIL: trainproof's own scenario was not built against the installed package"; exit 1; }

# The C++ example loop, as a team's own LibTorch loop is built: against the installed package,
# linking trainproof::training only; the installed trainproof then holds it to the laws.
cmake -S "$tmp/src/cpp_loop" -B "$tmp/cpp_loop" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" -DTorch_DIR="$torch_dir" "${launcher[@]}" >"$tmp/cpp_loop.log" 2>&1 &&
  cmake --build "$tmp/cpp_loop" >>"$tmp/cpp_loop.log" 2>&1 ||
  { echo "FAIL: examples/cpp_loop does not build against the installed package:"; tail -30 "$tmp/cpp_loop.log"; exit 1; }
"$installed" check --kills 1 -- "$tmp/cpp_loop/cpp_loop" --run-dir '{run_dir}' >"$tmp/cpp_check.log" 2>&1 ||
  { echo "FAIL: installed trainproof check on the installed-package cpp_loop:"; cat "$tmp/cpp_check.log"; exit 1; }
echo "examples/cpp_loop: built against the installed package; check holds its laws"
