// The JUnit XML report: one testcase per scenario x device x series, invariant, law or finding
// (and check's golden).
#include <fmt/format.h>

#include "src/report/xml.h"
#include "trainproof/report/report.h"

namespace trainproof {

namespace {

// A testcase per entry: `rule` heads a law or invariant.
std::string testcases(const std::vector<ReportEntry>& entries, const std::string& rule, size_t& failures,
                      size_t& errors, size_t& skipped) {
  std::string cases;
  for (const auto& e : entries) {
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
  return cases;
}

std::string suite(const std::string& name, size_t tests, size_t failures, size_t errors, size_t skipped, double seconds,
                  const std::string& properties, const std::string& cases) {
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"trainproof {}\" tests=\"{}\" "
      "failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n{}{}  </testsuite>\n</testsuites>\n",
      name, tests, failures, errors, skipped, seconds, properties, cases);
}

std::string junit_of(const VerifyReport& r) {
  // A law of ddp-check is an entry of kind "invariant" too; its row says which it is.
  const char* rule = r.kind == ReportKind::kVerify ? "invariant: " : "law: ";
  size_t failures = 0, errors = 0, skipped = 0;
  const std::string cases = testcases(r.entries, rule, failures, errors, skipped);
  return suite(report_kind_text(r.kind), r.entries.size(), failures, errors, skipped, r.seconds, "", cases);
}

// check: a testcase per series, law and finding, and one for the golden --regen wrote (a failure
// where it was refused); where its runs are kept is a property. The plots are the HTML's.
std::string junit_of(const CheckReport& r) {
  size_t failures = 0, errors = 0, skipped = 0;
  const auto entries = check_entries(r);
  std::string cases = testcases(entries, "law: ", failures, errors, skipped);
  if (const auto& g = r.golden) {
    cases += fmt::format(R"(    <testcase classname="trainproof.check.golden" name="golden: {}" time="0">)",
                         xml_escape(g->path));
    std::string lines;
    if (!g->replaced.empty()) lines += "the old golden could not be read: " + g->replaced + "\n";
    for (const auto& p : g->problems) lines += fmt::format("{}: {}\n", g->problem_status(), p);
    for (const auto& c : g->changes) lines += fmt::format("{}: {}; cross {}\n", c.series, c.what, c.cross);
    for (const auto& t : g->tolerances)
      lines += fmt::format("{}: tolerance {} ({})\n", t.series, t.cross, t.provenance);
    for (const auto& line : g->series) lines += line + "\n";
    if (!g->written) {
      ++failures;
      cases += fmt::format(R"(<failure message="refused">{}</failure>)", xml_escape(g->made_of + "\n" + lines));
    } else {
      cases += fmt::format("<system-out>{}</system-out>",
                           xml_escape("wrote " + g->path + " (" + g->made_of + ")\n" + lines));
    }
    cases += "</testcase>\n";
  }
  const std::string properties =
      r.kept.empty()
          ? ""
          : fmt::format("    <properties><property name=\"kept\" value=\"{}\"/></properties>\n", xml_escape(r.kept));
  return suite("check", entries.size() + (r.golden ? 1 : 0), failures, errors, skipped, r.seconds, properties, cases);
}

class JunitReporter : public Reporter {
 public:
  std::string verify(const VerifyReport& r) const override { return junit_of(r); }
  std::string check(const CheckReport& r) const override { return junit_of(r); }
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
