#!/usr/bin/env bash
# Cold-build time of revisions, side by side in one run: for each REV, a fresh clone built by
# tools/bootstrap.sh with ccache disabled (the venv and the CUDA toolkit folder are reused
# from the cache; they are not part of the build). The figure is the span of the build's
# .ninja_log: the first step's start to the last step's end, the default target set (the
# AOTInductor export included).
#   bench/cold_build.sh REV [REV...]     e.g. bench/cold_build.sh main~5 HEAD
set -u
src=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for rev in "$@"; do
  sha=$(git -C "$src" rev-parse --short "$rev") || exit 2
  git clone -q "$src" "$work/$sha" && git -C "$work/$sha" checkout -q "$sha" || exit 2
  start=$(date +%s)
  (cd "$work/$sha" && CCACHE_DISABLE=1 TRAINPROOF_CMAKE_ARGS=-DTRAINPROOF_WERROR=ON tools/bootstrap.sh) \
    >"$work/$sha.log" 2>&1
  rc=$?
  wall=$(($(date +%s) - start))
  [ "$rc" -eq 0 ] || { echo "$rev ($sha): bootstrap failed (exit $rc):"; tail -20 "$work/$sha.log"; exit 1; }
  python3 - "$work/$sha/build/.ninja_log" "$rev ($sha)" "$wall" <<'PY'
import sys
rows = [l.split("\t") for l in open(sys.argv[1]) if not l.startswith("#")]
start = [int(r[0]) for r in rows]
end = [int(r[1]) for r in rows]
busy = sum(e - s for s, e in zip(start, end)) / 1000
print(f"{sys.argv[2]}: cold build {(max(end) - min(start)) / 1000:.0f} s ({len(rows)} steps, {busy:.0f} s of "
      f"steps), bootstrap {sys.argv[3]} s")
PY
  rm -rf "${work:?}/$sha"  # a build folder is gigabytes
done
