// The `trainproof` command line: list, run, verify, regen, tolerances, compare, bench,
// lr-curve, train, preempt (and the internal record and ddp-worker). A training
// repository that registers its own scenarios links this and calls it from main().
#pragma once

namespace trainproof {

// Returns the process exit code (errors.h): 0 all pass, 1 mismatch or broken invariant,
// 2 bad input, 3 internal error.
// Goldens are read from --golden, else $TRAINPROOF_GOLDEN_DIR, else `default_golden_dir`
// (when null: this project's own golden/ folder).
int cli_main(int argc, char** argv, const char* default_golden_dir = nullptr);

}  // namespace trainproof
