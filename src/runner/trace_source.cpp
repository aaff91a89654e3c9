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
      rec.status = "ok";
    } catch (const Skipped& s) {
      rec.status = "skipped";
      rec.reason = s.what();
    } catch (const std::exception& e) {
      rec.status = "error";
      rec.reason = e.what();
    }
    report_progress(progress,
                    fmt::format("{} on {}: {} ({:.2f} s)\n", def.name, device.str(), rec.status,
                                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()));
  }
  r.fingerprint = current_fingerprint(device);
  return r;
}

GoldenDraft draft_across_paths(const std::string& name, const std::vector<PathRun>& runs, const DeviceGolden* old_group,
                               GoldenDraftOptions o) {
  const Recording& reference = runs.at(0).recording.value();
  const ScenarioRecord& ref = reference.scenarios.at(name);
  if (ref.status != "ok") o.problems.push_back(fmt::format("it failed to run: {}", ref.reason));
  std::vector<std::pair<std::string, const Trace*>> others;
  for (size_t p = 0; p < runs.size(); ++p) {
    const PathRun& run = runs[p];
    const ScenarioRecord* rec = nullptr;
    if (run.recording)
      if (const auto it = run.recording->scenarios.find(name); it != run.recording->scenarios.end()) rec = &it->second;
    if (!rec) {
      o.problems.push_back(
          fmt::format("on path {} {}", run.path.name, run.recording ? "it was not recorded" : run.error));
      continue;
    }
    if (rec->status != ref.status) {  // its trace (none) measures no spread
      o.problems.push_back(fmt::format("on path {} it was {}: {}", run.path.name, rec->status, rec->reason));
      continue;
    }
    for (const auto& inv : rec->trace.invariants)
      if (!inv.held)
        o.problems.push_back(fmt::format("invariant '{}' is broken on path {}{}", inv.name, run.path.name,
                                         inv.detail.empty() ? "" : ": " + inv.detail));
    if (p > 0) others.emplace_back(run.path.name, &rec->trace);
  }
  o.old = old_group ? &old_group->trace : nullptr;
  // A golden made in another environment is one more environment this machine cannot simulate:
  // where this machine's values lie inside its envelope (the code did not change), its values
  // join the spread, so the new envelope covers that machine as well as this one.
  o.previous = old_group && is_cross_environment(fingerprint_diff(old_group->fingerprint, reference.fingerprint))
                   ? &old_group->trace
                   : nullptr;
  return draft_golden(ref.trace, others, std::move(o));
}

}  // namespace trainproof
