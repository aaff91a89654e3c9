#!/usr/bin/env bash
# The band lane and the golden's verdict, on the C++ example loop (a start takes a second):
#  - with unseeded gradient noise (GPU atomics, standing in) its runs differ: determinism is
#    advice; a band of 5 runs holds 3 fresh ones; a 10% lr change leaves it, named at its step,
#    and raises the final lr by Welch's test;
#  - negative control: a band made too wide (--band-k 1e6) lets the lr change through;
#  - a band over seeds (--seed-arg) holds fresh seeds;
#  - an exact golden, checked in another environment (ATEN_CPU_CAPABILITY=default, which every
#    CPU offers): held by the unchanged loop as environment drift; a planted change there is
#    "both"; the same planted change in the golden's environment is a code change.
#   check_band_test.sh TRAINPROOF_BIN LOOP
set -uo pipefail
bin=$1 loop=("$2" --run-dir '{run_dir}')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=$tmp/out.log
source "$(dirname "$0")/support/check_expect.sh"
# Unseeded noise: the runs differ, and determinism is advice.
expect 0 "a band of 3 runs with unseeded noise" --regen --band --runs 3 --golden "$tmp/unseeded.h5" -- --noise 0.05
says "^advice   determinism" "determinism is not advice in the band lane"
says "runs 1 and 2 differ" "the noisy runs did not differ: the planted nondeterminism is gone"

# Seeded noise (a seed per run): the same noise on every machine, so no outcome below is chance.
band=$tmp/band.h5 noisy=(--seed-arg '--noise-seed {seed}')
expect 0 "a band of 5 noisy runs" --regen --band --runs 5 --golden "$band" "${noisy[@]}" -- --noise 0.05
says "a band of 5 runs over --noise-seed \{seed\} \(seeds 0..4\); held at k = 19.8 spreads by default, family-wise \
alpha 0.01 over 180 steps x series" "the band's runs, seeds and default k are not stated"

expect 0 "fresh noisy runs" --golden "$band" --runs 3 "${noisy[@]}" -- --noise 0.05
says "^held     the band: every run within 19.8 spreads" "fresh runs are not held by the band"
says "^held     the final loss" "the final loss' test is not reported held"
says "'loss': the golden's mean .*one-sided p = " "the t-test's statistic and p are not reported"

expect 1 "a 10% lr change" --golden "$band" --runs 3 "${noisy[@]}" -- --noise 0.05 --lr 3.3e-3
says "^BROKEN   the band" "the lr change stays inside the band"
says "run 1 of 3 leaves it: 'lr' at step 1: 0.00055" "the band's break does not name the series and step"

expect 0 "control: a band 1e6 spreads wide" --golden "$band" --runs 3 --band-k 1e6 "${noisy[@]}" -- --noise 0.05 --lr 3.3e-3
says "^held     the band: every run within 1e\+06 spreads" "a band 1e6 spreads wide still catches the lr change"

expect 0 "a band over model seeds" --regen --band --runs 4 --seed-arg '--seed {seed}' --golden "$tmp/seeds.h5"
expect 0 "fresh model seeds" --golden "$tmp/seeds.h5" --runs 2 --seed-arg '--seed {seed}'
says "run 1 of 2 \(seed 4\)" "the runs that hold a band do not take the seeds after its own"

head -c 2000 "$band" >"$tmp/truncated.h5"
expect 2 "a truncated band golden" --golden "$tmp/truncated.h5" --runs 2
says "truncated.h5: " "the truncated band golden is not named"

exact=$tmp/exact.h5
# (Its envelope from the paths that differ in ATen's capability: this CPU's own and the generic
# one, which every CPU offers; "another environment" is the generic one.)
expect 0 "an exact golden" --regen --golden "$exact" --path-set native,aten-default
ATEN_CPU_CAPABILITY=default expect 0 "the unchanged loop, another environment" --golden "$exact" --runs 1
says "Verdict: environment drift: the environment differs from the golden's \(cpu_capability\)" "no drift verdict"
ATEN_CPU_CAPABILITY=default expect 1 "a planted change, another environment" --golden "$exact" --runs 1 -- --dropout 0.2
says "Verdict: both: the environment differs .* beyond the cross-machine envelope" "no 'both' verdict"
expect 1 "a planted change, the golden's environment" --golden "$exact" --runs 1 -- --dropout 0.2
says "Verdict: code change: the environment is the golden's" "no code-change verdict"
# ci/gate.sh prints the accept command for a code change only.
gate=$(cd "$(dirname "$0")/.." && pwd)/ci/gate.sh
TRAINPROOF_BIN=$bin ATEN_CPU_CAPABILITY=default bash "$gate" check --golden "$exact" --runs 1 -- "${loop[@]}" \
  --dropout 0.2 >"$log" 2>&1
says "No accept command is printed" "the gate does not say why it prints no accept command for 'both'"
grep -q -- "check --regen" "$log" && fail "the gate prints an accept command for 'both'"
TRAINPROOF_BIN=$bin bash "$gate" check --golden "$exact" --runs 1 -- "${loop[@]}" --dropout 0.2 >"$log" 2>&1
says "check --regen --golden" "the gate prints no accept command for a code change"
echo "check band lane and verdicts: ok"
echo "1 passed, 0 failed"
