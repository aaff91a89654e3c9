// A trace held to its golden (golden_hold.h).
#include "trainproof/verdict/golden_hold.h"

#include <algorithm>

#include <fmt/format.h>

namespace trainproof {

namespace {

std::vector<double> values_of(const Trace& t, const std::string& name) {
  const Series* s = t.find(name);
  if (!s) return {};
  std::vector<double> v(s->size());
  for (size_t i = 0; i < v.size(); ++i) v[i] = s->at(i);
  return v;
}

}  // namespace

ReportEntry series_entry(const std::string& scenario, const std::string& dev, const SeriesComparison& c, bool cross,
                         const Trace& golden, const Trace& observed) {
  ReportEntry e(scenario, dev, EntryKind::kSeries, c.series, status_of(c.verdict), c.tolerance, c.detail);
  e.golden = values_of(golden, c.series);
  e.observed = values_of(observed, c.series);
  e.max_abs = c.max_abs;
  e.max_rel = c.max_rel;
  e.max_ulp = c.max_ulp;
  e.first_divergence = c.first_divergence;
  e.cross_environment = cross;
  return e;
}

GoldenHold hold_to_golden(const std::string& scenario, const std::string& dev, const Trace& golden,
                          const Trace& observed, bool cross) {
  GoldenHold h;
  const auto outside = [](const std::vector<SeriesComparison>& cs) {
    return std::any_of(cs.begin(), cs.end(), [](const SeriesComparison& c) { return !c.passed(); });
  };
  const auto held = compare_traces(golden, observed, cross);
  for (const auto& c : held) {
    h.rows.push_back(series_entry(scenario, dev, c, cross, golden, observed));
    if (c.passed()) continue;
    if (h.failed++ == 0) h.first_failure = fmt::format("'{}' {}: {}", c.series, verdict_name(c.verdict), c.detail);
  }
  h.beyond_exact = cross ? outside(compare_traces(golden, observed, false)) : h.failed > 0;
  h.beyond_envelope = cross ? h.failed > 0 : outside(compare_traces(golden, observed, true));
  return h;
}

}  // namespace trainproof
