// The `trainproof` command line: list, run, verify, regen, lr-curve. A training
// repository that registers its own scenarios links this and calls it from main().
#pragma once

namespace trainproof {

// Returns the process exit code: 0 all pass, 1 mismatch or broken invariant, 2 bad input.
// Goldens are read from --golden, else $TRAINPROOF_GOLDEN_DIR, else `default_golden_dir`
// (when null: this project's own golden/ folder).
int cli_main(int argc, char** argv, const char* default_golden_dir = nullptr);

}  // namespace trainproof
