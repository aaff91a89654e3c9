// Traces as JSON, bit-exact (float values travel as their IEEE-754 bit patterns): how a
// child process running one execution path hands its traces back to the parent.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "trainproof/core/trace.h"

namespace trainproof {

nlohmann::json trace_to_json(const Trace& t);
// Throws BadInput naming `where` and the problem for anything malformed.
Trace trace_from_json(const nlohmann::json& j, const std::string& where);

// What one process recorded: each scenario's trace, or why it has none.
struct ScenarioRecord {
  RunStatus status = RunStatus::kOk;
  std::string reason;  // for skipped and error
  Trace trace;         // for ok
};
struct Recording {
  std::string fingerprint;  // JSON text of the recording process's environment
  std::map<std::string, ScenarioRecord> scenarios;
};

void write_recording(const std::filesystem::path& path, const Recording& r);  // atomically
Recording read_recording(const std::filesystem::path& path);                  // BadInput on damage

}  // namespace trainproof
