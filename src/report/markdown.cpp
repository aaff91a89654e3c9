// The Markdown reports, for a pull request: verify's, compare's, ddp-check's, check's, regen's,
// tolerances' and mutate's.
#include <cmath>

#include <fmt/format.h>

#include "trainproof/report/report.h"

namespace trainproof {

namespace {

std::string tolerance_table(const std::vector<ToleranceRow>& rows) {
  std::string md =
      "| scenario | device | series | dtype | cross tolerance | spread (rel) | paths differing | catches a change of "
      "|\n"
      "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const auto& r : rows)
    md += fmt::format("| {} | {} | `{}` | {} | `{}` | {} | {} | {} |\n", r.scenario, r.device, r.series, r.dtype,
                      r.cross, r.provenance.rfind("spread", 0) == 0 ? short_num(r.spread_rel) : r.provenance,
                      r.differing.empty() ? "none" : r.differing,
                      std::isnan(r.catches)      ? "(all values zero)"
                      : std::isfinite(r.catches) ? fmt::format("{:.2g}%", 100 * r.catches)
                                                 : "(informational)");
  return md;
}

std::string tolerances_markdown(const std::vector<ToleranceRow>& rows) {
  return "### trainproof cross-environment tolerances\n\n" + tolerance_table(rows);
}

std::string regen_markdown(const std::vector<RegenChange>& changes, const std::vector<ToleranceRow>& tolerances) {
  std::string md =
      "### trainproof regen\n\n| scenario | device | series | change | values changed | max rel diff |\n"
      "| --- | --- | --- | --- | --- | --- |\n";
  size_t shown = 0;
  for (const auto& c : changes) {
    if (c.change == "unchanged") continue;
    ++shown;
    md += fmt::format("| {} | {} | `{}` | {} | {} | {} |\n", c.scenario, c.device, c.series, c.change,
                      c.change == "changed" ? fmt::format("{} of {}", c.changed_values, c.values) : "",
                      c.change == "changed" ? short_num(c.max_rel) : "");
  }
  if (!shown) md += "| | | | no series changed | | |\n";
  md +=
      fmt::format("\n{} series compared.\n\n#### Cross-environment tolerances (measured across execution paths)\n\n{}",
                  changes.size(), tolerance_table(tolerances));
  return md;
}

// verify, compare, ddp-check: a row per check not passing, then the counts.
std::string verify_markdown(const VerifyReport& r) {
  const Tally n = tally(r.entries);
  std::string md = fmt::format("### trainproof {}: {}\n\n{} checks: {}, {:.1f} s.\n", report_kind_text(r.kind),
                               n.failed ? "FAILED" : "passed", r.entries.size(), n.str(), r.seconds);
  std::string rows;
  for (const auto& e : r.entries)
    if (!e.passed())
      rows +=
          fmt::format("| {} | {} | `{}` | {} | {} |\n", e.scenario, e.device, e.name, status_text(e.status), e.detail);
  if (!rows.empty())
    md += "\n| scenario | device | check | status | detail |\n| --- | --- | --- | --- | --- |\n" + rows;
  for (const auto& v : r.verdicts) md += fmt::format("\n- {}", v);
  return md + "\n";
}

// check: every law, the series outside the golden's tolerances, every finding, the golden --regen
// wrote or refused (with what changed and its tolerances), and where the runs are kept. The plots
// of its runs are the HTML's.
std::string check_markdown(const CheckReport& r) {
  const Tally n = law_tally(r);
  const bool failed = exit_code(r) == 1;
  std::string md = fmt::format(
      "### trainproof check: {}\n\n{} laws: {} held, {} broken, {} not tested; {} finding(s); "
      "{:.1f} s.\n\n| status | law | detail |\n| --- | --- | --- |\n",
      failed ? "FAILED" : "passed", n.passed + n.failed + n.skipped, n.passed, n.failed, n.skipped, r.findings.size(),
      r.seconds);
  for (const auto& l : r.laws) md += fmt::format("| {} | {} | {} |\n", status_text(l.status), l.name, l.detail);
  for (const auto& e : r.series)
    if (!e.passed()) md += fmt::format("| {} | `{}` | {} |\n", status_text(e.status), e.heading(), e.detail);
  if (!r.findings.empty()) {
    md += "\n| status | finding | step | where | detail |\n| --- | --- | --- | --- | --- |\n";
    for (const auto& f : r.findings)
      md += fmt::format("| {} | `{}` | {} | `{}` | {} |\n", status_text(f.status()), f.id,
                        f.step >= 0 ? std::to_string(f.step) : "", f.where, f.detail);
  }
  if (const auto& g = r.golden) {
    md += fmt::format("\n**{}** `{}` ({}).\n", g->written ? "Wrote" : "REFUSED to write", g->path, g->made_of);
    if (!g->replaced.empty()) md += fmt::format("\nThe old golden could not be read: {}.\n", g->replaced);
    for (const auto& p : g->problems) md += fmt::format("\n- {}: {}", g->problem_status(), p);
    for (const auto& line : g->series) md += fmt::format("\n- {}", line);
    md += "\n\n" + regen_markdown(g->changes, g->tolerances);
  }
  if (!r.kept.empty()) md += fmt::format("\nRuns kept in `{}`.\n", r.kept);
  return md;
}

class MarkdownReporter : public Reporter {
 public:
  std::string verify(const VerifyReport& r) const override { return verify_markdown(r); }
  std::string check(const CheckReport& r) const override { return check_markdown(r); }
  std::string regen(const RegenReport& r) const override {
    std::vector<RegenChange> changes;
    for (const auto& d : r.devices)
      for (const auto& s : d.scenarios) changes.insert(changes.end(), s.changes.begin(), s.changes.end());
    return regen_markdown(changes, r.tolerances);
  }
  std::string tolerances(const std::vector<ToleranceRow>& rows) const override { return tolerances_markdown(rows); }
  std::string mutate(const MutateReport& r) const override {
    std::string md = "| outcome | mutation | where | by / why |\n|---|---|---|---|\n";
    for (const auto& m : r.mutants)
      md += fmt::format("| {} | {} | {} | {} |\n", outcome_text(m.outcome), m.id, m.where.empty() ? "-" : m.where,
                        m.by.empty() ? m.why : m.by);
    return md + "\n" + r.summary() + "\n";
  }
};

}  // namespace

std::unique_ptr<Reporter> markdown_reporter() {
  return std::make_unique<MarkdownReporter>();
}

}  // namespace trainproof
