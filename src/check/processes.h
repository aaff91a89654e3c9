// A run of the command as its processes recorded it: each process its own trace (the probe's
// identity: the command's own, torchrun's ranks, multiprocessing's workers). The laws hold the
// primary process's trace as before; determinism is judged process by process.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/check/check_laws.h"
#include "trainproof/core/recorded_trace.h"
#include "trainproof/verdict/outcome.h"

namespace trainproof {

struct ProcessRun {
  std::string primary;                          // the identity whose trace the laws hold ("" or "rank0" first)
  std::map<std::string, RecordedTrace> traces;  // every process that recorded, by identity
  const RecordedTrace& main() const { return traces.at(primary); }
};

// Reads every process's trace of a run. The primary is the command's own process (or rank 0)
// where it recorded a step, else the first process (by identity) that did. BadInput, saying what
// the probe saw, where no process recorded a step.
ProcessRun read_process_run(const std::filesystem::path& trace);

// A process's name as the report says it: "rank 1", "process proc2"; "" for the command's own.
std::string process_name(const std::string& identity);

// Where two runs' processes first part: the process that departs at the earliest step, named,
// and where; "" where every process is bitwise equal in both.
std::string first_process_difference(const ProcessRun& a, const ProcessRun& b);

// The processes that trained one model in shared memory (Hogwild: each stepped an optimizer
// over parameters in shared memory), by identity; empty where fewer than two did.
std::vector<std::string> shared_model_processes(const ProcessRun& run);

// Where a process other than the primary departs first in the preempted run: the process, the
// step, and the missing state named there (its findings, each detail naming the process). A rank
// that resumed with another rank's state departs before the others, which depart only after the
// gradients it all-reduced: the first to depart is the one whose state names the cause.
struct ProcessDeparture {
  std::string who;
  int64_t step = 0;
  std::vector<Finding> findings;
};
std::optional<ProcessDeparture> first_process_departure(const ProcessRun& straight, const PreemptedRun& preempted);

}  // namespace trainproof
