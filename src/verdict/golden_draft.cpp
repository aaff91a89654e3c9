// Drafting a golden group, the one way regen and check --regen do it (golden_draft.h): each
// series' cross-environment tolerance from its spread across execution paths, what it
// changes against the old golden, its tolerance row, and the one refusal rule.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/core/envelope.h"
#include "trainproof/core/dtype.h"
#include "trainproof/verdict/golden_draft.h"

namespace trainproof {

namespace {

// The path name under which a previous golden from another machine joins the spread.
constexpr const char* kPreviousGoldenPath = "previous-golden";

std::string spread_text(const Series& s) {
  if (!s.provenance) return s.cross.is_any() ? "informational" : "not measured";
  const Provenance& p = *s.provenance;
  if (p.differing.empty()) return "bitwise equal on every path";
  return fmt::format("spread {} (rel {}) on {}", short_num(p.spread_abs), short_num(p.spread_rel), p.differing);
}

// The problems of series beyond their ceilings; draft_golden's first step.
std::vector<std::string> measure_envelope(Trace& fresh, const std::vector<std::pair<std::string, const Trace*>>& paths,
                                          double factor, const Trace* previous) {
  std::vector<std::string> problems;
  for (auto& s : fresh.series) {
    std::vector<PathSeries> others;
    for (const auto& [path, trace] : paths) others.push_back({path, trace->find(s.name)});
    const Series* before = previous ? previous->find(s.name) : nullptr;
    if (before && compare_series_with(*before, s, before->cross).passed())
      others.push_back({kPreviousGoldenPath, before});
    if (!measure_cross_tolerance(s, others, factor))
      problems.push_back(fmt::format("series '{}' moves by {} on paths {} (x{} safety factor), beyond its ceiling {}",
                                     s.name, short_num(s.provenance->spread_abs), s.provenance->beyond, factor,
                                     ceiling_of(s).str()));
  }
  return problems;
}

std::vector<RegenChange> describe_changes(const Trace* old_trace, const Trace& fresh, const std::string& scenario,
                                          const std::string& dev) {
  std::vector<RegenChange> changes;
  for (const auto& s : fresh.series) {
    const Series* old = old_trace ? old_trace->find(s.name) : nullptr;
    RegenChange ch{scenario, dev, s.name, "new", s.size(), 0, 0, "", "", ""};
    if (!old) {
      ch.what = fmt::format("new ({} values, {})", s.size(), dtype_name(s.produced));
    } else {
      const auto c = compare_series_with(*old, s, Tolerance::exact());
      ch.change = c.passed() ? "unchanged" : "changed";
      ch.changed_values = c.divergent;
      ch.max_rel = c.max_rel;
      ch.detail = c.detail;
      if (c.passed()) {
        ch.what = "unchanged";
      } else if (c.verdict == Verdict::kFail) {
        ch.what =
            fmt::format("changed: {} of {} values, max abs {}, max rel {}, max ulp {}, first at [{}]: {:.9g} -> {:.9g}",
                        c.divergent, c.golden_size, short_num(c.max_abs), short_num(c.max_rel), c.max_ulp,
                        c.first_divergence, c.golden_value, c.observed_value);
      } else {
        ch.what = "changed: " + c.detail;
      }
      if (old->cross != s.cross) ch.what += fmt::format("; cross tolerance {} -> {}", old->cross.str(), s.cross.str());
    }
    ch.cross = fmt::format("{}: {}", s.cross.str(), spread_text(s));
    changes.push_back(std::move(ch));
  }
  if (old_trace)
    for (const auto& s : old_trace->series)
      if (!fresh.find(s.name)) changes.push_back({scenario, dev, s.name, "removed", s.size(), 0, 0, "", "removed", ""});
  return changes;
}

}  // namespace

void add_tolerance_rows(const std::string& scenario, const std::string& dev, const Trace& t,
                        std::vector<ToleranceRow>& rows) {
  for (const auto& s : t.series) {
    ToleranceRow r{scenario, dev, s.name, std::string(dtype_name(s.produced)), s.cross.str(), "", 0, "", 0};
    if (s.provenance) {
      r.spread_rel = s.provenance->spread_rel;
      r.differing = s.provenance->differing;
      r.provenance = fmt::format("spread {} x {} (floor {}, ceiling {})", short_num(s.provenance->spread_abs),
                                 s.provenance->factor, s.provenance->floor, ceiling_of(s).str());
    } else {
      r.provenance = s.cross.is_any() ? "informational" : "declared (schema 1: not measured)";
    }
    r.catches = smallest_caught_change(s, s.cross);
    rows.push_back(std::move(r));
  }
}

GoldenDraft draft_golden(Trace fresh, const std::vector<std::pair<std::string, const Trace*>>& paths,
                         GoldenDraftOptions o) {
  GoldenDraft d;
  d.problems = std::move(o.problems);
  for (auto& p : measure_envelope(fresh, paths, o.safety_factor, o.previous)) d.problems.push_back(p + o.ceiling_hint);
  for (auto& s : fresh.series)
    if (std::any_of(s.values.begin(), s.values.end(), [](double v) { return std::isnan(v); }))
      s.cross = s.cross.nan_ok();  // a scalar some steps do not log
  d.changes = describe_changes(o.old, fresh, o.scenario, o.device);
  add_tolerance_rows(o.scenario, o.device, fresh, d.tolerances);
  d.refused = refuses_golden(d.problems, o.force);
  fresh.invariants.clear();
  d.trace = std::move(fresh);
  return d;
}

bool refuses_golden(const std::vector<std::string>& problems, bool force) {
  return !problems.empty() && !force;
}

std::string forced_problems(const std::vector<std::string>& problems) {
  return fmt::format("{}", fmt::join(problems, "\n"));
}

GoldenDraft draft_across_paths(const std::vector<PathTrace>& paths, const Fingerprint& here,
                               const DeviceGolden* old_group, GoldenDraftOptions o) {
  const PathTrace& ref = paths.at(0);
  if (ref.status != RunStatus::kOk) o.problems.push_back(fmt::format("it failed to run: {}", ref.reason));
  std::vector<std::pair<std::string, const Trace*>> others;
  for (size_t p = 0; p < paths.size(); ++p) {
    const PathTrace& path = paths[p];
    if (!path.missing.empty()) {
      o.problems.push_back(fmt::format("on path {} {}", path.path, path.missing));
      continue;
    }
    if (path.status != ref.status) {  // its trace (none) measures no spread
      o.problems.push_back(
          fmt::format("on path {} it was {}: {}", path.path, run_status_text(path.status), path.reason));
      continue;
    }
    if (!path.trace) continue;
    for (const auto& inv : path.trace->invariants)
      if (!inv.held)
        o.problems.push_back(fmt::format("invariant '{}' is broken on path {}{}", inv.name, path.path,
                                         inv.detail.empty() ? "" : ": " + inv.detail));
    if (p > 0) others.emplace_back(path.path, path.trace);
  }
  o.old = old_group ? &old_group->trace : nullptr;
  // A golden made in another environment is one more environment this machine cannot simulate:
  // where this machine's values lie inside its envelope (the code did not change), its values
  // join the spread, so the new envelope covers that machine as well as this one.
  o.previous = old_group && is_cross_environment(fingerprint_diff(Fingerprint::parse(old_group->fingerprint), here))
                   ? &old_group->trace
                   : nullptr;
  return draft_golden(ref.trace ? *ref.trace : Trace{}, others, std::move(o));
}

}  // namespace trainproof
