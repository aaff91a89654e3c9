#!/usr/bin/env bash
# What a band golden catches, by how many runs it stands on, side by side in one run: on the
# C++ example loop with unseeded gradient noise (GPU atomics, standing in), a band of N runs
# (N = 5 and 10) is held R times (default 4) by 3 fresh runs of the loop with its weight decay
# changed by each factor. Each cell counts how often a fresh run left the band and how often the
# final loss' t-test said it rose. Weight decay changes nothing at step 1 (the first loss and
# every logged lr stay the same): what catches it is the band's width against the noise, or
# the t-test. The row of factor 1 is the unchanged loop: its counts are false alarms.
#   bench/band_power.sh [REPEATS] [TRAINPROOF_BIN] [CPP_LOOP]        (defaults: 4, build/)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
repeats=${1:-4} bin=${2:-$root/build/trainproof} loop=${3:-$root/build/examples/cpp_loop/cpp_loop}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
runs=(5 10)
factors=(1 1.5 2 3 5 10 30)
for n in "${runs[@]}"; do
  "$bin" check --regen --band --runs "$n" --golden "$tmp/band$n.h5" -- "$loop" --run-dir '{run_dir}' --noise 0.05 \
    >"$tmp/regen$n.log" 2>&1 || { echo "band of $n runs failed:"; cat "$tmp/regen$n.log"; exit 3; }
done
cell() {  # cell N FACTOR: "band B/R, t-test T/R" over REPEATS holds of 3 fresh runs
  local wd band=0 loss=0 r
  wd=$(python3 -c "print(0.01 * $2)")
  for ((r = 0; r < repeats; r++)); do
    "$bin" check --golden "$tmp/band$1.h5" --runs 3 -- "$loop" --run-dir '{run_dir}' --noise 0.05 \
      --weight-decay "$wd" >"$tmp/hold.log" 2>&1
    grep -q "^BROKEN   the band" "$tmp/hold.log" && band=$((band + 1))
    grep -q "^BROKEN   the final loss" "$tmp/hold.log" && loss=$((loss + 1))
  done
  printf 'band %d/%d, t %d/%d' "$band" "$repeats" "$loss" "$repeats"
}
printf '%-16s' "weight decay x"
for n in "${runs[@]}"; do printf '%-24s' "N = $n ($(grep -o 'k = [0-9.]*' "$tmp/regen$n.log"))"; done
echo
for f in "${factors[@]}"; do
  printf '%-16s' "$f"
  for n in "${runs[@]}"; do printf '%-24s' "$(cell "$n" "$f")"; done
  echo
done
echo "(band: holds in which a fresh run left the band; t: holds in which the final loss rose, one-sided Welch p < 0.05)"
