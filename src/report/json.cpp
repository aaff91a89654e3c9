// The JSON report: every entry, the tally, the fingerprint notes; check's also its findings, the
// plots of its runs, the golden it wrote or refused, and where its runs are kept.
#include <cmath>

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "trainproof/report/report.h"

namespace trainproof {

namespace {

nlohmann::json number(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
}

nlohmann::json results(const std::vector<ReportEntry>& entries) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& e : entries) {
    nlohmann::json x = {{"scenario", e.scenario},          {"device", e.device},
                        {"kind", entry_kind_text(e.kind)}, {"name", e.name},
                        {"status", status_text(e.status)}, {"detail", e.detail}};
    if (e.kind == EntryKind::kSeries) {
      x["tolerance"] = e.tolerance;
      x["cross_environment"] = e.cross_environment;
      x["max_abs"] = number(e.max_abs);
      x["max_rel"] = number(e.max_rel);
      x["max_ulp"] = e.max_ulp;
      x["first_divergence"] = e.first_divergence;
    }
    out.push_back(x);
  }
  return out;
}

void put_tally(nlohmann::json& j, const Tally& n) {
  j["passed"] = n.passed;
  j["failed"] = n.failed;
  j["skipped"] = n.skipped;
}

std::string json_of(const VerifyReport& r) {
  nlohmann::json j;
  j["command"] = report_kind_text(r.kind);
  for (const auto& [name, value] : r.context) j["context"][name] = value;
  j["seconds"] = r.seconds;
  if (r.document_lines > 0)
    j["document_lines"] = {{"total", r.document_lines},
                           {"printed_exactly", r.document_lines_equal},
                           {"within_last_digit", r.document_lines_last_digit}};
  j["fingerprint_differences"] = r.fingerprint_notes;
  j["verdicts"] = r.verdicts;
  j["results"] = results(r.entries);
  put_tally(j, tally(r.entries));
  j["devices_not_verified"] = r.unverified_devices;
  return j.dump(2) + "\n";
}

nlohmann::json json_of(const CheckGoldenWrite& g) {
  nlohmann::json changes = nlohmann::json::array(), tolerances = nlohmann::json::array();
  for (const auto& c : g.changes)
    changes.push_back({{"series", c.series},
                       {"change", c.change},
                       {"values", c.values},
                       {"changed_values", c.changed_values},
                       {"max_rel", number(c.max_rel)},
                       {"what", c.what},
                       {"cross", c.cross}});
  for (const auto& t : g.tolerances)
    tolerances.push_back({{"series", t.series},
                          {"dtype", t.dtype},
                          {"cross", t.cross},
                          {"provenance", t.provenance},
                          {"spread_rel", number(t.spread_rel)},
                          {"differing", t.differing},
                          {"catches", number(t.catches)}});
  return {{"path", g.path},           {"written", g.written}, {"made_of", g.made_of},   {"changes", changes},
          {"tolerances", tolerances}, {"series", g.series},   {"problems", g.problems}, {"replaced", g.replaced}};
}

// check: its verdicts as results (the series, the laws, the findings) and their tally, then each
// of its fields once.
std::string json_of(const CheckReport& r) {
  nlohmann::json j;
  j["command"] = "check";
  j["seconds"] = r.seconds;
  const std::vector<ReportEntry> entries = check_entries(r);
  j["results"] = results(entries);
  put_tally(j, tally(entries));
  j["findings"] = nlohmann::json::array();
  for (const auto& f : r.findings)
    j["findings"].push_back({{"id", f.id},
                             {"law", f.law},
                             {"step", f.step},
                             {"where", f.where},
                             {"detail", f.detail},
                             {"advice", f.advice},
                             {"allowed", f.allowed}});
  j["run_plots"] = nlohmann::json::array();
  for (const auto& p : r.run_plots) {
    nlohmann::json lines = nlohmann::json::array(), marks = nlohmann::json::array();
    for (const auto& l : p.lines) {
      nlohmann::json values = nlohmann::json::array();
      for (double v : l.values) values.push_back(std::isfinite(v) ? nlohmann::json(v) : nlohmann::json());
      lines.push_back({{"run", l.run}, {"values", values}});
    }
    for (const auto& m : p.findings) marks.push_back({{"step", m.step}, {"finding", m.what}});
    j["run_plots"].push_back({{"series", p.series},
                              {"steps", p.steps},
                              {"lines", lines},
                              {"kills", p.kills},
                              {"restarts", p.restarts},
                              {"departure", p.departure},
                              {"findings", marks}});
  }
  j["golden"] = r.golden ? json_of(*r.golden) : nlohmann::json();
  j["kept"] = r.kept;
  return j.dump(2) + "\n";
}

class JsonReporter : public Reporter {
 public:
  std::string verify(const VerifyReport& r) const override { return json_of(r); }
  std::string check(const CheckReport& r) const override { return json_of(r); }
  std::string mutate(const MutateReport& r) const override {
    nlohmann::json j;
    j["command"] = "mutate";
    j["mutants"] = nlohmann::json::array();
    for (const auto& m : r.mutants)
      j["mutants"].push_back({{"id", m.id},
                              {"what", m.what},
                              {"where", m.where},
                              {"outcome", outcome_text(m.outcome)},
                              {"by", m.by},
                              {"why", m.why}});
    j["unmutated_findings"] = r.base_findings;
    j["summary"] = {{"mutants", r.mutants.size()},
                    {"caught", r.caught},
                    {"survived", r.survived},
                    {"not_applicable", r.not_applicable}};
    return j.dump(2) + "\n";
  }
};

}  // namespace

std::unique_ptr<Reporter> json_reporter() {
  return std::make_unique<JsonReporter>();
}

}  // namespace trainproof
