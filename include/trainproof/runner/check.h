// `trainproof check -- CMD [ARGS...]`: the documents' laws applied to a team's own training
// command, in any language, run the way production runs it: repeated, and SIGKILLed and
// restarted. The command records its trace through python/trainproof (or the C++ Recorder
// of core/recorded_trace.h) into $TRAINPROOF_TRACE, and keeps its checkpoints in
// $TRAINPROOF_RUN_DIR (also substituted for {run_dir} in its arguments).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace trainproof {

struct CheckOptions {
  std::vector<std::string> command;  // CMD ARGS...
  int kills = 0;                     // SIGKILLs of one run, each followed by a restart
  uint64_t seed = 0;                 // where the kills land
  std::filesystem::path keep;        // keep the runs' folders and traces here (default: a temporary folder)
  std::string json, junit, html;     // reports, as verify writes them
  double timeout_s = 600;            // per start of the command
};

// Laws, each held or broken:
//  - determinism: two uninterrupted runs record bitwise equal traces and final parameters;
//  - exact resume (--kills K): a run SIGKILLed K times (the first kill on its first write
//    into the run folder after a recorded step, found with inotify; the others at recorded
//    steps) and restarted each time ends with the uninterrupted run's trace and parameters,
//    bitwise; a restart that fails is a broken law, not a harness error.
// Exit 0 all hold, 1 one is broken, 2 bad input (the command is not found, fails on its first
// uninterrupted run, or records no trace).
int check(const CheckOptions& o);

}  // namespace trainproof
