// The JSON report: every entry, the tally, the fingerprint notes, the findings.
#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "trainproof/report/report.h"

namespace trainproof {

namespace {

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
  j["results"] = nlohmann::json::array();
  for (const auto& e : r.entries) {
    nlohmann::json x = {{"scenario", e.scenario},          {"device", e.device},
                        {"kind", entry_kind_text(e.kind)}, {"name", e.name},
                        {"status", status_text(e.status)}, {"detail", e.detail}};
    if (e.kind == EntryKind::kSeries) {
      x["tolerance"] = e.tolerance;
      x["cross_environment"] = e.cross_environment;
      x["max_abs"] = std::isfinite(e.max_abs) ? nlohmann::json(e.max_abs) : nlohmann::json("inf");
      x["max_rel"] = std::isfinite(e.max_rel) ? nlohmann::json(e.max_rel) : nlohmann::json("inf");
      x["max_ulp"] = e.max_ulp;
      x["first_divergence"] = e.first_divergence;
    }
    j["results"].push_back(x);
  }
  const Tally n = tally(r.entries);
  j["passed"] = n.passed;
  j["failed"] = n.failed;
  j["skipped"] = n.skipped;
  j["devices_not_verified"] = r.unverified_devices;
  j["findings"] = nlohmann::json::array();
  for (const auto& f : r.findings)
    j["findings"].push_back({{"id", f.id},
                             {"law", f.law},
                             {"step", f.step},
                             {"where", f.where},
                             {"detail", f.detail},
                             {"advice", f.advice},
                             {"allowed", f.allowed}});
  return j.dump(2) + "\n";
}

class JsonReporter : public Reporter {
 public:
  std::string verify(const VerifyReport& r) const override { return json_of(r); }
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
