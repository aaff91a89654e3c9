// `trainproof preempt`: proves with real SIGKILLs that the textclf loop loses nothing. It
// runs `trainproof train textclf` as a child process, kills it at random moments (some of
// them while a checkpoint is being written), restarts it until it finishes, and compares
// the final parameters, optimizer state and best-checkpoint metrics bitwise with an
// uninterrupted run.
#pragma once

#include <cstdint>
#include <string>

namespace trainproof {

struct PreemptOptions {
  int trials = 10;
  uint64_t seed = 0;
  std::string sabotage = "none";
  int64_t steps = 400;
  int64_t ckpt_every = 25;
  std::string corpus;  // empty: train's default
};

// Prints one line per trial and `preempt: K/N bitwise identical`; 0 iff K == N.
int run_preempt(const PreemptOptions& o);

}  // namespace trainproof
