// See processes.h: a run's processes, each judged by its own trace.
#include "src/check/processes.h"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/check/check_laws.h"
#include "src/check/probe_findings.h"
#include "trainproof/core/errors.h"

namespace trainproof {

namespace {

bool recorded_steps(const RecordedTrace& t) {
  return !t.steps.empty() || !t.params.empty();
}

// What the probe saw of a command none of whose processes recorded a step (its "probe-saw" facts).
std::string what_was_seen(const std::map<std::string, RecordedTrace>& traces) {
  for (const auto& [who, t] : traces)
    for (const auto& f : t.facts)
      if (f.fact == "probe-saw") {
        const auto get = [&](const char* k) { return f.data.count(k) ? f.data.at(k) : std::string("0"); };
        return fmt::format(
            "the probe saw {} import torch, call backward() {} time(s) and make {} optimizer(s), but no step: "
            "neither an optimizer's step() nor an update of the parameters a backward reached",
            who.empty() ? std::string("the command") : process_name(who), get("backwards"), get("optimizers"));
      }
  return "no process of the command called backward() or stepped an optimizer, and none recorded through "
         "trainproof.Recorder";
}

}  // namespace

std::string process_name(const std::string& identity) {
  if (identity.empty()) return "";
  if (identity.rfind("rank", 0) == 0 && identity.find('.') == std::string::npos) return "rank " + identity.substr(4);
  return "process " + identity;
}

ProcessRun read_process_run(const std::filesystem::path& trace) {
  ProcessRun run;
  run.traces = read_process_traces(trace);
  for (const char* first : {"", "rank0"})
    if (run.traces.count(first) && recorded_steps(run.traces.at(first))) {
      run.primary = first;
      return run;
    }
  for (const auto& [who, t] : run.traces)
    if (recorded_steps(t)) {
      run.primary = who;
      return run;
    }
  throw BadInput(fmt::format(
      "check: the uninterrupted run holds no record: {} (a Python command is recorded by the probe once it imports "
      "torch and trains a step; a command in another language calls trainproof.Recorder().log(step, ...) once per "
      "step)",
      what_was_seen(run.traces)));
}

std::string first_process_difference(const ProcessRun& a, const ProcessRun& b) {
  std::string first;
  int64_t first_step = INT64_MAX;
  for (const auto& [who, x] : a.traces) {
    const auto it = b.traces.find(who);
    std::string diff;
    int64_t step = INT64_MAX - 1;
    if (it == b.traces.end()) {
      if (!recorded_steps(x)) continue;
      diff = "it recorded in the first run only";
    } else {
      diff = first_difference(x, it->second);
      if (diff.empty()) diff = first_probe_difference(x, it->second);
      if (const int64_t s = first_probe_step_difference(x, it->second); s > 0) step = s;
    }
    if (diff.empty() || step >= first_step) continue;
    first_step = step;
    first = a.traces.size() > 1 && !who.empty() ? fmt::format("{} departs first: {}", process_name(who), diff) : diff;
  }
  for (const auto& [who, y] : b.traces)
    if (!a.traces.count(who) && recorded_steps(y) && first.empty())
      first = fmt::format("{} recorded in the second run only", process_name(who));
  return first;
}

std::vector<std::string> shared_model_processes(const ProcessRun& run) {
  std::vector<std::string> out;
  for (const auto& [who, t] : run.traces)
    if (std::any_of(t.facts.begin(), t.facts.end(),
                    [](const ProbeFact& f) { return f.fact == "params-in-shared-memory"; }))
      out.push_back(who);
  if (out.size() < 2) out.clear();
  return out;
}

std::optional<ProcessDeparture> first_process_departure(const ProcessRun& straight, const PreemptedRun& preempted) {
  if (straight.traces.size() < 2 || preempted.trace_env.empty()) return std::nullopt;
  std::optional<ProcessDeparture> first;
  for (auto& [who, resumed] : read_process_traces(preempted.trace_env)) {
    if (who == straight.primary || !straight.traces.count(who) || resumed.probe.empty()) continue;
    if (resumed.steps_from_probe) renumber_steps(resumed, preempted.aligned);
    const auto departure = first_departure(straight.traces.at(who), resumed, preempted.aligned);
    if (!departure || (first && departure->step >= first->step)) continue;
    first = ProcessDeparture{who, departure->step, diagnose_resume(resumed, *departure)};
    for (auto& f : first->findings) f.detail = fmt::format("{}: {}", process_name(who), f.detail);
  }
  return first;
}

}  // namespace trainproof
