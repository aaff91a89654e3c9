// The runs check made, as its report plots them (check_laws.h): a plot per recorded scalar, a
// line per run, the kills, the restarts, the first departure and the findings marked.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <string>

#include "src/check/check_laws.h"

namespace trainproof {

namespace {

// The run's value of `series` at each of `steps`; NaN where it has none.
std::vector<double> values_at(const RecordedTrace& run, const std::string& series, const std::vector<int64_t>& steps) {
  std::vector<double> out;
  for (const int64_t step : steps) {
    const auto v = run.steps.find(step);
    out.push_back(v != run.steps.end() && v->second.count(series) ? v->second.at(series)
                                                                  : std::numeric_limits<double>::quiet_NaN());
  }
  return out;
}

// The first step at which `run` records a scalar other than the uninterrupted run's, bitwise.
int64_t first_value_departure(const RecordedTrace& straight, const RecordedTrace& run) {
  for (const auto& [step, values] : straight.steps) {
    const auto other = run.steps.find(step);
    if (other == run.steps.end()) continue;
    for (const auto& [name, v] : values) {
      const auto w = other->second.find(name);
      if (w != other->second.end() && std::memcmp(&v, &w->second, sizeof v) != 0) return step;
    }
  }
  return -1;
}

}  // namespace

std::vector<RunPlot> run_plots(const RecordedTrace& straight, const RecordedTrace* again, const PreemptedRun* preempted,
                               const std::vector<Finding>& findings) {
  std::vector<int64_t> steps;
  std::set<std::string> names;
  for (const auto& [step, values] : straight.steps) {
    steps.push_back(step);
    for (const auto& [name, v] : values) names.insert(name);
  }
  std::set<std::pair<int64_t, std::string>> marks;
  for (const auto& f : findings)
    if (f.step >= 0) marks.insert({f.step, f.id});
  std::vector<RunPlot> plots;
  for (const auto& name : names) {
    RunPlot& p = plots.emplace_back();
    p.series = name;
    p.steps = steps;
    p.lines.push_back({"uninterrupted", values_at(straight, name, steps)});
    if (again) p.lines.push_back({"uninterrupted again", values_at(*again, name, steps)});
    if (preempted && !preempted->trace.steps.empty()) {
      p.lines.push_back({"killed and restarted", values_at(preempted->trace, name, steps)});
      p.kills = preempted->kills;
      p.restarts = preempted->restarts;
      p.departure =
          preempted->departure >= 0 ? preempted->departure : first_value_departure(straight, preempted->trace);
    }
    for (const auto& [step, id] : marks) p.findings.push_back({step, id});
  }
  return plots;
}

}  // namespace trainproof
