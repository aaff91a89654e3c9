// Scenarios recorded in this process, and a golden drafted from every path's traces (trace_source.h).
#include "src/runner/trace_source.h"

#include <chrono>

#include <fmt/format.h>

#include "trainproof/runner/fingerprint.h"

namespace trainproof {

Recording record_here(const std::vector<ScenarioDef>& defs, c10::Device device, const ProgressSink& progress) {
  Recording r;
  for (const auto& def : defs) {
    const auto t0 = std::chrono::steady_clock::now();
    ScenarioRecord& rec = r.scenarios[def.name];
    try {
      rec.trace = run_scenario(def, device);
      rec.status = RunStatus::kOk;
    } catch (const Skipped& s) {
      rec.status = RunStatus::kSkipped;
      rec.reason = s.what();
    } catch (const std::exception& e) {
      rec.status = RunStatus::kError;
      rec.reason = e.what();
    }
    report_progress(progress,
                    fmt::format("{} on {}: {} ({:.2f} s)\n", def.name, device.str(), run_status_text(rec.status),
                                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()));
  }
  r.fingerprint = current_fingerprint(device).json();
  return r;
}

std::vector<PathTrace> path_traces(const std::string& name, const std::vector<PathRun>& runs) {
  std::vector<PathTrace> out;
  for (const PathRun& run : runs) {
    PathTrace& p = out.emplace_back(PathTrace{run.path.name, "", RunStatus::kOk, "", nullptr});
    const ScenarioRecord* rec = nullptr;
    if (run.recording)
      if (const auto it = run.recording->scenarios.find(name); it != run.recording->scenarios.end()) rec = &it->second;
    if (!rec) {
      p.missing = run.recording ? "it was not recorded" : run.error;
      continue;
    }
    p.status = rec->status;
    p.reason = rec->reason;
    if (rec->status == RunStatus::kOk) p.trace = &rec->trace;
  }
  return out;
}

// What a recording holds of `name`, the one ladder of both verify loops: its trace, or null with
// the entry that says why (skipped, an error, not recorded) added to the report.
const Trace* recorded_trace(const std::string& name, const std::string& label, const Recording& recording,
                            VerifyReport& report) {
  const auto rec = recording.scenarios.find(name);
  if (rec == recording.scenarios.end()) {
    report.entries.emplace_back(name, label, EntryKind::kRun, "(run)", Status::kError, "", "not recorded");
    return nullptr;
  }
  switch (rec->second.status) {
    case RunStatus::kOk:
      return &rec->second.trace;
    case RunStatus::kSkipped:
      report.entries.emplace_back(name, label, EntryKind::kRun, "(all)", Status::kSkipped, "", rec->second.reason);
      return nullptr;
    case RunStatus::kError:
      break;
  }
  report.entries.emplace_back(name, label, EntryKind::kRun, "(run)", Status::kError, "", rec->second.reason);
  return nullptr;
}

}  // namespace trainproof
