// The JUnit XML report: one testcase per scenario x device x series, invariant or finding.
#include <fmt/format.h>

#include "src/report/xml.h"
#include "trainproof/report/report.h"

namespace trainproof {

namespace {

std::string junit_of(const VerifyReport& r) {
  // A law of check or ddp-check is an entry of kind "invariant" too; its row says which it is.
  const char* rule = r.kind == ReportKind::kVerify ? "invariant: " : "law: ";
  size_t failures = 0, errors = 0, skipped = 0;
  std::string cases;
  for (const auto& e : r.entries) {
    cases += fmt::format(R"(    <testcase classname="trainproof.{}.{}" name="{}" time="0">)", xml_escape(e.scenario),
                         xml_escape(e.device), xml_escape(e.kind == EntryKind::kInvariant ? rule + e.name : e.name));
    if (e.skipped()) {
      ++skipped;
      cases += fmt::format(R"(<skipped message="{}"/>)", xml_escape(e.detail));
    } else if (e.status == Status::kBadInput || e.status == Status::kError) {
      ++errors;
      cases +=
          fmt::format(R"(<error message="{}">{}</error>)", xml_escape(status_text(e.status)), xml_escape(e.detail));
    } else if (e.failed()) {
      ++failures;
      const std::string msg = e.first_divergence >= 0 ? fmt::format("{}: first divergence at [{}]",
                                                                    status_text(e.status), e.first_divergence)
                                                      : std::string(status_text(e.status));
      cases += fmt::format(R"(<failure message="{}">{}</failure>)", xml_escape(msg), xml_escape(e.detail));
    }
    cases += "</testcase>\n";
  }
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"trainproof {}\" tests=\"{}\" "
      "failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n{}  </testsuite>\n</testsuites>\n",
      report_kind_text(r.kind), r.entries.size(), failures, errors, skipped, r.seconds, cases);
}

class JunitReporter : public Reporter {
 public:
  std::string verify(const VerifyReport& r) const override { return junit_of(r); }
  // A mutant a testcase: a survivor fails, one not applicable is skipped.
  std::string mutate(const MutateReport& r) const override {
    std::string x = fmt::format(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"trainproof mutate\" tests=\"{}\" "
        "failures=\"{}\" skipped=\"{}\">\n",
        r.mutants.size(), r.survived, r.not_applicable);
    for (const auto& m : r.mutants) {
      x += fmt::format("  <testcase classname=\"mutate.{}\" name=\"{}\">", xml_escape(m.id),
                       xml_escape(m.where.empty() ? m.id : m.where));
      if (m.outcome == MutantResult::Outcome::kSurvived)
        x += fmt::format("<failure message=\"survived\">{}</failure>", xml_escape(m.why));
      else if (m.outcome == MutantResult::Outcome::kNotApplicable)
        x += fmt::format("<skipped message=\"{}\"/>", xml_escape(m.why));
      else
        x += fmt::format("<system-out>{}</system-out>", xml_escape(m.by));
      x += "</testcase>\n";
    }
    return x + "</testsuite>\n";
  }
};

}  // namespace

std::unique_ptr<Reporter> junit_reporter() {
  return std::make_unique<JunitReporter>();
}

}  // namespace trainproof
