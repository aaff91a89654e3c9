// The `trainproof` command line: list, run, verify, regen, tolerances, compare, check,
// ddp-check, lr-curve (and the internal record and ddp-worker); built without LibTorch, compare,
// check and mutate. A training repository that registers its own scenarios links this and calls
// it from main().
#pragma once

#include <functional>
#include <vector>

namespace CLI {
class App;
}

namespace trainproof {

// A subcommand a program adds to the CLI. The trainproof executable adds the ones that are
// not part of the installed library: its demo workload (train textclf, preempt) and bench.
struct CliCommand {
  std::function<CLI::App*(CLI::App& app)> add;  // declares it and its options; returns it
  std::function<int()> run;                     // runs it when it was the subcommand given
};

// Returns the process exit code (errors.h): 0 all pass, 1 mismatch or broken invariant,
// 2 bad input, 3 internal error.
// Goldens are read from --golden, else $TRAINPROOF_GOLDEN_DIR, else `default_golden_dir`
// (when null: this project's own golden/ folder).
// `extra`: the program's own subcommands (errors they throw get the same exit codes).
int cli_main(int argc, char** argv, const char* default_golden_dir = nullptr,
             const std::vector<CliCommand>& extra = {});

}  // namespace trainproof
